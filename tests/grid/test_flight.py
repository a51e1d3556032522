"""Straight flights in microgravity (P-ZERO-1, P-ZERO-2): `movement.straight_flight`.

What is tested: the cells of a straight line flown from the mover towards a cell (which may be
beyond this turn's reach or off the map), where it stops (the map's edge, an obstacle, an enemy,
a floor or a P-MOV-3 corner; any unit for a drift), and that it agrees with the microgravity
jump search, which flies the same lines to the surfaces it reaches this turn. Lines are worked
by hand: each step moves one cell along the longest axis, the others rounded, halves up.
This file also runs with NUMBA_DISABLE_JIT=1 (tests/grid/test_kernels_without_jit.py).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.grid.geometry import chebyshev
from game.grid.model import OBSTACLE_FULL, OBSTACLE_HALF, Cell, Grid
from game.grid.movement import Flight, MoveRequest, on_surface, reachable, straight_flight
from game.grid.occupants import Occupancy, Occupant


def space(
    size: Cell, obstacles: dict[Cell, int] | None = None, floors: tuple[Cell, ...] = ()
) -> Grid:
    obstacle = np.zeros(size, dtype=np.uint8)
    for cell, code in (obstacles or {}).items():
        obstacle[cell] = code
    floor = np.zeros(size, dtype=np.bool_)
    for cell in floors:
        floor[cell] = True
    return Grid.build(obstacle, np.zeros(size, dtype=np.uint8), floor, gravity=0.0)


ME = Occupant("me", (0, 1, 0), "red")


def fly(
    grid: Grid, toward: Cell, limit: int | None = None, *others: Occupant, **kw: bool
) -> Flight:
    return straight_flight(grid, Occupancy(grid.shape, [ME, *others]), ME, toward, limit, **kw)


def test_p_zero_1_a_clear_line_is_flown_to_its_end_or_as_far_as_the_limit() -> None:
    grid = space((10, 3, 1))
    assert fly(grid, (9, 1, 0)) == Flight(tuple((x, 1, 0) for x in range(1, 10)))
    # A jump of 8 cells a turn (human jump 4, doubled): the first turn ends at (8, 1, 0).
    assert fly(grid, (9, 1, 0), 8).cells[-1] == (8, 1, 0)
    assert fly(grid, (9, 1, 0), 4) == Flight(((1, 1, 0), (2, 1, 0), (3, 1, 0), (4, 1, 0)))
    assert fly(grid, (0, 1, 0)) == Flight(())
    assert fly(grid, (9, 1, 0), 0) == Flight(())


def test_p_zero_1_a_slanted_line_rounds_halves_up() -> None:
    # From (0, 0, 0) by (6, 3, 0): y = round(3k/6) = 0.5, 1, 1.5, 2, 2.5, 3 -> 1, 1, 2, 2, 3, 3.
    grid = space((8, 5, 1))
    me = Occupant("me", (0, 0, 0), "red")
    flight = straight_flight(grid, Occupancy(grid.shape, [me]), me, (6, 3, 0))
    assert flight.cells == ((1, 1, 0), (2, 1, 0), (3, 2, 0), (4, 2, 0), (5, 3, 0), (6, 3, 0))
    assert flight.stopped_at is None


def test_p_zero_2_a_line_stops_before_an_obstacle_and_at_the_edge_of_the_map() -> None:
    crate = space((10, 3, 1), {(5, 1, 0): OBSTACLE_HALF})
    assert fly(crate, (9, 1, 0)) == Flight(tuple((x, 1, 0) for x in range(1, 5)), (5, 1, 0))
    # Towards (13, 1, 0), 13 cells away: the map ends after x = 9.
    edge = fly(space((10, 3, 1)), (13, 1, 0))
    assert edge.cells[-1] == (9, 1, 0) and edge.stopped_at == (10, 1, 0)
    assert len(edge.cells) == 9


def test_p_mov_4_an_enemy_stops_a_flight_an_ally_only_a_drift() -> None:
    grid = space((10, 3, 1))
    enemy = Occupant("en", (3, 1, 0), "blue")
    ally = Occupant("al", (3, 1, 0), "red")
    assert fly(grid, (9, 1, 0), None, enemy) == Flight(((1, 1, 0), (2, 1, 0)), (3, 1, 0))
    assert fly(grid, (9, 1, 0), None, ally).stopped_at is None
    drift = fly(grid, (9, 1, 0), None, ally, any_unit_stops=True)
    assert drift == Flight(((1, 1, 0), (2, 1, 0)), (3, 1, 0))


def test_p_mov_3_a_diagonal_step_past_an_obstacle_corner_is_refused() -> None:
    # (0, 1) -> (1, 0) cuts the corner of the wall at (1, 1): refused at once (P-MOV-3).
    wall = space((3, 3, 1), {(1, 1, 0): OBSTACLE_FULL})
    assert fly(wall, (2, -1, 0)) == Flight((), (1, 0, 0))


def test_a_floor_stops_a_flight_rising_through_it() -> None:
    # A deck at level 1 over (1..2, 1): the slab is the underside of the level-1 cell.
    deck = space((4, 3, 3), floors=((1, 1, 1), (2, 1, 1)))
    me = Occupant("me", (0, 1, 0), "red")
    flight = straight_flight(deck, Occupancy(deck.shape, [me]), me, (2, 1, 2))
    assert flight.cells == () and flight.stopped_at == (1, 1, 1)
    level = straight_flight(deck, Occupancy(deck.shape, [me]), me, (3, 1, 0))
    assert level.stopped_at is None  # under the deck, along level 0


@st.composite
def microgravity_maps(draw: st.DrawFn) -> tuple[Grid, Occupancy, Occupant]:
    w, h, d = draw(st.integers(2, 6)), draw(st.integers(1, 5)), draw(st.integers(1, 3))
    cells = [(x, y, z) for x in range(w) for y in range(h) for z in range(d)]
    n = len(cells)
    obstacle = draw(st.lists(st.sampled_from([0, 0, 0, 0, 1, 2, 3]), min_size=n, max_size=n))
    floor = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    start = draw(st.sampled_from(cells))
    obstacle[cells.index(start)] = 0
    grid = Grid.build(
        np.array(obstacle, dtype=np.uint8).reshape(w, h, d),
        np.zeros((w, h, d), dtype=np.uint8),
        np.array(floor, dtype=np.bool_).reshape(w, h, d),
        gravity=0.0,
    )
    me = Occupant("me", start, "red")
    others = [
        Occupant(f"o{k}", c, draw(st.sampled_from(["red", "blue"])))
        for k, c in enumerate(draw(st.lists(st.sampled_from(cells), max_size=3, unique=True)))
        if c != start and obstacle[cells.index(c)] == 0
    ]
    return grid, Occupancy(grid.shape, [me, *others]), me


@settings(max_examples=150, deadline=None)
@given(microgravity_maps())
def test_p_zero_1_the_flight_reaches_exactly_the_surfaces_the_jump_search_lists(case) -> None:
    """The search flies the same straight lines this turn: with a budget as long as the map,
    a free surface is listed exactly when the flight to it gets there unstopped."""
    grid, occupancy, me = case
    far = max(grid.shape)
    listed = reachable(grid, occupancy, me, MoveRequest({"jump": far}, mode="jump"))
    for target in listed:
        flight = straight_flight(grid, occupancy, me, target)
        assert flight.stopped_at is None and flight.cells[-1] == target
        assert len(flight.cells) == chebyshev(me.cell, target) == listed[target]
    if not on_surface(grid, occupancy, me):
        assert not listed  # a jump leaps from a surface
        return
    for x in range(grid.shape[0]):
        for y in range(grid.shape[1]):
            for z in range(grid.shape[2]):
                target = (x, y, z)
                if target == me.cell or occupancy.at(target) is not None:
                    continue
                flight = straight_flight(grid, occupancy, me, target)
                there = on_surface(grid, occupancy, replace(me, cell=target))
                reached = flight.stopped_at is None
                assert (target in listed) == (reached and there), (target, flight)
