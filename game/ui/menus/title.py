"""The title screen: New battle, Continue, Load, Settings, Quit."""

from __future__ import annotations

import pygame
from pygame_gui.elements import UITextBox

from game.app import saves
from game.text.bounds import MESSAGE, clip
from game.text.i18n import _
from game.ui import hud
from game.ui.backdrop import mosaic, pane
from game.ui.menus.base import NOTICES, MenuScene

# ---------------------------------------------------------------- the title screen


class TitleScene(MenuScene):
    """New battle, Continue (the last save), Load, Settings, Quit."""

    def build(self) -> None:
        w, h = self.size
        self.backdrop = mosaic(self.size)
        self.saves = saves.list_saves(self.director.saves_folder())
        self.last = saves.latest(self.saves)
        top = max(40, h // 6)
        self.label(pygame.Rect(0, top - 6, w, 62), "Tessera", "#title")
        self.label(
            pygame.Rect(0, top + 56, w, 26),
            _("Tactical battles around one table"),
            "#note_centre",
        )
        x, y, bw = (w - 340) // 2, top + 110, 340
        self.new_button = self.button(pygame.Rect(x, y, bw, 44), _("New battle"), self._new)
        what = None
        if self.last is not None:
            when = self.last.played.strftime("%Y-%m-%d %H:%M")
            what = _("{map}, round {round}, {time}").format(
                map=clip(self.last.map_name),
                round=self.last.round if self.last.round is not None else "?",
                time=when,
            )
        self.continue_button = self.button(
            pygame.Rect(x, y + 54, bw, 44),
            _("Continue"),
            self._continue,
            tip=what,
            enabled=self.last is not None,
        )
        self.continue_note = self.label(
            pygame.Rect(0, y + 100, w, 22),
            what if what is not None else _("No battle to continue yet."),
            "#note_centre",
        )
        self.load_button = self.button(
            pygame.Rect(x, y + 128, bw, 44),
            _("Load"),
            self.director.load,
            enabled=bool(self.saves),
        )
        self.settings_button = self.button(
            pygame.Rect(x, y + 182, bw, 44), _("Settings"), self.director.settings
        )
        self.quit_button = self.button(pygame.Rect(x, y + 236, bw, 44), _("Quit"), self._quit)
        self.pane = pygame.Rect(x - 40, top - 24, bw + 80, y + 236 + 44 + 28 - (top - 24))
        notices = [hud.esc(clip(n, MESSAGE)) for n in self.director.notices[:NOTICES]]
        if len(self.director.notices) > NOTICES:
            more = len(self.director.notices) - NOTICES
            notices.append(f"… (+{more})")  # no words: the same in every language
        if notices:
            box_top = y + 296
            UITextBox(
                "<br>".join(notices),
                pygame.Rect(20, box_top, w - 40, max(60, h - box_top - 16)),
                manager=self.ui,
            )

    def draw(self, screen: pygame.Surface) -> None:
        if self.backdrop.get_size() != screen.get_size():
            self.backdrop = mosaic(screen.get_size())
        screen.blit(self.backdrop, (0, 0))
        # A dark pane behind the title and the buttons, so that they read over the mosaic.
        pane(screen, self.pane)
        self.ui.draw_ui(screen)

    def _new(self) -> None:
        self.director.new_battle()

    def _continue(self) -> None:
        if self.last is not None:
            self.director.resume(self.last.path)

    def _quit(self) -> None:
        self.director.quit()
