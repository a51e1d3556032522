"""The battle's events and refusals worded for players (the log, the window's prompts), via gettext.

The battle answers with codes and values (game/battle/reasons.py); this module is where they
become sentences, beside game/text/explain.py which words the rules' own answers, so that the window
and the log say the same thing in English and Italian.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from game.battle.events import UNSEEN, Event
from game.battle.outcome import Refusal
from game.battle.reasons import Happened, Why
from game.rules import registry
from game.text.explain import (
    action_name,
    chance_text,
    condition_name,
    cover_name,
    effect_name,
    field_condition_name,
    mode_name,
    no_chance_words,
    percent_text,
    roll_line,
    stance_name,
)
from game.text.i18n import _
from game.text.names import HIT_LOCATIONS, damage_type_name, side_name, weapon_name


def cell_text(cell: object) -> str:
    """A cell as players read it: (x, y, level)."""
    if isinstance(cell, list | tuple) and len(cell) == 3:
        return f"({cell[0]}, {cell[1]}, {cell[2]})"
    return str(cell)


def _names(items: object) -> str:
    if isinstance(items, list | tuple):
        return ", ".join(str(i) for i in items)
    return str(items)


def _because(code: object) -> str:
    if code == "surprised":
        return _("surprised")
    return condition_name(str(code))


#: Fields of an event's data that name units (view.told blanks an unseen one to UNSEEN).
_UNIT_FIELDS = frozenset(
    {"unit", "target", "mover", "reactor", "by", "with", "ally", "against", "order", "holder"}
    | {"grabbed"}  # Myst's grab (002:l.107-116)
)


def _unseen_named(data: Mapping[str, Any]) -> dict[str, Any]:
    """The event's data with each unit the player did not see named "someone unseen"."""
    unseen = _("someone unseen")

    def named(value: Any) -> Any:
        if value == UNSEEN:
            return unseen
        if isinstance(value, list | tuple) and not all(isinstance(v, int) for v in value):
            return [named(v) for v in value]
        return value

    return {k: named(v) if k in _UNIT_FIELDS else v for k, v in data.items()}


def _weapon(weapon: object) -> str:
    return weapon_name(str(weapon))


def _arm(d: Mapping[str, Any]) -> str:
    """The weapon an attack event names: a ruleset sheet's own (Myst, fantasy, Cepheus, d20:
    combat.weapon_named) by its id's display name, else its data name; else periferie's weapon
    by its id."""
    named = d.get("weapon_name")
    if named:
        return weapon_name(str(d.get("sheet_weapon") or ""), str(named))
    return _weapon(d["weapon"])


def _thrown(d: Mapping[str, Any]) -> str:
    """What a throw event names: the ruleset sheet's weapon (Cepheus's grenade), else
    periferie's thrown weapon, else the object of its size."""
    if d.get("weapon_name") or d.get("weapon"):
        return _arm(d)
    return _object_name(str(d.get("size")))


def _sides(factions: object) -> str:
    if isinstance(factions, list | tuple):
        return ", ".join(side_name(str(f)) for f in factions)
    return side_name(str(factions))


def _moved(d: Mapping[str, Any]) -> str:
    if d.get("to") == UNSEEN:  # view.told: the mover went out of sight, its end is withheld
        return _("{unit} moves out of sight.").format(unit=d["unit"])
    return _("{unit} moves {frm} → {to}: {cost} points ({spent} this turn)").format(
        unit=d["unit"],
        frm=cell_text(d["from"]),
        to=cell_text(d["to"]),
        cost=d["cost"],
        spent=d["spent"],
    )


def _hit(flag: object) -> str:
    return _("hit") if flag else _("miss")


def _attack(d: Mapping[str, Any]) -> str:
    if d.get("target") is None and "hit_chance" not in d:  # another ruleset's exact chance
        return _("{unit} fires {weapon} at {at}: {chance} — {result}").format(
            unit=d["unit"],
            weapon=_arm(d),
            at=cell_text(d.get("at")),
            chance=_exact(d),
            result=_hit(d["hit"]),
        )
    if d.get("target") is None:
        return _("{unit} fires {weapon} at {at}: {p}% — {result}").format(
            unit=d["unit"],
            weapon=_arm(d),
            at=cell_text(d.get("at")),
            p=d["hit_chance"],
            result=_hit(d["hit"]),
        )
    if "hit_chance" in d:  # periferie's P, a whole percentage (P-HIT-2)
        text = _("{unit} attacks {target} with {weapon}: {p}% — {result}").format(
            unit=d["unit"],
            target=d["target"],
            weapon=_arm(d),
            p=d["hit_chance"],
            result=_hit(d["hit"]),
        )
    else:
        text = _("{unit} attacks {target} with {weapon}: {chance} — {result}").format(
            unit=d["unit"],
            target=d["target"],
            weapon=_arm(d),
            chance=_exact(d),
            result=_hit(d["hit"]),
        )
    if d.get("cover"):
        text += " " + _("(cover: {grade})").format(grade=cover_name(str(d["cover"])))
    if "defence_dice" in d:
        text += " " + fantasy_rolls_text(d)
    if d.get("situation"):
        text += " " + myst_situation_text(d)
    return text


def fantasy_rolls_text(d: Mapping[str, Any]) -> str:
    """A fantasy attack's totals (003:l.86-110): the attack against the DP and, whenever the
    target defended (a "nothing" outcome too), its defence dice and total."""
    if d.get("defence_dice") is None:
        return _("(attack {a} against DP {dp}, no defence)").format(
            a=d.get("attack_total"), dp=d.get("dp")
        )
    return _("(attack {a} against DP {dp}; defence {dice}: {d})").format(
        a=d.get("attack_total"), dp=d.get("dp"), dice=d["defence_dice"], d=d.get("defence_total")
    )


def myst_situation_text(d: Mapping[str, Any]) -> str:
    """A Myst exchange's circumstances in words (the attack event's `situation`): a charge and
    its run-up, a two-handed grip, a second defence's -20 or its cancelling."""
    names = {
        "charge": lambda: _(
            "charge after a run-up of {cells} cells: Strength cap raised, a won defence's "
            "margin raised, the charger rolls for Priority (M-1, M-2)"
        ).format(cells=d.get("run_up", "?")),
        "two_handed": lambda: _("two-handed grip: Strength cap raised (M-1)"),
        "second_defence": lambda: _("the target's second defence this round: -20 (M-2)"),
        "penalty_cancelled": lambda: _(
            "the target's second defence without its -20, cancelled by a defence margin (M-2)"
        ),
        "closed_defence": lambda: _(
            "the target is closed into defence: its defence raised, its margin only breaks "
            "off (M-1, M-2)"
        ),
    }
    words = [names[str(c)]() for c in d.get("situation", ()) if str(c) in names]
    return "(" + "; ".join(words) + ")"


