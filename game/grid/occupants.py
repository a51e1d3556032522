"""Who stands where, and how each entity relates to another (P-LOS-3, P-MOV-4, G-5)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum

import numpy as np
from numpy.typing import NDArray

from game.grid.model import Cell

#: Movement codes per cell for one mover (P-MOV-4): passable, +1 to pass, impassable.
MOVE_FREE = 0
MOVE_PASS_COST = 1
MOVE_BLOCKED = 2
#: An ally's or neutral's cell passed at no extra cost: a ruleset whose movement has no
#: P-MOV-4 +1 (d20, D-2: the 3.5 base moves through an ally's square freely).
MOVE_PASS_FREE = 3


class Size(IntEnum):
    SMALL = 0
    MEDIUM = 1
    LARGE = 2

    @classmethod
    def from_name(cls, name: str) -> Size:
        try:
            return cls[name.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown size {name!r} (expected small, medium or large)") from None


class Relation(Enum):
    SELF = "self"
    ALLY = "ally"
    NEUTRAL = "neutral"
    ENEMY = "enemy"


@dataclass(frozen=True)
class Occupant:
    """An entity as the grid sees it: a cell, a faction, a size."""

    id: str
    cell: Cell
    faction: str
    size: Size = Size.MEDIUM
    #: A neutral entity is neither ally nor enemy of the other factions.
    neutral: bool = False


def relation(viewer: Occupant, other: Occupant) -> Relation:
    """Same faction: ally; either side neutral: neutral; otherwise enemy."""
    if viewer.id == other.id:
        return Relation.SELF
    if viewer.faction == other.faction:
        return Relation.ALLY
    if viewer.neutral or other.neutral:
        return Relation.NEUTRAL
    return Relation.ENEMY


class Occupancy:
    """The entities on a grid of `shape`, indexed for the kernels.

    `index[x, y, z]` is the position of the occupant in `occupants`, or -1. Kernels take this
    array plus a per-occupant flag vector built for one viewer, so nothing grid-sized is copied
    per viewer.

    Two entities share a cell only after a move nobody could steer ended there (P-MOV-8). The
    index then names the first of them in `occupants`, and the per-viewer flags of that one
    speak for the whole cell (it blocks a viewer or a mover if any of its occupants does);
    `all_at` and `shared` name them all.
    """

    def __init__(self, shape: tuple[int, int, int], occupants: Iterable[Occupant]) -> None:
        self.occupants: tuple[Occupant, ...] = tuple(occupants)
        self.index: NDArray[np.int32] = np.full(shape, -1, dtype=np.int32)
        together: dict[Cell, list[Occupant]] = {}
        for i, occ in enumerate(self.occupants):
            if self.index[occ.cell] != -1:
                first = self.occupants[int(self.index[occ.cell])]
                together.setdefault(occ.cell, [first]).append(occ)
                if len(together[occ.cell]) > 2:
                    names = ", ".join(o.id for o in together[occ.cell])
                    raise ValueError(f"{names} all stand in {occ.cell}: two at most share a cell")
                continue
            self.index[occ.cell] = i
        self.index.setflags(write=False)
        #: The cells two entities share (P-MOV-8), with both, in `occupants` order.
        self.shared: dict[Cell, tuple[Occupant, ...]] = {
            cell: tuple(occs) for cell, occs in together.items()
        }
        self._by_id = {o.id: o for o in self.occupants}
        self._blockers: dict[Occupant, NDArray[np.uint8]] = {}
        #: The occupants' cells as rows, in `occupants` order (for the kernels).
        self.cells: NDArray[np.int64] = np.array(
            [o.cell for o in self.occupants], dtype=np.int64
        ).reshape(len(self.occupants), 3)
        self.cells.setflags(write=False)

    def __getitem__(self, entity_id: str) -> Occupant:
        return self._by_id[entity_id]

    def at(self, cell: Cell) -> Occupant | None:
        """The entity in `cell` (of two sharing it, the first in `occupants`)."""
        i = int(self.index[cell])
        return None if i < 0 else self.occupants[i]

    def all_at(self, cell: Cell) -> tuple[Occupant, ...]:
        """Every entity in `cell`: none, one, or the two that share it (P-MOV-8)."""
        both = self.shared.get(cell)
        if both is not None:
            return both
        one = self.at(cell)
        return () if one is None else (one,)

    def _cell_flags(self, flags: NDArray[np.uint8], viewer: Occupant) -> None:
        """A shared cell's flag is its first occupant's, raised to the other's (not counting
        the viewer itself, whose own cell never blocks it)."""
        for cell, occs in self.shared.items():
            i = int(self.index[cell])
            others = [o for o in occs if o.id != viewer.id]
            if len(others) < len(occs):
                flags[i] = 0  # the viewer's or mover's own cell
                continue
            flags[i] = max(flags[self.occupants.index(o)] for o in others)

    def sight_blockers(self, viewer: Occupant | None) -> NDArray[np.uint8]:
        """P-LOS-3: per occupant, 1 if it blocks the viewer's sight like a full cell.

        Allies never block; enemies and neutrals of medium size or larger do. With no viewer
        (a cell where nobody stands) sight is terrain-only.
        """
        cached = None if viewer is None else self._blockers.get(viewer)
        if cached is not None:
            return cached  # the occupants never change: the flags are asked for on every hover
        flags = np.zeros(max(1, len(self.occupants)), dtype=np.uint8)
        if viewer is None:
            return flags
        for i, occ in enumerate(self.occupants):
            rel = relation(viewer, occ)
            if rel in (Relation.ENEMY, Relation.NEUTRAL) and occ.size >= Size.MEDIUM:
                flags[i] = 1
        if self.shared:
            self._cell_flags(flags, viewer)
        flags.setflags(write=False)
        self._blockers[viewer] = flags
        return flags

    def move_codes(self, mover: Occupant, ally_cost: bool = True) -> NDArray[np.uint8]:
        """P-MOV-4: per occupant, MOVE_BLOCKED for enemies, MOVE_PASS_COST for allies/neutrals
        (MOVE_PASS_FREE without `ally_cost`: passing them costs nothing extra)."""
        passing = MOVE_PASS_COST if ally_cost else MOVE_PASS_FREE
        codes = np.zeros(max(1, len(self.occupants)), dtype=np.uint8)
        for i, occ in enumerate(self.occupants):
            rel = relation(mover, occ)
            if rel is Relation.ENEMY:
                codes[i] = MOVE_BLOCKED
            elif rel in (Relation.ALLY, Relation.NEUTRAL):
                codes[i] = passing
        if self.shared:
            self._cell_flags(codes, mover)
        return codes
