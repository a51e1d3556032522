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

from game.grid.cover import cover
from game.grid.geometry import chebyshev
from game.grid.jit import JIT_ENABLED, njit
from game.grid.los import cells_in_view, line_of_sight, los_kernel, visibility_matrix
from game.grid.model import OBSTACLE_FULL, OBSTACLE_HALF, OBSTACLE_THIN, Cell, Grid
from game.grid.movement import MoveRequest, reachable_rows
from game.grid.occupants import Occupancy, Occupant
from game.rules.hit import hit_chance

SIZE = (128, 128, 8)
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
    Goal("los40", "one line of sight, 40 cells (kernel, batched)", 2e-6, 15.0),
    # The same line through the Python wrapper: numba's dispatch of three arrays dominates.
    Goal("los40_call", "one line of sight, 40 cells (one Python call)", None),
    Goal("cover_hit48", "cover grade + hit chance, 48 cells", 100e-6),
    Goal("reach10", "reachable set, speed 10, walking on 3D map", 100e-6),
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


def _cell(row: NDArray[np.int64]) -> Cell:
    return int(row[0]), int(row[1]), int(row[2])


@njit
def _los_batch(
    sight_block: NDArray[np.uint8],
    occ_index: NDArray[np.int32],
    occ_blocks: NDArray[np.uint8],
    pairs: NDArray[np.int64],
) -> int:
    seen = 0
    for i in range(pairs.shape[0]):
        p = pairs[i]
        if los_kernel(sight_block, occ_index, occ_blocks, p[0], p[1], p[2], p[3], p[4], p[5]):
            seen += 1
    return seen


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
    no_one = np.zeros(1, dtype=np.uint8)
    pairs = _pairs_at(grid, 40, 200, SEED, same_level=True)
    figures: dict[str, float] = {}

    batch = pairs if not reference else pairs[:20]
    figures["los40"] = _median(
        lambda: _los_batch(grid.sight_block, occupancy.index, no_one, batch), 5 * scale
    ) / len(batch)

    ends = [(_cell(p[:3]), _cell(p[3:])) for p in pairs[:20]]

    def los_calls() -> None:
        for a, b in ends:
            line_of_sight(grid, a, b)

    figures["los40_call"] = _median(los_calls, 5 * scale) / len(ends)

    candidates = _pairs_at(grid, 48, 400, SEED + 1, same_level=False)
    shots = [(_cell(p[:3]), _cell(p[3:])) for p in candidates]
    shots = [(a, b) for a, b in shots if line_of_sight(grid, a, b)][:10]

    def cover_and_hit() -> None:
        for a, b in shots:
            grade = cover(grid, a, b).grade
            hit_chance(70, 3, 1, 10, grade, "perforante", 48)

    figures["cover_hit48"] = _median(cover_and_hit, 5 * scale) / max(1, len(shots))

    mover = occupants[0]
    request = MoveRequest(budgets={"walk": 10, "swim": 10, "climb": 10})
    figures["reach10"] = _median(
        lambda: reachable_rows(grid, occupancy, mover, request), 10 * scale, inner=10
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
