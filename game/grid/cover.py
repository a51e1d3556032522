"""Cover of a target cell from an attacker's centre, sampled at 27 points (P-COV-1..5, P-ZERO-1).

Cover does not check line of sight: the caller asks `line_of_sight` first, and a target out of
sight has no cover answer at all (P-COV-2 speaks of cover "while line of sight is clear").

Coordinates are x10 so that every sample is an integer: the attacker's centre is 10a + 5 and
the target's samples lie at 10t + 1, 10t + 5, 10t + 9 on each axis (fractions 0.1, 0.5, 0.9).
A sample is hidden by an obstacle cell, other than the attacker's and the target's own, whose
interior the segment to it enters; touching an edge hides nothing. Entities never give cover.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from game.grid.geometry import chebyshev, chebyshev3, in_map, require_in_map
from game.grid.jit import njit
from game.grid.los import (
    CONTACT_INTERIOR,
    NO_CELLS,
    NO_CLEARANCE,
    NO_FLAGS,
    NO_INDEX,
    segment_contact,
    walk,
    walk_rows,
)
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

GRADE_NONE = 0
GRADE_LIGHT = 1
GRADE_HEAVY = 2
GRADE_HIGH_EXPOSURE = 3

#: P-COV-1: grade name and Cover% per grade code.
GRADES = ("none", "light", "heavy", "high_exposure")
PERCENT = {"heavy": 50, "light": 25, "none": 0, "high_exposure": -15}

# Bits of the kernel's "why" answer.
WHY_HALF_DISTANCE = 1  # a half obstacle was judged by distance (P-COV-3)
WHY_LOW_STANCE = 2  # crouched or prone turned half-obstacle cover heavy (P-COV-5)
WHY_SHOCK = 4  # shock took the cover away (P-COV-5)
WHY_EXPOSURE = 8  # no cover, so the surroundings were checked (P-COV-4)
WHY_IN_FLIGHT = 16  # mid-flight: no cover, not exposed (P-ZERO-1)
WHY_ADRIFT = 32  # stationary in the void: highly exposed (P-ZERO-1)

#: Sample offsets inside a cell, x10 (fractions 0.1, 0.5, 0.9); sample s = 9 ix + 3 iy + iz.
SAMPLE_OFFSETS = (1, 5, 9)
SAMPLES = 27

# A sample's strongest hiding cell wins: full, then thin, then a half that counts, then one
# that does not (kept so the UI can say why it did not count).
_RANK_HALF_IGNORED = 1
_RANK_HALF = 2
_RANK_THIN = 3
_RANK_FULL = 4


@njit
def half_counts(
    ax: int, ay: int, az: int, ox: int, oy: int, oz: int, tx: int, ty: int, tz: int
) -> bool:
    """P-COV-3: d(obstacle, target) <= ceil(d(attacker, obstacle) / (1 + N)) - 1."""
    levels = max(az - tz, 0)
    reach = (chebyshev3(ax, ay, az, ox, oy, oz) + levels) // (1 + levels) - 1
    return chebyshev3(ox, oy, oz, tx, ty, tz) <= reach


@njit
def open_around(obstacle: NDArray[np.uint8], tx: int, ty: int, tz: int) -> bool:
    """P-COV-4: no obstacle in the 8 cells around the target at its level (off-map is empty)."""
    w, h, _ = obstacle.shape
    for x in range(max(tx - 1, 0), min(tx + 2, w)):
        for y in range(max(ty - 1, 0), min(ty + 2, h)):
            if (x != tx or y != ty) and obstacle[x, y, tz] != OBSTACLE_NONE:
                return False
    return True


@njit
def cover_grade_kernel(
    obstacle: NDArray[np.uint8],
    ax: int,
    ay: int,
    az: int,
    tx: int,
    ty: int,
    tz: int,
    low_stance: bool,
    shock: bool,
    in_flight: bool,
    adrift: bool,
) -> int:
    """`cover_kernel`'s grade code alone, stopping as soon as it is decided.

    Flight, drift and shock decide without a walk (P-ZERO-1, P-COV-5). Otherwise the 27 sample
    segments are not walked one by one: they all lie in the cone from the attacker's centre to
    the target cell, so one pass over the cells of that cone (each slab's range of it, widened
    against rounding) finds every obstacle any of them can meet, and only those get
    the exact test against each sample. The first full obstacle entered, or a half one that
    counts for a low stance, makes the cover heavy at once (P-COV-2, P-COV-3, P-COV-5).
    """
    if in_flight:  # P-ZERO-1
        return GRADE_NONE
    if adrift:  # P-ZERO-1
        return GRADE_HIGH_EXPOSURE
    if not shock and chebyshev3(ax, ay, az, tx, ty, tz) > 0:  # P-COV-5: shock, no cover
        has_cover = False
        sizes = obstacle.shape
        p = (10 * ax + 5, 10 * ay + 5, 10 * az + 5)
        a_cell = (ax, ay, az)
        t_cell = (tx, ty, tz)
        m = 0
        for i in (1, 2):
            if abs(t_cell[i] - a_cell[i]) > abs(t_cell[m] - a_cell[m]):
                m = i
        o1, o2 = (m + 1) % 3, (m + 2) % 3
        # Every sample is ahead of P along m by between |10 dm| - 4 and |10 dm| + 4, so the
        # slope of each minor coordinate against m is extreme at a corner sample (1 or 9).
        lo_s1, hi_s1, lo_s2, hi_s2 = np.inf, -np.inf, np.inf, -np.inf
        for cm in (1, 9):
            run = 10 * t_cell[m] + cm - p[m]
            for c in (1, 9):
                s1 = (10 * t_cell[o1] + c - p[o1]) / run
                s2 = (10 * t_cell[o2] + c - p[o2]) / run
                lo_s1, hi_s1 = min(lo_s1, s1), max(hi_s1, s1)
                lo_s2, hi_s2 = min(lo_s2, s2), max(hi_s2, s2)
        step = 1 if t_cell[m] > a_cell[m] else -1
        cell = [0, 0, 0]
        for cm in range(a_cell[m], t_cell[m] + step, step):
            # The run along m over this slab, from P (0 at the attacker's own slab).
            e0, e1 = 10 * cm - p[m], 10 * cm + 10 - p[m]
            if cm == a_cell[m]:
                e0, e1 = (0, e1) if step > 0 else (e0, 0)
            lo1 = min(e0 * lo_s1, e0 * hi_s1, e1 * lo_s1, e1 * hi_s1) + p[o1]
            hi1 = max(e0 * lo_s1, e0 * hi_s1, e1 * lo_s1, e1 * hi_s1) + p[o1]
            lo2 = min(e0 * lo_s2, e0 * hi_s2, e1 * lo_s2, e1 * hi_s2) + p[o2]
            hi2 = max(e0 * lo_s2, e0 * hi_s2, e1 * lo_s2, e1 * hi_s2) + p[o2]
            # Cells whose interior the range can enter, widened by far more than rounding.
            first1 = max(int(np.floor((lo1 - 1e-6) / 10)), 0)
            last1 = min(int(np.floor((hi1 + 1e-6) / 10)), sizes[o1] - 1)
            first2 = max(int(np.floor((lo2 - 1e-6) / 10)), 0)
            last2 = min(int(np.floor((hi2 + 1e-6) / 10)), sizes[o2] - 1)
            cell[m] = cm
            for c1 in range(first1, last1 + 1):
                cell[o1] = c1
                for c2 in range(first2, last2 + 1):
                    cell[o2] = c2
                    x, y, z = cell[0], cell[1], cell[2]
                    kind = obstacle[x, y, z]
                    if kind == OBSTACLE_NONE:
                        continue
                    if (x == ax and y == ay and z == az) or (x == tx and y == ty and z == tz):
                        continue  # own cells never hide (P-COV-2)
                    if kind == OBSTACLE_FULL:
                        counts = True
                    elif kind == OBSTACLE_THIN:
                        counts = not has_cover
                    else:
                        counts = (low_stance or not has_cover) and half_counts(
                            ax, ay, az, x, y, z, tx, ty, tz
                        )  # P-COV-3
                    if not counts:
                        continue  # decides nothing the grade does not know already
                    for s in range(SAMPLES):
                        qx = 10 * tx + SAMPLE_OFFSETS[s // 9]
                        qy = 10 * ty + SAMPLE_OFFSETS[(s // 3) % 3]
                        qz = 10 * tz + SAMPLE_OFFSETS[s % 3]
                        if (
                            segment_contact(
                                10, x, y, z, p[0], p[1], p[2], qx - p[0], qy - p[1], qz - p[2]
                            )
                            == CONTACT_INTERIOR
                        ):
                            if kind == OBSTACLE_FULL or (low_stance and kind != OBSTACLE_THIN):
                                return GRADE_HEAVY  # P-COV-2, P-COV-5
                            has_cover = True
                            break
        if has_cover:
            return GRADE_LIGHT
    if open_around(obstacle, tx, ty, tz):  # P-COV-4
        return GRADE_HIGH_EXPOSURE
    return GRADE_NONE


@njit
def cover_kernel(
    obstacle: NDArray[np.uint8],
    ax: int,
    ay: int,
    az: int,
    tx: int,
    ty: int,
    tz: int,
    low_stance: bool,
    shock: bool,
    in_flight: bool,
    adrift: bool,
    hid_cells: NDArray[np.int64],
    hid_kind: NDArray[np.uint8],
    hid_counted: NDArray[np.bool_],
) -> tuple[int, int]:
    """P-COV-2..5, P-ZERO-1: (grade code, WHY_* bits).

    Per sample s, `hid_kind[s]` is the obstacle code of the cell that hides it (OBSTACLE_NONE if
    visible), `hid_cells[s]` that cell, `hid_counted[s]` whether it gives cover by P-COV-2/3.
    """
    why = 0
    has_full = False
    has_thin = False
    has_half = False
    px, py, pz = 10 * ax + 5, 10 * ay + 5, 10 * az + 5
    out = np.empty((walk_rows(chebyshev3(ax, ay, az, tx, ty, tz)), 4), dtype=np.int64)
    sample = np.empty((1, 3), dtype=np.int64)
    codes = np.empty(1, dtype=np.int8)
    for s in range(SAMPLES):
        sample[0, 0] = 10 * tx + SAMPLE_OFFSETS[s // 9]
        sample[0, 1] = 10 * ty + SAMPLE_OFFSETS[(s // 3) % 3]
        sample[0, 2] = 10 * tz + SAMPLE_OFFSETS[s % 3]
        # One walk per sample: each sample's hiding cells are needed before the next.
        n = walk(
            obstacle,
            NO_INDEX,
            NO_FLAGS,
            NO_CLEARANCE,
            NO_CELLS,
            10,
            px,
            py,
            pz,
            sample,
            False,
            False,
            out,
            codes,
        )[4]
        best = 0
        hid_kind[s] = OBSTACLE_NONE
        hid_counted[s] = False
        for i in range(n):
            if out[i, 3] != CONTACT_INTERIOR:
                continue
            ox, oy, oz = out[i, 0], out[i, 1], out[i, 2]
            kind = obstacle[ox, oy, oz]
            if kind == OBSTACLE_FULL:
                rank = _RANK_FULL
            elif kind == OBSTACLE_THIN:
                rank = _RANK_THIN
            else:
                why |= WHY_HALF_DISTANCE
                counts = half_counts(ax, ay, az, ox, oy, oz, tx, ty, tz)  # P-COV-3
                rank = _RANK_HALF if counts else _RANK_HALF_IGNORED
                # P-COV-5 asks whether cover comes from a half obstacle at all, even where a
                # thin one hides the same sample: adding a column must not lower the cover.
                has_half |= counts
            if rank > best:
                best = rank
                hid_kind[s] = kind
                hid_counted[s] = rank >= _RANK_HALF
                hid_cells[s, 0] = ox
                hid_cells[s, 1] = oy
                hid_cells[s, 2] = oz
        has_full |= best == _RANK_FULL
        has_thin |= best == _RANK_THIN
    if in_flight:  # P-ZERO-1
        return GRADE_NONE, WHY_IN_FLIGHT
    if adrift:  # P-ZERO-1
        return GRADE_HIGH_EXPOSURE, WHY_ADRIFT
    grade = GRADE_NONE
    if has_full:
        grade = GRADE_HEAVY
    elif has_half and low_stance:  # P-COV-5
        grade = GRADE_HEAVY
        why |= WHY_LOW_STANCE
    elif has_half or has_thin:
        grade = GRADE_LIGHT
    if shock:  # P-COV-5: no cover, P-COV-4 still applies
        grade = GRADE_NONE
        why |= WHY_SHOCK
    if grade == GRADE_NONE:
        why |= WHY_EXPOSURE
        if open_around(obstacle, tx, ty, tz):  # P-COV-4
            grade = GRADE_HIGH_EXPOSURE
    return grade, why


@njit
def cover_samples_kernel(
    obstacle: NDArray[np.uint8],
    ax: int,
    ay: int,
    az: int,
    tx: int,
    ty: int,
    tz: int,
    low_stance: bool,
    shock: bool,
    in_flight: bool,
    adrift: bool,
    hid_cells: NDArray[np.int64],
    hid_kind: NDArray[np.uint8],
    hid_counted: NDArray[np.bool_],
) -> tuple[int, int]:
    """`cover_kernel`'s answer, the same in every output, without a walk per sample.

    As in `cover_grade_kernel`, one pass over the cone from the attacker's centre to the target
    cell finds every obstacle any sample's segment can enter; each is tested against each
    sample. A sample keeps its strongest hiding cell and, between equals, the one the sample's
    own walk meets first (`walk`: slab by slab along its dominant axis from the attacker, then
    by the two other coordinates in increasing order), as `cover_kernel` keeps it.
    """
    why = 0
    has_half = False
    best = np.zeros(SAMPLES, dtype=np.int64)
    first = np.zeros((SAMPLES, 3), dtype=np.int64)  # the kept cell's place in its walk
    for s in range(SAMPLES):
        hid_kind[s] = OBSTACLE_NONE
        hid_counted[s] = False
    if chebyshev3(ax, ay, az, tx, ty, tz) > 0:  # the own cells never hide (P-COV-2)
        sizes = obstacle.shape
        p = (10 * ax + 5, 10 * ay + 5, 10 * az + 5)
        a_cell = (ax, ay, az)
        t_cell = (tx, ty, tz)
        m = 0
        for i in (1, 2):
            if abs(t_cell[i] - a_cell[i]) > abs(t_cell[m] - a_cell[m]):
                m = i
        o1, o2 = (m + 1) % 3, (m + 2) % 3
        lo_s1, hi_s1, lo_s2, hi_s2 = np.inf, -np.inf, np.inf, -np.inf
        for cm in (1, 9):
            run = 10 * t_cell[m] + cm - p[m]
            for c in (1, 9):
                s1 = (10 * t_cell[o1] + c - p[o1]) / run
                s2 = (10 * t_cell[o2] + c - p[o2]) / run
                lo_s1, hi_s1 = min(lo_s1, s1), max(hi_s1, s1)
                lo_s2, hi_s2 = min(lo_s2, s2), max(hi_s2, s2)
        step = 1 if t_cell[m] > a_cell[m] else -1
        cell = [0, 0, 0]
        for cm in range(a_cell[m], t_cell[m] + step, step):
            e0, e1 = 10 * cm - p[m], 10 * cm + 10 - p[m]
            if cm == a_cell[m]:
                e0, e1 = (0, e1) if step > 0 else (e0, 0)
            lo1 = min(e0 * lo_s1, e0 * hi_s1, e1 * lo_s1, e1 * hi_s1) + p[o1]
            hi1 = max(e0 * lo_s1, e0 * hi_s1, e1 * lo_s1, e1 * hi_s1) + p[o1]
            lo2 = min(e0 * lo_s2, e0 * hi_s2, e1 * lo_s2, e1 * hi_s2) + p[o2]
            hi2 = max(e0 * lo_s2, e0 * hi_s2, e1 * lo_s2, e1 * hi_s2) + p[o2]
            first1 = max(int(np.floor((lo1 - 1e-6) / 10)), 0)
            last1 = min(int(np.floor((hi1 + 1e-6) / 10)), sizes[o1] - 1)
            first2 = max(int(np.floor((lo2 - 1e-6) / 10)), 0)
            last2 = min(int(np.floor((hi2 + 1e-6) / 10)), sizes[o2] - 1)
            cell[m] = cm
            for c1 in range(first1, last1 + 1):
                cell[o1] = c1
                for c2 in range(first2, last2 + 1):
                    cell[o2] = c2
                    x, y, z = cell[0], cell[1], cell[2]
                    kind = obstacle[x, y, z]
                    if kind == OBSTACLE_NONE:
                        continue
                    if (x == ax and y == ay and z == az) or (x == tx and y == ty and z == tz):
                        continue
                    counts = kind == OBSTACLE_HALF and half_counts(
                        ax, ay, az, x, y, z, tx, ty, tz
                    )  # P-COV-3
                    if kind == OBSTACLE_FULL:
                        rank = _RANK_FULL
                    elif kind == OBSTACLE_THIN:
                        rank = _RANK_THIN
                    else:
                        rank = _RANK_HALF if counts else _RANK_HALF_IGNORED
                    for s in range(SAMPLES):
                        qx = 10 * tx + SAMPLE_OFFSETS[s // 9]
                        qy = 10 * ty + SAMPLE_OFFSETS[(s // 3) % 3]
                        qz = 10 * tz + SAMPLE_OFFSETS[s % 3]
                        dx, dy, dz = qx - p[0], qy - p[1], qz - p[2]
                        if (
                            segment_contact(10, x, y, z, p[0], p[1], p[2], dx, dy, dz)
                            != CONTACT_INTERIOR
                        ):
                            continue
                        if kind == OBSTACLE_HALF:
                            why |= WHY_HALF_DISTANCE
                            has_half |= counts
                        # The sample's walk: its dominant axis, slabs from the attacker's.
                        d = (dx, dy, dz)
                        w = 0
                        if abs(dy) > abs(dx):
                            w = 1
                        if abs(dz) > abs(d[w]):
                            w = 2
                        w1, w2 = (w + 1) % 3, (w + 2) % 3
                        along = cell[w] - a_cell[w] if d[w] > 0 else a_cell[w] - cell[w]
                        if rank > best[s] or (
                            rank == best[s]
                            and (along, cell[w1], cell[w2])
                            < (first[s, 0], first[s, 1], first[s, 2])
                        ):
                            best[s] = rank
                            first[s, 0], first[s, 1], first[s, 2] = along, cell[w1], cell[w2]
                            hid_kind[s] = kind
                            hid_counted[s] = rank >= _RANK_HALF
                            hid_cells[s, 0] = x
                            hid_cells[s, 1] = y
                            hid_cells[s, 2] = z
    has_full = False
    has_thin = False
    for s in range(SAMPLES):
        has_full |= best[s] == _RANK_FULL
        has_thin |= best[s] == _RANK_THIN
    if in_flight:  # P-ZERO-1
        return GRADE_NONE, WHY_IN_FLIGHT
    if adrift:  # P-ZERO-1
        return GRADE_HIGH_EXPOSURE, WHY_ADRIFT
    grade = GRADE_NONE
    if has_full:
        grade = GRADE_HEAVY
    elif has_half and low_stance:  # P-COV-5
        grade = GRADE_HEAVY
        why |= WHY_LOW_STANCE
    elif has_half or has_thin:
        grade = GRADE_LIGHT
    if shock:  # P-COV-5: no cover, P-COV-4 still applies
        grade = GRADE_NONE
        why |= WHY_SHOCK
    if grade == GRADE_NONE:
        why |= WHY_EXPOSURE
        if open_around(obstacle, tx, ty, tz):  # P-COV-4
            grade = GRADE_HIGH_EXPOSURE
    return grade, why


class CoverNote(StrEnum):
    """Why a sample is hidden, and what else decided the grade."""

    #: A full obstacle hides it: heavy cover (P-COV-2).
    FULL = "full"
    #: A thin obstacle hides it: light cover (P-COV-2).
    THIN = "thin"
    #: A half obstacle near enough to the target counts (P-COV-3). values: distance (obstacle to
    #: target), near (attacker to obstacle), levels (attacker above target), reach.
    HALF = "half"
    #: A half obstacle too far from the target gives nothing (P-COV-3); values as HALF.
    HALF_TOO_FAR = "half_too_far"
    LOW_STANCE = "low_stance"  # P-COV-5
    SHOCK = "shock"  # P-COV-5
    IN_FLIGHT = "in_flight"  # P-ZERO-1
    ADRIFT = "adrift"  # P-ZERO-1
    HIGH_EXPOSURE = "high_exposure"  # P-COV-4
    NOT_EXPOSED = "not_exposed"  # P-COV-4
    SHARED_CELL = "shared_cell"  # P-MOV-8: two in one cell, out of cover, are highly exposed


class HiddenSample(NamedTuple):
    """One of the 27 target samples and the obstacle cell that hides it from the attacker."""

    #: Fractions of the target cell along x, y, z.
    sample: tuple[float, float, float]
    cell: Cell
    obstacle: str
    #: Whether this obstacle gives cover here (P-COV-2, P-COV-3, before status effects).
    counted: bool
    reason: Note


@dataclass(frozen=True)
class CoverResult:
    """The cover grade, its Cover% (P-COV-1), the hidden samples and the rulings used."""

    grade: str
    percent: int
    hidden: tuple[HiddenSample, ...]
    rules: tuple[str, ...]

    #: What changed the grade besides the samples (stance, shock, exposure, flight).
    notes: tuple[Note, ...] = ()


_NOTES = (
    (WHY_LOW_STANCE, CoverNote.LOW_STANCE),
    (WHY_SHOCK, CoverNote.SHOCK),
    (WHY_IN_FLIGHT, CoverNote.IN_FLIGHT),
    (WHY_ADRIFT, CoverNote.ADRIFT),
)


_OBSTACLE_NAMES = {int(o): o.name.lower() for o in Obstacle}
_OBSTACLES = {int(o): o for o in Obstacle}
_SCRATCH = (
    np.zeros((SAMPLES, 3), dtype=np.int64),
    np.zeros(SAMPLES, dtype=np.uint8),
    np.zeros(SAMPLES, dtype=np.bool_),
)

#: Sample s as fractions of the target cell, in the kernel's order.
_SAMPLE_FRACTIONS = tuple(
    (SAMPLE_OFFSETS[s // 9] / 10, SAMPLE_OFFSETS[(s // 3) % 3] / 10, SAMPLE_OFFSETS[s % 3] / 10)
    for s in range(SAMPLES)
)


def _reason(kind: Obstacle, counted: bool, attacker: Cell, cell: Cell, target: Cell) -> Note:
    if kind is Obstacle.FULL:
        return Note(CoverNote.FULL)
    if kind is Obstacle.THIN:
        return Note(CoverNote.THIN)
    levels = max(attacker[2] - target[2], 0)
    near = chebyshev(attacker, cell)
    reach = -(-near // (1 + levels)) - 1
    values = {"distance": chebyshev(cell, target), "near": near, "levels": levels, "reach": reach}
    return Note(CoverNote.HALF if counted else CoverNote.HALF_TOO_FAR, values)


def _rules(why: int) -> tuple[str, ...]:
    """The rulings a kernel's WHY_* bits name, in their order."""
    rules = ["P-COV-2"]
    for bit, rule in (
        (WHY_HALF_DISTANCE, "P-COV-3"),
        (WHY_LOW_STANCE | WHY_SHOCK, "P-COV-5"),
        (WHY_EXPOSURE, "P-COV-4"),
        (WHY_IN_FLIGHT | WHY_ADRIFT, "P-ZERO-1"),
    ):
        if why & bit:
            rules.append(rule)
    rules.append("P-COV-1")
    return tuple(rules)


