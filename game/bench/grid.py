"""The grid kernels' speed goals on a fixed, seeded 128x128x8 battlefield with 16 units.

Medians (or the 95th percentile where a goal says so). game/bench/run.py measures them compiled
and, in a child process with NUMBA_DISABLE_JIT=1 running this module, as the reference; the
battle's goals (fog after a move, the computer's turn, replay) are in game/bench/battle.py.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.bench.movement_ref import plain_reachable_rows
from game.grid.cover import cover
from game.grid.geometry import chebyshev
from game.grid.jit import JIT_ENABLED, njit
from game.grid.los import (
    NO_FLAGS,
    NO_INDEX,
    cells_in_view,
    clearance,
    level_clearance,
    level_rows,
    line_of_sight,
    los_pairs_kernel,
    visibility_matrix,
)
from game.grid.model import OBSTACLE_FULL, OBSTACLE_HALF, OBSTACLE_THIN, Cell, Grid
from game.grid.movement import MoveRequest, reachable_rows
from game.grid.occupants import Occupancy, Occupant
from game.rules.hit import hit_chance

SIZE = (128, 128, 8)
#: figures[key + REF_SUFFIX]: the plain numba reference of the same operation, timed with it.
REF_SUFFIX = "@numba"
UNITS = 16
SEED = 20261122


@dataclass(frozen=True)
class Goal:
    key: str
    label: str
    #: None: shown for information, not a goal.
    seconds: float | None
    #: Minimum speed-up over the JIT-disabled reference, where the goal sets one.
    ratio: float | None = None
    #: Which figure the goal is about: "median" or "p95" (95th percentile).
    stat: str = "median"


GOALS = (
    # Issue 18's goals: near what a straightforward numba version of the same operation does
    # (`REFERENCES`, timed interleaved with ours; run.py prints the ratio).
    # A batch of lines in one kernel call (`los_pairs_kernel`), per line.
    Goal("los40", "one line of sight, 40 cells (kernel, batched)", 0.1e-6, 15.0),
    Goal("los40_call", "one line of sight, 40 cells (one Python call)", 1e-6),
    Goal("cover48_call", "cover grade, 48 cells (public call)", 5e-6),
    # After one unit moved (as in a battle: the grid keeps the other pairs' terrain answers).
    Goal("vis16", "unit-to-unit visibility, 16 units, 1 moved", 12e-6),
    Goal("cover_hit48", "cover grade + hit chance, 48 cells", 100e-6),
    # Issue 18's 40 µs (issue 7 asked for 100); its reference is a plain heap Dijkstra of the
    # same flat walk (game/bench/movement_ref.py).
    Goal("reach10", "reachable set, speed 10, walking on 3D map", 40e-6),
    # The same goal for a flight in full 3D: every free cell of a 21x21x8 block is a candidate.
    Goal("reach10_thrusters", "reachable set, speed 10, thrusters at 0 g (3D)", 100e-6),
    Goal("after_move", "after a move: 16x15 visibility + mover's view", 1 / 60),
)


def battlefield(seed: int = SEED) -> tuple[Grid, list[Occupant]]:
    """A station deck: two storeys of rooms (levels 0-2 and 4-6 over a slab at 3), crates and
    pillars, 16 units on standable cells. Deterministic for a seed."""
    gen = np.random.default_rng(seed)
    w, h, _levels = SIZE
    obstacle = np.zeros(SIZE, dtype=np.uint8)
    obstacle[:, :, 3][gen.random((w, h)) < 0.6] = OBSTACLE_FULL  # the upper storey's slab
    for storey in (range(0, 3), range(4, 7)):
        for _ in range(90):  # wall segments with gaps left as doors
            x, y = int(gen.integers(0, w)), int(gen.integers(0, h))
            length = int(gen.integers(4, 14))
            if gen.random() < 0.5:
                obstacle[x : x + length, y, storey.start : storey.stop] = OBSTACLE_FULL
            else:
                obstacle[x, y : y + length, storey.start : storey.stop] = OBSTACLE_FULL
        floor_z = storey.start
        clutter = gen.random((w, h))
        level = obstacle[:, :, floor_z]
        level[(clutter < 0.03) & (level == 0)] = OBSTACLE_HALF
        level[(clutter > 0.995) & (level == 0)] = OBSTACLE_THIN
    grid = Grid.build(obstacle)
    free = np.argwhere(grid.standable)
    picks = gen.choice(len(free), size=UNITS, replace=False)
    occupants = [
        Occupant(f"u{i}", _cell(free[p]), "red" if i % 2 else "blue") for i, p in enumerate(picks)
    ]
    return grid, occupants


# ------------------------------------------------------------ plain numba references
# What a straightforward numba version of each operation costs, for the ratio beside our time:
# a float voxel walk (supercover: on exact ties every cell at the corner is visited) from
# centre to centre that stops at the first blocker, with no grazing rule and no exactness.


@njit
def ref_ray(
    block: NDArray[np.uint8],
    occ_index: NDArray[np.int32],
    flags: NDArray[np.uint8],
    ax: float,
    ay: float,
    az: float,
    bx: float,
    by: float,
    bz: float,
) -> int:
    """The value of the first blocker on the float segment a-b (points in cell units), the
    cells holding a and b excluded; 0 when none. An empty `occ_index`: terrain only."""
    x, y, z = int(np.floor(ax)), int(np.floor(ay)), int(np.floor(az))
    gx, gy, gz = int(np.floor(bx)), int(np.floor(by)), int(np.floor(bz))
    dx, dy, dz = bx - ax, by - ay, bz - az
    sx = 1 if dx > 0 else (-1 if dx < 0 else 0)
    sy = 1 if dy > 0 else (-1 if dy < 0 else 0)
    sz = 1 if dz > 0 else (-1 if dz < 0 else 0)
    # t at the next face on each axis, and t across one cell.
    tx = ((x + (sx > 0) - ax) / dx) if sx != 0 else np.inf
    ty = ((y + (sy > 0) - ay) / dy) if sy != 0 else np.inf
    tz = ((z + (sz > 0) - az) / dz) if sz != 0 else np.inf
    ex = abs(1 / dx) if sx != 0 else np.inf
    ey = abs(1 / dy) if sy != 0 else np.inf
    ez = abs(1 / dz) if sz != 0 else np.inf
    has_occ = occ_index.shape[0] > 0
    while True:
        t = min(tx, ty, tz)
        if t > 1:
            return 0
        hit_x, hit_y, hit_z = tx == t, ty == t, tz == t
        if int(hit_x) + int(hit_y) + int(hit_z) > 1:
            # Supercover: at an edge or corner the side cells count too (they lie between the
            # two ends, so inside the map).
            for i in range(3):
                cx = x + sx if i == 0 and hit_x else x
                cy = y + sy if i == 1 and hit_y else y
                cz = z + sz if i == 2 and hit_z else z
                if (cx == x and cy == y and cz == z) or (cx == gx and cy == gy and cz == gz):
                    continue
                v = int(block[cx, cy, cz])
                if v == 0 and has_occ and occ_index[cx, cy, cz] >= 0:
                    v = OBSTACLE_FULL if flags[occ_index[cx, cy, cz]] != 0 else 0
                if v != 0:
                    return v
        if hit_x:
            x += sx
            tx += ex
        if hit_y:
            y += sy
            ty += ey
        if hit_z:
            z += sz
            tz += ez
        if x == gx and y == gy and z == gz:
            return 0
        v = int(block[x, y, z])
        if v == 0 and has_occ and occ_index[x, y, z] >= 0:
            v = OBSTACLE_FULL if flags[occ_index[x, y, z]] != 0 else 0
        if v != 0:
            return v


@njit
def ref_los(block: NDArray[np.uint8], ax: int, ay: int, az: int, bx: int, by: int, bz: int) -> bool:
    """The reference line of sight between two cell centres, terrain only."""
    return (
        ref_ray(
            block, NO_INDEX, NO_FLAGS, ax + 0.5, ay + 0.5, az + 0.5, bx + 0.5, by + 0.5, bz + 0.5
        )
        == 0
    )


@njit
def ref_los_batch(block: NDArray[np.uint8], pairs: NDArray[np.int64]) -> int:
    seen = 0
    for i in range(pairs.shape[0]):
        p = pairs[i]
        if ref_los(block, p[0], p[1], p[2], p[3], p[4], p[5]):
            seen += 1
    return seen


@njit
def ref_cover(
    obstacle: NDArray[np.uint8], ax: int, ay: int, az: int, tx: int, ty: int, tz: int
) -> int:
    """27 reference rays from the attacker's centre to the target's samples (0.1, 0.5, 0.9),
    each stopping at its first obstacle: 2 if a full one hides a sample, else 1 if any does."""
    best = 0
    fractions = (0.1, 0.5, 0.9)
    for s in range(27):
        v = ref_ray(
            obstacle,
            NO_INDEX,
            NO_FLAGS,
            ax + 0.5,
            ay + 0.5,
            az + 0.5,
            tx + fractions[s // 9],
            ty + fractions[(s // 3) % 3],
            tz + fractions[s % 3],
        )
        if v == OBSTACLE_FULL:
            return 2
        if v != 0:
            best = 1
    return best


@njit
def ref_visibility(
    block: NDArray[np.uint8],
    occ_index: NDArray[np.int32],
    flags: NDArray[np.uint8],
    cells: NDArray[np.int64],
) -> NDArray[np.bool_]:
    """All ordered pairs of units, each with its viewer's blocker flags (row of `flags`)."""
    n = cells.shape[0]
    seen = np.ones((n, n), dtype=np.bool_)
    for i in range(n):
        for j in range(n):
            if i != j:
                seen[i, j] = (
                    ref_ray(
                        block,
                        occ_index,
                        flags[i],
                        cells[i, 0] + 0.5,
                        cells[i, 1] + 0.5,
                        cells[i, 2] + 0.5,
                        cells[j, 0] + 0.5,
                        cells[j, 1] + 0.5,
                        cells[j, 2] + 0.5,
                    )
                    == 0
                )
    return seen


