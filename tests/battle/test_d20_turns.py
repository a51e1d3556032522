"""The d20 turn in battle (seed 004, D-2): the dying creature's d% at the start of its turn
(stabilise on 10 or less, else 1 hit point lost, dead at -10), initiative d20 + the sheet's Dex
modifier with D-2's ties, and the 5-foot step (one cell, no attack of opportunity, only when not
otherwise moving). Numbers worked out by hand from D-2 and the sample sheets
(game/data/d20/sheets.toml: human 8 hit points, AC 12, Dex +1, unarmed 1d3; station_guard
ranged +4, Dex +2, pistol 2d6; scavenger Dex +3)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from game.battle import ai
from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.options import options_for
from game.battle.preview import reach
from game.battle.setup import UnitSpec
from game.rules.d20.sheet import Sheet
from game.rules.dice import Roller
from game.tactics.battlefield import EntitySheet
from game.tactics.rulesets.d20_battle import BATTLE, D20Battle
from tests.battle.conftest import MakeBattle
from tests.battle.d20_fields import d20_battle, hp, kinds

# ---------------------------------------------------------------- the dying creature's d%


def start(sheet: Sheet, *faces: int) -> tuple[Sheet, list[dict[str, object]], int]:
    """The d20 object's turn start for a unit with `sheet`, the d% faces given."""
    roller = Roller(1)
    roller.supply(*faces)
    unit = EntitySheet("bo", "red", (0, 0, 0), sheet=sheet)
    effects = BATTLE.turn_start(roller, None, unit, sheet)  # type: ignore[arg-type]
    assert isinstance(effects.after, Sheet)
    return effects.after, [dict(s.data) for s in effects.steps], len(roller.log)


def test_d2_a_dying_creature_rolling_above_10_on_d100_loses_1_hit_point() -> None:
    # D-2 "-1 to -9 dying (-1 a round, 10% each round to stabilise)": -3, d% 57 -> -4.
    after, steps, rolls = start(Sheet(hit_points=-3), 57)
    assert after.hit_points == -4 and not after.stable
    assert steps == [
        {"unit": "bo", "roll": 57, "stabilised": False, "hit_points": -4, "state": "dying"}
    ]
    assert rolls == 1


def test_d2_a_dying_creature_rolling_10_or_less_stabilises_and_bleeds_no_more() -> None:
    # "10% each round to stabilise": faces 1..10 of a d100. A 10 stabilises at -3.
    after, steps, _ = start(Sheet(hit_points=-3), 10)
    assert after.hit_points == -3 and after.stable
    assert steps[0]["stabilised"] is True
    # The next rounds roll nothing and lose nothing.
    again, steps, rolls = start(after)
    assert again == after and steps == [] and rolls == 0
    # A stable creature keeps losing its turns, named as stabilised.
    effects = BATTLE.condition_effects(after)
    assert effects.turn_lost == "stabilised" and effects.out_of_combat and not effects.dead


def test_d2_dying_bleeds_over_rounds_with_given_rolls_and_dies_at_minus_10() -> None:
    # From -7: 50 -> -8, 99 -> -9, 11 -> -10 "-10 dead" (11 is above 10: no stabilising).
    sheet = Sheet(hit_points=-7)
    seen = []
    for face in (50, 99, 11):
        sheet, steps, _ = start(sheet, face)
        seen.append((steps[0]["hit_points"], steps[0]["state"]))
    assert seen == [(-8, "dying"), (-9, "dying"), (-10, "dead")]
    assert BATTLE.condition_effects(sheet).dead


def test_d2_disabled_at_0_and_healthy_creatures_roll_nothing_at_the_start_of_their_turn() -> None:
    for points in (0, 5):
        after, steps, rolls = start(Sheet(hit_points=points))
        assert after.hit_points == points and steps == [] and rolls == 0


def test_a_stable_creature_that_takes_damage_is_dying_again() -> None:
    # 3.5 SRD (D-2's base): a stable creature hurt again loses its stability.
    stable = Sheet(hit_points=-3, stable=True)
    unit = EntitySheet("bo", "red", (0, 0, 0), sheet=stable)
    harm = BATTLE.damage(None, unit, "", 2)  # type: ignore[arg-type]
    assert harm.after.hit_points == -5 and not harm.after.stable


