"""Distances, reaction areas and area patterns (G-4, G-5, P-AREA-1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from game.grid.geometry import (
    OffMapError,
    burst,
    chebyshev,
    chebyshev3,
    cone,
    metres,
    reaction_area,
)
from game.grid.jit import py_func

if TYPE_CHECKING:
    pass


@pytest.mark.parametrize("kernel", [chebyshev3, py_func(chebyshev3)], ids=["compiled", "python"])
def test_g_4_chebyshev_is_the_largest_axis_difference(kernel: object) -> None:
    # (1, 5, 2) -> (4, 1, 3): |3|, |-4|, |1| -> 4
    assert chebyshev((1, 5, 2), (4, 1, 3)) == 4
    assert kernel(1, 5, 2, 4, 1, 3) == 4  # type: ignore[operator]
    assert chebyshev((4, 1, 3), (1, 5, 2)) == 4


def test_g_4_a_diagonal_step_is_one_cell_like_a_straight_one() -> None:
    assert chebyshev((0, 0, 0), (1, 1, 1)) == chebyshev((0, 0, 0), (1, 0, 0)) == 1


def test_g_4_metres_are_cells_times_one_and_a_half() -> None:
    assert metres(4) == 6.0  # 4 x 1.5
    assert metres(0) == 0.0


def test_g_5_reaction_area_is_the_26_cells_around_in_the_open() -> None:
    area = reaction_area((5, 5, 5), (10, 10, 10))
    assert len(area) == 26  # 3^3 - 1
    assert (5, 5, 5) not in area
    assert {(4, 4, 4), (6, 6, 6), (5, 5, 6), (5, 5, 4)} <= set(area)


def test_g_5_reaction_area_is_clipped_at_a_map_corner() -> None:
    # From (0, 0, 0) only offsets in {0, 1}^3 minus the centre stay inside: 2^3 - 1 = 7.
    assert sorted(reaction_area((0, 0, 0), (3, 3, 3))) == sorted(
        [(0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1)]
    )


def test_g_5_reaction_area_of_an_off_map_cell_is_a_clear_error() -> None:
    with pytest.raises(OffMapError, match=r"reaction area centre \(3, 0, 0\) is outside"):
        reaction_area((3, 0, 0), (3, 3, 1))


def test_p_area_1_burst_holds_every_cell_within_the_radius() -> None:
    assert len(burst(0)) == 1
    assert len(burst(1)) == 27  # 3^3
    assert len(burst(2)) == 125  # 5^3
    assert max(chebyshev((0, 0, 0), c) for c in burst(2)) == 2
    with pytest.raises(ValueError, match="burst radius"):
        burst(-1)


def test_p_area_1_cone_along_an_axis_widens_one_cell_a_side_per_step_in_2d() -> None:
    flat = [c for c in cone((1, 0, 0), 2) if c[2] == 0]
    # Step 1: y in -1..1 (3 cells); step 2: y in -2..2 (5 cells): the 2D triangle.
    assert sorted(flat) == sorted(
        [(1, -1, 0), (1, 0, 0), (1, 1, 0), (2, -2, 0), (2, -1, 0), (2, 0, 0), (2, 1, 0), (2, 2, 0)]
    )
    # In 3D the template turns round its axis: x^2 >= y^2 + z^2.
    # Step 1: (y, z) with y^2 + z^2 <= 1 -> 5 cells; step 2: y^2 + z^2 <= 4 -> 13 cells.
    assert len(cone((1, 0, 0), 2)) == 18


def test_p_area_1_cone_along_a_diagonal_is_a_quadrant_in_2d() -> None:
    flat = [c for c in cone((1, 1, 0), 2) if c[2] == 0]
    # 2xy >= 0 with x + y > 0 and reach 2: the 3x3 quadrant without the apex.
    assert sorted(flat) == sorted((x, y, 0) for x in range(3) for y in range(3) if (x, y) != (0, 0))


def test_p_area_1_cone_rejects_a_direction_that_is_not_a_grid_step() -> None:
    with pytest.raises(ValueError, match="cone direction"):
        cone((2, 0, 0), 3)
    with pytest.raises(ValueError, match="cone direction"):
        cone((0, 0, 0), 3)
