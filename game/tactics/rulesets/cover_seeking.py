"""The computer's cover score (BattleRules.cover_value) shared by every ruleset: the worst cover
a unit has from the threats that see it, each cover in the ruleset's own measure."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from game.grid.los import LosResult
from game.tactics.battlefield import Battlefield, EntitySheet

#: A ruleset's line of sight from a threat to the unit (BattleRules.sight).
Sight = Callable[[Battlefield, EntitySheet, EntitySheet], LosResult]


def worst_cover(
    sight: Sight,
    bf: Battlefield,
    unit: EntitySheet,
    threats: Sequence[EntitySheet],
    value: Callable[[EntitySheet], Fraction],
    best: Fraction,
) -> Fraction:
    """The least `value(threat)` of the threats that see `unit` on `bf`, never above `best`
    (the ruleset's best cover: what a unit no threat sees counts as)."""
    worst = best
    for threat in threats:
        if sight(bf, threat, unit).clear:
            worst = min(worst, value(threat))
    return worst