def test_d2_in_battle_a_dying_unit_rolls_at_its_turn_bleeds_and_the_battle_replays(
    make_battle: MakeBattle,
) -> None:
    # Initiative d20 + Dex: ada (station_guard, Dex +2) 20 -> 22, bo (human, +1) 1 -> 2,
    # cy (human) 2 -> 3: ada, cy, bo. Ada's pistol: d20 19 + 4 = 23 >= AC 12, hits (no
    # natural 20); 2d6 = 6 + 6 = 12 off bo's 8: -4, dying (D-2).
    units = [
        UnitSpec("ada", "blue", (5, 5, 0), template="station_guard"),
        UnitSpec("bo", "red", (9, 5, 0)),
        UnitSpec("cy", "red", (19, 11, 0)),
    ]
    commands: list[tuple[cmd.Command, str]] = [
        (cmd.EnterRoll((19, 6, 6)), GM),
        (cmd.Attack("ada", target="bo"), GM),
        (cmd.EndTurn("ada"), GM),
        (cmd.EnterRoll((57,)), GM),  # cy's turn now; bo's d% is next
        (cmd.EndTurn("cy"), GM),
    ]
    battle = d20_battle(make_battle, units, (20, 1, 2))
    assert [e.entity_id for e in battle.initiative.visible_order(True)] == ["ada", "cy", "bo"]
    log = []
    for command, by in commands:
        outcome = battle.apply(command, by)
        assert outcome.accepted, (command, outcome.refusal)
        log.extend(outcome.events)
    assert hp(battle, "bo") == -5  # -4, then d% 57: -1 (D-2)
    dying = [e for e in log if e.kind == "dying"]
    assert [(e.data["roll"], e.data["hit_points"]) for e in dying] == [(57, -5)]
    assert dying[0].rules == ("D-2",) and dying[0].rolls[0].total == 57
    skipped = [e for e in log if e.kind == "turn_skipped"]
    assert skipped and skipped[-1].data == {"unit": "bo", "because": "dying"}
    # The same commands on a new battle give the same state (the journal's replay).
    again = d20_battle(make_battle, units, (20, 1, 2))
    for command, by in commands:
        assert again.apply(command, by).accepted
    assert again.state_hash() == battle.state_hash()


def test_d2_in_battle_a_unit_dying_at_minus_9_dies_at_its_turn_and_falls(
    make_battle: MakeBattle,
) -> None:
    # 2d6 = 6 + 5 = 11 off 8: -3... a bigger hit: a natural 20 doubles the dice (D-2): 4d6
    # 6 + 6 + 4 + 1 = 17 off 8 = -9; then d% 42: -10, dead, and it falls.
    units = [
        UnitSpec("ada", "blue", (5, 5, 0), template="station_guard"),
        UnitSpec("bo", "red", (9, 5, 0)),
        UnitSpec("cy", "red", (19, 11, 0)),
    ]
    battle = d20_battle(make_battle, units, (20, 1, 2))
    for command in (
        cmd.EnterRoll((20, 6, 6, 4, 1)),
        cmd.Attack("ada", target="bo"),
        cmd.EndTurn("ada"),
        cmd.EnterRoll((42,)),
    ):
        assert battle.apply(command, GM).accepted
    assert hp(battle, "bo") == -9
    outcome = battle.apply(cmd.EndTurn("cy"), GM)
    assert outcome.accepted
    assert hp(battle, "bo") == -10
    assert kinds(outcome.events)[:4] == ["turn_ended", "turn_started", "dying", "died"]
    assert not battle.on_map("bo") and battle.active == "ada"


# ---------------------------------------------------------------- initiative


def test_d2_initiative_is_d20_plus_the_sheets_dex_modifier_ties_by_the_higher_modifier(
    make_battle: MakeBattle,
) -> None:
    # ada station_guard (Dex +2) 10 -> 12; bo scavenger (+3) 9 -> 12; cy human (+1) 11 -> 12:
    # all 12, "ties by Dex modifier": bo, ada, cy. (The periferie templates' initiative
    # bonuses are not read.)
    battle = d20_battle(
        make_battle,
        [
            UnitSpec("ada", "blue", (1, 1, 0), template="station_guard"),
            UnitSpec("bo", "red", (15, 1, 0), template="scavenger"),
            UnitSpec("cy", "red", (15, 9, 0)),
        ],
        (10, 9, 11),
    )
    order = battle.initiative.visible_order(True)
    assert [(e.entity_id, e.natural, e.total) for e in order] == [
        ("bo", 9, 12),
        ("ada", 10, 12),
        ("cy", 11, 12),
    ]


