"""The ruleset interface: what the query, the battle and the window ask of a combat system.

One object per ruleset, chosen by the id in the one list (`game/rules/registry.py`). Its pure
rules live in `game/rules/<id>/` (periferie's in the modules of `game/rules/` themselves) with
its data in `game/data/<id>/`; the object sits here, in tactics, because it combines those rules
with the shared grid (line of sight, cover samples, distances, path search), which pure rules
may not import. Code asks the object; nothing branches on a ruleset's name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from game.grid.model import Cell
from game.rules import registry
from game.rules.data import RulesData
from game.rules.reader import as_cell, as_str, fail
from game.tactics.battlefield import Battlefield, EntitySheet

Json = dict[str, Any]
#: A `tessera query` question: (battlefield, the query object, where it is in the file) -> answer.
QueryHandler = Callable[[Battlefield, Mapping[str, object], str], Json]

#: Scenario entity fields every ruleset reads the same way (QUERY-FORMAT.md, RULESETS.md §4).
SHARED_ENTITY_FIELDS = ("id", "faction", "at", "name", "stance", "size", "neutral")


@dataclass(frozen=True)
class Query:
    """One query kind a ruleset answers, with the fields it accepts besides `q`."""

    handler: QueryHandler
    fields: tuple[str, ...]


class Ruleset(Protocol):
    """A combat system on the shared grid."""

    @property
    def id(self) -> str:
        """The id maps, scenarios and journals name it by (registry.IDS)."""
        ...

    @property
    def entity_fields(self) -> tuple[str, ...]:
        """The scenario entity fields it reads besides SHARED_ENTITY_FIELDS; others are refused."""
        ...

    @property
    def queries(self) -> Mapping[str, Query]:
        """The `tessera query` kinds it answers besides the shared ones (los, distance, chance)."""
        ...

    def read_entity(
        self, spec: Mapping[str, object], where: str, base: EntitySheet, rules: RulesData
    ) -> EntitySheet:
        """`base` (the shared fields read) completed from the ruleset's own fields of `spec`;
        bad input is a ScenarioError naming `where` and the field."""
        ...

    def unit_fields(
        self, template: str | None, weapon: str | None, armour: str | None
    ) -> dict[str, object]:
        """The scenario entity fields of a map's unit from its Tiled properties (periferie's
        template, weapon and armour ids); another ruleset gives its sample sheet instead."""
        ...


def ruleset_for(ruleset_id: str) -> Ruleset:
    """The object of the ruleset `ruleset_id` (registry.UnknownRuleset if it is not listed)."""
    return _load(registry.ruleset(ruleset_id).id)


@cache
def _load(ruleset_id: str) -> Ruleset:
    # Each listed id has a module game.tactics.rulesets.<id> holding RULESET; the list itself
    # stays the registry's (a test checks that every id has its object).
    module = importlib.import_module(f"game.tactics.rulesets.{ruleset_id}")
    found: Ruleset = module.RULESET
    return found


def entity_arg(bf: Battlefield, spec: Mapping[str, object], key: str, where: str) -> EntitySheet:
    """The entity a query names under `key`, or a ScenarioError listing the known ids."""
    if key not in spec:
        fail(f"{where}.{key}", "missing (an entity id)")
    entity_id = as_str(spec[key], f"{where}.{key}")
    if entity_id not in bf.by_id:
        fail(f"{where}.{key}", f"no entity {entity_id!r} (known: {', '.join(bf.by_id)})")
    return bf.by_id[entity_id]


def point_arg(
    bf: Battlefield, spec: Mapping[str, object], key: str, where: str
) -> Cell | EntitySheet:
    """An entity id or a cell inside the map, as a query gives a point."""
    if key not in spec:
        fail(f"{where}.{key}", "missing (an entity id or a cell [x, y, z])")
    value = spec[key]
    if isinstance(value, str):
        return entity_arg(bf, spec, key, where)
    cell = as_cell(value, f"{where}.{key}")
    if not bf.grid.in_bounds(cell):
        w, h, d = bf.grid.shape
        fail(f"{where}.{key}", f"{cell} is outside the {w}x{h}x{d} map")
    return cell
