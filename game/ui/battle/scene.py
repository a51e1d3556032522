"""The battle screen: the board and the widgets, wired to the parts that do its jobs.

Everything shown comes from the player's view (game/battle/view.py) and the previews
(game/battle/preview.py, game/battle/options.py); every change is a command given to the session.
The computer's turns are stepped one command at a time so that they can be watched. The mouse and
keys are read in input.py, commands aimed and given in orders.py, questions asked in prompts.py,
the pointer's previews and the tokens kept in state.py.
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Sequence

import pygame

from game.battle import commands as cmd
from game.battle import options as opts
from game.battle import preview
from game.battle.engine import GM, Battle, Outcome, Refusal
from game.battle.journal import JournalError, JournalWriteError
from game.battle.session import Session
from game.battle.view import PlayerView, view_for
from game.grid.model import Cell
from game.maps import RenderMap
from game.text import explain, names
from game.text.bounds import clip as clip_text
from game.text.explain_battle import refusal_text
from game.text.i18n import _
from game.ui import guide, hud
from game.ui.aim import Aim
from game.ui.anim import Animator
from game.ui.battle.input import Input
from game.ui.battle.orders import LABELS, Orders, label_of
from game.ui.battle.prompts import Prompts
from game.ui.battle.state import Pointer
from game.ui.battle.worker import Worker
from game.ui.board import FRAME_CHUNKS, NEUTRAL_COLOUR, Board, Overlay, Token, faction_colours
from game.ui.field_badge import FieldBadge
from game.ui.gm_panel import GmAct, GmPanel
from game.ui.guide import Guide
from game.ui.keys import KeyMap
from game.ui.log_panel import Log
from game.ui.seats import Seats

#: Seconds between two of the computer's commands, so that a person can follow them.
COMPUTER_PAUSE = 0.35
#: Seconds before the computer tries again after its journal line could not be written.
COMPUTER_RETRY = 5.0


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
        worker: Worker | None = None,
        guide: bool = False,
        on_guide_seen: Callable[[], None] | None = None,
    ) -> None:
        #: The Director (game/ui/launch.py) that leads back to the menus; None in tests.
        self.director = director
        #: Runs the commands (and the fog and sightings after them) and the computer's turns:
        #: on its own thread in the window (game/ui/launch.py), at once where none is given.
        #: While it is busy the battle is its own: this scene reads only its last view.
        self.worker = worker if worker is not None else Worker(threaded=False)
        #: Events that came while the worker was busy, handled once its result is shown.
        self._deferred: list[pygame.event.Event] = []
        self.session = session
        self.player = player
        self.keys = keys or KeyMap()
        self.colours = faction_colours(session.setup.factions)
        self.side_index = {f: i for i, f in enumerate(session.setup.factions)}
        self.ui = hud.manager(size, self.colours)
        self.size = size
        self.board = Board(render, self._viewport(size), frame_chunks=FRAME_CHUNKS)
        self._build_widgets(size)
        self.animator = Animator(animation_speed)
        self.pointer = Pointer(self)
        self.orders = Orders(self)
        self.prompts = Prompts(self)
        self.input = Input(self)
        self.selected: str | None = None
        self.status = ""
        self.reach: preview.ReachPreview | None = None
        self._computer_wait = 0.0
        self.seats = Seats(session.battle, player)
        if self.seats.hands_over(session.battle):
            # A battle at a shared screen opens covered, for `player` to take on purpose: never
            # straight into a view (the GM's all-seeing one least of all) nobody has claimed.
            self.seats.cover(player)
        self._noted = -1
        self.gm_panel: GmPanel | None = None
        self._gm_table: opts.GmTable | None = None
        self.view: PlayerView = view_for(self.battle, player)
        self.log = Log(self.view.log, self.battle.ruleset.initiative_text)
        self._log_waits = False
        self._open_on_own_level()
        self.refresh(follow=True)
        self.focus_start()
        self.log.show(self.side)
        self._log_waits = False
        #: The first battle's guide (game/ui/guide.py) while it is open; `?` opens it again.
        self.guide: Guide | None = None
        self._on_guide_seen = on_guide_seen
        if guide:
            self.open_guide()

    def open_guide(self) -> None:
        """Show the guide over the board (again)."""
        if self.guide is None:
            self.guide = Guide(self.ui, self.board.viewport, self._guide_sides())

    def _guide_sides(self) -> str:
        """The guide's first line: the sides this seat leads, and who leads the others."""
        b = self.battle
        yours = () if self.player == GM else tuple(sorted(b.factions_of(self.player)))
        others = tuple(f for f in b.setup.factions if f not in yours)
        computer = tuple(f for f in others if b.controller_of(f) == "computer")
        return guide.sides_line(yours, computer, others)

    def close_guide(self) -> None:
        """Dismiss the guide; the first time, the settings remember it was seen."""
        if self.guide is not None:
            self.guide.close()
            self.guide = None
            if self._on_guide_seen is not None:
                self._on_guide_seen()
                self._on_guide_seen = None

    def focus_start(self) -> None:
        """Open on the acting unit (else the selected one, else one of the player's), zoomed in
        where a token reads at a glance — not the whole map at 16 px a cell."""
        shown = {u.id for u in self.view.units}
        own = [u.id for u in self.view.units if u.own]
        candidates = [self.view.active, self.selected, *own]
        unit = next((u for u in candidates if u is not None and u in shown), None)
        cell = self.unit_cell(unit) if unit is not None else None
        if cell is None:
            self.board.camera.fit()
            return
        self.board.set_level(cell[2])
        self.board.focus(cell)
        self._show_fog()
        self.refresh_reach()
        self.refresh_widgets()

    def _open_on_own_level(self) -> None:
        """Show the level where most of the player's units stand."""
        own = [u.cell for u in self.view.units if u.own]
        if own:
            self.board.set_level(max({c[2] for c in own}, key=[c[2] for c in own].count))

    def _note_save(self) -> None:
        """Keep the save's summary (round, who acts) beside its journal for the load screen."""
        writer = self.session.writer
        if writer is not None and len(self.session.history) != self._noted:
            from game.app.saves import write_meta

            write_meta(writer.path, self.session)
            self._noted = len(self.session.history)

    # ------------------------------------------------------------ what tests and benches drive

    def handle(self, event: pygame.event.Event) -> None:
        if self.worker.busy:
            self._deferred.append(event)
            return
        self.input.handle(event)

    def submit(self, command: cmd.Command) -> Outcome:
        """Give a command as this player and wait for it; animate what it caused, or say why
        not. (The window's own clicks and keys do not wait: `Orders.submit`.)"""
        given: list[Outcome] = []
        self.orders.submit(command, given.append)
        self.worker.wait()
        return given[0] if given else Outcome()

    def _collect(self) -> None:
        """Show what the worker finished, then handle the events that waited for it."""
        if self.worker.poll():
            waiting, self._deferred = self._deferred, []
            for event in waiting:
                self.handle(event)  # deferred again, in order, if one starts a new job

    def hover(self, pos: tuple[int, int]) -> None:
        """The pointer is at `pos` (a screen point)."""
        self.pointer.hover(pos)

    def refresh_previews(self) -> None:
        """Work out the previews for the pointer's place, if what they show changed."""
        self.pointer.previews()

    def hover_text(self) -> str:
        """The previews' text as the side panel shows it."""
        return self.side.text("hover")

    def answer(self, key: str) -> None:
        """Answer the open prompt as its button with this key would."""
        self.prompts.answer(key)

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
        #: The battlefield's conditions at the board's top edge, for every seat (issue 15).
        self.field_badge = FieldBadge(self.ui, pygame.Rect(self._viewport(size)))

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.ui.clear_and_reset()
        self.ui.set_window_resolution(size)
        details = self.side.details_on
        self._build_widgets(size)
        if details:  # the log's Details stay on across a resize
            self.side.toggle_details()
        # The new log box is empty: fill it again, unfiltered.
        self.log = Log(self.log.events, self.log.initiative)
        self.orders.menu = None
        self.prompts.prompt = None
        self.board.set_viewport(self._viewport(size))
        if self.guide is not None:  # its widgets went with the others: lay it out anew
            self.guide = Guide(self.ui, self.board.viewport, self._guide_sides())
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
        if self.worker.busy:
            return  # the battle is the worker's; its result ends in a refresh
        self.pointer.version += 1
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
            self.show_unit(self.selected)
        self._show_fog()
        self.refresh_reach()
        self.refresh_widgets()
        self._sync_gm_panel()
        if self.pointer.inside:
            self.pointer.hover(self.pointer.last_mouse)
        self.pointer.changed()
        self.prompts.check()

    def show_unit(self, unit: str) -> None:
        """Bring a unit the player sees into view, on its level."""
        cell = self.unit_cell(unit)
        if cell is not None:
            self.board.set_level(cell[2])
            self.board.show_cell(cell)

    def _show_fog(self) -> None:
        self.board.set_fog(
            None if self.view.factions is None else self.view.seen,
            None if self.view.factions is None else self.view.remembered,
        )

    def unit_cell(self, unit: str) -> Cell | None:
        for u in self.view.units:
            if u.id == unit:
                return u.cell
        return None

    def acting(self) -> str | None:
        """The selected unit if it may act now for this player."""
        unit = self.selected
        if unit is None or not self.is_own(unit):
            return None
        if opts.who_may_order(self.battle, self.player, unit) is not None:
            return None
        return unit

    def refresh_reach(self) -> None:
        unit = self.acting()
        self.reach = None
        if unit is not None:
            self.reach = preview.reach(
                self.battle,
                self.player,
                unit,
                self.orders.move_mode(),
                stealth=self.orders.stealth,
            )
        if self.reach is not None:
            limit = max(self.reach.allowance.budgets.values(), default=1)
            self.board.set_reach(self.reach.cells, self.reach.dash_cells, limit)
        else:
            self.board.set_reach({}, {}, 1)

    def refresh_widgets(self) -> None:
        b = self.battle
        chips = []
        for unit, total in self.view.order:
            faction = self.view.sides.get(unit, "")
            # The ruleset words its order (fantasy: AGI and DES dice, not the order key).
            text = unit if total is None else f"{unit} {b.ruleset.initiative_text(total)}"
            chips.append(
                hud.Chip(
                    unit,
                    text,
                    self.side_index.get(faction, 0),
                    unit == self.view.active,
                    names.side_name(faction) if faction else "",
                    unit,
                )
            )
        self.tracker.show(self.view.round, chips, self.budget_text())
        self.field_badge.show(self.view.conditions, self.view.field_effects)
        acting = self.acting()
        actions = []
        self.orders.options = (
            {} if acting is None else {o.kind: o for o in opts.options_for(b, self.player, acting)}
        )
        if acting is not None:
            for option in self.orders.options.values():
                actions.append(
                    hud.ActionButton(
                        option.kind,
                        f"{label_of(option)} ({self.keys.label(option.kind)})",
                        self.keys.label(option.kind),
                        option.allowed,
                        "" if option.refusal is None else refusal_text(option.refusal),
                        label_of(option),
                    )
                )
        self.bar.show(actions)
        self.bar.set_status(self.status_line())
        self.side.set_html(self.side.unit, "unit", self.unit_html(self.selected))
        self.side.level_label.set_text(
            names.level_name(self.board.level, self.board.levels.level_count)
        )
        modes = [(_("Auto"), "auto")]
        if self.reach is not None:
            modes += [(explain.mode_name(m), m) for m in self.reach.allowance.budgets]
        self.side.set_modes(modes, self.orders.mode or "auto")
        self.side.stealth.set_text(_("Stealth: on") if self.orders.stealth else _("Stealth: off"))
        # The log's new entries are laid out on the next frame (`update`): the tracker, the bar
        # and the panel above take this one (issue 18: no frame pays for all of them).
        self._log_waits = True

    def turn_banner(self) -> tuple[str, tuple[int, int, int]] | None:
        """Whose turn it is, for the top of the board, in the acting side's colour."""
        active = self.view.active
        if self.view.over:
            return None
        if active is None:
            return _("An unseen unit is acting"), NEUTRAL_COLOUR
        colour = self.colour_of(self.view.sides.get(active, ""))
        if self.is_own(active) and self.player != GM:
            return _("Your turn: {unit}").format(unit=clip_text(active, 24)), colour
        return _("{unit}'s turn").format(unit=clip_text(active, 24)), colour

    def budget_text(self) -> str:
        """The acting unit's turn so far, slot by slot of its ruleset's turn (the top bar)."""
        active = self.view.active
        if active is None:
            return ""
        unit = self.view.unit(active)
        if unit is None or unit.turn is None:
            return _("Acting: {unit}").format(unit=active)
        turn = unit.turn
        used, free = _("used"), _("free")
        # Only the slots the ruleset's turn has (a Myst or fantasy turn has no interaction).
        slots = self.battle.ruleset.turn_budget().slots
        parts = [_("moved {n}").format(n=turn["movement_spent"])]
        if "action" in slots:
            parts.append(_("action {state}").format(state=used if turn["action"] else free))
        if "interaction" in slots:
            state = used if turn["interaction_used"] else free
            parts.append(_("interaction {state}").format(state=state))
        if "reaction" in slots:
            state = used if turn["reaction_used"] else free
            parts.append(_("reaction {state}").format(state=state))
        return " · ".join(parts)

    def status_line(self) -> str:
        plan, targeting = self.orders.plan, self.orders.targeting
        if self.status:
            return self.status
        if plan is not None:
            return plan.text + " — " + _("click again or press Space; Esc cancels")
        if self.view.over:
            winner = self.view.winner
            return (
                _("The combat is over: {winner} win.").format(winner=names.side_name(winner))
                if winner
                else _("The combat is over.")
            )
        active = self.view.active
        if self.view.pending is not None and not self.prompts.my_reaction():
            return _("Waiting for a reaction…")
        if active is None:
            return _("An unseen unit is acting…")
        if not self.is_own(active):
            return _("{unit} is acting…").format(unit=active)
        if targeting and targeting != "move":
            return _("{action}: choose a target (Esc cancels)").format(action=LABELS[targeting]())
        return _("{unit}: click a cell to move, an enemy to attack; right-click for more").format(
            unit=active
        )

    def aim(self) -> Aim:
        """The player's situation, for the previews (game/ui/aim.py)."""
        return Aim(
            self.battle, self.player, self.view, self.session.rules, self.orders.options,
            self.orders.move_mode(), self.orders.stealth, self.pointer.alt,
        )  # fmt: skip

    def unit_html(self, unit: str | None) -> str:
        if unit is None:
            return hud.esc(_("No unit selected. Click one of yours, or Tab."))
        allowance = ""
        if unit == self.acting() and self.reach is not None:
            budgets = self.reach.allowance.budgets.items()
            allowance = ", ".join(f"{explain.mode_name(m)} {p}" for m, p in budgets) or "0"
        return self.aim().card(unit, allowance)

    def log_text(self) -> str:
        """The log as plain text, as the Copy button puts it on the clipboard."""
        return self.log.text()

    # ------------------------------------------------------------ the view's level and units

    def change_level(self, step: int) -> None:
        self.board.set_level(self.board.level + step)
        self._show_fog()
        self.refresh_reach()
        self.refresh_widgets()
        self.pointer.changed()

    def next_unit(self) -> None:
        own = [u.id for u in self.view.units if self.is_own(u.id)]
        if not own:
            return
        i = own.index(self.selected) + 1 if self.selected in own else 0
        self.selected = own[i % len(own)]
        self.refresh(follow=True)

    def undo(self) -> None:
        """Take back this player's last command, if the battle lets them."""
        player = self.player
        self._rewind(lambda: self.session.undo(player))

    def _rewind(self, work: Callable[[], Refusal | None]) -> None:
        """An undo or a redo, on the worker (the battle is rebuilt from a snapshot: up to a
        hundred commands replayed); then the view is read again."""

        def rewind() -> Refusal | JournalError | None:
            try:
                return work()
            except JournalError as exc:
                return exc

        def rewound(result: Refusal | JournalError | None) -> None:
            if isinstance(result, JournalError):
                self.journal_failed(result)
                return
            self.status = "" if result is None else refusal_text(result)
            self.animator.finish()
            self.refresh()

        self.worker.run(rewind, rewound)

    def journal_failed(self, exc: JournalError) -> None:
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
        self._collect()
        self.ui.update(dt)
        self.animator.update(dt)
        self.log.set_details(self.pointer.alt or self.side.details_on)
        if self._log_waits:
            self._log_waits = False
        else:
            self.log.show(self.side)
        self.input.pan(dt)
        if self.seats.waiting_for is not None:
            if self.seats.update(dt):
                self.take_screen()
            return
        if self.animator.busy or self.worker.busy:
            return
        if self.seats.waiting_for is None and self.seats.check(self.battle):
            self._cover()
        if self.seats.waiting_for is not None:
            return
        if self.prompts.prompt is None and (
            self.prompts.my_reaction() or self.prompts.ruling_due()
        ):
            self.prompts.check()
        self._computer(dt)
        self.pointer.previews()
        self.pointer.tooltip()

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

        def play() -> JournalError | None:  # on the worker's thread: the battle is its own
            try:
                self.session.play_computer(
                    lambda _by, _c, o: outcomes.append(o),
                    limit=1,
                    before=lambda c: paths.append(self.orders.path_of(c)),
                )
            except JournalError as exc:
                return exc
            return None

        def played(failure: JournalError | None) -> None:
            if failure is not None:
                self.journal_failed(failure)
                self._computer_wait = -COMPUTER_RETRY  # try again later: the disk may have room
                return
            for outcome, path in zip(outcomes, paths, strict=False):
                self.orders.animate(outcome.events, before, path)
            if not outcomes:
                self.refresh()

        self.worker.run(play, played)

    # ------------------------------------------------------------ the table: hand-over, the GM

    def _cover(self) -> None:
        """The screen is passing to someone else: put away everything of this view."""
        self.prompts.close()
        self.orders.drop()
        self.pointer.put_away()
        self._sync_gm_panel()

    def take_screen(self) -> None:
        """The person the screen passes to takes it (the cover's button, or Enter held)."""
        self.player = self.seats.take()
        self.ui.set_focus_set(None)  # the keys are the board's
        self.session.seen_by(self.player)  # what this player now sees, no other may undo
        self.selected = None
        self.status = ""
        self.orders.stealth = False
        self.orders.mode = None
        self.view = view_for(self.battle, self.player)
        self.log = Log(self.view.log, self.battle.ruleset.initiative_text)
        self._log_waits = False
        self._open_on_own_level()
        self.refresh(follow=True)
        self.focus_start()
        self.log.show(self.side)
        self._log_waits = False

    def gm_button(self) -> None:
        """The side panel's GM button: call the GM to the screen, or (as the GM) give it back."""
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
            self.gm_panel = GmPanel(self.ui, self.board.viewport, table, players, self.gm_act)
        self._gm_table = table

    def gm_act(self, act: GmAct) -> None:
        """What the GM's tools ask for: a command, an override of the dice, an undo or redo."""
        if act.command is not None:
            self.orders.submit(act.command)
            return
        if act.session != "override":
            rewind = self.session.undo if act.session == "undo" else self.session.redo
            self._rewind(lambda: rewind(GM))
            return
        before = self.view

        def override() -> Outcome | JournalError:
            try:
                return self.session.override(act.faces, GM)
            except JournalError as exc:
                return exc

        def overridden(result: Outcome | JournalError) -> None:
            if isinstance(result, JournalError):
                self.journal_failed(result)
            elif result.refusal is not None:
                self.status = refusal_text(result.refusal)
                self.refresh()
            else:
                self.orders.animate(result.events, before, ())

        self.worker.run(override, overridden)

    # ------------------------------------------------------------ drawing

    def tokens(self) -> list[Token]:
        return self.pointer.tokens()

    def draw(self, screen: pygame.Surface) -> None:
        if self.seats.waiting_for is not None:
            self.seats.draw_handover(screen)
            return
        screen.fill((12, 13, 16))
        overlay = self.pointer.overlay if not self.animator.busy else Overlay()
        self.board.draw(screen, self.tokens(), overlay, self.animator.positions())
        clip = screen.get_clip()
        screen.set_clip(self.board.viewport)
        self.animator.draw(screen, self.board.cell_centre)
        banner = self.turn_banner()
        if banner is not None:
            self.board.draw_banner(screen, *banner)
        screen.set_clip(clip)
        self.ui.draw_ui(screen)
