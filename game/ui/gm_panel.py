"""The GM's tools (pygame-gui): every GM command of the battle, from one window beside the board.

It turns clicks into the battle's GM commands (game/battle/commands.py) and gives them to the
battle screen, which submits them as the GM's; every one lands in the log, marked as the GM's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UITextEntryLine,
    UIWindow,
)

from game.battle import commands as cmd
from game.battle.options import GmTable
from game.grid.model import Cell
from game.rules.checknames import ALL as CHECKS
from game.rules.ruleset_answers import Modifier
from game.tactics.battlefield import FieldConditions
from game.text.bounds import clip
from game.text.explain import condition_name, field_condition_name, modifier_line
from game.text.explain_battle import without_rulings
from game.text.i18n import _
from game.text.names import check_name, side_name

OBSTACLES = ("none", "half", "full", "thin")
WIDTH = 330


def _obstacle_names() -> dict[str, str]:
    return {"none": _("no obstacle"), "half": _("half"), "full": _("full"), "thin": _("thin")}


@dataclass(frozen=True)
class GmAct:
    """What the GM asked for: a command to give, or one of the session's own acts."""

    command: cmd.Command | None = None
    #: "undo", "redo", "override" (with faces), "edit_cells" (click cells to edit).
    session: str = ""
    faces: tuple[int, ...] = ()


