"""The project's own battle maps: Tiled opens them, game.maps loads them, they are as designed."""

from __future__ import annotations

import importlib.util
import os
import shutil
import struct
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
import zlib
from collections import Counter
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from numpy.typing import NDArray

from game.grid.model import Cell, Grid, Obstacle, Terrain
from game.maps import LoadedMap, load_map

REPO = Path(__file__).parents[2]
MAPS = REPO / "maps"
TILESETS = REPO / "assets" / "tilesets"
RULES_DATA = REPO / "game" / "data" / "periferie"
DESIGNED = ("station_interior.tmx", "surface_outpost.tmx", "hull_breach.tmx")
MAP_FILES = sorted(MAPS.glob("*.tmx"))
OFFSCREEN = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}


# --- helpers -------------------------------------------------------------------------------------


def _tool(name: str) -> str:
    exe = shutil.which(name)
    if exe is None:
        pytest.skip(f"{name} (Tiled 1.8) is not installed (Debian: apt-get install tiled)")
    return exe


def _run(*args: str) -> None:
    result = subprocess.run(args, env=OFFSCREEN, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"{' '.join(args)} failed: {result.stderr}"


def _png_rgba(path: Path) -> NDArray[np.uint8]:
    """Decode an 8-bit RGB or RGBA PNG (any row filter) into an array [y, x, RGBA]."""
    data = path.read_bytes()
    pos, idat = 8, b""
    width = height = colour = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        tag, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if tag == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), f"{path}: not 8-bit RGB(A)"
        elif tag == b"IDAT":
            idat += body
    bpp = 4 if colour == 6 else 3
    stride = width * bpp
    raw = zlib.decompress(idat)
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        if kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prev, strict=True))
        elif kind in (1, 3, 4):
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                up, corner = prev[i], (prev[i - bpp] if i >= bpp else 0)
                if kind == 1:
                    guess = left
                elif kind == 3:
                    guess = (left + up) // 2
                else:  # Paeth
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    guess = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + guess) & 0xFF
        rows.append(bytes(line))
        prev = line
    pixels = np.frombuffer(b"".join(rows), np.uint8).reshape(height, width, bpp)
    if bpp == 3:
        pixels = np.dstack([pixels, np.full((height, width), 255, np.uint8)])
    return pixels


def _tile_art(tileset: str, key: str) -> NDArray[np.uint8]:
    """The 32×32 RGBA art of the tile whose Tiled type is `key` in assets/tilesets/<tileset>."""
    root = ET.parse(TILESETS / f"{tileset}.tsx").getroot()
    columns = int(root.get("columns", "0"))
    local = next(int(t.get("id", "")) for t in root.iter("tile") if t.get("type") == key)
    row, col = divmod(local, columns)
    sheet = _png_rgba(TILESETS / f"{tileset}.png")
    return sheet[row * 32 : (row + 1) * 32, col * 32 : (col + 1) * 32]


