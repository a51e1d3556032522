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


def test_the_computer_plans_the_trip() -> None:
    assert counters.COMPUTER_PLAN == ("trip",)
    assert counters.check_plan(counters.COMPUTER_PLAN) is None


def test_a_bad_counters_file_names_the_file_and_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "counters.toml"
    bad.write_text("[knocked_down]\nattack = -20\ndefence = 'a lot'\n", encoding="utf-8")
    with pytest.raises(MystDataError, match=r"counters.toml \[knocked_down\].defence"):
        counters.load(bad)
    bad.write_text("[knocked_down]\nattack = -20\n", encoding="utf-8")
    with pytest.raises(MystDataError, match="defence: missing"):
        counters.load(bad)
