"""The `tessera` entry point: a reader that stops reading (`| head -1`) ends every command quietly.

A closed standard output is answered once, in `game.cli.main`: nothing on standard error, exit
status 141 (what a shell reports for `cat`, `git log` ... ended by SIGPIPE).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.battle.cli import run_battle
from game.battle.journal import read_journal
from game.cli import CLOSED_OUTPUT

REPO = Path(__file__).resolve().parents[1]
HULL = REPO / "maps" / "hull_breach.tmx"


def _journal(tmp_path: Path) -> Path:
    """A short battle's journal for `tessera replay` to read."""
    journal = tmp_path / "made.jsonl"
    status = run_battle(
        str(HULL),
        str(journal),
        computer=[],
        stdin=io.StringIO('{"cmd": "end_turn", "unit": "Conti", "by": "gm"}\n'),
        stdout=io.StringIO(),
    )
    assert status == 0 and len(read_journal(journal).entries) == 1
    return journal


def test_every_command_ends_quietly_with_141_when_its_output_is_already_closed(
    tmp_path: Path,
) -> None:
    # The read end of the pipe is closed before the command starts: its first write fails.
    commands = {
        "query": ["query", "tests/scenario/data/contract_example.json"],
        "check-map": ["check-map", "maps/hull_breach.tmx", "maps/station_interior.tmx"],
        "run": ["run", str(HULL), "--journal", str(tmp_path / "run.jsonl")],
        "replay": ["replay", str(_journal(tmp_path))],
        "bench": ["bench", "--quick"],
    }
    procs = {}
    for name, args in commands.items():
        read, write = os.pipe()
        os.close(read)
        procs[name] = subprocess.Popen(
            [sys.executable, "-m", "game", *args],
            stdin=subprocess.DEVNULL,
            stdout=write,
            stderr=subprocess.PIPE,
            cwd=REPO,
        )
        os.close(write)
    for name, proc in procs.items():
        _out, err = proc.communicate(timeout=300)
        assert (name, proc.returncode, err.decode()) == (name, CLOSED_OUTPUT, "")
    assert read_journal(tmp_path / "run.jsonl").entries == ()  # the journal is whole


@pytest.mark.skipif(not Path("/usr/bin/head").exists(), reason="needs head(1)")
def test_run_piped_into_head_1_ends_quietly_and_leaves_a_whole_journal(tmp_path: Path) -> None:
    journal = tmp_path / "battle.jsonl"
    sides = ["--computer", "raiders", "--computer", "station_security"]
    run = subprocess.Popen(
        [sys.executable, "-m", "game", "run", str(HULL), "--journal", str(journal), *sides],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    assert run.stdout is not None and run.stderr is not None
    head = subprocess.run(
        ["/usr/bin/head", "-1"], stdin=run.stdout, capture_output=True, timeout=300
    )
    run.stdout.close()
    err = run.stderr.read()
    run.wait(timeout=300)
    assert json.loads(head.stdout)["event"] == "battle"
    assert (run.returncode, err.decode()) == (CLOSED_OUTPUT, "")
    read_journal(journal)  # whole lines only: it opens
