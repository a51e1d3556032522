"""The new-battle screen: the draft (game/app/draft.py) shown and filled in, then started."""

from __future__ import annotations

from pathlib import Path

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UIScrollingContainer,
    UITextBox,
    UITextEntryLine,
)

from game.app.draft import (
    DEMO_MAP,
    SPLIT,
    Draft,
    battle_setup,
    dice_problems,
    new_seed,
    problems,
    rulesets,
    shipped_maps,
    side_name,
)
from game.maps import LoadedMap, MapError, load_map
from game.text.bounds import MESSAGE, clip
from game.text.i18n import _
from game.ui import hud
from game.ui.menus.base import GAP, ROW, Director, MenuScene


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
                key=lambda pm: pm[0] != DEMO_MAP,  # the demo's map first
                default=None,
            )
            if good is not None:
                draft.use_map(good[0], good[1], None)
        self.draft = draft
        self.map_buttons: list[tuple[Path | None, UIButton]] = []
        self.name_entries: list[UITextEntryLine] = []
        self.side_menus: dict[str, UIDropDownMenu] = {}
        self._side_widgets: list[UILabel | UIDropDownMenu] = []
        self.dice_entries: dict[str, UITextEntryLine] = {}
        super().__init__(size, director)

    # ------------------------------------------------------------ the draft

    def choose_map(self, path: Path | None) -> None:
        d = self.draft
        if path is None:  # a map from a path typed in (pygame has no file dialog)
            d.typing_path = True
            d.map_path, d.loaded, d.map_error = None, None, None
        else:
            d.typing_path = False
            found = next((m for m in self.maps if m[0] == path), None)
            loaded, error = (found[1], found[2]) if found is not None else (None, None)
            d.use_map(path, loaded, error)
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
        d.use_map(path, loaded, error)
        d.problems = {}
        self.rebuild()

    def add_player(self) -> None:
        d = self.draft
        d.add_playing(_("Player {n}").format(n=len(d.players) + 1))
        self.rebuild()

    def remove_player(self, key: str) -> None:
        self.draft.remove_player(key)
        self.rebuild()

    def rename(self, key: str, name: str) -> None:
        for player in self.draft.players:
            if player.key == key:
                player.name = name
        self._build_sides()

    def set_controller(self, faction: str, controller: str) -> None:
        if self.draft.set_controller(faction, controller):
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

    def next_step(self) -> None:
        d = self.draft
        d.problems = problems(d)
        if d.problems:
            self.rebuild()
            return
        if d.dice_mode and d.step == "setup":
            d.step = "dice"
            self.rebuild()
            return
        if d.dice_mode:
            d.problems = dice_problems(d)
            if d.problems:
                self.rebuild()
                return
        assert d.map_path is not None
        self.director.start(battle_setup(d), self.director.new_journal(d.map_path))

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
            [(title, ruleset) for ruleset, title in rulesets().items()],
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
