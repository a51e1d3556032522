"""A d20 sheet from a scenario: sample sheets, overrides, defaults, refusals by name."""

from __future__ import annotations

import pytest

from game.rules.d20.data import load_d20
from game.rules.d20.sheet import read_sheet, read_weapon
from game.rules.reader import ScenarioError

DATA = load_d20()


def test_an_empty_sheet_is_the_bare_3_5_base() -> None:
    s = read_sheet({}, "sheet", DATA)
    assert (s.attack_melee, s.attack_ranged, s.ac, s.dex_ac, s.reach, s.speed) == (
        0,
        0,
        10,
        0,
        1,
        6,
    )
    assert s.weapon.kind == "melee" and s.conditions == frozenset()


def test_a_sample_sheet_by_id_or_as_the_template_under_overrides() -> None:
    guard = read_sheet("station_guard", "sheet", DATA)
    assert (guard.attack_ranged, guard.ac, guard.weapon.id) == (4, 15, "pistol")
    tired = read_sheet({"template": "station_guard", "ac": 13, "conditions": ["scosso"]}, "s", DATA)
    assert (tired.attack_ranged, tired.ac, tired.conditions) == (4, 13, frozenset({"scosso"}))


def test_the_dex_modifier_defaults_to_the_dex_bonus_in_ac() -> None:
    assert read_sheet({"dex_ac": 3}, "sheet", DATA).dex == 3
    assert read_sheet({"dex_ac": 3, "dex": 4}, "sheet", DATA).dex == 4


def test_a_weapon_is_a_kind_an_id_or_an_object() -> None:
    assert read_weapon("crossbow", "w", DATA).kind == "crossbow"
    assert read_weapon("longsword", "w", DATA).damage == "1d8"
    assert read_weapon({"kind": "bow", "damage": "1d6"}, "w", DATA).kind == "bow"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"armour": 3}, r"entities\[0\].sheet: unknown field 'armour'"),
        ({"conditions": ["prono"]}, r"sheet.conditions\[0\]: .*'prono'"),
        ({"weapon": "rayGun"}, r"sheet.weapon: unknown weapon 'rayGun'"),
        ({"weapon": {"kind": "melee", "damage": "2q"}}, r"sheet.weapon.damage"),
        ({"template": "dragon"}, r"sheet.template: unknown d20 sample sheet 'dragon'"),
        ({"attack": {"melee": 1, "thrown": 2}}, r"sheet.attack: unknown field 'thrown'"),
        ({"reach": -1}, r"sheet.reach"),
    ],
)
def test_bad_sheet_input_is_refused_naming_the_place(spec: object, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        read_sheet(spec, "entities[0].sheet", DATA)