def _reaction_attack(d: Mapping[str, Any]) -> str:
    if "hit_chance" not in d:
        return _("{unit} strikes at {target} as a reaction: {chance} — {result}").format(
            unit=d["unit"], target=d["target"], chance=_exact(d), result=_hit(d["hit"])
        )
    return _("{unit} strikes at {target} as a reaction: {p}% — {result}").format(
        unit=d["unit"], target=d["target"], p=d["hit_chance"], result=_hit(d["hit"])
    )


#: Marks an event's copied data as worded for the plain log: its exact chances as percentages.
_PLAIN_CHANCE = "plain chance"


def _exact(d: Mapping[str, Any]) -> str:
    """Another ruleset's attack event gives its exact chance as "n/d" under "chance" (its
    AttackRoll.logged, as `tessera query` writes probabilities). The plain log (until Alt is
    held, `event_text(details=False)`) shows only its percentage, the fraction being Alt's."""
    try:
        chance = Fraction(str(d.get("chance")))
        if d.get(_PLAIN_CHANCE):
            return percent_text(chance)
        return chance_text(chance)
    except (ValueError, ZeroDivisionError):
        return str(d.get("chance"))


def _throw(d: Mapping[str, Any]) -> str:
    thing = _thrown(d)
    aim = d.get("target") or cell_text(d.get("aim"))
    text = _("{unit} throws {thing} at {aim}").format(unit=d["unit"], thing=thing, aim=aim)
    if d.get("hit_chance") is not None:
        text += f": {d['hit_chance']}% — {_hit(d.get('hit'))}"
    elif d.get("chance") is not None:  # another ruleset's exact chance
        text += f": {_exact(d)} — {_hit(d.get('hit'))}"
    if d.get("landed") != d.get("aim"):
        text += "; " + _("it lands at {cell}").format(cell=cell_text(d.get("landed")))
    return text


def _object_name(size: str) -> str:
    names = {
        "light": _("a light object"),
        "medium": _("a medium object"),
        "heavy": _("a heavy object"),
    }
    return names.get(size, size)


def _damage(d: Mapping[str, Any]) -> str:
    effects = ", ".join(effect_name(str(e)) for e in d.get("effects", ())) or _("no effect")
    if d.get("source") == "burning":
        return _("{unit} burns: {damage} burn damage — {effects}").format(
            unit=d["unit"], damage=d["damage"], effects=effects
        )
    if d.get("source") == "exertion":  # d20's disabled creature (D-2, assumed)
        return _("{unit} strains itself, disabled: {damage} hit point(s) lost — {effects}").format(
            unit=d["unit"], damage=d["damage"], effects=effects
        )
    if str(d["type"]) in HIT_LOCATIONS:  # fantasy's hit location (F-3), not a damage type
        text = _("{unit} takes {damage} damage to the {location} ({rolled} rolled)").format(
            unit=d["unit"],
            damage=d["damage"],
            location=damage_type_name(str(d["type"])),
            rolled=d["rolled"],
        )
    else:
        text = _("{unit} takes {damage} {type} damage ({rolled} rolled)").format(
            unit=d["unit"],
            damage=d["damage"],
            type=damage_type_name(str(d["type"])),
            rolled=d["rolled"],
        )
    if not d.get("effects") and d.get("own_health"):
        # Another ruleset's damage lowers its own health (Myst's Status Globale, fantasy's
        # body points, d20's hit points) with no wound-table effect: "no effect" would be false.
        return text + "."
    return text + ": " + effects


def _margin_won(d: Mapping[str, Any]) -> str:
    return _(
        "{unit} hits {target}: {units} unit(s) of margin to spend, the die shows {rolled} (M-1)."
    ).format(unit=d["unit"], target=d["target"], units=d["units"], rolled=d["rolled"])


def _margin_spent(d: Mapping[str, Any]) -> str:
    uses = d.get("uses", {})
    return _("{unit} spends its margin on {target}: {plan} — {damage} damage.").format(
        unit=d["unit"],
        target=d["target"],
        plan=margin_uses_text(uses if isinstance(uses, Mapping) else {}, {}),
        damage=d["damage"],
    )


def margin_uses_text(uses: Mapping[str, object], caps: Mapping[str, object]) -> str:
    """A margin's spend in words (M-1): "+2 damage (Strength, cap 2), die minimum 1, the die
    reduced by 1", or "nothing spent"; the Strength cap named when `caps` has it."""
    parts: list[str] = []
    strength = uses.get("strength", 0)
    if strength:
        if "strength" in caps:
            parts.append(
                _("+{n} damage (Strength, cap {cap})").format(n=strength, cap=caps["strength"])
            )
        else:
            parts.append(_("+{n} damage (Strength)").format(n=strength))
    if uses.get("minimum", 0):
        parts.append(_("die minimum {n}").format(n=uses["minimum"]))
    if uses.get("reduce", 0):
        parts.append(_("the die reduced by {n}").format(n=uses["reduce"]))
    return ", ".join(parts) if parts else _("nothing spent")


def margin_plan_text(uses: Mapping[str, object], caps: Mapping[str, object], damage: int) -> str:
    """One choice of the margin prompt: its spend and the damage it makes."""
    return _("{plan}: {damage} damage").format(plan=margin_uses_text(uses, caps), damage=damage)


def counter_move_name(move: str) -> str:
    """A defence margin's counter-move (002:l.76-79) in words."""
    names = {
        "counterattack": _("counterattack"),
        "cancel_penalty": _("no -20 on the next defence this round"),
        "break_off": _("break off"),
        "priority": _("Priority next round"),
        "push": _("push"),
        "trip": _("trip"),
        "grab": _("grab"),
    }
    return names.get(move, move)


def _defence_margin(d: Mapping[str, Any]) -> str:
    moves = ", ".join(counter_move_name(str(m)) for m in d.get("taken", ()))
    text = _("{unit} wins its defence against {against} by {margin} (M-1): {moves}.").format(
        unit=d["unit"], against=d["against"], margin=d["margin"], moves=moves
    )
    if "counter_attack_total" in d:
        text += " " + _("Counterattack {a} against {d}: {result}.").format(
            a=d["counter_attack_total"], d=d["counter_defence_total"], result=_hit(d.get("hit"))
        )
    answer = d.get("counter_situation", ())
    if "second_defence" in answer:
        text += " " + _("{against}'s answer is its second defence this round: -20 (M-2).").format(
            against=d["against"]
        )
    elif "penalty_cancelled" in answer:
        text += " " + _(
            "{against}'s answer is its second defence this round, its -20 cancelled (M-2)."
        ).format(against=d["against"])
    if d.get("initiative"):
        words = _("{unit} acts before {against} in round {round} (Priority +{change}).")
        text += " " + words.format(
            unit=d["unit"], against=d["against"], round=d.get("round", "?"), change=d["initiative"]
        )
    elif "initiative" in d:
        text += " " + _("{unit} acts before {against} next round already.").format(
            unit=d["unit"], against=d["against"]
        )
    if d.get("knocked_down"):
        text += " " + _("{against} is knocked down until it stands (M-1).").format(
            against=d["against"]
        )
    elif d.get("penalty"):
        text += " " + _("{against} takes -{penalty} on its next attack or defence (M-1).").format(
            against=d["against"], penalty=d["penalty"]
        )
    if d.get("grabbed"):
        text += " " + _("{against} is held in {unit}'s grab: neither moves nor attacks.").format(
            against=d["against"], unit=d["unit"]
        )
    return text


