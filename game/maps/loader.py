"""load_map: a Tiled map read with the conventions of docs/maps.md into grid, units and layers."""

from __future__ import annotations

import contextlib
import math
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from game.grid.model import (
    DARKNESS,
    DEFAULT_GRAVITY,
    SMOKE,
    WEATHER,
    Cell,
    Grid,
    Obstacle,
    Terrain,
)
from game.grid.occupants import Size
from game.maps.model import (
    LayerNode,
    LevelInfo,
    LoadedMap,
    MapError,
    MapProperties,
    PropertyValue,
    RenderLayer,
    RenderMap,
    RenderObject,
    UnitPlacement,
)
from game.maps.tmx import (
    MAX_NAME_CHARS,
    TmxLayer,
    TmxMap,
    cut_middle,
    map_error,
    parse_bool,
    read_tmx,
    shown,
    split_gids,
)
from game.rules import registry
from game.rules.stance import Stance

#: Limits on the grid, checked before it is allocated (documented in docs/maps.md).
MAX_LEVELS = 32
MAX_CELLS = 4 * 2**20
#: The map's description is at most this long; names (MAX_NAME_CHARS) are in game.maps.tmx.
MAX_TEXT_CHARS = 1000
#: Notices kept (each cut to MAX_NOTICE_CHARS); the rest are counted in one last notice.
MAX_NOTICES = 100
MAX_NOTICE_CHARS = 300

UNITS = "units"
UNIT_PROPERTIES = frozenset(
    {
        "faction",
        "name",
        "template",
        "stance",
        "weapon",
        "armour",
        "hidden",
        "surprised",
        "arrives_round",
        "size",
        "neutral",
        "medkits",
        "outside_combat",
    }
)
TILE_PROPERTIES = ("obstacle", "terrain", "floor")
MAP_PROPERTIES = (
    "name", "description", "gravity", "pressurised", "ruleset", "darkness", "smoke", "weather",
)  # fmt: skip

# Obstacle code for each strength (none < half < thin < full), so layers combine with max().
_CODE_OF_STRENGTH = np.array(
    [int(o) for o in sorted(Obstacle, key=lambda o: o.strength)], dtype=np.uint8
)
_FULL = Obstacle.FULL.strength

T = TypeVar("T")


class _Values:
    """Reads convention properties; a string property spelling the right type is accepted too,
    as Tiled creates every new property as a string."""

    def __init__(self, file: Path | str) -> None:
        self.file = file

    def fail(self, where: str, what: str) -> MapError:
        return map_error(self.file, where, what)

    def text(self, value: PropertyValue, where: str) -> str:
        if isinstance(value, Mapping):
            raise self.fail(where, "is a class property; expected text")
        return str(value).strip()

    def name(self, value: PropertyValue, where: str) -> str:
        """A name the players see and the battle keys on (a unit, a side, the map, a rules id):
        bounded, on one line; refused, not cut, as two names cut alike would clash."""
        text = self.text(value, where)
        if len(text) > MAX_NAME_CHARS:
            raise self.fail(
                where,
                f"the name is {len(text)} characters long; at most {MAX_NAME_CHARS} are allowed",
            )
        control = next((c for c in text if unicodedata.category(c) == "Cc"), None)
        if control is not None:
            raise self.fail(
                where, f"the name holds a control character (U+{ord(control):04X}): one line only"
            )
        return text

    def integer(self, value: PropertyValue, where: str, low: int, high: int | None = None) -> int:
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, float) and value.is_integer():
            number = int(value)
        elif isinstance(value, str):
            with contextlib.suppress(ValueError):
                number = int(value.strip())
        if number is None:
            raise self.fail(where, f"{value!r} is not a whole number")
        if number < low or (high is not None and number > high):
            bounds = f"from {low} to {high}" if high is not None else f"{low} or more"
            raise self.fail(where, f"{number} is out of range: it must be {bounds}")
        return number

    def number(self, value: PropertyValue, where: str) -> float:
        number: float | None = None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        elif isinstance(value, str):
            with contextlib.suppress(ValueError):
                number = float(value.strip())
        if number is None or not math.isfinite(number):
            raise self.fail(where, f"{value!r} is not a number")
        return number

    def boolean(self, value: PropertyValue, where: str) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            try:
                return parse_bool(value)
            except ValueError:
                pass
        raise self.fail(where, f"{value!r} is not true or false")

    def parsed(self, value: PropertyValue, where: str, parse: Callable[[str], T]) -> T:
        """A text property read by one of the project's from_name parsers."""
        try:
            return parse(self.text(value, where))
        except MapError:
            raise
        except ValueError as e:
            raise self.fail(where, str(e)) from None

    def level(self, layer: TmxLayer) -> int:
        return self.integer(
            layer.properties["level"], f"{layer.where}, property 'level'", 0, MAX_LEVELS - 1
        )


