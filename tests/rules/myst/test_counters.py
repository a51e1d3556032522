"""Myst's counters as pure rules (game/rules/myst/counters.py; seed 002, l.85-116; M-1), numbers
worked by hand from the seed (002:l.N = shared/seeds/002_41e7330db40f429a.txt)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from game.rules.myst import combat, counters
from game.rules.myst.data import MystDataError, MystRules, load


@pytest.fixture(scope="module")
def rules() -> MystRules:
    return load()


def test_m1_push_margins_1_to_19_are_that_penalty_and_20_knocks_down(rules: MystRules) -> None:
    # 002:l.101: "se lo Scarto è compreso tra 1 e 19 l'avversario subirà una penalità di pari
    # entità ... Con uno Scarto di 20 o più l'avversario sarà invece spinto al suolo".
    assert counters.push(rules, 1) == counters.Knock(1, 1, False)
    assert counters.push(rules, 19) == counters.Knock(19, 19, False)
    assert counters.push(rules, 20) == counters.Knock(20, 0, True)
    assert counters.push(rules, 42) == counters.Knock(42, 0, True)
    with pytest.raises(combat.MystInputError):
        counters.push(rules, 0)  # a push that did not win pushes nobody


def test_m1_the_knocked_down_modifiers_are_the_assumed_minus_20_each_side() -> None:
    # 002:l.101 names "i modificatori globali previsti in caso di atterramento" without their
    # numbers (M-2): counters.toml assumes the -20 of 002:l.77 on attack and on defence.
    data = counters.load()
    assert (data.down_attack, data.down_defence) == (-20, -20)
    done = combat.Exchange(45, 32, (), combat.opposed_chance(45, 32), Fraction(0), ("M-1",))
    both = counters.with_modifiers(done, counters.down_modifiers(data, True, True))
    # the attacker on the ground: 45 - 20 = 25; the target on the ground: 32 - 20 = 12
    assert (both.attack, both.defence) == (25, 12)
    assert both.chance == combat.opposed_chance(25, 12)
    assert [m.code for m in both.modifiers] == ["knocked_down", "target_knocked_down"]


def test_m1_a_pushed_fighters_penalty_lowers_its_own_side_of_the_next_exchange() -> None:
    # 002:l.101: the penalty falls on "la sua prossima Azione di Attacco o Manovra di Difesa":
    # an attacker pushed by 7 attacks at 45 - 7 = 38, a target pushed by 15 defends at
    # 32 - 15 = 17.
    done = combat.Exchange(45, 32, (), combat.opposed_chance(45, 32), Fraction(0), ("M-1",))
    after = counters.with_modifiers(done, counters.unbalanced_modifiers(7, 15))
    assert (after.attack, after.defence) == (38, 17)
    assert counters.with_modifiers(done, ()) is done


def test_m1_one_counterattack_in_one_form_then_the_other_moves_in_the_plans_order() -> None:
    # 002:l.76 "Contrattaccare con il Corpo a Corpo ... 20 punti", 002:l.87 "potrà scegliere
    # tra le seguenti possibilità": a margin of 60 buys three moves, one counterattack.
    options, units = ("counterattack", "cancel_penalty", "break_off", "priority"), 3
    plan = ("grab", "counterattack", "trip", "break_off", "priority")
    assert counters.counter_moves(options, units, plan) == ("grab", "break_off", "priority")
    assert counters.counter_kind(("grab", "break_off")) == "grab"
    assert counters.counter_kind(("counterattack",)) == "punch"
    assert counters.counter_kind(("priority",)) is None
    # Against a ranged attack no counterattack is offered (002:l.85 "Corpo a Corpo"): nor
    # its forms.
    assert counters.counter_moves(("cancel_penalty", "priority"), 2, ("trip", "priority")) == (
        "priority",
    )


def test_a_standing_plan_names_the_four_moves_and_the_three_forms_once_each() -> None:
    assert counters.PLAN_MOVES == (
        "counterattack", "cancel_penalty", "break_off", "priority", "push", "trip", "grab",
    )  # fmt: skip
    assert counters.check_plan(("trip", "priority")) is None
    assert counters.check_plan(("trip", "trip")) == "trip"
    assert counters.check_plan(("kick",)) == "kick"


def test_m1_breaking_a_grab_is_each_sides_best_total_and_a_tie_keeps_the_hold() -> None:
    # 002:l.113-114: "Destrezza + Corpo a Corpo + 3d10 oppure Costituzione + Forza + 3d10 (a
    # scelta ...)": with Constitution 35 and Strength 30, Con + For = 65 beats a brawl of 45;
    # without Constitution (M-2's sheet) only the brawl.
    assert counters.grip_total(45, 30, 35) == 65
    assert counters.grip_total(45, 30, 10) == 45
    assert counters.grip_total(30, 18) == 30
    # 30 + 10+10+10 = 60 against 45 + 1+1+1 = 48: broken; 30 + 6+6+6 = 48 against 48: held.
    assert counters.break_grab(30, 45, (10, 10, 10), (1, 1, 1)) == counters.BreakResult(
        60, 48, True
    )
    assert not counters.break_grab(30, 45, (6, 6, 6), (1, 1, 1)).broken
    with pytest.raises(combat.MystInputError):
        counters.break_grab(30, 45, (11, 1, 1), (1, 1, 1))


def test_the_computer_plans_the_trip_when_the_grab_does_not_pay() -> None:
    assert counters.COMPUTER_PLAN == ("trip",)
    assert counters.check_plan(counters.COMPUTER_PLAN) is None
    assert counters.computer_counter([]) == ("trip",)  # nobody to fear


def _threat(counter: int, resists: int, harm: dict[int, int], returned: int) -> counters.Threat:
    """A threat whose attack costs harm[k] at a push penalty of k (the last given holds on)."""
    listed, last = [], Fraction(0)
    for k in range(counters.KNOCK_DOWN):
        last = Fraction(harm.get(k, last))
        listed.append(last)
    return counters.Threat(counter, resists, tuple(listed), Fraction(returned))


def test_m1_a_counter_at_even_totals_wins_236187_in_500000() -> None:
    # M-1: 40 + 3d10 against 40 + 3d10, a tie nobody's. 3d10 makes its sums 3..30 in 1, 3, 6,
    # 10, 15, 21, 28, 36, 45, 55, 63, 69, 73, 75, 75, 73, ... ways of 1000; a tie is
    # sum(ways^2) / 10^6 = 2 * (1 + 9 + 36 + 100 + 225 + 441 + 784 + 1296 + 2025 + 3025 + 3969
    # + 4761 + 5329 + 5625) / 10^6 = 55252 / 10^6; a win is half the rest: 472374 / 10^6.
    chances = counters.margin_chances(40, 40)
    assert sum(chances.values()) == Fraction(472374, 10**6) == Fraction(236187, 500000)
    assert min(chances) == 1 and max(chances) == 27  # 10+10+10 against 1+1+1
    assert chances[27] == Fraction(1, 10**6)


def test_m1_a_sure_knock_down_is_worth_the_enemys_whole_next_attack() -> None:
    # 002:l.101 "Con uno Scarto di 20 o più l'avversario sarà invece spinto al suolo" and
    # stands "al costo di un'Azione": Corpo a Corpo 100 against 0 wins by 100 + (-27..27),
    # always 20 or more: the trip spares the enemy's next attack, 5 points.
    sure = _threat(100, 0, {0: 5, 1: 4}, returned=1)
    assert counters.trip_worth(sure) == 5
    # The grab wins as surely, but binds the holder too (002:l.116): 5 - 1 = 4.
    assert counters.grab_worth(sure) == 4
    assert counters.computer_counter([sure]) == ("trip",)


def test_m1_the_grab_pays_against_an_enemy_whose_attack_is_worth_more_than_ones_own() -> None:
    # Corpo a Corpo 20 against 46: the counter wins only when its 3d10 show 30 and the enemy's
    # 3 (1/1000 each): by exactly 1, a penalty of 1 (002:l.101 "tra 1 e 19").
    rare = _threat(20, 46, {0: 6, 1: 5}, returned=1)
    assert counters.margin_chances(20, 46) == {1: Fraction(1, 10**6)}
    # Trip: the enemy's attack at -1 costs 5 instead of 6: 1/10^6 * (6 - 5).
    assert counters.trip_worth(rare) == Fraction(1, 10**6)
    # Grab (002:l.109, 116): its attack of 6 traded for one's own of 1: 1/10^6 * 5.
    assert counters.grab_worth(rare) == Fraction(5, 10**6)
    assert counters.computer_counter([rare]) == ("grab",)
    # An enemy no stronger than oneself: the grab is worth nothing, the trip it is.
    even = _threat(20, 46, {0: 6, 1: 5}, returned=6)
    assert counters.grab_worth(even) == 0
    assert counters.computer_counter([even]) == ("trip",)
    # Either may strike: summed, 5 + 0 against 1 + 1 (in 10^6): still the grab.
    assert counters.computer_counter([rare, even]) == ("grab",)


def test_m1_a_threat_lists_the_harm_at_every_push_penalty_below_20() -> None:
    with pytest.raises(combat.MystInputError, match=r"0\.\.19"):
        counters.Threat(40, 40, (Fraction(1),) * 19, Fraction(0))


def test_m1_the_computer_keeps_a_grab_while_the_trade_of_l116_pays() -> None:
    # 002:l.116: while it lasts neither acts; the holder may let go "in qualsiasi momento".
    more, less = Fraction(3), Fraction(1)
    assert counters.keep_grab(True, more, less, ally_by=False)  # it binds a stronger arm
    assert not counters.keep_grab(True, less, more, ally_by=False)  # let go, and fight
    assert counters.keep_grab(True, less, more, ally_by=True)  # an ally strikes the held one
    # The grabbed one breaks it (l.109) unless it binds a stronger holder an ally strikes.
    assert not counters.keep_grab(False, more, less, ally_by=False)
    assert not counters.keep_grab(False, less, more, ally_by=True)
    assert counters.keep_grab(False, more, less, ally_by=True)


def test_a_bad_counters_file_names_the_file_and_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "counters.toml"
    bad.write_text("[knocked_down]\nattack = -20\ndefence = 'a lot'\n", encoding="utf-8")
    with pytest.raises(MystDataError, match=r"counters.toml \[knocked_down\].defence"):
        counters.load(bad)
    bad.write_text("[knocked_down]\nattack = -20\n", encoding="utf-8")
    with pytest.raises(MystDataError, match="defence: missing"):
        counters.load(bad)
