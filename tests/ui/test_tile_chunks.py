"""The window draws a map in chunks (game/ui/tiles.py): put together, they are the very pixels of
the whole level that tests/ui/test_tiles.py compares with Tiled's own drawing."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pygame
import pytest

from game.maps import FLIP_D, FLIP_H, FLIP_V, load_map
from game.ui import tiles
from game.ui.tiles import LevelRenderer
from tests.ui.test_tiles import CORPUS, CORPUS_MAPS, REPO, SHIPPED, TEST_MAPS, Pixels, pixels_of

MAPS = [*SHIPPED, *TEST_MAPS]


def _assembled(
    renderer: LevelRenderer, zoom: float, chunk: Callable[[int, int], pygame.Surface]
) -> Pixels:
    """The chunks of one view laid side by side where chunk_rect puts them; -1 where none."""
    width, height = renderer.pixel_size(zoom)
    out = np.full((width, height, 4), -1, dtype=np.int64)
    columns, rows = renderer.chunk_counts
    for cx in range(columns):
        for cy in range(rows):
            rect = renderer.chunk_rect(cx, cy, zoom)
            part = pixels_of(chunk(cx, cy))
            assert part.shape[:2] == rect.size
            out[rect.left : rect.right, rect.top : rect.bottom] = part
    return out


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> int:
    """Chunks of 3 cells: every map is cut into many, and their edges cut through big tiles."""
    monkeypatch.setattr(tiles, "CHUNK_CELLS", 3)
    return 3


def _check_zoom_1(tmx: Path) -> None:
    renderer = LevelRenderer(load_map(tmx).render)
    for z in range(renderer.level_count):
        whole = pixels_of(renderer.level(z))
        alone = _assembled(renderer, 1.0, lambda cx, cy, z=z: renderer.level_chunk(z, cx, cy))
        assert np.array_equal(alone, whole), f"{tmx.name}: level {z}"
        view = pixels_of(renderer.compose_levels(z))
        chunks = _assembled(renderer, 1.0, lambda cx, cy, z=z: renderer.view_chunk(z, 1, cx, cy))
        assert np.array_equal(chunks, view), f"{tmx.name}: the view from level {z}"


@pytest.mark.parametrize("tmx", MAPS, ids=[p.name for p in MAPS])
def test_the_chunks_of_every_level_are_the_whole_level_s_pixels_at_zoom_1(
    tmx: Path, small_chunks: int
) -> None:
    _check_zoom_1(tmx)


@pytest.mark.parametrize("name", CORPUS_MAPS)
def test_the_chunks_of_corpus_maps_are_their_whole_levelspixels_of(
    name: str, small_chunks: int
) -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"the public Tiled corpus is not at {CORPUS} (only on the development machine)")
    _check_zoom_1(CORPUS / name)


def test_big_offset_flipped_turned_and_repeated_pictures_cross_chunk_edges_unchanged(
    overhanging_map: Path, small_chunks: int
) -> None:
    _check_zoom_1(overhanging_map)


def test_the_comparison_of_chunks_notices_a_tile_left_out_at_an_edge(
    overhanging_map: Path, small_chunks: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the margin of cells beyond a chunk, the tall and wide pictures hanging over
    its edge go missing: the check above would fail."""
    monkeypatch.setattr(LevelRenderer, "margin", lambda self, layer: (0, 0))
    with pytest.raises(AssertionError, match="level 0"):
        _check_zoom_1(overhanging_map)


@pytest.mark.parametrize("zoom", [0.25, 0.5, 2.0, 3.0])
def test_at_whole_zoom_ratios_the_chunks_scale_to_the_whole_view_spixels_of(
    zoom: float, small_chunks: int
) -> None:
    renderer = LevelRenderer(load_map(REPO / "maps" / "station_interior.tmx").render)
    view = pixels_of(renderer.compose_levels(1, zoom))
    chunks = _assembled(renderer, zoom, lambda cx, cy: renderer.view_chunk(1, zoom, cx, cy))
    assert np.array_equal(chunks, view)


