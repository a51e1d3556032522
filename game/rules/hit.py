"""Chance to hit (P-HIT-1..4): attack and defence bonuses, armour efficacy, cover (P-COV-1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from math import floor
from typing import Final

from game.rules.checknames import ATHLETICS, DIVIDED_ATTENTION, RANGED, bonus
from game.rules.data import DAMAGE_TYPES, WEAPON_KINDS

# P-COV-1: percentage points taken off the hit chance (high exposure adds them).
COVER_PERCENT: Final[Mapping[str, int]] = {
    "heavy": 50,
    "light": 25,
    "none": 0,
    "high_exposure": -15,
}

PIERCING: Final = "perforante"

P_MIN: Final = 1
P_MAX: Final = 99


def exact_decimal(value: Fraction) -> str:
    """`value` written exactly: a terminating decimal ("0.9625"), else "numerator/denominator"."""
    rest = value.denominator
    twos = fives = 0
    while rest % 2 == 0:
        rest //= 2
        twos += 1
    while rest % 5 == 0:
        rest //= 5
        fives += 1
    if rest != 1:
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    scaled = abs(value.numerator) * 10**places // value.denominator
    whole, frac = divmod(scaled, 10**places)
    sign = "-" if value < 0 else ""
    return f"{sign}{whole}.{frac:0{places}d}" if places else f"{sign}{whole}"


def _json_decimal(value: Fraction) -> float:
    """A JSON number whose text is `value` exactly.

    The fractions of P-HIT-2/3 have denominators dividing 8000 (efficacy 80, then /100), so they
    are decimals of at most 6 places; with bonuses bounded by the data they stay well under 15
    significant digits, and a float is written as the shortest text that reads back the same,
    which is then that decimal.
    """
    return float(value)


class NoChance(StrEnum):
    """Why an attack or a throw has no hit chance at all."""

    SELF_TARGET = "self_target"
    NO_WEAPON = "no_weapon"
    #: The attacker's condition forbids attacking (P-VUL-3): see wounds.attack_barred_by.
    BLINDED = "blinded"
    OUT_OF_COMBAT = "out_of_combat"
    DEAD = "dead"
    NO_LOS = "no_los"
    #: A melee weapon reaches the 26 cells around the attacker only (G-5).
    OUT_OF_REACH = "out_of_reach"
    #: Beyond a thrown weapon's long range (P-THR-1).
    OUT_OF_RANGE = "out_of_range"


def armour_efficacy(distance: int) -> Fraction:
    """P-HIT-3: share of a piercing-damage armour % that counts at `distance` cells.

    Distance 0 (only possible against one's own cell) counts as 1, the closest the formula covers.
    """
    if distance < 0:
        raise ValueError(f"armour_efficacy: distance must be >= 0 cells, got {distance}")
    d = max(distance, 1)
    if d >= 9:
        return Fraction(1)
    return 1 - (9 - d) * Fraction(3, 10) / 8


def attack_bonus(kind: str, sheet: Mapping[str, int]) -> tuple[int, str]:
    """P-HIT-2/P-HIT-4: the attacker's B_att for a weapon `kind`, and the check it came from.

    Thrown weapons take the better of the two checks (ties go to the ranged one). Melee weapons
    do the same: the seed sends improvised or unrated melee weapons to the thrown-object rules.
    """
    if kind == "firearm":
        return bonus(sheet, RANGED), RANGED
    if kind in ("thrown", "melee"):
        ranged, athletics = bonus(sheet, RANGED), bonus(sheet, ATHLETICS)
        return (athletics, ATHLETICS) if athletics > ranged else (ranged, RANGED)
    raise ValueError(
        f"attack_bonus: unknown weapon kind {kind!r} (expected one of {', '.join(WEAPON_KINDS)})"
    )


def hit_percent(
    p_weapon: int, b_att: int, b_def: int, armour_pct: Fraction, cover_pct: int
) -> tuple[Fraction, int]:
    """P-HIT-2 formula: (exact value, value rounded down and clamped to 1..99)."""
    raw = Fraction(p_weapon) * (100 + (b_att - b_def) * 5 - armour_pct - cover_pct) / 100
    return raw, min(P_MAX, max(P_MIN, floor(raw)))


@dataclass(frozen=True)
class HitChance:
    """A chance to hit with every input that produced it, for logs and the player's tooltip."""

    p: int
    raw: Fraction
    p_weapon: int
    b_att: int
    b_att_check: str
    b_def: int
    armour_base: int
    damage_type: str
    armour_efficacy: Fraction
    armour_pct: Fraction
    cover: str
    cover_pct: int
    distance: int
    rules: tuple[str, ...]

    def breakdown(self) -> dict[str, object]:
        """JSON-safe: counts and percentages as int; raw, efficacy, armour_pct always float."""
        return {
            "p": self.p,
            "raw": _json_decimal(self.raw),
            "p_weapon": self.p_weapon,
            "b_att": self.b_att,
            "b_att_check": self.b_att_check,
            "b_def": self.b_def,
            "b_def_check": DIVIDED_ATTENTION,
            "armour_base": self.armour_base,
            "damage_type": self.damage_type,
            "armour_efficacy": _json_decimal(self.armour_efficacy),
            "armour_pct": _json_decimal(self.armour_pct),
            "cover": self.cover,
            "cover_pct": self.cover_pct,
            "distance": self.distance,
            "rules": list(self.rules),
        }


@lru_cache(maxsize=4096)
def hit_chance(
    p_weapon: int,
    b_att: int,
    b_def: int,
    armour_base_pct: int,
    cover_grade: str,
    damage_type: str,
    distance: int,
    b_att_check: str = "",
) -> HitChance:
    """P-HIT-2 with P-HIT-3 (piercing armour efficacy) and P-COV-1 (cover %).

    `armour_base_pct` is the target armour's % for `damage_type`; `distance` is in cells (G-4).
    A pure function of plain values with a frozen answer, so answers are kept: the computer
    weighs the same few combinations over and over, and the window asks on every hover.
    """
    if not 0 <= p_weapon <= 100:
        raise ValueError(f"hit_chance: weapon hit chance must be 0..100 %, got {p_weapon}")
    if not 0 <= armour_base_pct <= 100:
        raise ValueError(f"hit_chance: armour % must be 0..100, got {armour_base_pct}")
    if distance < 0:
        raise ValueError(f"hit_chance: distance must be >= 0 cells, got {distance}")
    if cover_grade not in COVER_PERCENT:
        raise ValueError(
            f"hit_chance: unknown cover grade {cover_grade!r}"
            f" (expected one of {', '.join(COVER_PERCENT)})"
        )
    if damage_type not in DAMAGE_TYPES:
        raise ValueError(
            f"hit_chance: unknown damage type {damage_type!r}"
            f" (expected one of {', '.join(DAMAGE_TYPES)})"
        )
    efficacy = armour_efficacy(distance) if damage_type == PIERCING else Fraction(1)  # P-HIT-3
    armour_pct = armour_base_pct * efficacy
    cover_pct = COVER_PERCENT[cover_grade]  # P-COV-1
    raw, p = hit_percent(p_weapon, b_att, b_def, armour_pct, cover_pct)  # P-HIT-2
    rules = ["P-HIT-2"]
    if efficacy < 1 and armour_base_pct > 0:
        rules.append("P-HIT-3")
    if cover_pct != 0:
        rules.append("P-COV-1")
    return HitChance(
        p=p,
        raw=raw,
        p_weapon=p_weapon,
        b_att=b_att,
        b_att_check=b_att_check,
        b_def=b_def,
        armour_base=armour_base_pct,
        damage_type=damage_type,
        armour_efficacy=efficacy,
        armour_pct=armour_pct,
        cover=cover_grade,
        cover_pct=cover_pct,
        distance=distance,
        rules=tuple(rules),
    )


def resolve_to_hit(natural: int, p: int) -> bool:
    """P-HIT-1: a natural d100 of 1 always hits, 100 always misses, otherwise hit when <= P."""
    if not 1 <= natural <= 100:
        raise ValueError(f"resolve_to_hit: the d100 roll must be 1..100, got {natural}")
    if not P_MIN <= p <= P_MAX:
        raise ValueError(f"resolve_to_hit: the hit chance must be {P_MIN}..{P_MAX}, got {p}")
    if natural == 1:
        return True
    if natural == 100:
        return False
    return natural <= p
