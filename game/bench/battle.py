"""`tessera bench`, the battle's goals: fog after a move (idle and with the other core busy),
a computer player's whole turn, and reopening a 500-command journal.

Everything runs through the engine as a game does: a `Battle` on the bench's seeded 128x128x8
deck with its 16 units in two factions, commands through `Session.submit`, and the journal
written by a computer-against-computer battle (with its snapshots, as a game writes it) then
reopened with `Session.open`; and, for information, the same journal without its snapshots
replayed whole, cut just before its last snapshot, and the GM's undo of its last command.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np

from game.battle import commands as cmd
from game.battle.engine import GM
from game.battle.journal import JournalWriter
from game.battle.session import SNAPSHOT_EVERY, Session
from game.battle.setup import BattleSetup, UnitSpec
from game.bench.grid import SEED, Goal, battlefield
from game.grid.los import set_view_threads, view_threads
from game.grid.model import Grid
from game.rules.data import load_rules
from game.tactics import answers as tactics

#: Journal length of the replay goal.
JOURNAL_COMMANDS = 500
#: Both sides as station security (pistols): a battle long enough for the journal goal.
TEMPLATES = {"red": "station_guard", "blue": "station_guard"}

GOALS = (
    Goal("fog_move", "after a move: fog + sightings, every faction", 1 / 60, stat="p95"),
    Goal("fog_move_busy", "the same, the other core busy", 1 / 60, stat="p95"),
    # The same with the other thread setting (one thread / every core): the choice made.
    Goal("fog_move_busy_other", "the same, busy, other thread setting", None, stat="p95"),
    Goal("computer_turn", "a computer player's whole turn", 0.1),
    # What a player reopening a save pays: the last snapshot restored, the lines after it.
    Goal("replay", "reopening a 500-command journal (snapshots)", 1.0),
    # The most lines a snapshot leaves to replay: the journal cut before its last snapshot.
    Goal("replay_worst", "the same cut before its last snapshot", None),
    Goal("replay_full", "replaying 500 commands (no snapshots)", None),
    Goal("undo_last", "the GM's undo of the 500th command", None),
    Goal("snapshot", "taking and journaling one snapshot", None),
)


def battle_setup(seed: int = SEED) -> tuple[Grid, BattleSetup]:
    """The bench deck with its units as a battle: both factions played by the computer."""
    grid, occupants = battlefield(seed)
    units = tuple(UnitSpec(o.id, o.faction, o.cell, TEMPLATES[o.faction]) for o in occupants)
    setup = BattleSetup(
        map_path="<bench deck>",
        map_sha256="-",  # no map file: the deck is built in memory
        seed=seed,
        units=units,
        computer=tuple(sorted(TEMPLATES)),
    )
    return grid, setup


@contextmanager
def other_core_busy() -> Iterator[None]:
    """A child process spinning for as long as the block runs: the window's loop stands in."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)  # let it start spinning
        yield
    finally:
        spinner.kill()
        spinner.wait()


@contextmanager
def view_threads_set(count: int) -> Iterator[None]:
    before = view_threads()
    set_view_threads(count)
    try:
        yield
    finally:
        set_view_threads(before)


