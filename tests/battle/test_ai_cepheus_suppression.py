"""The computer lays Cepheus's suppression fire (000:l.317-321) when no shot is worth its while
(game/battle/ai.py): a station guard (pistol 3d6-3) against a void marine's armour 11."""

from __future__ import annotations

from fractions import Fraction

from game.battle import commands as cmd
from game.battle.ai import SUPPRESS_AT_LEAST, choose
from game.battle.engine import Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.rules.data import load_rules
from tests.battle.conftest import OPEN_FIELD, ascii_grid


def test_a_computer_guard_suppresses_an_armoured_marine_rather_than_shoot_at_it() -> None:
    units = (
        UnitSpec("ada", "blue", (2, 5, 0), template="station_guard", weapon="pistol"),
        UnitSpec("foe", "red", (9, 5, 0), template="void_marine", weapon="carbine"),
    )
    # ada 6+6+1 = 13 acts first; foe 1+1+1 = 3.
    setup = BattleSetup("<test>", "", 7, units, initiative_dice=(6, 6, 1, 1), ruleset="cepheus")
    b = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    try:
        ada, foe = b.sheet("ada"), b.sheet("foe")
        shot = b.ruleset.attack(b.bf, ada, foe)
        # 3d6-3 + Effect - 11 rarely gets through: below the half point the computer wants.
        assert b.ruleset.expected_harm(b.bf, ada, foe, shot) < b.ruleset.worth_attacking
        # 7 cells, Breve: a pistol is Media (000:l.52); 2d6 + Armi da Fuoco 1 + DEX DM 1 - 2
        # >= 8, 2d6 >= 8: 15/36, above the third the computer wants.
        assert b.ruleset.suppression(b.bf, ada, foe).chance == Fraction(15, 36)
        assert Fraction(15, 36) >= SUPPRESS_AT_LEAST
        for _ in range(10):
            move = choose(b, "ada")
            if isinstance(move, cmd.Attack):
                break
            assert b.apply(move, b.controller_of_unit("ada")).accepted, move
        assert move == cmd.Attack("ada", "foe", suppress=True)
        assert b.apply(move, b.controller_of_unit("ada")).accepted
        assert [e.data["unit"] for e in b.log if e.kind == "suppression_fire"] == ["ada"]
    finally:
        b.close()
