"""The load screen: the saves, newest first; Load, Delete."""

from __future__ import annotations

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIButton, UIPanel, UITextBox

from game.app import saves
from game.app.draft import side_name
from game.text.bounds import clip
from game.text.i18n import _
from game.ui import hud
from game.ui.menus.base import LINE, PEOPLE, ROW, Director, MenuScene

# ---------------------------------------------------------------- loading a save


class LoadScene(MenuScene):
    """The saves, newest first: map, players, round, last played, finished; Load, Delete."""

    def __init__(self, size: tuple[int, int], director: Director) -> None:
        self.saves = saves.list_saves(director.saves_folder())
        self.selected: saves.SaveInfo | None = self.saves[0] if self.saves else None
        self.confirming = False
        self.rows: list[tuple[saves.SaveInfo, list[UIButton]]] = []
        #: The first save shown in the list (the rows from it on that fit are built).
        self.first = 0
        #: Why the last save asked to be deleted could not be (a read-only folder).
        self.problem: str | None = None
        self.confirm_panel: UIPanel | None = None
        super().__init__(size, director)

    def build(self) -> None:
        w, h = self.size
        self.rows = []
        self.label(pygame.Rect(20, 14, w - 40, 36), _("Load a battle"), "#heading")
        widths = self._columns(w - 40 - 16)
        heads = [_("Map"), _("Players"), _("Round"), _("Last played"), _("Status")]
        x = 20
        for head, cw in zip(heads, widths, strict=True):
            self.label(pygame.Rect(x + 6, 56, cw - 6, 24), head, "#section")
            x += cw
        list_height = max(120, h - 84 - 190)
        # Only the rows in sight are widgets (a widget costs milliseconds, 300 saves' rows
        # seconds): the wheel, the arrows and Page Up/Down move the rows shown.
        self._list = pygame.Rect(20, 82, w - 40 - 16, list_height)
        self.visible = max(1, list_height // (ROW + 2))
        self.page_label = self.label(pygame.Rect(w - 260, 14, 240, 36), "", "#note")
        self._row_buttons: list[UIButton] = []
        self._build_rows()
        if not self.saves:
            self.label(pygame.Rect(20, 90, w - 40, ROW), _("No saved battles yet."), "#note")
        self.details = UITextBox(
            self._details_html(),
            pygame.Rect(20, 86 + list_height, w - 40, 112),
            manager=self.ui,
        )
        chosen = self.selected
        self.back_button = self.button(
            pygame.Rect(20, h - 50, 160, 38), _("Back"), self.director.title
        )
        self.delete_button = self.button(
            pygame.Rect(w - 440, h - 50, 180, 38),
            _("Delete"),
            self.ask_delete,
            enabled=chosen is not None,
        )
        self.load_button = self.button(
            pygame.Rect(w - 250, h - 50, 230, 38),
            _("Load"),
            self.load,
            enabled=chosen is not None and chosen.loadable,
            tip=None if chosen is None or chosen.loadable else _("This save cannot be loaded."),
        )
        self.confirm_panel = None
        if self.confirming and chosen is not None:
            self._build_confirm(chosen)

    def _build_rows(self) -> None:
        """The rows from `first` on that fit the list, as buttons (the old ones removed)."""
        for button in self._row_buttons:
            self._buttons.pop(button, None)
            button.kill()
        self._row_buttons, self.rows = [], []
        self.first = max(0, min(self.first, len(self.saves) - self.visible))
        widths = self._columns(self._list.width)
        y = self._list.y
        for info in self.saves[self.first : self.first + self.visible]:
            buttons: list[UIButton] = []
            x = self._list.x
            for text, cw in zip(self._cells(info), widths, strict=True):
                button = self.button(
                    pygame.Rect(x, y, cw, ROW),
                    text,
                    lambda i=info: self.select(i),  # type: ignore[misc]
                    object_id=ObjectID(
                        class_id="@cell", object_id="#damaged" if not info.loadable else None
                    ),
                )
                if info is self.selected:
                    button.select()
                buttons.append(button)
                x += cw
            self.rows.append((info, buttons))
            self._row_buttons.extend(buttons)
            y += ROW + 2
        shown = ""
        if len(self.saves) > self.visible:
            last = min(len(self.saves), self.first + self.visible)
            shown = f"{self.first + 1}–{last} / {len(self.saves)}"  # no words to translate
        self.page_label.set_text(shown)

    def scroll(self, rows: int) -> None:
        """Move the rows shown by `rows` (down when positive)."""
        first = max(0, min(self.first + rows, len(self.saves) - self.visible))
        if first != self.first:
            self.first = first
            self._build_rows()

    def move_selection(self, step: int) -> None:
        """Select the save `step` rows down (up when negative), scrolling it into sight."""
        if not self.saves:
            return
        at = self.saves.index(self.selected) if self.selected in self.saves else 0
        at = max(0, min(len(self.saves) - 1, at + step))
        if at < self.first:
            self.first = at
        elif at >= self.first + self.visible:
            self.first = at - self.visible + 1
        self.select(self.saves[at])

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL and not self.confirming:
            self.scroll(-3 * int(event.y))
            return
        super().handle(event)

    @staticmethod
    def _columns(width: int) -> list[int]:
        shares = (0.32, 0.3, 0.08, 0.17)
        widths = [int(width * s) for s in shares]
        return [*widths, width - sum(widths)]

    def _cells(self, info: saves.SaveInfo) -> list[str]:
        people = [clip(p) for p in sorted(info.players)[:PEOPLE]]
        if len(info.players) > PEOPLE:
            people.append("…")
        if info.computer:
            people.append(_("computer"))
        if info.gm:
            people.append(_("GM"))
        if not info.loadable:
            state = _("damaged")
        elif info.over is None:
            state = "?"
        else:
            state = _("finished") if info.finished else _("in progress")
        return [
            clip(info.map_name),
            ", ".join(people) if info.loadable else "",
            str(info.round) if info.round is not None else "?",
            info.played.strftime("%Y-%m-%d %H:%M"),
            state,
        ]

    def _details_html(self) -> str:
        info = self.selected
        problem = (
            []
            if self.problem is None
            else [f"<font color='#ff8a7a'>{hud.esc(self.problem)}</font>"]
        )
        if info is None:
            return "".join(problem)
        lines = [*problem, f"<b>{hud.esc(clip(info.map_name))}</b> — {hud.esc(info.path.name)}"]
        if not info.loadable:
            lines.append(
                "<font color='#ff8a7a'>"
                + hud.esc(_("This save cannot be loaded: {why}").format(why=info.error))
                + "</font>"
            )
            return "<br>".join(lines)
        players = sorted(info.players.items())
        for player, factions in players[:PEOPLE]:
            sides = clip(", ".join(side_name(f) for f in factions[:PEOPLE]), LINE)
            lines.append(
                hud.esc(_("{player} plays {sides}").format(player=clip(player), sides=sides))
            )
        if len(players) > PEOPLE:
            lines.append(f"… (+{len(players) - PEOPLE})")
        if info.computer:
            sides = clip(", ".join(side_name(f) for f in info.computer[:PEOPLE]), LINE)
            lines.append(hud.esc(_("The computer plays {sides}").format(sides=sides)))
        lines.append(hud.esc(_("With a GM") if info.gm else _("Without a GM")))
        summary = _("{commands} commands; round {round}; seed {seed}").format(
            commands=info.commands if info.commands is not None else "?",
            round=info.round if info.round is not None else "?",
            seed=info.seed,
        )
        if info.finished:
            winner = side_name(info.winner) if info.winner else "—"
            summary += "; " + _("finished, won by {side}").format(side=winner)
        lines.append(hud.esc(summary))
        return "<br>".join(lines)

    def select(self, info: saves.SaveInfo) -> None:
        self.selected = info
        self.confirming = False
        self.rebuild()

    def load(self) -> None:
        if self.selected is not None and self.selected.loadable:
            self.director.resume(self.selected.path)

    def ask_delete(self) -> None:
        if self.selected is not None:
            self.confirming = True
            self.rebuild()

    def _build_confirm(self, info: saves.SaveInfo) -> None:
        rect = pygame.Rect(0, 0, 460, 170)
        rect.center = (self.size[0] // 2, self.size[1] // 2)
        panel = UIPanel(rect, starting_height=10, manager=self.ui)
        UITextBox(
            hud.esc(
                _("Delete the battle on {map} ({file})? This cannot be undone.").format(
                    map=clip(info.map_name), file=info.path.name
                )
            ),
            pygame.Rect(8, 8, 440, 100),
            manager=self.ui,
            container=panel,
        )
        self.confirm_delete_button = self.button(
            pygame.Rect(8, 118, 216, 38), _("Delete"), self.delete, container=panel
        )
        self.keep_button = self.button(
            pygame.Rect(232, 118, 216, 38), _("Keep it"), self.keep, container=panel
        )
        self.confirm_panel = panel

    def delete(self) -> None:
        self.problem = None
        if self.selected is not None:
            self.problem = saves.delete_save(self.selected.path)
        self.saves = saves.list_saves(self.director.saves_folder())
        self.selected = self.saves[0] if self.saves else None
        self.confirming = False
        self.rebuild()

    def keep(self) -> None:
        self.confirming = False
        self.rebuild()

    def key(self, event: pygame.event.Event) -> None:
        if event.key == pygame.K_ESCAPE:
            if self.confirming:
                self.keep()
            else:
                self.director.title()
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and not self.confirming:
            self.load()
        elif not self.confirming:
            steps = {pygame.K_UP: -1, pygame.K_DOWN: 1}
            steps |= {pygame.K_PAGEUP: -self.visible, pygame.K_PAGEDOWN: self.visible}
            if event.key in steps:
                self.move_selection(steps[event.key])
