"""The interface's one font family, Noto Sans (the file pygame-gui ships and its theme names),
for the text drawn outside the widgets: the hand-over screen, the board's marks, the effects."""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui

#: Where pygame-gui keeps Noto Sans (SIL Open Font License, in its data/licenses).
FONT_DIR = Path(pygame_gui.__file__).resolve().parent / "data"
REGULAR = FONT_DIR / "NotoSans-Regular.ttf"
BOLD = FONT_DIR / "NotoSans-Bold.ttf"
#: The family's name in the pygame-gui theme files (game/ui/theme.json, the menus' styles).
THEME_NAME = "noto_sans"


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """Noto Sans at `size` pixels; pygame's own font only if the file cannot be read. Callers
    keep what they make: a font does not outlive pygame.quit(), so nothing is cached here."""
    try:
        return pygame.font.Font(str(BOLD if bold else REGULAR), size)
    except (OSError, FileNotFoundError, pygame.error):
        return pygame.font.Font(None, size)
