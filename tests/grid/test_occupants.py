"""Occupancy with two entities in one cell (P-MOV-8): what the kernels read of a shared cell.

A move nobody could steer may end on an occupied cell; the two then share it. The index names
the first of them; the per-viewer flags of that one speak for the whole cell, so the cell blocks
a viewer's sight (P-LOS-3) or a mover's path (P-MOV-4) if either occupant does, and neither
blocks the unit standing in it.
"""

from __future__ import annotations

import pytest

from game.grid.occupants import MOVE_BLOCKED, MOVE_FREE, MOVE_PASS_COST, Occupancy, Occupant

SHAPE = (6, 6, 1)
CELL = (2, 2, 0)
ADA = Occupant("ada", CELL, "red")
BO = Occupant("bo", CELL, "blue")
CY = Occupant("cy", (4, 4, 0), "red")


def test_p_mov_8_two_may_share_a_cell_and_all_at_names_both_in_order() -> None:
    occ = Occupancy(SHAPE, [ADA, BO, CY])
    assert occ.at(CELL) == ADA
    assert occ.all_at(CELL) == (ADA, BO)
    assert occ.all_at(CY.cell) == (CY,) and occ.all_at((0, 0, 0)) == ()
    assert occ.shared == {CELL: (ADA, BO)}


def test_p_mov_8_three_in_one_cell_are_refused() -> None:
    with pytest.raises(ValueError, match="two at most"):
        Occupancy(SHAPE, [ADA, BO, Occupant("dan", CELL, "green")])


def test_p_mov_4_a_shared_cell_blocks_a_mover_if_either_occupant_is_its_enemy() -> None:
    # For cy (red) the cell holds an ally (ada, +1 to pass) and an enemy (bo): it is blocked.
    occ = Occupancy(SHAPE, [ADA, BO, CY])
    assert occ.move_codes(CY)[0] == MOVE_BLOCKED
    # For a blue mover the cell holds an enemy (ada) and an ally (bo): blocked as well.
    assert occ.move_codes(Occupant("eve", (0, 0, 0), "blue"))[0] == MOVE_BLOCKED
    # A mover of a third, neutral entity's view: both are neutral to it, +1 to pass.
    neutral = Occupant("nu", (0, 0, 0), "grey", neutral=True)
    assert occ.move_codes(neutral)[0] == MOVE_PASS_COST


def test_p_mov_8_the_shared_cell_does_not_block_either_of_its_own_occupants() -> None:
    occ = Occupancy(SHAPE, [ADA, BO])
    assert occ.move_codes(BO)[0] == MOVE_FREE  # bo leaves a cell held by his enemy ada
    assert occ.sight_blockers(BO)[0] == 0


def test_p_los_3_a_shared_cell_blocks_sight_if_either_occupant_is_an_enemy() -> None:
    # cy sees through her ally ada, but not through bo beside her in the cell.
    occ = Occupancy(SHAPE, [ADA, BO, CY])
    assert occ.sight_blockers(CY)[0] == 1
