"""`tessera bench`'s rows per ruleset (issue 15): the hover preview and a computer's turn under
every playable ruleset, on a shipped map; run on a tiny budget, speed never asserted."""

from __future__ import annotations

from game.bench.rulesets import HOVER_GOAL, TURN_GOAL, goals, map_of, measure_rulesets, play_ruleset
from game.tactics.ruleset import playable_ids


def test_every_playable_ruleset_has_a_hover_row_and_a_turn_row_with_the_issues_goals() -> None:
    rows = {g.key: g for g in goals()}
    for ruleset in playable_ids():
        assert rows[f"hover_{ruleset}"].seconds == HOVER_GOAL == 100e-6
        assert rows[f"turn_{ruleset}"].seconds == TURN_GOAL == 0.1
        assert rows[f"hover_{ruleset}"].stat == rows[f"turn_{ruleset}"].stat == "median"
        assert rows[f"hover_{ruleset}_p95"].stat == rows[f"turn_{ruleset}_p95"].stat == "p95"
        assert ruleset in rows[f"turn_{ruleset}"].label


def test_the_sword_rulesets_play_the_keep_and_the_gun_rulesets_the_station() -> None:
    assert map_of("fantasy") == map_of("myst") == "keep_gate"
    assert {map_of(r) for r in ("periferie", "cepheus", "d20")} == {"station_interior"}


def test_a_short_run_times_hovers_and_whole_turns() -> None:
    run = play_ruleset("cepheus", 12)
    assert run.turns and all(seconds > 0 for seconds in run.turns)
    assert len(run.hovers) == len(run.worded)
    assert all(w >= h > 0 for h, w in zip(run.hovers, run.worded, strict=True))


def test_the_ruleset_bench_measures_every_row_it_prints_on_a_tiny_budget() -> None:
    figures = measure_rulesets(commands=20)
    assert set(figures) == {g.key for g in goals()}
    assert all(seconds > 0 for seconds in figures.values())
