"""The battle screen: the board, the widgets, and what the mouse and keys turn into commands.

Everything shown comes from the player's view (game/battle/view.py) and the previews
(game/battle/preview.py, game/battle/options.py); every change is a command given to the session.
The computer's turns are stepped one command at a time so that they can be watched.
"""

from __future__ import annotations

import errno
from collections.abc import Sequence
from dataclasses import dataclass

import pygame
import pygame_gui
from pygame_gui.core.utility import clipboard_copy

from game.battle import commands as cmd
from game.battle import options as opts
from game.battle import preview
from game.battle.engine import GM, Battle, Outcome
from game.battle.events import Event
from game.battle.journal import JournalError, JournalWriteError
from game.battle.session import Session
from game.battle.view import PlayerView, told, view_for
from game.grid.model import Cell
from game.maps import RenderMap
from game.text import explain
from game.text.explain_battle import cell_text, refusal_text, why_text
from game.text.i18n import _
from game.ui import hud
from game.ui.aim import Aim
from game.ui.anim import (
    Animator,
    Beat,
    beat_for,
)
from game.ui.board import NEUTRAL_COLOUR, Board, Overlay, Token, faction_colours
from game.ui.gm_panel import GmAct, GmPanel, checks
from game.ui.keys import PAN_KEYS, KeyMap
from game.ui.log_panel import Log
from game.ui.seats import Seats

#: Seconds between two of the computer's commands, so that a person can follow them.
COMPUTER_PAUSE = 0.35
#: Seconds before the computer tries again after its journal line could not be written.
COMPUTER_RETRY = 5.0
#: Screen pixels a drag must cover before it pans instead of clicking.
DRAG_START = 6
#: Pixels a second the keys and the window's edge pan the map by.
PAN_SPEED = 700
EDGE = 6

_LABELS = {
    "move": lambda: _("Move"),
    "attack": lambda: _("Attack"),
    "throw": lambda: _("Throw"),
    "dash": lambda: _("Dash"),
    "dodge": lambda: _("Dodge"),
    "disengage": lambda: _("Disengage"),
    "help": lambda: _("Help"),
    "ready": lambda: _("Ready"),
    "hide": lambda: _("Hide"),
    "search": lambda: _("Search"),
    "use_object": lambda: _("Medkit"),
    "crouch": lambda: _("Crouch"),
    "prone": lambda: _("Prone"),
    "stand": lambda: _("Stand"),
    "improvise": lambda: _("Improvise"),
    "end_turn": lambda: _("End turn"),
}
_STANCE_OF = {"crouch": "crouched", "prone": "prone", "stand": "standing"}


@dataclass(frozen=True)
class Plan:
    """A command aimed and waiting for its confirmation (a second click or Space)."""

    command: cmd.Command
    text: str
    target: Cell | str


