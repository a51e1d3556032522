"""Myst's counters kept in the battle world (seed 002, l.72-116; M-1): a won defence's push,
trip and grab left on the attacker as components, breaking off as a step away, a push's
penalty spent by the next exchange or given up with a turn's attack, and a grab broken or let
go (docs/battle.md, "Myst's counters"). Written against the battle's public context."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.battle.outcome import Refusal
from game.ecs.components import Grabbed, Posture, Unbalanced
from game.rules.stance import Stance
from game.tactics.ruleset import defence_counters

if TYPE_CHECKING:
    from game.battle.context import BattleContext
    from game.rules.ruleset_answers import DefenceWon


def after_defence(b: BattleContext, attacker: str, defender: str, won: DefenceWon) -> None:
    """What a won defence leaves (002:l.101-116): the attacker knocked down (the prone stance),
    unbalanced by the penalty, or held in the defender's grab; then, if it was taken, the
    defender breaks off (002:l.78): one step out of the attacker's reach."""
    if not b.on_map(attacker):
        return
    if "knocked_down" in won.effects:
        b.set(attacker, Posture(Stance.PRONE))
    if "unbalanced" in won.effects:
        b.set(attacker, Unbalanced(won.penalty, b.round))
    if "grabbed" in won.effects and b.on_map(defender):
        b.set(attacker, Grabbed(defender, False))
        b.set(defender, Grabbed(attacker, True))
    if "break_off" in won.taken and b.on_map(defender):
        break_off(b, defender, attacker)


def break_off(b: BattleContext, defender: str, attacker: str) -> None:
    """002:l.78 "Rompere la mischia": the defender leaves the melee at once, one step (no
    movement point of its own) to a free cell out of the attacker's reach; it cannot while on
    the ground or in a grab, nor where no step leaves the reach (told all the same).

    The step is chosen on the field as the defender's side knows it (`five_foot_step_cells`:
    its own units and those it sees), so where it goes tells nothing of a unit it cannot see;
    one standing unseen in the chosen cell stops it where it stands, revealed, as a move's step
    into it does (`ambush`), and the event says so (`stopped`)."""
    counters = defence_counters(b.ruleset)
    if counters is None:
        return
    steps = b.five_foot_step_cells(defender)
    start = b.sheet(defender).cell
    to = counters.break_off_cell(steps, b.sheet(attacker), b.sheet(defender))
    stopped = to is not None and b.ambush(defender, to)
    if to is not None and not stopped:
        b.place(defender, to)
    told: dict[str, object] = {
        "unit": defender,
        "against": attacker,
        "at": list(start),
        "to": None if to is None else list(to),
    }
    if stopped:
        told["stopped"] = True
    b.emit("broke_off", told, about=[defender, attacker], rules=("M-1",))


def exchanged(b: BattleContext, attacker: str, target: str) -> None:
    """An exchange counted each side's push or trip penalty (002:l.101: on the next Attack
    Action or Defence Manoeuvre): spent."""
    for unit in (attacker, target):
        if b.world.has(unit, Unbalanced):
            b.remove(unit, Unbalanced)


def turn_ended(b: BattleContext, unit: str) -> None:
    """A penalty given in an earlier round lapses as the unit's turn ends without its attack
    (002:l.105: it may give up the Attack Action, "cancellando in tal modo anche la
    penalità"); one given during this turn waits for the next exchange."""
    kept = b.world.try_get(unit, Unbalanced)
    if kept is not None and kept.round < b.round and b.turn(unit).action is None:
        b.remove(unit, Unbalanced)
        b.emit(
            "unbalance_lapsed", {"unit": unit, "penalty": kept.penalty}, about=[unit],
            rules=("M-1",),
        )  # fmt: skip


def let_go(b: BattleContext, unit: str, why: str) -> None:
    """The grab the unit is in ends for both (its other end's component too)."""
    held = b.world.try_get(unit, Grabbed)
    if held is None:
        return
    b.remove(unit, Grabbed)
    other = b.world.try_get(held.other, Grabbed)
    if other is not None and other.other == unit:
        b.remove(held.other, Grabbed)
    holder, grabbed = (unit, held.other) if held.holding else (held.other, unit)
    b.emit(
        "grab_ended",
        {"holder": holder, "grabbed": grabbed, "why": why},
        about=[holder, grabbed],
        rules=("M-1",),
    )


def break_grab(b: BattleContext, unit: str) -> None:
    """The `break_grab` command. The holder lets go, free, "in qualsiasi momento", and the
    other "torna libero di muoversi" (002:l.116); the grabbed fighter spends its action on
    breaking it (002:l.109 "sarà costretto a rompere la presa"): its total + 3d10 against the
    holder's + 3d10 (002:l.113-114), broken on a higher total."""
    held = b.world.try_get(unit, Grabbed)
    if held is None:
        raise Refusal("not_in_grab", unit=unit)
    gone = not b.on_map(held.other) or b.condition_effects(held.other).out_of_combat
    if held.holding or gone:  # nobody left holding: free, no roll
        let_go(b, unit, "let_go" if held.holding else "holder_gone")
        return
    counters = defence_counters(b.ruleset)
    if counters is None:
        raise Refusal("not_in_grab", unit=unit)
    b.use_action(unit, "break_grab")
    done = counters.break_grab(b.roller, b.sheet(unit), b.sheet(held.other), f"break grab {unit}")
    b.emit(
        "grab_break",
        {
            "unit": unit,
            "holder": held.other,
            "total": done.total,
            "holder_total": done.holder_total,
            "broken": done.broken,
        },
        about=[unit, held.other],
        rolls=done.rolls,
        rules=("M-1",),
    )
    if done.broken:
        let_go(b, unit, "broken")


def out_of_the_fight(b: BattleContext, unit: str) -> None:
    """A fighter out of the fight or fallen holds nobody and is held by nobody."""
    if b.world.has(unit, Grabbed):
        let_go(b, unit, "out_of_the_fight")
