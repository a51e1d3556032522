"""The GM's ruling on an improvised action through the engine asks the ruleset's checks (issue
15): under Cepheus a C-1 check, 2d6 + the characteristic DM against the total the GM types;
periferie's d20 check names are refused there, listing the Cepheus ones."""

from __future__ import annotations

from dataclasses import replace

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.setup import UnitSpec
from game.rules import checknames
from tests.battle.conftest import MakeBattle


def test_c1_a_cepheus_improvised_action_is_ruled_with_2d6_plus_the_dex_dm(
    make_battle: MakeBattle,
) -> None:
    ada = UnitSpec("ada", "blue", (5, 5, 0), template="scavenger", weapon="pistol")
    foe = UnitSpec("foe", "red", (9, 5, 0), weapon="pistol")
    plain = make_battle([ada, foe])
    battle = Battle(replace(plain.setup, ruleset="cepheus"), plain.grid, plain.rules)
    try:
        unit = battle.active
        assert unit is not None
        assert battle.apply(cmd.Improvise(unit, "swing on the cable"), GM).refusal is None
        wrong = battle.apply(
            cmd.RuleImprovise(unit, "check", check=checknames.ATHLETICS, dc=8), GM
        ).refusal
        assert wrong is not None and wrong.code == "needs_check_and_dc"
        assert tuple(wrong.values["known"]) == ("end", "str", "dex")
        # The sample scavenger's DEX DM +1, the map's civilian none: 5 + 4 + DM >= 10 (the
        # GM's Difficile, C-2's -2 moved onto the target) holds only for the scavenger.
        battle.roller.supply(5, 4)
        ruled = battle.apply(cmd.RuleImprovise(unit, "check", check="dex", dc=10), GM)
        assert ruled.refusal is None
        event = next(e for e in ruled.events if e.kind == "improvise_ruled")
        (roll,) = event.rolls
        dm = 1 if unit == "ada" else 0
        assert (roll.total, roll.target) == (9 + dm, 10)
        assert event.data["success"] == (unit == "ada")
        assert battle.improvising == []
    finally:
        battle.close()