@dataclass(frozen=True)
class _Meaning:
    """What one tile means to the grid; height -1 = no `height` property."""

    strength: int = 0
    terrain: int = 0
    floor: bool = False
    height: int = -1


_OPEN = _Meaning()


def load_map(path: str | Path) -> LoadedMap:
    """Read a Tiled .tmx map into a battlefield; every problem raises one MapError."""
    tmx = read_tmx(path)
    values = _Values(path)
    notices = list(tmx.notices)
    properties = _map_properties(tmx, values)
    level_of, level_groups = _assign_levels(tmx, values, notices)
    meanings = _tile_meanings(tmx, values)
    heightmaps = _heightmaps(tmx, values, notices)
    heights = _heights(tmx, heightmaps, meanings, values)
    levels = _level_count(tmx, level_of, heights, bool(level_groups), values, notices)
    grid = _grid(tmx, level_of, heightmaps, heights, meanings, levels, properties)
    units_layers = [
        layer for layer in tmx.all_layers() if layer.kind == "object" and _is_units(layer)
    ]
    units = _units(tmx, units_layers, level_of, grid, heights, values, notices)

    render_of = {
        layer.id: _render_layer(layer, level_of[layer.id])
        for layer in tmx.all_layers()
        if layer.kind != "group"
    }
    per_level = tuple(tuple(r for r in render_of.values() if r.level == z) for z in range(levels))
    render = RenderMap(
        tile_size=(tmx.tile_width, tmx.tile_height),
        size=(tmx.width, tmx.height),
        background=tmx.background,
        render_order=tmx.render_order,
        tilesets=tuple(t.render for t in tmx.tilesets),
        levels=per_level,
    )
    level_infos = tuple(
        LevelInfo(
            z,
            level_groups[z].name if z in level_groups else None,
            level_groups[z].id if z in level_groups else None,
            per_level[z],
        )
        for z in range(levels)
    )
    if not (grid.obstacle.any() or grid.terrain.any() or grid.floor.any()):
        notices.append(
            "every cell is open ground: no tile on the map has an obstacle, terrain or floor "
            "property, and no heightmap raises the ground"
        )
    if not units_layers:
        notices.append("no object layer is named or classed 'units': the map places no units")
    if not any(key in tmx.properties for key in MAP_PROPERTIES):
        notices.append(
            f"none of the map properties {', '.join(MAP_PROPERTIES)} is set: defaults used "
            f"({properties.gravity:g} g, pressurised, ruleset {properties.ruleset})"
        )
    return LoadedMap(
        grid=grid,
        units=units,
        levels=level_infos,
        render=render,
        properties=properties,
        notices=_bounded_notices(notices),
        group_tree=tuple(_node(layer, level_of) for layer in tmx.layers),
        source=tmx.path,
    )


def _bounded_notices(notices: list[str]) -> tuple[str, ...]:
    """At most MAX_NOTICES notices of at most MAX_NOTICE_CHARS each, the rest counted."""
    kept = [cut_middle(n, MAX_NOTICE_CHARS) for n in notices[:MAX_NOTICES]]
    if len(notices) > MAX_NOTICES:
        kept.append(f"… and {len(notices) - MAX_NOTICES} more notices")
    return tuple(kept)


