"""What the battle objects of the rulesets without periferie's stances and speeds share: a
move of so many cells and an initiative order from totals the ruleset worked out itself."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from game.grid.movement import MoveRequest
from game.rules.initiative import Initiative, InitiativeEntry
from game.rules.movement import MoveAllowance
from game.rules.ruleset_answers import TurnBudget

#: A turn of a move and one action (an attack), nothing else: Myst's exchange (M-2) and the
#: fantasy system's one action, which may follow closing in (003:l.4, 55).
MOVE_AND_ACTION = TurnBudget(
    slots=("movement", "action"),
    costs=MappingProxyType({"move": "movement", "attack": "action", "end_turn": ""}),
)
#: The movement modes such a fighter has, all at its one speed in cells.
MODES = ("walk", "swim", "climb")


def cells_move(
    mode: str | None, cells: int, rule_ids: tuple[str, ...]
) -> tuple[MoveRequest, MoveAllowance]:
    """`cells` movement points in every mode a fighter has: a cell of plain ground costs one,
    the shared terrain costs apply (the search's cap in cells is periferie's blinded one)."""
    budgets = {m: cells for m in MODES}
    chosen = mode if mode in budgets else "walk"
    request = MoveRequest(budgets=dict(budgets), mode=chosen)
    allowance = MoveAllowance(dict(budgets), False, None, 0, rule_ids, ())
    return request, allowance


def order_keeper(entries: Sequence[InitiativeEntry]) -> Initiative:
    """The shared order keeper holding `entries` by descending total, ties by the higher
    bonus then listing (its own tie rule), round 1 and nobody active yet."""
    ordered = sorted(entries, key=lambda e: (-e.total, -e.combatant.bonus, e.listed))
    return Initiative.from_dict(
        {
            "round": 1,
            "started": False,
            "reached": 0,
            "active": None,
            "skip": sorted(e.entity_id for e in entries if e.combatant.surprised),
            "next_listed": len(entries),
            "order": [e.to_dict() for e in ordered],
            "pending": [],
        }
    )
