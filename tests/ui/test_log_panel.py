"""The combat log follows the battle (game/ui/log_panel.py, hud.SidePanel, issue 17): after new
events the box is scrolled to its end and the newest entry is shown whole.

Battles on maps/station_interior.tmx, seed 1; the computer plays station security. Before the
fix pygame-gui kept the scroll bar's slider at its old size when entries were appended (and put
a new bar at the top when the text first overflowed), so the end stayed out of view: after the
first round 35 % of the text at its end was hidden.
"""

from __future__ import annotations

import re

import pygame

from game.ui.app import post_click
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


# Issue 17: "coordinates and ruling ids only behind Alt". Before the fix the log showed every
# entry's ruling ids ("[P-INIT-1]"), its cells ("Raiders sight Okafor at (20, 2, 1).") and its
# dice lines ("initiative Kask: d20 [19]") all the time.
CELL = re.compile(r"\(\d+, \d+, \d+\)")
RULING = re.compile(r"\b[PG]-[A-Z]*-?\d")


def _played_a_round(make_window: MakeWindow) -> Window:
    w = make_window()
    for _ in range(2):
        w.key(pygame.K_RETURN)
        w.settle()
    return w


def test_the_log_reads_plain_sentences_without_cells_dice_or_ruling_ids_by_default(
    make_window: MakeWindow,
) -> None:
    w = _played_a_round(make_window)
    shown = w.scene.side.text("log")
    assert "Kask" in shown and "sight" in shown  # a sighting was logged, without its cell
    assert CELL.search(shown) is None
    assert RULING.search(shown) is None
    assert "d20 [" not in shown


def test_holding_alt_shows_the_logs_cells_dice_and_ruling_ids_and_letting_go_hides_them(
    make_window: MakeWindow,
) -> None:
    w = _played_a_round(make_window)
    post_key_down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LALT, mod=0, unicode="")
    pygame.event.post(post_key_down)
    w.frames(2)
    shown = w.scene.side.text("log")
    assert CELL.search(shown) is not None
    assert RULING.search(shown) is not None
    assert "d20 [" in shown
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_LALT, mod=0, unicode=""))
    w.frames(2)
    assert CELL.search(w.scene.side.text("log")) is None


def test_the_logs_details_button_keeps_them_shown_and_copy_always_gives_the_full_text(
    make_window: MakeWindow,
) -> None:
    w = _played_a_round(make_window)
    copied = w.scene.log_text()
    assert CELL.search(copied) is not None and RULING.search(copied) is not None
    assert "d20 [" in copied
    post_click(w.scene.side.details.get_abs_rect().center)
    w.frames(2)
    shown = w.scene.side.text("log")
    assert CELL.search(shown) is not None and "d20 [" in shown
    post_click(w.scene.side.details.get_abs_rect().center)
    w.frames(2)
    assert "d20 [" not in w.scene.side.text("log")


def test_the_log_words_an_initiative_total_as_its_ruleset_does() -> None:
    # F-1: fantasy's order key 102 is AGI d6 (6 x 16) and DES d6, as its tracker chips say.
    from game.battle.events import Event
    from game.tactics.rulesets.fantasy_battle import BATTLE
    from game.ui.log_panel import Log

    rolled = Event("initiative", {"unit": "arc", "total": 102})
    assert Log([rolled], BATTLE.initiative_text).text() == "arc rolls initiative: AGI d6 · DES d6"
    entry = Log([rolled], BATTLE.initiative_text).entry(rolled)
    assert entry is not None and "AGI d6 · DES d6" in entry and "102" not in entry
    assert Log([rolled]).text() == "arc rolls initiative: 102"