class FogTimer:
    """Times the battle's own `Vision.update` calls while `recording` is set."""

    def __init__(self, session: Session) -> None:
        self.samples: list[float] = []
        self.recording = False
        vision = session.battle.vision
        real = vision.update

        def update(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            newly = real(*args, **kwargs)
            if self.recording:
                self.samples.append(time.perf_counter() - start)
            return newly

        setattr(vision, "update", update)  # noqa: B010 - an instance attribute shadows the method


def fog_after_moves(moves: int, seed: int = SEED) -> list[float]:
    """Seconds of the fog update after each of `moves` moves: the acting unit walks to a random
    cell it can reach (as its side knows the map), then ends its turn."""
    grid, setup = battle_setup(seed)
    gen = np.random.default_rng(seed)
    session = Session(setup, grid, load_rules(), None)
    timer = FogTimer(session)
    try:
        b = session.battle
        for _ in range(4 * moves):
            if len(timer.samples) >= moves or b.over or b.active is None:
                break
            unit = b.active
            me = b.sheet(unit)
            cells, _allow = tactics.reachable_cells(b.known_field(me.faction), me)
            free = sorted(c for c in cells if b.bf.at(c) is None)
            if free:
                timer.recording = True
                session.submit(cmd.Move(unit, free[int(gen.integers(len(free)))]), "computer")
                timer.recording = False
            while b.pending is not None:  # a reaction offered on the way: let it pass
                session.submit(cmd.React(b.pending.reactor, take=False), "computer")
            if b.active == unit:
                session.submit(cmd.EndTurn(unit), "computer")
    finally:
        session.close()
    return timer.samples


def computer_battle(
    journal: Path,
    commands: int,
    seed: int = SEED,
    snapshots: list[float] | None = None,
    snapshot_every: int = SNAPSHOT_EVERY,
) -> list[float]:
    """The computer plays both sides for `commands` commands, journaled to `journal` with a
    snapshot every `snapshot_every` commands (the seconds of each go to `snapshots`); answer the
    seconds of each whole turn (every command from the turn's start to the next unit's)."""
    grid, setup = battle_setup(seed)
    session = Session(
        setup,
        grid,
        load_rules(),
        JournalWriter.create(journal, setup),
        snapshot_every=snapshot_every,
    )
    real_snapshot = session.take_snapshot

    def timed_snapshot(*args: Any) -> None:
        start = time.perf_counter()
        real_snapshot(*args)
        if snapshots is not None and len(session.history) % snapshot_every == 0:
            snapshots.append(time.perf_counter() - start)

    setattr(session, "take_snapshot", timed_snapshot)  # noqa: B010 - an instance attribute
    turns: list[float] = []
    try:
        b = session.battle
        given = 0
        while given < commands and not b.over:
            unit = b.active
            start = time.perf_counter()
            while given < commands and not b.over and b.active == unit:
                gave = session.play_computer(limit=1)
                if not gave:
                    raise AssertionError("the computer gave no command on its own turn")
                given += gave
            if b.active != unit or b.over:
                turns.append(time.perf_counter() - start)
    finally:
        session.close()
    return turns


@contextmanager
def deck_as_map(grid: Grid) -> Iterator[None]:
    """The deck is no map file: the map loader hands it over (its own cost is the map's)."""
    with mock.patch("game.battle.session.load_battle_map", lambda setup, where: (grid, "")):
        yield


def replay_seconds(journal: Path, grid: Grid, runs: int) -> list[float]:
    """Seconds of `Session.open` on the journal, `runs` times."""
    times = []
    with deck_as_map(grid):
        for _ in range(runs):
            start = time.perf_counter()
            session = Session.open(journal, for_append=False)
            times.append(time.perf_counter() - start)
            session.close()
    return times


def undo_seconds(journal: Path, grid: Grid, runs: int) -> list[float]:
    """Seconds of the GM's undo of the journal's last command, `runs` times."""
    times = []
    with deck_as_map(grid):
        for _ in range(runs):
            session = Session.open(journal, for_append=False)
            start = time.perf_counter()
            refusal = session.undo(GM)
            times.append(time.perf_counter() - start)
            session.close()
            if refusal is not None:
                raise AssertionError(f"the GM's undo was refused: {refusal.code}")
    return times


def variants(journal: Path, folder: Path) -> tuple[Path, Path]:
    """The journal without its snapshot lines, and the journal cut before its last command
    (its last snapshot goes with it: reopening starts from the one before)."""
    lines = journal.read_bytes().splitlines(keepends=True)
    plain = folder / "plain.journal"
    plain.write_bytes(b"".join(line for line in lines if b'"snapshot":' not in line))
    last_command = max(i for i, line in enumerate(lines) if b'"cmd":' in line)
    cut = folder / "cut.journal"
    cut.write_bytes(b"".join(lines[:last_command]))
    return plain, cut


def journal_length(journal: Path) -> int:
    """The commands in the journal (no undo here): its lines but the header and snapshots."""
    with journal.open("rb") as f:
        return sum(1 for line in f if b'"cmd":' in line)


def p95(samples: list[float]) -> float:
    return float(np.percentile(samples, 95))


def measure_battle(quick: bool = False) -> dict[str, float]:
    """Each battle goal's figure (p95 or median seconds, as its goal says)."""
    moves = 12 if quick else 120
    figures: dict[str, float] = {}
    chosen = view_threads()
    other = 1 if chosen > 1 else max(2, os.cpu_count() or 1)
    figures["fog_move"] = p95(fog_after_moves(moves))
    with other_core_busy():
        figures["fog_move_busy"] = p95(fog_after_moves(moves))
        with view_threads_set(other):
            figures["fog_move_busy_other"] = p95(fog_after_moves(moves))
    commands = 40 if quick else JOURNAL_COMMANDS
    # A quick run keeps the snapshots' spacing in proportion (every 8 of 40 commands).
    every = max(1, SNAPSHOT_EVERY * commands // JOURNAL_COMMANDS)
    runs = 1 if quick else 3
    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as folder:
        journal = Path(folder) / "bench.journal"
        snapshots: list[float] = []
        turns = computer_battle(journal, commands, snapshots=snapshots, snapshot_every=every)
        figures["computer_turn"] = statistics.median(turns)
        figures["snapshot"] = statistics.median(snapshots)
        grid, _setup = battle_setup()
        plain, cut = variants(journal, Path(folder))
        # Reopening from a snapshot costs the lines after it, not the journal's length: these
        # are not scaled. Replaying a shorter journal whole (quick runs) is scaled to 500.
        figures["replay"] = statistics.median(replay_seconds(journal, grid, runs))
        figures["replay_worst"] = statistics.median(replay_seconds(cut, grid, runs))
        figures["undo_last"] = statistics.median(undo_seconds(journal, grid, runs))
        full = statistics.median(replay_seconds(plain, grid, runs))
        figures["replay_full"] = full * JOURNAL_COMMANDS / journal_length(journal)
    return figures
