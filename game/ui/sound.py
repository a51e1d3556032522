"""Sound effects (assets/sounds, made by the project): played through pygame.mixer at the
settings' volume, or not at all when muted, and silently nothing when there is no audio device.

The mixer is started only when a sound is first wanted (a muted game never probes a sound card),
and any failure to start it or to load a sound leaves the game silent, never stopped: a machine
without audio, SDL_AUDIODRIVER=dummy and a pygame built without a mixer all play on in silence.
"""

from __future__ import annotations

import contextlib
from collections import deque
from pathlib import Path

import pygame

SOUNDS_DIR = Path(__file__).resolve().parents[2] / "assets" / "sounds"
#: The effects the game plays, by the file names in SOUNDS_DIR.
NAMES = ("shot", "hit", "miss", "wound", "down", "dice", "step", "click")


class Sounds:
    """The game's sound effects at one volume; `play` never raises."""

    def __init__(self, volume: float = 0.8, muted: bool = False) -> None:
        self.volume = volume
        self.muted = muted
        #: None: the mixer has not been tried yet; False: it could not start (silent for good).
        self._ready: bool | None = None
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        #: The last effects asked for (played, or not when muted or silent), for tests.
        self.played: deque[str] = deque(maxlen=64)

    def configure(self, volume: float, muted: bool) -> None:
        self.volume = min(1.0, max(0.0, volume))
        self.muted = muted
        if self._ready and not pygame.mixer.get_init():
            # pygame.quit() closed the mixer (a new window, a test): its sounds went with it.
            self._ready = None
            self._sounds.clear()
        for sound in self._sounds.values():
            with contextlib.suppress(pygame.error):
                sound.set_volume(self.volume)

    @property
    def audible(self) -> bool:
        return not self.muted and self.volume > 0

    def _start(self) -> bool:
        if self._ready and not pygame.mixer.get_init():
            self._ready = None  # closed by pygame.quit(), as in `configure`
            self._sounds.clear()
        if self._ready is None:
            try:
                if not pygame.mixer.get_init():
                    pygame.mixer.init(frequency=22050, size=-16, channels=2, buffer=512)
                for name in NAMES:
                    sound = pygame.mixer.Sound(str(SOUNDS_DIR / f"{name}.wav"))
                    sound.set_volume(self.volume)
                    self._sounds[name] = sound
                self._ready = True
            except (pygame.error, NotImplementedError, OSError, FileNotFoundError):
                self._sounds.clear()
                self._ready = False
        return self._ready

    def play(self, name: str) -> None:
        """Play the effect `name` (one of NAMES) at the volume; nothing when muted or silent."""
        self.played.append(name)
        if not self.audible or not self._start():
            return
        sound = self._sounds.get(name)
        if sound is not None:
            with contextlib.suppress(pygame.error):
                sound.play()


#: The window's one set of sounds (the Director configures it from the settings).
effects = Sounds()
