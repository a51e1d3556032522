"""`tessera bench` measures on a fixed battlefield; speed itself is never asserted in tests."""

from __future__ import annotations

from pathlib import Path

from game.bench.battle import GOALS as BATTLE_GOALS
from game.bench.battle import battle_setup, computer_battle, journal_length, measure_battle
from game.bench.grid import GOALS, REF_SUFFIX, SIZE, UNITS, battlefield, measure
from game.grid.jit import JIT_ENABLED


def test_the_bench_battlefield_is_the_same_for_the_same_seed_and_its_units_stand() -> None:
    grid_a, units_a = battlefield(7)
    grid_b, units_b = battlefield(7)
    assert grid_a.shape == SIZE
    assert (grid_a.obstacle == grid_b.obstacle).all()
    assert units_a == units_b
    assert len({u.cell for u in units_a}) == UNITS
    assert all(grid_a.standable[u.cell] for u in units_a)
    assert {u.faction for u in units_a} == {"red", "blue"}


def test_the_bench_measures_every_goal_it_prints() -> None:
    figures = measure(quick=True)
    # Issue 18's kernels are timed with their plain numba reference beside them.
    compared = {"los40", "los40_call", "cover48_call", "vis16", "reach10"}
    referenced = {key + REF_SUFFIX for key in compared} if JIT_ENABLED else set()
    assert set(figures) == {g.key for g in GOALS} | referenced
    assert all(seconds > 0 for seconds in figures.values())


def test_the_battle_bench_plays_the_deck_with_its_sixteen_units_in_two_factions() -> None:
    grid, setup = battle_setup()
    deck, units = battlefield()
    assert (grid.obstacle == deck.obstacle).all()
    assert [(u.id, u.cell, u.faction) for u in setup.units] == [
        (o.id, o.cell, o.faction) for o in units
    ]
    assert set(setup.computer) == {"red", "blue"}


def test_the_computer_battle_writes_a_journal_of_the_commands_it_timed(tmp_path: Path) -> None:
    journal = tmp_path / "bench.journal"
    turns = computer_battle(journal, 12)
    assert journal_length(journal) == 12
    assert turns and all(seconds > 0 for seconds in turns)


def test_the_battle_bench_measures_every_goal_it_prints() -> None:
    figures = measure_battle(quick=True)
    assert set(figures) == {g.key for g in BATTLE_GOALS}
    assert all(seconds > 0 for seconds in figures.values())
