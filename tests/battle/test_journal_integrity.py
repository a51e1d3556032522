"""The journal is the truth: the same battle writes the same bytes on any machine, an edited or
forged journal is caught naming its line, and a full disk is said plainly."""

from __future__ import annotations

import errno
import io
import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from game.battle import commands as cmd
from game.battle.cli import replay_journal, run_battle
from game.battle.engine import GM, Battle
from game.battle.journal import (
    JournalError,
    JournalWriteError,
    JournalWriter,
    read_journal,
    snapshot_line,
)
from game.battle.session import Session
from game.battle.setup import BattleSetup, setup_from_map
from game.ecs.components import Sheet
from game.maps import load_map
from game.rules.data import load_rules

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
SHIPPED = ("station_interior", "surface_outpost", "hull_breach")

#: A whole computer battle journaled with a snapshot every 4 commands (many snapshots, each
#: with the fog's sightings of several enemies), run in a fresh interpreter.
_PLAY = """
import sys
from pathlib import Path
from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.maps import load_map
loaded = load_map(Path(sys.argv[1]))
setup = setup_from_map(loaded, seed=1, computer=sorted({u.faction for u in loaded.units}))
session = Session.new(setup, Path(sys.argv[2]), snapshot_every=4)
session.play_computer(limit=250)
session.close()
"""


def _env(hash_seed: int) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": str(hash_seed)}


@pytest.mark.parametrize("name", SHIPPED)
def test_the_same_battle_writes_the_same_journal_bytes_whatever_pythonhashseed(
    name, tmp_path
) -> None:
    """Sets iterate in an order that changes with the hash seed: nothing a battle writes may
    follow it (the fog's last known cells of several enemies first seen at once did)."""
    written = []
    for hash_seed in (0, 1):
        journal = tmp_path / f"seed{hash_seed}.jsonl"
        subprocess.run(
            [sys.executable, "-c", _PLAY, str(MAPS / f"{name}.tmx"), str(journal)],
            env=_env(hash_seed),
            check=True,
            timeout=600,
        )
        written.append(journal.read_bytes())
    assert written[0].count(b'"snapshot":') >= 5
    assert written[0] == written[1]


def test_tessera_run_writes_the_same_journal_and_output_whatever_pythonhashseed(tmp_path) -> None:
    """The whole path: `tessera run` with the computer on every side, fixed seed."""
    results = []
    for hash_seed in (0, 1):
        folder = tmp_path / f"seed{hash_seed}"
        folder.mkdir()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "game",
                "run",
                str(MAPS / "station_interior.tmx"),
                "--journal",
                "battle.jsonl",
                "--seed",
                "3",
                "--computer",
                "station_security",
                "--computer",
                "raiders",
            ],
            cwd=folder,
            env=_env(hash_seed),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=True,
            timeout=600,
        )
        results.append((done.stdout, (folder / "battle.jsonl").read_bytes()))
    assert results[0][1].count(b'"snapshot":') >= 1
    assert results[0] == results[1]


# ---------------------------------------------------------------- tamper-evident

STATION = MAPS / "station_interior.tmx"


@pytest.fixture(scope="module")
def station() -> BattleSetup:
    loaded = load_map(STATION)
    return setup_from_map(loaded, seed=3, computer=tuple(sorted({u.faction for u in loaded.units})))


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _rewrite(path: Path, lines: list[dict[str, Any]]) -> None:
    path.write_text(
        "".join(
            json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in lines
        ),
        encoding="utf-8",
    )


def _refused(path: Path, line: int, problem: str, opening: Any) -> None:
    with pytest.raises(JournalError) as caught:
        opening()
    text = str(caught.value)
    assert text.startswith(f"{path}:{line}: "), text
    assert problem in text, text


