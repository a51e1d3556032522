"""`tessera bench` measures on a fixed battlefield; speed itself is never asserted in tests."""

from __future__ import annotations

from game.bench import GOALS, SIZE, UNITS, battlefield, measure


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
    assert set(figures) == {g.key for g in GOALS}
    assert all(seconds > 0 for seconds in figures.values())
