"""Maps from other people: a map reads only its own folder tree and assets/, within per-map budgets.

Every map here is hostile and written by the test into tmp_path: tilesets, templates and images
named outside the map's folder (absolute, ../, through links), one tileset named hundreds of times,
more objects, bytes, elements, tilesets or tileset tiles than a map may hold.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from game.maps import MapError, load_map
from game.maps import tmx as tmx_module
from game.maps.tmx import (
    ASSETS,
    MAX_OBJECTS,
    MAX_TILESET_TILES,
    MAX_TILESETS,
)

DATA = Path(__file__).parent / "data"


def write_map(
    folder: Path,
    *,
    tilesets: str = ' <tileset firstgid="1" source="tiles.tsx"/>\n',
    body: str = "",
    name: str = "hostile.tmx",
    width: int = 4,
    height: int = 3,
    layer_gid: int = 1,
) -> Path:
    """A small map: `tilesets`, one csv tile layer of `layer_gid`, then `body`."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = ",\n".join(",".join([str(layer_gid)] * width) for _ in range(height))
    path = folder / name
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.8" orientation="orthogonal" renderorder="right-down" '
        f'width="{width}" height="{height}" tilewidth="16" tileheight="16" infinite="0" '
        'nextlayerid="9" nextobjectid="9">\n'
        f"{tilesets}"
        f' <layer id="1" name="floor" width="{width}" height="{height}">\n'
        f'  <data encoding="csv">\n{rows}\n</data>\n </layer>\n'
        f"{body}</map>\n",
        encoding="utf-8",
    )
    return path


