"""The dice-step fantasy system's battle object (F-1..F-3): its answers to the battle's questions,
numbers worked out by hand from seed 003 and the rulings."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from game.rules.dice import Advantage, Roller
from game.rules.fantasy.data import Sheet
from game.rules.initiative import Combatant
from game.scenario.parse import parse_scenario
from game.tactics.battlefield import Battlefield
from game.tactics.ruleset import BattleRules, battle_rules, ruleset_for
from game.tactics.rulesets.fantasy_battle import BATTLE, DEAD, ENGAGED, roll_exploding
from game.text.i18n import speaking

BOW = {"name": "Arco", "kind": "ranged", "damage": "1d6"}
FIST = {"name": "Pugno", "kind": "melee", "damage": "1d3"}


def _field(entities: list[dict[str, object]]) -> Battlefield:
    scenario = {"ruleset": "fantasy", "map": {"size": [10, 4, 1]}, "entities": entities}
    return parse_scenario(scenario, Path.cwd())[0]


def _fighter(id_: str, faction: str, x: int, y: int = 0, **sheet: object) -> dict[str, object]:
    return {"id": id_, "faction": faction, "at": [x, y, 0], "sheet": sheet}


def _surprised_shot() -> Battlefield:
    # The archer's PRE d4 and no bow skill: the characteristic alone (003:l.84). The target is
    # in melee with the archer's friend (adjacent to it), so it is taken by surprise (003:l.109):
    # a check against DP 8 (VPB 8, no shield, 003:l.76), not a contest.
    return _field(
        [
            _fighter("archer", "x", 0, pre="d4", weapon=BOW),
            _fighter("friend", "x", 6),
            _fighter("mark", "y", 5, armour={"torso": 2}),
        ]
    )


def test_f2_the_fantasy_object_is_playable_and_implements_battle_rules() -> None:
    rules: BattleRules = battle_rules("fantasy")
    assert rules is BATTLE and ruleset_for("fantasy").battle is BATTLE
    # "throw" and "help" only to be greyed on the action bar: not offered (issue 15);
    # "reload" for CAD
    assert BATTLE.turn_budget().commands == frozenset(
        {"move", "attack", "throw", "help", "end_turn", "reload", "improvise"}  # issue 15
    )
    # 003:l.67: fleeing (leaving an enemy's reach) gives the enemy a free attack.
    assert BATTLE.reactions == frozenset({"opportunity_attack"})


def test_f1_an_exploding_d4_beats_dp_8_only_after_two_fours_one_in_sixteen() -> None:
    # F-1: a die explodes on its maximum. d4! > 8 needs 4, 4 then anything (9..): no other
    # way past 8 (4 + 3 = 7), so (1/4)^2 = 1/16.
    bf = _surprised_shot()
    attack = BATTLE.attack(bf, bf.entity("archer"), bf.entity("mark"))
    assert attack.chance == Fraction(1, 16)
    assert attack.detail.plan.defence_dice is None and attack.cover == "high_exposure"


def test_f1_f3_a_surprised_hit_rolls_exploding_dice_then_the_location() -> None:
    # 4, 4, 2 = 10 > DP 8: a hit (003:l.117), not critical (10 < 2 x 8 = 16, 003:l.192);
    # the location d100 30 is the torso (F-3: head 1-10, torso 11-50).
    bf = _surprised_shot()
    attack = BATTLE.attack(bf, bf.entity("archer"), bf.entity("mark"))
    roller = Roller(1)
    roller.supply(4, 4, 2, 30, 5)
    rolled = BATTLE.roll_attack(roller, attack, Advantage.NONE, "attack archer")
    assert rolled.hit and rolled.record.dice == (4, 4, 2) and rolled.record.total == 10
    assert rolled.logged["outcome"] == "hit" and rolled.logged["location"] == "torso"
    assert rolled.logged["critical"] is False
    weapon = bf.rules.weapons["pistol"]  # periferie's, as the battle passes it: not used
    damage = BATTLE.roll_damage(roller, bf, bf.entity("archer"), weapon, attack, rolled)
    assert damage.rolled == 5 and damage.record.dice == (5,)
    # The d100's torso reaches `damage` whatever damage type the battle names.
    harm = BATTLE.damage(bf, bf.entity("mark"), "piercing", damage.rolled)
    assert harm.damage == 3 and "torso" not in harm.after.armour


def test_f3_armour_takes_the_points_first_and_is_destroyed_by_as_many() -> None:
    # 003:l.179: 5 points at a torso with armour 2: the armour is destroyed (5 >= 2) and
    # 3 points blacken body boxes.
    bf = _surprised_shot()
    harm = BATTLE.damage(bf, bf.entity("mark"), "torso", 5)
    assert isinstance(harm.after, Sheet)
    assert harm.damage == 3 and harm.after.body_lost == 3 and "torso" not in harm.after.armour
    assert harm.effects == ("armour_destroyed",)


def test_f3_losing_every_body_point_is_death_and_costs_every_turn() -> None:
    # Default body 2 + 2 + 2 + 1 + 1 = 8 boxes (rules.toml, assumed): 8 on the legs kills.
    bf = _surprised_shot()
    harm = BATTLE.damage(bf, bf.entity("mark"), "legs", 8)
    assert harm.effects == (DEAD,) and harm.after.dead
    effects = BATTLE.condition_effects(harm.after)
    assert effects.turn_lost == DEAD and effects.attack_barred == DEAD and effects.no_movement
    assert BATTLE.condition_effects(BATTLE.damage(bf, bf.entity("mark"), "legs", 1).after) == (
        type(effects)()
    )


def test_f3_expected_harm_weighs_the_locations_armour() -> None:
    # 1d6 averages 7/2 where there is no armour; through the torso's 2: (0+0+1+2+3+4)/6 = 5/3.
    # Head 10%, torso 40%, arms 20%, legs 30%: 6/10 x 7/2 + 4/10 x 5/3 = 21/10 + 2/3 = 83/30;
    # times the chance 1/16: 83/480.
    bf = _surprised_shot()
    archer, mark = bf.entity("archer"), bf.entity("mark")
    attack = BATTLE.attack(bf, archer, mark)
    assert BATTLE.expected_harm(bf, archer, mark, attack) == Fraction(83, 480)


def test_f2_both_under_the_dp_is_nothing_and_only_the_defence_over_it_a_miss() -> None:
    # 003:l.91, 97: d4 attack (POT, no skill) against the target's AGI d4 (no defence skill),
    # DP 8. 3 against 2: neither passes 8, nothing happens. 3 against 4, 4, 1 = 9: only the
    # defence passes, the attack fails.
    bf = _field([_fighter("a", "x", 0, pot="d4", weapon=FIST), _fighter("b", "y", 1, agi="d4")])
    attack = BATTLE.attack(bf, bf.entity("a"), bf.entity("b"))
    assert attack.detail.plan.defence_dice == ("d4",)
    roller = Roller(1)
    roller.supply(3, 2)
    rolled = BATTLE.roll_attack(roller, attack, Advantage.NONE, "attack a")
    assert not rolled.hit and rolled.logged["outcome"] == "nothing"
    roller.supply(3, 4, 4, 1)
    rolled = BATTLE.roll_attack(roller, attack, Advantage.NONE, "attack a")
    assert not rolled.hit and rolled.logged["outcome"] == "miss"
    assert rolled.logged["defence_total"] == 9


def test_f1_a_die_is_rolled_again_on_its_maximum_for_as_long_as_it_shows_it() -> None:
    roller = Roller(1)
    roller.supply(6, 6, 1)
    assert roll_exploding(roller, "d6", "test") == [6, 6, 1]


def test_f2_an_engaged_fighter_cannot_shoot_and_melee_needs_contact() -> None:
    bf = _field(
        [
            _fighter("archer", "x", 0, weapon=BOW),
            _fighter("thug", "y", 1),
            _fighter("far", "y", 5),
        ]
    )
    archer = bf.entity("archer")
    assert BATTLE.attack(bf, archer, bf.entity("far")).reason == ENGAGED
    assert BATTLE.attack(bf, bf.entity("thug"), bf.entity("far")).reason == "out_of_reach"


def test_f2_enemies_block_the_line_of_sight_and_allies_do_not() -> None:
    bf = _field(
        [
            _fighter("a", "x", 0),
            _fighter("mate", "x", 2),
            _fighter("foe", "y", 4),
            _fighter("b", "y", 6),
        ]
    )
    a = bf.entity("a")
    assert BATTLE.sight(bf, a, bf.entity("foe")).clear
    assert not BATTLE.sight(bf, a, bf.entity("b")).clear


def test_f1_initiative_is_agi_die_then_des_die_with_no_roll() -> None:
    # F-1: AGI die size first (d8 before d6), DES breaks ties (d10 before d6).
    bf = _field(
        [
            _fighter("slow", "x", 0, agi="d6", des="d12"),
            _fighter("quick", "x", 1, agi="d8", des="d6"),
            _fighter("quickest", "y", 2, agi="d8", des="d10"),
        ]
    )
    combatants = [Combatant(e.id, e.faction, BATTLE.initiative_bonus(e)) for e in bf.entities]
    roller = Roller(1)
    order = BATTLE.start_initiative(roller, combatants)
    assert [e.entity_id for e in order.visible_order(True)] == ["quickest", "quick", "slow"]
    assert roller.log == []
    given = BATTLE.initiative_order(bf, {"slow": 1, "quick": 1, "quickest": 1})
    assert [e.entity_id for e in given] == ["quickest", "quick", "slow"]


def test_f3_six_cells_of_movement_a_turn() -> None:
    bf = _field([_fighter("a", "x", 0)])
    request, allowance = BATTLE.move_request(bf, bf.entity("a"), None, dash=False, stealth=False)
    assert request.budgets["walk"] == 6 and allowance.rules == ("F-3",)


def test_the_new_codes_are_worded_for_players() -> None:
    from game.rules.ruleset_answers import Modifier
    from game.text.explain import attack_lines, modifier_line

    bf = _field([_fighter("archer", "x", 0, weapon=BOW), _fighter("thug", "y", 1)])
    attack = BATTLE.attack(bf, bf.entity("archer"), bf.entity("thug"))
    assert attack_lines(attack) == ["archer is engaged in melee: no ranged attack"]
    assert modifier_line(Modifier("fantasy_dp", 8, ("F-2",))) == "protection difficulty 8 (F-2)"


def test_003_l140_the_reloading_answer_names_the_samples_crossbow_in_english_in_any_language() -> (
    None
):
    # Issue 16: the answer's `why` is English (the machine contract's explanation), so the
    # arciere's balestra (sheets.toml, CAD 2) is the "Crossbow" there (names.weapon_name), also
    # while the interface speaks Italian; 1 turn left after firing (CAD 2 - 1).
    bf = _field(
        [
            {"id": "a", "faction": "x", "at": [0, 0, 0], "sheet": "arciere"},
            _fighter("b", "y", 6),
        ]
    )
    a, target = bf.entity("a"), bf.entity("b")
    fired = replace(a, sheet=BATTLE.after_attack(a.sheet, BATTLE.attack(bf, a, target)))
    for language in ("en", "it"):
        with speaking(language):
            answer = BATTLE.attack(bf, fired, target)
        assert answer.reason == "reloading"
        assert answer.why == ("Crossbow needs 1 more turn(s) of reloading (003:l.140)",)
