"""What a command caused, as events that say who may see them (fog of war, secret rolls)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.rules.dice import RollRecord

#: The audience of an event seen by everybody.
EVERYONE: frozenset[str] | None = None


@dataclass(frozen=True)
class Withheld:
    """What one side may not be told of an event it sees: the units it saw neither before nor
    after the command (their ids are blanked), and fields it did not see (a move's end)."""

    units: frozenset[str] = frozenset()
    fields: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Event:
    """One thing that happened. `audience`: the factions that may see it (None: everybody);
    the GM sees every event. `rolls` are the dice behind it (P-CHK-4)."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    audience: frozenset[str] | None = EVERYONE
    rolls: tuple[RollRecord, ...] = ()
    rules: tuple[str, ...] = ()
    #: Per faction, what it may not be told (game/battle/view.py blanks it in a player's log).
    withheld: Mapping[str, Withheld] = field(default_factory=dict)

    def visible_to(self, factions: frozenset[str] | None) -> bool:
        """None stands for the GM, who sees everything."""
        if factions is None or self.audience is None:
            return factions is None or not any(r.secret for r in self.rolls)
        return bool(self.audience & factions)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.kind, **self.data}
        if self.rolls:
            out["rolls"] = [r.to_dict() for r in self.rolls]
        if self.rules:
            out["rules"] = list(self.rules)
        return out