def _broke_off(d: Mapping[str, Any]) -> str:
    if d.get("to") is None:
        return _("{unit} breaks off from {other}, but no step leaves its reach.").format(
            unit=d["unit"], other=d["against"]
        )
    if d.get("stopped"):  # someone its side did not see stood there (the "ambushed" event)
        return _("{unit} breaks off from {other} towards {to}, but is stopped (M-1).").format(
            unit=d["unit"], other=d["against"], to=cell_text(d["to"])
        )
    return _("{unit} breaks off from {other}: a step to {to} (M-1).").format(
        unit=d["unit"], other=d["against"], to=cell_text(d["to"])
    )


def _grab_break(d: Mapping[str, Any]) -> str:
    result = _("broken") if d.get("broken") else _("held")
    return _(
        "{unit} tries to break {holder}'s grab: {total} against {holder_total}, {result}."
    ).format(
        unit=d["unit"],
        holder=d["holder"],
        total=d["total"],
        holder_total=d["holder_total"],
        result=result,
    )


def _grab_ended(d: Mapping[str, Any]) -> str:
    why = str(d.get("why"))
    if why == "let_go":
        text = _("{holder} lets go of {grabbed} and takes the Priority (M-1).")
    elif why == "broken":
        text = _("{grabbed} breaks free of {holder}'s grab.")
    else:
        text = _("The grab between {holder} and {grabbed} ends.")
    return text.format(holder=d["holder"], grabbed=d["grabbed"])


def _defence_plan(d: Mapping[str, Any]) -> str:
    moves = [counter_move_name(str(m)) for m in d.get("moves", ())]
    if not moves:
        return _("{unit} will keep its defence margins.").format(unit=d["unit"])
    return _("{unit}'s won defences will take: {moves}.").format(
        unit=d["unit"], moves=", ".join(moves)
    )


def _death_save(d: Mapping[str, Any]) -> str:
    results = {
        "success": _("success"),
        "failure": _("failure"),
        "two_failures": _("a natural 1: two failures"),
        "recovered": _("a natural 20: the mortal wound becomes grave"),
        "stabilised": _("stabilised"),
        "dead": _("dead"),
    }
    result = str(d.get("result"))
    return _("{unit} rolls a death save: {result}").format(
        unit=d["unit"], result=results.get(result, result)
    )


def _dying(d: Mapping[str, Any]) -> str:
    """D-2: a dying creature's d% (10 or less stabilises it, else 1 hit point lost)."""
    if d.get("stabilised"):
        return _("{unit} is dying and rolls {roll} on d%: stable at {hp} hit points.").format(
            unit=d["unit"], roll=d["roll"], hp=d["hit_points"]
        )
    if d.get("state") == "dead":
        return _("{unit} is dying and rolls {roll} on d%: down to {hp} hit points, dead.").format(
            unit=d["unit"], roll=d["roll"], hp=d["hit_points"]
        )
    return _("{unit} is dying and rolls {roll} on d%: down to {hp} hit points.").format(
        unit=d["unit"], roll=d["roll"], hp=d["hit_points"]
    )


def _fortitude_save(d: Mapping[str, Any]) -> str:
    """004:l.116: the coup de grâce's survivor saves on Fortitude at DC 10 + damage or dies."""
    values = {"unit": d["unit"], "total": d["total"], "dc": d["dc"]}
    if d.get("survived"):
        return _("{unit} saves on Fortitude, {total} against DC {dc}, and lives.").format(**values)
    return _("{unit} fails its Fortitude save, {total} against DC {dc}, and dies.").format(**values)


def _jump_check(d: Mapping[str, Any]) -> str:
    """P-JUMP-1/3: a jump above or a drop below n_max, and what came of its check."""
    values = {"unit": d["unit"], "height": d["height"], "dc": d["dc"], "n_max": d["n_max"]}
    if d["kind"] == "drop":
        if d["success"]:
            return _("{unit} drops {height} levels: athletics check DC {dc} made.").format(**values)
        return _(
            "{unit} drops {height} levels: athletics check DC {dc} failed, lands prone."
        ).format(**values)
    if d["success"]:
        return _("{unit} jumps {height} high: athletics check DC {dc} made.").format(**values)
    return _(
        "{unit} tries a jump {height} high: athletics check DC {dc} failed, jumps only"
        " {n_max} high."
    ).format(**values)


def _medkit(d: Mapping[str, Any]) -> str:
    results = {
        "healed": _("wound healed"),
        "stabilised": _("stabilised"),
        "check_failed": _("the medicine check failed; the kit is spent"),
        "already_stabilised": _("already stabilised; the kit is spent"),
    }
    wounds = {"light": _("light wound"), "grave": _("grave wound"), "mortal": _("mortal wound")}
    result = str(d.get("result"))
    if "restored" in d:  # another ruleset's first aid: characteristic points back (Cepheus)
        done = (
            _("{n} characteristic points back").format(n=d["restored"])
            if result == "first_aid"
            else results.get(result, result)
        )
        return _("{unit} gives first aid to {target}: {result}").format(
            unit=d["unit"], target=d["target"], result=done
        )
    return _("{unit} uses a medkit on {target} ({wound}): {result}").format(
        unit=d["unit"],
        target=d["target"],
        wound=wounds.get(str(d.get("wound")), str(d.get("wound"))),
        result=results.get(result, result),
    )


def _condition(d: Mapping[str, Any]) -> str:
    parts = [f"+{condition_name(str(c))}" for c in d.get("add", ())]
    parts += [f"−{condition_name(str(c))}" for c in d.get("remove", ())]
    return _("GM: {unit} {changes}").format(unit=d["unit"], changes=", ".join(parts))


def _field_conditions(d: Mapping[str, Any]) -> str:
    """Issue 15: "GM: dense smoke." — the conditions the GM changed, at their new values."""
    changed = [str(name) for name in d.get("changed", ())]
    shown = ", ".join(field_condition_name(name, str(d.get(name))) for name in changed)
    return _("GM: {conditions}.").format(conditions=shown)


def _improvise_ruled(d: Mapping[str, Any]) -> str:
    verdicts = {"accept": _("accepted"), "reject": _("rejected"), "check": _("a check")}
    text = _("The GM rules on {unit}'s “{text}”: {verdict}").format(
        unit=d["unit"], text=d["text"], verdict=verdicts.get(str(d["verdict"]), d["verdict"])
    )
    if d.get("verdict") == "check":
        text += " — " + (_("success") if d.get("success") else _("failure"))
    return text


