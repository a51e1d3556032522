"""The settings screen: language, window, UI scale, animation speed, sound, keys."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pygame
from pygame_gui.elements import UIButton, UIDropDownMenu, UIScrollingContainer

from game.app.settings import (
    ANIMATION_SPEEDS,
    LANGUAGES,
    UI_SCALES,
    VOLUMES,
    WINDOW_SIZES,
    Settings,
    key_conflict,
)
from game.text.i18n import _
from game.ui import hud
from game.ui.keys import DEFAULT_KEYS
from game.ui.menus.base import GAP, ROW, Director, MenuScene


def default_key_names() -> dict[str, tuple[str, ...]]:
    """The window's default keys (game/ui/keys.py) by the names the settings file keeps."""
    return {a: tuple(pygame.key.name(k) for k in keys) for a, keys in DEFAULT_KEYS.items()}


def key_label(name: str) -> str:
    names = {"return": "Enter", "enter": "Keypad Enter", "escape": "Esc", "page up": "PgUp"}
    names |= {"page down": "PgDn"}
    return names.get(name, name.title() if len(name) > 1 else name.upper())


def _action_names() -> dict[str, str]:
    return {
        "move": _("Move"),
        "five_foot_step": _("5-foot step"),
        "coup_de_grace": _("Coup de grâce"),
        "attack": _("Attack"),
        "throw": _("Throw"),
        "reload": _("Reload"),
        "dash": _("Dash"),
        "dodge": _("Dodge"),
        "disengage": _("Disengage"),
        "help": _("Help"),
        "ready": _("Ready"),
        "hide": _("Hide"),
        "search": _("Search"),
        "use_object": _("Medkit"),
        "crouch": _("Crouch"),
        "prone": _("Prone"),
        "stand": _("Stand"),
        "improvise": _("Improvise"),
        "end_turn": _("End turn"),
        "aim": _("Aim"),
        "hasty": _("Act hastily"),
        "delay": _("Delay"),
        "react_stance": _("Dodge/parry on-off"),
        "fire_mode": _("Bursts on-off"),
        "break_grab": _("Break the grab"),
        "confirm": _("Confirm the aimed command"),
        "cancel": _("Cancel"),
        "next_unit": _("Next unit"),
        "level_up": _("Level up"),
        "level_down": _("Level down"),
        "fit": _("Fit map"),
        "mode": _("Movement mode"),
        "stealth": _("Stealth"),
        "take": _("Take a reaction"),
        "let_go": _("Let a reaction go"),
        "help_keys": _("Show the keys"),
    }


def action_name(action: str) -> str:
    return _action_names().get(action, action.replace("_", " "))


# ---------------------------------------------------------------- settings


def _speed_names() -> dict[float, str]:
    return {
        0.0: _("Instant"),
        0.5: _("Slow"),
        1.0: _("Normal"),
        2.0: _("Fast"),
    }


