"""P-MOV-8: two in one cell. "In alcuni casi può capitare che involontariamente una entità finisca
il proprio movimento su un'altra entità. In questo caso entrambe le entità devono effettuare un
tiro salvezza di acrobatica (DC10 + differenza di dimensione dell'altra entità moltiplicata per
2) per non cadere a terra e perdere un turno (effetto stordito). A partire dall'entità che è
arrivata per ultima sulla casella, se si ha successo nel tiro salvezza le entità possono
scegliere di spostarsi in una casella libera delle 8 circostanti alla casella di scontro.
L'entità presente per prima nella casella non può spostarsi se l'altra entità si è già
spostata. Tutte le azioni svolte dalle entità nella stessa casella sono svolte con svantaggio.
Un attacco a entità nella stessa casella avviene rivolto a entrambe e se le entità non sono in
copertura, sono considerate in alta esposizione." (seed 001)

The ruling: P-MOV-4 binds chosen moves only; a microgravity leap (or its drift) whose landing
cell was taken meanwhile ends there, and the rule above applies. The size difference is the
other entity's size minus one's own (small 0, medium 1, large 2; docs/rules.md).

The field: microgravity (0 g, no air), 30 x 3 cells, one wall at (14, 0) beside the landing cell
(14, 1). Cy (red, a human: jump 4, 8 cells a turn in microgravity, P-ZERO-1) leaps from (1, 1)
to (14, 1), 13 cells: 8 this turn, to (9, 1), and the last 5 at the start of her next turn.
Meanwhile bo (blue, a human) leaps into (14, 1) from (15, 2). Initiative: cy 15, bo 10 (and
dan 5 where he is there).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from game.battle import commands as cmd
from game.battle import options
from game.battle.engine import GM, Battle, Outcome
from game.battle.setup import BattleSetup, UnitSpec
from game.ecs.components import Crowded, Posture
from game.grid.model import OBSTACLE_FULL, Grid
from game.rules.data import load_rules
from game.rules.dice import Advantage
from game.rules.stance import Stance
from game.tactics import answers as tactics

LANDING = (14, 1, 0)
CY = UnitSpec("cy", "red", (1, 1, 0))
BO = UnitSpec("bo", "blue", (15, 2, 0))


def _field() -> Grid:
    obstacle = np.zeros((30, 3, 1), dtype=np.uint8)
    obstacle[14, 0, 0] = OBSTACLE_FULL
    return Grid.build(obstacle, gravity=0.0, pressurised=False)


@pytest.fixture
def battle() -> Iterator:  # type: ignore[type-arg]
    made: list[Battle] = []

    def make(units: list[UnitSpec], initiative: tuple[int, ...]) -> Battle:
        setup = BattleSetup("<test>", "", 7, tuple(units), initiative_dice=initiative)
        made.append(Battle(setup, _field(), load_rules()))
        return made[-1]

    yield make
    for b in made:
        b.close()


def ok(b: Battle, command: cmd.Command, by: str) -> Outcome:
    outcome = b.apply(command, by)
    assert outcome.accepted, outcome.refusal
    return outcome


def _events(outcome: Outcome, kind: str) -> list:  # type: ignore[type-arg]
    return [e for e in outcome.events if e.kind == kind]


def _collide(b: Battle, faces: tuple[int, int], mode: str = "jump") -> Outcome:
    """Cy leaps, bo takes her landing cell (moving in `mode`), and her next turn's drift lands
    her on him; `faces` are the two acrobatics d20s, cy's (the later arrival) first."""
    ok(b, cmd.Move("cy", LANDING, mode="jump"), "red")
    assert b.sheet("cy").cell == (9, 1, 0)
    ok(b, cmd.EndTurn("cy"), "red")
    ok(b, cmd.Move("bo", LANDING, mode=mode), "blue")
    ok(b, cmd.EnterRoll(faces), GM)
    while b.active != "cy":
        outcome = ok(b, cmd.EndTurn(str(b.active)), b.faction_of(str(b.active)))
        if _events(outcome, "collided"):
            return outcome
    raise AssertionError("no collision")


