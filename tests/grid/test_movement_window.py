"""Movement search internals that speed it up: the padded window's edge and the cached codes."""

from __future__ import annotations

import numpy as np
import pytest

from game.grid.geometry import chebyshev
from game.grid.jit import py_func
from game.grid.model import Cell, Grid
from game.grid.movement import Kernel, MoveRequest, find_path, reachable
from game.grid.movement_kernels import movement_kernel
from game.grid.occupants import Occupancy, Occupant

KERNELS = pytest.mark.parametrize(
    "kernel", [movement_kernel, py_func(movement_kernel)], ids=["compiled", "python"]
)


def open_map(size: Cell, gravity: float) -> Grid:
    return Grid.build(np.zeros(size, dtype=np.uint8), gravity=gravity)


@KERNELS
def test_p_mov_1_walking_reaches_the_last_cell_of_its_budget_and_none_beyond(
    kernel: Kernel,
) -> None:
    # A 30-cell row, mover at x=5, walk 10: every cardinal step costs 1 (P-MOV-1), so x costs
    # |x - 5|; x=15 costs 10, the whole budget; x=16 would cost 11.
    grid = open_map((30, 1, 1), gravity=1.0)
    me = Occupant("me", (5, 0, 0), "red")
    occ = Occupancy(grid.shape, [me])
    request = MoveRequest({"walk": 10})
    cells = reachable(grid, occ, me, request, kernel=kernel)
    assert cells == {(x, 0, 0): abs(x - 5) for x in range(16) if x != 5}
    assert find_path(grid, occ, me, request, (15, 0, 0), kernel=kernel).cost == 10
    assert find_path(grid, occ, me, request, (16, 0, 0), kernel=kernel).cost is None


@KERNELS
def test_p_zero_2_thrusters_fill_the_whole_cube_of_their_budget_in_open_space(
    kernel: Kernel,
) -> None:
    # Open 14x14x14 space at 0 g, mover at (1,1,1), thrusters 4: with no corner in the way
    # every step, 3D diagonals too, costs 1 (P-MOV-3), so a cell costs its Chebyshev distance.
    # Listed: x, y, z each in 0..5 (1 - 1 .. 1 + 4), 6^3 = 216 cells less the start = 215.
    grid = open_map((14, 14, 14), gravity=0.0)
    me = Occupant("me", (1, 1, 1), "red")
    occ = Occupancy(grid.shape, [me])
    request = MoveRequest({"thrusters": 4}, mode="thrusters", has_thrusters=True)
    cells = reachable(grid, occ, me, request, kernel=kernel)
    assert len(cells) == 215
    assert all(cost == chebyshev(cell, me.cell) for cell, cost in cells.items())
    assert cells[(5, 5, 5)] == 4
    assert (6, 1, 1) not in cells


def test_p_mov_4_the_same_mover_in_another_occupancy_meets_that_occupancys_relations() -> None:
    # Row of 5, me at x=0, someone at x=2. An enemy there blocks the row (P-MOV-4): x=3 is
    # out of reach. An ally there is passed at +1: 1 (x=1) + 2 (x=2, ally) + 1 (x=3) = 4.
    grid = open_map((5, 1, 1), gravity=1.0)
    me = Occupant("me", (0, 0, 0), "red")
    enemy = Occupancy(grid.shape, [me, Occupant("x", (2, 0, 0), "blue")])
    ally = Occupancy(grid.shape, [me, Occupant("x", (2, 0, 0), "red")])
    request = MoveRequest({"walk": 5})
    for _ in range(2):  # asking again must not reuse the other occupancy's answer
        assert (3, 0, 0) not in reachable(grid, enemy, me, request)
        assert reachable(grid, ally, me, request)[(3, 0, 0)] == 4
