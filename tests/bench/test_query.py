"""The bench's query goal: its scenario is answered without an error, and each goal gets a
figure (speed itself is never asserted)."""

from __future__ import annotations

from pathlib import Path

from game.bench.query import GOALS, SCENARIO, measure_query
from game.scenario.parse import parse_scenario
from game.scenario.queries import answer_all


def test_the_bench_scenario_answers_every_query_without_an_error() -> None:
    battlefield, queries = parse_scenario(SCENARIO, Path.cwd())
    results = answer_all(battlefield, queries)["results"]
    assert len(results) == 4
    assert [r for r in results if "error" in r] == []


def test_measure_query_gives_a_positive_figure_for_each_goal() -> None:
    figures = measure_query(quick=True)
    assert set(figures) == {g.key for g in GOALS}
    assert all(seconds > 0 for seconds in figures.values())
