"""Issue 16: each ruleset's battle object says a unit's health and armour in its own terms for
the unit card and the token's pips (`BattleRules.health_shown`): Myst's Status Globale (M-2),
fantasy's body sections and armour per location (003:l.174-185, F-3), Cepheus's END/STR/DEX
(C-5), d20's hit points (D-2). The sheets are the rulesets' sample data; every hit goes through
the object's own `damage`, the values after it worked out by hand in the comments."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from game.rules.ruleset_answers import HealthShown
from game.scenario.parse import parse_scenario
from game.tactics.battlefield import Battlefield
from game.tactics.ruleset import battle_rules


def _field(ruleset: str, sheet: object) -> Battlefield:
    scenario = {
        "ruleset": ruleset,
        "map": {"size": [4, 1, 1]},
        "entities": [{"id": "a", "faction": "x", "at": [0, 0, 0], "sheet": sheet}],
    }
    return parse_scenario(scenario, Path.cwd())[0]


def _hits(ruleset: str, sheet: object, *hits: tuple[str, int]) -> list[HealthShown]:
    """The unit's health shown at the start and after each hit (damage type, points)."""
    rules = battle_rules(ruleset)
    bf = _field(ruleset, sheet)
    unit = bf.by_id["a"]
    shown = []
    for damage_type, points in (("", 0), *hits):
        if points:
            unit = replace(unit, sheet=rules.damage(bf, unit, damage_type, points).after)
        found = rules.health_shown(unit.sheet)
        assert found is not None
        shown.append(found)
    return shown


def test_m2_myst_status_globale_falls_with_each_hit_and_the_pips_band_it() -> None:
    # myst/sheets.toml soldato: status 30, shield 10 (in its defence 50). M-2: damage lowers
    # Status Globale: 30 - 12 = 18 (hurt: a yellow pip); 18 - 3 = 15, half of 30 (orange);
    # 15 - 15 = 0, out of the fight (red).
    start, hurt, half, out = _hits("myst", "soldato", ("", 12), ("", 3), ("", 15))
    assert start == HealthShown("status", "unhurt", (), (("status", 30, 30),), (("shield", 10),))
    assert (hurt.state, hurt.pips, hurt.rows) == ("hurt", ("light",), (("status", 18, 30),))
    assert (half.state, half.pips, half.rows) == ("badly_hurt", ("grave",), (("status", 15, 30),))
    assert (out.state, out.pips, out.rows) == ("out", ("mortal",), (("status", 0, 30),))


def test_m2_a_myst_fighter_without_a_shield_shows_no_protection() -> None:
    # myst/sheets.toml arciere: no shield key, status 26, which is its whole Status Globale (not
    # the defaults' 30: it starts unhurt); M-2 keeps no armour on the sheet.
    (start,) = _hits("myst", "arciere")
    assert start.armour == () and start.rows == (("status", 26, 26),)
    assert (start.state, start.pips) == ("unhurt", ())


def test_003_l174_185_fantasy_body_sections_fill_from_lieve_down_and_armour_goes_first() -> None:
    # fantasy/sheets.toml guerriero: armour torso 3, head 2; shield 2, so DP 8 + 2 = 10 (l.76);
    # body boxes 2/2/2/1/1 (assumed defaults, F-3).
    start, torso, head, arms = _hits("fantasy", "guerriero", ("torso", 5), ("head", 4), ("arms", 3))
    assert start == HealthShown(
        "body",
        "unhurt",
        (),
        (("lieve", 0, 2), ("serio", 0, 2), ("grave", 0, 2), ("critico", 0, 1), ("mortale", 0, 1)),
        (("head", 2), ("torso", 3), ("dp", 10)),
    )
    # 5 on the torso: its 3 points are destroyed (5 >= 3, l.178) and 5 - 3 = 2 blacken Lieve's
    # two boxes: Lieve is full, its penalty -1 (F-3 assumed); one yellow pip.
    assert torso.rows[:2] == (("lieve", 2, 2), ("serio", 0, 2))
    assert (torso.state, torso.pips, torso.penalty) == ("lieve", ("light",), -1)
    assert torso.armour == (("head", 2), ("dp", 10))
    # 4 on the head: its 2 destroyed, 2 more boxes, Serio full (-2); two yellow pips.
    assert head.rows[:3] == (("lieve", 2, 2), ("serio", 2, 2), ("grave", 0, 2))
    assert (head.state, head.pips, head.penalty) == ("serio", ("light", "light"), -2)
    assert head.armour == (("dp", 10),)
    # 3 on the arms (no armour): 4 + 3 = 7 of 8 lost, Grave and Critico full (-4); the worst
    # pip first: Critico and Grave orange, then Serio and Lieve yellow.
    assert arms.rows[2:] == (("grave", 2, 2), ("critico", 1, 1), ("mortale", 0, 1))
    assert (arms.state, arms.penalty) == ("critico", -4)
    assert arms.pips == ("grave", "grave", "light", "light")


def test_003_l184_losing_the_last_body_point_is_dead() -> None:
    # popolano: no armour, 8 boxes; 8 on the torso blackens them all: dead (l.184).
    _start, dead = _hits("fantasy", "popolano", ("torso", 8))
    assert dead.state == "dead" and dead.rows[-1] == ("mortale", 1, 1)
    assert dead.pips == ("mortal", "grave", "grave", "light", "light")


