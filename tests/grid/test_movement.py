"""Movement: reachable cells, paths, reaction exits (P-MOV, G-3a/b, P-JUMP-1, P-ZERO, P-OA-1)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.grid.geometry import chebyshev
from game.grid.jit import py_func
from game.grid.model import (
    OBSTACLE_FULL,
    OBSTACLE_HALF,
    OBSTACLE_THIN,
    TERRAIN_CLIMBABLE,
    TERRAIN_ROUGH,
    TERRAIN_STAIRS,
    TERRAIN_WATER,
    Cell,
    Grid,
)
from game.grid.movement import (
    Kernel,
    MovementError,
    MoveRequest,
    OpportunityExit,
    StepKind,
    find_path,
    reachable,
    reaction_exits,
    short_jump,
    summarize,
)
from game.grid.movement_kernels import movement_kernel
from game.grid.occupants import Occupancy, Occupant
from game.text import explain
from game.text.i18n import speaking

KERNELS = pytest.mark.parametrize(
    "kernel", [movement_kernel, py_func(movement_kernel)], ids=["compiled", "python"]
)


def make_grid(
    size: Cell,
    *,
    obstacles: dict[Cell, int] | None = None,
    terrain: dict[Cell, int] | None = None,
    floors: tuple[Cell, ...] = (),
    gravity: float = 0.2,
    pressurised: bool = True,
) -> Grid:
    obs = np.zeros(size, dtype=np.uint8)
    ter = np.zeros(size, dtype=np.uint8)
    flo = np.zeros(size, dtype=np.bool_)
    for cell, code in (obstacles or {}).items():
        obs[cell] = code
    for cell, bits in (terrain or {}).items():
        ter[cell] = bits
    for cell in floors:
        flo[cell] = True
    return Grid.build(obs, ter, flo, gravity=gravity, pressurised=pressurised)


def me_at(cell: Cell) -> Occupant:
    return Occupant("me", cell, "red")


def walk(points: int = 5, spent: int = 0) -> MoveRequest:
    return MoveRequest({"walk": points}, spent=spent)


def corridor(length: int) -> dict[Cell, int]:
    """Walls along y=0 and y=2 of a (length x 3) map: the only way is along y=1."""
    return {(x, y, 0): OBSTACLE_FULL for x in range(length) for y in (0, 2)}


# --- P-MOV-3: diagonals and their corners ------------------------------------------------------


@KERNELS
def test_p_mov_3_diagonal_past_a_wall_corner_is_refused_and_the_path_goes_round_for_2(
    kernel: Kernel,
) -> None:
    grid = make_grid((5, 5, 1), obstacles={(2, 1, 0): OBSTACLE_FULL})
    me = me_at((1, 1, 0))
    occ = Occupancy(grid.shape, [me])
    # (1,1)→(2,2) has corners (2,1) wall and (1,2): refused; round by (1,2): 1 + 1 = 2.
    path = find_path(grid, occ, me, walk(), (2, 2, 0), kernel=kernel)
    assert path.cost == 2
    assert path.cells == ((1, 1, 0), (1, 2, 0), (2, 2, 0))
    assert reachable(grid, occ, me, walk(), kernel=kernel)[(2, 2, 0)] == 2
    # Without the wall the diagonal is a single step costing 1.
    open_grid = make_grid((5, 5, 1))
    assert reachable(open_grid, occ, me, walk(), kernel=kernel)[(2, 2, 0)] == 1


@KERNELS
def test_p_mov_3_diagonal_between_two_rough_corners_costs_the_larger_extra_not_the_sum(
    kernel: Kernel,
) -> None:
    rough = {(2, 1, 0): TERRAIN_ROUGH, (1, 2, 0): TERRAIN_ROUGH}
    grid = make_grid((5, 5, 1), terrain=rough)
    me = me_at((1, 1, 0))
    occ = Occupancy(grid.shape, [me])
    # Diagonal: 1 + max(1, 1) + 0 = 2 (the sum would give 3); round by a rough cell: 2 + 1 = 3.
    path = find_path(grid, occ, me, walk(), (2, 2, 0), kernel=kernel)
    assert path.cost == 2
    assert path.cells == ((1, 1, 0), (2, 2, 0))
    with speaking("en"):
        lines = explain.path_lines(path)
    assert lines == [
        "(1,1,0)→(2,2,0) diagonal (walk), corner (1,2,0) rough +1: 2, total 2 [P-MOV-3, P-MOV-2]"
    ]


@KERNELS
def test_p_mov_3_diagonal_past_an_ally_and_a_neutral_costs_1_plus_1(kernel: Kernel) -> None:
    grid = make_grid((5, 5, 1))
    me = me_at((1, 1, 0))
    ally = Occupant("al", (2, 1, 0), "red")
    neutral = Occupant("ne", (1, 2, 0), "green", neutral=True)
    occ = Occupancy(grid.shape, [me, ally, neutral])
    # Diagonal: 1 + max(ally 1, neutral 1) = 2; through the ally's cell: (1 + 1) + 1 = 3.
    path = find_path(grid, occ, me, walk(), (2, 2, 0), kernel=kernel)
    assert path.cost == 2
    assert path.cells == ((1, 1, 0), (2, 2, 0))
    assert "P-MOV-4" in path.steps[0].rules
    cells = reachable(grid, occ, me, walk(), kernel=kernel)
    assert (2, 1, 0) not in cells and (1, 2, 0) not in cells


@KERNELS
def test_p_mov_3_diagonal_corner_extras_add_the_destination_extra_and_crawling_once(
    kernel: Kernel,
) -> None:
    # Corner (2,1) rough+water = 2, corner (1,2) rough = 1, destination (2,2) rough = 1.
    terrain = {
        (2, 1, 0): TERRAIN_ROUGH | TERRAIN_WATER,
        (1, 2, 0): TERRAIN_ROUGH,
        (2, 2, 0): TERRAIN_ROUGH,
    }
    grid = make_grid((4, 4, 1), terrain=terrain)
    me = me_at((1, 1, 0))
    occ = Occupancy(grid.shape, [me])
    request = MoveRequest({"crawl": 9, "swim": 9}, mode="crawl", crawling=True)
    path = find_path(grid, occ, me, request, (2, 2, 0), kernel=kernel)
    # 1 + max(2, 1) + rough 1 + crawling 1 = 5; round by (1,2): (1+1+1) + (1+1+1) = 6.
    assert path.cost == 5
    assert path.cells == ((1, 1, 0), (2, 2, 0))


# --- P-MOV-4: occupants ---------------------------------------------------------------------


@KERNELS
def test_p_mov_4_an_enemy_cell_is_impassable(kernel: Kernel) -> None:
    grid = make_grid((6, 3, 1), obstacles=corridor(6))
    me = me_at((0, 1, 0))
    enemy = Occupant("en", (2, 1, 0), "blue")
    occ = Occupancy(grid.shape, [me, enemy])
    cells = reachable(grid, occ, me, walk(10), kernel=kernel)
    assert cells == {(1, 1, 0): 1}
    assert find_path(grid, occ, me, walk(10), (4, 1, 0), kernel=kernel).cost is None


@KERNELS
def test_p_mov_4_an_enemy_on_a_corner_refuses_the_diagonal(kernel: Kernel) -> None:
    grid = make_grid((5, 5, 1))
    me = me_at((1, 1, 0))
    occ = Occupancy(grid.shape, [me, Occupant("en", (2, 1, 0), "blue")])
    # Corner (2,1) holds an enemy: round by (1,2), 1 + 1 = 2.
    assert reachable(grid, occ, me, walk(), kernel=kernel)[(2, 2, 0)] == 2


@KERNELS
def test_p_mov_4_through_an_ally_costs_1_more_but_never_ends_on_an_occupied_cell(
    kernel: Kernel,
) -> None:
    grid = make_grid((5, 3, 1), obstacles=corridor(5))
    me = me_at((0, 1, 0))
    occ = Occupancy(grid.shape, [me, Occupant("al", (1, 1, 0), "red")])
    cells = reachable(grid, occ, me, walk(4), kernel=kernel)
    # (1,1) ally: 1 + 1 = 2, not an end cell; (2,1): 2 + 1 = 3; (3,1): 4; (4,1): 5 > 4.
    assert cells == {(2, 1, 0): 3, (3, 1, 0): 4}
    path = find_path(grid, occ, me, walk(4), (2, 1, 0), kernel=kernel)
    assert path.cells == ((0, 1, 0), (1, 1, 0), (2, 1, 0))
    with speaking("en"):
        assert explain.step_line(path.steps[0]) == (
            "(0,1,0)→(1,1,0) cardinal (walk), ally al +1: 2, total 2 [P-MOV-4]"
        )


# --- P-MOV-1/2: extra costs and mode switching -------------------------------------------------


@KERNELS
def test_p_mov_2_a_crawl_onto_rough_costs_3(kernel: Kernel) -> None:
    grid = make_grid((3, 3, 1), terrain={(1, 0, 0): TERRAIN_ROUGH})
    me = me_at((0, 0, 0))
    occ = Occupancy(grid.shape, [me])
    request = MoveRequest({"crawl": 5}, mode="crawl", crawling=True)
    cells = reachable(grid, occ, me, request, kernel=kernel)
    assert cells[(1, 0, 0)] == 3  # 1 + rough 1 + crawling 1
    assert cells[(0, 1, 0)] == 2  # 1 + crawling 1
    # A prone entity asked to "walk" still crawls (P-MOV-2).
    prone = MoveRequest({"crawl": 5}, crawling=True)
    assert reachable(grid, occ, me, prone, kernel=kernel) == cells


@KERNELS
def test_p_mov_2_entering_water_is_swimming_at_plus_1_within_the_swim_budget(
    kernel: Kernel,
) -> None:
    water = {(x, 0, 0): TERRAIN_WATER for x in range(1, 6)}
    grid = make_grid((6, 1, 1), terrain=water)
    me = me_at((0, 0, 0))
    occ = Occupancy(grid.shape, [me])
    request = MoveRequest({"walk": 10, "swim": 4})
    # Each water cell 1 + 1 = 2: totals 2, 4, 6; swimming stops at 4 whatever the walk budget.
    cells = reachable(grid, occ, me, request, kernel=kernel)
    assert cells == {(1, 0, 0): 2, (2, 0, 0): 4}
    path = find_path(grid, occ, me, request, (1, 0, 0), kernel=kernel)
    assert path.steps[0].mode == "swim"
    assert {"P-MOV-1", "P-MOV-2"} <= set(path.steps[0].rules)
    assert reachable(grid, occ, me, walk(10), kernel=kernel) == {}


@KERNELS
def test_p_mov_1_after_walking_the_climb_budget_counts_the_points_already_spent(
    kernel: Kernel,
) -> None:
    # A ladder at x=3 up to level 3; walking to its foot costs 3, then each rung 1 more.
    ladder = {(3, 0, z): TERRAIN_CLIMBABLE for z in range(3)}
    grid = make_grid((4, 1, 4), terrain=ladder)
    me = me_at((0, 0, 0))
    occ = Occupancy(grid.shape, [me])
    cells = reachable(grid, occ, me, MoveRequest({"walk": 6, "climb": 4}), kernel=kernel)
    # Foot (3,0,0) at 3; (3,0,1) at 4 <= climb 4; (3,0,2) at 5 > 4.
    assert cells[(3, 0, 0)] == 3
    assert cells[(3, 0, 1)] == 4
    assert (3, 0, 2) not in cells


@KERNELS
def test_p_turn_1_points_already_spent_shrink_the_reachable_set(kernel: Kernel) -> None:
    grid = make_grid((11, 11, 1))
    me = me_at((5, 5, 0))
    occ = Occupancy(grid.shape, [me])
    cells = reachable(grid, occ, me, walk(5, spent=3), kernel=kernel)
    # 2 points left: the 5x5 square around the start, minus the start; totals include the 3.
    assert len(cells) == 24
    assert cells[(7, 7, 0)] == 5
    assert cells[(6, 5, 0)] == 4
    assert (8, 5, 0) not in cells
    assert summarize(grid, occ, me, walk(5, spent=3)).rules == ("P-MOV-1", "P-TURN-1")


# --- G-3a stairs, G-3b climbing --------------------------------------------------------------


@KERNELS
def test_g_3a_stairs_lead_up_one_level_and_back_down_at_normal_cost(kernel: Kernel) -> None:
    # Stairs at (1,0,0); a block at x=2..3 makes (2,0,1) and (3,0,1) standable.
    grid = make_grid(
        (4, 1, 2),
        obstacles={(2, 0, 0): OBSTACLE_FULL, (3, 0, 0): OBSTACLE_FULL},
        terrain={(1, 0, 0): TERRAIN_STAIRS},
    )
    me = me_at((0, 0, 0))
    occ = Occupancy(grid.shape, [me])
    up = find_path(grid, occ, me, walk(), (3, 0, 1), kernel=kernel)
    # (0,0,0)→(1,0,0) 1, stairs up to (2,0,1) 1, then (3,0,1) 1: 3.
    assert up.cost == 3
    assert up.cells == ((0, 0, 0), (1, 0, 0), (2, 0, 1), (3, 0, 1))
    assert up.steps[1].move == "stairs up" and "G-3a" in up.steps[1].rules
    top = me_at((3, 0, 1))
    down = reachable(grid, Occupancy(grid.shape, [top]), top, walk(), kernel=kernel)
    assert down == {(2, 0, 1): 1, (1, 0, 0): 2, (0, 0, 0): 3}


@KERNELS
def test_g_3a_a_diagonal_stair_checks_its_corners_at_the_upper_level(kernel: Kernel) -> None:
    # Stairs at (1,1,0) up to (2,2,1) (standable on a block). Corners at level 1: (2,1,1), (1,2,1).
    blocks = {(2, 2, 0): OBSTACLE_FULL, (2, 1, 0): OBSTACLE_FULL}  # (2,1,0) is level 0: no matter
    stairs = {(1, 1, 0): TERRAIN_STAIRS}
    me = me_at((1, 1, 0))
    grid = make_grid((3, 3, 2), obstacles=blocks, terrain=stairs)
    occ = Occupancy(grid.shape, [me])
    assert reachable(grid, occ, me, walk(), kernel=kernel)[(2, 2, 1)] == 1
    # A crate at (1,2,1) refuses the diagonal: up to (2,1,1) for 1, then across for 1 more.
    walled = make_grid((3, 3, 2), obstacles={**blocks, (1, 2, 1): OBSTACLE_HALF}, terrain=stairs)
    path = find_path(walled, occ, me, walk(), (2, 2, 1), kernel=kernel)
    assert path.cost == 2
    assert path.cells == ((1, 1, 0), (2, 1, 1), (2, 2, 1))


@KERNELS
def test_g_3b_a_ladder_is_climbed_a_rung_a_point_and_one_may_hang_on_it(kernel: Kernel) -> None:
    # A wall at x=2, levels 0-2, its top (2,0,3) standable; a ladder at x=1, levels 0-2.
    grid = make_grid(
        (3, 1, 4),
        obstacles={(2, 0, z): OBSTACLE_FULL for z in range(3)},
        terrain={(1, 0, z): TERRAIN_CLIMBABLE for z in range(3)},
    )
    me = me_at((0, 0, 0))
    occ = Occupancy(grid.shape, [me])
    cells = reachable(grid, occ, me, MoveRequest({"walk": 6, "climb": 6}), kernel=kernel)
    # Foot 1; rungs (1,0,1) 2, (1,0,2) 3; over the top (1,0,3) 4 (not an end: nothing to hold);
    # off onto the wall's top (2,0,3) 5.
    assert cells == {(1, 0, 0): 1, (1, 0, 1): 2, (1, 0, 2): 3, (2, 0, 3): 5}
    path = find_path(grid, occ, me, MoveRequest({"walk": 6, "climb": 6}), (2, 0, 3), kernel=kernel)
    assert [s.move for s in path.steps] == [
        "cardinal", "climb up", "climb up", "climb up", "cardinal"
    ]  # fmt: skip
    assert [s.mode for s in path.steps] == ["walk", "climb", "climb", "climb", "walk"]
    # Without a climb speed the ladder is only its foot.
    assert reachable(grid, occ, me, walk(6), kernel=kernel) == {(1, 0, 0): 1}


# --- P-JUMP-1 ---------------------------------------------------------------------------------


def ledge_grid(height: int, gravity: float = 0.2) -> Grid:
    """A column at x=3 `height` blocks high: its top (3,0,height) is standable."""
    return make_grid(
        (5, 1, 5),
        obstacles={(3, 0, z): OBSTACLE_FULL for z in range(height)},
        gravity=gravity,
    )


@KERNELS
def test_p_jump_1_at_0_2_g_athletics_0_n_max_is_2_and_reaches_a_2_high_ledge_for_2(
    kernel: Kernel,
) -> None:
    grid = ledge_grid(2)
    me = me_at((1, 0, 0))
    occ = Occupancy(grid.shape, [me])
    request = MoveRequest({"jump": 4}, mode="jump")
    # n_max = floor((2 + 0) × 0.2 / 0.2) = 2.
    assert summarize(grid, occ, me, request).n_max == 2
    cells = reachable(grid, occ, me, request, kernel=kernel)
    # Ledge top 2 across, 2 up: apex 2 (reach 2 + 2×0 = 2): cost 2. Neighbours: apex 1, cost 1.
    # (4,0,0) is 3 across: beyond any apex ≤ n_max.
    assert cells == {(0, 0, 0): 1, (2, 0, 0): 1, (3, 0, 2): 2}
    path = find_path(grid, occ, me, request, (3, 0, 2), kernel=kernel)
    assert path.cost == 2
    assert path.cells == ((1, 0, 0), (1, 0, 1), (1, 0, 2), (2, 0, 2), (3, 0, 2))
    assert path.steps[0].rules == ("P-JUMP-1",)


@KERNELS
def test_p_jump_1_a_3_high_ledge_needs_a_check_and_is_not_listed(kernel: Kernel) -> None:
    grid = ledge_grid(3)
    me = me_at((1, 0, 0))
    occ = Occupancy(grid.shape, [me])
    cells = reachable(grid, occ, me, MoveRequest({"jump": 4}, mode="jump"), kernel=kernel)
    assert (3, 0, 3) not in cells
    # At 0.1 g: n_max = floor(2 × 0.2 / 0.1) = 4; apex 3 costs 3.
    low_g = ledge_grid(3, gravity=0.1)
    cells = reachable(low_g, occ, me, MoveRequest({"jump": 4}, mode="jump"), kernel=kernel)
    assert cells[(3, 0, 3)] == 3


@KERNELS
def test_p_jump_1_a_low_ceiling_and_the_run_up_limit_the_jump(kernel: Kernel) -> None:
    me = me_at((1, 0, 0))
    ceiling = make_grid(
        (5, 1, 5), obstacles={(3, 0, 0): OBSTACLE_FULL, (3, 0, 1): OBSTACLE_FULL, (1, 0, 2): 2}
    )
    occ = Occupancy(ceiling.shape, [me])
    request = MoveRequest({"jump": 4}, mode="jump")
    # A block over the start's level 2 caps the apex at 1: the 2-high ledge is out of reach.
    assert (3, 0, 2) not in reachable(ceiling, occ, me, request, kernel=kernel)
    flat = make_grid((6, 1, 3))
    run = MoveRequest({"jump": 4}, mode="jump", run_up=1)
    # Apex 1 with a run-up of 1 reaches 1 + 2×1 = 3 across: (4,0,0) for 1.
    cells = reachable(flat, Occupancy(flat.shape, [me]), me, run, kernel=kernel)
    assert cells[(4, 0, 0)] == 1


# --- P-ZERO ---------------------------------------------------------------------------------


def thrusters(points: int = 5, velocity: Cell = (0, 0, 0)) -> MoveRequest:
    return MoveRequest(
        {"thrusters": points}, mode="thrusters", has_thrusters=True, velocity=velocity
    )


@KERNELS
def test_p_zero_2_thrusters_obey_the_3d_corner_rule(kernel: Kernel) -> None:
    me = me_at((0, 0, 0))
    open_space = make_grid((3, 3, 3), gravity=0.0)
    occ = Occupancy(open_space.shape, [me])
    assert reachable(open_space, occ, me, thrusters(), kernel=kernel)[(1, 1, 1)] == 1
    # (1,1,0) is one of the six other cells of the cube: no 3D diagonal; up to (0,0,1) then the
    # diagonal (1,1,1), whose corners (1,0,1), (0,1,1) are free: 2.
    blocked = make_grid((3, 3, 3), obstacles={(1, 1, 0): OBSTACLE_HALF}, gravity=0.0)
    path = find_path(blocked, occ, me, thrusters(), (1, 1, 1), kernel=kernel)
    assert path.cost == 2
    assert len(path.cells) == 3
    # A rough corner of the cube: 1 + 1 = 2.
    rough = make_grid((3, 3, 3), terrain={(1, 0, 1): TERRAIN_ROUGH}, gravity=0.0)
    path = find_path(rough, occ, me, thrusters(), (1, 1, 1), kernel=kernel)
    assert path.cost == 2


@KERNELS
def test_p_zero_2_a_floor_slab_stops_thrusters_but_a_ladder_climbs_through_its_hatch(
    kernel: Kernel,
) -> None:
    me = me_at((0, 0, 0))
    deck = make_grid((3, 1, 3), floors=((0, 0, 1), (1, 0, 1), (2, 0, 1)), gravity=0.0)
    occ = Occupancy(deck.shape, [me])
    assert reachable(deck, occ, me, thrusters(), kernel=kernel) == {(1, 0, 0): 1, (2, 0, 0): 2}
    # G-3b: a ladder (climbable (0,0,0), (0,0,1)) runs through the floors of levels 1 and 2.
    shaft = make_grid(
        (1, 1, 3),
        terrain={(0, 0, 0): TERRAIN_CLIMBABLE, (0, 0, 1): TERRAIN_CLIMBABLE},
        floors=((0, 0, 1), (0, 0, 2)),
    )
    climb = MoveRequest({"walk": 5, "climb": 5})
    cells = reachable(shaft, Occupancy(shaft.shape, [me]), me, climb, kernel=kernel)
    assert cells == {(0, 0, 1): 1, (0, 0, 2): 2}


@KERNELS
def test_p_zero_2_thrusters_under_gravity_must_end_on_standable_ground(kernel: Kernel) -> None:
    # A 2-high block at x=2: its top (2,0,2) is standable. The last step cannot cut the block's
    # corner (2,0,1), so the flight rises first: (0,0,1), (1,0,2), (2,0,2): 3.
    grid = make_grid((3, 1, 3), obstacles={(2, 0, 0): OBSTACLE_FULL, (2, 0, 1): OBSTACLE_FULL})
    me = me_at((0, 0, 0))
    occ = Occupancy(grid.shape, [me])
    assert reachable(grid, occ, me, thrusters(), kernel=kernel) == {(1, 0, 0): 1, (2, 0, 2): 3}


@KERNELS
def test_p_zero_2_a_carried_velocity_is_cancelled_first_at_its_magnitude(kernel: Kernel) -> None:
    grid = make_grid((6, 6, 6), gravity=0.0)
    me = me_at((0, 0, 0))
    occ = Occupancy(grid.shape, [me])
    request = thrusters(5, velocity=(2, -1, 0))
    cells = reachable(grid, occ, me, request, kernel=kernel)
    # |v| = max(2, 1, 0) = 2 points first, 3 left: (3,3,3) at 2 + 3 = 5; (4,0,0) would be 6.
    assert cells[(3, 3, 3)] == 5
    assert cells[(1, 0, 0)] == 3
    assert (4, 0, 0) not in cells
    gravity = make_grid((3, 3, 1))
    with pytest.raises(MovementError, match="velocity"):
        reachable(gravity, Occupancy(gravity.shape, [me]), me, request)


@KERNELS
def test_p_zero_2_adrift_without_thrusters_moves_one_cell_only_in_pressurised_space(
    kernel: Kernel,
) -> None:
    me = me_at((2, 2, 2))
    air = make_grid((5, 5, 5), gravity=0.0)
    occ = Occupancy(air.shape, [me])
    cells = reachable(air, occ, me, walk(5), kernel=kernel)
    assert len(cells) == 26 and set(cells.values()) == {1}
    vacuum = make_grid((5, 5, 5), gravity=0.0, pressurised=False)
    assert reachable(vacuum, occ, me, walk(5), kernel=kernel) == {}


@KERNELS
def test_p_zero_magnetic_boots_walk_up_a_wall_between_surface_cells(kernel: Kernel) -> None:
    # A wall column at (1,0,z): the cells beside it are surfaces; (0,1,1) touches no full face.
    grid = make_grid((3, 3, 3), obstacles={(1, 0, z): OBSTACLE_FULL for z in range(3)}, gravity=0.0)
    me = me_at((0, 0, 0))
    occ = Occupancy(grid.shape, [me])
    cells = reachable(grid, occ, me, walk(5), kernel=kernel)
    assert cells[(0, 0, 1)] == 1
    assert cells[(0, 0, 2)] == 2
    assert (0, 1, 1) not in cells
    assert summarize(grid, occ, me, walk(5)).search == "surface"


@KERNELS
def test_p_zero_1_a_microgravity_jump_flies_a_clear_straight_line_to_a_surface(
    kernel: Kernel,
) -> None:
    me = me_at((0, 0, 0))
    grid = make_grid((10, 1, 1), gravity=0.0)
    occ = Occupancy(grid.shape, [me])
    # A human's jump speed 4, doubled in microgravity by the rules layer: 8 cells, 1 point each.
    request = MoveRequest({"jump": 8}, mode="jump")
    cells = reachable(grid, occ, me, request, kernel=kernel)
    assert cells == {(x, 0, 0): x for x in range(1, 9)}
    crate = make_grid((10, 1, 1), obstacles={(2, 0, 0): OBSTACLE_HALF}, gravity=0.0)
    assert reachable(crate, occ, me, request, kernel=kernel) == {(1, 0, 0): 1}
    # Off the ground the line must end on a surface: (3,0,2) floats free until a wall block at
    # (4,0,2) makes it one; the line (1,0,1), (2,0,1), (3,0,2) is 3 cells.
    space = make_grid((5, 1, 3), gravity=0.0)
    wall = make_grid((5, 1, 3), obstacles={(4, 0, 2): OBSTACLE_FULL}, gravity=0.0)
    air = Occupancy(space.shape, [me])
    assert (3, 0, 2) not in reachable(space, air, me, request, kernel=kernel)
    assert reachable(wall, air, me, request, kernel=kernel)[(3, 0, 2)] == 3


# --- P-OA-1 ----------------------------------------------------------------------------------


def test_p_oa_1_leaving_an_enemy_reaction_area_is_listed_once_per_exit() -> None:
    grid = make_grid((5, 5, 2))
    me = me_at((1, 2, 0))
    enemy = Occupant("en", (2, 2, 1), "blue")  # one level up: its area reaches level 0 (G-5)
    occ = Occupancy(grid.shape, [me, enemy])
    path = [(1, 2, 0), (1, 1, 0), (0, 0, 0), (1, 1, 0), (0, 1, 0)]
    assert reaction_exits(grid, occ, me, path) == [
        OpportunityExit("en", (1, 1, 0), (0, 0, 0)),
        OpportunityExit("en", (1, 1, 0), (0, 1, 0)),
    ]


def test_p_oa_1_an_ally_in_the_cell_being_left_covers_the_retreat_but_a_neutral_does_not() -> None:
    grid = make_grid((5, 5, 1))
    me = me_at((1, 2, 0))
    enemy = Occupant("en", (2, 2, 0), "blue")
    path = [(1, 2, 0), (1, 1, 0), (0, 0, 0)]
    ally = Occupancy(grid.shape, [me, enemy, Occupant("al", (1, 1, 0), "red")])
    assert reaction_exits(grid, ally, me, path) == []
    neutral = Occupancy(grid.shape, [me, enemy, Occupant("ne", (1, 1, 0), "x", neutral=True)])
    assert reaction_exits(grid, neutral, me, path) == [OpportunityExit("en", (1, 1, 0), (0, 0, 0))]


# --- Bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"budgets": {"fly": 5}}, "unknown movement mode 'fly'"),
        ({"budgets": {"walk": -1}}, r"budgets\['walk'\]"),
        ({"budgets": {"walk": 5}, "mode": "run"}, "MoveRequest.mode"),
        ({"budgets": {"walk": 5}, "spent": -2}, "MoveRequest.spent"),
        ({"budgets": {"walk": 5}, "velocity": (1, 2)}, "MoveRequest.velocity"),
    ],
)
def test_p_mov_1_a_malformed_request_is_refused_naming_the_field(
    kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(MovementError, match=message):
        MoveRequest(**kwargs)  # type: ignore[arg-type]


def test_p_mov_4_queries_name_what_is_wrong_with_the_mover_or_the_target() -> None:
    grid = make_grid((3, 3, 1))
    me = me_at((0, 0, 0))
    occ = Occupancy(grid.shape, [me])
    with pytest.raises(ValueError, match="path target"):
        find_path(grid, occ, me, walk(), (5, 0, 0))
    with pytest.raises(MovementError, match="no thrusters"):
        reachable(grid, occ, me, MoveRequest({"thrusters": 5}, mode="thrusters"))
    stranger = Occupant("st", (0, 0, 0), "blue")
    with pytest.raises(MovementError, match="holds 'me'"):
        reachable(grid, occ, stranger, walk())


# --- Properties -----------------------------------------------------------------------------


@st.composite
def battlefields(draw: st.DrawFn) -> tuple[Grid, Occupancy, Occupant, MoveRequest]:
    w = draw(st.integers(2, 6))
    h = draw(st.integers(2, 6))
    d = draw(st.integers(1, 3))
    n = w * h * d
    cells = [(x, y, z) for x in range(w) for y in range(h) for z in range(d)]
    obstacle = draw(st.lists(st.sampled_from([0, 0, 0, 0, 1, 2, 3]), min_size=n, max_size=n))
    terrain = draw(st.lists(st.integers(0, 15), min_size=n, max_size=n))
    floor = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    gravity = draw(st.sampled_from([0.2, 0.1, 0.0]))
    start = draw(st.sampled_from(cells))
    obstacle[cells.index(start)] = 0
    grid = Grid.build(
        np.array(obstacle, dtype=np.uint8).reshape(w, h, d),
        np.array(terrain, dtype=np.uint8).reshape(w, h, d),
        np.array(floor, dtype=np.bool_).reshape(w, h, d),
        gravity=gravity,
    )
    others = draw(st.lists(st.sampled_from(cells), max_size=4, unique=True))
    me = Occupant("me", start, "red")
    crowd = [
        Occupant(f"o{k}", c, draw(st.sampled_from(["red", "blue"])), neutral=draw(st.booleans()))
        for k, c in enumerate(others)
        if c != start
    ]
    budgets = draw(
        st.dictionaries(
            st.sampled_from(["walk", "crawl", "swim", "climb", "jump", "thrusters"]),
            st.integers(0, 6),
        )
    )
    mode = draw(st.sampled_from(["walk", "crawl", "jump", "thrusters"]))
    if mode == "thrusters":
        budgets.setdefault("thrusters", 3)
    request = MoveRequest(
        budgets,
        mode=mode,
        crawling=mode == "crawl",
        spent=draw(st.integers(0, 2)),
        athletics=draw(st.integers(-1, 2)),
        run_up=draw(st.integers(0, 2)),
        has_thrusters=mode == "thrusters" or draw(st.booleans()),
    )
    return grid, Occupancy(grid.shape, [me, *crowd]), me, request


@given(battlefields())
def test_p_mov_paths_cost_what_the_reachable_set_says_within_the_largest_budget(
    field: tuple[Grid, Occupancy, Occupant, MoveRequest],
) -> None:
    grid, occ, me, request = field
    cells = reachable(grid, occ, me, request)
    top = max(request.budgets.values(), default=0)
    for cell, cost in cells.items():
        assert request.spent < cost <= top
        assert occ.at(cell) is None and cell != me.cell  # P-MOV-4
        path = find_path(grid, occ, me, request, cell)
        assert path.cost == cost
        assert path.cells[0] == me.cell and path.cells[-1] == cell
        assert all(chebyshev(a, b) == 1 for a, b in zip(path.cells, path.cells[1:], strict=False))
        assert sum(s.points for s in path.steps) == cost - request.spent
        if request.mode not in ("jump",):
            # The explanation names every extra point: 1 + one "+1" per extra (P-MOV-2/3/4);
            # a drop is a jump down, costing its levels only (P-JUMP-3).
            with speaking("en"):
                for s in path.steps:
                    if s.move is StepKind.DROP:
                        assert s.points == s.start[2] - s.end[2]
                        continue
                    assert s.points == 1 + sum(explain.part_text(p).count("+1") for p in s.parts)


@given(battlefields())
def test_p_mov_the_compiled_kernel_and_the_python_reference_agree(
    field: tuple[Grid, Occupancy, Occupant, MoveRequest],
) -> None:
    grid, occ, me, request = field
    assert reachable(grid, occ, me, request) == reachable(
        grid, occ, me, request, kernel=py_func(movement_kernel)
    )


@given(battlefields(), st.data())
def test_p_mov_adding_an_obstacle_never_adds_a_reachable_cell_nor_lowers_a_cost(
    field: tuple[Grid, Occupancy, Occupant, MoveRequest], data: st.DataObject
) -> None:
    grid, occ, me, request = field
    free = [c for c in np.ndindex(*grid.shape) if grid.obstacle[c] == 0 and c != me.cell]
    if not free:
        return
    cell = data.draw(st.sampled_from(free))
    # A full obstacle makes the cell above it standable (G-3), which can open new ground on a
    # map with levels; half and thin obstacles never do.
    codes = [OBSTACLE_HALF, OBSTACLE_THIN] + ([OBSTACLE_FULL] if grid.shape[2] == 1 else [])
    obstacle = grid.obstacle.copy()
    obstacle[cell] = data.draw(st.sampled_from(codes))
    more = Grid.build(obstacle, grid.terrain, grid.floor, gravity=grid.gravity)
    before = reachable(grid, occ, me, request)
    after = reachable(more, occ, me, request)
    assert set(after) <= set(before)
    assert all(after[c] >= before[c] for c in after)


@KERNELS
def test_p_vul_3_blinded_enters_one_cell_even_where_two_steps_would_be_cheaper(
    kernel: Kernel,
) -> None:
    # Corner (2,1,0) is rough and water (extra 2), corner (1,2,0) is plain.
    # Direct diagonal (1,1,0)→(2,2,0): 1 + max(2, 0) = 3 (P-MOV-3); round by (1,2,0): 1 + 1 = 2.
    grid = make_grid((5, 5, 1), terrain={(2, 1, 0): TERRAIN_ROUGH | TERRAIN_WATER})
    mover = Occupant("m", (1, 1, 0), "red")
    occupancy = Occupancy(grid.shape, [mover])
    budgets = {"walk": 5, "swim": 5, "climb": 5}
    free = reachable(grid, occupancy, mover, MoveRequest(budgets), kernel=kernel)
    blind = reachable(grid, occupancy, mover, MoveRequest(budgets, max_cells=1), kernel=kernel)
    assert free[(2, 2, 0)] == 2
    assert blind[(2, 2, 0)] == 3
    assert blind[(2, 1, 0)] == 3  # 1 + rough 1 + water 1
    assert set(blind) == {c for c in free if chebyshev(c, (1, 1, 0)) == 1}
    path = find_path(
        grid, occupancy, mover, MoveRequest(budgets, max_cells=1), (2, 2, 0), kernel=kernel
    )
    assert (path.cost, path.cells) == (3, ((1, 1, 0), (2, 2, 0)))


def test_p_vul_3_a_blinded_entity_does_not_jump() -> None:
    grid = make_grid((5, 1, 3), obstacles={(1, 0, 0): OBSTACLE_HALF})
    mover = Occupant("m", (0, 0, 0), "red")
    occupancy = Occupancy(grid.shape, [mover])
    sighted = MoveRequest({"jump": 4}, mode="jump")
    # n_max = floor(2 × 0.2/0.2) = 2: apex 2 reaches 2 cells, over the crate, for 2 points
    assert reachable(grid, occupancy, mover, sighted) == {(2, 0, 0): 2}
    blind = MoveRequest({"jump": 4}, mode="jump", max_cells=1)
    assert reachable(grid, occupancy, mover, blind) == {}


@KERNELS
def test_p_jump_1_on_a_one_level_map_a_jump_clears_a_crate_through_the_open_air_above(
    kernel: Kernel,
) -> None:
    # athletics 0 at 0.2 g: n_max = floor(2 × 0.2/0.2) = 2; the crate (1,0,0) is not standable,
    # so the landing is (2,0,0), 2 cells away: apex 2 (horizontal reach ≤ apex), cost 2.
    grid = make_grid((5, 1, 1), obstacles={(1, 0, 0): OBSTACLE_HALF})
    mover = Occupant("m", (0, 0, 0), "red")
    occupancy = Occupancy(grid.shape, [mover])
    request = MoveRequest({"jump": 4}, mode="jump")
    assert reachable(grid, occupancy, mover, request, kernel=kernel) == {(2, 0, 0): 2}
    path = find_path(grid, occupancy, mover, request, (2, 0, 0), kernel=kernel)
    assert path.cost == 2
    # the flight: up to the apex (0,0,2), over to (2,0,2) above the map's only level, down
    assert path.cells == (
        (0, 0, 0),
        (0, 0, 1),
        (0, 0, 2),
        (1, 0, 2),
        (2, 0, 2),
        (2, 0, 1),
        (2, 0, 0),
    )


# --- P-JUMP-1 higher jumps and P-JUMP-3 drops (issue 13) -------------------------------------


def platform_grid(height: int, gravity: float = 0.2) -> Grid:
    """A column at x=2 `height` blocks high in a (6, 1, 5) map: its top (2,0,height) is where the
    mover stands; the floor z=0 lies on either side."""
    return make_grid(
        (6, 1, 5), obstacles={(2, 0, z): OBSTACLE_FULL for z in range(height)}, gravity=gravity
    )


def stand(points: int = 5, jump: int = 4, **kw: object) -> MoveRequest:
    return MoveRequest({"walk": points, "jump": jump}, **kw)  # type: ignore[arg-type]


@KERNELS
def test_p_jump_3_a_unit_on_a_one_level_platform_steps_off_its_edge_for_1_point(
    kernel: Kernel,
) -> None:
    # P-JUMP-3: "stepping off an edge to a standable cell up to n_max levels below is a jump
    # down: only its vertical cells cost movement, no check". n_max = floor(2 × 0.2/0.2) = 2, the
    # drop is 1 level: 1 point, in the jump budget (P-MOV-1); then walking on, 1 a cell.
    grid = platform_grid(1)
    me = me_at((2, 0, 1))
    occ = Occupancy(grid.shape, [me])
    cells = reachable(grid, occ, me, stand(), kernel=kernel)
    assert cells == {(1, 0, 0): 1, (0, 0, 0): 2, (3, 0, 0): 1, (4, 0, 0): 2, (5, 0, 0): 3}
    path = find_path(grid, occ, me, stand(), (0, 0, 0), kernel=kernel)
    assert path.cells == ((2, 0, 1), (1, 0, 0), (0, 0, 0))
    drop = path.steps[0]
    assert (drop.move, drop.mode, drop.points) == (StepKind.DROP, "jump", 1)
    assert "P-JUMP-3" in drop.rules
    assert drop.parts[0].values == {"depth": 1, "n_max": 2}  # no dc: no check


@KERNELS
def test_p_jump_3_a_two_level_drop_path_lists_each_level_of_its_fall_so_every_step_is_adjacent(
    kernel: Kernel,
) -> None:
    # The property test's stored example: a walk-mode request with only a jump budget of 2, on a
    # floor at the top of a (3, 5, 3) map under 0.2 g, nothing standable below but the ground.
    # P-JUMP-3: "stepping off an edge to a standable cell up to n_max levels below is a jump
    # down: only its vertical cells cost movement, no check"; n_max = floor(2 × 0.2/0.2) = 2, so
    # each of the 8 cells around the start's column at z=0 costs the 2 levels, all the budget.
    # A path lists every cell passed (G-4: each one cell from the last): the level between,
    # (0,1,1), comes before the landing (0,1,0), as a jump's path lists its flight cells.
    grid = make_grid((3, 5, 3), floors=((1, 2, 2),))
    me = me_at((1, 2, 2))
    occ = Occupancy(grid.shape, [me])
    request = MoveRequest({"jump": 2}, mode="walk")
    cells = reachable(grid, occ, me, request, kernel=kernel)
    ring = [(x, y, 0) for x in (0, 1, 2) for y in (1, 2, 3) if (x, y) != (1, 2)]
    assert cells == dict.fromkeys(ring, 2)
    path = find_path(grid, occ, me, request, (0, 1, 0), kernel=kernel)
    assert path.cost == 2
    assert path.cells == ((1, 2, 2), (0, 1, 1), (0, 1, 0))
    # One step explains the whole drop, 2 points in the jump budget (P-MOV-1), no check.
    assert len(path.steps) == 1
    drop = path.steps[0]
    assert (drop.start, drop.end, drop.move, drop.mode) == (
        (1, 2, 2), (0, 1, 0), StepKind.DROP, "jump",
    )  # fmt: skip
    assert (drop.points, drop.total) == (2, 2)
    assert drop.parts[0].values == {"depth": 2, "n_max": 2}
    # A 3-level drop with the check (DC 12, as below) lists both levels between.
    deep = platform_grid(3)
    me3 = me_at((2, 0, 3))
    occ3 = Occupancy(deep.shape, [me3])
    fall = find_path(deep, occ3, me3, stand(checked=True), (1, 0, 0), kernel=kernel)
    assert fall.cells == ((2, 0, 3), (1, 0, 2), (1, 0, 1), (1, 0, 0))
    assert all(chebyshev(a, b) == 1 for a, b in zip(fall.cells, fall.cells[1:], strict=False))


@KERNELS
def test_p_jump_3_a_drop_deeper_than_n_max_is_searched_only_with_the_check_at_its_dc(
    kernel: Kernel,
) -> None:
    # From a 3-high column: n_max = 2 with athletics 0, so the 3-level drop needs the check, DC
    # floor((3 × 2 + 6) × 0.2/0.2) = 12 (P-JUMP-1's DC "by the levels dropped"); it costs 3.
    grid = platform_grid(3)
    me = me_at((2, 0, 3))
    occ = Occupancy(grid.shape, [me])
    assert reachable(grid, occ, me, stand(), kernel=kernel) == {}
    checked = stand(checked=True)
    assert reachable(grid, occ, me, checked, kernel=kernel)[(1, 0, 0)] == 3
    path = find_path(grid, occ, me, checked, (1, 0, 0), kernel=kernel)
    assert path.steps[0].parts[0].values == {"depth": 3, "n_max": 2, "dc": 12}
    # Athletics +1: n_max = floor(3 × 0.2/0.2) = 3, no check.
    fit = stand(athletics=1)
    assert reachable(grid, occ, me, fit, kernel=kernel)[(1, 0, 0)] == 3
    # At 0.4 g: n_max = floor(2 × 0.2/0.4) = 1; a 2-level drop has DC floor(10 × 0.5) = 5.
    heavy = platform_grid(2, gravity=0.4)
    me2 = me_at((2, 0, 2))
    occ2 = Occupancy(heavy.shape, [me2])
    assert reachable(heavy, occ2, me2, stand(), kernel=kernel) == {}
    path = find_path(heavy, occ2, me2, stand(checked=True), (3, 0, 0), kernel=kernel)
    assert path.cost == 2
    assert path.steps[0].parts[0].values == {"depth": 2, "n_max": 1, "dc": 5}


@KERNELS
def test_p_jump_3_a_drop_is_paid_from_the_jump_budget_and_not_by_a_prone_or_blind_unit(
    kernel: Kernel,
) -> None:
    grid = platform_grid(2)
    me = me_at((2, 0, 2))
    occ = Occupancy(grid.shape, [me])
    # P-MOV-1's switch: 3 points spent, the jump speed 4 leaves 1: a 2-level drop is too much.
    assert reachable(grid, occ, me, stand(spent=3), kernel=kernel) == {}
    # 2 spent: the drop makes 4 of 4 jump points, then one walking step more, 5 of 5.
    after = {(1, 0, 0): 4, (3, 0, 0): 4, (0, 0, 0): 5, (4, 0, 0): 5}
    assert reachable(grid, occ, me, stand(spent=2), kernel=kernel) == after
    # Prone (crawl only) or blinded (one cell entered, P-VUL-3): no drop.
    prone = MoveRequest({"crawl": 5, "swim": 5}, crawling=True)
    assert reachable(grid, occ, me, prone, kernel=kernel) == {}
    assert reachable(grid, occ, me, stand(max_cells=1), kernel=kernel) == {}


@KERNELS
def test_p_jump_1_a_higher_jump_is_searched_with_the_check_at_dc_12_for_a_3_high_ledge(
    kernel: Kernel,
) -> None:
    # A 3-high ledge with n_max 2: apex 3, costing 3 of the jump speed 4, DC
    # floor((3 × 2 + 6) × 0.2/0.2) = 12 (P-JUMP-1).
    grid = ledge_grid(3)
    me = me_at((1, 0, 0))
    occ = Occupancy(grid.shape, [me])
    request = MoveRequest({"jump": 4}, mode="jump", checked=True)
    assert reachable(grid, occ, me, request, kernel=kernel)[(3, 0, 3)] == 3
    path = find_path(grid, occ, me, request, (3, 0, 3), kernel=kernel)
    assert path.steps[0].parts[0].values == {"apex": 3, "n_max": 2, "dc": 12}
    # The neighbours still need only apex 1, and no check.
    near = find_path(grid, occ, me, request, (0, 0, 0), kernel=kernel)
    assert near.steps[0].parts[0].values == {"apex": 1, "n_max": 2}


def test_p_jump_1_a_failed_check_jumps_n_max_high_and_comes_down_before_the_ledge() -> None:
    # Aimed at the 3-high ledge's top, made only 2 high: up (1,0,1), (1,0,2), across to
    # (2,0,2), where the ledge's side at (3,0,2) stops it, and down to (2,0,0). It costs 2.
    grid = ledge_grid(3)
    me = me_at((1, 0, 0))
    occ = Occupancy(grid.shape, [me])
    jump = short_jump(grid, occ, me, (3, 0, 3), 2)
    assert jump.apex == 2
    assert jump.cells == ((1, 0, 1), (1, 0, 2), (2, 0, 2), (2, 0, 1), (2, 0, 0))
    # Nowhere to land beside it (an ally stands there): back down its own column.
    ally = Occupant("al", (2, 0, 0), "red")
    crowded = Occupancy(grid.shape, [me, ally])
    back = short_jump(grid, crowded, me, (3, 0, 3), 2)
    assert back.cells == ((1, 0, 1), (1, 0, 2), (1, 0, 1), (1, 0, 0))


@KERNELS
def test_p_mov_4_a_waypoint_may_be_an_allys_cell_and_a_path_may_start_there(
    kernel: Kernel,
) -> None:
    # P-MOV-4: passing through an ally's cell costs +1; only ending there is forbidden. A
    # waypoint is passed, not ended on: (1,0,0) for 1, the ally's (2,0,0) for 1 + 1: 3.
    grid = make_grid((5, 1, 1))
    me = me_at((0, 0, 0))
    ally = Occupant("al", (2, 0, 0), "red")
    occ = Occupancy(grid.shape, [me, ally])
    assert find_path(grid, occ, me, walk(), (2, 0, 0), kernel=kernel).cost is None
    via = find_path(grid, occ, me, walk(), (2, 0, 0), kernel=kernel, waypoint=True)
    assert via.cost == 3
    # The next leg starts on the ally's cell: 2 more cells east, 1 each.
    on = me_at((2, 0, 0))
    rest = find_path(grid, occ, on, walk(spent=3), (4, 0, 0), kernel=kernel)
    assert rest.cost == 5
    enemy = Occupant("en", (2, 0, 0), "blue")
    hostile = Occupancy(grid.shape, [me, enemy])
    blocked = find_path(grid, hostile, me, walk(), (2, 0, 0), kernel=kernel, waypoint=True)
    assert blocked.cost is None  # never through an enemy


@KERNELS
@pytest.mark.parametrize(
    ("to", "line"),
    [
        ((6, 2, 2), ((3, 2, 2), (4, 2, 2), (5, 2, 2), (6, 2, 2))),
        ((2, 2, 5), ((2, 2, 3), (2, 2, 4), (2, 2, 5))),
        ((5, 3, 2), ((3, 2, 2), (4, 3, 2), (5, 3, 2))),
    ],
)
def test_p_zero_2_thrusters_take_the_straight_line_among_paths_of_equal_cost(
    kernel: Kernel, to: Cell, line: tuple[Cell, ...]
) -> None:
    # In open space every path of Chebyshev length costs the same; the one flown is the
    # straight line (for (5,3,2) the flight line's own cells, halves rounded up), so the run the
    # dampers keep is the aimed one (P-ZERO-2).
    space = make_grid((8, 8, 8), gravity=0.0)
    me = me_at((2, 2, 2))
    occ = Occupancy(space.shape, [me])
    path = find_path(space, occ, me, thrusters(), to, kernel=kernel)
    assert path.cells == ((2, 2, 2), *line)
    assert path.cost == len(line)


@KERNELS
def test_d2_without_p_mov_4s_ally_cost_an_allys_cell_is_passed_at_no_extra_cost(
    kernel: Kernel,
) -> None:
    # d20 (D-2's 3.5 base) asks with ally_cost=False: (1,1) ally: 1, not an end cell; (2,1):
    # 2; (3,1): 3; (4,1): 4. An enemy still blocks; the step explains no ally cost.
    grid = make_grid((5, 3, 1), obstacles=corridor(5))
    me = me_at((0, 1, 0))
    occ = Occupancy(grid.shape, [me, Occupant("al", (1, 1, 0), "red")])
    free = MoveRequest({"walk": 4}, ally_cost=False)
    cells = reachable(grid, occ, me, free, kernel=kernel)
    assert cells == {(2, 1, 0): 2, (3, 1, 0): 3, (4, 1, 0): 4}
    path = find_path(grid, occ, me, free, (2, 1, 0), kernel=kernel)
    with speaking("en"):
        assert explain.step_line(path.steps[0]) == "(0,1,0)→(1,1,0) cardinal (walk): 1, total 1"
    blocked = Occupancy(grid.shape, [me, Occupant("en", (1, 1, 0), "blue")])
    assert reachable(grid, blocked, me, free, kernel=kernel) == {}