def _notes(why: int, grade: str) -> tuple[Note, ...]:
    """What changed the grade besides the samples, from the kernel's WHY_* bits."""
    notes = [Note(code) for bit, code in _NOTES if why & bit]
    if why & WHY_EXPOSURE and not why & (WHY_IN_FLIGHT | WHY_ADRIFT):
        exposed = grade == "high_exposure"
        notes.append(Note(CoverNote.HIGH_EXPOSURE if exposed else CoverNote.NOT_EXPOSED))
    return tuple(notes)


#: `_rules` and `_notes` of every (WHY_* bits, grade code): a hover asks for them each time.
_WORDED = {
    (why, code): (_rules(why), _notes(why, GRADES[code]))
    for why in range(2 * WHY_ADRIFT)
    for code in range(len(GRADES))
}


def cover(
    grid: Grid,
    attacker: Cell,
    target: Cell,
    *,
    target_low_stance: bool = False,
    target_shock: bool = False,
    in_flight: bool = False,
    adrift: bool = False,
    detail: bool = True,
) -> CoverResult:
    """P-COV-1..5, P-ZERO-1: the target's cover against an attack from `attacker`'s centre.

    Check line of sight first: this function assumes it is clear. `in_flight` is a
    microgravity jump under way; `adrift` is stationary in the void with neither thrusters
    nor a safety cable (P-ZERO-1); the two exclude each other. Without `detail` only the grade
    and its percent are worked out (hidden, rules and notes stay empty), stopping as soon as the
    grade is decided: for callers that never show why.
    """
    if in_map(grid.obstacle.shape, attacker, target) and not (in_flight and adrift):
        a = (int(attacker[0]), int(attacker[1]), int(attacker[2]))  # checked once
        t = (int(target[0]), int(target[1]), int(target[2]))
    else:
        a = require_in_map(grid.shape, attacker, "cover attacker cell")
        t = require_in_map(grid.shape, target, "cover target cell")
        if in_flight and adrift:
            raise ValueError("cover: a target cannot be both in flight and adrift (P-ZERO-1)")
    if not detail:
        grade = GRADES[
            cover_grade_kernel(
                grid.obstacle,
                *attacker,
                *target,
                target_low_stance,
                target_shock,
                in_flight,
                adrift,
            )
        ]
        return CoverResult(grade, PERCENT[grade], (), ())
    # The kernel fills every row of these: one set, reused, spares three allocations a call
    # (a hover asks for cover on every new target).
    hid_cells, hid_kind, hid_counted = _SCRATCH
    code, why = cover_samples_kernel(
        grid.obstacle,
        *a,
        *t,
        target_low_stance,
        target_shock,
        in_flight,
        adrift,
        hid_cells,
        hid_kind,
        hid_counted,
    )
    hidden: list[HiddenSample] = []
    kinds = hid_kind.tolist()
    if any(kinds):  # (OBSTACLE_NONE is 0: nothing hides any sample)
        cells, counted = hid_cells.tolist(), hid_counted.tolist()
        # A hiding cell's part of the sample (cell, obstacle, counted, reason) is made once and
        # shared by the samples it hides, which mostly come in runs (s = 9 ix + 3 iy + iz); each
        # sample is made as a NamedTuple's `_make` makes it: a hover makes 27 of them.
        tails: dict[tuple[int, int, int, int, bool], tuple[Cell, str, bool, Note]] = {}
        last: list[int] = []
        last_kind, last_counted = OBSTACLE_NONE, False
        tail: tuple[Cell, str, bool, Note] | None = None
        new = tuple.__new__
        for s in range(SAMPLES):
            kind = kinds[s]
            if kind == OBSTACLE_NONE:
                continue
            here, count = cells[s], counted[s]
            if tail is None or here != last or kind != last_kind or count != last_counted:
                x, y, z = last = here
                last_kind, last_counted = kind, count
                key = (x, y, z, kind, count)
                tail = tails.get(key)
                if tail is None:
                    cell = (x, y, z)
                    reason = _reason(_OBSTACLES[kind], count, a, cell, t)
                    tail = tails[key] = (cell, _OBSTACLE_NAMES[kind], count, reason)
            hidden.append(new(HiddenSample, (_SAMPLE_FRACTIONS[s], *tail)))
    grade = GRADES[code]
    rules, notes = _WORDED[why, code]
    return CoverResult(grade, PERCENT[grade], tuple(hidden), rules, notes)


