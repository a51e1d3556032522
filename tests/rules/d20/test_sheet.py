"""A d20 sheet from a scenario: sample sheets, overrides, defaults, refusals by name."""

from __future__ import annotations

import pytest

from game.ecs.components import sheet_from_json, sheet_to_json
from game.rules.d20.data import load_d20
from game.rules.d20.sheet import max_hit_points, read_sheet, read_weapon
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
        ({"max_hit_points": 0}, r"sheet.max_hit_points"),
        ({"hit_points": 13, "max_hit_points": 12}, r"sheet.hit_points: 13 hit points .* 12"),
    ],
)
def test_bad_sheet_input_is_refused_naming_the_place(spec: object, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        read_sheet(spec, "entities[0].sheet", DATA)


def test_the_full_hit_points_are_the_samples_at_the_start_and_a_scenario_may_state_them() -> None:
    # Issue 16 (the card's "8 of 13"): sheets.toml station_guard `hit_points = 13`, human 8;
    # base.toml [sheet] `hit_points = 10` for a sheet without a sample (assumed, D-2's base).
    assert max_hit_points(DATA, read_sheet("station_guard", "s", DATA)) == 13
    assert max_hit_points(DATA, read_sheet({}, "s", DATA)) == 10
    # A scenario's hit points are the ones it starts with, so its full ones: a 20-hit-point
    # sheet without a sample has 20; a human stated at 5 has 5 (a wounded start states both).
    assert max_hit_points(DATA, read_sheet({"hit_points": 20}, "s", DATA)) == 20
    assert max_hit_points(DATA, read_sheet({"template": "human", "hit_points": 5}, "s", DATA)) == 5
    hurt = read_sheet({"template": "human", "hit_points": 3, "max_hit_points": 8}, "s", DATA)
    assert (hurt.hit_points, max_hit_points(DATA, hurt)) == (3, 8)
    # Starting dying (D-2: -1..-9) without a maximum: the sample's 8.
    dying = read_sheet({"template": "human", "hit_points": -2}, "s", DATA)
    assert (dying.hit_points, max_hit_points(DATA, dying)) == (-2, 8)


def test_a_sample_sheets_written_state_has_no_maximum_so_older_journals_keep_their_hashes() -> None:
    # The field is written only when it is not the sample's own (OMIT_DEFAULT, as Myst's later
    # fields): a sample sheet's state is the bytes it was before issue 16.
    guard = read_sheet("station_guard", "s", DATA)
    written = sheet_to_json(guard)
    assert "hit_points_max" not in written["fields"]
    assert sheet_from_json(written) == guard
    stated = read_sheet({"template": "human", "hit_points": 3, "max_hit_points": 8}, "s", DATA)
    assert "hit_points_max" not in sheet_to_json(stated)["fields"]  # 8 is the human's own
    big = read_sheet({"hit_points": 20}, "s", DATA)
    assert sheet_to_json(big)["fields"]["hit_points_max"] == 20
    assert sheet_from_json(sheet_to_json(big)) == big
