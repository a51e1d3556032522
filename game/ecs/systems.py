"""Systems over the battle world: the rules' view of it (a Battlefield) and what each side sees."""

from __future__ import annotations

import base64
import binascii
import math
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.ecs.components import (
    Armed,
    Armoured,
    Faction,
    Grabbed,
    Identity,
    Motion,
    Position,
    Posture,
    RulesetSheet,
    Sheet,
    Unbalanced,
    Visibility,
    Wounds,
)
from game.ecs.world import BattleWorld
from game.grid.los import cells_in_view, visibility_matrix
from game.grid.model import Cell, Grid
from game.rules.data import RulesData
from game.rules.wounds import can_see
from game.tactics.battlefield import Battlefield, EntitySheet, FieldConditions


def entity_sheet(world: BattleWorld, rules: RulesData, unit_id: str) -> EntitySheet:
    """The rules' picture of one unit on the map, made from its components."""
    sheet = world.get(unit_id, Sheet)
    faction = world.get(unit_id, Faction)
    weapon = world.get(unit_id, Armed).weapon
    armour = world.get(unit_id, Armoured).armour
    motion = world.get(unit_id, Motion)
    own = world.try_get(unit_id, RulesetSheet)  # a ruleset's own sheet (none: periferie's)
    grabbed = world.try_get(unit_id, Grabbed)  # Myst's grab and push (002:l.101-116)
    unbalanced = world.try_get(unit_id, Unbalanced)
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
        sheet=None if own is None else own.sheet,
        hold=None if grabbed is None else (grabbed.other, grabbed.holding),
        unbalanced=0 if unbalanced is None else unbalanced.penalty,
        hidden_from=_hidden_from(world, unit_id),
    )


def _hidden_from(world: BattleWorld, unit_id: str) -> frozenset[str]:
    vis = world.try_get(unit_id, Visibility)
    return frozenset() if vis is None else vis.hidden_from


def battlefield(
    world: BattleWorld,
    grid: Grid,
    rules: RulesData,
    ruleset: str,
    conditions: FieldConditions | None = None,
) -> Battlefield:
    """The immutable battlefield tactics reads: every unit standing on the map, sorted by id,
    in the battle's light, smoke and weather (None: the map's)."""
    units = tuple(entity_sheet(world, rules, u) for u in world.units_with(Identity, Position))
    return Battlefield(grid, units, rules, ruleset, conditions)


@dataclass
class FactionSight:
    """What one faction sees now and remembers, per cell of the [x, y, z] grid, and which units."""

    seen: NDArray[np.bool_]
    remembered: NDArray[np.bool_]
    units: frozenset[str] = frozenset()
    #: Where each unit of another faction was last seen (kept while it is out of sight).
    last_known: dict[str, Cell] = field(default_factory=dict)
    #: Units of other factions this one caught sight of during the last command only, where
    #: (a sneaking unit's failed check, P-STL-1, though it went on out of sight after).
    glimpsed: dict[str, Cell] = field(default_factory=dict)


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
        # Per unit: its kept view's array as last packed for the digest, and the bytes.
        self._packed_views: dict[str, tuple[NDArray[np.bool_], bytes]] = {}

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
            # Sorted: the order of first sightings is the order a snapshot writes, and a set's
            # order changes with PYTHONHASHSEED (the same battle must write the same bytes).
            for unit_id in sorted(units):
                if bf.by_id[unit_id].faction != faction:
                    sight.last_known[unit_id] = bf.by_id[unit_id].cell
            newly[faction] = frozenset(units - sight.units)
            sight.units = frozenset(units)
        return newly

    def glimpse(self, faction: str, unit_id: str, cell: Cell) -> None:
        """`faction` sees `unit_id` at `cell` for a moment, in the middle of a command: it is
        marked seen there (its last known cell) whether or not it stays in sight."""
        sight = self.factions[faction]
        sight.glimpsed[unit_id] = cell
        sight.last_known[unit_id] = cell

    def clear_glimpses(self) -> None:
        """A new command begins: the last one's glimpses are history (the log keeps them)."""
        for sight in self.factions.values():
            sight.glimpsed.clear()

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

    def view_digest_parts(self) -> list[bytes]:
        """Bytes that pin down each unit's kept view (its key and cells), for the state hash:
        a view is state, kept while its unit stays in its cell. A view's array is packed again
        only when it is a new one (`update` never changes a kept view's array in place)."""
        parts = []
        for unit, (key, mask) in sorted(self._views.items(), key=lambda item: item[0]):
            packed = self._packed_views.get(unit)
            if packed is None or packed[0] is not mask:
                packed = (mask, np.packbits(mask).tobytes())
                self._packed_views[unit] = packed
            (x, y, z), sees, grid_version = key
            text = f"{unit}\0{int(x)},{int(y)},{int(z)}\0{int(sees)}\0{int(grid_version)}"
            parts.append(text.encode("utf-8", "surrogatepass"))
            parts.append(packed[1])
        if len(self._packed_views) > len(self._views):  # units gone: their bytes go too
            self._packed_views = {u: p for u, p in self._packed_views.items() if u in self._views}
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

    # ------------------------------------------------------------ snapshots

    def to_json(self) -> dict[str, Any]:
        """Everything the fog keeps, as plain data for a battle snapshot: each faction's seen
        and remembered cells, units in sight and last known cells, and each unit's cached view
        with its key. The views are state, not a cache that could be rebuilt: a view is kept
        while its unit's cell stays, though units moving since may now block some of it."""
        return {
            "factions": [
                {
                    "faction": faction,
                    "seen": pack_mask(sight.seen),
                    "remembered": pack_mask(sight.remembered),
                    "units": sorted(sight.units),
                    "last_known": [[u, list(c)] for u, c in sorted(sight.last_known.items())],
                }
                for faction, sight in sorted(self.factions.items())
            ],
            "views": [
                {"unit": u, "cell": list(k[0]), "sees": k[1], "grid": k[2], "mask": pack_mask(m)}
                for u, (k, m) in sorted(self._views.items(), key=lambda item: item[0])
            ],
        }

    @classmethod
    def from_json(cls, shape: tuple[int, int, int], data: object) -> Vision:
        """The inverse of `to_json` (raises ValueError on data it could not have written)."""
        if not isinstance(data, dict):
            raise ValueError("vision: expected an object")
        vision = cls(shape, ())
        for item in _objects(data.get("factions"), "vision.factions"):
            faction = _text(item.get("faction"), "vision faction")
            units = item.get("units")
            known = item.get("last_known")
            if not isinstance(units, list) or not isinstance(known, list):
                raise ValueError(f"vision of {faction!r}: units and last_known are lists")
            last_known: dict[str, Cell] = {}
            for pair in known:
                if not isinstance(pair, list) or len(pair) != 2:
                    raise ValueError(f"vision of {faction!r}: bad last known cell {pair!r}")
                last_known[_text(pair[0], "unit")] = _cell_of(pair[1])
            vision.factions[faction] = FactionSight(
                unpack_mask(item.get("seen"), shape),
                unpack_mask(item.get("remembered"), shape),
                frozenset(_text(u, "unit") for u in units),
                last_known,
            )
        for item in _objects(data.get("views"), "vision.views"):
            sees, grid_version = item.get("sees"), item.get("grid")
            if not isinstance(sees, bool) or not _whole(grid_version):
                raise ValueError(f"vision: bad view key {item!r}")
            assert isinstance(grid_version, int)
            key = (_cell_of(item.get("cell")), sees, grid_version)
            vision._views[_text(item.get("unit"), "unit")] = (
                key,
                unpack_mask(item.get("mask"), shape),
            )
        return vision


