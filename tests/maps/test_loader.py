"""load_map on the fixture maps: levels, grid meaning, units, render layers, and every MapError."""

from __future__ import annotations

import base64
import shutil
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.grid.model import (
    OBSTACLE_FULL,
    OBSTACLE_HALF,
    OBSTACLE_NONE,
    OBSTACLE_THIN,
    TERRAIN_CLIMBABLE,
    TERRAIN_ROUGH,
    TERRAIN_STAIRS,
    TERRAIN_WATER,
)
from game.grid.occupants import Size
from game.maps import FLIP_D, FLIP_H, FLIP_V, LayerNode, LoadedMap, MapError, load_map
from game.rules.stance import Stance

DATA = Path(__file__).parent / "data"

# Fixture tileset tiles.tsx, by gid (= tile id + 1): 1 ground, 2 wall (full), 3 crate (half),
# 4 pillar (thin), 5 rubble (rough), 6 pool (water), 7 stairs, 8 ladder (climbable),
# 9 floor (floor), 10 red soldier (faction red), 11 blue soldier (faction blue), 12 mud
# (rough, water). heights.tsx: tile n has height n (tile 3 is also rough).


# --- small maps written by the tests -------------------------------------------------------


def props_xml(props: dict[str, object] | None, indent: str = "  ") -> str:
    """A <properties> block; Python bool/int/float become Tiled's typed properties."""
    if not props:
        return ""
    types = {bool: ' type="bool"', int: ' type="int"', float: ' type="float"'}
    lines = [f"{indent}<properties>"]
    for name, value in props.items():
        text = str(value).lower() if isinstance(value, bool) else str(value)
        lines.append(
            f'{indent} <property name="{name}"{types.get(type(value), "")} value="{text}"/>'
        )
    lines.append(f"{indent}</properties>")
    return "\n".join(lines) + "\n"


def tile_layer(
    layer_id: int,
    name: str,
    rows: list[list[int]],
    props: dict[str, object] | None = None,
    attrs: str = "",
) -> str:
    data = ",\n".join(",".join(str(g) for g in row) for row in rows)
    return (
        f' <layer id="{layer_id}" name="{name}" width="{len(rows[0])}" height="{len(rows)}"'
        f"{attrs}>\n{props_xml(props)}"
        f'  <data encoding="csv">\n{data}\n</data>\n </layer>\n'
    )


def point(obj_id: int, name: str, x: float, y: float, props: dict[str, object]) -> str:
    return (
        f'  <object id="{obj_id}" name="{name}" x="{x}" y="{y}">\n'
        f"{props_xml(props, '   ')}   <point/>\n  </object>\n"
    )


def units_layer(layer_id: int, objects: str, name: str = "units", attrs: str = "") -> str:
    return f' <objectgroup id="{layer_id}" name="{name}"{attrs}>\n{objects} </objectgroup>\n'


def group(
    group_id: int, name: str, body: str, props: dict[str, object] | None = None, attrs: str = ""
) -> str:
    return f' <group id="{group_id}" name="{name}"{attrs}>\n{props_xml(props)}{body} </group>\n'


def write_map(
    directory: Path,
    body: str,
    *,
    width: int = 4,
    height: int = 3,
    properties: dict[str, object] | None = None,
    tilesets: str = ' <tileset firstgid="1" source="tiles.tsx"/>\n',
    name: str = "test.tmx",
) -> Path:
    """A map with the fixture tileset (gid 1 ground, 2 wall, 3 crate, 9 floor ...) and `body`."""
    path = directory / name
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" '
        f'renderorder="right-down" width="{width}" height="{height}" tilewidth="16" '
        'tileheight="16" infinite="0" nextlayerid="90" nextobjectid="90">\n'
        f"{props_xml(properties, ' ')}{tilesets}{body}</map>\n",
        encoding="utf-8",
    )
    return path


def ground(width: int = 4, height: int = 3, gid: int = 1) -> list[list[int]]:
    return [[gid] * width for _ in range(height)]


def unit_map(directory: Path, objects: str, **kwargs: object) -> Path:
    """A 4×3 ground map with a wall at (3, 0) and the given objects in a units layer."""
    rows = ground()
    walls = [[0, 0, 0, 2], [0] * 4, [0] * 4]
    body = tile_layer(1, "floor", rows) + tile_layer(2, "walls", walls)
    return write_map(directory, body + units_layer(20, objects), **kwargs)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def depot() -> LoadedMap:
    return load_map(DATA / "depot.tmx")


@pytest.fixture(scope="module")
def hills() -> LoadedMap:
    return load_map(DATA / "hills.tmx")


# --- the two-level depot (the worked example of docs/maps.md) ---------------------------------


def test_g_1_depot_has_one_level_per_top_level_group_with_a_level_property(
    depot: LoadedMap,
) -> None:
    assert depot.grid.shape == (8, 6, 2)
    assert [(lv.level, lv.group_name, lv.group_id) for lv in depot.levels] == [
        (0, "ground", 1),
        (1, "loft", 8),
    ]
    # The image layer before the groups carries no level: it is on level 0, drawn first.
    assert [layer.name for layer in depot.levels[0].layers] == [
        "backdrop",
        "floor",
        "walls",
        "collision",
        "clutter",
        "units",
    ]
    assert [layer.name for layer in depot.levels[1].layers] == ["loft floor", "loft walls", "units"]
    assert depot.render.levels[1] == depot.levels[1].layers


def test_g_2_depot_obstacles_where_several_layers_meet_the_strongest_wins(
    depot: LoadedMap,
) -> None:
    obs = depot.grid.obstacle
    assert obs[0, 0, 0] == OBSTACLE_FULL
    # walls has a crate (half) at (4, 1), clutter a pillar (thin) there: thin is stronger.
    assert obs[4, 1, 0] == OBSTACLE_THIN
    assert obs[2, 3, 0] == OBSTACLE_HALF
    assert obs[6, 2, 0] == OBSTACLE_THIN
    assert obs[3, 2, 1] == OBSTACLE_HALF
    assert obs[1, 1, 0] == OBSTACLE_NONE
    # Level 0: the outer wall is 8 + 8 + 4 + 4 = 24 cells, plus 1 in the hidden layer = 25 full;
    # thin: the pillar (6, 2) and the clutter pillar (4, 1) = 2; half: the crate (2, 3) = 1.
    assert int((obs[:, :, 0] == OBSTACLE_FULL).sum()) == 25
    assert int((obs[:, :, 0] == OBSTACLE_THIN).sum()) == 2
    assert int((obs[:, :, 0] == OBSTACLE_HALF).sum()) == 1
    assert int((obs[:, :, 1] != OBSTACLE_NONE).sum()) == 1


