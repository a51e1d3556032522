"""Scenario JSON (QUERY-FORMAT.md) to a Battlefield, refusing bad input with the place named."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from game.grid.model import Cell, Grid, Obstacle, Terrain
from game.grid.occupants import Size
from game.rules import checknames, registry
from game.rules.data import (
    Armour,
    RulesData,
    RulesDataError,
    Weapon,
    load_rules,
    parse_armour,
    parse_weapon,
)
from game.rules.movement import Speeds
from game.rules.reader import (
    ScenarioError,
    as_bool,
    as_cell,
    as_int,
    as_list,
    as_number,
    as_object,
    as_str,
    choice,
    fail,
)
from game.rules.stance import Stance
from game.rules.wounds import CONDITIONS, Health
from game.scenario.source import read_scenario
from game.tactics.battlefield import Battlefield, EntitySheet

if TYPE_CHECKING:  # loaded with a .tmx map only (`_load_tmx`): an inline map needs no Tiled
    from game.maps import LoadedMap

#: The largest inline map accepted, checked before anything is allocated.
MAX_CELLS = 4_000_000
OBSTACLE_NAMES = ("none", "half", "full", "thin")  # G-2, in the contract's order
TERRAIN_NAMES = tuple(t.name.lower() for t in Terrain if t and t.name)  # G-3
Item = TypeVar("Item", Weapon, Armour)
ENTITY_FIELDS = (
    "id",
    "faction",
    "at",
    "name",
    "template",
    "stance",
    "size",
    "neutral",
    "checks",
    "weapon",
    "armour",
    "wounds",
    "conditions",
    "speeds",
    "thrusters",
    "in_flight",
    "velocity",
)


def load_scenario(source: str) -> tuple[Battlefield, list[object]]:
    """Read a scenario file (or `-` for standard input) into a battlefield and its query list."""
    return parse_scenario(*read_scenario(source))


def parse_scenario(data: object, base: Path) -> tuple[Battlefield, list[object]]:
    top = as_object(data, "scenario", ("ruleset", "map", "battle", "entities", "queries"))
    ruleset = choice(top.get("ruleset", registry.DEFAULT), "ruleset", registry.IDS)
    rules = load_rules(ruleset)
    if "battle" in top:
        if "map" in top:
            fail("battle", "give either a map or a battle journal, not both")
        grid, map_entities = _load_battle(top["battle"], base)
    elif "map" not in top:
        fail("map", "missing (an inline map, a path to a .tmx file, or a battle journal)")
    else:
        grid, map_entities = _parse_map(top["map"], base, rules)
    # A .tmx map brings its own units; listing entities in the scenario replaces them.
    entities = _parse_entities(top["entities"], grid, rules) if "entities" in top else map_entities
    queries = as_list(top.get("queries", []), "queries")
    return Battlefield(grid, entities, rules, ruleset), queries


def _load_battle(value: object, base: Path) -> tuple[Grid, tuple[EntitySheet, ...]]:
    """A battle journal as the battlefield: the grid as the GM left it and the units as they
    stand now (wounds, stances, conditions) after replaying every command."""
    # Imported here: only this kind of scenario needs the battle engine (and esper).
    from game.battle.journal import JournalError
    from game.battle.session import Session

    path = (base / as_str(value, "battle")).resolve()
    try:
        session = Session.open(path, for_append=False)
    except (JournalError, OSError) as exc:
        fail("battle", str(exc))
    try:
        field = session.battle.bf
        return field.grid, field.entities
    finally:
        session.close()


def _parse_map(value: object, base: Path, rules: RulesData) -> tuple[Grid, tuple[EntitySheet, ...]]:
    if isinstance(value, str):
        return _load_tmx(value, base, rules)
    spec = as_object(value, "map", ("size", "gravity", "pressurised", "cells"))
    if "size" not in spec:
        fail("map.size", "missing ([width, height, levels])")
    size = as_list(spec["size"], "map.size")
    if len(size) != 3:
        fail("map.size", "expected [width, height, levels]")
    w, h, d = (as_int(v, f"map.size[{i}]", low=1) for i, v in enumerate(size))
    if w * h * d > MAX_CELLS:
        fail("map.size", f"{w}x{h}x{d} is {w * h * d} cells; at most {MAX_CELLS} are supported")
    gravity = as_number(spec.get("gravity", 0.2), "map.gravity", low=0.0)
    pressurised = as_bool(spec.get("pressurised", True), "map.pressurised")
    obstacle = np.zeros((w, h, d), dtype=np.uint8)
    terrain = np.zeros((w, h, d), dtype=np.uint8)
    floor = np.zeros((w, h, d), dtype=np.bool_)
    for i, raw in enumerate(as_list(spec.get("cells", []), "map.cells")):
        where = f"map.cells[{i}]"
        cell = as_object(raw, where, ("at", "obstacle", "terrain", "floor"))
        if "at" not in cell:
            fail(f"{where}.at", "missing")
        at = _in_map(as_cell(cell["at"], f"{where}.at"), (w, h, d), f"{where}.at")
        if "obstacle" in cell:
            name = choice(cell["obstacle"], f"{where}.obstacle", OBSTACLE_NAMES)
            obstacle[at] = Obstacle.from_name(name)
        if "terrain" in cell:
            names = [
                choice(t, f"{where}.terrain[{j}]", TERRAIN_NAMES)
                for j, t in enumerate(as_list(cell["terrain"], f"{where}.terrain"))
            ]
            terrain[at] = int(Terrain.from_names(names))
        if "floor" in cell:
            floor[at] = as_bool(cell["floor"], f"{where}.floor")
    grid = Grid.build(obstacle, terrain, floor, gravity=gravity, pressurised=pressurised)
    return grid, ()


def _load_tmx(value: str, base: Path, rules: RulesData) -> tuple[Grid, tuple[EntitySheet, ...]]:
    from game.maps import MapError, load_map

    try:
        loaded = load_map((base / value).resolve())
    except MapError as exc:
        raise ScenarioError(f"map: {exc}") from None
    return loaded.grid, entities_from_map(loaded, rules, f"{value}: units")


def entities_from_map(loaded: LoadedMap, rules: RulesData, where: str) -> tuple[EntitySheet, ...]:
    """The sheets of a map's units on the field at the start (reinforcements come later)."""
    raws: list[dict[str, object]] = []
    for unit in loaded.units:
        if unit.arrives_round is not None:
            continue
        raw: dict[str, object] = {
            "id": unit.name,
            "faction": unit.faction,
            "at": list(unit.cell),
            "stance": unit.stance.value,
            "size": unit.size.name.lower(),
            "neutral": unit.neutral,
        }
        for key in ("template", "weapon", "armour"):
            if getattr(unit, key) is not None:
                raw[key] = getattr(unit, key)
        raws.append(raw)
    return _parse_entities(raws, loaded.grid, rules, where)