def test_a_missed_attack_retargeted_in_the_journal_is_refused_naming_its_line(
    station, tmp_path
) -> None:
    """A missed attack made at another enemy of the same side rolls the same dice and leaves the
    same units, fog and initiative (the hash journals of version 2 took: `legacy`): only the
    log tells the difference, and the state hash now covers it."""
    path = tmp_path / "battle.jsonl"
    session = Session.new(station, path, snapshot_every=0)
    grid, rules = load_map(STATION).grid, load_rules()
    before: list[Any] = []
    given: list[Any] = []

    def look(command: cmd.Command) -> None:
        aimed = isinstance(command, cmd.Attack) and command.target is not None
        before[:] = [json.loads(json.dumps(session.battle.snapshot()))] if aimed else []

    other = None
    try:
        while other is None and not session.battle.over and len(session.history) < 600:
            given.clear()
            session.play_computer(lambda by, c, o: given.append((by, c, o)), limit=1, before=look)
            if not before or not given or not isinstance(given[0][1], cmd.Attack):
                continue
            by, command, outcome = given[0]
            if any(e.kind == "attack" and e.data.get("hit") for e in outcome.events):
                continue
            b = session.battle
            target = command.target
            for unit in b.world.unit_ids:
                if (
                    unit == target
                    or not b.on_map(unit)
                    or b.faction_of(unit) != b.faction_of(target)
                ):
                    continue
                copy = Battle.restore(station, grid, rules, before[0])
                try:
                    again = copy.apply(replace(command, target=unit), by)
                    if (
                        again.accepted
                        and [r.dice for r in again.rolls] == [r.dice for r in outcome.rolls]
                        and copy.state_hash(legacy=True) == b.state_hash(legacy=True)
                    ):
                        other = unit
                        # The hash version 2 took cannot tell the two apart; this one can.
                        assert copy.state_hash() != b.state_hash()
                        break
                finally:
                    copy.close()
    finally:
        session.close()
    assert other is not None, "no missed attack with another target in reach"
    lines = _lines(path)
    lines[-1]["cmd"]["target"] = other
    _rewrite(path, lines)
    _refused(
        path,
        len(lines),
        "the state differs from the one the journal recorded",
        lambda: Session.open(path, for_append=False),
    )


def _end_turns(session: Session, count: int) -> None:
    for _ in range(count):
        active = session.battle.active
        assert active is not None
        assert session.submit(cmd.EndTurn(active), GM).accepted


def test_a_command_line_without_its_hash_is_refused_but_a_torn_last_one_is_dropped(
    station, tmp_path
) -> None:
    path = tmp_path / "battle.jsonl"
    session = Session.new(station, path)
    _end_turns(session, 3)
    session.close()
    lines = _lines(path)
    for i in (1, 3):  # a middle line, and the last (whole: it ends with its newline)
        edited = [dict(line) for line in lines]
        del edited[i]["hash"]
        _rewrite(path, edited)
        _refused(path, i + 1, "field 'hash': missing", lambda: Session.open(path, for_append=False))
    # A crash while the last line was written leaves it torn, without its end: it is dropped.
    whole = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines[:3])
    path.write_text(whole + json.dumps(lines[3], separators=(",", ":"))[:60], encoding="utf-8")
    reopened = Session.open(path, for_append=False)
    try:
        assert len(reopened.history) == 2 and reopened.notices
    finally:
        reopened.close()


def _full_log_snapshot(lines: list[dict[str, Any]], i: int) -> dict[str, Any]:
    """Snapshot line `i` as `Battle.snapshot()` wrote it: its log joined to those before it."""
    log: list[Any] = []
    for line in lines[: i + 1]:
        if "snapshot" in line:
            log = log[: line["snapshot"]["log_from"]] + line["snapshot"]["log"]
    data = {
        k: v for k, v in lines[i]["snapshot"].items() if k not in ("log_from", "steps", "header")
    }
    return {**data, "log": log}


