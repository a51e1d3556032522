"""Turn order: initiative rolls, ties, rounds, surprise, reinforcements, discoveries (P-INIT-*)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any, Literal

from game.rules.dice import Roller, RollRecord


class InitiativeError(ValueError):
    """Bad initiative input: duplicate or unknown entities, a bad tie-break answer, bad data."""


@dataclass(frozen=True)
class Combatant:
    """An entity as initiative sees it; `surprised` is read when the entity joins the order."""

    entity_id: str
    faction: str
    #: The `multitasking (iniziativa)` bonus (P-INIT-1).
    bonus: int
    hidden: bool = False
    surprised: bool = False
    #: Another ruleset's own sheet, for an initiative that reads it (Cepheus: DEX DM, ties by
    #: DEX); not saved, since only the opening roll reads it and the order is what is kept.
    sheet: object = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "entity_id": self.entity_id,
            "faction": self.faction,
            "bonus": self.bonus,
            "hidden": self.hidden,
            "surprised": self.surprised,
        }


@dataclass(frozen=True)
class InitiativeEntry:
    """One place in the order: the roll, its total, and when the entity was listed or arrived."""

    combatant: Combatant
    natural: int
    total: int
    listed: int
    record: RollRecord | None = None
    #: What breaks a tie of totals, higher first, before acting together (Cepheus: the DEX,
    #: 000:l.70, C-1); 0 for a ruleset whose ties are broken otherwise, and then not saved.
    tie: int = 0

    @property
    def entity_id(self) -> str:
        return self.combatant.entity_id

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "combatant": self.combatant.to_dict(),
            "natural": self.natural,
            "total": self.total,
            "listed": self.listed,
            "record": None if self.record is None else self.record.to_dict(),
        }
        if self.tie:  # absent for 0: the journals of rulesets without it keep their bytes
            data["tie"] = self.tie
        return data


#: "faction": tied entries of one faction, ordered by its player; "gm": ties across factions.
TieScope = Literal["faction", "gm"]
#: Returns the same entries in the chosen order (P-INIT-2). See `_resolve_tie` for the contract.
TieBreak = Callable[[Sequence[InitiativeEntry], TieScope], Sequence[InitiativeEntry]]


def default_tie_break(tied: Sequence[InitiativeEntry], scope: TieScope) -> list[InitiativeEntry]:
    """P-INIT-2 headless default: the higher bonus first, then the order of listing."""
    return sorted(tied, key=lambda entry: (-entry.combatant.bonus, entry.listed))


def order_from_rolls(
    entries: Sequence[tuple[Combatant, int]], tie_break: TieBreak = default_tie_break
) -> list[InitiativeEntry]:
    """Turn order from given d20 results (P-INIT-1): totals descending, ties by `tie_break`."""
    _check_unique(combatant.entity_id for combatant, _ in entries)
    rolled = []
    for listed, (combatant, natural) in enumerate(entries):
        if not 1 <= natural <= 20:
            raise InitiativeError(
                f"initiative roll {natural} of {combatant.entity_id!r} is not a d20 result"
            )
        rolled.append(InitiativeEntry(combatant, natural, natural + combatant.bonus, listed))
    return _place([], rolled, tie_break)


class Initiative:
    """The turn order of one battle and where in it the battle stands; plain, serialisable state.

    Before the first `advance()` of a round nobody is active; `advance()` returns who acts next.
    """

    def __init__(self, tie_break: TieBreak = default_tie_break) -> None:
        self.tie_break = tie_break
        self._order: list[InitiativeEntry] = []
        self._pending: list[InitiativeEntry] = []
        self._round = 1
        # whether the current round's first `advance()` has happened
        self._started = False
        # slots at the front of the order whose turn has come this round (acted, acting, skipped)
        self._reached = 0
        self._active: str | None = None
        # entities whose first turn is still to be skipped (P-INIT-5)
        self._skip: set[str] = set()
        self._next_listed = 0
        # Scores changed during a round (a ruleset's dynamic initiative, C-1): what to take
        # back as the round ends, what counts from the next round, and who acts first in it.
        # Empty for a ruleset that never changes a score, so its saved order is as it was.
        self._undo: dict[str, int] = {}
        self._later: dict[str, int] = {}
        self._first_next: list[str] = []

    @classmethod
    def start(
        cls,
        roller: Roller,
        combatants: Sequence[Combatant],
        tie_break: TieBreak = default_tie_break,
    ) -> Initiative:
        """Everyone rolls, hidden entities too (P-INIT-1, P-INIT-4); round 1, nobody active yet."""
        if not combatants:
            raise InitiativeError("initiative needs at least one combatant")
        initiative = cls(tie_break)
        initiative._order = _place([], initiative._admit(roller, combatants), tie_break)
        return initiative

    @property
    def round(self) -> int:
        return self._round

    @property
    def active(self) -> str | None:
        return self._active

    @property
    def pending(self) -> tuple[InitiativeEntry, ...]:
        """Reinforcements rolled and waiting for the next round (P-INIT-6)."""
        return tuple(self._pending)

    def visible_order(self, for_gm: bool) -> list[InitiativeEntry]:
        """The turn order; players do not see hidden entities at all (P-INIT-4)."""
        return [entry for entry in self._order if for_gm or not entry.combatant.hidden]

    def advance(self) -> str | None:
        """End the active turn; return who acts next, starting a new round after the last one.

        The order is kept from round to round (P-INIT-3). None only when nobody is left.
        """
        self._active = None
        self._started = True
        while True:
            while self._reached < len(self._order):
                entity_id = self._order[self._reached].entity_id
                self._reached += 1
                if entity_id in self._skip:
                    self._skip.discard(entity_id)  # P-INIT-5: its skipped turn has now passed
                    continue
                self._active = entity_id
                return entity_id
            if not self._order and not self._pending:
                return None
            self._new_round()

    @property
    def round_over(self) -> bool:
        """Every place of this round has been reached: the next `advance()` starts a new round."""
        return self._started and self._reached >= len(self._order)

    @property
    def to_skip(self) -> frozenset[str]:
        """Surprised entities whose skipped first turn has not yet passed (P-INIT-5)."""
        return frozenset(self._skip)

    def entry(self, entity_id: str) -> InitiativeEntry | None:
        index = self._index(self._order, entity_id)
        return None if index is None else self._order[index]

    def surprise(self, entity_id: str) -> None:
        """The GM marks an entity surprised (P-INIT-5): its next turn is skipped, and it cannot
        react until that turn has passed. The caller ends its turn if it is acting now."""
        if self._index(self._order, entity_id) is None:
            raise InitiativeError(f"cannot surprise {entity_id!r}: not in the initiative order")
        if self._active != entity_id:
            self._skip.add(entity_id)

    def reorder_tied(self, entity_ids: Sequence[str]) -> str | None:
        """The GM or a player orders entities tied on the same total (P-INIT-2), first to last.

        They must all be in the order with one total; they keep the places the group holds.
        A group whose places all lie ahead can be reordered, and so can one whose first place is
        the active entity's with the others still to come: the turn just begun goes to the new
        first. Answers the entity now active when that changed, else None."""
        indices = [self._index(self._order, entity_id) for entity_id in entity_ids]
        if len(set(entity_ids)) != len(entity_ids) or len(entity_ids) < 2:
            raise InitiativeError("a tie order needs two or more different entities")
        if any(index is None for index in indices):
            missing = [e for e, i in zip(entity_ids, indices, strict=True) if i is None]
            raise InitiativeError(f"not in the initiative order: {', '.join(missing)}")
        places = sorted(i for i in indices if i is not None)
        totals = {self._order[i].total for i in places}
        if len(totals) != 1:
            raise InitiativeError("only entities tied on the same total can be reordered")
        reached = [i < self._reached for i in places]
        active_first = (
            self._active is not None
            and places[0] == self._reached - 1
            and self._order[places[0]].entity_id == self._active
            and not any(reached[1:])
        )
        if any(reached) and not active_first and not all(reached):
            raise InitiativeError("some of these entities have already had their turn this round")
        if all(reached) and self._active in entity_ids:
            raise InitiativeError("some of these entities have already had their turn this round")
        entries = [self._order[i] for i in indices if i is not None]
        for place, entry in zip(places, entries, strict=True):
            self._order[place] = entry
        if active_first and self._order[places[0]].entity_id != self._active:
            self._active = self._order[places[0]].entity_id
            return self._active
        return None

    def queue_reinforcements(self, roller: Roller, combatants: Sequence[Combatant]) -> None:
        """They roll now and join at the start of the next round, acting in it (P-INIT-6).

        Before the first turn of the current round they join this round at once.
        """
        entries = self._admit(roller, combatants)
        if self._started:
            self._pending.extend(entries)
        else:
            self._insert(entries)

    def discover(self, roller: Roller, combatant: Combatant) -> None:
        """Roll at once and take a place; act this round only if after the active one (P-INIT-7)."""
        self._insert(self._admit(roller, [combatant]))

    def restart(self, roller: Roller) -> None:
        """The GM has everyone re-roll (P-INIT-3); a new round begins with the new order.

        Called mid-round, the rest of that round is dropped. Waiting reinforcements join now.
        """
        everyone = sorted([*self._order, *self._pending], key=lambda entry: entry.listed)
        rolled = [_roll(roller, entry.combatant, entry.listed) for entry in everyone]
        self._order = _place([], rolled, self.tie_break)
        self._pending = []
        self._undo, self._later, self._first_next = {}, {}, []
        if self._started:
            self._round += 1
        self._started = False
        self._reached = 0
        self._active = None

    def remove(self, entity_id: str) -> None:
        """Take an entity out (dead, fled); if it was acting, its turn ends."""
        index = self._index(self._order, entity_id)
        if index is not None:
            del self._order[index]
            if index < self._reached:
                self._reached -= 1
        else:
            pending_index = self._index(self._pending, entity_id)
            if pending_index is None:
                raise InitiativeError(f"cannot remove {entity_id!r}: not in the initiative order")
            del self._pending[pending_index]
        if self._active == entity_id:
            self._active = None
        self._skip.discard(entity_id)
        self._undo.pop(entity_id, None)
        self._later.pop(entity_id, None)
        if entity_id in self._first_next:
            self._first_next.remove(entity_id)

    def reveal(self, entity_id: str) -> None:
        """A hidden entity is seen: its place is shown to everyone from now on (P-INIT-4)."""
        index = self._index(self._order, entity_id)
        if index is None:
            raise InitiativeError(f"cannot reveal {entity_id!r}: not in the initiative order")
        entry = self._order[index]
        self._order[index] = replace(entry, combatant=replace(entry.combatant, hidden=False))

    def can_react(self, entity_id: str) -> bool:
        """False until a surprised entity's skipped first turn has passed (P-INIT-5).

        Reinforcements still waiting for their round are not on the map yet: False.
        """
        if self._index(self._order, entity_id) is not None:
            return entity_id not in self._skip
        if self._index(self._pending, entity_id) is not None:
            return False
        raise InitiativeError(f"{entity_id!r} is not in the initiative order")

    # ------------------------------------------------ scores that change during a round (C-1)

    def adjust(self, entity_id: str, change: int) -> int:
        """Change a score for one round (C-1): this round's if the entity has still to act and
        the change lowers it (it then acts later among those still to act), otherwise the next
        round's. A change is taken back when the round it counted in ends. Answers the round
        it counts in."""
        index = self._index(self._order, entity_id)
        if index is None:
            raise InitiativeError(f"cannot change {entity_id!r}: not in the initiative order")
        if index < self._reached or change >= 0:
            # A rise for one still to act would put it before those who have acted: it counts
            # from the next round, as every change of one that has acted.
            self._later[entity_id] = self._later.get(entity_id, 0) + change
            return self._round + 1
        entry = self._order.pop(index)
        entry = replace(entry, total=entry.total + change)
        self._undo[entity_id] = self._undo.get(entity_id, 0) - change
        place = index
        while place < len(self._order) and _ahead(self._order[place], entry):
            place += 1
        self._order.insert(place, entry)
        return self._round

    def delay(self, entity_id: str) -> str | None:
        """The active entity acts later this round (000:l.186): right after the next one to
        act, at its score; the last to act instead acts first next round, one above the
        highest score then. Answers whom it now follows, None for the next round."""
        if self._active != entity_id:
            raise InitiativeError(f"only the acting entity may delay, not {entity_id!r}")
        entry = self._order.pop(self._reached - 1)
        self._reached -= 1
        self._active = None
        if self._reached < len(self._order):
            following = self._order[self._reached]
            # at its score, but after it: below its tie-break too (C-1: not acting with it)
            delayed = replace(entry, total=following.total, tie=following.tie - 1)
            self._order.insert(self._reached + 1, delayed)
            return following.entity_id
        low = self._order[-1].total if self._order else entry.total
        self._order.append(replace(entry, total=min(low, entry.total)))
        self._reached = len(self._order)
        self._first_next.append(entity_id)
        return None

    def _changes_at_new_round(self) -> None:
        """The round's changes are taken back, the next round's count, the delayed take the
        lead (C-1); the order is sorted again, ties kept as they stood."""
        if not (self._undo or self._later or self._first_next):
            return
        totals = {e.entity_id: e.total for e in self._order}
        for entity_id, change in [*self._undo.items(), *self._later.items()]:
            if entity_id in totals:
                totals[entity_id] += change
        self._undo = {e: -c for e, c in self._later.items() if e in totals and c}
        self._later = {}
        first = [e for e in self._first_next if e in totals]
        self._first_next = []
        if first:
            others = [t for e, t in totals.items() if e not in first] or list(totals.values())
            top = max(others)
            for entity_id in first:
                # "superiore di un punto a quella della attuale Iniziativa più alta" (l.186):
                # a lasting score, not a one-round change.
                totals[entity_id] = top + 1
                self._undo.pop(entity_id, None)
        ranked = sorted(
            enumerate(self._order),
            key=lambda pair: (
                -totals[pair[1].entity_id],
                pair[1].entity_id not in first,
                -pair[1].tie,  # C-1: a tie to the higher DEX again (0 where not used)
                pair[0],
            ),
        )
        self._order = [replace(entry, total=totals[entry.entity_id]) for _, entry in ranked]

    def to_dict(self) -> dict[str, Any]:
        changes = {}
        if self._undo or self._later or self._first_next:
            changes = {
                "changes": {
                    "undo": dict(sorted(self._undo.items())),
                    "later": dict(sorted(self._later.items())),
                    "first_next": list(self._first_next),
                }
            }
        return {
            **changes,
            "round": self._round,
            "started": self._started,
            "reached": self._reached,
            "active": self._active,
            "skip": sorted(self._skip),
            "next_listed": self._next_listed,
            "order": [entry.to_dict() for entry in self._order],
            "pending": [entry.to_dict() for entry in self._pending],
        }

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], tie_break: TieBreak = default_tie_break
    ) -> Initiative:
        """Restore a saved tracker; the tie-break callback is not saved and is given again."""
        initiative = cls(tie_break)
        try:
            initiative._order = [_entry_from_dict(entry) for entry in data["order"]]
            initiative._pending = [_entry_from_dict(entry) for entry in data["pending"]]
            initiative._round = int(data["round"])
            initiative._started = bool(data["started"])
            initiative._reached = int(data["reached"])
            initiative._active = None if data["active"] is None else str(data["active"])
            initiative._skip = {str(entity_id) for entity_id in data["skip"]}
            initiative._next_listed = int(data["next_listed"])
            changes = data.get("changes", {})
            initiative._undo = {str(k): int(v) for k, v in changes.get("undo", {}).items()}
            initiative._later = {str(k): int(v) for k, v in changes.get("later", {}).items()}
            initiative._first_next = [str(e) for e in changes.get("first_next", [])]
        except (KeyError, TypeError, ValueError) as exc:
            raise InitiativeError(f"bad initiative data: {exc!r}") from None
        initiative._check_consistent()
        return initiative

    def _check_consistent(self) -> None:
        order, everyone = self._order, [*self._order, *self._pending]
        _check_unique(entry.entity_id for entry in everyone)
        if any(a.total < b.total for a, b in pairwise(order)):
            raise InitiativeError("bad initiative data: the order is not by descending total")
        if not 0 <= self._reached <= len(order) or self._round < 1:
            raise InitiativeError(
                f"bad initiative data: round {self._round}, {self._reached} of {len(order)} reached"
            )
        if self._active is not None and (
            self._reached == 0 or order[self._reached - 1].entity_id != self._active
        ):
            raise InitiativeError(f"bad initiative data: active {self._active!r} out of place")
        unknown = self._skip - {entry.entity_id for entry in everyone}
        if unknown:
            raise InitiativeError(
                f"bad initiative data: unknown entities to skip {sorted(unknown)}"
            )

    def _admit(self, roller: Roller, combatants: Sequence[Combatant]) -> list[InitiativeEntry]:
        """Roll for newcomers, numbering them in order of arrival."""
        known = [entry.entity_id for entry in [*self._order, *self._pending]]
        _check_unique([*known, *(combatant.entity_id for combatant in combatants)])
        entries = []
        for combatant in combatants:
            entries.append(_roll(roller, combatant, self._next_listed))
            self._next_listed += 1
            if combatant.surprised:
                self._skip.add(combatant.entity_id)
        return entries

    def _insert(self, entries: list[InitiativeEntry]) -> None:
        """Insert without restarting the round (P-INIT-7): a place among the slots already
        reached this round is a turn that comes only next round."""
        last_reached = self._order[self._reached - 1] if self._reached else None
        self._order = _place(self._order, entries, self.tie_break)
        if last_reached is not None:
            self._reached = self._order.index(last_reached) + 1

    def _new_round(self) -> None:
        """Same order as before (P-INIT-3) but for the scores changed during the round (C-1);
        reinforcements take their places first (P-INIT-6)."""
        self._round += 1
        self._reached = 0
        self._changes_at_new_round()
        pending, self._pending = self._pending, []
        self._insert(pending)

    @staticmethod
    def _index(entries: Sequence[InitiativeEntry], entity_id: str) -> int | None:
        return next((i for i, entry in enumerate(entries) if entry.entity_id == entity_id), None)


def _ahead(entry: InitiativeEntry, of: InitiativeEntry) -> bool:
    """`entry` acts before `of`, or with it, by score, then by tie-break (C-1)."""
    return entry.total > of.total or (entry.total == of.total and entry.tie >= of.tie)


def _roll(roller: Roller, combatant: Combatant, listed: int) -> InitiativeEntry:
    """`multitasking (iniziativa)` check (P-INIT-1); a hidden entity's roll is secret (P-INIT-4)."""
    record = roller.d20(
        f"initiative {combatant.entity_id}", bonus=combatant.bonus, secret=combatant.hidden
    )
    return InitiativeEntry(combatant, record.kept[0], record.total, listed, record)


