"""Tests of final damage after armour and resistance (P-DMG-1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.rules.damage import damage_after_armour, damage_breakdown, resistance_check_for
from game.rules.data import DAMAGE_TYPES, RulesInputError, parse_armour
from game.text import explain


def test_p_dmg_1_worked_example_12_rolled_20_percent_armour_resistance_1_gives_8() -> None:
    # floor(12 × 80 / 100) − 1 = floor(9.6) − 1 = 9 − 1 = 8
    assert damage_after_armour(12, 20, 1) == 8


def test_p_dmg_1_rounds_down_not_to_nearest() -> None:
    # floor(9 × 95 / 100) = floor(8.55) = 8 (rounding would give 9); − 0 = 8
    assert damage_after_armour(9, 5, 0) == 8
    # floor(7 × 75 / 100) = floor(5.25) = 5; 5 − 2 = 3
    assert damage_after_armour(7, 25, 2) == 3


def test_p_dmg_1_no_armour_no_resistance_keeps_the_roll() -> None:
    assert damage_after_armour(11, 0, 0) == 11


def test_p_dmg_1_is_never_below_zero() -> None:
    # floor(2 × 50 / 100) − 5 = 1 − 5 = −4 → 0
    assert damage_after_armour(2, 50, 5) == 0
    # full armour: floor(10 × 0 / 100) − 0 = 0
    assert damage_after_armour(10, 100, 0) == 0


def test_p_dmg_1_negative_resistance_adds_damage() -> None:
    # floor(6 × 50 / 100) − (−1) = 3 + 1 = 4
    assert damage_after_armour(6, 50, -1) == 4


def test_p_dmg_1_resistance_check_is_radiation_only_for_radiation() -> None:
    assert resistance_check_for("radiazione") == "ossatura (radiazione)"
    for damage_type in DAMAGE_TYPES:
        if damage_type != "radiazione":
            assert resistance_check_for(damage_type) == "ossatura (sopravvivenza)"


def test_p_dmg_1_unknown_damage_type_is_a_clear_error() -> None:
    with pytest.raises(RulesInputError, match="unknown damage type 'fuoco'"):
        resistance_check_for("fuoco")


@pytest.mark.parametrize(("rolled", "armour"), [(-1, 0), (5, 101), (5, -5)])
def test_p_dmg_1_out_of_range_inputs_are_errors(rolled: int, armour: int) -> None:
    with pytest.raises(RulesInputError):
        damage_after_armour(rolled, armour, 0)


def test_p_dmg_1_breakdown_uses_the_armour_for_the_type_and_the_survival_bonus() -> None:
    armour = parse_armour("vest", {"damage": {"perforante": 20, "radiazione": 50}}, "test")
    sheet = {"ossatura (sopravvivenza)": 1, "ossatura (radiazione)": 3}
    piercing = damage_breakdown(12, "perforante", armour, sheet)
    # floor(12 × 80 / 100) = 9; 9 − 1 (sopravvivenza) = 8
    assert (piercing.armour_pct, piercing.after_armour, piercing.resistance) == (20, 9, 1)
    assert piercing.damage == 8
    assert piercing.resistance_check == "ossatura (sopravvivenza)"
    text = "\n".join(explain.damage_lines(piercing))
    assert "floor(12 × 80 / 100) = 9" in text
    assert "9 − 1 = 8" in text
    assert "D = 8" in text


def test_p_dmg_1_breakdown_uses_the_radiation_bonus_for_radiation() -> None:
    armour = parse_armour("vest", {"damage": {"radiazione": 50}}, "test")
    sheet = {"ossatura (sopravvivenza)": 1, "ossatura (radiazione)": 3}
    radiation = damage_breakdown(9, "radiazione", armour, sheet)
    # floor(9 × 50 / 100) = 4; 4 − 3 (radiazione) = 1
    assert (radiation.after_armour, radiation.resistance, radiation.damage) == (4, 3, 1)


def test_p_dmg_1_breakdown_without_armour_or_sheet_entries() -> None:
    bare = damage_breakdown(7, "taglio", None, {})
    assert (bare.armour_pct, bare.resistance, bare.damage) == (0, 0, 7)


@given(
    rolled=st.integers(0, 200),
    armour=st.integers(0, 100),
    resistance=st.integers(-5, 20),
)
def test_p_dmg_1_property_damage_is_between_zero_and_roll_minus_resistance(
    rolled: int, armour: int, resistance: int
) -> None:
    damage = damage_after_armour(rolled, armour, resistance)
    assert 0 <= damage <= max(0, rolled - resistance)


@given(
    rolled=st.integers(0, 200),
    armour=st.integers(0, 99),
    resistance=st.integers(-5, 20),
)
def test_p_dmg_1_property_more_armour_or_resistance_never_adds_damage(
    rolled: int, armour: int, resistance: int
) -> None:
    damage = damage_after_armour(rolled, armour, resistance)
    assert damage_after_armour(rolled, armour + 1, resistance) <= damage
    assert damage_after_armour(rolled, armour, resistance + 1) <= damage
