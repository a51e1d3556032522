"""The public Tiled corpus (maps nobody here wrote) opens or is refused as its README says."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.maps import FLIP_D, FLIP_H, FLIP_V, LayerNode, LoadedMap, MapError, load_map

#: Tiled's reading of a map's tile layers: id -> (name, gids [x][y], FLIP_* flags [x][y]).
TiledLayers = dict[int, tuple[str, list[list[int]], list[list[int]]]]

RS = "mapeditor-rs-tiled/assets"
ENCODINGS = ("csv", "base64", "base64_zlib", "base64_gzip", "base64_external")

#: The README's table: None = opens; otherwise a fragment of the refusal.
TABLE: dict[str, str | None] = {
    "mapeditor-tiled/examples/desert.tmx": None,
    "mapeditor-tiled/examples/sewers.tmx": None,
    "mapeditor-tiled/examples/orthogonal-outside.tmx": None,
    "mapeditor-tiled/examples/rpg/island.tmx": None,
    "mapeditor-tiled/examples/hexagonal-mini.tmx": (
        "only orthogonal maps are supported; this map is hexagonal"
    ),
    "mapeditor-tiled/examples/isometric_grass_and_water.tmx": (
        "only orthogonal maps are supported; this map is isometric"
    ),
    **{f"{RS}/tiled_{e}.tmx": None for e in ENCODINGS},
    f"{RS}/tiled_base64_zstandard.tmx": "zstd",
    f"{RS}/tiled_base64_zlib_infinite.tmx": "infinite maps are not supported",
    f"{RS}/tiled_xml.tmx": None,
    f"{RS}/tiled_group_layers.tmx": None,
    f"{RS}/tiled_flipped.tmx": None,
    f"{RS}/tiled_class_property.tmx": None,
    f"{RS}/tiled_image_layers.tmx": None,
    f"{RS}/tiled_object_template.tmx": None,
    f"{RS}/tiled_oblique.tmx": "only orthogonal maps are supported; this map is oblique",
    "bitcraft-pyscroll/apps/tutorial/data/grasslands.tmx": None,
}
OPENED = sorted(name for name, refusal in TABLE.items() if refusal is None)


def _tile_layers(loaded: LoadedMap) -> Iterator[Any]:
    for level in loaded.render.levels:
        yield from (layer for layer in level if layer.kind == "tile")


@pytest.mark.parametrize("name", sorted(TABLE))
def test_every_corpus_map_opens_or_is_refused_as_the_readme_says(corpus: Path, name: str) -> None:
    refusal = TABLE[name]
    if refusal is None:
        loaded = load_map(corpus / name)
        assert loaded.grid.shape[:2] == loaded.render.size
        return
    with pytest.raises(MapError) as caught:
        load_map(corpus / name)
    assert str(caught.value).startswith(f"{corpus / name}: ")
    assert refusal in str(caught.value)


def test_the_table_covers_every_map_in_the_corpus(corpus: Path) -> None:
    found = {str(p.relative_to(corpus)) for p in corpus.rglob("*.tmx")}
    assert found == set(TABLE)


def test_the_five_encodings_give_identical_grids_and_render_gids(corpus: Path) -> None:
    maps = [load_map(corpus / RS / f"tiled_{e}.tmx") for e in ENCODINGS]
    first = maps[0]
    (reference,) = _tile_layers(first)
    assert reference.gids is not None and reference.flags is not None
    # The first row of tiled_csv.tmx reads 35,35,35,35,35,33,...; indexed [x, y].
    assert reference.gids[:7, 0].tolist() == [35, 35, 35, 35, 35, 33, 33]
    for other in maps[1:]:
        (layer,) = _tile_layers(other)
        assert layer.gids is not None and layer.flags is not None
        assert np.array_equal(layer.gids, reference.gids)
        assert np.array_equal(layer.flags, reference.flags)
        for array in ("obstacle", "terrain", "floor"):
            assert np.array_equal(getattr(other.grid, array), getattr(first.grid, array))


@pytest.mark.parametrize("name", OPENED)
def test_tile_data_and_layer_tree_match_tiled_s_own_reading(
    corpus: Path, tiled_layers: Callable[[Path], TiledLayers], name: str
) -> None:
    loaded = load_map(corpus / name)
    ours = {layer.id: layer for layer in _tile_layers(loaded)}
    theirs = tiled_layers(corpus / name)
    assert sorted(ours) == sorted(theirs)
    for layer_id, (layer_name, gids, flags) in theirs.items():
        mine = ours[layer_id]
        assert mine.gids is not None and mine.flags is not None
        assert (mine.name, mine.gids.tolist(), mine.flags.tolist()) == (layer_name, gids, flags)


def test_tile_data_matches_pytmx_where_pytmx_can_read_the_map(corpus: Path) -> None:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    pytmx = pytest.importorskip("pytmx")
    # pytmx 3.32 fails on class properties, image layers without image and legacy XML data.
    readable = [n for n in OPENED if "class_property" not in n and "image_layers" not in n]
    readable = [n for n in readable if "tiled_xml" not in n]
    for name in readable:
        theirs = pytmx.TiledMap(str(corpus / name))
        back = {value[0]: key for key, value in theirs.imagemap.items() if isinstance(value, tuple)}
        ours = list(_tile_layers(load_map(corpus / name)))
        tile_layers = [la for la in theirs.layers if isinstance(la, pytmx.TiledTileLayer)]
        assert [la.name for la in tile_layers] == [la.name for la in ours]
        for mine, layer in zip(ours, tile_layers, strict=True):
            expected_gids = [[0] * theirs.height for _ in range(theirs.width)]
            expected_flags = [[0] * theirs.height for _ in range(theirs.width)]
            for x, y, gid in layer.iter_data():
                if gid:
                    tiled_gid, f = back[gid]
                    expected_gids[x][y] = tiled_gid
                    expected_flags[x][y] = (
                        FLIP_H * f.flipped_horizontally
                        | FLIP_V * f.flipped_vertically
                        | FLIP_D * f.flipped_diagonally
                    )
            assert mine.gids is not None and mine.flags is not None
            assert mine.gids.tolist() == expected_gids, name
            assert mine.flags.tolist() == expected_flags, name


def _shape(node: LayerNode) -> tuple[Any, ...]:
    return (node.kind, node.name, node.id, tuple(_shape(c) for c in node.children))


def test_nested_groups_keep_their_tree_draw_order_and_inherited_properties(corpus: Path) -> None:
    loaded = load_map(corpus / RS / "tiled_group_layers.tmx")
    assert tuple(_shape(n) for n in loaded.group_tree) == (
        ("tile", "tile-1", 1, ()),
        ("group", "group-1", 3, (("tile", "tile-2", 5, ()),)),
        ("group", "group-2", 6, (("group", "group-3", 8, (("tile", "tile-3", 9, ()),)),)),
    )
    assert [layer.name for layer in loaded.render.levels[0]] == ["tile-1", "tile-2", "tile-3"]
    group_2 = loaded.group_tree[2]
    group_3 = group_2.children[0]
    tile_3 = group_3.children[0]
    assert group_3.properties == {"key": "value6"}
    assert tile_3.properties == {"key": "value3"}
    # Own properties win over the groups' (value5 on group-2, value6 on group-3).
    assert tile_3.effective_properties == {"key": "value3"}
    assert group_3.effective_properties == {"key": "value6"}
    # A colour property stays as written.
    assert loaded.group_tree[1].properties == {"key": "#12345678"}
    assert all(layer.visible for layer in loaded.render.levels[0])
    assert tile_3.effective_visible
    gids = loaded.render.levels[0][2].gids
    assert gids is not None and gids[3:6, 0].tolist() == [48, 49, 50]


def test_flipped_tiles_keep_their_h_v_d_flags(corpus: Path) -> None:
    (layer,) = load_map(corpus / RS / "tiled_flipped.tmx").render.levels[0]
    assert layer.gids is not None and layer.flags is not None
    # 3758096387 = 0xE0000003, 1073741827 = 0x40000003 / 2147483651 = 0x80000003,
    # 536870915 = 0x20000003: tile 3 each time, flags HVD, V / H, D; indexed [x, y].
    assert layer.gids.tolist() == [[3, 3], [3, 3]]
    assert layer.flags.tolist() == [[FLIP_H | FLIP_V | FLIP_D, FLIP_H], [FLIP_V, FLIP_D]]


def test_class_properties_are_read_as_nested_mappings(corpus: Path) -> None:
    loaded = load_map(corpus / RS / "tiled_class_property.tmx")
    (obj,) = loaded.render.levels[0][1].objects
    assert obj.properties == {"class property": {"test_property_1": 3}, "empty property": {}}


def test_an_image_layer_without_image_opens(corpus: Path) -> None:
    first, second = load_map(corpus / RS / "tiled_image_layers.tmx").render.levels[0]
    # tintcolor #12345678 is AARRGGBB; "123456" is RRGGBB.
    assert (first.kind, first.image, first.tint) == ("image", None, (0x34, 0x56, 0x78, 0x12))
    assert second.image == corpus / RS / "tilesheet.png"
    assert second.tint == (0x12, 0x34, 0x56, 0xFF)


def test_object_templates_are_applied(corpus: Path) -> None:
    loaded = load_map(corpus / RS / "tiled_object_template.tmx")
    objects = {obj.id: obj for obj in loaded.render.levels[0][1].objects}
    # The template's tileset (tilesheet_template.tsx) is not in the map: it is added after
    # tilesheet.tsx (gids 1-84) at 85; the template's gid 45 (local 44) becomes 85 + 44 = 129.
    one = objects[1]
    assert (one.shape, one.gid, one.width, one.height) == ("tile", 129, 32.0, 32.0)
    assert (one.x, one.y) == (32.0, 32.0)
    assert one.properties == {"property": 1}
    tileset = loaded.render.tileset_for(129)
    assert tileset is not None and tileset.source == corpus / RS / "tilesheet_template.tsx"
    assert tileset.first_gid == 85
    # The instance's own size wins over the template's.
    assert (objects[3].gid, objects[3].width, objects[3].height) == (129, 64.0, 32.0)
    # 3221225517 = 0xC000002D: gid 45 flipped H and V; 536870957 = 0x2000002D: flipped D.
    assert (objects[4].gid, objects[4].flags) == (45, FLIP_H | FLIP_V)
    assert (objects[5].gid, objects[5].flags) == (45, FLIP_D)


def test_old_tileset_attributes_are_completed_as_tiled_does(corpus: Path) -> None:
    loaded = load_map(corpus / "mapeditor-tiled/examples/sewers.tmx")
    (tileset,) = loaded.render.tilesets
    # No columns/tilecount written: 192 px / 24 = 8 columns, 217 px // 24 = 9 rows, 72 tiles.
    assert (tileset.columns, tileset.tile_count) == (8, 72)
    assert tileset.transparent == (0xFF, 0x00, 0xFF)
    bottom, top = loaded.render.levels[0]
    assert (bottom.id, top.id) == (1, 2)  # numbered as Tiled numbers them
    assert top.opacity == pytest.approx(0.49) and bottom.opacity == 1.0
    assert any("no id" in n for n in loaded.notices)


def test_margin_spacing_animation_and_every_object_shape_are_kept(corpus: Path) -> None:
    desert = load_map(corpus / "mapeditor-tiled/examples/desert.tmx").render.tilesets[0]
    assert (desert.margin, desert.spacing, desert.columns, desert.tile_count) == (1, 1, 8, 48)
    grass = load_map(corpus / "bitcraft-pyscroll/apps/tutorial/data/grasslands.tmx")
    water = next(t for t in grass.render.tilesets if t.name == "water")
    # water.tsx writes no columns: 384 px / 32 = 12; tile 0 animates 0 -> 6, 500 ms each.
    assert (water.first_gid, water.columns, water.tile_count) == (620, 12, 144)
    assert water.animations[0] == ((0, 500), (6, 500))
    outside = load_map(corpus / "mapeditor-tiled/examples/orthogonal-outside.tmx")
    objects = {obj.id: obj for obj in outside.render.levels[0][2].objects}
    assert objects[1].shape == "rectangle" and objects[1].properties == {
        "spawncount": 5,
        "spawntype": "maggot",
    }
    assert objects[2].shape == "ellipse"
    assert objects[3].shape == "polygon" and objects[3].points[:2] == ((0.0, 0.0), (55.0, -23.0))
    assert objects[5].shape == "polyline" and len(objects[5].points) == 5
    assert objects[37].shape == "point"
    # 2147483930 = 0x8000011A: tile 282 flipped horizontally.
    assert (objects[12].shape, objects[12].gid, objects[12].flags) == ("tile", 282, FLIP_H)
    assert objects[3].properties == {"static": True}
