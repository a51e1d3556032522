"""A plain numba Dijkstra for the reachable-set row of `tessera bench`: what straightforward
compiled code does on the same walk, as a yardstick for the real search's speed.

It walks one level only (the 8 flat steps between standable cells, P-MOV-3's two corners of a
diagonal, rough, water and passed allies +1, enemies and obstacles blocking), with a binary heap
and no window, no buckets and no stairs, ladders, drops or modes: less than the game's search
decides, so its answers agree with `reachable` only on a flat walk without those.
"""

from __future__ import annotations

import heapq

import numpy as np
from numpy.typing import NDArray

from game.grid.jit import njit
from game.grid.model import OBSTACLE_NONE, TERRAIN_ROUGH, TERRAIN_WATER, Grid
from game.grid.occupants import MOVE_BLOCKED, MOVE_PASS_COST, Occupancy, Occupant


@njit
def plain_walk(
    obstacle: NDArray[np.uint8],
    terrain: NDArray[np.uint8],
    standable: NDArray[np.bool_],
    occ_index: NDArray[np.int32],
    codes: NDArray[np.uint8],
    x0: int,
    y0: int,
    z: int,
    budget: int,
) -> NDArray[np.int32]:
    """Rows (x, y, z, points) of the free standable cells of level z within `budget` points."""
    w, h, _ = obstacle.shape
    r = budget
    ox, oy = max(0, x0 - r), max(0, y0 - r)
    wx, wy = min(w, x0 + r + 1) - ox, min(h, y0 + r + 1) - oy
    cost = np.full((wx, wy), -1, dtype=np.int32)  # -1 blocked, else extra cost of entering
    taken = np.zeros((wx, wy), dtype=np.bool_)  # someone else there: passed, never an end
    wall = np.zeros((wx, wy), dtype=np.bool_)  # an obstacle or an enemy: refuses a corner
    for lx in range(wx):
        for ly in range(wy):
            x, y = ox + lx, oy + ly
            wall[lx, ly] = obstacle[x, y, z] != OBSTACLE_NONE
            if wall[lx, ly] or not standable[x, y, z]:
                continue
            extra = 0
            who = occ_index[x, y, z]
            if who >= 0:
                taken[lx, ly] = True
                if codes[who] == MOVE_BLOCKED:
                    wall[lx, ly] = True
                    continue
                if codes[who] == MOVE_PASS_COST:
                    extra += 1
            if terrain[x, y, z] & TERRAIN_ROUGH:
                extra += 1
            if terrain[x, y, z] & TERRAIN_WATER:
                extra += 1
            cost[lx, ly] = extra
    best = np.full((wx, wy), budget + 1, dtype=np.int32)
    best[x0 - ox, y0 - oy] = 0
    heap = [(0, x0 - ox, y0 - oy)]
    while heap:
        c, lx, ly = heapq.heappop(heap)
        if c > best[lx, ly]:
            continue
        for dx in range(-1, 2):
            for dy in range(-1, 2):
                tx, ty = lx + dx, ly + dy
                if (dx == 0 and dy == 0) or not (0 <= tx < wx and 0 <= ty < wy):
                    continue
                if cost[tx, ty] < 0:
                    continue
                corner = 0
                if dx != 0 and dy != 0:  # P-MOV-3: the two corner cells, the costlier counts
                    if wall[tx, ly] or wall[lx, ty]:
                        continue
                    corner = max(max(cost[tx, ly], 0), max(cost[lx, ty], 0))
                total = c + 1 + cost[tx, ty] + corner
                if total < best[tx, ty]:
                    best[tx, ty] = total
                    heapq.heappush(heap, (total, tx, ty))
    rows = np.empty((wx * wy, 4), dtype=np.int32)
    n = 0
    for lx in range(wx):
        for ly in range(wy):
            if best[lx, ly] <= budget and not taken[lx, ly]:
                rows[n, 0], rows[n, 1], rows[n, 2], rows[n, 3] = ox + lx, oy + ly, z, best[lx, ly]
                n += 1
    return rows[:n]


def plain_reachable_rows(
    grid: Grid, occupancy: Occupancy, mover: Occupant, budget: int
) -> NDArray[np.int32]:
    """`plain_walk` from the mover's cell, with its P-MOV-4 codes for the others."""
    x, y, z = mover.cell
    codes = occupancy.move_codes(mover)
    return plain_walk(
        grid.obstacle, grid.terrain, grid.standable, occupancy.index, codes, x, y, z, budget
    )
