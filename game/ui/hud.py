"""The battle window's widgets (pygame-gui): initiative tracker, action bar, unit and preview
panels, combat log, context menu and prompts. They show what the scene gives them; the scene
decides what each button does."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.core.text import TextBoxLayout
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UIPanel,
    UITextBox,
    UITextEntryLine,
)

from game.text.bounds import ELLIPSIS, MESSAGE, clip
from game.text.i18n import _
from game.ui.board import RGB

TRACKER_HEIGHT = 46
SIDE_WIDTH = 330
BAR_HEIGHT = 98
#: Characters of a unit's name an initiative chip shows at most (it is 130 px wide at most).
CHIP = 24
#: Chip buttons the tracker keeps made beyond those shown is about 3 times this.
CHIPS_KEPT = 16
#: Characters a one-line label shows at most (names in it are clipped before; the last bound).
LINE = 200


def theme(faction_colours: dict[str, RGB]) -> dict[str, object]:
    """The window's pygame-gui theme, with one chip style per side's colour."""
    base = resources.files("game.ui").joinpath("theme.json").read_text(encoding="utf-8")
    import json

    data: dict[str, object] = json.loads(base)
    for i, colour in enumerate(faction_colours.values()):
        hex_colour = "#{:02x}{:02x}{:02x}".format(*colour)
        dark = "#{:02x}{:02x}{:02x}".format(*(c // 3 for c in colour))
        data[f"#side{i}"] = {
            "colours": {
                "normal_bg": dark,
                "hovered_bg": dark,
                "disabled_bg": dark,
                "normal_border": hex_colour,
                "hovered_border": "#ffffff",
                "disabled_border": hex_colour,
                "normal_text": "#f0f0f0",
                "hovered_text": "#ffffff",
                "disabled_text": "#f0f0f0",
            },
            "misc": {"border_width": "2", "shadow_width": "0"},
        }
        data[f"#side{i}_active"] = {
            "colours": {
                "normal_bg": hex_colour,
                "hovered_bg": hex_colour,
                "disabled_bg": hex_colour,
                "normal_border": "#ffffff",
                "hovered_border": "#ffffff",
                "disabled_border": "#ffffff",
                "normal_text": "#000000",
                "hovered_text": "#000000",
                "disabled_text": "#000000",
            },
            "misc": {"border_width": "3", "shadow_width": "0"},
        }
    return data


def manager(size: tuple[int, int], faction_colours: dict[str, RGB]) -> pygame_gui.UIManager:
    """A UI manager with the window's theme and the fonts its text boxes use already loaded."""
    ui = pygame_gui.UIManager(size, theme(faction_colours))
    ui.preload_fonts(
        [
            {"name": "noto_sans", "point_size": size_, "style": style, "antialiased": "1"}
            for size_, style in (
                (10, "regular"),
                (13, "italic"),
                (14, "bold"),
                (18, "bold"),
                (10, "italic"),
            )
        ]
    )
    return ui


#: Signs the widgets' font (pygame-gui's Noto Sans) has no glyph for, and what stands in.
_MISSING_GLYPHS = str.maketrans({"→": "->", "≤": "<=", "≥": ">=", "≈": "~", "✓": "+", "✗": "x"})


def widget_texts(manager: pygame_gui.UIManager) -> list[str]:
    """Every text the visible widgets show now (the translation tests read them)."""
    found: list[str] = []
    for element in manager.get_sprite_group().sprites():
        if not element.visible:
            continue
        if isinstance(element, UIButton | UILabel):
            found.append(element.text)
        elif isinstance(element, UITextBox):
            found.append(element.html_text)
        elif isinstance(element, UIDropDownMenu):
            found.extend(o[0] if isinstance(o, tuple) else o for o in element.options_list)
    return [t for t in found if t]


