"""The movement search against a plain Dijkstra (a heap, every step's rule asked one at a time)
on random maps: the bucket queue, the neighbour scan and the 3D corner masks change no cost."""

from __future__ import annotations

import heapq

import numpy as np
import pytest

from game.grid import movement_kernels as mk
from game.grid.jit import py_func
from game.grid.model import Cell, Grid
from game.grid.movement import Kernel, MoveRequest, reachable
from game.grid.occupants import Occupancy, Occupant

KERNELS = pytest.mark.parametrize(
    "kernel", [mk.movement_kernel, py_func(mk.movement_kernel)], ids=["compiled", "python"]
)
SIZE = (9, 9, 4)


def random_battlefield(seed: int, gravity: float) -> tuple[Grid, Occupancy, Occupant]:
    """Obstacles of every kind, floors, rough, water, ladders and stairs, and a mover among an
    ally, a neutral and two enemies, all placed at random (deterministic for a seed)."""
    gen = np.random.default_rng(seed)
    obstacle = gen.choice(4, size=SIZE, p=[0.72, 0.08, 0.14, 0.06]).astype(np.uint8)
    terrain = np.zeros(SIZE, dtype=np.uint8)
    for bit, share in ((1, 0.12), (2, 0.08), (4, 0.08), (8, 0.08)):
        terrain |= np.where(gen.random(SIZE) < share, bit, 0).astype(np.uint8)
    floor = gen.random(SIZE) < 0.25
    grid = Grid.build(obstacle, terrain, floor, gravity=gravity)
    free = [tuple(int(v) for v in c) for c in np.argwhere(obstacle == 0)]
    picks = gen.choice(len(free), size=5, replace=False)
    cells: list[Cell] = [free[int(p)] for p in picks]  # type: ignore[misc]
    mover = Occupant("me", cells[0], "red")
    others = [
        Occupant("ally", cells[1], "red"),
        Occupant("neutral", cells[2], "grey", neutral=True),
        Occupant("foe1", cells[3], "blue"),
        Occupant("foe2", cells[4], "blue"),
    ]
    return grid, Occupancy(grid.shape, [mover, *others]), mover


def plain_dijkstra(
    grid: Grid,
    occupancy: Occupancy,
    mover: Occupant,
    kind: int,
    base_mode: int,
    budgets: dict[int, int],
    end_rule: int,
) -> dict[Cell, int]:
    """Least points to every cell where the move may end, one step rule at a time over the
    whole map (a heap, no window, no bucket, no mask): what the kernel must reproduce."""
    w, h, d = grid.shape
    codes = occupancy.move_codes(mover)
    arrays = (grid.obstacle, grid.terrain, grid.floor, grid.standable, occupancy.index, codes)
    # The map's facts laid out as one window over the whole map (padding blocked, off-map).
    info = np.full((w + 2) * (h + 2) * (d + 2), mk.F_BLOCK, dtype=np.int32)
    for z in range(d):
        mk.fill_level(info, arrays, 0, 0, 0, w, h, d, z, kind == mk.KIND_SURFACE)
    sy = d + 2
    sx = (h + 2) * sy
    checks = mk.step_checks(kind, sx, sy)
    limit = max(budgets.values())
    start = mk.window_index(h, d, *mover.cell)
    best = {start: 0}
    queue = [(0, start)]
    while queue:
        cost, i = heapq.heappop(queue)
        if cost > best[i]:
            continue
        for dx, dy, dz in mk.STEPS.tolist():
            j = i + dx * sx + dy * sy + dz
            points, mode = mk.step_rule(kind, base_mode, 0, int(info[i]), int(info[j]), dx, dy, dz)
            corner = mk.step_corner(info, checks, i, mk.direction_index(dx, dy, dz))
            total = cost + points + corner
            if points < 0 or corner < 0 or total > budgets.get(mode, -1) or total > limit:
                continue
            if total < best.get(j, limit + 1):
                best[j] = total
                heapq.heappush(queue, (total, j))
    ends = {}
    for i, cost in best.items():
        if i != start and mk.can_end(int(info[i]), end_rule):
            x, rest = divmod(i, sx)
            y, z = divmod(rest, sy)
            ends[(x - 1, y - 1, z - 1)] = cost
    return ends


@KERNELS
@pytest.mark.parametrize("seed", range(12))
def test_p_mov_1_to_4_walking_costs_match_a_plain_dijkstra_on_random_maps(
    kernel: Kernel, seed: int
) -> None:
    # Under gravity without a jump budget (no drops): walk, swim in water, climb ladders, take
    # stairs (G-3a/b), rough and water +1 (P-MOV-2), allies and neutrals passed at +1 and
    # enemies never (P-MOV-4), diagonal corners (P-MOV-3), each mode within its budget (P-MOV-1).
    grid, occupancy, mover = random_battlefield(seed, gravity=1.0)
    request = MoveRequest({"walk": 7, "swim": 5, "climb": 4})
    budgets = {mk.MODE_WALK: 7, mk.MODE_SWIM: 5, mk.MODE_CLIMB: 4}
    expected = plain_dijkstra(
        grid, occupancy, mover, mk.KIND_GROUND, mk.MODE_WALK, budgets, mk.END_HOLD
    )
    assert reachable(grid, occupancy, mover, request, kernel=kernel) == expected


