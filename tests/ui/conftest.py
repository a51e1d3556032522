"""A battle window driven headless: post mouse and key events, step frames, read pixels."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pygame
import pytest

from game.battle.engine import Battle
from game.battle.session import Session
from game.battle.setup import BattleSetup, UnitSpec, setup_from_map, with_ruleset
from game.grid.model import Cell
from game.maps import LoadedMap, load_map
from game.ui.app import App, post_click, post_key, post_mouse_move
from game.ui.battle.scene import BattleScene

REPO = Path(__file__).resolve().parents[2]
STATION = REPO / "maps" / "station_interior.tmx"


@dataclass
class Window:
    """The app, its battle scene and helpers to act on it as a person would."""

    app: App
    scene: BattleScene
    session: Session
    loaded: LoadedMap

    @property
    def battle(self) -> Battle:
        return self.session.battle

    def frames(self, n: int = 1, dt: float = 1 / 60) -> None:
        for _ in range(n):
            self.app.step(dt)

    def at(self, cell: Cell) -> tuple[int, int]:
        """The screen point at the centre of a cell, showing its level first and panning it
        into view (the battle opens zoomed in on the acting unit)."""
        if self.scene.board.level != cell[2]:
            self.scene.board.set_level(cell[2])
            self.scene.refresh()
        self.scene.board.show_cell(cell)
        x, y = self.scene.board.cell_centre(cell)
        return round(x), round(y)

    def hover(self, cell: Cell) -> None:
        post_mouse_move(self.at(cell))
        self.frames(2)

    def click(self, cell: Cell, button: int = 1) -> None:
        post_click(self.at(cell), button)
        self.frames(2)

    def key(self, key: int, mod: int = 0) -> None:
        post_key(key, mod)
        self.frames(2)

    def take_screen(self) -> str:
        """Whoever the screen is passed to takes it, holding Enter."""
        return hold_enter_to_take(self.app, self.scene)

    def pixels(self) -> pygame.Surface:
        return self.app.screen.copy()

    def settle(self, limit: int = 2000) -> None:
        """Step until the computer has played and it is a person's move again (or it is over)."""
        for _ in range(limit):
            b = self.battle
            actor = b.pending.reactor if b.pending is not None else b.active
            persons_move = (
                b.over or actor is None or b.controller_of(b.faction_of(actor)) != "computer"
            )
            if persons_move and not self.scene.animator.busy:
                break
            self.frames(1)
        self.frames(2)


MakeWindow = Callable[..., Window]


def hold_enter_to_take(app: App, scene: BattleScene, dt: float = 1 / 60) -> str:
    """The person the screen is passed to takes it as the cover asks (game/ui/seats.py): waits
    until it listens, then holds Enter until the battle shows. Answers who has the screen."""
    assert scene.seats.waiting_for is not None
    for _ in range(1000):
        if scene.seats.armed:
            break
        app.step(dt)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode=""))
    for _ in range(1000):
        app.step(dt)
        if scene.seats.waiting_for is None:
            break
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode=""))
    app.step(dt)
    assert scene.seats.waiting_for is None, "the screen was not taken"
    return scene.player


@pytest.fixture
def make_window() -> Iterator[MakeWindow]:
    """make_window(player="player", sides=("raiders",), units=None, seed=1, ...) -> Window.

    The station map's own units unless `units` replaces them; the computer plays every side the
    player does not; animations are instant."""
    made: list[Window] = []

    def make(
        player: str = "player",
        sides: Sequence[str] = ("raiders",),
        units: Sequence[UnitSpec] | None = None,
        seed: int = 1,
        map_path: Path = STATION,
        computer: Sequence[str] | None = None,
        gm: bool = False,
        ruleset: str | None = None,
    ) -> Window:
        loaded = load_map(map_path)
        factions = sorted({u.faction for u in (units or loaded.units)})
        others = tuple(f for f in factions if f not in sides) if computer is None else computer
        setup: BattleSetup = setup_from_map(
            loaded, seed=seed, computer=tuple(others), players={"player": tuple(sides)}, gm=gm
        )
        if units is not None:
            setup = replace(setup, units=tuple(units))
        setup = with_ruleset(setup, ruleset)
        session = Session.new(setup, None)
        app = App((1280, 720))
        scene = BattleScene(app.size, session, player, loaded.render, animation_speed=0)
        app.show(scene)
        window = Window(app, scene, session, loaded)
        made.append(window)
        window.frames(2)
        return window

    yield make
    for window in made:
        window.session.close()
    pygame.quit()