def esc(text: str, limit: int = MESSAGE) -> str:
    """Plain text made safe for pygame-gui's HTML text boxes (and for its font), and at most
    `limit` characters long: a text box lays out a long text slowly (50,000 characters take a
    minute), and a name from a map or a save may be that long."""
    if len(text) > limit:
        text = text[: limit - 1] + ELLIPSIS
    return html.escape(text.translate(_MISSING_GLYPHS), quote=False).replace("\n", "<br>")


@dataclass(frozen=True)
class Chip:
    """One entry of the initiative tracker."""

    unit: str
    text: str
    side: int
    active: bool
    #: The side's display name (game/text/names.py), in the chip's tooltip.
    side_name: str = ""
    #: What the chip shows when the whole order would not fit with every `text` (fantasy's
    #: "AGI d8 · DES d10" beside each name): the name alone, `text` whole in the tooltip.
    short: str = ""


def _chip_width(text: str) -> int:
    return min(130, max(70, 9 * len(text) + 16))


class Tracker:
    """The initiative along the top: the round, the order (what the viewer may know), and the
    acting unit's turn budget."""

    def __init__(self, manager: pygame_gui.UIManager, width: int) -> None:
        self.manager = manager
        self.panel = UIPanel(pygame.Rect(0, 0, width, TRACKER_HEIGHT), manager=manager)
        self.round = UILabel(
            pygame.Rect(6, 6, 90, 30),
            "",
            manager=manager,
            container=self.panel,
            object_id=ObjectID(object_id="#round"),
        )
        self.budget = UILabel(
            pygame.Rect(width - 420, 6, 410, 30),
            "",
            manager=manager,
            container=self.panel,
            object_id=ObjectID(object_id="#budget"),
        )
        self.chips: list[tuple[Chip, UIButton]] = []
        self._shown: tuple[object, ...] = ()
        self._round_text = ""
        self._budget_text = ""
        #: Every chip button made, by how it looks (place, text, style, tooltip), hidden when
        #: not shown: a new turn only moves the active style from one chip to the next, and
        #: showing a kept button costs nothing where making one costs 1-2 ms (issue 18).
        self._made: dict[tuple[int, int, str, str, str], UIButton] = {}

    def show(self, round_no: int, chips: Sequence[Chip], budget: str) -> None:
        key = (round_no, tuple(chips), budget)
        if key == self._shown:
            return
        self._shown = key
        round_text = _("Round {n}").format(n=round_no)
        if round_text != self._round_text:
            self._round_text = round_text
            self.round.set_text(round_text)
        budget_text = clip(budget, LINE)
        if budget_text != self._budget_text:
            self._budget_text = budget_text
            self.budget.set_text(budget_text)
        shown: list[tuple[Chip, UIButton]] = []
        x = 100
        room = self.panel.relative_rect.width - 430
        texts = [clip(chip.text, CHIP) for chip in chips]
        if x + sum(_chip_width(t) + 4 for t in texts) > room + 4:
            # Every unit in the order before each one's words: the short chips, words in the tip.
            texts = [clip(chip.short or chip.text, CHIP) for chip in chips]
        for chip, text in zip(chips, texts, strict=True):
            width = _chip_width(text)
            if x + width > room:
                break
            style = f"#side{chip.side}" + ("_active" if chip.active else "")
            tip = esc(f"{chip.text} — {chip.side_name}".removesuffix(" — "))
            look = (x, width, text, style, tip)
            button = self._made.get(look)
            if button is None:
                button = UIButton(
                    pygame.Rect(x, 5, width, 34),
                    text,
                    manager=self.manager,
                    container=self.panel,
                    object_id=ObjectID(object_id=style, class_id="@chip"),
                    tool_tip_text=tip,
                )
                fit_text(button)  # a long name ends with an ellipsis; the tooltip has it whole
                self._made[look] = button
            shown.append((chip, button))
            x += width + 4
        showing = {id(button) for _chip, button in shown}
        for _chip, button in self.chips:
            if id(button) not in showing:
                button.hide()
        for _chip, button in shown:
            button.show()
        self.chips = shown
        if len(self._made) > 4 * CHIPS_KEPT:
            # Forget the buttons of chips long gone (units dead, totals rolled again).
            for look, button in list(self._made.items()):
                if id(button) not in showing:
                    button.kill()
                    del self._made[look]

    def unit_for(self, element: object) -> str | None:
        for chip, button in self.chips:
            if button is element:
                return chip.unit
        return None


