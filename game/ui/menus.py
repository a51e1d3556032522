"""The menus (pygame-gui): the title screen, a new battle, loading a save, the settings. Each is a
scene like the battle's; the Director (game/ui/launch.py) moves between them."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.core.interfaces import IContainerLikeInterface
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UIPanel,
    UIScrollingContainer,
    UITextBox,
    UITextEntryLine,
)

from game.app import saves
from game.app.settings import (
    ANIMATION_SPEEDS,
    LANGUAGES,
    MIN_SIZE,
    UI_SCALES,
    WINDOW_SIZES,
    Settings,
    key_conflict,
)
from game.battle.engine import GM
from game.battle.setup import BattleSetup, setup_from_map
from game.maps import LoadedMap, MapError, load_map
from game.rules import registry
from game.text.bounds import MESSAGE, clip
from game.text.i18n import _
from game.ui import hud
from game.ui.keys import DEFAULT_KEYS

if TYPE_CHECKING:
    from game.ui.app import Scene
    from game.ui.launch import Director

BACKGROUND = (14, 16, 20)
ROW = 30
#: Characters a one-line widget (a button, a label, a drop-down's option) shows at most: names
#: and messages from maps and saves are clipped before (game/text.py), this is the last bound.
LINE = 200
#: Notices shown on the title screen at most (all of them are printed on standard error).
NOTICES = 8
#: Players (and sides) a save's row and details name at most.
PEOPLE = 8
GAP = 6
#: Rulesets a battle may be played with, by their seeds' own (Italian) titles; the other four
#: of the design come later.
RULESETS = {r.id: r.title for r in registry.RULESETS}
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
        "attack": _("Attack"),
        "throw": _("Throw"),
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


def side_name(faction: str) -> str:
    """A side as the menus name it: the map's faction, clipped (a map may name it at length)."""
    return clip(faction.replace("_", " "))


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


# ---------------------------------------------------------------- the title screen


