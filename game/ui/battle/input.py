"""What the mouse and the keys do on the battle screen: one table from an event's type, a key's
action or a widget to what it does, instead of nested conditions."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.core.utility import clipboard_copy
from pygame_gui.elements import UITextEntryBox, UITextEntryLine

from game.battle import options as opts
from game.text.i18n import _
from game.ui.keys import PAN_KEYS

if TYPE_CHECKING:
    from game.ui.battle.scene import BattleScene

#: Screen pixels a drag must cover before it pans instead of clicking.
DRAG_START = 6
#: Pixels a second the keys and the window's edge pan the map by.
PAN_SPEED = 700
EDGE = 6

Handler = Callable[[pygame.event.Event], None]
#: The widgets that take the keys while focused.
TEXT_FIELDS = (UITextEntryLine, UITextEntryBox)


class Input:
    """Turns the window's events into the scene's doings."""

    def __init__(self, scene: BattleScene) -> None:
        self.scene = scene
        self._press: tuple[int, int] | None = None
        self._dragging = False
        #: The widgets' events, answered before the keys and the mouse.
        self._widget_events: dict[int, Handler] = {
            pygame_gui.UI_BUTTON_PRESSED: lambda e: self.button(e.ui_element),
            pygame_gui.UI_DROP_DOWN_MENU_CHANGED: lambda e: self._dropdown(e.ui_element, e.text),
            pygame_gui.UI_TEXT_ENTRY_FINISHED: self._entry_finished,
        }
        #: The mouse on the board, unless a widget took the event.
        self._mouse_events: dict[int, Handler] = {
            pygame.MOUSEWHEEL: self._wheel,
            pygame.MOUSEBUTTONDOWN: self._mouse_down,
            pygame.MOUSEBUTTONUP: self._mouse_up,
            pygame.MOUSEMOTION: self._mouse_motion,
        }
        s = scene
        #: The keys' actions (game/ui/keys.py) in the order they are tried.
        self._key_actions: list[tuple[str, Callable[[], None]]] = [
            ("cancel", self._cancel),
            ("confirm", lambda: s.orders.confirm()),
            ("level_up", lambda: s.change_level(1)),
            ("level_down", lambda: s.change_level(-1)),
            ("fit", lambda: s.board.camera.fit()),
            ("next_unit", lambda: s.next_unit()),
            ("stealth", lambda: s.orders.toggle_stealth()),
            ("mode", lambda: s.orders.cycle_mode()),
        ]

    # ------------------------------------------------------------ events

    def handle(self, event: pygame.event.Event) -> None:
        s = self.scene
        self._track_pointer(event)
        s.seats.note(event)
        if s.seats.waiting_for is not None:
            # The battle is covered: only the person it passes to, taking the screen on purpose
            # (game/ui/seats.py), counts.
            if s.seats.handle(event, s.size):
                s.take_screen()
            return
        consumed = s.ui.process_events(event)
        if s.guide is not None:
            self._guide_event(event)
            return  # the board waits under the guide
        if s.gm_panel is not None and s.gm_panel.handles(event):
            return
        widget = self._widget_events.get(event.type)
        if widget is not None:
            widget(event)
            return
        if event.type in (pygame.KEYDOWN, pygame.KEYUP):
            s.pointer.alt = bool(pygame.key.get_mods() & pygame.KMOD_ALT) or (
                event.type == pygame.KEYDOWN and event.key in (pygame.K_LALT, pygame.K_RALT)
            )
        if event.type == pygame.KEYDOWN:
            self.key(event)
            return
        mouse = None if consumed else self._mouse_events.get(event.type)
        if mouse is not None:
            mouse(event)

    def typing(self) -> bool:
        """A text field has the keys (the improvised action, the GM's dice): the board's keys
        wait. A button, a list, a chip or a panel clicked keeps pygame-gui's focus (taking it
        away would close an open list before its choice lands) but no keys from the board:
        Enter, PageUp or Home were dead after "Fit map" until the board was clicked."""
        focused = self.scene.ui.get_focus_set() or ()
        return any(isinstance(e, TEXT_FIELDS) and e.alive() for e in focused)

    def _guide_event(self, event: pygame.event.Event) -> None:
        """While the guide is open only its button, Esc and `?` close it (not Enter: a press
        meant for the guide must not end the turn)."""
        s = self.scene
        if event.type == pygame_gui.UI_BUTTON_PRESSED and s.guide is not None:
            if s.guide.owns(event.ui_element):
                s.close_guide()
        elif event.type == pygame.KEYDOWN and (
            event.key == pygame.K_ESCAPE or _is_guide_key(event)
        ):
            s.close_guide()

    def _track_pointer(self, event: pygame.event.Event) -> None:
        pointer = self.scene.pointer
        if event.type == pygame.MOUSEMOTION:
            pointer.last_mouse = event.pos
            pointer.inside = True
        elif event.type == pygame.WINDOWLEAVE:
            pointer.inside = False

    def _entry_finished(self, event: pygame.event.Event) -> None:
        if self.scene.prompts.prompt is not None:
            self.scene.prompts.answer("ok")

    # ------------------------------------------------------------ the mouse

    def _wheel(self, event: pygame.event.Event) -> None:
        board, at = self.scene.board, self.scene.pointer.last_mouse
        if board.viewport.collidepoint(at):
            board.camera.zoom_at(1 if event.y > 0 else -1, *at)

    def _mouse_down(self, event: pygame.event.Event) -> None:
        s = self.scene
        if s.orders.menu is not None and not s.orders.menu.contains(event.pos):
            s.orders.close_menu()
        elif event.button in (1, 2) and s.board.viewport.collidepoint(event.pos):
            self._press = event.pos
            self._dragging = event.button == 2
        elif event.button == 3 and s.prompts.prompt is None:
            s.orders.open_menu(event.pos)

    def _mouse_up(self, event: pygame.event.Event) -> None:
        if self._press is None:
            return
        if not self._dragging and event.button == 1 and self.scene.prompts.prompt is None:
            self.scene.orders.click(event.pos)
        self._press = None
        self._dragging = False

    def _mouse_motion(self, event: pygame.event.Event) -> None:
        if self._press is not None:
            dx, dy = event.pos[0] - self._press[0], event.pos[1] - self._press[1]
            if self._dragging or abs(dx) + abs(dy) > DRAG_START:
                self._dragging = True
                self.scene.board.camera.pan(-event.rel[0], -event.rel[1])
        self.scene.pointer.hover(event.pos)

    # ------------------------------------------------------------ the widgets

    def button(self, element: object) -> None:
        """A button of the screen's widgets pressed."""
        s = self.scene
        if s.prompts.prompt is not None:
            key = s.prompts.prompt.key_for(element)
            if key is not None:
                s.prompts.answer(key)
            return
        choice = s.orders.menu.key_for(element) if s.orders.menu is not None else None
        if choice is not None:
            s.orders.menu_choice(choice)
            return
        kind = s.bar.kind_for(element)
        if kind is not None:
            s.orders.action(kind)
            return
        unit = s.tracker.unit_for(element)
        if unit is not None:
            s.show_unit(unit)
            return
        side = s.side
        buttons: list[tuple[object, Callable[[], None]]] = [
            (side.gm, s.gm_button),
            (side.level_up, lambda: s.change_level(1)),
            (side.level_down, lambda: s.change_level(-1)),
            (side.fit, s.board.camera.fit),
            (side.stealth, s.orders.toggle_stealth),
            (side.copy, self._copy_log),
            (side.details, side.toggle_details),
        ]
        do = next((do for widget, do in buttons if widget is not None and widget is element), None)
        if do is not None:
            do()

    def _copy_log(self) -> None:
        s = self.scene
        clipboard_copy(s.log_text())
        s.status = _("The log is on the clipboard.")
        s.bar.set_status(s.status)

    def _dropdown(self, element: object, text: str) -> None:
        s = self.scene
        side = s.side
        if element is side.filter:
            chosen = getattr(element, "selected_option", (text, "all"))
            s.log.set_filter(chosen[1] if isinstance(chosen, tuple) else "all")
            s.log.show(side)
        elif side.mode is not None and element is side.mode:
            chosen = getattr(element, "selected_option", (text, "auto"))
            s.orders.choose_mode(chosen[1] if isinstance(chosen, tuple) else None)

    # ------------------------------------------------------------ the keys

    def key(self, event: pygame.event.Event) -> None:
        s = self.scene
        if s.prompts.prompt is not None:
            self._prompt_key(event.key)
            return
        if self.typing():
            return
        key = event.key
        if _is_guide_key(event):
            s.open_guide()
            return
        do = next((do for action, do in self._key_actions if s.keys.matches(action, key)), None)
        if do is None and event.mod & pygame.KMOD_CTRL and key == pygame.K_z:
            do = s.undo
        if do is None:
            # Only the ruleset's own commands: a key may serve two rulesets' (B, L).
            offered = s.battle.ruleset.turn_budget().commands
            kind = next(
                (k for k, _needs in opts.KINDS if k in offered and s.keys.matches(k, key)), None
            )
            if kind is not None:
                s.orders.action(kind)
            return
        do()

    def _prompt_key(self, key: int) -> None:
        prompts, k = self.scene.prompts, self.scene.keys
        if prompts.kind == "margin":  # a choice the battle waits for: no cancelling it
            if key in _DIGITS:
                prompts.answer(f"plan:{_DIGITS[key] - 1}")
            elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                prompts.answer("plan:0")
            return
        if prompts.kind == "defence" and key in _DIGITS:
            prompts.answer(f"plan:{_DIGITS[key] - 1}")
            return
        reaction = prompts.kind == "reaction"
        if reaction and k.matches("take", key):
            prompts.answer("take")
        elif reaction and k.matches("let_go", key):
            prompts.answer("let_go")
        elif not reaction and k.matches("cancel", key):
            prompts.close()

    def _cancel(self) -> None:
        if not self.scene.orders.cancel():
            self.scene.prompts.pause()

    # ------------------------------------------------------------ panning

    def pan(self, dt: float) -> None:
        """The map pans while a pan key is held or the pointer rests at the window's edge."""
        s = self.scene
        if self.typing():
            return
        pressed = pygame.key.get_pressed()
        dx = dy = 0
        for key, (kx, ky) in PAN_KEYS.items():
            if pressed[key]:
                dx, dy = dx + kx, dy + ky
        if s.pointer.inside and pygame.mouse.get_focused() and s.prompts.prompt is None:
            mx, my = s.pointer.last_mouse
            w, h = s.size
            if 0 <= mx < EDGE:
                dx -= 1
            elif w - EDGE <= mx < w and mx < w:
                dx += 1
            if 0 <= my < EDGE:
                dy -= 1
            elif h - EDGE <= my < h:
                dy += 1
        if dx or dy:
            s.board.camera.pan(dx * PAN_SPEED * dt, dy * PAN_SPEED * dt)


def _is_guide_key(event: pygame.event.Event) -> bool:
    """`?` (whatever the keyboard's layout puts it on) or F1."""
    return getattr(event, "unicode", "") == "?" or event.key in (pygame.K_QUESTION, pygame.K_F1)


#: The number keys (top row and keypad) that pick a numbered answer, 1-9.
_DIGITS = {
    **{getattr(pygame, f"K_{n}"): n for n in range(1, 10)},
    **{getattr(pygame, f"K_KP{n}"): n for n in range(1, 10)},
}
