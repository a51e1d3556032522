"""Soak test: whole battles on every shipped map, the computer on all sides, invariants after
every command.

What is tested: that the engine and the computer, left to play a battle to its end, never break
the battle's invariants — no two units in a cell; wounds on the P-VUL-2 ladder (3 light make a
grave, 2 grave a mortal) with valid conditions; dead units off the map and out of the order; an
order holding every living combatant on the map exactly once, with the active unit in it; no
unit starting two turns in one round nor acting outside its own turn — and that the battle ends
within a bound. The computer's every command must be accepted (a refusal would be a computer
bug the session's fallback hides). The journal written along the way reopens to the same state.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from game.battle import commands as cmd
from game.battle.ai import choose
from game.battle.engine import Battle
from game.battle.session import SNAPSHOT_EVERY, Session
from game.battle.setup import setup_from_map, with_ruleset
from game.ecs.components import Fallen, Motion, Outsider, Position, Sheet, Waiting, Wounds
from game.maps import load_map
from game.rules.data import CONDITIONS

MAPS = Path(__file__).resolve().parents[2] / "maps"
SHIPPED = ("station_interior", "surface_outpost", "hull_breach", "keep_gate")
#: Seeds per map: different battles (each plays in a second or two; the first is journaled).
SEEDS = (1, 2)
#: No shipped battle needs nearly this many commands or rounds; more means it is not ending.
MAX_COMMANDS = 1500
MAX_ROUNDS = 100


def check_units(b: Battle) -> None:
    """Cells, wounds and the dead (checked whatever the battle's state)."""
    cells: dict[tuple[int, int, int], str] = {}
    for unit in b.world.unit_ids:
        health = b.world.get(unit, Wounds).health
        # P-VUL-2: 3 light become a grave, 2 grave a mortal; a mortal absorbs the others.
        assert 0 <= health.light < 3, (unit, health)
        assert 0 <= health.grave < 2, (unit, health)
        assert health.mortal in (0, 1), (unit, health)
        assert not (health.mortal and (health.light or health.grave)), (unit, health)
        assert health.conditions <= set(CONDITIONS), (unit, health)
        assert 0 <= health.death_successes <= 3 and 0 <= health.death_failures <= 3, unit
        if "stabilised" in health.conditions:  # P-DEATH-1: stabilised means out of combat
            assert health.mortal and "out_of_combat" in health.conditions, (unit, health)
        if health.death_failures == 3:  # P-DEATH-1: three failures, dead
            assert "dead" in health.conditions, (unit, health)
        position = b.world.try_get(unit, Position)
        if "dead" in health.conditions:
            assert position is None, f"{unit} is dead but still on the map"
            assert b.world.has(unit, Fallen), unit
            assert b.initiative.entry(unit) is None, f"{unit} is dead but in the order"
            assert unit not in {e.entity_id for e in b.initiative.pending}, unit
        if position is not None:
            assert b.grid.in_bounds(position.cell), (unit, position.cell)
            assert position.cell not in cells, (
                f"{unit} and {cells[position.cell]} share {position.cell}"
            )
            cells[position.cell] = unit
            assert not b.world.has(unit, Waiting), f"{unit} is both on the map and waiting"
        motion = b.world.get(unit, Motion)
        if any(motion.velocity) or motion.in_flight:  # P-ZERO-1/2: microgravity only
            assert b.grid.microgravity, unit
            assert b.world.get(unit, Sheet).thrusters or motion.flight is not None, unit
        assert motion.in_flight == (motion.flight is not None), (unit, motion)


def check_order(b: Battle) -> None:
    """Every living combatant on the map is in the order (or joining it) exactly once."""
    order = [e.entity_id for e in b.initiative.visible_order(True)]
    order += [e.entity_id for e in b.initiative.pending]
    assert len(order) == len(set(order)), f"a unit is twice in the order: {order}"
    living = {
        u
        for u in b.world.unit_ids
        if b.world.has(u, Position)
        and not b.world.has(u, Outsider)
        and "dead" not in b.world.get(u, Wounds).health.conditions
    }
    assert set(order) == living, f"order and living combatants differ: {set(order) ^ living}"
    assert b.active is not None, "the battle goes on but nobody is acting"
    assert b.active in order
    if b.pending is not None:
        assert b.pending.reactor in order and b.pending.mover in order


class TurnLedger:
    """Reads the log as it grows: which units started a turn in which round."""

    def __init__(self) -> None:
        self.read = 0
        self.started: set[tuple[int, str]] = set()

    def scan(self, b: Battle) -> None:
        for event in b.log[self.read :]:
            if event.kind == "turn_started":
                key = (event.data["round"], event.data["unit"])
                assert key not in self.started, f"{key[1]} starts a second turn in round {key[0]}"
                self.started.add(key)
        self.read = len(b.log)


def play_and_check(
    session: Session, tweak: Callable[[Battle, cmd.Command], cmd.Command] | None = None
) -> int:
    """The computer plays every side to the end (each command it chooses first passed through
    `tweak`); the invariants are checked after each command. Answers the number of commands
    given."""
    ledger = TurnLedger()
    b = session.battle
    ledger.scan(b)
    check_units(b)
    check_order(b)
    given = 0
    while not session.battle.over:
        b = session.battle
        assert given < MAX_COMMANDS, f"no end after {given} commands (round {b.round})"
        assert b.round <= MAX_ROUNDS, f"no end after {MAX_ROUNDS} rounds"
        actor = b.pending.reactor if b.pending is not None else b.active
        assert actor is not None
        command = choose(b, actor)
        if tweak is not None:
            command = tweak(b, command)
        if not isinstance(command, cmd.React):
            # Acting only in its own turn, once it has begun, and fit to act (P-VUL-3).
            assert actor == b.active and (b.round, actor) in ledger.started
            assert not {"dead", "out_of_combat"} & b.sheet(actor).health.conditions
        outcome = session.submit(command, b.controller_of(b.faction_of(actor)))
        assert outcome.accepted, f"the computer's {command} was refused: {outcome.refusal}"
        given += 1
        ledger.scan(session.battle)
        check_units(session.battle)
        if not session.battle.over:
            check_order(session.battle)
    return given


@pytest.fixture(scope="module")
def loaded_maps():
    return {name: load_map(MAPS / f"{name}.tmx") for name in SHIPPED}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", SHIPPED)
def test_the_computer_plays_a_whole_battle_on_each_shipped_map_keeping_every_invariant(
    name, seed, loaded_maps, tmp_path
) -> None:
    """The first seed's battle is journaled too, and reopened at the end to the same state."""
    loaded = loaded_maps[name]
    factions = tuple(sorted({u.faction for u in loaded.units}))
    journal = tmp_path / f"{name}.jsonl" if seed == SEEDS[0] else None
    # Seed 001's invariants, on every map whatever its own ruleset (the keep's is fantasy: its
    # battles are played in tests/battle/test_ruleset_battles.py).
    setup = with_ruleset(setup_from_map(loaded, seed=seed, computer=factions), "periferie")
    session = Session.new(setup, journal)
    try:
        given = play_and_check(session)
        b = session.battle
        assert b.over and given > 0
        # The winner is the one side with a unit fit to fight, as the battle's end rule says.
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
    if journal is None:
        return
    lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()[1:]]
    assert len([line for line in lines if "cmd" in line]) == given
    # A snapshot after every SNAPSHOT_EVERY commands: reopening starts from the last one.
    snapshots = [line["n"] for line in lines if "snapshot" in line]
    assert snapshots == list(range(SNAPSHOT_EVERY, given + 1, SNAPSHOT_EVERY))
    reopened = Session.open(journal, for_append=False)
    try:
        assert reopened.battle.over
        assert reopened.battle.state_hash() == final
    finally:
        reopened.close()


def test_the_computer_plays_hull_breach_with_the_dampers_off_half_the_time(loaded_maps) -> None:
    """P-ZERO-2 in a whole battle: every other thrusters move keeps the dampers off, so units
    drift at the start of their turns, collide and cancel velocities; the invariants hold
    after every command and the battle still ends."""
    loaded = loaded_maps["hull_breach"]
    factions = tuple(sorted({u.faction for u in loaded.units}))
    setup = with_ruleset(setup_from_map(loaded, seed=6, computer=factions), "periferie")
    session = Session.new(setup, None)
    moves = [0]

    def dampers_off(b: Battle, command: cmd.Command) -> cmd.Command:
        if isinstance(command, cmd.Move) and command.mode == "thrusters":
            moves[0] += 1
            if moves[0] % 2:
                return replace(command, dampers=False)
        return command

    try:
        play_and_check(session, dampers_off)
        drifts = [e for e in session.battle.log if e.kind == "drifted"]
        assert session.battle.over and moves[0] > 4 and drifts
    finally:
        session.close()