def test_d2_initiative_ties_on_score_and_dex_go_to_a_d20_roll_off(
    make_battle: MakeBattle,
) -> None:
    # Two humans (Dex +1) both roll 10: 11 each, same modifier; the roll-off (a d20 each, in
    # listing order) 5 for ada, 15 for bo: bo first.
    battle = d20_battle(
        make_battle,
        [UnitSpec("ada", "blue", (1, 1, 0)), UnitSpec("bo", "red", (15, 1, 0))],
        (10, 10, 5, 15),
    )
    order = battle.initiative.visible_order(True)
    assert [(e.entity_id, e.total) for e in order] == [("bo", 11), ("ada", 11)]


# ---------------------------------------------------------------- the 5-foot step


def duel(make_battle: MakeBattle, **more: object) -> Battle:
    """ada (blue) and bo (red) side by side; ada acts first (20 + 2 against 1 + 1)."""
    return d20_battle(
        make_battle,
        [
            UnitSpec("ada", "blue", (5, 5, 0), template="station_guard"),
            UnitSpec("bo", "red", (6, 5, 0)),
        ],
        (20, 1),
        **more,  # type: ignore[arg-type]
    )


def test_d2_a_5_foot_step_out_of_an_enemys_reach_provokes_no_attack_of_opportunity(
    make_battle: MakeBattle,
) -> None:
    battle = duel(make_battle)
    outcome = battle.apply(cmd.FiveFootStep("ada", (4, 5, 0)), GM)
    assert outcome.accepted, outcome.refusal
    assert kinds(outcome.events) == ["five_foot_step"]
    assert outcome.events[0].data == {"unit": "ada", "from": [5, 5, 0], "to": [4, 5, 0]}
    assert battle.pending is None and battle.sheet("ada").cell == (4, 5, 0)
    # The same cell by a move is an attack of opportunity offered to bo (D-2).
    other = duel(make_battle)
    moved = other.apply(cmd.Move("ada", (4, 5, 0)), GM)
    assert "reaction_offered" in kinds(moved.events)


def test_d2_no_5_foot_step_after_moving_and_no_move_after_one(make_battle: MakeBattle) -> None:
    battle = duel(make_battle)
    assert battle.apply(cmd.Move("ada", (5, 4, 0)), GM).accepted
    if battle.pending is not None:
        assert battle.apply(cmd.React("bo", take=False), GM).accepted
    refused = battle.apply(cmd.FiveFootStep("ada", (4, 4, 0)), GM)
    assert refused.refusal is not None and refused.refusal.code == "already_moved"
    options = {o.kind: o for o in options_for(battle, GM, "ada")}
    step = options["five_foot_step"].refusal
    assert step is not None and step.code == "already_moved"

    stepped = duel(make_battle)
    assert stepped.apply(cmd.FiveFootStep("ada", (4, 5, 0)), GM).accepted
    for command in (
        cmd.Move("ada", (3, 5, 0)),
        cmd.FiveFootStep("ada", (3, 5, 0)),
        cmd.Dash("ada"),
    ):
        refusal = stepped.apply(command, GM).refusal
        assert refusal is not None and refusal.code == "stepped", command
    options = {o.kind: o for o in options_for(stepped, GM, "ada")}
    assert options["move"].refusal is not None and options["move"].refusal.code == "stepped"
    # The standard action is still there (D-2: a step and a standard action).
    assert options["attack"].allowed


@pytest.mark.parametrize("to", [(3, 5, 0), (6, 5, 0), (5, 5, 1)])
def test_a_5_foot_step_is_one_cell_to_a_free_cell(make_battle: MakeBattle, to: tuple) -> None:
    # Two cells away, bo's own cell, and no footing: refused, nothing changed.
    battle = duel(make_battle)
    before = battle.state_hash()
    refusal = battle.apply(cmd.FiveFootStep("ada", to), GM).refusal
    assert refusal is not None and refusal.code in ("not_one_step", "outside_map")
    assert battle.state_hash() == before


