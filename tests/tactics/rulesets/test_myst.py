"""The Myst ruleset object: its scenario sheet field and map units' sample sheets."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.rules.myst.data import Sheet, load
from game.rules.reader import ScenarioError
from game.scenario.parse import parse_scenario
from game.tactics.ruleset import ruleset_for
from game.tactics.rulesets.myst import RULESET, sheet_of, unit_fields


def _field(entities: list[dict[str, object]]) -> object:
    scenario = {"ruleset": "myst", "map": {"size": [6, 3, 1]}, "entities": entities}
    return parse_scenario(scenario, Path.cwd())[0]


def test_the_registry_finds_the_myst_object_reading_only_a_sheet() -> None:
    assert ruleset_for("myst") is RULESET
    assert RULESET.entity_fields == ("sheet",)
    assert set(RULESET.queries) == {"attack", "damage", "initiative"}


def test_an_entity_without_a_sheet_gets_the_assumed_defaults() -> None:
    bf = _field([{"id": "a", "faction": "x", "at": [0, 0, 0]}])
    sheet = sheet_of(bf.by_id["a"])  # type: ignore[attr-defined]
    assert isinstance(sheet, Sheet) and sheet == load().defaults


def test_a_periferie_field_is_refused_by_name_under_myst() -> None:
    with pytest.raises(ScenarioError, match=r"entities\[0\]: unknown field 'checks'"):
        _field([{"id": "a", "faction": "x", "at": [0, 0, 0], "checks": {}}])


def test_an_unknown_sheet_key_is_refused_naming_the_place() -> None:
    with pytest.raises(ScenarioError, match=r"entities\[0\].sheet: unknown field 'forza'"):
        _field([{"id": "a", "faction": "x", "at": [0, 0, 0], "sheet": {"forza": 3}}])


def test_an_unknown_weapon_id_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ScenarioError, match=r"sheet.weapon: unknown weapon 'katana'.*forcone"):
        _field([{"id": "a", "faction": "x", "at": [0, 0, 0], "sheet": {"weapon": "katana"}}])


@pytest.mark.parametrize(
    ("template", "sample"),
    [
        ("human", "popolano"),
        ("station_guard", "soldato"),
        ("void_marine", "bruto"),
        ("scavenger", "arciere"),
        ("maintenance_drone", "popolano"),
        (None, "popolano"),
    ],
)
def test_map_units_get_the_sample_sheet_of_their_template(
    template: str | None, sample: str
) -> None:
    assert RULESET.unit_fields(template, "combat_knife", None) == {"sheet": sample}


def test_a_commoner_the_map_armed_with_a_ranged_weapon_fights_as_the_sample_archer() -> None:
    # game/data/myst/sheets.toml [armed_commoners] (sample data): the keep's units are all of
    # the "human" template (the commoner, popolano); those the map gave a carbine (its bows)
    # are archers; a pistol or a knife stays a commoner's; a guard's template keeps its soldier.
    assert unit_fields("human", "carbine", None) == {"sheet": "arciere"}
    assert unit_fields("human", "pistol", None) == {"sheet": "popolano"}
    assert unit_fields("human", "combat_knife", None) == {"sheet": "popolano"}
    assert unit_fields(None, None, None) == {"sheet": "popolano"}
    assert unit_fields("station_guard", "carbine", None) == {"sheet": "soldato"}
