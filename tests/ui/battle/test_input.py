"""The battle screen's keys after a click on a widget: the board gets them back (issue 17).

Battles on maps/station_interior.tmx, seed 1 (two levels): Kask (raiders) acts first at
(11, 14, 0); the computer plays station security. Before the fix a clicked button or panel kept
pygame-gui's focus, and every board key (Enter, PageUp, Home...) was dead until the board was
clicked.
"""

from __future__ import annotations

import pygame

from game.ui.app import post_click, post_mouse_move
from tests.ui.conftest import MakeWindow, Window


def _click_widget(w: Window, point: tuple[int, int]) -> None:
    post_mouse_move(point)
    w.frames(2)
    post_click(point)
    w.frames(2)


def test_page_up_changes_the_level_right_after_fit_map_was_clicked(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    assert w.scene.board.level == 0
    _click_widget(w, w.scene.side.fit.get_abs_rect().center)
    w.key(pygame.K_PAGEUP)
    assert w.scene.board.level == 1


def test_enter_ends_the_turn_right_after_a_tracker_chip_was_clicked(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    chip = w.scene.tracker.chips[0][1]
    _click_widget(w, chip.get_abs_rect().center)
    assert w.battle.active == "Kask"
    w.key(pygame.K_RETURN)
    assert any(e.kind == "turn_ended" and e.data.get("unit") == "Kask" for e in w.battle.log)


def test_board_keys_work_after_a_click_on_the_side_panels_background(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    panel = w.scene.side.panel.get_abs_rect()
    _click_widget(w, (panel.x + 100, panel.bottom - 4))
    w.key(pygame.K_PAGEUP)
    assert w.scene.board.level == 1


def test_the_gm_button_leaves_the_keys_to_the_board_of_whoever_takes_the_screen(
    make_window: MakeWindow,
) -> None:
    w = make_window(gm=True)
    w.scene.take_screen()  # the player opens the battle (tests/ui/test_seats.py: the cover)
    w.frames(2)
    gm = w.scene.side.gm
    assert gm is not None
    _click_widget(w, gm.get_abs_rect().center)
    assert w.scene.seats.waiting_for == "gm"
    w.scene.take_screen()
    w.frames(2)
    w.key(pygame.K_PAGEUP)
    assert w.scene.board.level == 1


def test_a_text_field_still_keeps_the_keys_while_typing(make_window: MakeWindow) -> None:
    """The GM types dice faces: PageUp in the field must not change the level."""
    w = make_window(gm=True)
    w.scene.take_screen()
    w.scene.gm_button()
    w.scene.take_screen()
    w.frames(2)
    panel = w.scene.gm_panel
    assert panel is not None
    _click_widget(w, panel.faces.get_abs_rect().center)
    w.key(pygame.K_PAGEUP)
    assert w.scene.board.level == 0