class BattleScene:
    """One player's (or the GM's) seat at the battle."""

    def __init__(
        self,
        size: tuple[int, int],
        session: Session,
        player: str,
        render: RenderMap,
        *,
        animation_speed: float = 1.0,
        keys: KeyMap | None = None,
        director: object | None = None,
    ) -> None:
        #: The Director (game/ui/launch.py) that leads back to the menus; None in tests.
        self.director = director
        self.session = session
        self.player = player
        self.keys = keys or KeyMap()
        self.colours = faction_colours(session.setup.factions)
        self.side_index = {f: i for i, f in enumerate(session.setup.factions)}
        self.ui = hud.manager(size, self.colours)
        self.size = size
        self.board = Board(render, self._viewport(size))
        self.board.camera.fit()
        self._build_widgets(size)
        self.animator = Animator(animation_speed)
        self.selected: str | None = None
        self.targeting: str | None = None
        self.mode: str | None = None
        self.stealth = False
        self.plan: Plan | None = None
        self.menu: hud.ContextMenu | None = None
        self.prompt: hud.Prompt | None = None
        self.prompt_kind = ""
        self.status = ""
        self.hover_cell: Cell | None = None
        self.hover_unit: str | None = None
        self.alt = False
        self.version = 0
        self._hover_key: tuple[object, ...] = ()
        self._overlay = Overlay()
        self._hover_text = ""
        self._details: list[str] = []
        self._press: tuple[int, int] | None = None
        self._dragging = False
        self._last_mouse = (0, 0)
        #: Edge scrolling only once the pointer has been seen in the window.
        self._mouse_in = False
        self._computer_wait = 0.0
        self._tooltip: pygame_gui.elements.UITextBox | None = None
        self._options: dict[str, opts.Option] = {}
        self.seats = Seats(session.battle, player)
        self._noted = -1
        self.gm_panel: GmPanel | None = None
        self._gm_table: opts.GmTable | None = None
        self.view: PlayerView = view_for(self.battle, player)
        self.log = Log(self.view.log)
        own = [u.cell for u in self.view.units if u.own]
        if own:  # open on the level where most of the player's units stand
            self.board.set_level(max({c[2] for c in own}, key=[c[2] for c in own].count))
        self.refresh(follow=True)

    def _note_save(self) -> None:
        """Keep the save's summary (round, who acts) beside its journal for the load screen."""
        writer = self.session.writer
        if writer is not None and len(self.session.history) != self._noted:
            from game.app.saves import write_meta

            write_meta(writer.path, self.session)
            self._noted = len(self.session.history)

    # ------------------------------------------------------------ layout

    @property
    def battle(self) -> Battle:
        return self.session.battle

    @staticmethod
    def _viewport(size: tuple[int, int]) -> tuple[int, int, int, int]:
        w, h = size
        return (
            0,
            hud.TRACKER_HEIGHT,
            w - hud.SIDE_WIDTH,
            h - hud.TRACKER_HEIGHT - hud.BAR_HEIGHT,
        )

    def _build_widgets(self, size: tuple[int, int]) -> None:
        w, h = size
        self.tracker = hud.Tracker(self.ui, w)
        self.bar = hud.ActionBar(
            self.ui, pygame.Rect(0, h - hud.BAR_HEIGHT, w - hud.SIDE_WIDTH, hud.BAR_HEIGHT)
        )
        self.side = hud.SidePanel(
            self.ui,
            pygame.Rect(
                w - hud.SIDE_WIDTH, hud.TRACKER_HEIGHT, hud.SIDE_WIDTH, h - hud.TRACKER_HEIGHT
            ),
            gm=self.session.setup.gm,
        )

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.ui.clear_and_reset()
        self.ui.set_window_resolution(size)
        self._build_widgets(size)
        self.menu = None
        self.prompt = None
        self.board.set_viewport(self._viewport(size))
        self.refresh()

    # ------------------------------------------------------------ reading the battle

    def factions(self) -> frozenset[str] | None:
        return None if self.player == GM else self.battle.factions_of(self.player)

    def is_own(self, unit: str) -> bool:
        factions = self.factions()
        side = self.view.sides.get(unit)
        if side is None:
            return False
        return factions is None or side in factions

    def colour_of(self, faction: str) -> tuple[int, int, int]:
        return self.colours.get(faction, NEUTRAL_COLOUR)

    def refresh(self, *, follow: bool = False) -> None:
        """Read the battle again (after a command, an undo, a new turn)."""
        self.version += 1
        self._note_save()
        b = self.battle
        self.view = view_for(b, self.player)
        if not self.animator.busy:
            self.log.reset(self.view.log)
        active = self.view.active
        if active is not None and self.is_own(active) and b.pending is None:
            if self.selected != active:
                follow = True
            self.selected = active
        elif self.selected is not None and self.selected not in {u.id for u in self.view.units}:
            self.selected = None
        if follow and self.selected is not None:
            cell = self._unit_cell(self.selected)
            if cell is not None:
                self.board.set_level(cell[2])
                self.board.show_cell(cell)
        self.board.set_fog(
            None if self.view.factions is None else self.view.seen,
            None if self.view.factions is None else self.view.remembered,
        )
        self._refresh_reach()
        self._refresh_widgets()
        self._sync_gm_panel()
        if self._mouse_in:
            self._hover(self._last_mouse)
        self._hover_key = ()
        self._check_prompt()

    def _unit_cell(self, unit: str) -> Cell | None:
        for u in self.view.units:
            if u.id == unit:
                return u.cell
        return None

    def _acting(self) -> str | None:
        """The selected unit if it may act now for this player."""
        unit = self.selected
        if unit is None or not self.is_own(unit):
            return None
        if opts.who_may_order(self.battle, self.player, unit) is not None:
            return None
        return unit

    def _refresh_reach(self) -> None:
        unit = self._acting()
        self.reach: preview.ReachPreview | None = None
        if unit is not None:
            self.reach = preview.reach(
                self.battle, self.player, unit, self._mode(), stealth=self.stealth
            )
        if self.reach is not None:
            limit = max(self.reach.allowance.budgets.values(), default=1)
            self.board.set_reach(self.reach.cells, self.reach.dash_cells, limit)
        else:
            self.board.set_reach({}, {}, 1)

    def _mode(self) -> str | None:
        return None if self.mode in (None, "auto") else self.mode

    def _refresh_widgets(self) -> None:
        b = self.battle
        chips = []
        for unit, total in self.view.order:
            faction = self.view.sides.get(unit, "")
            text = unit if total is None else f"{unit} {total}"
            chips.append(
                hud.Chip(unit, text, self.side_index.get(faction, 0), unit == self.view.active)
            )
        self.tracker.show(self.view.round, chips, self._budget_text())
        acting = self._acting()
        actions = []
        self._options = (
            {} if acting is None else {o.kind: o for o in opts.options_for(b, self.player, acting)}
        )
        if acting is not None:
            for option in self._options.values():
                actions.append(
                    hud.ActionButton(
                        option.kind,
                        f"{_LABELS[option.kind]()} ({self.keys.label(option.kind)})",
                        self.keys.label(option.kind),
                        option.allowed,
                        "" if option.refusal is None else refusal_text(option.refusal),
                    )
                )
        self.bar.show(actions)
        self.bar.set_status(self._status_line())
        self.side.set_html(self.side.unit, "unit", self._unit_html(self.selected))
        self.side.level_label.set_text(
            _("Level {n} of {count}").format(
                n=self.board.level, count=self.board.levels.level_count
            )
        )
        modes = [(_("Auto"), "auto")]
        if self.reach is not None:
            modes += [(explain.mode_name(m), m) for m in self.reach.allowance.budgets]
        self.side.set_modes(modes, self.mode or "auto")
        self.side.stealth.set_text(_("Stealth: on") if self.stealth else _("Stealth: off"))
        self.log.show(self.side)

    def _budget_text(self) -> str:
        active = self.view.active
        if active is None:
            return ""
        unit = self.view.unit(active)
        if unit is None or unit.turn is None:
            return _("Acting: {unit}").format(unit=active)
        turn = unit.turn
        used, free = _("used"), _("free")
        parts = [
            _("moved {n}").format(n=turn["movement_spent"]),
            _("action {state}").format(state=used if turn["action"] else free),
            _("interaction {state}").format(state=used if turn["interaction_used"] else free),
            _("reaction {state}").format(state=used if turn["reaction_used"] else free),
        ]
        return " · ".join(parts)

    def _status_line(self) -> str:
        if self.status:
            return self.status
        if self.plan is not None:
            return self.plan.text + " — " + _("click again or press Space; Esc cancels")
        if self.view.over:
            winner = self.view.winner
            return (
                _("The combat is over: {winner} win.").format(winner=winner)
                if winner
                else _("The combat is over.")
            )
        active = self.view.active
        if self.view.pending is not None and not self._my_reaction():
            return _("Waiting for a reaction…")
        if active is None:
            return _("An unseen unit is acting…")
        if not self.is_own(active):
            return _("{unit} is acting…").format(unit=active)
        if self.targeting and self.targeting != "move":
            return _("{action}: choose a target (Esc cancels)").format(
                action=_LABELS[self.targeting]()
            )
        return _("{unit}: click a cell to move, an enemy to attack; right-click for more").format(
            unit=active
        )

    def aim(self) -> Aim:
        """The player's situation, for the previews (game/ui/aim.py)."""
        return Aim(
            self.battle, self.player, self.view, self.session.rules, self._options,
            self._mode(), self.stealth,
        )  # fmt: skip

    def _unit_html(self, unit: str | None) -> str:
        if unit is None:
            return hud.esc(_("No unit selected. Click one of yours, or Tab."))
        allowance = ""
        if unit == self._acting() and self.reach is not None:
            budgets = self.reach.allowance.budgets.items()
            allowance = ", ".join(f"{explain.mode_name(m)} {p}" for m, p in budgets) or "0"
        return self.aim().card(unit, allowance)

    def log_text(self) -> str:
        """The log as plain text, as the Copy button puts it on the clipboard."""
        return self.log.text()

    # ------------------------------------------------------------ hover and previews

    def _unit_at(self, column: tuple[int, int]) -> str | None:
        """The unit in that column the player may see, on the level in view or the highest
        below it."""
        best: tuple[int, str] | None = None
        for u in self.view.units:
            here = u.cell[:2] == column and u.cell[2] <= self.board.level
            if here and (best is None or u.cell[2] > best[0]):
                best = (u.cell[2], u.id)
        return None if best is None else best[1]

    def _hover(self, pos: tuple[int, int]) -> None:
        column = self.board.column_at(pos)
        if column is None:
            self.hover_cell, self.hover_unit = None, None
            return
        self.hover_unit = self._unit_at(column)
        cell = self._unit_cell(self.hover_unit) if self.hover_unit else None
        self.hover_cell = cell or (column[0], column[1], self.board.level)

    def _update_previews(self) -> None:
        key = (
            self.version,
            self.hover_cell,
            self.hover_unit,
            self.selected,
            self.targeting,
            self.mode,
            self.stealth,
            self.plan,
            self.alt,
            self.board.level,
        )
        if key == self._hover_key:
            return
        self._hover_key = key
        overlay = Overlay()
        lines: list[str] = []
        details: list[str] = []
        unit = self._acting()
        target = self.plan.target if self.plan is not None else (self.hover_unit or self.hover_cell)
        if unit is not None and target is not None:
            shown = self.aim().at(unit, target, self._default_kind(unit, target))
            overlay, lines, details = shown.overlay, shown.lines, shown.details
        elif self.hover_unit is not None:
            lines = [self._unit_html(self.hover_unit)]
        if self.hover_cell is not None:
            overlay.marked = self.hover_cell
        self._overlay = overlay
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
        self.side.set_html(self.side.hover, "hover", html)
        self._details = details

    # ------------------------------------------------------------ giving commands

    def submit(self, command: cmd.Command) -> Outcome:
        """Give a command as this player; animate what it caused, or say why not."""
        self.plan = None
        self.status = ""
        self.bar.set_status("")
        self._close_menu()
        before = self.view
        path = self._path_of(command)
        try:
            outcome = self.session.submit(command, self.player)
        except JournalError as exc:
            self._journal_failed(exc)
            return Outcome()  # nothing shown: the battle is as its journal saved it
        if outcome.refusal is not None:
            self.status = refusal_text(outcome.refusal)
            self.refresh()
            return outcome
        self.status = ""
        self.targeting = None
        self._animate(outcome.events, before, path)
        return outcome

    def _animate(self, events: Sequence[Event], before: PlayerView, path: Sequence[Cell]) -> None:
        """Beats for what the player may see of these events (a move slides along `path`, taken
        before the move was made); the view updates after them."""
        factions = self.factions()
        # What this player may read of them: units and fields they did not see are blanked.
        visible = [told(e, factions) for e in events if e.visible_to(factions)]
        after = view_for(self.battle, self.player)
        seen_before = {u.id: u.cell for u in before.units}
        seen_after = {u.id: u.cell for u in after.units}
        for event in visible:
            beat = beat_for(event, seen_before, seen_after, path, self.is_own)
            beat.done = lambda e=event: self.log.add(e)
            self.animator.add(beat)
        self.animator.add(Beat(0.0, done=self.refresh))

    def _path_of(self, command: cmd.Command) -> Sequence[Cell]:
        """The cells a move will walk, asked before it is made (for its animation)."""
        if not isinstance(command, cmd.Move):
            return ()
        known = preview.path(
            self.battle, self.player, command.unit, command.to, command.via, command.mode
        )
        return () if known is None else known.cells

    def _default_kind(self, unit: str, target: Cell | str) -> str:
        """What the aim is for: the planned command, the chosen one, or what a click does."""
        if self.plan is not None:
            return self.plan.command.KIND if self.plan.command.KIND != "use_object" else "help"
        if self.targeting is not None:
            return self.targeting
        return self.aim().kind_for(unit, target)

    def _plan(self, command: cmd.Command, text: str, target: Cell | str) -> None:
        """Aim a command; the same aim again gives it. A command the bar already refuses, or
        an attack the preview gives no chance, is explained instead of aimed."""
        if self.plan is not None and self.plan.command == command:
            self.submit(command)
            return
        unit = getattr(command, "unit", None)
        kind = "stance" if command.KIND == "stance" else command.KIND
        option = self._options.get(kind)
        why: str | None = None
        if option is not None and option.refusal is not None:
            why = refusal_text(option.refusal)
        elif isinstance(command, cmd.Attack) and command.target is not None and unit:
            shot = preview.attack(self.battle, self.player, unit, command.target)
            if shot is not None and shot.answer.hit is None and shot.answer.reason is not None:
                why = why_text(str(shot.answer.reason), dict(shot.answer.values))
        if why is not None:
            self.plan = None
            self.status = why
            self.bar.set_status(why)
            return
        self.plan = Plan(command, text, target)
        self.status = ""
        self.bar.set_status(self._status_line())

    def _click(self, pos: tuple[int, int]) -> None:
        column = self.board.column_at(pos)
        if column is None:
            return
        self._hover(pos)
        if self.gm_panel is not None:
            if self.gm_panel.editing and self.hover_cell is not None:
                self.gm_panel.edit((column[0], column[1], self.board.level))
                return
            if self.hover_unit is not None:
                self.gm_panel.select(self.hover_unit)
        unit = self._acting()
        target_unit, cell = self.hover_unit, self.hover_cell
        if (
            target_unit is not None
            and self.is_own(target_unit)
            and self.targeting
            not in (
                "help",
                "use_object",
            )
        ):
            if target_unit != self.selected:
                self.selected = target_unit
                self.plan = None
                self.refresh()
            return
        if unit is None or cell is None:
            return
        kind = self.targeting
        if target_unit is not None:
            enemy = self.view.sides.get(target_unit) != self.view.sides.get(unit)
            if kind in (None, "move", "attack", "throw") and enemy:
                kind = (
                    kind if kind in ("attack", "throw") else self._default_kind(unit, target_unit)
                )
                command: cmd.Command = (
                    cmd.Throw(unit, target=target_unit)
                    if kind == "throw"
                    else cmd.Attack(unit, target=target_unit)
                )
                verb = _("Throw at {t}") if kind == "throw" else _("Attack {t}")
                self._plan(command, verb.format(t=target_unit), target_unit)
                return
            if kind == "help" and not enemy:
                self._plan(
                    cmd.Help(unit, target_unit), _("Help {t}").format(t=target_unit), target_unit
                )
                return
            if kind == "use_object" and not enemy:
                wound = _worst_wound(self.view, target_unit)
                self._plan(
                    cmd.UseObject(unit, target_unit, wound),
                    _("Medkit on {t}").format(t=target_unit),
                    target_unit,
                )
                return
            return
        if kind == "attack":
            self._plan(cmd.Attack(unit, at=cell), _("Fire at {c}").format(c=cell_text(cell)), cell)
            return
        if kind == "throw":
            self._plan(cmd.Throw(unit, at=cell), _("Throw at {c}").format(c=cell_text(cell)), cell)
            return
        if kind in (None, "move"):
            move = cmd.Move(unit, cell, mode=self._mode(), stealth=self.stealth)
            self._plan(move, _("Move to {c}").format(c=cell_text(cell)), cell)

    def _action(self, kind: str) -> None:
        """A command chosen from the bar or its key."""
        unit = self._acting()
        if unit is None:
            return
        option = next(
            (o for o in opts.options_for(self.battle, self.player, unit) if o.kind == kind), None
        )
        if option is None:
            return
        if option.refusal is not None:
            self.status = refusal_text(option.refusal)
            self.bar.set_status(self.status)
            return
        self.status = ""
        self.plan = None
        immediate: dict[str, cmd.Command] = {
            "dash": cmd.Dash(unit),
            "dodge": cmd.Dodge(unit),
            "disengage": cmd.Disengage(unit),
            "ready": cmd.Ready(unit, opts.READY_TRIGGER),
            "hide": cmd.Hide(unit),
            "search": cmd.Search(unit),
            "end_turn": cmd.EndTurn(unit),
        }
        if kind in immediate:
            self.submit(immediate[kind])
        elif kind in _STANCE_OF:
            self.submit(cmd.ChangeStance(unit, _STANCE_OF[kind]))
        elif kind == "improvise":
            self._open_prompt(
                "improvise",
                hud.esc(_("Describe what {unit} tries; the GM will rule on it.").format(unit=unit)),
                [(_("Ask the GM"), "ok"), (_("Cancel"), "cancel")],
                entry=True,
            )
        else:
            self.targeting = None if self.targeting == kind else kind
        self._hover_key = ()
        self.bar.set_status(self._status_line())

    # ------------------------------------------------------------ reactions and prompts

    def _my_reaction(self) -> bool:
        pending = self.battle.pending
        if pending is None:
            return False
        controller = self.battle.controller_of_unit(pending.reactor)
        return controller != "computer" and (self.player == GM or controller == self.player)

    def _gm_ruling_due(self) -> bool:
        return self.player == GM and bool(self.battle.improvising)

    def _check_prompt(self) -> None:
        if self.prompt is not None and self.prompt_kind == "reaction" and not self._my_reaction():
            self._close_prompt()
        if self.prompt is None and self._gm_ruling_due() and not self.animator.busy:
            unit, text = self.battle.improvising[0]
            self._open_prompt(
                "rule",
                hud.esc(
                    _(
                        "{unit} improvises: “{text}”. Rule on it: accept, reject, or a check "
                        "against a DC."
                    ).format(unit=unit, text=text)
                ),
                [(_("Accept"), "accept"), (_("Reject"), "reject"), (_("Roll the check"), "check")],
                entry=True,
                choices=checks(),
            )
            return
        if self.prompt is None and self._my_reaction() and not self.animator.busy:
            pending = self.battle.pending
            assert pending is not None
            shot = preview.attack(self.battle, self.player, pending.reactor, pending.mover)
            chance = ""
            if shot is not None and shot.answer.hit is not None:
                chance = " " + _("Hit chance {p}%").format(p=shot.answer.hit.p)
            rule = "P-OA-1" if pending.kind == "opportunity" else "P-OA-2"
            text = (
                _("{mover} leaves {unit}'s reach: strike at it? ({rule})")
                if pending.kind == "opportunity"
                else _("{mover} comes into {unit}'s sight: fire the readied attack? ({rule})")
            ).format(mover=pending.mover, unit=pending.reactor, rule=rule)
            self._open_prompt(
                "reaction",
                hud.esc(text + chance),
                [
                    (_("Take it [{key}]").format(key=self.keys.label("take")), "take"),
                    (_("Let it go [{key}]").format(key=self.keys.label("let_go")), "let_go"),
                ],
            )

    def _open_prompt(
        self,
        kind: str,
        text: str,
        answers: Sequence[tuple[str, str]],
        *,
        entry: bool = False,
        choices: Sequence[tuple[str, str]] = (),
    ) -> None:
        self._close_prompt()
        self.prompt = hud.Prompt(
            self.ui, self.board.viewport, text, answers, entry=entry, choices=choices
        )
        self.prompt_kind = kind

    def _close_prompt(self) -> None:
        if self.prompt is not None:
            self.prompt.close()
        self.prompt = None
        self.prompt_kind = ""

    def _answer(self, key: str) -> None:
        kind, typed = self.prompt_kind, self.prompt.typed if self.prompt else ""
        choice = self.prompt.choice if self.prompt else ""
        if kind == "rule":
            self._rule(key, typed, choice)
            return
        self._close_prompt()
        if kind == "reaction":
            pending = self.battle.pending
            if pending is not None:
                self.submit(cmd.React(pending.reactor, take=key == "take"))
        elif kind == "improvise" and key == "ok" and typed.strip():
            unit = self._acting()
            if unit is not None:
                self.submit(cmd.Improvise(unit, typed.strip()))
        elif kind == "pause" and key in ("title", "quit") and self.director is not None:
            # The journal already holds every command: leaving loses nothing.
            leave = getattr(self.director, "leave" if key == "title" else "quit")
            leave()

    def _pause(self) -> None:
        """Esc with nothing to cancel: go on, or leave (the battle is already saved)."""
        answers = [(_("Go on"), "resume")]
        if self.director is not None:
            answers += [(_("Back to the title"), "title"), (_("Quit"), "quit")]
        self._open_prompt(
            "pause",
            hud.esc(_("The battle is saved after every command; Continue resumes it.")),
            answers,
        )

    def _rule(self, verdict: str, typed: str, check: str) -> None:
        """The GM's ruling on the first improvised action waiting (accept, reject, or a check
        against the DC typed in the prompt)."""
        unit = self.battle.improvising[0][0]
        if verdict == "check":
            try:
                dc = int(typed.strip())
            except ValueError:
                self.status = _("Type the check's DC (a number) first.")
                self.bar.set_status(self.status)
                return
            command: cmd.Command = cmd.RuleImprovise(unit, "check", check, dc)
        else:
            command = cmd.RuleImprovise(unit, verdict)
        self._close_prompt()
        self.submit(command)

    # ------------------------------------------------------------ the table: hand-over, the GM

    def _cover(self) -> None:
        """The screen is passing to someone else: put away everything of this view."""
        self._close_prompt()
        self._close_menu()
        self.plan = None
        self.targeting = None
        if self._tooltip is not None:
            self._tooltip.kill()
            self._tooltip = None
        self._sync_gm_panel()

    def _take_screen(self) -> None:
        self.player = self.seats.take()
        self.session.seen_by(self.player)  # what this player now sees, no other may undo
        self.selected = None
        self.status = ""
        self.stealth = False
        self.mode = None
        self.view = view_for(self.battle, self.player)
        self.log = Log(self.view.log)
        own = [u.cell for u in self.view.units if u.own]
        if own:
            self.board.set_level(max({c[2] for c in own}, key=[c[2] for c in own].count))
        self.refresh(follow=True)

    def _gm_button(self) -> None:
        if self.player == GM:
            self.seats.release_gm(self.battle)
            if self.seats.waiting_for is not None:
                self._cover()
        else:
            self.seats.call_gm()
            self._cover()

    def _sync_gm_panel(self) -> None:
        """The GM's tools, while the GM has the screen; rebuilt when their lists change."""
        wanted = self.player == GM and self.seats.waiting_for is None
        table = opts.gm_table(self.battle) if wanted else None
        if self.gm_panel is not None and (not wanted or table != self._gm_table):
            self.gm_panel.close()
            self.gm_panel = None
        if wanted and self.gm_panel is None:
            players = tuple(sorted(set(self.battle.setup.players)))
            assert table is not None
            self.gm_panel = GmPanel(self.ui, self.board.viewport, table, players, self._gm_act)
        self._gm_table = table

    def _gm_act(self, act: GmAct) -> None:
        if act.command is not None:
            self.submit(act.command)
            return
        try:
            if act.session == "override":
                before = self.view
                outcome = self.session.override(act.faces, GM)
                if outcome.refusal is not None:
                    self.status = refusal_text(outcome.refusal)
                    self.refresh()
                else:
                    self._animate(outcome.events, before, ())
                return
            refusal = self.session.undo(GM) if act.session == "undo" else self.session.redo(GM)
        except JournalError as exc:
            self._journal_failed(exc)
            return
        self.status = "" if refusal is None else refusal_text(refusal)
        self.animator.finish()
        self.refresh()

    # ------------------------------------------------------------ context menu

    def _open_menu(self, pos: tuple[int, int]) -> None:
        self._close_menu()
        self._hover(pos)
        unit = self._acting()
        if unit is None or self.hover_cell is None:
            return
        b = self.battle
        options = {o.kind: o for o in opts.options_for(b, self.player, unit)}
        items: list[tuple[str, str, bool, str]] = []

        def add(kind: str, label: str, key: str) -> None:
            o = options[kind]
            why = "" if o.refusal is None else refusal_text(o.refusal)
            items.append((label, key, o.allowed, why))

        target = self.hover_unit
        if target is not None and self.view.sides.get(target) != self.view.sides.get(unit):
            add("attack", _("Attack {t}").format(t=target), "attack")
            add("throw", _("Throw at {t}").format(t=target), "throw")
        elif target is not None:
            if target != unit:
                add("help", _("Help {t}").format(t=target), "help")
            for wound in _wounds(self.view, target):
                add(
                    "use_object",
                    _("Medkit on {t}: {w}").format(
                        t=target, w=explain.effect_name(wound + "_wound")
                    ),
                    "use_object:" + wound,
                )
        else:
            add("move", _("Move here"), "move")
            weapon = self.aim().weapon(unit)
            if weapon is not None and weapon.area:
                add("attack", _("Fire at this cell"), "attack_cell")
            add("throw", _("Throw at this cell"), "throw_cell")
        self._menu_target: tuple[str | None, Cell] = (target, self.hover_cell)
        if items:
            self.menu = hud.ContextMenu(self.ui, pos, items, self.board.viewport)

    def _close_menu(self) -> None:
        if self.menu is not None:
            self.menu.close()
        self.menu = None

    def _menu_choice(self, key: str) -> None:
        target, cell = self._menu_target
        self._close_menu()
        unit = self._acting()
        if unit is None:
            return
        if key == "attack" and target is not None:
            self.submit(cmd.Attack(unit, target=target))
        elif key == "throw" and target is not None:
            self.submit(cmd.Throw(unit, target=target))
        elif key == "help" and target is not None:
            self.submit(cmd.Help(unit, target))
        elif key.startswith("use_object:") and target is not None:
            self.submit(cmd.UseObject(unit, target, key.split(":", 1)[1]))
        elif key == "move":
            self.submit(cmd.Move(unit, cell, mode=self._mode(), stealth=self.stealth))
        elif key == "attack_cell":
            self.submit(cmd.Attack(unit, at=cell))
        elif key == "throw_cell":
            self.submit(cmd.Throw(unit, at=cell))

    # ------------------------------------------------------------ events

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self._last_mouse = event.pos
            self._mouse_in = True
        elif event.type == pygame.WINDOWLEAVE:
            self._mouse_in = False
        if self.seats.waiting_for is not None:
            # The battle is covered: only the person it passes to, taking the screen, counts.
            if event.type == pygame.KEYDOWN and self.keys.matches("end_turn", event.key):
                self._take_screen()
            return
        consumed = self.ui.process_events(event)
        if self.gm_panel is not None and self.gm_panel.handles(event):
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            self._button(event.ui_element)
            return
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            self._dropdown(event.ui_element, event.text)
            return
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and self.prompt is not None:
            self._answer("ok")
            return
        if event.type in (pygame.KEYDOWN, pygame.KEYUP):
            self.alt = bool(pygame.key.get_mods() & pygame.KMOD_ALT) or (
                event.type == pygame.KEYDOWN and event.key in (pygame.K_LALT, pygame.K_RALT)
            )
        if event.type == pygame.KEYDOWN:
            self._key(event)
            return
        if consumed:
            return
        if event.type == pygame.MOUSEWHEEL and self.board.viewport.collidepoint(self._last_mouse):
            self.board.camera.zoom_at(1 if event.y > 0 else -1, *self._last_mouse)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            if self.menu is not None and not self.menu.contains(event.pos):
                self._close_menu()
                return
            if event.button in (1, 2) and self.board.viewport.collidepoint(event.pos):
                self._press = event.pos
                self._dragging = event.button == 2
            elif event.button == 3 and self.prompt is None:
                self._open_menu(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and self._press is not None:
            if not self._dragging and event.button == 1 and self.prompt is None:
                self._click(event.pos)
            self._press = None
            self._dragging = False
        elif event.type == pygame.MOUSEMOTION:
            if self._press is not None:
                dx, dy = event.pos[0] - self._press[0], event.pos[1] - self._press[1]
                if self._dragging or abs(dx) + abs(dy) > DRAG_START:
                    self._dragging = True
                    self.board.camera.pan(-event.rel[0], -event.rel[1])
            self._hover(event.pos)

    def _button(self, element: object) -> None:
        if self.prompt is not None:
            key = self.prompt.key_for(element)
            if key is not None:
                self._answer(key)
            return
        if self.menu is not None:
            key = self.menu.key_for(element)
            if key is not None:
                self._menu_choice(key)
                return
        kind = self.bar.kind_for(element)
        if kind is not None:
            self._action(kind)
            return
        unit = self.tracker.unit_for(element)
        if unit is not None:
            cell = self._unit_cell(unit)
            if cell is not None:
                self.board.set_level(cell[2])
                self.board.show_cell(cell)
            return
        side = self.side
        if side.gm is not None and element is side.gm:
            self._gm_button()
            return
        if element is side.level_up:
            self._change_level(1)
        elif element is side.level_down:
            self._change_level(-1)
        elif element is side.fit:
            self.board.camera.fit()
        elif element is side.stealth:
            self._toggle_stealth()
        elif element is side.copy:
            clipboard_copy(self.log_text())
            self.status = _("The log is on the clipboard.")
            self.bar.set_status(self.status)

    def _dropdown(self, element: object, text: str) -> None:
        side = self.side
        if element is side.filter:
            chosen = getattr(element, "selected_option", (text, "all"))
            self.log.set_filter(chosen[1] if isinstance(chosen, tuple) else "all")
            self.log.show(self.side)
        elif side.mode is not None and element is side.mode:
            chosen = getattr(element, "selected_option", (text, "auto"))
            self.mode = chosen[1] if isinstance(chosen, tuple) else None
            self._refresh_reach()
            self._hover_key = ()

    def _toggle_stealth(self) -> None:
        self.stealth = not self.stealth
        self._refresh_reach()
        self._refresh_widgets()
        self._hover_key = ()

    def _change_level(self, step: int) -> None:
        self.board.set_level(self.board.level + step)
        self.board.set_fog(
            None if self.view.factions is None else self.view.seen,
            None if self.view.factions is None else self.view.remembered,
        )
        self._refresh_reach()
        self._refresh_widgets()
        self._hover_key = ()

    def _key(self, event: pygame.event.Event) -> None:
        k = self.keys
        key = event.key
        if self.prompt is not None:
            if self.prompt_kind == "reaction" and k.matches("take", key):
                self._answer("take")
            elif self.prompt_kind == "reaction" and k.matches("let_go", key):
                self._answer("let_go")
            elif k.matches("cancel", key) and self.prompt_kind != "reaction":
                self._close_prompt()
            return
        if self.ui.get_focus_set():
            return  # typing in a text field
        if k.matches("cancel", key):
            if self.menu is not None:
                self._close_menu()
            elif self.plan is not None:
                self.plan = None
            elif self.targeting is not None:
                self.targeting = None
            else:
                self._pause()
                return
            self.status = ""
            self._hover_key = ()
            self.bar.set_status(self._status_line())
            return
        if k.matches("confirm", key):
            if self.plan is not None:
                self.submit(self.plan.command)
            return
        if k.matches("level_up", key):
            self._change_level(1)
            return
        if k.matches("level_down", key):
            self._change_level(-1)
            return
        if k.matches("fit", key):
            self.board.camera.fit()
            return
        if k.matches("next_unit", key):
            self._next_unit()
            return
        if k.matches("stealth", key):
            self._toggle_stealth()
            return
        if k.matches("mode", key):
            self._cycle_mode()
            return
        if event.mod & pygame.KMOD_CTRL and key == pygame.K_z:
            self._undo()
            return
        for kind, _needs in opts.KINDS:
            if k.matches(kind, key):
                self._action(kind)
                return

    def _cycle_mode(self) -> None:
        modes = ["auto"] + ([*self.reach.allowance.budgets] if self.reach is not None else [])
        current = self.mode or "auto"
        self.mode = modes[(modes.index(current) + 1) % len(modes)] if current in modes else "auto"
        self._refresh_reach()
        self._refresh_widgets()
        self._hover_key = ()

    def _next_unit(self) -> None:
        own = [u.id for u in self.view.units if self.is_own(u.id)]
        if not own:
            return
        i = own.index(self.selected) + 1 if self.selected in own else 0
        self.selected = own[i % len(own)]
        self.refresh(follow=True)

    def _undo(self) -> None:
        try:
            refusal = self.session.undo(self.player)
        except JournalError as exc:
            self._journal_failed(exc)
            return
        self.status = "" if refusal is None else refusal_text(refusal)
        self.animator.finish()
        self.refresh()

    def _journal_failed(self, exc: JournalError) -> None:
        """The journal could not take a line (a full disk: the battle stays as it was saved,
        and may go on once there is room) or its past is not what it says: say so."""
        if isinstance(exc, JournalWriteError):
            if exc.error.errno == errno.ENOSPC:
                text = _("The disk is full; the battle is saved up to command {n}.")
            else:
                text = _("The save cannot be written; the battle is saved up to command {n}.")
            self.status = text.format(n=exc.saved)
        else:
            self.status = str(exc)
        self.animator.finish()
        self.refresh()

    # ------------------------------------------------------------ time

    def update(self, dt: float) -> None:
        self.ui.update(dt)
        self.animator.update(dt)
        self.log.show(self.side)
        self._pan(dt)
        if self.animator.busy:
            return
        if self.seats.waiting_for is None and self.seats.check(self.battle):
            self._cover()
        if self.seats.waiting_for is not None:
            return
        if self.prompt is None and (self._my_reaction() or self._gm_ruling_due()):
            self._check_prompt()
        self._computer(dt)
        self._update_previews()
        self._update_tooltip()

    def _pan(self, dt: float) -> None:
        if self.ui.get_focus_set():
            return
        pressed = pygame.key.get_pressed()
        dx = dy = 0
        for key, (kx, ky) in PAN_KEYS.items():
            if pressed[key]:
                dx, dy = dx + kx, dy + ky
        if self._mouse_in and pygame.mouse.get_focused() and self.prompt is None:
            mx, my = self._last_mouse
            w, h = self.size
            if 0 <= mx < EDGE:
                dx -= 1
            elif w - EDGE <= mx < w and mx < w:
                dx += 1
            if 0 <= my < EDGE:
                dy -= 1
            elif h - EDGE <= my < h:
                dy += 1
        if dx or dy:
            self.board.camera.pan(dx * PAN_SPEED * dt, dy * PAN_SPEED * dt)

    def _computer(self, dt: float) -> None:
        b = self.battle
        if b.over:
            return
        actor = b.pending.reactor if b.pending is not None else b.active
        if actor is None or b.controller_of_unit(actor) != "computer":
            return
        self._computer_wait += dt
        if self._computer_wait < COMPUTER_PAUSE * (1 if self.animator.speed > 0 else 0):
            return
        self._computer_wait = 0.0
        before = self.view
        outcomes: list[Outcome] = []
        paths: list[Sequence[Cell]] = []
        try:
            self.session.play_computer(
                lambda _by, _c, o: outcomes.append(o),
                limit=1,
                before=lambda c: paths.append(self._path_of(c)),
            )
        except JournalError as exc:
            self._journal_failed(exc)
            self._computer_wait = -COMPUTER_RETRY  # try again later: the disk may have room
            return
        for outcome, path in zip(outcomes, paths, strict=False):
            self._animate(outcome.events, before, path)
        if not outcomes:
            self.refresh()

    # ------------------------------------------------------------ drawing

    def tokens(self) -> list[Token]:
        out = []
        active = self.view.active
        for u in self.view.units:
            if "dead" in u.wounds.get("conditions", ()):
                continue
            out.append(
                Token(
                    u.id,
                    u.cell,
                    self.colour_of(u.faction),
                    u.stance,
                    u.wounds,
                    u.own,
                    active=u.id == active,
                    selected=u.id == self.selected,
                )
            )
        for unit, cell in self.view.ghosts:
            colour = self.colour_of(self.view.sides.get(unit, ""))
            out.append(Token(unit, cell, colour, "standing", {}, False, ghost=True))
        return out

    def draw(self, screen: pygame.Surface) -> None:
        if self.seats.waiting_for is not None:
            self.seats.draw_handover(screen)
            return
        screen.fill((12, 13, 16))
        overlay = self._overlay if not self.animator.busy else Overlay()
        self.board.draw(screen, self.tokens(), overlay, self.animator.positions())
        clip = screen.get_clip()
        screen.set_clip(self.board.viewport)
        self.animator.draw(screen, self.board.cell_centre)
        screen.set_clip(clip)
        self.ui.draw_ui(screen)

    def _update_tooltip(self) -> None:
        """Alt held over a target: the full breakdown beside the pointer."""
        want = self.alt and bool(self._details)
        if not want:
            if self._tooltip is not None:
                self._tooltip.kill()
                self._tooltip = None
            return
        text = "<br>".join(hud.esc(d) for d in self._details)
        if self._tooltip is not None and getattr(self._tooltip, "_tessera_text", "") == text:
            return
        if self._tooltip is not None:
            self._tooltip.kill()
        x, y = self._last_mouse
        rows = sum(1 + len(d) // 52 for d in self._details)
        rect = pygame.Rect(x + 18, y + 12, 420, 20 + 20 * rows).clamp(self.board.viewport)
        self._tooltip = pygame_gui.elements.UITextBox(
            text, rect, manager=self.ui, starting_height=20
        )
        self._tooltip._tessera_text = text  # type: ignore[attr-defined]


def _wounds(view: PlayerView, unit: str) -> list[str]:
    """The wounds a medkit could treat on a unit the player sees, gravest first."""
    seen = view.unit(unit)
    if seen is None:
        return []
    return [w for w in ("mortal", "grave", "light") if seen.wounds.get(w)]


def _worst_wound(view: PlayerView, unit: str) -> str:
    wounds = _wounds(view, unit)
    return wounds[0] if wounds else "light"
