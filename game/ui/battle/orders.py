"""Giving commands on the battle screen: aiming one and confirming it, the action bar and its
keys, the right-click menu, and showing what a command caused."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.battle import commands as cmd
from game.battle import options as opts
from game.battle import preview
from game.battle.engine import Outcome
from game.battle.events import Event
from game.battle.journal import JournalError
from game.battle.outcome import Refusal
from game.battle.reasons import Why
from game.battle.view import PlayerView, told, view_for
from game.grid.model import Cell
from game.tactics.answers import HitAnswer
from game.tactics.ruleset import damage_shaper, defence_counters
from game.text import explain
from game.text.card_words import state_name
from game.text.explain_battle import cell_text, refusal_text, why_text
from game.text.i18n import _
from game.ui import hud
from game.ui.aim import plain
from game.ui.anim import Beat, beat_for

if TYPE_CHECKING:
    from game.ui.battle.scene import BattleScene

LABELS = {
    "move": lambda: _("Move"),
    "five_foot_step": lambda: _("5-foot step"),
    "attack": lambda: _("Attack"),
    "throw": lambda: _("Throw"),
    "reload": lambda: _("Reload"),
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
    "aim": lambda: _("Aim"),
    "hasty": lambda: _("Act hastily"),
    "delay": lambda: _("Delay"),
    "react_stance": lambda: _("Dodge/parry on-off"),
    "fire_mode": lambda: _("Bursts on-off"),
    "break_grab": lambda: _("Break the grab"),
    "coup_de_grace": lambda: _("Coup de grâce"),
}
#: A standing choice's button with its value now (issue 15/17: the table sees it, not only
#: the log line after a change), by the round rules' code (`Option.now`).
NOW_LABELS = {
    ("react_stance", "always"): lambda: _("Dodge: always"),
    ("react_stance", "after_acting"): lambda: _("Dodge: after turn"),
    ("react_stance", "never"): lambda: _("Dodge: never"),
    ("fire_mode", "burst"): lambda: _("Bursts: on"),
    ("fire_mode", "single"): lambda: _("Bursts: off"),
}
_STANCE_OF = {"crouch": "crouched", "prone": "prone", "stand": "standing"}
#: A move's refusals that are about the cell itself: no way of going there makes it a place.
_NOWHERE = frozenset({Why.NO_LANDING, Why.OUTSIDE_MAP})


def label_of(option: opts.Option) -> str:
    """An option's label on the bar and in the menu: a standing choice's with its value now,
    as the battle reads it (`Option.now`); the command's own label otherwise."""
    now = NOW_LABELS.get((option.kind, option.now or ""))
    return LABELS[option.kind]() if now is None else now()


@dataclass(frozen=True)
class Plan:
    """A command aimed and waiting for its confirmation (a second click or Space)."""

    command: cmd.Command
    text: str
    target: Cell | str


