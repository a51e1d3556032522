"""What a command caused, as events that say who may see them (fog of war, secret rolls)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.battle.reasons import Happened
from game.rules.dice import RollRecord

#: The audience of an event seen by everybody.
EVERYONE: frozenset[str] | None = None
#: What a player reads in place of a unit its sides have not seen, or a field they did not see
#: (game/battle/view.py blanks them; game/text/explain_battle.py words them).
UNSEEN = "?"


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

    def to_dict(self) -> dict[str, Any]:
        """The whole event as plain data, for a battle snapshot (to_json is what a player
        reads; this keeps the audience and what each side may not be told, too)."""
        return {
            "kind": str(self.kind),
            "data": dict(self.data),
            "audience": None if self.audience is None else sorted(self.audience),
            "rolls": [r.to_dict() for r in self.rolls],
            "rules": list(self.rules),
            "withheld": {
                faction: {"units": sorted(w.units), "fields": sorted(w.fields)}
                for faction, w in self.withheld.items()
            },
        }

    @classmethod
    def from_dict(cls, data: object) -> Event:
        """The inverse of `to_dict`; ValueError for data it could not have written."""
        if not isinstance(data, dict) or set(data) != _FIELDS:
            raise ValueError(f"an event is an object with the fields {sorted(_FIELDS)}")
        audience, rolls, rules, withheld = (
            data["audience"],
            data["rolls"],
            data["rules"],
            data["withheld"],
        )
        if not isinstance(data["data"], dict):
            raise ValueError("event data: expected an object")
        if not isinstance(rolls, list) or not all(isinstance(r, dict) for r in rolls):
            raise ValueError("event rolls: expected a list of roll records")
        if not isinstance(withheld, dict):
            raise ValueError("event withheld: expected an object")
        return cls(
            Happened(data["kind"]),
            data["data"],
            None if audience is None else frozenset(_names(audience, "audience")),
            tuple(RollRecord.from_dict(r) for r in rolls),
            tuple(_names(rules, "rules")),
            {str(f): _withheld(w) for f, w in withheld.items()},
        )


_FIELDS = frozenset({"kind", "data", "audience", "rolls", "rules", "withheld"})


def _names(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"event {what}: expected a list of names")
    return value


def _withheld(value: object) -> Withheld:
    if not isinstance(value, dict) or set(value) != {"units", "fields"}:
        raise ValueError("event withheld: expected units and fields")
    return Withheld(
        frozenset(_names(value["units"], "withheld units")),
        frozenset(_names(value["fields"], "withheld fields")),
    )
