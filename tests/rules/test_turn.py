"""Tests for game.rules.turn: what an entity may still do in its turn (P-TURN-1, P-TURN-2)."""

from __future__ import annotations

import json

import pytest

from game.rules.stance import Stance
from game.rules.turn import Ok, RefusalCode, Refused, TurnState, TurnStateError
from game.text.explain import refusal_text


def started() -> TurnState:
    state = TurnState()
    state.start_turn()
    return state


def test_p_turn_1_movement_may_be_split_until_the_limit() -> None:
    state = started()
    # 2 + 3 = 5 = the limit
    assert state.spend_movement(2, limit=5) == Ok()
    assert state.use_action("attack") == Ok()
    assert state.spend_movement(3, limit=5) == Ok()
    assert state.movement_spent == 5
    assert state.movement_left(5) == 0


def test_p_turn_1_movement_beyond_the_limit_is_refused_and_nothing_is_spent() -> None:
    state = started()
    state.spend_movement(4, limit=5)
    # 4 + 2 = 6 > 5
    result = state.spend_movement(2, limit=5)
    assert result == Refused(RefusalCode.NOT_ENOUGH_MOVEMENT, {"left": 1, "limit": 5, "cost": 2})
    assert "1 of 5" in refusal_text(result)
    assert "costs 2" in refusal_text(result)
    assert state.movement_spent == 4


def test_p_turn_1_a_larger_limit_after_a_dash_allows_more_movement() -> None:
    state = started()
    state.spend_movement(5, limit=5)
    assert state.use_action("dash") == Ok()
    # P-MOV-5: speed 5 doubled = 10; 5 + 5 = 10
    assert state.spend_movement(5, limit=10) == Ok()
    assert state.dashed is True
    assert state.disengaged is False


def test_p_turn_1_negative_movement_is_an_error() -> None:
    with pytest.raises(TurnStateError, match="-1"):
        started().spend_movement(-1, limit=5)


def test_p_turn_1_a_second_action_is_refused_with_a_readable_reason() -> None:
    state = started()
    assert state.use_action("attack") == Ok()
    result = state.use_action("dash")
    assert result == Refused(RefusalCode.ACTION_USED, {"action": "attack"})
    assert isinstance(result, Refused)
    assert refusal_text(result) == "The action of this turn is already used (attack)."
    assert state.action == "attack"
    assert state.dashed is False


def test_p_turn_1_disengage_is_readable_afterwards() -> None:
    state = started()
    state.use_action("disengage")
    assert state.disengaged is True


def test_p_turn_1_action_needs_a_kind() -> None:
    with pytest.raises(TurnStateError, match="kind"):
        started().use_action(" ")


def test_p_turn_1_one_interaction_and_one_bonus_action_per_turn() -> None:
    state = started()
    assert state.use_interaction() == Ok()
    assert state.use_bonus_action() == Ok()
    assert isinstance(state.use_interaction(), Refused)
    assert isinstance(state.use_bonus_action(), Refused)


def test_p_turn_1_nothing_but_the_reaction_outside_the_own_turn() -> None:
    state = TurnState()
    assert isinstance(state.spend_movement(1, limit=5), Refused)
    assert isinstance(state.use_action("attack"), Refused)
    assert isinstance(state.use_interaction(), Refused)
    assert isinstance(state.use_bonus_action(), Refused)
    assert state.use_reaction() == Ok()


def test_p_turn_1_turn_cut_short_refuses_further_movement() -> None:
    state = started()
    state.spend_movement(1, limit=5)
    state.end_turn()
    assert isinstance(state.spend_movement(1, limit=5), Refused)


def test_p_turn_1_reaction_once_per_round_comes_back_at_the_start_of_the_own_turn() -> None:
    state = started()
    assert state.use_reaction() == Ok()  # in its own turn
    state.end_turn()
    # others' turns, a new round: still used
    refused = state.use_reaction()
    assert isinstance(refused, Refused)
    assert refused.code == "reaction_used"
    assert "next turn" in refusal_text(refused)
    state.start_turn()
    assert state.use_reaction() == Ok()


def test_p_turn_1_start_turn_gives_everything_back() -> None:
    state = started()
    state.spend_movement(3, limit=5)
    state.use_action("attack")
    state.use_interaction()
    state.use_bonus_action()
    state.use_reaction()
    state.start_turn()
    assert state == TurnState(in_turn=True)


def test_p_turn_2_changing_stance_costs_the_interaction() -> None:
    state = started()
    assert state.change_stance(Stance.STANDING, Stance.PRONE) == Ok()
    assert state.interaction_used is True
    assert isinstance(state.use_interaction(), Refused)


def test_p_turn_2_a_second_stance_change_is_refused_once_the_interaction_is_used() -> None:
    state = started()
    state.use_interaction()
    result = state.change_stance(Stance.PRONE, Stance.CROUCHED)
    assert result == Refused(RefusalCode.STANCE_NEEDS_INTERACTION)
    assert refusal_text(result) == "Changing stance costs the interaction, already used this turn."


def test_p_turn_2_the_same_stance_is_refused_and_costs_nothing() -> None:
    state = started()
    result = state.change_stance(Stance.CROUCHED, Stance.CROUCHED)
    assert result == Refused(RefusalCode.SAME_STANCE, {"stance": "crouched"})
    assert isinstance(result, Refused)
    assert refusal_text(result) == "Already crouched."
    assert state.interaction_used is False


def test_p_turn_2_no_stance_change_outside_the_own_turn() -> None:
    assert isinstance(TurnState().change_stance(Stance.STANDING, Stance.CROUCHED), Refused)


def test_turn_state_survives_a_json_round_trip() -> None:
    state = started()
    state.spend_movement(2, limit=5)
    state.use_action("disengage")
    state.use_reaction()
    again = TurnState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state


def test_turn_state_from_bad_data_names_the_missing_field() -> None:
    data = started().to_dict()
    del data["reaction_used"]
    with pytest.raises(TurnStateError, match="reaction_used"):
        TurnState.from_dict(data)
