"""A d20 turn (D-2): its actions, its movement in cells, attacks of opportunity."""

from __future__ import annotations

from game.rules.d20.data import load_d20
from game.rules.d20.health import HpState
from game.rules.d20.turn import movement_cells, plan_refusal, provokes_opportunity

DATA = load_d20()


def test_a_standard_and_a_move_or_one_full_round_action_d2() -> None:
    # D-2: "A turn: a standard and a move action, or one full-round action".
    assert plan_refusal(HpState.OK, ["standard", "move"]) is None
    assert plan_refusal(HpState.OK, ["full_round"]) is None
    assert (
        plan_refusal(HpState.OK, ["full_round", "move"]) == "a full-round action is the whole turn"
    )
    # "a 5-foot step (1 cell) when not otherwise moving"
    assert plan_refusal(HpState.OK, ["standard", "five_foot_step"]) is None
    assert plan_refusal(HpState.OK, ["move", "five_foot_step"]) is not None


def test_a_disabled_creature_takes_one_action_and_a_dying_one_none_d2() -> None:
    # D-2: "0 disabled (one action a turn)".
    assert plan_refusal(HpState.DISABLED, ["standard"]) is None
    assert plan_refusal(HpState.DISABLED, ["standard", "move"]) is not None
    assert plan_refusal(HpState.DYING, ["move"]) == "a dying creature takes no action"


def test_movement_is_the_speed_with_a_move_action_and_1_cell_with_a_step_d2() -> None:
    # D-2: "Speed 30 ft = 6 cells"; "a 5-foot step (1 cell)".
    assert movement_cells(DATA, 6, ["standard", "move"]) == 6
    assert movement_cells(DATA, 6, ["standard", "five_foot_step"]) == 1
    assert movement_cells(DATA, 6, ["full_round"]) == 0


def test_leaving_a_threatened_cell_provokes_once_a_round_but_not_by_a_step_d2() -> None:
    assert provokes_opportunity(True, five_foot_step=False, attacker_used_one=False)
    assert not provokes_opportunity(True, five_foot_step=True, attacker_used_one=False)
    assert not provokes_opportunity(True, five_foot_step=False, attacker_used_one=True)
    assert not provokes_opportunity(False, five_foot_step=False, attacker_used_one=False)
