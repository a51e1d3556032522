"""Chance to hit: P-HIT-1..4 and the cover percentages of P-COV-1."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.rules.hit import (
    COVER_PERCENT,
    DAMAGE_TYPES,
    armour_efficacy,
    attack_bonus,
    exact_decimal,
    hit_chance,
    resolve_to_hit,
)
from game.text import explain

RANGED = "precisione (armi a distanza)"
ATHLETICS = "gravità muscolare (atletica)"


def test_p_hit_2_worked_example_non_piercing_armour_light_cover_gives_52() -> None:
    # 70 × (100 + (3 − 1)×5 − 10 − 25)/100 = 70 × 75/100 = 52.5 → 52
    chance = hit_chance(70, 3, 1, 10, "light", "impatto", 5)
    assert chance.raw == Fraction(105, 2)
    assert chance.p == 52
    assert chance.armour_pct == 10
    assert chance.rules == ("P-HIT-2", "P-COV-1")


def test_p_hit_3_piercing_armour_10_at_distance_1_counts_7() -> None:
    # efficacy = 1 − (9 − 1) × 0.3/8 = 1 − 0.3 = 0.7; armour = 10 × 0.7 = 7
    # P = 70 × (100 + 10 − 7 − 25)/100 = 70 × 78/100 = 54.6 → 54
    chance = hit_chance(70, 3, 1, 10, "light", "perforante", 1)
    assert chance.armour_efficacy == Fraction(7, 10)
    assert chance.armour_pct == 7
    assert chance.p == 54
    assert chance.rules == ("P-HIT-2", "P-HIT-3", "P-COV-1")


def test_p_hit_3_efficacy_at_distance_8_is_0_9625() -> None:
    # 1 − (9 − 8) × 0.3/8 = 1 − 0.0375 = 0.9625 = 77/80
    assert armour_efficacy(8) == Fraction(77, 80)


@pytest.mark.parametrize("distance", [9, 10, 30, 31, 100])
def test_p_hit_3_efficacy_from_distance_9_on_is_exactly_1(distance: int) -> None:
    assert armour_efficacy(distance) == 1
    assert isinstance(armour_efficacy(distance), Fraction)


def test_p_hit_3_distance_0_counts_as_distance_1() -> None:
    # same as d = 1: 1 − 8 × 0.3/8 = 0.7
    assert armour_efficacy(0) == Fraction(7, 10)


def test_p_hit_3_negative_distance_is_rejected_by_name() -> None:
    with pytest.raises(ValueError, match="armour_efficacy: distance"):
        armour_efficacy(-1)


def test_p_hit_3_efficacy_rises_with_distance() -> None:
    values = [armour_efficacy(d) for d in range(1, 10)]
    assert values == sorted(values)
    assert len(set(values)) == 9


def test_p_hit_3_does_not_apply_to_non_piercing_damage() -> None:
    # impatto at distance 1 keeps the full 10%
    chance = hit_chance(70, 0, 0, 10, "none", "impatto", 1)
    assert chance.armour_efficacy == 1
    assert chance.armour_pct == 10
    assert "P-HIT-3" not in chance.rules


def test_p_hit_3_not_listed_when_the_target_wears_no_armour() -> None:
    chance = hit_chance(70, 0, 0, 0, "none", "perforante", 1)
    assert chance.rules == ("P-HIT-2",)


def test_p_hit_2_breakdown_lines_of_piercing_shot_at_8_cells() -> None:
    # armour 10 × 0.9625 = 9.625; 70 × (100 + 10 − 9.625 − 25)/100 = 70 × 75.375/100 = 52.7625
    chance = hit_chance(70, 3, 1, 10, "light", "perforante", 8, RANGED)
    assert explain.hit_lines(chance) == [
        "weapon 70%",
        "attack bonus +3 (precision (ranged weapons))",
        "defence bonus +1 (multitasking (divided attention))",
        "armour 10% × efficacy 0.9625 (piercing at 8 cells) = 9.625%",
        "cover light 25%",
        "P = 70 × (100 + (3 − 1)×5 − 9.625 − 25)/100 = 52.7625 → 52",
    ]


def test_p_hit_2_breakdown_is_json_safe_and_exact() -> None:
    chance = hit_chance(70, 3, 1, 10, "light", "perforante", 8, RANGED)
    data = json.loads(json.dumps(chance.breakdown()))
    assert data["p"] == 52
    assert data["raw"] == 52.7625
    assert data["armour_efficacy"] == 0.9625
    assert data["armour_pct"] == 9.625
    assert data["b_att_check"] == RANGED
    assert data["b_def_check"] == "multitasking (attenzione suddivisa)"
    assert data["cover_pct"] == 25
    assert data["rules"] == ["P-HIT-2", "P-HIT-3", "P-COV-1"]


def test_p_cov_1_high_exposure_raises_the_chance_and_reads_clearly() -> None:
    # 60 × (100 + 0 − 0 − (−15))/100 = 60 × 115/100 = 69
    chance = hit_chance(60, 0, 0, 0, "high_exposure", "impatto", 3)
    assert chance.p == 69
    assert "cover high exposure -15%" in explain.hit_lines(chance)
    assert explain.hit_lines(chance)[-1] == "P = 60 × (100 + (0 − 0)×5 − 0 − (-15))/100 = 69 → 69"


def test_p_hit_2_clamps_to_1_under_heavy_cover_and_a_strong_defence() -> None:
    # 50 × (100 + (0 − 20)×5 − 0 − 50)/100 = 50 × (−50)/100 = −25 → 1
    chance = hit_chance(50, 0, 20, 0, "heavy", "impatto", 4)
    assert chance.raw == -25
    assert chance.p == 1
    assert explain.hit_lines(chance)[-1].endswith("= -25 → 1 (clamped to 1..99)")


def test_p_hit_2_clamps_to_99_with_a_huge_attack_bonus() -> None:
    # 90 × (100 + 30×5)/100 = 90 × 250/100 = 225 → 99
    assert hit_chance(90, 30, 0, 0, "none", "impatto", 4).p == 99


def test_p_cov_1_percentages_match_the_ruling() -> None:
    assert COVER_PERCENT == {"heavy": 50, "light": 25, "none": 0, "high_exposure": -15}


def test_p_cov_1_unknown_cover_grade_is_rejected_by_name() -> None:
    with pytest.raises(ValueError, match="'medium'"):
        hit_chance(70, 0, 0, 0, "medium", "impatto", 1)


def test_p_hit_2_unknown_damage_type_and_bad_percentages_are_rejected() -> None:
    with pytest.raises(ValueError, match="'laser'"):
        hit_chance(70, 0, 0, 0, "none", "laser", 1)
    with pytest.raises(ValueError, match="weapon hit chance"):
        hit_chance(101, 0, 0, 0, "none", "impatto", 1)
    with pytest.raises(ValueError, match="armour %"):
        hit_chance(70, 0, 0, -5, "none", "impatto", 1)
    with pytest.raises(ValueError, match="hit_chance: distance"):
        hit_chance(70, 0, 0, 0, "none", "impatto", -1)


def test_p_hit_2_firearm_uses_ranged_precision_even_when_athletics_is_better() -> None:
    assert attack_bonus("firearm", {RANGED: 1, ATHLETICS: 4}) == (1, RANGED)


def test_p_hit_2_thrown_weapon_takes_the_better_check() -> None:
    assert attack_bonus("thrown", {RANGED: 1, ATHLETICS: 4}) == (4, ATHLETICS)
    assert attack_bonus("thrown", {RANGED: 3, ATHLETICS: 2}) == (3, RANGED)


def test_p_hit_2_thrown_tie_goes_to_ranged_precision() -> None:
    assert attack_bonus("thrown", {RANGED: 2, ATHLETICS: 2}) == (2, RANGED)


def test_p_hit_4_melee_attack_bonus_follows_thrown_weapons() -> None:
    assert attack_bonus("melee", {RANGED: -1, ATHLETICS: 2}) == (2, ATHLETICS)


def test_p_hit_4_missing_checks_count_as_zero() -> None:
    assert attack_bonus("firearm", {}) == (0, RANGED)


def test_p_hit_4_unknown_weapon_kind_is_rejected_by_name() -> None:
    with pytest.raises(ValueError, match="'laser'"):
        attack_bonus("laser", {})


def test_p_hit_1_natural_1_always_hits_and_100_always_misses() -> None:
    assert resolve_to_hit(1, 1)
    assert not resolve_to_hit(100, 99)


def test_p_hit_1_roll_equal_to_p_hits_and_one_more_misses() -> None:
    assert resolve_to_hit(52, 52)
    assert not resolve_to_hit(53, 52)


@pytest.mark.parametrize(("natural", "p"), [(0, 50), (101, 50), (50, 0), (50, 100)])
def test_p_hit_1_out_of_range_roll_or_chance_is_rejected(natural: int, p: int) -> None:
    with pytest.raises(ValueError, match="resolve_to_hit"):
        resolve_to_hit(natural, p)


def test_exact_decimal_writes_terminating_values_exactly() -> None:
    assert exact_decimal(Fraction(77, 80)) == "0.9625"
    assert exact_decimal(Fraction(-1, 4)) == "-0.25"
    assert exact_decimal(Fraction(7)) == "7"
    assert exact_decimal(Fraction(1, 3)) == "1/3"


_chance_inputs = {
    "p_weapon": st.integers(0, 100),
    "b_att": st.integers(-30, 30),
    "b_def": st.integers(-30, 30),
    "armour": st.integers(0, 100),
    "damage_type": st.sampled_from(DAMAGE_TYPES),
    "distance": st.integers(0, 40),
}


@given(**_chance_inputs, cover=st.sampled_from(sorted(COVER_PERCENT)))
def test_p_hit_2_p_always_between_1_and_99(
    p_weapon: int, b_att: int, b_def: int, armour: int, damage_type: str, distance: int, cover: str
) -> None:
    p = hit_chance(p_weapon, b_att, b_def, armour, cover, damage_type, distance).p
    assert 1 <= p <= 99


@given(**_chance_inputs)
def test_p_cov_1_more_cover_never_raises_p(
    p_weapon: int, b_att: int, b_def: int, armour: int, damage_type: str, distance: int
) -> None:
    ps = [
        hit_chance(p_weapon, b_att, b_def, armour, grade, damage_type, distance).p
        for grade in ("heavy", "light", "none", "high_exposure")
    ]
    assert ps == sorted(ps)


@given(**_chance_inputs)
def test_p_hit_3_piercing_armour_never_counts_more_than_its_base(
    p_weapon: int, b_att: int, b_def: int, armour: int, damage_type: str, distance: int
) -> None:
    chance = hit_chance(p_weapon, b_att, b_def, armour, "none", "perforante", distance)
    assert Fraction(7, 10) * armour <= chance.armour_pct <= armour


@given(
    p_weapon=st.integers(0, 100),
    b_att=st.integers(-100, 100),
    b_def=st.integers(-100, 100),
    armour=st.integers(0, 100),
    distance=st.integers(0, 40),
    cover=st.sampled_from(sorted(COVER_PERCENT)),
)
def test_p_hit_2_breakdown_json_numbers_read_as_the_exact_decimals(
    p_weapon: int, b_att: int, b_def: int, armour: int, distance: int, cover: str
) -> None:
    # Bonuses as wide as the data allows (-100..100): the JSON text is still the exact value.
    chance = hit_chance(p_weapon, b_att, b_def, armour, cover, "perforante", distance)
    text = json.dumps(chance.breakdown())
    for key, exact in (
        ("raw", chance.raw),
        ("armour_efficacy", chance.armour_efficacy),
        ("armour_pct", chance.armour_pct),
    ):
        written = json.loads(text)[key]
        assert isinstance(written, float)
        assert Fraction(repr(written)) == exact
