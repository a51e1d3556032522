"""Speeds and the turn's movement allowance: P-MOV-1/2/5/6/7, P-ZERO-1/2, blinded (P-VUL-3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.rules.movement import (
    HUMAN_SPEEDS,
    MODES,
    MoveAllowance,
    Speeds,
    allowance,
    effective_speed,
    remaining_after_switch,
)
from game.rules.stance import Stance
from game.text import explain

NONE = {
    "crouched": False,
    "grave_wound": False,
    "stealth": False,
    "dash": False,
    "mortal_wound": False,
}


def _speed(base: int, **on: bool) -> int:
    return effective_speed(base, **{**NONE, **on})


def _allow(speeds: Speeds | None = None, **kwargs: object) -> MoveAllowance:
    settings: dict[str, object] = {
        "stance": "standing",
        "grave_wound": False,
        "mortal_wound": False,
        "stealth": False,
        "dash": False,
        "blinded": False,
        "has_thrusters": False,
        "microgravity": False,
        "pressurised": True,
    }
    settings.update(kwargs)
    return allowance(speeds or Speeds(), **settings)  # type: ignore[arg-type]


def test_p_mov_2_human_speeds() -> None:
    assert HUMAN_SPEEDS == {
        "walk": 5,
        "crawl": 5,
        "swim": 5,
        "climb": 5,
        "jump": 4,
        "thrusters": 5,
    }
    assert tuple(HUMAN_SPEEDS) == MODES
    assert Speeds() == Speeds(5, 5, 5, 5, 4, 5)


def test_p_mov_2_crouched_halves_walk_5_to_2() -> None:
    # floor(5/2) = 2
    assert _speed(5, crouched=True) == 2


def test_p_mov_7_crouched_then_grave_wound_gives_1() -> None:
    # 5 → floor(5/2) = 2 → floor(2/2) = 1
    assert _speed(5, crouched=True, grave_wound=True) == 1


def test_p_mov_7_dash_doubles_after_the_halvings() -> None:
    # 5 → floor(5/2) = 2 → floor(2/2) = 1, then dash 1 × 2 = 2
    assert _speed(5, crouched=True, grave_wound=True, dash=True) == 2
    # 7 → 3 → 1 → dash 2; doubling first would give 14 → 7 → 3, so the order shows
    assert _speed(7, crouched=True, grave_wound=True, dash=True) == 2


def test_p_mov_5_dash_doubles_walk_5_to_10() -> None:
    assert _speed(5, dash=True) == 10


def test_p_mov_7_stealth_halves_walk_5_to_2() -> None:
    assert _speed(5, stealth=True) == 2


def test_p_mov_7_all_three_halvings_round_down_each_time() -> None:
    # 9 → floor(9/2) = 4 → 2 → 1
    assert _speed(9, crouched=True, grave_wound=True, stealth=True) == 1
    # 6 → 3 → 1 → 0, dash 0 × 2 = 0 (one exact division, 6 × 2/8 = 1.5, would give 1)
    assert _speed(6, crouched=True, grave_wound=True, stealth=True, dash=True) == 0


def test_p_stl_1_stealthy_movement_halves_every_budget() -> None:
    allowed = _allow(stealth=True)
    # walk/swim/climb floor(5/2) = 2, jump 4/2 = 2
    assert allowed.budgets == {"walk": 2, "swim": 2, "climb": 2, "jump": 2}
    assert "P-STL-1" in allowed.rules


def test_p_mov_6_grave_wound_halves_every_speed() -> None:
    allowed = _allow(grave_wound=True)
    # walk/swim/climb 5 → 2, jump 4 → 2
    assert allowed.budgets == {"walk": 2, "swim": 2, "climb": 2, "jump": 2}
    assert "P-MOV-6" in allowed.rules


def test_p_mov_6_mortal_wound_stops_all_movement() -> None:
    assert _speed(5, mortal_wound=True, dash=True) == 0
    allowed = _allow(mortal_wound=True, has_thrusters=True, microgravity=True)
    assert set(allowed.budgets.values()) == {0}
    assert allowed.drift == 0
    assert "walk 5 → mortal wound 0" in explain.allowance_lines(allowed)


def test_p_mov_1_switching_mode_leaves_new_speed_minus_spent() -> None:
    # walked 3, switch to climb 5: 5 − 3 = 2; switch to jump 4 after 5: max(0, −1) = 0
    assert remaining_after_switch(5, 3) == 2
    assert remaining_after_switch(4, 5) == 0


def test_p_mov_1_negative_inputs_are_rejected_by_name() -> None:
    with pytest.raises(ValueError, match="remaining_after_switch"):
        remaining_after_switch(5, -1)
    with pytest.raises(ValueError, match="effective_speed"):
        _speed(-1)


def test_p_mov_1_standing_human_gets_every_mode_but_crawl_and_thrusters() -> None:
    allowed = _allow()
    assert allowed.budgets == {"walk": 5, "swim": 5, "climb": 5, "jump": 4}
    assert not allowed.crawling
    assert allowed.max_cells is None
    assert allowed.rules == ("P-MOV-1",)


def test_p_mov_2_prone_is_crawling_at_crawl_speed() -> None:
    allowed = _allow(Speeds(crawl=3), stance=Stance.PRONE, has_thrusters=True)
    # crawl 3; in water a crawler swims at its crawl speed (swimming and crawling add up)
    assert allowed.budgets == {"crawl": 3, "swim": 3}
    assert allowed.crawling
    assert "P-MOV-2" in allowed.rules


def test_p_mov_7_crouched_dash_explained_step_by_step() -> None:
    allowed = _allow(stance="crouched", dash=True)
    # walk 5 → crouched 2 → dash 4; jump 4 → 2 → 4
    assert allowed.budgets["walk"] == 4
    assert allowed.budgets["jump"] == 4
    assert "walk 5 → crouched 2 → dash 4" in explain.allowance_lines(allowed)
    assert allowed.rules == ("P-MOV-1", "P-MOV-2", "P-MOV-5", "P-MOV-7")


def test_p_vul_3_blinded_moves_at_most_1_cell_unless_helped() -> None:
    alone = _allow(blinded=True)
    helped = _allow(blinded=True, helped=True)
    assert alone.max_cells == 1
    assert helped.max_cells is None
    assert alone.budgets == helped.budgets == {"walk": 5, "swim": 5, "climb": 5, "jump": 4}
    assert "P-VUL-3" in alone.rules
    assert "blinded: at most 1 cell this turn (P-VUL-3)" in explain.allowance_lines(alone)


def test_p_vul_3_an_unhurt_entity_that_sees_has_no_cell_limit() -> None:
    assert _allow().max_cells is None
    assert "P-VUL-3" not in _allow().rules


def test_p_mov_6_a_mortal_wound_stops_a_blinded_entity_even_when_helped() -> None:
    # help lifts the 1-cell limit of P-VUL-3, not the stop of P-MOV-6
    allowed = _allow(blinded=True, helped=True, mortal_wound=True)
    assert allowed.max_cells is None
    assert set(allowed.budgets.values()) == {0}
    assert {"P-MOV-6", "P-VUL-3"} <= set(allowed.rules)


def test_p_zero_2_thrusters_give_their_speed_when_fitted() -> None:
    allowed = _allow(has_thrusters=True, microgravity=True, stance="crouched")
    # thrusters 5 → crouched 2
    assert allowed.budgets["thrusters"] == 2
    assert allowed.drift == 0
    assert "P-ZERO-2" in allowed.rules


def test_p_zero_2_thrusters_need_a_thrusters_speed() -> None:
    with pytest.raises(ValueError, match="no thrusters speed"):
        _allow(Speeds(thrusters=None), has_thrusters=True)


def test_p_zero_2_adrift_without_thrusters_in_pressurised_space_moves_1_cell() -> None:
    allowed = _allow(microgravity=True)
    assert allowed.drift == 1
    assert "thrusters" not in allowed.budgets
    assert "P-ZERO-2" in allowed.rules


def test_p_zero_2_no_drift_in_vacuum_or_in_gravity() -> None:
    assert _allow(microgravity=True, pressurised=False).drift == 0
    assert _allow(microgravity=False).drift == 0


def test_p_zero_1_microgravity_jump_budget_is_twice_the_jump_speed() -> None:
    allowed = _allow(microgravity=True, grave_wound=True)
    # jump 4 → grave wound 2 → × 2 = 4
    assert allowed.budgets["jump"] == 4
    assert "jump 4 → grave wound 2 → microgravity jump ×2 4" in explain.allowance_lines(allowed)
    assert "P-ZERO-1" in allowed.rules


def test_p_mov_2_speeds_from_mapping_fills_human_defaults() -> None:
    speeds = Speeds.from_mapping({"walk": 6, "thrusters": 3}, "creatures.toml [drone]")
    assert speeds == Speeds(walk=6, thrusters=3)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"fly": 5}, r"creatures.toml \[drone\]: unknown movement mode 'fly'"),
        ({"walk": -1}, r"creatures.toml \[drone\]: speed for 'walk'"),
        ({"walk": "5"}, r"creatures.toml \[drone\]: speed for 'walk'"),
        ({"walk": True}, r"creatures.toml \[drone\]: speed for 'walk'"),
        ({"walk": 2.5}, r"creatures.toml \[drone\]: speed for 'walk'"),
    ],
)
def test_p_mov_1_speeds_from_mapping_rejects_bad_data(
    data: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Speeds.from_mapping(data, "creatures.toml [drone]")


def test_p_mov_2_unknown_stance_is_rejected() -> None:
    with pytest.raises(ValueError, match="'kneeling'"):
        _allow(stance="kneeling")


_flags = st.booleans()


@given(st.integers(0, 50), _flags, _flags, _flags, _flags, _flags)
def test_p_mov_7_effective_speed_never_exceeds_twice_the_base(
    base: int, crouched: bool, grave: bool, stealth: bool, dash: bool, mortal: bool
) -> None:
    speed = effective_speed(
        base, crouched=crouched, grave_wound=grave, stealth=stealth, dash=dash, mortal_wound=mortal
    )
    assert 0 <= speed <= 2 * base


@given(st.integers(0, 50), _flags, _flags, _flags)
def test_p_mov_7_a_further_halving_never_speeds_up(
    base: int, grave: bool, stealth: bool, dash: bool
) -> None:
    flags = {"grave_wound": grave, "stealth": stealth, "dash": dash, "mortal_wound": False}
    assert effective_speed(base, crouched=True, **flags) <= effective_speed(
        base, crouched=False, **flags
    )