def _paired(
    ours: Callable[[], object], ref: Callable[[], object], repeats: int, inner: int = 1
) -> tuple[float, float]:
    """Median seconds per call of `ours` and of `ref`, timed alternately in one run so that the
    machine's load weighs on both alike."""
    ours()
    ref()
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(repeats):
        for fn, samples in ((ours, mine), (ref, theirs)):
            start = time.perf_counter()
            for _ in range(inner):
                fn()
            samples.append((time.perf_counter() - start) / inner)
    return statistics.median(mine), statistics.median(theirs)


def _cell(row: NDArray[np.int64]) -> Cell:
    return int(row[0]), int(row[1]), int(row[2])


def _pairs_at(
    grid: Grid, distance: int, count: int, seed: int, same_level: bool
) -> NDArray[np.int64]:
    gen = np.random.default_rng(seed)
    w, h, d = grid.shape
    rows: list[list[int]] = []
    while len(rows) < count:
        a = (
            int(gen.integers(0, w)),
            int(gen.integers(0, h)),
            0 if same_level else int(gen.integers(0, d)),
        )
        dx, dy = int(gen.integers(-distance, distance + 1)), distance * int(gen.choice([-1, 1]))
        if gen.random() < 0.5:
            dx, dy = dy, dx
        b = (a[0] + dx, a[1] + dy, a[2] if same_level else int(gen.integers(0, d)))
        if grid.in_bounds(b) and chebyshev(a, b) == distance:
            rows.append([*a, *b])
    return np.array(rows, dtype=np.int64)


