"""Ammunition (000:l.97-99, 245, 319): the rounds a magazine holds (sample data: the seed's
weapons give none), what an attack fires, reloading. A weapon without a magazine (melee,
thrown) is not counted."""

from __future__ import annotations

from dataclasses import replace

from game.rules.cepheus.sheet import Sheet


def rounds_left(sheet: Sheet) -> int | None:
    """The rounds still in the weapon, None when its ammunition is not counted."""
    weapon = sheet.weapon
    if weapon is None or not weapon.magazine:
        return None
    return max(weapon.magazine - sheet.spent, 0)


def rounds_needed(sheet: Sheet) -> int:
    """What its next attack fires: one round, or its burst in burst mode (000:l.245-256)."""
    weapon = sheet.weapon
    if weapon is not None and weapon.auto and sheet.tempo.burst:
        return weapon.auto
    return 1


def short_of(sheet: Sheet) -> tuple[int, int] | None:
    """(left, needed) when the magazine holds fewer rounds than its next attack fires."""
    left = rounds_left(sheet)
    needed = rounds_needed(sheet)
    return None if left is None or left >= needed else (left, needed)


def fired(sheet: Sheet, rounds: int, *, suppression: bool = False) -> Sheet:
    """The sheet after an attack of `rounds`; suppression fire spends "fino al doppio della
    normale quantità di munizioni" (000:l.319): twice, or what is left if less."""
    left = rounds_left(sheet)
    if left is None:
        return sheet
    spent = min(2 * rounds if suppression else rounds, left)
    return replace(sheet, spent=sheet.spent + spent) if spent else sheet


def reloaded(sheet: Sheet) -> Sheet:
    """A full magazine again (000:l.99: a minor action for most weapons)."""
    return replace(sheet, spent=0) if sheet.spent else sheet


def not_full(sheet: Sheet) -> bool:
    left = rounds_left(sheet)
    return left is not None and sheet.weapon is not None and left < sheet.weapon.magazine
