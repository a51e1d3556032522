"""The board shows the decision (issue 17): a readable start centred on the acting unit, the
hit chance and cover over the hovered target, the path's cost at the pointer, reach colours no
tile has, tokens whose stance reads at a glance, coordinates and ruling ids only behind Alt.

Battles on maps/station_interior.tmx with seed 1: Kask (raiders, at (11, 14, 0)) acts first;
the raiders see Okafor (20, 2, 1) and Vidal (28, 9, 1) on the gallery above.
"""

from __future__ import annotations

from game.ui.camera import READABLE_CELL
from tests.ui.conftest import MakeWindow


def test_the_battle_opens_zoomed_in_where_a_token_reads_centred_on_the_acting_unit(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    board = w.scene.board
    kask = w.battle.sheet("Kask").cell
    # Before issue 17 the battle opened on the whole map fitted: 16 px a cell at 1280x720.
    assert board.cell_rect(kask).width >= READABLE_CELL
    view = board.viewport
    x, y = board.cell_centre(kask)
    assert abs(x - view.centerx) <= board.cell_rect(kask).width
    assert abs(y - view.centery) <= board.cell_rect(kask).height
    assert board.level == kask[2]