@pytest.mark.parametrize("zoom", [0.375, 0.75, 1.5])
def test_at_fractional_zooms_the_chunks_average_as_the_whole_view_does(zoom: float) -> None:
    renderer = LevelRenderer(load_map(REPO / "maps" / "station_interior.tmx").render)
    view = pixels_of(renderer.compose_levels(1, zoom))
    chunks = _assembled(renderer, zoom, lambda cx, cy: renderer.view_chunk(1, zoom, cx, cy))
    # The same area averages, taken chunk by chunk: rounding apart (a misplaced tile or seam
    # would differ by tens of levels over whole rows).
    difference = np.abs(chunks - view).max(axis=2)
    assert difference.max() <= 10
    assert (difference > 2).mean() < 0.01


def test_a_fractional_enlargement_averages_the_area_each_pixel_covers() -> None:
    half = pygame.Surface((2, 1), pygame.SRCALPHA)
    half.fill((0, 0, 0, 255))
    half.set_at((1, 0), (200, 200, 200, 255))
    # Three output pixels over two input ones: the middle one covers half of each. (pygame's
    # averaging loses a little: up to 2% of a level's value.)
    row = pixels_of(tiles.scaled(half, (3, 1)))[:, 0, 0]
    assert row[0] == 0 and abs(row[1] - 100) <= 3 and abs(row[2] - 200) <= 4


def test_a_turned_tile_object_adds_nothing_where_it_is_clear(overhanging_map: Path) -> None:
    loaded = load_map(overhanging_map)
    props = next(layer for layer in loaded.render.levels[0] if layer.name == "props")
    turned = tuple(o for o in props.objects if o.rotation)
    assert turned
    renderer = LevelRenderer(loaded.render)
    target = pygame.Surface(renderer.pixel_size(), pygame.SRCALPHA, 32)
    renderer.draw_layer(target, dataclasses.replace(props, objects=turned))
    pixels = pixels_of(target)
    clear = pixels[..., 3] == 0
    assert clear.any() and (pixels[..., 3] > 0).sum() > 300
    assert not pixels[clear][:, :3].any()


def test_prepare_draws_a_chunk_a_step_at_a_time_until_it_is_ready() -> None:
    renderer = LevelRenderer(load_map(REPO / "maps" / "station_interior.tmx").render)
    steps = 0
    while renderer.prepare(1, 0.75, 1, 0):
        steps += 1
        assert steps < 10
    # Level 0's chunk, level 1's, the view at zoom 1, the view at 0.75.
    assert steps == 4
    assert renderer.is_ready(1, 0.75, 1, 0)
    fresh = LevelRenderer(renderer.render)
    assert np.array_equal(
        pixels_of(renderer.view_chunk(1, 0.75, 1, 0)), pixels_of(fresh.view_chunk(1, 0.75, 1, 0))
    )


def test_the_chunk_cache_stays_within_its_budget_and_redraws_what_it_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tiles, "CHUNK_BUDGET", 3 * 512 * 512)
    renderer = LevelRenderer(load_map(REPO / "maps" / "surface_outpost.tmx").render)
    first = pixels_of(renderer.view_chunk(2, 1, 0, 0))
    columns, rows = renderer.chunk_counts
    for cx in range(columns):
        for cy in range(rows):
            renderer.view_chunk(2, 1, cx, cy)
            assert renderer.chunk_pixels <= tiles.CHUNK_BUDGET
    assert not renderer.is_ready(2, 1, 0, 0)
    assert np.array_equal(pixels_of(renderer.view_chunk(2, 1, 0, 0)), first)


def test_invalidating_a_level_redraws_its_chunks_and_the_views_above_but_not_below() -> None:
    renderer = LevelRenderer(load_map(REPO / "maps" / "station_interior.tmx").render)
    ground, upper = renderer.view_chunk(0, 1, 0, 0), renderer.view_chunk(1, 1, 0, 0)
    renderer.invalidate(1)
    assert renderer.view_chunk(0, 1, 0, 0) is ground
    again = renderer.view_chunk(1, 1, 0, 0)
    assert again is not upper
    assert np.array_equal(pixels_of(again), pixels_of(upper))


