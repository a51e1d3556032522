"""d20 initiative (D-2): d20 + Dex modifier, ties by the Dex modifier, then a roll-off."""

from __future__ import annotations

from game.rules.d20.initiative import initiative_order


def test_the_highest_score_goes_first_d2() -> None:
    # kim 9 + 2 = 11, lou 12 - 1 = 11, max 15 + 0 = 15: max, then the tie of 11 by Dex: kim.
    result = initiative_order([("kim", 9, 2), ("lou", 12, -1), ("max", 15, 0)])
    assert [e.id for e in result.order] == ["max", "kim", "lou"]
    assert [e.score for e in result.order] == [15, 11, 11]
    assert result.ties == () and result.unsettled == ()


def test_a_tie_on_score_and_dex_goes_to_the_roll_off_d2() -> None:
    # ann 10 + 1 = 11 and bea 10 + 1 = 11: the roll-off 4 against 17 puts bea first.
    result = initiative_order([("ann", 10, 1), ("bea", 10, 1)], {"ann": 4, "bea": 17})
    assert [e.id for e in result.order] == ["bea", "ann"]
    assert result.ties == (("bea", "ann"),) and result.unsettled == ()


def test_a_tie_without_a_roll_off_keeps_the_listing_order_and_says_so() -> None:
    result = initiative_order([("ann", 10, 1), ("bea", 10, 1)])
    assert [e.id for e in result.order] == ["ann", "bea"]
    assert result.unsettled == (("ann", "bea"),)