def hiding_kinds(grid: Grid, attacker: Cell, target: Cell) -> frozenset[str]:
    """The obstacle kinds ("full", "thin", "half") that hide at least one of the target's 27
    samples from the attacker's centre (P-COV-2), a `half` one only where P-COV-3 lets it count.

    Unlike `cover`'s hidden samples (the strongest hiding cell of each sample), a counting half
    obstacle is named even where a wall also hides the same samples: Cepheus grades cover by the
    kind of obstacle (RULINGS C-3). Stance, shock and microgravity play no part; line of sight is
    the caller's to check first, as for `cover`.
    """
    if in_map(grid.obstacle.shape, attacker, target):
        a = (int(attacker[0]), int(attacker[1]), int(attacker[2]))  # checked once
        t = (int(target[0]), int(target[1]), int(target[2]))
    else:
        a = require_in_map(grid.shape, attacker, "cover attacker cell")
        t = require_in_map(grid.shape, target, "cover target cell")
    hid_cells, hid_kind, hid_counted = _SCRATCH  # (as in `cover`)
    kinds: set[str] = set()
    cover_samples_kernel(
        grid.obstacle, *a, *t, False, False, False, False, hid_cells, hid_kind, hid_counted
    )
    for kind in hid_kind.tolist():
        if kind in (OBSTACLE_FULL, OBSTACLE_THIN):
            kinds.add(_OBSTACLE_NAMES[kind])
    # Half obstacles alone: the grade is then light exactly where a counting half hides a
    # sample, which the grade's kernel finds without naming every sample's cell.
    halves = half_obstacles(grid)
    if halves is not None and (
        cover_grade_kernel(halves, *a, *t, False, False, False, False) == GRADE_LIGHT
    ):
        kinds.add("half")
    return frozenset(kinds)


_HALVES: weakref.WeakKeyDictionary[Grid, NDArray[np.uint8] | None] = weakref.WeakKeyDictionary()


def half_obstacles(grid: Grid) -> NDArray[np.uint8] | None:
    """The grid's obstacles with only its half ones kept (None: it has none), made once per
    grid (a grid never changes; Cepheus asks for them on every hover)."""
    if grid in _HALVES:
        return _HALVES[grid]
    halves: NDArray[np.uint8] | None = None
    if (grid.obstacle == OBSTACLE_HALF).any():
        halves = np.where(grid.obstacle == OBSTACLE_HALF, grid.obstacle, np.uint8(OBSTACLE_NONE))
        halves.setflags(write=False)
    _HALVES[grid] = halves
    return halves