def _reaction_offered(d: Mapping[str, Any]) -> str:
    if d.get("act") == "coup_de_grace":  # 004:l.118
        return _plain_reaction_offered(d)
    if d.get("kind") == "readied":
        return _("{unit} has {mover} in sight at {at}: its readied attack may fire").format(
            unit=d["unit"], mover=d["mover"], at=cell_text(d["at"])
        )
    return _("{mover} leaves {unit}'s reach at {at}: {unit} may strike").format(
        unit=d["unit"], mover=d["mover"], at=cell_text(d["at"])
    )


def _drifted(d: Mapping[str, Any]) -> str:
    if d.get("to") == UNSEEN:
        return _("{unit} drifts out of sight.").format(unit=d["unit"])
    words = {"unit": d["unit"], "frm": cell_text(d["from"]), "to": cell_text(d["to"])}
    if d.get("landed"):
        return _("{unit} flies on {frm} → {to} and lands.").format(**words)
    if d.get("stopped"):
        return _("{unit} drifts {frm} → {to} and is stopped.").format(**words)
    return _("{unit} drifts {frm} → {to}.").format(**words)


def _combat_over(d: Mapping[str, Any]) -> str:
    if d.get("because") == "stalemate":
        return _(
            "The combat is over: a stalemate, {rounds} rounds without an attack or a wound."
        ).format(rounds=d["rounds"])
    if d.get("winner"):
        return _("The combat is over: {winner} win.").format(winner=side_name(str(d["winner"])))
    return _("The combat is over.")


