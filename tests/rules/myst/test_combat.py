"""Myst's exchange, margins and friendly fire (seed 002, M-1, M-2), numbers worked by hand.

Every case quotes the seed line (002:l.N = shared/seeds/002_41e7330db40f429a.txt) or the ruling
it rests on; the expected numbers are computed in the comments, never by the code under test.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from game.rules.myst import combat
from game.rules.myst.combat import MystInputError, Situation, Spend
from game.rules.myst.data import MystRules, Sheet, load


@pytest.fixture(scope="module")
def rules() -> MystRules:
    return load()


def _sheet(rules: MystRules, **changes: object) -> Sheet:
    return replace(rules.defaults, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("strength", "bonus"),
    [
        (1, -4),
        (2, -3),
        (8, -2),
        (14, -1),
        (15, 0),
        (25, 0),
        (26, 1),
        (35, 1),
        (37, 1),
        (38, 2),
        (46, 3),
        (49, 3),
        (50, 4),
    ],
)
def test_m1_strength_table_bonus_by_score(rules: MystRules, strength: int, bonus: int) -> None:
    # 002:l.30-40: "1 | -4", "2-4 | -3", "5-8 | -2", "9-14 | -1", "15-25 | 0", "26-37 | +1",
    # "38-45 | +2", "46-49 | +3", "50 | +4".
    assert rules.strength_bonus(strength) == bonus


def test_m1_worked_example_attack_62_defence_46_margin_16(rules: MystRules) -> None:
    # 002:l.46: "un tiro ... pari a 62; Desmond difende con un tiro ... pari a 46. La differenza
    # tra il TA e il TD è pari a 16". Attack total 50 + dice 4+4+4 = 62; defence 40 + 2+2+2 = 46.
    done = combat.resolve(rules, 50, 40, [4, 4, 4], [2, 2, 2], Situation())
    assert (done.attack_total, done.defence_total) == (62, 46)
    assert (done.winner, done.margin) == ("attack", 16)


def test_m1_worked_example_strength_35_limits_the_three_units_to_plus_one(rules: MystRules) -> None:
    # 002:l.46: "Josh potrebbe applicare fino a +3 danni aggiuntivi di Forza, ma avendo un
    # punteggio pari a 35 dovrà limitarsi ad applicare soltanto un bonus di +1": 16 // 5 = 3
    # units, cap +1 (26-37).
    mace = load().weapons["mazza"]
    with pytest.raises(MystInputError, match="Strength cap 1"):
        combat.spend_margin(rules, 16, 3, Spend(strength=3), 35, mace)
    done = combat.spend_margin(rules, 16, 3, Spend(strength=1), 35, mace)
    assert (done.units, done.strength_cap, done.strength_bonus) == (3, 1, 1)


def test_m1_worked_example_minimum_2_makes_a_rolled_1_deal_3(rules: MystRules) -> None:
    # 002:l.58: "utilizzare 10 degli 11 punti che gli restano per impostare a 2 il punteggio
    # minimo ... anche totalizzando un "1" ... infliggerebbe comunque un totale di 3 danni: 2 del
    # danno minimo +1 del bonus di Forza". Units: 1 Strength + 2 minimum = 3 of 3.
    mace = rules.weapons["mazza"]
    done = combat.spend_margin(rules, 16, 1, Spend(strength=1, minimum=2), 35, mace)
    assert (done.minimum, done.die, done.damage) == (2, 2, 3)


def test_m1_points_spent_once_over_spending_is_refused(rules: MystRules) -> None:
    # 002:l.42, 60: "I punti già utilizzati ... non potranno essere utilizzati a tale scopo":
    # margin 16 = 3 units; 1 + 2 + 1 = 4 units is one too many.
    with pytest.raises(MystInputError, match="buys 3"):
        combat.spend_margin(
            rules, 16, 1, Spend(strength=1, minimum=2, reduce=1), 35, rules.weapons["mazza"]
        )


def test_m1_reduction_lowers_the_rolled_die_after_the_roll(rules: MystRules) -> None:
    # 002:l.66, 70: "ridurre di 1 il risultato del dado ... per ogni 5 punti", "impiegare
    # eventualmente i 15 punti per ridurre": sword 1d8 rolled 7, 3 units of reduction -> 4;
    # Strength 20 has bonus 0 -> damage 4.
    done = combat.spend_margin(rules, 15, 7, Spend(reduce=3), 20, rules.weapons["spada"])
    assert (done.die, done.damage) == (4, 4)


def test_m1_minimum_never_above_the_dice_maximum(rules: MystRules) -> None:
    # 002:l.62: "nel caso di una spada (1d8 da taglio ...) non potrà essere superiore ... di 8":
    # margin 45 buys 9 units, but a minimum of 9 on a 1d8 is refused; 8 is allowed (die 8).
    sword = rules.weapons["spada"]
    with pytest.raises(MystInputError, match="maximum 8"):
        combat.spend_margin(rules, 45, 2, Spend(minimum=9), 20, sword)
    assert combat.spend_margin(rules, 45, 2, Spend(minimum=8), 20, sword).die == 8


def test_m1_a_low_strength_malus_applies_whatever_the_margin(rules: MystRules) -> None:
    # 002:l.48: "Eventuali malus dovuti ad un punteggio di Forza basso andranno sottratti in ogni
    # caso": Strength 10 is -1 (9-14); rolled 3, no margin -> 3 - 1 = 2.
    done = combat.spend_margin(rules, 0, 3, Spend(), 10, rules.weapons["mazza"])
    assert (done.strength_bonus, done.damage) == (-1, 2)


def test_two_handed_grip_raises_the_cap_by_one_devon(rules: MystRules) -> None:
    # 002:l.238: "Devon ha un punteggio di 35 in Forza ... impugnando l'arma a 2 mani, il bonus
    # massimo ... diventerà quindi pari a +2": margin 10 = 2 units on Strength; sword rolled 4
    # -> 4 + 2 = 6.
    done = combat.spend_margin(
        rules, 10, 4, Spend(strength=2), 35, rules.weapons["spada"], two_handed=True
    )
    assert (done.strength_cap, done.damage) == (2, 6)


def test_two_handed_grip_refused_for_daggers(rules: MystRules) -> None:
    # 002:l.235: "armi come pugnali, coltelli e daghe non lo consentono".
    with pytest.raises(MystInputError, match="two hands"):
        combat.check_two_handed(rules.weapons["pugnale"])


def test_charge_and_gallop_raise_the_cap(rules: MystRules) -> None:
    # 002:l.193 charge "guadagna un +2 al suo bonus di Forza"; 002:l.142 gallop "+3"; M-1 "charge
    # and gallop raise the cap". Strength 20 (0) charging: cap 0 + 2 = 2; Strength 35 (+1) at
    # the gallop: 1 + 3 = 4.
    assert combat.strength_cap(rules, 20, two_handed=False, charge=True, gallop=False)[0] == 2
    assert combat.strength_cap(rules, 35, two_handed=False, charge=False, gallop=True)[0] == 4


def test_defence_margin_buys_counter_moves_at_20_each(rules: MystRules) -> None:
    # 002:l.76-79: counterattack, cancel the -20, break off, priority: "20 punti di scarto" each.
    # 19 buys nothing; 20 one; 45 two (45 // 20).
    assert combat.defence_options(rules, 19, closed=False) == ((), 0)
    options, units = combat.defence_options(rules, 20, closed=False)
    assert options == ("counterattack", "cancel_penalty", "break_off", "priority") and units == 1
    assert combat.defence_options(rules, 45, closed=False)[1] == 2


def test_closed_defence_only_breaks_off_for_zero(rules: MystRules) -> None:
    # 002:l.81-83: "Nel caso in cui il Personaggio abbia scelto di Chiudersi in Difesa ...
    # Rompere la mischia: 0 punti di Scarto" — even a margin of 3 or 40 buys only that.
    assert combat.defence_options(rules, 3, closed=True) == (("break_off",), 0)
    assert combat.defence_options(rules, 40, closed=True) == (("break_off",), 0)


def test_closed_defence_against_a_shot_buys_nothing(rules: MystRules) -> None:
    # 002:l.78, 83 "Rompere la mischia": a ranged attacker is in no melee to break off from,
    # and l.81 leaves a closed defence nothing else.
    assert combat.defence_options(rules, 40, closed=True, melee=False) == ((), 0)


def test_closed_defence_raises_the_defence_by_the_assumed_base_10(rules: MystRules) -> None:
    # rules.toml [base] closed_defence_bonus = 10 (assumed, M-2's base): defence 45 + 10 = 55
    # against attack 50, named in the exchange's modifiers as the defender's (negative).
    sheet = rules.defaults
    attacker, target = replace(sheet, attack=50), replace(sheet, defence=45)
    done = combat.exchange(rules, attacker, target, Situation(closed_defence=True))
    assert (done.attack, done.defence) == (50, 55)
    assert [(m.code, m.value, m.rules) for m in done.modifiers] == [
        ("closed_defence", -10, ("M-1", "M-2"))
    ]


def test_a_charge_parried_adds_10_to_the_defence_margin(rules: MystRules) -> None:
    # 002:l.193: "soltanto nel caso in cui riesca a parare o a schivare la carica con successo,
    # potrà aggiungere 10 punti allo Scarto di Difesa": attack 40+3+3+3 = 49, defence 40+7+7+7
    # = 61, margin 12 + 10 = 22 -> one counter-move.
    done = combat.resolve(rules, 40, 40, [3, 3, 3], [7, 7, 7], Situation(charge=True))
    assert (done.winner, done.margin, done.defence_units) == ("defence", 22, 1)


def test_push_margin_1_to_19_is_a_penalty_20_knocks_down(rules: MystRules) -> None:
    # 002:l.101: "se lo Scarto è compreso tra 1 e 19 l'avversario subirà una penalità di pari
    # entità ... Con uno Scarto di 20 o più l'avversario sarà invece spinto al suolo".
    assert combat.push_outcome(rules, 7) == (7, False)
    assert combat.push_outcome(rules, 19) == (19, False)
    assert combat.push_outcome(rules, 20) == (0, True)
    # A push counter won by 40+9+9+9 = 67 over 40+1+1+1 = 43: margin 24 -> knocked down.
    done = combat.resolve(rules, 40, 40, [9, 9, 9], [1, 1, 1], Situation(counter="push"))
    assert done.knocked_down and done.margin == 24


def test_opposed_chance_equal_totals_hand_counted(rules: MystRules) -> None:
    # M-1: chance = P(A + 3d10 > D + 3d10). With A = D, P(win) = (1 - P(tie)) / 2. Ties: the
    # 6-tuples with a1+a2+a3 = b1+b2+b3, i.e. six d10 summing to 33: with y = face - 1 in 0..9
    # summing to 27, inclusion-exclusion gives C(32,5) - 6 C(22,5) + 15 C(12,5) = 201376 -
    # 158004 + 11880 = 55252 of 10^6. (1 - 55252/10^6) / 2 = 472374/10^6 = 236187/500000.
    assert combat.opposed_chance(40, 40) == Fraction(236187, 500000)


def test_opposed_chance_at_the_ends_of_the_dice(rules: MystRules) -> None:
    # 3d10 - 3d10 runs from -27 to 27. Ahead by 27: only 1,1,1 against 10,10,10 fails to win,
    # 1 in 10^6; ahead by 28: always; behind by 26: only 10,10,10 against 1,1,1 wins.
    assert combat.opposed_chance(67, 40) == Fraction(999999, 1000000)
    assert combat.opposed_chance(68, 40) == 1
    assert combat.opposed_chance(40, 66) == Fraction(1, 1000000)


def test_mounted_plus_10_to_attack_and_defence(rules: MystRules) -> None:
    # 002:l.128: "il Personaggio a cavallo ha sempre diritto a un bonus di +10 ... a tutte le
    # Azioni di Attacco e a tutte le Manovre di Difesa": 40 -> 50 and 40 -> 50.
    rider = _sheet(rules, mounted=True)
    done = combat.exchange(rules, rider, rider, Situation())
    assert (done.attack, done.defence) == (50, 50)


def test_off_side_shield_halved_rounding_down_not_against_two_handed(rules: MystRules) -> None:
    # 002:l.216: "il bonus dello scudo ... risultano dimezzati (arrotondando per difetto
    # eventuali bonus dispari)": shield 15 -> 7, so defence 50 loses 8 -> 42. 002:l.218: "Non si
    # applica nel caso di una qualsiasi arma a due mani": against the two-handed axe, 50.
    target = _sheet(rules, defence=50, shield=15)
    sword = _sheet(rules, weapon=rules.weapons["spada"])
    axe = _sheet(rules, weapon=rules.weapons["ascia_bipenne"])
    assert combat.exchange(rules, sword, target, Situation(shield_off_side=True)).defence == 42
    assert combat.exchange(rules, axe, target, Situation(shield_off_side=True)).defence == 50


def test_aimed_shots_cost_10_or_20(rules: MystRules) -> None:
    # 002:l.248: "un colpo mirato a una parte generica (-10) o a un arto specifico (-20)".
    me = _sheet(rules)
    assert combat.exchange(rules, me, me, Situation(aimed="part")).attack == 30
    assert combat.exchange(rules, me, me, Situation(aimed="limb")).attack == 20


def test_partial_obstruction_strays_at_33_per_entity_nearest_first(rules: MystRules) -> None:
    # 002:l.256 / M-1: "il colpo avrà il 33% di colpire ciascuno dei personaggi in traiettoria
    # (un tiro a testa, partendo da quello più vicino) ... Il primo ad essere colpito preserverà
    # ... tutti gli altri". A sure miss (chance 0): first 33/100, second 67/100 x 33/100 =
    # 2211/10000, nobody (67/100)^2 = 4489/10000.
    found = combat.strays(rules, "partial", Fraction(0), 2)
    assert found.each == (Fraction(33, 100), Fraction(2211, 10000))
    assert found.none == Fraction(4489, 10000)


def test_partial_obstruction_costs_10_by_default_or_the_gms_20(rules: MystRules) -> None:
    # 002:l.256: "il colpo può essere effettuato con una penalità di -10 o -20".
    me = _sheet(rules)
    assert combat.exchange(rules, me, me, Situation(), in_line=1).attack == 30
    assert combat.exchange(rules, me, me, Situation(penalty=20), in_line=1).attack == 20
    assert combat.exchange(rules, me, me, Situation(obstruction="slight"), in_line=1).attack == 40


def test_slight_obstruction_strays_only_on_a_double_one(rules: MystRules) -> None:
    # 002:l.257: "salvo in caso di un risultato di doppio uno": exactly two ones of three d10,
    # 3 x 1/10 x 1/10 x 9/10 = 27/1000; one entity in line: 27/1000 x 33/100 = 891/100000.
    found = combat.strays(rules, "slight", Fraction(1, 2), 1)
    assert found.each == (Fraction(891, 100000),)
    assert combat.double_one([1, 1, 5]) and not combat.double_one([1, 1, 1])
    assert not combat.double_one([1, 2, 3])


def test_stray_rolls_one_d100_a_head_until_one_hits(rules: MystRules) -> None:
    # 002:l.256: a roll of 33 or less hits that one and spares the rest.
    assert combat.stray_victim(rules, [50, 20, 1], 3) == 1
    assert combat.stray_victim(rules, [33], 1) == 0
    assert combat.stray_victim(rules, [34, 99], 2) is None


def test_a_stray_hit_does_the_rolled_damage_without_minimum_or_strength(rules: MystRules) -> None:
    # 002:l.259: "I danni di un colpo destinato a un bersaglio diverso sono identici ...
    # escludendo eventuali danni minimi o bonus di Forza": Strength 50 (+4) is ignored, 5 stays 5.
    bow = rules.weapons["arco"]
    assert combat.spend_margin(rules, 0, 5, Spend(), 50, bow, stray=True).damage == 5
    with pytest.raises(MystInputError, match="stray"):
        combat.spend_margin(rules, 10, 5, Spend(minimum=2), 50, bow, stray=True)


def test_m2_damage_lowers_status_globale_zero_is_out() -> None:
    # M-2: "damage lowers Status Globale, 0 is out of the fight": 30 - 3 = 27; 5 - 9 -> 0, out.
    assert combat.apply_damage(30, 3) == (27, False)
    assert combat.apply_damage(5, 9) == (0, True)


def test_m2_priority_is_sheet_priority_plus_d10_ties_by_sheet_then_together() -> None:
    # M-2: "Priority = sheet priority + 1d10, highest first": kim 12+3 = 15, lou 10+5 = 15, max
    # 10+5 = 15, ada 8+9 = 17. Ada first; kim before lou (higher sheet priority); lou and max
    # equal in both act together.
    done = combat.priority_order(
        {"kim": 12, "lou": 10, "max": 10, "ada": 8}, {"kim": 3, "lou": 5, "max": 5, "ada": 9}, 10
    )
    assert done.order == ("ada", "kim", "lou", "max")
    assert done.scores == {"kim": 15, "lou": 15, "max": 15, "ada": 17}
    assert done.simultaneous == (("lou", "max"),)


def test_charge_needs_5_metres_of_run_up(rules: MystRules) -> None:
    # 002:l.189: "una rincorsa di almeno 5 metri": 3 cells = 4.5 m is short, 4 = 6 m enough.
    assert not combat.charge_run_up_ok(rules, 3, 1.5)
    assert combat.charge_run_up_ok(rules, 4, 1.5)


def test_m2_a_damaged_sheet_and_its_movement(rules: MystRules) -> None:
    # M-2: damage lowers Status Globale; the move is the sheet's speed (4 assumed), none at 0.
    sheet = combat.damaged(_sheet(rules, status=5), 3)
    assert sheet.status == 2 and combat.movement_allowance(sheet) == 4
    assert combat.movement_allowance(combat.damaged(sheet, 9)) == 0


# --- the margin waiting for its attacker's choice (M-1, 002:l.18-70) ---------------------------


def _waiting(rules: MystRules, **changes: object) -> combat.MarginToSpend:
    """Josh's hit (002:l.44): margin 16, a mazza 1d6 showing 1, Strength 35."""
    values: dict[str, object] = {
        "margin": 16,
        "rolled": 1,
        "strength": 35,
        "weapon": rules.weapons["mazza"],
    }
    values.update(changes)
    return combat.MarginToSpend(**values)  # type: ignore[arg-type]