def test_p_mov_8_a_drift_lands_on_the_unit_that_took_its_landing_cell_and_both_save(
    battle,
) -> None:
    # Both medium: DC 10 + 2 x 0 = 10 for each, acrobatics bonus 0. Cy rolls 12 (success), bo
    # 3 (failure): bo falls prone, stunned, and loses its next turn.
    b: Battle = battle([CY, BO], (15, 10))
    outcome = _collide(b, (12, 3))
    (drift,) = _events(outcome, "drifted")
    assert (drift.data["to"], drift.data["landed"]) == ([14, 1, 0], True)
    assert b.sheet("cy").cell == LANDING == b.sheet("bo").cell
    (hit,) = _events(outcome, "collided")
    assert (hit.data["unit"], hit.data["with"], hit.data["at"]) == ("cy", "bo", [14, 1, 0])
    assert (hit.data["unit_saved"], hit.data["with_saved"]) == (True, False)
    later, first = hit.rolls
    assert (later.purpose, later.total, later.target, later.outcome) == (
        "collision cy", 12, 10, "success"
    )  # fmt: skip
    assert (first.purpose, first.total, first.target, first.outcome) == (
        "collision bo", 3, 10, "failure"
    )  # fmt: skip
    assert b.world.get("bo", Posture).stance is Stance.PRONE
    assert b.sheet("bo").health.has("stunned")
    assert b.world.get("cy", Crowded) == Crowded("bo", later=True, saved=True)
    assert b.world.get("bo", Crowded) == Crowded("cy", later=False, saved=False)
    assert b.active == "cy"
    skipped = ok(b, cmd.EndTurn("cy"), "red")
    assert [e.data for e in _events(skipped, "turn_skipped")] == [
        {"unit": "bo", "because": "stunned"}
    ]


def test_p_mov_8_the_later_arrival_failing_at_its_turns_start_loses_that_turn_only(
    battle,
) -> None:
    # Cy rolls 9 < 10: prone, stunned; the drift came as her turn began, so that turn is the one
    # she loses. Bo (15) stands. Round 3 is hers again.
    b: Battle = battle([CY, BO], (15, 10))
    outcome = _collide(b, (9, 15))
    assert [e.data for e in _events(outcome, "turn_skipped")] == [
        {"unit": "cy", "because": "stunned"}
    ]
    assert b.active == "bo"
    assert b.world.get("cy", Posture).stance is Stance.PRONE
    assert not b.sheet("cy").health.has("stunned")
    ok(b, cmd.EndTurn("bo"), "blue")
    assert b.active == "cy" and b.round == 3


def test_p_mov_8_the_dc_adds_twice_the_other_entitys_size_minus_ones_own(battle) -> None:
    # A small maintenance drone (thrusters) takes the cell. Cy, medium, saves at DC
    # 10 + 2 x (0 - 1) = 8: a 8 succeeds. The drone saves at 10 + 2 x (1 - 0) = 12: 11 fails.
    drone = UnitSpec("bo", "blue", (15, 2, 0), template="maintenance_drone", size="small")
    b: Battle = battle([CY, drone], (15, 10))
    outcome = _collide(b, (8, 11), mode="thrusters")
    later, first = _events(outcome, "collided")[0].rolls
    assert (later.target, later.outcome) == (8, "success")
    assert (first.target, first.outcome) == (12, "failure")


def test_p_mov_8_the_later_arrival_steps_aside_first_and_the_first_may_not_after(
    battle,
) -> None:
    # Both save (15, 15). Cy, the later arrival, steps to (14, 2), one of the 8 around; (12, 1)
    # is two cells off and (14, 0) is the wall. Once she has moved, bo shares nothing.
    b: Battle = battle([CY, BO], (15, 10))
    _collide(b, (15, 15))
    assert (14, 0, 0) not in b.step_aside_cells("cy")
    for bad in ((12, 1, 0), (14, 0, 0)):
        refused = b.apply(cmd.StepAside("cy", bad), "red")
        assert refused.refusal is not None and refused.refusal.code == "not_free_around"
    stepped = ok(b, cmd.StepAside("cy", (14, 2, 0)), "red")
    assert [e.data["to"] for e in _events(stepped, "stepped_aside")] == [[14, 2, 0]]
    assert b.sheet("cy").cell == (14, 2, 0) and b.turn("cy").movement_spent == 0
    assert not b.world.has("cy", Crowded) and not b.world.has("bo", Crowded)
    ok(b, cmd.EndTurn("cy"), "red")
    refused = b.apply(cmd.StepAside("bo", (15, 1, 0)), "blue")
    assert refused.refusal is not None and refused.refusal.code == "not_sharing_a_cell"