def test_d2_a_5_foot_step_goes_diagonally_as_g4_but_not_into_difficult_terrain(
    make_battle: MakeBattle,
) -> None:
    battle = duel(make_battle)
    assert battle.apply(cmd.EditCell((4, 4, 0), terrain=("rough",)), GM).accepted
    assert (4, 4, 0) not in battle.five_foot_step_cells("ada")
    refusal = battle.apply(cmd.FiveFootStep("ada", (4, 4, 0)), GM).refusal
    assert refusal is not None and refusal.code == "not_one_step"
    assert battle.apply(cmd.FiveFootStep("ada", (4, 6, 0)), GM).accepted  # a diagonal, G-4


def test_a_prone_unit_takes_no_5_foot_step(make_battle: MakeBattle) -> None:
    # Crawling costs 2 a cell (the shared search): a hampered move, no step.
    battle = duel(make_battle)
    assert battle.apply(cmd.ChangeStance("ada", "prone"), GM).accepted
    assert battle.five_foot_step_cells("ada") == []


def test_the_5_foot_step_exists_only_where_the_rulesets_turn_budget_has_it(
    make_battle: MakeBattle,
) -> None:
    plain = make_battle(
        [UnitSpec("ada", "blue", (5, 5, 0)), UnitSpec("bo", "red", (6, 5, 0))],
        initiative=(20, 1),
    )
    assert "five_foot_step" not in {o.kind for o in options_for(plain, GM, "ada")}
    before = plain.state_hash()
    refusal = plain.apply(cmd.FiveFootStep("ada", (4, 5, 0)), GM).refusal
    assert refusal is not None and refusal.code == "not_in_ruleset"
    assert plain.state_hash() == before
    d20 = duel(make_battle)
    assert {o.kind: o for o in options_for(d20, GM, "ada")}["five_foot_step"].allowed


def test_the_5_foot_step_command_reads_back_from_its_json() -> None:
    step = cmd.FiveFootStep("ada", (4, 5, 0))
    assert step.to_json() == {"cmd": "five_foot_step", "unit": "ada", "to": [4, 5, 0]}
    assert cmd.parse_command(step.to_json()) == step


def test_the_computer_steps_out_of_reach_after_its_attack(make_battle: MakeBattle) -> None:
    # The action spent, bo next to it: a 5-foot step to a cell not next to bo rather than a
    # move that would provoke.
    battle = duel(make_battle, computer=frozenset({"blue", "red"}))
    assert battle.apply(cmd.EnterRoll((2,)), GM).accepted  # a miss: bo stays standing
    assert battle.apply(cmd.Attack("ada", target="bo"), GM).accepted
    chosen = ai.choose(battle, "ada")
    assert isinstance(chosen, cmd.FiveFootStep)
    assert max(abs(a - b) for a, b in zip(chosen.to, (6, 5, 0), strict=True)) > 1
    assert battle.apply(chosen, GM).accepted and battle.pending is None


def test_after_a_5_foot_step_the_preview_reaches_no_cell(make_battle: MakeBattle) -> None:
    battle = duel(make_battle)
    before = reach(battle, GM, "ada")
    assert before is not None and before.cells
    assert battle.apply(cmd.FiveFootStep("ada", (4, 5, 0)), GM).accepted
    after = reach(battle, GM, "ada")
    assert after is not None and not after.cells


# ---------------------------------------------------------------- attacks of opportunity


def test_d2_circling_an_enemy_leaves_a_threatened_cell_and_provokes_its_attack_of_opportunity(
    make_battle: MakeBattle,
) -> None:
    # D-2 "An attack of opportunity when a creature leaves a threatened cell": ada at (5,5)
    # steps to (5,4), still next to bo at (6,5) (reach 1, D-1). Under d20 bo is offered its
    # attack at (5,5); under periferie the step stays inside bo's 26-cell area (P-OA-1).
    battle = duel(make_battle)
    moved = battle.apply(cmd.Move("ada", (5, 4, 0)), GM)
    assert moved.accepted, moved.refusal
    offers = [e.data for e in moved.events if e.kind == "reaction_offered"]
    assert offers == [{"unit": "bo", "mover": "ada", "kind": "opportunity", "at": [5, 5, 0]}]
    shared = make_battle(
        [
            UnitSpec("ada", "blue", (5, 5, 0), template="station_guard"),
            UnitSpec("bo", "red", (6, 5, 0)),
        ],
        initiative=(20, 1),
    )
    assert "reaction_offered" not in kinds(shared.apply(cmd.Move("ada", (5, 4, 0)), GM).events)


