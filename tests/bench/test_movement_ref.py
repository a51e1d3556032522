"""The bench's plain numba Dijkstra must answer as `reachable` does on a flat walk."""

from __future__ import annotations

from game.bench.grid import battlefield
from game.bench.movement_ref import plain_reachable_rows
from game.grid.movement import MoveRequest, reachable
from game.grid.occupants import Occupancy


def test_the_plain_reference_walk_lists_the_same_cells_and_costs_as_reachable() -> None:
    # The bench deck has no stairs, ladders or water: a walk of 10 from each of four units on
    # level 0 or 4 is a flat walk, where both searches apply P-MOV-1..4 alike.
    grid, occupants = battlefield()
    occupancy = Occupancy(grid.shape, occupants)
    request = MoveRequest({"walk": 10})
    for mover in occupants[:4]:
        expected = reachable(grid, occupancy, mover, request)
        rows = plain_reachable_rows(grid, occupancy, mover, 10).tolist()
        assert {(x, y, z): c for x, y, z, c in rows} == expected
        assert len(expected) > 50
