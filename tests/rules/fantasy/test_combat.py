"""The fantasy system's attacks, wounds and initiative (seed 003, F-1..F-3), worked by hand.

Every case quotes the seed line (003:l.N = shared/seeds/003_536ed628651c8f80.txt) or the ruling;
the expected numbers are worked out in the comments, not by the code under test.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from types import MappingProxyType

import pytest

from game.rules.fantasy import combat
from game.rules.fantasy.combat import FantasyInputError, Situation
from game.rules.fantasy.data import FantasyRules, Sheet, Weapon, load


@pytest.fixture(scope="module")
def rules() -> FantasyRules:
    return load()


def _sheet(rules: FantasyRules, **changes: object) -> Sheet:
    return replace(rules.defaults, **changes)  # type: ignore[arg-type]


SWORD = Weapon("Spada", "melee", "uso spade", "1d8")
DAGGER = Weapon("Pugnale", "melee", "uso pugnali", "1d4")
BOW = Weapon("Arco", "ranged", "uso archi", "1d6")


def test_two_weapons_lower_pot_one_die_the_seeds_example(rules: FantasyRules) -> None:
    # 003:l.148: "un PG con POT 1d6, Uso Spade 1d6, Uso Pugnali 1d8 ... attaccherà con la spada
    # con 1d4+1d6, e con il pugnale con 1d4+1d8".
    pc = _sheet(rules, pot="d6", skills=MappingProxyType({"uso spade": "d6", "uso pugnali": "d8"}))
    target = _sheet(rules)
    two = Situation(two_weapons=True)
    assert combat.plan(rules, pc, target, SWORD, two).attack_dice == ("d4", "d6")
    assert combat.plan(rules, pc, target, DAGGER, two).attack_dice == ("d4", "d8")


def test_two_weapons_refused_with_pot_d4_a_shield_or_a_ranged_weapon(rules: FantasyRules) -> None:
    # 003:l.148: "ridotta a zero o a 1d4, non può attaccare con due armi"; "se non porta lo
    # scudo"; 003:l.152 "solo nel corpo a corpo".
    assert "d4" in str(combat.cannot_two_weapons(rules, _sheet(rules, pot="d4"), SWORD))
    assert "shield" in str(combat.cannot_two_weapons(rules, _sheet(rules, shield=2), SWORD))
    assert "melee" in str(combat.cannot_two_weapons(rules, _sheet(rules), BOW))
    assert combat.cannot_two_weapons(rules, _sheet(rules, pot="d6"), SWORD) is None


def test_ambidextrous_keeps_the_full_pot(rules: FantasyRules) -> None:
    # 003:l.148: "Queste penalità non vengono conteggiate se il personaggio possiede l'abilità
    # ambidestro".
    pc = _sheet(rules, pot="d8", skills=MappingProxyType({"ambidestro": "d4"}))
    plan = combat.plan(rules, pc, _sheet(rules), DAGGER, Situation(two_weapons=True))
    assert plan.attack_dice == ("d8",)  # no "uso pugnali" skill: the characteristic alone


def test_dp_is_vpb_8_plus_the_shield(rules: FantasyRules) -> None:
    # 003:l.76-77: DP = VPB + protections' VP; "Un essere umano ha normalmente un VPB di 8":
    # with a shield of VP 2, 10.
    assert combat.plan(rules, _sheet(rules), _sheet(rules, shield=2), SWORD, Situation()).dp == 10


def test_melee_pot_plus_skill_ranged_pre_plus_skill_no_skill_the_characteristic(
    rules: FantasyRules,
) -> None:
    # 003:l.75 POT + skill; 003:l.82 PRE + skill; 003:l.79 no suitable skill: the
    # characteristic alone.
    pc = _sheet(rules, pot="d8", pre="d10", skills=MappingProxyType({"uso archi": "d6"}))
    t = _sheet(rules)
    assert combat.plan(rules, pc, t, BOW, Situation()).attack_dice == ("d10", "d6")
    assert combat.plan(rules, pc, t, SWORD, Situation()).attack_dice == ("d8",)


def test_defending_several_attackers_agi_one_die_lower_each_min_d4(rules: FantasyRules) -> None:
    # 003:l.161: "solo la caratteristica AGI, con la caratteristica diminuita di un dado (minimo
    # 1d4) per ogni attaccante oltre al primo": AGI d8 -> d8, d6, d4, d4.
    t = _sheet(rules, agi="d8")
    got = [combat.defence_dice(rules, t, melee=True, index=i) for i in (1, 2, 3, 4)]
    assert got == [("d8",), ("d6",), ("d4",), ("d4",)]


def test_one_defence_skill_per_attack_then_agi_stepped(rules: FantasyRules) -> None:
    # 003:l.160-162: a different defence skill for each attack; attacks beyond them: AGI one die
    # lower per attacker beyond the first. Two skills; the third attacker meets AGI d10 - 2 = d6.
    t = _sheet(
        rules,
        agi="d10",
        des="d8",
        skills=MappingProxyType({"schivare": "d8", "parare con l'arma": "d6"}),
        defences=(("schivare", "agi"), ("parare con l'arma", "des")),
    )
    assert combat.defence_dice(rules, t, melee=True, index=1) == ("d10", "d8")
    assert combat.defence_dice(rules, t, melee=True, index=2) == ("d8", "d6")
    assert combat.defence_dice(rules, t, melee=True, index=3) == ("d6",)


def test_a_ranged_attack_is_not_parried_with_the_weapon(rules: FantasyRules) -> None:
    # 003:l.164: "utilizzando o l'abilità schivare o l'abilità parare con lo scudo (non si può
    # parare con l'arma un attacco a distanza)": only a weapon parry -> AGI alone.
    t = _sheet(
        rules,
        agi="d8",
        skills=MappingProxyType({"parare con l'arma": "d10"}),
        defences=(("parare con l'arma", "des"),),
    )
    assert combat.defence_dice(rules, t, melee=False, index=1) == ("d8",)


def test_only_one_ranged_attack_a_turn_is_defended(rules: FantasyRules) -> None:
    # 003:l.164-165: "Gli altri attacchi a distanza verranno eseguiti come se il bersaglio non
    # fosse cosciente": a check, no defence dice.
    plan = combat.plan(rules, _sheet(rules), _sheet(rules), BOW, Situation(ranged_defended=True))
    assert plan.defence_dice is None and not plan.contest


def test_a_fleeing_target_gets_no_defence(rules: FantasyRules) -> None:
    # 003:l.67: "L'avversario guadagna un attacco alle spalle verso il fuggitivo, senza che
    # questi possa in alcun modo difendersi".
    assert not combat.plan(
        rules, _sheet(rules), _sheet(rules), SWORD, Situation(fleeing=True)
    ).contest


def test_unaware_check_chance_two_d6_against_dp_8(rules: FantasyRules) -> None:
    # 003:l.110-111: a check against the DP. PRE d6 + skill d6, DP 8: P(> 8) = 41/108 (the sum
    # worked by hand in test_dice); critical at >= 16 is tested below by dice.
    pc = _sheet(rules, pre="d6", skills=MappingProxyType({"uso archi": "d6"}))
    plan = combat.plan(rules, pc, _sheet(rules), BOW, Situation(unaware=True))
    odds = combat.chances(rules, plan, melee=False)
    assert odds.hit == Fraction(41, 108) and odds.outcomes["miss"] == Fraction(67, 108)


@pytest.mark.parametrize(
    ("a", "d", "expected"),
    [
        (5, 3, "nothing"),
        (9, 3, "hit"),
        (5, 9, "miss"),
        (10, 9, "hit"),
        (9, 10, "miss"),
        (9, 9, "nothing"),
    ],
)
def test_the_five_outcomes_of_a_contest_against_dp_8(a: int, d: int, expected: str) -> None:
    # 003:l.91-103: both fail -> nothing; only the attacker -> hit; only the defender -> miss;
    # both -> the better margin (same DP: the higher total); equal margins -> nothing.
    assert combat.outcome(a, d, 8) == expected


def test_a_check_hits_only_above_the_dp() -> None:
    # 003:l.117-119: the attacker passes the check (exceeds the DP, F-2) or misses.
    assert combat.outcome(9, None, 8) == "hit" and combat.outcome(8, None, 8) == "miss"


def test_critical_at_twice_the_dp_and_the_location_digits_swapped(rules: FantasyRules) -> None:
    # 003:l.192: "un risultato pari o superiore al doppio della difficoltà" (dice "ed eventuali
    # modificatori"): DP 8, d8 faces 8 then 7 = 15, +1 = 16 is a critical; 8, 6 + 1 = 15 not.
    # 003:l.193: "ottenuto ... '25' ... consulterà ... '52'"; 25 hits the torso on F-3's assumed
    # table (11-50).
    pc = _sheet(rules, pot="d8")
    plan = combat.plan(rules, pc, _sheet(rules), Weapon("x"), Situation(unaware=True, modifier=1))
    done = combat.resolve(rules, plan, [[8, 7]], None, 25, melee=True)
    assert done.attack_total == 16 and done.critical
    assert done.critical_roll == 52 and done.location == "torso"
    assert not combat.resolve(rules, plan, [[8, 6]], None, 25, melee=True).critical
    assert (combat.swap_digits(7), combat.swap_digits(10), combat.swap_digits(100)) == (70, 1, 100)


def test_critical_failure_minimum_dice_and_a_tenth_of_the_opponent(rules: FantasyRules) -> None:
    # 003:l.201: the minimum of the dice (d4 + d4 = 2) and "pari o inferiore a 1/10 ... del
    # risultato dell'avversario (per attacchi in mischia)": against 20, 2 <= 2: fumble; 19 not.
    pc = _sheet(rules, pot="d4", skills=MappingProxyType({"uso spade": "d4"}))
    foe = _sheet(rules, agi="d12")
    plan = combat.plan(rules, pc, foe, SWORD, Situation())
    assert combat.resolve(rules, plan, [[1], [1]], [[12, 8]], None, melee=True).critical_failure
    assert not combat.resolve(rules, plan, [[1], [1]], [[12, 7]], None, melee=True).critical_failure


def test_critical_failure_chance_of_a_lone_d4_against_dp_10(rules: FantasyRules) -> None:
    # 003:l.201 for a ranged check: a 1 on the single d4 (1/4) is the minimum, and 1 <= 10/10.
    pc = _sheet(rules, pre="d4")
    plan = combat.plan(rules, pc, _sheet(rules, shield=2), BOW, Situation(unaware=True))
    assert plan.dp == 10 and plan.attack_dice == ("d4",)
    assert combat.chances(rules, plan, melee=False).critical_failure == Fraction(1, 4)


def test_exploding_faces_must_reroll_every_maximum(rules: FantasyRules) -> None:
    # F-1: "Dice explode on their maximum (always re-rolled)": d6 faces [6, 3] total 9; a final
    # 6 was not re-rolled, and a 3 cannot be followed by anything.
    assert combat.roll_total([[6, 3]], ["d6"], "a") == 9
    with pytest.raises(FantasyInputError, match="rolled again"):
        combat.roll_total([[6]], ["d6"], "a")
    with pytest.raises(FantasyInputError, match="rolled again"):
        combat.roll_total([[3, 2]], ["d6"], "a")


def test_armour_absorbs_is_destroyed_at_equal_damage_and_passes_the_excess(
    rules: FantasyRules,
) -> None:
    # 003:l.179: armour loses the points; "Se i punti danno subiti sono pari a quelli della
    # protezione, la protezione è distrutta"; above it, "i punti di differenza" go to the body.
    # Torso armour 4: damage 3 -> 1 left; 4 -> destroyed, 0 through; 6 -> destroyed, 2 through.
    pc = _sheet(rules, armour=MappingProxyType({"torso": 4}))
    assert combat.take_damage(rules, pc, 3, "torso").armour_left == 1
    w4 = combat.take_damage(rules, pc, 4, "torso")
    assert w4.armour_destroyed and w4.body_damage == 0
    w6 = combat.take_damage(rules, pc, 6, "torso")
    assert (w6.armour_destroyed, w6.body_damage, w6.body_lost) == (True, 2, 2)


def test_body_sections_fill_from_lieve_and_all_lost_is_death(rules: FantasyRules) -> None:
    # 003:l.175 "partendo dalla sezione più alta (ferita lieve)"; 003:l.183 a full section's
    # penalty (assumed -1 for Lieve, -2 Serio); 003:l.184 all points lost: dead. Boxes 2/2/2/1/1
    # = 8 (assumed, tuned: docs/rules.md): 3 lost fill Lieve (2) only; 4 fill Lieve and Serio;
    # 7 is not yet death, 8 is.
    pc = _sheet(rules)
    three = combat.take_damage(rules, pc, 3, "legs")
    assert three.full_sections == ("lieve",) and three.penalty == -1
    assert combat.take_damage(rules, pc, 4, "legs").full_sections == ("lieve", "serio")
    assert not combat.take_damage(rules, pc, 7, "legs").dead
    assert combat.take_damage(rules, pc, 8, "legs").dead


def test_initiative_agi_then_des_then_together() -> None:
    # 003:l.12-13 / F-1: AGI d8 before d6; equal AGI d6: DES d8 first; equal in both: together.
    done = combat.initiative(
        {"a": ("d6", "d6"), "b": ("d8", "d4"), "c": ("d6", "d8"), "d": ("d6", "d6")}
    )
    assert done.order == ("b", "c", "a", "d")
    assert done.simultaneous == (("a", "d"),)


def test_section_penalties_lower_both_sides_totals(rules: FantasyRules) -> None:
    # 003:l.183: a full section's penalty "applicata a tutte le azioni": an attacker with Lieve
    # full (2 lost of boxes 2/2/2/1/1) attacks at -1; a defender with Lieve and Serio full (4)
    # defends at -2.
    plan = combat.plan(
        rules, _sheet(rules, body_lost=2), _sheet(rules, body_lost=4), SWORD, Situation()
    )
    assert (plan.attack_modifier, plan.defence_modifier) == (-1, -2)


def test_the_assumed_location_table_head_torso_arms_legs(rules: FantasyRules) -> None:
    # F-3: "hit location by d100 on a table of head, torso, arms, legs" (assumed ranges).
    assert [rules.location(r) for r in (1, 10, 11, 50, 51, 70, 71, 100)] == [
        "head",
        "head",
        "torso",
        "torso",
        "arms",
        "arms",
        "legs",
        "legs",
    ]


def test_a_wounded_sheet_keeps_what_armour_is_left_and_the_body_lost(rules: FantasyRules) -> None:
    # 003:l.179: torso armour 4 hit for 3 keeps 1; hit for 6 it is gone and 2 reach the body.
    pc = _sheet(rules, armour=MappingProxyType({"torso": 4, "head": 2}))
    kept = combat.wounded(pc, "torso", combat.take_damage(rules, pc, 3, "torso"))
    assert dict(kept.armour) == {"torso": 1, "head": 2} and kept.body_lost == 0
    gone = combat.wounded(pc, "torso", combat.take_damage(rules, pc, 6, "torso"))
    assert dict(gone.armour) == {"head": 2} and gone.body_lost == 2
    assert combat.movement_allowance(gone) == 6  # F-3
