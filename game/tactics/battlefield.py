"""A battlefield as the rules read it: grid, entity sheets, rules data (query and battle)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from game.grid.model import DARKNESS, SMOKE, WEATHER, Cell, Grid
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
    #: A Myst grab it is in (002:l.107-116): the fighter at the other end, and whether this
    #: one holds it; None: free.
    hold: tuple[str, bool] | None = None
    #: A Myst push or trip's penalty on its next attack or defence (002:l.101); 0: none.
    unbalanced: int = 0
    #: The sides this unit is hidden from (the battle's hiding, P-STL-1/2): a defender of one
    #: of them is not aware of its attacks (Cepheus's dodge, 000:l.162).
    hidden_from: frozenset[str] = frozenset()

    @cached_property
    def occupant(self) -> Occupant:
        # Made once per sheet (frozen): the occupancy holds this very one, so the sight and
        # move kernels' per-viewer flags are found again by identity on every hover.
        return Occupant(self.id, self.cell, self.faction, self.size, self.neutral)

    def has(self, condition: str) -> bool:
        return condition in self.health.conditions


@dataclass(frozen=True)
class FieldConditions:
    """The light, smoke and weather over the whole battlefield (issue 15): the map's `darkness`,
    `smoke` and `weather` properties as a battle begins, then the GM's `field_conditions`. Each
    ruleset reads them from `Battlefield.conditions` and applies its own seed's rule, or none
    (docs/rules.md, "The battlefield's conditions")."""

    darkness: str = "none"
    smoke: str = "none"
    weather: str = "none"

    def __post_init__(self) -> None:
        for name, value, known in self.choices():
            if value not in known:
                raise ValueError(f"{name}: {value!r} is not one of {', '.join(known)}")

    def choices(self) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        """Each condition's name, value and the values it may take, in a fixed order."""
        return (
            ("darkness", self.darkness, DARKNESS),
            ("smoke", self.smoke, SMOKE),
            ("weather", self.weather, WEATHER),
        )

    @staticmethod
    def of_grid(grid: Grid) -> FieldConditions:
        """The map's own (its `darkness`, `smoke` and `weather` properties)."""
        return FieldConditions(grid.darkness, grid.smoke, grid.weather)

    def to_json(self) -> dict[str, str]:
        return {"darkness": self.darkness, "smoke": self.smoke, "weather": self.weather}


@dataclass(frozen=True, eq=False)
class Battlefield:
    """A grid with entities on it; read-only: queries never change it."""

    grid: Grid
    entities: tuple[EntitySheet, ...]
    rules: RulesData
    ruleset: str = registry.DEFAULT
    #: The battle's light, smoke and weather now (the GM may change them); None: the map's.
    field_conditions: FieldConditions | None = None

    @cached_property
    def conditions(self) -> FieldConditions:
        """The light, smoke and weather every attack here is made in (issue 15)."""
        if self.field_conditions is not None:
            return self.field_conditions
        return FieldConditions.of_grid(self.grid)

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
