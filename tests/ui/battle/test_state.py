"""What the pointer answers for (game/ui/battle/state.py, issue 17): a unit drawn on another
level (the ^ marker) is hovered and targeted like any other; a board cell under a widget (the
GM's tools, the right-click menu) answers nothing.

Battles on maps/station_interior.tmx, seed 1: Kask (raiders) acts first at (11, 14, 0); Vidal
(security) stands on the gallery at (28, 9, 1), one level above, seen by the raiders. Before the
fix the pointer looked only at the level in view and below, so Vidal's ^ answered the empty
floor under it, and a cell under the GM's tools answered as if the board were bare.
"""

from __future__ import annotations

import pygame

from game.ui.app import post_click, post_mouse_move
from tests.ui.conftest import MakeWindow, Window

VIDAL = (28, 9, 1)


def _at_level_zero(w: Window, cell: tuple[int, int, int]) -> tuple[int, int]:
    w.scene.board.set_level(0)
    w.scene.refresh()
    w.scene.board.show_cell(cell)  # the battle opens zoomed in on the acting unit: pan to it
    x, y = w.scene.board.cell_centre(cell)
    return round(x), round(y)


def test_an_enemy_one_level_above_is_hovered_from_the_level_below_with_its_hit_chance(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    point = _at_level_zero(w, VIDAL)
    post_mouse_move(point)
    w.frames(2)
    assert w.scene.board.level == 0
    assert w.scene.pointer.unit == "Vidal" and w.scene.pointer.cell == VIDAL
    assert "Hit chance" in w.scene.hover_text()


def test_two_clicks_on_the_marker_of_an_enemy_above_attack_it(make_window: MakeWindow) -> None:
    w = make_window()
    point = _at_level_zero(w, VIDAL)
    post_mouse_move(point)
    w.frames(2)
    for _ in range(2):
        post_click(point)
        w.frames(2)
    attacks = [e for e in w.battle.log if e.kind == "attack"]
    assert [(e.data["unit"], e.data["target"]) for e in attacks] == [("Kask", "Vidal")]


def test_a_click_on_ones_own_unit_on_another_level_shows_its_level(
    make_window: MakeWindow,
) -> None:
    """Looking at the gallery (level 1), the player clicks Kask's dimmed token below: the view
    goes down to Kask's level."""
    w = make_window()
    kask = w.battle.sheet("Kask").cell
    w.scene.board.set_level(1)
    w.scene.refresh()
    x, y = w.scene.board.cell_centre(kask)
    post_mouse_move((round(x), round(y)))
    w.frames(2)
    assert w.scene.pointer.unit == "Kask"
    post_click((round(x), round(y)))
    w.frames(2)
    assert w.scene.selected == "Kask" and w.scene.board.level == kask[2] == 0


def test_a_cell_under_the_gms_tools_answers_nothing(make_window: MakeWindow) -> None:
    w = make_window(gm=True)
    w.scene.take_screen()
    w.scene.gm_button()
    w.scene.take_screen()
    w.frames(2)
    panel = w.scene.gm_panel
    assert panel is not None
    rect = panel.window.rect
    point = (rect.centerx, rect.centery)
    assert w.scene.board.column_at(point) is not None  # the board lies under the tools
    post_mouse_move(point)
    w.frames(2)
    assert w.scene.pointer.cell is None and w.scene.pointer.unit is None
    assert w.scene.pointer.overlay.marked is None


def test_a_cell_under_the_right_click_menu_answers_nothing(make_window: MakeWindow) -> None:
    w = make_window()
    w.click((13, 16, 0), button=3)
    menu = w.scene.orders.menu
    assert menu is not None
    button = menu.buttons[0][1].rect
    point = (button.right - 3, button.centery)
    post_mouse_move(point)
    w.frames(2)
    assert w.scene.pointer.cell is None
    # Off the menu, the board answers again.
    post_mouse_move((point[0], menu.panel.rect.bottom + 30))
    w.frames(2)
    assert w.scene.pointer.cell is not None
    assert pygame.Rect(w.scene.board.viewport).collidepoint(point)
