"""Throwing objects (P-THR-1) and where a missed throw lands (P-THR-2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Final, Literal

from game.rules.hit import HitChance, hit_chance, hit_percent, resolve_to_hit

Cell = tuple[int, int, int]
ThrowBand = Literal["medium", "long", "out_of_range"]


@dataclass(frozen=True)
class ThrowSize:
    """P-THR-1: the last cell of medium and of long range, and the impact damage dice."""

    medium_range: int
    long_range: int
    damage: str


THROW_SIZES: Final[Mapping[str, ThrowSize]] = {
    "light": ThrowSize(4, 9, "1d8"),
    "medium": ThrowSize(3, 8, "1d10"),
    "heavy": ThrowSize(2, 7, "1d12"),
}
THROW_DAMAGE_TYPE: Final = "impatto"

# P-THR-1: P_weapon of an object without its own hit chance.
CELL_LONG_P_WEAPON: Final = 60
ENTITY_MEDIUM_P_WEAPON: Final = 60
ENTITY_LONG_P_WEAPON: Final = 50


def throw_size(size: str) -> ThrowSize:
    try:
        return THROW_SIZES[size]
    except KeyError:
        raise ValueError(
            f"unknown thrown-object size {size!r} (expected one of {', '.join(THROW_SIZES)})"
        ) from None


def throw_band(size: str, distance: int) -> ThrowBand:
    """P-THR-1: the range band of a throw of a `size` object over `distance` cells."""
    if distance < 0:
        raise ValueError(f"throw_band: distance must be >= 0 cells, got {distance}")
    ranges = throw_size(size)
    return range_band(distance, ranges.medium_range, ranges.long_range)


def range_band(distance: int, medium_range: int, long_range: int) -> ThrowBand:
    """P-THR-1: medium up to the last cell of medium range, long up to that of long range."""
    if distance <= medium_range:
        return "medium"
    if distance <= long_range:
        return "long"
    return "out_of_range"


@dataclass(frozen=True)
class ThrowPlan:
    """What a throw needs: an automatic hit, or a d100 against a chance built on `p_weapon`.

    An out-of-range throw has band "out_of_range", is not automatic and has no `p_weapon`.
    """

    band: ThrowBand
    automatic: bool
    p_weapon: int | None
    rules: tuple[str, ...] = ("P-THR-1",)


def plan_throw_at_cell(size: str, distance: int) -> ThrowPlan:
    """P-THR-1: automatic within medium range, P_weapon 60 (B_att only) at long range."""
    band = throw_band(size, distance)
    if band == "medium":
        return ThrowPlan(band, automatic=True, p_weapon=None)
    return ThrowPlan(band, automatic=False, p_weapon=CELL_LONG_P_WEAPON if band == "long" else None)


def plan_throw_at_entity(size: str, distance: int) -> ThrowPlan:
    """P-THR-1: always a roll, P_weapon 60 within medium range and 50 at long range."""
    band = throw_band(size, distance)
    p_weapon = {"medium": ENTITY_MEDIUM_P_WEAPON, "long": ENTITY_LONG_P_WEAPON}.get(band)
    return ThrowPlan(band, automatic=False, p_weapon=p_weapon)


def cell_throw_chance(b_att: int) -> int:
    """P-THR-1: chance of a long-range throw at a cell, P-HIT-2 with no defence, armour or cover."""
    return hit_percent(CELL_LONG_P_WEAPON, b_att, 0, Fraction(0), 0)[1]


def entity_throw_hit_chance(
    size: str,
    distance: int,
    b_att: int,
    b_def: int,
    impact_armour_pct: int,
    cover_grade: str,
    b_att_check: str = "",
) -> HitChance:
    """P-THR-1: a throw at an entity goes through the full P-HIT-2 with its `impatto` armour %."""
    plan = plan_throw_at_entity(size, distance)
    if plan.p_weapon is None:
        ranges = throw_size(size)
        raise ValueError(
            f"entity_throw_hit_chance: a {size} object reaches {ranges.long_range} cells,"
            f" the target is {distance} away"
        )
    chance = hit_chance(
        plan.p_weapon,
        b_att,
        b_def,
        impact_armour_pct,
        cover_grade,
        THROW_DAMAGE_TYPE,
        distance,
        b_att_check,
    )
    return replace(chance, rules=("P-THR-1", *chance.rules))


def deviation_distance(roll: int, p: int) -> int:
    """P-THR-2: cells between the aim cell and where a missed throw (roll > P) lands."""
    if not 1 <= p <= 99:
        raise ValueError(f"deviation_distance: the hit chance must be 1..99, got {p}")
    if not p < roll <= 100:
        raise ValueError(
            f"deviation_distance: only a miss deviates; need {p} < roll <= 100, got {roll}"
        )
    return 1 + (roll - p) // 10


def miss_deviation(band: ThrowBand, roll: int, b_att: int) -> int:
    """P-THR-2: cells a missed throw lands from its aim cell (0 = in the aim cell).

    The seed re-reads a missed long-range throw at an entity as a throw at its cell, same roll.
    A missed throw at an entity within medium range lands in its cell, since a throw at that
    cell would have hit automatically.
    """
    if band == "medium":
        return 0
    if band != "long":
        raise ValueError(f"miss_deviation: a throw in band {band!r} cannot land anywhere")
    p = cell_throw_chance(b_att)
    return 0 if resolve_to_hit(roll, p) else deviation_distance(roll, p)


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _away(thrower: Cell, aim: Cell) -> tuple[int, int]:
    """The thrower→aim direction on the map, snapped to the nearest of the 8 compass directions.

    A direction within 22.5° of an axis is that axis: b < a·tan 22.5° = a(√2 − 1), i.e.
    (a + b)² < 2a², in integers. No tie is possible, since tan 22.5° is irrational. A throw
    straight up or down counts as thrown towards the top of the screen (−y), so the d4 reads
    like a compass: north, east, south, west.
    """
    dx, dy = aim[0] - thrower[0], aim[1] - thrower[1]
    if dx == dy == 0:
        return 0, -1
    a, b = abs(dx), abs(dy)
    if (a + b) ** 2 < 2 * a * a:
        return _sign(dx), 0
    if (a + b) ** 2 < 2 * b * b:
        return 0, _sign(dy)
    return _sign(dx), _sign(dy)


def deviation_offset(
    thrower: Cell, aim: Cell, distance: int, direction_roll: int, microgravity: bool
) -> Cell:
    """P-THR-2: offset from the aim cell to the landing cell, `distance` cells (Chebyshev) long.

    Direction d4 in gravity: 1 = away from the thrower, then clockwise as seen on the screen
    from above (x right, y down): 2 = the thrower's right, 3 = back towards it, 4 = its left.
    In microgravity a d6: 1-4 the same, 5 = up (+z), 6 = down (−z).
    """
    if distance < 0:
        raise ValueError(f"deviation_offset: distance must be >= 0 cells, got {distance}")
    sides = 6 if microgravity else 4
    if not 1 <= direction_roll <= sides:
        raise ValueError(
            f"deviation_offset: the direction roll is a d{sides}, got {direction_roll}"
        )
    if direction_roll == 5:
        return 0, 0, distance
    if direction_roll == 6:
        return 0, 0, -distance
    dx, dy = _away(thrower, aim)
    for _ in range(direction_roll - 1):
        dx, dy = -dy, dx  # a quarter turn clockwise on a y-down screen
    return dx * distance, dy * distance, 0


def landing_cell(
    thrower: Cell, aim: Cell, distance: int, direction_roll: int, microgravity: bool
) -> Cell:
    """P-THR-2: where a missed throw lands; the caller keeps it inside the map."""
    ox, oy, oz = deviation_offset(thrower, aim, distance, direction_roll, microgravity)
    return aim[0] + ox, aim[1] + oy, aim[2] + oz