def test_hidden_layers_still_count_for_the_grid_and_are_drawn_hidden(depot: LoadedMap) -> None:
    assert depot.grid.obstacle[5, 3, 0] == OBSTACLE_FULL
    collision = next(r for r in depot.levels[0].layers if r.name == "collision")
    assert collision.visible is False


def test_g_3_depot_terrain_flags_floor_and_standable_cells(depot: LoadedMap) -> None:
    ter, grid = depot.grid.terrain, depot.grid
    assert ter[2, 2, 0] == TERRAIN_WATER
    assert ter[1, 4, 0] == TERRAIN_ROUGH
    assert ter[5, 4, 0] == TERRAIN_ROUGH | TERRAIN_WATER
    assert ter[3, 3, 0] == TERRAIN_STAIRS
    assert ter[6, 4, 0] == TERRAIN_CLIMBABLE
    # The loft floor covers x 1..3, y 1..2: 3 × 2 = 6 cells.
    assert int(grid.floor[:, :, 1].sum()) == 6 and bool(grid.floor[1, 1, 1])
    assert bool(grid.standable[1, 1, 1])  # floor flag
    assert bool(grid.standable[0, 3, 1])  # on top of the full outer wall
    assert not bool(grid.standable[4, 4, 1])  # open air
    assert not bool(grid.standable[3, 2, 1])  # the loft crate stands there


def test_p_jump_2_depot_map_properties_reach_the_grid(depot: LoadedMap) -> None:
    props = depot.properties
    assert (props.name, props.description, props.ruleset) == (
        "Depot 7",
        "A supply depot with a loft",
        "periferie",
    )
    assert props.gravity == pytest.approx(0.38) and depot.grid.gravity == pytest.approx(0.38)
    assert props.pressurised is False and depot.grid.pressurised is False
    assert depot.notices == ()
    assert depot.source == (DATA / "depot.tmx").absolute()


def test_p_init_4_5_6_depot_units_carry_every_property(depot: LoadedMap) -> None:
    units = {u.name: u for u in depot.units}
    # Cells: floor(x / 16), floor(y / 16): ada (24, 24) -> (1, 1); cy (88, 72) -> (5, 4);
    # the unnamed one (104, 24) -> (6, 1); eve (24, 40) -> (1, 2); rat (56, 72) -> (3, 4);
    # on the loft dan (24, 24) -> (1, 1, 1) and fay (8, 56) -> (0, 3, 1), on the outer wall.
    assert [u.name for u in depot.units] == [
        "ada",
        "bo",
        "cy",
        "blue-1",
        "eve",
        "rat",
        "dan",
        "fay",
    ]
    ada = units["ada"]
    assert (ada.faction, ada.cell, ada.stance, ada.size, ada.template) == (
        "red",
        (1, 1, 0),
        Stance.STANDING,
        Size.MEDIUM,
        None,
    )
    assert (ada.hidden, ada.surprised, ada.neutral, ada.arrives_round) == (
        False,
        False,
        False,
        None,
    )
    assert (ada.object_id, ada.layer_id) == (1, 7)
    bo = units["bo"]
    # A tile object hangs from its bottom-left corner (32, 80); its centre (40, 72) is in
    # cell (2, 4). Its faction comes from the red soldier tile's own property.
    assert (bo.cell, bo.faction, bo.stance) == ((2, 4, 0), "red", Stance.CROUCHED)
    assert (bo.template, bo.weapon, bo.armour) == ("station_guard", "pistol", "padded_vest")
    assert units["cy"].cell == (5, 4, 0) and units["cy"].hidden is True
    assert units["blue-1"].cell == (6, 1, 0) and units["blue-1"].surprised is True
    assert units["eve"].cell == (1, 2, 0) and units["eve"].arrives_round == 2
    rat = units["rat"]
    assert (rat.cell, rat.faction, rat.neutral, rat.size) == (
        (3, 4, 0),
        "wildlife",
        True,
        Size.SMALL,
    )
    assert units["dan"].cell == (1, 1, 1)
    assert units["fay"].cell == (0, 3, 1)


def test_depot_render_layers_keep_kind_ids_gids_and_paths(depot: LoadedMap) -> None:
    backdrop, floor, walls = depot.levels[0].layers[:3]
    assert (backdrop.kind, backdrop.id, backdrop.image) == (
        "image",
        12,
        DATA.absolute() / "tiles.png",
    )
    assert (walls.kind, walls.id, walls.level) == ("tile", 3, 0)
    assert walls.gids is not None and walls.flags is not None
    # Indexed [x, y] like the grid: the crate (gid 3) at x=4, y=1.
    assert walls.gids.shape == (8, 6)
    assert int(walls.gids[4, 1]) == 3 and int(walls.gids[0, 0]) == 2 and int(walls.gids[1, 1]) == 0
    assert not walls.flags.any()
    with pytest.raises(ValueError):
        walls.gids[0, 0] = 5
    units = depot.levels[0].layers[-1]
    assert units.kind == "object" and units.units is True and len(units.objects) == 6
    assert floor.units is False


def test_depot_tileset_records_what_a_renderer_needs(depot: LoadedMap) -> None:
    (tileset,) = depot.render.tilesets
    assert (tileset.name, tileset.first_gid, tileset.tile_count, tileset.columns) == (
        "depot",
        1,
        12,
        4,
    )
    assert tileset.tile_size == (16, 16) and tileset.image_size == (64, 48)
    assert tileset.image == DATA.absolute() / "tiles.png"
    assert tileset.source == DATA.absolute() / "tiles.tsx"
    assert (tileset.margin, tileset.spacing, tileset.transparent) == (0, 0, None)
    assert depot.render.tileset_for(12) is tileset
    assert depot.render.tileset_for(13) is None
    assert (depot.render.tile_size, depot.render.size) == ((16, 16), (8, 6))


def test_depot_group_tree_keeps_groups_order_and_levels(depot: LoadedMap) -> None:
    tree = depot.group_tree
    assert [(n.kind, n.name, n.id, n.level) for n in tree] == [
        ("image", "backdrop", 12, 0),
        ("group", "ground", 1, 0),
        ("group", "loft", 8, 1),
    ]
    ground_children = tree[1].children
    assert [n.name for n in ground_children] == ["floor", "walls", "collision", "props", "units"]
    assert [n.name for n in ground_children[3].children] == ["clutter"]
    assert ground_children[2].visible is False
    assert tree[1].properties == {"level": 0}


