"""Shared helpers of the d20 battle tests: a battle on the open test field under d20, and what
they read back (hit points, event kinds)."""

from __future__ import annotations

from dataclasses import replace

from game.battle.engine import Battle
from game.battle.setup import UnitSpec
from game.ecs.components import RulesetSheet
from game.rules.d20.sheet import Sheet
from tests.battle.conftest import MakeBattle


def d20_battle(
    make_battle: MakeBattle,
    units: list[UnitSpec],
    initiative: tuple[int, ...],
    *,
    computer: frozenset[str] = frozenset(),
) -> Battle:
    """A battle on the open test field under the d20 ruleset, each unit with the d20 sample
    sheet of its template."""
    plain = make_battle(units, initiative=initiative)
    setup = replace(plain.setup, ruleset="d20", computer=tuple(sorted(computer)))
    return Battle(setup, plain.grid, plain.rules)


def hp(b: Battle, unit: str) -> int:
    sheet = b.world.get(unit, RulesetSheet).sheet
    assert isinstance(sheet, Sheet)
    return sheet.hit_points


def kinds(events: object) -> list[str]:
    return [e.kind for e in events]  # type: ignore[attr-defined]