_EVENTS: dict[Happened, Callable[[Mapping[str, Any]], str]] = {
    Happened.COMBAT_STARTED: lambda d: _("The combat begins."),
    Happened.ROUND_STARTED: lambda d: _("Round {round} begins.").format(round=d["round"]),
    Happened.INITIATIVE: lambda d: (
        _("{unit} rolls initiative: {total}").format(unit=d["unit"], total=d["total"])
        if d.get("total") not in (None, UNSEEN)
        else _("{unit} rolls initiative in secret.").format(unit=d["unit"])
    ),
    Happened.INITIATIVE_REORDERED: lambda d: _("Tied initiative ordered: {order}").format(
        order=_names(d["order"])
    ),
    Happened.INITIATIVE_RESTARTED: lambda d: _("The initiative is rolled again."),
    Happened.TURN_STARTED: lambda d: _("{unit}'s turn.").format(unit=d["unit"]),
    Happened.TURN_SKIPPED: lambda d: _("{unit} loses its turn: {because}.").format(
        unit=d["unit"], because=_because(d.get("because"))
    ),
    Happened.TURN_ENDED: lambda d: _("{unit} ends its turn.").format(unit=d["unit"]),
    Happened.TURN_CUT_SHORT: lambda d: _("{unit}'s turn ends at once.").format(unit=d["unit"]),
    Happened.TURN_PASSED: lambda d: _("{unit} gives its place to {to}.").format(
        unit=d["unit"], to=_("someone unseen") if d["to"] == UNSEEN else d["to"]
    ),
    Happened.MOVED: _moved,
    Happened.MOVE_STOPPED: lambda d: _("{unit} stops: {why}").format(
        unit=d["unit"], why=why_text(str(d.get("why")), {})
    ),
    Happened.AMBUSHED: lambda d: _(
        "{unit} runs into {by}, unseen until now, and stops at {at}."
    ).format(unit=d["unit"], by=d["by"], at=cell_text(d["at"])),
    Happened.FLYING: lambda d: _(
        "{unit} leaps towards {toward} and will land in a later turn."
    ).format(unit=d["unit"], toward=cell_text(d["toward"])),
    Happened.DRIFTED: _drifted,
    Happened.COLLIDED: lambda d: _(
        "{unit} lands on {other} at {at}: {unit_save}, {other_save} (P-MOV-8)."
    ).format(
        unit=d["unit"],
        other=d["with"],
        at=cell_text(d["at"]),
        unit_save=_("{unit} keeps its feet").format(unit=d["unit"])
        if d.get("unit_saved")
        else _("{unit} falls, stunned").format(unit=d["unit"]),
        other_save=_("{unit} keeps its feet").format(unit=d["with"])
        if d.get("with_saved")
        else _("{unit} falls, stunned").format(unit=d["with"]),
    ),
    Happened.STEPPED_ASIDE: lambda d: _("{unit} steps aside to {to}.").format(
        unit=d["unit"], to=cell_text(d["to"])
    ),
    Happened.FIVE_FOOT_STEP: lambda d: _("{unit} takes a 5-foot step to {to}.").format(
        unit=d["unit"], to=cell_text(d["to"])
    ),
    Happened.COASTING: lambda d: (
        _("{unit} keeps its velocity {velocity}: dampers off.").format(
            unit=d["unit"], velocity=cell_text(d["velocity"])
        )
        if d.get("velocity") != UNSEEN
        else _("{unit} keeps its velocity out of sight: dampers off.").format(unit=d["unit"])
    ),
    Happened.JUMP_CHECK: _jump_check,
    Happened.DASHED: lambda d: _("{unit} dashes: double movement this turn.").format(
        unit=d["unit"]
    ),
    Happened.ATTACK: _attack,
    Happened.REACTION_ATTACK: _reaction_attack,
    Happened.THROW: _throw,
    Happened.DAMAGE: _damage,
    Happened.MARGIN_WON: _margin_won,
    Happened.MARGIN_SPENT: _margin_spent,
    Happened.DEFENCE_MARGIN: _defence_margin,
    Happened.DEFENCE_PLAN: _defence_plan,
    Happened.CLOSED_DEFENCE: lambda d: _(
        "{unit} closes into defence, giving up its attack: until its next turn its defences "
        "are raised and a won one only breaks off (M-1)."
    ).format(unit=d["unit"]),
    Happened.BROKE_OFF: _broke_off,
    Happened.GRAB_BREAK: _grab_break,
    Happened.GRAB_ENDED: _grab_ended,
    Happened.UNBALANCE_LAPSED: lambda d: _(
        "{unit} gave up its attack: the -{penalty} from the push is gone (M-1)."
    ).format(unit=d["unit"], penalty=d["penalty"]),
    Happened.DIED: lambda d: _("{unit} dies.").format(unit=d["unit"]),
    Happened.DAMAGE_DEFERRED: lambda d: _(
        "{unit} is hit ({rolled}): counted when the simultaneous group has acted."
    ).format(unit=d["unit"], rolled=d["rolled"]),
    Happened.RELOADED: lambda d: (
        _("{unit} reloads: {left} more turns.").format(unit=d["unit"], left=d["left"])
        if d.get("left")
        else _("{unit} reloads: ready to fire.").format(unit=d["unit"])
    ),
    Happened.DEATH_SAVE: _death_save,
    Happened.DYING: _dying,
    Happened.COUP_DE_GRACE_BEGUN: lambda d: _(
        "{unit} gives {target} the coup de grâce, a full-round action (004:l.114)."
    ).format(unit=d["unit"], target=d["target"]),
    Happened.COUP_DE_GRACE: lambda d: _(
        "{unit}'s coup de grâce hits {target} as a critical: {damage} damage (004:l.116)."
    ).format(unit=d["unit"], target=d["target"], damage=d["damage"]),
    Happened.COUP_DE_GRACE_LOST: lambda d: _(
        "{unit}'s coup de grâce at {target} is lost: the target is no longer helpless in reach."
    ).format(unit=d["unit"], target=d["target"]),
    Happened.FORTITUDE_SAVE: _fortitude_save,
    Happened.STANCE: lambda d: _("{unit} is now {stance}.").format(
        unit=d["unit"], stance=stance_name(str(d["stance"]))
    ),
    Happened.DODGE: lambda d: _("{unit} dodges: attacks on it have disadvantage.").format(
        unit=d["unit"]
    ),
    Happened.DISENGAGE: lambda d: _("{unit} disengages.").format(unit=d["unit"]),
    Happened.HELP: lambda d: _("{unit} helps {ally}.").format(unit=d["unit"], ally=d["ally"]),
    Happened.READY: lambda d: _(
        "{unit} readies an attack on the first enemy to come in sight."
    ).format(unit=d["unit"]),
    Happened.HIDE: lambda d: (
        _("{unit} hides.") if d.get("success") else _("{unit} tries to hide, and fails.")
    ).format(unit=d["unit"]),
    Happened.SEARCH: lambda d: _("{unit} searches: {found} found.").format(
        unit=d["unit"], found=d["found"]
    ),
    Happened.STEALTH_CHECK: lambda d: (
        _("{unit} slips past {against} unseen.")
        if d.get("success")
        else _("{against} spots {unit}.")
    ).format(unit=d["unit"], against=d["against"]),
    Happened.MEDKIT: _medkit,
    Happened.IMPROVISE: lambda d: _("{unit} improvises: “{text}” — the GM will rule.").format(
        unit=d["unit"], text=d["text"]
    ),
    Happened.IMPROVISE_RULED: _improvise_ruled,
    Happened.REACTION_OFFERED: _reaction_offered,
    Happened.REACTION_DECLINED: lambda d: _("{unit} lets {mover} go.").format(
        unit=d["unit"], mover=d["mover"]
    ),
    Happened.REACTION_LOST: lambda d: _("{unit}'s reaction finds {mover} out of reach.").format(
        unit=d["unit"], mover=d["mover"]
    ),
    Happened.SIGHTED: lambda d: _("{faction} sight {unit} at {at}.").format(
        faction=side_name(str(d["faction"])), unit=d["unit"], at=cell_text(d["at"])
    ),
    Happened.REVEALED: lambda d: _("{unit} is no longer hidden from {to}.").format(
        unit=d["unit"], to=_sides(d["to"])
    ),
    Happened.CONCEALED: lambda d: _("GM: {unit} is hidden from {sides}.").format(
        unit=d["unit"], sides=_sides(d["from"])
    ),
    Happened.DISCOVERED: lambda d: _("{unit} is discovered by {by} and joins the combat.").format(
        unit=d["unit"], by=_names(d["by"])
    ),
    Happened.SURPRISED: lambda d: _("{unit} is surprised.").format(unit=d["unit"]),
    Happened.ARRIVED: lambda d: _("{unit} arrives at {at}.").format(
        unit=d["unit"], at=cell_text(d["at"])
    ),
    Happened.REINFORCEMENT_CALLED: lambda d: _("GM: {unit} will arrive in round {round}.").format(
        unit=d["unit"], round=d["round"]
    ),
    Happened.DICE_ENTERED: lambda d: _("GM: physical dice entered: {faces}.").format(
        faces=_names(d["faces"])
    ),
    Happened.CONDITION: _condition,
    Happened.CELL_EDITED: lambda d: _("GM: the cell {at} is changed.").format(
        at=cell_text(d["at"])
    ),
    Happened.FIELD_CONDITIONS: _field_conditions,
    Happened.CONTROLLER: lambda d: _("{faction} is now played by {who}.").format(
        faction=side_name(str(d["faction"])),
        who=_("the computer") if d["controller"] == "computer" else d["controller"],
    ),
    Happened.COMBAT_OVER: _combat_over,
    # Cepheus's round (C-1, C-4)
    Happened.AIMED: lambda d: (
        _("{unit} aims to kill {target}: +1 damage, no dodging.")
        if d.get("kill")
        else _("{unit} aims at {target}.")
    ).format(unit=d["unit"], target=d["target"]),
    Happened.HASTY: lambda d: _(
        "{unit} will act hastily in round {round}: +2 initiative, -1 to every action."
    ).format(unit=d["unit"], round=d["round"]),
    Happened.DELAYED: lambda d: (
        _("{unit} delays: it will act after {after}.").format(
            unit=d["unit"], after=_("someone unseen") if d["after"] == UNSEEN else d["after"]
        )
        if d.get("after") is not None
        else _("{unit} delays: it will act first in round {round}.").format(
            unit=d["unit"], round=d["round"]
        )
    ),
    Happened.REACT_STANCE: lambda d: (
        _("{unit} will dodge or parry when attacked.")
        if d.get("now") == "always"
        else _("{unit} will dodge or parry when attacked once its turn is over.")
        if d.get("now") == "after_acting"
        else _("{unit} will not react when attacked.")
    ).format(unit=d["unit"]),
    Happened.FIRE_MODE: lambda d: (
        _("{unit} fires bursts.") if d.get("now") == "burst" else _("{unit} fires single shots.")
    ).format(unit=d["unit"]),
    Happened.REACTED: lambda d: (
        _("{unit} dodges {against}: initiative {change} (round {round}).")
        if d.get("reaction") == "dodge"
        else _("{unit} parries {against}: initiative {change} (round {round}).")
    ).format(unit=d["unit"], against=d["against"], change=d["initiative"], round=d["round"]),
    Happened.SUPPRESSION_FIRE: lambda d: _(
        "{unit} lays suppression fire on {target}: {chance} — {result}"
    ).format(unit=d["unit"], target=d["target"], chance=_exact(d), result=_hit(d["hit"])),
    Happened.SUPPRESSED: lambda d: _(
        "{unit} is suppressed by {by}: initiative {change} (round {round}), -1 to its checks "
        "this round and the next."
    ).format(unit=d["unit"], by=d["by"], change=d["initiative"], round=d["round"]),
    Happened.GAIT_DECLARED: lambda d: _(
        "{unit} declares its horse's gait: {gait} from its next turn (002:l.153)."
    ).format(unit=d["unit"], gait=gait_name(str(d["gait"]))),
    Happened.STRIKE_HORSE: lambda d: (
        _("{unit} will strike at riders' horses (002:l.150).")
        if d.get("horse")
        else _("{unit} will strike at riders, not their horses (002:l.150).")
    ).format(unit=d["unit"]),
    Happened.RIDING_CHECK: lambda d: (
        _("{unit} keeps its saddle: Cavalcare {total} against the blow's {difficulty}.")
        if not d.get("failed_by")
        else _(
            "{unit} loses control of its horse: Cavalcare {total} against the blow's "
            "{difficulty}, -{failed_by} (002:l.154)."
        )
    ).format(
        unit=d["unit"],
        total=d["total"],
        difficulty=d["difficulty"],
        failed_by=d.get("failed_by", 0),
    ),
    Happened.UNHORSED: lambda d: _(
        "{unit} falls from its horse ({why}): Atletica {total} against {difficulty}, "
        "{damage} damage; now on foot (002:l.156-185)."
    ).format(
        unit=d["unit"],
        why=_("horse down") if d.get("why") == "horse_down" else _("thrown"),
        total=d["total"],
        difficulty=d["difficulty"],
        damage=d["damage"],
    ),
    Happened.GALLOP_DEFENDED: lambda d: _(
        "{unit} defended in a gallop's exchange: no action after it this round (002:l.144)."
    ).format(unit=d["unit"]),
}


