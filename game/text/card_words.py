"""The unit card's words for a ruleset's own health and armour (issue 16): what the ruleset's
`BattleRules.health_shown` answered (game/rules/ruleset_answers.HealthShown), worded in the
language spoken now. Nothing here decides a rule; an unknown code is shown as it is."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from game.rules.ruleset_answers import HealthShown
from game.text.explain import condition_name
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
    """The card's health lines: for the player's own unit its numbers in the ruleset's terms,
    for another only the state anyone who sees it knows."""
    if not own or not shown.rows:
        return [_("Health: {state}").format(state=state_name(shown.state))]
    state = state_name(shown.state)
    rows = {name: (now, most) for name, now, most in shown.rows}
    if shown.ruleset == "myst":
        now, most = rows.get("status", (0, 0))
        return [_("Status Globale: {now} of {most}").format(now=now, most=most)]
    if shown.ruleset == "cepheus":
        chars = " · ".join(
            _("{char} {now}/{most}").format(char=_char(name), now=now, most=most)
            for name, now, most in shown.rows
        )
        return [_("{chars}: {state}").format(chars=chars, state=state)]
    if shown.ruleset == "d20":
        hp = rows.get("hp", (0, 0))[0]
        if shown.state == "ok":
            return [_("Hit points: {hp}").format(hp=hp)]
        return [_("Hit points: {hp} ({state})").format(hp=hp, state=state)]
    if shown.ruleset == "fantasy":
        sections = " · ".join(_section(name, lost, boxes) for name, lost, boxes in shown.rows)
        lines = [_("Body points lost: {sections}").format(sections=sections)]
        if shown.penalty:
            lines.append(_("Penalty {p} to every action").format(p=shown.penalty))
        return lines
    return [_("Health: {state}").format(state=state)]


def protection_text(shown: HealthShown) -> str:
    """The armour part of the card's kit line, in the ruleset's terms: Myst's shield, fantasy's
    points per location and DP, Cepheus's armour, d20's AC."""
    points = dict(shown.armour)
    if shown.ruleset == "myst":
        shield = points.get("shield", 0)
        return _("shield +{n} in defence").format(n=shield) if shield else _("no shield")
    if shown.ruleset == "cepheus":
        armour = points.get("armour", 0)
        return _("armour {n}").format(n=armour) if armour else _("no armour")
    if shown.ruleset == "d20":
        return _("AC {ac}").format(ac=points.get("ac", 0))
    if shown.ruleset == "fantasy":
        places = [(p, n) for p, n in shown.armour if p != "dp"]
        dp = _("DP {dp}").format(dp=points.get("dp", 0))
        if not places:
            return _("no armour, {dp}").format(dp=dp)
        where = ", ".join(f"{damage_type_name(p)} {n}" for p, n in places)
        return _("armour {where}, {dp}").format(where=where, dp=dp)
    return ", ".join(f"{p} {n}" for p, n in shown.armour) or _("no armour")


def _char(name: str) -> str:
    return {"end": _("END"), "str": _("STR"), "dex": _("DEX")}.get(name, name.upper())


def _section(name: str, lost: int, boxes: int) -> str:
    word = _SECTIONS.get(name)
    return (word() if word is not None else name + " {lost}/{boxes}").format(lost=lost, boxes=boxes)
