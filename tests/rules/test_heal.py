"""Tests of medkits in combat (P-HEAL-1)."""

from __future__ import annotations

import pytest

from game.rules.data import RulesInputError
from game.rules.heal import use_medkit
from game.rules.wounds import Health

DYING = Health(mortal=1, conditions=frozenset({"out_of_combat"}), death_failures=1)


def test_p_heal_1_light_wound_is_healed_without_a_check() -> None:
    outcome = use_medkit(Health(light=2), "light", None, self_target=True, adjacent=False)
    assert outcome.after == Health(light=1)
    assert (outcome.kit_spent, outcome.success, outcome.reason) == (True, True, "healed")
    assert outcome.rules == ("P-HEAL-1",)


def test_p_heal_1_grave_wound_heals_on_12() -> None:
    outcome = use_medkit(Health(light=1, grave=1), "grave", 12, self_target=False, adjacent=True)
    assert outcome.after == Health(light=1)
    assert outcome.success and outcome.kit_spent


def test_p_heal_1_grave_wound_check_of_11_fails_and_spends_the_kit() -> None:
    outcome = use_medkit(Health(grave=1), "grave", 11, self_target=True, adjacent=False)
    assert outcome.after == Health(grave=1)
    assert (outcome.kit_spent, outcome.success, outcome.reason) == (True, False, "check_failed")


def test_p_heal_1_allys_mortal_wound_becomes_grave_on_15() -> None:
    outcome = use_medkit(DYING, "mortal", 15, self_target=False, adjacent=True)
    # saves cleared; out of combat stays
    assert outcome.after == Health(grave=1, conditions=frozenset({"out_of_combat"}))
    assert outcome.success and outcome.kit_spent
    assert outcome.rules == ("P-HEAL-1", "P-DEATH-1")


def test_p_heal_1_allys_mortal_wound_check_10_to_14_stabilises() -> None:
    outcome = use_medkit(DYING, "mortal", 14, self_target=False, adjacent=True)
    assert outcome.reason == "stabilised"
    assert outcome.after.mortal == 1
    assert outcome.after.conditions == frozenset({"stabilised", "out_of_combat"})
    assert outcome.kit_spent
    ten = use_medkit(DYING, "mortal", 10, self_target=False, adjacent=True)
    assert ten.reason == "stabilised"


def test_p_heal_1_allys_mortal_wound_check_9_fails_and_spends_the_kit() -> None:
    outcome = use_medkit(DYING, "mortal", 9, self_target=False, adjacent=True)
    assert outcome.after == DYING
    assert (outcome.kit_spent, outcome.success, outcome.reason) == (True, False, "check_failed")


def test_p_heal_1_stabilising_an_already_stabilised_ally_spends_the_kit_for_nothing() -> None:
    stable = Health(mortal=1, conditions=frozenset({"stabilised", "out_of_combat"}))
    outcome = use_medkit(stable, "mortal", 12, self_target=False, adjacent=True)
    assert outcome.after == stable
    assert (outcome.kit_spent, outcome.success, outcome.reason) == (
        True,
        False,
        "already_stabilised",
    )
    healed = use_medkit(stable, "mortal", 15, self_target=False, adjacent=True)
    assert healed.after == Health(grave=1, conditions=frozenset({"out_of_combat"}))


def test_p_heal_1_own_mortal_wound_is_refused_and_the_kit_kept() -> None:
    outcome = use_medkit(DYING, "mortal", 20, self_target=True, adjacent=False)
    assert outcome.after == DYING
    assert (outcome.kit_spent, outcome.success, outcome.reason) == (
        False,
        False,
        "own_mortal_wound",
    )


def test_p_heal_1_target_neither_self_nor_adjacent_is_refused_and_the_kit_kept() -> None:
    outcome = use_medkit(Health(light=1), "light", None, self_target=False, adjacent=False)
    assert outcome.after == Health(light=1)
    assert (outcome.kit_spent, outcome.reason) == (False, "not_adjacent")


@pytest.mark.parametrize(
    ("target", "wound"),
    [(Health(), "light"), (Health(light=2), "grave"), (Health(grave=1), "mortal")],
)
def test_p_heal_1_wound_the_target_does_not_have_is_refused_and_the_kit_kept(
    target: Health, wound: str
) -> None:
    outcome = use_medkit(target, wound, 20, self_target=False, adjacent=True)
    assert outcome.after == target
    assert (outcome.kit_spent, outcome.reason) == (False, "no_such_wound")


def test_p_heal_1_dead_target_is_refused() -> None:
    corpse = Health(mortal=1, conditions=frozenset({"dead"}), death_failures=3)
    outcome = use_medkit(corpse, "mortal", 20, self_target=False, adjacent=True)
    assert (outcome.kit_spent, outcome.reason) == (False, "target_dead")


def test_p_heal_1_grave_or_mortal_without_a_check_total_is_an_error() -> None:
    with pytest.raises(RulesInputError, match=r"needs the applicazione \(medicina\) check"):
        use_medkit(Health(grave=1), "grave", None, self_target=True, adjacent=False)


def test_p_heal_1_unknown_wound_name_is_an_error() -> None:
    with pytest.raises(RulesInputError, match="wound 'scratch'"):
        use_medkit(Health(light=1), "scratch", None, self_target=True, adjacent=False)
