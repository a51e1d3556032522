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
from game.battle.cli import run_battle
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
