"""The cells a centre-to-centre line enters (M-1's line of fire), worked by hand and checked
against the line of sight's exact segment/box test."""

from __future__ import annotations

import itertools

import pytest

from game.grid.lines import cells_entered
from game.grid.los import CONTACT_INTERIOR, segment_contact


def test_a_straight_row_enters_every_cell_between_the_ends_in_order() -> None:
    assert cells_entered((0, 0, 0), (4, 0, 0)) == ((1, 0, 0), (2, 0, 0), (3, 0, 0))


def test_the_order_is_from_the_start_so_a_reversed_line_lists_the_cells_reversed() -> None:
    assert cells_entered((4, 0, 0), (0, 0, 0)) == ((3, 0, 0), (2, 0, 0), (1, 0, 0))


def test_an_exact_diagonal_passes_corners_and_enters_only_the_diagonal_cells() -> None:
    # Centres (0.5, 0.5) to (3.5, 3.5): the line crosses x=1 and y=1 at the same point, a
    # corner, so (1, 0) and (0, 1) are only touched, never entered.
    assert cells_entered((0, 0, 0), (3, 3, 0)) == ((1, 1, 0), (2, 2, 0))


def test_a_knight_move_line_enters_the_two_cells_it_crosses() -> None:
    # Centres (0.5, 0.5) to (2.5, 1.5), slope 1/2: at x=1 y=0.75 -> enters (1, 0); at x=1.5
    # y=1 -> enters (1, 1); at x=2 y=1.25 -> enters (2, 1), the end.
    assert cells_entered((0, 0, 0), (2, 1, 0)) == ((1, 0, 0), (1, 1, 0))


def test_a_space_diagonal_enters_the_middle_cube_only() -> None:
    assert cells_entered((0, 0, 0), (2, 2, 2)) == ((1, 1, 1),)


def test_adjacent_cells_and_the_same_cell_have_nothing_between_them() -> None:
    assert cells_entered((3, 3, 0), (4, 4, 0)) == ()
    assert cells_entered((3, 3, 0), (3, 3, 0)) == ()
    assert cells_entered((0, 0, 0), (1, 0, 0), ends=True) == ((0, 0, 0), (1, 0, 0))


@pytest.mark.parametrize(
    "end", [(5, 2, 0), (3, 5, 1), (4, 1, 2), (5, 5, 0), (1, 4, 3), (0, 3, 2), (5, 3, 1)]
)
def test_the_cells_are_exactly_those_whose_interior_the_segment_enters(
    end: tuple[int, int, int],
) -> None:
    start = (0, 1, 0)
    p = tuple(2 * c + 1 for c in start)
    d = tuple(2 * (b - a) for a, b in zip(start, end, strict=True))
    box = [range(min(a, b), max(a, b) + 1) for a, b in zip(start, end, strict=True)]
    expected = {
        c
        for c in itertools.product(*box)
        if c not in (start, end) and segment_contact(2, *c, *p, *d) == CONTACT_INTERIOR
    }
    found = cells_entered(start, end)
    assert set(found) == expected and len(found) == len(expected)
    # Nearest first: the distance from the start never decreases along the list.
    steps = [max(abs(c[i] - start[i]) for i in range(3)) for c in found]
    assert steps == sorted(steps)
