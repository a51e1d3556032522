"""Shared helpers of the Myst battle tests: a battle on the open test field under Myst (or
another ruleset), with the GM's initiative dice, and a unit's Myst sheet read back."""

from __future__ import annotations

from game.battle.engine import Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.ecs.components import RulesetSheet
from game.rules.data import load_rules
from game.rules.myst.data import Sheet
from tests.battle.conftest import OPEN_FIELD, ascii_grid


def myst_battle(
    units: tuple[UnitSpec, ...], dice: tuple[int, ...], ruleset: str = "myst"
) -> Battle:
    """The units on the open test field, their initiative dice given, seed 7."""
    setup = BattleSetup(
        map_path="<test>",
        map_sha256="",
        seed=7,
        units=units,
        initiative_dice=dice,
        ruleset=ruleset,
    )
    return Battle(setup, ascii_grid(OPEN_FIELD), load_rules())


def myst_sheet(b: Battle, unit: str) -> Sheet:
    sheet = b.world.get(unit, RulesetSheet).sheet
    assert isinstance(sheet, Sheet)
    return sheet
