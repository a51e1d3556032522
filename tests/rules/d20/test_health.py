"""d20 hit points (D-2) and the coup de grâce's Fortitude DC (004:l.116), worked by hand."""

from __future__ import annotations

import pytest

from game.rules.d20.data import load_d20
from game.rules.d20.health import HpState, dying_round, hp_state, take_damage

DATA = load_d20()


@pytest.mark.parametrize(
    ("hp", "state"),
    [
        (1, HpState.OK),
        (0, HpState.DISABLED),  # D-2 "0 disabled"
        (-1, HpState.DYING),  # D-2 "-1 to -9 dying"
        (-9, HpState.DYING),
        (-10, HpState.DEAD),  # D-2 "-10 dead"
        (-14, HpState.DEAD),
    ],
)
def test_the_state_at_each_hit_point_threshold_d2(hp: int, state: HpState) -> None:
    assert hp_state(DATA, hp) is state


def test_damage_takes_hit_points_off_and_names_the_state_d2() -> None:
    # 10 - 10 = 0 disabled; 10 - 11 = -1 dying; 10 - 20 = -10 dead.
    assert take_damage(DATA, 10, 10).state is HpState.DISABLED
    assert (take_damage(DATA, 10, 11).hit_points, take_damage(DATA, 10, 11).state) == (
        -1,
        HpState.DYING,
    )
    assert take_damage(DATA, 10, 20).state is HpState.DEAD


def test_a_coup_de_grace_survivor_saves_at_dc_10_plus_the_damage_004_l116() -> None:
    # l.116 "deve superare un tiro salvezza sulla Tempra (CD 10 + danni inflitti) o morire":
    # 7 damage to 13 hit points leaves 6, DC 10 + 7 = 17.
    result = take_damage(DATA, 13, 7, coup_de_grace=True)
    assert (result.hit_points, result.fort_dc) == (6, 17)
    # "Se il difensore sopravvive ai danni": 25 damage to 13 leaves -12, dead, no save.
    assert take_damage(DATA, 13, 25, coup_de_grace=True).fort_dc is None
    # An ordinary hit asks no save.
    assert take_damage(DATA, 13, 7).fort_dc is None


def test_a_dying_creature_stabilises_on_10_percent_or_loses_1_a_round_d2() -> None:
    # D-2 "-1 a round, 10% each round to stabilise": a d100 of 10 stabilises, 11 does not.
    assert dying_round(DATA, -3, 10).stabilised
    lost = dying_round(DATA, -3, 11)
    assert (lost.hit_points, lost.stabilised, lost.state) == (-4, False, HpState.DYING)
    assert dying_round(DATA, -9, 50).state is HpState.DEAD  # -9 - 1 = -10
    assert dying_round(DATA, 4, 50).hit_points == 4  # not dying: nothing happens
