"""The d20 battle object (BattleRules for seed 004): the attack's exact chance with concealment,
D-2's roll with natural 1 and 20 and criticals doubling the dice, the expected harm, hit points
and their states, initiative with Dex and a roll-off, the turn budget, movement, sight without
creatures (D-3) and attacks of opportunity. Numbers worked out by hand from the sample sheets
(game/data/d20/sheets.toml: station_guard ranged +4, pistol 2d6; scavenger AC 14, 11 hit
points, Dex +3; void_marine speed 4) and seed 004 / D-2."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from game.grid.model import Cell
from game.rules.d20.sheet import Sheet
from game.rules.dice import Advantage, Roller
from game.rules.initiative import Combatant
from game.rules.ruleset_answers import Attack
from game.scenario.parse import parse_scenario
from game.tactics.battlefield import Battlefield
from game.tactics.ruleset import BattleRules, battle_rules, ruleset_for
from game.tactics.rulesets.d20_battle import BATTLE, D20Battle

ROOT = Path(__file__).resolve().parents[3]
#: The object as the battle finds it, checked against the protocol by mypy.
RULES: BattleRules = BATTLE


def field(
    *entities: dict[str, object], cells: list[dict[str, object]] | None = None
) -> Battlefield:
    bf, _ = parse_scenario(
        {
            "ruleset": "d20",
            "map": {"size": [12, 5, 2], "cells": cells or []},
            "entities": list(entities),
        },
        ROOT,
    )
    return bf


def unit(
    name: str, faction: str, at: tuple[int, int, int], sheet: object, **more: object
) -> dict[str, object]:
    return {"id": name, "faction": faction, "at": list(at), "sheet": sheet, **more}


def guard_and_scavenger(**target: object) -> Battlefield:
    scavenger: object = {"template": "scavenger", **target} if target else "scavenger"
    return field(
        unit("g", "security", (1, 2, 0), "station_guard"),
        unit("s", "raiders", (6, 2, 0), scavenger),
    )


def attack(bf: Battlefield, a: str = "g", t: str = "s") -> Attack:
    return BATTLE.attack(bf, bf.by_id[a], bf.by_id[t])


def test_d20_is_playable_and_its_object_is_the_d20_rulesets_battle_side() -> None:
    assert battle_rules("d20") is BATTLE
    assert ruleset_for("d20").battle is BATTLE
    assert isinstance(RULES, D20Battle)


def test_the_chance_is_d20_plus_bonus_against_ac_d2() -> None:
    # D-2 "hit when d20 + attack bonus >= AC": ranged +4 against AC 14 needs a 10: 11 faces
    # of 20. The breakdown: the bonus, the AC, the face needed.
    found = attack(guard_and_scavenger())
    assert found.chance == Fraction(11, 20)
    assert found.reason is None and found.cover == "none"
    codes = {m.code: m.value for m in found.modifiers}
    assert codes == {"d20_attack_bonus": 4, "d20_ac": 14, "d20_needed": 10}
    assert found.why[0] == "Chance to hit 55%"
    assert "D-2" in found.rules


def test_a_prone_target_is_ac_plus_4_at_range_004_l37() -> None:
    # l.37 "Prono -4 +4": +4 AC against a ranged attack: AC 18, a 14 needed, 7/20.
    bf = field(
        unit("g", "security", (1, 2, 0), "station_guard"),
        unit("s", "raiders", (6, 2, 0), "scavenger", stance="prone"),
    )
    found = attack(bf)
    assert found.chance == Fraction(7, 20)
    assert {m.code: m.value for m in found.modifiers}["d20_ac.prone"] == 4


def test_an_invisible_target_halves_the_chance_by_total_concealment_004_l84_l90() -> None:
    # l.90: invisibility is total concealment, l.84 "probabilità di fallimento del 50%":
    # 11/20 x 50/100 = 11/40.
    found = attack(guard_and_scavenger(conditions=["invisibile"]))
    assert found.chance == Fraction(11, 40)
    assert {m.code: m.value for m in found.modifiers}["d20_concealment"] == 50


def test_a_melee_attacker_out_of_reach_has_no_chance_with_the_reason_worded() -> None:
    bf = field(
        unit("k", "raiders", (1, 2, 0), "scavenger"),  # combat knife, reach 1
        unit("g", "security", (6, 2, 0), "station_guard"),
    )
    found = attack(bf, "k", "g")
    assert found.chance is None and found.reason == "out_of_reach"
    # The code periferie shares is worded as periferie's (reach 1: the 26 cells around).
    assert found.why == ("a melee weapon reaches the 26 cells around; target at 5",)
    assert BATTLE.expected_harm(bf, bf.by_id["k"], bf.by_id["g"], found) == 0


def test_a_natural_20_hits_any_ac_and_doubles_the_weapon_dice_d2() -> None:
    # D-2: "a natural 20 hits (no confirmation roll; criticals double the weapon dice)".
    bf = guard_and_scavenger(ac=40)
    found = attack(bf)
    assert found.chance == Fraction(1, 20)  # only the 20
    roller = Roller(1)
    roller.supply(20)
    rolled = BATTLE.roll_attack(roller, found, Advantage.NONE, "attack g")
    assert rolled.hit and rolled.logged["critical"] is True and rolled.logged["natural"] == 20
    assert BATTLE.damage_dice(bf.by_id["g"], found, rolled) == "4d6"  # 2d6 doubled
    roller.supply(3, 4, 5, 6)
    damage = BATTLE.roll_damage(roller, bf, bf.by_id["g"], _any_weapon(), found, rolled)
    assert damage.rolled == 18 and damage.record.expression == "4d6"


def test_a_natural_1_misses_whatever_the_bonus_d2() -> None:
    bf = guard_and_scavenger(ac=0)
    found = attack(bf)
    assert found.chance == Fraction(19, 20)  # every face but the 1
    roller = Roller(1)
    roller.supply(1)
    rolled = BATTLE.roll_attack(roller, found, Advantage.NONE, "attack g")
    assert not rolled.hit and rolled.logged["critical"] is False
    roller.supply(2)
    assert BATTLE.roll_attack(roller, found, Advantage.NONE, "attack g").hit


def test_concealment_is_rolled_only_after_a_hit_and_misses_at_or_below_its_percent_004_l80() -> (
    None
):
    found = attack(guard_and_scavenger(conditions=["invisibile"]))
    roller = Roller(1)
    roller.supply(15, 50)  # 15 + 4 = 19 >= 14 hits the AC; 50 <= 50: the miss chance takes it
    rolled = BATTLE.roll_attack(roller, found, Advantage.NONE, "attack g")
    assert not rolled.hit and rolled.logged["concealed"] is True
    roller.supply(15, 51)
    assert BATTLE.roll_attack(roller, found, Advantage.NONE, "attack g").hit
    roller.supply(5)  # 5 + 4 = 9 < 14: a miss, and no d100 is rolled (nothing left queued)
    assert not BATTLE.roll_attack(roller, found, Advantage.NONE, "attack g").hit
    assert roller.supplied == ()


def test_expected_harm_is_the_chance_times_the_mean_damage_plus_the_criticals_extra_dice() -> None:
    # 2d6 has mean 7. Chance 11/20: 77/20, and the natural 20 (1/20) adds another 2d6: 7/20.
    # 84/20 = 21/5 hit points.
    bf = guard_and_scavenger()
    found = attack(bf)
    assert BATTLE.expected_harm(bf, bf.by_id["g"], bf.by_id["s"], found) == Fraction(21, 5)
    # Invisible: both halved by the miss chance: 77/40 + 7/40 = 21/10.
    bf = guard_and_scavenger(conditions=["invisibile"])
    found = attack(bf)
    assert BATTLE.expected_harm(bf, bf.by_id["g"], bf.by_id["s"], found) == Fraction(21, 10)
    # Immune to critical hits: the chance times the mean alone, 77/20.
    bf = guard_and_scavenger(crit_immune=True)
    found = attack(bf)
    assert BATTLE.expected_harm(bf, bf.by_id["g"], bf.by_id["s"], found) == Fraction(77, 20)


def test_damage_takes_hit_points_and_reaches_disabled_dying_and_dead_d2() -> None:
    # D-2: "0 disabled (one action a turn), -1 to -9 dying, -10 dead". The scavenger has 11.
    bf = guard_and_scavenger()
    s = bf.by_id["s"]
    cases = {5: (6, ()), 11: (0, ("disabled",)), 12: (-1, ("dying",)), 21: (-10, ("dead",))}
    for rolled, (hit_points, effects) in cases.items():
        harm = BATTLE.damage(bf, s, "impatto", rolled)
        assert isinstance(harm.after, Sheet)
        assert (harm.damage, harm.after.hit_points, harm.effects) == (rolled, hit_points, effects)
        assert harm.rules == ("D-2",)
    assert BATTLE.damage(bf, s, "impatto", 12).why == ("11 - 12 = -1 hit points: dying",)


def test_the_states_tell_the_battle_what_a_turn_may_do_d2() -> None:
    sheet = Sheet(hit_points=5)
    ok = BATTLE.condition_effects(sheet)
    assert ok.turn_lost is None and ok.speed_cap is None and not ok.dead
    # Disabled: one action, a move or a standard one (D-2); assumed (base.toml [disabled],
    # the 3.5 SRD's "She moves at half speed"): 6 cells // 2 = 3.
    disabled = BATTLE.condition_effects(Sheet(hit_points=0))
    assert disabled.turn_lost is None and disabled.attack_barred is None
    assert disabled.speed_cap == 3 and not disabled.out_of_combat
    assert disabled.one_action == "disabled" and ok.one_action is None
    dying = BATTLE.condition_effects(Sheet(hit_points=-9))
    assert dying.turn_lost == "dying" and dying.no_reaction and dying.out_of_combat
    assert not dying.dead
    dead = BATTLE.condition_effects(Sheet(hit_points=-10))
    assert dead.turn_lost == "dead" and dead.dead


def test_initiative_is_d20_plus_dex_ties_by_dex_then_a_roll_off_d2() -> None:
    # D-2: "Initiative d20 + Dex modifier, ties by Dex modifier then a roll-off". All three
    # score 12: b (Dex +3) first; a and c (Dex +2) roll off: c's 17 beats a's 5.
    roller = Roller(1)
    roller.supply(10, 9, 10, 5, 17)
    combatants = [Combatant("a", "red", 2), Combatant("b", "blue", 3), Combatant("c", "red", 2)]
    order = BATTLE.start_initiative(roller, combatants)
    assert [e.entity_id for e in order.visible_order(True)] == ["b", "c", "a"]
    assert [e.total for e in order.visible_order(True)] == [12, 12, 12]
    assert roller.supplied == ()


def test_the_initiative_order_from_given_rolls_reads_dex_from_the_sheets() -> None:
    # Scavenger Dex +3, station guard Dex +2: 9 + 3 = 12 beats 9 + 2 = 11; 10 + 2 = 12 ties
    # with the scavenger's 12 and loses on Dex.
    bf = guard_and_scavenger()
    order = BATTLE.initiative_order(bf, {"g": 9, "s": 9})
    assert [(e.entity_id, e.total) for e in order] == [("s", 12), ("g", 11)]
    order = BATTLE.initiative_order(bf, {"g": 10, "s": 9})
    assert [(e.entity_id, e.total) for e in order] == [("s", 12), ("g", 12)]


def test_the_turn_budget_is_a_standard_and_a_move_action_on_the_battles_slots() -> None:
    budget = BATTLE.turn_budget()
    assert budget.costs["move"] == "movement" and budget.costs["attack"] == "action"
    assert budget.costs["dash"] == "action"  # the double move
    # throw and help: greyed, not offered (no aid another in seed 004 nor D-2, issue 15); the
    # coup de grâce, a full-round action (004:l.114), spends the action and forbids a move;
    # improvise: the GM's ruling, a d20 check (issue 15)
    assert budget.spending("action") == {
        "attack",
        "dash",
        "throw",
        "help",
        "coup_de_grace",
        "improvise",
    }
    # No readied attack, hide or medkit under d20; the throw and help are listed only to be
    # greyed.
    assert not {"ready", "hide", "use_object"} & budget.commands
    assert BATTLE.reactions == {"opportunity_attack"}


def test_movement_is_the_sheets_speed_twice_with_a_double_move_and_none_when_dying() -> None:
    # D-2: "Speed 30 ft = 6 cells"; the void marine's sheet says 4.
    bf = field(
        unit("m", "security", (1, 1, 0), "void_marine"),
        unit("d", "raiders", (5, 1, 0), {"hit_points": 0}),
        unit("x", "raiders", (8, 1, 0), {"hit_points": -3}),
        unit("p", "raiders", (8, 3, 0), "scavenger", stance="prone"),
    )
    request, _allow = BATTLE.move_request(bf, bf.by_id["m"], None, dash=False, stealth=False)
    assert request.budgets == {"walk": 4} and request.max_cells is None
    request, _ = BATTLE.move_request(bf, bf.by_id["m"], None, dash=True, stealth=False)
    assert request.budgets == {"walk": 8}
    # Disabled (the bare sheet's 6 cells): half speed, assumed, never doubled.
    for dash in (False, True):
        request, _ = BATTLE.move_request(bf, bf.by_id["d"], None, dash=dash, stealth=False)
        assert request.budgets == {"walk": 3} and request.max_cells is None
    request, _ = BATTLE.move_request(bf, bf.by_id["x"], None, dash=False, stealth=False)
    assert request.budgets == {}  # dying
    request, _ = BATTLE.move_request(bf, bf.by_id["p"], None, dash=False, stealth=False)
    assert request.crawling and request.mode == "crawl"


def test_creatures_never_block_sight_but_walls_do_d3() -> None:
    # D-3 "Creatures never block sight": an enemy between is no obstacle to the line.
    crowd = field(
        unit("g", "security", (1, 2, 0), "station_guard"),
        *(unit(f"x{y}", "raiders", (3, y, 0), "scavenger") for y in range(5)),
        unit("s", "raiders", (6, 2, 0), "scavenger"),
    )
    assert BATTLE.sight(crowd, crowd.by_id["g"], crowd.by_id["s"]).clear
    walls = [{"at": [3, y, z], "obstacle": "full"} for y in range(5) for z in range(2)]
    walled = field(
        unit("g", "security", (1, 2, 0), "station_guard"),
        unit("s", "raiders", (6, 2, 0), "scavenger"),
        cells=walls,
    )
    assert not BATTLE.sight(walled, walled.by_id["g"], (6, 2, 0)).clear


def provokes(bf: Battlefield, mover: str, a: Cell, b: Cell, reactor: str = "g") -> bool | None:
    return BATTLE.provokes(bf, bf.by_id[mover], bf.by_id[reactor], a, b)


def test_leaving_a_cell_the_reactor_threatens_provokes_even_into_another_it_threatens_d2() -> None:
    # D-2: "An attack of opportunity when a creature leaves a threatened cell"; D-1: "an ally
    # threatens the cells within its reach (1 by default)". g at (3,2) threatens (2,2): leaving
    # it to (1,2) provokes, and so does circling to (2,3), still next to g (the shared P-OA-1
    # area, 26 cells around g, would not count that step).
    bf = field(
        unit("k", "raiders", (2, 2, 0), "scavenger"),
        unit("g", "security", (3, 2, 0), "station_guard"),
    )
    assert provokes(bf, "k", (2, 2, 0), (1, 2, 0)) is True
    assert provokes(bf, "k", (2, 2, 0), (2, 3, 0)) is True
    # A step that stays outside the threatened cells: (1,2) is 2 cells from g, reach 1.
    assert provokes(bf, "k", (1, 2, 0), (0, 2, 0)) is False
    assert provokes(bf, "k", (1, 2, 0), (1, 3, 0)) is False


def test_a_reach_of_2_threatens_2_cells_away_and_leaving_them_provokes_d1_d2() -> None:
    # D-2: reach is sheet data; D-1: the cells within the reach. With reach 2, (1,2) is
    # threatened by g at (3,2) (2 cells), (0,2) is not: the step between them provokes, where
    # the shared area (1 cell around g) would see nothing.
    bf = field(
        unit("k", "raiders", (1, 2, 0), "scavenger"),
        unit("g", "security", (3, 2, 0), {"template": "station_guard", "reach": 2}),
    )
    assert provokes(bf, "k", (1, 2, 0), (0, 2, 0)) is True
    assert provokes(bf, "k", (0, 2, 0), (0, 3, 0)) is False  # 3 cells away: outside


def test_leaving_a_threatened_allys_cell_provokes_the_ally_there_is_no_soft_cover_d2() -> None:
    # D-2: leaving a threatened cell provokes, an ally standing in it or not. g (reach 2) at
    # (3,2) threatens (1,2), where k's ally a stands; k passing through it steps out to (0,2).
    # D-3's soft cover is the creatures in between: a, in the very cell k leaves, is not.
    bf = field(
        unit("k", "raiders", (0, 3, 0), "scavenger"),
        unit("a", "raiders", (1, 2, 0), "scavenger"),
        unit("g", "security", (3, 2, 0), {"template": "station_guard", "reach": 2}),
    )
    assert provokes(bf, "k", (1, 2, 0), (0, 2, 0)) is True


def test_a_dying_or_reach_0_reactor_threatens_nothing_and_is_never_provoked_d2_004_l104() -> None:
    # D-2's base: a dying creature (-1 to -9) threatens nothing; l.104: reach 0 threatens nothing.
    dying = field(
        unit("k", "raiders", (2, 2, 0), "scavenger"),
        unit("g", "security", (3, 2, 0), {"template": "station_guard", "hit_points": -1}),
    )
    assert provokes(dying, "k", (2, 2, 0), (1, 2, 0)) is False
    short = field(
        unit("k", "raiders", (2, 2, 0), "scavenger"),
        unit("g", "security", (3, 2, 0), {"template": "station_guard", "reach": 0}),
    )
    assert provokes(short, "k", (2, 2, 0), (1, 2, 0)) is False


def test_no_attack_of_opportunity_against_a_mover_with_cover_from_the_reactor_004_l54_l58() -> None:
    # l.58 "Un personaggio non può portare un attacco di opportunità contro un avversario che è
    # sotto copertura nei suoi confronti"; l.54: next to the attacker, cover when any line
    # between the two cells crosses a wall, a low wall ("muretto") included. k at (2,3) is
    # diagonal to g at (3,2): the line from g's corner (3,2) to k's corner (2,3) runs through
    # the middle of cell (2,2). A low wall there gives k cover; without it, k provokes.
    k_and_g = (
        unit("k", "raiders", (2, 3, 0), "scavenger"),
        unit("g", "security", (3, 2, 0), "station_guard"),
    )
    assert provokes(field(*k_and_g), "k", (2, 3, 0), (1, 3, 0)) is True
    walled = field(*k_and_g, cells=[{"at": [2, 2, 0], "obstacle": "half"}])
    assert provokes(walled, "k", (2, 3, 0), (1, 3, 0)) is False


def test_no_attack_of_opportunity_across_a_wall_total_cover_004_l68() -> None:
    # l.68: no line of sight is total cover, and no attack of opportunity against it. With
    # reach 2, g at (3,2) threatens (1,2), but a full wall at (2,2) stands on the line.
    bf = field(
        unit("k", "raiders", (1, 2, 0), "scavenger"),
        unit("g", "security", (3, 2, 0), {"template": "station_guard", "reach": 2}),
        cells=[{"at": [2, 2, z], "obstacle": "full"} for z in range(2)],
    )
    assert provokes(bf, "k", (1, 2, 0), (0, 2, 0)) is False


def test_no_attack_of_opportunity_against_an_invisible_mover_004_l86_l90() -> None:
    # l.86 "Un personaggio non può portare un attacco di opportunità contro un avversario sotto
    # occultamento totale"; l.90: invisibility is total concealment.
    bf = field(
        unit("k", "raiders", (2, 2, 0), {"template": "scavenger", "conditions": ["invisibile"]}),
        unit("g", "security", (3, 2, 0), "station_guard"),
    )
    assert provokes(bf, "k", (2, 2, 0), (1, 2, 0)) is False


def test_the_other_rulesets_keep_the_shared_attack_of_opportunity_rule() -> None:
    # None: the shared P-OA-1 area (periferie, fantasy's free attack on a fleeing fighter;
    # Cepheus and Myst have no such reaction at all).
    bf = field(
        unit("k", "raiders", (2, 2, 0), "scavenger"),
        unit("g", "security", (3, 2, 0), "station_guard"),
    )
    for ruleset in ("periferie", "cepheus", "myst", "fantasy"):
        rules = battle_rules(ruleset)
        found = rules.provokes(bf, bf.by_id["k"], bf.by_id["g"], (2, 2, 0), (1, 2, 0))
        assert found is None, ruleset


def _any_weapon():  # type: ignore[no-untyped-def]
    # The battle hands its periferie weapon; the d20 object strikes with the sheet's instead.
    from game.rules.data import load_rules

    return next(iter(load_rules().weapons.values()))
