"""`tessera bench`, the query's goal: a short `tessera query` (the contract's example scenario)
from a fresh process, started as a user starts it, next to a bare `python -c pass`."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from game.bench.grid import Goal

#: QUERY-FORMAT.md's example: an inline map, line of sight, cover and a hit chance.
SCENARIO = {
    "ruleset": "periferie",
    "map": {
        "size": [20, 12, 3],
        "gravity": 0.2,
        "cells": [
            {"at": [5, 5, 0], "obstacle": "full"},
            {"at": [8, 3, 0], "obstacle": "half"},
            {"at": [2, 2, 0], "terrain": ["rough"]},
            {"at": [4, 4, 1], "floor": True},
        ],
    },
    "entities": [
        {
            "id": "ada",
            "faction": "red",
            "at": [1, 3, 0],
            "checks": {"precisione (armi a distanza)": 3},
            "weapon": {"hit": 70, "damage": "2d6", "type": "perforante", "kind": "firearm"},
        },
        {"id": "bo", "faction": "blue", "at": [9, 3, 0]},
    ],
    "queries": [
        {"q": "los", "from": "ada", "to": "bo"},
        {"q": "cover", "attacker": "ada", "target": "bo"},
        {"q": "hit_chance", "attacker": "ada", "target": "bo"},
        {"q": "reachable", "entity": "bo"},
    ],
}

GOALS = (
    Goal("query", "tessera query, a short scenario (fresh process)", 0.4),
    Goal("python_pass", "python -c pass (the floor), for comparison", None),
)


def wall_seconds(argv: list[str], runs: int, env: dict[str, str]) -> list[float]:
    """Each run's wall time, after one run not counted (caches warm, as a user's are)."""
    times = []
    for i in range(runs + 1):
        start = time.perf_counter()
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True)
        if i:
            times.append(time.perf_counter() - start)
    return times


def measure_query(quick: bool = False) -> dict[str, float]:
    """The medians of a short query and of `python -c pass`, each in a new interpreter."""
    runs = 5 if quick else 15
    # The child runs this very source, wherever `tessera` itself is installed.
    source_root = str(Path(__file__).resolve().parents[2])
    path = os.environ.get("PYTHONPATH")
    env = dict(os.environ, PYTHONPATH=source_root + (os.pathsep + path if path else ""))
    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as folder:
        scenario = Path(folder) / "scenario.json"
        scenario.write_text(json.dumps(SCENARIO), encoding="utf-8")
        query = wall_seconds([sys.executable, "-m", "game", "query", str(scenario)], runs, env)
    floor = wall_seconds([sys.executable, "-c", "pass"], runs, env)
    return {"query": statistics.median(query), "python_pass": statistics.median(floor)}
