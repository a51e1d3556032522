"""Corner-to-corner lines between cells (d20 cover, D-1) and the centre line of flanking, exact.

Geometry. Cell (i, j, k) is the closed cube [i, i+1] x [j, j+1] x [k, k+1]; its eight corners
are lattice points. A line from a corner A to a corner B blocks (D-1) when it passes through the
*interior* of the cells a mask marks: a line that only touches a face, an edge or a corner of
them does not block. The interior is that of their union, so a line running along the face two
marked cells share (inside a wall two cells thick) blocks, while one running along the face of a
single marked cell does not.

The test is exact in integers: the crossings of the segment with the planes x, y, z = integer
split it at parameters t = k / |d_i|; inside each open piece between two crossings the set of
cells whose closed cube holds the point does not change, so the midpoint of each piece (a
fraction) decides it. The piece lies in the interior of the union iff every cell around its
midpoint (1, 2, 4 or 8 of them, as the midpoint lies inside a cube, on a face, an edge or a
corner) is marked. No float decides anything.

Flanking (004:l.98) uses doubled coordinates: centres (2i+1, 2j+1, 2k+1), the target's cube
[2i, 2i+2] x ...; the segment between the two allies' centres flanks when it meets two
opposite faces of that cube (closed faces: the corners and edges count, l.98).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from game.grid.jit import njit
from game.grid.model import Cell


@njit
def _axis_cells(a: int, d: int, num: int, den: int) -> tuple[int, int]:
    """The cells (lo, hi) along one axis around the point a + d * num / den (den > 0)."""
    scaled = a * den + d * num
    c = scaled // den
    if scaled == c * den:  # on the plane between cells c - 1 and c
        return c - 1, c
    return c, c


@njit
def _all_marked(
    mask: NDArray[np.uint8], x0: int, x1: int, y0: int, y1: int, z0: int, z1: int
) -> bool:
    w, h, d = mask.shape
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            for z in range(z0, z1 + 1):
                if x < 0 or y < 0 or z < 0 or x >= w or y >= h or z >= d:
                    return False
                if mask[x, y, z] == 0:
                    return False
    return True


@njit
def segment_blocked(
    mask: NDArray[np.uint8], ax: int, ay: int, az: int, bx: int, by: int, bz: int
) -> bool:
    """Does the segment between lattice points A and B enter the interior of the marked cells?"""
    dx, dy, dz = bx - ax, by - ay, bz - az
    qx, qy, qz = abs(dx), abs(dy), abs(dz)
    if qx == 0 and qy == 0 and qz == 0:
        return False
    # The next crossing on each axis is at t = n_i / q_i.
    nx, ny, nz = 1, 1, 1
    prev_n, prev_d = 0, 1
    while True:
        # The smallest pending crossing (t = 1 when every axis is done).
        best_n, best_d = 1, 1
        if qx > 0 and nx <= qx and nx * best_d < best_n * qx:
            best_n, best_d = nx, qx
        if qy > 0 and ny <= qy and ny * best_d < best_n * qy:
            best_n, best_d = ny, qy
        if qz > 0 and nz <= qz and nz * best_d < best_n * qz:
            best_n, best_d = nz, qz
        if best_n * prev_d > prev_n * best_d:
            # The open piece (prev, best): its midpoint is (prev + best) / 2.
            mid_n = prev_n * best_d + best_n * prev_d
            mid_d = 2 * prev_d * best_d
            x0, x1 = _axis_cells(ax, dx, mid_n, mid_d)
            y0, y1 = _axis_cells(ay, dy, mid_n, mid_d)
            z0, z1 = _axis_cells(az, dz, mid_n, mid_d)
            if _all_marked(mask, x0, x1, y0, y1, z0, z1):
                return True
        if best_n == best_d:
            return False
        if qx > 0 and nx * best_d == best_n * qx:
            nx += 1
        if qy > 0 and ny * best_d == best_n * qy:
            ny += 1
        if qz > 0 and nz * best_d == best_n * qz:
            nz += 1
        prev_n, prev_d = best_n, best_d


@njit
def corner_blocked(
    mask: NDArray[np.uint8], cx: int, cy: int, cz: int, tx: int, ty: int, tz: int
) -> bool:
    """From the corner (cx, cy, cz), does a line to any corner of cell t block (004:l.52)?"""
    for k in range(8):
        if segment_blocked(
            mask, cx, cy, cz, tx + (k & 1), ty + ((k >> 1) & 1), tz + ((k >> 2) & 1)
        ):
            return True
    return False


@njit
def best_corner(
    mask: NDArray[np.uint8], ax: int, ay: int, az: int, tx: int, ty: int, tz: int
) -> int:
    """D-1: the first corner k (x + 2y + 4z offsets) of cell a from which no line to a corner
    of cell t blocks, or -1 when every corner has a blocked line (the target has cover)."""
    for k in range(8):
        if not corner_blocked(
            mask, ax + (k & 1), ay + ((k >> 1) & 1), az + ((k >> 2) & 1), tx, ty, tz
        ):
            return k
    return -1


@njit
def any_line_blocked(
    mask: NDArray[np.uint8], ax: int, ay: int, az: int, tx: int, ty: int, tz: int
) -> bool:
    """Does any of the 64 corner-to-corner lines between cells a and t block (004:l.54)?"""
    for k in range(8):
        if corner_blocked(mask, ax + (k & 1), ay + ((k >> 1) & 1), az + ((k >> 2) & 1), tx, ty, tz):
            return True
    return False


@njit
def _meets_face(
    px: int, py: int, pz: int, dx: int, dy: int, dz: int, axis: int, plane: int,
    lx: int, ly: int, lz: int,
) -> bool:  # fmt: skip
    """Does P + s D, s in [0, 1], meet the plane coordinate[axis] = plane within the closed
    square of the cube whose low corner is (lx, ly, lz), two units a side?"""
    p = (px, py, pz)
    dd = (dx, dy, dz)
    low = (lx, ly, lz)
    den = dd[axis]
    num = plane - p[axis]
    if den == 0:
        return False
    if den < 0:
        den, num = -den, -num
    if num < 0 or num > den:
        return False
    for j in range(3):
        if j == axis:
            continue
        value = p[j] * den + dd[j] * num  # the coordinate, times den
        if value < low[j] * den or value > (low[j] + 2) * den:
            return False
    return True


@njit
def flank_line(
    ax: int, ay: int, az: int, bx: int, by: int, bz: int, tx: int, ty: int, tz: int
) -> bool:
    """004:l.98: the segment between the centres of cells a and b crosses two opposite
    borders of cell t (corners included)."""
    px, py, pz = 2 * ax + 1, 2 * ay + 1, 2 * az + 1
    dx, dy, dz = 2 * (bx - ax), 2 * (by - ay), 2 * (bz - az)
    lx, ly, lz = 2 * tx, 2 * ty, 2 * tz
    low = (lx, ly, lz)
    for axis in range(3):
        if _meets_face(px, py, pz, dx, dy, dz, axis, low[axis], lx, ly, lz) and _meets_face(
            px, py, pz, dx, dy, dz, axis, low[axis] + 2, lx, ly, lz
        ):
            return True
    return False


def cover_corner(mask: NDArray[np.uint8], attacker: Cell, target: Cell) -> int:
    """`best_corner` for two cells: a corner index 0..7, or -1 when the target has cover."""
    return int(best_corner(np.ascontiguousarray(mask, dtype=np.uint8), *attacker, *target))


def adjacent_blocked(mask: NDArray[np.uint8], attacker: Cell, target: Cell) -> bool:
    """`any_line_blocked` for two cells."""
    return bool(any_line_blocked(np.ascontiguousarray(mask, dtype=np.uint8), *attacker, *target))


def flanks(a: Cell, b: Cell, target: Cell) -> bool:
    """`flank_line` for three cells."""
    return bool(flank_line(*a, *b, *target))
