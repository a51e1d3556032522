"""Cepheus data files and sheets: the seed's tables as copied, samples marked, bad input named."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from game.rules import registry
from game.rules.cepheus.data import CepheusDataError, Tables, default_data, load_data
from game.rules.cepheus.sheet import parse_sheet
from game.rules.reader import ScenarioError

DATA = registry.ruleset("cepheus").directory


def test_the_burst_and_cover_tables_are_the_seeds(tables: Tables) -> None:
    # 000:l.251-256: 3 -> +1 / +1; 4 -> +1 / +1D6; 10 -> +2 / +2D6; 20 -> +3 / +3D6;
    # 100 -> +4 / +4D6. l.266-269: 1/4 -0, 1/2 -1, 3/4 -2, Completo -4.
    assert {n: (b.dm, b.extra) for n, b in tables.bursts.items()} == {
        3: (1, "1"), 4: (1, "1d6"), 10: (2, "2d6"), 20: (3, "3d6"), 100: (4, "4d6"),
    }  # fmt: skip
    assert tables.cover == (("none", 0), ("1/4", 0), ("1/2", -1), ("3/4", -2), ("full", -4))


def test_every_sample_weapon_and_sheet_is_marked_sample() -> None:
    with (DATA / "sheets.toml").open("rb") as f:
        raw = tomllib.load(f)
    for kind in ("weapons", "sheets"):
        for entry_id, entry in raw[kind].items():
            assert entry.get("sample") is True, f"{kind}.{entry_id}"


def test_every_periferie_template_and_weapon_has_a_cepheus_sample() -> None:
    # The shipped maps name periferie's ids; each must play under Cepheus.
    periferie = {}
    for name in ("templates", "weapons", "armour"):
        with (registry.ruleset("periferie").directory / f"{name}.toml").open("rb") as f:
            periferie[name] = set(tomllib.load(f))
    samples = default_data().samples
    assert set(samples.templates) == periferie["templates"]
    assert set(samples.weapon_ids) == periferie["weapons"]
    assert set(samples.armour) == periferie["armour"]


def _sheet(value: object) -> object:
    data = default_data()
    return parse_sheet(value, "entities[0].sheet", data.tables.kinds, data.samples.weapons, None)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"hp": 3}, r"entities\[0\]\.sheet: unknown field 'hp'"),
        ({"skills": {"pistola": 1}}, r"entities\[0\]\.sheet\.skills: unknown field 'pistola'"),
        ({"chars": {"end": 9}, "max": {"end": 7}}, r"sheet\.chars\.end: 9 is above"),
        ({"weapon": {"type": "arco", "damage": "2d6"}}, r"sheet\.weapon\.type: unknown value"),
        ({"weapon": {"type": "pistola", "damage": "2d8"}}, r"sheet\.weapon\.damage"),
        ({"weapon": "phaser"}, r"sheet\.weapon: unknown weapon id 'phaser'"),
        ({"armour": -1}, r"sheet\.armour: -1 is below"),
    ],
)
def test_bad_sheets_are_refused_naming_the_place(value: object, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        _sheet(value)


def test_a_sheet_defaults_and_weapon_dice() -> None:
    # RULESETS.md section 4: `max` defaults to `chars`; a missing skill or DM is 0.
    sheet = _sheet({"max": {"end": 7}, "weapon": {"type": "pistola", "damage": "3d6-3"}})
    assert sheet.char("end") == 7 and sheet.skill("mischia") == 0 and sheet.char_dm("dex") == 0
    assert sheet.weapon is not None and (sheet.weapon.dice, sheet.weapon.bonus) == (3, -3)
    assert sheet.weapon.damage == "3d6-3"


def test_a_broken_data_file_is_named(tmp_path: Path) -> None:
    folder = tmp_path
    (folder / "combat.toml").write_text(
        (DATA / "combat.toml").read_text().replace("dm = -4", "dm = 'x'")
    )
    (folder / "sheets.toml").write_text("")
    with pytest.raises(CepheusDataError, match=r"combat\.toml: cover\[4\]\.dm"):
        load_data(folder)