@dataclass(frozen=True)
class ActionButton:
    kind: str
    label: str
    key: str
    allowed: bool
    why_not: str
    #: The label without its key, for a bar too narrow for both (the key is in the tooltip).
    short: str = ""


#: Rows the action bar tries, until every label fits.
BAR_ROWS = (2, 3)
#: Sets of action buttons the bar keeps made (hidden) besides the one shown.
LAYOUTS_KEPT = 8
#: Lists of movement modes the side panel keeps made (hidden) besides the one shown.
MODE_MENUS_KEPT = 6


class ReasonButton(UIButton):
    """A button whose tooltip shows while it is greyed too: pygame-gui 0.6 never hovers a
    disabled button, so the reason a command is refused (its tooltip) was never seen. Greyed,
    it keeps its greyed look under the pointer and still does nothing when clicked."""

    def can_hover(self) -> bool:
        return not self.is_selected and not self.held

    def on_hovered(self) -> None:
        if self.is_enabled:
            super().on_hovered()
        else:
            self.hover_time = 0.0  # the tooltip's delay counts from here (UIElement's own)


class ActionBar:
    """A button for every command of the selected unit, greyed with the reason when refused."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.manager = manager
        self.panel = UIPanel(rect, manager=manager)
        self.status = UILabel(
            pygame.Rect(8, 2, rect.width - 16, 20),
            "",
            manager=manager,
            container=self.panel,
            object_id=ObjectID(object_id="#status"),
        )
        self.buttons: list[tuple[ActionButton, UIButton]] = []
        self._shown: tuple[ActionButton, ...] | None = None
        self._status_text = ""
        #: The buttons of the last few sets of labels, hidden when not shown, newest last: a
        #: unit's turn changes only which are allowed, and a turn handed back and forth shows
        #: the same sets again; laying out a set costs 5-10 ms (issue 18).
        self._layouts: dict[tuple[tuple[str, str, str, str], ...], list[UIButton]] = {}

    def show(self, actions: Sequence[ActionButton]) -> None:
        wanted = tuple(actions)
        if wanted == self._shown:
            return
        self._shown = wanted
        layout = tuple((a.kind, a.label, a.short, a.key) for a in wanted)
        made = self._layouts.pop(layout, None)
        if made is None:
            made = self._make(wanted)
        self._layouts[layout] = made
        keep = {id(button) for button in made}
        for _a, button in self.buttons:
            if id(button) not in keep:
                button.hide()
        self.buttons = list(zip(wanted, made, strict=True))
        for action, button in self.buttons:
            # The label names its key already ("Throw (T)"): not again ("Throw (T) [T]").
            own = action.label.endswith(f"({action.key})")
            tip = action.label if own else f"{action.label} [{action.key}]"
            if not action.allowed:
                tip += "<br>" + esc(action.why_not)
            if button.tool_tip_text != tip:
                button.set_tooltip(tip)
            if action.allowed:
                button.enable()
            else:
                button.disable()
            button.show()
        while len(self._layouts) > LAYOUTS_KEPT:
            oldest = next(iter(self._layouts))
            for button in self._layouts.pop(oldest):
                button.kill()

    def _make(self, actions: Sequence[ActionButton]) -> list[UIButton]:
        # Two rows, a label that does not fit without its key (it is in the tooltip); three
        # lower rows when even that is not enough (a narrow window, or longer words).
        made: list[UIButton] = []
        for rows in BAR_ROWS:
            for button in made:
                button.kill()
            made = self._lay_out(actions, rows)
            for action, button in zip(actions, made, strict=True):
                if not _fits(button) and action.short:
                    button.set_text(action.short)
            if all(_fits(button) for button in made):
                break
        else:
            # Even three rows of short labels are too narrow (the smallest window, in Italian):
            # the label is shortened with an ellipsis, the tooltip keeps it whole.
            for button in made:
                fit_text(button)
        return made

    def _lay_out(self, actions: Sequence[ActionButton], rows: int) -> list[UIButton]:
        made: list[UIButton] = []
        width = self.panel.relative_rect.width - 12
        per_row = max(1, -(-len(actions) // rows))
        w = max(40, min(140, width // per_row - 3))
        h = (self.panel.relative_rect.height - 28) // rows - 2
        for i, action in enumerate(actions):
            x, y = 6 + (i % per_row) * (w + 3), 24 + (i // per_row) * (h + 2)
            button = ReasonButton(
                pygame.Rect(x, y, w, h),
                action.label,
                manager=self.manager,
                container=self.panel,
                object_id=ObjectID(object_id=f"#action_{action.kind}", class_id="@action"),
            )
            made.append(button)
        return made

    def kind_for(self, element: object) -> str | None:
        for action, button in self.buttons:
            if button is element:
                return action.kind
        return None

    def set_status(self, text: str) -> None:
        text = clip(text, LINE)
        if self._status_text != text:
            self._status_text = text
            self.status.set_text(text)
            fit_text(self.status)  # a narrow window: the line ends with an ellipsis, never cut


def text_room(element: UIButton | UILabel) -> int:
    """The width pygame-gui shows of the element's text: its rect less the border, the rounded
    corners, the shadow and the alignment's padding (what is wider is cut)."""
    view = getattr(getattr(element, "drawable_shape", None), "text_view_rect", None)
    if view is not None and view.width > 0:
        return int(view.width)
    return int(element.relative_rect.width) - 6


