"""Thrown objects: range bands and hit chances (P-THR-1), deviation of a miss (P-THR-2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.rules.throw import (
    THROW_SIZES,
    cell_throw_chance,
    deviation_distance,
    deviation_offset,
    entity_throw_hit_chance,
    landing_cell,
    miss_deviation,
    plan_throw_at_cell,
    plan_throw_at_entity,
    throw_band,
)

ORIGIN = (0, 0, 0)


@pytest.mark.parametrize(
    ("size", "distance", "band"),
    [
        ("light", 0, "medium"),
        ("light", 4, "medium"),
        ("light", 5, "long"),
        ("light", 9, "long"),
        ("light", 10, "out_of_range"),
        ("medium", 3, "medium"),
        ("medium", 4, "long"),
        ("medium", 8, "long"),
        ("medium", 9, "out_of_range"),
        ("heavy", 2, "medium"),
        ("heavy", 3, "long"),
        ("heavy", 7, "long"),
        ("heavy", 8, "out_of_range"),
    ],
)
def test_p_thr_1_band_edges(size: str, distance: int, band: str) -> None:
    assert throw_band(size, distance) == band


def test_p_thr_1_impact_damage_dice_by_size() -> None:
    assert [THROW_SIZES[s].damage for s in ("light", "medium", "heavy")] == [
        "1d8",
        "1d10",
        "1d12",
    ]


def test_p_thr_1_unknown_size_and_negative_distance_are_rejected() -> None:
    with pytest.raises(ValueError, match="'huge'"):
        throw_band("huge", 1)
    with pytest.raises(ValueError, match="throw_band: distance"):
        throw_band("light", -1)


def test_p_thr_1_throw_at_a_cell_within_medium_range_hits_automatically() -> None:
    plan = plan_throw_at_cell("light", 4)
    assert plan.band == "medium"
    assert plan.automatic
    assert plan.p_weapon is None


def test_p_thr_1_throw_at_a_cell_at_long_range_rolls_against_60() -> None:
    plan = plan_throw_at_cell("light", 5)
    assert (plan.band, plan.automatic, plan.p_weapon) == ("long", False, 60)


def test_p_thr_1_throw_at_a_cell_out_of_range_has_no_chance() -> None:
    plan = plan_throw_at_cell("heavy", 8)
    assert (plan.band, plan.automatic, plan.p_weapon) == ("out_of_range", False, None)


@pytest.mark.parametrize(
    ("b_att", "p"),
    [
        (0, 60),  # 60 × 100/100 = 60
        (3, 69),  # 60 × 115/100 = 69
        (-2, 54),  # 60 × 90/100 = 54
        (1, 63),  # 60 × 105/100 = 63
        (30, 99),  # 60 × 250/100 = 150 → 99
        (-30, 1),  # 60 × (−50)/100 = −30 → 1
    ],
)
def test_p_thr_1_cell_throw_chance_uses_the_attack_bonus_only(b_att: int, p: int) -> None:
    assert cell_throw_chance(b_att) == p


def test_p_thr_1_throw_at_an_entity_always_rolls_60_medium_50_long() -> None:
    medium = plan_throw_at_entity("light", 4)
    long = plan_throw_at_entity("light", 9)
    assert (medium.automatic, medium.p_weapon) == (False, 60)
    assert (long.automatic, long.p_weapon) == (False, 50)
    assert plan_throw_at_entity("light", 10).p_weapon is None


def test_p_thr_1_throw_at_an_entity_uses_the_full_formula_with_impact_armour() -> None:
    # light object at 6 cells: long range, P_weapon 50
    # 50 × (100 + (2 − 1)×5 − 10 − 25)/100 = 50 × 70/100 = 35
    chance = entity_throw_hit_chance("light", 6, 2, 1, 10, "light", "gravità muscolare (atletica)")
    assert chance.p == 35
    assert chance.damage_type == "impatto"
    assert chance.rules == ("P-THR-1", "P-HIT-2", "P-COV-1")


def test_p_thr_1_throw_at_an_entity_out_of_range_is_rejected() -> None:
    with pytest.raises(ValueError, match="reaches 7 cells, the target is 8 away"):
        entity_throw_hit_chance("heavy", 8, 0, 0, 0, "none")


@pytest.mark.parametrize(
    ("roll", "p", "cells"),
    [
        (61, 60, 1),  # excess 1 → 1 + 0
        (69, 60, 1),  # excess 9 → 1 + 0
        (70, 60, 2),  # excess 10 → 1 + 1
        (75, 60, 2),  # excess 15 → 1 + 1
        (100, 60, 5),  # excess 40 → 1 + 4
        (100, 99, 1),  # excess 1 → 1 + 0
    ],
)
def test_p_thr_2_deviation_is_1_plus_a_cell_per_10_excess(roll: int, p: int, cells: int) -> None:
    assert deviation_distance(roll, p) == cells


@pytest.mark.parametrize(("roll", "p"), [(60, 60), (10, 60), (101, 60), (50, 0)])
def test_p_thr_2_deviation_only_for_a_miss(roll: int, p: int) -> None:
    with pytest.raises(ValueError, match="deviation_distance"):
        deviation_distance(roll, p)


def test_p_thr_2_missed_throw_within_medium_range_lands_on_the_aim_cell() -> None:
    assert miss_deviation("medium", 95, 0) == 0


def test_p_thr_2_missed_long_throw_at_entity_rereads_the_roll_as_a_cell_throw() -> None:
    # cell chance with B_att 0 = 60: roll 55 ≤ 60 lands on the aim cell
    assert miss_deviation("long", 55, 0) == 0
    # roll 85: excess 25 → 1 + 2 = 3 cells
    assert miss_deviation("long", 85, 0) == 3
    # B_att 3: cell chance 69; roll 70: excess 1 → 1 cell
    assert miss_deviation("long", 70, 3) == 1


def test_p_thr_2_out_of_range_throw_has_no_landing() -> None:
    with pytest.raises(ValueError, match="out_of_range"):
        miss_deviation("out_of_range", 50, 0)


@pytest.mark.parametrize(
    ("roll", "offset"),
    [
        (1, (0, 3, 0)),  # away: further down the screen
        (2, (-3, 0, 0)),  # facing down the screen, the thrower's right is screen-left
        (3, (0, -3, 0)),  # back towards the thrower
        (4, (3, 0, 0)),  # the thrower's left
    ],
)
def test_p_thr_2_d4_directions_for_a_throw_down_the_screen(
    roll: int, offset: tuple[int, int, int]
) -> None:
    assert deviation_offset(ORIGIN, (0, 6, 0), 3, roll, False) == offset


@pytest.mark.parametrize(
    ("roll", "offset"),
    [(1, (2, 0, 0)), (2, (0, 2, 0)), (3, (-2, 0, 0)), (4, (0, -2, 0))],
)
def test_p_thr_2_d4_directions_for_a_throw_to_the_right_turn_clockwise(
    roll: int, offset: tuple[int, int, int]
) -> None:
    # away = +x; clockwise on a y-down screen: +x → +y → −x → −y
    assert deviation_offset(ORIGIN, (5, 0, 0), 2, roll, False) == offset


@pytest.mark.parametrize(
    ("aim", "away"),
    [
        ((3, 3, 0), (1, 1)),  # 45°
        ((2, 1, 0), (1, 1)),  # atan(1/2) = 26.6° > 22.5°: diagonal
        ((3, 1, 0), (1, 0)),  # atan(1/3) = 18.4° < 22.5°: axis
        ((5, 2, 0), (1, 0)),  # atan(2/5) = 21.8°: axis
        ((12, 5, 0), (1, 1)),  # atan(5/12) = 22.6°: diagonal
        ((-1, -3, 0), (0, -1)),  # 18.4° off −y
        ((-4, 3, 2), (-1, 1)),  # 36.9°; height ignored
    ],
)
def test_p_thr_2_away_snaps_to_the_nearest_compass_direction(
    aim: tuple[int, int, int], away: tuple[int, int]
) -> None:
    assert deviation_offset(ORIGIN, aim, 1, 1, False) == (*away, 0)


def test_p_thr_2_diagonal_direction_turns_clockwise_to_the_next_diagonal() -> None:
    # away (1, 1) → right-hand side (−1, 1)
    assert deviation_offset(ORIGIN, (4, 4, 0), 2, 2, False) == (-2, 2, 0)


def test_p_thr_2_throw_straight_up_deviates_as_if_thrown_up_the_screen() -> None:
    assert deviation_offset((2, 2, 0), (2, 2, 3), 1, 1, False) == (0, -1, 0)
    assert deviation_offset((2, 2, 0), (2, 2, 3), 1, 2, False) == (1, 0, 0)


def test_p_thr_2_microgravity_d6_five_is_up_six_is_down() -> None:
    assert deviation_offset(ORIGIN, (5, 0, 0), 2, 5, True) == (0, 0, 2)
    assert deviation_offset(ORIGIN, (5, 0, 0), 2, 6, True) == (0, 0, -2)
    assert deviation_offset(ORIGIN, (5, 0, 0), 2, 2, True) == (0, 2, 0)


def test_p_thr_2_direction_roll_must_fit_the_die() -> None:
    with pytest.raises(ValueError, match="d4"):
        deviation_offset(ORIGIN, (5, 0, 0), 2, 5, False)
    with pytest.raises(ValueError, match="d6"):
        deviation_offset(ORIGIN, (5, 0, 0), 2, 7, True)


def test_p_thr_2_landing_cell_is_aim_plus_offset() -> None:
    # aim (5, 1, 0), away +x, roll 3 = back towards the thrower, 2 cells → (3, 1, 0)
    assert landing_cell(ORIGIN, (5, 1, 0), 2, 3, False) == (3, 1, 0)


_coord = st.integers(-20, 20)
_cell = st.tuples(_coord, _coord, _coord)


@given(_cell, _cell, st.integers(0, 12), st.integers(1, 6))
def test_p_thr_2_offset_is_exactly_the_deviation_distance_away(
    thrower: tuple[int, int, int], aim: tuple[int, int, int], distance: int, roll: int
) -> None:
    dx, dy, dz = deviation_offset(thrower, aim, distance, roll, True)
    assert max(abs(dx), abs(dy), abs(dz)) == distance


@given(_cell, _cell)
def test_p_thr_2_directions_one_and_three_are_opposite(
    thrower: tuple[int, int, int], aim: tuple[int, int, int]
) -> None:
    away = deviation_offset(thrower, aim, 1, 1, False)
    back = deviation_offset(thrower, aim, 1, 3, False)
    assert tuple(-c for c in away) == back
