"""Opening a battle in the window: a progress screen while the kernels compile and the map loads,
then the battle screen."""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pygame

from game.i18n import _
from game.ui.app import App

_STEP_TEXT = {
    "sight": lambda: _("Preparing line of sight… (the first start compiles the grid kernels)"),
    "cover": lambda: _("Preparing cover…"),
    "movement": lambda: _("Preparing movement…"),
    "battle": lambda: _("Preparing the battle…"),
    "map": lambda: _("Loading the map…"),
    "ready": lambda: _("Ready."),
}


@dataclass
class Loading:
    """Work done in a thread while the progress screen is drawn: its step, its fraction, and
    its result or the error that stopped it."""

    step: str = "sight"
    done: float = 0.0
    result: object = None
    error: str | None = None
    finished: bool = False


class ProgressScene:
    """A title, what is being prepared, and a bar: never a frozen or silent window."""

    def __init__(
        self, size: tuple[int, int], title: str, work: Callable[[Loading], object]
    ) -> None:
        self.size = size
        self.title = title
        self.state = Loading()
        self._spin = 0.0
        self._thread = threading.Thread(target=self._run, args=(work,), daemon=True)
        self._thread.start()
        self._fonts = (pygame.font.Font(None, 56), pygame.font.Font(None, 26))

    def _run(self, work: Callable[[Loading], object]) -> None:
        try:
            self.state.result = work(self.state)
        except Exception as exc:  # shown on the screen, not lost in a thread
            self.state.error = f"{type(exc).__name__}: {exc}"
            traceback.print_exc()
        finally:
            self.state.finished = True

    def handle(self, event: pygame.event.Event) -> None:
        pass

    def update(self, dt: float) -> None:
        self._spin += dt

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def draw(self, screen: pygame.Surface) -> None:
        screen.fill((14, 16, 20))
        w, h = screen.get_size()
        big, small = self._fonts
        title = big.render(self.title, True, (235, 238, 245))
        screen.blit(title, title.get_rect(center=(w // 2, h // 2 - 70)))
        if self.state.error is not None:
            text = small.render(self.state.error, True, (255, 120, 110))
        else:
            dots = "." * (1 + int(self._spin * 3) % 3)
            text = small.render(
                _STEP_TEXT.get(self.state.step, lambda: dots)(), True, (200, 205, 215)
            )
        screen.blit(text, text.get_rect(center=(w // 2, h // 2)))
        bar = pygame.Rect(0, 0, min(520, w - 80), 14)
        bar.center = (w // 2, h // 2 + 40)
        pygame.draw.rect(screen, (50, 55, 66), bar, border_radius=7)
        fill = bar.copy()
        fill.width = max(14, round(bar.width * self.state.done))
        pygame.draw.rect(screen, (90, 160, 240), fill, border_radius=7)
        # A moving tick shows the window is alive while one long step runs.
        tick = bar.x + int((self._spin * 160) % bar.width)
        pygame.draw.line(screen, (220, 230, 255), (tick, bar.y + 2), (tick, bar.bottom - 3), 2)


def wait_for(app: App, scene: ProgressScene, frames: int | None = None) -> Loading:
    """Draw the progress screen until its work is done (or the window is closed)."""
    app.show(scene)
    count = 0
    while app.running and not (scene.state.finished and scene.state.error is None):
        app.step()
        count += 1
        if frames is not None and count >= frames and scene.state.finished:
            break
    return scene.state


def map_path_default() -> Path:
    return Path(__file__).resolve().parents[2] / "maps" / "station_interior.tmx"