def test_m1_the_computers_choice_for_josh_is_the_seeds_one_strength_and_minimum_two(
    rules: MystRules,
) -> None:
    # 002:l.58: "utilizzato 5 dei 16 punti [...] +1 [...] può però utilizzare 10 degli 11 punti
    # che gli restano per impostare a 2 il punteggio minimo".
    waiting = _waiting(rules)
    assert combat.units_of(rules, 16) == 3
    assert combat.most_damage(rules, waiting) == Spend(strength=1, minimum=2)
    assert combat.spent(rules, waiting, Spend(strength=1, minimum=2)).damage == 3


def test_m1_devons_two_handed_grip_spends_16_as_two_strength_and_one_minimum(
    rules: MystRules,
) -> None:
    # 002:l.236: Strength 35 "bonus massimo di +1 [...] impugnando l'arma a 2 mani [...] +2":
    # the three units go 2 on Strength (cap 2) and 1 on the minimum. The die showing 1: the
    # minimum 1 leaves it 1, +2 = 3; showing 5: 5 + 2 = 7.
    waiting = _waiting(rules, two_handed=True)
    assert combat.cap_of(rules, waiting) == 2
    best = combat.most_damage(rules, waiting)
    assert best == Spend(strength=2, minimum=1)
    assert combat.spent(rules, waiting, best).damage == 3
    assert combat.spent(rules, replace(waiting, rolled=5), best).damage == 7


