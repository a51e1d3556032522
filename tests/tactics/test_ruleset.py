"""The ruleset interface: every listed ruleset has its object, and the query asks it."""

from fractions import Fraction
from pathlib import Path

import pytest

from game.rules import registry
from game.rules.ruleset_answers import Modifier
from game.rules.wounds import Health
from game.scenario.parse import parse_scenario
from game.scenario.queries import answer_all
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield
from game.tactics.ruleset import (
    SHARED_ENTITY_FIELDS,
    BattleRules,
    battle_rules,
    playable_ids,
    ruleset_for,
)
from game.text import explain
from game.text.i18n import speaking


@pytest.mark.parametrize("ruleset_id", registry.IDS)
def test_every_ruleset_in_the_registry_has_an_object_named_by_its_id(ruleset_id: str) -> None:
    ruleset = ruleset_for(ruleset_id)
    assert ruleset.id == ruleset_id
    assert not set(ruleset.entity_fields) & set(SHARED_ENTITY_FIELDS)


def test_an_unknown_ruleset_is_refused_with_the_known_ones() -> None:
    with pytest.raises(registry.UnknownRuleset, match="periferie"):
        ruleset_for("gurps")


def test_the_chance_query_is_shared_and_answers_an_exact_fraction() -> None:
    scenario = {
        "map": {"size": [2, 2, 1]},
        "queries": [
            {"q": "chance", "dice": "2d6+1", "at_least": 8},
            {"q": "chance", "dice": "2z", "at_least": 3},
        ],
    }
    field, queries = parse_scenario(scenario, Path.cwd())
    results = answer_all(field, queries)["results"]
    assert results[0]["chance"] == "7/12"  # 21/36 in lowest terms
    assert results[1]["error"].startswith("queries[1].dice")


# --- the battle side (BattleRules): periferie's object answers as its modules did -------------

RANGED = "precisione (armi a distanza)"
DIVIDED = "multitasking (attenzione suddivisa)"


def _field(entities: list[dict[str, object]]) -> Battlefield:
    bf, _ = parse_scenario({"map": {"size": [12, 12, 1]}, "entities": entities}, Path.cwd())
    return bf


@pytest.fixture(scope="module")
def range_() -> Battlefield:
    return _field(
        [
            {
                "id": "shooter",
                "faction": "red",
                "at": [1, 1, 0],
                "weapon": "pistol",
                "checks": {RANGED: 2},
            },
            {"id": "mark", "faction": "blue", "at": [5, 1, 0], "checks": {DIVIDED: 0}},
        ]
    )


def test_periferie_has_a_battle_side_and_it_is_the_only_playable_ruleset_today() -> None:
    rules: BattleRules = battle_rules("periferie")
    assert rules is ruleset_for("periferie").battle
    assert "periferie" in playable_ids()


def test_periferies_attack_is_p_hit_2_as_an_exact_fraction_with_its_terms(
    range_: Battlefield,
) -> None:
    # P-HIT-2: "P = P_arma × (100 + (B_att − B_dif)×5 − armatura% − copertura%)/100": the
    # sidearm pistol's P 70, B_att +2 (ranged), B_dif 0, no armour; in the open with nothing
    # around it the mark is highly exposed (P-COV-4; P-COV-1: high exposure −15, so +15):
    # 70 × (100 + 10 + 15)/100 = 87.5, kept whole (P-HIT-2): 87, so 87/100.
    rules = battle_rules("periferie")
    shooter, mark = range_.entity("shooter"), range_.entity("mark")
    attack = rules.attack(range_, shooter, mark)
    assert attack.chance == Fraction(87, 100)
    assert attack.reason is None and attack.cover == "high_exposure"
    assert attack.modifiers == (
        Modifier("weapon_p", 70, ("P-HIT-2",)),
        Modifier("attack_bonus", 2, ("P-HIT-2",)),
        Modifier("defence_bonus", 0, ("P-HIT-2",)),
        Modifier("cover", 15, ("P-COV-1",)),
    )
    old = tactics.attack_chance(range_, shooter, mark)
    assert attack.detail == old and attack.rules == old.rules and attack.why == old.why
    assert rules.expected_harm(range_, shooter, mark, attack) == Fraction(87, 100)
    with speaking("en"):
        assert explain.attack_lines(attack) == [
            "Chance to hit 87%",
            "weapon 70% (P-HIT-2)",
            "attack bonus +2 (P-HIT-2)",
            "defence bonus +0 (P-HIT-2)",
            "cover +15 points (P-COV-1)",
        ]


def test_periferies_attack_without_a_chance_gives_the_reason_code(range_: Battlefield) -> None:
    rules = battle_rules("periferie")
    mark = range_.entity("mark")  # carries no weapon
    attack = rules.attack(range_, mark, range_.entity("shooter"))
    assert attack.chance is None and attack.reason == "no_weapon" and attack.modifiers == ()
    with speaking("en"):
        assert explain.attack_lines(attack) == ["mark carries no weapon"]


def test_periferies_damage_is_the_wound_ladder_of_damage_to(range_: Battlefield) -> None:
    rules = battle_rules("periferie")
    mark = range_.entity("mark")
    harm = rules.damage(range_, mark, "perforante", 9)
    old = tactics.damage_to(range_, mark, "perforante", 9)
    assert harm.damage == old.damage and harm.after == old.outcome.after
    assert harm.effects == tuple(old.outcome.effects) and harm.rules == old.rules


def test_periferies_condition_effects_follow_p_vul_3() -> None:
    # P-VUL-3: stunned costs the turn; blinded forbids attacking and allows 1 cell; a mortal
    # wound leaves no reaction (the engine's can_react before the interface).
    effects = battle_rules("periferie").condition_effects
    assert effects(Health()).turn_lost is None and effects(Health()).speed_cap is None
    stunned = effects(Health(conditions=frozenset({"stunned"})))
    assert stunned.turn_lost == "stunned" and stunned.no_movement
    blinded = effects(Health(conditions=frozenset({"blinded"})))
    assert blinded.attack_barred == "blinded" and blinded.speed_cap == 1
    assert effects(Health(mortal=1)).no_reaction


def test_periferies_turn_budget_is_p_turn_1_as_data() -> None:
    # P-TURN-1: movement, one action, one interaction, a bonus action, one reaction a round;
    # P-TURN-2: a change of stance is the interaction. The action commands are those the
    # handlers' checks refused with action_used before the interface.
    budget = battle_rules("periferie").turn_budget()
    assert budget.slots == ("movement", "action", "interaction", "bonus", "reaction")
    assert budget.spending("action") == {
        "attack", "throw", "dash", "dodge", "disengage", "help", "ready", "hide", "search",
        "use_object", "improvise",
    }  # fmt: skip
    assert budget.spending("interaction") == {"crouch", "prone", "stand"}
    assert {"move", "end_turn"} <= budget.commands


def test_periferies_reactions_and_initiative_are_its_modules(range_: Battlefield) -> None:
    rules = battle_rules("periferie")
    assert rules.reactions == {"opportunity_attack", "readied_attack"}  # P-OA-1, P-OA-2
    order = rules.initiative_order(range_, {"shooter": 12, "mark": 15})
    assert [e.entity_id for e in order] == ["mark", "shooter"]
    assert order == tactics.initiative_order(range_, {"shooter": 12, "mark": 15})
