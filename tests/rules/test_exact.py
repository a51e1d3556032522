"""Exact dice chances, worked by hand."""

from fractions import Fraction

import pytest

from game.rules.exact import DiceError, chance_at_least, distribution, fraction_text, parse


def test_two_d6_plus_one_reaches_eight_in_21_of_36_rolls() -> None:
    # 2d6 >= 7: 6+5+4+3+2+1 = 21 of 36 (RULESETS.md's own example, C-1's 8+).
    assert chance_at_least("2d6+1", 8) == Fraction(21, 36)


def test_an_exploding_d6_reaches_8_only_after_a_six_then_at_least_two() -> None:
    # F-1: a 6 is rolled again and added; 8+ needs 6 then 2..6: 1/6 * 5/6.
    assert chance_at_least("d6!", 8) == Fraction(5, 36)
    # 12 needs 6 then 6 (6+5 = 11 stops); 13 needs 6, 6, then anything.
    assert chance_at_least("d6!", 12) == Fraction(1, 36)
    assert chance_at_least("d6!", 13) == Fraction(1, 36)


def test_exploding_d4_plus_d4_reaches_five_counted_by_hand() -> None:
    # Plain 2d4 >= 5: 10 of 16. Explosions only add: a 4 on either die then x makes 4+x+other.
    # Non-explosion pairs (faces 1..3 each, 9 pairs) reaching 5: (2,3),(3,2),(3,3) = 3/16.
    # Any pair with a 4 (7 of 16) reaches 4 + (>=1 re-roll) + (>=1) >= 6: all 7/16.
    assert chance_at_least("d4!+d4!", 5) == Fraction(3, 16) + Fraction(7, 16)


def test_three_d10_against_three_d10_is_symmetric_around_a_tie() -> None:
    ties = sum(p * p for p in distribution(parse("3d10")).values())
    assert chance_at_least("3d10-3d10", 1) == (1 - ties) / 2
    assert chance_at_least("3d10-3d10", 0) == (1 + ties) / 2


def test_constants_and_bounds_answer_certainty() -> None:
    assert chance_at_least("d6+2", 3) == 1
    assert chance_at_least("2d6", 13) == 0
    assert fraction_text(Fraction(0)) == "0/1" and fraction_text(Fraction(1)) == "1/1"


@pytest.mark.parametrize("bad", ["", "2x6", "d1", "0d6", "d6!-d6!", "2d6++1", "21d6"])
def test_unreadable_dice_expressions_are_refused_by_name(bad: str) -> None:
    with pytest.raises(DiceError):
        parse(bad) if bad != "d6!-d6!" else chance_at_least(bad, 1)