def _map_properties(tmx: TmxMap, values: _Values) -> MapProperties:
    props = tmx.properties

    def where(key: str) -> str:
        return f"map, property '{key}'"

    ruleset = values.text(props["ruleset"], where("ruleset")) if "ruleset" in props else None
    if ruleset is not None and ruleset not in registry.IDS:
        raise values.fail(
            where("ruleset"),
            f"unknown ruleset {ruleset!r} (known: {', '.join(registry.IDS)})",
        )
    gravity = DEFAULT_GRAVITY
    if "gravity" in props:
        # P-JUMP-2: the map's gravity in g; below 0.05 g the microgravity rules apply.
        gravity = values.number(props["gravity"], where("gravity"))
        if gravity < 0:
            raise values.fail(where("gravity"), f"{gravity} g is negative")
    conditions = {"darkness": "none", "smoke": "none", "weather": "none"}
    for key, known in (("darkness", DARKNESS), ("smoke", SMOKE), ("weather", WEATHER)):
        if key in props:  # the light, smoke and weather over the whole map (000:l.213-217)
            conditions[key] = values.text(props[key], where(key))
            if conditions[key] not in known:
                raise values.fail(
                    where(key), f"{conditions[key]!r} is not one of: {', '.join(known)}"
                )
    description = (
        values.text(props["description"], where("description")) if "description" in props else ""
    )
    if len(description) > MAX_TEXT_CHARS:
        raise values.fail(
            where("description"),
            f"the text is {len(description)} characters long; at most {MAX_TEXT_CHARS} are allowed",
        )
    return MapProperties(
        name=(
            values.name(props["name"], where("name")) if "name" in props else shown(tmx.path.stem)
        ),
        description=description,
        ruleset=ruleset or registry.DEFAULT,
        gravity=gravity,
        pressurised=(
            values.boolean(props["pressurised"], where("pressurised"))
            if "pressurised" in props
            else True
        ),
        all=dict(props),
        darkness=conditions["darkness"],
        smoke=conditions["smoke"],
        weather=conditions["weather"],
    )


def _assign_levels(
    tmx: TmxMap, values: _Values, notices: list[str]
) -> tuple[dict[int, int], dict[int, TmxLayer]]:
    """Layer id -> level for every non-group layer (and level groups), and level -> its group."""
    level_of: dict[int, int] = {}
    groups: dict[int, TmxLayer] = {}
    for top in tmx.layers:
        if top.kind == "group" and "level" in top.properties:
            level = values.level(top)
            if level in groups:
                raise values.fail(top.where, f"level {level} is also {groups[level].where}")
            groups[level] = top
            for node in top.walk():
                if node is not top and "level" in node.properties:
                    own = values.level(node)
                    if own != level:
                        raise values.fail(
                            node.where,
                            f"has level {own} but lies in {top.where}, which is level {level}",
                        )
                level_of[node.id] = level
            continue
        for node in top.walk():
            if node.kind != "group":
                level_of[node.id] = values.level(node) if "level" in node.properties else 0
            elif "level" in node.properties:
                notices.append(
                    f"{node.where} has a 'level' property but is not a top-level group: ignored"
                )
    return level_of, groups


def _tile_meanings(tmx: TmxMap, values: _Values) -> dict[int, _Meaning]:
    """Gid -> meaning for every tile carrying obstacle, terrain, floor or height."""
    meanings: dict[int, _Meaning] = {}
    for tileset in tmx.tilesets:
        for local, props in tileset.tile_properties.items():
            if not any(key in props for key in (*TILE_PROPERTIES, "height")):
                continue
            where = f"{tileset.where}, tile {local}"

            def at(key: str, where: str = where) -> str:
                return f"{where}, property '{key}'"

            meaning = _Meaning()
            if "obstacle" in props:
                obstacle = values.parsed(props["obstacle"], at("obstacle"), Obstacle.from_name)
                meaning = replace(meaning, strength=obstacle.strength)
            if "terrain" in props:
                terrain = values.parsed(
                    props["terrain"], at("terrain"), lambda t: Terrain.from_names(t.split(","))
                )
                meaning = replace(meaning, terrain=int(terrain))
            if "floor" in props:
                meaning = replace(meaning, floor=values.boolean(props["floor"], at("floor")))
            if "height" in props:
                height = values.integer(props["height"], at("height"), 0, MAX_LEVELS - 1)
                meaning = replace(meaning, height=height)
            meanings[tileset.render.first_gid + local] = meaning
    return meanings