@pytest.mark.parametrize("name", ["depot.tmx", "hills.tmx", "patrol.tmx", "plain.tmx"])
def test_tiled_itself_opens_each_fixture_and_reads_the_same_layers_and_tiles(
    name: str,
    tiled_json: Callable[[Path], dict[str, Any]],
    tiled_layers: Callable[[Path], dict[int, tuple[str, list[list[int]], list[list[int]]]]],
) -> None:
    loaded = load_map(DATA / name)
    theirs = tiled_layers(DATA / name)
    ours = {r.id: r for level in loaded.render.levels for r in level if r.kind == "tile"}
    assert sorted(ours) == sorted(theirs)
    for layer_id, (layer_name, gids, flags) in theirs.items():
        mine = ours[layer_id]
        assert mine.gids is not None and mine.flags is not None
        assert (mine.name, mine.gids.tolist(), mine.flags.tolist()) == (layer_name, gids, flags)

    def flat(nodes: tuple[LayerNode, ...]) -> list[tuple[str, int, bool]]:
        out = []
        for node in nodes:
            out.append((node.name, node.id, node.visible))
            out.extend(flat(node.children))
        return out

    def flat_json(layers: list[dict[str, Any]]) -> list[tuple[str, int, bool]]:
        out = []
        for layer in layers:
            out.append((layer["name"], layer["id"], layer["visible"]))
            out.extend(flat_json(layer.get("layers", [])))
        return out

    assert flat(loaded.group_tree) == flat_json(tiled_json(DATA / name)["layers"])


# --- heightmap --------------------------------------------------------------------------------


def test_g_3_heightmap_fills_columns_full_and_its_surface_is_standable(hills: LoadedMap) -> None:
    obs, grid = hills.grid.obstacle, hills.grid
    # Column (5, 0) has height 3: full at z = 0, 1, 2; the surface z = 3 is open, standable
    # (full below), and rough (the height-3 tile also carries terrain = rough).
    assert list(obs[5, 0, :]) == [OBSTACLE_FULL] * 3 + [OBSTACLE_NONE]
    assert bool(grid.standable[5, 0, 3]) and grid.terrain[5, 0, 3] == TERRAIN_ROUGH
    assert list(obs[0, 0, :]) == [OBSTACLE_NONE] * 4
    # The trees layer carries level 2 itself: its pillar stands on the height-2 column (4, 0).
    assert list(obs[4, 0, :]) == [OBSTACLE_FULL, OBSTACLE_FULL, OBSTACLE_THIN, OBSTACLE_NONE]
    assert obs[0, 3, 0] == OBSTACLE_FULL  # a wall tile on the ground layer


def test_heightmap_grows_the_level_count_and_says_so_when_layers_define_levels(
    hills: LoadedMap,
) -> None:
    # The trees layer asks for levels 0..2; the highest column (3) needs z = 3: 4 levels.
    assert hills.grid.shape == (6, 4, 4)
    assert hills.notices == (
        "the heightmap reaches height 3: the grid has 4 levels, more than the 3 the layers define",
    )


def test_units_inside_the_heightmap_ground_stand_on_its_surface(hills: LoadedMap) -> None:
    cells = {u.name: u.cell for u in hills.units}
    # sniper (88, 8) -> column (5, 0), height 3; spotter (72, 56) -> (4, 3), height 1.
    assert cells == {"scout": (0, 0, 0), "sniper": (5, 0, 3), "spotter": (4, 3, 1)}


def test_heightmap_without_level_groups_grows_silently(workdir: Path) -> None:
    heightmap = tile_layer(1, "h", [[13, 15], [14, 13]], {"heightmap": True})
    path = write_map(
        workdir,
        heightmap,
        width=2,
        height=2,
        properties={"name": "x"},
        tilesets=' <tileset firstgid="1" source="tiles.tsx"/>\n'
        ' <tileset firstgid="13" source="heights.tsx"/>\n',
    )
    loaded = load_map(path)
    # Heights 0, 2 / 1, 0 (gid 13 + h): the top is 2, so 3 levels.
    assert loaded.grid.shape == (2, 2, 3)
    assert list(loaded.grid.obstacle[1, 0, :]) == [OBSTACLE_FULL, OBSTACLE_FULL, OBSTACLE_NONE]
    assert not any("levels" in notice for notice in loaded.notices)


# --- templates, plain maps, encodings, flips, inheritance ----------------------------------


def test_object_templates_give_units_their_properties_shape_and_tile() -> None:
    loaded = load_map(DATA / "patrol.tmx")
    units = {u.name: u for u in loaded.units}
    g1, g2, trooper = units["g1"], units["g2"], units["trooper"]
    assert (g1.faction, g1.stance, g1.template, g1.cell) == (
        "blue",
        Stance.CROUCHED,
        "station_guard",
        (0, 0, 0),
    )
    # The instance's own property overrides the template's.
    assert (g2.stance, g2.cell) == (Stance.PRONE, (1, 0, 0))
    # Tile template: gid 10 (red soldier) 16×16 at (32, 48): centre (40, 40) -> cell (2, 2).
    assert (trooper.faction, trooper.weapon, trooper.cell) == ("red", "carbine", (2, 2, 0))
    objects = loaded.levels[0].layers[1].objects
    assert (objects[2].shape, objects[2].gid, objects[2].width) == ("tile", 10, 16.0)
    assert objects[0].shape == "point"


def test_a_map_without_conventions_opens_as_flat_ground_and_says_what_it_lacks() -> None:
    loaded = load_map(DATA / "plain.tmx")
    assert loaded.grid.shape == (3, 2, 1)
    assert not loaded.grid.obstacle.any() and not loaded.grid.terrain.any()
    assert loaded.units == ()
    assert loaded.properties.name == "plain" and loaded.properties.gravity == pytest.approx(0.2)
    text = "\n".join(loaded.notices)
    assert "open ground" in text and "'units'" in text and "gravity" in text


def test_legacy_xml_tile_data_opens_like_csv(workdir: Path) -> None:
    xml = (
        ' <layer id="1" name="old" width="2" height="2">\n  <data>\n'
        '   <tile gid="2"/>\n   <tile/>\n   <tile gid="3"/>\n   <tile gid="1"/>\n'
        "  </data>\n </layer>\n"
    )
    loaded = load_map(write_map(workdir, xml, width=2, height=2))
    gids = loaded.levels[0].layers[0].gids
    assert gids is not None
    # Row-major data 2, 0 / 3, 1 indexed [x, y].
    assert gids.tolist() == [[2, 3], [0, 1]]
    assert loaded.grid.obstacle[0, 0, 0] == OBSTACLE_FULL
    assert loaded.grid.obstacle[0, 1, 0] == OBSTACLE_HALF


@pytest.mark.parametrize("compression", [None, "zlib", "gzip"])
def test_base64_tile_data_with_each_compression_gives_the_same_gids(
    workdir: Path, compression: str | None
) -> None:
    raw = np.array([2, 0, 3, 1], dtype="<u4").tobytes()
    packed = {None: raw, "zlib": zlib.compress(raw)}.get(compression)
    if compression == "gzip":
        import gzip

        packed = gzip.compress(raw)
    assert packed is not None
    attr = f' compression="{compression}"' if compression else ""
    body = (
        f' <layer id="1" name="b" width="2" height="2">\n  <data encoding="base64"{attr}>\n'
        f"   {base64.b64encode(packed).decode()}\n  </data>\n </layer>\n"
    )
    gids = load_map(write_map(workdir, body, width=2, height=2)).levels[0].layers[0].gids
    assert gids is not None and gids.tolist() == [[2, 3], [0, 1]]


