"""Names of any length where the battle window draws them: the hand-over, the progress screen
and its failure, the log, the initiative chips and every HTML text. A map or a journal may name a
unit, a side or a player with 200,000 characters; the window shows the start of it, at once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import cast

import pygame
import pygame_gui
import pytest

from game.battle.engine import Battle
from game.battle.events import Event
from game.battle.journal import JournalError
from game.text.bounds import MESSAGE
from game.ui import hud
from game.ui.backdrop import mosaic
from game.ui.log_panel import ENTRY, Log
from game.ui.play import Loading, ProgressScene
from game.ui.seats import Seats

HUGE = "Ada" + "x" * 200_000


@pytest.fixture
def screen() -> Iterator[pygame.Surface]:
    pygame.init()
    surface = pygame.Surface((800, 560))
    yield surface
    pygame.quit()


def _margins_are_empty(screen: pygame.Surface, background: tuple[int, int, int]) -> bool:
    """Nothing drawn in the 10 px at either side: the text was fitted to the window (a text of
    200,000 characters drawn whole, centred, would cover it from edge to edge)."""
    w, h = screen.get_size()
    return all(
        screen.get_at((x, y))[:3] == background
        for x in (*range(10), *range(w - 10, w))
        for y in range(h)
    )


def test_the_hand_over_names_a_player_of_any_length_within_the_window(
    screen: pygame.Surface,
) -> None:
    seats = Seats(cast(Battle, SimpleNamespace(setup=SimpleNamespace(gm=False))), "Bo")
    seats.waiting_for = HUGE
    seats.draw_handover(screen)
    backdrop = mosaic(screen.get_size())
    w, h = screen.get_size()
    margins = [(x, y) for x in (*range(10), *range(w - 10, w)) for y in range(h)]
    assert all(screen.get_at(p) == backdrop.get_at(p) for p in margins)  # the mosaic only
    assert any(screen.get_at((x, 280 - 24)) != backdrop.get_at((x, 280 - 24)) for x in range(800))


def test_a_failure_with_a_message_of_any_length_is_drawn_in_a_few_fitted_lines(
    screen: pygame.Surface,
) -> None:
    def work(state: Loading) -> object:
        raise JournalError(f"{HUGE}.jsonl:1: not a Tessera journal ({'y' * 200_000})")

    scene = ProgressScene(screen.get_size(), HUGE, work)
    while not scene.state.finished:  # the work runs in a thread; it fails at once
        time.sleep(0.01)
    scene.update(0.0)
    scene.draw(screen)
    assert scene.state.error is not None and len(scene.state.error) > 400_000
    assert _margins_are_empty(screen, (14, 16, 20))


def test_every_html_text_is_clipped() -> None:
    text = hud.esc(HUGE)
    assert len(text) == MESSAGE and text.startswith("Adaxxx") and text.endswith("…")
    assert hud.esc("a < b\nc") == "a &lt; b<br>c"  # as before for a short text


def test_a_log_entry_naming_a_unit_of_any_length_is_clipped() -> None:
    entry = Log().entry(Event("died", {"unit": HUGE}))
    assert entry is not None and entry.startswith("Adaxxx") and len(entry) <= ENTRY


def test_initiative_chips_show_the_start_of_a_long_name() -> None:
    pygame.init()
    try:
        pygame.display.set_mode((1280, 720))
        manager = pygame_gui.UIManager((1280, 720))
        tracker = hud.Tracker(manager, 1280)
        tracker.show(1, [hud.Chip(HUGE, HUGE + " 17", 0, True)], "x" * 200_000)
        ((_chip, button),) = tracker.chips
        assert button.text.startswith("Adaxxx") and len(button.text) <= hud.CHIP
        assert len(tracker.budget.text) <= hud.LINE
        assert tracker.unit_for(button) == HUGE  # the chip still stands for the unit
    finally:
        pygame.quit()