class Orders:
    """What the player is about to order: the aimed command, the action chosen, the movement
    mode and stealth, the right-click menu."""

    def __init__(self, scene: BattleScene) -> None:
        self.scene = scene
        self.plan: Plan | None = None
        self.targeting: str | None = None
        self.mode: str | None = None
        self.stealth = False
        self.menu: hud.ContextMenu | None = None
        #: The acting unit's options as the action bar shows them.
        self.options: dict[str, opts.Option] = {}
        self._menu_target: tuple[str | None, Cell] | None = None

    def move_mode(self) -> str | None:
        """The movement mode chosen, None for the automatic one."""
        return None if self.mode in (None, "auto") else self.mode

    def drop(self) -> None:
        """Forget what was being aimed (the screen passes to someone else)."""
        self.close_menu()
        self.plan = None
        self.targeting = None

    # ------------------------------------------------------------ giving commands

    def attack_at(self, unit: str, target: str) -> cmd.Attack:
        """The player's attack on `target`: under a ruleset whose hits leave a choice after
        the dice (Myst's margin, M-1) the battle waits for it, asked in a prompt."""
        shapes = damage_shaper(self.scene.battle.ruleset) is not None
        return cmd.Attack(unit, target=target, margin="ask" if shapes else None)

    def submit(self, command: cmd.Command, then: Callable[[Outcome], None] | None = None) -> None:
        """Give a command as this player; animate what it caused, or say why not. The command,
        the fog and the sightings after it are the scene's worker's: this returns at once, and
        what came of it is shown (and handed to `then`) when it is ready."""
        s = self.scene
        self.plan = None
        s.status = ""
        s.bar.set_status("")
        self.close_menu()
        before = s.view
        path = self.path_of(command)
        player = s.player

        def give() -> Outcome | JournalError:  # on the worker's thread: the battle is its own
            try:
                return s.session.submit(command, player)
            except JournalError as exc:
                return exc

        def given(result: Outcome | JournalError) -> None:
            if isinstance(result, JournalError):
                s.journal_failed(result)
                result = Outcome()  # nothing shown: the battle is as its journal saved it
            elif result.refusal is not None:
                s.status = self.refused_here(result.refusal, getattr(command, "to", None))
                s.refresh()
            else:
                s.status = ""
                self.targeting = None
                self.animate(result.events, before, path)
            if then is not None:
                then(result)

        s.worker.run(give, given)

    def animate(self, events: Sequence[Event], before: PlayerView, path: Sequence[Cell]) -> None:
        """Beats for what the player may see of these events (a move slides along `path`, taken
        before the move was made); the view updates after them."""
        s = self.scene
        factions = s.factions()
        # What this player may read of them: units and fields they did not see are blanked.
        visible = [told(e, factions) for e in events if e.visible_to(factions)]
        after = view_for(s.battle, s.player)
        seen_before = {u.id: u.cell for u in before.units}
        seen_after = {u.id: u.cell for u in after.units}
        for event in visible:
            beat = beat_for(event, seen_before, seen_after, path, s.is_own)
            beat.done = lambda e=event: s.log.add(e)
            s.animator.add(beat)
        s.animator.add(Beat(0.0, done=s.refresh))

    def path_of(self, command: cmd.Command) -> Sequence[Cell]:
        """The cells a move will walk, asked before it is made (for its animation)."""
        if not isinstance(command, cmd.Move):
            return ()
        s = self.scene
        known = preview.path(
            s.battle, s.player, command.unit, command.to, command.via, command.mode
        )
        return () if known is None else known.cells

    def default_kind(self, unit: str, target: Cell | str) -> str:
        """What the aim is for: the planned command, the chosen one, or what a click does."""
        if self.plan is not None:
            return self.plan.command.KIND if self.plan.command.KIND != "use_object" else "help"
        if self.targeting is not None:
            return self.targeting
        return self.scene.aim().kind_for(unit, target)

    def refused_here(self, refusal: Refusal, cell: Cell | None) -> str:
        """A refusal as the status line says it: "the marked cell" for the cell aimed at and no
        ruling ids, unless Alt is held (docs/window.md)."""
        alt = self.scene.pointer.alt
        values = dict(refusal.values)
        at = values.get("at")
        if not alt and cell is not None and isinstance(at, list | tuple) and tuple(at) == cell:
            values["at"] = _("the marked cell")
        text = plain(why_text(str(refusal.code), values), alt)
        return text[:1].upper() + text[1:]

    def aim(self, command: cmd.Command, text: str, target: Cell | str) -> None:
        """Aim a command; the same aim again gives it. A command the bar already refuses, or
        an attack the preview gives no chance, is explained instead of aimed."""
        s = self.scene
        if self.plan is not None and self.plan.command == command:
            self.submit(command)
            return
        unit = getattr(command, "unit", None)
        kind = "stance" if command.KIND == "stance" else command.KIND
        option = self.options.get(kind)
        why: str | None = None
        if option is not None and option.refusal is not None:
            why = refusal_text(option.refusal)
        elif isinstance(command, cmd.Attack) and command.target is not None and unit:
            shot = preview.attack(s.battle, s.player, unit, command.target)
            if shot is not None and shot.attack.chance is None and shot.attack.reason is not None:
                why = (
                    why_text(str(shot.attack.reason), dict(shot.attack.values))
                    if isinstance(shot.answer, HitAnswer)
                    else explain.attack_lines(shot.attack)[0]  # another ruleset's reason
                )
        elif isinstance(command, cmd.Move) and unit:
            # A cell nobody can stand on is said at once, as its preview says it, rather than
            # aimed for a second click the battle then refuses.
            path = preview.path(
                s.battle, s.player, unit, command.to, command.via, command.mode,
                stealth=command.stealth,
            )  # fmt: skip
            if path is not None and path.refusal is not None and path.refusal.code in _NOWHERE:
                why = self.refused_here(path.refusal, command.to)
        elif isinstance(command, cmd.CoupDeGrace) and unit:
            blow = preview.coup_de_grace(s.battle, s.player, unit, command.target)
            if blow is not None and blow.chance is None:
                why = blow.why[0] if blow.why else explain.attack_lines(blow)[0]
        if why is not None:
            self.plan = None
            s.status = why
            s.bar.set_status(why)
            return
        self.plan = Plan(command, text, target)
        s.status = ""
        s.bar.set_status(s.status_line())

    def click(self, pos: tuple[int, int]) -> None:
        s = self.scene
        column = s.board.column_at(pos)
        if column is None:
            return
        s.pointer.hover(pos)
        target_unit, cell = s.pointer.unit, s.pointer.cell
        if s.gm_panel is not None:
            if s.gm_panel.editing and cell is not None:
                s.gm_panel.edit((column[0], column[1], s.board.level))
                return
            if target_unit is not None:
                s.gm_panel.select(target_unit)
        unit = s.acting()
        if (
            target_unit is not None
            and s.is_own(target_unit)
            and self.targeting not in ("help", "use_object")
        ):
            if target_unit != s.selected:
                s.selected = target_unit
                self.plan = None
                s.refresh()
            if cell is not None and cell[2] != s.board.level:
                s.show_unit(target_unit)  # one's own unit on another level: go to it
                s.change_level(0)
            return
        if unit is None or cell is None:
            return
        if target_unit is not None:
            self._at_unit(unit, target_unit)
        else:
            self._at_cell(unit, cell)

    def _at_unit(self, unit: str, target: str) -> None:
        """A click on a unit that is not one's own to select."""
        s = self.scene
        kind = self.targeting
        enemy = s.view.sides.get(target) != s.view.sides.get(unit)
        if kind in (None, "move", "attack", "throw") and enemy:
            kind = kind if kind in ("attack", "throw") else self.default_kind(unit, target)
            command: cmd.Command = (
                cmd.Throw(unit, target=target) if kind == "throw" else self.attack_at(unit, target)
            )
            verb = _("Throw at {t}") if kind == "throw" else _("Attack {t}")
            self.aim(command, verb.format(t=target), target)
        elif kind == "aim" and enemy:
            self.aim(cmd.Aim(unit, target), _("Aim at {t}").format(t=target), target)
        elif kind == "coup_de_grace" and enemy:
            verb = _("Coup de grâce on {t}")
            self.aim(cmd.CoupDeGrace(unit, target), verb.format(t=target), target)
        elif kind == "help" and not enemy:
            self.aim(cmd.Help(unit, target), _("Help {t}").format(t=target), target)
        elif kind == "use_object" and not enemy:
            wound = worst_wound(opts.first_aid(s.battle, s.player, unit, target))
            self.aim(
                cmd.UseObject(unit, target, wound), _("Medkit on {t}").format(t=target), target
            )

    def _at_cell(self, unit: str, cell: Cell) -> None:
        """A click on a cell where the player sees no unit."""
        kind = self.targeting
        # The cell's coordinates only while Alt is held (docs/window.md).
        alt = self.scene.pointer.alt
        c = cell_text(cell)
        if kind == "attack":
            text = _("Fire at {c}").format(c=c) if alt else _("Fire at the marked cell")
            self.aim(cmd.Attack(unit, at=cell), text, cell)
        elif kind == "throw":
            text = _("Throw at {c}").format(c=c) if alt else _("Throw at the marked cell")
            self.aim(cmd.Throw(unit, at=cell), text, cell)
        elif kind == "five_foot_step":
            step = _("5-foot step to {c}").format(c=c)
            text = step if alt else _("5-foot step to the marked cell")
            self.aim(cmd.FiveFootStep(unit, cell), text, cell)
        elif kind in (None, "move"):
            move = cmd.Move(unit, cell, mode=self.move_mode(), stealth=self.stealth)
            text = _("Move to {c}").format(c=c) if alt else _("Move to the marked cell")
            self.aim(move, text, cell)

    def action(self, kind: str) -> None:
        """A command chosen from the bar or its key."""
        s = self.scene
        unit = s.acting()
        if unit is None:
            return
        option = next(
            (o for o in opts.options_for(s.battle, s.player, unit) if o.kind == kind), None
        )
        if option is None:
            return
        if option.refusal is not None:
            s.status = refusal_text(option.refusal)
            s.bar.set_status(s.status)
            return
        s.status = ""
        self.plan = None
        immediate: dict[str, cmd.Command] = {
            "dash": cmd.Dash(unit),
            "dodge": cmd.Dodge(unit),
            "disengage": cmd.Disengage(unit),
            "ready": cmd.Ready(unit, opts.READY_TRIGGER),
            "hide": cmd.Hide(unit),
            "search": cmd.Search(unit),
            "end_turn": cmd.EndTurn(unit),
            "reload": cmd.Reload(unit),
            "hasty": cmd.Hasty(unit),
            "delay": cmd.Delay(unit),
            "react_stance": cmd.ReactStance(unit),
            "fire_mode": cmd.FireMode(unit),
            "break_grab": cmd.BreakGrab(unit),
        }
        if kind in immediate:
            self.submit(immediate[kind])
        elif kind in _STANCE_OF:
            self.submit(cmd.ChangeStance(unit, _STANCE_OF[kind]))
        elif kind == "improvise":
            s.prompts.open(
                "improvise",
                hud.esc(_("Describe what {unit} tries; the GM will rule on it.").format(unit=unit)),
                [(_("Ask the GM"), "ok"), (_("Cancel"), "cancel")],
                entry=True,
            )
        else:
            self.targeting = None if self.targeting == kind else kind
        s.pointer.changed()
        s.bar.set_status(s.status_line())

    def cancel(self) -> bool:
        """Esc: put away the menu, the aimed command or the chosen action; False if there was
        none of them."""
        s = self.scene
        if self.menu is not None:
            self.close_menu()
        elif self.plan is not None:
            self.plan = None
        elif self.targeting is not None:
            self.targeting = None
        else:
            return False
        s.status = ""
        s.pointer.changed()
        s.bar.set_status(s.status_line())
        return True

    def confirm(self) -> None:
        if self.plan is not None:
            self.submit(self.plan.command)

    # ------------------------------------------------------------ mode and stealth

    def toggle_stealth(self) -> None:
        self.stealth = not self.stealth
        self.scene.refresh_reach()
        self.scene.refresh_widgets()
        self.scene.pointer.changed()

    def cycle_mode(self) -> None:
        s = self.scene
        modes = ["auto"] + ([*s.reach.allowance.budgets] if s.reach is not None else [])
        current = self.mode or "auto"
        self.mode = modes[(modes.index(current) + 1) % len(modes)] if current in modes else "auto"
        s.refresh_reach()
        s.refresh_widgets()
        s.pointer.changed()

    def choose_mode(self, mode: str | None) -> None:
        self.mode = mode
        self.scene.refresh_reach()
        self.scene.pointer.changed()

    # ------------------------------------------------------------ the right-click menu

    def open_menu(self, pos: tuple[int, int]) -> None:
        s = self.scene
        self.close_menu()
        s.pointer.hover(pos)
        unit = s.acting()
        cell = s.pointer.cell
        if cell is None:
            return
        if unit is None:
            target = s.pointer.unit
            if target is not None and s.is_own(target) and target != s.selected:
                # Not this unit's turn: its menu selects it (its card, its level).
                self._menu_target = (target, cell)
                select = [(_("Select {t}").format(t=target), "select", True, "")]
                self.menu = hud.ContextMenu(s.ui, pos, select, s.board.viewport)
            return
        options = {o.kind: o for o in opts.options_for(s.battle, s.player, unit)}
        items: list[tuple[str, str, bool, str]] = []

        def add(kind: str, label: str, key: str) -> None:
            o = options.get(kind)
            if o is None:
                return  # not a command of the battle's ruleset (its turn budget lists it not)
            why = "" if o.refusal is None else refusal_text(o.refusal)
            items.append((label, key, o.allowed, why))

        target = s.pointer.unit
        if target is not None and s.view.sides.get(target) != s.view.sides.get(unit):
            add("attack", _("Attack {t}").format(t=target), "attack")
            if "aim" in options:
                add("aim", _("Aim at {t}").format(t=target), "aim")
                add("aim", _("Aim to kill {t}").format(t=target), "aim_kill")  # 000:l.89
            fire = opts.suppress(s.battle, s.player, unit)
            if fire is not None:  # Cepheus's suppression fire (000:l.317): only on this menu
                why = "" if fire.refusal is None else refusal_text(fire.refusal)
                items.append((_("Suppress {t}").format(t=target), "suppress", fire.allowed, why))
            add("throw", _("Throw at {t}").format(t=target), "throw")
            # d20's (004:l.114): offered on every enemy, greyed with the reason until it may
            add("coup_de_grace", _("Coup de grâce on {t}").format(t=target), "coup_de_grace")
        elif target is not None:
            if target != unit:
                add("help", _("Help {t}").format(t=target), "help")
            else:
                # The acting unit itself: what it does without a target, as on the bar.
                for kind, needs in opts.KINDS:
                    if needs is opts.Needs.NOTHING and kind in options:
                        add(kind, label_of(options[kind]), "self:" + kind)
                if defence_counters(s.battle.ruleset) is not None:
                    items.append((_("Counter-moves…"), "defence_plan", True, ""))
                for o in opts.riding(s.battle, s.player, unit):  # Myst (002:l.150, 153)
                    why = "" if o.refusal is None else refusal_text(o.refusal)
                    items.append((RIDING[o.kind](), o.kind, o.allowed, why))
            # The ruleset's first aid (periferie's wounds, Cepheus's damaged characteristics),
            # greyed with the reason where it may not, or where the ruleset has none.
            for o in opts.first_aid(s.battle, s.player, unit, target):
                why = "" if o.refusal is None else refusal_text(o.refusal)
                wound = o.kind.partition(":")[2]
                label = _("Medkit on {t}").format(t=target)
                if wound:
                    label = _("Medkit on {t}: {w}").format(t=target, w=wound_name(wound))
                items.append((label, o.kind, o.allowed, why))
        else:
            add("move", _("Move here"), "move")
            add("five_foot_step", _("5-foot step here"), "five_foot_step")  # d20's (D-2)
            # The ruleset's weapon decides (Cepheus: the sheet's blast); a map area weapon
            # under a ruleset without area attacks at a cell is greyed with the reason.
            weapon = s.aim().weapon(unit)
            aimed = preview.area(s.battle, s.player, unit, cell)
            if aimed is not None and aimed.refusal is not None:
                if weapon is not None and weapon.area:
                    why = refusal_text(aimed.refusal)
                    items.append((_("Fire at this cell"), "attack_cell", False, why))
            elif aimed is not None and aimed.cells is not None:
                add("attack", _("Fire at this cell"), "attack_cell")
            add("throw", _("Throw at this cell"), "throw_cell")
            aside = opts.step_aside(s.battle, s.player, unit)
            if aside.refusal is None or aside.refusal.code != "not_sharing_a_cell":
                why = "" if aside.refusal is None else refusal_text(aside.refusal)
                items.append((_("Step aside here"), "step_aside", aside.allowed, why))
        self._menu_target = (target, cell)
        if items:
            self.menu = hud.ContextMenu(s.ui, pos, items, s.board.viewport)

    def close_menu(self) -> None:
        if self.menu is not None:
            self.menu.close()
        self.menu = None

    def menu_choice(self, key: str) -> None:
        s = self.scene
        assert self._menu_target is not None
        target, cell = self._menu_target
        self.close_menu()
        if key == "select" and target is not None:
            s.selected = target
            s.show_unit(target)
            s.refresh()
            return
        unit = s.acting()
        if unit is None:
            return
        if key.startswith("self:"):
            self.action(key.split(":", 1)[1])
        elif key == "defence_plan":
            s.prompts.defence_plan(unit)
        elif key.startswith("gait:"):
            self.submit(cmd.Gait(unit, key.split(":", 1)[1]))
        elif key.startswith("strike_horse:"):
            self.submit(cmd.StrikeHorse(unit, horse=key == "strike_horse:horse"))
        elif key == "attack" and target is not None:
            self.submit(self.attack_at(unit, target))
        elif key == "throw" and target is not None:
            self.submit(cmd.Throw(unit, target=target))
        elif key in ("aim", "aim_kill") and target is not None:
            self.submit(cmd.Aim(unit, target, kill=key == "aim_kill"))
        elif key == "suppress" and target is not None:
            self.submit(cmd.Attack(unit, target=target, suppress=True))
        elif key == "help" and target is not None:
            self.submit(cmd.Help(unit, target))
        elif key.startswith("use_object:") and target is not None:
            self.submit(cmd.UseObject(unit, target, key.split(":", 1)[1]))
        elif key == "move":
            self.submit(cmd.Move(unit, cell, mode=self.move_mode(), stealth=self.stealth))
        elif key == "attack_cell":
            self.submit(cmd.Attack(unit, at=cell))
        elif key == "throw_cell":
            self.submit(cmd.Throw(unit, at=cell))
        elif key == "step_aside":
            self.submit(cmd.StepAside(unit, cell))
        elif key == "five_foot_step":
            self.submit(cmd.FiveFootStep(unit, cell))
        elif key == "coup_de_grace" and target is not None:
            self.submit(cmd.CoupDeGrace(unit, target))


