"""Around one laptop: two players and a GM run a battle in the window, stop it, continue it from
the title screen and end it — every act through the keys, the mouse and the window's buttons.

Ardea Station (maps/station_interior.tmx), seed 1: Anna plays the raiders, Ben station
security, a GM sits at the table. Each player attacks the enemy with the best hit chance the
window shows and ends the turn; after round 2 the table stops (Esc, back to the title) and
continues the last save; after round 4 the GM takes the screen and ends the combat.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.app.saves import latest, list_saves
from game.app.settings import Settings
from game.battle.engine import GM
from game.battle.setup import setup_from_map
from game.maps import load_map
from game.ui.app import App, post_click, post_key, post_mouse_move
from game.ui.battle.scene import BattleScene
from game.ui.launch import Director, WindowOptions, new_journal_path
from tests.ui.conftest import STATION, hold_enter_to_take


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Director]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    app = App((1280, 720))
    director = Director(app, WindowOptions(animation_speed=0), settings=Settings())
    yield director
    director.close_battle()
    app.close()


def _scene(director: Director) -> BattleScene | None:
    scene = director.app.scene
    scene = getattr(scene, "inner", scene)  # the UI scale's wrapper
    return scene if isinstance(scene, BattleScene) else None


def _frames(director: Director, n: int = 1) -> None:
    for _ in range(n):
        director.app.step(1 / 60)


def _wait_for_battle(director: Director) -> BattleScene:
    """Step the progress screen until the battle opens (its work runs in a thread)."""
    start = time.monotonic()
    while time.monotonic() - start < 120 and director.failure is None:
        scene = _scene(director)
        if scene is not None:
            return scene
        _frames(director)
        time.sleep(0.005)
    raise AssertionError(f"the battle never opened: {director.failure}")


def _press(director: Director, key: int) -> None:
    post_key(key)
    _frames(director, 2)


def _click(director: Director, point: tuple[int, int]) -> None:
    post_mouse_move(point)
    _frames(director, 2)
    post_click(point)
    _frames(director, 2)


def _best_target(scene: BattleScene, director: Director) -> tuple[int, int] | None:
    """Hover each enemy in view; the one whose shown hit chance is highest."""
    best: tuple[int, tuple[int, int]] | None = None
    for u in scene.view.units:
        if u.own or "dead" in u.wounds.get("conditions", ()):
            continue
        scene.board.set_level(u.cell[2])
        scene.refresh()
        scene.board.show_cell(u.cell)  # the board opens zoomed in: pan it into view
        x, y = scene.board.cell_centre(u.cell)
        point = (round(x), round(y))
        post_mouse_move(point)
        _frames(director, 2)
        text = scene.hover_text()
        for word in ("Hit chance ", "Probabilità di colpire "):
            if word in text:
                p = int(text.split(word)[1].split("%")[0])
                if best is None or p > best[0]:
                    best = (p, point)
    return None if best is None else best[1]


def _play_turn(director: Director, scene: BattleScene) -> None:
    """Whoever is asked acts: the hand-over taken, a prompt answered, or a turn played."""
    if scene.seats.waiting_for is not None:
        hold_enter_to_take(director.app, scene)
        return
    if scene.guide is not None:  # the first battle's guide: read, then put away
        _press(director, pygame.K_ESCAPE)
        return
    if scene.prompts.prompt is not None:
        _press(director, pygame.K_y if scene.prompts.kind == "reaction" else pygame.K_ESCAPE)
        return
    if scene.player == GM:  # the GM gives the screen back to whoever acts
        scene.gm_button()
        _frames(director, 2)
        return
    target = _best_target(scene, director)
    if target is not None:
        _click(director, target)
        _click(director, target)  # the second click confirms
    _press(director, pygame.K_RETURN)


def test_two_players_and_a_gm_run_stop_continue_and_end_a_battle_at_one_window(
    table: Director,
) -> None:
    loaded = load_map(STATION)
    setup = setup_from_map(
        loaded, seed=1, players={"Anna": ("raiders",), "Ben": ("station_security",)}, gm=True
    )
    table.start(setup, new_journal_path(STATION))
    scene = _wait_for_battle(table)
    assert scene.seats.waiting_for == "Anna"  # opened on the hand-over to Kask's player
    seen_by = set()
    for _ in range(400):
        if scene.battle.round > 2:
            break
        seen_by.add(scene.player)
        _play_turn(table, scene)
    assert {"Anna", "Ben"} <= seen_by
    # Stop: Esc (nothing to cancel) pauses, "back to the title" leaves; the journal is the save.
    hash_before = scene.battle.state_hash()
    commands_before = len(scene.session.history)
    _press(table, pygame.K_ESCAPE)
    assert scene.prompts.prompt is not None and scene.prompts.kind == "pause"
    scene.answer("title")
    _frames(table, 2)
    assert _scene(table) is None  # the title screen
    save = latest(list_saves())
    assert save is not None and save.round == 3
    table.resume(save.path)
    scene = _wait_for_battle(table)
    assert scene.battle.state_hash() == hash_before
    assert len(scene.session.history) == commands_before
    for _ in range(400):
        if scene.battle.round > 4 or scene.battle.over:
            break
        _play_turn(table, scene)
    if not scene.battle.over:
        # The GM takes the screen and ends the combat from the GM's tools.
        if scene.player != GM:
            scene.gm_button()
            _frames(table, 2)
            hold_enter_to_take(table.app, scene)
        assert scene.player == GM and scene.gm_panel is not None
        end = scene.gm_panel.button("End combat")
        post_click(end.rect.center)
        _frames(table, 3)
    assert scene.battle.over
    assert "The combat is over" in scene.log_text()
    assert latest(list_saves()) is None  # a finished battle is not "continue"
