"""Shared grid-test helpers: maps from ASCII art, and kernels run compiled or as pure Python."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType

import numpy as np
import pytest

from game.grid import cover, geometry, los
from game.grid.model import (
    OBSTACLE_FULL,
    OBSTACLE_HALF,
    OBSTACLE_NONE,
    OBSTACLE_THIN,
    Cell,
    Grid,
)

#: ASCII art: '.' open, '#' full, 'h' half, 't' thin; an uppercase letter names an open cell.
OBSTACLE_CHARS = {".": OBSTACLE_NONE, "#": OBSTACLE_FULL, "h": OBSTACLE_HALF, "t": OBSTACLE_THIN}

AsciiGrid = Callable[..., tuple[Grid, dict[str, Cell]]]


def grid_from_ascii(*levels: str, **build: float | bool) -> tuple[Grid, dict[str, Cell]]:
    """A grid from one picture per level, z = 0 first; rows are y (down), columns x (right).

    Returns the grid and the cells named by uppercase letters.
    """
    pictures = [[row.strip() for row in level.strip().splitlines()] for level in levels]
    height, width = len(pictures[0]), len(pictures[0][0])
    obstacle = np.zeros((width, height, len(levels)), dtype=np.uint8)
    marks: dict[str, Cell] = {}
    for z, rows in enumerate(pictures):
        if len(rows) != height or any(len(r) != width for r in rows):
            raise ValueError(f"level {z} is not {width}x{height} like level 0")
        for y, row in enumerate(rows):
            for x, char in enumerate(row):
                if char.isupper():
                    marks[char] = (x, y, z)
                else:
                    obstacle[x, y, z] = OBSTACLE_CHARS[char]
    return Grid.build(obstacle, **build), marks  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def ascii_grid() -> AsciiGrid:
    return grid_from_ascii


_KERNEL_MODULES: tuple[ModuleType, ...] = (geometry, los, cover)


@pytest.fixture(params=["compiled", "python"])
def kernel_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run the test once with the compiled kernels and once with their pure-Python source.

    In "python" mode every kernel name in the grid modules points at its `py_func`, so the
    whole call tree runs uncompiled (with NUMBA_DISABLE_JIT=1 both modes are pure Python).
    """
    if request.param == "python":
        for module in _KERNEL_MODULES:
            for name, value in list(vars(module).items()):
                if hasattr(value, "py_func"):
                    monkeypatch.setattr(module, name, value.py_func)
    yield request.param
