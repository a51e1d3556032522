"""Systems over the battle world: the rules' view of it (a Battlefield) and what each side sees."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from game.battlefield import Battlefield, EntitySheet
from game.ecs.components import (
    Armed,
    Armoured,
    Faction,
    Identity,
    Motion,
    Position,
    Posture,
    Sheet,
    Visibility,
    Wounds,
)
from game.ecs.world import BattleWorld
from game.grid.los import cells_in_view, visibility_matrix
from game.grid.model import Cell, Grid
from game.rules.data import RulesData
from game.rules.wounds import can_see


def entity_sheet(world: BattleWorld, rules: RulesData, unit_id: str) -> EntitySheet:
    """The rules' picture of one unit on the map, made from its components."""
    sheet = world.get(unit_id, Sheet)
    faction = world.get(unit_id, Faction)
    weapon = world.get(unit_id, Armed).weapon
    armour = world.get(unit_id, Armoured).armour
    motion = world.get(unit_id, Motion)
    return EntitySheet(
        id=unit_id,
        faction=faction.name,
        cell=world.get(unit_id, Position).cell,
        stance=world.get(unit_id, Posture).stance,
        size=sheet.size,
        neutral=faction.neutral,
        checks=sheet.checks,
        weapon=None if weapon is None else rules.weapons[weapon],
        armour=None if armour is None else rules.armour[armour],
        health=world.get(unit_id, Wounds).health,
        speeds=sheet.speeds,
        thrusters=sheet.thrusters,
        vulnerability=sheet.vulnerability,
        in_flight=motion.in_flight,
        velocity=motion.velocity,
    )


def battlefield(world: BattleWorld, grid: Grid, rules: RulesData, ruleset: str) -> Battlefield:
    """The immutable battlefield tactics reads: every unit standing on the map, sorted by id."""
    units = tuple(entity_sheet(world, rules, u) for u in world.units_with(Identity, Position))
    return Battlefield(grid, units, rules, ruleset)


@dataclass
class FactionSight:
    """What one faction sees now and remembers, per cell of the [x, y, z] grid, and which units."""

    seen: NDArray[np.bool_]
    remembered: NDArray[np.bool_]
    units: frozenset[str] = frozenset()
    #: Where each unit of another faction was last seen (kept while it is out of sight).
    last_known: dict[str, Cell] = field(default_factory=dict)