def worst_wound(aid: Sequence[opts.Option]) -> str:
    """The wound a medkit aimed from the bar treats: the gravest the menu would allow
    (opts.first_aid), else the gravest listed, else periferie's light."""
    wounds = [o.kind.partition(":")[2] for o in aid if o.kind.startswith("use_object:")]
    allowed = [o.kind.partition(":")[2] for o in aid if o.allowed and ":" in o.kind]
    return (allowed or wounds or ["light"])[0]


def wound_name(wound: str) -> str:
    """A first-aid entry's wound as its ruleset's menu names it: periferie's wound kinds, else
    the ruleset's health state (Cepheus's C-5 "seriously wounded")."""
    if wound in ("mortal", "grave", "light"):
        return explain.effect_name(wound + "_wound")
    return state_name(wound)


#: The right-click menu's words for a rider's choices (opts.riding; Myst, 002:l.150, 153).
RIDING: dict[str, Callable[[], str]] = {
    "gait:walk": lambda: _("Ride at a walk (from next turn)"),
    "gait:canter": lambda: _("Ride at a canter (from next turn)"),
    "gait:gallop": lambda: _("Ride at a gallop (from next turn)"),
    "strike_horse:horse": lambda: _("Strike at riders' horses"),
    "strike_horse:rider": lambda: _("Strike at riders"),
}
