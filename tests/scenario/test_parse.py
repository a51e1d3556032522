"""Scenario parsing in process: weapons given inline or by id (QUERY-FORMAT.md `weapon`)."""

from __future__ import annotations

import pytest

from game.rules.data import load_rules
from game.rules.reader import ScenarioError
from game.tactics.rulesets.periferie import weapon_ref


def test_p_vul_3_an_inline_scenario_weapon_carries_its_on_hit_conditions() -> None:
    weapon = weapon_ref(
        {"hit": 60, "damage": "1d8", "type": "ustione", "kind": "thrown", "medium_range": 4,
         "long_range": 9, "on_hit": ["burning"]},
        "entities[0].weapon",
        load_rules(),
    )  # fmt: skip
    assert weapon is not None
    assert weapon.on_hit == ("burning",)


def test_p_vul_3_a_weapon_by_id_brings_the_data_files_on_hit() -> None:
    weapon = weapon_ref("flash_grenade", "entities[0].weapon", load_rules())
    assert weapon is not None
    assert weapon.on_hit == ("blinded",)


def test_p_vul_3_an_inline_weapon_with_an_unknown_on_hit_condition_names_the_place() -> None:
    with pytest.raises(ScenarioError) as caught:
        weapon_ref(
            {"hit": 60, "damage": "1d8", "type": "ustione", "on_hit": ["sleepy"]},
            "entities[3].weapon",
            load_rules(),
        )
    assert str(caught.value).startswith(
        "entities[3].weapon: weapon 'inline weapon': field 'on_hit[0]': unknown condition 'sleepy'"
    )
