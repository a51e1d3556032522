"""What the pointer is aimed at, worded for the side panel and drawn over the map: a unit's card,
a move's path and dangers, a shot's sight line, cover and chance, a throw's band.

Every number comes from the previews (game/battle/preview.py) and the player's view; this module
only lays them out."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from game.battle import preview
from game.battle.engine import Battle
from game.battle.options import Option
from game.battle.view import PlayerView, UnitView
from game.grid.model import Cell
from game.rules.data import RulesData, Weapon
from game.rules.ruleset_answers import Attack, Throw
from game.tactics.answers import HitAnswer
from game.tactics.headline import headline
from game.text import explain, names
from game.text.bounds import clip
from game.text.card_words import health_lines, note_lines, protection_text
from game.text.explain_battle import cell_text, refusal_text, why_text
from game.text.i18n import _
from game.ui import hud
from game.ui.board import Badge, Overlay

RED = "#ff8080"
ORANGE = "#ff8a70"
#: A badge's colour by the chance it shows (the preview's number, only coloured here).
LIKELY, EVEN, UNLIKELY, NO_SHOT = (120, 235, 120), (250, 215, 80), (255, 130, 100), (255, 90, 90)
#: A ruling id in a sentence, "(P-OA-1)" or ", P-THR-1": shown only with Alt held.
_RULING = re.compile(r"\s*\((?:[A-Z]-)?[A-Z]+-\d+(?:/\d+)*\)|,\s*(?:[A-Z]-)?[A-Z]+-\d+(?:/\d+)*")


def plain(text: str, alt: bool) -> str:
    """A line as shown: with its ruling ids only while Alt is held."""
    return text if alt else _RULING.sub("", text)


def chance_colour(p: int) -> tuple[int, int, int]:
    return LIKELY if p >= 65 else EVEN if p >= 35 else UNLIKELY


@dataclass
class Preview:
    """The overlay to draw, the lines for the panel, the full breakdown (Alt)."""

    overlay: Overlay = field(default_factory=Overlay)
    lines: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)


def headline_lines(attack: Attack) -> list[str]:
    """The ruleset's own headline numbers under the chance, as its answer states them (the
    Cepheus band, DM and 8+; the d20 face needed against the AC...), or nothing."""
    found = headline(attack)
    return [] if found is None else [hud.esc(explain.headline_text(found.kind, found.values))]


def _red(text: str, colour: str = RED) -> str:
    return f"<font color='{colour}'>" + hud.esc(text) + "</font>"


@dataclass
class Aim:
    """The player's situation a preview is asked in."""

    battle: Battle
    player: str
    view: PlayerView
    rules: RulesData
    options: dict[str, Option]
    mode: str | None = None
    stealth: bool = False
    #: Alt held: coordinates and ruling ids are shown (docs/window.md).
    alt: bool = False

    def weapon(self, unit: str) -> Weapon | None:
        """The weapon in an own unit's hand (None: unarmed, or not the player's)."""
        seen = self.view.unit(unit)
        if seen is None or seen.weapon is None:
            return None
        return self.rules.weapons[seen.weapon]

    def kind_for(self, unit: str, target: Cell | str) -> str:
        """What a click on `target` does when no command was chosen: attack (or throw, with a
        thrown weapon in hand) an enemy, show a friend, move to a cell."""
        if isinstance(target, str):
            if self.view.sides.get(target) != self.view.sides.get(unit):
                weapon = self.weapon(unit)
                return "throw" if weapon is not None and weapon.kind == "thrown" else "attack"
            return "info"
        return "move"

    def at(self, unit: str, target: Cell | str, kind: str) -> Preview:
        """What `kind` by `unit` at `target` would do."""
        if kind in ("attack", "throw") and isinstance(target, str):
            shown = self.shot(unit, target, kind)
            option = self.options.get(kind)
            if option is not None and option.refusal is not None:
                shown.lines.insert(1, _red(refusal_text(option.refusal)))
            return shown
        if kind in ("attack", "throw") and not isinstance(target, str):
            return self.at_cell(unit, target, kind)
        if kind == "move" and not isinstance(target, str):
            return self.path(unit, target)
        if isinstance(target, str):
            return Preview(lines=[self.card(target)])
        return Preview()

    def at_cell(self, unit: str, target: Cell, kind: str) -> Preview:
        """An area weapon or a throw aimed at a cell (P-AREA-1, P-THR-1): the area the
        ruleset's weapon covers (`preview.area`), none where the ruleset has no area attack at
        a cell (an attack aimed there says so: "not offered under <ruleset>")."""
        here = self.view.unit(unit)
        aimed = preview.area(self.battle, self.player, unit, target)
        overlay = Overlay(
            area=() if aimed is None else aimed.cells or (),
            sight=None if here is None else (here.cell, target),
        )
        if kind == "throw":
            answer = preview.throw(self.battle, self.player, unit, target)
            if answer is None:
                return Preview(overlay)
            summary = plain(throw_summary(answer), self.alt)
            overlay.badges = [throw_badge(target, answer, summary)]
            return Preview(
                overlay,
                [hud.esc(summary)],
                [*answer.why, explain.rulings_line(answer.rules)],
            )
        if aimed is not None and aimed.refusal is not None:  # nothing offered: nothing drawn
            return Preview(lines=[_red(plain(refusal_text(aimed.refusal), self.alt))])
        text = (
            _("Fire at the cell {cell}").format(cell=cell_text(target))
            if self.alt
            else _("Fire at this cell")
        )
        return Preview(overlay, [hud.esc(text)])

    def shot(self, unit: str, target: str, kind: str) -> Preview:
        """Line of sight, cover with its hidden samples, and the chance (P-LOS, P-COV, P-HIT)."""
        me, other = self.view.unit(unit), self.view.unit(target)
        if me is None or other is None:
            return Preview()
        here, there = me.cell, other.cell
        if kind == "throw":
            thrown = preview.throw(self.battle, self.player, unit, target)
            if thrown is None:
                return Preview()
            head = f"<b>{hud.esc(_('Throw at {t}').format(t=target))}</b>"
            summary = plain(throw_summary(thrown), self.alt)
            return Preview(
                Overlay(sight=(here, there), badges=[throw_badge(there, thrown, summary)]),
                [head, hud.esc(summary)],
                [*thrown.why, explain.rulings_line(thrown.rules)],
            )
        shot = preview.attack(self.battle, self.player, unit, target)
        if shot is None:
            return Preview()
        answer, los = shot.answer, shot.los
        shown = Preview(
            Overlay(sight=(here, there), sight_clear=los.clear, blocked_at=los.blocked_by),
            [f"<b>{hud.esc(_('Attack {t}').format(t=target))}</b>"],
        )
        if not isinstance(answer, HitAnswer):
            # Another ruleset: its own numbers, from the answer every ruleset gives.
            return self._ruleset_attack(shown, shot.attack, here, there)
        if answer.hit is not None:
            chance = _("Hit chance {p}%").format(p=answer.hit.p)
            shown.lines.append("<font size=5><b>" + hud.esc(chance) + "</b></font>")
            shown.lines += headline_lines(shot.attack)
            badge = Badge(there, f"{answer.hit.p}%", chance_colour(answer.hit.p))
        else:
            why = why_text(str(answer.reason or "no_los"), {**answer.values})
            shown.lines.append(_red(plain(why, self.alt)))
            badge = Badge(there, _("No shot"), NO_SHOT)
        if answer.cover is not None:
            badge = Badge(
                badge.cell,
                badge.title,
                badge.colour,
                (_("Cover: {grade}").format(grade=explain.cover_name(answer.cover.grade)),),
                answer.cover.percent,
            )
        shown.overlay.badges = [badge]
        if answer.cover is not None:
            counted = [s for s in answer.cover.hidden if s.counted]
            shown.overlay.cover_target = there
            shown.overlay.hidden_samples = [s.sample for s in counted]
            shown.overlay.cover_cells = sorted({s.cell for s in counted})
            distance = max(abs(a - c) for a, c in zip(here, there, strict=True))
            cover = _("Cover: {grade} ({pct}%) · {d} cells").format(
                grade=explain.cover_name(answer.cover.grade), pct=answer.cover.percent, d=distance
            )
            shown.lines.append(hud.esc(cover))
            shown.details += explain.cover_lines(answer.cover)
        if not los.clear and los.blocked_by is not None:
            blocked = (
                _("Sight blocked at {cell}").format(cell=cell_text(los.blocked_by))
                if self.alt
                else _("Sight blocked where the red cross is")
            )
            shown.lines.append(hud.esc(blocked))
        words = explain.hit_lines(answer.hit) if answer.hit is not None else answer.why
        shown.details += [*words, explain.rulings_line(answer.rules)]
        return shown

    def _ruleset_attack(self, shown: Preview, attack: Attack, here: Cell, there: Cell) -> Preview:
        """Any ruleset's attack as its answer states it: the exact chance (its percentage on the
        badge), or why there is none; its cover grade; its modifiers and rulings behind Alt."""
        words = explain.attack_lines(attack)
        if attack.chance is not None:
            percent = attack.chance * 100
            shown_p = (
                str(percent.numerator) if percent.denominator == 1 else f"{float(percent):.1f}"
            )
            chance = _("Hit chance {p}%").format(p=shown_p)
            shown.lines.append("<font size=5><b>" + hud.esc(chance) + "</b></font>")
            shown.lines += headline_lines(attack)
            title, colour = f"{shown_p}%", chance_colour(round(percent))
        else:
            shown.lines.append(_red(plain(words[0], self.alt)))
            title, colour = _("No shot"), NO_SHOT
        lines: tuple[str, ...] = ()
        if attack.cover is not None:
            cover = _("Cover: {grade}").format(grade=explain.cover_name(attack.cover))
            lines = (cover,)
            distance = max(abs(a - c) for a, c in zip(here, there, strict=True))
            shown.lines.append(hud.esc(f"{cover} · " + _("{d} cells").format(d=distance)))
        shown.overlay.badges = [Badge(there, title, colour, lines)]
        if not shown.overlay.sight_clear and shown.overlay.blocked_at is not None:
            shown.lines.append(hud.esc(_("Sight blocked where the red cross is")))
        shown.details += [*words, explain.rulings_line(attack.rules)]
        return shown

    def path(self, unit: str, cell: Cell) -> Preview:
        """The cheapest path, its cost, where enemies may react (P-OA-1/2), who sees the end."""
        path = preview.path(
            self.battle, self.player, unit, cell, (), self.mode, stealth=self.stealth
        )
        if path is None:
            return Preview()
        if path.refusal is not None:
            values = dict(path.refusal.values)
            if not self.alt and _list_cell(values.get("at")) == cell:
                values["at"] = _("this cell")  # the one under the pointer, marked on the board
            text = plain(why_text(str(path.refusal.code), values), self.alt)
            return Preview(lines=[_red(text[:1].upper() + text[1:])])
        cost = (
            _("Move to {cell}: {cost} points ({total} this turn)")
            if self.alt
            else _("Move: {cost} points ({total} this turn)")
        ).format(cell=cell_text(cell), cost=path.cost, total=path.total)
        badge = Badge(
            cell,
            _("{cost} pt").format(cost=path.cost),
            (255, 255, 255) if not path.warnings else NO_SHOT,
            () if path.total == path.cost else (_("{total} this turn").format(total=path.total),),
            place="beside",
        )
        shown = Preview(
            Overlay(path=path.cells, warnings=[w.cell for w in path.warnings], badges=[badge]),
            ["<b>" + hud.esc(cost) + "</b>"],
        )
        for w in path.warnings:
            rule = "P-OA-1" if w.kind == "opportunity" else "P-OA-2"
            if self.alt:
                text = (
                    _("{enemy} may strike as you leave {cell} ({rule})")
                    if w.kind == "opportunity"
                    else _("{enemy}'s readied attack may fire at {cell} ({rule})")
                )
            else:
                text = (
                    _("{enemy} may strike as you leave the cell marked !")
                    if w.kind == "opportunity"
                    else _("{enemy}'s readied attack may fire at the cell marked !")
                )
            shown.lines.append(
                _red(text.format(enemy=w.enemy, cell=cell_text(w.cell), rule=rule), ORANGE)
            )
        for leap in path.checks:
            text = (
                _("Jump {height} high: athletics check DC {dc}, else only {n_max} high (P-JUMP-1)")
                if leap.kind == "jump"
                else _("Drop {height} levels: athletics check DC {dc}, else prone (P-JUMP-3)")
            )
            shown.lines.append(
                _red(
                    plain(text.format(height=leap.height, dc=leap.dc, n_max=leap.n_max), self.alt),
                    ORANGE,
                )
            )
        if path.velocity is not None:
            kept = _("Velocity kept into the next turn: {velocity} (P-ZERO-2)").format(
                velocity=cell_text(path.velocity)
            )
            kept = plain(kept, self.alt)
            shown.lines.append(hud.esc(kept))
        if path.seen_by:
            seen = _("Seen there by: {units}").format(units=", ".join(path.seen_by))
            shown.lines.append(hud.esc(seen))
        return shown

    def card(self, unit: str, allowance: str = "") -> str:
        """A unit as the player knows it: side, stance, cell, wounds (its ruleset's own health:
        numbers for an own unit, the state for another), conditions; for an own unit also its
        kit (its ruleset's armour) and, when acting, its movement points (`allowance`)."""
        seen = self.view.unit(unit)
        if seen is None:
            return ""
        lines = [f"<b>{hud.esc(clip(unit))}</b> — {hud.esc(names.side_name(seen.faction))}"]
        where = (
            _("{stance}, at {cell}").format(
                stance=explain.stance_name(seen.stance), cell=cell_text(seen.cell)
            )
            if self.alt
            else explain.stance_name(seen.stance)
        )
        lines.append(hud.esc(where))
        h = seen.wounds
        if seen.health is not None:  # the ruleset's own health (issue 16), own numbers only
            lines += [hud.esc(line) for line in health_lines(seen.health, seen.turn is not None)]
            lines += [hud.esc(line) for line in note_lines(seen.health)]
        else:
            wounds = [
                f"{h[kind]} × {explain.effect_name(kind + '_wound')}"
                for kind in ("light", "grave", "mortal")
                if h.get(kind)
            ]
            lines.append(hud.esc(_("Wounds: {w}").format(w=", ".join(wounds) or _("none"))))
        if h.get("conditions"):
            conditions = ", ".join(explain.condition_name(c) for c in h["conditions"])
            lines.append(hud.esc(_("Conditions: {c}").format(c=conditions)))
        lines.extend(hud.esc(line) for line in explain.counter_lines(seen.hold, seen.unbalanced))
        if h.get("mortal"):
            saves = _("Death saves: {s} successes, {f} failures").format(
                s=h.get("death_successes", 0), f=h.get("death_failures", 0)
            )
            lines.append(hud.esc(saves))
        if seen.turn is not None:
            weapon = self.arms(seen)
            if seen.health is not None:  # the ruleset's own armour (issue 16)
                armour = protection_text(seen.health)
            elif seen.armour:
                armour = names.armour_name(seen.armour, self.rules.armour[seen.armour].name)
            else:
                armour = _("no armour")
            lines.append(hud.esc(_("{weapon}; {armour}").format(weapon=weapon, armour=armour)))
            if allowance:
                lines.append(hud.esc(_("Movement points: {b}").format(b=allowance)))
        return "<br>".join(lines)

    def arms(self, seen: UnitView) -> str:
        """The weapon an own unit fights with and its damage dice, as its ruleset has it: the
        sheet's own (Myst's spada, the view's `sheet_weapon`), else the map's periferie one."""
        shown = seen.sheet_weapon
        if shown is not None:
            name, damage = names.weapon_name(shown.id, shown.name), shown.damage
        elif seen.weapon:
            held = self.rules.weapons[seen.weapon]
            name, damage = names.weapon_name(held.id, held.name), held.damage
        else:
            return _("unarmed")
        return _("{weapon} ({damage})").format(weapon=name, damage=damage) if damage else name


