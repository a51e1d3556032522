"""The fantasy ruleset object: its scenario sheet field, engagement, map units' sample sheets."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.rules.fantasy.data import load
from game.rules.reader import ScenarioError
from game.scenario.parse import parse_scenario
from game.tactics.battlefield import Battlefield
from game.tactics.ruleset import ruleset_for
from game.tactics.rulesets.fantasy import RULESET, engaged, sheet_of


def _field(entities: list[dict[str, object]]) -> Battlefield:
    scenario = {"ruleset": "fantasy", "map": {"size": [6, 3, 1]}, "entities": entities}
    return parse_scenario(scenario, Path.cwd())[0]


def test_the_registry_finds_the_fantasy_object_reading_only_a_sheet() -> None:
    assert ruleset_for("fantasy") is RULESET
    assert RULESET.entity_fields == ("sheet",)
    assert set(RULESET.queries) == {"attack", "damage", "initiative"}


def test_an_entity_without_a_sheet_gets_the_defaults_vpb_8_and_6_cells() -> None:
    # 003:l.77 VPB 8 for a human; F-3 6 cells of movement (assumed).
    sheet = sheet_of(_field([{"id": "a", "faction": "x", "at": [0, 0, 0]}]).by_id["a"])
    assert sheet == load().defaults and sheet.dp == 8 and sheet.movement == 6


def test_engaged_means_an_enemy_in_one_of_the_26_adjacent_cells() -> None:
    # F-2: "Engaged = an enemy in one of the 26 adjacent cells"; allies do not engage.
    bf = _field(
        [
            {"id": "a", "faction": "x", "at": [0, 0, 0]},
            {"id": "pal", "faction": "x", "at": [1, 1, 0]},
            {"id": "foe", "faction": "y", "at": [3, 0, 0]},
        ]
    )
    assert not engaged(bf, bf.by_id["a"])
    assert not engaged(bf, bf.by_id["foe"])
    bf2 = _field(
        [
            {"id": "a", "faction": "x", "at": [0, 0, 0]},
            {"id": "foe", "faction": "y", "at": [1, 1, 0]},
        ]
    )
    assert engaged(bf2, bf2.by_id["a"]) and not engaged(bf2, bf2.by_id["a"], bf2.by_id["foe"])


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        ({"agi": "d7"}, r"sheet.agi: unknown value 'd7'"),
        ({"forza": "d6"}, r"sheet: unknown field 'forza'"),
        ({"defences": [["schivare", "agi"]]}, r"defences\[0\]\[0\]: 'schivare' is not one"),
        ({"armour": {"tail": 2}}, r"sheet.armour: unknown field 'tail'"),
        ({"body": {"lieve": 2}, "body_lost": 20}, r"body_lost: 20 is more than"),
        ("wizard", r"sheet.sample: unknown value 'wizard'"),
    ],
)
def test_bad_sheets_are_refused_naming_the_place(sheet: object, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        _field([{"id": "a", "faction": "x", "at": [0, 0, 0], "sheet": sheet}])


def test_a_periferie_field_is_refused_by_name_under_fantasy() -> None:
    with pytest.raises(ScenarioError, match=r"entities\[0\]: unknown field 'wounds'"):
        _field([{"id": "a", "faction": "x", "at": [0, 0, 0], "wounds": {}}])


@pytest.mark.parametrize(
    ("template", "sample"),
    [
        ("human", "popolano"),
        ("station_guard", "guerriero"),
        ("void_marine", "bruto"),
        ("scavenger", "arciere"),
        ("maintenance_drone", "popolano"),
        (None, "popolano"),
    ],
)
def test_map_units_get_the_sample_sheet_of_their_template(
    template: str | None, sample: str
) -> None:
    assert RULESET.unit_fields(template, None, None) == {"sheet": sample}
