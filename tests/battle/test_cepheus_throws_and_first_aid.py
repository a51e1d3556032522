"""A Cepheus battle's throw and first aid through the engine (issue 15): the handlers ask the
ruleset (BattleRules.throw, roll_throw, area_victims, use_medkit), so a sample frag grenade
thrown by a Cepheus unit rolls C-1's 2d6 (000:l.134) and goes off where it lands without the
throw's Effect (000:l.353), and a medkit is first aid: 2d6 + Medico, twice the Effect back
(000:l.398). The other rulesets refuse the throw as not offered."""

from __future__ import annotations

from dataclasses import replace

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.setup import UnitSpec
from game.ecs.components import RulesetSheet, Visibility


def _cepheus(make_battle, ruleset: str = "cepheus", weapon: str = "frag_grenade") -> Battle:  # type: ignore[no-untyped-def]
    ada = UnitSpec("ada", "blue", (5, 5, 0), template="scavenger", weapon=weapon)
    foe = UnitSpec("foe", "red", (9, 5, 0), weapon="pistol")
    plain: Battle = make_battle([ada, foe])
    return Battle(replace(plain.setup, ruleset=ruleset), plain.grid, plain.rules)


def _turn_of(battle: Battle, unit: str) -> None:
    for _ in range(4):
        if battle.active == unit:
            return
        assert battle.active is not None
        assert battle.apply(cmd.EndTurn(battle.active), GM).refusal is None
    raise AssertionError(f"{unit} never acts")


def test_000_l134_l353_a_thrown_frag_grenade_rolls_2d6_and_blasts_without_the_effect(
    make_battle,
) -> None:
    battle = _cepheus(make_battle)
    try:
        _turn_of(battle, "ada")
        # 4 cells = 6 m, Breve: Lancio Difficile -2; the sample scavenger's Atletica 1 and
        # DEX DM +1; the foe sees it and dodges (its standing choice "always", -1, 000:l.158):
        # 2d6 - 1 >= 8, 10 of 36. 6 + 6 - 1 = 11: Effect 3, a hit; the grenade's 3d6 = 1+2+3.
        battle.roller.supply(6, 6, 1, 2, 3)
        outcome = battle.apply(cmd.Throw("ada", target="foe"), GM)
        assert outcome.refusal is None
        throw = next(e for e in battle.log if e.kind == "throw")
        assert throw.data["hit"] and throw.data["landed"] == [9, 5, 0]
        assert throw.data["chance"] == "5/18" and throw.data["effect"] == 3
        damage = next(e for e in battle.log if e.kind == "damage")
        assert damage.data["unit"] == "foe" and damage.data["rolled"] == 6  # no Effect added
        # The map's civilian sheet (human): END 7 - 6 = 1, no armour.
        sheet = battle.world.get("foe", RulesetSheet).sheet
        assert sheet.chars["end"] == 1  # type: ignore[attr-defined]
        # Its turn, in round 2 (its dodge's -1 counted in round 1 only, C-4): first aid on
        # itself, Difficile (-2), Medico 0: 6 + 6 - 2 = 10, Effect 2, 4 points back to END
        # (000:l.398).
        _turn_of(battle, "foe")
        battle.roller.supply(6, 6)
        assert battle.apply(cmd.UseObject("foe", "foe", "light"), GM).refusal is None
        aid = next(e for e in battle.log if e.kind == "medkit")
        assert aid.data["result"] == "first_aid" and aid.data["restored"] == 4
        assert battle.world.get("foe", RulesetSheet).sheet.chars["end"] == 5  # type: ignore[attr-defined]
    finally:
        battle.close()


def test_a_cepheus_unit_without_a_thrown_weapon_is_refused_the_throw(make_battle) -> None:
    battle = _cepheus(make_battle)
    try:
        _turn_of(battle, "foe")
        refusal = battle.apply(cmd.Throw("foe", target="ada"), GM).refusal
        assert refusal is not None and refusal.code == "no_thrown_weapon"
    finally:
        battle.close()


def test_a_ruleset_without_throws_refuses_them_as_not_offered(make_battle) -> None:
    for ruleset in ("d20", "myst", "fantasy"):
        battle = _cepheus(make_battle, ruleset, weapon="pistol")  # a weapon every one knows
        try:
            _turn_of(battle, "ada")
            refusal = battle.apply(cmd.Throw("ada", at=(9, 5, 0)), GM).refusal
            assert refusal is not None and refusal.code == "not_offered", ruleset
            at_cell = battle.apply(cmd.Attack("ada", at=(9, 5, 0)), GM).refusal
            # worded with the ruleset ("not offered under <ruleset>"), as the window's aim
            assert at_cell is not None and at_cell.code == "area_not_offered", ruleset
            assert at_cell.values == {"ruleset": ruleset}, ruleset
        finally:
            battle.close()


def test_a_cepheus_unit_crouched_behind_a_low_wall_hides_with_2d6_plus_dex_dm_against_8(
    make_battle,
) -> None:
    # C-3: the half obstacle hiding ada is 1/2 cover ("muro basso"), 3/4 crouched: cover to
    # hide behind. The seed has no stealth rule: a C-1 check, 2d6 + DEX DM (+1) >= 8, assumed.
    picture = "\n".join(["." * 20] * 5 + ["......h" + "." * 13] + ["." * 20] * 6)
    ada = UnitSpec("ada", "blue", (5, 5, 0), template="scavenger", stance="crouched")
    foe = UnitSpec("foe", "red", (9, 5, 0), weapon="pistol")
    plain: Battle = make_battle([ada, foe], picture=picture)
    battle = Battle(replace(plain.setup, ruleset="cepheus"), plain.grid, plain.rules)
    try:
        assert not battle.in_open_sight(battle.sheet("foe"), "ada")
        _turn_of(battle, "ada")
        battle.roller.supply(4, 3)  # 7 + 1 = 8: hidden from the red side
        assert battle.apply(cmd.Hide("ada"), GM).refusal is None
        hide = next(e for e in battle.log if e.kind == "hide")
        assert hide.data["success"] and hide.rolls[0].total == 8
        assert "red" in battle.world.get("ada", Visibility).hidden_from
    finally:
        battle.close()