# --- a map whose pictures hang over their cells ---------------------------------------------


@pytest.fixture
def overhanging_map(tmp_path: Path) -> Path:
    """A 10×8 map of 16 px cells whose pictures reach beyond their cells: tiles taller and wider
    than the grid (one with a tileset offset), flipped tiles under a fractional layer offset in
    an offset group, left-up render order, a repeated image layer with an offset, and tile
    objects plain, stretched, flipped and turned."""
    rng = np.random.default_rng(11)

    def picture(name: str, size: tuple[int, int]) -> None:
        image = pygame.Surface(size, pygame.SRCALPHA)
        pygame.surfarray.blit_array(image, rng.integers(0, 256, (*size, 3), dtype=np.uint8))
        pygame.surfarray.pixels_alpha(image)[:] = rng.integers(60, 256, size, dtype=np.uint8)
        pygame.image.save(image, str(tmp_path / name))

    picture("sheet.png", (64, 32))  # 4x2 tiles of 16 px
    picture("tall.png", (16, 44))
    picture("wide.png", (40, 16))
    picture("back.png", (23, 19))
    bits = {FLIP_H: 1 << 31, FLIP_V: 1 << 30, FLIP_D: 1 << 29}
    flips = [0, FLIP_H, FLIP_V, FLIP_D, FLIP_H | FLIP_V, FLIP_H | FLIP_D, 7]

    def raw(gid: int, flag: int) -> int:
        return gid | sum(bit for f, bit in bits.items() if flag & f)

    ground = [[raw(1 + (x * 3 + y) % 8, flips[(x + y) % 7]) for x in range(10)] for y in range(8)]
    big = [[0] * 10 for _ in range(8)]
    for x, y, gid in ((2, 2, 9), (3, 5, 10), (5, 2, 10), (6, 6, 9), (8, 3, 9), (0, 7, 10)):
        big[y][x] = raw(gid, FLIP_H if x % 2 else 0)

    def csv(rows: list[list[int]]) -> str:
        return ",\n".join(",".join(str(v) for v in row) for row in rows)

    path = tmp_path / "overhanging.tmx"
    path.write_text(
        f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" orientation="orthogonal" renderorder="left-up" width="10" height="8"
 tilewidth="16" tileheight="16" infinite="0" nextlayerid="7" nextobjectid="6">
 <tileset firstgid="1" name="sheet" tilewidth="16" tileheight="16" tilecount="8" columns="4">
  <image source="sheet.png" width="64" height="32"/>
 </tileset>
 <tileset firstgid="9" name="pieces" tilewidth="40" tileheight="44" tilecount="2" columns="0">
  <tileoffset x="-5" y="3"/>
  <grid orientation="orthogonal" width="1" height="1"/>
  <tile id="0"><image width="16" height="44" source="tall.png"/></tile>
  <tile id="1"><image width="40" height="16" source="wide.png"/></tile>
 </tileset>
 <imagelayer id="1" name="backdrop" offsetx="-7" offsety="5" repeatx="1" repeaty="1">
  <image source="back.png" width="23" height="19"/>
 </imagelayer>
 <group id="2" name="moved" offsetx="4" offsety="-3">
  <layer id="3" name="ground" width="10" height="8" opacity="0.8" offsetx="2.5" offsety="1.5">
   <data encoding="csv">
{csv(ground)}
</data>
  </layer>
  <layer id="4" name="big" width="10" height="8" offsetx="-6" offsety="9">
   <data encoding="csv">
{csv(big)}
</data>
  </layer>
 </group>
 <objectgroup id="5" name="props">
  <object id="1" gid="3" x="44" y="50" width="16" height="16"/>
  <object id="2" gid="4" x="70" y="100" width="30" height="22"/>
  <object id="3" gid="{raw(9, FLIP_V)}" x="100" y="60" width="16" height="44"/>
  <object id="4" gid="10" x="30" y="120" width="40" height="16" rotation="35"/>
  <object id="5" gid="{raw(2, FLIP_H)}" x="145" y="20" width="16" height="16"/>
 </objectgroup>
</map>
""",
        encoding="utf-8",
    )
    return path