def _load_script(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _obstacle(grid: Grid, cell: Cell) -> Obstacle:
    return grid.obstacle_at(cell)


def _has(grid: Grid, cell: Cell, terrain: Terrain) -> bool:
    return terrain in grid.terrain_at(cell)


def _by_name(loaded: LoadedMap) -> dict[str, Cell]:
    return {u.name: u.cell for u in loaded.units}


@pytest.fixture(scope="module")
def station() -> LoadedMap:
    return load_map(MAPS / "station_interior.tmx")


@pytest.fixture(scope="module")
def surface() -> LoadedMap:
    return load_map(MAPS / "surface_outpost.tmx")


@pytest.fixture(scope="module")
def hull() -> LoadedMap:
    return load_map(MAPS / "hull_breach.tmx")


# --- every map, in real Tiled ------------------------------------------------------------------


def test_the_three_designed_maps_are_in_the_maps_folder() -> None:
    assert {p.name for p in MAP_FILES} >= set(DESIGNED)


@pytest.mark.parametrize("tmx", MAP_FILES, ids=lambda p: p.stem)
def test_every_tileset_a_map_names_exists_with_its_image(tmx: Path) -> None:
    for ref in ET.parse(tmx).getroot().iter("tileset"):
        tsx = (tmx.parent / ref.get("source", "")).resolve()
        assert tsx.is_file(), f"{tmx.name}: tileset {ref.get('source')} not found"
        image = ET.parse(tsx).getroot().find("image")
        assert image is not None and (tsx.parent / image.get("source", "")).is_file()


@pytest.mark.parametrize("tmx", MAP_FILES, ids=lambda p: p.stem)
def test_tiled_exports_the_map_to_json(tmx: Path, tmp_path: Path) -> None:
    out = tmp_path / f"{tmx.stem}.json"
    _run(_tool("tiled"), "--export-map", "json", str(tmx), str(out))
    assert out.stat().st_size > 1000


@pytest.mark.parametrize("tmx", MAP_FILES, ids=lambda p: p.stem)
def test_tmxrasterizer_draws_a_map_that_is_not_blank(tmx: Path, tmp_path: Path) -> None:
    out = tmp_path / f"{tmx.stem}.png"
    # 8 px tiles keep the picture small enough to decode quickly.
    _run(_tool("tmxrasterizer"), "--tilesize", "8", str(tmx), str(out))
    pixels = _png_rgba(out)
    opaque = (pixels[..., 3] == 255).mean()
    colours = len(np.unique(pixels.reshape(-1, 4), axis=0))
    assert opaque > 0.9
    assert colours > 200


@pytest.mark.parametrize(
    ("file", "cell", "tileset", "key"),
    [
        # Each map's corner cell, drawn the same on every level above it.
        ("station_interior.tmx", (0, 0), "station", "wall"),
        ("surface_outpost.tmx", (0, 0), "surface", "bedrock"),
        ("hull_breach.tmx", (0, 0), "hull", "void"),
    ],
)
def test_tmxrasterizer_draws_the_project_tile_art(
    file: str, cell: tuple[int, int], tileset: str, key: str, tmp_path: Path
) -> None:
    out = tmp_path / "map.png"
    _run(_tool("tmxrasterizer"), "--tilesize", "8", str(MAPS / file), str(out))
    x, y = cell
    drawn = _png_rgba(out)[y * 8 : (y + 1) * 8, x * 8 : (x + 1) * 8, :3].reshape(-1, 3).mean(0)
    art = _tile_art(tileset, key)[..., :3].reshape(-1, 3).mean(0)
    # Scaled down, the cell keeps the tile's average colour; a missing tileset would not.
    assert np.abs(drawn - art).max() < 12


# --- the generators ------------------------------------------------------------------------------


def test_the_generators_reproduce_the_committed_tilesets_and_maps(tmp_path: Path) -> None:
    """Hand edits to the committed files are caught: make them in the generators instead."""
    tilesets = _load_script(REPO / "assets" / "generate_tilesets.py")
    maps = _load_script(REPO / "maps" / "generate_maps.py")
    map_paths = maps.write_maps(tmp_path / "maps")
    # Every committed map comes from the generator.
    assert {p.name for p in map_paths} == {p.name for p in MAP_FILES}
    for path in [*tilesets.write_tilesets(tmp_path / "assets" / "tilesets"), *map_paths]:
        committed = REPO / path.relative_to(tmp_path)
        if path.suffix == ".png":
            # Pixels, not bytes: another zlib may compress the same pixels differently.
            assert np.array_equal(_png_rgba(path), _png_rgba(committed)), committed
        else:
            assert path.read_bytes() == committed.read_bytes(), committed


def test_every_tile_states_its_obstacle_terrain_and_floor_or_a_height_g_2_g_3() -> None:
    allowed_terrain = {"rough", "water", "climbable", "stairs"}
    for tsx in sorted(TILESETS.glob("*.tsx")):
        for tile in ET.parse(tsx).getroot().iter("tile"):
            props = {p.get("name"): p.get("value", "") for p in tile.iter("property")}
            where = f"{tsx.name} tile {tile.get('id')} ({tile.get('type')})"
            if "height" in props:
                assert set(props) == {"height"} and 1 <= int(props["height"]) <= 4, where
                continue
            assert props.get("obstacle") in {"none", "half", "full", "thin"}, where
            assert props.get("floor") in {"true", "false"}, where
            assert set(filter(None, props.get("terrain", "").split(","))) <= allowed_terrain


def test_unit_templates_and_weapons_exist_in_the_rules_data() -> None:
    with (RULES_DATA / "templates.toml").open("rb") as f:
        templates = tomllib.load(f)
    with (RULES_DATA / "weapons.toml").open("rb") as f:
        weapons = tomllib.load(f)
    for file in DESIGNED:
        for unit in load_map(MAPS / file).units:
            assert unit.template in templates, f"{file}: {unit.name}"
            assert unit.weapon is None or unit.weapon in weapons, f"{file}: {unit.name}"


@pytest.mark.parametrize("file", DESIGNED)
def test_every_unit_stands_on_a_standable_cell_of_its_own_g_3(file: str) -> None:
    loaded = load_map(MAPS / file)
    cells = Counter(u.cell for u in loaded.units)
    for unit in loaded.units:
        assert loaded.grid.standable[unit.cell], f"{unit.name} at {unit.cell}"
        assert cells[unit.cell] == 1, f"{unit.name} shares {unit.cell}"


@pytest.mark.parametrize("file", DESIGNED)
def test_every_cell_of_the_ground_level_is_drawn(file: str) -> None:
    """No hole in the picture: each cell has a tile at level 0 (its heightmap's, if raised)."""
    level0 = load_map(MAPS / file).levels[0]
    drawn = sum(layer.gids != 0 for layer in level0.layers if layer.gids is not None)
    assert np.argwhere(drawn == 0).tolist() == []


# --- station_interior.tmx --------------------------------------------------------------------


def test_station_is_40_by_30_with_two_levels_at_0_2_g_pressurised(station: LoadedMap) -> None:
    assert station.grid.shape == (40, 30, 2)
    assert len(station.levels) == 2
    assert station.properties.gravity == pytest.approx(0.2)
    assert station.properties.pressurised
    assert not station.grid.microgravity
    assert station.properties.ruleset == "periferie"


def test_station_places_two_factions_hidden_surprised_and_reinforcements_p_init_4_5_6(
    station: LoadedMap,
) -> None:
    assert Counter(u.faction for u in station.units) == {"station_security": 6, "raiders": 6}
    assert {u.name for u in station.units if u.hidden} == {"Bruno", "Wisp"}
    assert {u.name for u in station.units if u.surprised} == {"Marchetti"}
    assert {u.name: u.arrives_round for u in station.units if u.arrives_round} == {
        "Ferri": 3,
        "Lang": 3,
        "Brann": 2,
        "Tallow": 2,
    }


def test_station_units_are_where_they_were_placed(station: LoadedMap) -> None:
    at = _by_name(station)
    # Okafor: point at x = (20 + 0.5) × 32 = 656, y = (2 + 0.5) × 32 = 80 in level 1's layer.
    assert at["Okafor"] == (20, 2, 1)
    assert at["Marchetti"] == (37, 2, 1)  # at her console, (38, 2, 1)
    assert _obstacle(station.grid, (38, 2, 1)) is Obstacle.HALF
    assert at["Wisp"] == (3, 6, 0)


def test_g_3_station_gallery_catwalk_and_control_room_are_floors_at_z1(station: LoadedMap) -> None:
    g = station.grid
    for cell in ((12, 3, 1), (20, 2, 1), (28, 15, 1), (34, 6, 1)):
        assert g.standable[cell], cell
    # The hall is double height: above its floor at z = 1 there is only air.
    assert not g.standable[(18, 12, 1)]
    assert _obstacle(g, (18, 12, 1)) is Obstacle.NONE


def test_g_3a_station_stairs_lead_from_the_hall_to_the_gallery_gap(station: LoadedMap) -> None:
    g = station.grid
    for x in (13, 14):
        assert g.standable[(x, 6, 0)] and _has(g, (x, 6, 0), Terrain.STAIRS)
        # The railing has a gap north of the stairs, where they arrive.
        assert g.standable[(x, 5, 1)]
    assert _obstacle(g, (15, 5, 1)) is Obstacle.HALF  # the railing goes on beside the gap


def test_g_3b_station_ladders_climb_through_hatches(station: LoadedMap) -> None:
    g = station.grid
    for x, y in ((27, 19), (38, 11)):
        assert _has(g, (x, y, 0), Terrain.CLIMBABLE)
        assert _has(g, (x, y, 1), Terrain.CLIMBABLE)
        assert _obstacle(g, (x, y, 1)) is Obstacle.NONE and g.standable[(x, y, 1)]


def test_g_2_station_cover_pieces(station: LoadedMap) -> None:
    g = station.grid
    assert _obstacle(g, (14, 11, 0)) is Obstacle.HALF  # crate in the hall
    assert _obstacle(g, (15, 12, 0)) is Obstacle.FULL  # containers stacked to the ceiling
    assert _obstacle(g, (30, 1, 0)) is Obstacle.HALF  # console in the security office
    assert _obstacle(g, (12, 9, 0)) is Obstacle.THIN  # pillar
    assert _obstacle(g, (11, 27, 0)) is Obstacle.HALF  # pipes in the pump room
    # Walls run floor to ceiling; doors are gaps.
    assert _obstacle(g, (9, 2, 0)) is Obstacle.FULL and _obstacle(g, (9, 2, 1)) is Obstacle.FULL
    assert _obstacle(g, (9, 4, 0)) is Obstacle.NONE and g.standable[(9, 4, 0)]
    assert g.standable[(29, 3, 1)]  # the door from the gallery into the control room


def test_station_coolant_channel_is_water_with_bridges(station: LoadedMap) -> None:
    g = station.grid
    assert _has(g, (12, 24, 0), Terrain.WATER) and _has(g, (20, 25, 0), Terrain.WATER)
    assert not _has(g, (16, 24, 0), Terrain.WATER)


# --- surface_outpost.tmx ---------------------------------------------------------------------


def test_surface_is_48_by_36_with_four_levels_at_0_2_g_in_vacuum(surface: LoadedMap) -> None:
    assert surface.grid.shape == (48, 36, 4)
    assert len(surface.levels) == 4
    assert surface.properties.gravity == pytest.approx(0.2)
    assert not surface.properties.pressurised


def test_surface_places_two_factions_hidden_and_reinforcements_p_init_4_6(
    surface: LoadedMap,
) -> None:
    assert Counter(u.faction for u in surface.units) == {"miners": 5, "claim_jumpers": 6}
    assert {u.name for u in surface.units if u.hidden} == {"Sloane", "Lupo"}
    assert {u.name: u.arrives_round for u in surface.units if u.arrives_round} == {
        "Kerr": 3,
        "Grist": 2,
        "Pell": 2,
    }


def test_g_3_surface_heightmap_raises_the_mesa_ridge_and_crater_rim(surface: LoadedMap) -> None:
    g = surface.grid
    # Mesa top (38, 8) has height 3: full at z = 0, 1, 2; the lookout Lupo stands at z = 3.
    assert [_obstacle(g, (38, 8, z)) for z in range(3)] == [Obstacle.FULL] * 3
    assert g.standable[(38, 8, 3)] and _by_name(surface)["Lupo"] == (38, 8, 3)
    # Ridge (9, 30) has height 2, crater rim (7, 11) height 1, the crater floor (11, 11) 0.
    assert g.standable[(9, 30, 2)] and _obstacle(g, (9, 30, 1)) is Obstacle.FULL
    assert g.standable[(7, 11, 1)] and _obstacle(g, (7, 11, 0)) is Obstacle.FULL
    assert g.standable[(11, 11, 0)]


def test_g_3a_surface_rock_steps_climb_the_mesa_one_level_a_cell(surface: LoadedMap) -> None:
    g = surface.grid
    # Heights along row 8 from x = 29: 0, 1, 2, 3; a step on each of the first three.
    for x, z in ((29, 0), (30, 1), (31, 2)):
        assert g.standable[(x, 8, z)] and _has(g, (x, 8, z), Terrain.STAIRS)
    assert g.standable[(32, 8, 3)]


def test_surface_ground_water_and_cover(surface: LoadedMap) -> None:
    g = surface.grid
    assert _has(g, (1, 14, 0), Terrain.ROUGH)  # regolith
    assert _has(g, (17, 13, 0), Terrain.ROUGH)  # rubble
    assert not _has(g, (10, 22, 0), Terrain.ROUGH)  # bedrock
    assert _has(g, (11, 11, 0), Terrain.WATER)  # meltwater pool
    assert _obstacle(g, (5, 13, 0)) is Obstacle.HALF  # boulder
    assert _obstacle(g, (17, 18, 0)) is Obstacle.HALF  # sandbags
    assert _obstacle(g, (37, 27, 0)) is Obstacle.HALF  # crate on the landing pad
    assert _obstacle(g, (14, 20, 0)) is Obstacle.FULL  # rock outcrop
    assert _obstacle(g, (20, 20, 0)) is Obstacle.FULL  # habitat wall
    assert g.standable[(24, 19, 0)]  # habitat door


def test_g_3b_surface_comms_tower_platform_on_a_ladder(surface: LoadedMap) -> None:
    g = surface.grid
    assert _obstacle(g, (31, 16, 0)) is Obstacle.THIN  # a leg of the tower
    assert g.standable[(31, 16, 1)] and _by_name(surface)["Dita"] == (31, 16, 1)
    assert _has(g, (30, 17, 0), Terrain.CLIMBABLE) and _has(g, (30, 17, 1), Terrain.CLIMBABLE)


# --- hull_breach.tmx -------------------------------------------------------------------------


def test_p_jump_2_hull_breach_is_36_by_24_four_levels_microgravity_vacuum(hull: LoadedMap) -> None:
    assert hull.grid.shape == (36, 24, 4)
    assert len(hull.levels) == 4
    assert hull.properties.gravity == 0.0
    assert hull.grid.microgravity
    assert not hull.properties.pressurised


def test_hull_places_two_factions_hidden_and_reinforcements_p_init_4_6(hull: LoadedMap) -> None:
    assert Counter(u.faction for u in hull.units) == {"station_security": 5, "raiders": 5}
    assert {u.name for u in hull.units if u.hidden} == {"Sato"}
    assert {u.name: u.arrives_round for u in hull.units if u.arrives_round} == {
        "Hale": 3,
        "Dray": 2,
        "Fen": 2,
    }


def test_p_zero_2_units_outside_the_hull_wear_thrusters(hull: LoadedMap) -> None:
    with (RULES_DATA / "templates.toml").open("rb") as f:
        templates = tomllib.load(f)
    outside = [u for u in hull.units if u.cell[2] >= 1]
    assert {u.name for u in outside} == {"Hale", "Varga", "Korrin", "Mags", "Ghost", "Dray", "Fen"}
    for unit in outside:
        assert unit.template == "void_marine" and templates[unit.template]["thrusters"] is True


def test_g_3_hull_plating_holds_boots_and_the_breach_opens_on_the_void(hull: LoadedMap) -> None:
    g = hull.grid
    assert _obstacle(g, (5, 5, 1)) is Obstacle.FULL  # plating
    assert g.standable[(20, 15, 2)]  # on the plating
    # The breach (14..17, 6..9) at z = 1 is open: nothing stands over it, the bay below shows.
    for cell in ((15, 7, 1), (15, 7, 2)):
        assert _obstacle(g, cell) is Obstacle.NONE and not g.standable[cell]
    assert g.standable[(15, 7, 0)]
    # Ghost crouches on the torn lip, next to the void over the breach.
    assert _by_name(hull)["Ghost"] == (13, 8, 2) and not g.standable[(14, 8, 2)]
    assert _has(g, (13, 5, 2), Terrain.ROUGH)  # drifting debris
    # Beyond the module there is only space.
    assert _obstacle(g, (1, 1, 0)) is Obstacle.NONE and not g.standable[(1, 1, 1)]


def test_g_2_hull_girders_pod_and_cover_on_the_hull(hull: LoadedMap) -> None:
    g = hull.grid
    assert _obstacle(g, (20, 5, 2)) is Obstacle.THIN and _obstacle(g, (20, 5, 3)) is Obstacle.THIN
    assert _obstacle(g, (22, 5, 3)) is Obstacle.THIN  # truss beam
    assert _obstacle(g, (15, 7, 3)) is Obstacle.THIN  # girder bridge over the breach
    assert _obstacle(g, (10, 7, 2)) is Obstacle.FULL and _obstacle(g, (10, 7, 3)) is Obstacle.FULL
    assert _obstacle(g, (6, 15, 2)) is Obstacle.HALF  # sensor housing
    assert _obstacle(g, (26, 13, 2)) is Obstacle.HALF  # rail round the airlock
    assert _obstacle(g, (17, 15, 2)) is Obstacle.THIN  # radiator fin


def test_g_3b_hull_airlock_ladder_climbs_from_the_chamber_to_the_hatch(hull: LoadedMap) -> None:
    g = hull.grid
    assert _has(g, (27, 15, 0), Terrain.CLIMBABLE) and _has(g, (27, 15, 1), Terrain.CLIMBABLE)
    assert g.standable[(27, 15, 1)] and _by_name(hull)["Hale"] == (27, 15, 1)
