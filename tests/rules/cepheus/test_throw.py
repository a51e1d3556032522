"""Cepheus throws' own rules (game/rules/cepheus/throw.py) against seed 000: "Se l'attacco
fallisce, il proiettile rimbalza in una direzione casuale per (6 + Effetto) metri" (000:l.353),
and "Il primo tipo di arma lanciata somma l'Effetto ... al suo danno. Il secondo tipo no."."""

from __future__ import annotations

import pytest

from game.rules.cepheus.throw import adds_effect, bounce_cells, bounce_metres, bounce_offset


def test_000_l353_a_miss_bounces_six_plus_effect_metres_never_below_zero() -> None:
    assert [bounce_metres(e) for e in (-1, -2, -5, -6, -9)] == [5, 4, 1, 0, 0]
    with pytest.raises(ValueError, match="only a miss"):
        bounce_metres(0)


def test_000_l353_the_bounce_in_whole_cells_of_one_and_a_half_metres_rounds_down() -> None:
    # 5 m = 3.33 cells -> 3; 4 m = 2.67 -> 2; 3 m = 2; 2 m = 1.33 -> 1; 1 m -> 0 (G-4).
    assert [bounce_cells(e) for e in (-1, -2, -3, -4, -5)] == [3, 2, 2, 1, 0]


def test_the_bounce_direction_is_a_d8_compass_from_north_clockwise() -> None:
    assert bounce_offset(1, 2) == (0, -2, 0)
    assert bounce_offset(2, 2) == (2, -2, 0)
    assert bounce_offset(3, 2) == (2, 0, 0)
    assert bounce_offset(5, 1) == (0, 1, 0)
    assert bounce_offset(8, 3) == (-3, -3, 0)
    with pytest.raises(ValueError, match="d8"):
        bounce_offset(9, 1)


def test_000_l353_an_impact_weapon_adds_the_effect_a_grenade_does_not() -> None:
    assert adds_effect(0) and not adds_effect(1)
