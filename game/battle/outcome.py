"""What the battle answers a command with: the events it caused, or a refusal and its reason."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from game.battle.events import Event
from game.battle.reasons import Why
from game.grid.model import Cell
from game.rules.dice import RollRecord

#: Who gives a command when it is not a player: the game master.
GM = "gm"


class Refusal(Exception):
    """A command the state does not allow; nothing has changed. `code` names the reason for the
    text layer, `values` are what the reader needs to understand it."""

    def __init__(self, code: str, **values: object) -> None:
        super().__init__(code)
        self.code = Why(code)  # an unlisted code is a bug: stop here, not in the player's log
        self.values: Mapping[str, object] = MappingProxyType(dict(values))

    def to_json(self) -> dict[str, Any]:
        return {"refused": self.code, **{k: _plain(v) for k, v in self.values.items()}}


def no_chance(reason: str | None, target: str, why: Sequence[str] = ()) -> Refusal:
    """The refusal of an attack the ruleset gives no chance: its reason when the battle has
    that code, else `no_chance` carrying the ruleset's own reason (worded by the text layer)."""
    code = str(reason)
    if code in Why.__members__.values():
        return Refusal(code, target=target, why=tuple(why))
    return Refusal(Why.NO_CHANCE, target=target, reason=code, why=tuple(why))


def _plain(value: object) -> object:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Outcome:
    """The answer to one command: its events, or a refusal; and whether it can be taken back by
    a player (no dice rolled, no unit newly seen by anyone)."""

    events: tuple[Event, ...] = ()
    refusal: Refusal | None = None
    rolls: tuple[RollRecord, ...] = ()
    sighted: bool = False

    @property
    def accepted(self) -> bool:
        return self.refusal is None


@dataclass(frozen=True)
class PendingMove:
    """A move stopped to offer a reaction; it goes on (or ends) once the reaction is answered."""

    mover: str
    reactor: str
    kind: str  # "opportunity" (P-OA-1) or "readied" (P-OA-2)
    to: Cell
    via: tuple[Cell, ...]
    mode: str | None
    offered: tuple[str, ...]
    #: Where the attack finds the mover when not where it waits: the ally's cell a d20 step
    #: left (D-2), the move stopped at the free cell before it.
    attacked_at: Cell | None = None
    #: Not a move: the attacks of opportunity a d20 coup de grâce at this unit provokes
    #: (004:l.118); once every one is answered the blow falls, unless they stopped the attacker.
    coup_de_grace: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "mover": self.mover,
            "reactor": self.reactor,
            "kind": self.kind,
            "to": list(self.to),
            "via": [list(c) for c in self.via],
            "mode": self.mode,
            "offered": list(self.offered),
        }
        if self.attacked_at is not None:  # only then: the other pending moves keep their bytes
            out["attacked_at"] = list(self.attacked_at)
        if self.coup_de_grace is not None:  # likewise
            out["coup_de_grace"] = self.coup_de_grace
        return out