def test_p_mov_8_the_first_arrival_may_step_aside_when_the_later_did_not(battle) -> None:
    b: Battle = battle([CY, BO], (15, 10))
    _collide(b, (15, 15))
    ok(b, cmd.EndTurn("cy"), "red")
    ok(b, cmd.StepAside("bo", (15, 1, 0)), "blue")
    assert b.sheet("bo").cell == (15, 1, 0) and b.sheet("cy").cell == LANDING


def test_p_mov_8_a_failed_save_may_not_step_aside(battle) -> None:
    # Bo fails (3 < 10): stunned, its round-2 turn lost; in round 3 it still shares the cell
    # but may not step aside (only a success lets one move, P-MOV-8).
    b: Battle = battle([CY, BO], (15, 10))
    _collide(b, (15, 3))
    ok(b, cmd.EndTurn("cy"), "red")  # bo's turn skipped: cy again, round 3
    assert b.active == "cy" and b.round == 3
    ok(b, cmd.EndTurn("cy"), "red")
    assert b.active == "bo"
    refused = b.apply(cmd.StepAside("bo", (15, 1, 0)), "blue")
    assert refused.refusal is not None and refused.refusal.code == "cannot_step_aside"


def test_p_mov_8_the_computer_steps_its_later_arrival_aside_at_once(battle) -> None:
    # The computer plays red: cy saves and steps at once to the first free cell around in
    # reading order, (13, 0).
    setup = BattleSetup("<test>", "", 7, (CY, BO), initiative_dice=(15, 10), computer=("red",))
    b = Battle(setup, _field(), load_rules())
    try:
        ok(b, cmd.Move("cy", LANDING, mode="jump"), GM)
        ok(b, cmd.EndTurn("cy"), GM)
        ok(b, cmd.Move("bo", LANDING, mode="jump"), "blue")
        ok(b, cmd.EnterRoll((15, 15)), GM)
        outcome = ok(b, cmd.EndTurn("bo"), "blue")
        assert [e.data["to"] for e in _events(outcome, "stepped_aside")] == [[13, 0, 0]]
        assert b.sheet("cy").cell == (13, 0, 0) and not b.world.has("bo", Crowded)
    finally:
        b.close()


def test_p_mov_8_actions_in_the_shared_cell_have_disadvantage(battle) -> None:
    # Cy hides while sharing the cell: two d20s, 15 and 4, the worse kept (P-CHK-2): 4.
    b: Battle = battle([CY, BO], (15, 10))
    _collide(b, (15, 15))
    ok(b, cmd.EnterRoll((15, 4)), GM)
    hid = ok(b, cmd.Hide("cy"), "red")
    (roll,) = _events(hid, "hide")[0].rolls
    assert roll.advantage is Advantage.DISADVANTAGE and roll.kept == (4,) and roll.total == 4


def test_p_mov_8_an_attack_on_the_shared_cell_is_aimed_at_both_highly_exposed(battle) -> None:
    # Dan (green, pistol 70) at (20, 1) shoots cy. The wall at (14, 0) hides nothing of the
    # cell from him, but stands among the 8 around it: alone there, cy would have no cover and
    # not be highly exposed (P-COV-4): P = 70 x 100 / 100 = 70. Sharing the cell, out of cover,
    # both are highly exposed: P = 70 x (100 + 15) / 100 = 80.5 -> 80 (P-HIT-2), and the attack
    # is aimed at both: one d100 each, 90 and 95, two misses.
    dan = UnitSpec("dan", "green", (20, 1, 0), weapon="pistol")
    b: Battle = battle([CY, BO, dan], (15, 10, 5))
    _collide(b, (15, 15))
    ok(b, cmd.EndTurn("cy"), "red")
    ok(b, cmd.EndTurn("bo"), "blue")
    ok(b, cmd.EnterRoll((90, 95)), GM)
    shot = ok(b, cmd.Attack("dan", "cy"), "green")
    attacks = [(e.data["target"], e.data["hit_chance"], e.data["cover"]) for e in shot.events]
    assert [a for a in attacks if a[0] is not None] == [
        ("cy", 80, "high_exposure"),
        ("bo", 80, "high_exposure"),
    ]
    cover = tactics.target_cover(b.bf, b.sheet("dan"), b.sheet("cy"))
    assert "P-MOV-8" in cover.rules