def test_flip_bits_become_flags_and_do_not_change_the_tile(workdir: Path) -> None:
    # 0x80000002: wall flipped H; 0x40000003: crate flipped V; 0x20000001: ground flipped D
    # (diagonal); 0xE0000002: wall with all three.
    rows = [[0x80000002, 0x40000003], [0x20000001, 0xE0000002]]
    layer = load_map(write_map(workdir, tile_layer(1, "f", rows), width=2, height=2))
    tiles = layer.levels[0].layers[0]
    assert tiles.gids is not None and tiles.flags is not None
    assert tiles.gids.tolist() == [[2, 1], [3, 2]]
    assert tiles.flags.tolist() == [[FLIP_H, FLIP_D], [FLIP_V, FLIP_H | FLIP_V | FLIP_D]]
    assert layer.grid.obstacle[1, 1, 0] == OBSTACLE_FULL
    assert layer.grid.obstacle[1, 0, 0] == OBSTACLE_HALF


def test_groups_pass_down_offset_opacity_visibility_parallax_tint_and_properties(
    workdir: Path,
) -> None:
    inner = group(
        11,
        "B",
        tile_layer(12, "C", ground(), {"mine": "c"}, ' opacity="0.8" offsetx="0.5"'),
        {"key": "b"},
        ' visible="0" opacity="0.5" offsetx="1" offsety="1" tintcolor="#80ff0000"',
    )
    outer = group(
        10,
        "A",
        inner,
        {"key": "a", "other": 1},
        ' opacity="0.5" offsetx="4" offsety="2" parallaxx="0.5" tintcolor="#ff808080"',
    )
    loaded = load_map(write_map(workdir, outer))
    (layer,) = loaded.levels[0].layers
    # offset 4 + 1 + 0.5 = 5.5, 2 + 1 + 0 = 3; opacity 0.5 × 0.5 × 0.8 = 0.2; B hidden.
    assert layer.offset == (5.5, 3.0)
    assert layer.opacity == pytest.approx(0.2)
    assert layer.visible is False
    assert layer.parallax == (0.5, 1.0)
    # Tints multiply per channel: (128, 128, 128, 255) × (255, 0, 0, 128) / 255 = (128, 0, 0, 128).
    assert layer.tint == (128, 0, 0, 128)
    node_c = loaded.group_tree[0].children[0].children[0]
    assert (node_c.visible, node_c.effective_visible) == (True, False)
    assert node_c.effective_properties == {"key": "b", "other": 1, "mine": "c"}


def test_a_tile_object_without_size_is_centred_with_its_tile_size(workdir: Path) -> None:
    obj = '  <object id="1" name="t" gid="10" x="16" y="32"/>\n'
    (unit,) = load_map(unit_map(workdir, obj)).units
    # Bottom-left (16, 32) with the tile's 16×16 size: centre (24, 24) -> cell (1, 1).
    assert (unit.cell, unit.faction) == ((1, 1, 0), "red")


def test_p_init_6_reinforcements_of_different_rounds_may_share_a_cell(workdir: Path) -> None:
    objects = (
        point(1, "a", 24, 24, {"faction": "red"})
        + point(2, "b", 24, 24, {"faction": "red", "arrives_round": 2})
        + point(3, "c", 24, 24, {"faction": "red", "arrives_round": 3})
    )
    units = load_map(unit_map(workdir, objects)).units
    assert [(u.name, u.cell, u.arrives_round) for u in units] == [
        ("a", (1, 1, 0), None),
        ("b", (1, 1, 0), 2),
        ("c", (1, 1, 0), 3),
    ]


def test_properties_typed_as_strings_are_read_as_the_type_they_spell(workdir: Path) -> None:
    floor = tile_layer(2, "upper", ground(gid=9))
    body = group(10, "g0", tile_layer(1, "f", ground()), {"level": "0"}) + group(
        11,
        "g1",
        floor + units_layer(20, point(1, "u", 8, 8, {"faction": "red", "hidden": "true"})),
        {"level": "1"},
    )
    loaded = load_map(
        write_map(workdir, body, properties={"gravity": "0.5", "pressurised": "false"})
    )
    assert loaded.grid.shape == (4, 3, 2)
    assert loaded.properties.gravity == 0.5 and loaded.properties.pressurised is False
    assert loaded.units[0].cell == (0, 0, 1) and loaded.units[0].hidden is True


def test_the_maps_darkness_and_smoke_reach_the_grid_none_by_default(workdir: Path) -> None:
    # The battlefield's conditions a ruleset's ranged attacks read (Cepheus 000:l.213-215).
    body = tile_layer(1, "f", ground())
    dark = load_map(write_map(workdir, body, properties={"darkness": "low", "smoke": "dense"}))
    assert (dark.properties.darkness, dark.properties.smoke) == ("low", "dense")
    assert (dark.grid.darkness, dark.grid.smoke) == ("low", "dense")
    plain = load_map(write_map(workdir, body, properties={"name": "plain"}))
    assert (plain.grid.darkness, plain.grid.smoke) == ("none", "none")


def test_the_maps_weather_is_the_battles_first_weather_fair_by_default(workdir: Path) -> None:
    # Issue 15: bad weather (000:l.217) as a battle begins; the GM may change it afterwards.
    body = tile_layer(1, "f", ground())
    stormy = load_map(write_map(workdir, body, properties={"weather": "bad"}))
    assert stormy.properties.weather == stormy.grid.weather == "bad"
    plain = load_map(write_map(workdir, body, properties={"name": "plain"}))
    assert plain.grid.weather == "none"


def test_layers_without_ids_get_fresh_ids_and_a_notice(workdir: Path) -> None:
    body = tile_layer(1, "a", ground()).replace(' id="1"', "") + tile_layer(2, "b", ground())
    loaded = load_map(write_map(workdir, body))
    # write_map's nextlayerid is 90, so the layer without id becomes 90.
    assert [r.id for r in loaded.levels[0].layers] == [90, 2]
    assert any("have no id" in n for n in loaded.notices)


def test_unknown_unit_properties_and_class_properties_are_kept_with_a_notice(
    workdir: Path,
) -> None:
    obj = (
        '  <object id="1" name="u" x="8" y="8">\n   <properties>\n'
        '    <property name="faction" value="red"/>\n'
        '    <property name="gear" type="class" propertytype="Gear">\n'
        '     <properties><property name="ammo" type="int" value="3"/></properties>\n'
        "    </property>\n   </properties>\n   <point/>\n  </object>\n"
    )
    loaded = load_map(unit_map(workdir, obj, properties={"name": "gear test"}))
    assert loaded.units[0].properties["gear"] == {"ammo": 3}
    assert loaded.notices == (
        "object 'u' (id 1) in layer 'units' (id 20): 'gear' is not a unit property: ignored",
    )


