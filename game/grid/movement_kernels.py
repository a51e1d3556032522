"""Numba kernels of the movement search: a bucket-queue Dijkstra and the jump flights (P-MOV)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from game.grid.jit import njit
from game.grid.model import (
    OBSTACLE_FULL,
    OBSTACLE_NONE,
    TERRAIN_CLIMBABLE,
    TERRAIN_ROUGH,
    TERRAIN_STAIRS,
    TERRAIN_WATER,
)
from game.grid.occupants import MOVE_BLOCKED, MOVE_PASS_COST, MOVE_PASS_FREE

# What a search explores (chosen by the wrapper from the request and the map).
KIND_GROUND = 0  # gravity: walk/crawl between standable cells, swim, stairs, climb (G-3)
KIND_SURFACE = 1  # microgravity walking between surface cells, 26 directions
KIND_FLY = 2  # thrusters or a push on the air: any cell without an obstacle (P-ZERO-2)
KIND_JUMP = 3  # one jump under gravity (P-JUMP-1)
KIND_LAUNCH = 4  # one microgravity jump in a straight line (P-ZERO-1)

# Movement modes; a budget array is indexed by these ids (-1 = mode not available).
MODE_WALK = 0
MODE_CRAWL = 1
MODE_SWIM = 2
MODE_CLIMB = 3
MODE_JUMP = 4
MODE_THRUSTERS = 5
MODE_AIR = 6  # adrift without thrusters in pressurised space (P-ZERO-2)
MODE_COUNT = 7

# Where a movement may end (besides: not occupied, not the start).
END_HOLD = 0  # standable, or hanging on a climbable cell (G-3b)
END_STAND = 1
END_SURFACE = 2
END_ANY = 3

# Per-cell facts the search reads, packed in one int32 per window cell.
EXTRA_MASK = 3  # the cell's own extra cost: rough +1, water +1, ally or neutral +1 (P-MOV-2/4)
F_BLOCK = 4  # an obstacle of any kind, or an enemy: never entered, blocks a diagonal's corner
F_OCC = 8  # someone other than the mover stands here: never an end cell (P-MOV-4)
F_STAND = 16  # G-3
F_CLIMB = 32  # climbable terrain
F_STAIRS = 64
F_WATER = 128
F_FLOOR = 256  # a floor slab under the cell: blocks crossing between this level and the one below
F_ON_CLIMB = 512  # climbable, or just above a climbable cell (the top of a ladder)
F_SURFACE = 1024  # microgravity: standable, or a face against a full obstacle (magnetic boots)
#: In `static` facts only: a free face against a full obstacle, F_SURFACE in a surface search.
F_FACE = 2048
#: The bit numbers of F_BLOCK and F_FLOOR, to shift a cell's flag into a mask without a branch.
F_BLOCK_BIT = 2
F_FLOOR_BIT = 8
assert F_BLOCK == 1 << F_BLOCK_BIT and F_FLOOR == 1 << F_FLOOR_BIT


def _corner_table() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """P-MOV-3 in 3D: for each of the 27 steps, the other cells of the unit cube it spans."""
    table = np.zeros((27, 6, 3), dtype=np.int64)
    count = np.zeros(27, dtype=np.int64)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dz in (-1, 0, 1):
                d = (dx + 1) * 9 + (dy + 1) * 3 + (dz + 1)
                for a in (0, dx) if dx else (0,):
                    for b in (0, dy) if dy else (0,):
                        for c in (0, dz) if dz else (0,):
                            if (a, b, c) not in ((0, 0, 0), (dx, dy, dz)):
                                table[d, count[d]] = (a, b, c)
                                count[d] += 1
    return table, count


CORNERS, CORNER_COUNT = _corner_table()


@njit
def direction_index(dx: int, dy: int, dz: int) -> int:
    """Row of CORNERS for the step (dx, dy, dz)."""
    return (dx + 1) * 9 + (dy + 1) * 3 + (dz + 1)


@njit
def round_ratio(num: int, den: int) -> int:
    """num / den rounded to the nearest int, halves up: the cells of a straight flight line."""
    return (2 * num + den) // (2 * den)


#: The map arrays a search reads: obstacle, terrain, floor, standable, occupant index, and the
#: mover's code per occupant (Occupancy.move_codes).
GridArrays = tuple[
    NDArray[np.uint8], NDArray[np.uint8], NDArray[np.bool_], NDArray[np.bool_],
    NDArray[np.int32], NDArray[np.uint8],
]  # fmt: skip


@njit
def window_index(wy: int, wz: int, lx: int, ly: int, lz: int) -> int:
    """Flat x-major index of window cell (lx, ly, lz) in a window of wy x wz columns padded by
    one cell on every side: a step from any window cell lands inside the array, so the search
    needs no bounds checks (the padding is blocked and never reached)."""
    return ((lx + 1) * (wy + 2) + ly + 1) * (wz + 2) + lz + 1


@njit
def fill_level(
    info: NDArray[np.int32],
    grid: GridArrays,
    ox: int,
    oy: int,
    oz: int,
    wx: int,
    wy: int,
    wz: int,
    lz: int,
    surfaces: bool,
) -> bool:
    """Write the packed facts (F_* bits and the extra cost) of level lz of the window at
    (ox, oy, oz) of size (wx, wy, wz) into `info`, laid out as `window_index`; F_SURFACE beyond
    standable cells only if `surfaces`. Returns whether any cell there is climbable or stairs."""
    obstacle, terrain, floor, standable, occ_index, codes = grid
    w, h, d = obstacle.shape
    z = oz + lz
    vertical = False
    for lx in range(wx):
        x = ox + lx
        for ly in range(wy):
            y = oy + ly
            facts = 0
            extra = 0
            if obstacle[x, y, z] != OBSTACLE_NONE:
                facts |= F_BLOCK
            who = occ_index[x, y, z]
            if who >= 0:
                code = codes[who]
                if code == MOVE_BLOCKED:  # P-MOV-4: never through enemies
                    facts |= F_BLOCK | F_OCC
                elif code == MOVE_PASS_COST:  # P-MOV-4: through an ally or neutral at +1
                    facts |= F_OCC
                    extra += 1
                elif code == MOVE_PASS_FREE:  # d20 (D-2): through an ally at no extra cost
                    facts |= F_OCC
            ter = terrain[x, y, z]
            if ter & TERRAIN_ROUGH:  # P-MOV-2
                extra += 1
            if ter & TERRAIN_WATER:  # P-MOV-2: entering water is swimming, +1
                extra += 1
                facts |= F_WATER
            if ter & TERRAIN_CLIMBABLE:
                facts |= F_CLIMB | F_ON_CLIMB
            if ter & TERRAIN_STAIRS:
                facts |= F_STAIRS
            if floor[x, y, z]:
                facts |= F_FLOOR
            if standable[x, y, z]:
                facts |= F_STAND | F_SURFACE
            below_free = z > 0 and obstacle[x, y, z - 1] == OBSTACLE_NONE
            if below_free and terrain[x, y, z - 1] & TERRAIN_CLIMBABLE:
                facts |= F_ON_CLIMB
            # Magnetic boots hold on any face of a full obstacle; off-map is open space.
            if (
                surfaces
                and obstacle[x, y, z] == OBSTACLE_NONE
                and (
                    (x > 0 and obstacle[x - 1, y, z] == OBSTACLE_FULL)
                    or (x < w - 1 and obstacle[x + 1, y, z] == OBSTACLE_FULL)
                    or (y > 0 and obstacle[x, y - 1, z] == OBSTACLE_FULL)
                    or (y < h - 1 and obstacle[x, y + 1, z] == OBSTACLE_FULL)
                    or (z > 0 and obstacle[x, y, z - 1] == OBSTACLE_FULL)
                    or (z < d - 1 and obstacle[x, y, z + 1] == OBSTACLE_FULL)
                )
            ):
                facts |= F_SURFACE
            vertical = vertical or bool(ter & (TERRAIN_CLIMBABLE | TERRAIN_STAIRS))
            info[window_index(wy, wz, lx, ly, lz)] = facts | extra
    return vertical


@njit
def cell_facts(grid: GridArrays, x: int, y: int, z: int) -> int:
    """The packed facts of one map cell, surfaces included."""
    info = np.zeros(27, dtype=np.int32)
    fill_level(info, grid, x, y, z, 1, 1, 1, 0, True)
    return int(info[window_index(1, 1, 0, 0, 0)])


@njit
def static_cell(grid: GridArrays, x: int, y: int, z: int) -> int:
    """The facts of map cell (x, y, z) that do not depend on who stands where (`fill_level`
    without occupants), with F_FACE where only a surface search would add F_SURFACE."""
    obstacle, terrain, floor, standable, occ_index, codes = grid
    nobody = (obstacle, terrain, floor, standable, occ_index, np.zeros_like(codes))  # MOVE_FREE
    info = np.zeros(27, dtype=np.int32)
    fill_level(info, nobody, x, y, z, 1, 1, 1, 0, False)
    plain = int(info[window_index(1, 1, 0, 0, 0)])
    fill_level(info, nobody, x, y, z, 1, 1, 1, 0, True)
    if info[window_index(1, 1, 0, 0, 0)] & F_SURFACE and not plain & F_SURFACE:
        plain |= F_FACE
    return plain


@njit
def fill_cached(
    info: NDArray[np.int32],
    grid: GridArrays,
    static: NDArray[np.int32],
    ox: int,
    oy: int,
    oz: int,
    wx: int,
    wy: int,
    wz: int,
    lz: int,
    surfaces: bool,
) -> bool:
    """`fill_level` from the grid's kept `static` facts (map-shaped, -1 where not worked out
    yet, filled here by `static_cell`): only the occupants are read afresh. Working the facts
    out cell by cell was a fifth of a flight's search."""
    occ_index = grid[4]
    codes = grid[5]
    z = oz + lz
    vertical = False
    for lx in range(wx):
        x = ox + lx
        for ly in range(wy):
            y = oy + ly
            facts = static[x, y, z]
            if facts < 0:
                facts = static_cell(grid, x, y, z)
                static[x, y, z] = facts
            if facts & F_FACE:
                facts ^= F_FACE
                if surfaces:
                    facts |= F_SURFACE
            who = occ_index[x, y, z]
            if who >= 0:
                code = codes[who]
                if code == MOVE_BLOCKED:  # P-MOV-4: never through enemies
                    facts |= F_BLOCK | F_OCC
                elif code == MOVE_PASS_COST:  # P-MOV-4: through an ally or neutral at +1
                    facts |= F_OCC
                    facts += 1
                elif code == MOVE_PASS_FREE:  # d20 (D-2): through an ally at no extra cost
                    facts |= F_OCC
            vertical = vertical or bool(facts & (F_CLIMB | F_STAIRS))
            info[window_index(wy, wz, lx, ly, lz)] = facts
    return vertical


