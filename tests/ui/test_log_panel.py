"""The combat log follows the battle (game/ui/log_panel.py, hud.SidePanel, issue 17): after new
events the box is scrolled to its end and the newest entry is shown whole.

Battles on maps/station_interior.tmx, seed 1; the computer plays station security. Before the
fix pygame-gui kept the scroll bar's slider at its old size when entries were appended (and put
a new bar at the top when the text first overflowed), so the end stayed out of view: after the
first round 35 % of the text at its end was hidden.
"""

from __future__ import annotations

import pygame

from tests.ui.conftest import MakeWindow, Window


def _hidden_below(w: Window) -> float:
    """Pixels of the log's text below what its box shows."""
    box = w.scene.side.log
    layout, shown, bar = box.text_box_layout, box.text_wrap_rect, box.scroll_bar
    assert layout is not None and shown is not None
    if bar is None:
        return max(0, layout.layout_rect.height - shown[3])
    top = bar.start_percentage * layout.layout_rect.height
    return layout.layout_rect.height - (top + shown[3])


def test_the_log_shows_its_newest_entry_whole_after_every_turn(make_window: MakeWindow) -> None:
    w = make_window()
    overflowed = False
    for _ in range(6):
        w.key(pygame.K_RETURN)
        w.settle()
        overflowed = overflowed or w.scene.side.log.scroll_bar is not None
        assert _hidden_below(w) <= 1.5
    assert overflowed  # the log grew past its box: the check above meant something


def test_the_log_follows_again_after_a_filter_is_chosen(make_window: MakeWindow) -> None:
    w = make_window()
    for _ in range(4):
        w.key(pygame.K_RETURN)
        w.settle()
    w.scene.log.set_filter("turns")
    w.frames(2)
    assert _hidden_below(w) <= 1.5
