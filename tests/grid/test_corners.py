"""Corner-to-corner lines (D-1, 004:l.52-54) and the flanking centre line (004:l.98), exact.

Every case runs compiled and as pure Python (the `mode` fixture); test_kernels_without_jit.py
runs this file again with NUMBA_DISABLE_JIT=1. Points are lattice corners: cell (i, j, k) is
the cube [i, i+1] x [j, j+1] x [k, k+1].
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from game.grid import corners

Cell = tuple[int, int, int]


@pytest.fixture(params=["compiled", "python"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "python":
        for name, value in list(vars(corners).items()):
            if hasattr(value, "py_func"):
                monkeypatch.setattr(corners, name, value.py_func)
    yield request.param


def mask(shape: Cell, *marked: Cell) -> np.ndarray:
    m = np.zeros(shape, dtype=np.uint8)
    for cell in marked:
        m[cell] = 1
    return m


def test_a_line_through_a_marked_cube_blocks(mode: str) -> None:
    # (0,0,0) -> (3,3,3) runs through the centre of cube (1,1,1).
    assert corners.segment_blocked(mask((4, 4, 4), (1, 1, 1)), 0, 0, 0, 3, 3, 3)
    assert not corners.segment_blocked(mask((4, 4, 4), (2, 1, 1)), 0, 0, 0, 3, 3, 3)


def test_a_line_that_only_touches_an_edge_does_not_block_d1(mode: str) -> None:
    # D-1: "a line that only touches an edge does not block". x = 2t, y = 2 - 2t, z = t: at
    # t = 1/2 it is on the edge x = 1, y = 1 of cube (1,1,0); before it is inside (0,1,0),
    # after inside (1,0,0). Cubes (1,1,0) and (0,0,0) are only touched, even both together.
    assert not corners.segment_blocked(mask((3, 3, 1), (1, 1, 0)), 0, 2, 0, 2, 0, 1)
    assert not corners.segment_blocked(mask((3, 3, 1), (1, 1, 0), (0, 0, 0)), 0, 2, 0, 2, 0, 1)
    assert corners.segment_blocked(mask((3, 3, 1), (0, 1, 0)), 0, 2, 0, 2, 0, 1)
    assert corners.segment_blocked(mask((3, 3, 1), (1, 0, 0)), 0, 2, 0, 2, 0, 1)


def test_a_line_along_a_face_blocks_only_inside_a_wall_two_cells_thick(mode: str) -> None:
    # The line y = 1 from (0,1,0) to (3,1,1) runs on the face shared by cubes (1,0,0) and
    # (1,1,0): one of them alone is only touched; both make a wall the line runs inside.
    assert not corners.segment_blocked(mask((4, 3, 1), (1, 0, 0)), 0, 1, 0, 3, 1, 1)
    assert not corners.segment_blocked(mask((4, 3, 1), (1, 1, 0)), 0, 1, 0, 3, 1, 1)
    assert corners.segment_blocked(mask((4, 3, 1), (1, 0, 0), (1, 1, 0)), 0, 1, 0, 3, 1, 1)


def test_a_line_on_the_floor_of_the_map_touches_cubes_but_never_enters_them(mode: str) -> None:
    # z = 0 throughout: the bottom faces of the cubes; below the map nothing is marked.
    assert not corners.segment_blocked(mask((5, 1, 1), (2, 0, 0)), 0, 0, 0, 5, 1, 0)


def test_a_wall_between_two_cells_on_one_level_gives_cover_as_on_the_flat_004_l52(
    mode: str,
) -> None:
    # 004:l.52: from the attacker's best corner every line to some corner of the target's
    # cell that crosses a blocking cell gives cover. Attacker (0,0,0), wall (2,0,0), target
    # (4,0,0): from each of the attacker's corners the line to a far target corner on the
    # other level and the other row runs through the wall's cube.
    wall = mask((6, 1, 1), (2, 0, 0))
    assert corners.cover_corner(wall, (0, 0, 0), (4, 0, 0)) == -1
    # Nothing in between: the first corner (0,0,0) already sees the whole target.
    assert corners.cover_corner(mask((6, 1, 1)), (0, 0, 0), (4, 0, 0)) == 0


def test_the_attacker_picks_the_corner_that_clears_a_wall_beside_the_line_d1(mode: str) -> None:
    # Attacker (0,0,0), target (3,1,0) on a 5x3 map, a wall at (1,2,0) below the line. The
    # corners with y = 0 see the target whole: from (0,0,0) the steepest line goes to (4,2,1),
    # y = x/2, which is 0.5..1 over x 1..2: row 0, never row 2. So the first corner clears.
    assert corners.cover_corner(mask((5, 3, 1), (1, 2, 0)), (0, 0, 0), (3, 1, 0)) == 0


def test_lines_across_levels_run_between_cube_corners_d1(mode: str) -> None:
    # D-1: "across levels the lines run between cube corners". An attacker on a ledge cell
    # (0,0,1) and a target below at (3,0,0) behind a block (2,0,0). Every attacker corner has
    # z = 1 or 2 and every line falls or stays level; from (1,0,1) to (3,1,0) the line has
    # y = (x-1)/2 in 0.5..1 and z = 1 - (x-1)/2 in 0.5..0 over x 2..3: inside the block, and
    # the corners further back or higher see the block in the same way. Cover.
    assert corners.cover_corner(mask((4, 1, 2), (2, 0, 0)), (0, 0, 1), (3, 0, 0)) == -1
    # A block on the upper level, (2,0,1), instead: from the corner (0,0,1) (index 0) every
    # line starts at z = 1 and never rises, so it runs under the block or along its bottom
    # face (z = 1, only touched): that corner sees the target whole.
    assert corners.cover_corner(mask((4, 1, 2), (2, 0, 1)), (0, 0, 1), (3, 0, 0)) == 0


def test_any_line_between_diagonal_neighbours_crosses_the_side_cells_004_l54(mode: str) -> None:
    # 004:l.54: against an adjacent target, "qualsiasi linea ... attraversa un muro". Between
    # (0,0,0) and (1,1,0) the line from corner (1,0,0) to (2,1,1) runs inside (1,0,0).
    assert corners.adjacent_blocked(mask((2, 2, 1), (1, 0, 0)), (0, 0, 0), (1, 1, 0))
    assert corners.adjacent_blocked(mask((2, 2, 1), (0, 1, 0)), (0, 0, 0), (1, 1, 0))
    # Side by side, the lines stay inside the two cells: nothing else can be crossed.
    assert not corners.adjacent_blocked(mask((2, 2, 1), (0, 1, 0)), (0, 0, 0), (1, 0, 0))


@pytest.mark.parametrize(
    ("ally", "flanked"),
    [
        ((2, 1, 0), True),  # straight across: borders x = 1 and x = 2
        ((2, 2, 0), True),  # across the corners (1,1) and (2,2): "compresi gli angoli"
        ((2, 0, 0), False),  # a knight's move: enters x = 1 at y 1.25, leaves at y = 0.75
        ((1, 2, 0), False),  # the side below: borders x = 1 and y = 2 are not opposite
    ],
)
def test_the_centre_line_flanks_when_it_crosses_opposite_borders_004_l98(
    mode: str, ally: Cell, flanked: bool
) -> None:
    # 004:l.98: "Se la retta interseca il contorno opposto ... (compresi gli angoli ...)".
    # Attacker (0,1,0) centre (0.5,1.5), target (1,1,0) the square [1,2] x [1,2]; for
    # (2,2,0) the attacker is at (0,0,0): the diagonal y = x passes both corners.
    attacker = (0, 0, 0) if ally == (2, 2, 0) else (0, 1, 0)
    assert corners.flanks(attacker, ally, (1, 1, 0)) is flanked


def test_flanking_from_above_and_below_crosses_the_top_and_bottom_faces(mode: str) -> None:
    assert corners.flanks((1, 1, 0), (1, 1, 2), (1, 1, 1))
    assert not corners.flanks((1, 1, 0), (2, 1, 1), (1, 1, 1))
