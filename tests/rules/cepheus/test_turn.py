"""C-4 the turn as data and the movement allowance (000:l.70, 83, 101-103, 386)."""

from __future__ import annotations

import pytest

from game.rules.cepheus.data import Tables
from game.rules.cepheus.turn import TurnOption, cells_per_action, movement_allowance, turn_options


def test_a_round_is_one_minor_and_one_significant_or_three_minor(tables: Tables) -> None:
    # 000:l.70 "un'azione minore e un'azione significativa"; l.83 "fino a tre azioni minori a
    # round, perdendo un'azione significativa".
    assert turn_options("uninjured", tables) == (TurnOption(1, 1), TurnOption(3, 0))
    # l.386: the seriously wounded "Perdono anche la loro azione minore".
    assert turn_options("seriously_wounded", tables) == (TurnOption(0, 1), TurnOption(2, 0))
    assert turn_options("unconscious", tables) == ()


@pytest.mark.parametrize(
    ("stance", "rough", "cells"),
    [
        # l.103: "si muove di quattro quadrati"; rough terrain "solo di tre metri" (2 cells);
        # "Anche accucciarsi dimezza il movimento"; C-4: prone 1 cell.
        ("standing", False, 4),
        ("standing", True, 2),
        ("crouched", False, 2),
        ("crouched", True, 1),
        ("prone", False, 1),
    ],
)
def test_cells_per_movement_action(tables: Tables, stance: str, rough: bool, cells: int) -> None:
    assert cells_per_action(stance, tables, rough=rough) == cells


@pytest.mark.parametrize(
    ("minor", "stance", "state", "cells"),
    [
        (2, "standing", "uninjured", 8),
        (1, "crouched", "wounded", 2),
        (3, "prone", "uninjured", 3),
        # l.386 "strisciare a 1,5 metri per round": 1 cell whatever the actions (C-4).
        (3, "standing", "seriously_wounded", 1),
        (2, "standing", "unconscious", 0),
    ],
)
def test_movement_allowance(
    tables: Tables, minor: int, stance: str, state: str, cells: int
) -> None:
    assert movement_allowance(minor, stance, state, tables).cells == cells


def test_more_than_three_minor_actions_are_refused(tables: Tables) -> None:
    with pytest.raises(ValueError, match=r"0\.\.3"):
        movement_allowance(4, "standing", "uninjured", tables)