def _entry_from_dict(data: Mapping[str, Any]) -> InitiativeEntry:
    combatant, record = data["combatant"], data["record"]
    return InitiativeEntry(
        combatant=Combatant(
            entity_id=str(combatant["entity_id"]),
            faction=str(combatant["faction"]),
            bonus=int(combatant["bonus"]),
            hidden=bool(combatant["hidden"]),
            surprised=bool(combatant["surprised"]),
        ),
        natural=int(data["natural"]),
        total=int(data["total"]),
        listed=int(data["listed"]),
        record=None if record is None else RollRecord.from_dict(record),
        tie=int(data.get("tie", 0)),
    )


def _check_unique(entity_ids: Iterable[str]) -> None:
    seen: set[str] = set()
    for entity_id in entity_ids:
        if entity_id in seen:
            raise InitiativeError(f"entity {entity_id!r} is in the initiative order twice")
        seen.add(entity_id)


def _place(
    existing: Sequence[InitiativeEntry], new: Sequence[InitiativeEntry], tie_break: TieBreak
) -> list[InitiativeEntry]:
    """Merge `new` into `existing` (already in turn order) by descending total (P-INIT-1)."""
    totals = sorted({entry.total for entry in [*existing, *new]}, reverse=True)
    return [
        entry
        for total in totals
        for entry in _resolve_tie(
            [entry for entry in existing if entry.total == total],
            [entry for entry in new if entry.total == total],
            tie_break,
        )
    ]


