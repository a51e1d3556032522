"""The window uses the screen (issue 17): it starts at a size that fits the display, a resize
lays the battle screen out anew inside it with no label cut off (in Italian too), and the size
the person left it at is kept in the settings for the next launch."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pygame
import pygame_gui
import pytest

from game.app.settings import Settings
from game.text import i18n
from game.ui import hud
from game.ui.app import MIN_SIZE, App, fit_display
from game.ui.launch import Director, WindowOptions
from tests.ui.conftest import MakeWindow


def test_a_window_larger_than_the_display_is_made_to_fit_it_and_a_fitting_one_is_kept() -> None:
    assert fit_display((2560, 1440), (1366, 768)) == (1311, 691)
    assert fit_display((1280, 720), (1920, 1080)) == (1280, 720)
    assert fit_display((1280, 720), None) == (1280, 720)
    assert fit_display((1280, 720), (640, 480)) == MIN_SIZE  # never below the smallest layout


def _inside(window: pygame.Rect, manager: pygame_gui.UIManager) -> list[str]:
    return [
        repr(element)
        for element in manager.get_sprite_group().sprites()
        if element.visible and not window.contains(element.get_abs_rect())
    ]


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("size", [(1280, 720), (1024, 600), (1600, 900)])
def test_the_battle_screen_is_laid_out_inside_the_window_with_no_label_cut_off(
    make_window: MakeWindow, language: str, size: tuple[int, int]
) -> None:
    with i18n.speaking(language):
        w = make_window()
        pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
        w.frames(3)
        assert w.app.size == size and w.scene.size == size
        window = pygame.Rect((0, 0), size)
        assert _inside(window, w.scene.ui) == []
        assert window.contains(w.scene.board.viewport)
        # Before issue 17 "Fine turno (Enter)" was cut at 1280x720 in Italian.
        assert hud.cut_labels(w.scene.ui) == []


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    made = App((1280, 720))
    yield made
    pygame.quit()


def test_the_size_the_window_was_resized_to_is_kept_for_the_next_launch(
    app: App, tmp_path: Path
) -> None:
    path = tmp_path / "settings.json"
    director = Director(app, WindowOptions(), settings=Settings(language="en"))
    director.settings_path = path
    pygame.display.set_mode((1500, 840), pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1500, 840), w=1500, h=840))
    app.step(1 / 60)
    director.keep_window_size()  # as the window closes
    assert json.loads(path.read_text(encoding="utf-8"))["window_size"] == [1500, 840]
    assert Settings.load(path).window_size == (1500, 840)


def test_a_window_never_resized_leaves_the_settings_file_alone(app: App, tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    director = Director(app, WindowOptions(), settings=Settings(language="en"))
    director.settings_path = path
    app.step(1 / 60)
    director.keep_window_size()
    assert not path.exists()


def test_after_a_resize_the_log_shows_the_battle_so_far_again(make_window: MakeWindow) -> None:
    w = make_window()
    before = w.scene.side.text("log")
    assert "Kask" in before
    pygame.display.set_mode((1100, 650), pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1100, 650), w=1100, h=650))
    w.frames(3)
    assert w.scene.side.text("log") == before


def test_a_headless_window_is_the_size_asked_whatever_desktop_the_driver_makes_up() -> None:
    app = App((1280, 720))
    try:
        assert app.size == (1280, 720)
    finally:
        pygame.quit()
