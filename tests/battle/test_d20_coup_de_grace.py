"""The d20 coup de grâce in battle (004:l.106-120) and the defender conditions the battle's own
state gives: helpless while dying (l.110: "privo di sensi"; D-2's dying is unconscious),
flat-footed before a unit's first turn (l.29, assumed from D-2's 3.5 base).

Numbers worked out by hand from the seed, D-2 and the sample sheets (game/data/d20/sheets.toml:
human 8 hit points, AC 12 with Dex bonus 1, melee +2, unarmed 1d3; station_guard ranged +4,
Dex +2, pistol 2d6; scavenger melee +3, Dex +3, combat knife 1d4, AC 14) and base.toml's
assumed Fortitude +2 for every sheet."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from game.battle import ai
from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.options import options_for
from game.battle.setup import UnitSpec
from game.tactics.rulesets.d20_battle import BATTLE
from tests.battle.conftest import MakeBattle
from tests.battle.d20_fields import d20_battle, hp, kinds


def field(make_battle: MakeBattle, *, dee: bool = False, **more: object) -> Battle:
    """ada (blue station_guard) at (5,5) next to bo (red human) at (6,5); cy (blue scavenger)
    at (6,6), next to bo too; eve (red human) far off at (19,11) so that the fight goes on;
    with `dee`, a red human at (7,7) next to cy. Initiative d20 + Dex, faces in listing
    order: ada 20+2 = 22, bo 1+1 = 2, cy 15+3 = 18, eve 2+1 = 3, dee 3+1 = 4: ada, cy, dee,
    eve, bo."""
    units = [
        UnitSpec("ada", "blue", (5, 5, 0), template="station_guard"),
        UnitSpec("bo", "red", (6, 5, 0)),
        UnitSpec("cy", "blue", (6, 6, 0), template="scavenger"),
        UnitSpec("eve", "red", (19, 11, 0)),
    ]
    faces: tuple[int, ...] = (20, 1, 15, 2)
    if dee:
        units.append(UnitSpec("dee", "red", (7, 7, 0)))
        faces += (3,)
    return d20_battle(make_battle, units, faces, **more)  # type: ignore[arg-type]


def bo_dying(b: Battle) -> None:
    """ada's pistol: d20 19 + 4 hits; 2d6 = 6 + 6 = 12 off bo's 8: -4, dying (D-2)."""
    commands = (cmd.EnterRoll((19, 6, 6)), cmd.Attack("ada", target="bo"), cmd.EndTurn("ada"))
    for command in commands:
        outcome = b.apply(command, GM)
        assert outcome.accepted, (command, outcome.refusal)
    assert hp(b, "bo") == -4 and b.active == "cy"


# ---------------------------------------------------------------- defenders the battle knows


def test_d1_d2_a_unit_is_flat_footed_until_its_first_turn_and_loses_its_dex_bonus_to_ac(
    make_battle: MakeBattle,
) -> None:
    # 004:l.29 "Colto alla sprovvista +0 (1)", note 1 (l.42) "perde qualsiasi bonus di
    # Destrezza alla CA": bo (AC 12, Dex bonus 1) has not yet acted in round 1: AC 11, ada's
    # pistol (+4) needs 7: 14/20. Once bo's turn has begun, AC 12, needs 8: 13/20.
    b = field(make_battle)
    first = BATTLE.attack(b.bf, b.sheet("ada"), b.sheet("bo"))
    codes = {m.code: m.value for m in first.modifiers}
    assert codes["d20_ac.colto_alla_sprovvista"] == 0 and codes["d20_ac.dex_lost"] == -1
    assert first.chance == Fraction(14, 20)
    for command in (cmd.EndTurn("ada"), cmd.EndTurn("cy"), cmd.EndTurn("eve"), cmd.EndTurn("bo")):
        assert b.apply(command, GM).accepted
    assert b.active == "ada" and b.round == 2
    later = BATTLE.attack(b.bf, b.sheet("ada"), b.sheet("bo"))
    assert "d20_ac.colto_alla_sprovvista" not in {m.code for m in later.modifiers}
    assert later.chance == Fraction(13, 20)


def test_d2_a_dying_unit_is_helpless_minus_4_in_melee_and_dex_0(make_battle: MakeBattle) -> None:
    # 004:l.110 "indifeso ... privo di sensi" (D-2: dying, -1..-9, is unconscious); l.33
    # "Indifeso -4 (2)", note 2 (l.44): Dex 0, modifier -5 in place of bo's +1: -6. AC 12 - 4
    # - 6 = 2; cy's knife (+3) needs a 2 (a 1 always misses): 19/20. Flat-footed too (bo has
    # not acted), its Dex bonus already counted as Dex 0.
    b = field(make_battle)
    bo_dying(b)
    melee = BATTLE.attack(b.bf, b.sheet("cy"), b.sheet("bo"))
    codes = {m.code: m.value for m in melee.modifiers}
    assert codes["d20_ac.indifeso"] == -4 and codes["d20_ac.dex_zero"] == -6
    assert codes["d20_ac"] == 12 and codes["d20_needed"] == 2
    assert melee.chance == Fraction(19, 20)
    assert "D-2" in melee.rules


# ---------------------------------------------------------------- the coup de grâce


def test_004_l116_a_coup_de_grace_is_an_automatic_critical_and_a_failed_fortitude_save_kills(
    make_battle: MakeBattle,
) -> None:
    # cy's knife 1d4 doubled on the critical (D-2): 2d4 = 3 + 2 = 5, bo -4 -> -9, alive; the
    # save: DC 10 + 5 = 15, d20 12 + Fortitude 2 = 14 < 15: dead (D-2's -10), and it falls.
    b = field(make_battle)
    bo_dying(b)
    assert b.apply(cmd.EnterRoll((3, 2, 12)), GM).accepted
    outcome = b.apply(cmd.CoupDeGrace("cy", "bo"), GM)
    assert outcome.accepted, outcome.refusal
    assert kinds(outcome.events) == [
        "coup_de_grace_begun", "coup_de_grace", "damage", "fortitude_save", "died",
    ]  # fmt: skip
    blow = outcome.events[1]
    assert blow.data["damage"] == 5 and blow.data["sheet_weapon"] == "combat_knife"
    save = outcome.events[3].data
    assert save == {
        "unit": "bo", "natural": 12, "total": 14, "dc": 15, "survived": False, "hit_points": -10,
    }  # fmt: skip
    assert not b.on_map("bo")
    assert b.turn("cy").action == "coup_de_grace"


def test_004_l116_a_target_that_makes_its_fortitude_save_lives_on_dying(
    make_battle: MakeBattle,
) -> None:
    # 2d4 = 1 + 1 = 2: -4 -> -6; DC 12, d20 10 + 2 = 12: saved, still dying at -6.
    b = field(make_battle)
    bo_dying(b)
    assert b.apply(cmd.EnterRoll((1, 1, 10)), GM).accepted
    outcome = b.apply(cmd.CoupDeGrace("cy", "bo"), GM)
    assert outcome.accepted, outcome.refusal
    save = [e.data for e in outcome.events if e.kind == "fortitude_save"]
    assert save[0]["survived"] is True and save[0]["dc"] == 12
    assert b.on_map("bo") and hp(b, "bo") == -6


def test_004_l114_a_coup_de_grace_is_refused_by_name_on_a_target_not_helpless(
    make_battle: MakeBattle,
) -> None:
    b = field(make_battle)
    assert b.apply(cmd.EndTurn("ada"), GM).accepted  # bo is fighting (8 hit points)
    refusal = b.apply(cmd.CoupDeGrace("cy", "bo"), GM).refusal
    assert refusal is not None and refusal.values["reason"] == "not_helpless"
    assert b.turn("cy").action is None


def test_004_l114_no_coup_de_grace_with_a_pistol_nor_at_a_target_out_of_reach(
    make_battle: MakeBattle,
) -> None:
    # l.114: a melee weapon, or a bow or a crossbow next to the target: ada's pistol cannot.
    b = field(make_battle)
    bo_dying(b)
    pistol = BATTLE.coup_de_grace(b.bf, b.sheet("ada"), b.sheet("bo"))
    assert pistol.chance is None and pistol.reason == "weapon_cannot_coup_de_grace"
    # cy two cells away from bo: beyond its knife's reach (1, D-1).
    far = BATTLE.coup_de_grace(b.bf, replace(b.sheet("cy"), cell=(8, 5, 0)), b.sheet("bo"))
    assert far.chance is None and far.reason == "out_of_reach"
    assert b.apply(cmd.Move("cy", (6, 7, 0)), GM).accepted  # now 2 cells from bo
    refusal = b.apply(cmd.CoupDeGrace("cy", "bo"), GM).refusal
    assert refusal is not None and refusal.code == "moved_no_full_round"


def test_004_l114_a_full_round_action_refused_after_a_move_allowed_after_a_5_foot_step(
    make_battle: MakeBattle,
) -> None:
    b = field(make_battle)
    bo_dying(b)
    assert b.apply(cmd.FiveFootStep("cy", (7, 6, 0)), GM).accepted  # still next to bo
    assert b.apply(cmd.EnterRoll((1, 1, 20)), GM).accepted
    assert b.apply(cmd.CoupDeGrace("cy", "bo"), GM).accepted
    # No move after the full-round action (the bar says why).
    refusal = b.apply(cmd.Move("cy", (9, 9, 0)), GM).refusal
    assert refusal is not None and refusal.code in ("full_round_taken", "stepped")
    options = {o.kind: o for o in options_for(b, GM, "cy")}
    assert options["coup_de_grace"].refusal is not None


def test_004_l118_a_coup_de_grace_provokes_the_attack_of_opportunity_of_a_threatening_enemy(
    make_battle: MakeBattle,
) -> None:
    # dee (red, at (7,7)) threatens cy's cell (6,6) (reach 1, D-1): the blow is declared, the
    # attack offered to dee first. dee's unarmed d20 1 misses; then the blow: 2d4 = 4 + 4 = 8,
    # bo -4 -> -12, dead at once (no save).
    b = field(make_battle, dee=True)
    bo_dying(b)
    declared = b.apply(cmd.CoupDeGrace("cy", "bo"), GM)
    assert declared.accepted, declared.refusal
    offers = [e.data for e in declared.events if e.kind == "reaction_offered"]
    assert offers == [
        {"unit": "dee", "mover": "cy", "kind": "opportunity", "at": [6, 6, 0],
         "act": "coup_de_grace"},
    ]  # fmt: skip
    assert b.pending is not None and b.pending.coup_de_grace == "bo"
    assert b.on_map("bo") and hp(b, "bo") == -4  # nothing yet
    assert b.apply(cmd.EnterRoll((1, 4, 4)), GM).accepted
    struck = b.apply(cmd.React("dee", take=True), GM)
    assert struck.accepted, struck.refusal
    assert kinds(struck.events)[:2] == ["reaction_attack", "coup_de_grace"]
    assert "fortitude_save" not in kinds(struck.events) and not b.on_map("bo")
    assert b.pending is None and b.active == "cy"


def test_the_pending_coup_de_grace_reads_back_from_the_battles_snapshot(
    make_battle: MakeBattle,
) -> None:
    b = field(make_battle, dee=True)
    bo_dying(b)
    assert b.apply(cmd.CoupDeGrace("cy", "bo"), GM).accepted
    assert b.pending is not None
    again = Battle.restore(b.setup, b.grid, b.rules, b.snapshot())
    assert again.pending == b.pending and again.state_hash() == b.state_hash()


def test_the_coup_de_grace_command_reads_back_from_its_json() -> None:
    command = cmd.CoupDeGrace("cy", "bo")
    assert command.to_json() == {"cmd": "coup_de_grace", "unit": "cy", "target": "bo"}
    assert cmd.parse_command(command.to_json()) == command


def test_no_coup_de_grace_under_periferie(make_battle: MakeBattle) -> None:
    plain = make_battle(
        [UnitSpec("ada", "blue", (5, 5, 0)), UnitSpec("bo", "red", (6, 5, 0))], initiative=(20, 1)
    )
    refusal = plain.apply(cmd.CoupDeGrace("ada", "bo"), GM).refusal
    assert refusal is not None and refusal.code == "not_in_ruleset"
    assert "coup_de_grace" not in {o.kind for o in options_for(plain, GM, "ada")}


def test_the_computer_gives_a_coup_de_grace_when_it_is_worth_more_than_an_attack(
    make_battle: MakeBattle,
) -> None:
    # cy's blow at the dying bo: 2d4, mean 5 hit points, automatic; no conscious enemy to
    # attack: the coup de grâce is the best choice.
    b = field(make_battle, computer=frozenset({"blue", "red"}))
    bo_dying(b)
    chosen = ai.choose(b, "cy")
    assert chosen == cmd.CoupDeGrace("cy", "bo")
    assert BATTLE.coup_de_grace_harm(BATTLE.coup_de_grace(b.bf, b.sheet("cy"), b.sheet("bo"))) == 5


# ---------------------------------------------------------------- passing an ally (D-2)


def test_d2_under_d20_a_move_through_an_allys_cell_costs_no_extra_point(
    make_battle: MakeBattle,
) -> None:
    # ada (5,5) -> (7,5) through cy's cell (6,5): 2 points under d20 (D-2's 3.5 base); 3 under
    # periferie (P-MOV-4: +1 for the ally's cell).
    units = [
        UnitSpec("ada", "blue", (5, 5, 0), template="station_guard"),
        UnitSpec("cy", "blue", (6, 5, 0)),
        UnitSpec("eve", "red", (19, 11, 0)),
    ]
    for ruleset, cost in (("d20", 2), ("periferie", 3)):
        plain = make_battle(units, initiative=(20, 1, 1))
        b = Battle(replace(plain.setup, ruleset=ruleset), plain.grid, plain.rules)
        moved = b.apply(cmd.Move("ada", (7, 5, 0), via=((6, 5, 0),)), GM)
        assert moved.accepted, moved.refusal
        costs = [e.data["cost"] for e in moved.events if e.kind == "moved"]
        assert costs == [cost], ruleset
