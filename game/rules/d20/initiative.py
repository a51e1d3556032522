"""d20 initiative (D-2): d20 + Dex modifier, ties by the Dex modifier, then by a roll-off."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Initiative:
    """One combatant's place: its d20 face, Dex modifier, score and roll-off face if rolled."""

    id: str
    roll: int
    dex: int
    score: int
    roll_off: int | None = None


@dataclass(frozen=True)
class InitiativeOrder:
    order: tuple[Initiative, ...]
    #: Groups tied on score and Dex modifier (each in the order decided).
    ties: tuple[tuple[str, ...], ...]
    #: Tied groups the roll-offs given do not settle (missing or equal faces): they keep the
    #: order the rolls were listed in until the roll-off is made.
    unsettled: tuple[tuple[str, ...], ...]


def initiative_order(
    combatants: Sequence[tuple[str, int, int]], roll_off: Mapping[str, int] | None = None
) -> InitiativeOrder:
    """(id, d20 face, Dex modifier) in listing order -> the turn order, highest first (D-2)."""
    offs = roll_off or {}
    entries = [Initiative(i, roll, dex, roll + dex, offs.get(i)) for i, roll, dex in combatants]
    for entry in entries:
        if not 1 <= entry.roll <= 20:
            raise ValueError(f"{entry.id}: a d20 face must be 1..20, got {entry.roll}")
    groups: dict[tuple[int, int], list[Initiative]] = {}
    for entry in entries:
        groups.setdefault((entry.score, entry.dex), []).append(entry)
    order: list[Initiative] = []
    ties: list[tuple[str, ...]] = []
    unsettled: list[tuple[str, ...]] = []
    for key in sorted(groups, reverse=True):
        group = groups[key]
        if len(group) > 1:
            faces = [e.roll_off for e in group]
            settled = None not in faces and len(set(faces)) == len(faces)
            if None not in faces:
                # A stable sort: equal roll-off faces keep the listing order.
                group = sorted(group, key=lambda e: -(e.roll_off or 0))
            ties.append(tuple(e.id for e in group))
            if not settled:
                unsettled.append(tuple(e.id for e in group))
        order.extend(group)
    return InitiativeOrder(tuple(order), tuple(ties), tuple(unsettled))
