"""C-3 cover grades: from the obstacles that hide a target, one row better for a low stance."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from game.rules.cepheus.data import Tables

NONE = "none"
QUARTER = "1/4"
HALF = "1/2"
FULL = "full"


@dataclass(frozen=True)
class CoverGrade:
    """`base`: the grade of the obstacles (or the GM's); `grade`: after the stance; `dm` is None
    when the target cannot be hit (full cover with a low stance)."""

    base: str
    grade: str
    dm: int | None
    shifted: bool
    rules: tuple[str, ...]

    @property
    def cannot_be_hit(self) -> bool:
        return self.dm is None

    @property
    def in_cover(self) -> bool:
        """Behind anything at all (the seed's "al riparo" for dodging, 000:l.166)."""
        return self.grade != NONE


def grade_from_obstacles(kinds: Iterable[str]) -> str:
    """C-3: a `half` obstacle hiding the target (P-COV-2/3) is 1/2, the seed's "muro basso";
    a `full` or `thin` one hiding part of it is 1/4, "angolo di edificio"; the better wins."""
    found = set(kinds)
    if "half" in found:
        return HALF
    if found & {"full", "thin"}:
        return QUARTER
    return NONE


def cover_grade(base: str, low_stance: bool, tables: Tables) -> CoverGrade:
    """C-3 and 000:l.260, 341, 343: crouched or prone counts one row better on the cover table;
    behind full cover a crouched or prone target cannot be hit. No cover stays no cover."""
    ids = tables.cover_ids
    if base not in ids:
        raise ValueError(f"unknown cover grade {base!r} (expected one of: {', '.join(ids)})")
    dms = dict(tables.cover)
    if base == NONE or not low_stance:
        return CoverGrade(base, base, dms[base], False, ("C-3",))
    if base == FULL:
        return CoverGrade(base, FULL, None, True, ("C-3",))
    better = ids[ids.index(base) + 1]
    return CoverGrade(base, better, dms[better], True, ("C-3",))