def test_unit_names_come_from_the_name_property_then_the_object_name_then_the_faction(
    workdir: Path,
) -> None:
    objects = (
        point(1, "", 8, 8, {"faction": "red"})
        + point(2, "object name", 24, 8, {"faction": "red", "name": "property name"})
        + point(3, "red-1", 40, 8, {"faction": "red"})
        + point(4, "", 8, 24, {"faction": "blue"})
    )
    units = load_map(unit_map(workdir, objects)).units
    # The first unnamed red unit would be red-1, but object 3 already has that name.
    assert [u.name for u in units] == ["red-2", "property name", "red-1", "blue-1"]


def test_a_level_on_a_nested_group_or_a_heightmap_on_an_object_layer_is_ignored_with_a_notice(
    workdir: Path,
) -> None:
    inner = group(11, "inner", tile_layer(1, "f", ground(gid=2)), {"level": 1})
    body = group(10, "outer", inner) + units_layer(20, "", attrs="").replace(
        ">\n",
        '>\n  <properties><property name="heightmap" type="bool" value="true"/></properties>\n',
        1,
    )
    loaded = load_map(write_map(workdir, body, properties={"name": "n"}))
    # The walls of the nested group stay on level 0: the map has one level.
    assert loaded.grid.shape == (4, 3, 1) and loaded.grid.obstacle.all()
    assert loaded.notices == (
        "group 'inner' (id 11) has a 'level' property but is not a top-level group: ignored",
        "layer 'units' (id 20) has 'heightmap' but is not a tile layer: ignored",
    )


def test_load_map_accepts_a_string_path() -> None:
    assert load_map(str(DATA / "plain.tmx")).grid.shape == (3, 2, 1)


# --- every refusal names the file and the offending thing -----------------------------------


@dataclass(frozen=True)
class Refusal:
    id: str
    build: Callable[[Path], Path]
    #: Fragments the message must contain; "{dir}" stands for the map's folder.
    fragments: tuple[str, ...]


def _edit(old: str, new: str, source: str = "depot.tmx") -> Callable[[Path], Path]:
    """A copy of a fixture map with one piece of text replaced."""

    def build(directory: Path) -> Path:
        text = (DATA / source).read_text(encoding="utf-8")
        assert old in text, old
        path = directory / "edited.tmx"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        return path

    return build


def _units(objects: str) -> Callable[[Path], Path]:
    return lambda d: unit_map(d, objects)


def _map(body: str, **kwargs: object) -> Callable[[Path], Path]:
    return lambda d: write_map(d, body, **kwargs)  # type: ignore[arg-type]


def _bad_tileset(props: str) -> Callable[[Path], Path]:
    def build(directory: Path) -> Path:
        (directory / "bad.tsx").write_text(
            '<?xml version="1.0" encoding="UTF-8"?>\n<tileset version="1.8" name="bad" '
            'tilewidth="16" tileheight="16" tilecount="12" columns="4">\n'
            ' <image source="tiles.png" width="64" height="48"/>\n'
            f' <tile id="1">\n  <properties>\n   {props}\n  </properties>\n </tile>\n'
            "</tileset>\n"
        )
        return write_map(
            directory,
            tile_layer(1, "f", ground()),
            tilesets=' <tileset firstgid="1" source="bad.tsx"/>\n',
        )

    return build


def _without(name: str, build: Callable[[Path], Path]) -> Callable[[Path], Path]:
    def remove(directory: Path) -> Path:
        path = build(directory)
        (directory / name).unlink()
        return path

    return remove


def _csv_data(text: str, width: int = 4, height: int = 3) -> str:
    return (
        f' <layer id="1" name="floor" width="{width}" height="{height}">\n'
        f'  <data encoding="csv">{text}</data>\n </layer>\n'
    )


def _b64_data(payload: bytes, compression: str) -> str:
    return (
        f' <layer id="1" name="floor" width="4" height="3">\n'
        f'  <data encoding="base64" compression="{compression}">'
        f"{base64.b64encode(payload).decode()}</data>\n </layer>\n"
    )


_TWELVE = np.ones(12, dtype="<u4").tobytes()
_U = {"faction": "red"}

