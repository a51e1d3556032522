"""The fantasy TOML data loads into validated records; assumed tables are marked assumed."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from game.rules.fantasy.data import DIRECTORY, FantasyDataError, load


def test_the_seeds_numbers_and_the_assumed_tables() -> None:
    data = load()
    assert data.vpb_human == 8  # 003:l.77
    assert data.critical_multiple == 2 and data.critical_failure_divisor == 10  # l.192, l.201
    assert data.movement == 6  # F-3
    assert data.sections == ("lieve", "serio", "grave", "critico", "mortale")  # 003:l.183
    with (DIRECTORY / "rules.toml").open("rb") as f:
        raw = tomllib.load(f)
    for table in ("movement", "location", "sections", "ranged", "defaults"):
        assert raw[table]["assumed"] is True
    assert "assumed" not in raw["protection"]


def test_every_template_the_maps_use_has_a_sample_sheet() -> None:
    data = load()
    for template in ("human", "station_guard", "void_marine", "scavenger", "maintenance_drone"):
        assert data.templates[template] in data.samples


def test_a_location_table_that_does_not_end_at_100_is_refused(tmp_path: Path) -> None:
    (tmp_path / "sheets.toml").write_text((DIRECTORY / "sheets.toml").read_text("utf-8"))
    text = (DIRECTORY / "rules.toml").read_text("utf-8").replace("legs = 100", "legs = 99")
    (tmp_path / "rules.toml").write_text(text)
    with pytest.raises(FantasyDataError, match=r"rules.toml \[location\]: .* end at 100"):
        load(tmp_path)
