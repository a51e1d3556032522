"""explain_line_of_sight against a plain reference on random maps with units (P-LOS-1..3).

The hover preview asks for the line's reasons on every new target; its entity test (P-LOS-3:
"an entity where the line passes", blocking it or not) runs inside the walk's kernel. These
tests compare it with the plain scan of the occupancy index between the two cells, and the
answer's clear/blocked with `line_of_sight`, compiled and as pure Python.
"""

from __future__ import annotations

import numpy as np
import pytest

from game.grid.los import (
    CONTACT_NONE,
    explain_line_of_sight,
    line_of_sight,
    segment_contact,
)
from game.grid.model import OBSTACLE_FULL, OBSTACLE_HALF, OBSTACLE_THIN, Cell, Grid
from game.grid.occupants import Occupancy, Occupant, Size

both_modes = pytest.mark.usefixtures("kernel_mode")


def _entities_on_line_reference(occupancy: Occupancy, a: Cell, b: Cell) -> bool:
    """P-LOS-3 as the index tells it: an occupied cell between a and b, neither end, that the
    segment between the two centres (doubled coordinates) touches or enters."""
    p = (2 * a[0] + 1, 2 * a[1] + 1, 2 * a[2] + 1)
    d = (2 * (b[0] - a[0]), 2 * (b[1] - a[1]), 2 * (b[2] - a[2]))
    for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
        for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
            for z in range(min(a[2], b[2]), max(a[2], b[2]) + 1):
                if occupancy.index[x, y, z] < 0 or (x, y, z) in (a, b):
                    continue
                if segment_contact(2, x, y, z, *p, *d) != CONTACT_NONE:
                    return True
    return False


def _random_field(seed: int) -> tuple[Grid, Occupancy]:
    gen = np.random.default_rng(seed)
    shape = (12, 10, 3)
    kinds = np.array([0, OBSTACLE_FULL, OBSTACLE_HALF, OBSTACLE_THIN], dtype=np.uint8)
    obstacle = kinds[gen.choice(4, size=shape, p=[0.8, 0.08, 0.08, 0.04])]
    grid = Grid.build(obstacle)
    free = [(x, y, z) for x, y, z in np.argwhere(obstacle == 0).tolist()]
    picked = gen.choice(len(free), size=14, replace=False)
    units = []
    for i, k in enumerate(picked.tolist()):
        size = Size.SMALL if i % 5 == 4 else Size.MEDIUM
        units.append(Occupant(f"u{i}", free[k], "blue" if i % 2 else "red", size=size))
    # Two in one cell (P-MOV-8): the index names the first, both stand there.
    units.append(Occupant("shared", units[3].cell, "red"))
    return grid, Occupancy(grid.shape, units)


@both_modes
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_p_los_3_entities_on_the_line_as_the_index_between_the_cells_says(
    seed: int, kernel_mode: str
) -> None:
    grid, occupancy = _random_field(seed)
    gen = np.random.default_rng(100 + seed)
    units = occupancy.occupants
    pairs = 80 if kernel_mode == "compiled" else 25
    for _ in range(pairs):
        viewer = units[int(gen.integers(len(units)))]
        other = units[int(gen.integers(len(units)))]
        x, y, z = gen.integers((0, 0, 0), grid.shape).tolist()
        cell = (x, y, z)
        for target in (other.cell, cell):
            for occ, who in ((occupancy, viewer), (occupancy, None), (None, None)):
                result = explain_line_of_sight(grid, viewer.cell, target, occ, who)
                entities = occ is not None and _entities_on_line_reference(occ, viewer.cell, target)
                assert ("P-LOS-3" in result.rules) is entities
                assert result.clear is line_of_sight(grid, viewer.cell, target, occ, who)
                assert (result.blocked_by is None) is result.clear


def test_explain_line_of_sight_words_an_off_map_cell_as_before() -> None:
    grid = Grid.empty(4, 4, 1)
    with pytest.raises(ValueError, match="line of sight target cell"):
        explain_line_of_sight(grid, (0, 0, 0), (4, 0, 0))
    with pytest.raises(ValueError, match="line of sight viewer cell"):
        explain_line_of_sight(grid, (0, -1, 0), (1, 0, 0))
