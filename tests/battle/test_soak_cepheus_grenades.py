"""Soak test of Cepheus throws (issue 15): a computer-vs-computer battle under Cepheus on a
shipped map whose raiders all carry frag grenades (the sample `granata_a_frammentazione`,
000:l.351-353) ends keeping tests/battle/test_soak.py's invariants after every command, throws
and blasts along the way, and its journal reopens to the same state hash."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.maps import load_map
from tests.battle.test_soak import play_and_check

MAPS = Path(__file__).resolve().parents[2] / "maps"


@pytest.mark.parametrize("name", ["station_interior", "surface_outpost"])
def test_a_cepheus_battle_with_grenades_ends_throwing_and_replays(name, tmp_path) -> None:
    loaded = load_map(MAPS / f"{name}.tmx")
    factions = tuple(sorted({u.faction for u in loaded.units}))
    setup = replace(setup_from_map(loaded, seed=5, computer=factions), ruleset="cepheus")
    armed = tuple(
        replace(u, weapon="frag_grenade") if u.faction == factions[0] else u for u in setup.units
    )
    setup = replace(setup, units=armed)
    journal = tmp_path / f"{name}.jsonl"
    session = Session.new(setup, journal)
    try:
        given = play_and_check(session)
        b = session.battle
        assert b.over and given > 0
        throws = [e for e in b.log if e.kind == "throw"]
        assert throws and all("effect" in e.data for e in throws)  # C-1's roll, not a d100
        final = b.state_hash()
    finally:
        session.close()
    reopened = Session.open(journal, for_append=False)
    try:
        assert reopened.battle.over and reopened.battle.state_hash() == final
    finally:
        reopened.close()
