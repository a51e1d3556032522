"""What an entity has spent of its turn: movement, action, interaction, bonus action, reaction."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeAlias

from game.rules.notes import Value
from game.rules.stance import Stance


@dataclass(frozen=True)
class Ok:
    """The request is allowed and its cost has been paid."""


class RefusalCode(StrEnum):
    """Why a turn request is refused (P-TURN-1/2)."""

    NOT_YOUR_TURN = "not_your_turn"
    #: values: left, limit, cost (movement points).
    NOT_ENOUGH_MOVEMENT = "not_enough_movement"
    #: values: action (the kind already used).
    ACTION_USED = "action_used"
    INTERACTION_USED = "interaction_used"
    BONUS_ACTION_USED = "bonus_action_used"
    REACTION_USED = "reaction_used"
    #: values: stance (the one already held).
    SAME_STANCE = "same_stance"
    STANCE_NEEDS_INTERACTION = "stance_needs_interaction"


@dataclass(frozen=True)
class Refused:
    """The request is not allowed; nothing was spent; game/text/explain.py words it."""

    code: RefusalCode
    values: Mapping[str, Value] = field(default_factory=dict)


TurnResult: TypeAlias = Ok | Refused

DASH = "dash"
DISENGAGE = "disengage"


class TurnStateError(ValueError):
    """Bad input to a turn state: negative movement, an empty action kind, unreadable data."""


@dataclass
class TurnState:
    """One entity's turn budget (P-TURN-1). Call `start_turn` when its own turn begins."""

    in_turn: bool = False
    movement_spent: int = 0
    #: The kind of action used this turn ("attack", "dash", ...), None while still available.
    action: str | None = None
    interaction_used: bool = False
    bonus_used: bool = False
    reaction_used: bool = False
    #: A d20 5-foot step taken this turn (D-2): no other movement until the turn ends.
    stepped: bool = False

    def start_turn(self) -> None:
        """Everything comes back, the reaction included (P-TURN-1)."""
        self.in_turn = True
        self.stepped = False
        self.movement_spent = 0
        self.action = None
        self.interaction_used = False
        self.bonus_used = False
        self.reaction_used = False

    def end_turn(self) -> None:
        """The turn is over (also cut short, P-OA-1); only the reaction stays usable."""
        self.in_turn = False

    @property
    def dashed(self) -> bool:
        return self.action == DASH

    @property
    def disengaged(self) -> bool:
        return self.action == DISENGAGE

    def movement_left(self, limit: int) -> int:
        return max(0, limit - self.movement_spent)

    def spend_movement(self, points: int, limit: int) -> TurnResult:
        """Pay `points` of this turn's movement; it may be split in several spends (P-TURN-1).

        `limit` is the effective speed of the current movement mode, computed by the caller.
        """
        if points < 0:
            raise TurnStateError(f"movement cost must not be negative, got {points}")
        if not self.in_turn:
            return _NOT_YOUR_TURN
        if self.movement_spent + points > limit:
            return Refused(
                RefusalCode.NOT_ENOUGH_MOVEMENT,
                {"left": self.movement_left(limit), "limit": limit, "cost": points},
            )
        self.movement_spent += points
        return Ok()

    def use_action(self, kind: str) -> TurnResult:
        if not kind.strip():
            raise TurnStateError("an action needs a kind, e.g. 'attack' or 'dash'")
        if not self.in_turn:
            return _NOT_YOUR_TURN
        if self.action is not None:
            return Refused(RefusalCode.ACTION_USED, {"action": self.action})
        self.action = kind
        return Ok()

    def use_interaction(self) -> TurnResult:
        if not self.in_turn:
            return _NOT_YOUR_TURN
        if self.interaction_used:
            return Refused(RefusalCode.INTERACTION_USED)
        self.interaction_used = True
        return Ok()

    def use_bonus_action(self) -> TurnResult:
        if not self.in_turn:
            return _NOT_YOUR_TURN
        if self.bonus_used:
            return Refused(RefusalCode.BONUS_ACTION_USED)
        self.bonus_used = True
        return Ok()

    def use_reaction(self) -> TurnResult:
        """Once per round, in or out of the own turn (P-TURN-1)."""
        if self.reaction_used:
            return Refused(RefusalCode.REACTION_USED)
        self.reaction_used = True
        return Ok()

    def change_stance(self, current: Stance, new: Stance) -> TurnResult:
        """Standing, crouched, prone: changing costs the interaction (P-TURN-2)."""
        if new is current:
            return Refused(RefusalCode.SAME_STANCE, {"stance": new.value})
        if self.in_turn and self.interaction_used:
            return Refused(RefusalCode.STANCE_NEEDS_INTERACTION)
        return self.use_interaction()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "in_turn": self.in_turn,
            "movement_spent": self.movement_spent,
            "action": self.action,
            "interaction_used": self.interaction_used,
            "bonus_used": self.bonus_used,
            "reaction_used": self.reaction_used,
        }
        if self.stepped:
            # Written only when taken, so that the state (and its hash) of a battle without
            # 5-foot steps (every periferie one) is as it was before they existed.
            data["stepped"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TurnState:
        try:
            return cls(
                in_turn=bool(data["in_turn"]),
                movement_spent=int(data["movement_spent"]),
                action=None if data["action"] is None else str(data["action"]),
                interaction_used=bool(data["interaction_used"]),
                bonus_used=bool(data["bonus_used"]),
                reaction_used=bool(data["reaction_used"]),
                stepped=bool(data.get("stepped", False)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise TurnStateError(f"bad turn state {dict(data)!r}: {exc!r}") from None


_NOT_YOUR_TURN = Refused(RefusalCode.NOT_YOUR_TURN)