@njit
def corner_frame(kind: int, dz: int) -> tuple[int, int]:
    """Where a step's P-MOV-3 corners lie: (level of the corner cube's base above the start's,
    the cube's dz). Stairs cross at the upper level, where the body clears the step, so only
    the horizontal corners there count; flying and microgravity moves use the whole 3D cube."""
    if kind == KIND_GROUND:
        return max(dz, 0), 0
    return 0, dz


@njit
def step_checks(kind: int, sx: int, sy: int) -> NDArray[np.int64]:
    """The cells a step of a `kind` search checks, as flat offsets from its start cell in a
    window of strides sx, sy: per direction (row direction_index), the number f of cells whose
    floor it crosses, the number c of its P-MOV-3 corner cells, then f + c offsets.

    A step changing level in 3D must not cross a floor slab: no cell of the spanned cube at the
    upper level may have one (a floor is the underside of its cell); on the ground the stairs
    and ladders themselves say where a level may change.
    """
    checks = np.zeros((27, 12), dtype=np.int64)
    for dx in range(-1, 2):
        for dy in range(-1, 2):
            for dz in range(-1, 2):
                d = direction_index(dx, dy, dz)
                row = checks[d]
                if kind != KIND_GROUND and dz != 0:
                    for a in range(2 if dx != 0 else 1):
                        for b in range(2 if dy != 0 else 1):
                            row[2 + row[0]] = max(dz, 0) + a * dx * sx + b * dy * sy
                            row[0] += 1
                shift, cdz = corner_frame(kind, dz)
                c = direction_index(dx, dy, cdz)
                row[1] = CORNER_COUNT[c]
                for k in range(CORNER_COUNT[c]):
                    row[2 + row[0] + k] = (
                        shift + CORNERS[c, k, 0] * sx + CORNERS[c, k, 1] * sy + CORNERS[c, k, 2]
                    )
    return checks