def copy_fixtures(folder: Path, *names: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names or ("tiles.tsx", "tiles.png", "guard.tx"):
        shutil.copy(DATA / name, folder / name)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the XML parsers made while loading (one per file parsed, the map included)."""
    made: list[int] = []
    original = ET.XMLParser

    class Counting(original):  # type: ignore[misc, valid-type]
        def __init__(self, *args: object, **kwargs: object) -> None:
            made.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(ET, "XMLParser", Counting)
    return made


def refusal(path: Path) -> str:
    with pytest.raises(MapError) as caught:
        load_map(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    return message


# --- files outside the map's folder tree ------------------------------------------------------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the map's folder holding a perfectly good tileset, image and template."""
    folder = tmp_path / "outside"
    copy_fixtures(folder)
    return folder


@pytest.mark.parametrize("written", ["/etc/passwd", "../../../../../../../../../etc/passwd"])
def test_a_tileset_naming_etc_passwd_is_refused_as_outside_the_map_folder_without_parsing_it(
    tmp_path: Path, parses: list[int], written: str
) -> None:
    path = write_map(tmp_path / "maps", tilesets=f' <tileset firstgid="1" source="{written}"/>\n')
    message = refusal(path)
    assert f"tileset '{written}': file '{written}'" in message
    assert "lies outside the map's folder" in message
    assert "passwd is not" not in message and "root:" not in message
    assert len(parses) == 1  # the map itself, never the outside file


def test_a_tileset_by_absolute_path_outside_the_map_folder_is_refused_though_it_is_valid(
    tmp_path: Path, outside: Path, parses: list[int]
) -> None:
    written = str(outside / "tiles.tsx")
    path = write_map(tmp_path / "maps", tilesets=f' <tileset firstgid="1" source="{written}"/>\n')
    assert "lies outside the map's folder" in refusal(path)
    assert len(parses) == 1


def test_a_tileset_escaping_by_dot_dot_is_refused(
    tmp_path: Path, outside: Path, parses: list[int]
) -> None:
    path = write_map(
        tmp_path / "maps", tilesets=' <tileset firstgid="1" source="../outside/tiles.tsx"/>\n'
    )
    message = refusal(path)
    assert "tileset '../outside/tiles.tsx': file '../outside/tiles.tsx'" in message
    assert f"(it resolves to {tmp_path / 'outside' / 'tiles.tsx'}) lies outside" in message
    assert f"the map's folder {tmp_path / 'maps'};" in message
    assert len(parses) == 1


def test_a_tileset_linked_from_inside_the_map_folder_to_outside_is_refused(
    tmp_path: Path, outside: Path, parses: list[int]
) -> None:
    maps = tmp_path / "maps"
    maps.mkdir()
    (maps / "tiles.tsx").symlink_to(outside / "tiles.tsx")
    message = refusal(write_map(maps))
    assert "lies outside" in message and f"resolves to {outside / 'tiles.tsx'}" in message
    assert len(parses) == 1


def test_a_folder_linked_from_inside_the_map_folder_to_outside_is_refused(
    tmp_path: Path, outside: Path
) -> None:
    maps = tmp_path / "maps"
    maps.mkdir()
    (maps / "sets").symlink_to(outside)
    path = write_map(maps, tilesets=' <tileset firstgid="1" source="sets/tiles.tsx"/>\n')
    assert "tileset 'sets/tiles.tsx'" in refusal(path)


def test_a_tileset_image_outside_the_map_folder_is_refused(tmp_path: Path, outside: Path) -> None:
    maps = tmp_path / "maps"
    copy_fixtures(maps, "tiles.tsx")
    tsx = maps / "tiles.tsx"
    tsx.write_text(
        tsx.read_text(encoding="utf-8").replace(
            'source="tiles.png"', 'source="../outside/tiles.png"'
        ),
        encoding="utf-8",
    )
    message = refusal(write_map(maps))
    assert "tileset 'tiles.tsx': image '../outside/tiles.png'" in message
    assert "lies outside" in message


def test_an_image_layer_image_outside_the_map_folder_is_refused(
    tmp_path: Path, outside: Path
) -> None:
    maps = tmp_path / "maps"
    copy_fixtures(maps)
    body = f' <imagelayer id="3" name="sky">\n  <image source="{outside / "tiles.png"}"/>\n'
    body += " </imagelayer>\n"
    message = refusal(write_map(maps, body=body))
    assert "layer 'sky' (id 3): image '" in message and "lies outside" in message


def test_a_template_outside_the_map_folder_is_refused_without_parsing_it(
    tmp_path: Path, outside: Path, parses: list[int]
) -> None:
    maps = tmp_path / "maps"
    copy_fixtures(maps, "tiles.tsx", "tiles.png")
    body = (
        ' <objectgroup id="2" name="units">\n'
        '  <object id="1" name="g" template="../outside/guard.tx" x="8" y="8"/>\n'
        " </objectgroup>\n"
    )
    message = refusal(write_map(maps, body=body))
    assert (
        "object 'g' (id 1) in layer 'units' (id 2), template '../outside/guard.tx': "
        "file '../outside/guard.tx'"
    ) in message
    assert "lies outside" in message
    assert len(parses) == 2  # the map and its tileset


def test_files_in_subfolders_of_the_map_folder_and_in_the_assets_folder_are_read(
    tmp_path: Path,
) -> None:
    maps = tmp_path / "maps"
    copy_fixtures(maps / "sets")
    station = ASSETS / "tilesets" / "station.tsx"
    tilesets = (
        ' <tileset firstgid="1" source="sets/../sets/tiles.tsx"/>\n'
        f' <tileset firstgid="100" source="{station}"/>\n'
    )
    loaded = load_map(write_map(maps, tilesets=tilesets))
    sources = [t.source for t in loaded.render.tilesets]
    assert sources == [maps / "sets" / "tiles.tsx", station]


def test_the_assets_folder_reached_through_a_link_beside_the_map_folder_is_read(
    tmp_path: Path,
) -> None:
    (tmp_path / "assets").symlink_to(ASSETS)
    tilesets = ' <tileset firstgid="1" source="../assets/tilesets/station.tsx"/>\n'
    loaded = load_map(write_map(tmp_path / "maps", tilesets=tilesets))
    assert loaded.render.tilesets[0].name == "station"


# --- budgets per map --------------------------------------------------------------------------


def big_tileset(path: Path, tiles: int) -> None:
    """An image tileset of `tiles` tiles, each with a (meaningless to Tessera) property."""
    body = "".join(
        f' <tile id="{i}"><properties><property name="note" value="tile number {i}"/>'
        "</properties></tile>\n"
        for i in range(tiles)
    )
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<tileset name="big" tilewidth="16" tileheight="16" tilecount="{tiles}" columns="4">\n'
        ' <image source="tiles.png"/>\n'
        f"{body}</tileset>\n",
        encoding="utf-8",
    )


def test_one_big_tileset_named_200_times_is_parsed_once_per_map(
    tmp_path: Path, parses: list[int]
) -> None:
    copy_fixtures(tmp_path, "tiles.png")
    tiles = 2000
    big_tileset(tmp_path / "big.tsx", tiles)
    assert (tmp_path / "big.tsx").stat().st_size > 150_000
    tilesets = "".join(
        f' <tileset firstgid="{1 + k * tiles}" source="big.tsx"/>\n' for k in range(200)
    )
    last = 1 + 199 * tiles + 1999
    loaded = load_map(write_map(tmp_path, tilesets=tilesets, layer_gid=last))
    assert len(parses) == 2  # the map and big.tsx, once
    assert len(loaded.render.tilesets) == 200
    assert loaded.render.tilesets[-1].first_gid == 1 + 199 * tiles
    (layer,) = loaded.render.levels[0]
    assert layer.gids is not None and int(layer.gids[0, 0]) == last


