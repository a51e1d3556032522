"""Carried velocity in microgravity: thrusters with the dampers off (P-ZERO-2) and jumps that land
in a later turn (P-ZERO-1).

Each test: a microgravity map with no air (0 g, unpressurised), units placed by hand, the
commands, and the state worked out by hand from RULINGS.md and seed 001 ("Movimento
tridimensionale in microgravità"):
- thrusters fly 5 cells a turn, 1 point a cell (void_marine template); with the dampers off the
  unit keeps, for its next turn, its last straight run of the turn (direction × cells); at the
  start of that turn it carries on that far before it acts, stopping before anything solid, the
  map's edge or any unit (a collision costs it the velocity); moving again with the dampers on
  first cancels the velocity, paying max(|vx|, |vy|, |vz|) points (P-ZERO-2);
- a microgravity jump flies a straight line to a surface at twice the jump speed (a human's 4:
  8 cells a turn); beyond that it flies 8 cells this turn, stays in flight (no cover, not highly
  exposed) and flies on 8 cells a turn at the start of its next turns until it lands; a unit
  in flight without thrusters cannot move; a reaction that ends its turn does not stop the leap
  (P-ZERO-1).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from game.battle import commands as cmd
from game.battle import preview
from game.battle.engine import GM, Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.battle.view import view_for
from game.ecs.components import Motion
from game.grid.model import OBSTACLE_FULL, Cell, Grid
from game.rules.data import load_rules
from game.tactics import answers as tactics


def space(size: Cell, walls: tuple[Cell, ...] = ()) -> Grid:
    obstacle = np.zeros(size, dtype=np.uint8)
    for cell in walls:
        obstacle[cell] = OBSTACLE_FULL
    return Grid.build(obstacle, gravity=0.0, pressurised=False)


@pytest.fixture
def battle() -> Iterator:
    made: list[Battle] = []

    def make(units: list[UnitSpec], grid: Grid, initiative: tuple[int, ...]) -> Battle:
        setup = BattleSetup("<test>", "", 7, tuple(units), initiative_dice=initiative)
        made.append(Battle(setup, grid, load_rules()))
        return made[-1]

    yield make
    for b in made:
        b.close()


def marine(name: str, faction: str, cell: Cell) -> UnitSpec:
    return UnitSpec(name, faction, cell, template="void_marine")


def motion(b: Battle, unit: str) -> Motion:
    return b.world.get(unit, Motion)


def events(outcome: object, kind: str) -> list[dict[str, object]]:
    return [dict(e.data) for e in outcome.events if e.kind == kind]  # type: ignore[attr-defined]


def ok(b: Battle, command: cmd.Command, by: str) -> object:
    outcome = b.apply(command, by)
    assert outcome.accepted, outcome.refusal  # type: ignore[attr-defined]
    return outcome


def east(b: Battle, unit: str, to: Cell, *, dampers: bool = True) -> object:
    """A thrusters move along the row, one waypoint a cell so the path is the straight one."""
    start = b.sheet(unit).cell
    via = tuple((x, start[1], start[2]) for x in range(start[0] + 1, to[0]))
    return ok(b, cmd.Move(unit, to, via, "thrusters", dampers=dampers), unit_side(b, unit))


def unit_side(b: Battle, unit: str) -> str:
    return b.faction_of(unit)


OPEN = (20, 12, 1)
ADA = marine("ada", "red", (2, 5, 0))
BO = marine("bo", "blue", (18, 10, 0))


def test_p_zero_2_dampers_off_keep_the_straight_run_as_velocity_and_the_next_turn_carries_on(
    battle,
) -> None:
    # Turn 1: (2,5) -> (5,5), three cells east, 3 points of 5; dampers off: velocity (3, 0, 0).
    b: Battle = battle([ADA, BO], space(OPEN), (15, 5))
    moved = events(east(b, "ada", (5, 5, 0), dampers=False), "moved")[0]
    assert (moved["cost"], moved["spent"]) == (3, 3)
    ended = ok(b, cmd.EndTurn("ada"), "red")
    assert events(ended, "coasting") == [{"unit": "ada", "velocity": [3, 0, 0]}]
    assert motion(b, "ada").velocity == (3, 0, 0)
    # Round 2: as ada's turn starts she carries on 3 cells to (8,5), her velocity kept, and
    # her whole movement still to spend.
    started = ok(b, cmd.EndTurn("bo"), "blue")
    drift = events(started, "drifted")[0]
    assert (drift["from"], drift["to"], drift["velocity"]) == ([5, 5, 0], [8, 5, 0], [3, 0, 0])
    assert (drift["landed"], drift["stopped"]) == (False, False)
    assert b.sheet("ada").cell == (8, 5, 0) and b.turn("ada").movement_spent == 0


def test_p_zero_2_dampers_on_cancel_the_carried_velocity_first_paying_its_three_points(
    battle,
) -> None:
    b: Battle = battle([ADA, BO], space(OPEN), (15, 5))
    east(b, "ada", (5, 5, 0), dampers=False)
    ok(b, cmd.EndTurn("ada"), "red")
    ok(b, cmd.EndTurn("bo"), "blue")  # ada drifts to (8,5) with (3,0,0)
    # Three cells south would cost 3 + 3 = 6 of 5 points: out of reach.
    refused = b.apply(cmd.Move("ada", (8, 8, 0), mode="thrusters"), "red")
    assert refused.refusal is not None and refused.refusal.code == "unreachable"
    # One cell south: 3 to cancel, 1 to fly = 4.
    moved = events(ok(b, cmd.Move("ada", (8, 6, 0), mode="thrusters"), "red"), "moved")[0]
    assert (moved["cost"], moved["spent"]) == (4, 4)
    assert motion(b, "ada").velocity == (0, 0, 0)
    ok(b, cmd.EndTurn("ada"), "red")
    ok(b, cmd.EndTurn("bo"), "blue")
    assert b.sheet("ada").cell == (8, 6, 0)  # no drift: the velocity was cancelled


def test_p_zero_2_dampers_off_again_keep_the_velocity_uncancelled_and_take_the_new_run(
    battle,
) -> None:
    b: Battle = battle([ADA, BO], space(OPEN), (15, 5))
    east(b, "ada", (5, 5, 0), dampers=False)
    ok(b, cmd.EndTurn("ada"), "red")
    ok(b, cmd.EndTurn("bo"), "blue")  # ada drifts to (8,5) with (3,0,0)
    # Dampers still off: three cells south cost 3 (nothing cancelled); the turn's last straight
    # run is those three cells south: velocity (0, 3, 0).
    move = cmd.Move("ada", (8, 8, 0), ((8, 6, 0), (8, 7, 0)), "thrusters", dampers=False)
    moved = events(ok(b, move, "red"), "moved")[0]
    assert (moved["cost"], moved["spent"]) == (3, 3)
    ok(b, cmd.EndTurn("ada"), "red")
    assert motion(b, "ada").velocity == (0, 3, 0)


def test_p_zero_2_a_bent_path_keeps_only_its_last_straight_run(battle) -> None:
    # (2,5) -> (3,5) east, then (4,4) and (5,3) north-east: the last run is 2 cells of
    # (1, -1, 0): velocity (2, -2, 0), no more than the 3 cells moved.
    b: Battle = battle([ADA, BO], space(OPEN), (15, 5))
    move = cmd.Move("ada", (5, 3, 0), ((3, 5, 0), (4, 4, 0)), "thrusters", dampers=False)
    ok(b, move, "red")
    ok(b, cmd.EndTurn("ada"), "red")
    assert motion(b, "ada").velocity == (2, -2, 0)
    started = ok(b, cmd.EndTurn("bo"), "blue")
    assert events(started, "drifted")[0]["to"] == [7, 1, 0]


def test_p_zero_2_a_drift_stops_before_a_wall_and_the_collision_costs_the_velocity(battle) -> None:
    # A wall at (10,5): the second drift of 3 from (8,5) flies 1 cell to (9,5) and stops
    # before the wall.
    b: Battle = battle([ADA, BO], space(OPEN, walls=((10, 5, 0),)), (15, 5))
    east(b, "ada", (5, 5, 0), dampers=False)
    ok(b, cmd.EndTurn("ada"), "red")
    ok(b, cmd.EndTurn("bo"), "blue")  # (5,5) -> (8,5)
    ok(b, cmd.EndTurn("ada"), "red")  # nothing moved: dampers still off, the run (3,0,0) kept
    assert motion(b, "ada").velocity == (3, 0, 0)
    started = ok(b, cmd.EndTurn("bo"), "blue")
    drift = events(started, "drifted")[0]
    assert (drift["from"], drift["to"], drift["stopped"]) == ([8, 5, 0], [9, 5, 0], True)
    assert motion(b, "ada").velocity == (0, 0, 0) == tuple(drift["velocity"])  # type: ignore[arg-type]


def test_p_zero_2_a_drift_stops_before_another_unit_and_shows_a_hidden_one(battle) -> None:
    # cy, hidden from red, floats at (7,5): ada's drift of 3 from (5,5) stops at (6,5) and
    # red now knows cy is there.
    cy = UnitSpec("cy", "blue", (7, 5, 0), template="void_marine", hidden=True)
    b: Battle = battle([ADA, BO, cy], space(OPEN), (15, 5, 4))
    east(b, "ada", (5, 5, 0), dampers=False)
    ok(b, cmd.EndTurn("ada"), "red")
    assert not b.sees("red", "cy")
    ok(b, cmd.EndTurn("bo"), "blue")
    started = ok(b, cmd.EndTurn("cy"), "blue")
    drift = events(started, "drifted")[0]
    assert (drift["to"], drift["stopped"]) == ([6, 5, 0], True)
    assert b.sees("red", "cy")


def test_dampers_off_is_refused_for_a_move_without_thrusters(battle) -> None:
    b: Battle = battle([ADA, BO], space(OPEN), (15, 5))
    before = b.state_hash()
    refused = b.apply(cmd.Move("ada", (3, 5, 0), dampers=False), "red")
    assert refused.refusal is not None and refused.refusal.code == "dampers_need_thrusters"
    assert b.state_hash() == before


# ---------------------------------------------------------------- jumps (P-ZERO-1)

LONG = (30, 3, 1)
CY = UnitSpec("cy", "red", (1, 1, 0))  # a human: jump 4, 8 cells a turn in microgravity
FAR_BO = marine("bo", "blue", (20, 2, 0))


def test_p_zero_1_a_jump_beyond_this_turn_flies_8_cells_and_stays_in_flight(battle) -> None:
    # (1,1) -> (15,1): 14 cells, more than the 8 of a turn: cy flies to (9,1), in flight
    # at 8 cells a turn towards (15,1), all 8 points spent.
    b: Battle = battle([CY, FAR_BO], space(LONG), (15, 5))
    leap = ok(b, cmd.Move("cy", (15, 1, 0), mode="jump"), "red")
    assert events(leap, "flying") == [{"unit": "cy", "toward": [15, 1, 0], "velocity": [8, 0, 0]}]
    moved = events(leap, "moved")[0]
    assert (moved["to"], moved["cost"], moved["spent"]) == ([9, 1, 0], 8, 8)
    m = motion(b, "cy")
    assert (m.in_flight, m.velocity, m.flight) == (True, (8, 0, 0), ((1, 1, 0), (15, 1, 0)))
    # In flight: no cover, and not highly exposed (P-ZERO-1); bo sees her.
    cover = tactics.target_cover(b.bf, b.sheet("bo"), b.sheet("cy"))
    assert cover.grade == "none"
    assert next(u for u in view_for(b, "blue").units if u.id == "cy").in_flight


def test_p_zero_1_the_flight_goes_on_next_turn_and_lands_on_its_surface(battle) -> None:
    b: Battle = battle([CY, FAR_BO], space(LONG), (15, 5))
    ok(b, cmd.Move("cy", (15, 1, 0), mode="jump"), "red")
    ok(b, cmd.EndTurn("cy"), "red")
    assert motion(b, "cy").velocity == (8, 0, 0)  # dampers have nothing to do with a leap
    started = ok(b, cmd.EndTurn("bo"), "blue")
    drift = events(started, "drifted")[0]
    # The last 6 cells, (9,1) -> (15,1): landed, her turn and its 8 points still her own.
    assert (drift["from"], drift["to"], drift["landed"]) == ([9, 1, 0], [15, 1, 0], True)
    m = motion(b, "cy")
    assert (m.in_flight, m.velocity, m.flight) == (False, (0, 0, 0), None)
    assert b.active == "cy" and b.turn("cy").movement_spent == 0
    # Landed in the open: highly exposed again (P-COV-4).
    assert tactics.target_cover(b.bf, b.sheet("bo"), b.sheet("cy")).grade == "high_exposure"


def test_p_zero_1_a_unit_in_flight_without_thrusters_cannot_move_until_it_lands(battle) -> None:
    # (1,1) -> (27,1): 26 cells: 8 this turn (9,1), 8 more next turn (17,1), still in flight.
    b: Battle = battle([CY, FAR_BO], space(LONG), (15, 5))
    ok(b, cmd.Move("cy", (27, 1, 0), mode="jump"), "red")
    ok(b, cmd.EndTurn("cy"), "red")
    ok(b, cmd.EndTurn("bo"), "blue")
    assert b.sheet("cy").cell == (17, 1, 0) and motion(b, "cy").in_flight
    before = b.state_hash()
    for command in (cmd.Move("cy", (18, 1, 0)), cmd.Move("cy", (27, 1, 0), mode="jump")):
        refused = b.apply(command, "red")
        assert refused.refusal is not None and refused.refusal.code == "in_flight"
    assert b.state_hash() == before
    assert ok(b, cmd.Dodge("cy"), "red")  # acting is not moving
    ok(b, cmd.EndTurn("cy"), "red")
    ok(b, cmd.EndTurn("bo"), "blue")  # (17,1) -> (25,1)
    ok(b, cmd.EndTurn("cy"), "red")
    landed = events(ok(b, cmd.EndTurn("bo"), "blue"), "drifted")[0]
    assert (landed["from"], landed["to"], landed["landed"]) == ([25, 1, 0], [27, 1, 0], True)


def test_p_zero_1_a_jump_in_flight_runs_into_a_unit_and_stops_there_adrift(battle) -> None:
    # bo moves into the line at (12,1) while cy is in flight: next turn she stops at (11,1),
    # her velocity lost (a collision simply stops the leap).
    near_bo = marine("bo", "blue", (15, 2, 0))
    b: Battle = battle([CY, near_bo], space(LONG), (15, 5))
    ok(b, cmd.Move("cy", (14, 1, 0), mode="jump"), "red")
    ok(b, cmd.EndTurn("cy"), "red")
    ok(b, cmd.Move("bo", (12, 1, 0), mode="thrusters"), "blue")
    drift = events(ok(b, cmd.EndTurn("bo"), "blue"), "drifted")[0]
    assert (drift["to"], drift["stopped"], drift["landed"]) == ([11, 1, 0], True, False)
    m = motion(b, "cy")
    assert (m.in_flight, m.velocity, m.flight) == (False, (0, 0, 0), None)


def test_p_zero_1_a_grave_wound_on_the_way_ends_the_turn_but_not_the_leap(battle) -> None:
    # bo (carbine) readies (P-OA-2); cy leaps and enters bo's sight at (2,1): bo fires. d100 1
    # hits; 2d8 = 3 + 4 = 7 perforante, no armour: a grave wound on the human table (6-9),
    # which ends cy's turn (P-OA-2), but the leap flies on all the same (P-ZERO-1): the 7
    # cells left of its 8 this turn, to (9,1).
    b: Battle = battle([CY, FAR_BO], space(LONG), (5, 15))
    assert b.active == "bo"
    ok(b, cmd.Ready("bo"), "blue")
    ok(b, cmd.EndTurn("bo"), "blue")
    offered = ok(b, cmd.Move("cy", (15, 1, 0), mode="jump"), "red")
    assert events(offered, "reaction_offered")[0]["at"] == [2, 1, 0]
    assert b.sheet("cy").cell == (2, 1, 0) and motion(b, "cy").in_flight
    ok(b, cmd.EnterRoll((1, 3, 4)), GM)
    answered = ok(b, cmd.React("bo", take=True), "blue")
    assert b.sheet("cy").health.grave == 1
    kinds = [e.kind for e in answered.events]  # type: ignore[attr-defined]
    assert kinds.index("turn_cut_short") < kinds.index("moved") < kinds.index("turn_ended")
    assert events(answered, "moved")[0]["to"] == [9, 1, 0]
    assert b.sheet("cy").cell == (9, 1, 0) and motion(b, "cy").in_flight
    assert b.active == "bo"


def test_p_zero_2_a_drift_stops_at_the_edge_of_the_map(battle) -> None:
    # ada at (16,5) flies to (19,5), the last column, dampers off: velocity (3,0,0). Next turn
    # there is nowhere east to go: she stays at (19,5) and the velocity is lost.
    b: Battle = battle([marine("ada", "red", (16, 5, 0)), BO], space(OPEN), (15, 5))
    east(b, "ada", (19, 5, 0), dampers=False)
    ok(b, cmd.EndTurn("ada"), "red")
    drift = events(ok(b, cmd.EndTurn("bo"), "blue"), "drifted")[0]
    assert (drift["from"], drift["to"], drift["stopped"]) == ([19, 5, 0], [19, 5, 0], True)
    assert motion(b, "ada").velocity == (0, 0, 0)


def test_p_zero_2_after_a_collision_the_dampers_off_keep_no_velocity(battle) -> None:
    # The drift that hit the wall at (10,5) left ada at (9,5) with nothing: ending her turn
    # without moving, she coasts on nothing, and her next turn starts where she is.
    b: Battle = battle([ADA, BO], space(OPEN, walls=((10, 5, 0),)), (15, 5))
    east(b, "ada", (5, 5, 0), dampers=False)
    for side in ("red", "blue", "red", "blue"):  # drifts to (8,5), then stops at (9,5)
        ok(b, cmd.EndTurn(b.active or ""), side)
    assert b.sheet("ada").cell == (9, 5, 0)
    ended = ok(b, cmd.EndTurn("ada"), "red")
    assert events(ended, "coasting") == [] and motion(b, "ada").velocity == (0, 0, 0)
    started = ok(b, cmd.EndTurn("bo"), "blue")
    assert events(started, "drifted") == [] and b.sheet("ada").cell == (9, 5, 0)


def test_p_zero_2_a_thrusters_move_that_runs_into_a_hidden_unit_keeps_no_velocity(battle) -> None:
    # Dampers off, ada flies east to (7,5) but cy, hidden, floats at (6,5): after 3 cells she
    # stops at (5,5) (an ambush), and the collision leaves her nothing to coast on.
    cy = UnitSpec("cy", "blue", (6, 5, 0), template="void_marine", hidden=True)
    b: Battle = battle([ADA, BO, cy], space(OPEN), (15, 5, 4))
    outcome = east(b, "ada", (7, 5, 0), dampers=False)
    assert events(outcome, "ambushed")[0]["at"] == [5, 5, 0]
    ended = ok(b, cmd.EndTurn("ada"), "red")
    assert events(ended, "coasting") == [] and motion(b, "ada").velocity == (0, 0, 0)


def test_p_zero_2_thrusters_without_waypoints_fly_straight_and_the_preview_shows_the_kept_velocity(
    battle,
) -> None:
    # (2,5,2) -> (6,5,2) with no waypoint in open space, dampers off: of the paths of 4 points,
    # the straight one is flown, so the velocity kept is the run the player aimed, (4, 0, 0);
    # the preview says so before the move.
    b: Battle = battle([marine("ada", "red", (2, 5, 2)), BO], space((20, 12, 5)), (15, 5))
    shown = preview.path(b, "red", "ada", (6, 5, 2), mode="thrusters", dampers=False)
    assert shown is not None and shown.refusal is None
    assert shown.cells == ((2, 5, 2), (3, 5, 2), (4, 5, 2), (5, 5, 2), (6, 5, 2))
    assert shown.velocity == (4, 0, 0)
    ok(b, cmd.Move("ada", (6, 5, 2), mode="thrusters", dampers=False), "red")
    ended = ok(b, cmd.EndTurn("ada"), "red")
    assert events(ended, "coasting") == [{"unit": "ada", "velocity": [4, 0, 0]}]
    # With the dampers on, nothing is kept: the preview has no velocity to show.
    assert preview.path(b, "blue", "bo", (17, 10, 0), mode="thrusters").velocity is None
