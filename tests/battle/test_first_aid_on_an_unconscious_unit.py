"""A player's first aid on an ally already out of the fight (issue 15), the rounds going on after
it: under Cepheus the points come back (000:l.398) but the patient stays unconscious, since "Un
personaggio incosciente può effettuare una Prova di Resistenza dopo ogni minuto di incoscienza -
se ha successo, riacquista coscienza" (000:l.380) and a round lasts six seconds (l.70): its
sheet, the battle's out-of-combat mark and its skipped turns agree. Periferie's stabilised
patient stays out of combat as before (P-HEAL-1, P-VUL-3).

Numbers worked by hand from the seeds; dice are entered as the GM would."""

from __future__ import annotations

from dataclasses import replace

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.setup import UnitSpec
from game.ecs.components import RulesetSheet, Wounds
from game.rules.cepheus.sheet import Sheet
from game.tactics.rulesets.cepheus_battle import BATTLE, state_of
from tests.battle.conftest import MakeBattle


def _turn_of(battle: Battle, unit: str) -> None:
    for _ in range(6):
        if battle.active == unit:
            return
        assert battle.active is not None
        assert battle.apply(cmd.EndTurn(battle.active), GM).refusal is None
    raise AssertionError(f"{unit} never acts")


def _sheet(battle: Battle, unit: str) -> Sheet:
    sheet = battle.world.get(unit, RulesetSheet).sheet
    assert isinstance(sheet, Sheet)
    return sheet


def test_000_l380_l398_first_aid_on_an_unconscious_cepheus_ally_gives_points_back_but_it_stays_out(
    make_battle: MakeBattle,
) -> None:
    ada = UnitSpec("ada", "blue", (5, 2, 0), template="scavenger", weapon="pistol")
    bob = UnitSpec("bob", "blue", (5, 6, 0), weapon="pistol")
    foe = UnitSpec("foe", "red", (5, 8, 0), weapon="shotgun")
    plain = make_battle([ada, bob, foe])
    battle = Battle(replace(plain.setup, ruleset="cepheus"), plain.grid, plain.rules)
    try:
        _turn_of(battle, "foe")
        # 2 cells = 3 m, Ravvicinata: the shotgun at Media (0); bob dodges (-1, 000:l.158):
        # 6 + 6 - 1 = 11, Effect 3. The shotgun's 4d6 = 6 + 3 + 1 + 1 = 11, + 3 = 14 on bob's
        # END 7, STR 7, DEX 7, no armour: END 7 -> 0, the rest (7) to the higher of STR and DEX
        # (STR on a tie, C-5) -> 0. "2 caratteristiche a zero: privo di sensi" (000:l.367).
        battle.roller.supply(6, 6, 6, 3, 1, 1)
        assert battle.apply(cmd.Attack("foe", target="bob"), GM).refusal is None
        assert dict(_sheet(battle, "bob").chars) == {"end": 0, "str": 0, "dex": 7}
        assert state_of(_sheet(battle, "bob")) == "unconscious"
        assert "out_of_combat" in battle.world.get("bob", Wounds).health.conditions

        _turn_of(battle, "ada")
        assert battle.apply(cmd.Move("ada", (5, 5, 0)), GM).refusal is None
        # First aid (000:l.398): 2d6 + Medico 0 = 12 >= 8, Effect 4: 8 points back, one at a
        # time to the lowest (END first on a tie): END 4, STR 4.
        battle.roller.supply(6, 6)
        assert battle.apply(cmd.UseObject("ada", "bob", "light"), GM).refusal is None
        aid = next(e for e in battle.log if e.kind == "medkit")
        assert aid.data["result"] == "first_aid" and aid.data["restored"] == 8
        after = _sheet(battle, "bob")
        assert dict(after.chars) == {"end": 4, "str": 4, "dex": 7}
        # Not woken by the points (l.380): unconscious, out of the fight, no reaction.
        assert after.unconscious and state_of(after) == "unconscious"
        effects = BATTLE.condition_effects(after)
        assert effects.out_of_combat and effects.turn_lost == "unconscious"
        assert "out_of_combat" in battle.world.get("bob", Wounds).health.conditions

        # Three more rounds: bob's turn is skipped in each, and it stays in the order.
        aided = len(battle.log)
        for _ in range(6):
            assert battle.active != "bob"
            assert battle.apply(cmd.EndTurn(battle.active), GM).refusal is None
        later = battle.log[aided:]
        skipped = [e for e in later if e.kind == "turn_skipped" and e.data["unit"] == "bob"]
        assert len(skipped) == 3 and {e.data["because"] for e in skipped} == {"unconscious"}
        assert battle.initiative.entry("bob") is not None
        assert "out_of_combat" in battle.world.get("bob", Wounds).health.conditions
        assert state_of(_sheet(battle, "bob")) == "unconscious"
        # A second hit still kills it when it takes the last characteristic (l.367): the
        # kept unconsciousness ends only in death.
        _turn_of(battle, "foe")
        battle.roller.supply(6, 6, 6, 6, 6, 6)  # Effect 3 + 24 = 27 >= 4 + 4 + 7
        assert battle.apply(cmd.Attack("foe", target="bob"), GM).refusal is None
        assert state_of(_sheet(battle, "bob")) == "dead"
        assert "dead" in battle.world.get("bob", Wounds).health.conditions
    finally:
        battle.close()


def test_p_heal_1_a_periferie_ally_stabilised_by_first_aid_stays_out_of_combat_and_loses_its_turns(
    make_battle: MakeBattle,
) -> None:
    # As tests/battle/test_roll_targets.py: two hits (2d6 = 7, then 6 + 2 for the grave wound
    # carried, P-VUL-1/2) leave bo with a mortal wound; cy's medicine check of 12 fails DC 15
    # but passes "la soglia DC10": bo is stabilised and out of combat (P-HEAL-1).
    ada = UnitSpec("ada", "red", (1, 3, 0), weapon="pistol")
    bo = UnitSpec("bo", "blue", (9, 3, 0))
    cy = UnitSpec("cy", "blue", (9, 4, 0))
    b: Battle = make_battle([ada, bo, cy], initiative=(15, 5, 4))
    b.apply(cmd.EnterRoll((10, 3, 4)), GM)
    b.apply(cmd.Attack("ada", "bo"), "red")
    b.apply(cmd.EndTurn("ada"), "red")
    b.apply(cmd.EndTurn("bo"), "blue")
    b.apply(cmd.EndTurn("cy"), "blue")
    b.apply(cmd.EnterRoll((10, 3, 3)), GM)
    b.apply(cmd.Attack("ada", "bo"), "red")
    b.apply(cmd.EnterRoll((15,)), GM)  # bo's death save at its turn's start
    b.apply(cmd.EndTurn("ada"), "red")
    b.apply(cmd.EndTurn("bo"), "blue")
    b.apply(cmd.EnterRoll((12,)), GM)
    assert b.apply(cmd.UseObject("cy", "bo", "mortal"), "blue").refusal is None
    assert {"stabilised", "out_of_combat"} <= b.health("bo").conditions
    # Two more rounds: ada, then bo's turn skipped (out of combat, P-VUL-3), then cy.
    for _ in range(2):
        assert b.apply(cmd.EndTurn("cy"), "blue").refusal is None
        assert b.apply(cmd.EndTurn("ada"), "red").refusal is None
        assert b.active == "cy"
    skipped = [e for e in b.log if e.kind == "turn_skipped" and e.data["unit"] == "bo"]
    assert len(skipped) == 2 and {e.data["because"] for e in skipped} == {"out_of_combat"}
    assert "out_of_combat" in b.health("bo").conditions
