"""The battle screen's questions: a reaction to take or let go, the GM's ruling on an improvised
action, the improvised action's description, and the pause."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from game.battle import commands as cmd
from game.battle import preview
from game.battle.engine import GM
from game.tactics.answers import HitAnswer
from game.tactics.ruleset import defence_counters
from game.text import explain, explain_battle
from game.text.i18n import _
from game.ui import hud
from game.ui.gm_panel import checks

if TYPE_CHECKING:
    from game.ui.battle.scene import BattleScene


class Prompts:
    """The one question open on the battle screen, if any, and what its answers do."""

    def __init__(self, scene: BattleScene) -> None:
        self.scene = scene
        self.prompt: hud.Prompt | None = None
        #: "reaction", "rule", "improvise", "pause", "margin", "defence", or "" with none open.
        self.kind = ""
        #: The unit whose standing counter-moves the "defence" prompt asks for.
        self.defence_unit: str | None = None

    def my_reaction(self) -> bool:
        """A reaction is waiting that this player decides."""
        s = self.scene
        pending = s.battle.pending
        if pending is None:
            return False
        controller = s.battle.controller_of_unit(pending.reactor)
        return controller != "computer" and (s.player == GM or controller == s.player)

    def my_margin(self) -> str | None:
        """The unit whose hit's margin waits (M-1) when this player spends it, else None."""
        s = self.scene
        unit = s.battle.margin_waiting()
        if unit is None:
            return None
        controller = s.battle.controller_of_unit(unit)
        mine = controller != "computer" and (s.player == GM or controller == s.player)
        return unit if mine else None

    def margin_plans(self, unit: str) -> list[tuple[str, dict[str, int]]]:
        """The margin prompt's answers, as the battle offers them (most damage first, at most
        nine: keys 1-9): each one's words and its uses."""
        choice = self.scene.battle.damage_choice(unit)
        if choice is None:
            return []
        caps = dict(choice.caps)
        shown = list(choice.plans)
        if len(shown) > 9:  # the most and the least damage always among them
            shown = shown[:8] + shown[-1:]
        return [
            (explain_battle.margin_plan_text(dict(p.uses), caps, p.damage), dict(p.uses))
            for p in shown
        ]

    def ruling_due(self) -> bool:
        """An improvised action waits for the GM, who has the screen."""
        s = self.scene
        return s.player == GM and bool(s.battle.improvising)

    def check(self) -> None:
        """Open the question the battle now asks this player, close one it no longer asks."""
        s = self.scene
        if self.prompt is not None and self.kind == "reaction" and not self.my_reaction():
            self.close()
        if self.prompt is not None and self.kind == "margin" and self.my_margin() is None:
            self.close()
        unit = self.my_margin()
        if self.prompt is None and unit is not None and not s.animator.busy:
            choice = s.battle.damage_choice(unit)
            assert choice is not None
            text = _(
                "{unit} hits with {units} unit(s) of margin (5 points each, M-1); the die "
                "shows {rolled}. Spend them: [1]-[{last}], Enter for the most damage."
            )
            plans = self.margin_plans(unit)
            text = text.format(unit=unit, units=choice.units, rolled=choice.rolled, last=len(plans))
            answers = [(f"{i + 1}. {words}", f"plan:{i}") for i, (words, _uses) in enumerate(plans)]
            self.open("margin", hud.esc(text), answers, stacked=True)
            return
        if self.prompt is None and self.ruling_due() and not s.animator.busy:
            unit, text = s.battle.improvising[0]
            self.open(
                "rule",
                hud.esc(
                    _(
                        "{unit} improvises: “{text}”. Rule on it: accept, reject, or a check "
                        "against a DC."
                    ).format(unit=unit, text=text)
                ),
                [(_("Accept"), "accept"), (_("Reject"), "reject"), (_("Roll the check"), "check")],
                entry=True,
                choices=checks(s.battle.ruleset.improvised_checks()),
            )
            return
        if self.prompt is None and self.my_reaction() and not s.animator.busy:
            pending = s.battle.pending
            assert pending is not None
            shot = preview.attack(s.battle, s.player, pending.reactor, pending.mover)
            chance = ""
            if shot is not None and isinstance(shot.answer, HitAnswer) and shot.answer.hit:
                chance = " " + _("Hit chance {p}%").format(p=shot.answer.hit.p)
            elif shot is not None and shot.attack.chance is not None:  # another ruleset's
                chance = " " + explain.attack_lines(shot.attack)[0]
            rule = "P-OA-1" if pending.kind == "opportunity" else "P-OA-2"
            text = (
                _("{mover} leaves {unit}'s reach: strike at it? ({rule})")
                if pending.kind == "opportunity"
                else _("{mover} comes into {unit}'s sight: fire the readied attack? ({rule})")
            ).format(mover=pending.mover, unit=pending.reactor, rule=rule)
            if pending.coup_de_grace is not None:  # d20's blow provokes (004:l.118)
                text = _(
                    "{mover} gives {target} the coup de grâce within {unit}'s reach: strike at "
                    "it? (004:l.118)"
                ).format(mover=pending.mover, unit=pending.reactor, target=pending.coup_de_grace)
            self.open(
                "reaction",
                hud.esc(text + chance),
                [
                    (_("Take it [{key}]").format(key=s.keys.label("take")), "take"),
                    (_("Let it go [{key}]").format(key=s.keys.label("let_go")), "let_go"),
                ],
            )

    def open(
        self,
        kind: str,
        text: str,
        answers: Sequence[tuple[str, str]],
        *,
        entry: bool = False,
        choices: Sequence[tuple[str, str]] = (),
        stacked: bool = False,
    ) -> None:
        self.close()
        s = self.scene
        bounds = s.board.viewport
        if s.gm_panel is not None:
            # Beside the GM's tools, which are drawn above everything else of the screen.
            tools = s.gm_panel.window.rect
            bounds = bounds.clip(
                pygame.Rect(tools.right, bounds.y, bounds.right - tools.right, bounds.height)
            )
        self.prompt = hud.Prompt(
            s.ui, bounds, text, answers, entry=entry, choices=choices, stacked=stacked
        )
        self.kind = kind

    def close(self) -> None:
        if self.prompt is not None:
            self.prompt.close()
        self.prompt = None
        self.kind = ""

    def answer(self, key: str) -> None:
        """The answer with this key given to the open prompt."""
        s = self.scene
        kind, typed = self.kind, self.prompt.typed if self.prompt else ""
        choice = self.prompt.choice if self.prompt else ""
        if kind == "rule":
            self._rule(key, typed, choice)
            return
        if kind == "margin":
            self._spend(key)
            return
        if kind == "defence":
            self._defence(key)
            return
        self.close()
        if kind == "reaction":
            pending = s.battle.pending
            if pending is not None:
                s.orders.submit(cmd.React(pending.reactor, take=key == "take"))
        elif kind == "improvise" and key == "ok" and typed.strip():
            unit = s.acting()
            if unit is not None:
                s.orders.submit(cmd.Improvise(unit, typed.strip()))
        elif kind == "pause" and key in ("title", "quit") and s.director is not None:
            # The journal already holds every command: leaving loses nothing.
            leave = getattr(s.director, "leave" if key == "title" else "quit")
            leave()

    def pause(self) -> None:
        """Esc with nothing to cancel: go on, or leave (the battle is already saved)."""
        answers = [(_("Go on"), "resume")]
        if self.scene.director is not None:
            answers += [(_("Back to the title"), "title"), (_("Quit"), "quit")]
        self.open(
            "pause",
            hud.esc(_("The battle is saved after every command; Continue resumes it.")),
            answers,
        )

    def _rule(self, verdict: str, typed: str, check: str) -> None:
        """The GM's ruling on the first improvised action waiting (accept, reject, or a check
        against the DC typed in the prompt)."""
        s = self.scene
        unit = s.battle.improvising[0][0]
        if verdict == "check":
            try:
                dc = int(typed.strip())
            except ValueError:
                s.status = _("Type the check's DC (a number) first.")
                s.bar.set_status(s.status)
                return
            command: cmd.Command = cmd.RuleImprovise(unit, "check", check, dc)
        else:
            command = cmd.RuleImprovise(unit, verdict)
        self.close()
        s.orders.submit(command)

    def _spend(self, key: str) -> None:
        """The margin prompt's answer: the plan with that number, sent as `spend_margin`."""
        unit = self.my_margin()
        plans = [] if unit is None else self.margin_plans(unit)
        index = int(key.removeprefix("plan:")) if key.startswith("plan:") else -1
        if unit is None or not 0 <= index < len(plans):
            return  # no such plan: the prompt stays open
        self.close()
        self.scene.orders.submit(cmd.SpendMargin(unit, **plans[index][1]))

    def defence_plans(self) -> list[tuple[str, tuple[str, ...]]]:
        """The standing plans offered for a unit's won defences (M-1): each counter-move the
        ruleset names first, the others after it in the ruleset's order; then none."""
        counters = defence_counters(self.scene.battle.ruleset)
        moves = () if counters is None else counters.defence_moves
        plans = [
            (
                _("first: {move}").format(move=explain_battle.counter_move_name(m)),
                (m, *(o for o in moves if o != m)),
            )
            for m in moves
        ]
        return [*plans, (_("keep the margins"), ())]

    def defence_plan(self, unit: str) -> None:
        """Ask the acting unit's player for its standing counter-moves (`defence_plan`): it is
        not at the screen when it is attacked."""
        self.defence_unit = unit
        plans = self.defence_plans()
        text = _(
            "{unit}'s won defences buy counter-moves at 20 points of margin each (M-1), taken "
            "in this order while they last. Or it closes into defence: this turn's attack given "
            "up, until its next turn its defences are raised and a won one only breaks off, "
            "free, if its plan names breaking off (002:l.81-83). Choose: [1]-[{last}]."
        ).format(unit=unit, last=len(plans) + 1)
        answers = [(f"{i + 1}. {words}", f"plan:{i}") for i, (words, _m) in enumerate(plans)]
        # 002:l.137 "chiudersi in difesa rinunciando alla propria azione": the battle refuses
        # it (action_used) once the attack is spent, and says so on the status line.
        close = _("close into defence (gives up this turn's attack)")
        answers.append((f"{len(plans) + 1}. {close}", f"plan:{len(plans)}"))  # after the plans
        self.open("defence", hud.esc(text), answers, stacked=True)

    def _defence(self, key: str) -> None:
        plans = self.defence_plans()
        index = int(key.removeprefix("plan:")) if key.startswith("plan:") else -1
        self.close()
        if index == len(plans) and self.defence_unit is not None:
            self.scene.orders.submit(cmd.CloseDefence(self.defence_unit))
        if 0 <= index < len(plans) and self.defence_unit is not None:
            self.scene.orders.submit(cmd.DefencePlan(self.defence_unit, plans[index][1]))
