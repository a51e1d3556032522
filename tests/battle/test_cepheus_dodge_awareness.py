"""Cepheus's dodge needs the defender to be aware of the attack (000:l.162, "Un personaggio può
reagire solo ad attacchi di cui è consapevole"): it sees the attacker, and the attacker is not
hidden from its side (the battle's hiding, P-STL-1/2). Numbers worked out by hand from the
sample sheets (game/data/cepheus/sheets.toml)."""

from __future__ import annotations

from fractions import Fraction

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.setup import UnitSpec
from game.ecs.components import Visibility
from tests.battle.cepheus_fields import cepheus_battle


def _dms(battle: Battle, attacker: str, target: str) -> dict[str, object]:
    answer = battle.ruleset.attack(battle.bf, battle.sheet(attacker), battle.sheet(target))
    return {m.code: m.value for m in answer.modifiers}


def _guard_and_civilian(made: list[Battle], *, hidden: bool) -> Battle:
    # A guard (pistol: Armi da Fuoco 1, DEX DM +1) 7 cells (10.5 m, Breve: a pistol is Media,
    # DM 0, 000:l.52) from a civilian; initiative guard 6+6+1 = 13, civilian 1+1+0 = 2.
    return cepheus_battle(
        made,
        [
            UnitSpec(
                "ada", "blue", (2, 5, 0), template="station_guard", weapon="pistol", hidden=hidden
            ),
            UnitSpec("foe", "red", (9, 5, 0), template="human"),
        ],
        (6, 6, 1, 1),
    )


def test_000_l162_a_seen_attacker_is_dodged_minus_1(made) -> None:
    # 000:l.166 "dando al suo attaccante un DM di -1": 2d6 + 1 + 1 + 0 - 1 >= 8, 2d6 >= 7: 21/36.
    battle = _guard_and_civilian(made, hidden=False)
    answer = battle.ruleset.attack(battle.bf, battle.sheet("ada"), battle.sheet("foe"))
    assert {m.code: m.value for m in answer.modifiers}["dm_dodge"] == -1
    assert answer.chance == Fraction(21, 36)


def test_000_l162_a_hidden_attacker_is_not_dodged_and_the_shot_reveals_it_after(made) -> None:
    # Hidden from red: the civilian is not aware of the shot, though its line of sight is
    # clear: no dodge, 2d6 + 1 + 1 >= 8, 2d6 >= 6: 26/36; no reaction is logged nor paid.
    battle = _guard_and_civilian(made, hidden=True)
    assert battle.world.get("ada", Visibility).hidden_from == frozenset({"red"})
    assert battle.ruleset.sight(battle.bf, battle.sheet("foe"), battle.sheet("ada")).clear
    answer = battle.ruleset.attack(battle.bf, battle.sheet("ada"), battle.sheet("foe"))
    assert "dm_dodge" not in {m.code for m in answer.modifiers}
    assert answer.chance == Fraction(26, 36)
    battle.roller.supply(1, 1)  # a miss: the civilian stays to be shot at again
    assert battle.apply(cmd.Attack("ada", "foe"), GM).refusal is None
    assert [e for e in battle.log if e.kind == "reacted"] == []
    # The shot revealed the guard to red: the next attack is dodged again.
    assert battle.world.get("ada", Visibility).hidden_from == frozenset()
    assert _dms(battle, "ada", "foe")["dm_dodge"] == -1


def test_000_l162_an_attacker_its_own_ally_hides_from_the_defender_is_not_dodged(made) -> None:
    # P-LOS-3: the guard's ally is transparent to the guard but blocks the civilian's line
    # back (an enemy to it): the guard shoots, unseen, past the ally; no dodge.
    battle = cepheus_battle(
        made,
        [
            UnitSpec("ada", "blue", (2, 5, 0), template="station_guard", weapon="pistol"),
            UnitSpec("bo", "blue", (3, 5, 0), template="human"),
            UnitSpec("foe", "red", (9, 5, 0), template="human"),
        ],
        (6, 6, 1, 2, 1, 1),
    )
    ada, foe = battle.sheet("ada"), battle.sheet("foe")
    assert battle.ruleset.sight(battle.bf, ada, foe).clear
    assert not battle.ruleset.sight(battle.bf, foe, ada).clear
    # Firing into melee does not apply (nobody stands beside the civilian).
    assert "dm_dodge" not in _dms(battle, "ada", "foe")