def _list_cell(value: object) -> Cell | None:
    if isinstance(value, list | tuple) and len(value) == 3:
        return (int(value[0]), int(value[1]), int(value[2]))
    return None


def _percent_text(chance: Fraction) -> str:
    """An exact chance as the badge shows it: a whole percentage, else one decimal."""
    percent = chance * 100
    return str(percent.numerator) if percent.denominator == 1 else f"{float(percent):.1f}"


def throw_badge(cell: Cell, answer: Throw, summary: str) -> Badge:
    """A throw's badge (any ruleset's): its chance when it rolls one, else the summary's words."""
    p = answer.chance
    rolls = answer.reason is None and answer.band != "out_of_range" and not answer.automatic
    if rolls and p is not None:
        return Badge(cell, f"{_percent_text(p)}%", chance_colour(round(p * 100)))
    colour = NO_SHOT if answer.reason is not None or answer.band == "out_of_range" else LIKELY
    return Badge(cell, summary.rstrip("."), colour)


def throw_summary(answer: Throw) -> str:
    """A throw's chance in a few words (periferie: P-THR-1)."""
    if answer.reason is not None:
        return why_text(str(answer.reason), {})
    if answer.band == "out_of_range" or (answer.chance is None and not answer.automatic):
        return _("Out of range.")
    if answer.automatic:
        return _("Lands where aimed (within medium range, P-THR-1).")
    assert answer.chance is not None
    return _("Hit chance {p}%").format(p=_percent_text(answer.chance))