def _heightmaps(tmx: TmxMap, values: _Values, notices: list[str]) -> list[TmxLayer]:
    found = []
    for layer in tmx.all_layers():
        if "heightmap" not in layer.properties:
            continue
        if not values.boolean(
            layer.properties["heightmap"], f"{layer.where}, property 'heightmap'"
        ):
            continue
        if layer.kind == "tile":
            found.append(layer)
        else:
            notices.append(f"{layer.where} has 'heightmap' but is not a tile layer: ignored")
    return found


def _pick(
    gids: NDArray[np.uint32], meanings: dict[int, _Meaning], field: str, dtype: type
) -> NDArray[Any]:
    """One field of the tiles' meanings, per cell."""
    uniq, inverse = np.unique(gids.ravel(), return_inverse=True)
    table: NDArray[Any] = np.array(
        [getattr(meanings.get(int(g), _OPEN), field) for g in uniq], dtype=dtype
    )
    return table[inverse].reshape(gids.shape)


def _heights(
    tmx: TmxMap, heightmaps: list[TmxLayer], meanings: dict[int, _Meaning], values: _Values
) -> list[NDArray[np.int64]]:
    """Per heightmap layer, the height of each column (0 where the layer has no tile)."""
    out = []
    for layer in heightmaps:
        assert layer.data is not None
        gids = split_gids(layer.data)[0]
        heights = _pick(gids, meanings, "height", np.int64)
        missing = np.argwhere(((heights < 0) & (gids != 0)).T)
        if len(missing):
            y, x = (int(v) for v in missing[0])
            found = tmx.tile(int(gids[x, y]))
            assert found is not None
            raise values.fail(
                layer.where,
                f"the tile at x={x}, y={y} ({found[0].where}, tile {found[1]}) has no 'height' "
                "property, which every tile of a heightmap layer needs",
            )
        out.append(np.maximum(heights, 0))
    return out


def _level_count(
    tmx: TmxMap,
    level_of: dict[int, int],
    heights: list[NDArray[np.int64]],
    explicit: bool,
    values: _Values,
    notices: list[str],
) -> int:
    levels = max(level_of.values(), default=0) + 1
    explicit = explicit or any(level_of.values())
    top = max((int(h.max()) for h in heights), default=0)
    if top + 1 > levels:
        # G-3: a column of height h is full from z = 0 to h - 1 and stood on at z = h.
        if explicit:
            notices.append(
                f"the heightmap reaches height {top}: the grid has {top + 1} levels, more than "
                f"the {levels} the layers define"
            )
        levels = top + 1
    cells = tmx.width * tmx.height * levels
    if cells > MAX_CELLS:
        raise values.fail(
            "",
            f"the grid would be {tmx.width}×{tmx.height}×{levels} = {cells} cells; at most "
            f"{MAX_CELLS} are supported",
        )
    return levels


def _grid(
    tmx: TmxMap,
    level_of: dict[int, int],
    heightmaps: list[TmxLayer],
    heights: list[NDArray[np.int64]],
    meanings: dict[int, _Meaning],
    levels: int,
    properties: MapProperties,
) -> Grid:
    shape = (tmx.width, tmx.height, levels)
    strength = np.zeros(shape, dtype=np.uint8)
    terrain = np.zeros(shape, dtype=np.uint8)
    floor = np.zeros(shape, dtype=np.bool_)
    height_of = {layer.id: h for layer, h in zip(heightmaps, heights, strict=True)}
    # Hidden layers count too: visibility is a drawing choice, not a change of terrain.
    for layer in tmx.all_layers():
        if layer.data is None:
            continue
        gids = split_gids(layer.data)[0]
        s = _pick(gids, meanings, "strength", np.uint8)
        t = _pick(gids, meanings, "terrain", np.uint8)
        f = _pick(gids, meanings, "floor", np.bool_)
        if layer.id in height_of:
            h = height_of[layer.id]
            strength[np.arange(levels)[None, None, :] < h[:, :, None]] = _FULL
            xs, ys = np.nonzero(gids)
            zs = h[xs, ys]
            # The tile's other properties describe its surface cell, z = height.
            strength[xs, ys, zs] = np.maximum(strength[xs, ys, zs], s[xs, ys])
            terrain[xs, ys, zs] |= t[xs, ys]
            floor[xs, ys, zs] |= f[xs, ys]
            continue
        z = level_of[layer.id]
        np.maximum(strength[:, :, z], s, out=strength[:, :, z])
        terrain[:, :, z] |= t
        floor[:, :, z] |= f
    return Grid.build(
        _CODE_OF_STRENGTH[strength],
        terrain,
        floor,
        gravity=properties.gravity,
        pressurised=properties.pressurised,
        darkness=properties.darkness,
        smoke=properties.smoke,
        weather=properties.weather,
    )