def _in_map(cell: Cell, shape: tuple[int, int, int], where: str) -> Cell:
    w, h, d = shape
    if not (0 <= cell[0] < w and 0 <= cell[1] < h and 0 <= cell[2] < d):
        fail(where, f"{cell} is outside the {w}x{h}x{d} map")
    return cell


def _parse_entities(
    value: object, grid: Grid, rules: RulesData, where_prefix: str = "entities"
) -> tuple[EntitySheet, ...]:
    sheets: list[EntitySheet] = []
    seen_ids: dict[str, int] = {}
    seen_cells: dict[Cell, str] = {}
    for i, raw in enumerate(as_list(value, where_prefix)):
        where = f"{where_prefix}[{i}]"
        sheet = _parse_entity(raw, where, grid, rules)
        if sheet.id in seen_ids:
            fail(f"{where}.id", f"{sheet.id!r} is already used by entities[{seen_ids[sheet.id]}]")
        if sheet.cell in seen_cells:
            fail(f"{where}.at", f"{sheet.cell} is already occupied by {seen_cells[sheet.cell]!r}")
        seen_ids[sheet.id] = i
        seen_cells[sheet.cell] = sheet.id
        sheets.append(sheet)
    return tuple(sheets)


def _parse_entity(raw: object, where: str, grid: Grid, rules: RulesData) -> EntitySheet:
    spec = as_object(raw, where, ENTITY_FIELDS)
    for key in ("id", "faction", "at"):
        if key not in spec:
            fail(f"{where}.{key}", "missing")
    entity_id = as_str(spec["id"], f"{where}.id")
    faction = as_str(spec["faction"], f"{where}.faction")
    cell = _in_map(as_cell(spec["at"], f"{where}.at"), grid.shape, f"{where}.at")
    if grid.obstacle[cell]:
        fail(f"{where}.at", f"{cell} is inside a {grid.obstacle_at(cell).name.lower()} obstacle")

    template_id = choice(
        spec.get("template", "human"), f"{where}.template", sorted(rules.templates)
    )
    template = rules.templates[template_id]
    checks: dict[str, int] = dict(template.checks)
    if "checks" in spec:
        for name, v in as_object(spec["checks"], f"{where}.checks").items():
            if name not in checknames.ALL:  # a typo must not silently become a bonus of 0
                fail(
                    f"{where}.checks",
                    f"unknown check {name!r} (known: {', '.join(checknames.ALL)})",
                )
            checks[name] = as_int(v, f"{where}.checks[{name!r}]", low=-20, high=40)
    speeds_map: dict[str, object] = dict(template.speeds)
    if "speeds" in spec:
        speeds_map.update(as_object(spec["speeds"], f"{where}.speeds"))
    try:
        speeds = Speeds.from_mapping(speeds_map, f"{where}.speeds")
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None

    weapon = weapon_ref(spec.get("weapon", template.weapon), f"{where}.weapon", rules)
    armour = armour_ref(spec.get("armour", template.armour), f"{where}.armour", rules)
    return EntitySheet(
        id=entity_id,
        faction=faction,
        cell=cell,
        stance=Stance.from_name(
            choice(spec.get("stance", "standing"), f"{where}.stance", [s.value for s in Stance])
        ),
        size=Size.from_name(
            choice(spec.get("size", template.size), f"{where}.size", [z.name.lower() for z in Size])
        ),
        neutral=as_bool(spec.get("neutral", False), f"{where}.neutral"),
        checks=MappingProxyType(checks),
        weapon=weapon,
        armour=armour,
        health=_parse_health(spec, where),
        speeds=speeds,
        thrusters=as_bool(spec.get("thrusters", template.thrusters), f"{where}.thrusters"),
        vulnerability=template.vulnerability,
        in_flight=as_bool(spec.get("in_flight", False), f"{where}.in_flight"),
        velocity=as_cell(spec.get("velocity", [0, 0, 0]), f"{where}.velocity"),
    )