def pack_mask(mask: NDArray[np.bool_]) -> str:
    """A boolean array as text: its packed bits, compressed, in base64 (fog compresses well,
    and zlib's checksum finds a damaged mask)."""
    return pack_bytes(np.packbits(mask))


def unpack_mask(text: object, shape: tuple[int, int, int]) -> NDArray[np.bool_]:
    """The inverse of `pack_mask` for an array of `shape`; ValueError for anything else."""
    size = math.prod(shape)
    raw = _inflate(text, (size + 7) // 8)
    bits = np.unpackbits(np.frombuffer(raw, np.uint8), count=size)
    return bits.astype(np.bool_).reshape(shape)


def pack_bytes(array: NDArray[Any]) -> str:
    """An array's bytes as text, compressed, in base64."""
    packed = zlib.compress(
        np.ascontiguousarray(array).tobytes(), 1
    )  # 3x faster than 6, 1.4x bigger
    return base64.b64encode(packed).decode("ascii")


def unpack_bytes(text: object, shape: tuple[int, int, int]) -> NDArray[np.uint8]:
    """The inverse of `pack_bytes` for a uint8 array of `shape`; ValueError for anything else."""
    return np.frombuffer(_inflate(text, math.prod(shape)), np.uint8).reshape(shape).copy()


def _inflate(text: object, expected: int) -> bytes:
    if not isinstance(text, str):
        raise ValueError("a packed array is text")
    try:
        packed = base64.b64decode(text.encode("ascii"), validate=True)
        inflate = zlib.decompressobj()
        raw = inflate.decompress(packed, expected + 1)  # never more than the array's bytes
        whole = inflate.eof and not inflate.unused_data
    except (UnicodeEncodeError, binascii.Error, zlib.error) as exc:
        raise ValueError(f"a damaged packed array ({exc})") from None
    if len(raw) != expected or not whole:
        raise ValueError(f"a packed array of {len(raw)} bytes, not the {expected} of the map")
    return raw


def _objects(value: object, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ValueError(f"{where}: expected a list of objects")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what}: {value!r} is not text")
    return value


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cell_of(value: object) -> Cell:
    if not isinstance(value, list) or len(value) != 3 or not all(_whole(v) for v in value):
        raise ValueError(f"{value!r} is not a cell")
    return (value[0], value[1], value[2])


def hidden_map(world: BattleWorld) -> dict[str, frozenset[str]]:
    return {u: world.get(u, Visibility).hidden_from for u in world.units_with(Visibility)}


__all__ = [
    "FactionSight",
    "Vision",
    "battlefield",
    "entity_sheet",
    "hidden_map",
    "pack_bytes",
    "pack_mask",
    "unpack_bytes",
    "unpack_mask",
]
