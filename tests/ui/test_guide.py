"""The first battle's guide (issue 17): shown on the first launch only, dismissed with its
button or Esc (the settings remember it), opened again with `?`; it holds the board's keys."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.app.draft import DEMO_MAP
from game.app.settings import Settings
from game.maps import load_map
from game.text import i18n
from game.ui import guide
from game.ui.app import App, post_click, post_key
from game.ui.battle.scene import BattleScene
from game.ui.launch import Director, WindowOptions, single_player_setup
from tests.ui.conftest import MakeWindow


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    with i18n.speaking("en"):
        made = App((1280, 720))
        yield made
        pygame.quit()


def _demo(app: App, settings: Settings, path: Path, journal: Path) -> BattleScene:
    director = Director(app, WindowOptions(), settings=settings)
    director.settings_path = path
    setup = single_player_setup(load_map(DEMO_MAP))
    director.start(setup, journal)
    start = time.monotonic()
    while time.monotonic() - start < 180:
        app.step(1 / 60)
        assert director.failure is None, director.failure
        if isinstance(app.scene, BattleScene):
            app.step(1 / 60)
            return app.scene
        time.sleep(0.005)
    raise AssertionError("the battle did not open")


def test_the_guide_opens_on_the_first_launch_only_and_the_settings_remember_it(
    app: App, tmp_path: Path
) -> None:
    path = tmp_path / "settings.json"
    first = _demo(app, Settings(language="en", animation_speed=0.0), path, tmp_path / "a.jsonl")
    assert first.guide is not None
    assert first.guide.rect.colliderect(first.board.viewport)
    button = first.guide.close_button.get_abs_rect()
    post_click(button.center)
    app.step(1 / 60)
    app.step(1 / 60)
    assert first.guide is None
    assert json.loads(path.read_text(encoding="utf-8"))["guide_seen"] is True
    again = _demo(app, Settings.load(path), path, tmp_path / "b.jsonl")
    assert again.guide is None


def test_question_mark_opens_the_guide_again_and_escape_closes_it(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    assert w.scene.guide is None  # a scene made without the first launch's guide
    post_key(pygame.K_SLASH, pygame.KMOD_SHIFT, "?")
    w.frames(2)
    assert w.scene.guide is not None
    w.key(pygame.K_ESCAPE)
    assert w.scene.guide is None


def test_while_the_guide_is_open_enter_does_not_end_the_turn(make_window: MakeWindow) -> None:
    w = make_window()
    w.scene.open_guide()
    w.key(pygame.K_RETURN)
    assert not any(e.kind == "turn_ended" for e in w.battle.log)
    assert w.scene.guide is not None


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_guide_holds_its_text_without_scrolling_at_1280x720(
    make_window: MakeWindow, language: str
) -> None:
    with i18n.speaking(language):
        w = make_window()
        w.scene.open_guide()
        w.frames(1)
        guide = w.scene.guide
        assert guide is not None
        assert guide.text.scroll_bar is None
        assert w.scene.board.viewport.contains(guide.rect)


def test_the_guides_first_line_names_the_sides_of_the_battle_it_opens_over(
    app: App, tmp_path: Path
) -> None:
    # The demo: the raiders' player against the computer's station security.
    path = tmp_path / "settings.json"
    scene = _demo(app, Settings(language="en", animation_speed=0.0), path, tmp_path / "a.jsonl")
    assert scene.guide is not None
    assert "You lead Raiders against Station security, played by the computer." in (
        scene.guide.text.html_text
    )


def test_the_guides_first_line_for_a_seat_a_table_and_the_game_master() -> None:
    # Not the demo's sentence on another map: the keep's garrison against its besiegers.
    assert (
        guide.sides_line(("garrison",), ("besiegers",), ("besiegers",))
        == "You lead Garrison against Besiegers, played by the computer."
    )
    assert (
        guide.sides_line(("garrison",), (), ("besiegers",))
        == "You lead Garrison against Besiegers, led by the other players at this screen."
    )
    assert (
        guide.sides_line(("raiders",), ("miners",), ("miners", "station_security"))
        == "You lead Raiders against Miners, Station security."
    )
    assert guide.sides_line((), ("raiders",), ("raiders",)).startswith("You are the game master")
    with i18n.speaking("it"):
        assert guide.sides_line(("garrison",), ("besiegers",), ("besiegers",)) == (
            "Guidi Guarnigione contro Assedianti, mossi dal computer."
        )
