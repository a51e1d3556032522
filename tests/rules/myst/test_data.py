"""Myst's TOML data loads into validated records; sheets refuse unknown keys by name."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from game.rules.myst.data import DIRECTORY, MystDataError, load, read_sheet


def test_the_improvised_weapons_are_the_seeds_table() -> None:
    # 002:l.205-212: "Forcone: Reach 7, danno 1d3 da punta", "Sedia: Reach 7, danno 1d2 (a 2
    # mani) da impatto", "Boccale: Reach 2, danno 1 da impatto".
    weapons = load().weapons
    assert (weapons["forcone"].reach, weapons["forcone"].damage, weapons["forcone"].type) == (
        7,
        "1d3",
        "punta",
    )
    assert weapons["sedia"].hands == 2 and weapons["sedia"].damage_max == 2
    assert weapons["boccale"].damage_max == 1 and weapons["boccale"].improvised
    assert sum(w.improvised for w in weapons.values()) == 8


def test_every_template_the_maps_use_has_a_sample_sheet() -> None:
    data = load()
    for template in ("human", "station_guard", "void_marine", "scavenger", "maintenance_drone"):
        assert data.templates[template] in data.samples


def test_a_sheet_refuses_an_unknown_key_by_name() -> None:
    data = load()
    with pytest.raises(MystDataError, match=r"here: unknown field 'strenght'"):
        read_sheet({"strenght": 30}, "here", data.defaults, data.weapons, data.samples)


def test_a_sheet_refuses_strength_outside_the_table() -> None:
    data = load()
    with pytest.raises(MystDataError, match=r"here.strength: 51 is outside 1..50"):
        read_sheet({"strength": 51}, "here", data.defaults, data.weapons, data.samples)


def test_a_sheet_may_start_from_a_sample_and_override_it() -> None:
    data = load()
    sheet = read_sheet(
        {"sample": "soldato", "attack": 60}, "s", data.defaults, data.weapons, data.samples
    )
    assert (sheet.attack, sheet.defence, sheet.weapon.id, sheet.sample) == (
        60,
        50,
        "spada",
        "soldato",
    )


def test_the_assumed_base_is_marked_assumed_in_the_toml() -> None:
    with (DIRECTORY / "rules.toml").open("rb") as f:
        data = tomllib.load(f)
    assert data["base"]["assumed"] is True and data["defaults"]["assumed"] is True
    assert "assumed" not in data["margin"]  # the seed's own numbers are not assumptions


def test_a_broken_strength_table_is_refused_naming_the_file(tmp_path: Path) -> None:
    for name in ("weapons.toml", "sheets.toml"):
        (tmp_path / name).write_text((DIRECTORY / name).read_text(encoding="utf-8"))
    text = (DIRECTORY / "rules.toml").read_text(encoding="utf-8")
    (tmp_path / "rules.toml").write_text(text.replace("low = 26", "low = 27"))
    with pytest.raises(MystDataError, match=r"rules.toml \[\[strength\]\]: the rows must cover"):
        load(tmp_path)
