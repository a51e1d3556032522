"""Issue 16: the computer rides and strikes horses under Myst (game/battle/ai.py asking the
ruleset's `computer_gait` and `computer_at_horse`; docs/rules.md "Myst mounted in battle"). The
sheets are the samples: `knight` the cavaliere (speed 8, a lancia, defence 52 with a shield of
12, Cavalcare 46), `station_guard` the soldato (attack 45, a spada)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.battle import commands as cmd
from game.battle.ai import choose
from game.battle.engine import GM, Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.rules.data import load_rules
from tests.battle.conftest import OPEN_FIELD, ascii_grid


@pytest.fixture
def made() -> Iterator[list[Battle]]:
    battles: list[Battle] = []
    yield battles
    for battle in battles:
        battle.close()


def _battle(made: list[Battle], *units: UnitSpec) -> Battle:
    # Initiative: the first unit listed first (11 + 10 or 12 + 10 against 1 on the die).
    setup = BattleSetup("<test>", "", 7, units, initiative_dice=(10, 1), ruleset="myst")
    b = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    made.append(b)
    return b


def _next(b: Battle, unit: str) -> cmd.Command:
    """The computer's next command past its standing counters plan (docs/rules.md, "Myst
    counters in battle"), which it sets first."""
    chosen = choose(b, unit)
    while isinstance(chosen, cmd.DefencePlan):
        assert b.apply(chosen, GM).accepted
        chosen = choose(b, unit)
    return chosen


def test_002_l142_a_computer_knight_far_from_its_enemy_declares_the_canter_first(
    made: list[Battle],
) -> None:
    # Josh 12 cells away, beyond the knight's 8-cell ride: the canter, a step to the gallop
    # (002:l.153); declared once, then it goes on with its turn.
    b = _battle(
        made,
        UnitSpec("osric", "a", (0, 5, 0), template="knight"),
        UnitSpec("josh", "b", (12, 5, 0), template="station_guard"),
    )
    assert b.initiative.active == "osric"
    first = _next(b, "osric")
    assert first == cmd.Gait("osric", "canter")
    assert b.apply(first, GM).accepted
    assert not isinstance(_next(b, "osric"), cmd.Gait)


def test_002_l149_a_computer_soldier_beside_a_knight_names_the_horse_then_strikes(
    made: list[Battle],
) -> None:
    # On foot, the horse is defended with 40 and no shield against the rider's 52 (002:l.149):
    # the soldato names the horse, then attacks, and does not name it again.
    b = _battle(
        made,
        UnitSpec("josh", "b", (1, 5, 0), template="station_guard"),
        UnitSpec("osric", "a", (0, 5, 0), template="knight"),
    )
    assert b.initiative.active == "josh"
    first = _next(b, "josh")
    assert first == cmd.StrikeHorse("josh", True)
    assert b.apply(first, GM).accepted
    assert _next(b, "josh") == cmd.Attack("josh", "osric")
