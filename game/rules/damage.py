"""Final damage from a rolled damage, the target's armour and its resistance (P-DMG-1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from game.rules import checknames
from game.rules.data import Armour, RulesInputError, check_damage_type


def resistance_check_for(damage_type: str) -> str:
    """The check whose bonus is R_def: `ossatura (radiazione)` for radiation, else survival."""
    # P-DMG-1
    if check_damage_type(damage_type) == "radiazione":
        return checknames.RADIATION
    return checknames.SURVIVAL


def _after_armour_only(rolled: int, armour_pct: int) -> int:
    if rolled < 0:
        raise RulesInputError(f"rolled damage {rolled} is negative")
    if not 0 <= armour_pct <= 100:
        raise RulesInputError(f"armour damage reduction {armour_pct}% is not 0..100")
    # Integer floor division: floor(rolled × (100 − R%) / 100) without floats.
    return rolled * (100 - armour_pct) // 100


def damage_after_armour(rolled: int, armour_pct: int, resistance: int) -> int:
    """P-DMG-1: D = floor(rolled × (100 − armour_pct) / 100) − resistance, at least 0."""
    return max(0, _after_armour_only(rolled, armour_pct) - resistance)


@dataclass(frozen=True)
class DamageBreakdown:
    """Every step of P-DMG-1, for the combat log."""

    rolled: int
    damage_type: str
    armour_pct: int
    after_armour: int
    resistance_check: str
    resistance: int
    damage: int


def damage_breakdown(
    rolled: int, damage_type: str, armour: Armour | None, sheet: Mapping[str, int]
) -> DamageBreakdown:
    """P-DMG-1 against a target wearing `armour` (None: no armour) with check bonuses `sheet`."""
    check = resistance_check_for(damage_type)
    armour_pct = armour.damage[damage_type] if armour is not None else 0
    resistance = checknames.bonus(sheet, check)
    after_armour = _after_armour_only(rolled, armour_pct)
    return DamageBreakdown(
        rolled=rolled,
        damage_type=damage_type,
        armour_pct=armour_pct,
        after_armour=after_armour,
        resistance_check=check,
        resistance=resistance,
        damage=damage_after_armour(rolled, armour_pct, resistance),
    )