REFUSALS = [
    Refusal(
        "truncated",
        lambda d: _write(d, (DATA / "depot.tmx").read_text()[:900]),
        ("not well-formed XML at line",),
    ),
    Refusal("tileset-as-map", lambda d: d / "tiles.tsx", ("this is a tileset (.tsx), not a map",)),
    Refusal(
        "template-as-map",
        lambda d: d / "guard.tx",
        ("not a Tiled map: the root element is <template>",),
    ),
    *[
        Refusal(
            f"orientation-{o}",
            _edit('orientation="orthogonal"', f'orientation="{o}"'),
            (f"only orthogonal maps are supported; this map is {o}",),
        )
        for o in ("hexagonal", "isometric", "staggered", "oblique")
    ],
    Refusal(
        "infinite", _edit('infinite="0"', 'infinite="1"'), ("infinite maps are not supported",)
    ),
    Refusal(
        "chunks",
        _map(
            ' <layer id="1" name="floor" width="4" height="3">\n  <data '
            'encoding="csv"><chunk x="0" y="0" width="4" height="3">1</chunk>'
            "</data>\n </layer>\n"
        ),
        ("layer 'floor' (id 1)", "chunks"),
    ),
    Refusal("zstd", _map(_b64_data(b"x", "zstd")), ("layer 'floor' (id 1)", "zstd")),
    Refusal("lzma", _map(_b64_data(b"x", "lzma")), ("compression 'lzma'",)),
    Refusal(
        "hex",
        _edit('encoding="csv"', 'encoding="hex"'),
        ("layer 'floor' (id 2)", "unknown tile data encoding 'hex'"),
    ),
    Refusal(
        "no-tsx",
        _map("", tilesets=' <tileset firstgid="1" source="missing.tsx"/>\n'),
        ("tileset 'missing.tsx'", "file 'missing.tsx' not found (looked for {dir}/missing.tsx)"),
    ),
    Refusal(
        "no-png",
        _without("tiles.png", _map(tile_layer(1, "f", ground()))),
        ("tileset 'tiles.tsx'", "image 'tiles.png' not found (looked for {dir}/tiles.png)"),
    ),
    Refusal(
        "no-image-layer-image",
        _map(
            ' <imagelayer id="5" name="sky">\n  <image '
            'source="sky.png" width="4" height="4"/>\n'
            " </imagelayer>\n"
        ),
        ("layer 'sky' (id 5)", "image 'sky.png' not found (looked for {dir}/sky.png)"),
    ),
    Refusal(
        "no-template",
        _units('  <object id="3" name="x" template="ghost.tx" x="8" y="8"/>\n'),
        (
            "object 'x' (id 3) in layer 'units' (id 20)",
            "template 'ghost.tx'",
            "file 'ghost.tx' not found (looked for {dir}/ghost.tx)",
        ),
    ),
    Refusal(
        "not-a-template",
        _units('  <object id="3" name="x" template="tiles.tsx" x="8" y="8"/>\n'),
        ("object 'x' (id 3)", "is not a Tiled object template"),
    ),
    Refusal(
        "tileset-is-a-map",
        lambda d: write_map(
            d, "", tilesets=' <tileset firstgid="1" source="other.tmx"/>\n', name="other.tmx"
        ),
        ("tileset 'other.tmx'", "is not a Tiled tileset: its root is <map>"),
    ),
    Refusal(
        "gravity-text",
        _map("", properties={"gravity": "heavy"}),
        ("map, property 'gravity'", "'heavy' is not a number"),
    ),
    Refusal(
        "gravity-negative",
        _map("", properties={"gravity": -1.0}),
        ("map, property 'gravity'", "-1.0 g is negative"),
    ),
    Refusal(
        "gravity-typed-float",
        _edit('type="float" value="0.38"', 'type="float" value="x"'),
        ("map, property 'gravity'", "'x' is not a number (type float)"),
    ),
    Refusal(
        "pressurised",
        _map("", properties={"pressurised": "maybe"}),
        ("map, property 'pressurised'", "'maybe' is not true or false"),
    ),
    Refusal(
        "ruleset",
        _map("", properties={"ruleset": "dnd"}),
        ("map, property 'ruleset'", "unknown ruleset 'dnd' (known: periferie, "),
    ),
    Refusal(
        "darkness",
        _map("", properties={"darkness": "dim"}),
        ("map, property 'darkness'", "'dim' is not one of: none, low, total"),
    ),
    Refusal(
        "smoke",
        _map("", properties={"smoke": "thick"}),
        ("map, property 'smoke'", "'thick' is not one of: none, light, dense"),
    ),
    Refusal(
        "weather",
        _map("", properties={"weather": "rain"}),
        ("map, property 'weather'", "'rain' is not one of: none, bad"),
    ),
    Refusal(
        "level-text",
        _edit(
            '<property name="level" type="int" value="1"/>',
            '<property name="level" value="first"/>',
        ),
        ("group 'loft' (id 8), property 'level'", "'first' is not a whole number"),
    ),
    Refusal(
        "level-range",
        _edit(
            '<property name="level" type="int" value="1"/>',
            '<property name="level" type="int" value="40"/>',
        ),
        ("group 'loft' (id 8), property 'level'", "40 is out of range: it must be from 0 to 31"),
    ),
    Refusal(
        "level-typed-int",
        _edit(
            '<property name="level" type="int" value="1"/>',
            '<property name="level" type="int" value="1.5"/>',
        ),
        ("group 'loft' (id 8), property 'level'", "'1.5' is not a whole number (type int)"),
    ),
    Refusal(
        "same-level-twice",
        _edit(
            '<property name="level" type="int" value="1"/>',
            '<property name="level" type="int" value="0"/>',
        ),
        ("group 'loft' (id 8)", "level 0 is also group 'ground' (id 1)"),
    ),
    Refusal(
        "layer-level-conflict",
        _map(group(10, "g", tile_layer(1, "f", ground(), {"level": 1}), {"level": 0})),
        ("layer 'f' (id 1)", "has level 1 but lies in group 'g' (id 10), which is level 0"),
    ),
    Refusal(
        "obstacle-value",
        _bad_tileset('<property name="obstacle" value="wal"/>'),
        ("tileset 'bad.tsx', tile 1, property 'obstacle'", "unknown obstacle 'wal'"),
    ),
    Refusal(
        "terrain-value",
        _bad_tileset('<property name="terrain" value="rough,lava"/>'),
        ("tileset 'bad.tsx', tile 1, property 'terrain'", "unknown terrain 'lava'"),
    ),
    Refusal(
        "floor-value",
        _bad_tileset('<property name="floor" value="sometimes"/>'),
        ("tileset 'bad.tsx', tile 1, property 'floor'", "'sometimes' is not true or false"),
    ),
    Refusal(
        "height-value",
        _bad_tileset('<property name="height" type="int" value="x"/>'),
        ("tileset 'bad.tsx', tile 1, property 'height'", "'x' is not a whole number (type int)"),
    ),
    Refusal(
        "heightmap-tile-without-height",
        _map(tile_layer(1, "h", ground(), {"heightmap": True})),
        ("layer 'h' (id 1)", "the tile at x=0, y=0 (tileset 'tiles.tsx', tile 0) has no 'height'"),
    ),
    Refusal(
        "stance",
        _units(point(1, "ada", 8, 8, {**_U, "stance": "flying"})),
        (
            "object 'ada' (id 1) in layer 'units' (id 20), property 'stance'",
            "unknown stance 'flying'",
        ),
    ),
    Refusal(
        "size",
        _units(point(1, "ada", 8, 8, {**_U, "size": "huge"})),
        ("object 'ada' (id 1) in layer 'units' (id 20), property 'size'", "unknown size 'huge'"),
    ),
    Refusal(
        "arrives-round",
        _units(point(1, "ada", 8, 8, {**_U, "arrives_round": 0})),
        (
            "object 'ada' (id 1) in layer 'units' (id 20), property 'arrives_round'",
            "0 is out of range: it must be 1 or more",
        ),
    ),
    Refusal(
        "hidden",
        _units(point(1, "ada", 8, 8, {**_U, "hidden": "perhaps"})),
        (
            "object 'ada' (id 1) in layer 'units' (id 20), property 'hidden'",
            "'perhaps' is not true or false",
        ),
    ),
    Refusal(
        "faction-missing",
        _units(point(1, "ada", 8, 8, {"weapon": "pistol"})),
        ("object 'ada' (id 1) in layer 'units' (id 20)", "a unit needs a 'faction' property"),
    ),
    Refusal(
        "faction-class",
        _units(
            '  <object id="1" name="ada" x="8" y="8">\n   <properties>\n'
            '    <property name="faction" type="class" propertytype="F"/>\n   </properties>\n'
            "   <point/>\n  </object>\n"
        ),
        (
            "object 'ada' (id 1) in layer 'units' (id 20), property 'faction'",
            "is a class property; expected text",
        ),
    ),
    Refusal(
        "outside",
        _units(point(1, "ada", 200, 8, _U)),
        (
            "object 'ada' (id 1) in layer 'units' (id 20)",
            "the unit at x=200, y=8 px is in cell (12, 0), outside the 4×3 map",
        ),
    ),
    Refusal(
        "in-wall",
        _units(point(1, "ada", 56, 8, _U)),
        ("object 'ada' (id 1)", "stands in cell (3, 0, 0), inside a full obstacle"),
    ),
    Refusal(
        "not-standable",
        _map(group(10, "up", units_layer(20, point(1, "ada", 8, 8, _U)), {"level": 1})),
        (
            "object 'ada' (id 1) in layer 'units' (id 20)",
            "stands in cell (0, 0, 1), where nothing holds it up",
        ),
    ),
    Refusal(
        "same-cell",
        _units(point(1, "a", 8, 8, _U) + point(2, "b", 9, 9, _U)),
        ("object 'b' (id 2)", "stands in cell (0, 0, 0), as does object 'a' (id 1)"),
    ),
    Refusal(
        "same-name",
        _units(point(1, "ada", 8, 8, _U) + point(2, "ada", 24, 8, _U)),
        ("object 'ada' (id 2)", "the unit name 'ada' is taken by object 'ada' (id 1)"),
    ),
    Refusal(
        "rectangle-unit",
        _units(
            '  <object id="1" name="box" x="8" y="8" width="16" '
            'height="16">\n   <properties><property name="faction" '
            'value="red"/></properties>\n  </object>\n'
        ),
        ("object 'box' (id 1)", "it is a rectangle; a unit must be a point or a tile object"),
    ),
    Refusal(
        "too-wide",
        _edit('width="8" height="6" tilewidth', 'width="513" height="6" tilewidth'),
        ("the map is 513×6 cells; at most 512×512 are supported",),
    ),
    Refusal(
        "too-many-cells",
        _map(
            units_layer(20, "", attrs="").replace(
                ">\n",
                ">\n" + '  <properties><property name="level" type="int" value="16"/>'
                "</properties>\n",
                1,
            ),
            width=512,
            height=512,
        ),
        ("the grid would be 512×512×17 = 4456448 cells; at most 4194304 are supported",),
    ),
    Refusal(
        "too-many-tiles",
        _map(
            "".join(
                f' <layer id="{i}" name="l{i}" width="512" height="512">'
                '<data encoding="csv"/></layer>\n'
                for i in range(1, 66)
            ),
            width=512,
            height=512,
        ),
        ("65 tile layers of 512×512 cells hold 17039360 tiles; at most 16777216",),
    ),
    Refusal(
        "gid-without-tileset",
        _map(tile_layer(1, "floor", [[1] * 4, [1, 1, 99, 1], [1] * 4])),
        (
            "layer 'floor' (id 1)",
            "the tile at x=2, y=1 has gid 99, which no tileset holds (the tilesets hold gids 1–12)",
        ),
    ),
    Refusal(
        "object-gid-without-tileset",
        _units('  <object id="1" name="t" gid="50" x="0" y="16" width="16" height="16"/>\n'),
        ("object 't' (id 1) in layer 'units' (id 20)", "gid 50 is in no tileset"),
    ),
    Refusal(
        "layer-width",
        _edit('<layer id="3" name="walls" width="8"', '<layer id="3" name="walls" width="5"'),
        ("layer 'walls' (id 3)", "attribute width=5 differs from the map's 8"),
    ),
    Refusal(
        "tile-count",
        _map(_csv_data("1,1,1,1,1,1,1,1,1,1,1")),
        ("layer 'floor' (id 1)", "its data holds 11 tiles, expected 4×3 = 12"),
    ),
    Refusal(
        "csv-token",
        _map(_csv_data("1,x,1,1,1,1,1,1,1,1,1,1")),
        ("layer 'floor' (id 1)", "tile at x=1, y=0 is 'x', not a gid"),
    ),
    Refusal(
        "csv-negative",
        _map(_csv_data("1,1,1,1,1,-4,1,1,1,1,1,1")),
        ("layer 'floor' (id 1)", "tile at x=1, y=1 is '-4', not a gid"),
    ),
    Refusal(
        "base64",
        _map(
            ' <layer id="1" name="floor" width="4" height="3">\n  <data '
            'encoding="base64">@@@@</data>\n </layer>\n'
        ),
        ("layer 'floor' (id 1)", "not valid base64"),
    ),
    Refusal(
        "zlib-corrupt",
        _map(_b64_data(b"not zlib at all", "zlib")),
        ("layer 'floor' (id 1)", "zlib tile data is corrupt"),
    ),
    Refusal(
        "zlib-cut",
        _map(_b64_data(zlib.compress(_TWELVE)[:-6], "zlib")),
        ("layer 'floor' (id 1)", "zlib tile data is cut short"),
    ),
    Refusal(
        "zlib-too-much",
        _map(_b64_data(zlib.compress(_TWELVE * 50), "zlib")),
        ("layer 'floor' (id 1)", "its data holds more than 4×3 = 12 tiles"),
    ),
    Refusal(
        "duplicate-layer-id",
        _edit('<layer id="3" name="walls"', '<layer id="2" name="walls"'),
        ("layer 'walls'", "id 2 is also the id of layer 'floor'"),
    ),
    Refusal(
        "opacity",
        _edit(
            '<layer id="3" name="walls" width="8" height="6">',
            '<layer id="3" name="walls" width="8" height="6" opacity="2">',
        ),
        ("layer 'walls' (id 3)", "attribute opacity=2.0 must be between 0 and 1"),
    ),
    Refusal(
        "colour",
        _edit(
            '<layer id="3" name="walls" width="8" height="6">',
            '<layer id="3" name="walls" width="8" height="6" tintcolor="#12">',
        ),
        ("layer 'walls' (id 3)", "attribute tintcolor='#12' is not a colour"),
    ),
    Refusal(
        "map-width-text",
        _edit('width="8" height="6" tilewidth', 'width="eight" height="6" tilewidth'),
        ("map: attribute width='eight' is not a whole number",),
    ),
    Refusal(
        "tile-width-zero",
        _edit('tilewidth="16" tileheight="16" infinite', 'tilewidth="0" tileheight="16" infinite'),
        ("map: attribute tilewidth=0 must be at least 1",),
    ),
    Refusal(
        "render-order",
        _edit('renderorder="right-down"', 'renderorder="up"'),
        ("map: attribute renderorder='up'",),
    ),
    Refusal(
        "polygon-points",
        _units(
            '  <object id="1" name="p" x="8" y="8">\n   <polygon points="0,0 1"/>\n  </object>\n'
        ),
        ("object 'p' (id 1) in layer 'units' (id 20)", "points '0,0 1'"),
    ),
    Refusal(
        "missing-map",
        lambda d: d / "nowhere.tmx",
        ("file not found (looked for {dir}/nowhere.tmx)",),
    ),
    Refusal("directory-as-map", lambda d: d, ("file not found (looked for {dir})",)),
]


