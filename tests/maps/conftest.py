"""Map-test fixtures: the fixture and corpus folders, a scratch copy of the tilesets, Tiled."""

from __future__ import annotations

import base64
import gzip
import json
import os
import shutil
import subprocess
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.maps import FLIP_D, FLIP_H, FLIP_V

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).parents[2]
CORPUS = REPO.parent / "shared" / "tiled-corpus"
#: Files the generated maps refer to, copied next to them.
SUPPORT_FILES = ("tiles.tsx", "heights.tsx", "tiles.png", "guard.tx", "trooper.tx")


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"the public Tiled corpus is not at {CORPUS} (only on the development machine)")
    return CORPUS


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A temporary folder holding copies of the fixture tilesets, image and templates."""
    for name in SUPPORT_FILES:
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path


@pytest.fixture
def tiled_json(tmp_path: Path) -> Callable[[Path], dict[str, Any]]:
    """Tiled's own reading of a map: its JSON export (skips where Tiled is not installed)."""
    exe = shutil.which("tiled")
    if exe is None:
        pytest.skip("Tiled is not installed (Debian: apt-get install tiled); cannot ask Tiled")

    def export(tmx: Path) -> dict[str, Any]:
        out = tmp_path / f"{tmx.stem}.tiled.json"
        result = subprocess.run(
            [exe, "--export-map", "json", str(tmx), str(out)],
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, f"Tiled could not open {tmx}: {result.stderr}"
        data: dict[str, Any] = json.loads(out.read_text())
        return data

    return export


@pytest.fixture
def tiled_layers(
    tiled_json: Callable[[Path], dict[str, Any]],
) -> Callable[[Path], dict[int, tuple[str, list[list[int]], list[list[int]]]]]:
    """Tiled's reading of a map's tile layers: id -> (name, gids [x][y], FLIP_* flags [x][y]),
    decoded here with the standard library only, so it is a check independent of ours."""

    def read(tmx: Path) -> dict[int, tuple[str, list[list[int]], list[list[int]]]]:
        layers = tiled_json(tmx)["layers"]
        return {
            layer["id"]: (layer["name"], *_split(_raw(layer), layer["width"]))
            for layer in _json_layers(layers)
            if layer["type"] == "tilelayer"
        }

    return read


def _json_layers(layers: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every layer of a Tiled JSON export, groups before their children, in file order."""
    for layer in layers:
        yield layer
        yield from _json_layers(layer.get("layers", []))


def _raw(layer: dict[str, Any]) -> list[int]:
    data = layer["data"]
    if layer.get("encoding") != "base64":
        return list(data)
    packed = base64.b64decode(data)
    compression = layer.get("compression", "")
    if compression == "zlib":
        packed = zlib.decompress(packed)
    elif compression == "gzip":
        packed = gzip.decompress(packed)
    return np.frombuffer(packed, dtype="<u4").astype(int).tolist()


def _split(raw: list[int], width: int) -> tuple[list[list[int]], list[list[int]]]:
    """gids [x][y] and flags from raw Tiled gids: bits 31, 30, 29 are H, V, D; 28 is masked."""
    rows = [raw[i : i + width] for i in range(0, len(raw), width)]
    gids = [[rows[y][x] & 0x0FFFFFFF for y in range(len(rows))] for x in range(width)]
    flags = [
        [
            (FLIP_H if rows[y][x] & (1 << 31) else 0)
            | (FLIP_V if rows[y][x] & (1 << 30) else 0)
            | (FLIP_D if rows[y][x] & (1 << 29) else 0)
            for y in range(len(rows))
        ]
        for x in range(width)
    ]
    return gids, flags
