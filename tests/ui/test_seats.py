"""The hand-over at a shared screen is taken on purpose (issue 17, docs/window.md "The
hand-over"): the cover ignores input for ARM seconds, then wants a click on "I am <name>" or
Enter held for HOLD seconds. A battle at a shared screen, new or continued, opens on it.

Battles on maps/station_interior.tmx, seed 1: Anna plays the raiders, Ben station security;
Kask (Anna's) acts first, Okafor (Ben's) next. Time passes only through the frames' dt (1/60 s).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.app.settings import Settings
from game.battle.engine import GM
from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.maps import load_map
from game.ui.app import App, post_click, post_key
from game.ui.backdrop import mosaic
from game.ui.battle.scene import BattleScene
from game.ui.launch import Director, WindowOptions, new_journal_path, viewer_for
from game.ui.seats import ARM, HOLD, Seats
from tests.ui.conftest import STATION, hold_enter_to_take

DT = 1 / 60


class Table:
    """Anna and Ben (and a GM when asked) at one headless window, opened as the Director opens
    a battle: for whoever should take the screen first."""

    def __init__(self, *, gm: bool = False) -> None:
        loaded = load_map(STATION)
        setup = setup_from_map(
            loaded, seed=1, players={"Anna": ("raiders",), "Ben": ("station_security",)}, gm=gm
        )
        self.session = Session.new(setup, None)
        self.app = App((1280, 720))
        self.scene = BattleScene(
            self.app.size, self.session, viewer_for(self.session), loaded.render,
            animation_speed=0,
        )  # fmt: skip
        self.app.show(self.scene)
        self.frames(2)

    def frames(self, n: int = 1) -> None:
        for _ in range(n):
            self.app.step(DT)

    def seconds(self, s: float) -> None:
        self.frames(round(s / DT))


@pytest.fixture
def tables() -> Iterator[list[Table]]:
    made: list[Table] = []
    yield made
    for t in made:
        t.session.close()
    pygame.quit()


def _table(tables: list[Table], *, gm: bool = False) -> Table:
    t = Table(gm=gm)
    tables.append(t)
    return t


def _to_ben(t: Table) -> None:
    """Anna takes the opening cover and ends Kask's turn: the screen is to pass to Ben."""
    hold_enter_to_take(t.app, t.scene)
    post_key(pygame.K_RETURN)
    t.frames(2)
    assert t.scene.seats.waiting_for == "Ben"


def _is_cover(t: Table) -> bool:
    """The top row is the title screen's mosaic, not the board."""
    screen, backdrop = t.app.screen, mosaic(t.app.size)
    return all(screen.get_at((x, 10)) == backdrop.get_at((x, 10)) for x in range(0, 1280, 7))


def test_a_battle_with_a_gm_opens_on_the_hand_over_to_the_acting_player_not_the_gms_view(
    tables: list[Table],
) -> None:
    t = _table(tables, gm=True)
    assert t.scene.seats.waiting_for == "Anna"
    assert _is_cover(t) and t.scene.gm_panel is None
    assert hold_enter_to_take(t.app, t.scene) == "Anna"
    assert t.scene.gm_panel is None
    assert t.scene.view.factions == frozenset({"raiders"})


def test_a_hot_seat_battle_without_a_gm_opens_on_the_hand_over_too(tables: list[Table]) -> None:
    t = _table(tables)
    assert t.scene.seats.waiting_for == "Anna" and _is_cover(t)


def test_two_enters_one_and_a_half_seconds_apart_do_not_skip_the_cover(
    tables: list[Table],
) -> None:
    """The bug: End turn, then a second Enter 1.5 s later, showed Ben's view to Anna."""
    t = _table(tables)
    _to_ben(t)
    t.seconds(1.5)
    post_key(pygame.K_RETURN)
    t.frames(2)
    t.seconds(3)
    assert t.scene.seats.waiting_for == "Ben" and t.scene.player == "Anna"
    assert _is_cover(t)


def test_enter_held_from_before_the_cover_never_takes_it(tables: list[Table]) -> None:
    """Anna holds End turn down: the key was down before the cover came, so however long it
    stays down (and whatever repeats it sends), the screen stays covered."""
    t = _table(tables)
    hold_enter_to_take(t.app, t.scene)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode=""))
    t.frames(2)
    assert t.scene.seats.waiting_for == "Ben"
    for _ in range(4):
        t.seconds(ARM)
        pygame.event.post(
            pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="")
        )  # a key repeat
    t.seconds(HOLD + 1)
    assert t.scene.seats.waiting_for == "Ben"
    # Released and held again on purpose, it takes it.
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode=""))
    t.frames(1)
    assert hold_enter_to_take(t.app, t.scene) == "Ben"