def test_d2_a_move_that_stays_outside_the_threatened_cells_provokes_nothing(
    make_battle: MakeBattle,
) -> None:
    # D-1: bo threatens the cells within reach 1 of (6,5); ada walks from (3,5) to (3,8),
    # never next to bo: no attack of opportunity.
    battle = d20_battle(
        make_battle,
        [
            UnitSpec("ada", "blue", (3, 5, 0), template="station_guard"),
            UnitSpec("bo", "red", (6, 5, 0)),
        ],
        (20, 1),
    )
    moved = battle.apply(cmd.Move("ada", (3, 8, 0)), GM)
    assert moved.accepted, moved.refusal
    assert "reaction_offered" not in kinds(moved.events)
    assert battle.sheet("ada").cell == (3, 8, 0)


def test_d20_cover_from_the_reactor_blocks_its_attack_of_opportunity_004_l54_l58(
    make_battle: MakeBattle,
) -> None:
    # l.58: no attack of opportunity against an opponent with cover from the attacker; l.54:
    # next to it, any line between the cells through a wall, a low wall ("h") included. ada
    # at (5,4) is diagonal to bo at (6,5); the line from bo's corner (6,6) to ada's corner
    # (5,5) runs through (5.5,5.5), the middle of cell (5,5): a low wall there covers ada,
    # who walks off to (4,4) unattacked.
    rows = ["." * 20] * 12
    rows[5] = "....." + "h" + "." * 14
    units = [
        UnitSpec("ada", "blue", (5, 4, 0), template="station_guard"),
        UnitSpec("bo", "red", (6, 5, 0)),
    ]
    plain = make_battle(units, "\n".join(rows), initiative=(20, 1))
    battle = Battle(replace(plain.setup, ruleset="d20"), plain.grid, plain.rules)
    moved = battle.apply(cmd.Move("ada", (4, 4, 0)), GM)
    assert moved.accepted, moved.refusal
    assert "reaction_offered" not in kinds(moved.events)
    # Without the low wall the same walk is an attack of opportunity offered to bo.
    open_field = d20_battle(make_battle, units, (20, 1))
    offered = open_field.apply(cmd.Move("ada", (4, 4, 0)), GM)
    assert [e.data["at"] for e in offered.events if e.kind == "reaction_offered"] == [[5, 4, 0]]