def test_a_map_holding_more_objects_than_the_budget_is_refused(tmp_path: Path) -> None:
    copy_fixtures(tmp_path, "tiles.tsx", "tiles.png")
    objects = "".join(f'<object id="{i}" x="1" y="1"/>\n' for i in range(1, MAX_OBJECTS + 2))
    body = f' <objectgroup id="2" name="clutter">\n{objects} </objectgroup>\n'
    message = refusal(write_map(tmp_path, body=body))
    assert f"more than {MAX_OBJECTS} objects" in message


def test_objects_in_the_map_and_its_tilesets_count_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy_fixtures(tmp_path, "tiles.tsx", "tiles.png")
    tsx = tmp_path / "tiles.tsx"
    shapes = "".join(f'<object id="{i}" x="0" y="0" width="4" height="4"/>' for i in range(6))
    tsx.write_text(
        tsx.read_text(encoding="utf-8").replace(
            ' <tile id="1">',
            f' <tile id="1">\n  <objectgroup draworder="index">{shapes}</objectgroup>',
        ),
        encoding="utf-8",
    )
    monkeypatch.setattr(tmx_module, "MAX_OBJECTS", 10)
    objects = "".join(f'<object id="{i}" x="1" y="1"/>\n' for i in range(1, 6))
    body = f' <objectgroup id="2" name="clutter">\n{objects} </objectgroup>\n'
    assert "more than 10 objects" in refusal(write_map(tmp_path, body=body))


def test_the_bytes_of_the_map_and_its_files_are_bounded_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy_fixtures(tmp_path, "tiles.png")
    big_tileset(tmp_path / "big.tsx", 200)
    path = write_map(tmp_path, tilesets=' <tileset firstgid="1" source="big.tsx"/>\n')
    load_map(path)
    # Each file alone is under the limit; together they are over it.
    limit = max(path.stat().st_size, (tmp_path / "big.tsx").stat().st_size) + 10
    monkeypatch.setattr(tmx_module, "MAX_MAP_BYTES", limit)
    message = refusal(path)
    assert "tileset 'big.tsx'" in message
    assert f"more than {limit} bytes together" in message


def test_the_xml_elements_of_a_map_are_bounded_while_it_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy_fixtures(tmp_path, "tiles.tsx", "tiles.png")
    path = tmp_path / "xml.tmx"
    tiles = "".join('<tile gid="1"/>' for _ in range(40 * 40))
    path.write_text(
        '<map orientation="orthogonal" width="40" height="40" tilewidth="16" tileheight="16">'
        '<tileset firstgid="1" source="tiles.tsx"/>'
        f'<layer id="1" name="old" width="40" height="40"><data>{tiles}</data></layer></map>',
        encoding="utf-8",
    )
    assert load_map(path).grid.shape == (40, 40, 1)
    monkeypatch.setattr(tmx_module, "MAX_ELEMENTS", 1000)
    message = refusal(path)
    assert "more than 1000 XML elements" in message and "CSV or Base64" in message


def test_tileset_tiles_are_bounded_per_map_counting_each_reference(tmp_path: Path) -> None:
    copy_fixtures(tmp_path, "tiles.png")
    half = MAX_TILESET_TILES // 2 + 1
    (tmp_path / "huge.tsx").write_text(
        f'<tileset name="huge" tilewidth="16" tileheight="16" tilecount="{half}" columns="4">'
        '<image source="tiles.png"/></tileset>',
        encoding="utf-8",
    )
    one = ' <tileset firstgid="1" source="huge.tsx"/>\n'
    assert load_map(write_map(tmp_path, tilesets=one)).render.tilesets[0].tile_count == half
    two = one + f' <tileset firstgid="{1 + half}" source="huge.tsx"/>\n'
    message = refusal(write_map(tmp_path, tilesets=two))
    assert f"more than {MAX_TILESET_TILES} tiles together" in message


def test_the_number_of_tileset_references_is_bounded(tmp_path: Path) -> None:
    copy_fixtures(tmp_path, "tiles.tsx", "tiles.png")
    tilesets = "".join(
        f' <tileset firstgid="{1 + 12 * k}" source="tiles.tsx"/>\n' for k in range(MAX_TILESETS + 1)
    )
    message = refusal(write_map(tmp_path, tilesets=tilesets))
    assert f"more than {MAX_TILESETS} tilesets" in message
