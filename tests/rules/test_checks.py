"""Tests for game.rules.checks: d20 checks and passive perception (P-CHK-1, P-CHK-3)."""

from __future__ import annotations

from game.rules.checknames import ATHLETICS, PERCEPTION, STEALTH
from game.rules.checks import check, passive_perception
from game.rules.dice import Advantage, Roller


def test_p_chk_1_check_adds_the_sheet_bonus_and_meets_the_dc() -> None:
    roller = Roller(0)
    roller.supply(12)
    # 12 + 3 = 15 meets DC 15
    result = check(roller, {PERCEPTION: 3}, PERCEPTION, dc=15)
    assert (result.natural, result.bonus, result.total, result.dc) == (12, 3, 15, 15)
    assert result.success is True
    assert result.name == PERCEPTION


def test_p_chk_1_check_one_short_of_the_dc_fails() -> None:
    roller = Roller(0)
    roller.supply(11)
    # 11 + 3 = 14 < 15
    result = check(roller, {PERCEPTION: 3}, PERCEPTION, dc=15)
    assert (result.total, result.success) == (14, False)


def test_p_chk_1_check_missing_from_the_sheet_has_bonus_0() -> None:
    roller = Roller(0)
    roller.supply(9)
    # 9 + 0 = 9 < 10
    result = check(roller, {PERCEPTION: 5}, STEALTH, dc=10)
    assert (result.bonus, result.total, result.success) == (0, 9, False)


def test_p_chk_1_check_with_a_negative_bonus() -> None:
    roller = Roller(0)
    roller.supply(13)
    # 13 - 2 = 11 < 12
    result = check(roller, {ATHLETICS: -2}, ATHLETICS, dc=12)
    assert (result.total, result.success) == (11, False)


def test_p_chk_2_check_with_advantage_uses_the_higher_natural() -> None:
    roller = Roller(0)
    roller.supply(5, 18)
    # keep 18; 18 + 2 = 20 >= 20
    result = check(roller, {ATHLETICS: 2}, ATHLETICS, dc=20, advantage=Advantage.ADVANTAGE)
    assert (result.natural, result.total, result.success) == (18, 20, True)
    assert result.record.dice == (5, 18)


def test_p_chk_4_check_is_logged_under_its_purpose_or_its_name() -> None:
    roller = Roller(0)
    check(roller, {}, STEALTH, dc=10)
    check(roller, {}, STEALTH, dc=10, purpose="stealth ada vs bo")
    assert [record.purpose for record in roller.log] == [STEALTH, "stealth ada vs bo"]
    assert [record.target for record in roller.log] == [10, 10]


def test_p_chk_3_passive_perception_is_10_plus_the_perception_bonus() -> None:
    # 10 + 4 = 14
    assert passive_perception({PERCEPTION: 4, STEALTH: 9}) == 14


def test_p_chk_3_passive_perception_without_the_bonus_is_10() -> None:
    assert passive_perception({}) == 10