def _resolve_tie(
    old: list[InitiativeEntry], new: list[InitiativeEntry], tie_break: TieBreak
) -> list[InitiativeEntry]:
    """Order one group of equal totals (P-INIT-2).

    Each faction with several tied entries is asked first (scope "faction": its player orders
    them). If several factions tie, the GM is then asked once (scope "gm") with all of them and
    decides only which faction takes each place: each faction's entries fill its places in its
    player's order. Entries already in the order keep their order among themselves (P-INIT-3):
    the tie-break only decides where newcomers go.
    """
    if not new:
        return old
    by_faction: dict[str, list[InitiativeEntry]] = {}
    for entry in [*old, *new]:
        by_faction.setdefault(entry.combatant.faction, []).append(entry)
    for faction, members in by_faction.items():
        if len(members) > 1:
            by_faction[faction] = _ask(tie_break, members, "faction")
    if len(by_faction) == 1:
        (ordered,) = by_faction.values()
    else:
        slots = _ask(tie_break, [entry for group in by_faction.values() for entry in group], "gm")
        queues = {faction: iter(members) for faction, members in by_faction.items()}
        ordered = [next(queues[entry.combatant.faction]) for entry in slots]
    old_in_order = iter(old)
    old_ids = {entry.entity_id for entry in old}
    return [next(old_in_order) if entry.entity_id in old_ids else entry for entry in ordered]


def _ask(
    tie_break: TieBreak, tied: list[InitiativeEntry], scope: TieScope
) -> list[InitiativeEntry]:
    """The callback's answer, checked to be a reordering of `tied`."""
    answer = [entry.entity_id for entry in tie_break(list(tied), scope)]
    by_id = {entry.entity_id: entry for entry in tied}
    if sorted(answer) != sorted(by_id):
        raise InitiativeError(
            f"{scope} tie-break must return a reordering of {sorted(by_id)}, got {answer}"
        )
    return [by_id[entity_id] for entity_id in answer]
