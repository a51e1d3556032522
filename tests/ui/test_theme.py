"""The interface's theme: the pygame-gui theme file loads, every style names one font family
(Noto Sans), and the text drawn outside the widgets (the hand-over screen, the board's marks,
the effects, the progress screen) uses the same family."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pygame
import pytest

from game.ui import fonts, hud
from game.ui.menus.base import THEME as MENU_STYLES

UI = Path(__file__).resolve().parents[2] / "game" / "ui"


@pytest.fixture
def display() -> object:
    pygame.display.init()
    pygame.font.init()
    yield pygame.display.set_mode((320, 240))
    pygame.quit()


def _font_names(styles: dict[str, object]) -> set[str]:
    return {
        str(style["font"]["name"])  # type: ignore[index]
        for style in styles.values()
        if isinstance(style, dict) and "font" in style
    }


def test_the_theme_file_loads_and_every_style_names_one_font_family(display: object) -> None:
    text = resources.files("game.ui").joinpath("theme.json").read_text(encoding="utf-8")
    theme = json.loads(text)
    styles = {"defaults": theme["defaults"], **theme}
    assert _font_names(styles) | _font_names(MENU_STYLES) == {fonts.THEME_NAME}
    manager = hud.manager((320, 240), {"red": (200, 60, 60)})
    manager.get_theme().load_theme(MENU_STYLES)
    assert manager.get_theme() is not None


def test_the_text_drawn_outside_the_widgets_is_noto_sans_too(display: object) -> None:
    assert fonts.REGULAR.exists() and fonts.BOLD.exists()
    assert fonts.font(20).name == "Noto Sans"
    assert fonts.font(20, bold=True).name == "Noto Sans"


def test_no_screen_draws_with_another_font_than_the_themes() -> None:
    """pygame's default font or a system font anywhere but game/ui/fonts.py would be a second
    family on the screen (the hand-over screen once was)."""
    found = []
    for path in sorted(UI.rglob("*.py")):
        if path.name == "fonts.py":
            continue
        text = path.read_text(encoding="utf-8")
        found += [
            f"{path.relative_to(UI)}: {m.group(0)}"
            for m in re.finditer(r"pygame\.(font\.Font|font\.SysFont|freetype)\(", text)
        ]
    assert found == []
