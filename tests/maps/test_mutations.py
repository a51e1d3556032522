"""Damaged maps (cut short, values changed, bytes spliced, files removed) only raise MapError."""

from __future__ import annotations

import html
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.maps import LoadedMap, MapError, load_map

DATA = Path(__file__).parent / "data"
FILES = (
    "depot.tmx",
    "hills.tmx",
    "patrol.tmx",
    "tiles.tsx",
    "heights.tsx",
    "tiles.png",
    "guard.tx",
    "trooper.tx",
)
MAPS = ("depot.tmx", "hills.tmx", "patrol.tmx")
#: Text files a map reads: the maps and every tileset and template they use.
TEXTS = (*MAPS, "tiles.tsx", "heights.tsx", "guard.tx", "trooper.tx")
ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')
CSV_TOKEN = re.compile(r"(?<=[,\n])\d+(?=[,\n])")

VALUES = st.one_of(
    st.integers(-(2**40), 2**40).map(str),
    st.floats().map(repr),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "-1",
            "nan",
            "inf",
            "1e400",
            "hexagonal",
            "isometric",
            "zstd",
            "gzip",
            "base64",
            "csv",
            "true",
            "false",
            "full",
            "class",
            "4294967295",
            "536870913",
            "missing.tsx",
            "../tiles.png",
            "\x00",
        ]
    ),
)
CHECKED = settings(max_examples=60)


def _outcome(edit: Callable[[Path], None], map_name: str) -> LoadedMap | MapError:
    """Copy the fixtures, damage them, load the map: a LoadedMap or a MapError, nothing else."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name in FILES:
            shutil.copy(DATA / name, folder / name)
        edit(folder)
        path = folder / map_name
        try:
            return load_map(path)
        except MapError as e:
            assert str(e).startswith(f"{path}: ")
            return e


def _rewrite(name: str, change: Callable[[str], str]) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / name
        path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")

    return edit


@CHECKED
@given(st.sampled_from(MAPS), st.sampled_from(TEXTS), st.integers(min_value=0))
def test_a_file_cut_short_anywhere_raises_only_map_error(
    map_name: str, victim: str, offset: int
) -> None:
    def cut(text: str) -> str:
        return text[: offset % len(text)]

    _outcome(_rewrite(victim, cut), map_name)


@CHECKED
@given(st.sampled_from(MAPS), st.sampled_from(TEXTS), st.integers(min_value=0), VALUES)
def test_any_attribute_or_property_value_changed_raises_only_map_error(
    map_name: str, victim: str, which: int, value: str
) -> None:
    def change(text: str) -> str:
        matches = list(ATTRIBUTE.finditer(text))
        m = matches[which % len(matches)]
        return text[: m.start(2)] + html.escape(value, quote=True) + text[m.end(2) :]

    _outcome(_rewrite(victim, change), map_name)


@CHECKED
@given(st.integers(min_value=0), VALUES)
def test_any_tile_of_the_csv_data_changed_raises_only_map_error(which: int, value: str) -> None:
    def change(text: str) -> str:
        matches = list(CSV_TOKEN.finditer(text))
        m = matches[which % len(matches)]
        return text[: m.start()] + html.escape(value) + text[m.end() :]

    _outcome(_rewrite("depot.tmx", change), "depot.tmx")


@CHECKED
@given(
    st.sampled_from(MAPS), st.sampled_from(TEXTS), st.integers(min_value=0), st.binary(max_size=8)
)
def test_random_bytes_spliced_in_raise_only_map_error(
    map_name: str, victim: str, offset: int, junk: bytes
) -> None:
    def edit(folder: Path) -> None:
        path = folder / victim
        data = path.read_bytes()
        at = offset % len(data)
        path.write_bytes(data[:at] + junk + data[at + len(junk) :])

    _outcome(edit, map_name)


@pytest.mark.parametrize(
    ("map_name", "removed", "mention"),
    [
        ("depot.tmx", "tiles.tsx", "tileset 'tiles.tsx': file 'tiles.tsx' not found"),
        ("depot.tmx", "tiles.png", "image 'tiles.png' not found"),
        ("hills.tmx", "heights.tsx", "tileset 'heights.tsx': file 'heights.tsx' not found"),
        ("patrol.tmx", "guard.tx", "template 'guard.tx': file 'guard.tx' not found"),
        ("patrol.tmx", "trooper.tx", "template 'trooper.tx': file 'trooper.tx' not found"),
    ],
)
def test_a_removed_tileset_image_or_template_is_named_as_written_and_as_looked_for(
    map_name: str, removed: str, mention: str
) -> None:
    def remove(folder: Path) -> None:
        (folder / removed).unlink()

    outcome = _outcome(remove, map_name)
    assert isinstance(outcome, MapError)
    assert mention in str(outcome)
    assert "(looked for /" in str(outcome) and f"/{removed})" in str(outcome)
