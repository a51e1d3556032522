"""Opening a battle in the window: a progress screen while the kernels compile and the map loads,
then the battle screen."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from game.text.bounds import NAME, fit, wrap
from game.text.i18n import _
from game.ui import fonts

#: Lines a failure's message is shown in at most (each fitted to the window).
ERROR_LINES = 4

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
    """A title, what is being prepared, and a bar: never a frozen or silent window. When the work
    is done, `on_done(result)` shows what comes next; a failure stays on the screen (and goes to
    `on_error`) until Esc or Enter leaves it."""

    def __init__(
        self,
        size: tuple[int, int],
        title: str,
        work: Callable[[Loading], object],
        *,
        on_done: Callable[[object], None] | None = None,
        on_error: Callable[[str], None] | None = None,
        on_leave: Callable[[], None] | None = None,
    ) -> None:
        self.size = size
        self.title = title
        self.state = Loading()
        self.on_done = on_done
        self.on_error = on_error
        self.on_leave = on_leave
        self._reported = False
        self._spin = 0.0
        self._thread = threading.Thread(target=self._run, args=(work,), daemon=True)
        self._thread.start()
        self._fonts = (fonts.font(40, bold=True), fonts.font(19))

    def _run(self, work: Callable[[Loading], object]) -> None:
        try:
            self.state.result = work(self.state)
        except Exception as exc:  # shown on the screen, not lost in a thread
            self.state.error = _error_text(exc)
        finally:
            self.state.finished = True

    def handle(self, event: pygame.event.Event) -> None:
        if (
            self.state.error is not None
            and event.type == pygame.KEYDOWN
            and event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER)
            and self.on_leave is not None
        ):
            self.on_leave()

    def update(self, dt: float) -> None:
        self._spin += dt
        if not self.state.finished or self._reported:
            return
        self._reported = True
        if self.state.error is not None:
            if self.on_error is not None:
                self.on_error(self.state.error)
        elif self.on_done is not None:
            self.on_done(self.state.result)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def draw(self, screen: pygame.Surface) -> None:
        screen.fill((14, 16, 20))
        w, h = screen.get_size()
        big, small = self._fonts
        # A journal's or a map's name and message may be of any length: fitted to the window.
        words = fit(self.title, w - 40, lambda t: big.size(t)[0], NAME)
        title = big.render(words, True, (235, 238, 245))
        screen.blit(title, title.get_rect(center=(w // 2, h // 2 - 70)))
        if self.state.error is not None:
            lines = wrap(self.state.error, w - 40, lambda t: small.size(t)[0], ERROR_LINES)
            y = h // 2
            for line in lines:
                text = small.render(line, True, (255, 120, 110))
                screen.blit(text, text.get_rect(center=(w // 2, y)))
                y += small.get_linesize()
            if self.on_leave is not None:
                hint = small.render(_("Press Esc to go back."), True, (200, 205, 215))
                screen.blit(hint, hint.get_rect(center=(w // 2, y + 40 - small.get_linesize())))
            return
        dots = "." * (1 + int(self._spin * 3) % 3)
        words = _STEP_TEXT.get(self.state.step, lambda: dots)()
        text = small.render(words, True, (200, 205, 215))
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


def _error_text(exc: Exception) -> str:
    """What a player reads when a battle cannot open: the journal's or map's own message (they
    name the file and the line), anything else with its kind."""
    from game.battle.journal import JournalError
    from game.maps import MapError

    if isinstance(exc, JournalError | MapError | OSError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"
