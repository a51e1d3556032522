"""A d20 turn (D-2): a standard and a move action or one full-round action, a 5-foot step when
not otherwise moving, speed in cells, and when leaving a cell provokes an attack of opportunity."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from game.rules.d20.data import D20Data
from game.rules.d20.health import HpState

ACTIONS: Final = ("standard", "move", "full_round", "five_foot_step")


def plan_refusal(state: HpState, plan: Sequence[str]) -> str | None:
    """Why a turn's actions are not allowed (None when they are): D-2's economy, and a disabled
    creature's one action a turn (standard or move); dying and dead creatures act not at all."""
    for action in plan:
        if action not in ACTIONS:
            return f"unknown action {action!r} (known: {', '.join(ACTIONS)})"
    if len(set(plan)) != len(plan):
        return "an action is taken twice"
    if state in (HpState.DYING, HpState.DEAD):
        return f"a {state} creature takes no action"
    main = [a for a in plan if a != "five_foot_step"]
    if "full_round" in main and len(main) > 1:
        return "a full-round action is the whole turn"
    if state is HpState.DISABLED and len(main) > 1:
        return "a disabled creature takes one action a turn (D-2)"
    if "five_foot_step" in plan and "move" in plan:
        return "a 5-foot step only when not otherwise moving (D-2)"
    return None


def movement_cells(data: D20Data, speed: int, plan: Sequence[str]) -> int:
    """The cells a turn's plan may move: the speed with a move action, 1 with a 5-foot step."""
    if "move" in plan:
        return speed
    if "five_foot_step" in plan:
        return data.base.five_foot_step
    return 0


def provokes_opportunity(
    left_threatened_cell: bool, five_foot_step: bool, attacker_used_one: bool
) -> bool:
    """D-2: leaving a threatened cell other than by a 5-foot step provokes, once per round per
    attacker (cover and total concealment then forbid the attack itself, 004:l.58, l.86)."""
    return left_threatened_cell and not five_foot_step and not attacker_used_one
