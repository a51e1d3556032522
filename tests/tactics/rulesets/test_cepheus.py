"""The Cepheus ruleset object: its sheet field, map units as sample sheets, the grid's part."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.rules.cepheus.sheet import Sheet
from game.rules.reader import ScenarioError
from game.scenario.parse import parse_scenario
from game.tactics.battlefield import Battlefield
from game.tactics.ruleset import ruleset_for
from game.tactics.rulesets.cepheus import beside_target, grid_cover, sheet_of

ROOT = Path(__file__).resolve().parents[3]


def _field(
    *entities: dict[str, object], cells: list[dict[str, object]] | None = None
) -> Battlefield:
    scenario = {
        "ruleset": "cepheus",
        "map": {"size": [20, 10, 1], "cells": cells or []},
        "entities": list(entities),
    }
    return parse_scenario(scenario, ROOT)[0]


def test_the_object_reads_only_the_sheet_field() -> None:
    ruleset = ruleset_for("cepheus")
    assert ruleset.id == "cepheus"
    assert ruleset.entity_fields == ("sheet",)
    assert set(ruleset.queries) == {"attack", "damage", "initiative", "cover", "reachable"}


def test_a_periferie_field_is_refused_by_name_under_cepheus() -> None:
    with pytest.raises(ScenarioError, match=r"entities\[0\]: unknown field 'checks'"):
        _field({"id": "a", "faction": "red", "at": [0, 0, 0], "checks": {}})


def test_an_entity_without_a_sheet_fights_unarmed_with_nothing_given() -> None:
    bf = _field({"id": "a", "faction": "red", "at": [0, 0, 0]})
    sheet = sheet_of(bf.by_id["a"])
    assert isinstance(sheet, Sheet)
    assert sheet.weapon is not None and sheet.weapon.type == "corpo_a_corpo"
    assert dict(sheet.chars) == {} and sheet.armour == 0


def test_unit_fields_give_the_templates_sample_sheet_with_the_units_own_weapon() -> None:
    ruleset = ruleset_for("cepheus")
    guard = ruleset.unit_fields("station_guard", None, None)["sheet"]
    assert isinstance(guard, dict) and guard["weapon"] == "pistola_automatica"
    raider = ruleset.unit_fields("human", "smg", "riot_armour")["sheet"]
    assert isinstance(raider, dict)
    assert (raider["weapon"], raider["armour"]) == ("mitraglietta", 8)
    assert ruleset.unit_fields(None, None, None) == ruleset.unit_fields("human", None, None)
    with pytest.raises(ScenarioError, match="'ogre' has no Cepheus sample sheet"):
        ruleset.unit_fields("ogre", None, None)


def test_grid_cover_grades_a_low_wall_half_and_a_wall_corner_quarter() -> None:
    # C-3. From (1.5, 3.5) every ray to a sample of (7, 3) crosses (6, 3): a half wall 5 cells
    # out, reach ceil(5/1) - 1 = 4 >= 1 = d(wall, target): 1/2, "muro basso".
    bf = _field(
        {"id": "a", "faction": "red", "at": [1, 3, 0]},
        {"id": "b", "faction": "blue", "at": [7, 3, 0]},
        cells=[{"at": [6, 3, 0], "obstacle": "half"}],
    )
    assert grid_cover(bf, bf.by_id["a"], bf.by_id["b"]) == "1/2"
    # A full cell at (6, 3) beside the line to (7, 4): the centre line is at y = 3.5 + 1/6 (x -
    # 1.5) > 4 from x = 4.5 on, clear; the ray to the sample at y = 4.1 is at y = 3.5 + 0.6/6.1
    # x 4.5 < 4 at x = 6, inside the wall: part of the target hidden, 1/4 "angolo di edificio".
    corner = _field(
        {"id": "a", "faction": "red", "at": [1, 3, 0]},
        {"id": "b", "faction": "blue", "at": [7, 4, 0]},
        cells=[{"at": [6, 3, 0], "obstacle": "full"}],
    )
    assert grid_cover(corner, corner.by_id["a"], corner.by_id["b"]) == "1/4"


def test_beside_target_counts_other_combatants_in_the_26_cells_but_not_neutrals() -> None:
    # 000:l.287 "a gittata Personale con un altro combattente"; C-2 Personale = 26 cells.
    bf = _field(
        {"id": "a", "faction": "red", "at": [1, 3, 0]},
        {"id": "b", "faction": "blue", "at": [7, 3, 0]},
        {"id": "n", "faction": "civ", "at": [8, 4, 0], "neutral": True},
    )
    a, b = bf.by_id["a"], bf.by_id["b"]
    assert not beside_target(bf, a, b)
    bf2 = _field(
        {"id": "a", "faction": "red", "at": [1, 3, 0]},
        {"id": "b", "faction": "blue", "at": [7, 3, 0]},
        {"id": "c", "faction": "red", "at": [8, 4, 0]},
    )
    assert beside_target(bf2, bf2.by_id["a"], bf2.by_id["b"])