def weapon_ref(value: object, where: str, rules: RulesData) -> Weapon | None:
    """A weapon given by id from the rules data or as an inline object; None for none."""
    return _by_id_or_inline(value, where, "weapon", rules.weapons, parse_weapon)


def armour_ref(value: object, where: str, rules: RulesData) -> Armour | None:
    """An armour given by id from the rules data or as an inline object; None for none."""
    return _by_id_or_inline(value, where, "armour", rules.armour, parse_armour)


def _by_id_or_inline(
    value: object,
    where: str,
    kind: str,
    table: Mapping[str, Item],
    parse: Callable[[str, Mapping[str, object], str], Item],
) -> Item | None:
    if value is None:
        return None
    if isinstance(value, str):
        if value not in table:
            fail(where, f"unknown {kind} id {value!r} (known: {', '.join(sorted(table))})")
        return table[value]
    try:
        return parse(f"inline {kind}", as_object(value, where), where)
    except RulesDataError as exc:
        raise ScenarioError(str(exc)) from None


def _parse_health(spec: Mapping[str, object], where: str) -> Health:
    wounds = as_object(spec.get("wounds", {}), f"{where}.wounds", ("light", "grave", "mortal"))
    conditions = [
        choice(c, f"{where}.conditions[{j}]", CONDITIONS)
        for j, c in enumerate(as_list(spec.get("conditions", []), f"{where}.conditions"))
    ]
    try:
        return Health.from_dict({**wounds, "conditions": conditions}, f"{where}.wounds")
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None


__all__ = ["ScenarioError", "load_scenario", "parse_scenario"]
