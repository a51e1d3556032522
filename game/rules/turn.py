"""What an entity has spent of its turn: movement, action, interaction, bonus action, reaction."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from game.rules.stance import Stance


@dataclass(frozen=True)
class Ok:
    """The request is allowed and its cost has been paid."""


@dataclass(frozen=True)
class Refused:
    """The request is not allowed; nothing was spent. `reason` is meant for the player."""

    reason: str


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

    def start_turn(self) -> None:
        """Everything comes back, the reaction included (P-TURN-1)."""
        self.in_turn = True
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
                f"Not enough movement: {self.movement_left(limit)} of {limit} points left, "
                f"this move costs {points}."
            )
        self.movement_spent += points
        return Ok()

    def use_action(self, kind: str) -> TurnResult:
        if not kind.strip():
            raise TurnStateError("an action needs a kind, e.g. 'attack' or 'dash'")
        if not self.in_turn:
            return _NOT_YOUR_TURN
        if self.action is not None:
            return Refused(f"The action of this turn is already used ({self.action}).")
        self.action = kind
        return Ok()

    def use_interaction(self) -> TurnResult:
        if not self.in_turn:
            return _NOT_YOUR_TURN
        if self.interaction_used:
            return Refused("The interaction of this turn is already used.")
        self.interaction_used = True
        return Ok()

    def use_bonus_action(self) -> TurnResult:
        if not self.in_turn:
            return _NOT_YOUR_TURN
        if self.bonus_used:
            return Refused("The bonus action of this turn is already used.")
        self.bonus_used = True
        return Ok()

    def use_reaction(self) -> TurnResult:
        """Once per round, in or out of the own turn (P-TURN-1)."""
        if self.reaction_used:
            return Refused(
                "The reaction is already used; it comes back at the start of the next turn."
            )
        self.reaction_used = True
        return Ok()

    def change_stance(self, current: Stance, new: Stance) -> TurnResult:
        """Standing, crouched, prone: changing costs the interaction (P-TURN-2)."""
        if new is current:
            return Refused(f"Already {new.value}.")
        if self.in_turn and self.interaction_used:
            return Refused("Changing stance costs the interaction, already used this turn.")
        return self.use_interaction()

    def to_dict(self) -> dict[str, Any]:
        return {
            "in_turn": self.in_turn,
            "movement_spent": self.movement_spent,
            "action": self.action,
            "interaction_used": self.interaction_used,
            "bonus_used": self.bonus_used,
            "reaction_used": self.reaction_used,
        }

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
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise TurnStateError(f"bad turn state {dict(data)!r}: {exc!r}") from None


_NOT_YOUR_TURN = Refused("Only during this entity's own turn.")
