"""What every menu shares: the frame of a menu scene, its theme and sizes, the UI scale, and
what the menus ask of the Director."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.core.interfaces import IContainerLikeInterface
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UITextEntryLine

from game.app.settings import MIN_SIZE, Settings
from game.battle.setup import BattleSetup
from game.text.bounds import MESSAGE, clip
from game.ui import hud, sound

if TYPE_CHECKING:
    from game.ui.app import Scene

BACKGROUND = (14, 16, 20)
ROW = 30
#: Characters a one-line widget (a button, a label, a drop-down's option) shows at most: names
#: and messages from maps and saves are clipped before (game/text/bounds.py); this is the last
#: bound.
LINE = 200
#: Notices shown on the title screen at most (all of them are printed on standard error).
NOTICES = 8
#: Players (and sides) a save's row and details name at most.
PEOPLE = 8
GAP = 6
#: Widget styles of the menus, over the window's theme (game/ui/theme.json).
THEME: dict[str, Any] = {
    "#heading": {
        "font": {"name": "noto_sans", "size": "22", "bold": "1"},
        "colours": {"normal_text": "#ffffff"},
        "misc": {"text_horiz_alignment": "left"},
    },
    "#section": {
        "font": {"name": "noto_sans", "size": "15", "bold": "1"},
        "colours": {"normal_text": "#c8d0dc"},
        "misc": {"text_horiz_alignment": "left"},
    },
    "#error": {
        "font": {"name": "noto_sans", "size": "13"},
        "colours": {"normal_text": "#ff8a7a"},
        "misc": {"text_horiz_alignment": "left"},
    },
    "#note": {
        "font": {"name": "noto_sans", "size": "13"},
        "colours": {"normal_text": "#aab3c0"},
        "misc": {"text_horiz_alignment": "left"},
    },
    "#note_centre": {
        "font": {"name": "noto_sans", "size": "13"},
        "colours": {"normal_text": "#aab3c0"},
    },
    "#field": {"misc": {"text_horiz_alignment": "left"}},
    "@cell": {
        "misc": {"border_width": "0", "shadow_width": "0", "text_horiz_alignment": "left"},
        "font": {"name": "noto_sans", "size": "13"},
    },
    "#damaged": {"colours": {"normal_text": "#ff8a7a", "hovered_text": "#ffb0a5"}},
}


class Director(Protocol):
    """What the menus ask of the Director (game/ui/launch.py), named here so that the menus do
    not import the module that imports them."""

    user_settings: Settings | None
    notices: list[str]

    def title(self) -> None: ...
    def new_battle(self) -> None: ...
    def load(self) -> None: ...
    def settings(self, status: str = "") -> None: ...
    def quit(self) -> None: ...
    def start(self, setup: BattleSetup, journal: Path) -> None: ...
    def resume(self, journal: Path) -> None: ...
    def saves_folder(self) -> Path: ...
    def save_settings(self, settings: Settings) -> Path: ...
    def new_journal(self, map_path: Path) -> Path: ...


# ---------------------------------------------------------------- the frame of every menu


class MenuScene:
    """What every menu shares: a themed manager, widgets built by `build` (again after a
    resize), and buttons, drop-downs and text fields each given to its own handler."""

    def __init__(self, size: tuple[int, int], director: Director) -> None:
        self.size = size
        self.director = director
        self.ui = hud.manager(size, {})
        self.ui.get_theme().load_theme(THEME)
        self._buttons: dict[object, Callable[[], None]] = {}
        self._choices: dict[object, Callable[[str], None]] = {}
        self._typed: dict[object, Callable[[str], None]] = {}
        self.build()

    # ------------------------------------------------------------ building

    def build(self) -> None:
        raise NotImplementedError

    def rebuild(self) -> None:
        self.ui.clear_and_reset()
        self._buttons.clear()
        self._choices.clear()
        self._typed.clear()
        self.build()

    def button(
        self,
        rect: pygame.Rect,
        text: str,
        action: Callable[[], None],
        *,
        container: IContainerLikeInterface | None = None,
        tip: str | None = None,
        enabled: bool = True,
        object_id: ObjectID | str | None = None,
    ) -> UIButton:
        made = UIButton(
            rect,
            clip(text, LINE),
            manager=self.ui,
            container=container,
            tool_tip_text=None if tip is None else clip(tip, MESSAGE),
            object_id=object_id,
        )
        if not enabled:
            made.disable()
        self._buttons[made] = action
        return made

    def label(
        self,
        rect: pygame.Rect,
        text: str,
        style: str = "#field",
        *,
        container: IContainerLikeInterface | None = None,
    ) -> UILabel:
        return UILabel(
            rect, clip(text, LINE), manager=self.ui, container=container, object_id=style
        )

    def dropdown(
        self,
        rect: pygame.Rect,
        options: Sequence[tuple[str, str]],
        current: str,
        on_choose: Callable[[str], None],
        *,
        container: IContainerLikeInterface | None = None,
    ) -> UIDropDownMenu:
        shown: list[str | tuple[str, str]] = [(clip(text, LINE), key) for text, key in options]
        start = next((o for o in shown if o[1] == current), shown[0])
        made = UIDropDownMenu(shown, start, rect, manager=self.ui, container=container)
        self._choices[made] = on_choose
        return made

    def entry(
        self,
        rect: pygame.Rect,
        text: str,
        on_type: Callable[[str], None],
        *,
        container: IContainerLikeInterface | None = None,
        numbers: bool = False,
        limit: int = 40,
    ) -> UITextEntryLine:
        made = UITextEntryLine(rect, manager=self.ui, container=container)
        if numbers:
            made.set_allowed_characters("numbers")
        made.set_text_length_limit(limit)
        if text:
            made.set_text(text)
        self._typed[made] = on_type
        return made

    # ------------------------------------------------------------ the scene

    def handle(self, event: pygame.event.Event) -> None:
        self.ui.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            action = self._buttons.get(event.ui_element)
            if action is not None:
                sound.effects.play("click")
                action()
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            choose = self._choices.get(event.ui_element)
            if choose is not None:
                choose(event.selected_option_id)
        elif event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            typed = self._typed.get(event.ui_element)
            if typed is not None:
                typed(event.text)
        elif event.type == pygame.KEYDOWN:
            self.key(event)

    def key(self, event: pygame.event.Event) -> None:
        """A key pressed outside the widgets' own handling."""

    def update(self, dt: float) -> None:
        self.ui.update(dt)

    def draw(self, screen: pygame.Surface) -> None:
        screen.fill(BACKGROUND)
        self.ui.draw_ui(screen)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.ui.set_window_resolution(size)
        self.rebuild()

    def texts(self) -> list[str]:
        """Every text the widgets show now (for the tests of translations)."""
        return hud.widget_texts(self.ui)