def _is_units(layer: TmxLayer) -> bool:
    return UNITS in (layer.name.strip().lower(), layer.cls.strip().lower())


@dataclass
class _Draft:
    """A unit before names are generated and cells compared."""

    obj: RenderObject
    where: str
    name: str
    faction: str
    cell: Cell
    arrives_round: int | None
    props: dict[str, PropertyValue]
    layer_id: int


def _units(
    tmx: TmxMap,
    layers: list[TmxLayer],
    level_of: dict[int, int],
    grid: Grid,
    heights: list[NDArray[np.int64]],
    values: _Values,
    notices: list[str],
) -> tuple[UnitPlacement, ...]:
    ground = np.maximum.reduce(heights) if heights else None
    drafts: list[_Draft] = []
    for layer in layers:
        for obj in layer.objects:
            where = f"object '{shown(obj.name)}' (id {obj.id}) in {layer.where}"
            # A tile object's tile properties are defaults, as Tiled shows them on the object.
            props = {**tmx.tile_properties(obj.gid), **obj.properties}
            for key in sorted(set(obj.properties) - UNIT_PROPERTIES):
                notices.append(f"{where}: '{shown(key)}' is not a unit property: ignored")
            if "faction" not in props:
                raise values.fail(where, "a unit needs a 'faction' property")
            faction = values.name(props["faction"], f"{where}, property 'faction'")
            if not faction:
                raise values.fail(f"{where}, property 'faction'", "is empty")
            name = values.name(obj.name, f"{where}, its Name field")
            if "name" in props:
                name = values.name(props["name"], f"{where}, property 'name'")
            cell = _unit_cell(tmx, obj, level_of[layer.id], ground, where, values)
            arrives = (
                values.integer(props["arrives_round"], f"{where}, property 'arrives_round'", 1)
                if "arrives_round" in props
                else None
            )
            drafts.append(_Draft(obj, where, name, faction, cell, arrives, props, layer.id))
    _name_units(drafts)
    by_name: dict[str, _Draft] = {}
    by_cell: dict[tuple[Cell, int | None], _Draft] = {}
    for d in drafts:
        if d.name in by_name:
            raise values.fail(
                d.where, f"the unit name {d.name!r} is taken by {by_name[d.name].where}"
            )
        by_name[d.name] = d
        obstacle = grid.obstacle_at(d.cell)
        if obstacle is not Obstacle.NONE:
            raise values.fail(
                d.where,
                f"the unit stands in cell {d.cell}, inside a {obstacle.name.lower()} obstacle",
            )
        # P-ZERO-1: in microgravity nothing needs holding up; a unit may float in the void.
        if not grid.standable[d.cell] and not grid.microgravity:
            raise values.fail(
                d.where,
                f"the unit stands in cell {d.cell}, where nothing holds it up: no floor there "
                "and no full obstacle below (G-3)",
            )
        # Reinforcements arriving in different rounds may share a cell (one wave after another).
        slot = (d.cell, d.arrives_round)
        if slot in by_cell:
            raise values.fail(
                d.where, f"the unit stands in cell {d.cell}, as does {by_cell[slot].where}"
            )
        by_cell[slot] = d
    return tuple(_placement(d, values) for d in drafts)


