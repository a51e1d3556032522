"""A Myst battle on the keep (maps/keep_gate.tmx) with a knight on horseback on the besiegers'
side (002:l.118-185; periferie's `knight` template plays Myst's sample `cavaliere`), fought to
the end by the computer with the soak test's invariants, and replayed from its journal to the
same state hash."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from game.battle.session import Session
from game.battle.setup import UnitSpec, setup_from_map
from game.ecs.components import RulesetSheet
from game.maps import load_map
from game.rules.myst.data import Sheet
from tests.battle import test_soak
from tests.battle.test_soak import MAPS, play_and_check

#: Myst's sample fighters take more commands than periferie's bound (test_ruleset_battles.py).
MAX_COMMANDS = 5000


def test_m1_a_keep_battle_with_a_knight_on_horseback_ends_and_replays_to_the_same_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(test_soak, "MAX_COMMANDS", MAX_COMMANDS)
    monkeypatch.setattr(test_soak, "MAX_ROUNDS", 400)
    loaded = load_map(MAPS / "keep_gate.tmx")
    factions = tuple(sorted({u.faction for u in loaded.units}))
    setup = replace(setup_from_map(loaded, seed=1, computer=factions), ruleset="myst")
    # A free cell of the besiegers' ground, two cells left of Garrick (15, 23, 0).
    knight = UnitSpec("Osric", "besiegers", (13, 23, 0), template="knight")
    setup = replace(setup, units=(*setup.units, knight))
    journal = tmp_path / "keep-myst-knight.jsonl"
    session = Session.new(setup, journal)
    try:
        sheet = session.battle.world.get("Osric", RulesetSheet).sheet
        # 002:l.128: the sample knight rides (Myst's sheets.toml, `cavaliere`).
        assert isinstance(sheet, Sheet) and sheet.mounted and sheet.sample == "cavaliere"
        given = play_and_check(session)
        b = session.battle
        assert b.over and given > 0 and b.winner is not None
        # The knight fought: it attacked or was attacked, on horseback (002:l.128).
        assert any(
            e.kind == "attack" and "Osric" in (e.data.get("unit"), e.data.get("target"))
            for e in b.log
        )
        # Issue 16: the computer rode and aimed at the horse in it (docs/rules.md, "Myst mounted
        # in battle"): the knight declared a gait, a soldier on foot named its horse.
        assert any(e.kind == "gait_declared" and e.data["unit"] == "Osric" for e in b.log)
        assert any(e.kind == "strike_horse" and e.data["horse"] for e in b.log)
        final = session.battle.state_hash()
    finally:
        session.close()
    lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()[1:]]
    assert len([line for line in lines if "cmd" in line]) == given
    reopened = Session.open(journal, for_append=False)
    try:
        assert reopened.battle.over and reopened.battle.state_hash() == final
    finally:
        reopened.close()