def _median(fn: Callable[[], object], repeats: int, inner: int = 1) -> float:
    """Median seconds per call of `fn`, timing `inner` calls at a time."""
    fn()  # warm-up: compile, fill caches
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - start) / inner)
    return statistics.median(samples)


def measure(quick: bool = False) -> dict[str, float]:
    """Median seconds per operation for every goal, in this process's JIT mode."""
    reference = not JIT_ENABLED
    scale = 1 if reference or quick else 5
    grid, occupants = battlefield()
    occupancy = Occupancy(grid.shape, occupants)
    pairs = _pairs_at(grid, 40, 200, SEED, same_level=True)
    figures: dict[str, float] = {}

    batch = pairs if not reference else pairs[:20]
    ends = [(_cell(p[:3]), _cell(p[3:])) for p in pairs[:20]]
    candidates = _pairs_at(grid, 48, 400, SEED + 1, same_level=False)
    shots = [(_cell(p[:3]), _cell(p[3:])) for p in candidates]
    shots = [(a, b) for a, b in shots if line_of_sight(grid, a, b)][:10]
    flags = np.stack([occupancy.sight_blockers(o) for o in occupants])

    tables = (clearance(grid), level_clearance(grid))

    rows = level_rows(grid)

    def los_batch() -> None:
        los_pairs_kernel(grid.sight_block, *tables, batch, rows)

    def los_calls() -> None:
        for a, b in ends:
            line_of_sight(grid, a, b)

    def cover_calls() -> None:
        for a, b in shots:
            cover(grid, a, b, detail=False)

    # As in a battle, one unit has moved since the last time (to a cell not stood on before):
    # the terrain answers the grid keeps for the other pairs serve, the mover's are walked.
    moves = _moved(grid, occupancy, 400)
    turn = [0, 0]

    def visibility() -> None:
        turn[0] += 1
        visibility_matrix(grid, moves[turn[0] % len(moves)])

    def ref_visibility_moved() -> None:
        turn[1] += 1
        moved = moves[turn[1] % len(moves)]
        ref_visibility(grid.sight_block, moved.index, flags, moved.cells)

    def ref_calls() -> None:
        for a, b in ends:
            ref_los(grid.sight_block, *a, *b)

    def ref_covers() -> None:
        for a, b in shots:
            ref_cover(grid.obstacle, *a, *b)

    timed: tuple[tuple[str, Callable[[], object], Callable[[], object], int, int], ...] = (
        ("los40", los_batch, lambda: ref_los_batch(grid.sight_block, batch), 5, len(batch)),
        ("los40_call", los_calls, ref_calls, 5, len(ends)),
        ("cover48_call", cover_calls, ref_covers, 5, max(1, len(shots))),
        ("vis16", visibility, ref_visibility_moved, 20, 1),
    )
    for key, ours, ref, repeats, per in timed:
        if reference:  # the references are numba code: nothing to compare without the JIT
            figures[key] = _median(ours, repeats * scale) / per
        else:
            mine, theirs = _paired(ours, ref, repeats * scale * (4 if quick else 1))
            figures[key], figures[key + REF_SUFFIX] = mine / per, theirs / per

    def cover_and_hit() -> None:
        for a, b in shots:
            grade = cover(grid, a, b, detail=False).grade
            hit_chance(70, 3, 1, 10, grade, "perforante", 48)

    figures["cover_hit48"] = _median(cover_and_hit, 5 * scale) / max(1, len(shots))

    mover = occupants[0]
    request = MoveRequest(budgets={"walk": 10, "swim": 10, "climb": 10})

    def walk() -> None:
        reachable_rows(grid, occupancy, mover, request)

    if reference:
        figures["reach10"] = _median(walk, 10 * scale, inner=10)
    else:
        figures["reach10"], figures["reach10" + REF_SUFFIX] = _paired(
            walk, lambda: plain_reachable_rows(grid, occupancy, mover, 10), 10 * scale, inner=10
        )

    weightless = Grid.build(grid.obstacle, grid.terrain, grid.floor, gravity=0.0)
    flight = MoveRequest(budgets={"thrusters": 10}, mode="thrusters", has_thrusters=True)
    figures["reach10_thrusters"] = _median(
        lambda: reachable_rows(weightless, occupancy, mover, flight), 5 * scale
    )

    def after_move() -> None:
        moved = Occupant(mover.id, _step_to_free(grid, occupancy, mover.cell), mover.faction)
        after = Occupancy(grid.shape, [moved, *occupants[1:]])
        visibility_matrix(grid, after)
        cells_in_view(grid, after, moved)

    figures["after_move"] = _median(after_move, 3 * scale)
    return figures


def _moved(grid: Grid, occupancy: Occupancy, count: int) -> list[Occupancy]:
    """`count` occupancies, each with the first unit moved to another free standable cell."""
    gen = np.random.default_rng(SEED + 2)
    units = list(occupancy.occupants)
    taken = {u.cell for u in units}
    free = [c for c in map(_cell, np.argwhere(grid.standable)) if c not in taken]
    first = units[0]
    return [
        Occupancy(grid.shape, [Occupant(first.id, free[int(i)], first.faction), *units[1:]])
        for i in gen.choice(len(free), size=count, replace=False)
    ]


def _step_to_free(grid: Grid, occupancy: Occupancy, cell: Cell) -> Cell:
    x, y, z = cell
    for dx in (1, -1, 0):
        for dy in (1, -1, 0):
            c = (x + dx, y + dy, z)
            if (dx or dy) and grid.in_bounds(c) and grid.standable[c] and occupancy.at(c) is None:
                return c
    return cell


if __name__ == "__main__":
    # The reference run: game/bench/run.py starts this with NUMBA_DISABLE_JIT=1.
    json.dump(measure(quick=True), sys.stdout)