def _fits(element: UIButton | UILabel, margin: int = 0) -> bool:
    """The element's text fits the room pygame-gui gives it (and shows it whole)."""
    font = getattr(element, "font", None)
    if font is None or not element.text:
        return True
    return bool(font.size(element.text)[0] <= text_room(element) - margin)


def fit_text(element: UIButton | UILabel, full: str | None = None) -> bool:
    """Shorten the element's text with an ellipsis until it fits (the smallest windows); a
    button keeps the whole text in its tooltip. Answers whether it was shortened."""
    font = getattr(element, "font", None)
    text = element.text
    if font is None or not text or _fits(element):
        return False
    room = text_room(element)
    cut = len(text)
    while cut > 1 and font.size(text[:cut].rstrip() + ELLIPSIS)[0] > room:
        cut -= 1
    element.set_text(text[:cut].rstrip() + ELLIPSIS)
    # The shape is laid out anew with the text: measure again in the room it leaves now.
    while cut > 1 and not _fits(element):
        cut -= 1
        element.set_text(text[:cut].rstrip() + ELLIPSIS)
    if isinstance(element, UIButton) and full is not None:
        element.set_tooltip(full)
    return True


def cut_labels(manager: pygame_gui.UIManager) -> list[str]:
    """The texts of the visible buttons and labels that do not fit their widths."""
    return [
        element.text
        for element in manager.get_sprite_group().sprites()
        if isinstance(element, UIButton | UILabel) and element.visible and not _fits(element)
    ]


LOG_FILTERS = ("all", "combat", "movement", "turns", "sightings", "gm")


def _filter_names() -> list[tuple[str, str]]:
    names = {
        "all": _("Everything"),
        "combat": _("Combat"),
        "movement": _("Movement"),
        "turns": _("Turns"),
        "sightings": _("Sightings"),
        "gm": _("GM"),
    }
    return [(names[f], f) for f in LOG_FILTERS]


