"""Scenario JSON (QUERY-FORMAT.md) to a Battlefield, refusing bad input with the place named."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from game.grid.model import Cell, Grid, Obstacle, Terrain
from game.grid.occupants import Size
from game.rules import registry
from game.rules.data import RulesData, load_rules
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
from game.scenario.source import read_scenario
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import SHARED_ENTITY_FIELDS, Ruleset, ruleset_for

if TYPE_CHECKING:  # loaded with a .tmx map only (`_load_tmx`): an inline map needs no Tiled
    from game.maps import LoadedMap

#: The largest inline map accepted, checked before anything is allocated.
MAX_CELLS = 4_000_000
OBSTACLE_NAMES = ("none", "half", "full", "thin")  # G-2, in the contract's order
TERRAIN_NAMES = tuple(t.name.lower() for t in Terrain if t and t.name)  # G-3


def load_scenario(source: str) -> tuple[Battlefield, list[object]]:
    """Read a scenario file (or `-` for standard input) into a battlefield and its query list."""
    return parse_scenario(*read_scenario(source))


def parse_scenario(data: object, base: Path) -> tuple[Battlefield, list[object]]:
    top = as_object(data, "scenario", ("ruleset", "map", "battle", "entities", "queries"))
    ruleset = choice(top.get("ruleset", registry.DEFAULT), "ruleset", registry.IDS)
    # Periferie's data travels with every battlefield (the maps' unit templates name it); another
    # ruleset reads its own data through its object.
    rules = load_rules()
    if "battle" in top:
        if "map" in top:
            fail("battle", "give either a map or a battle journal, not both")
        grid, map_entities = _load_battle(top["battle"], base)
    elif "map" not in top:
        fail("map", "missing (an inline map, a path to a .tmx file, or a battle journal)")
    else:
        grid, map_entities = _parse_map(top["map"], base, rules, ruleset)
    # A .tmx map brings its own units; listing entities in the scenario replaces them.
    entities = (
        _parse_entities(top["entities"], grid, rules, ruleset)
        if "entities" in top
        else map_entities
    )
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


def _parse_map(
    value: object, base: Path, rules: RulesData, ruleset: str
) -> tuple[Grid, tuple[EntitySheet, ...]]:
    if isinstance(value, str):
        return _load_tmx(value, base, rules, ruleset)
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


def _load_tmx(
    value: str, base: Path, rules: RulesData, ruleset: str
) -> tuple[Grid, tuple[EntitySheet, ...]]:
    from game.maps import MapError, load_map

    try:
        loaded = load_map((base / value).resolve())
    except MapError as exc:
        raise ScenarioError(f"map: {exc}") from None
    return loaded.grid, entities_from_map(loaded, rules, f"{value}: units", ruleset)


def entities_from_map(
    loaded: LoadedMap, rules: RulesData, where: str, ruleset: str = registry.DEFAULT
) -> tuple[EntitySheet, ...]:
    """The sheets of a map's units on the field at the start (reinforcements come later),
    each as `ruleset` reads a unit's Tiled properties."""
    reader = ruleset_for(ruleset)
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
        raw.update(reader.unit_fields(unit.template, unit.weapon, unit.armour))
        raws.append(raw)
    return _parse_entities(raws, loaded.grid, rules, ruleset, where)


def _in_map(cell: Cell, shape: tuple[int, int, int], where: str) -> Cell:
    w, h, d = shape
    if not (0 <= cell[0] < w and 0 <= cell[1] < h and 0 <= cell[2] < d):
        fail(where, f"{cell} is outside the {w}x{h}x{d} map")
    return cell


def _parse_entities(
    value: object, grid: Grid, rules: RulesData, ruleset: str, where_prefix: str = "entities"
) -> tuple[EntitySheet, ...]:
    sheets: list[EntitySheet] = []
    seen_ids: dict[str, int] = {}
    seen_cells: dict[Cell, str] = {}
    for i, raw in enumerate(as_list(value, where_prefix)):
        where = f"{where_prefix}[{i}]"
        sheet = _parse_entity(raw, where, grid, rules, ruleset_for(ruleset))
        if sheet.id in seen_ids:
            fail(f"{where}.id", f"{sheet.id!r} is already used by entities[{seen_ids[sheet.id]}]")
        if sheet.cell in seen_cells:
            fail(f"{where}.at", f"{sheet.cell} is already occupied by {seen_cells[sheet.cell]!r}")
        seen_ids[sheet.id] = i
        seen_cells[sheet.cell] = sheet.id
        sheets.append(sheet)
    return tuple(sheets)


def _parse_entity(
    raw: object, where: str, grid: Grid, rules: RulesData, ruleset: Ruleset
) -> EntitySheet:
    # The ruleset reads its own fields (RULESETS.md section 4); the shared ones are read here.
    spec = as_object(raw, where, (*SHARED_ENTITY_FIELDS, *ruleset.entity_fields))
    for key in ("id", "faction", "at"):
        if key not in spec:
            fail(f"{where}.{key}", "missing")
    entity_id = as_str(spec["id"], f"{where}.id")
    faction = as_str(spec["faction"], f"{where}.faction")
    cell = _in_map(as_cell(spec["at"], f"{where}.at"), grid.shape, f"{where}.at")
    if grid.obstacle[cell]:
        fail(f"{where}.at", f"{cell} is inside a {grid.obstacle_at(cell).name.lower()} obstacle")
    base = EntitySheet(
        id=entity_id,
        faction=faction,
        cell=cell,
        stance=Stance.from_name(
            choice(spec.get("stance", "standing"), f"{where}.stance", [s.value for s in Stance])
        ),
        size=Size.from_name(
            choice(spec.get("size", "medium"), f"{where}.size", [z.name.lower() for z in Size])
        ),
        neutral=as_bool(spec.get("neutral", False), f"{where}.neutral"),
    )
    return ruleset.read_entity(spec, where, base, rules)


__all__ = ["ScenarioError", "load_scenario", "parse_scenario"]
