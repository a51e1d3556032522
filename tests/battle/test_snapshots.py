"""Snapshots: a battle written down whole and restored plays on exactly as the original, and a
journal with snapshots reopens (and undoes) as the same journal replayed from its start would.

What is tested: `Battle.restore(snapshot())` after every command of whole computer battles on
each shipped map and on the bench deck has the original's state hash, and (every few commands)
writes the same snapshot again, shows every player the same view and plays the next 20 commands
with the same dice, events and hashes; the GM's edited cells, queued dice, a pending reaction and
an improvised action waiting for a ruling survive it. A journal written with snapshots and the
same battle written without reopen, after every line, to the same state, history and log, undo
and redo included; reopening starts from the last snapshot still valid; a damaged, misplaced or
forged snapshot line is refused naming its line, a torn one is dropped and written again; undo
across a snapshot is exact; a version-1 journal (no snapshots) still opens and is continued in
version 1.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from game.battle import commands as cmd
from game.battle.ai import choose
from game.battle.engine import GM, Battle, SnapshotError
from game.battle.journal import VERSION, JournalError, read_journal, snapshot_line
from game.battle.session import Session
from game.battle.setup import BattleSetup, UnitSpec, setup_from_map
from game.battle.view import player_view
from game.grid.model import Grid
from game.maps import load_map
from game.rules.data import load_rules

MAPS = Path(__file__).resolve().parents[2] / "maps"
SHIPPED = ("station_interior", "surface_outpost", "hull_breach")
#: To keep the suite quick, the snapshot after each command is restored and its hash compared
#: on the shipped maps (every 10th of the bench deck's), and the restored battle is followed for
#: FOLLOW commands (its snapshot and views compared too) every 8th (50th). Set
#: TESSERA_SNAPSHOT_STRIDE=1 to do everything after every command (a few minutes).
STRIDE = int(os.environ.get("TESSERA_SNAPSHOT_STRIDE", "0"))
FOLLOW = 20
#: The bench deck's battle lasts well over 500 commands; its first 300 are played here.
BENCH_COMMANDS = 300


def _per_side(setup: BattleSetup) -> BattleSetup:
    """Each faction its own player, so that each has a view; the test plays the computer."""
    return replace(setup, players={f"p_{f}": (f,) for f in setup.factions}, computer=())


def _views(b: Battle) -> list[dict[str, Any]]:
    players = [GM, *sorted(b.setup.players), *(["computer"] if b.setup.computer else [])]
    return [player_view(b, p) for p in players]


def _computer_commands(session: Session, limit: int) -> Iterator[tuple[cmd.Command, str]]:
    """The commands the computer chooses, every side, until the battle ends (or `limit`); each
    is given before the next is chosen."""
    given = 0
    while not session.battle.over and given < limit:
        b = session.battle
        actor = b.pending.reactor if b.pending is not None else b.active
        assert actor is not None
        yield choose(b, actor), b.controller_of(b.faction_of(actor))
        given += 1


def _events(outcome: Any) -> str:
    return json.dumps([e.to_dict() for e in outcome.events])


def _check_restores(setup: BattleSetup, grid: Grid, limit: int, every: int, stride: int) -> int:
    """Play the battle; every `every` commands restore its snapshot (through JSON text) and
    check the hash; every `stride` commands follow the restored battle for FOLLOW commands.
    Answers the commands played."""
    rules = load_rules()
    session = Session(setup, grid, rules, None, snapshot_every=0)
    followers: list[list[Any]] = []  # [battle, commands left, where it was taken]
    given = 0
    try:
        for command, by in _computer_commands(session, limit):
            b = session.battle
            if given % every == 0:
                text = json.dumps(b.snapshot())
                restored = Battle.restore(setup, grid, rules, json.loads(text))
                assert restored.state_hash() == b.state_hash(), f"after command {given}"
                if given % stride == 0:
                    # The events themselves, not only the dicts they were read from.
                    log = json.dumps([e.to_dict() for e in restored.log])
                    assert log == json.dumps([e.to_dict() for e in b.log]), f"after command {given}"
                    assert json.dumps(restored.snapshot()) == text, f"after command {given}"
                    assert _views(restored) == _views(b), f"after command {given}"
                    followers.append([restored, FOLLOW, given])
                else:
                    restored.close()
            outcome = session.submit(command, by)
            assert outcome.accepted, outcome.refusal
            given += 1
            expected, state = _events(outcome), b.state_hash()
            for follower in followers:
                again = follower[0].apply(command, by)
                where = f"restored after command {follower[2]}, command {given}"
                assert _events(again) == expected, where
                assert follower[0].state_hash() == state, where
                follower[1] -= 1
                if not follower[1]:
                    follower[0].close()
            followers = [f for f in followers if f[1]]
    finally:
        for follower in followers:
            follower[0].close()
        session.close()
    return given


@pytest.mark.parametrize("name", SHIPPED)
def test_a_restored_snapshot_has_the_same_hash_and_plays_on_identically_in_a_whole_battle(
    name,
) -> None:
    loaded = load_map(MAPS / f"{name}.tmx")
    setup = _per_side(setup_from_map(loaded, seed=1))
    given = _check_restores(setup, loaded.grid, 3000, 1, STRIDE or 8)
    assert given > 50  # a whole battle


def test_a_restored_snapshot_plays_on_identically_on_the_bench_deck() -> None:
    from game.bench.battle import battle_setup

    grid, setup = battle_setup()
    given = _check_restores(_per_side(setup), grid, BENCH_COMMANDS, STRIDE or 10, STRIDE or 50)
    assert given == BENCH_COMMANDS


def test_edited_cells_queued_gm_dice_a_pending_reaction_and_an_improvisation_are_restored(
    make_battle,
) -> None:
    ada = UnitSpec("ada", "red", (5, 5, 0), weapon="combat_knife")
    bo = UnitSpec("bo", "blue", (6, 5, 0))
    b: Battle = make_battle([ada, bo], initiative=(5, 15))
    grid = b.grid  # the map's, as a journal's map gives it: the GM's edit is the snapshot's
    assert b.active == "bo"
    for command, by in [
        (cmd.Improvise("bo", "kick the crate over"), "blue"),
        (cmd.EditCell((10, 2, 0), obstacle="full"), GM),
        (cmd.Move("bo", (9, 5, 0)), "blue"),  # leaves ada's reach: she may react (P-OA-1)
        (cmd.EnterRoll((97, 6)), GM),
    ]:
        assert b.apply(command, by).accepted
    snapshot = json.loads(json.dumps(b.snapshot()))
    assert snapshot["grid_version"] == 1 and "grid" in snapshot
    assert snapshot["pending"]["reactor"] == "ada"
    assert snapshot["roller"]["supplied"] == [97, 6]
    assert snapshot["improvising"] == [["bo", "kick the crate over"]]
    restored = Battle.restore(b.setup, grid, b.rules, snapshot)
    try:
        assert restored.state_hash() == b.state_hash()
        assert restored.grid.obstacle[10, 2, 0] == b.grid.obstacle[10, 2, 0] != 0
        for battle in (b, restored):
            taken = battle.apply(cmd.React("ada", take=True), "red")
            attack = next(e for e in taken.events if e.kind == "reaction_attack")
            assert attack.rolls[0].dice == (97,)  # the GM's queued faces
        assert restored.state_hash() == b.state_hash()
    finally:
        restored.close()


@pytest.mark.parametrize(
    "damage, problem",
    [
        (lambda s: s["units"].pop("bo"), "fields|units|Identity"),
        (lambda s: s.update(over="yes"), "over"),
        (lambda s: s["vision"]["views"][0].update(mask="AAAA"), "packed array"),
        (lambda s: s["log"][0].update(kind="exploded"), "exploded"),
        (lambda s: s.update(extra=1), "fields"),
    ],
)
def test_data_that_is_not_a_snapshot_is_refused_saying_which_part(
    make_battle, damage, problem
) -> None:
    b: Battle = make_battle([UnitSpec("ada", "red", (5, 5, 0)), UnitSpec("bo", "blue", (9, 5, 0))])
    snapshot = json.loads(json.dumps(b.snapshot()))
    damage(snapshot)
    with pytest.raises(SnapshotError, match=problem):
        Battle.restore(b.setup, b.grid, b.rules, snapshot)


# ---------------------------------------------------------------- journals with snapshots


STATION = MAPS / "station_interior.tmx"
#: Small, so that a short battle has many snapshots, and undos across them.
EVERY = 6


@pytest.fixture(scope="module")
def station() -> BattleSetup:
    loaded = load_map(STATION)
    factions = tuple(sorted({u.faction for u in loaded.units}))
    return setup_from_map(loaded, seed=3, computer=factions)


def _play_with_undos(session: Session, commands: int, seed: int) -> None:
    """The computer plays; now and then the GM takes back one to nine commands (across
    snapshots) and gives some back, after which the computer plays on (dropping the rest)."""
    rng = random.Random(seed)
    given = 0
    while given < commands and not session.battle.over:
        if session.history and rng.random() < 0.08:
            for _ in range(rng.randint(1, 9)):
                if session.undo(GM) is not None:
                    break
            for _ in range(rng.randint(0, 3)):
                if session.redo(GM) is not None:
                    break
            continue
        given += session.play_computer(limit=1)


@pytest.fixture(scope="module")
def twins(tmp_path_factory, station) -> tuple[Path, Path]:
    """The same battle, undos and redos included, journaled with snapshots every EVERY
    commands in effect and without."""
    folder = tmp_path_factory.mktemp("twins")
    paths = []
    for every in (EVERY, 0):
        path = folder / f"every{every}.jsonl"
        session = Session.new(station, path, snapshot_every=every)
        _play_with_undos(session, 50, seed=4)
        session.close()
        paths.append(path)
    return paths[0], paths[1]


def _state(session: Session) -> tuple[Any, ...]:
    b = session.battle
    return (
        b.state_hash(),
        [(s.by, s.command, s.private) for s in session.history],
        [(s.by, s.command, s.private) for s in session.undone],
        [e.to_dict() for e in b.log],
        _views(b),
    )


def test_a_journal_with_snapshots_cut_at_any_line_reopens_as_the_one_without_them(
    twins, tmp_path
) -> None:
    with_snapshots, without = twins
    lines = with_snapshots.read_bytes().splitlines(keepends=True)
    plain = without.read_bytes().splitlines(keepends=True)
    # The same commands, undos and redos; only the snapshot lines are more.
    assert [line for line in lines if b'"snapshot":' not in line] == plain
    contents = read_journal(with_snapshots)
    assert len(contents.snapshots) >= 8 and any(e.marker == "undo" for e in contents.entries)
    assert {s.n % EVERY for s in contents.snapshots} == {0}
    # The same snapshot written again after an undo took the battle below it.
    assert len({s.n for s in contents.snapshots}) < len(contents.snapshots)
    cut = tmp_path / "cut.jsonl"
    cut_plain = tmp_path / "cut_plain.jsonl"
    for end in range(1, len(lines) + 1):
        line, before = lines[end - 1], lines[end - 2]
        # Each undo and redo, each line after a snapshot, and every third line besides.
        if not (b'"undo"' in line or b'"redo"' in line or b'"snapshot":' in before or end % 3 == 0):
            continue
        cut.write_bytes(b"".join(lines[:end]))
        cut_plain.write_bytes(b"".join(line for line in lines[:end] if b'"snapshot":' not in line))
        a = Session.open(cut, for_append=False)
        b = Session.open(cut_plain, for_append=False)
        try:
            assert _state(a) == _state(b), f"after line {end}"
        finally:
            a.close()
            b.close()


def test_reopening_starts_from_the_last_snapshot_and_replays_only_the_lines_after_it(
    station, tmp_path
) -> None:
    path = tmp_path / "battle.jsonl"
    session = Session.new(station, path, snapshot_every=EVERY)
    assert session.play_computer(limit=6 * EVERY + 4) == 6 * EVERY + 4
    final = session.battle.state_hash()
    session.close()
    applied: list[cmd.Command] = []
    real = Battle.apply

    def counting(self: Battle, command: cmd.Command, by: str) -> Any:
        applied.append(command)
        return real(self, command, by)

    with mock.patch.object(Battle, "apply", counting):
        session = Session.open(path, for_append=False)
    try:
        assert session.battle.state_hash() == final
        assert len(session.history) == 6 * EVERY + 4
        assert applied == [step.command for step in session.history[6 * EVERY :]]
    finally:
        session.close()


def _journal_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _rewrite(path: Path, lines: list[dict[str, Any]]) -> None:
    path.write_text(
        "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines),
        encoding="utf-8",
    )


def _last_snapshot(lines: list[dict[str, Any]]) -> int:
    return max(i for i, line in enumerate(lines) if "snapshot" in line)


def _forged(lines: list[dict[str, Any]], i: int, change: Any) -> None:
    """Change snapshot line `i` and give it a check that matches: a forgery, not damage."""
    snapshot = lines[i]["snapshot"]
    change(snapshot)
    lines[i] = snapshot_line(lines[i]["n"], snapshot)


@pytest.mark.parametrize(
    "damage, problem",
    [
        (
            lambda lines, i: lines[i]["snapshot"].update(round=9),
            "damaged snapshot (it does not match its check)",
        ),
        (lambda lines, i: lines[i].update(n=lines[i]["n"] + 1), "a snapshot after"),
        (lambda lines, i: lines.insert(i - 1, lines.pop(i)), "a snapshot after"),
        (
            lambda lines, i: _forged(lines, i, lambda s: s.update(winner="raiders")),
            "the snapshot is not the state the journal recorded before it",
        ),
        (
            lambda lines, i: _forged(lines, i, lambda s: s.update(log_from=s["log_from"] + 1)),
            "the snapshot's log does not follow the one before it",
        ),
        (
            lambda lines, i: _forged(lines, i, lambda s: s["units"].update(Kask=5)),
            "damaged snapshot (units: unit 'Kask': expected an object)",
        ),
    ],
)
def test_a_damaged_snapshot_line_is_refused_naming_the_file_and_line(
    twins, tmp_path, damage, problem
) -> None:
    with_snapshots, _without = twins
    lines = _journal_lines(with_snapshots)
    i = _last_snapshot(lines)
    del lines[i + 1 :]  # the journal ends with it: it is the one reopening starts from
    damage(lines, i)
    path = tmp_path / "damaged.jsonl"
    _rewrite(path, lines)
    with pytest.raises(JournalError) as caught:
        Session.open(path, for_append=False)
    assert re.match(rf"^{re.escape(str(path))}:\d+: ", str(caught.value)), str(caught.value)
    assert problem in str(caught.value)
    line = int(str(caught.value)[len(str(path)) + 1 :].split(":")[0])
    assert "snapshot" in lines[line - 1]  # the snapshot's own line is named


def test_a_damaged_command_line_before_a_snapshot_is_found_by_replaying_from_the_start(
    twins, tmp_path
) -> None:
    """A snapshot is used only when the steps before it are those it was taken after: a
    command changed before it is then replayed, and refused naming its own line."""
    with_snapshots, _without = twins
    lines = _journal_lines(with_snapshots)
    first = next(i for i, line in enumerate(lines) if "snapshot" in line)
    i, line = next((i, ln) for i, ln in enumerate(lines[:first]) if "cmd" in ln)
    other = next(u.id for u in read_journal(with_snapshots).setup.units if u.id not in str(line))
    lines[i] = {**line, "cmd": {"cmd": "end_turn", "unit": other}}  # a unit not acting
    path = tmp_path / "damaged.jsonl"
    _rewrite(path, lines)
    with pytest.raises(JournalError, match=rf"^{re.escape(str(path))}:{i + 1}: "):
        Session.open(path, for_append=False)


def test_a_torn_snapshot_line_is_dropped_with_a_notice_and_written_again_on_continuing(
    twins, tmp_path
) -> None:
    with_snapshots, _without = twins
    data = with_snapshots.read_bytes()
    lines = data.splitlines(keepends=True)
    i = max(i for i, line in enumerate(lines) if b'"snapshot":' in line)
    whole = b"".join(lines[: i + 1])
    path = tmp_path / "torn.jsonl"
    path.write_bytes(b"".join(lines[:i]) + lines[i][: len(lines[i]) // 2])
    session = Session.open(path, snapshot_every=EVERY)
    try:
        assert session.notices and f"{path}:{i + 1}: an unfinished last line" in session.notices[0]
    finally:
        session.close()
    # The crash came between the command and its snapshot: continuing writes it as it was.
    assert path.read_bytes() == whole


def test_undo_across_a_snapshot_is_exact_and_starts_from_the_snapshot_below(station) -> None:
    forward = Session.new(station, None, snapshot_every=EVERY)
    plain = Session.new(station, None, snapshot_every=0)
    hashes = [forward.battle.state_hash()]
    try:
        for _ in range(3 * EVERY + 2):
            forward.play_computer(limit=1)
            hashes.append(forward.battle.state_hash())
        assert list(forward.snapshot_lines) == [EVERY, 2 * EVERY, 3 * EVERY]
        restored: list[int] = []
        real = Battle.restore

        def counting(*args: Any) -> Battle:
            battle = real(*args)
            restored.append(len(battle.log))
            return battle

        with mock.patch.object(Battle, "restore", counting):
            while len(forward.history) > 1:
                assert forward.undo(GM) is None
                n = len(forward.history)
                assert forward.battle.state_hash() == hashes[n], f"undone to {n}"
                assert all(line <= n for line in forward.snapshot_lines)
        # Each undo above the first snapshot began from one, not from the battle's start.
        assert len(restored) == len(hashes) - 1 - EVERY
        while forward.undone:
            assert forward.redo(GM) is None
            assert forward.battle.state_hash() == hashes[len(forward.history)]
        # Redone past the multiples again, the snapshots are taken again.
        assert list(forward.snapshot_lines) == [EVERY, 2 * EVERY, 3 * EVERY]
        for step in forward.history:
            assert plain.submit(step.command, step.by).accepted
        assert plain.battle.state_hash() == forward.battle.state_hash()
        assert [e.to_dict() for e in plain.battle.log] == [e.to_dict() for e in forward.battle.log]
    finally:
        forward.close()
        plain.close()


def test_a_version_1_journal_opens_replaying_every_line_and_is_continued_in_version_1(
    station, tmp_path
) -> None:
    """Version 1 wrote the same lines as version 2 (its state hashes: `legacy`), without
    "private", and no snapshots."""
    without = tmp_path / "v2.jsonl"
    written = Session.new(station, without, snapshot_every=0, version=2)
    _play_with_undos(written, 50, seed=4)
    written.close()
    lines = _journal_lines(without)
    assert lines[0]["version"] == 2 and VERSION == 3
    old = [{**lines[0], "version": 1}]
    old += [{k: v for k, v in line.items() if k != "private"} for line in lines[1:]]
    assert any("private" in line for line in lines[1:])
    path = tmp_path / "v1.jsonl"
    _rewrite(path, old)
    expected = Session.open(without, for_append=False)
    session = Session.open(path, snapshot_every=2)
    try:
        assert _state(session) == _state(expected)
        session.play_computer(limit=5)
        final = session.battle.state_hash()
    finally:
        session.close()
        expected.close()
    continued = _journal_lines(path)
    assert continued[0]["version"] == 1 and len(continued) == len(old) + 5
    assert not any("private" in line or "snapshot" in line for line in continued)
    again = Session.open(path, for_append=False)
    try:
        assert again.battle.state_hash() == final
    finally:
        again.close()


def test_a_player_asking_to_undo_a_step_read_below_the_reopened_snapshot_gets_an_answer(
    station, tmp_path
) -> None:
    """A reopened journal starts from its last snapshot: whether a step below it showed its
    giver news is found by replaying from the snapshot below that step (it used to raise a
    TypeError, the kept snapshot restored without saying which state hash it was taken with)."""
    path = tmp_path / "reopened.jsonl"
    session = Session.new(station, path, snapshot_every=EVERY)
    for _ in range(2 * EVERY + 2):
        session.play_computer(limit=1)
    session.close()
    reopened = Session.open(path)
    try:
        assert reopened.snapshot_lines  # it started from a snapshot
        for _ in range(5):  # back below the snapshot it started from
            assert reopened.undo(GM) is None
        answer = reopened.can_undo(reopened.history[-1].by)
        assert answer is None or answer.code in (
            "undo_would_hide_what_was_seen",
            "undo_seen_by_another",
            "not_your_command",
        )
    finally:
        reopened.close()