def test_d2_a_walk_leaving_a_threatened_cell_through_an_allys_cell_provokes_the_attack(
    make_battle: MakeBattle,
) -> None:
    # D-2 "An attack of opportunity when a creature leaves a threatened cell other than by a
    # 5-foot step", whoever else stands in it. ada (station_guard, AC 15, 13 hit points) walks
    # from (3,3) to (5,5): two diagonal steps, the only 2-cell way, through her ally cy's cell
    # (4,4). bo (human, reach 1, D-1) at (5,3) threatens (4,4) but neither (3,3) nor (5,5),
    # both 2 cells off: the step out of cy's cell is the one that provokes. ada waits at
    # (3,3), the free cell before (no one ends in an occupied cell, P-MOV-4), and bo's attack
    # finds her in (4,4), next to him: d20 15 + 2 (human melee, unarmed 1d3) >= AC 15 hits
    # for a 1d3 of 2, 13 - 2 = 11. Against (3,3) it would be out of his reach.
    units = [
        UnitSpec("ada", "blue", (3, 3, 0), template="station_guard"),
        UnitSpec("cy", "blue", (4, 4, 0)),
        UnitSpec("bo", "red", (5, 3, 0)),
    ]
    battle = d20_battle(make_battle, units, (20, 5, 1))
    moved = battle.apply(cmd.Move("ada", (5, 5, 0)), GM)
    assert moved.accepted, moved.refusal
    offers = [e.data for e in moved.events if e.kind == "reaction_offered"]
    assert offers == [{"unit": "bo", "mover": "ada", "kind": "opportunity", "at": [4, 4, 0]}]
    assert battle.sheet("ada").cell == (3, 3, 0)
    assert battle.pending is not None and battle.pending.attacked_at == (4, 4, 0)
    # The pending reaction, where it finds the mover included, is kept by a snapshot.
    snapshot = json.loads(json.dumps(battle.snapshot()))
    assert snapshot["pending"]["attacked_at"] == [4, 4, 0]
    restored = Battle.restore(battle.setup, battle.grid, battle.rules, snapshot)
    try:
        assert restored.pending == battle.pending
        assert restored.state_hash() == battle.state_hash()
    finally:
        restored.close()
    assert battle.apply(cmd.EnterRoll((15, 2)), GM).accepted
    taken = battle.apply(cmd.React("bo", take=True), "red")
    assert taken.accepted, taken.refusal
    attack = next(e for e in taken.events if e.kind == "reaction_attack")
    assert (attack.data["natural"], attack.data["needed"], attack.data["hit"]) == (15, 13, True)
    assert "reaction_lost" not in kinds(taken.events)
    assert hp(battle, "ada") == 11
    # The walk goes on through cy's cell to (5,5); bo is not offered a second attack.
    assert battle.sheet("ada").cell == (5, 5, 0) and battle.pending is None
    assert "reaction_offered" not in kinds(taken.events)


def test_p_oa_1_under_periferie_the_same_walk_through_an_allys_cell_provokes_nothing(
    make_battle: MakeBattle,
) -> None:
    # P-OA-1 "No attack if the cell being left holds an ally of the mover": the shared rule
    # (periferie's) is as it was; only d20's threatened cells count the ally's cell (D-2).
    units = [
        UnitSpec("ada", "blue", (3, 3, 0), template="station_guard"),
        UnitSpec("cy", "blue", (4, 4, 0)),
        UnitSpec("bo", "red", (5, 3, 0)),
    ]
    battle = make_battle(units, initiative=(20, 5, 1))
    moved = battle.apply(cmd.Move("ada", (5, 5, 0)), GM)
    assert moved.accepted, moved.refusal
    assert "reaction_offered" not in kinds(moved.events)
    assert battle.sheet("ada").cell == (5, 5, 0)


def with_sheet(battle: Battle, unit: str, ruleset: D20Battle = BATTLE, **changes: object) -> Battle:
    """The battle restored from its snapshot with `unit`'s d20 sheet fields changed (a sheet
    no sample template gives, e.g. a reach of 2), under `ruleset`'s battle object."""
    snapshot = json.loads(json.dumps(battle.snapshot()))
    snapshot["units"][unit]["RulesetSheet"]["sheet"]["fields"].update(changes)
    restored = Battle.restore(battle.setup, battle.grid, battle.rules, snapshot, ruleset=ruleset)
    battle.close()
    return restored


def test_d1_the_computer_steps_out_of_a_reach_2_enemys_threat_to_3_cells_away(
    make_battle: MakeBattle,
) -> None:
    # D-1 "an ally threatens the cells within its reach"; reach is sheet data (D-2). bo with
    # reach 2 at (7,5) threatens ada's (5,5), 2 cells off. Her pistol spent (a d20 of 2 misses
    # AC 12), the 5-foot step goes where bo threatens nothing: 3 cells from him, x = 4.
    plain = d20_battle(
        make_battle,
        [
            UnitSpec("ada", "blue", (5, 5, 0), template="station_guard"),
            UnitSpec("bo", "red", (7, 5, 0)),
        ],
        (20, 1),
        computer=frozenset({"blue", "red"}),
    )
    battle = with_sheet(plain, "bo", reach=2)
    try:
        assert battle.apply(cmd.EnterRoll((2,)), GM).accepted
        assert battle.apply(cmd.Attack("ada", target="bo"), GM).accepted
        chosen = ai.choose(battle, "ada")
        assert isinstance(chosen, cmd.FiveFootStep)
        assert chosen.to[0] == 4
        assert battle.apply(chosen, GM).accepted and battle.pending is None
    finally:
        battle.close()