def _write(directory: Path, text: str) -> Path:
    path = directory / "written.tmx"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("case", REFUSALS, ids=[r.id for r in REFUSALS])
def test_every_refusal_is_one_map_error_naming_the_file_and_the_place(
    workdir: Path, case: Refusal
) -> None:
    path = case.build(workdir)
    with pytest.raises(MapError) as caught:
        load_map(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    for fragment in case.fragments:
        assert fragment.format(dir=workdir) in message
    assert isinstance(caught.value, ValueError)


def test_the_map_error_names_the_path_as_the_user_wrote_it(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(workdir)
    shutil.copy(DATA / "depot.tmx", workdir / "depot.tmx")
    (workdir / "tiles.tsx").unlink()
    with pytest.raises(
        MapError, match=r"^depot\.tmx: tileset 'tiles\.tsx': file 'tiles\.tsx' not found"
    ):
        load_map("depot.tmx")


def test_p_zero_1_in_microgravity_a_unit_may_float_where_nothing_holds_it_up(workdir: Path) -> None:
    # The same placement the "not-standable" refusal rejects at 0.2 g loads at 0 g.
    body = group(10, "up", units_layer(20, point(1, "ada", 8, 8, _U)), {"level": 1})
    path = write_map(workdir, body, properties={"gravity": 0.0})
    loaded = load_map(path)
    assert [(u.name, u.cell) for u in loaded.units] == [("ada", (0, 0, 1))]
    assert not loaded.grid.standable[0, 0, 1]


def test_p_heal_1_p_init_7_medkits_and_outside_combat_unit_properties_are_read_and_checked(
    workdir: Path,
) -> None:
    objects = point(1, "a", 24, 24, {"faction": "red", "medkits": 3, "outside_combat": True})
    objects += point(2, "b", 8, 8, {"faction": "blue"})
    loaded = load_map(unit_map(workdir, objects))
    a, b = loaded.units
    assert (a.medkits, a.outside_combat) == (3, True)
    assert (b.medkits, b.outside_combat) == (1, False)
    assert not [n for n in loaded.notices if "not a unit property" in n]
    bad = point(1, "a", 24, 24, {"faction": "red", "medkits": -1})
    with pytest.raises(MapError, match="property 'medkits'"):
        load_map(unit_map(workdir, bad, name="bad.tmx"))


# --- names and texts from maps are bounded ----------------------------------------------------

HUGE = "x" * 200_000


def _refusal(path: Path) -> str:
    with pytest.raises(MapError) as caught:
        load_map(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    # A map's text never makes a message longer than a person reads (the path, then two parts
    # of at most 1000 characters each).
    assert len(message) < len(str(path)) + 2100
    return message


def test_a_map_name_of_200000_characters_is_refused_with_its_length(workdir: Path) -> None:
    path = write_map(workdir, tile_layer(1, "floor", ground()), properties={"name": HUGE})
    message = _refusal(path)
    assert "map, property 'name': the name is 200000 characters long; at most 64" in message


def test_a_map_name_of_64_characters_is_kept_whole(workdir: Path) -> None:
    name = "Ardea station, deck 7 — " + "n" * 40
    assert len(name) == 64
    path = write_map(workdir, tile_layer(1, "floor", ground()), properties={"name": name})
    assert load_map(path).properties.name == name


def test_a_map_description_over_1000_characters_is_refused(workdir: Path) -> None:
    properties = {"description": "d" * 1001}
    path = write_map(workdir, tile_layer(1, "floor", ground()), properties=properties)
    assert "property 'description': the text is 1001 characters long" in _refusal(path)


def test_a_long_file_name_gives_a_default_map_name_cut_to_64_characters(workdir: Path) -> None:
    path = write_map(workdir, tile_layer(1, "floor", ground()), name="m" * 100 + ".tmx")
    name = load_map(path).properties.name
    assert name == "m" * 63 + "…"


@pytest.mark.parametrize(
    ("obj_name", "props", "place"),
    [
        ("ada", {"faction": "red", "name": HUGE}, "property 'name'"),
        (HUGE, {"faction": "red"}, "its Name field"),
        ("ada", {"faction": HUGE}, "property 'faction'"),
        ("ada", {"faction": "red", "weapon": HUGE}, "property 'weapon'"),
        ("ada", {"faction": "red", "template": HUGE}, "property 'template'"),
        ("ada", {"faction": "red", "armour": HUGE}, "property 'armour'"),
    ],
    ids=["name", "object-name", "faction", "weapon", "template", "armour"],
)
def test_unit_and_side_names_over_64_characters_are_refused_naming_the_unit(
    workdir: Path, obj_name: str, props: dict[str, object], place: str
) -> None:
    message = _refusal(unit_map(workdir, point(1, obj_name, 8, 8, props)))
    assert f"(id 1) in layer 'units' (id 20), {place}: the name is 200000 characters" in message
    # The object's own name is shown cut in the place, never whole.
    assert ("x" * 63 + "…'") in message if obj_name == HUGE else "object 'ada'" in message


def test_a_unit_name_on_two_lines_is_refused(workdir: Path) -> None:
    path = unit_map(workdir, point(1, "ada", 8, 8, {"faction": "red", "name": "ada&#10;bo"}))
    assert "control character (U+000A)" in _refusal(path)


def test_an_error_about_an_object_with_a_huge_name_stays_short(workdir: Path) -> None:
    path = unit_map(workdir, point(1, HUGE, 8, 8, {"faction": "red", "stance": "sideways"}))
    assert "property 'name'" not in _refusal(path)


def test_an_error_quoting_a_huge_value_stays_short(workdir: Path) -> None:
    path = write_map(workdir, tile_layer(1, "floor", ground()), properties={"gravity": HUGE})
    assert "property 'gravity'" in _refusal(path)


def test_layer_and_level_names_over_64_characters_are_cut_with_an_ellipsis(workdir: Path) -> None:
    body = group(10, HUGE, tile_layer(1, "y" * 65, ground()), {"level": 0})
    loaded = load_map(write_map(workdir, body))
    (level,) = loaded.levels
    assert level.group_name == "x" * 63 + "…"
    assert [layer.name for layer in level.layers] == ["y" * 63 + "…"]
    assert loaded.group_tree[0].name == "x" * 63 + "…"


def test_notices_are_bounded_in_number_and_length(workdir: Path) -> None:
    objects = "".join(
        point(i + 1, f"u{i}", 8 + 16 * (i % 3), 8 + 16 * (i // 3), {"faction": "red", HUGE: 1})
        for i in range(6)
    )
    loaded = load_map(unit_map(workdir, objects))
    assert all(len(n) <= 300 for n in loaded.notices)
    # Each nested group with a level property gives a notice (only top-level groups are levels).
    nested = "".join(group(30 + i, f"n{i}", "", {"level": 0}) for i in range(150))
    body = tile_layer(1, "floor", ground()) + group(10, "top", nested)
    loaded = load_map(write_map(workdir, body, name="many.tmx"))
    assert len(loaded.notices) == 101
    assert loaded.notices[-1].startswith("… and ")
