"""The ruleset interface: every listed ruleset has its object, and the query asks it."""

from pathlib import Path

import pytest

from game.rules import registry
from game.scenario.parse import parse_scenario
from game.scenario.queries import answer_all
from game.tactics.ruleset import SHARED_ENTITY_FIELDS, ruleset_for


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
