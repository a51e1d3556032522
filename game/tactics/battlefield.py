"""A battlefield as the rules read it: grid, entity sheets, rules data (query and battle)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from game.grid.model import Cell, Grid
from game.grid.occupants import Occupancy, Occupant, Size
from game.rules import registry
from game.rules.data import Armour, RulesData, Weapon
from game.rules.movement import Speeds
from game.rules.stance import Stance
from game.rules.wounds import Health


@dataclass(frozen=True)
class EntitySheet:
    """Everything the rules need to know about one entity at one moment."""

    id: str
    faction: str
    cell: Cell
    stance: Stance = Stance.STANDING
    size: Size = Size.MEDIUM
    neutral: bool = False
    checks: Mapping[str, int] = field(default_factory=dict)
    weapon: Weapon | None = None
    armour: Armour | None = None
    health: Health = field(default_factory=Health)
    speeds: Speeds = field(default_factory=Speeds)
    thrusters: bool = False
    vulnerability: str = "human"
    #: Microgravity flight state (P-ZERO-1): mid-jump, or adrift without thrusters or cable.
    in_flight: bool = False
    velocity: tuple[int, int, int] = (0, 0, 0)
    #: Another ruleset's own frozen sheet (its characteristics, weapon, health); periferie's
    #: sheet is the fields above.
    sheet: object = None
    #: The sides this unit is hidden from (the battle's hiding, P-STL-1/2): a defender of one
    #: of them is not aware of its attacks (Cepheus's dodge, 000:l.162).
    hidden_from: frozenset[str] = frozenset()

    @property
    def occupant(self) -> Occupant:
        return Occupant(self.id, self.cell, self.faction, self.size, self.neutral)

    def has(self, condition: str) -> bool:
        return condition in self.health.conditions


@dataclass(frozen=True, eq=False)
class Battlefield:
    """A grid with entities on it; read-only: queries never change it."""

    grid: Grid
    entities: tuple[EntitySheet, ...]
    rules: RulesData
    ruleset: str = registry.DEFAULT

    @cached_property
    def occupancy(self) -> Occupancy:
        return Occupancy(self.grid.shape, (e.occupant for e in self.entities))

    @cached_property
    def by_id(self) -> Mapping[str, EntitySheet]:
        return {e.id: e for e in self.entities}

    def entity(self, entity_id: str) -> EntitySheet:
        try:
            return self.by_id[entity_id]
        except KeyError:
            raise KeyError(f"no entity with id {entity_id!r}") from None

    def at(self, cell: Cell) -> EntitySheet | None:
        occ = self.occupancy.at(cell)
        return None if occ is None else self.by_id[occ.id]
