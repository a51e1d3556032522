"""Line of sight: interiors block, grazes need one free side, entities by relation (P-LOS-1..3).

Geometry in comments uses doubled coordinates: cell i spans [2i, 2i+2], its centre is 2i+1.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.grid import los
from game.grid.geometry import OffMapError, chebyshev
from game.grid.los import (
    FAR,
    LOS_BLOCKED,
    LOS_BLOCKED_GRAZED,
    LOS_CLEAR,
    LOS_CLEAR_GRAZED,
    MEMO_PLACES,
    blocker_boxes,
    cells_in_view,
    clearance,
    clearance_kernel,
    explain_line_of_sight,
    level_clearance,
    level_clearance_kernel,
    level_rows,
    line_of_sight,
    lines_of_sight,
    pair_memo,
    set_view_threads,
    view_threads,
    visibility_kernel,
    visibility_matrix,
    walk_shadowed,
)
from game.grid.model import OBSTACLE_FULL, OBSTACLE_HALF, OBSTACLE_THIN, Cell, Grid
from game.grid.occupants import Occupancy, Occupant, Size

if TYPE_CHECKING:
    from tests.grid.conftest import AsciiGrid

#: Hand-worked tests run twice: compiled kernels and their pure-Python source.
both_modes = pytest.mark.usefixtures("kernel_mode")

# A 4x4 diagonal from A (0,0) to B (3,3): centres (1,1) -> (7,7). It passes the corners (2,2),
# (4,4), (6,6), touching (1,0)/(0,1), (2,1)/(1,2), (3,2)/(2,3), and enters (1,1) and (2,2).
DIAGONAL = """
A{a}..
{b}...
....
...B
"""


def _diagonal(
    ascii_grid: AsciiGrid, right_of_line: str, left_of_line: str
) -> tuple[Grid, Cell, Cell]:
    grid, m = ascii_grid(DIAGONAL.format(a=right_of_line, b=left_of_line))
    return grid, m["A"], m["B"]


@both_modes
def test_p_los_1_open_ground_is_clear_and_a_wall_on_the_line_blocks(
    ascii_grid: AsciiGrid,
) -> None:
    grid, m = ascii_grid("A...B")
    assert line_of_sight(grid, m["A"], m["B"])
    grid, m = ascii_grid("A.#.B")
    # The line y = 1 runs through the middle of (2,0): its interior.
    result = explain_line_of_sight(grid, m["A"], m["B"])
    assert not result.clear
    assert result.blocked_by == (2, 0, 0)
    assert result.rules == ("P-LOS-1",)


@both_modes
def test_p_los_1_thin_blocks_like_full_and_half_never_blocks(ascii_grid: AsciiGrid) -> None:
    grid, m = ascii_grid("A.t.B")
    assert not line_of_sight(grid, m["A"], m["B"])
    grid, m = ascii_grid("AhhhB")
    assert line_of_sight(grid, m["A"], m["B"])


@both_modes
def test_p_los_2_corner_grazed_with_one_side_free_is_clear(ascii_grid: AsciiGrid) -> None:
    grid, a, b = _diagonal(ascii_grid, right_of_line="#", left_of_line=".")
    result = explain_line_of_sight(grid, a, b)
    assert result.clear
    assert result.grazed == ((1, 0, 0),)
    assert result.rules == ("P-LOS-1", "P-LOS-2")


@both_modes
def test_p_los_2_corner_grazed_on_both_sides_is_blocked(ascii_grid: AsciiGrid) -> None:
    # (1,0) lies right of the line, (0,1) left of it, both touched at the corner (2,2).
    grid, a, b = _diagonal(ascii_grid, right_of_line="#", left_of_line="#")
    result = explain_line_of_sight(grid, a, b)
    assert not result.clear
    assert set(result.grazed) == {(1, 0, 0), (0, 1, 0)}
    assert result.rules == ("P-LOS-1", "P-LOS-2")


@both_modes
def test_p_los_2_segment_along_a_diagonal_wall_touching_it_all_the_way_is_clear(
    ascii_grid: AsciiGrid,
) -> None:
    # The wall (1,0), (2,1), (3,2) is a staircase the line runs along, touching each cell's
    # corner from the same side: one shift away from it clears them all.
    grid, m = ascii_grid(
        """
        A#..
        ..#.
        ...#
        ...B
        """
    )
    result = explain_line_of_sight(grid, m["A"], m["B"])
    assert result.clear
    assert set(result.grazed) == {(1, 0, 0), (2, 1, 0), (3, 2, 0)}


@both_modes
def test_p_los_2_walls_touched_at_different_places_on_opposite_sides_block(
    ascii_grid: AsciiGrid,
) -> None:
    # (1,0) is touched at (2,2) on the right, (1,2) at (4,4) on the left: no shift clears both.
    grid, m = ascii_grid(
        """
        A#..
        ....
        .#..
        ...B
        """
    )
    result = explain_line_of_sight(grid, m["A"], m["B"])
    assert not result.clear
    assert set(result.grazed) == {(1, 0, 0), (1, 2, 0)}


@both_modes
def test_p_los_2_knight_line_grazes_one_corner(ascii_grid: AsciiGrid) -> None:
    # A (0,0) -> B (3,1): centres (1,1) -> (7,3). At t = 1/2 the line is at (4,2), the corner of
    # (1,0), (2,0), (1,1), (2,1); it goes from (1,0) into (2,1), touching (2,0) and (1,1) only.
    grid, m = ascii_grid(
        """
        A.#.
        ...B
        """
    )
    assert explain_line_of_sight(grid, m["A"], m["B"]).grazed == ((2, 0, 0),)
    assert line_of_sight(grid, m["A"], m["B"])
    grid, m = ascii_grid(
        """
        A.#.
        .#.B
        """
    )
    assert not line_of_sight(grid, m["A"], m["B"])


@both_modes
def test_p_los_2_rising_through_the_edge_between_two_blockers_in_3d(
    ascii_grid: AsciiGrid,
) -> None:
    # A (0,0,0) -> B (3,0,1): centres (1,1,1) -> (7,1,3), D = (6,0,2). At t = 1/2 the line
    # crosses the y-edge at x=4, z=2, going from (1,0,0) into (2,0,1); it touches (2,0,0)
    # below-right and (1,0,1) above-left. With n_y = (2,0,-6): n_y.A = -4; over (2,0,0)
    # 2x - 6z ranges -4..12 (cleared by u_y < 0), over (1,0,1) -16..-4 (cleared by u_y > 0).
    ground = "A...\n...."
    grid, m = ascii_grid(ground.replace("A...", "A.#."), "....\n....")
    b = (3, 0, 1)
    assert line_of_sight(grid, m["A"], b)
    grid, m = ascii_grid(ground.replace("A...", "A.#."), ".#..\n....")
    result = explain_line_of_sight(grid, m["A"], b)
    assert not result.clear
    assert set(result.grazed) == {(2, 0, 0), (1, 0, 1)}


@both_modes
def test_p_los_2_skew_line_through_an_edge_in_3d(ascii_grid: AsciiGrid) -> None:
    # A (0,0,0) -> B (3,2,1): D = (6,4,2). Only at t = 1/2, at (4,3,2), are two coordinates
    # even: a y-edge. The line goes from (1,1,0) into (2,1,1) and touches (2,1,0) and
    # (1,1,1). n_y = (2,0,-6), n_y.A = -4: (2,1,0) has min -4 (u_y < 0 clears it), (1,1,1)
    # has max -4 (u_y > 0 clears it).
    level0 = "A...\n....\n...."
    grid, m = ascii_grid(level0, "....\n.#..\n....")
    assert line_of_sight(grid, m["A"], (3, 2, 1))
    grid, m = ascii_grid(level0.replace("....\n....", "..#.\n...."), "....\n.#..\n....")
    assert grid.obstacle_at((2, 1, 0)).name == "FULL"
    assert not line_of_sight(grid, m["A"], (3, 2, 1))


@both_modes
def test_p_los_2_three_cells_round_a_vertex_leave_no_realisable_shift(
    ascii_grid: AsciiGrid,
) -> None:
    # A (0,0,0) -> B (3,1,1): D = (6,2,2), A = (1,1,1). At t = 1/2 the line passes the vertex
    # (4,2,2), going from (1,0,0) into (2,1,1). With n_x = (0,-2,2), n_y = (2,0,-6),
    # n_z = (-2,6,0) and n.A = 0, -4, 4, the masks are:
    #   (2,0,0): min n_y = -4 -> u_y < 0; max n_z = 4 -> u_z > 0
    #   (1,1,0): max n_x = 0 -> u_x > 0; min n_z = 4 -> u_z < 0
    #   (1,0,1): min n_x = 0 -> u_x < 0; max n_y = -4 -> u_y > 0
    # All three hold only for sign(u) = (+,+,+) or (-,-,-), and no u with D.u = 0 has all
    # signs equal when D > 0: blocked. Any two leave e.g. (+,-,-) for the first two: clear.
    level0 = "A.#.\n.#.."
    grid, m = ascii_grid(level0, ".#..\n....")
    result = explain_line_of_sight(grid, m["A"], (3, 1, 1))
    assert not result.clear
    assert set(result.grazed) == {(2, 0, 0), (1, 1, 0), (1, 0, 1)}
    grid, m = ascii_grid(level0, "....\n....")
    assert line_of_sight(grid, m["A"], (3, 1, 1))


@both_modes
def test_p_los_3_own_cells_never_block_and_the_same_cell_sees_itself() -> None:
    obstacle = np.zeros((4, 1, 1), dtype=np.uint8)
    obstacle[0, 0, 0] = obstacle[3, 0, 0] = OBSTACLE_FULL
    grid = Grid.build(obstacle)
    assert line_of_sight(grid, (0, 0, 0), (3, 0, 0))
    assert line_of_sight(grid, (0, 0, 0), (0, 0, 0))


@both_modes
def test_p_los_2_diagonal_neighbours_between_two_walls_do_not_see_each_other(
    ascii_grid: AsciiGrid,
) -> None:
    # Nothing lies between orthogonal neighbours, but the diagonal from (0,0) to (1,1) passes
    # the corner (2,2) touching (1,0) and (0,1) on opposite sides: blocked, as P-MOV-3 forbids
    # that diagonal step.
    grid, m = ascii_grid(
        """
        A#
        #B
        """
    )
    assert not line_of_sight(grid, m["A"], m["B"])
    assert line_of_sight(grid, m["A"], (0, 1, 0))


def _line_of_units(relation: str, size: Size = Size.MEDIUM) -> tuple[Grid, Occupancy]:
    grid = Grid.empty(5, 1, 1)
    other = {
        "ally": Occupant("o", (2, 0, 0), "blue", size),
        "enemy": Occupant("o", (2, 0, 0), "red", size),
        "neutral": Occupant("o", (2, 0, 0), "civilians", size, neutral=True),
    }[relation]
    units = [Occupant("v", (0, 0, 0), "blue"), other, Occupant("t", (4, 0, 0), "red")]
    return grid, Occupancy(grid.shape, units)


@pytest.mark.parametrize(
    ("relation", "size", "clear"),
    [
        ("ally", Size.MEDIUM, True),
        ("enemy", Size.MEDIUM, False),
        ("enemy", Size.SMALL, True),
        ("neutral", Size.MEDIUM, False),
        ("enemy", Size.LARGE, False),
    ],
)
@both_modes
def test_p_los_3_entities_on_the_line_block_by_relation_and_size(
    relation: str, size: Size, clear: bool
) -> None:
    grid, occupancy = _line_of_units(relation, size)
    viewer = occupancy["v"]
    result = explain_line_of_sight(grid, (0, 0, 0), (4, 0, 0), occupancy, viewer)
    assert result.clear is clear
    assert line_of_sight(grid, (0, 0, 0), (4, 0, 0), occupancy, viewer) is clear
    assert "P-LOS-3" in result.rules
    if not clear:
        assert result.blocked_by == (2, 0, 0)


@both_modes
def test_p_los_3_without_a_viewer_sight_is_terrain_only() -> None:
    grid, occupancy = _line_of_units("enemy")
    assert line_of_sight(grid, (0, 0, 0), (4, 0, 0), occupancy, None)


@both_modes
def test_p_los_3_an_enemy_grazed_counts_like_a_wall_corner() -> None:
    # Diagonal (0,0) -> (3,3): an enemy on (1,0) alone is grazed on one side (clear); with a
    # wall on (0,1) the other side is taken too (blocked).
    viewer = Occupant("v", (0, 0, 0), "blue")
    enemy = Occupant("e", (1, 0, 0), "red")
    open_grid = Grid.empty(4, 4, 1)
    occupancy = Occupancy(open_grid.shape, [viewer, enemy])
    assert line_of_sight(open_grid, (0, 0, 0), (3, 3, 0), occupancy, viewer)
    obstacle = np.zeros((4, 4, 1), dtype=np.uint8)
    obstacle[0, 1, 0] = OBSTACLE_FULL
    walled = Grid.build(obstacle)
    result = explain_line_of_sight(walled, (0, 0, 0), (3, 3, 0), occupancy, viewer)
    assert not result.clear
    assert result.rules == ("P-LOS-1", "P-LOS-2", "P-LOS-3")


@both_modes
def test_p_los_1_cells_outside_the_map_are_a_clear_error() -> None:
    grid = Grid.empty(3, 3, 1)
    with pytest.raises(OffMapError, match=r"line of sight target cell \(3, 0, 0\)"):
        line_of_sight(grid, (0, 0, 0), (3, 0, 0))


@both_modes
def test_p_los_1_a_cell_off_the_map_or_not_a_triple_is_worded_whichever_end_it_is() -> None:
    # One Python call lets the kernel check the bounds (issue 18); every bad cell still gets
    # the worded error, never a wrong answer or a crash in the kernel.
    grid = Grid.empty(3, 3, 2)
    for a, b, which in (
        ((-1, 0, 0), (1, 1, 0), "viewer"),
        ((0, 0, 0), (1, 1, 2), "target"),
        ((0, 3, 0), (1, 1, 0), "viewer"),
        ((0, 0, 0), (1, 1), "target"),
    ):
        with pytest.raises((OffMapError, ValueError), match=f"line of sight {which} cell"):
            line_of_sight(grid, a, b)  # type: ignore[arg-type]
    assert line_of_sight(grid, (0, 0, 0), (2, 2, 1))


def test_the_long_sight_kernels_let_other_threads_run_while_they_work() -> None:
    # The window's frames go on while its worker thread runs a command's fog (docs/window.md):
    # a unit's view and the visibility matrix release the GIL; the short calls do not.
    from game.grid.jit import JIT_ENABLED
    from game.grid.los import los_terrain_kernel, view_kernel, visibility_kernel

    if not JIT_ENABLED:
        pytest.skip("plain Python kernels hold the GIL like any Python code")
    assert view_kernel.targetoptions.get("nogil") is True  # type: ignore[attr-defined]
    assert visibility_kernel.targetoptions.get("nogil") is True  # type: ignore[attr-defined]
    assert not los_terrain_kernel.targetoptions.get("nogil")  # type: ignore[attr-defined]


@both_modes
def test_p_los_3_visibility_matrix_uses_each_viewers_own_blockers() -> None:
    # A row: blue a (0), red r (2), blue b (4), red s (6). For a blue viewer the red units
    # between block; for a red viewer the blue ones do.
    grid = Grid.empty(7, 1, 1)
    units = [
        Occupant("a", (0, 0, 0), "blue"),
        Occupant("r", (2, 0, 0), "red"),
        Occupant("b", (4, 0, 0), "blue"),
        Occupant("s", (6, 0, 0), "red"),
    ]
    seen = visibility_matrix(grid, Occupancy(grid.shape, units))
    expected = [
        # a sees r (adjacent on the line, nothing between), not b (red r between), not s.
        [True, True, False, False],
        # r: a yes, b yes (nothing between 2 and 4), s: blue b between -> no.
        [True, True, True, False],
        # b: a -> red r between -> no; r yes; s yes.
        [False, True, True, True],
        # s: b yes; r: blue b between -> no; a: b between -> no.
        [False, False, True, True],
    ]
    assert seen.tolist() == expected


def test_p_los_3_visibility_matrix_sees_a_side_change_among_the_same_occupant_objects() -> None:
    # P-LOS-3 (issue 18): the blockers kept for an occupancy are found again by the occupants'
    # identity, and an occupant that is not the very one kept is compared field by field. The
    # row of the test above (blue a 0, red r 2, blue b 4, red s 6); then r changes side (a new
    # occupant, same id and cell) while a, b and s stay the same objects. By hand: for the blue
    # a, r and b no blue unit blocks and the only red one is the target: they see everyone;
    # the red s sees b beside it, not r or a (blue b between).
    grid = Grid.empty(7, 1, 1)
    units = [
        Occupant("a", (0, 0, 0), "blue"),
        Occupant("r", (2, 0, 0), "red"),
        Occupant("b", (4, 0, 0), "blue"),
        Occupant("s", (6, 0, 0), "red"),
    ]
    assert not visibility_matrix(grid, Occupancy(grid.shape, units))[0, 2]
    units[1] = Occupant("r", (2, 0, 0), "blue")
    seen = visibility_matrix(grid, Occupancy(grid.shape, units))
    assert seen.tolist() == [
        [True, True, True, True],
        [True, True, True, True],
        [True, True, True, True],
        [False, False, True, True],
    ]
    # And back: the same objects as the first time give the first answers again.
    units[1] = Occupant("r", (2, 0, 0), "red")
    assert not visibility_matrix(grid, Occupancy(grid.shape, units))[0, 2]


@both_modes
def test_p_los_1_cells_in_view_behind_a_pillar_by_hand(ascii_grid: AsciiGrid) -> None:
    grid, m = ascii_grid(
        """
        .....
        .A#..
        .....
        """
    )
    viewer = Occupant("v", m["A"], "blue")
    occupancy = Occupancy(grid.shape, [viewer])
    seen = cells_in_view(grid, occupancy, viewer)
    # From (1.5,1.5) (cell units) the lines to x = 3 and 4 all cross x = 2 with 1 < y < 2:
    # inside the pillar (2,1). (2,0) and (2,2) are only grazed at a corner: seen.
    hidden = {(3, 0, 0), (4, 0, 0), (3, 1, 0), (4, 1, 0), (3, 2, 0), (4, 2, 0)}
    for x in range(5):
        for y in range(3):
            assert seen[x, y, 0] == ((x, y, 0) not in hidden), (x, y)
    near = cells_in_view(grid, occupancy, viewer, max_range=1)
    assert int(near.sum()) == 9  # the 3x3 block around the viewer, all seen
    assert not near[3, 1, 0]


# ------------------------------------------------------------------ properties

CODES = st.sampled_from([0, 0, 0, OBSTACLE_FULL, OBSTACLE_THIN, OBSTACLE_HALF])


@st.composite
def small_grids(draw: st.DrawFn) -> Grid:
    shape = (draw(st.integers(1, 5)), draw(st.integers(1, 5)), draw(st.integers(1, 3)))
    codes = draw(st.lists(CODES, min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    return Grid.build(np.array(codes, dtype=np.uint8).reshape(shape))


def cells_of(grid: Grid) -> st.SearchStrategy[Cell]:
    w, h, d = grid.shape
    return st.tuples(st.integers(0, w - 1), st.integers(0, h - 1), st.integers(0, d - 1))


@given(st.data())
def test_p_los_1_terrain_sight_is_symmetric(data: st.DataObject) -> None:
    grid = data.draw(small_grids())
    a, b = data.draw(cells_of(grid)), data.draw(cells_of(grid))
    assert line_of_sight(grid, a, b) == line_of_sight(grid, b, a)


@given(st.data())
def test_p_los_1_adding_an_obstacle_never_adds_a_visible_cell(data: st.DataObject) -> None:
    grid = data.draw(small_grids())
    a, b, c = (data.draw(cells_of(grid)) for _ in range(3))
    code = data.draw(st.sampled_from([OBSTACLE_FULL, OBSTACLE_THIN, OBSTACLE_HALF]))
    obstacle = grid.obstacle.copy()
    if not grid.sight_block[c]:
        obstacle[c] = code
    more = Grid.build(obstacle)
    if line_of_sight(more, a, b):
        assert line_of_sight(grid, a, b)


def _meets(p: tuple[Fraction, ...], d: tuple[Fraction, ...], box: Cell, interior: bool) -> bool:
    """Does p + t d, t in [0, 1], meet the closed (or open) unit box at `box`? Exact."""
    lo, hi = Fraction(0), Fraction(1)
    for pa, da, ca in zip(p, d, box, strict=True):
        if da == 0:
            inside = ca < pa < ca + 1 if interior else ca <= pa <= ca + 1
            if not inside:
                return False
            continue
        t0, t1 = sorted(((ca - pa) / da, (ca + 1 - pa) / da))
        lo, hi = max(lo, t0), min(hi, t1)
    return lo < hi if interior else lo <= hi


def _cross(u: tuple[Fraction, ...], v: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def reference_line_of_sight(grid: Grid, a: Cell, b: Cell) -> bool:
    """P-LOS-1/2 straight from the words, by brute force with exact fractions.

    Blocked if the segment enters a blocker's interior; otherwise clear if it touches none, or
    if one tiny shift perpendicular to it touches none. Candidate shifts: every sector of the
    plane perpendicular to D is bounded by the lines of e_i x D, so sums of two of them (with
    signs) reach into every sector.
    """
    if a == b:
        return True
    p = tuple(Fraction(2 * c + 1, 2) for c in a)
    d = tuple(Fraction(cb - ca) for ca, cb in zip(a, b, strict=True))
    blockers = [
        (x, y, z)
        for (x, y, z), v in np.ndenumerate(grid.sight_block)
        if v and (x, y, z) not in (a, b)
    ]
    if any(_meets(p, d, box, interior=True) for box in blockers):
        return False
    if not any(_meets(p, d, box, interior=False) for box in blockers):
        return True
    axes = [tuple(Fraction(int(i == j)) for j in range(3)) for i in range(3)]
    normals = [n for n in (_cross(e, d) for e in axes) if any(n)]
    candidates = [
        tuple(s * x + r * y for x, y in zip(n1, n2, strict=True))
        for n1 in normals
        for n2 in normals
        for s in (1, -1)
        for r in (1, -1, 0)
    ]
    eps = Fraction(1, 10**6)
    for u in candidates:
        if not any(u):
            continue
        w = _cross(u, d)
        shifted = tuple(pa + eps * wa for pa, wa in zip(p, w, strict=True))
        if not any(_meets(shifted, d, box, interior=False) for box in blockers):
            return True
    return False


@given(st.data())
def test_p_los_2_agrees_with_a_brute_force_shift_search(data: st.DataObject) -> None:
    grid = data.draw(small_grids())
    a, b = data.draw(cells_of(grid)), data.draw(cells_of(grid))
    assert line_of_sight(grid, a, b) == reference_line_of_sight(grid, a, b)


@st.composite
def occupied_grids(draw: st.DrawFn) -> tuple[Grid, Occupancy]:
    grid = draw(small_grids())
    cells = draw(st.lists(cells_of(grid), min_size=1, max_size=5, unique=True))
    units = [
        Occupant(
            f"u{i}",
            cell,
            draw(st.sampled_from(["blue", "red"])),
            draw(st.sampled_from(list(Size))),
            neutral=draw(st.booleans()),
        )
        for i, cell in enumerate(cells)
    ]
    return grid, Occupancy(grid.shape, units)


@given(occupied_grids(), st.data())
def test_p_los_3_cells_in_view_matches_line_of_sight_cell_by_cell(
    world: tuple[Grid, Occupancy], data: st.DataObject
) -> None:
    grid, occupancy = world
    viewer = data.draw(st.sampled_from(occupancy.occupants))
    reach = data.draw(st.none() | st.integers(0, 3))
    seen = cells_in_view(grid, occupancy, viewer, reach)
    for cell, value in np.ndenumerate(seen):
        in_reach = reach is None or chebyshev(cell, viewer.cell) <= reach
        expected = in_reach and line_of_sight(grid, viewer.cell, cell, occupancy, viewer)
        assert value == expected, cell


@given(occupied_grids())
def test_p_los_3_visibility_matrix_matches_line_of_sight_pair_by_pair(
    world: tuple[Grid, Occupancy],
) -> None:
    grid, occupancy = world
    seen = visibility_matrix(grid, occupancy)
    for i, viewer in enumerate(occupancy.occupants):
        for j, target in enumerate(occupancy.occupants):
            expected = line_of_sight(grid, viewer.cell, target.cell, occupancy, viewer)
            assert seen[i, j] == expected


@st.composite
def crowded_grids(draw: st.DrawFn) -> tuple[Grid, Occupancy]:
    """Up to 12 units of three sides on a sparse grid up to 9x9x2, two sharing a cell at times
    (P-MOV-8): many lines that terrain leaves clear and units may cross."""
    shape = (draw(st.integers(2, 9)), draw(st.integers(2, 9)), draw(st.integers(1, 2)))
    size = int(np.prod(shape))
    codes = draw(
        st.lists(
            st.sampled_from([0] * 6 + [OBSTACLE_FULL, OBSTACLE_THIN]), min_size=size, max_size=size
        )
    )
    grid = Grid.build(np.array(codes, dtype=np.uint8).reshape(shape))
    cells = draw(st.lists(cells_of(grid), min_size=2, max_size=12))
    kept = [c for i, c in enumerate(cells) if cells[:i].count(c) < 2]
    units = [
        Occupant(
            f"u{i}",
            cell,
            draw(st.sampled_from(["blue", "red", "green"])),
            draw(st.sampled_from(list(Size))),
            neutral=draw(st.booleans()),
        )
        for i, cell in enumerate(kept)
    ]
    return grid, Occupancy(grid.shape, units)


@given(crowded_grids())
@settings(max_examples=80, deadline=None)
def test_p_los_3_visibility_matrix_matches_line_of_sight_with_many_units_and_shared_cells(
    world: tuple[Grid, Occupancy],
) -> None:
    # The matrix settles a pair by terrain once and walks again only when a viewer's blocking
    # unit meets the line: every pair must still be the single line of sight's answer.
    grid, occupancy = world
    seen = visibility_matrix(grid, occupancy)
    for i, viewer in enumerate(occupancy.occupants):
        for j, target in enumerate(occupancy.occupants):
            expected = line_of_sight(grid, viewer.cell, target.cell, occupancy, viewer)
            assert seen[i, j] == expected, (viewer, target)


@given(crowded_grids(), st.data())
@settings(max_examples=60, deadline=None)
def test_p_los_3_visibility_matrix_keeps_terrain_answers_exact_as_units_move(
    world: tuple[Grid, Occupancy], data: st.DataObject
) -> None:
    # The kernel keeps each pair's terrain answer from call to call (issue 18): after units
    # move, the kept answers and the new walks must still be the single line's answers; a memo
    # of 8 slots is emptied again and again on the way (half full), the grid's own one not.
    grid, occupancy = world
    tiny = np.zeros(2**3 + 1 + MEMO_PLACES, dtype=np.int64)
    for _ in range(4):
        blocks = np.stack([occupancy.sight_blockers(o) for o in occupancy.occupants])
        for memo in (tiny, pair_memo(grid)):
            seen = visibility_kernel(
                grid.sight_block,
                occupancy.index,
                blocks,
                occupancy.cells,
                clearance(grid),
                level_clearance(grid),
                memo,
                level_rows(grid) if memo is tiny else None,
            )
            for i, viewer in enumerate(occupancy.occupants):
                for j, target in enumerate(occupancy.occupants):
                    expected = line_of_sight(grid, viewer.cell, target.cell, occupancy, viewer)
                    assert seen[i, j] == expected, (viewer, target)
        assert (visibility_matrix(grid, occupancy) == seen).all()
        moved = data.draw(st.integers(0, len(occupancy.occupants) - 1))
        to = data.draw(cells_of(grid))
        units = list(occupancy.occupants)
        if [u.cell for u in units].count(to) < 2:
            old = units[moved]
            units[moved] = Occupant(old.id, to, old.faction, old.size, neutral=old.neutral)
        occupancy = Occupancy(grid.shape, units)


@given(st.data())
def test_p_los_2_lines_of_sight_in_one_batch_match_one_call_each(data: st.DataObject) -> None:
    # The batch walks unrelated lines in one call (each from its own start, the last blocker
    # tried first, empty space jumped over): every answer must be the single call's.
    grid = data.draw(small_grids())
    ends = data.draw(st.lists(st.tuples(cells_of(grid), cells_of(grid)), max_size=12))
    pairs = np.array([[*a, *b] for a, b in ends], dtype=np.int64).reshape(len(ends), 6)
    seen = lines_of_sight(grid, pairs)
    assert seen.tolist() == [line_of_sight(grid, a, b) for a, b in ends]


def test_p_los_1_lines_of_sight_in_one_batch_match_over_a_cluttered_deck() -> None:
    # Long lines (up to 31 cells, across levels) where the clearance tables let the walk jump.
    gen = np.random.default_rng(18)
    obstacle = np.zeros((32, 32, 4), dtype=np.uint8)
    obstacle[gen.random(obstacle.shape) < 0.04] = OBSTACLE_FULL
    obstacle[gen.random(obstacle.shape) < 0.01] = OBSTACLE_THIN
    grid = Grid.build(obstacle)
    pairs = np.column_stack([gen.integers(0, n, 400) for n in (32, 32, 4, 32, 32, 4)]).astype(
        np.int64
    )
    seen = lines_of_sight(grid, pairs)
    expected = [line_of_sight(grid, tuple(p[:3]), tuple(p[3:])) for p in pairs.tolist()]
    assert seen.tolist() == expected
    assert 0 < sum(expected) < len(expected)  # both answers occur


def test_p_los_1_lines_of_sight_outside_the_map_are_a_clear_error() -> None:
    grid = Grid.empty(4, 4)
    with pytest.raises(OffMapError, match="leaves the map"):
        lines_of_sight(grid, np.array([[0, 0, 0, 4, 0, 0]]))
    with pytest.raises(ValueError, match="rows of 6"):
        lines_of_sight(grid, np.zeros((2, 5), dtype=np.int64))


@given(small_grids())
def test_clearance_table_is_the_chebyshev_distance_to_the_nearest_blocker(grid: Grid) -> None:
    table = clearance_kernel(grid.sight_block)
    blockers = np.argwhere(grid.sight_block != 0)
    for cell in np.ndindex(grid.shape):
        nearest = int(np.abs(blockers - np.array(cell)).max(axis=1).min()) if len(blockers) else FAR
        assert table[cell] == min(nearest, FAR)


@given(small_grids())
def test_level_clearance_is_the_distance_in_x_and_y_to_the_nearest_blocker_on_those_levels(
    grid: Grid,
) -> None:
    tables = level_clearance_kernel(grid.sight_block)
    w, h, d = grid.shape
    t = 0
    for zlo in range(d):
        for zhi in range(zlo, d):
            blockers = np.argwhere(grid.sight_block[:, :, zlo : zhi + 1] != 0)[:, :2]
            for x, y in np.ndindex(w, h):
                near = (
                    np.abs(blockers - np.array([x, y])).max(axis=1).min() if len(blockers) else FAR
                )
                assert tables[t, x, y] == min(int(near), FAR), (zlo, zhi, x, y)
            t += 1
    assert t == len(tables)


@given(small_grids())
def test_blocker_boxes_hold_every_sight_blocker_once_and_nothing_else(grid: Grid) -> None:
    boxes, box_of = blocker_boxes(grid.sight_block)
    covered = np.full(grid.shape, -1)
    for i, (x0, y0, z0, x1, y1, z1) in enumerate(boxes):
        block = covered[x0 : x1 + 1, y0 : y1 + 1, z0 : z1 + 1]
        assert (block == -1).all()  # boxes never overlap
        block[...] = i
        assert (grid.sight_block[x0 : x1 + 1, y0 : y1 + 1, z0 : z1 + 1] != 0).all()
    assert ((covered >= 0) == (grid.sight_block != 0)).all()
    assert (box_of == covered).all()


@st.composite
def sparse_grids(draw: st.DrawFn) -> Grid:
    """Grids big enough for the view kernel to jump over open space and use shadows."""
    shape = (draw(st.integers(6, 14)), draw(st.integers(6, 14)), draw(st.integers(1, 4)))
    obstacle = np.zeros(shape, dtype=np.uint8)
    cells = draw(st.lists(st.tuples(*(st.integers(0, n - 1) for n in shape)), max_size=40))
    for cell in cells:
        obstacle[cell] = draw(st.sampled_from([OBSTACLE_FULL, OBSTACLE_THIN, OBSTACLE_HALF]))
    if draw(st.booleans()):  # a wall with a door, as rooms have
        x = draw(st.integers(0, shape[0] - 1))
        obstacle[x, :, :] = OBSTACLE_FULL
        obstacle[x, draw(st.integers(0, shape[1] - 1)), 0] = 0
    return Grid.build(obstacle)


@given(sparse_grids(), st.data(), st.integers(1, 2))
def test_p_los_3_cells_in_view_on_larger_grids_matches_line_of_sight_with_any_thread_count(
    grid: Grid, data: st.DataObject, threads: int
) -> None:
    cells = data.draw(st.lists(cells_of(grid), min_size=1, max_size=4, unique=True))
    units = [
        Occupant(f"u{i}", c, data.draw(st.sampled_from(["blue", "red"])))
        for i, c in enumerate(cells)
    ]
    occupancy = Occupancy(grid.shape, units)
    viewer = units[0]
    before = view_threads()
    set_view_threads(threads)
    try:
        seen = cells_in_view(grid, occupancy, viewer)
    finally:
        set_view_threads(before)
    for cell, value in np.ndenumerate(seen):
        assert value == line_of_sight(grid, viewer.cell, cell, occupancy, viewer), cell


def _level_test_lines(gen: np.random.Generator, shape: tuple[int, int, int], n: int) -> np.ndarray:
    """Lines (ax, ay, az, bx, by, bz) mostly on one level: random ones, lines through lattice
    corners (odd steps: diagonals, 1:3, 3:5...), lines along an axis, and a few across levels."""
    w, h, d = shape
    rows: list[list[int]] = []
    while len(rows) < n:
        a = [int(gen.integers(0, w)), int(gen.integers(0, h)), int(gen.integers(0, d))]
        kind = int(gen.integers(0, 4))
        if kind == 0:
            b = [int(gen.integers(0, w)), int(gen.integers(0, h)), a[2]]
        elif kind == 1:  # steps (s, t) both odd: the line crosses lattice corners
            s, t = (int(gen.choice([-5, -3, -1, 1, 3, 5])) for _ in range(2))
            times = int(gen.integers(1, 12))
            b = [a[0] + s * times, a[1] + t * times, a[2]]
            if gen.random() < 0.5:
                b = [a[0] + t * times, a[1] + s * times, a[2]]
        elif kind == 2:
            b = list(a)
            b[int(gen.integers(0, 2))] += int(gen.integers(-70, 71))
        else:
            b = [int(gen.integers(0, w)), int(gen.integers(0, h)), int(gen.integers(0, d))]
        if 0 <= b[0] < w and 0 <= b[1] < h:
            rows.append(a + b)
    return np.array(rows, dtype=np.int64)


def _walk_lines(
    grid: Grid,
    tables: tuple[np.ndarray, np.ndarray],
    starts: np.ndarray,
    ends: np.ndarray,
    level_lines: bool,
    rows: np.ndarray | None,
) -> tuple[list[int], tuple[int, ...]]:
    """Terrain sight with stop over a batch of lines: every code, and the last line's answer
    (code and deciding cell) as `walk_shadowed` returns it."""
    codes = np.empty(len(ends), dtype=np.int8)
    found = walk_shadowed(
        grid.sight_block,
        np.zeros((0, 0, 0), np.int32),
        np.zeros(1, np.uint8),
        tables[0],
        tables[1],
        np.zeros((0, 3), np.int64),
        None,
        None,
        None,
        2,
        *starts[0].tolist(),
        ends,
        True,
        True,
        np.empty((0, 4), np.int64),
        codes,
        starts,
        level_lines,
        rows,
    )
    return codes.tolist(), tuple(found)


@both_modes
def test_issue_18_lines_on_one_level_walked_by_rows_and_columns_match_the_general_walk(
    kernel_mode: str,
) -> None:
    # P-LOS-1/P-LOS-2 (issue 18): a batch walks lines whose ends share a level by runs of bit
    # rows (`level_rows_walk`) or by columns (`level_walk`) instead of the general slab walk.
    # On random maps (some wider than a 64-cell word) every line's code, including which of a
    # grazed or entered blocker decided it, must be the general walk's, with and without the
    # clearance tables; a batch's answers the general batch's and the single call's.
    gen = np.random.default_rng(1818)
    maps, lines = (24, 300) if kernel_mode == "compiled" else (6, 60)
    met: set[int] = set()
    for _ in range(maps):
        shape = (int(gen.integers(2, 140)), int(gen.integers(2, 140)), int(gen.integers(1, 4)))
        obstacle = np.zeros(shape, dtype=np.uint8)
        density = float(gen.uniform(0.005, 0.35))
        obstacle[gen.random(shape) < density] = OBSTACLE_FULL
        obstacle[gen.random(shape) < density / 4] = OBSTACLE_THIN
        obstacle[gen.random(shape) < density / 4] = OBSTACLE_HALF
        grid = Grid.build(obstacle)
        pairs = _level_test_lines(gen, shape, lines)
        starts, ends = 2 * pairs[:, :3] + 1, 2 * pairs[:, 3:] + 1
        with_tables = (clearance(grid), level_clearance(grid))
        without = (np.zeros((0, 0, 0), np.uint8), np.zeros((0, 0, 0), np.uint8))
        answers = []
        for tables in (with_tables, without):
            for level_lines, rows in ((False, None), (True, None), (True, level_rows(grid))):
                # The whole batch (each line tries the last blocker first), then each line
                # alone with the cell that decided it.
                # In a batch a line may be settled by the last blocker (BLOCKED where its own
                # walk would say BLOCKED_GRAZED): the answer, not which rule said it first.
                codes = _walk_lines(grid, tables, starts, ends, level_lines, rows)[0]
                batch = [min(code, LOS_BLOCKED) for code in codes]
                alone = [
                    _walk_lines(
                        grid, tables, starts[i : i + 1], ends[i : i + 1], level_lines, rows
                    )[1]
                    for i in range(lines)
                ]
                answers.append((batch, alone))
        assert all(found == answers[0] for found in answers), shape
        met |= {found[0] for found in answers[0][1]}
        singles = [
            line_of_sight(grid, tuple(p[:3]), tuple(p[3:]))
            for p in pairs[: 60 if kernel_mode == "compiled" else 15].tolist()
        ]
        assert lines_of_sight(grid, pairs)[: len(singles)].tolist() == singles
    # Every outcome occurs: clear, clear though grazed, entered, grazed on both sides.
    assert met == {LOS_CLEAR, LOS_CLEAR_GRAZED, LOS_BLOCKED, LOS_BLOCKED_GRAZED}


def _random_deck(gen: np.random.Generator, small: bool) -> Grid:
    """A deck like the bench's, at random: storeys of walls (full or thin, with gaps) over
    slabs with holes, and clutter; some decks wider than a 64-cell word."""
    top = 24 if small else 90
    shape = (int(gen.integers(2, top)), int(gen.integers(2, top)), int(gen.integers(1, 9)))
    w, h, d = shape
    obstacle = np.zeros(shape, dtype=np.uint8)
    for z in range(1, d, 4):  # slabs
        obstacle[:, :, z][gen.random((w, h)) < gen.uniform(0.2, 0.9)] = OBSTACLE_FULL
    for _ in range(int(gen.integers(0, 3 * max(w, h)))):
        x, y, z = int(gen.integers(0, w)), int(gen.integers(0, h)), int(gen.integers(0, d))
        length, tall = int(gen.integers(1, 14)), int(gen.integers(1, 4))
        code = OBSTACLE_FULL if gen.random() < 0.8 else OBSTACLE_THIN
        if gen.random() < 0.5:
            obstacle[x : x + length, y, z : z + tall] = code
        else:
            obstacle[x, y : y + length, z : z + tall] = code
    clutter = gen.random(shape)
    obstacle[(clutter < 0.03) & (obstacle == 0)] = OBSTACLE_HALF
    obstacle[(clutter > 0.99) & (obstacle == 0)] = OBSTACLE_FULL
    return Grid.build(obstacle)


@both_modes
def test_issue_18_visibility_matrix_after_each_move_matches_line_of_sight_on_random_decks(
    kernel_mode: str,
) -> None:
    # P-LOS-1..3 (issue 18): the matrix keeps terrain answers by pair and by place, settles
    # most new lines at slab centres and looks for blocking units once per pair. On random
    # decks, with units of three sides (sizes, neutrals, two sharing a cell at times) moved one
    # at a time as in a battle, every pair must be the single line of sight's answer, with the
    # grid's kept answers and with none kept.
    gen = np.random.default_rng(2318)
    small = kernel_mode == "python"
    decks, moves = (4, 3) if small else (16, 8)
    for _ in range(decks):
        grid = _random_deck(gen, small)
        w, h, d = grid.shape
        count = int(gen.integers(2, 9 if small else 21))
        cells: list[Cell] = []
        for _ in range(count):
            fresh_cell = (int(gen.integers(0, w)), int(gen.integers(0, h)), int(gen.integers(0, d)))
            # Now and then two share a cell (P-MOV-8).
            cells.append(cells[-1] if cells and gen.random() < 0.05 else fresh_cell)
        units = [
            Occupant(
                f"u{i}",
                cell,
                ("blue", "red", "green")[int(gen.integers(0, 3))],
                Size(int(gen.integers(0, 3))),
                neutral=bool(gen.random() < 0.15),
            )
            for i, cell in enumerate(cells)
        ]
        for _ in range(moves):
            occupancy = Occupancy(grid.shape, units)
            seen = visibility_matrix(grid, occupancy)
            fresh = visibility_kernel(
                grid.sight_block,
                occupancy.index,
                np.stack([occupancy.sight_blockers(o) for o in occupancy.occupants]),
                occupancy.cells,
                clearance(grid),
                level_clearance(grid),
                np.zeros(2**13 + 1 + MEMO_PLACES, dtype=np.int64),
                level_rows(grid),
            )
            assert (fresh == seen).all()
            for i, viewer in enumerate(units):
                for j, target in enumerate(units):
                    expected = line_of_sight(grid, viewer.cell, target.cell, occupancy, viewer)
                    assert seen[i, j] == expected, (grid.shape, viewer, target)
            mover = int(gen.integers(0, len(units)))
            to: Cell = (int(gen.integers(0, w)), int(gen.integers(0, h)), int(gen.integers(0, d)))
            if gen.random() < 0.1:
                to = units[int(gen.integers(0, len(units)))].cell
            if [u.cell for u in units].count(to) < 2:
                old = units[mover]
                units[mover] = Occupant(old.id, to, old.faction, old.size, neutral=old.neutral)


@both_modes
def test_p_los_1_a_line_through_a_blocker_at_a_slab_centre_is_blocked(kernel_mode: str) -> None:
    # P-LOS-1: `slab_centres_blocked` answers True only for lines that enter a blocker's
    # interior (then the walk says blocked); on random decks it must never say so of a line
    # the walk finds clear (a centre on a face between two cells only touches them), and must
    # find blocked lines.
    gen = np.random.default_rng(2319)
    small = kernel_mode == "python"
    found, blocked = 0, 0
    for _ in range(4 if small else 12):
        grid = _random_deck(gen, small)
        w, h, d = grid.shape
        flat = grid.sight_block.reshape(-1)
        for k in range(2 * (40 if small else 300)):
            a = (int(gen.integers(0, w)), int(gen.integers(0, h)), int(gen.integers(0, d)))
            b = (int(gen.integers(0, w)), int(gen.integers(0, h)), int(gen.integers(0, d)))
            if k % 2:  # short lines: their slab centres often lie on a face between cells
                step = gen.integers(-4, 5, size=3)
                b = (
                    int(np.clip(a[0] + step[0], 0, w - 1)),
                    int(np.clip(a[1] + step[1], 0, h - 1)),
                    int(np.clip(a[2] + step[2], 0, d - 1)),
                )
            said = los.slab_centres_blocked(flat, h, d, *a, *b)
            clear = line_of_sight(grid, a, b)
            assert not (said and clear), (grid.shape, a, b)
            found += said
            blocked += not clear
    assert 0 < found <= blocked
