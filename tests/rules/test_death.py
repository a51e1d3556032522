"""Tests of death saves (P-DEATH-1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.rules.data import RulesInputError
from game.rules.death import RESULTS, death_save
from game.rules.wounds import Health

DYING = Health(mortal=1)
DYING_OUT = Health(mortal=1, conditions=frozenset({"out_of_combat"}))


def test_p_death_1_ten_or_more_is_a_success_nine_is_a_failure() -> None:
    success = death_save(DYING, 10)
    assert success.result == "success"
    assert success.after == Health(mortal=1, death_successes=1)
    failure = death_save(DYING, 9)
    assert failure.result == "failure"
    assert failure.after == Health(mortal=1, death_failures=1)


def test_p_death_1_natural_1_counts_as_two_failures() -> None:
    outcome = death_save(DYING, 1)
    assert outcome.result == "two_failures"
    assert outcome.after == Health(mortal=1, death_failures=2)


def test_p_death_1_natural_1_with_one_failure_already_kills() -> None:
    # 1 + 2 = 3 failures
    outcome = death_save(Health(mortal=1, death_failures=1), 1)
    assert outcome.result == "dead"
    assert outcome.after.has("dead")
    assert outcome.after.death_failures == 3


def test_p_death_1_third_failure_kills() -> None:
    outcome = death_save(Health(mortal=1, death_successes=2, death_failures=2), 5)
    assert outcome.result == "dead"
    assert outcome.after.has("dead")


def test_p_death_1_third_success_stabilises_and_puts_out_of_combat() -> None:
    outcome = death_save(Health(mortal=1, death_successes=2, death_failures=2), 15)
    assert outcome.result == "stabilised"
    assert outcome.after == Health(
        mortal=1,
        conditions=frozenset({"stabilised", "out_of_combat"}),
        death_successes=3,
        death_failures=2,
    )


def test_p_death_1_natural_20_turns_the_mortal_wound_back_into_a_grave_one_in_combat() -> None:
    outcome = death_save(Health(mortal=1, death_successes=1, death_failures=2), 20)
    assert outcome.result == "recovered"
    assert outcome.after == Health(grave=1)
    assert not outcome.after.has("out_of_combat")


def test_p_death_1_natural_20_leaves_an_out_of_combat_entity_out_of_combat() -> None:
    outcome = death_save(DYING_OUT, 20)
    assert outcome.after == Health(grave=1, conditions=frozenset({"out_of_combat"}))


@pytest.mark.parametrize("natural", [0, 21, -3])
def test_p_death_1_natural_outside_1_to_20_is_an_error(natural: int) -> None:
    with pytest.raises(RulesInputError, match=f"natural d20 {natural} is not 1..20"):
        death_save(DYING, natural)


@pytest.mark.parametrize(
    "health",
    [
        Health(grave=1),
        Health(mortal=1, conditions=frozenset({"stabilised", "out_of_combat"})),
        Health(mortal=1, conditions=frozenset({"dead"}), death_failures=3),
    ],
)
def test_p_death_1_no_save_when_not_dying(health: Health) -> None:
    with pytest.raises(RulesInputError, match="none due"):
        death_save(health, 12)


@given(
    successes=st.integers(0, 2),
    failures=st.integers(0, 2),
    out=st.booleans(),
    natural=st.integers(1, 20),
)
def test_p_death_1_property_each_save_moves_exactly_one_step(
    successes: int, failures: int, out: bool, natural: int
) -> None:
    before = Health(
        mortal=1,
        conditions=frozenset({"out_of_combat"}) if out else frozenset(),
        death_successes=successes,
        death_failures=failures,
    )
    outcome = death_save(before, natural)
    after = outcome.after
    assert outcome.result in RESULTS
    assert after.has("out_of_combat") == (out or outcome.result == "stabilised")
    if natural == 20:
        assert (after.mortal, after.grave) == (0, 1)
    elif natural >= 10:
        assert after.death_successes == successes + 1
        assert after.death_failures == failures
    else:
        assert after.death_successes == successes
        assert after.death_failures == min(3, failures + (2 if natural == 1 else 1))
    assert after.has("dead") == (after.death_failures == 3)
