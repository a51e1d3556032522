"""The cells an area attack covers (P-AREA-1): a pattern of offsets, cut by the map and by sight."""

from __future__ import annotations

from collections.abc import Sequence

from game.grid.geometry import require_in_map
from game.grid.los import line_of_sight
from game.grid.model import Cell, Grid


def area_cells(
    grid: Grid, origin: Cell, pattern: Sequence[Cell], blocked_by_sight: bool
) -> list[Cell]:
    """P-AREA-1: the cells an area attack covers, in pattern order.

    `pattern` holds offsets from `origin`; cells outside the map are dropped. When
    `blocked_by_sight` (a grenade), only cells with terrain-only line of sight from the origin
    are kept; a weapon that ignores obstacles (a flamethrower) passes False.
    """
    start = require_in_map(grid.shape, origin, "area origin")
    cells: list[Cell] = []
    seen: set[Cell] = set()
    for dx, dy, dz in pattern:
        cell = (start[0] + dx, start[1] + dy, start[2] + dz)
        if cell in seen or not grid.in_bounds(cell):
            continue
        seen.add(cell)
        if not blocked_by_sight or line_of_sight(grid, start, cell):
            cells.append(cell)
    return cells