def test_a_forged_snapshot_with_hashes_to_match_is_caught_before_the_gms_undo_uses_it(
    station, tmp_path
) -> None:
    """A forger who rewrites the snapshot, its check and every state hash after it makes a
    journal that opens (only replaying the lines before the snapshot can tell); the GM's undo
    replays them before it relies on the snapshot, and refuses naming the snapshot's line."""
    path = tmp_path / "battle.jsonl"
    session = Session.new(station, path, snapshot_every=8)
    _end_turns(session, 21)
    session.close()
    lines = _lines(path)
    i = max(k for k, line in enumerate(lines) if "snapshot" in line)
    assert lines[i]["n"] == 16 and "cmd" in lines[i - 1]
    unit = sorted(lines[i]["snapshot"]["units"])[0]
    medkits = lines[i]["snapshot"]["units"][unit]["Sheet"]["medkits"]
    lines[i]["snapshot"]["units"][unit]["Sheet"]["medkits"] += 4  # the forgery
    setup = read_journal(path).setup
    grid, rules = load_map(STATION).grid, load_rules()
    forged = Battle.restore(setup, grid, rules, _full_log_snapshot(lines, i))
    try:
        lines[i - 1]["hash"] = forged.state_hash()
        for line in lines[i + 1 :]:
            assert forged.apply(cmd.parse_command(line["cmd"], "cmd"), line["by"]).accepted
            line["hash"] = forged.state_hash()
    finally:
        forged.close()
    lines[i] = snapshot_line(16, lines[i]["snapshot"])
    _rewrite(path, lines)
    written = path.read_bytes()
    opened = Session.open(path)
    try:
        assert opened.battle.world.get(unit, Sheet).medkits == medkits + 4  # it is played on
        assert len(opened.history) == 21
        _refused(
            path,
            i + 1,
            "the snapshot is not the battle the lines before it replay to",
            lambda: opened.undo(GM),
        )
        assert len(opened.history) == 21  # nothing changed
    finally:
        opened.close()
    assert path.read_bytes() == written


def test_tessera_replay_replays_every_line_and_finds_a_die_edited_below_the_last_snapshot(
    station, tmp_path
) -> None:
    """Reopening to play on starts from the last snapshot and trusts the lines below it
    (docs/battle.md); `tessera replay` is the check of the whole file: it replays every line
    from the start, so a die edited before the last snapshot is named by its line."""
    path = tmp_path / "battle.jsonl"
    session = Session.new(station, path, snapshot_every=8)
    assert session.play_computer(lambda by, c, o: None, limit=30) == 30
    session.close()
    lines = _lines(path)
    last_snapshot = max(k for k, line in enumerate(lines) if "snapshot" in line)
    i = next(k for k, line in enumerate(lines[:last_snapshot]) if line.get("dice"))
    assert replay_journal(str(path), io.StringIO()) == 0
    lines[i]["dice"][0][0] = 2 if lines[i]["dice"][0][0] == 1 else 1  # a face every die has
    _rewrite(path, lines)
    Session.open(path, for_append=False).close()  # from the last snapshot: not seen
    _refused(
        path,
        i + 1,
        "the dice differ from those the journal recorded",
        lambda: Session.open(path, for_append=False, verify=True),
    )
    assert replay_journal(str(path), io.StringIO()) == 2


def _move_first_unit(setup: dict[str, Any]) -> None:
    unit = setup["units"][0]
    unit["cell"] = [unit["cell"][0] + 1, unit["cell"][1], unit["cell"][2]]


@pytest.mark.parametrize(
    "edit",
    [
        _move_first_unit,
        lambda setup: setup.update(seed=setup["seed"] + 1),
        lambda setup: setup["units"][0].update(hidden=not setup["units"][0].get("hidden", False)),
    ],
    ids=["a unit's cell", "the seed", "a hidden flag"],
)
def test_a_header_edited_after_the_battle_began_is_refused_on_opening(
    station, tmp_path, edit
) -> None:
    """Opening starts from the last snapshot, which holds the state: the header's units, seed
    and flags are not read again, so an edit went unseen (and the GM's undo past the first
    snapshot then played another battle). The snapshot carries a digest of the header."""
    path = tmp_path / "battle.jsonl"
    session = Session.new(station, path, snapshot_every=8)
    _end_turns(session, 20)
    session.close()
    lines = _lines(path)
    edit(lines[0]["setup"])
    _rewrite(path, lines)
    for for_append in (False, True):
        _refused(
            path,
            1,
            "the header is not the one the battle began with",
            lambda for_append=for_append: Session.open(path, for_append=for_append),
        )


