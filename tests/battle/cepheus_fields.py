"""Shared helper of the Cepheus battle tests: a battle on the open test field under Cepheus."""

from __future__ import annotations

from game.battle.engine import Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.rules.data import load_rules
from tests.battle.conftest import OPEN_FIELD, ascii_grid


def cepheus_battle(made: list[Battle], units: list[UnitSpec], faces: tuple[int, ...]) -> Battle:
    """A Cepheus battle on an open field, kept in `made` to be closed (the `made` fixture);
    `faces` are the 2d6 initiative dice, two a unit in the order listed."""
    setup = BattleSetup(
        map_path="<test>",
        map_sha256="",
        seed=5,
        units=tuple(units),
        initiative_dice=faces,
        ruleset="cepheus",
    )
    battle = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    made.append(battle)
    return battle