def _unit_cell(
    tmx: TmxMap,
    obj: RenderObject,
    level: int,
    ground: NDArray[np.int64] | None,
    where: str,
    values: _Values,
) -> Cell:
    legacy_point = obj.shape == "rectangle" and obj.width == 0 and obj.height == 0
    if obj.shape not in ("point", "tile") and not legacy_point:
        raise values.fail(where, f"it is a {obj.shape}; a unit must be a point or a tile object")
    x, y = obj.x, obj.y
    if obj.shape == "tile":
        # Tile objects hang from their bottom-left corner: their centre picks the cell.
        found = tmx.tile(obj.gid)
        size = found[0].render.tile_size if found else (0, 0)
        x += (obj.width or size[0]) / 2
        y -= (obj.height or size[1]) / 2
    cx, cy = math.floor(x / tmx.tile_width), math.floor(y / tmx.tile_height)
    if not (0 <= cx < tmx.width and 0 <= cy < tmx.height):
        raise values.fail(
            where,
            f"the unit at x={obj.x:g}, y={obj.y:g} px is in cell ({cx}, {cy}), outside the "
            f"{tmx.width}×{tmx.height} map",
        )
    z = level
    if ground is not None and z < ground[cx, cy]:
        # A unit inside the heightmap's solid ground stands on top of it.
        z = int(ground[cx, cy])
    return cx, cy, z


def _name_units(drafts: list[_Draft]) -> None:
    """Unnamed units become <faction>-<n>, n counting from 1 per faction, skipping taken names."""
    taken = {d.name for d in drafts if d.name}
    counters: dict[str, int] = {}
    for d in drafts:
        if d.name:
            continue
        n = counters.get(d.faction, 0) + 1
        while f"{d.faction}-{n}" in taken:
            n += 1
        counters[d.faction] = n
        d.name = f"{d.faction}-{n}"
        taken.add(d.name)


def _placement(d: _Draft, values: _Values) -> UnitPlacement:
    props = d.props

    def where(key: str) -> str:
        return f"{d.where}, property '{key}'"

    def text(key: str) -> str | None:
        if key not in props:
            return None
        return values.name(props[key], where(key)) or None

    def flag(key: str) -> bool:
        return values.boolean(props[key], where(key)) if key in props else False

    stance = Stance.STANDING
    if "stance" in props:
        stance = values.parsed(props["stance"], where("stance"), Stance.from_name)
    size = Size.MEDIUM
    if "size" in props:
        size = values.parsed(props["size"], where("size"), Size.from_name)
    return UnitPlacement(
        name=d.name,
        faction=d.faction,
        cell=d.cell,
        template=text("template"),
        stance=stance,
        weapon=text("weapon"),
        armour=text("armour"),
        hidden=flag("hidden"),
        surprised=flag("surprised"),
        arrives_round=d.arrives_round,
        size=size,
        neutral=flag("neutral"),
        medkits=values.integer(props["medkits"], where("medkits"), 0) if "medkits" in props else 1,
        outside_combat=flag("outside_combat"),
        object_id=d.obj.id,
        layer_id=d.layer_id,
        properties=props,
    )


def _render_layer(layer: TmxLayer, level: int) -> RenderLayer:
    gids = flags = None
    if layer.data is not None:
        gids, flags = split_gids(layer.data)
        gids.setflags(write=False)
        flags.setflags(write=False)
    return RenderLayer(
        kind=layer.kind,
        id=layer.id,
        name=layer.name,
        level=level,
        visible=layer.effective_visible,
        opacity=layer.opacity,
        offset=layer.offset,
        parallax=layer.parallax,
        tint=layer.tint,
        gids=gids,
        flags=flags,
        image=layer.image,
        transparent=layer.transparent,
        repeat=layer.repeat,
        objects=tuple(layer.objects),
        draw_order=layer.draw_order,
        units=layer.kind == "object" and _is_units(layer),
    )


def _node(layer: TmxLayer, level_of: dict[int, int]) -> LayerNode:
    return LayerNode(
        kind=layer.kind,
        id=layer.id,
        name=layer.name,
        cls=layer.cls,
        properties=layer.properties,
        effective_properties=layer.effective_properties,
        visible=layer.visible,
        effective_visible=layer.effective_visible,
        level=level_of.get(layer.id),
        children=tuple(_node(child, level_of) for child in layer.children),
    )