class TitleScene(MenuScene):
    """New battle, Continue (the last save), Load, Settings, Quit."""

    def build(self) -> None:
        w, h = self.size
        self.saves = saves.list_saves(self.director.saves_folder())
        self.last = saves.latest(self.saves)
        top = max(40, h // 6)
        self.label(pygame.Rect(0, top, w, 56), "Tessera", "#title")
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

    def _new(self) -> None:
        self.director.new_battle()

    def _continue(self) -> None:
        if self.last is not None:
            self.director.resume(self.last.path)

    def _quit(self) -> None:
        self.director.quit()


# ---------------------------------------------------------------- a new battle


@dataclass
class Player:
    key: str
    name: str


#: A side whose units are handed out one by one to the players (a character each).
SPLIT = "split"


@dataclass
class Draft:
    """What the new-battle screen holds while it is filled in (it outlives a rebuild)."""

    map_path: Path | None = None
    loaded: LoadedMap | None = None
    map_error: str | None = None
    typing_path: bool = False
    typed_path: str = ""
    ruleset: str = "periferie"
    players: list[Player] = field(default_factory=list)
    #: faction -> a player's key, "computer", or SPLIT (each unit its own player).
    controllers: dict[str, str] = field(default_factory=dict)
    #: unit -> a player's key, for the units of split sides.
    unit_controllers: dict[str, str] = field(default_factory=dict)
    gm: bool = False
    dice_mode: bool = False
    seed: str = ""
    #: unit -> the d20 face typed for it.
    dice: dict[str, str] = field(default_factory=dict)
    step: str = "setup"
    problems: dict[str, str] = field(default_factory=dict)
    next_key: int = 0

    @property
    def factions(self) -> list[str]:
        if self.loaded is None:
            return []
        return sorted({u.faction for u in self.loaded.units})

    def units_of(self, faction: str) -> list[str]:
        """The units of a side, in the map's listing order."""
        if self.loaded is None:
            return []
        return [u.name for u in self.loaded.units if u.faction == faction]

    def split_units(self) -> list[str]:
        """The units of the sides split among players."""
        return [
            u for f in self.factions if self.controllers.get(f) == SPLIT for u in self.units_of(f)
        ]

    def starting_units(self) -> list[tuple[str, str, bool]]:
        """(unit, faction, hidden) of every unit that rolls initiative as the battle begins,
        in the map's listing order: the order initiative_dice are used in."""
        if self.loaded is None:
            return []
        return [
            (u.name, u.faction, u.hidden)
            for u in self.loaded.units
            if (u.arrives_round or 1) <= 1 and not u.outside_combat
        ]

    def add_player(self, name: str) -> Player:
        player = Player(f"p{self.next_key}", name)
        self.next_key += 1
        self.players.append(player)
        return player


def new_seed() -> int:
    """A seed for a new battle from the clock (the journal keeps it, so replays are exact)."""
    return time.time_ns() % 1_000_000_000


def demo_map() -> Path:
    from game.ui.launch import DEMO_MAP

    return DEMO_MAP


def shipped_maps() -> list[Path]:
    """The maps in the repository's maps/ folder."""
    return sorted(demo_map().parent.glob("*.tmx"))


class NewBattleScene(MenuScene):
    """Map, ruleset, players and who plays each side, GM, initiative mode and seed; then, with
    physical dice, a d20 face for every unit that starts the battle."""

    def __init__(
        self, size: tuple[int, int], director: Director, draft: Draft | None = None
    ) -> None:
        self.maps: list[tuple[Path, LoadedMap | None, str | None]] = []
        for path in shipped_maps():
            try:
                self.maps.append((path, load_map(path), None))
            except MapError as exc:
                self.maps.append((path, None, str(exc)))
        if draft is None:
            draft = Draft(seed=str(new_seed()))
            draft.add_player(_("Player {n}").format(n=1))
            good = min(
                ((p, m) for p, m, _e in self.maps if m is not None),
                key=lambda pm: pm[0] != demo_map(),  # the demo's map first
                default=None,
            )
            if good is not None:
                self._use_map(draft, good[0], good[1], None)
        self.draft = draft
        self.map_buttons: list[tuple[Path | None, UIButton]] = []
        self.name_entries: list[UITextEntryLine] = []
        self.side_menus: dict[str, UIDropDownMenu] = {}
        self._side_widgets: list[UILabel | UIDropDownMenu] = []
        self.dice_entries: dict[str, UITextEntryLine] = {}
        super().__init__(size, director)

    # ------------------------------------------------------------ the draft

    @staticmethod
    def _use_map(draft: Draft, path: Path, loaded: LoadedMap | None, error: str | None) -> None:
        draft.map_path, draft.loaded, draft.map_error = path, loaded, error
        draft.dice = {}
        if loaded is None:
            return
        factions = sorted({u.faction for u in loaded.units})
        keys = [p.key for p in draft.players]
        # The first player takes the first side (the raiders where there are some, as in the
        # demo); further players the next ones; the computer the rest.
        order = sorted(factions, key=lambda f: f != "raiders")
        draft.controllers = {
            f: keys[i] if i < len(keys) else "computer" for i, f in enumerate(order)
        }

    def choose_map(self, path: Path | None) -> None:
        d = self.draft
        if path is None:  # a map from a path typed in (pygame has no file dialog)
            d.typing_path = True
            d.map_path, d.loaded, d.map_error = None, None, None
        else:
            d.typing_path = False
            found = next((m for m in self.maps if m[0] == path), None)
            loaded, error = (found[1], found[2]) if found is not None else (None, None)
            self._use_map(d, path, loaded, error)
        d.problems = {}
        self.rebuild()

    def open_typed_path(self) -> None:
        d = self.draft
        text = d.typed_path.strip()
        if not text:
            d.problems = {"map": _("Type the path of a .tmx file first.")}
            self.rebuild()
            return
        path = Path(text).expanduser()
        try:
            loaded: LoadedMap | None = load_map(path)
            error = None
        except MapError as exc:
            loaded, error = None, str(exc)
        self._use_map(d, path, loaded, error)
        d.problems = {}
        self.rebuild()

    def add_player(self) -> None:
        d = self.draft
        player = d.add_player(_("Player {n}").format(n=len(d.players) + 1))
        free = [f for f in d.factions if d.controllers.get(f) == "computer"]
        if free:
            d.controllers[free[0]] = player.key
        self.rebuild()

    def remove_player(self, key: str) -> None:
        d = self.draft
        d.players = [p for p in d.players if p.key != key]
        for faction, controller in d.controllers.items():
            if controller == key:
                d.controllers[faction] = "computer"
        for unit, controller in d.unit_controllers.items():
            if controller == key and d.players:
                d.unit_controllers[unit] = d.players[0].key
        self.rebuild()

    def rename(self, key: str, name: str) -> None:
        for player in self.draft.players:
            if player.key == key:
                player.name = name
        self._build_sides()

    def set_controller(self, faction: str, controller: str) -> None:
        d = self.draft
        was = d.controllers.get(faction)
        d.controllers[faction] = controller
        if controller == SPLIT:
            first = d.players[0].key if d.players else "computer"
            for unit in d.units_of(faction):
                d.unit_controllers.setdefault(unit, first)
        if SPLIT in (was, controller) and was != controller:
            self.rebuild()  # the side's units appear or go: the rows below move

    def set_unit_controller(self, unit: str, key: str) -> None:
        self.draft.unit_controllers[unit] = key

    def toggle_gm(self) -> None:
        self.draft.gm = not self.draft.gm
        self.rebuild()

    def set_initiative(self, mode: str) -> None:
        self.draft.dice_mode = mode == "dice"
        self.rebuild()

    def set_seed(self, text: str) -> None:
        self.draft.seed = text

    def reroll_seed(self) -> None:
        self.draft.seed = str(new_seed())
        self.rebuild()

    def set_die(self, unit: str, text: str) -> None:
        self.draft.dice[unit] = text

    # ------------------------------------------------------------ checking and starting

    def problems(self) -> dict[str, str]:
        """What keeps the battle from starting, by the field it is about."""
        d = self.draft
        found: dict[str, str] = {}
        if d.loaded is None:
            found["map"] = d.map_error or _("Choose a map.")
            return found
        names = [p.name.strip() for p in d.players]
        folded = [n.casefold() for n in names]
        if any(not n for n in names):
            found["players"] = _("Every player needs a name.")
        elif len(set(folded)) < len(folded):
            twice = next(n for n in names if folded.count(n.casefold()) > 1)
            found["players"] = _("Two players are called {name}.").format(name=twice)
        elif any(n in (GM, "computer") for n in folded):
            reserved = next(n for n in names if n.casefold() in (GM, "computer"))
            found["players"] = _("{name} is kept for the game; choose another name.").format(
                name=reserved
            )
        else:
            playing = set(d.controllers.values()) | {
                d.unit_controllers.get(u) for u in d.split_units()
            }
            idle = [p.name for p in d.players if p.key not in playing]
            if idle:
                found["players"] = _("{name} plays no side: give them one or remove them.").format(
                    name=idle[0]
                )
        keys = {p.key for p in d.players} | {"computer"}
        nobody = [f for f in d.factions if d.controllers.get(f) not in keys | {SPLIT}]
        nobody += [
            f
            for f in d.factions
            if d.controllers.get(f) == SPLIT
            and any(d.unit_controllers.get(u) not in keys - {"computer"} for u in d.units_of(f))
        ]
        if nobody:
            found["sides"] = _("Nobody plays {side}.").format(side=side_name(nobody[0]))
        elif all(d.controllers.get(f) == "computer" for f in d.factions) and not d.gm:
            found["sides"] = _(
                "The computer plays every side: let a person play one, or seat a GM."
            )
        try:
            seed = int(d.seed)
            if not 0 <= seed < 2**63:
                raise ValueError
        except ValueError:
            found["seed"] = _("The seed is a whole number.")
        return found

    def dice_problems(self) -> dict[str, str]:
        for unit, _faction, _hidden in self.draft.starting_units():
            text = self.draft.dice.get(unit, "").strip()
            if not text.isdigit() or not 1 <= int(text) <= 20:
                return {
                    "dice": _("{unit}: a d20 shows a whole number from 1 to 20.").format(unit=unit)
                }
        return {}

    def setup(self) -> BattleSetup:
        """The battle as filled in (call when `problems()` is empty)."""
        d = self.draft
        assert d.loaded is not None
        names = {p.key: p.name.strip() for p in d.players}
        owner = {}  # a split side belongs to the player of its first unit; the rest are named
        for f in d.factions:
            if d.controllers.get(f) == SPLIT:
                owner[f] = d.unit_controllers[d.units_of(f)[0]]
            else:
                owner[f] = d.controllers.get(f, "computer")
        players = {
            p.name.strip(): tuple(f for f in d.factions if owner[f] == p.key) for p in d.players
        }
        unit_players = {u: names[d.unit_controllers[u]] for u in d.split_units()}
        computer = tuple(f for f in d.factions if owner[f] == "computer")
        setup = setup_from_map(
            d.loaded,
            seed=int(d.seed),
            computer=computer,
            players=players,
            gm=d.gm,
            unit_players=unit_players,
        )
        setup = replace(setup, ruleset=d.ruleset)
        if d.dice_mode:
            faces = tuple(int(d.dice[u]) for u, _f, _h in d.starting_units())
            setup = replace(setup, initiative_dice=faces)
        return setup

    def next_step(self) -> None:
        d = self.draft
        d.problems = self.problems()
        if d.problems:
            self.rebuild()
            return
        if d.dice_mode and d.step == "setup":
            d.step = "dice"
            self.rebuild()
            return
        if d.dice_mode:
            d.problems = self.dice_problems()
            if d.problems:
                self.rebuild()
                return
        assert d.map_path is not None
        from game.ui.launch import new_journal_path

        self.director.start(self.setup(), new_journal_path(d.map_path))

    def back(self) -> None:
        if self.draft.step == "dice":
            self.draft.step = "setup"
            self.draft.problems = {}
            self.rebuild()
        else:
            self.director.title()

    def key(self, event: pygame.event.Event) -> None:
        if event.key == pygame.K_ESCAPE and not self.ui.get_focus_set():
            self.back()

    # ------------------------------------------------------------ the widgets

    def build(self) -> None:
        self.map_buttons, self.name_entries = [], []
        self.side_menus, self.dice_entries, self._side_widgets = {}, {}, []
        self.errors: dict[str, UITextBox] = {}
        w, h = self.size
        d = self.draft
        if d.step == "dice":
            self._build_dice()
        else:
            self._build_setup()
        self.back_button = self.button(pygame.Rect(20, h - 50, 160, 38), _("Back"), self.back)
        last = d.step == "dice" or not d.dice_mode
        self.start_button = self.button(
            pygame.Rect(w - 260, h - 50, 240, 38),
            _("Start the battle") if last else _("Next: initiative dice"),
            self.next_step,
        )

    def _error(self, rect: pygame.Rect, key: str) -> int:
        """What is wrong with a field, under it; answers the height it takes."""
        text = self.draft.problems.get(key)
        if not text:
            return 4
        self.errors[key] = UITextBox(
            "<font color='#ff8a7a'>" + hud.esc(clip(text, MESSAGE)) + "</font>",
            rect,
            manager=self.ui,
        )
        return rect.height + 4

    def _build_setup(self) -> None:
        w = self.size[0]
        d = self.draft
        col = (w - 60) // 2
        x0, x1 = 20, 40 + col
        self.label(pygame.Rect(x0, 14, col, 36), _("New battle"), "#heading")
        # --- the map
        y = 58
        self.label(pygame.Rect(x0, y, col, 24), _("Map"), "#section")
        y += 26
        for path, loaded, _err in self.maps:
            text = clip(loaded.properties.name if loaded is not None else path.name)
            chosen = d.map_path == path and not d.typing_path
            button = self.button(
                pygame.Rect(x0, y, col, ROW),
                text,
                lambda p=path: self.choose_map(p),  # type: ignore[misc]
                tip=str(path),
                object_id=ObjectID(
                    class_id="@map", object_id="#damaged" if loaded is None else None
                ),
            )
            if chosen:
                button.select()
            self.map_buttons.append((path, button))
            y += ROW + 4
        other = self.button(
            pygame.Rect(x0, y, col, ROW), _("Other file…"), lambda: self.choose_map(None)
        )
        if d.typing_path or (
            d.map_path is not None and d.map_path not in [m[0] for m in self.maps]
        ):
            other.select()
        self.map_buttons.append((None, other))
        y += ROW + 4
        if d.typing_path:
            self.path_entry = self.entry(
                pygame.Rect(x0, y, col - 96, ROW), d.typed_path, self._type_path, limit=400
            )
            self.open_button = self.button(
                pygame.Rect(x0 + col - 90, y, 90, ROW), _("Open"), self.open_typed_path
            )
            y += ROW + 4
        info_height = 104
        self.map_info = UITextBox(
            self._map_html(),
            pygame.Rect(x0, y, col, info_height),
            manager=self.ui,
        )
        y += info_height + 2
        y += self._error(pygame.Rect(x0, y, col, 40), "map")
        # --- ruleset and seed
        self.label(pygame.Rect(x0, y, 110, ROW), _("Ruleset"), "#field")
        self.ruleset_menu = self.dropdown(
            pygame.Rect(x0 + 114, y, col - 114, ROW),
            [(title, ruleset) for ruleset, title in RULESETS.items()],
            d.ruleset,
            self._set_ruleset,
        )
        y += ROW + GAP
        self.label(pygame.Rect(x0, y, 110, ROW), _("Seed"), "#field")
        self.seed_entry = self.entry(
            pygame.Rect(x0 + 114, y, col - 114 - 130, ROW), d.seed, self.set_seed,
            numbers=True, limit=18,
        )  # fmt: skip
        self.button(pygame.Rect(x0 + col - 124, y, 124, ROW), _("New seed"), self.reroll_seed)
        y += ROW + 2
        self._error(pygame.Rect(x0, y, col, 36), "seed")
        # --- the players
        y = 58
        self.label(pygame.Rect(x1, y, col, 24), _("Players"), "#section")
        y += 26
        for player in d.players:
            entry = self.entry(
                pygame.Rect(x1, y, col - 110, ROW),
                player.name,
                lambda text, k=player.key: self.rename(k, text),  # type: ignore[misc]
                limit=24,
            )
            self.name_entries.append(entry)
            self.button(
                pygame.Rect(x1 + col - 104, y, 104, ROW),
                _("Remove"),
                lambda k=player.key: self.remove_player(k),  # type: ignore[misc]
                enabled=len(d.players) > 1,
            )
            y += ROW + 4
        self.add_button = self.button(
            pygame.Rect(x1, y, 180, ROW),
            _("Add player"),
            self.add_player,
            enabled=len(d.players) < max(1, len(d.loaded.units) if d.loaded else 1),
            tip=_("A side may be split among players: each runs their own units"),
        )
        y += ROW + 2
        y += self._error(pygame.Rect(x1, y, col, 40), "players")
        # --- who plays each side
        self.label(pygame.Rect(x1, y, col, 24), _("Sides"), "#section")
        y += 26
        self._sides_top = y
        self._sides_rect = (x1, col)
        self._build_sides()
        y += (ROW + 4) * (len(d.factions) + len(d.split_units())) + 2
        y += self._error(pygame.Rect(x1, y, col, 40), "sides")
        # --- the GM and the initiative
        self.gm_button = self.button(
            pygame.Rect(x1, y, col, ROW),
            _("GM: at the table") if d.gm else _("GM: none"),
            self.toggle_gm,
            tip=_("A game master sees everything and may change anything"),
        )
        if d.gm:
            self.gm_button.select()
        y += ROW + GAP
        self.label(pygame.Rect(x1, y, col // 2 - 4, ROW), _("Initiative"), "#field")
        self.initiative_menu = self.dropdown(
            pygame.Rect(x1 + col // 2, y, col - col // 2, ROW),
            [(_("Rolled by the game"), "rolled"), (_("Physical dice"), "dice")],
            "dice" if d.dice_mode else "rolled",
            self.set_initiative,
        )

    def _build_sides(self) -> None:
        d = self.draft
        for widget in self._side_widgets:
            self._choices.pop(widget, None)
            widget.kill()
        self.side_menus, self._side_widgets = {}, []
        x1, col = self._sides_rect
        y = self._sides_top
        people = [(p.name.strip() or _("(no name)"), p.key) for p in d.players]
        options = [*people, (_("Computer"), "computer"), (_("Split among players"), SPLIT)]
        for faction in d.factions:
            self._side_widgets.append(
                self.label(pygame.Rect(x1, y, col // 2 - 4, ROW), side_name(faction), "#field")
            )
            current = d.controllers.get(faction, "computer")
            self.side_menus[faction] = self.dropdown(
                pygame.Rect(x1 + col // 2, y, col - col // 2, ROW),
                options,
                current,
                lambda key, f=faction: self.set_controller(f, key),  # type: ignore[misc]
            )
            self._side_widgets.append(self.side_menus[faction])
            y += ROW + 4
            if current != SPLIT or not people:
                continue
            for unit in d.units_of(faction):
                self._side_widgets.append(
                    self.label(pygame.Rect(x1 + 24, y, col // 2 - 28, ROW), clip(unit), "#field")
                )
                menu = self.dropdown(
                    pygame.Rect(x1 + col // 2, y, col - col // 2, ROW),
                    people,
                    d.unit_controllers.get(unit, people[0][1]),
                    lambda key, u=unit: self.set_unit_controller(u, key),  # type: ignore[misc]
                )
                self.side_menus[f"{faction}/{unit}"] = menu
                self._side_widgets.append(menu)
                y += ROW + 4

    def _type_path(self, text: str) -> None:
        self.draft.typed_path = text

    def _set_ruleset(self, ruleset: str) -> None:
        self.draft.ruleset = ruleset

    def _map_html(self) -> str:
        d = self.draft
        if d.typing_path and d.loaded is None and d.map_error is None:
            return hud.esc(_("Type the path of a .tmx map and press Open."))
        if d.loaded is None:
            if d.map_error:
                return "<font color='#ff8a7a'>" + hud.esc(clip(d.map_error, MESSAGE)) + "</font>"
            return hud.esc(_("Choose a map."))
        units = len(d.loaded.units)
        sides = ", ".join(side_name(f) for f in d.factions)
        lines = [
            f"<b>{hud.esc(clip(d.loaded.properties.name))}</b>",
            hud.esc(_("{units} units; sides: {sides}").format(units=units, sides=sides)),
        ]
        if d.loaded.properties.description:
            lines.append(hud.esc(clip(d.loaded.properties.description, MESSAGE)))
        return "<br>".join(lines)

    def _build_dice(self) -> None:
        w, h = self.size
        d = self.draft
        self.label(pygame.Rect(20, 14, w - 40, 36), _("Initiative dice"), "#heading")
        UITextBox(
            hud.esc(
                _(
                    "Roll a d20 for each unit and type the face it shows; the game adds the "
                    "unit's bonus. Hidden units are the GM's to roll."
                )
            ),
            pygame.Rect(20, 54, w - 40, 52),
            manager=self.ui,
        )
        units = d.starting_units()
        box = UIScrollingContainer(
            pygame.Rect(20, 112, min(640, w - 40), h - 112 - 110),
            manager=self.ui,
            allow_scroll_x=False,
        )
        inner = box.get_container()
        width = min(640, w - 40) - 24
        y = 0
        for unit, faction, hidden in units:
            text = f"{clip(unit)} ({side_name(faction)})"
            if hidden:
                text += " " + _("(hidden)")
            self.label(pygame.Rect(0, y, width - 90, ROW), text, "#field", container=inner)
            self.dice_entries[unit] = self.entry(
                pygame.Rect(width - 80, y, 80, ROW),
                d.dice.get(unit, ""),
                lambda text, u=unit: self.set_die(u, text),  # type: ignore[misc]
                container=inner,
                numbers=True,
                limit=2,
            )
            y += ROW + 4
        box.set_scrollable_area_dimensions((width, max(y, 1)))
        self._error(pygame.Rect(20, h - 104, w - 40, 44), "dice")


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


__all__ = [
    "Draft",
    "LoadScene",
    "MenuScene",
    "NewBattleScene",
    "Scaled",
    "SettingsScene",
    "TitleScene",
    "default_key_names",
    "fitting_scale",
]