@njit
def step_masks(kind: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """`step_checks` as bit masks over the 3x3x3 cube around a step's start (bit
    direction_index(a, b, c) for the cell at offset (a, b, c)): per direction, the cells whose
    floor it crosses and its P-MOV-3 corner cells. With the cube's blocked, floor and extra-cost
    cells gathered once per expanded cell, each of its 26 steps is then checked by two ANDs."""
    floors = np.zeros(27, dtype=np.int64)
    corners = np.zeros(27, dtype=np.int64)
    for dx in range(-1, 2):
        for dy in range(-1, 2):
            for dz in range(-1, 2):
                d = direction_index(dx, dy, dz)
                if kind != KIND_GROUND and dz != 0:
                    for a in range(2 if dx != 0 else 1):
                        for b in range(2 if dy != 0 else 1):
                            floors[d] |= np.int64(1) << direction_index(a * dx, b * dy, max(dz, 0))
                shift, cdz = corner_frame(kind, dz)
                c = direction_index(dx, dy, cdz)
                for k in range(CORNER_COUNT[c]):
                    corners[d] |= np.int64(1) << direction_index(
                        CORNERS[c, k, 0], CORNERS[c, k, 1], shift + CORNERS[c, k, 2]
                    )
    return floors, corners


@njit
def step_corner(info: NDArray[np.int32], checks: NDArray[np.int64], i: int, d: int) -> int:
    """The corner part of a step in direction d from window cell i (`checks` from step_checks):
    -1 if refused (a floor crossed, or a corner obstacle or enemy, P-MOV-3), else the largest
    corner extra (rough, water, ally or neutral each +1 in that cell)."""
    floors = checks[d, 0]
    for k in range(2, 2 + floors):
        if info[i + checks[d, k]] & F_FLOOR:
            return -1
    worst = 0
    for k in range(2 + floors, 2 + floors + checks[d, 1]):
        c = info[i + checks[d, k]]
        if c & F_BLOCK:
            return -1
        worst = max(worst, int(c & EXTRA_MASK))
    return worst


@njit
def step_rule(
    kind: int, base_mode: int, crawling: int, src: int, dest: int, dx: int, dy: int, dz: int
) -> tuple[int, int]:
    """A step between cells with facts src and dest, corners aside: (points, mode), or
    (-1, base_mode) if refused. Points are 1 (diagonals too, P-MOV-3) + the destination's
    extra + 1 when crawling (P-MOV-2); the mode's budget must cover the total (P-MOV-1)."""
    if dest & F_BLOCK:
        return -1, base_mode
    mode = base_mode
    if kind == KIND_GROUND:
        low = src if dz > 0 else dest
        if dz == 0:
            # Onto standable ground, or from standable ground onto a ladder (G-3b): never
            # sideways from one hanging cell to another.
            if not (dest & F_STAND or (src & F_STAND and dest & F_ON_CLIMB)):
                return -1, base_mode
        elif dx == 0 and dy == 0:
            if not low & F_CLIMB:  # G-3b: the lower of the two cells is climbable
                return -1, base_mode
            mode = MODE_CLIMB
        elif not (src & F_STAND and dest & F_STAND and low & F_STAIRS):  # G-3a
            return -1, base_mode
    elif kind == KIND_SURFACE and not dest & F_SURFACE:
        return -1, base_mode
    if dest & F_WATER and kind != KIND_FLY:
        mode = MODE_SWIM  # P-MOV-2
    return 1 + int(dest & EXTRA_MASK) + crawling, mode


@njit
def can_end(cell: int, end_rule: int) -> bool:
    """Whether a reached cell with facts `cell` may be where the movement ends (P-MOV-4)."""
    if cell & F_OCC:
        return False
    if end_rule == END_HOLD:
        return bool(cell & (F_STAND | F_CLIMB))
    if end_rule == END_STAND:
        return bool(cell & F_STAND)
    if end_rule == END_SURFACE:
        return bool(cell & F_SURFACE)
    return True


def _step_table() -> NDArray[np.int64]:
    """The 26 steps (dx, dy, dz) in the order the search tries them: dz, then dx, then dy."""
    steps = [
        (dx, dy, dz)
        for dz in (-1, 0, 1)
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if (dx, dy, dz) != (0, 0, 0)
    ]
    return np.array(steps, dtype=np.int64)


STEPS = _step_table()
FLAT_FIRST = 9  # STEPS[9:17] are the 8 steps with dz = 0
UNREACHED = np.iinfo(np.int32).max  # inside the search: more than any cost


@njit
def open_level(
    info: NDArray[np.int32], dist: NDArray[np.int32], start: int, wx: int, wy: int, wz: int, lz: int
) -> None:
    """Inside the search, cells that can be entered start UNREACHED, and blocked ones (padding
    included) at 0, as if settled: the neighbour scan then skips both kinds with one test."""
    for lx in range(wx):
        for ly in range(wy):
            i = window_index(wy, wz, lx, ly, lz)
            if not info[i] & F_BLOCK and i != start:
                dist[i] = UNREACHED


@njit
def _settle(
    dist: NDArray[np.int32],
    pred: NDArray[np.int32],
    via: NDArray[np.int8],
    head: NDArray[np.int32],
    nxt: NDArray[np.int32],
    prv: NDArray[np.int32],
    i: int,
    j: int,
    total: int,
    mode: int,
) -> None:
    """Inside the search: reach j from i for `total` if that is cheaper than its best so far,
    moving it to the bucket of its new cost."""
    old = dist[j]
    if old <= total:
        return
    if old != UNREACHED:  # a cheaper way: move j to its new bucket
        if prv[j] >= 0:
            nxt[prv[j]] = nxt[j]
        else:
            head[old] = nxt[j]
        if nxt[j] >= 0:
            prv[nxt[j]] = prv[j]
    dist[j] = total
    pred[j] = i
    via[j] = mode
    prv[j] = -1
    nxt[j] = head[total]
    if head[total] >= 0:
        prv[head[total]] = j
    head[total] = j


@njit
def _drops(
    info: NDArray[np.int32],
    levels: NDArray[np.int8],
    grid: GridArrays,
    static: NDArray[np.int32],
    origin: tuple[int, int, int],
    dist: NDArray[np.int32],
    pred: NDArray[np.int32],
    via: NDArray[np.int8],
    head: NDArray[np.int32],
    nxt: NDArray[np.int32],
    prv: NDArray[np.int32],
    offsets: NDArray[np.int64],
    checks: NDArray[np.int64],
    start: int,
    wx: int,
    wy: int,
    wz: int,
    i: int,
    c: int,
    budgets: NDArray[np.int64],
    limit: int,
    drop_limit: int,
) -> None:
    """P-JUMP-3: from standable cell i (reached for c points), step off an edge into a free
    cell beside it that cannot be stood in (P-MOV-3's corners checked at this level) and fall
    down its column to the first standable cell, at most `drop_limit` levels below. A drop is
    a jump down: only its vertical cells cost, in the jump budget (P-MOV-1's switch); it never
    ends on someone (it would land on them) and an obstacle or an enemy in the column stops it."""
    sy = wz + 2
    ox, oy, oz = origin
    for k in range(len(STEPS)):
        dx, dy, dz = STEPS[k, 0], STEPS[k, 1], STEPS[k, 2]
        if dz != 0:
            continue
        q = i + offsets[k]
        if info[q] & (F_BLOCK | F_STAND):
            continue  # a wall, or a plain step: no edge to step off
        if step_corner(info, checks, i, direction_index(dx, dy, 0)) < 0:
            continue
        for depth in range(1, drop_limit + 1):
            total = c + depth
            if total > limit or total > budgets[MODE_JUMP]:
                break
            q -= 1
            pq = q % sy  # the padded level; 0 is the padding under the window
            if levels[pq] < 0:
                levels[pq] = fill_cached(info, grid, static, ox, oy, oz, wx, wy, wz, pq - 1, False)
                open_level(info, dist, start, wx, wy, wz, pq - 1)
            below = info[q]
            if below & F_BLOCK:
                break
            if below & F_STAND:
                if not below & F_OCC:
                    _settle(dist, pred, via, head, nxt, prv, i, q, total, MODE_JUMP)
                break


@njit
def _dijkstra(
    info: NDArray[np.int32],
    levels: NDArray[np.int8],
    grid: GridArrays,
    static: NDArray[np.int32],
    origin: tuple[int, int, int],
    dist: NDArray[np.int32],
    pred: NDArray[np.int32],
    via: NDArray[np.int8],
    start: int,
    wx: int,
    wy: int,
    wz: int,
    kind: int,
    base_mode: int,
    crawling: int,
    spent: int,
    budgets: NDArray[np.int64],
    limit: int,
    one_step: bool,
    drop_limit: int = 0,
) -> None:
    """Least total points to every window cell; steps cost 1..8, so buckets of a doubly linked
    list per cost level replace a heap (Dial's algorithm). Levels of `info` are filled when
    first needed (`levels`, by padded level: -1 not yet, else 1 if it has climbable or stairs
    cells; the padding levels are 0). With `one_step` only the start is expanded: every end is
    one cell away (blinded, P-VUL-3). On the ground, a standable cell may also step off an edge
    and drop to the first standable cell below, at most `drop_limit` levels down (P-JUMP-3)."""
    sy = wz + 2
    sx = (wy + 2) * sy
    offsets = STEPS[:, 0] * sx + STEPS[:, 1] * sy + STEPS[:, 2]
    checks = step_checks(kind, sx, sy)
    # Off the ground every step has corners (3D, P-MOV-3): gather the cube around the expanded
    # cell once as bit masks rather than reading up to ten cells for each of its steps.
    cube_masks = kind != KIND_GROUND
    floor_masks, corner_masks = step_masks(kind)
    cube = np.empty(27, dtype=np.int64)
    for a in range(-1, 2):
        for b in range(-1, 2):
            for e in range(-1, 2):
                cube[direction_index(a, b, e)] = a * sx + b * sy + e
    todo = np.empty(len(STEPS), dtype=np.int64)
    head = np.full(limit + 1, -1, dtype=np.int32)
    nxt = np.empty(dist.size, dtype=np.int32)  # both set when a cell is pushed
    prv = np.empty(dist.size, dtype=np.int32)
    dist[start] = spent
    head[spent] = start
    nxt[start] = -1
    for c in range(spent, limit + 1):
        while head[c] >= 0:
            i = head[c]
            head[c] = nxt[i]
            if nxt[i] >= 0:
                prv[nxt[i]] = -1
            if c == limit or (one_step and i != start):
                continue  # no step costs less than 1: nothing more within the limit
            pz = i % sy  # the padded level: 1..wz
            # A step and its corners touch this level and the ones above and below.
            for pzz in range(pz - 1, pz + 2):
                if levels[pzz] < 0:
                    ox, oy, oz = origin
                    surfaces = kind == KIND_SURFACE
                    levels[pzz] = fill_cached(
                        info, grid, static, ox, oy, oz, wx, wy, wz, pzz - 1, surfaces
                    )
                    open_level(info, dist, start, wx, wy, wz, pzz - 1)
            # Most neighbours are blocked or already as cheap as a step from here could make
            # them: list the others without a branch per neighbour, then try only those.
            # On the ground, a level without stairs or ladders here has only its 8 flat steps
            # (G-3a/G-3b, tested below): the rows of STEPS with dz = 0.
            flat = kind == KIND_GROUND and levels[pz - 1] == 0 and levels[pz] == 0
            first, last = (FLAT_FIRST, FLAT_FIRST + 8) if flat else (0, len(STEPS))
            # One pass, each read counted as it comes (issue 18: gathering the reads into a bit
            # mask first and listing it in a second pass was an eighth slower on this VM).
            near = c + 1
            count = 0
            for k in range(first, last):
                todo[count] = k
                count += dist[i + offsets[k]] > near
            blocked = 0
            floored = 0
            costly = 0
            if cube_masks and count > 0:
                for b in range(27):  # no branches: the bits are random, mispredicted
                    v = info[i + cube[b]]
                    blocked |= ((v >> F_BLOCK_BIT) & 1) << b
                    floored |= ((v >> F_FLOOR_BIT) & 1) << b
                    costly |= int((v & EXTRA_MASK) != 0) << b
            for t in range(count):
                k = todo[t]
                dx, dy, dz = STEPS[k, 0], STEPS[k, 1], STEPS[k, 2]
                # G-3a/G-3b: on the ground, changing level needs stairs or a ladder below.
                if kind == KIND_GROUND and dz != 0 and levels[min(pz, pz + dz)] == 0:
                    continue
                j = i + offsets[k]
                points, mode = step_rule(kind, base_mode, crawling, info[i], info[j], dx, dy, dz)
                if points < 0:
                    continue
                d = direction_index(dx, dy, dz)
                check = True
                if cube_masks:
                    if blocked & corner_masks[d] or floored & floor_masks[d]:
                        continue  # P-MOV-3: a corner obstacle or enemy, or a floor crossed
                    check = costly & corner_masks[d] != 0
                # `step_corner` and `_settle` written out here: every call of a compiled
                # function that passes arrays pays two atomic reference counts per array, and
                # those were half of a search's time.
                corner = 0
                if check:
                    floors = checks[d, 0]
                    for f in range(2, 2 + floors):
                        if info[i + checks[d, f]] & F_FLOOR:
                            corner = -1
                    for f in range(2 + floors, 2 + floors + checks[d, 1]):
                        v = info[i + checks[d, f]]
                        if v & F_BLOCK:
                            corner = -1
                        elif corner >= 0:
                            corner = max(corner, int(v & EXTRA_MASK))
                total = c + points + corner
                if corner < 0 or total > budgets[mode] or total > limit:  # P-MOV-1
                    continue
                old = dist[j]
                if old <= total:
                    continue
                if old != UNREACHED:  # a cheaper way: take j out of its bucket
                    if prv[j] >= 0:
                        nxt[prv[j]] = nxt[j]
                    else:
                        head[old] = nxt[j]
                    if nxt[j] >= 0:
                        prv[nxt[j]] = prv[j]
                dist[j] = total
                pred[j] = i
                via[j] = mode
                prv[j] = -1
                nxt[j] = head[total]
                if head[total] >= 0:
                    prv[head[total]] = j
                head[total] = j
            if drop_limit > 0 and kind == KIND_GROUND and info[i] & F_STAND:
                _drops(
                    info, levels, grid, static, origin, dist, pred, via, head, nxt, prv, offsets,
                    checks, start, wx, wy, wz, i, c, budgets, limit, drop_limit,
                )  # fmt: skip
    for i in range(dist.size):
        if dist[i] == UNREACHED or (info[i] & F_BLOCK and i != start):
            dist[i] = -1


@njit
def static_steps(
    grid: GridArrays,
    static: NDArray[np.int32],
    floor_masks: NDArray[np.int64],
    corner_masks: NDArray[np.int64],
    x: int,
    y: int,
    z: int,
) -> int:
    """The flight steps from map cell (x, y, z) that its cube's obstacles and floors allow
    (P-MOV-3 corners, no floor crossed; `step_masks`), occupants aside: bit direction_index(d)
    per allowed step. Off-map cells count as blocked (no step leaves the map). `static` as in
    `fill_cached`, filled here where needed."""
    w, h, d = static.shape
    blocked = 0
    floored = 0
    for a in range(-1, 2):
        for b in range(-1, 2):
            for e in range(-1, 2):
                bit = direction_index(a, b, e)
                cx = x + a
                cy = y + b
                cz = z + e
                if not (0 <= cx < w and 0 <= cy < h and 0 <= cz < d):
                    blocked |= 1 << bit
                    continue
                facts = static[cx, cy, cz]
                if facts < 0:
                    facts = static_cell(grid, cx, cy, cz)
                    static[cx, cy, cz] = facts
                blocked |= ((facts >> F_BLOCK_BIT) & 1) << bit
                floored |= ((facts >> F_FLOOR_BIT) & 1) << bit
    mask = 0
    for k in range(27):
        if not (blocked & corner_masks[k] or floored & floor_masks[k]):
            mask |= 1 << k
    return mask


@njit
def _flood(
    info: NDArray[np.int32],
    dist: NDArray[np.int32],
    pred: NDArray[np.int32],
    via: NDArray[np.int8],
    grid: GridArrays,
    static: NDArray[np.int32],
    steps: NDArray[np.int32],
    near: NDArray[np.bool_],
    start: int,
    at: int,
    wy: int,
    wz: int,
    base_mode: int,
    step: int,
    spent: int,
    limit: int,
    one_step: bool,
) -> None:
    """`_dijkstra` for a flight (KIND_FLY) whose window has no extra cost anywhere (issue 18):
    every step costs the same `step` points, so a cell's first cost is its least and a
    breadth-first flood, level by level, replaces the buckets. Each level is expanded last
    reached first, the order of Dial's buckets, so previous cells and modes are the same too;
    cells at the limit are never queued (nothing goes on from them). Every level of `info` is
    filled and opened (`open_level`) beforehand.

    Which steps a cell's cube allows is kept per grid (`steps`, flat over the map, -1 not yet
    worked out, `static_steps`; `at` is the start's flat map index); only cells `near` an
    enemy (P-MOV-4: in their cube) gather their cube from `info` afresh."""
    sy = wz + 2
    sx = (wy + 2) * sy
    _w, h, d = static.shape
    offsets = STEPS[:, 0] * sx + STEPS[:, 1] * sy + STEPS[:, 2]
    moves = STEPS[:, 0] * (h * d) + STEPS[:, 1] * d + STEPS[:, 2]
    floor_masks, corner_masks = step_masks(KIND_FLY)
    cube = np.empty(27, dtype=np.int64)
    for a in range(-1, 2):
        for b in range(-1, 2):
            for e in range(-1, 2):
                cube[direction_index(a, b, e)] = a * sx + b * sy + e
    dirs = np.empty(len(STEPS), dtype=np.int64)
    for k in range(len(STEPS)):
        dirs[k] = direction_index(STEPS[k, 0], STEPS[k, 1], STEPS[k, 2])
    todo = np.empty(len(STEPS), dtype=np.int64)
    queue = np.empty(dist.size, dtype=np.int32)
    where = np.empty(dist.size, dtype=np.int32)  # each queued cell's flat map index
    dist[start] = spent
    queue[0] = start
    where[0] = at
    lo = 0
    hi = 1
    end = 1
    c = spent
    while lo < hi and c + step <= limit:
        total = c + step
        queued = total + step <= limit and not one_step
        for q in range(hi - 1, lo - 1, -1):
            i = queue[q]
            count = 0
            for k in range(len(STEPS)):
                todo[count] = k
                count += dist[i + offsets[k]] == UNREACHED
            if count == 0:
                continue
            m = where[q]
            allowed = 0
            if near[i]:
                blocked = 0
                floored = 0
                for b in range(27):  # no branches: the bits are random, mispredicted
                    v = info[i + cube[b]]
                    blocked |= ((v >> F_BLOCK_BIT) & 1) << b
                    floored |= ((v >> F_FLOOR_BIT) & 1) << b
                for b in range(27):
                    if not (blocked & corner_masks[b] or floored & floor_masks[b]):
                        allowed |= 1 << b
            else:
                allowed = steps[m]
                if allowed < 0:
                    x, rest = divmod(m, h * d)
                    y, z = divmod(rest, d)
                    allowed = static_steps(grid, static, floor_masks, corner_masks, x, y, z)
                    steps[m] = allowed
            for t in range(count):
                k = todo[t]
                if not (allowed >> dirs[k]) & 1:
                    continue  # P-MOV-3: a corner obstacle or enemy, or a floor crossed
                j = i + offsets[k]
                if dist[j] != UNREACHED:
                    continue  # reached from here already (several steps, one cell: never)
                dist[j] = total
                pred[j] = i
                via[j] = base_mode
                if queued:
                    queue[end] = j
                    where[end] = m + moves[k]
                    end += 1
        if one_step:
            break
        lo = hi
        hi = end
        c = total
    for i in range(dist.size):
        if dist[i] == UNREACHED or (info[i] & F_BLOCK and i != start):
            dist[i] = -1


@njit
def line_clear(
    info: NDArray[np.int32],
    sx: int,
    sy: int,
    checks: NDArray[np.int64],
    a: int,
    dx: int,
    dy: int,
    dz: int,
    length: int,
) -> bool:
    """A straight flight from window cell a by (dx, dy, dz), `length` = Chebyshev length: every
    cell free of obstacles and enemies, every step passing P-MOV-3's corners and no floor."""
    px = 0
    py = 0
    pz = 0
    for k in range(1, length + 1):
        qx = round_ratio(k * dx, length)
        qy = round_ratio(k * dy, length)
        qz = round_ratio(k * dz, length)
        here = a + px * sx + py * sy + pz
        if info[a + qx * sx + qy * sy + qz] & F_BLOCK:
            return False
        if step_corner(info, checks, here, direction_index(qx - px, qy - py, qz - pz)) < 0:
            return False
        px = qx
        py = qy
        pz = qz
    return True


@njit
def _jump(
    info: NDArray[np.int32],
    dist: NDArray[np.int32],
    pred: NDArray[np.int32],
    start: int,
    lx0: int,
    ly0: int,
    lz0: int,
    wx: int,
    wy: int,
    wz: int,
    spent: int,
    height: int,
    run_up: int,
) -> None:
    """P-JUMP-1: landings of one jump, each at the least apex n (cost n).

    The flight is checked as straight up the start's column to the apex, a straight line at
    apex height, then straight down the landing column to the first standable cell.
    """
    sy = wz + 2
    sx = (wy + 2) * sy
    checks = step_checks(KIND_FLY, sx, sy)
    if not info[start] & F_STAND:
        return
    for n in range(1, height + 1):
        # Above the map's top level there is nothing to hit: a jump on a one-level map can
        # still clear a crate. Inside the map, a ceiling over the start stops this apex and
        # every higher one (the column below was checked by the lower apexes).
        above = lz0 + n >= wz
        if not above and info[start + n] & (F_BLOCK | F_FLOOR):
            return
        top = min(lz0 + n, wz - 1)
        apex = start + n
        reach = n + 2 * run_up
        for tx in range(max(0, lx0 - reach), min(wx, lx0 + reach + 1)):
            for ty in range(max(0, ly0 - reach), min(wy, ly0 + reach + 1)):
                dx = tx - lx0
                dy = ty - ly0
                length = max(abs(dx), abs(dy))
                if length == 0:
                    continue
                if not above and not line_clear(info, sx, sy, checks, apex, dx, dy, 0, length):
                    continue
                q = start + (top - lz0) + dx * sx + dy * sy
                for _ in range(top - lz0 + 1):  # down the landing column to the start's level
                    if info[q] & F_BLOCK:
                        break
                    if info[q] & F_STAND:
                        if not info[q] & F_OCC and dist[q] < 0:
                            dist[q] = spent + n
                            pred[q] = start
                        break
                    q -= 1


@njit
def _launch(
    info: NDArray[np.int32],
    dist: NDArray[np.int32],
    pred: NDArray[np.int32],
    start: int,
    lx0: int,
    ly0: int,
    lz0: int,
    wx: int,
    wy: int,
    wz: int,
    spent: int,
    reach: int,
) -> None:
    """P-ZERO-1: surface cells a straight microgravity jump from a surface reaches this turn,
    1 point a cell of the (already doubled) jump budget."""
    sy = wz + 2
    sx = (wy + 2) * sy
    checks = step_checks(KIND_FLY, sx, sy)
    if not info[start] & F_SURFACE:
        return
    for tx in range(wx):
        for ty in range(wy):
            for tz in range(wz):
                dx = tx - lx0
                dy = ty - ly0
                dz = tz - lz0
                length = max(abs(dx), abs(dy), abs(dz))
                t = start + dx * sx + dy * sy + dz
                if not 0 < length <= reach or not can_end(info[t], END_SURFACE):
                    continue
                if line_clear(info, sx, sy, checks, start, dx, dy, dz, length):
                    dist[t] = spent + length
                    pred[t] = start


#: origin x, y, z; window size x, y, z; facts, points, previous cell, mode of the step in
#: (flat over the window); end rows.
KernelResult = tuple[
    int, int, int, int, int, int,
    NDArray[np.int32], NDArray[np.int32], NDArray[np.int32], NDArray[np.int8], NDArray[np.int32],
]  # fmt: skip


@njit
def movement_kernel(
    obstacle: NDArray[np.uint8],
    terrain: NDArray[np.uint8],
    floor: NDArray[np.bool_],
    standable: NDArray[np.bool_],
    occ_index: NDArray[np.int32],
    codes: NDArray[np.uint8],
    static: NDArray[np.int32],
    steps: NDArray[np.int32],
    x0: int,
    y0: int,
    z0: int,
    kind: int,
    base_mode: int,
    crawling: int,
    spent: int,
    budgets: NDArray[np.int64],
    radius: int,
    run_up: int,
    end_rule: int,
    one_step: bool = False,
    drop_limit: int = 0,
    flood: bool = True,
) -> KernelResult:
    """Search from (x0, y0, z0) in the window of Chebyshev `radius` around it. `static` is the
    grid's kept facts (`fill_cached`), map-shaped, -1 where not yet worked out; `steps` the
    grid's kept flight steps (`static_steps`), flat over the map, -1 where not yet worked out.

    Returns the window's origin and size, padding included (see `window_index`), and per window
    cell (flat, x-major): the packed facts, the least total points (-1 unreached), the previous
    cell (-1 none), the mode of the step into it (-1 none, jumps included); then the end cells
    as rows (x, y, z, points). For KIND_JUMP `radius` is the highest apex allowed and `run_up`
    the run-up; for KIND_LAUNCH `radius` is the reach in cells. For KIND_GROUND `drop_limit`
    is the deepest drop off an edge allowed (P-JUMP-3; 0: none). A flight whose window costs
    no extra anywhere runs `_flood`, the same answer sooner; `flood=False` forbids it (tests).
    """
    grid = (obstacle, terrain, floor, standable, occ_index, codes)
    w, h, d = obstacle.shape
    reach = radius + 2 * run_up if kind == KIND_JUMP else radius
    ox = max(0, x0 - reach)
    oy = max(0, y0 - reach)
    oz = max(0, z0 - reach)
    wx = min(w, x0 + reach + 1) - ox
    wy = min(h, y0 + reach + 1) - oy
    wz = min(d, z0 + reach + 1) - oz
    n = (wx + 2) * (wy + 2) * (wz + 2)
    info = np.full(n, F_BLOCK, dtype=np.int32)
    levels = np.full(wz + 2, -1, dtype=np.int8)
    levels[0] = levels[wz + 1] = 0
    dist = np.full(n, -1, dtype=np.int32)
    pred = np.full(n, -1, dtype=np.int32)
    via = np.full(n, -1, dtype=np.int8)
    lx0 = x0 - ox
    ly0 = y0 - oy
    lz0 = z0 - oz
    start = window_index(wy, wz, lx0, ly0, lz0)
    if kind in (KIND_JUMP, KIND_LAUNCH):
        for lz in range(wz):
            fill_cached(info, grid, static, ox, oy, oz, wx, wy, wz, lz, kind == KIND_LAUNCH)
    if kind == KIND_JUMP:
        _jump(info, dist, pred, start, lx0, ly0, lz0, wx, wy, wz, spent, radius, run_up)
    elif kind == KIND_LAUNCH:
        _launch(info, dist, pred, start, lx0, ly0, lz0, wx, wy, wz, spent, radius)
    else:
        dist[:] = 0  # blocked until its level is filled: never worth a look
        uniform = False
        if kind == KIND_FLY and flood:
            # A flight goes every way: every level of its window is needed, fill them at once
            # and see whether any enterable cell costs extra (issue 18).
            uniform = True
            near = np.zeros(n, dtype=np.bool_)
            for pz in range(1, wz + 1):
                levels[pz] = fill_cached(info, grid, static, ox, oy, oz, wx, wy, wz, pz - 1, False)
                for lx in range(wx):  # `open_level`, and a look at each cell's extra
                    for ly in range(wy):
                        i = window_index(wy, wz, lx, ly, pz - 1)
                        v = info[i]
                        if not v & F_BLOCK:
                            if i != start:
                                dist[i] = UNREACHED
                            if v & EXTRA_MASK:
                                uniform = False
                        elif v & F_OCC:  # an enemy: the cubes around it need a fresh look
                            for a in range(-1, 2):
                                for b in range(-1, 2):
                                    for e in range(-1, 2):
                                        near[i + (a * (wy + 2) + b) * (wz + 2) + e] = True
        if uniform:
            limit = min(spent + radius, budgets[base_mode])  # P-MOV-1
            at = (x0 * h + y0) * d + z0
            _flood(
                info, dist, pred, via, grid, static, steps, near, start, at, wy, wz, base_mode,
                1 + crawling, spent, limit, one_step,
            )  # fmt: skip
        else:
            _dijkstra(
                info, levels, grid, static, (ox, oy, oz), dist, pred, via, start, wx, wy, wz,
                kind, base_mode, crawling, spent, budgets, spent + radius, one_step, drop_limit,
            )  # fmt: skip
    ends = np.empty((n, 4), dtype=np.int32)
    count = 0
    for lx in range(wx):
        for ly in range(wy):
            for lz in range(wz):
                i = window_index(wy, wz, lx, ly, lz)
                if i != start and dist[i] >= 0 and can_end(info[i], end_rule):
                    ends[count, 0] = ox + lx
                    ends[count, 1] = oy + ly
                    ends[count, 2] = oz + lz
                    ends[count, 3] = dist[i]
                    count += 1
    return ox - 1, oy - 1, oz - 1, wx + 2, wy + 2, wz + 2, info, dist, pred, via, ends[:count]