def gait_name(gait: str) -> str:
    """A Myst rider's gait (002:l.130-145)."""
    names = {"walk": _("at a walk"), "canter": _("at a canter"), "gallop": _("at a gallop")}
    return names.get(gait, gait)


#: The same events said without their cells, for the log as it reads by default (issue 17:
#: coordinates and ruling ids only behind Alt); an event not here names no cell.
_PLAIN: dict[Happened, Callable[[Mapping[str, Any]], str]] = {
    Happened.MOVED: lambda d: (
        _moved(d)
        if d.get("to") == UNSEEN
        else _("{unit} moves: {cost} points ({spent} this turn)").format(
            unit=d["unit"], cost=d["cost"], spent=d["spent"]
        )
    ),
    Happened.AMBUSHED: lambda d: _("{unit} runs into {by}, unseen until now, and stops.").format(
        unit=d["unit"], by=d["by"]
    ),
    Happened.FLYING: lambda d: _("{unit} leaps and will land in a later turn.").format(
        unit=d["unit"]
    ),
    Happened.DRIFTED: lambda d: (
        _drifted(d)
        if d.get("to") == UNSEEN
        else _("{unit} drifts and is stopped.").format(unit=d["unit"])
        if d.get("stopped")
        else _("{unit} drifts.").format(unit=d["unit"])
    ),
    Happened.STEPPED_ASIDE: lambda d: _("{unit} steps aside.").format(unit=d["unit"]),
    Happened.FIVE_FOOT_STEP: lambda d: _("{unit} takes a 5-foot step.").format(unit=d["unit"]),
    Happened.COASTING: lambda d: _("{unit} keeps its velocity: dampers off.").format(
        unit=d["unit"]
    ),
    Happened.SIGHTED: lambda d: _("{faction} sight {unit}.").format(
        faction=side_name(str(d["faction"])), unit=d["unit"]
    ),
    Happened.ARRIVED: lambda d: _("{unit} arrives.").format(unit=d["unit"]),
    Happened.CELL_EDITED: lambda d: _("GM: a cell is changed."),
}

#: A ruling id in brackets or parentheses, as the sentences cite them: "(P-MOV-8)",
#: "(P-JUMP-1/3)", "(G-3)", "[P-INIT-1, P-INIT-2]".
_RULING = re.compile(
    r"\s*[(\[](?:[A-Z]+-)+\d+(?:/\d+)?[a-z]?(?:,\s*(?:[A-Z]+-)+\d+(?:/\d+)?[a-z]?)*[)\]]"
)


def without_rulings(text: str) -> str:
    """A sentence without the ruling ids it cites (they are shown behind Alt)."""
    return _RULING.sub("", text)


def event_text(
    event: Event, *, details: bool = True, initiative: Callable[[int], str] = str
) -> str:
    """One line for the log: what happened (its dice and rulings are `event_details`). A unit
    the player never saw reads "someone unseen", never "?". Without `details` the sentence
    names no cell and cites no ruling: the log as it reads until Alt is held. `initiative`
    words an initiative total as the battle's ruleset does (`BattleRules.initiative_text`:
    fantasy's AGI and DES dice, not its order key), the tracker's words."""
    data = _unseen_named(event.data)
    kind = Happened(event.kind)
    if kind is Happened.DAMAGE and not any(r.startswith("P-") for r in event.rules):
        data["own_health"] = True  # not periferie's wound table (P-DMG-1, P-VUL-1)
    if kind is Happened.INITIATIVE and isinstance(data.get("total"), int):
        data["total"] = initiative(data["total"])
    if details:
        return _EVENTS[kind](data)
    data[_PLAIN_CHANCE] = True
    if kind is Happened.ATTACK and data.get("target") is None and "hit_chance" not in data:
        text = _("{unit} fires {weapon} at a cell: {chance} — {result}").format(
            unit=data["unit"],
            weapon=_arm(data),
            chance=_exact(data),
            result=_hit(data["hit"]),
        )
    elif kind is Happened.ATTACK and data.get("target") is None:
        text = _("{unit} fires {weapon} at a cell: {p}% — {result}").format(
            unit=data["unit"],
            weapon=_arm(data),
            p=data["hit_chance"],
            result=_hit(data["hit"]),
        )
    elif kind is Happened.THROW:
        text = _plain_throw(data)
    elif kind is Happened.REACTION_OFFERED:
        text = _plain_reaction_offered(data)
    elif kind is Happened.COLLIDED:
        text = _("{unit} lands on {other}: {unit_save}, {other_save}.").format(
            unit=data["unit"],
            other=data["with"],
            unit_save=_("{unit} keeps its feet").format(unit=data["unit"])
            if data.get("unit_saved")
            else _("{unit} falls, stunned").format(unit=data["unit"]),
            other_save=_("{unit} keeps its feet").format(unit=data["with"])
            if data.get("with_saved")
            else _("{unit} falls, stunned").format(unit=data["with"]),
        )
    else:
        text = _PLAIN.get(kind, _EVENTS[kind])(data)
    return without_rulings(text)


def _plain_throw(d: Mapping[str, Any]) -> str:
    thing = _thrown(d)
    if d.get("target"):
        text = _("{unit} throws {thing} at {aim}").format(
            unit=d["unit"], thing=thing, aim=d["target"]
        )
    else:
        text = _("{unit} throws {thing}").format(unit=d["unit"], thing=thing)
    if d.get("hit_chance") is not None:
        text += f": {d['hit_chance']}% — {_hit(d.get('hit'))}"
    elif d.get("chance") is not None:  # another ruleset's exact chance
        text += f": {_exact(d)} — {_hit(d.get('hit'))}"
    if d.get("landed") != d.get("aim"):
        text += "; " + _("it lands elsewhere")
    return text


def _plain_reaction_offered(d: Mapping[str, Any]) -> str:
    if d.get("act") == "coup_de_grace":  # 004:l.118: the blow provokes
        return _("{mover} gives a coup de grâce within {unit}'s reach: {unit} may strike").format(
            unit=d["unit"], mover=d["mover"]
        )
    if d.get("kind") == "readied":
        return _("{unit} has {mover} in sight: its readied attack may fire").format(
            unit=d["unit"], mover=d["mover"]
        )
    return _("{mover} leaves {unit}'s reach: {unit} may strike").format(
        unit=d["unit"], mover=d["mover"]
    )