@KERNELS
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("gravity", [0.0, 1.0], ids=["zero_g", "one_g"])
def test_p_zero_2_p_mov_3_thruster_costs_match_a_plain_dijkstra_on_random_maps(
    kernel: Kernel, seed: int, gravity: float
) -> None:
    # Thrusters fly the 26 directions; each step passes the other cells of its unit cube
    # (P-MOV-3 in 3D: an obstacle or enemy refuses it, the costliest extra is paid) and crosses
    # no floor slab; at 0 g a flight ends anywhere free, under gravity on standable cells only.
    grid, occupancy, mover = random_battlefield(seed, gravity=gravity)
    request = MoveRequest({"thrusters": 6}, mode="thrusters", has_thrusters=True)
    end = mk.END_ANY if gravity == 0.0 else mk.END_STAND
    expected = plain_dijkstra(
        grid, occupancy, mover, mk.KIND_FLY, mk.MODE_THRUSTERS, {mk.MODE_THRUSTERS: 6}, end
    )
    assert reachable(grid, occupancy, mover, request, kernel=kernel) == expected


def bare_battlefield(seed: int, gravity: float) -> tuple[Grid, Occupancy, Occupant]:
    """`random_battlefield` with no extra cost anywhere (no rough, no water, only enemies
    around the mover): every flight step costs 1, the case the flood of issue 18 takes."""
    grid, occupancy, mover = random_battlefield(seed, gravity)
    bare = Grid.build(grid.obstacle, None, grid.floor, gravity=gravity)
    foes = [Occupant(o.id, o.cell, "blue") for o in occupancy.occupants if o.id != mover.id]
    return bare, Occupancy(bare.shape, [mover, *foes]), mover


@KERNELS
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("gravity", [0.0, 1.0], ids=["zero_g", "one_g"])
@pytest.mark.parametrize("spent", [0, 2])
def test_issue_18_a_flight_at_one_point_a_step_floods_to_the_buckets_very_answer(
    kernel: Kernel, seed: int, gravity: float, spent: int
) -> None:
    # Thrusters in a window without extra costs (P-ZERO-2, P-MOV-3 corners and floors only):
    # the breadth-first flood must give every cell the cost, previous cell and mode the bucket
    # queue gives (flood=False), and the ends a plain Dijkstra finds.
    grid, occupancy, mover = bare_battlefield(seed, gravity)
    arrays = (grid.obstacle, grid.terrain, grid.floor, grid.standable, occupancy.index)
    codes = occupancy.move_codes(mover)
    budgets = np.full(mk.MODE_COUNT, -1, dtype=np.int64)
    budgets[mk.MODE_THRUSTERS] = 6
    end = mk.END_ANY if gravity == 0.0 else mk.END_STAND
    # The grid's kept steps, first worked out by a flight with nobody else about: the
    # enemies of the next search must still refuse the steps past them (P-MOV-3).
    kept_static = np.full(grid.shape, -1, dtype=np.int32)
    kept_steps = np.full(grid.obstacle.size, -1, dtype=np.int32)
    alone = Occupancy(grid.shape, [mover])
    kernel(
        *arrays[:4], alone.index, alone.move_codes(mover), kept_static, kept_steps, *mover.cell,
        mk.KIND_FLY, mk.MODE_THRUSTERS, 0, 0, budgets, 6, 0, end,
    )  # fmt: skip
    answers = []
    for flood, kept in ((True, False), (True, True), (False, False)):
        static = kept_static if kept else np.full(grid.shape, -1, dtype=np.int32)
        steps = kept_steps if kept else np.full(grid.obstacle.size, -1, dtype=np.int32)
        found = kernel(
            *arrays, codes, static, steps, *mover.cell, mk.KIND_FLY, mk.MODE_THRUSTERS, 0, spent,
            budgets, 6 - spent, 0, end, False, 0, flood,
        )  # fmt: skip
        reached = found[7] >= 0
        answers.append([found[7], found[8][reached], found[9][reached], found[10]])
    flooded, kept_flood, bucketed = answers
    for a, b, c in zip(flooded, kept_flood, bucketed, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, c)
    assert len(flooded[3]) > 10  # the maps leave room to fly
    expected = plain_dijkstra(
        grid, occupancy, mover, mk.KIND_FLY, mk.MODE_THRUSTERS, {mk.MODE_THRUSTERS: 6 - spent}, end
    )
    got = {(int(x), int(y), int(z)): int(p) - spent for x, y, z, p in flooded[3]}
    assert got == expected


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("surfaces", [False, True], ids=["plain", "surfaces"])
def test_a_grids_kept_facts_fill_a_window_as_the_cell_by_cell_facts_do(
    seed: int, surfaces: bool
) -> None:
    # The kept per-grid facts (filled lazily, then reused by a second search with other
    # occupants) must give each window cell the very bits fill_level works out from the map:
    # obstacles, enemies and allies (P-MOV-4), rough and water (P-MOV-2), stairs, ladders,
    # floors, standable cells (G-3) and the faces magnetic boots hold (P-ZERO).
    grid, occupancy, mover = random_battlefield(seed, gravity=0.0)
    w, h, d = grid.shape
    static = np.full(grid.shape, -1, dtype=np.int32)
    for occ in (occupancy, Occupancy(grid.shape, [mover])):
        codes = occ.move_codes(mover)
        arrays = (grid.obstacle, grid.terrain, grid.floor, grid.standable, occ.index, codes)
        for lo, size in (((2, 1, 1), (5, 6, 2)), ((0, 0, 0), (w, h, d))):
            n = (size[0] + 2) * (size[1] + 2) * (size[2] + 2)
            expected = np.full(n, mk.F_BLOCK, dtype=np.int32)
            kept = expected.copy()
            for lz in range(size[2]):
                vertical = mk.fill_level(expected, arrays, *lo, *size, lz, surfaces)
                assert mk.fill_cached(kept, arrays, static, *lo, *size, lz, surfaces) == vertical
            assert kept.tolist() == expected.tolist()
    assert (static >= 0).all()