def test_c5_cepheus_end_first_then_str_or_dex_and_the_wound_state() -> None:
    # A guard: STR 7, DEX 9, END 8, armour 5. 9 - 5 = 4 off END: 4/8, wounded (one damaged).
    # 12 - 5 = 7: END's 4 to 0, the 3 left to the higher of STR/DEX (the computer's choice,
    # C-5): DEX 9 -> 6, still wounded (two damaged, one at 0). 6 - 5 = 1 to the higher: STR 7
    # -> 6, all three damaged: seriously wounded (000:l.384-386), an orange pip.
    sheet = {"chars": {"str": 7, "dex": 9, "end": 8}, "armour": 5}
    start, one, two, three = _hits("cepheus", sheet, ("", 9), ("", 12), ("", 6))
    assert start == HealthShown(
        "characteristics",
        "uninjured",
        (),
        (("end", 8, 8), ("str", 7, 7), ("dex", 9, 9)),
        (("armour", 5),),
    )
    assert (one.state, one.pips, one.rows[0]) == ("wounded", ("light",), ("end", 4, 8))
    assert (two.state, two.rows) == ("wounded", (("end", 0, 8), ("str", 7, 7), ("dex", 6, 9)))
    assert (three.state, three.pips) == ("seriously_wounded", ("grave",))
    assert three.rows == (("end", 0, 8), ("str", 6, 7), ("dex", 6, 9))


def test_c5_two_cepheus_characteristics_at_zero_is_unconscious_a_red_pip() -> None:
    # STR 2, DEX 2, END 2, no armour: 4 takes END to 0 and 2 off the higher (equal: either)
    # to 0: two at zero, unconscious (000:l.357).
    sheet = {"chars": {"str": 2, "dex": 2, "end": 2}}
    _start, out = _hits("cepheus", sheet, ("", 4))
    assert (out.state, out.pips) == ("unconscious", ("mortal",))


def test_d2_d20_hit_points_disabled_at_zero_then_dying_and_stable() -> None:
    # d20/sheets.toml station_guard: 13 hit points, AC 15. 13 off: 0, disabled (an orange
    # pip); 4 more: -4, dying (red); the 10 % that stabilises makes it "stable" (D-2). Each
    # of the sample's full 13 (issue 16: the hit points it starts with).
    start, disabled, dying = _hits("d20", {"template": "station_guard"}, ("", 13), ("", 4))
    assert start == HealthShown("hit_points", "ok", (), (("hp", 13, 13),), (("ac", 15),))
    assert (disabled.state, disabled.pips, disabled.rows) == (
        "disabled",
        ("grave",),
        (("hp", 0, 13),),
    )
    assert (dying.state, dying.pips, dying.rows) == ("dying", ("mortal",), (("hp", -4, 13),))
    bf = _field("d20", {"template": "station_guard", "hit_points": -4})
    stable = battle_rules("d20").health_shown(replace(bf.by_id["a"].sheet, stable=True))
    assert stable is not None and (stable.state, stable.pips) == ("stable", ("mortal",))
    # A scenario starting it at -4 states no maximum: the sample's 13 stay its full ones.
    assert stable.rows == (("hp", -4, 13),)
    # One stating them: 5 of 20 (docs/query.md, `max_hit_points`).
    bf = _field("d20", {"template": "station_guard", "hit_points": 5, "max_hit_points": 20})
    stated = battle_rules("d20").health_shown(bf.by_id["a"].sheet)
    assert stated is not None and stated.rows == (("hp", 5, 20),)


def test_periferie_keeps_its_own_wound_ladder_no_health_shown() -> None:
    assert battle_rules("periferie").health_shown(None) is None


def test_what_another_side_is_shown_is_the_state_and_pips_only() -> None:
    (start,) = _hits("cepheus", {"chars": {"str": 7, "dex": 9, "end": 8}, "armour": 5})
    assert start.public() == HealthShown("characteristics", "uninjured")


def test_002_l150_l153_a_myst_riders_horse_and_gait_are_on_its_own_card_the_gait_for_all() -> None:
    # myst/sheets.toml cavaliere: mounted, Status Globale 34, shield 12; its horse's Status
    # Globale is mounted.toml's assumed 40. A lance blow of 8 at the horse (002:l.150) leaves
    # 40 - 8 = 32. It rides at a canter and declared the gallop (002:l.153: taken at its next
    # turn, "i suoi avversari potranno regolarsi di conseguenza": public).
    rules = battle_rules("myst")
    bf = _field("myst", "cavaliere")
    unit = bf.by_id["a"]
    unit = replace(unit, sheet=replace(unit.sheet, gait="canter"))  # type: ignore[type-var]
    unit = replace(unit, sheet=rules.damage(bf, unit, "horse", 8).after)
    unit = replace(unit, sheet=rules.declare_gait(unit.sheet, "gallop"))
    shown = rules.health_shown(unit.sheet)
    assert shown is not None
    assert shown.rows == (("status", 34, 34), ("horse", 32, 40))
    assert shown.notes == (("gait", "canter"), ("gait_next", "gallop"))
    # Another side sees the gait and the declared change, not the horse's numbers.
    assert shown.public() == HealthShown(
        "status", "unhurt", notes=(("gait", "canter"), ("gait_next", "gallop"))
    )


def test_002_l137_a_closed_defence_is_noted_for_anyone_and_a_foot_soldier_has_no_gait() -> None:
    # 002:l.137 "chiudersi in difesa rinunciando alla propria azione": the action given up in
    # the open, so the note is public; soldato is on foot: no horse row, no gait.
    rules = battle_rules("myst")
    unit = _field("myst", "soldato").by_id["a"]
    closed = replace(unit.sheet, closed_defence=True)  # type: ignore[type-var]
    shown = rules.health_shown(closed)
    assert shown is not None
    assert shown.rows == (("status", 30, 30),) and shown.notes == (("closed_defence", ""),)
    assert shown.public().notes == (("closed_defence", ""),)
    plain = rules.health_shown(unit.sheet)
    assert plain is not None and plain.notes == ()