class Vision:
    """Fog of war and unit sightings per faction, recomputed only where a change can matter.

    Cells: each unit's view of the terrain is cached by (its cell, whether it can see, the grid)
    and a faction's fog is the union of its units' views; after a move only the mover's view
    is walked again, and only the mover's side unites its views again. Entities do not hide
    cells from the fog (they hide units: P-LOS-3 applies to the unit sightings, which are exact
    and recomputed after every change).
    """

    def __init__(self, shape: tuple[int, int, int], factions: Iterable[str]) -> None:
        self.shape = shape
        self.factions: dict[str, FactionSight] = {
            f: FactionSight(np.zeros(shape, np.bool_), np.zeros(shape, np.bool_))
            for f in sorted(set(factions))
        }
        self._views: dict[str, tuple[tuple[Cell, bool, int], NDArray[np.bool_]]] = {}
        # Per faction: the views its fog was last made of (the arrays themselves, so that a
        # view walked again reads as a change), to skip the union when none changed.
        self._unions: dict[str, tuple[NDArray[np.bool_], ...]] = {}
        # Per faction: (seen, remembered) as the arrays last packed for the digest, and bytes.
        self._packed: dict[str, tuple[NDArray[np.bool_], NDArray[np.bool_], bytes, bytes]] = {}

    def add_faction(self, faction: str) -> None:
        if faction not in self.factions:
            self.factions[faction] = FactionSight(
                np.zeros(self.shape, np.bool_), np.zeros(self.shape, np.bool_)
            )

    def update(
        self, bf: Battlefield, hidden_from: Mapping[str, frozenset[str]], grid_version: int = 0
    ) -> dict[str, frozenset[str]]:
        """Bring every faction's sight up to date; answer the units each faction newly sees.

        `grid_version` changes whenever the terrain does (a GM edit), so cached views go stale."""
        grid_key = grid_version
        views: dict[str, NDArray[np.bool_]] = {}
        sighted = np.zeros(len(bf.entities), np.bool_)  # can_see, per entity
        for i, e in enumerate(bf.entities):
            key = (e.cell, can_see(e.health), grid_key)
            sighted[i] = key[1]
            cached = self._views.get(e.id)
            if cached is None or cached[0] != key:
                if key[1]:
                    mask = cells_in_view(bf.grid, bf.occupancy, e.occupant)
                else:
                    mask = np.zeros(self.shape, np.bool_)  # P-VUL-3: blinded sees nothing
                    mask[e.cell] = True
                cached = (key, mask)
                self._views[e.id] = cached
            views[e.id] = cached[1]
        for gone in set(self._views) - set(views):
            del self._views[gone]
        matrix = visibility_matrix(bf.grid, bf.occupancy) if bf.entities else None
        newly: dict[str, frozenset[str]] = {}
        for faction, sight in self.factions.items():
            mine = np.array([e.faction == faction for e in bf.entities], dtype=np.bool_)
            own = np.flatnonzero(mine)
            parts = tuple(views[bf.entities[i].id] for i in own)
            previous = self._unions.get(faction)
            if (
                previous is None
                or len(previous) != len(parts)
                or any(a is not b for a, b in zip(previous, parts, strict=True))
            ):
                seen = np.zeros(self.shape, np.bool_)
                for part in parts:
                    seen |= part
                sight.seen = seen
                sight.remembered |= seen
                self._unions[faction] = parts
            # Units of other sides that some unit of this side able to see has in sight.
            spotted: NDArray[np.bool_] = np.zeros(len(bf.entities), np.bool_)
            if matrix is not None:
                spotted = np.any(matrix[own] & sighted[own, None], axis=0)
            units = {
                target.id
                for j, target in enumerate(bf.entities)
                if mine[j]
                or (spotted[j] and faction not in hidden_from.get(target.id, frozenset()))
            }
            for unit_id in units:
                if bf.by_id[unit_id].faction != faction:
                    sight.last_known[unit_id] = bf.by_id[unit_id].cell
            newly[faction] = frozenset(units - sight.units)
            sight.units = frozenset(units)
        return newly

    def forget_unit(self, unit_id: str) -> None:
        for sight in self.factions.values():
            sight.last_known.pop(unit_id, None)

    def digest_parts(self) -> list[bytes]:
        """Bytes that pin down the whole fog state, for the battle's state hash."""
        parts = []
        for faction, sight in sorted(self.factions.items()):
            parts.append(faction.encode())
            parts.extend(self._packed_fog(faction, sight))
            parts.append(",".join(sorted(sight.units)).encode())
            parts.append(repr(sorted(sight.last_known.items())).encode())
        return parts

    def _packed_fog(self, faction: str, sight: FactionSight) -> tuple[bytes, bytes]:
        """The packed seen and remembered cells, packed again only when they changed: `update`
        gives `seen` a new array whenever it changes, and changes `remembered` only then."""
        packed = self._packed.get(faction)
        if packed is None or packed[0] is not sight.seen or packed[1] is not sight.remembered:
            packed = (
                sight.seen,
                sight.remembered,
                np.packbits(sight.seen).tobytes(),
                np.packbits(sight.remembered).tobytes(),
            )
            self._packed[faction] = packed
        return packed[2], packed[3]


def hidden_map(world: BattleWorld) -> dict[str, frozenset[str]]:
    return {u: world.get(u, Visibility).hidden_from for u in world.units_with(Visibility)}


__all__ = ["FactionSight", "Vision", "battlefield", "entity_sheet", "hidden_map"]