def test_a_version_2_journal_whose_header_was_edited_is_refused_before_an_undo_drifts(
    station, tmp_path
) -> None:
    """Version 2's snapshots carry no digest of the header: the edit is found when the GM's
    undo first needs the past, by replaying it, and nothing is undone."""
    path = tmp_path / "battle.jsonl"
    session = Session.new(station, path, snapshot_every=8, version=2)
    _end_turns(session, 20)
    session.close()
    lines = _lines(path)
    assert lines[0]["version"] == 2 and "header" not in lines[9]["snapshot"]
    lines[0]["setup"]["seed"] += 1
    _rewrite(path, lines)
    written = path.read_bytes()
    opened = Session.open(path)
    try:
        with pytest.raises(JournalError) as caught:
            while len(opened.history) > 4:  # past the first snapshot, at 8
                assert opened.undo(GM) is None
        assert re.match(rf"^{re.escape(str(path))}:\d+: ", str(caught.value)), str(caught.value)
        assert "header" in str(caught.value)
        assert len(opened.history) == 20
    finally:
        opened.close()
    assert path.read_bytes() == written


DATA = Path(__file__).resolve().parent / "data"


def test_a_version_2_journal_written_before_version_3_opens_undoes_and_continues_in_version_2(
    tmp_path,
) -> None:
    """`data/version2_station.jsonl` was written by Tessera before version 3 (snapshots at 4
    and 8, undos and a redo): its hashes are the old ones, and it stays readable by it."""
    original = DATA / "version2_station.jsonl"
    lines = _lines(original)
    assert lines[0]["version"] == 2
    lines[0]["setup"]["map"] = str(STATION)  # moved here, beside no map
    path = tmp_path / "old.jsonl"
    _rewrite(path, lines)
    with_map = path.read_bytes()
    opened = Session.open(path, for_append=False)
    try:
        last = next(line for line in reversed(lines) if "hash" in line)
        assert len(opened.history) == 10
        assert (
            opened.battle.state_hash(legacy=True)
            == "c9e81b85df27de99b6cea2c29d1b2a6fa4d28a3c963c2d19e8f9e23538354079"
        )
        assert last["n"] == 11  # the last command was undone
    finally:
        opened.close()
    session = Session.open(path, snapshot_every=4)
    try:
        for _ in range(7):  # the GM's undo back past both snapshots: the past checks out
            assert session.undo(GM) is None
        assert len(session.history) == 3
        _end_turns(session, 6)
        final = session.battle.state_hash()
    finally:
        session.close()
    continued = _lines(path)
    assert path.read_bytes().startswith(with_map)
    assert {line.get("version", 2) for line in continued[:1]} == {2}
    assert all("header" not in line.get("snapshot", {}) for line in continued)
    assert any("snapshot" in line for line in continued[len(lines) :])
    again = Session.open(path, for_append=False)
    try:
        assert again.battle.state_hash() == final and len(again.history) == 9
    finally:
        again.close()


# ---------------------------------------------------------------- a full disk


class FullDisk(io.RawIOBase):
    """A journal file on a disk with `room` bytes left (None: plenty): a write that does not
    fit writes what fits, then fails as a full disk does (ENOSPC)."""

    def __init__(self, path: Path, room: int | None = None) -> None:
        self.file = path.open("ab", buffering=0)
        self.room = room

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        data = bytes(data)
        if self.room is not None and len(data) > self.room:
            self.file.write(data[: self.room])
            self.room = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        if self.room is not None:
            self.room -= len(data)
        return self.file.write(data)

    def fileno(self) -> int:
        return self.file.fileno()

    def tell(self) -> int:
        return self.file.tell()

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.file.seek(offset, whence)

    def truncate(self, size: int | None = None) -> int:
        return self.file.truncate(size)

    def close(self) -> None:
        self.file.close()
        super().close()