class LogBox(UITextBox):
    """A text box that lays out appended text without drawing again what it already shows.

    pygame-gui draws every row of the box anew when appended text makes it taller (all of the
    log's 40-90 entries, 5 ms quiet and 40-60 ms on a busy machine, after every command); here
    the rows already drawn are copied into the taller surface and only the new ones are drawn
    (issue 18). The pixels are the same (tests/ui/test_hud.py)."""

    def append_html_text(self, new_html_str: str) -> None:
        layout = self.text_box_layout
        old = None if layout is None else layout.finalised_surface
        if layout is None or old is None or not layout.layout_rows:
            super().append_html_text(new_html_str)
            return
        # The last row may take the new text's first words: it is drawn again too.
        first = len(layout.layout_rows) - 1

        def grow() -> pygame.Surface:
            size = (layout.layout_rect.width + layout.edit_buffer, layout.layout_rect.height)
            if (
                size[0] != old.get_width()
                or size[1] < old.get_height()
                or layout.current_end_pos != layout.letter_count
                or layout.floating_rects
            ):
                return TextBoxLayout.finalise_to_new(layout)
            surface = pygame.Surface(size, flags=pygame.SRCALPHA, depth=32)
            surface.fill("#00000000")
            # Added to a transparent surface: an exact copy (a plain blit would blend).
            surface.blit(old, (0, 0), special_flags=pygame.BLEND_RGBA_ADD)
            top = layout.layout_rows[first].y
            surface.fill("#00000000", pygame.Rect(0, top, size[0], size[1] - top))
            layout.finalised_surface = surface
            for row in layout.layout_rows[first:]:
                row.finalise(surface)
            return surface

        layout.finalise_to_new = grow  # type: ignore[method-assign]
        try:
            super().append_html_text(new_html_str)
        finally:
            del layout.finalise_to_new