def event_details(event: Event, *, show_rules: bool = True) -> list[str]:
    """The dice behind an event, one line each, then the rulings it applied."""
    lines = [roll_line(r) for r in event.rolls]
    if show_rules and event.rules:
        lines.append("[" + ", ".join(event.rules) + "]")
    return lines


def _list(value: object) -> str:
    if (
        isinstance(value, list | tuple)
        and len(value) == 3
        and all(isinstance(v, int) for v in value)
    ):
        return cell_text(value)
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


_WHY: dict[Why, Callable[[], str]] = {
    Why.GM_ONLY: lambda: _("Only the GM may do that."),
    Why.NO_CHANCE: lambda: _("No chance to hit: {reason}."),
    Why.NOT_YOUR_UNIT: lambda: _("{unit} is not yours to command."),
    Why.NOT_ACTIVE: lambda: _("It is not {unit}'s turn."),
    Why.UNKNOWN_UNIT: lambda: _("There is no such unit."),
    Why.COMBAT_OVER: lambda: _("The combat is over."),
    Why.REACTION_PENDING: lambda: _("Waiting for {reactor} to answer its reaction."),
    Why.NO_REACTION_OFFERED: lambda: _("No reaction is offered to {unit} now."),
    Why.TIE_NOT_YOURS: lambda: _("Ties across sides are the GM's to order (P-INIT-2)."),
    Why.ACTION_USED: lambda: _("The action of this turn is already used ({used})."),
    Why.INTERACTION_USED: lambda: _("The interaction of this turn is already used (P-TURN-2)."),
    Why.NOT_IN_RULESET: lambda: _("This ruleset has no such command ({command})."),
    Why.SAME_STANCE: lambda: _("Already {stance}."),
    Why.UNKNOWN_STANCE: lambda: _("No such stance."),
    Why.TURN_BEGUN: lambda: _("{unit}'s turn has already begun."),
    Why.OUTSIDE_MAP: lambda: _("{at} is outside the map."),
    Why.UNREACHABLE: lambda: _("{at} is out of reach: {left} movement points left."),
    Why.CANNOT_MOVE: lambda: _("{unit} cannot move this turn."),
    Why.IN_FLIGHT: lambda: _("{unit} is in flight until it lands (P-ZERO-1)."),
    Why.DAMPERS_NEED_THRUSTERS: lambda: _(
        "Only a move with thrusters can keep the dampers off (P-ZERO-2)."
    ),
    Why.NO_LANDING: lambda: _("Nobody can stand or hang at {at} (G-3): nowhere to land."),
    Why.JUMP_LANDS_LOWER: lambda: _(
        "A jump lands no lower than it starts; walk off the edge to drop to {at} (P-JUMP-3)."
    ),
    Why.JUMP_BLOCKED: lambda: _("No jump reaches {at}: its flight is blocked at every height."),
    Why.DROP_TOO_DEEP: lambda: _(
        "{at} is down a drop of {depth} levels, costing {depth} points: {left} jump points left"
        " (P-JUMP-3)."
    ),
    Why.JUMP_TOO_HIGH: lambda: _(
        "{at} needs a jump {apex} high, costing {apex} points: {left} movement points left"
        " (P-JUMP-1)."
    ),
    Why.SELF_TARGET: lambda: _("Nobody targets themself."),
    Why.NO_WEAPON: lambda: _("No weapon in hand."),
    Why.BLINDED: lambda: _("Blinded: no attacks (P-VUL-3)."),
    Why.OUT_OF_COMBAT: lambda: _("Out of combat (P-VUL-3)."),
    Why.DEAD: lambda: _("Dead."),
    Why.NO_LOS: lambda: _("No line of sight."),
    Why.OUT_OF_REACH: lambda: _("Out of reach: a melee weapon strikes only adjacent cells."),
    Why.OUT_OF_RANGE: lambda: _("Out of range."),
    Why.OUT_OF_BAND: lambda: _("This weapon has no attack at this range band (C-2)."),
    Why.CANNOT_BE_HIT: lambda: _("Full cover and a low stance: it cannot be hit (C-3)."),
    Why.PRONE_NO_MELEE: lambda: _("A prone attacker cannot attack in melee."),
    Why.UNCONSCIOUS: lambda: _("Unconscious (C-5)."),
    Why.NO_MINOR_ACTION: lambda: _("No minor action left this turn (C-4)."),
    Why.AIM_AT_MOST: lambda: _("Aiming gives at most +{most} (C-1)."),
    Why.ALREADY_HASTY: lambda: _("Already acting hastily next round (C-1)."),
    Why.NO_AUTO_FIRE: lambda: _("This weapon has no automatic fire."),
    Why.NEEDS_FIREARM: lambda: _("Suppression fire needs a firearm."),
    Why.OUT_OF_AMMO: lambda: _(
        "Out of ammunition: {left} rounds left, {needs} needed. Reload first (a minor action)."
    ),
    Why.NOT_OFFERED: lambda: _("Not offered: this ruleset's rules have nothing for it."),
    Why.NO_THROWN_WEAPON: lambda: _(
        "No thrown weapon in hand: this ruleset throws only thrown weapons and grenades."
    ),
    Why.UNKNOWN_TARGET: lambda: _("No such target in sight."),
    Why.NO_TARGET: lambda: _("Choose a target or a cell."),
    Why.NEEDS_TARGET: lambda: _("This weapon needs a target, not a cell."),
    Why.AREA_NOT_OFFERED: lambda: _(
        "Not offered under {ruleset}: its rules have no area attack at a cell."
    ),
    Why.UNKNOWN_SIZE: lambda: _("No such object size."),
    Why.NEEDS_RANGED_WEAPON: lambda: _("Ready needs a ranged weapon (P-OA-2)."),
    Why.UNKNOWN_TRIGGER: lambda: _("No such trigger."),
    Why.ENGAGED: lambda: _("Engaged in melee: no ranged attack."),
    Why.RELOADING: lambda: _("Reloading ({turns} turns)."),
    Why.NOTHING_TO_RELOAD: lambda: _("The weapon is ready: nothing to reload."),
    Why.TARGET_OUT_OF_COMBAT: lambda: _("The target is out of the fight already."),
    Why.MARGIN_WAITING: lambda: _("{unit} must spend its hit's margin first (M-1)."),
    Why.NO_MARGIN_TO_SPEND: lambda: _("{unit} has no margin waiting to be spent."),
    Why.NEGATIVE_SPEND: lambda: _("A margin is spent in whole units, none below 0."),
    Why.MARGIN_OVERSPENT: lambda: _("{used} units spent, but the margin buys {units} (M-1)."),
    Why.OVER_STRENGTH_CAP: lambda: _(
        "+{strength} from Strength is above its cap of {cap} (M-1, 002:l.20)."
    ),
    Why.OVER_DIE_MAXIMUM: lambda: _(
        "A die minimum of {minimum} is above the dice's maximum {maximum} (002:l.62)."
    ),
    Why.UNKNOWN_MARGIN_USE: lambda: _("No such use of a margin: {use}."),
    Why.UNKNOWN_COUNTER_MOVE: lambda: _("No such counter-move, or named twice: {move}."),
    Why.NOT_IN_GRAB: lambda: _("{unit} is in no grab."),
    Why.IN_A_GRAB: lambda: _("{unit} is in a grab: it moves nowhere until the grab is broken."),
    Why.NOT_MOUNTED: lambda: _("{unit} is not on horseback."),
    Why.UNKNOWN_GAIT: lambda: _("No such gait: walk, canter or gallop."),
    Why.SAME_GAIT: lambda: _("{unit} rides at that gait already."),
    Why.GAIT_TOO_FAR: lambda: _(
        "A gait changes one step at a time: walk, canter, gallop (002:l.153)."
    ),
    Why.NOT_AN_ALLY: lambda: _("{ally} is not an ally."),
    Why.NOT_ADJACENT: lambda: _("Too far: only an adjacent ally."),
    Why.UNKNOWN_OBJECT: lambda: _("No such object."),
    Why.NO_MEDKIT: lambda: _("No medkit left."),
    Why.UNKNOWN_WOUND: lambda: _("No such wound."),
    Why.TARGET_DEAD: lambda: _("The target is dead."),
    Why.OWN_MORTAL_WOUND: lambda: _("Nobody treats their own mortal wound (P-HEAL-1)."),
    Why.NO_SUCH_WOUND: lambda: _("The target has no such wound."),
    Why.UNKNOWN_FACTION: lambda: _("No such side."),
    Why.NOT_WAITING: lambda: _("{unit} is not a waiting reinforcement."),
    Why.CANNOT_STAND: lambda: _("Nobody can stand at {at}."),
    Why.NOT_IN_ORDER: lambda: _("{unit} is not in the initiative order."),
    Why.BAD_TIE_ORDER: lambda: _("Those units are not tied."),
    Why.NO_FACES: lambda: _("Enter at least one die face."),
    Why.BAD_DIE_FACE: lambda: _("A face does not fit its die."),
    Why.UNKNOWN_CONDITION: lambda: _("No such condition."),
    Why.BAD_CONDITION: lambda: _("That condition cannot be set so."),
    Why.NOT_ON_MAP: lambda: _("{unit} is not on the map."),
    Why.UNKNOWN_OBSTACLE: lambda: _("No such obstacle."),
    Why.UNKNOWN_TERRAIN: lambda: _("No such terrain."),
    Why.CELL_OCCUPIED: lambda: _("Somebody stands at {at}."),
    Why.NOT_SHARING_A_CELL: lambda: _("{unit} shares its cell with nobody."),
    Why.CANNOT_STEP_ASIDE: lambda: _("{unit} failed its save or is stunned: it cannot step aside."),
    Why.NOT_FREE_AROUND: lambda: _("{at} is not a free cell next to it."),
    Why.ALREADY_MOVED: lambda: _("{unit} has moved this turn: no 5-foot step (D-2)."),
    Why.STEPPED: lambda: _("{unit} took a 5-foot step: no other movement this turn (D-2)."),
    Why.NOT_ONE_STEP: lambda: _(
        "A 5-foot step goes to a free cell next to it, not into difficult terrain nor crawling"
        " (D-2)."
    ),
    Why.MOVED_NO_FULL_ROUND: lambda: _(
        "{unit} has moved this turn: no full-round action such as a coup de grâce (004:l.114)."
    ),
    Why.FULL_ROUND_TAKEN: lambda: _(
        "{unit} took a full-round action: no move this turn, but a 5-foot step (D-2)."
    ),
    Why.ONE_ACTION: lambda: _(
        "{unit} is disabled: one action this turn, a move or a standard one, not both (D-2)."
    ),
    Why.NOTHING_TO_RULE: lambda: _("{unit} has nothing waiting for the GM."),
    Why.UNKNOWN_VERDICT: lambda: _("No such verdict."),
    Why.NEEDS_CHECK_AND_DC: lambda: _("A check needs its name and a DC."),
    Why.FIELD_UNCHANGED: lambda: _("The battlefield's light, smoke and weather are already so."),
    Why.NOTHING_TO_UNDO: lambda: _("Nothing to undo."),
    Why.NOTHING_TO_REDO: lambda: _("Nothing to redo."),
    Why.UNDO_NOT_YOURS: lambda: _("Only who gave the last command (or the GM) may take it back."),
    Why.UNDO_WOULD_HIDE_WHAT_WAS_SEEN: lambda: _(
        "It cannot be undone: it showed you something new (only the GM may)."
    ),
    Why.UNDO_SEEN_BY_ANOTHER: lambda: _(
        "It cannot be undone: another player has had the screen since (only the GM may)."
    ),
}

