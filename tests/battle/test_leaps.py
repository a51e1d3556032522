"""Jumps higher than n_max, drops off an edge, and why a move is refused (issue 13).

Each test: a map under 0.2 g with blocks stacked by hand, units placed by hand, dice entered as
the GM would (P-CHK-4), and the result worked out by hand from RULINGS.md:
- P-JUMP-1: n_max = floor((2 + athletics) × 0.2 / g); a higher jump needs a `gravità muscolare
  (atletica)` check, DC = floor((n × 2 + 6) × 0.2 / g); "on failure the jump still happens, at
  n_max". A human (athletics 0) has n_max 2 at 0.2 g, so a 3-high jump has DC 12; a scavenger
  (athletics +1) has n_max 3. Only the vertical cells cost: the apex.
- P-JUMP-3: stepping off an edge to a standable cell up to n_max levels below is a jump down,
  costing its vertical cells, no check; deeper drops need the same check (DC by the levels
  dropped), and on a failure the entity lands prone.
- P-MOV-4: passing through an ally's cell costs +1; only ending there is forbidden.
- P-MOV-6: a mortal wound stops all movement.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.preview import path as preview_path
from game.battle.preview import reach
from game.battle.setup import BattleSetup, UnitSpec
from game.grid.model import OBSTACLE_FULL, Cell, Grid
from game.rules.data import load_rules
from game.text.explain_battle import refusal_text

Make = Callable[..., Battle]


def blocks(
    columns: dict[tuple[int, int], int], size: Cell = (12, 7, 6), gravity: float = 0.2
) -> Grid:
    """A map with a column of full blocks `height` high at each (x, y): its top is standable."""
    obstacle = np.zeros(size, dtype=np.uint8)
    for (x, y), height in columns.items():
        obstacle[x, y, :height] = OBSTACLE_FULL
    return Grid.build(obstacle, gravity=gravity)


@pytest.fixture
def battle() -> Iterator[Make]:
    made: list[Battle] = []

    def make(units: list[UnitSpec], grid: Grid, initiative: tuple[int, ...] = (15, 5)) -> Battle:
        setup = BattleSetup("<test>", "", 7, tuple(units), initiative_dice=initiative)
        made.append(Battle(setup, grid, load_rules()))
        return made[-1]

    yield make
    for b in made:
        b.close()


FAR_BO = UnitSpec("bo", "blue", (11, 6, 0))


def events(outcome: object, kind: str) -> list[dict[str, object]]:
    return [dict(e.data) for e in outcome.events if e.kind == kind]  # type: ignore[attr-defined]


# --- P-JUMP-3: dropping down --------------------------------------------------------------------


def test_p_jump_3_a_unit_on_a_one_level_platform_steps_down_for_1_point_without_a_check(
    battle: Make,
) -> None:
    # ada stands on a 1-high block: the drop to (1,3,0) is 1 level, within n_max 2: 1 point,
    # no check; one walking step more west, (0,3,0), makes 2.
    b = battle([UnitSpec("ada", "red", (2, 3, 1)), FAR_BO], blocks({(2, 3): 1}))
    moved = b.apply(cmd.Move("ada", (0, 3, 0)), "red")
    assert moved.accepted, moved.refusal
    assert events(moved, "jump_check") == []
    assert events(moved, "moved")[0]["cost"] == 2
    assert b.sheet("ada").cell == (0, 3, 0)
    assert b.sheet("ada").stance.value == "standing"


def test_p_jump_3_a_failed_check_on_a_3_level_drop_lands_prone_where_it_was_aimed(
    battle: Make,
) -> None:
    # From a 3-high column: 3 levels > n_max 2, DC floor((3 × 2 + 6) × 0.2/0.2) = 12. The d20
    # shows 11: 11 + 0 < 12, a failure: ada lands at (1,3,0) all the same, prone; 3 points.
    b = battle([UnitSpec("ada", "red", (2, 3, 3)), FAR_BO], blocks({(2, 3): 3}))
    assert b.apply(cmd.EnterRoll((11,)), GM).accepted
    moved = b.apply(cmd.Move("ada", (1, 3, 0)), "red")
    assert moved.accepted, moved.refusal
    check = events(moved, "jump_check")[0]
    assert (check["kind"], check["height"], check["dc"], check["success"]) == ("drop", 3, 12, False)
    assert b.sheet("ada").cell == (1, 3, 0)
    assert b.sheet("ada").stance.value == "prone"
    assert events(moved, "moved")[0]["cost"] == 3


def test_p_jump_3_a_made_check_on_a_3_level_drop_lands_standing(battle: Make) -> None:
    b = battle([UnitSpec("ada", "red", (2, 3, 3)), FAR_BO], blocks({(2, 3): 3}))
    b.apply(cmd.EnterRoll((12,)), GM)  # 12 + 0 >= 12
    moved = b.apply(cmd.Move("ada", (1, 3, 0)), "red")
    assert events(moved, "jump_check")[0]["success"] is True
    assert b.sheet("ada").stance.value == "standing"
    # The scavenger's athletics +1 gives n_max 3: the same drop needs no check.
    s = battle(
        [UnitSpec("sc", "red", (2, 3, 3), template="scavenger"), FAR_BO], blocks({(2, 3): 3})
    )
    free = s.apply(cmd.Move("sc", (1, 3, 0)), "red")
    assert free.accepted and events(free, "jump_check") == []


# --- P-JUMP-1: higher jumps ---------------------------------------------------------------------


def ledge() -> Grid:
    """A 3-high block at (3,3): its top (3,3,3) is two cells east of (1,3,0)."""
    return blocks({(3, 3): 3})


def test_p_jump_1_a_3_high_jump_with_its_check_made_lands_on_the_ledge_for_3_points(
    battle: Make,
) -> None:
    # Apex 3 > n_max 2: DC 12; the d20 shows 15: 15 >= 12, the jump is made: 3 points.
    b = battle([UnitSpec("ada", "red", (1, 3, 0)), FAR_BO], ledge())
    b.apply(cmd.EnterRoll((15,)), GM)
    moved = b.apply(cmd.Move("ada", (3, 3, 3), mode="jump"), "red")
    assert moved.accepted, moved.refusal
    check = events(moved, "jump_check")[0]
    assert (check["kind"], check["height"], check["dc"], check["success"]) == ("jump", 3, 12, True)
    assert moved.events[[e.kind for e in moved.events].index("jump_check")].rolls[0].total == 15
    assert b.sheet("ada").cell == (3, 3, 3)
    assert events(moved, "moved")[0]["cost"] == 3


def test_p_jump_1_a_failed_check_still_jumps_at_n_max_and_falls_short_of_the_ledge(
    battle: Make,
) -> None:
    # The d20 shows 4: 4 < 12. The jump is made 2 high toward the ledge: up to (1,3,2), across
    # to (2,3,2), stopped by the ledge's side, down to (2,3,0). It costs 2 (the apex).
    b = battle([UnitSpec("ada", "red", (1, 3, 0)), FAR_BO], ledge())
    b.apply(cmd.EnterRoll((4,)), GM)
    moved = b.apply(cmd.Move("ada", (3, 3, 3), mode="jump"), "red")
    assert moved.accepted, moved.refusal
    assert events(moved, "jump_check")[0]["success"] is False
    assert b.sheet("ada").cell == (2, 3, 0)
    assert events(moved, "moved")[-1]["cost"] == 2
    assert events(moved, "moved")[-1]["spent"] == 2


def test_p_jump_1_the_scavengers_n_max_3_jumps_the_ledge_without_a_check(battle: Make) -> None:
    b = battle([UnitSpec("sc", "red", (1, 3, 0), template="scavenger"), FAR_BO], ledge())
    moved = b.apply(cmd.Move("sc", (3, 3, 3), mode="jump"), "red")
    assert moved.accepted and events(moved, "jump_check") == []
    assert b.sheet("sc").cell == (3, 3, 3)


def test_p_jump_1_the_preview_lists_cells_needing_a_check_and_the_path_names_its_dc(
    battle: Make,
) -> None:
    b = battle([UnitSpec("ada", "red", (1, 3, 0)), FAR_BO], ledge())
    shown = reach(b, "red", "ada", "jump")
    assert shown is not None
    assert (3, 3, 3) not in shown.cells and shown.check_cells[(3, 3, 3)] == 3
    planned = preview_path(b, "red", "ada", (3, 3, 3), mode="jump")
    assert planned is not None and planned.refusal is None
    assert [(c.kind, c.height, c.dc, c.n_max) for c in planned.checks] == [("jump", 3, 12, 2)]
    assert planned.cost == 3


# --- refusals that name their rule ------------------------------------------------------------


def test_refusals_name_the_rule_a_jump_breaks_while_points_remain(battle: Make) -> None:
    # A 5-high block at (3,3): apex 5 > the jump speed 4.
    b = battle([UnitSpec("ada", "red", (1, 3, 0)), FAR_BO], blocks({(3, 3): 5, (6, 3): 1}))
    high = b.apply(cmd.Move("ada", (3, 3, 5), mode="jump"), "red").refusal
    assert high is not None and high.code == "jump_too_high"
    assert (high.values["apex"], high.values["left"]) == (5, 4)
    air = b.apply(cmd.Move("ada", (1, 3, 3), mode="jump"), "red").refusal
    assert air is not None and air.code == "no_landing"
    assert "nowhere to land" in refusal_text(air)


def test_p_jump_3_a_drop_deeper_than_the_jump_points_left_is_refused_by_name(
    battle: Make,
) -> None:
    # From a 5-high column the drop costs 5 points; the jump speed is 4 (P-MOV-1's switch).
    b = battle([UnitSpec("ada", "red", (2, 3, 5)), FAR_BO], blocks({(2, 3): 5}))
    deep = b.apply(cmd.Move("ada", (1, 3, 0)), "red").refusal
    assert deep is not None and deep.code == "drop_too_deep"
    assert (deep.values["depth"], deep.values["left"]) == (5, 4)
    # A jump mode landing below the start is told to walk off the edge instead.
    low = b.apply(cmd.Move("ada", (1, 3, 0), mode="jump"), "red").refusal
    assert low is not None and low.code == "jump_lands_lower"


def test_p_mov_6_a_mortally_wounded_unit_is_told_why_it_cannot_move(make_battle: Make) -> None:
    # As in test_commands: two pistol hits, each a grave wound (d100 10; 2d6 7, then 6 read at
    # 6 + 2 = 8), make a mortal wound (P-VUL-2); bo's death save d20 15 at its turn's start.
    ada = UnitSpec("ada", "red", (1, 3, 0), weapon="pistol")
    b = make_battle([ada, UnitSpec("bo", "blue", (9, 3, 0))], initiative=(15, 5))
    b.apply(cmd.EnterRoll((10, 3, 4)), GM)
    b.apply(cmd.Attack("ada", "bo"), "red")
    b.apply(cmd.EndTurn("ada"), "red")
    b.apply(cmd.EndTurn("bo"), "blue")
    b.apply(cmd.EnterRoll((10, 3, 3, 15)), GM)
    b.apply(cmd.Attack("ada", "bo"), "red")
    b.apply(cmd.EndTurn("ada"), "red")
    assert b.sheet("bo").health.mortal == 1 and b.active == "bo"
    refused = b.apply(cmd.Move("bo", (9, 4, 0)), "blue").refusal
    assert refused is not None and refused.code == "cannot_move"
    text = refusal_text(refused)
    assert "mortal wound stops all movement" in text and "movement points left" not in text


def test_p_mov_4_a_waypoint_on_an_allys_cell_is_passed_at_plus_1(battle: Make) -> None:
    # ada (1,3) to (5,3) through cy's cell (3,3): (2,3) 1, (3,3) 1 + 1 (ally), (4,3) 1, (5,3) 1:
    # 5 points, ending at (5,3,0).
    units = [UnitSpec("ada", "red", (1, 3, 0)), UnitSpec("cy", "red", (3, 3, 0)), FAR_BO]
    b = battle(units, blocks({}), initiative=(15, 10, 5))
    moved = b.apply(cmd.Move("ada", (5, 3, 0), via=((3, 3, 0),)), "red")
    assert moved.accepted, moved.refusal
    assert events(moved, "moved")[0]["cost"] == 5
    assert b.sheet("ada").cell == (5, 3, 0)
    # Ending there stays refused, and says why.
    on_cy = b.apply(cmd.Move("ada", (3, 3, 0)), "red").refusal
    assert on_cy is not None and on_cy.code == "cell_occupied"
