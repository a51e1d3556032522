"""cover's detailed answer against a plain reading of its kernel (P-COV-1..5, P-ZERO-1).

The hover preview asks for the hidden samples, their reasons, the rulings and the notes on
every new target; `cover` builds them once per hiding cell and keeps the rulings and notes of
each kernel answer. These tests build the same answer sample by sample from `cover_kernel`'s
arrays, as the rules say it, on random maps with every obstacle kind and every status, and
compare them whole, compiled and as pure Python.
"""

from __future__ import annotations

import numpy as np
import pytest

from game.grid.cover import (
    GRADES,
    PERCENT,
    SAMPLE_OFFSETS,
    SAMPLES,
    WHY_ADRIFT,
    WHY_EXPOSURE,
    WHY_HALF_DISTANCE,
    WHY_IN_FLIGHT,
    WHY_LOW_STANCE,
    WHY_SHOCK,
    CoverNote,
    CoverResult,
    HiddenSample,
    cover,
    cover_kernel,
    cover_samples_kernel,
    hiding_kinds,
)
from game.grid.geometry import chebyshev
from game.grid.model import (
    OBSTACLE_FULL,
    OBSTACLE_HALF,
    OBSTACLE_NONE,
    OBSTACLE_THIN,
    Cell,
    Grid,
    Obstacle,
)
from game.rules.notes import Note

both_modes = pytest.mark.usefixtures("kernel_mode")