class SettingsScene(MenuScene):
    """Language, window size and fullscreen, UI scale, animation speed, keys; Save or Back."""

    def __init__(self, size: tuple[int, int], director: Director, status: str = "") -> None:
        self.defaults = default_key_names()
        current = director.user_settings or Settings()
        self.draft = current
        self.bindings, _notices = current.bindings(self.defaults)
        self.capturing: str | None = None
        self.status = status
        self.key_buttons: dict[str, UIButton] = {}
        super().__init__(size, director)

    def build(self) -> None:
        w, h = self.size
        d = self.draft
        self.key_buttons = {}
        col = min(420, (w - 60) // 2)
        x0, x1 = 20, 40 + col
        self.label(pygame.Rect(x0, 14, w - 40, 36), _("Settings"), "#heading")
        y = 62
        rows: list[tuple[str, Sequence[tuple[str, str]], str, Callable[[str], None]]] = [
            (
                _("Language"),
                [("English", "en"), ("Italiano", "it")],
                d.language if d.language in LANGUAGES else "en",
                lambda v: self._set(language=v),
            ),
            (
                _("Window size"),
                [(f"{a} × {b}", f"{a}x{b}") for a, b in self._sizes()],
                "{}x{}".format(*d.window_size),
                lambda v: self._set(window_size=tuple(int(n) for n in v.split("x"))),
            ),
            (
                _("Display"),
                [(_("In a window"), "window"), (_("Full screen"), "full")],
                "full" if d.fullscreen else "window",
                lambda v: self._set(fullscreen=v == "full"),
            ),
            (
                _("UI scale"),
                [(f"{round(s * 100)}%", f"{s:g}") for s in UI_SCALES],
                f"{d.ui_scale:g}",
                lambda v: self._set(ui_scale=float(v)),
            ),
            (
                _("Animation speed"),
                [(_speed_names()[s], f"{s:g}") for s in ANIMATION_SPEEDS],
                f"{d.animation_speed:g}",
                lambda v: self._set(animation_speed=float(v)),
            ),
            (
                _("Sound volume"),
                [(f"{round(v * 100)}%", f"{v:g}") for v in VOLUMES],
                f"{d.volume:g}",
                lambda v: self._set(volume=float(v)),
            ),
            (
                _("Sound"),
                [(_("On"), "on"), (_("Muted"), "muted")],
                "muted" if d.muted else "on",
                lambda v: self._set(muted=v == "muted"),
            ),
        ]
        self.menus: dict[str, UIDropDownMenu] = {}
        for name, options, current, choose in rows:
            self.label(pygame.Rect(x0, y, 170, ROW), name, "#field")
            self.menus[name] = self.dropdown(
                pygame.Rect(x0 + 174, y, col - 174, ROW), options, current, choose
            )
            y += ROW + GAP
        self.label(
            pygame.Rect(x0, y + 4, col, 40),
            _("The window size and scale apply when saved."),
            "#note",
        )
        # --- keys
        kw = min(560, w - x1 - 20)
        self.label(pygame.Rect(x1, 62, kw, 24), _("Keys"), "#section")
        box = UIScrollingContainer(
            pygame.Rect(x1, 90, kw, h - 90 - 150), manager=self.ui, allow_scroll_x=False
        )
        inner = box.get_container()
        inner_w = kw - 24
        kb = min(164, inner_w // 3)  # the key buttons' width
        ky = 0
        for action in self.defaults:
            self.label(pygame.Rect(0, ky, inner_w - kb - 6, ROW), action_name(action), "#field",
                       container=inner)  # fmt: skip
            text = (
                _("Press a key…")
                if self.capturing == action
                else " / ".join(key_label(n) for n in self.bindings.get(action, ()))
            )
            button = self.button(
                pygame.Rect(inner_w - kb, ky, kb, ROW),
                text,
                lambda a=action: self.capture(a),  # type: ignore[misc]
                container=inner,
            )
            hud.fit_text(button, text)  # "Enter / Keypad Enter" in the smallest window
            if self.capturing == action:
                button.select()
            self.key_buttons[action] = button
            ky += ROW + 2
        box.set_scrollable_area_dimensions((inner_w, ky))
        self.reset_button = self.button(
            pygame.Rect(x1, h - 56 - 40 - 6, 180, ROW), _("Default keys"), self.reset_keys
        )
        self.status_label = self.label(
            pygame.Rect(x0, h - 56 - 40 - 6 + 34, w - 40, 26),
            self.status,
            "#status",
        )
        self.back_button = self.button(
            pygame.Rect(20, h - 50, 160, 38), _("Back"), self.director.title
        )
        self.save_button = self.button(pygame.Rect(w - 200, h - 50, 180, 38), _("Save"), self.save)

    def _sizes(self) -> list[tuple[int, int]]:
        sizes = list(WINDOW_SIZES)
        if self.draft.window_size not in sizes:
            sizes.append(self.draft.window_size)
        return sorted(sizes)

    def _set(self, **changes: Any) -> None:
        self.draft = replace(self.draft, **changes)

    def capture(self, action: str) -> None:
        """The next key pressed becomes `action`'s (clicking it again stops waiting)."""
        self.capturing = None if self.capturing == action else action
        self.status = _("Press the new key for {action}.").format(action=action_name(action))
        if self.capturing is None:
            self.status = ""
        self.rebuild()

    def key(self, event: pygame.event.Event) -> None:
        if self.capturing is None:
            if event.key == pygame.K_ESCAPE and not self.ui.get_focus_set():
                self.director.title()
            return
        name = pygame.key.name(event.key)
        if not name:
            return
        action, self.capturing = self.capturing, None
        conflict = key_conflict(self.bindings, action, name)
        if conflict is not None and conflict[0] == "reserved":
            self.status = _("{key} pans the map or changes other keys; choose another.").format(
                key=key_label(name)
            )
        elif conflict is not None:
            self.status = _("{key} is already used by {action}.").format(
                key=key_label(name), action=action_name(str(conflict[1]))
            )
        else:
            self.bindings[action] = (name,)
            self.status = _("{action}: {key}").format(
                action=action_name(action), key=key_label(name)
            )
        self.rebuild()

    def reset_keys(self) -> None:
        self.bindings = dict(self.defaults)
        self.capturing = None
        self.status = ""
        self.rebuild()

    def settings(self) -> Settings:
        """The settings as chosen on the screen now."""
        return self.draft.with_keys(self.bindings, self.defaults)

    def save(self) -> None:
        chosen = self.settings()
        try:
            where = self.director.save_settings(chosen)
        except OSError as exc:
            self.status = _("The settings could not be saved: {why}").format(why=str(exc))
            self.rebuild()
            return
        self.director.settings(status=_("Settings saved in {file}.").format(file=str(where)))