def test_enter_released_before_the_hold_is_full_does_not_take_it(tables: list[Table]) -> None:
    t = _table(tables)
    _to_ben(t)
    t.seconds(ARM + 0.1)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode=""))
    t.seconds(HOLD / 2)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode=""))
    t.seconds(HOLD * 2)
    assert t.scene.seats.waiting_for == "Ben"


def test_a_click_on_i_am_ben_takes_the_screen_but_not_before_the_cover_listens(
    tables: list[Table],
) -> None:
    t = _table(tables)
    _to_ben(t)
    button = t.scene.seats.button_rect(t.app.size)
    post_click(button.center)  # at once: a double click on End turn lands here
    t.frames(2)
    assert t.scene.seats.waiting_for == "Ben"
    t.seconds(ARM)
    post_click((button.right + 40, button.centery))  # beside the button
    t.frames(2)
    assert t.scene.seats.waiting_for == "Ben"
    post_click(button.center)
    t.frames(2)
    assert t.scene.seats.waiting_for is None and t.scene.player == "Ben"


def test_the_cover_names_the_person_on_its_button_in_words_that_show_nothing_else(
    tables: list[Table],
) -> None:
    t = _table(tables)
    _to_ben(t)
    t.seconds(ARM)
    button = t.scene.seats.button_rect(t.app.size)
    screen = t.app.screen
    inside = {tuple(screen.get_at((x, button.centery)))[:3] for x in range(button.x, button.right)}
    assert len(inside) > 2  # the button and its words are drawn


@pytest.fixture
def director(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Director]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    app = App((1280, 720))
    d = Director(app, WindowOptions(animation_speed=0), settings=Settings())
    yield d
    d.close_battle()
    app.close()


def _battle(director: Director) -> BattleScene:
    start = time.monotonic()
    while time.monotonic() - start < 120 and director.failure is None:
        scene = getattr(director.app.scene, "inner", director.app.scene)
        if isinstance(scene, BattleScene):
            director.app.step(DT)
            return scene
        director.app.step(DT)
        time.sleep(0.005)
    raise AssertionError(f"the battle never opened: {director.failure}")


def test_continuing_a_battle_with_a_gm_opens_on_the_hand_over_to_whoever_acts(
    director: Director,
) -> None:
    loaded = load_map(STATION)
    setup = setup_from_map(
        loaded, seed=1, players={"Anna": ("raiders",), "Ben": ("station_security",)}, gm=True
    )
    journal = new_journal_path(STATION)
    director.start(setup, journal)
    scene = _battle(director)
    assert scene.seats.waiting_for == "Anna"
    hold_enter_to_take(director.app, scene)
    if scene.guide is not None:  # the first battle's guide (issue 17) takes no Enter: put it away
        scene.close_guide()
    post_key(pygame.K_RETURN)  # Kask ends its turn
    for _ in range(3):
        director.app.step(DT)
    director.leave()
    director.resume(journal)
    scene = _battle(director)
    assert scene.seats.waiting_for == "Ben"
    assert scene.gm_panel is None and scene.player != GM
    assert hold_enter_to_take(director.app, scene) == "Ben"


def test_the_hand_over_has_the_title_screens_mosaic_under_a_pane_not_a_flat_fill(
    tables: list[Table],
) -> None:
    """Issue 17: the cover is the title screen's backdrop (game/ui/backdrop.py), drawn by code;
    only the pane in the middle holds the name, the button and the hint."""
    t = _table(tables)
    _to_ben(t)
    t.frames(1)
    screen, backdrop = t.app.screen, mosaic(t.app.size)
    pane = Seats.pane_rect(t.app.size)
    samples = [
        (x, y)
        for x in range(0, 1280, 9)
        for y in range(0, 720, 9)
        if not pane.inflate(2, 2).collidepoint(x, y)
    ]
    assert all(screen.get_at(p) == backdrop.get_at(p) for p in samples)
    # Not a flat fill: the tiles, their grout and the lit ones are many colours.
    assert len({tuple(screen.get_at(p)) for p in samples}) > 50
    # The pane is darker than the mosaic around it, so that the words read.
    inside = screen.get_at((pane.left + 6, pane.top + 6))
    assert sum(inside[:3]) < sum(backdrop.get_at((pane.left + 6, pane.top + 6))[:3])
