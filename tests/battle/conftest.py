"""Battles for tests: a grid drawn in ASCII, units placed by hand, dice entered like a GM's."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

from game.battle.engine import Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.grid.model import Grid
from game.rules.data import load_rules

#: '.' open, '#' full, 'h' half, 't' thin, as in tests/grid/conftest.py.
_OBSTACLES = {".": 0, "h": 1, "#": 2, "t": 3}

MakeBattle = Callable[..., Battle]


def ascii_grid(picture: str, levels: int = 1) -> Grid:
    rows = [r.strip() for r in picture.strip().splitlines()]
    obstacle = np.zeros((len(rows[0]), len(rows), levels), dtype=np.uint8)
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            obstacle[x, y, 0] = _OBSTACLES[char]
    return Grid.build(obstacle)


OPEN_FIELD = "\n".join(["." * 20] * 12)


@pytest.fixture
def make_battle() -> Iterator[MakeBattle]:
    """make_battle(units, picture=OPEN_FIELD, initiative=(faces...)) -> Battle; closed after."""
    made: list[Battle] = []

    def make(
        units: list[UnitSpec],
        picture: str = OPEN_FIELD,
        initiative: tuple[int, ...] = (),
        seed: int = 7,
    ) -> Battle:
        setup = BattleSetup(
            map_path="<test>",
            map_sha256="",
            seed=seed,
            units=tuple(units),
            initiative_dice=initiative,
        )
        battle = Battle(setup, ascii_grid(picture), load_rules())
        made.append(battle)
        return battle

    yield make
    for battle in made:
        battle.close()


@pytest.fixture
def made() -> Iterator[list[Battle]]:
    """Battles a test builds (tests/battle/cepheus_fields.py), closed after it."""
    battles: list[Battle] = []
    yield battles
    for battle in battles:
        battle.close()
