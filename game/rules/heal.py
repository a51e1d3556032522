"""Treating wounds in combat with a medkit (P-HEAL-1)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

from game.rules.checknames import MEDICINE
from game.rules.data import RulesInputError
from game.rules.wounds import Health

WOUNDS: Final = ("light", "grave", "mortal")
# P-HEAL-1: the `applicazione (medicina)` totals needed.
GRAVE_DC: Final = 12
MORTAL_DC: Final = 15
STABILISE_DC: Final = 10


def check_dc(wound: str) -> int | None:
    """The DC of the `applicazione (medicina)` check a `wound` needs (None: a light wound needs
    none). A mortal wound's check has DC 15; a total of 10 or more still stabilises (P-HEAL-1),
    which the outcome tells, not the roll's target."""
    if wound not in WOUNDS:
        raise RulesInputError(f"medkit: wound {wound!r} is not one of {', '.join(WOUNDS)}")
    return {"light": None, "grave": GRAVE_DC, "mortal": MORTAL_DC}[wound]


class MedkitResult(StrEnum):
    """What a medkit did, or why it was not used (the last four keep the kit)."""

    HEALED = "healed"
    STABILISED = "stabilised"
    CHECK_FAILED = "check_failed"
    ALREADY_STABILISED = "already_stabilised"
    TARGET_DEAD = "target_dead"
    NOT_ADJACENT = "not_adjacent"
    OWN_MORTAL_WOUND = "own_mortal_wound"
    NO_SUCH_WOUND = "no_such_wound"


@dataclass(frozen=True)
class MedkitOutcome:
    after: Health
    kit_spent: bool
    success: bool
    reason: MedkitResult
    rules: tuple[str, ...]


def use_medkit(
    target: Health,
    wound: str,
    check_total: int | None = None,
    *,
    self_target: bool,
    adjacent: bool,
) -> MedkitOutcome:
    """P-HEAL-1: treat one `wound` ("light", "grave", "mortal") of `target`, self or adjacent.

    `check_total` is the healer's `applicazione (medicina)` total, needed for grave and mortal
    wounds. A refused attempt (dead target, not self nor adjacent, one's own mortal wound, a wound
    the target does not have) leaves the kit unspent; an attempt made spends it either way.
    """
    if wound not in WOUNDS:
        raise RulesInputError(f"medkit: wound {wound!r} is not one of {', '.join(WOUNDS)}")

    def outcome(after: Health, spent: bool, success: bool, reason: MedkitResult) -> MedkitOutcome:
        # Stabilising or lifting a mortal wound also rests on P-DEATH-1.
        rules = ("P-HEAL-1", "P-DEATH-1") if success and wound == "mortal" else ("P-HEAL-1",)
        return MedkitOutcome(after, spent, success, reason, rules)

    def refused(reason: MedkitResult) -> MedkitOutcome:
        return outcome(target, False, False, reason)

    carried = {"light": target.light, "grave": target.grave, "mortal": target.mortal}
    if target.has("dead"):
        return refused(MedkitResult.TARGET_DEAD)
    if not self_target and not adjacent:
        return refused(MedkitResult.NOT_ADJACENT)
    if wound == "mortal" and self_target:
        return refused(MedkitResult.OWN_MORTAL_WOUND)
    if carried[wound] == 0:
        return refused(MedkitResult.NO_SUCH_WOUND)
    if wound == "light":
        return outcome(replace(target, light=target.light - 1), True, True, MedkitResult.HEALED)
    if isinstance(check_total, bool) or not isinstance(check_total, int):
        raise RulesInputError(f"medkit: a {wound} wound needs the {MEDICINE} check total")
    if wound == "grave":
        if check_total >= GRAVE_DC:
            return outcome(replace(target, grave=0), True, True, MedkitResult.HEALED)
        return outcome(target, True, False, MedkitResult.CHECK_FAILED)
    if check_total >= MORTAL_DC:
        # Back to one grave wound: the saves and stabilisation no longer apply.
        healed = replace(
            target,
            mortal=0,
            grave=1,
            death_successes=0,
            death_failures=0,
            conditions=target.conditions - {"stabilised"},
        )
        return outcome(healed, True, True, MedkitResult.HEALED)
    if check_total >= STABILISE_DC:
        if target.has("stabilised"):
            return outcome(target, True, False, MedkitResult.ALREADY_STABILISED)
        # Stabilised as by three successful saves: out of combat too.
        stable = replace(target, conditions=target.conditions | {"stabilised", "out_of_combat"})
        return outcome(stable, True, True, MedkitResult.STABILISED)
    return outcome(target, True, False, MedkitResult.CHECK_FAILED)