@pytest.mark.parametrize(
    ("spend", "code", "values"),
    [
        (Spend(strength=2), "over_strength_cap", {"strength": 2, "cap": 1}),
        (Spend(strength=1, minimum=2, reduce=1), "margin_overspent", {"used": 4, "units": 3}),
        (Spend(reduce=-1), "negative_spend", {"reduce": -1}),
        (Spend(strength=1, minimum=2), None, None),
    ],
)
def test_m1_a_spend_is_checked_against_the_units_and_the_strength_cap(
    rules: MystRules, spend: Spend, code: str | None, values: dict[str, int] | None
) -> None:
    refused = combat.check_spend(rules, _waiting(rules), spend)
    if code is None:
        assert refused is None
    else:
        assert refused is not None and (refused.code, dict(refused.values)) == (code, values)


def test_m1_a_minimum_above_the_dice_maximum_is_refused_by_name(rules: MystRules) -> None:
    # 002:l.62: "Il danno minimo non potrà in nessun caso superare il massimo risultato": a
    # margin of 40 buys 8 units, a mazza 1d6 takes a minimum of 6 at most.
    refused = combat.check_spend(rules, _waiting(rules, margin=40), Spend(minimum=7))
    assert refused is not None and refused.code == "over_die_maximum"
    assert dict(refused.values) == {"minimum": 7, "maximum": 6}


def test_m1_the_plans_give_one_spend_per_damage_most_first(rules: MystRules) -> None:
    # Margin 16 (3 units), Strength 35 (cap 1), a mazza showing 4: Strength 1 + the 4 = 5
    # (the minimum of 2 cannot help a 4); nothing 4; then the 4 reduced by 1, 2, 3: 3, 2, 1.
    plans = combat.plans(rules, _waiting(rules, rolled=4))
    assert [(s.strength, s.minimum, s.reduce, d.damage) for s, d in plans] == [
        (1, 2, 0, 5),
        (0, 0, 0, 4),
        (0, 0, 1, 3),
        (0, 0, 2, 2),
        (0, 0, 3, 1),
    ]
    # The least damage: as many units on reduction as the die shows, never below 0.
    assert combat.least_damage(rules, _waiting(rules, rolled=2)) == Spend(reduce=2)