def _on_full_disk(session: Session, room: int | None = 0) -> FullDisk:
    assert session.writer is not None
    path = session.writer.path
    session.writer.close()
    disk = FullDisk(path, room)
    session.writer = JournalWriter(path, disk, session.writer.version)
    return disk


def test_a_full_disk_refuses_the_command_says_so_and_the_battle_goes_on_once_there_is_room(
    station, tmp_path
) -> None:
    path = tmp_path / "battle.jsonl"
    session = Session.new(station, path, snapshot_every=0)
    try:
        _end_turns(session, 3)
        saved, state, log = path.read_bytes(), session.battle.state_hash(), len(session.battle.log)
        disk = _on_full_disk(session, room=40)  # part of the next line fits, not all of it
        with pytest.raises(JournalWriteError) as caught:
            _end_turns(session, 1)
        assert str(caught.value) == f"{path}: the disk is full; the battle is saved up to command 3"
        assert caught.value.saved == 3
        # The part that fitted is cut off again; the battle is as its journal has it.
        assert path.read_bytes() == saved
        assert session.battle.state_hash() == state and len(session.battle.log) == log
        assert len(session.history) == 3
        with pytest.raises(JournalWriteError):  # an undo's marker does not fit either
            session.undo(GM)
        assert session.battle.state_hash() == state and len(session.history) == 3
        disk.room = None  # room again
        _end_turns(session, 2)
        assert session.undo(GM) is None
        final = session.battle.state_hash()
    finally:
        session.close()
    reopened = Session.open(path, for_append=False)
    try:
        assert reopened.battle.state_hash() == final and len(reopened.history) == 4
    finally:
        reopened.close()


def test_a_snapshot_the_full_disk_refuses_leaves_its_command_saved_and_is_written_on_reopening(
    station, tmp_path
) -> None:
    path = tmp_path / "battle.jsonl"
    session = Session.new(station, path, snapshot_every=4)
    try:
        _end_turns(session, 3)
        _on_full_disk(session, room=2000)  # the command line fits, the snapshot line does not
        with pytest.raises(JournalWriteError, match=r"saved up to command 4$"):
            _end_turns(session, 1)
        assert len(session.history) == 4
    finally:
        session.close()
    assert not any("snapshot" in line for line in _lines(path))
    reopened = Session.open(path, snapshot_every=4)
    reopened.close()
    assert [line["n"] for line in _lines(path) if "snapshot" in line] == [4]


def test_tessera_run_on_a_full_disk_ends_with_one_line_saying_how_much_is_saved(
    station, tmp_path, monkeypatch, capsys
) -> None:
    journal = tmp_path / "battle.jsonl"
    Session.new(station, journal).close()  # begun; `tessera run` continues it
    real = JournalWriter.append_to

    def on_full_disk(path: Path, good_bytes: int, version: int = 3) -> JournalWriter:
        real(path, good_bytes, version).close()  # cuts a torn line off, as it would
        return JournalWriter(path, FullDisk(path, room=5000), version)

    monkeypatch.setattr(JournalWriter, "append_to", on_full_disk)
    out = io.StringIO()
    status = run_battle(
        str(STATION),
        str(journal),
        computer=list(station.computer),
        stdin=io.StringIO(""),
        stdout=out,
    )
    err = capsys.readouterr().err
    assert status != 0
    saved = len(read_journal(journal).entries)
    assert saved > 3
    assert err == f"error: {journal}: the disk is full; the battle is saved up to command {saved}\n"
    # Nothing was shown of a command that is not saved.
    shown = [json.loads(line) for line in out.getvalue().splitlines()]
    assert max(e.get("n", 0) for e in shown) == saved
    Session.open(journal, for_append=False).close()
