"""Soak test under Cepheus (seed 000): a computer-vs-computer battle on every shipped map played
to its end with the invariants of tests/battle/test_soak.py after every command (the computer's
every command accepted, nobody acting out of turn, the order holding every living combatant),
and its journal reopened to the same state hash. The units' own Cepheus sheets (C-5 health in
the RulesetSheet component) must end consistent with the battle's facts: a unit the shared
Wounds calls dead has three characteristics at 0, an unconscious one is out of the fight.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.ecs.components import RulesetSheet, Wounds
from game.maps import load_map
from game.rules.cepheus.sheet import Sheet
from game.tactics.rulesets.cepheus_battle import BATTLE, state_of
from tests.battle.test_soak import SHIPPED, play_and_check

MAPS = Path(__file__).resolve().parents[2] / "maps"


@pytest.mark.parametrize("name", SHIPPED)
def test_a_cepheus_computer_battle_on_each_shipped_map_ends_keeping_every_invariant_and_replays(
    name, tmp_path
) -> None:
    loaded = load_map(MAPS / f"{name}.tmx")
    factions = tuple(sorted({u.faction for u in loaded.units}))
    setup = replace(setup_from_map(loaded, seed=3, computer=factions), ruleset="cepheus")
    journal = tmp_path / f"{name}.jsonl"
    session = Session.new(setup, journal)
    try:
        b = session.battle
        assert b.ruleset is BATTLE
        given = play_and_check(session)
        b = session.battle
        assert b.over and given > 0
        assert any(e.kind == "damage" for e in b.log)
        for unit in b.world.unit_ids:
            own = b.world.get(unit, RulesetSheet).sheet
            assert isinstance(own, Sheet)
            conditions = b.world.get(unit, Wounds).health.conditions
            state = state_of(own)
            assert ("dead" in conditions) == (state == "dead"), (unit, state, conditions)
            assert ("out_of_combat" in conditions) == (state == "unconscious"), (unit, state)
        final = b.state_hash()
    finally:
        session.close()
    lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()[1:]]
    assert len([line for line in lines if "cmd" in line]) == given
    reopened = Session.open(journal, for_append=False)
    try:
        assert reopened.battle.over
        assert reopened.battle.state_hash() == final
    finally:
        reopened.close()
