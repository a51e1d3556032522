"""Myst (M-2) and the dice-step fantasy system (F-1..F-3) played to the end by the computer on
every shipped map, with the soak test's invariants after every command, the journal reopened
to the same state hash."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.ecs.components import Outsider, RulesetSheet, Wounds
from game.maps import load_map
from tests.battle import test_soak
from tests.battle.test_soak import MAPS, SHIPPED, play_and_check

#: Myst's sample fighters take more commands than periferie's bound.
MAX_COMMANDS = 5000
#: The fantasy samples are tuned (docs/rules.md, "Dice-step fantasy in battle") so that every
#: shipped map's computer battle ends in a few hundred commands (under 300 at seeds 1 and 2).
MAX_FANTASY_COMMANDS = 400


@pytest.mark.parametrize("ruleset", ["myst", "fantasy"])
@pytest.mark.parametrize("name", SHIPPED)
def test_the_computer_plays_a_whole_battle_of_the_ruleset_on_each_shipped_map(
    name: str, ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bound = MAX_FANTASY_COMMANDS if ruleset == "fantasy" else MAX_COMMANDS
    monkeypatch.setattr(test_soak, "MAX_COMMANDS", bound)
    monkeypatch.setattr(test_soak, "MAX_ROUNDS", 400)
    loaded = load_map(MAPS / f"{name}.tmx")
    factions = tuple(sorted({u.faction for u in loaded.units}))
    setup = replace(setup_from_map(loaded, seed=1, computer=factions), ruleset=ruleset)
    journal = tmp_path / f"{name}-{ruleset}.jsonl"
    session = Session.new(setup, journal)
    try:
        given = play_and_check(session)
        b = session.battle
        assert b.over and given > 0
        # Every unit carries its ruleset sheet (M-2, F-3 sample sheets by template).
        assert all(b.world.has(u, RulesetSheet) for u in b.world.unit_ids)
        fit = {
            b.faction_of(u)
            for u in b.world.unit_ids
            if b.on_map(u)
            and not b.world.has(u, Outsider)
            and not {"dead", "out_of_combat"} & b.world.get(u, Wounds).health.conditions
        }
        assert b.winner in fit and len(fit) == 1
        final = b.state_hash()
    finally:
        session.close()
    lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()[1:]]
    assert len([line for line in lines if "cmd" in line]) == given
    reopened = Session.open(journal, for_append=False)
    try:
        assert reopened.battle.over and reopened.battle.state_hash() == final
    finally:
        reopened.close()