#: Codes the battle may add later read as their name until worded here.
_VALUE_WORDS: dict[str, Callable[[str], str]] = {
    "used": action_name,
    "stance": stance_name,
    "mode": mode_name,
    "ruleset": lambda ruleset_id: registry.ruleset(ruleset_id).title,
}


def _still_text(code: str) -> str:
    """Why a unit has no movement at all (the `because` of `cannot_move`)."""
    words = {
        "mortal_wound": lambda: _("A mortal wound stops all movement (P-MOV-6)."),
        "turn_lost": lambda: _("It has no turn, so no movement (P-VUL-3)."),
        "no_speed": lambda: _("Its speed is 0 this turn."),
        "in_a_grab": lambda: _("It is in a grab until the grab is broken (M-1)."),
        "on_the_ground": lambda: _("It is on the ground: it stands first (M-1)."),
    }
    word = words.get(code)
    return word() if word is not None else code


def why_text(code: str, values: Mapping[str, object]) -> str:
    """A refusal's reason as a sentence; values fill it ({unit}, {at}, ...)."""
    try:
        template = _WHY[Why(code)]()
    except ValueError:
        return code
    words: dict[str, str] = {}
    for key, value in values.items():
        word = _VALUE_WORDS.get(key)
        if key == "reason":  # a ruleset's own reason for no chance (Why.NO_CHANCE)
            words[key] = no_chance_words(str(value), values)
        else:
            words[key] = word(str(value)) if word is not None else _list(value)
    try:
        text = template.format(**words)
    except (KeyError, IndexError):
        text = template.replace("{", "").replace("}", "")
    because = values.get("because")
    if isinstance(because, str):
        text += " " + _still_text(because)
    extra = values.get("why")
    if isinstance(extra, Sequence) and not isinstance(extra, str) and extra:
        text += " " + " ".join(str(w) for w in extra)
    return text


def refusal_text(refusal: Refusal) -> str:
    return why_text(refusal.code, refusal.values)