class Scaled:
    """A scene laid out at a smaller size and drawn scaled up to the window: the UI scale."""

    def __init__(
        self, make: Callable[[tuple[int, int]], Scene], size: tuple[int, int], scale: float
    ) -> None:
        self.scale = scale
        self.size = size
        self.inner = make(self.logical(size))
        self._canvas = _canvas(self.logical(size))

    def logical(self, size: tuple[int, int]) -> tuple[int, int]:
        return (round(size[0] / self.scale), round(size[1] / self.scale))

    def _ui(self) -> pygame_gui.UIManager | None:
        ui = getattr(self.inner, "ui", None)
        return ui if isinstance(ui, pygame_gui.UIManager) else None

    def handle(self, event: pygame.event.Event) -> None:
        ui = self._ui()
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            data = dict(event.dict)
            data["pos"] = (int(event.pos[0] / self.scale), int(event.pos[1] / self.scale))
            if "rel" in data:
                data["rel"] = (round(event.rel[0] / self.scale), round(event.rel[1] / self.scale))
            event = pygame.event.Event(event.type, data)
        # The event's position is scaled here; the widgets must not scale it again.
        if ui is not None:
            ui.mouse_pos_scale_factor = [1.0, 1.0]
        try:
            self.inner.handle(event)
        finally:
            if ui is not None:
                ui.mouse_pos_scale_factor = [1 / self.scale, 1 / self.scale]

    def update(self, dt: float) -> None:
        ui = self._ui()
        if ui is not None:  # hovering reads the pointer itself
            ui.mouse_pos_scale_factor = [1 / self.scale, 1 / self.scale]
        self.inner.update(dt)

    def draw(self, screen: pygame.Surface) -> None:
        self.inner.draw(self._canvas)
        pygame.transform.smoothscale(self._canvas, screen.get_size(), screen)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self._canvas = _canvas(self.logical(size))
        self.inner.resize(self.logical(size))


def _canvas(size: tuple[int, int]) -> pygame.Surface:
    """A surface in the display's format (the quickest to scale onto it)."""
    display = pygame.display.get_surface() if pygame.display.get_init() else None
    return pygame.Surface(size) if display is None else pygame.Surface(size, 0, display)


def fitting_scale(scale: float, size: tuple[int, int]) -> float:
    """The UI scale a window of `size` can take: never so big that the screens' layout (made
    for MIN_SIZE and up) no longer fits."""
    return max(1.0, min(scale, size[0] / MIN_SIZE[0], size[1] / MIN_SIZE[1]))
