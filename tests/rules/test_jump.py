"""Jumps: height without a check, DC, reach and cost (P-JUMP-1), gravity (P-JUMP-2, P-ZERO-1)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.rules.jump import (
    drop_dc,
    drop_lands_prone,
    gravity_of,
    horizontal_reach,
    is_microgravity,
    jump_cost,
    jump_dc,
    jump_height_reached,
    max_jump_height,
    microgravity_jump_speed,
)


def test_p_jump_1_athletics_0_at_0_2_g_jumps_2_without_a_check() -> None:
    # floor((2 + 0) × 0.2/0.2) = floor(2 × 1) = 2
    assert max_jump_height(0, 0.2) == 2
    assert jump_dc(2, 0, 0.2) is None


def test_p_jump_1_athletics_0_at_0_2_g_height_3_needs_dc_12() -> None:
    # floor((3×2 + 6) × 0.2/0.2) = floor(12 × 1) = 12
    assert jump_dc(3, 0, 0.2) == 12


def test_p_jump_1_athletics_2_at_1_g_needs_a_check_for_any_height() -> None:
    # n_max = floor(4 × 0.2) = floor(0.8) = 0; DC(1) = floor(8 × 0.2) = floor(1.6) = 1
    assert max_jump_height(2, 1) == 0
    assert jump_dc(1, 2, 1) == 1


def test_p_jump_1_athletics_1_at_0_1_g_jumps_6() -> None:
    # floor(3 × 0.2/0.1) = floor(3 × 2) = 6
    assert max_jump_height(1, 0.1) == 6
    assert max_jump_height(1, "0.1") == 6
    assert max_jump_height(1, Fraction(1, 10)) == 6


def test_p_jump_1_exact_where_float_division_would_fall_short() -> None:
    # floor(7 × 0.2/0.07) = floor(1.4/0.07) = 20; as floats 7/(5 × 0.07) = 19.999999999999996
    assert max_jump_height(5, 0.07) == 20
    # athletics 0 jumps floor(0.4/0.07) = 5 freely; height 11: floor((11×2 + 6) × 0.2/0.07)
    # = floor(5.6/0.07) = 80, where floats give 28/(5 × 0.07) = 79.99999999999999
    assert jump_dc(11, 0, 0.07) == 80


def test_p_jump_1_very_low_athletics_jumps_0_not_a_negative_height() -> None:
    # floor((2 − 3) × 1) = −1 → 0
    assert max_jump_height(-3, 0.2) == 0


def test_p_jump_1_failed_check_still_jumps_n_max() -> None:
    assert jump_height_reached(3, 0, 0.2, succeeded=False) == 2
    assert jump_height_reached(3, 0, 0.2, succeeded=True) == 3
    assert jump_height_reached(1, 0, 0.2, succeeded=False) == 1


def test_p_jump_1_horizontal_reach_is_height_plus_twice_the_run_up() -> None:
    # floor(2 + 2 × 3) = 8
    assert horizontal_reach(2, 3) == 8
    assert horizontal_reach(0, 0) == 0


def test_p_jump_1_only_vertical_cells_cost_movement() -> None:
    assert jump_cost(3) == 3
    assert jump_cost(0) == 0


def test_p_jump_1_negative_heights_are_rejected_by_name() -> None:
    with pytest.raises(ValueError, match="jump_cost"):
        jump_cost(-1)
    with pytest.raises(ValueError, match="jump_dc"):
        jump_dc(-1, 0, 0.2)
    with pytest.raises(ValueError, match="horizontal_reach"):
        horizontal_reach(1, -1)


def test_p_jump_2_gravity_is_read_exactly() -> None:
    assert gravity_of(0.2) == Fraction(1, 5)
    assert gravity_of("0.05") == Fraction(1, 20)
    assert gravity_of(1) == 1


@pytest.mark.parametrize("bad", [-0.1, "heavy", float("nan"), float("inf"), True])
def test_p_jump_2_bad_gravity_is_rejected(bad: object) -> None:
    with pytest.raises(ValueError, match="gravity"):
        gravity_of(bad)  # type: ignore[arg-type]


def test_p_jump_2_microgravity_starts_below_0_05_g() -> None:
    assert is_microgravity(0)
    assert is_microgravity(0.049)
    assert not is_microgravity(0.05)


def test_p_zero_1_microgravity_jumps_have_no_ceiling_and_no_check() -> None:
    assert max_jump_height(0, 0) is None
    assert max_jump_height(0, 0.04) is None
    assert jump_dc(50, 0, 0) is None
    assert jump_height_reached(50, 0, 0, succeeded=False) == 50


def test_p_jump_2_at_0_05_g_the_formula_still_applies() -> None:
    # floor(2 × 0.2/0.05) = floor(2 × 4) = 8
    assert max_jump_height(0, 0.05) == 8


def test_p_zero_1_microgravity_jump_flies_twice_the_jump_speed() -> None:
    assert microgravity_jump_speed(4) == 8
    assert microgravity_jump_speed(0) == 0


@given(
    st.integers(-5, 20),
    st.integers(5, 300).map(lambda hundredths: Fraction(hundredths, 100)),
)
def test_p_jump_1_dc_is_needed_exactly_above_n_max(athletics: int, g: Fraction) -> None:
    n_max = max_jump_height(athletics, g)
    assert n_max is not None
    assert jump_dc(n_max, athletics, g) is None
    assert jump_dc(n_max + 1, athletics, g) is not None


# P-JUMP-3: "stepping off an edge to a standable cell up to n_max levels below is a jump down ...
# no check. Deeper drops need the same check as a higher jump (DC by the levels dropped); on a
# failure the entity lands prone."


def test_p_jump_3_athletics_0_at_0_2_g_drops_2_freely_and_3_at_dc_12() -> None:
    # n_max = floor((2 + 0) × 0.2/0.2) = 2; DC(3) = floor((3 × 2 + 6) × 1) = 12,
    # DC(4) = floor(14 × 1) = 14.
    assert drop_dc(1, 0, 0.2) is None
    assert drop_dc(2, 0, 0.2) is None
    assert drop_dc(3, 0, 0.2) == 12
    assert drop_dc(4, 0, 0.2) == 14


def test_p_jump_3_athletics_2_at_0_2_g_drops_4_freely_and_5_at_dc_16() -> None:
    # n_max = floor(4 × 1) = 4; DC(5) = floor((10 + 6) × 1) = 16.
    assert drop_dc(4, 2, 0.2) is None
    assert drop_dc(5, 2, 0.2) == 16


def test_p_jump_3_at_0_4_g_athletics_0_drops_1_freely_and_2_at_dc_5() -> None:
    # n_max = floor(2 × 0.2/0.4) = 1; DC(2) = floor((4 + 6) × 0.5) = 5, DC(3) = floor(6) = 6.
    assert drop_dc(1, 0, 0.4) is None
    assert drop_dc(2, 0, 0.4) == 5
    assert drop_dc(3, 0, 0.4) == 6


def test_p_jump_3_only_a_failed_check_lands_prone() -> None:
    assert drop_lands_prone(3, 0, 0.2, succeeded=False) is True
    assert drop_lands_prone(3, 0, 0.2, succeeded=True) is False
    assert drop_lands_prone(2, 0, 0.2, succeeded=False) is False  # no check was needed
    with pytest.raises(ValueError, match="at least 1 level"):
        drop_dc(0, 0, 0.2)
