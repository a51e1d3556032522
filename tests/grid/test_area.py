"""The cells an area attack covers, cut by the map and by sight (P-AREA-1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from game.grid.area import area_cells
from game.grid.geometry import burst
from game.grid.model import Grid

if TYPE_CHECKING:
    from tests.grid.conftest import AsciiGrid


@pytest.mark.usefixtures("kernel_mode")
def test_p_area_1_a_grenade_stops_at_walls_a_flamethrower_does_not(
    ascii_grid: AsciiGrid,
) -> None:
    grid, marks = ascii_grid(
        """
        .....
        .O#..
        .....
        """
    )
    origin = marks["O"]
    pattern = [(dx, 0, 0) for dx in range(-1, 4)]  # a row through the wall
    # The row from x=0 to x=4 at y=1: (3,1) and (4,1) lie behind the wall at (2,1), whose
    # interior the line from the origin enters; the wall cell itself is reached.
    assert area_cells(grid, origin, pattern, blocked_by_sight=True) == [
        (0, 1, 0),
        (1, 1, 0),
        (2, 1, 0),
    ]
    assert area_cells(grid, origin, pattern, blocked_by_sight=False) == [
        (0, 1, 0),
        (1, 1, 0),
        (2, 1, 0),
        (3, 1, 0),
        (4, 1, 0),
    ]


def test_p_area_1_pattern_cells_outside_the_map_are_dropped() -> None:
    grid = Grid.empty(3, 3, 1)
    cells = area_cells(grid, (0, 0, 0), burst(1), blocked_by_sight=False)
    assert sorted(cells) == [(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0)]
