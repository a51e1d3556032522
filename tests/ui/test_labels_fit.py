"""Every button and label of the battle screen and the menus shows its whole text (issue 17: "the
layout adapts, no label cut off, in Italian at 1280×720 too"), measured as pygame-gui lays it
out: the text's width in the element's font against the room its shape leaves (hud.text_room).

Before the fix, at the smallest window (800 × 560) the action bar cut "Disengage", and in
Italian "Disingaggio", "Nascondersi", "Accovacciati", "Improvvisa" and the status line, and the
settings cut "Enter / Keypad Enter"; the check measured the rect less 6 px, not pygame-gui's room.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.app.settings import Settings
from game.text import i18n
from game.ui import hud
from game.ui.app import App
from game.ui.launch import Director, WindowOptions
from game.ui.menus.base import Scaled
from tests.ui.conftest import MakeWindow

SIZES = [(1280, 720), (1228, 648), (1024, 600), (800, 560)]  # 1228x648: a 1280x720 display


def _resize(size: tuple[int, int]) -> None:
    pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("size", SIZES)
def test_no_button_or_label_of_the_battle_screen_is_cut_with_a_gm_and_a_right_click_menu(
    make_window: MakeWindow, language: str, size: tuple[int, int]
) -> None:
    with i18n.speaking(language):
        w = make_window(gm=True)
        _resize(size)
        w.frames(3)
        if w.scene.seats.waiting_for is not None:
            w.take_screen()
        w.frames(2)
        assert w.scene.bar.buttons  # the bar is there to be measured
        assert hud.cut_labels(w.scene.ui) == []
        kask = w.scene.view.unit("Kask")
        assert kask is not None
        w.click(kask.cell, button=3)  # the right-click menu on one's own unit
        assert w.scene.orders.menu is not None
        assert hud.cut_labels(w.scene.ui) == []


def test_a_label_too_long_for_the_smallest_bar_ends_with_an_ellipsis_and_keeps_its_tooltip(
    make_window: MakeWindow,
) -> None:
    with i18n.speaking("it"):
        w = make_window()
        _resize((800, 560))
        w.frames(3)
        shortened = [(a, b) for a, b in w.scene.bar.buttons if b.text.endswith("…")]
        assert shortened  # "Disingaggio" does not fit a seventh of 470 px
        for action, button in shortened:
            assert action.label.startswith(button.text[:-1])
            assert button.tool_tip_text is not None and action.label in button.tool_tip_text


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    made = App((1280, 720))
    yield made
    pygame.quit()


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("size", [(1280, 720), (800, 560)])
def test_no_button_or_label_of_the_menus_is_cut(
    app: App, language: str, size: tuple[int, int]
) -> None:
    with i18n.speaking(language):
        _resize(size)
        app.step(1 / 60)
        director = Director(
            app, WindowOptions(), settings=Settings(language=language, animation_speed=0.0)
        )
        for screen in (director.title, director.new_battle, director.load, director.settings):
            screen()
            for _ in range(3):
                app.step(1 / 60)
            scene = app.scene.inner if isinstance(app.scene, Scaled) else app.scene
            assert scene.size == size
            assert hud.cut_labels(scene.ui) == [], screen.__name__