class SidePanel:
    """The right-hand column: the selected unit, what the pointer shows, levels and modes, and
    the combat log."""

    def __init__(
        self, manager: pygame_gui.UIManager, rect: pygame.Rect, *, gm: bool = False
    ) -> None:
        self.manager = manager
        self.panel = UIPanel(rect, manager=manager)
        w = rect.width - 12
        self.unit = UITextBox("", pygame.Rect(6, 6, w, 150), manager=manager, container=self.panel)
        #: The GM's button (a battle with a GM): take the screen, or give it back.
        self.gm: UIButton | None = None
        if gm:
            self.gm = UIButton(
                pygame.Rect(w - 64, 10, 64, 26), _("GM"), manager=manager, container=self.panel,
                tool_tip_text=_("Pass the screen to the GM, or give it back"),
            )  # fmt: skip
        self.level_label = UILabel(
            pygame.Rect(6, 160, 110, 28), "", manager=manager, container=self.panel
        )
        self.level_up = UIButton(
            pygame.Rect(118, 160, 44, 28),
            "+",
            manager=manager,
            container=self.panel,
            tool_tip_text=_("Level up [PageUp]"),
        )
        self.level_down = UIButton(
            pygame.Rect(164, 160, 44, 28),
            "−",
            manager=manager,
            container=self.panel,
            tool_tip_text=_("Level down [PageDown]"),
        )
        self.fit = UIButton(
            pygame.Rect(212, 160, w - 206, 28),
            _("Fit map"),
            manager=manager,
            container=self.panel,
            tool_tip_text=_("Show the whole map [Home]"),
        )
        self.mode: UIDropDownMenu | None = None
        self._modes: tuple[tuple[str, str], ...] = ()
        self._mode_menus: dict[tuple[tuple[str, str], ...], UIDropDownMenu] = {}
        self.stealth = UIButton(
            pygame.Rect(6 + w // 2 + 2, 192, w // 2 - 2, 28),
            "",
            manager=manager,
            container=self.panel,
            tool_tip_text=_("Move stealthily: half movement (P-STL-1) [Q]"),
        )
        self.hover = UITextBox(
            "", pygame.Rect(6, 224, w, 170), manager=manager, container=self.panel
        )
        log_top = 398
        self.filter = UIDropDownMenu(
            _filter_names(),
            _filter_names()[0],
            pygame.Rect(6, log_top, w - 172, 28),
            manager=manager,
            container=self.panel,
        )
        #: The log's cells, dice and ruling ids kept shown (Alt shows them while held).
        self.details = UIButton(
            pygame.Rect(w - 164, log_top, 82, 28),
            _("Details"),
            manager=manager,
            container=self.panel,
            tool_tip_text=_("Show the cells, dice and rulings in the log (or hold Alt)"),
        )
        self.details_on = False
        self.copy = UIButton(
            pygame.Rect(w - 80, log_top, 86, 28),
            _("Copy"),
            manager=manager,
            container=self.panel,
            tool_tip_text=_("Copy the log to the clipboard"),
        )
        self.log = LogBox(
            "",
            pygame.Rect(6, log_top + 32, w, rect.height - log_top - 38),
            manager=manager,
            container=self.panel,
        )
        self._texts: dict[str, str] = {}

    def toggle_details(self) -> None:
        """Details on or off: the button stays lit while they are on."""
        self.details_on = not self.details_on
        if self.details_on:
            self.details.select()
        else:
            self.details.unselect()

    def set_modes(self, modes: Sequence[tuple[str, str]], current: str) -> None:
        """The movement modes the selected unit has, as (label, mode id)."""
        modes = tuple(modes)
        if modes == self._modes and self.mode is not None:
            return
        self._modes = modes
        if self.mode is not None:
            self.mode.hide()
        self.mode = None
        if not modes:
            return
        start = next((m for m in modes if m[1] == current), modes[0])
        # A list shown before for the same modes is shown again when it shows the same choice
        # (making one costs 5-15 ms, issue 18); the last few are kept hidden.
        kept = self._mode_menus.pop(modes, None)
        if kept is not None and tuple(kept.selected_option) != start:
            kept.kill()
            kept = None
        if kept is None:
            w = self.panel.relative_rect.width - 12
            kept = UIDropDownMenu(
                list(modes),
                start,
                pygame.Rect(6, 192, w // 2 - 2, 28),
                manager=self.manager,
                container=self.panel,
            )
        kept.show()
        self._mode_menus[modes] = kept
        self.mode = kept
        while len(self._mode_menus) > MODE_MENUS_KEPT:
            self._mode_menus.pop(next(iter(self._mode_menus))).kill()

    def text(self, key: str) -> str:
        """The HTML last put in one of the panel's boxes ("unit", "hover", "log")."""
        return self._texts.get(key, "")

    def set_html(self, box: UITextBox, key: str, text: str) -> None:
        if self._texts.get(key) != text:
            self._texts[key] = text
            box.set_text(text)

    def set_log(self, entries: Sequence[str]) -> None:
        """The whole log box anew, scrolled to its end."""
        text = "<br>".join(entries)
        self._texts["log"] = text
        self.log.set_text(text)
        self.follow_log()

    def append_log(self, entries: Sequence[str]) -> None:
        """Entries added at the end (the box lays out only them and scrolls down)."""
        before = self._texts.get("log", "")
        text = "<br>".join(entries)
        self.log.append_html_text(("<br>" if before else "") + text)
        self._texts["log"] = before + ("<br>" if before else "") + text
        self.follow_log()

    def follow_log(self) -> None:
        """Scroll the log to its end, the newest entry whole. pygame-gui keeps the scroll bar's
        slider at its old size when text is appended (and puts a new bar at the top when the
        text first overflows), so the end stayed out of reach: size the slider to what the box
        shows now, then go to the end."""
        box = self.log
        bar, layout, shown = box.scroll_bar, box.text_box_layout, box.text_wrap_rect
        if bar is None or layout is None or shown is None:
            return
        visible = min(1.0, shown[3] / max(1, layout.layout_rect.height))
        bar.set_visible_percentage(visible)
        bar.set_scroll_from_start_percentage(1.0)
        # The slider has a least height: where it would stop short of the end, the text goes to
        # the end all the same.
        bar.start_percentage = 1.0 - visible
        bar.has_moved_recently = True


class ContextMenu:
    """The commands that apply to what was right-clicked, at the pointer."""

    def __init__(
        self,
        manager: pygame_gui.UIManager,
        pos: tuple[int, int],
        items: Sequence[tuple[str, str, bool, str]],
        bounds: pygame.Rect,
    ) -> None:
        """`items`: (label, key, allowed, reason when not)."""
        self.items = list(items)
        height = 8 + 32 * len(items)
        rect = pygame.Rect(pos[0], pos[1], 230, height).clamp(bounds)
        self.panel = UIPanel(rect, starting_height=5, manager=manager)
        self.buttons: list[tuple[str, UIButton]] = []
        for i, (label, key, allowed, why) in enumerate(items):
            button = ReasonButton(
                pygame.Rect(4, 4 + 32 * i, 218, 30),
                label,
                manager=manager,
                container=self.panel,
                tool_tip_text=None if allowed else esc(why),
            )
            if not allowed:
                button.disable()
            self.buttons.append((key, button))

    def key_for(self, element: object) -> str | None:
        for key, button in self.buttons:
            if button is element:
                return key
        return None

    def contains(self, pos: tuple[int, int]) -> bool:
        return bool(self.panel.get_abs_rect().collidepoint(pos))

    def close(self) -> None:
        self.panel.kill()


class Prompt:
    """A question in the middle of the window with a few answers (a reaction offered...)."""

    def __init__(
        self,
        manager: pygame_gui.UIManager,
        bounds: pygame.Rect,
        text: str,
        answers: Sequence[tuple[str, str]],
        *,
        entry: bool = False,
        choices: Sequence[tuple[str, str]] = (),
        stacked: bool = False,
    ) -> None:
        """`entry`: a line to type in (the text of an improvised action, a DC); `choices`:
        (label, id) pairs of a list to pick from beside it (a check's name); `stacked`: the
        answers one under another, each the dialog's width (a margin's plans)."""
        width = 520
        height = 170 + (40 if entry or choices else 0)
        if stacked:
            height = 122 + 44 * max(1, len(answers))
        rect = pygame.Rect(0, 0, width, height)
        rect.center = bounds.center
        self.panel = UIPanel(rect, starting_height=10, manager=manager)
        self.text = UITextBox(
            text, pygame.Rect(8, 8, width - 16, 100), manager=manager, container=self.panel
        )
        self.entry: UITextEntryLine | None = None
        self.choices: UIDropDownMenu | None = None
        field = width - 16
        if choices:
            field = 110
            self.choices = UIDropDownMenu(
                list(choices), choices[0], pygame.Rect(8 + field + 6, 112, width - field - 22, 34),
                manager=manager, container=self.panel, expansion_height_limit=220,
            )  # fmt: skip
        if entry:
            self.entry = UITextEntryLine(
                pygame.Rect(8, 112, field, 34), manager=manager, container=self.panel
            )
            self.entry.focus()
        self.buttons: list[tuple[str, UIButton]] = []
        count = max(1, len(answers))
        w = (width - 16 - 6 * (count - 1)) // count
        y = height - 48
        for i, (label, key) in enumerate(answers):
            place = pygame.Rect(8 + i * (w + 6), y, w, 38)
            if stacked:
                place = pygame.Rect(8, 112 + 44 * i, width - 16, 38)
            button = UIButton(
                place,
                label,
                manager=manager,
                container=self.panel,
            )
            self.buttons.append((key, button))

    def key_for(self, element: object) -> str | None:
        for key, button in self.buttons:
            if button is element:
                return key
        return None

    @property
    def typed(self) -> str:
        return "" if self.entry is None else self.entry.get_text()

    @property
    def choice(self) -> str:
        if self.choices is None:
            return ""
        option = self.choices.selected_option
        return str(option[1]) if isinstance(option, tuple) else str(option)

    def close(self) -> None:
        self.panel.kill()


def on_button(event: pygame.event.Event, handlers: Sequence[Callable[[object], bool]]) -> bool:
    """Give a pressed button to the first handler that knows it."""
    return any(h(event.ui_element) for h in handlers)
