"""`tessera bench`: every speed goal, compiled and (for the grid kernels) as the reference.

The compiled figures are measured in this process; the grid kernels' reference figures in a
child process with NUMBA_DISABLE_JIT=1 (`python -m game.bench.grid --measure`), running the very
same source. The grid's goals are in game/bench/grid.py, the battle's in game/bench/battle.py,
the window's in game/bench/window.py; this module runs them and prints the table.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import numpy as np

from game.bench.battle import GOALS as BATTLE_GOALS
from game.bench.battle import measure_battle
from game.bench.grid import GOALS, REF_SUFFIX, SEED, SIZE, UNITS, measure
from game.bench.query import GOALS as QUERY_GOALS
from game.bench.query import measure_query
from game.bench.rulesets import goals as ruleset_goals
from game.bench.rulesets import measure_rulesets
from game.bench.window import run_window_bench
from game.grid.jit import JIT_ENABLED


def _reference() -> dict[str, float]:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [sys.executable, "-m", "game.bench.grid", "--measure"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        print(f"reference run failed: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return {}
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def _fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def run_bench(quick: bool = False) -> int:
    if not JIT_ENABLED:
        print("numba is not available or the JIT is disabled: nothing compiled to measure.")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, {_cpu_model()}, "
        f"Python {platform.python_version()}, numpy {np.__version__}, numba {_numba_version()}"
    )
    print(f"map {SIZE[0]}x{SIZE[1]}x{SIZE[2]}, {UNITS} units, seed {SEED}; medians unless p95")
    compiled = measure(quick)
    compiled.update(measure_battle(quick))
    compiled.update(measure_query(quick))
    compiled.update(measure_rulesets(quick))
    reference = _reference()
    header = (
        f"{'operation':<48} {'figure':>15} {'goal':>13} {'no-JIT':>11} {'ratio':>8}"
        f" {'numba ref':>10} {'x ref':>6}  met"
    )
    print(header)
    print("-" * len(header))
    for goal in (*GOALS, *BATTLE_GOALS, *QUERY_GOALS, *ruleset_goals()):
        got = compiled.get(goal.key)
        if got is None:  # a ruleset's run in which no enemy was seen: no hover to time
            print(f"{goal.label:<48} {'not timed':>15}")
            continue
        ref = reference.get(goal.key)
        ratio = ref / got if ref else None
        ratio_text = f"{ratio:.0f}x" if ratio else "-"
        if goal.seconds is None:
            goal_text, verdict = "-", "info"
        else:
            met = got <= goal.seconds and (
                goal.ratio is None or (ratio is not None and ratio >= goal.ratio)
            )
            goal_text = _fmt(goal.seconds) + (f", {goal.ratio:.0f}x" if goal.ratio else "")
            verdict = "yes" if met else "NO"
        figure = _fmt(got) + (" p95" if goal.stat == "p95" else "")
        # The plain numba version of the same operation, timed interleaved with ours: how many
        # times its time ours takes (the fair figure on a loaded machine).
        plain = compiled.get(goal.key + REF_SUFFIX)
        plain_text, times_text = (
            ("-", "-") if plain is None else (_fmt(plain), f"{got / plain:.1f}")
        )
        print(
            f"{goal.label:<48} {figure:>15} {goal_text:>13} "
            f"{_fmt(ref) if ref else '-':>11} {ratio_text:>8} {plain_text:>10} {times_text:>6}"
            f"  {verdict}"
        )
    run_window_bench(quick)
    return 0


def _cpu_model() -> str:
    """The processor's name (Linux's /proc/cpuinfo), else what the platform module knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def _numba_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("numba")
    except PackageNotFoundError:
        return "-"


if __name__ == "__main__":
    sys.exit(run_bench("--quick" in sys.argv))
