"""Death saves of a mortally wounded entity (P-DEATH-1)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from game.rules.data import RulesInputError
from game.rules.wounds import SAVES_TO_SETTLE, Health, is_dying, with_death_failures

DEATH_SAVE_DC: Final = 10
#: The possible `DeathSaveOutcome.result` values.
RESULTS: Final = ("success", "failure", "two_failures", "recovered", "stabilised", "dead")


@dataclass(frozen=True)
class DeathSaveOutcome:
    after: Health
    #: success / failure / two_failures (natural 1) / recovered (natural 20: the mortal wound is
    #: grave again) / stabilised (third success) / dead (third failure).
    result: str
    natural: int


def death_save(health: Health, natural: int) -> DeathSaveOutcome:
    """P-DEATH-1: the d20 rolled at the start of a dying entity's turn, no bonuses, DC 10."""
    if isinstance(natural, bool) or not isinstance(natural, int) or not 1 <= natural <= 20:
        raise RulesInputError(f"death save: natural d20 {natural!r} is not 1..20")
    if not is_dying(health):
        raise RulesInputError(
            "death save: none due (only a mortally wounded entity, not stabilised nor dead, rolls)"
        )
    if natural == 20:
        # The mortal wound turns back into a grave one; out of combat stays as it was.
        after = replace(health, mortal=0, grave=1, death_successes=0, death_failures=0)
        return DeathSaveOutcome(after, "recovered", natural)
    if natural >= DEATH_SAVE_DC:
        successes = health.death_successes + 1
        after = replace(health, death_successes=successes)
        if successes < SAVES_TO_SETTLE:
            return DeathSaveOutcome(after, "success", natural)
        # Stabilised: no more saves, and out of combat (mortal wound stays).
        stable = replace(after, conditions=after.conditions | {"stabilised", "out_of_combat"})
        return DeathSaveOutcome(stable, "stabilised", natural)
    failures = 2 if natural == 1 else 1
    after = with_death_failures(health, failures)
    if after.has("dead"):
        return DeathSaveOutcome(after, "dead", natural)
    return DeathSaveOutcome(after, "two_failures" if failures == 2 else "failure", natural)