def test_d1_no_5_foot_step_when_every_step_stays_inside_a_reach_2_threat(
    make_battle: MakeBattle,
) -> None:
    # bo (reach 2) next to ada: each cell a 5-foot step reaches is within 2 of him, still
    # threatened; with reach 1 the same field has a step out (the test above this section's).
    plain = duel(make_battle, computer=frozenset({"blue", "red"}))
    battle = with_sheet(plain, "bo", reach=2)
    try:
        assert battle.apply(cmd.EnterRoll((2,)), GM).accepted
        assert battle.apply(cmd.Attack("ada", target="bo"), GM).accepted
        assert not isinstance(ai.choose(battle, "ada"), cmd.FiveFootStep)
    finally:
        battle.close()


# ---------------------------------------------------------------- the disabled creature (D-2)


def disabled_duel(make_battle: MakeBattle, **more: object) -> Battle:
    """The duel with ada disabled: her station_guard sheet at exactly 0 hit points (D-2)."""
    return with_sheet(duel(make_battle, **more), "ada", hit_points=0)


def test_d2_assumed_a_disabled_creatures_attack_costs_it_1_hit_point_after_the_act(
    make_battle: MakeBattle,
) -> None:
    # ASSUMED (base.toml [disabled], the 3.5 SRD's): "performing any standard action ...
    # deals 1 point of damage after the completion of the act"; D-2 "-1 to -9 dying". ada at
    # 0 shoots bo (human, AC 12, 8 hit points): d20 10 + 4 = 14 >= 12 hits, 2d6 = 3 + 4 = 7,
    # bo 8 - 7 = 1. Then ada pays: 0 - 1 = -1, dying, and her turn ends there.
    battle = disabled_duel(make_battle)
    try:
        assert battle.apply(cmd.EnterRoll((10, 3, 4)), GM).accepted
        shot = battle.apply(cmd.Attack("ada", target="bo"), GM)
        assert shot.accepted, shot.refusal
        damage = [
            (e.data["unit"], e.data["source"], e.data["damage"])
            for e in shot.events
            if e.kind == "damage"
        ]
        assert damage == [("bo", "ada", 7), ("ada", "exertion", 1)]
        assert (hp(battle, "bo"), hp(battle, "ada")) == (1, -1)
        strained = next(e for e in shot.events if e.data.get("source") == "exertion")
        assert strained.data["effects"] == ["dying"] and strained.rules == ("D-2",)
        assert "turn_cut_short" in kinds(shot.events)
        assert battle.over  # ada was blue's only fighter
    finally:
        battle.close()


def test_d2_a_creature_that_is_not_disabled_pays_nothing_for_its_attack(
    make_battle: MakeBattle,
) -> None:
    # The same shot by ada at her sheet's 13 hit points: bo takes 7, ada keeps 13.
    battle = duel(make_battle)
    assert battle.apply(cmd.EnterRoll((10, 3, 4)), GM).accepted
    shot = battle.apply(cmd.Attack("ada", target="bo"), GM)
    assert [e.data["unit"] for e in shot.events if e.kind == "damage"] == ["bo"]
    assert hp(battle, "ada") == 13 and battle.active == "ada"


def test_d2_a_miss_costs_a_disabled_creature_its_hit_point_too(make_battle: MakeBattle) -> None:
    # The act, not the hit, is strenuous: d20 2 + 4 = 6 < AC 12 misses; ada 0 - 1 = -1.
    battle = disabled_duel(make_battle)
    try:
        assert battle.apply(cmd.EnterRoll((2,)), GM).accepted
        shot = battle.apply(cmd.Attack("ada", target="bo"), GM)
        assert shot.accepted and hp(battle, "ada") == -1 and hp(battle, "bo") == 8
    finally:
        battle.close()


class Unstrained(D20Battle):
    """d20 with base.toml's [disabled] strenuous_damage = 0, as a GM may set it."""

    def exertion(self, unit: EntitySheet, act: str) -> int:
        return 0


