"""The window: one pygame display, its scene, and a loop that tests can also step frame by frame."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import pygame

DEFAULT_SIZE = (1280, 720)
FPS = 60
#: The smallest window the battle screen lays out in (game/app/settings.py MIN_SIZE).
MIN_SIZE = (800, 560)
#: Of the display, what a window may take at most: room for the title bar and a task bar.
DISPLAY_SHARE = (0.96, 0.9)


def fit_display(size: tuple[int, int], display: tuple[int, int] | None) -> tuple[int, int]:
    """`size` made to fit a display of `display` pixels (with room for the window's frame and
    a task bar), never below MIN_SIZE; unchanged when the display is unknown or big enough."""
    if display is None or display[0] <= 0 or display[1] <= 0:
        return size
    if size[0] <= display[0] and size[1] <= display[1]:
        return size
    room = (int(display[0] * DISPLAY_SHARE[0]), int(display[1] * DISPLAY_SHARE[1]))
    return (
        max(MIN_SIZE[0], min(size[0], room[0])),
        max(MIN_SIZE[1], min(size[1], room[1])),
    )


def display_size() -> tuple[int, int] | None:
    """The size of the display the window opens on, if there is a real one (the headless
    drivers report a made-up 1024 × 768 desktop)."""
    try:
        if pygame.display.get_driver() in ("dummy", "offscreen"):
            return None
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        return None
    return (int(sizes[0][0]), int(sizes[0][1])) if sizes else None


#: SDL's drivers that draw nowhere: chosen on purpose (SDL_VIDEODRIVER, tests and screenshots)
#: they are fine; picked by SDL because nothing else worked, nobody would see the window.
HEADLESS_DRIVERS = ("offscreen", "dummy")


class NoDisplay(pygame.error):
    """There is no display to open the window on."""


def no_display() -> str | None:
    """Why the window could not be seen (None: it can, or a driver was asked for by name). On
    Linux without DISPLAY or WAYLAND_DISPLAY nothing is tried, so SDL prints nothing either."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return None
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return "DISPLAY and WAYLAND_DISPLAY are not set"
    return None


class Scene(Protocol):
    """A screen of the game: it reads input, moves its animations on and draws itself."""

    def handle(self, event: pygame.event.Event) -> None: ...

    def update(self, dt: float) -> None: ...

    def draw(self, screen: pygame.Surface) -> None: ...

    def resize(self, size: tuple[int, int]) -> None: ...


class App:
    """The display and the scene on it. `run()` is the real loop; `step()` is one frame of it,
    for tests and benchmarks that drive the window headless (SDL_VIDEODRIVER=dummy)."""

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, *, title: str = "Tessera") -> None:
        # Only what the game uses: starting the mixer would probe sound cards for nothing.
        why = no_display()
        if why is None:
            pygame.display.init()
            driver = pygame.display.get_driver()
            if driver in HEADLESS_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
                pygame.display.quit()
                why = f"SDL found only its {driver!r} driver"
        if why is not None:
            raise NoDisplay(
                f"no display to open the window on ({why}). Start Tessera from a desktop "
                "session, or play without a window: `tessera run MAP --journal FILE`"
            )
        pygame.font.init()
        pygame.display.set_caption(title)
        self.screen = pygame.display.set_mode(fit_display(size, display_size()), pygame.RESIZABLE)
        self.clock = pygame.time.Clock()
        self.scene: Scene | None = None
        #: Told the window's new size when the person resizes it (the Director keeps it).
        self.on_resize: Callable[[tuple[int, int]], None] | None = None
        self.running = True
        self.frame_times: list[float] = []
        self.keep_frame_times = False

    @property
    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    def show(self, scene: Scene) -> None:
        self.scene = scene

    def step(self, dt: float | None = None) -> None:
        """One frame: the waiting events, the scene's update by `dt` seconds, a draw, a flip."""
        start = time.perf_counter()
        if dt is None:
            dt = self.clock.tick(FPS) / 1000
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.running = False
            elif event.type == pygame.VIDEORESIZE:
                self.screen = pygame.display.get_surface()
                if self.scene is not None:
                    self.scene.resize(self.screen.get_size())
                if self.on_resize is not None:
                    self.on_resize(self.screen.get_size())
            if self.scene is not None:
                self.scene.handle(event)
        if self.scene is not None:
            self.scene.update(dt)
            self.scene.draw(self.screen)
        pygame.display.flip()
        if self.keep_frame_times:
            self.frame_times.append(time.perf_counter() - start)

    def run(self, frames: int | None = None, on_frame: Callable[[int], None] | None = None) -> None:
        """Until the window is closed (or for `frames` frames, at the real pace)."""
        count = 0
        while self.running and (frames is None or count < frames):
            self.step()
            count += 1
            if on_frame is not None:
                on_frame(count)

    def screenshot(self, path: Path | str) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.screen, str(path))
        return path

    def close(self) -> None:
        pygame.quit()


def post_key(key: int, mod: int = 0, unicode: str = "") -> None:
    """Put a key press and release on the event queue, as a person typing would."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode=unicode))


def post_mouse_move(pos: tuple[int, int], buttons: tuple[int, int, int] = (0, 0, 0)) -> None:
    pygame.mouse.set_pos(pos)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons))


def post_click(pos: tuple[int, int], button: int = 1) -> None:
    """A press and release of `button` at `pos` (1 left, 2 middle, 3 right)."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
