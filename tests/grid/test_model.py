"""The grid's map-wide light and smoke (game/grid/model.py): what a ruleset's ranged attacks
read (Cepheus 000:l.213-215), checked as the grid is built and kept through a rebuild."""

from __future__ import annotations

import numpy as np
import pytest

from game.grid.model import Grid


def test_a_grid_carries_the_maps_darkness_and_smoke_none_by_default() -> None:
    obstacle = np.zeros((3, 3, 1), dtype=np.uint8)
    assert (Grid.build(obstacle).darkness, Grid.build(obstacle).smoke) == ("none", "none")
    dark = Grid.build(obstacle, darkness="total", smoke="light")
    assert (dark.darkness, dark.smoke) == ("total", "light")


def test_an_unknown_darkness_or_smoke_is_refused_naming_the_known_ones() -> None:
    obstacle = np.zeros((3, 3, 1), dtype=np.uint8)
    with pytest.raises(ValueError, match="darkness must be one of none, low, total"):
        Grid.build(obstacle, darkness="dim")
    with pytest.raises(ValueError, match="smoke one of none, light, dense"):
        Grid.build(obstacle, smoke="thick")
