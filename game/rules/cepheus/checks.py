"""C-1 checks (2d6 + DMs >= 8, Effect) and C-2 range bands and attack difficulty."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from game.rules import exact
from game.rules.cepheus.data import NO_ATTACK, Tables

#: G-4: metres = cells x 1.5 (kept here too: pure rules do not import the grid).
CELL_METRES = 1.5


@dataclass(frozen=True)
class CheckResult:
    """A check rolled: the dice, the total with every DM, its Effect (C-1) and success."""

    dice: tuple[int, ...]
    total: int
    effect: int
    success: bool


def check_chance(total_dm: int, tables: Tables) -> Fraction:
    """C-1: P(2d6 + total_dm >= 8), exact; no automatic success or failure on 2 or 12."""
    return _chance_at_least(tables.check_dice, total_dm, tables.check_target)


@cache  # a pure function of three ints, asked for every hover and every cell the computer weighs
def _chance_at_least(dice: int, total_dm: int, target: int) -> Fraction:
    return exact.chance_at_least(f"{dice}d6{total_dm:+d}", target)


def resolve_check(dice: tuple[int, ...], total_dm: int, tables: Tables) -> CheckResult:
    """C-1 from given dice: total = dice + DMs; Effect = total - 8; success when Effect >= 0."""
    if len(dice) != tables.check_dice or any(not 1 <= d <= 6 for d in dice):
        raise ValueError(f"a check rolls {tables.check_dice} six-sided dice, got {list(dice)}")
    total = sum(dice) + total_dm
    effect = total - tables.check_target
    return CheckResult(tuple(dice), total, effect, effect >= 0)


def band_for(cells: int, tables: Tables) -> str:
    """C-2: the band of a G-4 distance in cells; each upper bound is inclusive, in metres
    (cells x 1.5) except Personale, which is the 26 adjacent cells."""
    if cells < 0:
        raise ValueError(f"a distance in cells is >= 0, got {cells}")
    metres = cells * CELL_METRES
    for band in tables.bands:
        if band.cells_up_to is not None and cells <= band.cells_up_to:
            return band.id
        if band.metres_up_to is not None and metres <= band.metres_up_to:
            return band.id
        if band.cells_up_to is None and band.metres_up_to is None:
            return band.id
    return tables.bands[-1].id


def difficulty_for(weapon_type: str, band: str, tables: Tables) -> str | None:
    """000:l.45-56: the difficulty of an attack with `weapon_type` at `band`; None for "--"."""
    row = tables.difficulty[weapon_type]
    found = row[tables.band_ids.index(band)]
    return None if found == NO_ATTACK else found


def difficulty_dm(difficulty: str, tables: Tables) -> int:
    """C-2: Media 0, Difficile -2, Molto Difficile -4, Formidabile -6."""
    return tables.difficulties[difficulty]
