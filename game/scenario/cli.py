"""`tessera query`: read a scenario, print the answers as JSON; bad input exits 2 with one line."""

from __future__ import annotations

import json
import sys

from game.grid.jit import use_python_kernels
from game.rules.reader import ScenarioError
from game.scenario.source import read_scenario

#: Up to this many queries, and this many movement searches among them, a query runs its kernels
#: as plain Python: numba's start-up (~0.5 s) costs more than they save (docs/performance.md).
PYTHON_KERNELS_QUERIES = 200
PYTHON_KERNELS_SEARCHES = 8
#: The queries that run a movement search, the dearest kernel in plain Python: ~2 ms walking,
#: up to ~85 ms flying at 0 g (compiled: 0.2 to 3 ms).
SEARCHES = ("reachable", "path")


def few_kernel_calls(data: object) -> bool:
    """Whether a scenario's queries are few enough to answer with plain Python kernels: never
    for a battle journal (replaying it runs the sight kernels over the map for every command)."""
    if not isinstance(data, dict) or "battle" in data:
        return not isinstance(data, dict)
    queries = data.get("queries", [])
    if not isinstance(queries, list):
        return True  # refused before any kernel runs
    searches = sum(isinstance(q, dict) and q.get("q") in SEARCHES for q in queries)
    return len(queries) <= PYTHON_KERNELS_QUERIES and searches <= PYTHON_KERNELS_SEARCHES


def run_query(source: str) -> int:
    try:
        data, base = read_scenario(source)
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if few_kernel_calls(data):
        use_python_kernels()  # before the first kernel module is imported, below
    # Imported here, after the kernels' kind is chosen: these load the grid's kernels.
    from game.scenario.parse import parse_scenario
    from game.scenario.queries import answer_all

    try:
        battlefield, queries = parse_scenario(data, base)
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    json.dump(answer_all(battlefield, queries), sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0
