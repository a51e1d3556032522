"""What the battle screen draws besides the board: the pointer's cell and unit, the previews
beside it, the Alt tooltip and the tokens."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui

from game.grid.model import Cell
from game.text.i18n import _
from game.ui import hud
from game.ui.board import Overlay, Token

if TYPE_CHECKING:
    from game.ui.battle.scene import BattleScene


class Pointer:
    """Where the pointer is and what the previews show for it; recomputed only when what they
    depend on changes."""

    def __init__(self, scene: BattleScene) -> None:
        self.scene = scene
        self.cell: Cell | None = None
        self.unit: str | None = None
        #: Alt held: the previews give their full breakdown.
        self.alt = False
        #: Bumped at every refresh, so that the previews are worked out again.
        self.version = 0
        self.last_mouse = (0, 0)
        #: Edge scrolling only once the pointer has been seen in the window.
        self.inside = False
        self.overlay = Overlay()
        self._key: tuple[object, ...] = ()
        self._details: list[str] = []
        self._tooltip: pygame_gui.elements.UITextBox | None = None
        self._tooltip_text = ""

    def changed(self) -> None:
        """Something the previews show changed: work them out again at the next frame."""
        self._key = ()

    def unit_at(self, column: tuple[int, int]) -> str | None:
        """The unit in that column the player may see, as the board draws it: on the level in
        view or the highest below it, else the lowest above it (drawn with a ^), so that a
        unit overhead can be hovered and targeted like any other."""
        s = self.scene
        level = s.board.level
        best: tuple[int, str] | None = None
        for u in s.view.units:
            if u.cell[:2] != column:
                continue
            # At or below the level in view the highest wins; above it only the lowest, and
            # only when nothing stands at or below.
            rank = u.cell[2] if u.cell[2] <= level else -u.cell[2] - 10_000
            if best is None or rank > best[0]:
                best = (rank, u.id)
        return None if best is None else best[1]

    def covered(self, pos: tuple[int, int]) -> bool:
        """A widget lies over the board at `pos` (the GM's tools, a menu, a prompt, an open
        list): the board under it answers nothing."""
        ui = self.scene.ui
        root: object = ui.get_root_container()
        for element in ui.get_sprite_group().sprites():
            if element is root or element is self._tooltip or not element.visible:
                continue
            if element.rect.collidepoint(pos):
                return True
        return False

    def hover(self, pos: tuple[int, int]) -> None:
        s = self.scene
        column = None if self.covered(pos) else s.board.column_at(pos)
        if column is None:
            self.cell, self.unit = None, None
            return
        self.unit = self.unit_at(column)
        cell = s.unit_cell(self.unit) if self.unit else None
        self.cell = cell or (column[0], column[1], s.board.level)

    def previews(self) -> None:
        s = self.scene
        o = s.orders
        key = (
            self.version,
            self.cell,
            self.unit,
            s.selected,
            o.targeting,
            o.mode,
            o.stealth,
            o.plan,
            self.alt,
            s.board.level,
        )
        if key == self._key:
            return
        self._key = key
        overlay = Overlay()
        lines: list[str] = []
        details: list[str] = []
        unit = s.acting()
        target = o.plan.target if o.plan is not None else (self.unit or self.cell)
        if unit is not None and target is not None:
            shown = s.aim().at(unit, target, o.default_kind(unit, target))
            overlay, lines, details = shown.overlay, shown.lines, shown.details
        elif self.unit is not None:
            lines = [s.unit_html(self.unit)]
        if self.cell is not None:
            overlay.marked = self.cell
        self.overlay = overlay
        html = "<br>".join(lines)
        if details:
            html += (
                "<br><font size=2 color='#9aa4b2'>"
                + (
                    "<br>".join(hud.esc(d) for d in details)
                    if self.alt
                    else hud.esc(_("Hold Alt for the full breakdown."))
                )
                + "</font>"
            )
        s.side.set_html(s.side.hover, "hover", html)
        self._details = details
        # The unit's card shows its cell only while Alt is held.
        s.side.set_html(s.side.unit, "unit", s.unit_html(s.selected))

    def tooltip(self) -> None:
        """Alt held over a target: the full breakdown beside the pointer."""
        want = self.alt and bool(self._details)
        if not want:
            self.put_away()
            return
        text = "<br>".join(hud.esc(d) for d in self._details)
        if self._tooltip is not None and self._tooltip_text == text:
            return
        if self._tooltip is not None:
            self._tooltip.kill()
        x, y = self.last_mouse
        rows = sum(1 + len(d) // 52 for d in self._details)
        rect = pygame.Rect(x + 18, y + 12, 420, 20 + 20 * rows).clamp(self.scene.board.viewport)
        self._tooltip = pygame_gui.elements.UITextBox(
            text, rect, manager=self.scene.ui, starting_height=20
        )
        self._tooltip_text = text

    def put_away(self) -> None:
        if self._tooltip is not None:
            self._tooltip.kill()
            self._tooltip = None
            self._tooltip_text = ""

    def tokens(self) -> list[Token]:
        s = self.scene
        out = []
        active = s.view.active
        for u in s.view.units:
            if "dead" in u.wounds.get("conditions", ()):
                continue
            out.append(
                Token(
                    u.id,
                    u.cell,
                    s.colour_of(u.faction),
                    u.stance,
                    u.wounds,
                    u.own,
                    active=u.id == active,
                    selected=u.id == s.selected,
                    side=s.side_index.get(u.faction, -1),
                    pips=None if u.health is None else u.health.pips,
                )
            )
        for unit, cell in s.view.ghosts:
            colour = s.colour_of(s.view.sides.get(unit, ""))
            side = s.side_index.get(s.view.sides.get(unit, ""), -1)
            out.append(Token(unit, cell, colour, "standing", {}, False, ghost=True, side=side))
        return out
