"""kill -9 of `tessera run` at random points loses nothing that was shown, and the battle goes on.

The computer plays both sides of maps/hull_breach.tmx to the end, once without interruption (the
reference), then again in one journal with the process killed (SIGKILL) at seeded random points
and started again on the same journal each time; after some kills the journal is also given a
torn last line, as a power cut in the middle of a write would leave it. After every kill the
journal must open, hold exactly the reference's first lines, and hold every command whose events
the process printed; every restart must begin from the reference's state after those commands;
the last run must end with the reference's journal and final state hash.
"""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from game.battle.cli import run_battle
from game.battle.journal import read_journal

REPO = Path(__file__).resolve().parents[2]
HULL = REPO / "maps" / "hull_breach.tmx"
SIDES = ("raiders", "station_security")
#: Kills in one battle; with the start of each process (about a second) this keeps the test
#: to a few seconds.
KILLS = 3
SEED = int(os.environ.get("TESSERA_CRASH_SEED", "7"))
#: The processes run in the journals' folder but import this checkout's `game`.
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
}

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")


def _command(journal: Path) -> list[str]:
    args = [sys.executable, "-m", "game", "run", str(HULL), "--journal", journal.name]
    for side in SIDES:
        args += ["--computer", side]
    return args


def _parse(raw: bytes) -> list[dict[str, Any]]:
    """The whole lines a process printed (a line cut by the kill is not one)."""
    lines = raw.split(b"\n")[:-1]
    return [json.loads(line) for line in lines]


def _opening(printed: list[dict[str, Any]]) -> tuple[int, str]:
    """The commands in the journal and the state hash a run began with."""
    battle = next(line for line in printed if line.get("event") == "battle")
    return battle["commands"], battle["state_hash"]


def _start(journal: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        _command(journal),
        cwd=journal.parent,
        env=ENV,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _kill_after(
    proc: subprocess.Popen[bytes], after_command: int, delay: float
) -> tuple[list[dict[str, Any]], bool]:
    """Once `proc` has printed an event of command `after_command` or later, wait `delay`
    seconds and kill it with SIGKILL. Answer everything it printed, and whether it was killed
    (it may have finished first)."""
    assert proc.stdout is not None and proc.stderr is not None
    seen = b""
    try:
        while line := proc.stdout.readline():
            seen += line
            if json.loads(line).get("n", -1) >= after_command:
                time.sleep(delay)
                proc.send_signal(signal.SIGKILL)
                break
        seen += proc.stdout.read()
        err = proc.stderr.read()
    finally:
        proc.kill()
        proc.wait(timeout=60)
    assert err == b"", err
    return _parse(seen), proc.returncode == -signal.SIGKILL


def test_kill_9_at_random_points_then_reopening_gives_the_uninterrupted_runs_hashes(
    tmp_path: Path,
) -> None:
    rng = random.Random(SEED)
    reference = tmp_path / "reference.jsonl"
    out = io.StringIO()
    status = run_battle(
        str(HULL), str(reference), computer=list(SIDES), stdin=io.StringIO(), stdout=out
    )
    assert status == 0
    ref_output = [json.loads(line) for line in out.getvalue().splitlines()]
    ref_lines = reference.read_bytes().splitlines(keepends=True)
    # The state after each line (a snapshot line leaves it as the command before it did).
    ref_hashes = [ref_output[0]["state_hash"]]
    for line in ref_lines[1:]:
        ref_hashes.append(json.loads(line).get("hash", ref_hashes[-1]))
    total = len(ref_lines) - 1
    assert ref_output[-1]["over"] and total > 50  # a whole battle, long enough to cut
    # ... with a snapshot line or two among them, which a kill may tear like any other.
    assert any(b'"snapshot":' in line for line in ref_lines)

    # The runs go side by side, each read as it prints (never held up by a full pipe), each
    # killed a few milliseconds after it has shown its chosen command.
    journals = [tmp_path / f"battle{i}.jsonl" for i in range(KILLS)]
    points = sorted(rng.sample(range(total - 20), KILLS))  # the last 20: no time to kill
    delays = [rng.uniform(0, 0.004) for _ in points]
    procs = [_start(journal) for journal in journals]
    try:
        with ThreadPoolExecutor(KILLS) as pool:
            results = list(pool.map(_kill_after, procs, points, delays))
    finally:
        for proc in procs:
            proc.kill()
            proc.wait(timeout=60)

    torn = None
    for journal, after_command, (printed, killed) in zip(journals, points, results, strict=True):
        assert _opening(printed) == (0, ref_hashes[0])
        contents = read_journal(journal)  # it opens: a whole header, whole lines
        done = len(contents.entries) + len(contents.snapshots)
        assert journal.read_bytes().splitlines(keepends=True) == ref_lines[: done + 1]
        saved = len(contents.entries)  # commands (no undo here)
        shown = max((line["n"] for line in printed if "n" in line), default=0)
        assert shown <= saved, f"{journal.name}: command {shown} was shown, {saved} were saved"
        assert saved >= after_command
        if killed and torn is None:
            torn = (journal, done, saved)
    assert torn is not None, "no run was killed"

    # One of them, with a power cut in the middle of the line after, is played on to the end.
    journal, done, saved = torn
    after = ref_lines[done + 1]
    with journal.open("ab") as f:
        f.write(after[: rng.randrange(1, len(after) - 1)])
    out = io.StringIO()
    status = run_battle(
        str(HULL), str(journal), computer=list(SIDES), stdin=io.StringIO(), stdout=out
    )
    assert status == 0
    final = [json.loads(line) for line in out.getvalue().splitlines()]
    assert "unfinished last line was dropped" in final[0]["notice"]
    assert _opening(final) == (saved, ref_hashes[done])
    assert final[-1]["event"] == "end"
    assert final[-1]["state_hash"] == ref_output[-1]["state_hash"]
    assert journal.read_bytes() == reference.read_bytes()


def test_a_crash_while_the_header_is_written_leaves_no_journal_and_a_new_run_begins_it(
    tmp_path: Path,
) -> None:
    # The process kills itself with SIGKILL in the middle of writing the header (at its fsync).
    code = f"""
import os, signal
from pathlib import Path
from game.battle.journal import JournalWriter
from game.battle.setup import setup_from_map
from game.maps import load_map
setup = setup_from_map(load_map(Path({str(HULL)!r})), seed=1)
os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)
JournalWriter.create(Path("battle.jsonl"), setup)
"""
    crashed = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=ENV, capture_output=True, timeout=120
    )
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    assert not (tmp_path / "battle.jsonl").exists()

    out = io.StringIO()
    journal = tmp_path / "battle.jsonl"
    assert run_battle(str(HULL), str(journal), computer=[], stdout=out, stdin=io.StringIO()) == 0
    assert json.loads(out.getvalue().splitlines()[0])["commands"] == 0
    assert read_journal(journal).entries == ()
