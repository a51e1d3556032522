"""The window draws every level of every map as Tiled's own tmxrasterizer draws its layers."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pygame
import pytest
from numpy.typing import NDArray

from game.maps import FLIP_D, FLIP_H, FLIP_V, LayerNode, LoadedMap, load_map
from game.ui.tiles import (
    DIM_AMOUNT,
    DIM_GREY,
    LevelRenderer,
    TileAtlas,
    load_image,
    premultiplied,
    straight_alpha,
)

REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted((REPO / "maps").glob("*.tmx"))
TEST_MAPS = sorted((REPO / "tests" / "maps" / "data").glob("*.tmx"))
CORPUS = REPO.parent / "shared" / "tiled-corpus"
#: The corpus maps its README says the client must render like Tiled.
CORPUS_MAPS = (
    "mapeditor-tiled/examples/desert.tmx",
    "mapeditor-tiled/examples/sewers.tmx",
    "mapeditor-tiled/examples/orthogonal-outside.tmx",
    "mapeditor-tiled/examples/rpg/island.tmx",
    "mapeditor-rs-tiled/assets/tiled_flipped.tmx",
    "bitcraft-pyscroll/apps/tutorial/data/grasslands.tmx",
)

#: Tolerance: every channel of every pixel within 2 of Tiled's (of 255), compared premultiplied,
#: as the pixels look over black. Tiled (Qt) and pygame both blend premultiplied pixels in 8 bits
#: but round differently (Qt's byte multiply rounds to nearest, pygame's blend divides by 256),
#: so each blend of a half-transparent pixel may differ by 1, two stacked by 2. Measured on the
#: shipped, loader-test and corpus maps: at most 1, on under 1 % of pixels. Anything wrong in
#: placement, order, flips, cutting or opacity moves whole tiles by tens of levels.
MAX_CHANNEL_DIFFERENCE = 2
#: The synthetic features map stacks four faded layers of half-transparent pixels over a
#: half-transparent backdrop, and Tiled keeps its picture in straight alpha between drawings,
#: losing up to a level at low alpha each time: there, within 3 (measured: 3 on 0.6 % of pixels).
MAX_STACKED_DIFFERENCE = 3
LAYER_TAGS = ("layer", "objectgroup", "imagelayer", "group")

Pixels = NDArray[np.int64]


# --- Tiled's own drawing ----------------------------------------------------------------------


@pytest.fixture
def rasterize(tmp_path: Path) -> Callable[[Path, LoadedMap, int], Pixels]:
    """Tiled's drawing of one level: tmxrasterizer on a copy of the map in which every layer
    our window does not draw for that level is hidden. Skips where Tiled is not installed."""
    exe = shutil.which("tmxrasterizer")
    if exe is None:
        pytest.skip("tmxrasterizer is not installed (Debian: apt-get install tiled)")

    def run(tmx: Path, loaded: LoadedMap, z: int) -> Pixels:
        copy = tmp_path / f"{tmx.stem}.level{z}.tmx"
        _only_level(tmx, loaded, z).write(copy, encoding="UTF-8", xml_declaration=True)
        png = copy.with_suffix(".png")
        result = subprocess.run(
            [exe, str(copy), str(png)],
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, f"tmxrasterizer failed on {copy}: {result.stderr}"
        out = pixels_of(pygame.image.load(str(png)))
        # Tiled widens the picture by the layers' offsets beyond the map; the window draws the
        # map's own rectangle (whatever is pushed out of it is clipped), so compare that.
        offsets = [layer.offset for level in loaded.render.levels for layer in level]
        left = max([0, *(-round(x) for x, _ in offsets)])
        top = max([0, *(-round(y) for _, y in offsets)])
        (columns, rows), (tw, th) = loaded.render.size, loaded.render.tile_size
        out = out[left : left + columns * tw, top : top + rows * th]
        # tmxrasterizer writes straight alpha; compare as premultiplied, as the eye sees it.
        out[..., :3] = (out[..., :3] * out[..., 3:] + 127) // 255
        return out

    return run


def _only_level(tmx: Path, loaded: LoadedMap, z: int) -> ET.ElementTree[ET.Element]:
    """The map's XML with files referred to by absolute path (the copy lives elsewhere), every
    layer outside level `z` and every units layer hidden, and the objects our window does not
    draw (shapes: editor annotations) removed."""
    tree = ET.parse(tmx)
    root = tree.getroot()
    for elem in root.iter():
        for attr in ("source", "template"):
            written = elem.get(attr)
            if written and elem.tag in ("tileset", "image", "object"):
                elem.set(attr, str((tmx.parent / written).resolve()))
    drawn = {layer.id: layer for layer in loaded.render.levels[z] if not layer.units}
    elems = list(_layer_elements(root))
    nodes = list(_walk(loaded.group_tree))
    assert len(elems) == len(nodes), "the loader's layer tree does not match the file's layers"
    for elem, node in zip(elems, nodes, strict=True):
        if node.kind == "group":
            continue
        layer = drawn.get(node.id)
        if layer is None:
            elem.set("visible", "0")
        elif layer.kind == "object":
            objects = elem.findall("object")
            assert len(objects) == len(layer.objects)
            for elem_object, obj in zip(objects, layer.objects, strict=True):
                if obj.shape != "tile":
                    elem.remove(elem_object)
    return tree


def _layer_elements(parent: ET.Element) -> Iterator[ET.Element]:
    for child in parent:
        if child.tag in LAYER_TAGS:
            yield child
            yield from _layer_elements(child)


def _walk(nodes: tuple[LayerNode, ...]) -> Iterator[LayerNode]:
    for node in nodes:
        yield node
        yield from _walk(node.children)


def pixels_of(surface: pygame.Surface) -> Pixels:
    rgba = np.dstack([pygame.surfarray.array3d(surface), pygame.surfarray.array_alpha(surface)])
    return rgba.astype(np.int64)


def _difference(ours: Pixels, theirs: Pixels) -> tuple[int, float]:
    """The largest channel difference, and the share of pixels that differ at all."""
    assert ours.shape == theirs.shape, f"sizes differ: ours {ours.shape}, Tiled's {theirs.shape}"
    worst = np.abs(ours - theirs).max(axis=2)
    return int(worst.max(initial=0)), float((worst > 0).mean())


def _compare_every_level(
    tmx: Path,
    rasterize: Callable[[Path, LoadedMap, int], Pixels],
    tolerance: int = MAX_CHANNEL_DIFFERENCE,
) -> list[str]:
    """Every level of `tmx` drawn by us and by Tiled; returns the levels out of tolerance."""
    loaded = load_map(tmx)
    renderer = LevelRenderer(loaded.render)
    failures = []
    for z in range(renderer.level_count):
        ours = pixels_of(renderer.level(z))
        worst, differing = _difference(ours, rasterize(tmx, loaded, z))
        if worst > tolerance:
            failures.append(
                f"level {z}: a channel differs by {worst}; {differing:.3%} of pixels differ"
            )
    return failures


# --- the comparison with Tiled ------------------------------------------------------------


@pytest.mark.parametrize("tmx", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_level_of_every_shipped_map_is_drawn_as_tiled_draws_that_level(
    tmx: Path, rasterize: Callable[[Path, LoadedMap, int], Pixels]
) -> None:
    assert _compare_every_level(tmx, rasterize) == []


def test_the_shipped_maps_are_found_so_that_the_comparison_runs_on_them() -> None:
    names = {p.name for p in SHIPPED}
    assert {"hull_breach.tmx", "station_interior.tmx", "surface_outpost.tmx"} <= names


@pytest.mark.parametrize("tmx", TEST_MAPS, ids=[p.name for p in TEST_MAPS])
def test_the_loader_test_maps_with_image_layer_hidden_layer_and_nested_groups_draw_as_tiled(
    tmx: Path, rasterize: Callable[[Path, LoadedMap, int], Pixels]
) -> None:
    assert _compare_every_level(tmx, rasterize) == []


@pytest.mark.parametrize("name", CORPUS_MAPS)
def test_corpus_maps_by_other_authors_draw_as_tiled_draws_them(
    name: str, rasterize: Callable[[Path, LoadedMap, int], Pixels]
) -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"the public Tiled corpus is not at {CORPUS} (only on the development machine)")
    assert _compare_every_level(CORPUS / name, rasterize) == []


def test_a_map_using_every_drawing_feature_of_tiled_1_8_draws_as_tiled_draws_it(
    features_map: Path, rasterize: Callable[[Path, LoadedMap, int], Pixels]
) -> None:
    assert _compare_every_level(features_map, rasterize, MAX_STACKED_DIFFERENCE) == []


def test_the_comparison_notices_a_single_misdrawn_tile(
    rasterize: Callable[[Path, LoadedMap, int], Pixels],
) -> None:
    tmx = REPO / "maps" / "station_interior.tmx"
    loaded = load_map(tmx)
    theirs = rasterize(tmx, loaded, 0)
    ours = pixels_of(LevelRenderer(loaded.render).level(0))
    assert _difference(ours, theirs)[0] <= MAX_CHANNEL_DIFFERENCE
    # The floor tile at cell (1, 1) replaced by the wall tile of cell (0, 0).
    ours[32:64, 32:64] = ours[0:32, 0:32].copy()
    worst, differing = _difference(ours, theirs)
    assert worst > MAX_CHANNEL_DIFFERENCE
    assert differing >= 32 * 32 / ours[..., 0].size / 2


# --- a map exercising flips, opacity, offsets and the rest --------------------------------


@pytest.fixture
def features_map(tmp_path: Path) -> Path:
    """An 8×6 map of 16 px tiles with its own images: a spaced, margined tileset with a colour
    key and a tile offset, an image collection with tiles taller and wider than the grid, every
    flip combination, faded and offset layers inside a faded and offset group, a hidden layer,
    an image layer, tile objects (plain, scaled, flipped) beside a rectangle, a units layer,
    and left-up render order so that overlapping tiles must be drawn in Tiled's order."""
    rng = np.random.default_rng(7)
    sheet = pygame.Surface((2 * 2 + 4 * 16 + 3 * 3, 2 * 2 + 3 * 16 + 2 * 3), pygame.SRCALPHA)
    sheet.fill((255, 0, 255, 255))
    for i in range(12):
        tile = pygame.Surface((16, 16), pygame.SRCALPHA)
        rgb = rng.integers(0, 256, size=(16, 16, 3), dtype=np.uint8)
        alpha = np.full((16, 16), 255, dtype=np.uint8)
        # Surface arrays are indexed [x, y]: a fade across the left columns, holes on the right.
        alpha[:6, :] = np.linspace(40, 220, 6).astype(np.uint8)[:, None]
        alpha[10:, i % 4 :: 5] = 0
        pygame.surfarray.blit_array(tile, rgb)
        pygame.surfarray.pixels_alpha(tile)[:] = alpha
        tile.fill((255, 0, 255, 255), pygame.Rect(12, 1, 3, 2))
        spot = pygame.Rect(2 + (i % 4) * 19, 2 + (i // 4) * 19, 16, 16)
        sheet.fill((0, 0, 0, 0), spot)
        # Adding onto clear pixels copies the tile exactly, half-transparent pixels included.
        sheet.blit(tile, spot, special_flags=pygame.BLEND_RGBA_ADD)
    pygame.image.save(sheet, str(tmp_path / "sheet.png"))
    for name, size in (("tall.png", (16, 32)), ("wide.png", (32, 16)), ("back.png", (50, 37))):
        image = pygame.Surface(size, pygame.SRCALPHA)
        rgb = rng.integers(0, 256, size=(*size, 3), dtype=np.uint8)
        pygame.surfarray.blit_array(image, rgb)
        pygame.surfarray.pixels_alpha(image)[:] = rng.integers(90, 256, size=size, dtype=np.uint8)
        pygame.image.save(image, str(tmp_path / name))

    flags = [0, FLIP_H, FLIP_V, FLIP_D, FLIP_H | FLIP_V, FLIP_H | FLIP_D, FLIP_V | FLIP_D, 7]
    bits = {FLIP_H: 1 << 31, FLIP_V: 1 << 30, FLIP_D: 1 << 29}

    def raw(gid: int, flag: int) -> int:
        return gid | sum(bit for f, bit in bits.items() if flag & f)

    ground = [[raw(1 + (x + y) % 12, flags[(x + 2 * y) % 8]) for x in range(8)] for y in range(6)]
    over = [[0] * 8 for _ in range(6)]
    for x, y, gid, flag in (
        (1, 1, 13, 0),
        (2, 1, 13, FLIP_D),
        (4, 2, 16, 0),
        (5, 3, 16, FLIP_H | FLIP_D),
        (2, 4, 5, FLIP_V),
        (6, 5, 13, FLIP_V),
        (3, 3, 13, FLIP_H),
    ):
        over[y][x] = raw(gid, flag)
    hidden = [[3] * 8 for _ in range(6)]

    def csv(rows: list[list[int]]) -> str:
        return ",\n".join(",".join(str(v) for v in row) for row in rows)

    (tmp_path / "features.tmx").write_text(
        f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="left-up" width="8"
 height="6" tilewidth="16" tileheight="16" infinite="0" nextlayerid="9" nextobjectid="10">
 <tileset firstgid="1" name="sheet" tilewidth="16" tileheight="16" spacing="3" margin="2"
  tilecount="12" columns="4">
  <tileoffset x="1" y="-2"/>
  <image source="sheet.png" trans="ff00ff" width="{sheet.get_width()}"
   height="{sheet.get_height()}"/>
 </tileset>
 <tileset firstgid="13" name="pieces" tilewidth="32" tileheight="32" tilecount="4" columns="0">
  <grid orientation="orthogonal" width="1" height="1"/>
  <tile id="0"><image width="16" height="32" source="tall.png"/></tile>
  <tile id="3"><image width="32" height="16" source="wide.png"/></tile>
 </tileset>
 <imagelayer id="1" name="backdrop" offsetx="-5" offsety="7" opacity="0.8">
  <image source="back.png" width="50" height="37"/>
 </imagelayer>
 <group id="2" name="faded" opacity="0.7" offsetx="3" offsety="2">
  <layer id="3" name="ground" width="8" height="6">
   <data encoding="csv">
{csv(ground)}
</data>
  </layer>
  <layer id="4" name="over" width="8" height="6" opacity="0.5" offsetx="-2" offsety="4">
   <data encoding="csv">
{csv(over)}
</data>
  </layer>
 </group>
 <layer id="5" name="hidden" width="8" height="6" visible="0">
  <data encoding="csv">
{csv(hidden)}
</data>
 </layer>
 <objectgroup id="6" name="props" opacity="0.9">
  <object id="1" gid="7" x="20" y="40" width="16" height="16"/>
  <object id="2" gid="8" x="60" y="60" width="24" height="24"/>
  <object id="3" gid="{raw(9, FLIP_H)}" x="90" y="30" width="16" height="16"/>
  <object id="4" gid="13" x="100" y="90" width="16" height="32"/>
  <object id="5" x="10" y="10" width="30" height="20"/>
 </objectgroup>
 <objectgroup id="7" name="units">
  <object id="6" gid="10" x="32" y="80" width="16" height="16">
   <properties><property name="faction" value="red"/></properties>
  </object>
  <object id="7" x="56" y="24">
   <properties><property name="faction" value="blue"/></properties>
   <point/>
  </object>
 </objectgroup>
</map>
""",
        encoding="utf-8",
    )
    return tmp_path / "features.tmx"


# --- flips, caches, the cut-away ------------------------------------------------------------


def _station() -> LoadedMap:
    return load_map(REPO / "maps" / "station_interior.tmx")


@pytest.mark.parametrize(
    ("flags", "transform"),
    [
        (FLIP_H, lambda a: a[::-1, :]),
        (FLIP_V, lambda a: a[:, ::-1]),
        (FLIP_D, lambda a: a.transpose(1, 0, 2)),
        (FLIP_H | FLIP_V, lambda a: a[::-1, ::-1]),
        # Tiled: the diagonal flip first, then the horizontal and vertical ones.
        (FLIP_D | FLIP_H, lambda a: a.transpose(1, 0, 2)[::-1, :]),
        (FLIP_D | FLIP_V, lambda a: a.transpose(1, 0, 2)[:, ::-1]),
        (FLIP_D | FLIP_H | FLIP_V, lambda a: a.transpose(1, 0, 2)[::-1, ::-1]),
    ],
)
def test_a_tile_drawn_flipped_equals_the_numpy_transformed_original(
    flags: int, transform: Callable[[Pixels], Pixels]
) -> None:
    atlas = TileAtlas(_station().render)
    # Station tile 9, the stairs arrow, looks different under every flip.
    plain, flipped = atlas.tile(9), atlas.tile(9, flags)
    assert plain is not None and flipped is not None
    original = pixels_of(plain)
    assert not np.array_equal(transform(original), original)
    assert np.array_equal(pixels_of(flipped), transform(original))


def test_a_diagonally_flipped_tile_that_is_not_square_swaps_its_sides(features_map: Path) -> None:
    atlas = TileAtlas(load_map(features_map).render)
    tall = atlas.tile(13, FLIP_D)
    assert tall is not None and tall.get_size() == (32, 16)


def test_flipped_tiles_are_cut_once_and_cached() -> None:
    atlas = TileAtlas(_station().render)
    assert atlas.tile(9, FLIP_H) is atlas.tile(9, FLIP_H)
    assert atlas.tile(9) is not atlas.tile(9, FLIP_H)


def test_a_gid_no_tileset_holds_has_no_tile() -> None:
    atlas = TileAtlas(_station().render)
    assert atlas.tile(0) is None
    assert atlas.tile(10_000) is None


def test_the_tileset_colour_key_makes_its_pixels_clear_and_leaves_the_others(
    tmp_path: Path,
) -> None:
    image = pygame.Surface((4, 1), pygame.SRCALPHA)
    colours = [(255, 0, 255, 255), (255, 0, 254, 255), (1, 2, 3, 128), (0, 0, 0, 255)]
    for x, colour in enumerate(colours):
        image.set_at((x, 0), colour)
    path = tmp_path / "keyed.png"
    pygame.image.save(image, str(path))
    loaded = load_image(path, (255, 0, 255))
    assert [loaded.get_at((x, 0)).a for x in range(4)] == [0, 255, 128, 255]
    assert load_image(path).get_at((0, 0)).a == 255


def test_premultiplying_with_opacity_and_tint_follows_tiled_s_tint() -> None:
    pixel = pygame.Surface((1, 1), pygame.SRCALPHA)
    pixel.fill((200, 100, 50, 255))
    out = premultiplied(pixel, 0.5, (255, 128, 0, 255)).get_at((0, 0))
    # Colour times tint, alpha times opacity, colour premultiplied by the new alpha.
    assert abs(out.r - 100) <= 1 and abs(out.g - 25) <= 1 and out.b == 0
    assert abs(out.a - 128) <= 1
    back = straight_alpha(premultiplied(pixel)).get_at((0, 0))
    assert tuple(back) == (200, 100, 50, 255)


def test_a_second_draw_at_the_same_zoom_returns_the_cached_surface() -> None:
    renderer = LevelRenderer(_station().render)
    first = renderer.level(0)
    assert renderer.level(0) is first
    zoomed = renderer.level(0, 2)
    assert renderer.level(0, 2) is zoomed
    assert zoomed.get_size() == (2 * first.get_width(), 2 * first.get_height())
    assert renderer.compose_levels(1, 0.5) is renderer.compose_levels(1, 0.5)


def test_invalidating_a_level_redraws_it_and_the_views_above_it_but_not_the_others() -> None:
    renderer = LevelRenderer(_station().render)
    ground, upper = renderer.level(0), renderer.level(1)
    from_ground, from_upper = renderer.compose_levels(0), renderer.compose_levels(1)
    zoomed = renderer.level(1, 2)
    renderer.invalidate(1)
    assert renderer.level(0) is ground
    assert renderer.compose_levels(0) is from_ground
    assert renderer.level(1) is not upper
    assert renderer.level(1, 2) is not zoomed
    assert renderer.compose_levels(1) is not from_upper
    assert np.array_equal(pixels_of(renderer.level(1)), pixels_of(upper))
    renderer.invalidate()
    assert renderer.level(0) is not ground


def test_only_a_few_zooms_stay_cached_as_the_view_zooms_in_and_out() -> None:
    renderer = LevelRenderer(_station().render)
    first = renderer.level(0, 0.75)
    for zoom in (1.25, 1.5, 1.75):
        renderer.level(0, zoom)
    assert renderer.level(0, 0.75) is not first


@pytest.mark.parametrize("current", [0, 1, 2])
def test_the_cut_away_hides_the_levels_above_the_current_one(current: int) -> None:
    render = load_map(REPO / "maps" / "hull_breach.tmx").render
    renderer = LevelRenderer(render)
    view = pixels_of(renderer.compose_levels(current))
    # The same map with no levels above the current one draws the same view...
    cut = LevelRenderer(dataclasses.replace(render, levels=render.levels[: current + 1]))
    assert np.array_equal(view, pixels_of(cut.compose_levels(current)))
    # ...although the levels above are opaque over thousands of pixels unlike the view's.
    for z in range(current + 1, renderer.level_count):
        above = pixels_of(renderer.level(z))
        hidden = (above[..., 3] == 255) & (np.abs(above - view).max(axis=2) > 8)
        assert hidden.sum() > 1000


def test_the_current_level_is_sharp_on_top_of_the_dimmed_levels_below() -> None:
    renderer = LevelRenderer(_station().render)
    ground, upper = pixels_of(renderer.level(0)), pixels_of(renderer.level(1))
    view = pixels_of(renderer.compose_levels(1))
    opaque_above = upper[..., 3] == 255
    assert np.array_equal(view[opaque_above], upper[opaque_above])
    clear_above = (upper[..., 3] == 0) & (ground[..., 3] == 255)
    assert clear_above.sum() > 10_000
    # Below, every colour moves DIM_AMOUNT of the way towards DIM_GREY.
    below = ground[clear_above][:, :3]
    expected = below * (1 - DIM_AMOUNT) + np.array(DIM_GREY) * DIM_AMOUNT
    assert np.abs(view[clear_above][:, :3] - expected).max() <= 1
    assert np.abs(view[clear_above][:, :3] - below).max() > 50
    assert (view[clear_above][:, 3] == 255).all()


def test_units_layers_are_left_to_the_window_and_other_tile_objects_are_drawn() -> None:
    loaded = load_map(REPO / "tests" / "maps" / "data" / "depot.tmx")
    units = next(layer for layer in loaded.render.levels[0] if layer.units)
    assert any(obj.shape == "tile" for obj in units.objects)
    renderer = LevelRenderer(loaded.render)
    target = pygame.Surface(renderer.pixel_size(), pygame.SRCALPHA)
    renderer.draw_layer(target, units)
    assert not pixels_of(target)[..., 3].any()
    renderer.draw_layer(target, dataclasses.replace(units, units=False))
    assert pixels_of(target)[..., 3].any()


def test_a_level_or_zoom_that_does_not_exist_is_refused_by_name() -> None:
    renderer = LevelRenderer(_station().render)
    with pytest.raises(ValueError, match="level 2 does not exist"):
        renderer.level(2)
    with pytest.raises(ValueError, match="zoom 0"):
        renderer.compose_levels(0, 0)
