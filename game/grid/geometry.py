"""Distances, reaction areas and area-attack patterns on the cubic grid (G-4, G-5, P-AREA-1)."""

from __future__ import annotations

from game.grid.jit import njit
from game.grid.model import CELL_METRES, Cell

#: The 26 unit steps to the neighbours of a cell, in x-major order.
NEIGHBOUR_STEPS: tuple[Cell, ...] = tuple(
    (dx, dy, dz)
    for dx in (-1, 0, 1)
    for dy in (-1, 0, 1)
    for dz in (-1, 0, 1)
    if (dx, dy, dz) != (0, 0, 0)
)


class OffMapError(ValueError):
    """A cell given to a grid function lies outside the map."""


def require_in_map(grid_shape: tuple[int, int, int], cell: Cell, what: str) -> Cell:
    """Return `cell` as plain ints, or raise OffMapError naming `what` and the map's shape."""
    if len(cell) != 3:
        raise OffMapError(f"{what} {cell!r} is not an (x, y, z) cell")
    x, y, z = (int(c) for c in cell)
    w, h, d = grid_shape
    if not (0 <= x < w and 0 <= y < h and 0 <= z < d):
        raise OffMapError(f"{what} {cell!r} is outside the map of {w}x{h}x{d} cells")
    return x, y, z


def in_map(grid_shape: tuple[int, int, int], a: Cell, b: Cell) -> bool:
    """Whether both cells are (x, y, z) triples inside the map: the hot callers' one check,
    before `require_in_map` words the error."""
    w, h, d = grid_shape
    return (
        len(a) == 3
        and len(b) == 3
        and 0 <= a[0] < w
        and 0 <= a[1] < h
        and 0 <= a[2] < d
        and 0 <= b[0] < w
        and 0 <= b[1] < h
        and 0 <= b[2] < d
    )


@njit
def chebyshev3(ax: int, ay: int, az: int, bx: int, by: int, bz: int) -> int:
    """G-4 on plain ints, for kernels: max(|dx|, |dy|, |dz|)."""
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def chebyshev(a: Cell, b: Cell) -> int:
    """G-4: the distance in cells between two cells, max(|dx|, |dy|, |dz|)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def metres(cells: int | float) -> float:
    """G-4: a distance in cells as metres (1.5 m a cell)."""
    return float(cells) * CELL_METRES


def _in_shape(cell: Cell, grid_shape: tuple[int, int, int]) -> bool:
    return all(0 <= c < n for c, n in zip(cell, grid_shape, strict=True))


def reaction_area(cell: Cell, grid_shape: tuple[int, int, int]) -> list[Cell]:
    """G-5: the 26 cells around a medium entity, clipped to the map."""
    x, y, z = require_in_map(grid_shape, cell, "reaction area centre")
    around = ((x + dx, y + dy, z + dz) for dx, dy, dz in NEIGHBOUR_STEPS)
    return [c for c in around if _in_shape(c, grid_shape)]


def burst(radius: int) -> list[Cell]:
    """Offsets of a burst: every cell within Chebyshev distance `radius`, the centre included."""
    if radius < 0:
        raise ValueError(f"burst radius must be >= 0, got {radius}")
    span = range(-radius, radius + 1)
    return [(dx, dy, dz) for dx in span for dy in span for dz in span]


def cone(direction: Cell, length: int) -> list[Cell]:
    """Offsets of a 90-degree cone along one of the 26 grid directions, up to `length` cells.

    The 2D template (a triangle widening by one cell a side per step on a cardinal direction,
    a quadrant on a diagonal) is lifted to 3D as the cells whose centre lies within 45 degrees
    of `direction` and within Chebyshev distance 1..length of the apex. The angle test is exact
    in integers: 2 (o·u)^2 >= |o|^2 |u|^2 with o·u > 0. The apex cell is not part of the cone.
    """
    if len(direction) != 3 or any(c not in (-1, 0, 1) for c in direction) or not any(direction):
        raise ValueError(
            f"cone direction must be one of the 26 unit steps like (1, 0, 0), got {direction!r}"
        )
    if length < 1:
        raise ValueError(f"cone length must be >= 1 cell, got {length}")
    ux, uy, uz = direction
    norm_u = ux * ux + uy * uy + uz * uz
    span = range(-length, length + 1)
    cells: list[Cell] = []
    for dx in span:
        for dy in span:
            for dz in span:
                dot = dx * ux + dy * uy + dz * uz
                if dot > 0 and 2 * dot * dot >= (dx * dx + dy * dy + dz * dz) * norm_u:
                    cells.append((dx, dy, dz))
    return cells