def test_p_mov_8_a_leap_within_reach_onto_a_hidden_unit_lands_on_it(battle) -> None:
    # Cy at (6, 1) leaps 8 cells to (14, 1), where bo hides unseen: the leap is not steered, so
    # it lands on him (not stopping short, as walking into a hidden unit would).
    hidden_bo = UnitSpec("bo", "blue", LANDING, hidden=True)
    near_cy = UnitSpec("cy", "red", (6, 1, 0))
    b: Battle = battle([near_cy, hidden_bo], (15, 10))
    assert not b.sees("red", "bo")
    ok(b, cmd.EnterRoll((15, 15)), GM)
    outcome = ok(b, cmd.Move("cy", LANDING, mode="jump"), "red")
    assert not _events(outcome, "ambushed")
    assert [e.data["with"] for e in _events(outcome, "collided")] == ["bo"]
    assert b.sheet("cy").cell == LANDING and b.sees("red", "bo")


def test_p_mov_8_a_unit_sharing_a_cell_may_still_leave_it_with_an_ordinary_move(battle) -> None:
    # P-MOV-4 binds chosen moves: cy leaps out to (11, 1), 3 cells, and shares nothing after;
    # leaving bo's reaction area from (13, 1), she provokes him (P-OA-1); he lets her go.
    b: Battle = battle([CY, BO], (15, 10))
    _collide(b, (15, 15))
    ok(b, cmd.Move("cy", (11, 1, 0), mode="jump"), "red")
    ok(b, cmd.React("bo", take=False), "blue")
    assert b.sheet("cy").cell == (11, 1, 0)
    assert not b.world.has("cy", Crowded) and not b.world.has("bo", Crowded)


def test_p_mov_8_a_shared_cell_survives_a_snapshot_and_plays_on_the_same(battle) -> None:
    b: Battle = battle([CY, BO], (15, 10))
    _collide(b, (15, 15))
    back = Battle.restore(b.setup, b.grid, b.rules, b.snapshot())
    try:
        assert back.state_hash() == b.state_hash()
        assert back.world.get("bo", Crowded) == Crowded("cy", later=False, saved=True)
        for battle_ in (b, back):
            ok(battle_, cmd.StepAside("cy", (14, 2, 0)), "red")
        assert back.state_hash() == b.state_hash()
    finally:
        back.close()


def test_p_mov_8_the_board_offers_stepping_aside_only_to_a_unit_that_shares_a_cell(
    battle,
) -> None:
    # The option the board's right-click menu reads: cy (saved) may step aside in her turn; bo
    # may not give orders in cy's turn; once cy has stepped out, nobody shares a cell.
    b: Battle = battle([CY, BO], (15, 10))
    assert options.step_aside(b, "red", "cy").refusal is not None
    _collide(b, (15, 15))
    assert options.step_aside(b, "red", "cy").allowed
    assert options.step_aside(b, "blue", "bo").refusal is not None  # not bo's turn
    ok(b, cmd.StepAside("cy", (14, 2, 0)), "red")
    refusal = options.step_aside(b, "red", "cy").refusal
    assert refusal is not None and refusal.code == "not_sharing_a_cell"


def test_p_mov_8_the_board_offers_stepping_aside_greyed_after_a_failed_save(battle) -> None:
    b: Battle = battle([CY, BO], (15, 10))
    _collide(b, (15, 3))
    ok(b, cmd.EndTurn("cy"), "red")
    ok(b, cmd.EndTurn("cy"), "red")
    refusal = options.step_aside(b, "blue", "bo").refusal
    assert refusal is not None and refusal.code == "cannot_step_aside"
