"""The unit card's words for a ruleset's own health and armour (issue 16): what the ruleset's
`BattleRules.health_shown` answered (game/rules/ruleset_answers.HealthShown), worded in the
language spoken now. Nothing here decides a rule; an unknown code is shown as it is."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from game.rules.ruleset_answers import HealthShown
from game.text.explain import condition_name
from game.text.explain_battle import gait_name
from game.text.i18n import _
from game.text.names import damage_type_name

#: The states a ruleset names besides the conditions explain.condition_name words (Cepheus's
#: wounded, seriously wounded, unconscious; d20's disabled, dying; dead).
_STATES: Mapping[str, Callable[[], str]] = {
    # Myst (M-2's Status Globale; the bands are the window's, not the seed's)
    "unhurt": lambda: _("unhurt"),
    "hurt": lambda: _("hurt"),
    "badly_hurt": lambda: _("badly hurt"),
    "out": lambda: _("out of the fight"),
    # Cepheus (C-5)
    "uninjured": lambda: _("uninjured"),
    # d20 (D-2)
    "ok": lambda: _("able to fight"),
    "stable": lambda: _("dying, stable"),
    # fantasy (003:l.183): the deepest body section reached
    "lieve": lambda: _("light wounds"),
    "serio": lambda: _("serious wounds"),
    "grave": lambda: _("grave wounds"),
    "critico": lambda: _("critical wounds"),
    "mortale": lambda: _("mortal wounds"),
}

#: Fantasy's five body sections (003:l.183) with their boxes lost, the seed's Italian names in
#: Italian.
_SECTIONS: Mapping[str, Callable[[], str]] = {
    "lieve": lambda: _("Light {lost}/{boxes}"),
    "serio": lambda: _("Serious {lost}/{boxes}"),
    "grave": lambda: _("Grave {lost}/{boxes}"),
    "critico": lambda: _("Critical {lost}/{boxes}"),
    "mortale": lambda: _("Mortal {lost}/{boxes}"),
}


def state_name(state: str) -> str:
    """A ruleset's health state as a player reads it ("seriously wounded", "dying, stable")."""
    word = _STATES.get(state)
    return word() if word is not None else condition_name(state)


def health_lines(shown: HealthShown, own: bool) -> list[str]:
    """The card's health lines: for the player's own unit its numbers as their shape (`kind`)
    has them, for another only the state anyone who sees it knows."""
    state = state_name(shown.state)
    if not own or not shown.rows:
        return [_("Health: {state}").format(state=state)]
    if shown.kind == "status":  # one pool of points (Myst's Status Globale, M-2)
        _name, now, most = shown.rows[0]
        lines = [_("Status Globale: {now} of {most}").format(now=now, most=most)]
        lines += [
            _("Horse: {now} of {most}").format(now=left, most=of)
            for name, left, of in shown.rows[1:]
            if name == "horse"  # a rider's horse (002:l.150, M-2)
        ]
        return lines
    if shown.kind == "characteristics":  # damage to characteristics (Cepheus, C-5)
        chars = " · ".join(
            _("{char} {now}/{most}").format(char=_char(name), now=now, most=most)
            for name, now, most in shown.rows
        )
        return [_("{chars}: {state}").format(chars=chars, state=state)]
    if shown.kind == "hit_points":  # d20's, D-2: of the sheet's full hit points
        _name, hp, most = shown.rows[0]
        if shown.state == "ok":
            return [_("Hit points: {hp} of {most}").format(hp=hp, most=most)]
        return [_("Hit points: {hp} of {most} ({state})").format(hp=hp, most=most, state=state)]
    if shown.kind == "body":  # boxes lost per section (fantasy, 003:l.183)
        sections = " · ".join(_section(name, lost, boxes) for name, lost, boxes in shown.rows)
        lines = [_("Body points lost: {sections}").format(sections=sections)]
        if shown.penalty:
            lines.append(_("Penalty {p} to every action").format(p=shown.penalty))
        return lines
    return [_("Health: {state}").format(state=state)]


def note_lines(shown: HealthShown) -> list[str]:
    """The card's lines for what anyone who sees the unit knows besides its health: a Myst
    rider's gait and its declared change (002:l.153), a closed defence (002:l.137)."""
    notes = dict(shown.notes)
    lines = []
    if "gait" in notes:
        gait = gait_name(notes["gait"])
        if "gait_next" in notes:
            line = _("Riding {gait} ({next} from its next turn)")
            lines.append(line.format(gait=gait, next=gait_name(notes["gait_next"])))
        else:
            lines.append(_("Riding {gait}").format(gait=gait))
    if "closed_defence" in notes:
        lines.append(_("Closed into defence until its next turn"))
    return lines


def protection_text(shown: HealthShown) -> str:
    """The armour part of the card's kit line, each entry in its own words: a shield's bonus
    in the defence (Myst), armour points (Cepheus) or per location (fantasy, with its DP), the
    AC (d20); "no armour" before the rest when the unit has none."""
    places = [(where, n) for where, n in shown.armour if where not in _PROTECTION]
    parts = [_PROTECTION[where]().format(n=n) for where, n in shown.armour if where in _PROTECTION]
    if places:
        where = ", ".join(f"{damage_type_name(p)} {n}" for p, n in places)
        parts.insert(0, _("armour {where}").format(where=where))
    elif not any(where in _WORN for where, _n in shown.armour):
        parts.insert(0, _("no armour"))
    return ", ".join(parts)


#: The armour entries that are not a body location, worded with their number `n`.
_PROTECTION: Mapping[str, Callable[[], str]] = {
    "shield": lambda: _("shield +{n} in defence"),
    "armour": lambda: _("armour {n}"),
    "ac": lambda: _("AC {n}"),
    "dp": lambda: _("DP {n}"),
}
#: The entries that are protection worn (else the card says "no armour" first).
_WORN = ("shield", "armour", "ac")


def _char(name: str) -> str:
    return {"end": _("END"), "str": _("STR"), "dex": _("DEX")}.get(name, name.upper())


def _section(name: str, lost: int, boxes: int) -> str:
    word = _SECTIONS.get(name)
    return (word() if word is not None else name + " {lost}/{boxes}").format(lost=lost, boxes=boxes)
