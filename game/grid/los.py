"""Line of sight between cell centres, exact in integers, grazing rule included (P-LOS-1..3).

Geometry. Coordinates are doubled, so cell (i, j, k) is the closed box [2i, 2i+2] x [2j, 2j+2]
x [2k, 2k+2] and its centre (2i+1, 2j+1, 2k+1) is odd on every axis. The sight line is
S(t) = A + t D, t in [0, 1], from the viewer's centre A to the target's centre A + D.

- P-LOS-1: a blocker (full or thin terrain, or an entity that blocks this viewer, P-LOS-3)
  whose open interior S enters blocks at once. Per axis S is inside a box for t in an
  interval whose ends are fractions with positive denominators; S enters the interior iff
  max(lower ends, 0) < min(upper ends, 1), and touches the box iff the same holds with <=.
  Fractions are compared by cross-multiplying: no floats decide anything.
- P-LOS-2: blockers that S only touches are cleared together by one small shift w of the whole
  segment, or LOS is blocked. The endpoints are centres, so every touch is strictly inside the
  segment and only shifts perpendicular to D matter. For each axis i let n_i = e_i x D; every
  n_i . S(t) equals n_i . A. If a touched box's maximum of n_i . x equals n_i . A, the box lies
  on the negative side of the plane through the line with normal n_i, and any shift with
  n_i . w > 0 clears it; if its minimum equals n_i . A, n_i . w < 0 clears it. With
  u = D x w we have n_i . w = u_i, and u ranges over all vectors perpendicular to D. So each
  touched box allows a set of sign vectors sigma = sign(u), and LOS is clear iff some sigma
  allowed by every box is realisable by a u perpendicular to D: with J the axes where D is not
  zero, when |J| >= 2 the signs sigma_i * sign(D_i), i in J, must not all be equal (the sum
  D . u must cancel); axes with n_i = 0 are ignored. In 2D this is the seed's rule: one side
  of the line stays free the whole way.
- P-LOS-3: the viewer's and the target's own cells never block.

Traversal. The segment is walked one slab of its dominant axis at a time; inside a slab the
closed range of each other coordinate gives 1-3 candidate cells per axis (tracked from slab to
slab without division), and only candidates that are blockers get the exact test. Batch
kernels also skip empty space: a per-grid table of the Chebyshev distance to the nearest
terrain blocker (plus the blocking entities) says how many slabs ahead hold no blocker; and
they first test the cell that hid the previous target, which settles most hidden targets
(P-LOS-1) without a walk.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.grid.geometry import OffMapError, chebyshev, in_map, require_in_map
from game.grid.jit import njit, njit_inline, njit_nogil, njit_parallel, prange
from game.grid.model import Cell, Grid
from game.grid.occupants import Occupancy, Occupant, Size

# Outcome codes of `walk` along a sight line.
LOS_CLEAR = 0
LOS_CLEAR_GRAZED = 1  # clear, and some blockers were only touched (P-LOS-2 decided)
LOS_BLOCKED = 2  # a blocker's interior is entered (P-LOS-1)
LOS_BLOCKED_GRAZED = 3  # only touches, but no single shift clears them all (P-LOS-2)

# How a segment meets a closed box.
CONTACT_NONE = 0
CONTACT_TOUCH = 1
CONTACT_INTERIOR = 2

# Sign vectors sigma are indexed 0..7 with bit i set when sigma_i = -1. These are the 8-bit sets
# of indices with sigma_i = +1 for i = x, y, z; their complements have sigma_i = -1.
_SIGMA_PLUS = (0x55, 0x33, 0x0F)
_ALL_SIGMAS = 0xFF

#: Clearance table entries are capped here (uint8); a smaller value is always safe.
FAR = 255

# Empty stand-ins for kernel inputs that do not apply (no occupants, no clearance table).
NO_CELLS: NDArray[np.int64] = np.zeros((0, 3), dtype=np.int64)
NO_CELLS.setflags(write=False)
NO_INDEX: NDArray[np.int32] = np.zeros((0, 0, 0), dtype=np.int32)
NO_INDEX.setflags(write=False)
NO_FLAGS: NDArray[np.uint8] = np.zeros(1, dtype=np.uint8)
NO_FLAGS.setflags(write=False)
NO_CLEARANCE: NDArray[np.uint8] = np.zeros((0, 0, 0), dtype=np.uint8)
NO_CLEARANCE.setflags(write=False)
NO_LEVEL_CLEARANCE: NDArray[np.uint8] = np.zeros((0, 0, 0), dtype=np.uint8)
NO_LEVEL_CLEARANCE.setflags(write=False)


@njit
def segment_contact(
    k: int, cx: int, cy: int, cz: int, px: int, py: int, pz: int, dx: int, dy: int, dz: int
) -> int:
    """How the segment P + t D, t in [0, 1], meets cell (cx, cy, cz), cells being k units wide.

    Returns CONTACT_NONE, CONTACT_TOUCH (boundary only) or CONTACT_INTERIOR.
    """
    # Running max of the lower ends and min of the upper ends, as fractions n/d with d > 0.
    lo_n, lo_d, up_n, up_d = 0, 1, 1, 1
    interior = True
    for c, p, d in ((cx, px, dx), (cy, py, dy), (cz, pz, dz)):
        low_face = k * c
        high_face = low_face + k
        if d == 0:
            if p < low_face or p > high_face:
                return CONTACT_NONE
            if p in (low_face, high_face):
                interior = False
            continue
        if d > 0:
            a_n, b_n, den = low_face - p, high_face - p, d
        else:
            a_n, b_n, den = p - high_face, p - low_face, -d
        if a_n * lo_d > lo_n * den:
            lo_n, lo_d = a_n, den
        if b_n * up_d < up_n * den:
            up_n, up_d = b_n, den
    gap = up_n * lo_d - lo_n * up_d
    if gap < 0:
        return CONTACT_NONE
    if gap > 0 and interior:
        return CONTACT_INTERIOR
    return CONTACT_TOUCH


@njit
def box_contact(
    k: int,
    x0: int,
    y0: int,
    z0: int,
    x1: int,
    y1: int,
    z1: int,
    px: int,
    py: int,
    pz: int,
    dx: int,
    dy: int,
    dz: int,
) -> int:
    """How the segment P + t D, t in [0, 1], meets the box of cells x0..x1, y0..y1, z0..z1.

    `segment_contact` for a box (kept apart: the one-cell test is hot enough that sharing this
    code made every line of sight 25% slower)."""
    # Running max of the lower ends and min of the upper ends, as fractions n/d with d > 0.
    lo_n, lo_d, up_n, up_d = 0, 1, 1, 1
    interior = True
    for c0, c1, p, d in ((x0, x1, px, dx), (y0, y1, py, dy), (z0, z1, pz, dz)):
        low_face = k * c0
        high_face = k * c1 + k
        if d == 0:
            if p < low_face or p > high_face:
                return CONTACT_NONE
            if p in (low_face, high_face):
                interior = False
            continue
        if d > 0:
            a_n, b_n, den = low_face - p, high_face - p, d
        else:
            a_n, b_n, den = p - high_face, p - low_face, -d
        if a_n * lo_d > lo_n * den:
            lo_n, lo_d = a_n, den
        if b_n * up_d < up_n * den:
            up_n, up_d = b_n, den
    gap = up_n * lo_d - lo_n * up_d
    if gap < 0:
        return CONTACT_NONE
    if gap > 0 and interior:
        return CONTACT_INTERIOR
    return CONTACT_TOUCH


@njit
def realisable_signs(dx: int, dy: int, dz: int) -> int:
    """P-LOS-2: the 8-bit set of sign vectors sign(u) some u perpendicular to D can have."""
    d = (dx, dy, dz)
    moving_axes = 0
    for i in range(3):
        if d[i] != 0:
            moving_axes += 1
    if moving_axes < 2:
        return _ALL_SIGMAS
    signs = 0
    for s in range(8):
        positive = False
        negative = False
        for i in range(3):
            if d[i] == 0:
                continue
            if (d[i] > 0) == (((s >> i) & 1) == 0):
                positive = True
            else:
                negative = True
        if positive and negative:
            signs |= 1 << s
    return signs


@njit
def clearing_signs(
    cx: int, cy: int, cz: int, px: int, py: int, pz: int, dx: int, dy: int, dz: int
) -> int:
    """P-LOS-2: the 8-bit set of sign vectors sign(u) whose shifts clear a touched cell.

    Doubled coordinates (cells 2 units wide); see the module docstring.
    """
    normals = ((0, -dz, dy), (dz, 0, -dx), (-dy, dx, 0))
    low = (2 * cx, 2 * cy, 2 * cz)
    signs = 0
    for i in range(3):
        nx, ny, nz = normals[i]
        if nx == 0 and ny == 0 and nz == 0:
            continue
        on_line = nx * px + ny * py + nz * pz
        top = 0
        bottom = 0
        for a, n_a in ((0, nx), (1, ny), (2, nz)):
            near = n_a * low[a]
            far = n_a * (low[a] + 2)
            top += max(near, far)
            bottom += min(near, far)
        if top == on_line:
            signs |= _SIGMA_PLUS[i]
        elif bottom == on_line:
            signs |= _ALL_SIGMAS ^ _SIGMA_PLUS[i]
    return signs


@njit
def walk_rows(span: int) -> int:
    """Rows a `walk` buffer needs for segments spanning at most `span` cells on any axis."""
    return 9 * (span + 1)


@njit
def walk(
    solid: NDArray[np.uint8],
    occ_index: NDArray[np.int32],
    occ_blocks: NDArray[np.uint8],
    clearance: NDArray[np.uint8],
    skip_cells: NDArray[np.int64],
    k: int,
    px: int,
    py: int,
    pz: int,
    ends: NDArray[np.int64],
    sight: bool,
    stop: bool,
    out: NDArray[np.int64],
    codes: NDArray[np.int8],
) -> tuple[int, int, int, int, int]:
    """Walk the segments from P to each row of `ends` (cells k units wide); report blockers.

    A blocker is a cell with `solid != 0`, or one whose occupant j (`occ_index`, empty = none)
    has `occ_blocks[j] != 0`. The cells holding P and the end are never reported (P-LOS-3).
    Arrays must be C-contiguous. For each segment, rows (x, y, z, contact) go to `out` (at
    least `walk_rows(span)` rows, reused per segment; fewer keep only the first rows, for
    callers that read the codes alone) in order along the dominant axis, and its code to
    `codes`. Returns (code, x, y, z, rows) of the last segment.

    With `sight` (doubled coordinates, P and the ends cell centres) touches are reported too
    and the code is a LOS_* outcome with its deciding cell, or -1s; with `stop` a segment ends
    as soon as it is blocked. Without `sight` only interior contacts are reported and the code
    is 0. A non-empty `clearance` (distance to the nearest solid cell) together with
    `skip_cells` (the cells of blocking occupants) lets the walk jump over slabs that hold no
    blocker. One call serves a whole batch: every call passing arrays costs more than a walk
    through open space (reference counting), so batches must not call this per segment.
    """
    return walk_shadowed(
        solid,
        occ_index,
        occ_blocks,
        clearance,
        None,
        skip_cells,
        None,
        None,
        None,
        k,
        px,
        py,
        pz,
        ends,
        sight,
        stop,
        out,
        codes,
    )


@njit
def walk_shadowed(
    solid: NDArray[np.uint8],
    occ_index: NDArray[np.int32],
    occ_blocks: NDArray[np.uint8],
    clearance: NDArray[np.uint8],
    level_clearance: NDArray[np.uint8] | None,
    skip_cells: NDArray[np.int64],
    boxes: NDArray[np.int64] | None,
    box_of: NDArray[np.int32] | None,
    shadow: NDArray[np.int32] | None,
    k: int,
    px: int,
    py: int,
    pz: int,
    ends: NDArray[np.int64],
    sight: bool,
    stop: bool,
    out: NDArray[np.int64],
    codes: NDArray[np.int8],
    starts: NDArray[np.int64] | None = None,
    level_lines: bool = True,
    rows: NDArray[np.int64] | None = None,
) -> tuple[int, int, int, int, int]:
    """`walk`, faster with two optional helps (None: not used; numba compiles them away).

    With `starts` (no `shadow`), segment e runs from row e of `starts` instead of P: a batch of
    unrelated lines in one call (each call passing arrays costs about as much as a short walk).

    A non-empty `level_clearance` (`level_clearance_kernel`) replaces `clearance` for lines
    whose dominant axis is x or y: only blockers on the levels between the two ends can be
    met, so the distance that lets a walk jump ahead is the one on those levels alone.

    With a `shadow` map (the grid's shape, -1 where not known) and `boxes`, the shadows of
    boxes of blockers settle most hidden ends without walking (P-LOS-1; sight with stop, ends
    at cell centres). `boxes` rows (x0, y0, z0, x1, y1, z1) are boxes made only of terrain
    blockers, `box_of` the box of each terrain blocker; blocking occupant j (`skip_cells[j]`)
    counts as box len(boxes) + j. A line between cell centres that meets a box's interior
    enters some cell's interior (it cannot run inside the faces between cells), so it is
    blocked unless the box holds the viewer's or the end's own cell; and the ends hidden by
    one box form a convex set. For each end the map gets the box that hid it (or the end's
    own box when it is a blocker seen), else -1; an end first tries the boxes of its
    neighbours one step towards P, which must come earlier in `ends` to help.

    Terrain sight with `stop`, no shadows and no rows kept (what every batch asks) walks a line
    whose two ends are on one level with `level_walk`: the same answers, found in the same
    order, with a cheaper step (`level_lines=False`: the general walk, which the tests compare);
    with the grid's bit `rows` (`level_rows_kernel`), a run of cells at a time.
    """
    sizes = solid.shape
    strides = (sizes[1] * sizes[2], sizes[2], 1)
    flat = solid.reshape(solid.size)
    occ_flat = occ_index.reshape(occ_index.size)
    clear_flat = clearance.reshape(clearance.size)
    if shadow is not None and box_of is not None and boxes is not None:
        shadow_flat = shadow.reshape(shadow.size)
        box_flat = box_of.reshape(box_of.size)
        n_boxes = boxes.shape[0]
    has_occupants = occ_index.shape[0] > 0
    skipping = clearance.shape[0] > 0
    by_levels = False
    if level_clearance is not None:  # numba drops the branches on None arguments
        by_levels = skipping and level_clearance.shape[0] > 0
        levels_flat = level_clearance.reshape(level_clearance.size)
    # `level_walk` for lines on one level: terrain sight with stop, only the codes read.
    plain = (
        level_lines
        and shadow is None
        and sight
        and stop
        and k == 2
        and not has_occupants
        and skip_cells.shape[0] == 0
        and out.shape[0] == 0
    )
    p = (px, py, pz)
    ax, ay, az = px // k, py // k, pz // k
    a_cell = (ax, ay, az)
    a_flat = ax * strides[0] + ay * strides[1] + az
    near = np.empty(skip_cells.shape[0], dtype=np.int64)
    # The last blocker whose interior a segment entered, tried first on the next segment.
    hint_x, hint_y, hint_z, hint_flat = -1, -1, -1, -1
    # The same as a box, with shadows.
    last_box = -1
    code, fx, fy, fz, n = LOS_CLEAR, -1, -1, -1, 0
    n_ends = ends.shape[0]
    skip_to = -1  # ends up to here are settled already
    x0, y0, z0, x1, y1, z1 = 0, 0, 0, -1, -1, -1
    for e in range(n_ends):
        if e <= skip_to:
            continue
        if starts is not None:
            px, py, pz = starts[e, 0], starts[e, 1], starts[e, 2]
            p = (px, py, pz)
            if k == 2:  # a shift: a division by a k not known when compiled is dear per line
                ax, ay, az = px >> 1, py >> 1, pz >> 1
            else:
                ax, ay, az = px // k, py // k, pz // k
            a_cell = (ax, ay, az)
            a_flat = ax * strides[0] + ay * strides[1] + az
        qx, qy, qz = ends[e, 0], ends[e, 1], ends[e, 2]
        dx, dy, dz = qx - px, qy - py, qz - pz
        code, fx, fy, fz, n = LOS_CLEAR, -1, -1, -1, 0
        codes[e] = LOS_CLEAR
        dv = (dx, dy, dz)
        ad = (abs(dx), abs(dy), abs(dz))
        m = 0
        if ad[1] > ad[m]:
            m = 1
        if ad[2] > ad[m]:
            m = 2
        span = ad[m]
        if span == 0:
            if shadow is not None:
                shadow_flat[a_flat] = -1
            continue
        b_cell = (qx >> 1, qy >> 1, qz >> 1) if k == 2 else (qx // k, qy // k, qz // k)
        b_flat = b_cell[0] * strides[0] + b_cell[1] * strides[1] + b_cell[2]
        if plain and dz == 0:
            # A line on one level: not the last blocker first (lines of a batch are mostly
            # unrelated; the answer is the same, `stop` only sets which cell decided it).
            z = az
            code = -1
            if rows is not None:
                code, fx, fy = level_rows_walk(
                    flat, sizes[1], sizes[2], rows, ax, ay, b_cell[0], b_cell[1], z
                )
                fz = z if code == LOS_BLOCKED else -1
            if code < 0 and by_levels and level_clearance is not None:
                code, fx, fy, fz = level_walk(
                    flat,
                    sizes[1],
                    sizes[2],
                    sizes[1] if m == 0 else sizes[0],
                    levels_flat,
                    z * (2 * sizes[2] - z + 1) // 2 * sizes[0] * sizes[1],
                    sizes[1],
                    1,
                    ax,
                    ay,
                    b_cell[0],
                    b_cell[1],
                    z,
                )
            elif code < 0:
                code, fx, fy, fz = level_walk(
                    flat,
                    sizes[1],
                    sizes[2],
                    sizes[1] if m == 0 else sizes[0],
                    clear_flat,
                    z,
                    sizes[1] * sizes[2] if skipping else 0,
                    sizes[2],
                    ax,
                    ay,
                    b_cell[0],
                    b_cell[1],
                    z,
                )
            codes[e] = code
            if code == LOS_BLOCKED:
                hint_x, hint_y, hint_z = fx, fy, fz
                hint_flat = fx * strides[0] + fy * strides[1] + fz
            continue
        if shadow is not None and boxes is not None:
            hidden_by = -1
            for i in range(4):
                if i == 0:
                    box = last_box
                else:
                    axis = i - 1
                    if b_cell[axis] == a_cell[axis]:
                        continue
                    toward = -strides[axis] if b_cell[axis] > a_cell[axis] else strides[axis]
                    box = shadow_flat[b_flat + toward]
                    if box == last_box:
                        continue
                if box < 0:
                    continue
                if box < n_boxes:
                    x0, y0, z0 = boxes[box, 0], boxes[box, 1], boxes[box, 2]
                    x1, y1, z1 = boxes[box, 3], boxes[box, 4], boxes[box, 5]
                else:
                    j = box - n_boxes
                    x0, y0, z0 = skip_cells[j, 0], skip_cells[j, 1], skip_cells[j, 2]
                    x1, y1, z1 = x0, y0, z0
                if (x0 <= b_cell[0] <= x1 and y0 <= b_cell[1] <= y1 and z0 <= b_cell[2] <= z1) or (
                    x0 <= ax <= x1 and y0 <= ay <= y1 and z0 <= az <= z1
                ):
                    continue  # P-LOS-3: the box holds one of the two own cells
                if (
                    box_contact(k, x0, y0, z0, x1, y1, z1, px, py, pz, dx, dy, dz)
                    == CONTACT_INTERIOR
                ):
                    hidden_by = box
                    break
            if hidden_by >= 0:
                code = LOS_BLOCKED
                codes[e] = code
                shadow_flat[b_flat] = hidden_by
                last_box = hidden_by
                # The rest of this end's column going away from P is hidden by the same box
                # when its last cell is (convexity), unless the box holds one of its cells.
                step_z = k if b_cell[2] >= az else -k
                last = e
                while (
                    last + 1 < n_ends
                    and ends[last + 1, 0] == qx
                    and ends[last + 1, 1] == qy
                    and ends[last + 1, 2] == ends[last, 2] + step_z
                ):
                    last += 1
                if last > e:
                    z_far = ends[last, 2] // k
                    if not (
                        x0 <= b_cell[0] <= x1
                        and y0 <= b_cell[1] <= y1
                        and z0 <= max(b_cell[2], z_far)
                        and min(b_cell[2], z_far) <= z1
                    ) and (
                        box_contact(
                            k,
                            x0,
                            y0,
                            z0,
                            x1,
                            y1,
                            z1,
                            px,
                            py,
                            pz,
                            qx - px,
                            qy - py,
                            ends[last, 2] - pz,
                        )
                        == CONTACT_INTERIOR
                    ):
                        for i in range(e + 1, last + 1):
                            codes[i] = LOS_BLOCKED
                            shadow_flat[b_flat + (ends[i, 2] - qz) // k] = hidden_by
                        skip_to = last
                continue
        # Axes renamed so the walk runs along m; o1 and o2 are the minor axes.
        o1 = (m + 1) % 3
        o2 = (m + 2) % 3
        pm, sm = p[m], strides[m]
        p1, d1, n1, s1 = p[o1], dv[o1], sizes[o1], strides[o1]
        p2, d2, n2, s2 = p[o2], dv[o2], sizes[o2], strides[o2]
        step = 1 if dv[m] > 0 else -1
        scale = k * span
        c_first = pm // k
        c_last = (pm + dv[m]) // k
        c = c_first
        # A minor coordinate at t = T / span is V / scale with V = p_o span + d_o T, kept as
        # floor f and remainder r (0 <= r < scale). At T = 0 it is p_o / k.
        t_in = 0
        f1 = p1 // k
        r1 = (p1 - f1 * k) * span
        f2 = p2 // k
        r2 = (p2 - f2 * k) * span
        if (
            stop
            and sight
            and shadow is None
            and hint_x >= 0
            and b_flat != hint_flat
            and a_flat != hint_flat
            and segment_contact(k, hint_x, hint_y, hint_z, px, py, pz, dx, dy, dz)
            == CONTACT_INTERIOR
        ):
            # P-LOS-1 settles it at once: neighbouring targets are mostly hidden by one cell.
            code, fx, fy, fz = LOS_BLOCKED, hint_x, hint_y, hint_z
            if out.shape[0] > 0:
                out[0, 0], out[0, 1], out[0, 2], out[0, 3] = fx, fy, fz, CONTACT_INTERIOR
                n = 1
            codes[e] = code
            continue
        # The table of the levels the line spans, when it runs along x or y.
        level_table = -1
        if by_levels and m != 2:
            zlo, zhi = min(az, b_cell[2]), max(az, b_cell[2])
            level_table = zlo * (2 * sizes[2] - zlo + 1) // 2 + zhi - zlo
        good = -1  # P-LOS-2: sign vectors clearing every touch so far; -1 = not computed yet
        # Blocking occupants the segment can reach at all: inside its cells' bounding box.
        n_near = 0
        if skipping:
            for j in range(skip_cells.shape[0]):
                if (
                    min(ax, qx // k) <= skip_cells[j, 0] <= max(ax, qx // k)
                    and min(ay, qy // k) <= skip_cells[j, 1] <= max(ay, qy // k)
                    and min(az, qz // k) <= skip_cells[j, 2] <= max(az, qz // k)
                ):
                    near[n_near] = j
                    n_near += 1
        done = False
        while not done:
            if skipping:
                r = -1
                if level_clearance is not None and level_table >= 0:
                    # The same in x and y on the line's levels (every candidate is on them).
                    hx, hy = (c, f1) if m == 0 else (f2, c)
                    r = int(level_clearance[level_table, hx, hy])
                    if r >= 3:
                        for i in range(n_near):
                            j = near[i]
                            r = min(r, max(abs(hx - skip_cells[j, 0]), abs(hy - skip_cells[j, 1])))
                if r < 0:
                    # Chebyshev distance from the cell holding the entry point to the nearest
                    # blocker; all candidates of this slab and the next r - 3 are nearer than r.
                    r = int(clear_flat[c * sm + f1 * s1 + f2 * s2])
                    if r >= 3:
                        for i in range(n_near):
                            j = near[i]
                            r = min(
                                r,
                                max(
                                    abs(c - skip_cells[j, m]),
                                    abs(f1 - skip_cells[j, o1]),
                                    abs(f2 - skip_cells[j, o2]),
                                ),
                            )
                if r >= 3:
                    c += step * (r - 2)
                    if (c_last - c) * step < 0:
                        break
                    t_in = step * (k * c + (0 if step > 0 else k) - pm)
                    v = p1 * span + d1 * t_in
                    f1 = v // scale
                    r1 = v - f1 * scale
                    v = p2 * span + d2 * t_in
                    f2 = v // scale
                    r2 = v - f2 * scale
                    continue
            # Where the segment leaves this slab: its far face, or the end point.
            t_out = min(step * (k * c + (k if step > 0 else 0) - pm), span)
            g1, u1 = f1, r1 + d1 * (t_out - t_in)
            if u1 >= scale:
                g1, u1 = g1 + 1, u1 - scale
            elif u1 < 0:
                g1, u1 = g1 - 1, u1 + scale
            g2, u2 = f2, r2 + d2 * (t_out - t_in)
            if u2 >= scale:
                g2, u2 = g2 + 1, u2 - scale
            elif u2 < 0:
                g2, u2 = g2 - 1, u2 + scale
            # Cells whose closed box meets the closed range [lo, hi] of a minor coordinate:
            # ceil(lo) - 1 .. floor(hi).
            if d1 >= 0:
                lo1, hi1 = f1 - (1 if r1 == 0 else 0), g1
            else:
                lo1, hi1 = g1 - (1 if u1 == 0 else 0), f1
            if d2 >= 0:
                lo2, hi2 = f2 - (1 if r2 == 0 else 0), g2
            else:
                lo2, hi2 = g2 - (1 if u2 == 0 else 0), f2
            # Only the first and last slabs hold the two own cells.
            own_here = c in (c_first, c_last)
            base = c * sm
            for c1 in range(max(lo1, 0), min(hi1, n1 - 1) + 1):
                for c2 in range(max(lo2, 0), min(hi2, n2 - 1) + 1):
                    cell = base + c1 * s1 + c2 * s2
                    if own_here and cell in (a_flat, b_flat):
                        continue
                    blocker = flat[cell] != 0
                    if not blocker and has_occupants:
                        j = occ_flat[cell]
                        blocker = j >= 0 and occ_blocks[j] != 0
                    if not blocker:
                        continue
                    if m == 0:
                        x, y, z = c, c1, c2
                    elif m == 1:
                        x, y, z = c2, c, c1
                    else:
                        x, y, z = c1, c2, c
                    contact = segment_contact(k, x, y, z, px, py, pz, dx, dy, dz)
                    if contact == CONTACT_NONE or (contact == CONTACT_TOUCH and not sight):
                        continue
                    if n < out.shape[0]:  # a short `out`: the caller wants the code alone
                        out[n, 0] = x
                        out[n, 1] = y
                        out[n, 2] = z
                        out[n, 3] = contact
                        n += 1
                    if not sight or code == LOS_BLOCKED:
                        continue
                    if contact == CONTACT_INTERIOR:  # P-LOS-1: the first one decides
                        code, fx, fy, fz = LOS_BLOCKED, x, y, z
                    elif code != LOS_BLOCKED_GRAZED:  # P-LOS-2
                        if good < 0:
                            good = realisable_signs(dx, dy, dz)
                        good &= clearing_signs(x, y, z, px, py, pz, dx, dy, dz)
                        code = LOS_CLEAR_GRAZED
                        if good == 0:
                            code, fx, fy, fz = LOS_BLOCKED_GRAZED, x, y, z
                    if stop and code >= LOS_BLOCKED:
                        done = True
                        break
                if done:
                    break
            if c == c_last:
                break
            f1, r1, f2, r2, t_in = g1, u1, g2, u2, t_out
            c += step
        codes[e] = code
        if code == LOS_BLOCKED:
            hint_x, hint_y, hint_z = fx, fy, fz
            hint_flat = fx * strides[0] + fy * strides[1] + fz
        if shadow is not None:
            # The box that hid this end, or the end's own box when it is a blocker seen.
            at = hint_flat if code == LOS_BLOCKED else (b_flat if code < LOS_BLOCKED else -1)
            box = -1
            if at >= 0:
                box = box_flat[at]
                if box < 0 and (flat[at] != 0 or (has_occupants and occ_flat[at] >= 0)):
                    for j in range(skip_cells.shape[0]):
                        if (
                            skip_cells[j, 0] * strides[0]
                            + skip_cells[j, 1] * strides[1]
                            + skip_cells[j, 2]
                            == at
                        ):
                            box = n_boxes + j
                            break
            shadow_flat[b_flat] = box
            if code == LOS_BLOCKED:
                last_box = box
    return code, fx, fy, fz, n


@njit
def level_walk(
    flat: NDArray[np.uint8],
    h: int,
    d: int,
    n_minor: int,
    jump: NDArray[np.uint8],
    jump_base: int,
    jump_x: int,
    jump_y: int,
    ax: int,
    ay: int,
    bx: int,
    by: int,
    z: int,
) -> tuple[int, int, int, int]:
    """`walk_shadowed`'s terrain sight with `stop` for one line between two cells of level z
    (a != b): (code, x, y, z) as that walk finds them, cell by cell in the same order.

    `flat` is the blockers (w x h x d, C order) flattened; `n_minor` the map's size across the
    line's axis (x unless y is longer). A line on one level meets only that level's cells (its
    z is a cell centre's), at most two per column of its axis, and only touches a cell where it
    crosses a lattice corner; a touched cell lies wholly below or above the line in its column,
    and P-LOS-2 blocks when both sides hold one (u can take either sign on z and two moving
    axes, so only the side across the line counts). The walk keeps the minor coordinate as
    f + r / (2 |d_major|), reads the cells straight from `flat` and divides only after a jump.
    With `jump_x` > 0, `jump[jump_base + x jump_x + y jump_y]` is a Chebyshev distance in x and
    y to the nearest blocker on level z (a level table, or the 3D clearance), as in the walk.
    """
    dx, dy = bx - ax, by - ay
    if abs(dy) > abs(dx):  # the walk's axis: x unless y is longer
        am, an, bm, dm, dn = ay, ax, by, dy, dx
        s_major, s_minor = d, h * d
        j_major, j_minor = jump_y, jump_x
        along_x = False
    else:
        am, an, bm, dm, dn = ax, ay, bx, dx, dy
        s_major, s_minor = h * d, d
        j_major, j_minor = jump_x, jump_y
        along_x = True
    step = 1 if dm > 0 else -1
    span = abs(dm)
    big = 2 * span  # the remainder's denominator
    a_flat = (ax * h + ay) * d + z
    b_flat = (bx * h + by) * d + z
    code = LOS_CLEAR
    sides = 0  # P-LOS-2: bit 0 a touched blocker below the line, bit 1 one above
    c = am
    f, r = an, span  # the first column is entered at the viewer's centre
    while True:
        if jump_x > 0:
            gap = int(jump[jump_base + c * j_major + f * j_minor])
            if gap >= 3:
                # Every candidate of this column and the next gap - 3 is nearer than gap.
                c += step * (gap - 2)
                if (c - bm) * step > 0:
                    break
                # Column c is entered at the line's boundary |c - am| - 1.
                num = span + dn * (2 * abs(c - am) - 1)
                q = num // big
                f, r = an + q, num - q * big
                continue
        # Where the line leaves column c: its far face, or the end's centre.
        g, u = f, r + (dn if c in (am, bm) else 2 * dn)
        if u >= big:
            g, u = g + 1, u - big
        elif u < 0:
            g, u = g - 1, u + big
        if dn >= 0:
            lo_f, lo_r, hi_f, hi_r = f, r, g, u
        else:
            lo_f, lo_r, hi_f, hi_r = g, u, f, r
        own = c in (am, bm)
        base = c * s_major + z
        for j in range(max(lo_f - 1 if lo_r == 0 else lo_f, 0), min(hi_f, n_minor - 1) + 1):
            cell = base + j * s_minor
            if flat[cell] == 0 or (own and (cell in (a_flat, b_flat))):
                continue
            x, y = (c, j) if along_x else (j, c)
            if lo_r == 0 and j == lo_f - 1:
                sides |= 1
            elif hi_r == 0 and j == hi_f:
                sides |= 2
            else:  # P-LOS-1: the first interior entered decides
                return LOS_BLOCKED, x, y, z
            code = LOS_CLEAR_GRAZED
            if sides == 3:
                return LOS_BLOCKED_GRAZED, x, y, z
        if c == bm:
            break
        f, r = g, u
        c += step
    return code, -1, -1, -1


@njit
def level_rows_kernel(sight_block: NDArray[np.uint8]) -> NDArray[np.int64]:
    """Each level's blockers as bit rows for `level_rows_walk`: rows[0, z, y] holds bit x of
    every blocker (x, y, z), rows[1, z, x] bit y, 64 cells to a word."""
    w, h, d = sight_block.shape
    rows = np.zeros((2, d, max(w, h), (max(w, h) + 63) // 64), dtype=np.int64)
    for x in range(w):
        for y in range(h):
            for z in range(d):
                if sight_block[x, y, z] != 0:
                    rows[0, z, y, x >> 6] |= np.int64(1) << (x & 63)
                    rows[1, z, x, y >> 6] |= np.int64(1) << (y & 63)
    return rows


@njit_inline
def level_rows_walk(
    flat: NDArray[np.uint8],
    h: int,
    d: int,
    rows: NDArray[np.int64],
    ax: int,
    ay: int,
    bx: int,
    by: int,
    z: int,
) -> tuple[int, int, int]:
    """`level_walk` for a line that crosses no lattice corner, a row of its minor axis at a time:
    (code, x, y), or (-1, -1, -1) when the line crosses a corner (then it touches cells: the
    caller walks it with `level_walk`).

    Without a corner the line touches nothing (P-LOS-2 has nothing to decide) and enters, in
    each row j of its minor axis, the cells of one run of columns, the last shared with the
    next row; `rows` (`level_rows_kernel`) answers for a whole run at once whether it holds a
    blocker. The first run that does is read cell by cell for the one the walk meets first:
    column by column, and in a column the lower minor coordinate first (P-LOS-1)."""
    dx, dy = bx - ax, by - ay
    if abs(dy) > abs(dx):  # the walk's axis: x unless y is longer
        axis, am, an, dm, dn = 1, ay, ax, dy, dx
        s_major, s_minor = d, h * d
    else:
        axis, am, an, dm, dn = 0, ax, ay, dx, dy
        s_major, s_minor = h * d, d
    span, runs = abs(dm), abs(dn)
    step = 1 if dm > 0 else -1
    sn = 1 if dn >= 0 else -1
    # Row k + 1 starts at column (span + (2k + 1) span') / 2 runs from a, span' = span: kept
    # as q + rem / big; rem == 0 is a corner.
    big = 2 * runs
    q, rem, q_step, rem_step = 0, 0, 0, 0
    if runs > 0:  # one division: span = s runs + t
        s = span // runs
        t = span - s * runs
        q_step, rem_step = s, 2 * t
        # (runs + span) / big = (1 + s) / 2 + t / big
        q, rem = ((1 + s) // 2, t) if s % 2 else (s // 2, runs + t)
    start = 1  # the viewer's own cell (column 0) never blocks
    j = an
    for k in range(runs + 1):
        if k == runs:
            end = span - 1  # the end's own cell neither
        else:
            if rem == 0:
                return -1, -1, -1
            end = q
            q += q_step
            rem += rem_step
            if rem >= big:
                q += 1
                rem -= big
        if end >= start:
            lo, hi = (am + start, am + end) if step > 0 else (am - end, am - start)
            wl, wh = lo >> 6, hi >> 6
            bits = rows[axis, z, j, wl] >> (lo & 63)
            if wl == wh:
                if hi - lo < 63:
                    bits &= (np.int64(1) << (hi - lo + 1)) - 1
            else:
                bits |= rows[axis, z, j, wh] & ((np.int64(2) << (hi & 63)) - 1)
                for word in range(wl + 1, wh):
                    bits |= rows[axis, z, j, word]
            if bits != 0:
                base = j * s_minor + z
                for i in range(start, end + 1):
                    c = am + step * i
                    if flat[c * s_major + base] == 0:
                        continue
                    # The column's lower cell comes first: the next row's, when lower.
                    if i == end and k < runs and sn < 0 and flat[c * s_major + base - s_minor]:
                        j -= 1
                    return (LOS_BLOCKED, c, j) if axis == 0 else (LOS_BLOCKED, j, c)
        start = end
        j += sn
    return LOS_CLEAR, -1, -1


@njit
def los_kernel(
    sight_block: NDArray[np.uint8],
    occ_index: NDArray[np.int32],
    occ_blocks: NDArray[np.uint8],
    ax: int,
    ay: int,
    az: int,
    bx: int,
    by: int,
    bz: int,
) -> bool:
    """True when cell a sees cell b. `occ_index` may be empty (shape (0, 0, 0)): terrain only."""
    end = np.empty((1, 3), dtype=np.int64)
    end[0, 0], end[0, 1], end[0, 2] = 2 * bx + 1, 2 * by + 1, 2 * bz + 1
    out = np.empty((0, 4), dtype=np.int64)  # only the code is read: no rows kept
    codes = np.empty(1, dtype=np.int8)
    walk_shadowed(
        sight_block,
        occ_index,
        occ_blocks,
        NO_CLEARANCE,
        None,
        NO_CELLS,
        None,
        None,
        None,
        2,
        2 * ax + 1,
        2 * ay + 1,
        2 * az + 1,
        end,
        True,
        True,
        out,
        codes,
    )
    return bool(codes[0] < LOS_BLOCKED)


@njit
def los_pairs_kernel(
    sight_block: NDArray[np.uint8],
    clearance: NDArray[np.uint8],
    level_clearance: NDArray[np.uint8],
    pairs: NDArray[np.int64],
    rows: NDArray[np.int64] | None = None,
) -> NDArray[np.bool_]:
    """Terrain line of sight for each row (ax, ay, az, bx, by, bz) of `pairs`: `los_kernel`
    for a batch, in one walk (`starts`), jumping over empty space with the grid's tables
    (`clearance`, `level_clearance`; either may be empty) and, for lines on one level, testing
    runs of cells with its bit rows (`level_rows`, optional)."""
    n = pairs.shape[0]
    starts = 2 * pairs[:, :3] + 1
    ends = 2 * pairs[:, 3:] + 1
    codes = np.empty(n, dtype=np.int8)
    if n > 0:
        walk_shadowed(
            sight_block,
            NO_INDEX,
            NO_FLAGS,
            clearance,
            level_clearance,
            NO_CELLS,
            None,
            None,
            None,
            2,
            starts[0, 0],
            starts[0, 1],
            starts[0, 2],
            ends,
            True,
            True,
            np.empty((0, 4), dtype=np.int64),  # only the codes are read
            codes,
            starts,
            True,
            rows,
        )
    return codes < LOS_BLOCKED


#: `los_terrain_kernel`'s answer for a cell off the map (the caller words the error).
LOS_OFF_MAP = -1


@njit
def los_terrain_kernel(
    sight_block: NDArray[np.uint8], ax: int, ay: int, az: int, bx: int, by: int, bz: int
) -> int:
    """`los_kernel` with terrain only: 1 seen, 0 not, LOS_OFF_MAP when a cell is off the map.
    One array to pass and the map's bounds checked here, so one Python call costs less."""
    w, h, d = sight_block.shape
    if not (
        0 <= ax < w and 0 <= ay < h and 0 <= az < d and 0 <= bx < w and 0 <= by < h and 0 <= bz < d
    ):
        return LOS_OFF_MAP
    return 1 if los_kernel(sight_block, NO_INDEX, NO_FLAGS, ax, ay, az, bx, by, bz) else 0


@njit
def clearance_kernel(sight_block: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Chebyshev distance from every cell to the nearest sight-blocking cell, capped at FAR.

    Two raster passes over the 26-neighbourhood with unit steps, exact for this metric.
    """
    w, h, d = sight_block.shape
    dist = np.full((w, h, d), FAR, dtype=np.uint8)
    for x in range(w):
        for y in range(h):
            for z in range(d):
                if sight_block[x, y, z] != 0:
                    dist[x, y, z] = 0
    for direction in (1, -1):
        xs = range(w) if direction == 1 else range(w - 1, -1, -1)
        for x in xs:
            ys = range(h) if direction == 1 else range(h - 1, -1, -1)
            for y in ys:
                zs = range(d) if direction == 1 else range(d - 1, -1, -1)
                for z in zs:
                    best = int(dist[x, y, z])
                    if best == 0:
                        continue
                    # The 13 neighbours already visited in this pass's raster order.
                    for ex in (-1, 0):
                        for ey in (-1, 0, 1):
                            for ez in (-1, 0, 1):
                                if ex == 0 and (ey > 0 or (ey == 0 and ez >= 0)):
                                    continue
                                nx = x + direction * ex
                                ny = y + direction * ey
                                nz = z + direction * ez
                                if 0 <= nx < w and 0 <= ny < h and 0 <= nz < d:
                                    best = min(best, int(dist[nx, ny, nz]) + 1)
                    dist[x, y, z] = best
    return dist


#: Level clearance tables are built only up to this many bytes (d(d+1)/2 tables of w x h).
LEVEL_TABLES_MAX_BYTES = 16 * 2**20


@njit
def level_clearance_kernel(sight_block: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """For every range of levels zlo..zhi and every column (x, y): the Chebyshev distance in x
    and y to the nearest sight-blocking cell on those levels, capped at FAR.

    Table t = zlo (2d - zlo + 1) / 2 + zhi - zlo, d the number of levels. Two raster passes
    over the 8-neighbourhood, exact for this metric.
    """
    w, h, d = sight_block.shape
    tables = np.empty((d * (d + 1) // 2, w, h), dtype=np.uint8)
    mask = np.zeros((w, h), dtype=np.bool_)
    t = 0
    for zlo in range(d):
        mask[:, :] = False
        for zhi in range(zlo, d):
            dist = tables[t]
            for x in range(w):
                for y in range(h):
                    if sight_block[x, y, zhi] != 0:
                        mask[x, y] = True
                    dist[x, y] = 0 if mask[x, y] else FAR
            for x in range(w):
                for y in range(h):
                    best = int(dist[x, y])
                    if best == 0:
                        continue
                    if x > 0:
                        best = min(best, int(dist[x - 1, y]) + 1)
                        if y > 0:
                            best = min(best, int(dist[x - 1, y - 1]) + 1)
                        if y + 1 < h:
                            best = min(best, int(dist[x - 1, y + 1]) + 1)
                    if y > 0:
                        best = min(best, int(dist[x, y - 1]) + 1)
                    dist[x, y] = best
            for x in range(w - 1, -1, -1):
                for y in range(h - 1, -1, -1):
                    best = int(dist[x, y])
                    if best == 0:
                        continue
                    if x + 1 < w:
                        best = min(best, int(dist[x + 1, y]) + 1)
                        if y > 0:
                            best = min(best, int(dist[x + 1, y - 1]) + 1)
                        if y + 1 < h:
                            best = min(best, int(dist[x + 1, y + 1]) + 1)
                    if y + 1 < h:
                        best = min(best, int(dist[x, y + 1]) + 1)
                    dist[x, y] = best
            t += 1
    return tables


@njit
def _blocking_cells(occ_cells: NDArray[np.int64], blocks: NDArray[np.uint8]) -> NDArray[np.int64]:
    """The rows of `occ_cells` whose flag in `blocks` is set."""
    keep = np.empty((occ_cells.shape[0], 3), dtype=np.int64)
    n = 0
    for j in range(occ_cells.shape[0]):
        if blocks[j] != 0:
            keep[n] = occ_cells[j]
            n += 1
    return keep[:n].copy()


#: Slots of a grid's kept terrain answers between cells (`visibility_kernel`'s `memo`, plus
#: one for the count): emptied when half full, 4,096 pairs.
MEMO_SLOTS = 2**13
#: After those and the count, the memo keeps each answer of the last call by the pair's place
#: in it as well (pairs i < j of the first 64 occupants, in the kernel's order): a call after
#: one move reads the 105 unmoved pairs in a row instead of at 105 scattered slots.
MEMO_PLACES = 64 * 63 // 2


@njit
def _memo_slot(memo: NDArray[np.int64], key: int) -> int:
    """Where `key` is kept in `memo` (open addressing), or the empty slot where it would go."""
    mask = memo.shape[0] - MEMO_PLACES - 2  # then the count, then the places
    s = (key ^ (key >> 13) ^ (key >> 29)) & mask
    while memo[s] != 0 and memo[s] >> 2 != key:
        s = (s + 1) & mask
    return int(s)


@njit_inline
def _memo_keep(memo: NDArray[np.int64], key: int, answer: int) -> None:
    """Keep `answer` (1 clear, 2 blocked) for `key` in `memo`, emptied first when half full
    (the next answers refill it); one whole int64 written (see `visibility_kernel`)."""
    count_at = memo.shape[0] - MEMO_PLACES - 1
    if memo[count_at] * 2 >= count_at:
        memo[: count_at + 1] = 0
    s = _memo_slot(memo, key)
    if memo[s] == 0:
        memo[count_at] += 1
    memo[s] = (key << 2) | answer


@njit_inline
def slab_centres_blocked(
    flat: NDArray[np.uint8], h: int, d: int, ax: int, ay: int, az: int, bx: int, by: int, bz: int
) -> bool:
    """True when the line between the centres of cells a and b passes through the interior of a
    terrain blocker at the centre of a slab of its dominant axis (P-LOS-1: then it is blocked
    whatever else it meets); False says nothing (`walk` decides).

    `flat` is the grid's `sight_block` flattened, h and d its height and levels. With L cells
    from a to b along the dominant axis, the line's point at step s (0 < s < L) is, on a minor
    axis o, a_o + 1/2 + (b_o - a_o) s / L in cell units: a_o plus the floor of
    (L + 2 (b_o - a_o) s) / 2L, inside a cell unless that division is exact. Floor and
    remainder are carried from step to step (the walk's way, no division); the end cells are
    never sampled (they are at s = 0 and s = L).
    """
    dx, dy, dz = bx - ax, by - ay, bz - az
    adx, ady, adz = abs(dx), abs(dy), abs(dz)
    if adx >= ady and adx >= adz:
        span, s_major, step = adx, h * d, 1 if dx > 0 else -1
        d1, s1, d2, s2 = dy, d, dz, 1
    elif ady >= adz:
        span, s_major, step = ady, d, 1 if dy > 0 else -1
        d1, s1, d2, s2 = dx, h * d, dz, 1
    else:
        span, s_major, step = adz, 1, 1 if dz > 0 else -1
        d1, s1, d2, s2 = dx, h * d, dy, d
    whole = 2 * span
    r1, r2 = span, span
    cell = (ax * h + ay) * d + az
    for _ in range(1, span):
        cell += step * s_major
        r1 += 2 * d1
        if r1 >= whole:
            r1 -= whole
            cell += s1
        elif r1 < 0:
            r1 += whole
            cell -= s1
        r2 += 2 * d2
        if r2 >= whole:
            r2 -= whole
            cell += s2
        elif r2 < 0:
            r2 += whole
            cell -= s2
        if r1 != 0 and r2 != 0 and flat[cell] != 0:
            return True
    return False


@njit_nogil
def visibility_kernel(
    sight_block: NDArray[np.uint8],
    occ_index: NDArray[np.int32],
    blocks_by_viewer: NDArray[np.uint8],
    occ_cells: NDArray[np.int64],
    clearance: NDArray[np.uint8],
    level_clearance: NDArray[np.uint8],
    memo: NDArray[np.int64],
    rows: NDArray[np.int64] | None = None,
) -> NDArray[np.bool_]:
    """seen[i, j]: occupant i sees occupant j, with row i of `blocks_by_viewer` as its blockers.

    Terrain first, once per unordered pair: terrain sight is symmetric, and a pair that terrain
    alone blocks stays blocked whatever stands between (adding blockers never clears a line,
    P-LOS-1/2). A pair terrain leaves clear is looked at again for each viewer's blocking
    occupants, and walked again with them only when one of them meets the segment at all;
    otherwise nothing else is on it.

    `memo` keeps the grid's terrain answers between two cells from call to call (a grid never
    changes; `MEMO_SLOTS + 1 + MEMO_PLACES` zeros for a new one): after a move only the mover's
    pairs are new. Each is first tried at its dominant axis's slab centres
    (`slab_centres_blocked`: most lines between units are blocked, and most of those found so);
    the rest are walked in one call, those on one level by the grid's bit `rows`
    (`level_rows`) when given.
    Each slot is one int64, (pair key << 2) | (1 clear, 2 blocked), written whole, so a search
    beside another on the same grid (threads) reads a whole answer or none; a slot of the
    places is believed only when its key is the pair's.
    """
    n = occ_cells.shape[0]
    seen = np.ones((n, n), dtype=np.bool_)  # terrain-blocked pairs are set False first
    w, h, d = sight_block.shape
    total = w * h * d
    flat = sight_block.reshape(total)
    places = memo.shape[0] - MEMO_PLACES
    pairs = n * (n - 1) // 2
    todo = np.empty((2 * pairs, 3), dtype=np.int64)  # the ends, then the starts, of the walks
    todo_of = np.empty((pairs, 3), dtype=np.int64)  # each walk's pair i, j and key
    # The pairs not kept yet and not settled at a slab centre, walked in one call.
    m = 0
    place = 0
    for i in range(n - 1):
        ax, ay, az = occ_cells[i, 0], occ_cells[i, 1], occ_cells[i, 2]
        a = (ax * h + ay) * d + az
        for j in range(i + 1, n):
            bx, by, bz = occ_cells[j, 0], occ_cells[j, 1], occ_cells[j, 2]
            b = (bx * h + by) * d + bz
            key = min(a, b) * total + max(a, b)
            at = places + place if place < MEMO_PLACES else -1
            place += 1
            if a != b:  # two sharing a cell (P-MOV-8) see each other: walked, never kept
                kept = memo[at] if at >= 0 else 0
                if kept >> 2 != key or kept == 0:
                    kept = memo[_memo_slot(memo, key)]
                    if kept != 0 and at >= 0:
                        memo[at] = kept
                if kept != 0:
                    if (kept & 3) == 2:
                        seen[i, j] = False
                        seen[j, i] = False
                    continue
                if slab_centres_blocked(flat, h, d, ax, ay, az, bx, by, bz):
                    seen[i, j] = False
                    seen[j, i] = False
                    _memo_keep(memo, key, 2)
                    if at >= 0:
                        memo[at] = (key << 2) | 2
                    continue
            todo[pairs + m, 0], todo[pairs + m, 1] = 2 * ax + 1, 2 * ay + 1
            todo[pairs + m, 2] = 2 * az + 1
            todo[m, 0], todo[m, 1], todo[m, 2] = 2 * bx + 1, 2 * by + 1, 2 * bz + 1
            todo_of[m, 0], todo_of[m, 1], todo_of[m, 2] = i, j, key
            m += 1
    out = np.empty((0, 4), dtype=np.int64)  # only the codes are read: no rows kept
    codes = np.empty(max(1, m), dtype=np.int8)  # the walked lines' codes, then one walk's
    if m > 0:
        walk_shadowed(
            sight_block,
            NO_INDEX,
            NO_FLAGS,
            clearance,
            level_clearance,
            NO_CELLS,
            None,
            None,
            None,
            2,
            todo[pairs, 0],
            todo[pairs, 1],
            todo[pairs, 2],
            todo[:m],
            True,
            True,
            out,
            codes[:m],
            todo[pairs : pairs + m],
            True,
            rows,
        )
    for t in range(m):
        i, j, key = todo_of[t, 0], todo_of[t, 1], todo_of[t, 2]
        answer = 2 if codes[t] >= LOS_BLOCKED else 1
        if answer == 2:
            seen[i, j] = False
            seen[j, i] = False
        if (
            occ_cells[i, 0] != occ_cells[j, 0]
            or occ_cells[i, 1] != occ_cells[j, 1]
            or (occ_cells[i, 2] != occ_cells[j, 2])
        ):
            _memo_keep(memo, key, answer)
            at = i * (2 * n - i - 1) // 2 + j - i - 1  # the pair's place, as counted above
            if at < MEMO_PLACES:
                memo[places + at] = (key << 2) | answer
    end = todo[:1]  # reused for each walk with occupants below
    for i in range(n - 1):
        for j in range(i + 1, n):
            if not seen[i, j]:
                continue  # terrain blocks both ways
            # The segment is the same both ways: who meets it is looked for once, for i's
            # blockers and j's together.
            ix, iy, iz = occ_cells[i, 0], occ_cells[i, 1], occ_cells[i, 2]
            jx, jy, jz = occ_cells[j, 0], occ_cells[j, 1], occ_cells[j, 2]
            x0, x1 = min(ix, jx), max(ix, jx)
            y0, y1 = min(iy, jy), max(iy, jy)
            z0, z1 = min(iz, jz), max(iz, jz)
            px, py, pz = 2 * ix + 1, 2 * iy + 1, 2 * iz + 1
            dx, dy, dz = 2 * (jx - ix), 2 * (jy - iy), 2 * (jz - iz)
            met_i, met_j = False, False
            for k in range(n):
                for_i = blocks_by_viewer[i, k] != 0 and not met_i
                for_j = blocks_by_viewer[j, k] != 0 and not met_j
                if not (for_i or for_j):
                    continue
                kx, ky, kz = occ_cells[k, 0], occ_cells[k, 1], occ_cells[k, 2]
                if not (x0 <= kx <= x1 and y0 <= ky <= y1 and z0 <= kz <= z1):
                    continue  # the segment lies in its two cells' box: it cannot touch
                if (kx == ix and ky == iy and kz == iz) or (kx == jx and ky == jy and kz == jz):
                    continue  # P-LOS-3: the two own cells never block
                if segment_contact(2, kx, ky, kz, px, py, pz, dx, dy, dz) != CONTACT_NONE:
                    met_i = met_i or for_i
                    met_j = met_j or for_j
                    if met_i and met_j:
                        break
            for v, t, met in ((i, j, met_i), (j, i, met_j)):
                if met:
                    end[0, 0] = 2 * occ_cells[t, 0] + 1
                    end[0, 1] = 2 * occ_cells[t, 1] + 1
                    end[0, 2] = 2 * occ_cells[t, 2] + 1
                    walk(
                        sight_block,
                        occ_index,
                        blocks_by_viewer[v],
                        NO_CLEARANCE,
                        NO_CELLS,
                        2,
                        2 * occ_cells[v, 0] + 1,
                        2 * occ_cells[v, 1] + 1,
                        2 * occ_cells[v, 2] + 1,
                        end,
                        True,
                        True,
                        out,
                        codes,
                    )
                    seen[v, t] = codes[0] < LOS_BLOCKED
    return seen


#: Where `visibility_tables_pack` puts each table: a head of int64 words (the offsets in bytes
#: and the shapes), then `clearance`, `level_clearance`, `level_rows` and `pair_memo`, each
#: starting on a multiple of 8 bytes.
PACK_HEAD = 16


@njit_nogil
def visibility_packed_kernel(
    sight_block: NDArray[np.uint8],
    occ_index: NDArray[np.int32],
    blocks_by_viewer: NDArray[np.uint8],
    occ_cells: NDArray[np.int64],
    pack: NDArray[np.uint8],
) -> NDArray[np.bool_]:
    """`visibility_kernel` with the grid's four other tables in one array (`pack`): numba's
    call costs about 0.2 us for each array passed, and a battle asks after every command."""
    head = pack[: 8 * PACK_HEAD].view(np.int64)
    w, h, d = head[0], head[1], head[2]
    clear = pack[head[3] : head[3] + w * h * d].reshape((w, h, d))
    t0, t1, t2 = head[5], head[6], head[7]
    levels = pack[head[4] : head[4] + t0 * t1 * t2].reshape((t0, t1, t2))
    r0, r1, r2, r3 = head[9], head[10], head[11], head[12]
    rows = pack[head[8] : head[8] + 8 * r0 * r1 * r2 * r3].view(np.int64).reshape((r0, r1, r2, r3))
    memo = pack[head[13] : head[13] + 8 * head[14]].view(np.int64)
    return visibility_kernel(
        sight_block, occ_index, blocks_by_viewer, occ_cells, clear, levels, memo, rows
    )


@njit
def blocker_boxes(sight_block: NDArray[np.uint8]) -> tuple[NDArray[np.int64], NDArray[np.int32]]:
    """The blockers cut into boxes (x0, y0, z0, x1, y1, z1), each grown greedily along z, then
    y, then x; and the index of each blocker's box (-1 for the other cells)."""
    w, h, d = sight_block.shape
    box_of = np.full((w, h, d), -1, dtype=np.int32)
    boxes = np.empty((max(1, int((sight_block != 0).sum())), 6), dtype=np.int64)
    n = 0
    for x in range(w):
        for y in range(h):
            for z in range(d):
                if sight_block[x, y, z] == 0 or box_of[x, y, z] >= 0:
                    continue
                z1 = z
                while z1 + 1 < d and sight_block[x, y, z1 + 1] != 0 and box_of[x, y, z1 + 1] < 0:
                    z1 += 1
                y1 = y
                while y1 + 1 < h and _free_blockers(
                    sight_block, box_of, x, x, y1 + 1, y1 + 1, z, z1
                ):
                    y1 += 1
                x1 = x
                while x1 + 1 < w and _free_blockers(
                    sight_block, box_of, x1 + 1, x1 + 1, y, y1, z, z1
                ):
                    x1 += 1
                box_of[x : x1 + 1, y : y1 + 1, z : z1 + 1] = n
                boxes[n, 0], boxes[n, 1], boxes[n, 2] = x, y, z
                boxes[n, 3], boxes[n, 4], boxes[n, 5] = x1, y1, z1
                n += 1
    return boxes[:n].copy(), box_of


@njit
def _free_blockers(
    sight_block: NDArray[np.uint8],
    box_of: NDArray[np.int32],
    x0: int,
    x1: int,
    y0: int,
    y1: int,
    z0: int,
    z1: int,
) -> bool:
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            for z in range(z0, z1 + 1):
                if sight_block[x, y, z] == 0 or box_of[x, y, z] >= 0:
                    return False
    return True


@njit
def outward_cells(
    vx: int, vy: int, vz: int, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int
) -> NDArray[np.int64]:
    """The cell centres (doubled) of the block [x0, x1) x [y0, y1) x [z0, z1), octant by
    octant away from the viewer's cell: each cell comes after its neighbours towards it."""
    ends = np.empty(((x1 - x0) * (y1 - y0) * (z1 - z0), 3), dtype=np.int64)
    e = 0
    for sx in (1, -1):
        xa, xb = (vx, x1) if sx == 1 else (vx - 1, x0 - 1)
        for sy in (1, -1):
            ya, yb = (vy, y1) if sy == 1 else (vy - 1, y0 - 1)
            for x in range(xa, xb, sx):
                for y in range(ya, yb, sy):
                    for z in range(vz, z1):
                        ends[e, 0], ends[e, 1], ends[e, 2] = 2 * x + 1, 2 * y + 1, 2 * z + 1
                        e += 1
                    for z in range(vz - 1, z0 - 1, -1):
                        ends[e, 0], ends[e, 1], ends[e, 2] = 2 * x + 1, 2 * y + 1, 2 * z + 1
                        e += 1
    return ends


@njit_nogil
def view_kernel(
    sight_block: NDArray[np.uint8],
    occ_blocks: NDArray[np.uint8],
    occ_cells: NDArray[np.int64],
    clearance: NDArray[np.uint8],
    level_clearance: NDArray[np.uint8],
    boxes: NDArray[np.int64],
    box_of: NDArray[np.int32],
    vx: int,
    vy: int,
    vz: int,
    max_range: int,
) -> NDArray[np.bool_]:
    """Every cell within Chebyshev `max_range` of the viewer's cell that it sees.

    The targets go outwards from the viewer, so each first tries the boxes of blockers that hid
    its neighbours nearer the viewer (`walk_shadowed`): almost every hidden cell is settled
    by one or two tests, and most of a column behind a wall by one.
    """
    ends, blocking, skip_cells, shadow = _view_setup(
        sight_block, occ_blocks, occ_cells, vx, vy, vz, max_range
    )
    codes = np.empty(ends.shape[0], dtype=np.int8)
    out = np.empty((walk_rows(max(sight_block.shape)), 4), dtype=np.int64)
    walk_shadowed(
        blocking,
        NO_INDEX,
        NO_FLAGS,
        clearance,
        level_clearance,
        skip_cells,
        boxes,
        box_of,
        shadow,
        2,
        2 * vx + 1,
        2 * vy + 1,
        2 * vz + 1,
        ends,
        True,
        True,
        out,
        codes,
    )
    return _view_mask(sight_block.shape, ends, codes)


@njit_parallel
def view_kernel_parallel(
    sight_block: NDArray[np.uint8],
    occ_blocks: NDArray[np.uint8],
    occ_cells: NDArray[np.int64],
    clearance: NDArray[np.uint8],
    level_clearance: NDArray[np.uint8],
    boxes: NDArray[np.int64],
    box_of: NDArray[np.int32],
    vx: int,
    vy: int,
    vz: int,
    max_range: int,
    chunks: int,
) -> NDArray[np.bool_]:
    """`view_kernel` with the targets split into `chunks` walked in parallel. A chunk may miss
    a shadow another has not written yet: that costs a walk, never a different answer."""
    ends, blocking, skip_cells, shadow = _view_setup(
        sight_block, occ_blocks, occ_cells, vx, vy, vz, max_range
    )
    e = ends.shape[0]
    codes = np.empty(e, dtype=np.int8)
    for c in prange(chunks):
        lo, hi = e * c // chunks, e * (c + 1) // chunks
        out = np.empty((walk_rows(max(sight_block.shape)), 4), dtype=np.int64)
        walk_shadowed(
            blocking,
            NO_INDEX,
            NO_FLAGS,
            clearance,
            level_clearance,
            skip_cells,
            boxes,
            box_of,
            shadow,
            2,
            2 * vx + 1,
            2 * vy + 1,
            2 * vz + 1,
            ends[lo:hi],
            True,
            True,
            out,
            codes[lo:hi],
        )
    return _view_mask(sight_block.shape, ends, codes)


@njit
def _view_setup(
    sight_block: NDArray[np.uint8],
    occ_blocks: NDArray[np.uint8],
    occ_cells: NDArray[np.int64],
    vx: int,
    vy: int,
    vz: int,
    max_range: int,
) -> tuple[NDArray[np.int64], NDArray[np.uint8], NDArray[np.int64], NDArray[np.int32]]:
    """The targets in outward order, the viewer's blockers in one byte array (one load per
    candidate cell instead of two), the blocking occupants' cells, an empty shadow map."""
    w, h, d = sight_block.shape
    x0, x1 = max(vx - max_range, 0), min(vx + max_range + 1, w)
    y0, y1 = max(vy - max_range, 0), min(vy + max_range + 1, h)
    z0, z1 = max(vz - max_range, 0), min(vz + max_range + 1, d)
    ends = outward_cells(vx, vy, vz, x0, y0, z0, x1, y1, z1)
    blocking = sight_block.copy()
    skip_cells = _blocking_cells(occ_cells, occ_blocks)
    for j in range(skip_cells.shape[0]):
        blocking[skip_cells[j, 0], skip_cells[j, 1], skip_cells[j, 2]] = 1
    return ends, blocking, skip_cells, np.full((w, h, d), -1, dtype=np.int32)


@njit
def _view_mask(
    shape: tuple[int, int, int], ends: NDArray[np.int64], codes: NDArray[np.int8]
) -> NDArray[np.bool_]:
    seen = np.zeros(shape, dtype=np.bool_)
    for i in range(ends.shape[0]):
        seen[ends[i, 0] // 2, ends[i, 1] // 2, ends[i, 2] // 2] = codes[i] < LOS_BLOCKED
    return seen


# ---------------------------------------------------------------- Python API

_CLEARANCE_CACHE: weakref.WeakKeyDictionary[Grid, NDArray[np.uint8]] = weakref.WeakKeyDictionary()


_LEVELS_CACHE: weakref.WeakKeyDictionary[Grid, NDArray[np.uint8]] = weakref.WeakKeyDictionary()


def level_clearance(grid: Grid) -> NDArray[np.uint8]:
    """The grid's per-level-range clearance tables, computed once per grid; empty (not used)
    for grids with so many levels that they would be too big."""
    table = _LEVELS_CACHE.get(grid)
    if table is None:
        w, h, d = grid.shape
        if d * (d + 1) // 2 * w * h > LEVEL_TABLES_MAX_BYTES:
            table = NO_LEVEL_CLEARANCE
        else:
            table = level_clearance_kernel(grid.sight_block)
            table.setflags(write=False)
        _LEVELS_CACHE[grid] = table
    return table


_ROWS_CACHE: weakref.WeakKeyDictionary[Grid, NDArray[np.int64]] = weakref.WeakKeyDictionary()


def level_rows(grid: Grid) -> NDArray[np.int64]:
    """The grid's blockers as bit rows per level (`level_rows_kernel`), computed once per grid."""
    found = _ROWS_CACHE.get(grid)
    if found is None:
        found = level_rows_kernel(grid.sight_block)
        found.setflags(write=False)
        _ROWS_CACHE[grid] = found
    return found


_BOXES_CACHE: weakref.WeakKeyDictionary[Grid, tuple[NDArray[np.int64], NDArray[np.int32]]] = (
    weakref.WeakKeyDictionary()
)


def boxes(grid: Grid) -> tuple[NDArray[np.int64], NDArray[np.int32]]:
    """The grid's sight blockers as boxes and each blocker's box, computed once per grid."""
    found = _BOXES_CACHE.get(grid)
    if found is None:
        found = blocker_boxes(grid.sight_block)
        for array in found:
            array.setflags(write=False)
        _BOXES_CACHE[grid] = found
    return found


def clearance(grid: Grid) -> NDArray[np.uint8]:
    """The grid's distance-to-nearest-blocker table, computed once per grid (terrain is fixed)."""
    table = _CLEARANCE_CACHE.get(grid)
    if table is None:
        table = clearance_kernel(grid.sight_block)
        table.setflags(write=False)
        _CLEARANCE_CACHE[grid] = table
    return table


@dataclass(frozen=True)
class LosResult:
    """Why a line of sight is clear or blocked, for the UI and the query."""

    clear: bool
    #: The blocker whose interior the line enters, or the touched one no shift can clear.
    blocked_by: Cell | None
    #: Blockers the line only touches (P-LOS-2).
    grazed: tuple[Cell, ...]
    #: Ruling ids that decided the answer.
    rules: tuple[str, ...]


def _occupancy_arrays(
    grid: Grid, occupancy: Occupancy | None, viewer: Occupant | None
) -> tuple[NDArray[np.int32], NDArray[np.uint8], NDArray[np.int64]]:
    """occ_index, the viewer's blocker flags, occupant cells; empty for terrain-only sight."""
    if occupancy is None or viewer is None:  # P-LOS-3: nobody stands at the viewpoint
        return NO_INDEX, NO_FLAGS, NO_CELLS
    return occupancy.index, occupancy.sight_blockers(viewer), _occupant_cells(grid, occupancy)


def _occupant_cells(grid: Grid, occupancy: Occupancy) -> NDArray[np.int64]:
    """The occupants' cells as rows; checks that the occupancy belongs to a grid of this shape."""
    if occupancy.index.shape != grid.shape:
        raise ValueError(
            f"occupancy of shape {occupancy.index.shape} does not fit the grid {grid.shape}"
        )
    return occupancy.cells


def line_of_sight(
    grid: Grid,
    a: Cell,
    b: Cell,
    occupancy: Occupancy | None = None,
    viewer: Occupant | None = None,
) -> bool:
    """P-LOS-1..3: does cell a see cell b? Entities count only with a viewer (P-LOS-3)."""
    if occupancy is None or viewer is None:
        # The common call, passed as plainly as it can be (numba's dispatch of each argument
        # costs more than a walk of 40 cells); the kernel checks the bounds, and anything it
        # cannot take (not triples, off the map) goes on to the checks that word the error.
        try:
            ax, ay, az = a
            bx, by, bz = b
        except (TypeError, ValueError):
            pass
        else:
            seen = los_terrain_kernel(grid.sight_block, ax, ay, az, bx, by, bz)
            if seen != LOS_OFF_MAP:
                return seen == 1
    start = require_in_map(grid.shape, a, "line of sight viewer cell")
    end = require_in_map(grid.shape, b, "line of sight target cell")
    occ_index, occ_blocks, _ = _occupancy_arrays(grid, occupancy, viewer)
    return bool(los_kernel(grid.sight_block, occ_index, occ_blocks, *start, *end))


def lines_of_sight(grid: Grid, pairs: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Terrain-only `line_of_sight` for each row (ax, ay, az, bx, by, bz) of `pairs`, in one
    call (P-LOS-1, P-LOS-2)."""
    rows = np.ascontiguousarray(pairs, dtype=np.int64)
    if rows.ndim != 2 or rows.shape[1] != 6:
        raise ValueError(f"pairs must be rows of 6 coordinates, got shape {rows.shape}")
    if len(rows):
        upper = np.array(grid.shape * 2)
        if (rows < 0).any() or (rows >= upper).any():
            bad = rows[((rows < 0) | (rows >= upper)).any(axis=1)][0].tolist()
            raise OffMapError(f"line of sight {bad} leaves the map of {grid.shape}")
    return los_pairs_kernel(
        grid.sight_block, clearance(grid), level_clearance(grid), rows, level_rows(grid)
    )


def explain_line_of_sight(
    grid: Grid,
    a: Cell,
    b: Cell,
    occupancy: Occupancy | None = None,
    viewer: Occupant | None = None,
) -> LosResult:
    """`line_of_sight` with its reasons: the blocking cell, the grazed ones, the rulings used."""
    if in_map(grid.shape, a, b):  # the one bounds check of a hover; the errors are worded below
        start, end = (int(a[0]), int(a[1]), int(a[2])), (int(b[0]), int(b[1]), int(b[2]))
    else:
        start = require_in_map(grid.shape, a, "line of sight viewer cell")
        end = require_in_map(grid.shape, b, "line of sight target cell")
    occ_index, occ_blocks, _ = _occupancy_arrays(grid, occupancy, viewer)
    out = np.empty((walk_rows(chebyshev(start, end)), 4), dtype=np.int64)
    # One kernel call walks the line and looks for entities on it (P-LOS-3): each call from
    # Python costs more in passing its arguments than the work on a hover's line.
    code, x, y, z, n, entities = explain_kernel(
        grid.sight_block,
        occ_index,
        occ_blocks,
        NO_CELLS if occupancy is None else occupancy.cells,
        *start,
        *end,
        out,
    )
    grazed = tuple((r[0], r[1], r[2]) for r in out[:n].tolist() if r[3] == CONTACT_TOUCH)
    rules = ["P-LOS-1"]
    if code in (LOS_CLEAR_GRAZED, LOS_BLOCKED_GRAZED):
        rules.append("P-LOS-2")
    if entities:
        rules.append("P-LOS-3")
    blocked_by = None if code < LOS_BLOCKED else (int(x), int(y), int(z))
    return LosResult(code < LOS_BLOCKED, blocked_by, grazed, tuple(rules))


@njit
def explain_kernel(
    solid: NDArray[np.uint8],
    occ_index: NDArray[np.int32],
    occ_blocks: NDArray[np.uint8],
    occ_cells: NDArray[np.int64],
    ax: int,
    ay: int,
    az: int,
    bx: int,
    by: int,
    bz: int,
    out: NDArray[np.int64],
) -> tuple[int, int, int, int, int, bool]:
    """`explain_line_of_sight`'s walk from cell a to cell b (`walk` with `sight`, its rows in
    `out`) and whether an entity of `occ_cells` stands where the line passes, blocking it or
    ignored (P-LOS-3): (code, x, y, z, rows, entities)."""
    ends = np.empty((1, 3), dtype=np.int64)
    ends[0, 0], ends[0, 1], ends[0, 2] = 2 * bx + 1, 2 * by + 1, 2 * bz + 1
    code, x, y, z, n = walk(
        solid,
        occ_index,
        occ_blocks,
        NO_CLEARANCE,
        NO_CELLS,
        2,
        2 * ax + 1,
        2 * ay + 1,
        2 * az + 1,
        ends,
        True,
        False,
        out,
        np.empty(1, dtype=np.int8),
    )
    return code, x, y, z, n, entities_on_line(occ_cells, ax, ay, az, bx, by, bz)


@njit
def entities_on_line(
    occ_cells: NDArray[np.int64], ax: int, ay: int, az: int, bx: int, by: int, bz: int
) -> bool:
    """Whether an entity stands where the line from cell a to cell b passes, blocking it or
    ignored (P-LOS-3): an occupant's cell, neither end's, that the segment between the centres
    touches. Only cells in the box between a and b can."""
    px, py, pz = 2 * ax + 1, 2 * ay + 1, 2 * az + 1
    dx, dy, dz = 2 * (bx - ax), 2 * (by - ay), 2 * (bz - az)
    x0, x1 = min(ax, bx), max(ax, bx)
    y0, y1 = min(ay, by), max(ay, by)
    z0, z1 = min(az, bz), max(az, bz)
    for i in range(occ_cells.shape[0]):
        cx, cy, cz = occ_cells[i, 0], occ_cells[i, 1], occ_cells[i, 2]
        if not (x0 <= cx <= x1 and y0 <= cy <= y1 and z0 <= cz <= z1):
            continue
        if (cx == ax and cy == ay and cz == az) or (cx == bx and cy == by and cz == bz):
            continue
        if segment_contact(2, cx, cy, cz, px, py, pz, dx, dy, dz) != CONTACT_NONE:
            return True
    return False


def visibility_matrix(grid: Grid, occupancy: Occupancy) -> NDArray[np.bool_]:
    """seen[i, j]: occupant i sees occupant j (P-LOS-1..3), occupants in `occupancy` order."""
    # Asked after every command: the grid's tables and the blockers of the occupancy last
    # asked about are taken without a call each (as `_visibility_tables` and
    # `_blockers_by_viewer` would give them).
    last = _last_tables
    tables = last[1] if last is not None and last[0]() is grid else _visibility_tables(grid)
    index = occupancy.index
    if index.shape != tables[0].shape:
        _occupant_cells(grid, occupancy)  # words the error
    seen_last = _last_blockers
    if seen_last is not None and seen_last[0]() is occupancy:
        blocks = seen_last[1]
    else:
        blocks = _blockers_by_viewer(occupancy)
    return visibility_packed_kernel(tables[0], index, blocks, occupancy.cells, tables[1])


_PACK_CACHE: weakref.WeakKeyDictionary[Grid, NDArray[np.uint8]] = weakref.WeakKeyDictionary()


def visibility_tables_pack(grid: Grid) -> NDArray[np.uint8]:
    """The grid's `clearance`, `level_clearance`, `level_rows` and `pair_memo` in one array
    (`visibility_packed_kernel`), made once per grid; the memo is the pack's own."""
    pack = _PACK_CACHE.get(grid)
    if pack is not None:
        return pack
    clear, levels, rows = clearance(grid), level_clearance(grid), level_rows(grid)
    memo_words = MEMO_SLOTS + 1 + MEMO_PLACES
    parts = (clear.nbytes, levels.nbytes, rows.nbytes, 8 * memo_words)
    offsets = []
    at = 8 * PACK_HEAD
    for size in parts:
        offsets.append(at)
        at += (size + 7) // 8 * 8
    pack = np.zeros(at, dtype=np.uint8)
    head = pack[: 8 * PACK_HEAD].view(np.int64)
    head[:15] = [
        *grid.shape,
        offsets[0],
        offsets[1],
        *levels.shape,
        offsets[2],
        *rows.shape,
        offsets[3],
        memo_words,
    ]
    pack[offsets[0] : offsets[0] + parts[0]] = clear.reshape(-1)
    pack[offsets[1] : offsets[1] + parts[1]] = levels.reshape(-1)
    pack[offsets[2] : offsets[2] + parts[2]] = rows.reshape(-1).view(np.uint8)
    _PACK_CACHE[grid] = pack
    return pack


def pair_memo(grid: Grid) -> NDArray[np.int64]:
    """The grid's kept terrain answers between unit cells (`visibility_kernel`'s `memo`)."""
    pack = visibility_tables_pack(grid)
    start = int(pack[: 8 * PACK_HEAD].view(np.int64)[13])
    return pack[start : start + 8 * (MEMO_SLOTS + 1 + MEMO_PLACES)].view(np.int64)


_VisibilityTables = tuple[NDArray[np.uint8], NDArray[np.uint8]]

# What `visibility_kernel` reads of the grid last asked about (a battle asks about one grid,
# after every command): one look-up instead of one per table. A weak reference, as the caches.
_last_tables: tuple[weakref.ref[Grid], _VisibilityTables] | None = None


def _visibility_tables(grid: Grid) -> _VisibilityTables:
    """The grid's sight blockers and `visibility_tables_pack`."""
    global _last_tables
    last = _last_tables
    if last is not None and last[0]() is grid:
        return last[1]
    tables = (grid.sight_block, visibility_tables_pack(grid))
    _last_tables = (weakref.ref(grid), tables)
    return tables


# Who blocks whose sight depends on the occupants but not on their cells, so a move does not
# change it: the last few answers are kept (a battle asks again after every command), the
# latest first, with the occupants asked about and the fields `Occupancy.sight_blockers` reads
# of each. An occupant that is the very one kept (a battle's sheets make theirs once, and a
# move replaces only the mover's) is not read at all; any other is compared field by field.
# Compared rather than hashed: a size's hash is Python code (Enum), its comparison is int's. A
# new tuple replaces the old one whole, for a thread asking at the same time.
_BlockersKey = list[tuple[str, str, Size, bool]]
_blockers_kept: tuple[tuple[tuple[Occupant, ...], _BlockersKey, NDArray[np.uint8]], ...] = ()
_BLOCKERS_KEPT = 8


# And for the occupancy last asked about (it never changes), so that asking again does not
# even build the key.
_last_blockers: tuple[weakref.ref[Occupancy], NDArray[np.uint8]] | None = None


def _blockers_by_viewer(occupancy: Occupancy) -> NDArray[np.uint8]:
    """Row i: `occupancy.sight_blockers` of occupant i."""
    global _last_blockers
    last = _last_blockers
    if last is not None and last[0]() is occupancy:
        return last[1]
    blocks = _blockers_by_key(occupancy)
    _last_blockers = (weakref.ref(occupancy), blocks)
    return blocks


def _blockers_by_key(occupancy: Occupancy) -> NDArray[np.uint8]:
    global _blockers_kept
    occupants = occupancy.occupants
    # Two in one cell (P-MOV-8) share one flag, which depends on where they stand: not cached.
    if not occupancy.shared:
        for at, (kept_occupants, kept_key, kept) in enumerate(_blockers_kept):
            if len(kept_occupants) != len(occupants):
                continue
            others_read = 0
            for o, was, fields in zip(occupants, kept_occupants, kept_key, strict=True):
                if o is not was:
                    if (o.id, o.faction, o.size, o.neutral) != fields:
                        break
                    others_read += 1
            else:
                # Kept with these occupants, first, once more than the last mover was read.
                if others_read > 1 or at:
                    others = _blockers_kept[:at] + _blockers_kept[at + 1 :]
                    _blockers_kept = ((occupants, kept_key, kept), *others)
                return kept
    key = [(o.id, o.faction, o.size, o.neutral) for o in occupants]
    n = len(occupants)
    blocks = np.zeros((n, max(1, n)), dtype=np.uint8)
    for i, viewer in enumerate(occupancy.occupants):
        blocks[i] = occupancy.sight_blockers(viewer)
    blocks.setflags(write=False)
    if not occupancy.shared:
        _blockers_kept = ((occupants, key, blocks), *_blockers_kept[: _BLOCKERS_KEPT - 1])
    return blocks


def cells_in_view(
    grid: Grid, occupancy: Occupancy, viewer: Occupant, max_range: int | None = None
) -> NDArray[np.bool_]:
    """A [w, h, d] mask of the cells `viewer` sees, optionally within Chebyshev `max_range`.

    Obstacle cells seen from outside count as seen: the target's own cell never blocks.
    """
    start = require_in_map(grid.shape, viewer.cell, f"viewer {viewer.id!r} cell")
    if max_range is not None and max_range < 0:
        raise ValueError(f"max_range must be >= 0 cells, got {max_range}")
    _, occ_blocks, occ_cells = _occupancy_arrays(grid, occupancy, viewer)
    reach = max(grid.shape) if max_range is None else max_range
    box_list, box_of = boxes(grid)
    tables = (clearance(grid), level_clearance(grid), box_list, box_of)
    if _view_threads > 1:
        return view_kernel_parallel(
            grid.sight_block, occ_blocks, occ_cells, *tables, *start, reach, 2 * _view_threads
        )
    return view_kernel(grid.sight_block, occ_blocks, occ_cells, *tables, *start, reach)


#: Threads `cells_in_view` spreads over. One: on the 2-core machine the goals were measured on,
#: two threads are faster idle but slower with the other core busy, as it is while the window's
#: loop runs (docs/performance.md).
_view_threads = 1


def set_view_threads(count: int) -> None:
    """Spread `cells_in_view` over `count` threads (1: one thread, the default); numba's
    thread pool caps what runs at once."""
    global _view_threads
    if count < 1:
        raise ValueError(f"thread count must be at least 1, got {count}")
    _view_threads = count


def view_threads() -> int:
    return _view_threads