def _reference(
    grid: Grid, a: Cell, t: Cell, low: bool, shock: bool, flight: bool, adrift: bool
) -> CoverResult:
    """One HiddenSample per hidden sample, each with its own reason (P-COV-2, P-COV-3); the
    rulings and notes from the kernel's reasons (P-COV-4/5, P-ZERO-1)."""
    cells = np.zeros((SAMPLES, 3), dtype=np.int64)
    kinds = np.zeros(SAMPLES, dtype=np.uint8)
    counted = np.zeros(SAMPLES, dtype=np.bool_)
    code, why = cover_kernel(
        grid.obstacle, *a, *t, low, shock, flight, adrift, cells, kinds, counted
    )
    hidden = []
    for s in range(SAMPLES):
        if kinds[s] == OBSTACLE_NONE:
            continue
        cell = (int(cells[s, 0]), int(cells[s, 1]), int(cells[s, 2]))
        kind = Obstacle(int(kinds[s]))
        if kind is Obstacle.FULL:
            reason = Note(CoverNote.FULL)
        elif kind is Obstacle.THIN:
            reason = Note(CoverNote.THIN)
        else:
            # P-COV-3: d(obstacle, target) <= ceil(d(attacker, obstacle) / (1 + N)) - 1
            levels = max(a[2] - t[2], 0)
            near = chebyshev(a, cell)
            reach = -(-near // (1 + levels)) - 1
            values = {
                "distance": chebyshev(cell, t),
                "near": near,
                "levels": levels,
                "reach": reach,
            }
            reason = Note(CoverNote.HALF if counted[s] else CoverNote.HALF_TOO_FAR, values)
        sample = tuple(SAMPLE_OFFSETS[i] / 10 for i in (s // 9, (s // 3) % 3, s % 3))
        hidden.append(HiddenSample(sample, cell, kind.name.lower(), bool(counted[s]), reason))  # type: ignore[arg-type]
    rules = ["P-COV-2"]
    if why & WHY_HALF_DISTANCE:
        rules.append("P-COV-3")
    if why & (WHY_LOW_STANCE | WHY_SHOCK):
        rules.append("P-COV-5")
    if why & WHY_EXPOSURE:
        rules.append("P-COV-4")
    if why & (WHY_IN_FLIGHT | WHY_ADRIFT):
        rules.append("P-ZERO-1")
    rules.append("P-COV-1")
    grade = GRADES[code]
    notes = []
    for bit, note in (
        (WHY_LOW_STANCE, CoverNote.LOW_STANCE),
        (WHY_SHOCK, CoverNote.SHOCK),
        (WHY_IN_FLIGHT, CoverNote.IN_FLIGHT),
        (WHY_ADRIFT, CoverNote.ADRIFT),
    ):
        if why & bit:
            notes.append(Note(note))
    if why & WHY_EXPOSURE and not why & (WHY_IN_FLIGHT | WHY_ADRIFT):
        exposed = grade == "high_exposure"
        notes.append(Note(CoverNote.HIGH_EXPOSURE if exposed else CoverNote.NOT_EXPOSED))
    return CoverResult(grade, PERCENT[grade], tuple(hidden), tuple(rules), tuple(notes))


def _random_cell(gen: np.random.Generator, shape: tuple[int, int, int]) -> Cell:
    x, y, z = gen.integers((0, 0, 0), shape).tolist()
    return x, y, z


@both_modes
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_cover_detail_is_the_kernel_read_sample_by_sample(seed: int, kernel_mode: str) -> None:
    gen = np.random.default_rng(seed)
    shape = (10, 9, 3)
    kinds = np.array([0, OBSTACLE_FULL, OBSTACLE_HALF, OBSTACLE_THIN], dtype=np.uint8)
    grid = Grid.build(kinds[gen.choice(4, size=shape, p=[0.7, 0.1, 0.14, 0.06])])
    pairs = 60 if kernel_mode == "compiled" else 12
    seen_grades: set[str] = set()
    for _ in range(pairs):
        a, t = _random_cell(gen, shape), _random_cell(gen, shape)
        low, shock, flight = (bool(v) for v in gen.integers(0, 2, size=3))
        for adrift in (False, True) if not flight else (False,):
            got = cover(
                grid,
                a,
                t,
                target_low_stance=low,
                target_shock=shock,
                in_flight=flight,
                adrift=adrift,
            )
            assert got == _reference(grid, a, t, low, shock, flight, adrift)
            seen_grades.add(got.grade)
    assert len(seen_grades) >= 3  # the maps give more than one answer


@both_modes
@pytest.mark.parametrize(("seed", "largest"), [(7, 6), (8, 12), (9, 30)])
def test_cover_samples_kernel_answers_as_the_walk_per_sample(
    seed: int, largest: int, kernel_mode: str
) -> None:
    # Every output of cover_kernel (a walk per sample): the grade, the reasons, and per sample
    # the hiding cell (the strongest, the first met between equals), its kind and whether it
    # counts; random maps of every shape and density, every status.
    gen = np.random.default_rng(seed)
    kinds = np.array([0, OBSTACLE_FULL, OBSTACLE_HALF, OBSTACLE_THIN], dtype=np.uint8)
    maps, pairs = (12, 150) if kernel_mode == "compiled" else (3, 25)
    for _ in range(maps):
        x, y, z = gen.integers(2, largest, size=3).tolist()
        shape = (x, y, z)
        density = gen.dirichlet([6.0, 1.0, 1.0, 0.5])
        grid = Grid.build(kinds[gen.choice(4, size=shape, p=density)])
        for _ in range(pairs):
            a, t = _random_cell(gen, shape), _random_cell(gen, shape)
            low, shock, flight, adrift = gen.integers(0, 2, size=4).astype(bool).tolist()
            adrift = adrift and not flight
            w_cells, w_kind = np.zeros((SAMPLES, 3), np.int64), np.zeros(SAMPLES, np.uint8)
            w_counted = np.zeros(SAMPLES, np.bool_)
            c_cells, c_kind = np.ones((SAMPLES, 3), np.int64), np.ones(SAMPLES, np.uint8)
            c_counted = np.ones(SAMPLES, np.bool_)
            args = (grid.obstacle, *a, *t, low, shock, flight, adrift)
            assert cover_samples_kernel(*args, c_cells, c_kind, c_counted) == cover_kernel(
                *args, w_cells, w_kind, w_counted
            )
            hidden = w_kind != OBSTACLE_NONE
            assert (c_kind == w_kind).all()
            assert (c_counted == w_counted).all()
            assert (c_cells[hidden] == w_cells[hidden]).all()


def _hiding_kinds_reference(grid: Grid, a: Cell, t: Cell) -> frozenset[str]:
    """C-3's kinds sample by sample: the strongest full or thin cell of each sample, and a
    half obstacle where, the others taken away, a counting half one hides a sample (P-COV-3)."""
    cells = np.zeros((SAMPLES, 3), dtype=np.int64)
    kinds = np.zeros(SAMPLES, dtype=np.uint8)
    counted = np.zeros(SAMPLES, dtype=np.bool_)
    out: set[str] = set()
    cover_kernel(grid.obstacle, *a, *t, False, False, False, False, cells, kinds, counted)
    out |= {Obstacle(k).name.lower() for k in kinds.tolist() if k in (OBSTACLE_FULL, OBSTACLE_THIN)}
    halves = np.where(grid.obstacle == OBSTACLE_HALF, grid.obstacle, np.uint8(OBSTACLE_NONE))
    cover_kernel(halves, *a, *t, False, False, False, False, cells, kinds, counted)
    if counted.any():
        out.add("half")
    return frozenset(out)


@both_modes
@pytest.mark.parametrize("seed", [5, 6])
def test_hiding_kinds_are_the_kernel_read_sample_by_sample(seed: int, kernel_mode: str) -> None:
    gen = np.random.default_rng(seed)
    shape = (10, 9, 3)
    kinds = np.array([0, OBSTACLE_FULL, OBSTACLE_HALF, OBSTACLE_THIN], dtype=np.uint8)
    grids = [
        Grid.build(kinds[gen.choice(4, size=shape, p=[0.7, 0.1, 0.14, 0.06])]),
        Grid.build(kinds[gen.choice(4, size=shape, p=[0.8, 0.15, 0.0, 0.05])]),  # no halves
    ]
    named: set[str] = set()
    for grid in grids:
        for _ in range(50 if kernel_mode == "compiled" else 10):
            a, t = _random_cell(gen, shape), _random_cell(gen, shape)
            got = hiding_kinds(grid, a, t)
            assert got == _hiding_kinds_reference(grid, a, t)
            named |= got
    assert named == {"full", "half", "thin"}


def test_cover_refuses_off_map_cells_and_flight_with_drift_as_before() -> None:
    grid = Grid.empty(4, 4, 1)
    with pytest.raises(ValueError, match="cover target cell"):
        cover(grid, (0, 0, 0), (4, 0, 0))
    with pytest.raises(ValueError, match="cover attacker cell"):
        cover(grid, (0, -1, 0), (1, 0, 0), detail=False)
    with pytest.raises(ValueError, match="cover target cell"):
        hiding_kinds(grid, (0, 0, 0), (0, 4, 0))
    with pytest.raises(ValueError, match="both in flight and adrift"):
        cover(grid, (0, 0, 0), (1, 0, 0), in_flight=True, adrift=True)