def test_d2_a_disabled_creature_takes_a_move_or_a_standard_action_not_both(
    make_battle: MakeBattle,
) -> None:
    # D-2 "0 disabled (one action a turn)": after a move action no attack, and no double move.
    moved = disabled_duel(make_battle)
    try:
        assert moved.apply(cmd.Move("ada", (5, 3, 0)), GM).accepted
        if moved.pending is not None:
            assert moved.apply(cmd.React("bo", take=False), GM).accepted
        refused = moved.apply(cmd.Attack("ada", target="bo"), GM).refusal
        assert refused is not None and refused.code == "one_action"
        options = {o.kind: o for o in options_for(moved, GM, "ada")}
        attack = options["attack"].refusal
        assert attack is not None and attack.code == "one_action"
    finally:
        moved.close()
    # After a standard action, no move (the cost turned off so that ada stays disabled);
    # the 5-foot step goes with it, as D-2 allows when not otherwise moving.
    shot = with_sheet(duel(make_battle), "ada", Unstrained(), hit_points=0)
    try:
        assert shot.apply(cmd.EnterRoll((2,)), GM).accepted
        assert shot.apply(cmd.Attack("ada", target="bo"), GM).accepted
        assert hp(shot, "ada") == 0 and shot.active == "ada"
        refused = shot.apply(cmd.Move("ada", (5, 3, 0)), GM).refusal
        assert refused is not None and refused.code == "one_action"
        preview = reach(shot, GM, "ada")
        assert preview is not None and not preview.cells
        assert shot.apply(cmd.FiveFootStep("ada", (4, 5, 0)), GM).accepted
    finally:
        shot.close()


def test_d2_assumed_a_disabled_creature_moves_at_half_speed_and_never_doubles_it(
    make_battle: MakeBattle,
) -> None:
    # ASSUMED (base.toml [disabled], the 3.5 SRD's "She moves at half speed"): the station
    # guard's 6 cells // 2 = 3; no dash (a double move is two move actions).
    battle = disabled_duel(make_battle)
    try:
        preview = reach(battle, GM, "ada")
        assert preview is not None and preview.cells and not preview.dash_cells
        assert (5, 2, 0) in preview.cells and (5, 1, 0) not in preview.cells  # 3 and 4 away
        refused = battle.apply(cmd.Dash("ada"), GM).refusal
        assert refused is not None and refused.code == "one_action"
        refused = battle.apply(cmd.Move("ada", (5, 1, 0)), GM).refusal
        assert refused is not None
    finally:
        battle.close()


def test_the_computer_disabled_spares_itself_the_attack_while_an_ally_fights_on(
    make_battle: MakeBattle,
) -> None:
    # An attack would leave ada dying (D-2, the assumed cost) while her ally cy still fights
    # at no cost: she steps out of bo's reach instead (reach 1: a cell 2 from bo), and as a
    # reactor she lets a mover go. The last of her side fights on (else nobody would end the
    # battle but the stalemate rule).
    units = [
        UnitSpec("ada", "blue", (5, 5, 0), template="station_guard"),
        UnitSpec("bo", "red", (6, 5, 0)),
        UnitSpec("cy", "blue", (1, 1, 0)),
    ]
    computer = frozenset({"blue", "red"})
    plain = d20_battle(make_battle, units, (20, 1, 5), computer=computer)
    battle = with_sheet(plain, "ada", hit_points=0)
    try:
        chosen = ai.choose(battle, "ada")
        assert isinstance(chosen, cmd.FiveFootStep)
        assert max(abs(a - b) for a, b in zip(chosen.to, (6, 5, 0), strict=True)) > 1
    finally:
        battle.close()
    alone = disabled_duel(make_battle, computer=computer)
    try:
        assert ai.choose(alone, "ada") == cmd.Attack("ada", "bo")
    finally:
        alone.close()
    units = [
        UnitSpec("bo", "red", (5, 5, 0)),
        UnitSpec("ada", "blue", (6, 5, 0), template="station_guard"),
        UnitSpec("cy", "blue", (1, 1, 0)),
    ]
    reacting = with_sheet(d20_battle(make_battle, units, (20, 1, 5)), "ada", hit_points=0)
    try:
        moved = reacting.apply(cmd.Move("bo", (3, 5, 0)), GM)
        assert "reaction_offered" in kinds(moved.events)
        assert ai.choose(reacting, "ada") == cmd.React("ada", take=False)
    finally:
        reacting.close()