class GmPanel:
    """A movable window with the GM's tools; `selected` is the unit the GM last clicked."""

    def __init__(
        self,
        manager: pygame_gui.UIManager,
        bounds: pygame.Rect,
        table: GmTable,
        players: tuple[str, ...],
        act: Callable[[GmAct], None],
    ) -> None:
        self.manager = manager
        self.act = act
        self.table = table
        self.selected: str | None = None
        self.editing = False
        self.field_window: UIWindow | None = None
        self.field: dict[str, UIDropDownMenu] = {}
        height = min(bounds.height - 8, 600)
        rect = pygame.Rect(bounds.x + 6, bounds.y + 6, WIDTH, height)
        self.window = UIWindow(rect, manager, window_display_title=_("GM tools"))
        self._buttons: dict[UIButton, Callable[[], None]] = {}
        self._build(table, players)

    # ------------------------------------------------------------ layout

    def _label(self, text: str, y: int) -> UILabel:
        return UILabel(
            pygame.Rect(6, y, WIDTH - 40, 22), text, manager=self.manager, container=self.window
        )

    def _button(self, text: str, x: int, y: int, w: int, do: Callable[[], None]) -> UIButton:
        button = UIButton(
            pygame.Rect(x, y, w, 28), text, manager=self.manager, container=self.window
        )
        self._buttons[button] = do
        return button

    def _dropdown(
        self, options: list[tuple[str, str]], x: int, y: int, w: int
    ) -> UIDropDownMenu | None:
        if not options:
            return None
        return UIDropDownMenu(
            options, options[0], pygame.Rect(x, y, w, 28), manager=self.manager,
            container=self.window, expansion_height_limit=200,
        )  # fmt: skip

    def _build(self, table: GmTable, players: tuple[str, ...]) -> None:
        inner = WIDTH - 40
        half = inner // 2 - 2
        third = inner // 3 - 2
        y = 4
        self.unit_label = self._label(_("Click a unit on the map."), y)
        y += 24
        self._button(_("Reveal"), 6, y, third, self._reveal)
        self._button(_("Hide"), 6 + third + 3, y, third, self._conceal)
        self._button(_("Surprise"), 6 + 2 * (third + 3), y, third, self._surprise)
        y += 32
        conditions = [(condition_name(c), c) for c in table.unit_conditions]
        self.condition = self._dropdown(conditions, 6, y, half)
        add = self._button(_("Add"), 6 + half + 3, y, half // 2 - 2, lambda: self._condition(True))
        remove = self._button(
            _("Remove"), 6 + half + 3 + half // 2, y, half // 2, lambda: self._condition(False)
        )
        if self.condition is None:  # the ruleset keeps no named conditions (Myst, fantasy)
            self.no_conditions = self._label(_("no conditions to set under this ruleset"), y + 3)
            self.no_conditions.set_dimensions((half, 22))
            self.no_conditions.disable()
            add.disable()
            remove.disable()
        y += 36
        self._label(_("Reinforcements"), y)
        y += 22
        waiting = [(f"{u} ({_('round {n}').format(n=r)})", u) for u, r in table.waiting]
        self.waiting = self._dropdown(waiting, 6, y, half + 40)
        if self.waiting is not None:
            self._button(_("Next round"), 6 + half + 43, y, inner - half - 37, self._reinforce)
        else:
            self._label(_("none waiting"), y)
        y += 36
        self._label(_("Dice: faces for the next rolls"), y)
        y += 22
        self.faces = UITextEntryLine(
            pygame.Rect(6, y, third + 10, 28), manager=self.manager, container=self.window
        )
        self._button(_("Next roll"), 6 + third + 13, y, third, self._enter_roll)
        self._button(_("Redo last"), 6 + 2 * third + 16, y, inner - 2 * third - 10, self.override)
        y += 36
        self._label(_("Initiative"), y)
        y += 22
        ties = [(" = ".join(group), ",".join(group)) for group in table.ties]
        self.ties = self._dropdown(ties, 6, y, half + 40)
        if self.ties is not None:
            self._button(_("Reverse tie"), 6 + half + 43, y, inner - half - 37, self._reverse_tie)
        else:
            self._label(_("no ties"), y)
        y += 32
        self._button(_("Roll again"), 6, y, half, lambda: self._give(cmd.RestartInitiative()))
        self._button(_("End combat"), 6 + half + 3, y, half, lambda: self._give(cmd.EndCombat()))
        y += 36
        y = self._build_field(table, y, inner)
        self._label(_("Edit cells: pick, then click cells"), y)
        y += 22
        names = _obstacle_names()
        self.obstacle = self._dropdown([(names[o], o) for o in OBSTACLES], 6, y, half)
        self.edit_button = self._button(_("Edit: off"), 6 + half + 3, y, half, self._toggle_edit)
        y += 36
        self._label(_("Who plays each side"), y)
        y += 22
        self.controllers: dict[str, UIDropDownMenu] = {}
        for faction, controller in table.controllers:
            UILabel(
                pygame.Rect(6, y, half, 28),
                side_name(faction),
                manager=self.manager,
                container=self.window,
            )
            options = [(p, p) for p in players] + [(_("computer"), "computer")]
            if controller not in [o[1] for o in options]:
                options.insert(0, (controller, controller))
            start = next(o for o in options if o[1] == controller)
            self.controllers[faction] = UIDropDownMenu(
                options, start, pygame.Rect(6 + half + 3, y, half, 28), manager=self.manager,
                container=self.window, expansion_height_limit=150,
            )  # fmt: skip
            y += 32
        y += 4
        self._button(_("Undo"), 6, y, half, lambda: self.act(GmAct(session="undo")))
        self._button(_("Redo"), 6 + half + 3, y, half, lambda: self.act(GmAct(session="redo")))

    def _build_field(self, table: GmTable, y: int, inner: int) -> int:
        """Issue 15: one button naming the battlefield's light, smoke and weather now; it opens
        the small window that changes them (`open_field`)."""
        self.conditions = table.conditions
        self.field_effects = table.field_effects
        self.field_button = self._button(
            field_summary(table.conditions), 6, y, inner, self.open_field
        )
        return y + 36

    def open_field(self) -> None:
        """The battlefield's window: one menu per condition showing its value now (picking
        another gives the GM's `field_conditions` at once), and what they do to an attack under
        the battle's ruleset. The tools are drawn again after the change, and it closes."""
        if self.field_window is not None and self.field_window.alive():
            return
        effects = field_effects_lines(self.field_effects)
        width, height = 290, 150 + 22 * len(effects)
        panel = self.window.rect
        rect = pygame.Rect(panel.right + 4, panel.y + 40, width, height)
        window = UIWindow(rect, self.manager, window_display_title=_("Battlefield"))
        self.field_window = window
        self.field = {}
        words = {"darkness": _("Light"), "smoke": _("Smoke"), "weather": _("Weather")}
        y = 4
        for name, value, known in self.conditions.choices():
            UILabel(pygame.Rect(6, y, 90, 28), words[name], manager=self.manager, container=window)
            options: list[str | tuple[str, str]] = [
                (field_condition_name(name, v), v) for v in known
            ]
            start = next(o for o in options if o[1] == value)
            self.field[name] = UIDropDownMenu(
                options, start, pygame.Rect(98, y, 150, 28), manager=self.manager,
                container=window, expansion_height_limit=90,
            )  # fmt: skip
            y += 32
        for line in effects:
            UILabel(pygame.Rect(6, y, width - 40, 22), line, manager=self.manager, container=window)
            y += 22

    # ------------------------------------------------------------ events

    def button(self, text: str) -> UIButton:
        """The panel's button that reads `text`."""
        return next(b for b in self._buttons if b.text == text)

    def handles(self, event: pygame.event.Event) -> bool:
        """Give a widget event to the tools; True when it was theirs."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self._buttons:
            self._buttons[event.ui_element]()
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            for name, menu in self.field.items():
                if event.ui_element is menu:
                    self._give(cmd.ChangeField(**{name: _chosen(menu)}))
                    return True
            for faction, menu in self.controllers.items():
                if event.ui_element is menu:
                    self._give(cmd.SetController(faction, _chosen(menu)))
                    return True
        return False

    def select(self, unit: str | None) -> None:
        self.selected = unit
        self.unit_label.set_text(clip(unit) if unit else _("Click a unit on the map."))

    def edit(self, cell: Cell) -> None:
        """The GM clicked a cell while editing: give it the chosen obstacle."""
        if self.obstacle is not None:
            self._give(cmd.EditCell(cell, obstacle=_chosen(self.obstacle)))

    @property
    def alive(self) -> bool:
        return self.window.alive()

    def close(self) -> None:
        self.window.kill()
        if self.field_window is not None:
            self.field_window.kill()

    # ------------------------------------------------------------ the acts

    def _give(self, command: cmd.Command) -> None:
        self.act(GmAct(command))

    def _unit(self) -> str | None:
        if self.selected is None:
            self.unit_label.set_text(_("First click a unit on the map."))
        return self.selected

    def _reveal(self) -> None:
        if (unit := self._unit()) is not None:
            self._give(cmd.Reveal(unit))

    def _conceal(self) -> None:
        if (unit := self._unit()) is not None:
            self._give(cmd.Conceal(unit))

    def _surprise(self) -> None:
        if (unit := self._unit()) is not None:
            self._give(cmd.MarkSurprised(unit))

    def _condition(self, add: bool) -> None:
        unit = self._unit()
        if unit is None or self.condition is None:
            return
        name = _chosen(self.condition)
        self._give(
            cmd.SetCondition(unit, add=(name,) if add else (), remove=() if add else (name,))
        )

    def _reinforce(self) -> None:
        if self.waiting is not None:
            self._give(cmd.PlaceReinforcement(_chosen(self.waiting)))

    def _typed_faces(self) -> tuple[int, ...] | None:
        text = self.faces.get_text().replace(",", " ").split()
        try:
            faces = tuple(int(t) for t in text)
        except ValueError:
            faces = ()
        if not faces or any(f < 1 or f > 1000 for f in faces):
            self.faces.set_text("")
            return None
        return faces

    def _enter_roll(self) -> None:
        faces = self._typed_faces()
        if faces is not None:
            self._give(cmd.EnterRoll(faces))
            self.faces.set_text("")

    def override(self) -> None:
        """Redo the last roll with the faces typed in (the GM's physical dice)."""
        faces = self._typed_faces()
        if faces is not None:
            self.act(GmAct(session="override", faces=faces))
            self.faces.set_text("")

    def _reverse_tie(self) -> None:
        if self.ties is not None:
            group = tuple(_chosen(self.ties).split(","))
            self._give(cmd.OrderTie(tuple(reversed(group))))

    def _toggle_edit(self) -> None:
        self.editing = not self.editing
        self.edit_button.set_text(_("Edit: on") if self.editing else _("Edit: off"))


def field_summary(conditions: FieldConditions) -> str:
    """The button naming the battlefield's conditions now: those that are not "none"."""
    shown = [field_condition_name(n, v) for n, v, _known in conditions.choices() if v != "none"]
    text = ", ".join(shown) if shown else _("clear")
    return clip(_("Battlefield: {conditions}").format(conditions=text), 38)


def field_effects_lines(effects: tuple[Modifier, ...] | None) -> list[str]:
    """What the battlefield's conditions do to an attack under the battle's ruleset (issue 15),
    a line each: None, a ruleset whose seed has no such rule."""
    if effects is None:
        return [_("No effect under these rules")]
    if not effects:
        return [_("No effect on attacks")]
    return [_("At range:"), *(clip(without_rulings(modifier_line(m)), 34) for m in effects)]


def _chosen(menu: UIDropDownMenu) -> str:
    option = menu.selected_option
    return str(option[1]) if isinstance(option, tuple) else str(option)


def checks(ids: Iterable[str] = CHECKS) -> list[tuple[str, str]]:
    """The checks a GM may resolve an improvised action with: (shown name, the seed's id);
    `ids` the ruleset's (`BattleRules.improvised_checks`), periferie's P-CHK-1 by default."""
    return [(check_name(c), c) for c in ids]
