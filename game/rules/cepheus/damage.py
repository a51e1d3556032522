"""C-5 damage: Nd6 + Effect (+ extras) - armour, END first, then STR or DEX; wound states."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from game.rules.cepheus.data import Tables
from game.rules.cepheus.notes import Step
from game.rules.cepheus.sheet import CHARS, Sheet

UNINJURED = "uninjured"
WOUNDED = "wounded"
SERIOUSLY_WOUNDED = "seriously_wounded"
UNCONSCIOUS = "unconscious"
DEAD = "dead"
STATES = (UNINJURED, WOUNDED, SERIOUSLY_WOUNDED, UNCONSCIOUS, DEAD)


@dataclass(frozen=True)
class DamageResult:
    """A hit applied: the damage, where it went (characteristic, points) in order, the
    characteristics after and the wound state after."""

    damage: int
    steps: tuple[Step, ...]
    applied: tuple[tuple[str, int], ...]
    chars: Mapping[str, int]
    state: str
    rules: tuple[str, ...]


def damage_amount(
    rolled: int, effect: int, bonus: int, armour: int, tables: Tables
) -> tuple[int, tuple[Step, ...]]:
    """C-5, 000:l.357, 372: rolled dice + Effect + extras - armour, at least 0; an Effect of
    6+ always does at least 1 whatever the armour."""
    steps = [Step("rolled", rolled), Step("effect", effect), Step("armour", -armour)]
    if bonus:
        steps.insert(2, Step("bonus", bonus))
    raw = rolled + effect + bonus - armour
    damage = max(raw, 0)
    if effect >= tables.mod("effect_minimum") and damage < 1:
        steps.append(Step("effect_minimum", 1 - damage, ("C-5",)))
        damage = 1
    return damage, tuple(steps)


def wound_state(chars: Mapping[str, int], maximum: Mapping[str, int]) -> str:
    """000:l.363-368, C-5: dead with three characteristics at 0, unconscious with two,
    seriously wounded when all three are damaged, wounded when one is."""
    zero = sum(1 for c in CHARS if chars[c] <= 0)
    damaged = sum(1 for c in CHARS if chars[c] < maximum[c])
    if zero >= 3:
        return DEAD
    if zero >= 2:
        return UNCONSCIOUS
    if damaged >= 3:
        return SERIOUSLY_WOUNDED
    if damaged >= 1:
        return WOUNDED
    return UNINJURED


def _higher(chars: Mapping[str, int], names: tuple[str, ...]) -> str:
    # C-5: the computer takes the higher; a tie takes the first named (STR before DEX).
    return max(names, key=lambda c: (chars[c], -names.index(c)))


def damage_order(
    chars: Mapping[str, int], maximum: Mapping[str, int], to: str | None
) -> tuple[str, ...]:
    """Which characteristics a hit reaches, in order (000:l.357-359, C-5). An uninjured target
    takes it on END, then all of what is left on STR or DEX (`to`, the target's choice; the
    higher by default), then on the other. A damaged one takes it where `to` says (END while
    END has points, else the higher of STR and DEX, by default), then as above."""
    injured = any(chars[c] < maximum[c] for c in CHARS)
    if not injured:
        if to == "end":
            raise ValueError("the first hit goes to END; `to` chooses STR or DEX for the rest")
        second = to or _higher(chars, ("str", "dex"))
        return ("end", second, "dex" if second == "str" else "str")
    if to is None:
        to = "end" if chars["end"] > 0 else _higher(chars, ("str", "dex"))
    rest = tuple(c for c in CHARS if c != to)
    if "end" not in rest:  # STR and DEX remain: the higher first
        first = _higher(chars, rest)
        rest = (first, *(c for c in rest if c != first))
    return (to, *rest)


def apply_damage(
    chars: Mapping[str, int],
    maximum: Mapping[str, int],
    damage: int,
    to: str | None = None,
    steps: tuple[Step, ...] = (),
) -> DamageResult:
    """The characteristics after `damage` points (C-5), each reached in damage_order."""
    if damage < 0:
        raise ValueError(f"damage is >= 0, got {damage}")
    if to is not None and to not in CHARS:
        raise ValueError(f"`to` is one of {', '.join(CHARS)}, got {to!r}")
    after = dict(chars)
    applied: list[tuple[str, int]] = []
    left = damage
    for name in damage_order(chars, maximum, to):
        if left <= 0:
            break
        taken = min(left, after[name])
        if taken:
            after[name] -= taken
            applied.append((name, taken))
            left -= taken
    state = wound_state(after, maximum)
    return DamageResult(damage, steps, tuple(applied), MappingProxyType(after), state, ("C-5",))


def hit_sheet(
    sheet: Sheet, rolled: int, effect: int, tables: Tables, *, bonus: int = 0, to: str | None = None
) -> tuple[Sheet, DamageResult]:
    """A hit on a sheet (C-5): its armour applied, the sheet with its characteristics after,
    and the result; the sheet must give all three characteristics (MissingCharacteristic)."""
    chars = {c: sheet.char(c) for c in CHARS}
    maximum = {c: sheet.max_of(c) for c in CHARS}
    damage, steps = damage_amount(rolled, effect, bonus, sheet.armour, tables)
    result = apply_damage(chars, maximum, damage, to, steps)
    return replace(sheet, chars=result.chars, maximum=MappingProxyType(maximum)), result
