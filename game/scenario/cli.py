"""`tessera query`: read a scenario, print the answers as JSON; bad input exits 2 with one line."""

from __future__ import annotations

import json
import sys

from game.rules.reader import ScenarioError
from game.scenario.parse import load_scenario
from game.scenario.queries import answer_all


def run_query(source: str) -> int:
    try:
        battlefield, queries = load_scenario(source)
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    json.dump(answer_all(battlefield, queries), sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0
