"""Myst's melee counters (seed 002, l.85-116; M-1) as pure functions: which counterattack a won
defence takes, the push or trip's penalty or knock-down, the grab and breaking it, and the
knocked-down fighter's modifiers (an assumption of M-2's base, game/data/myst/counters.toml)."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from game.rules.myst import combat
from game.rules.myst.data import DIRECTORY, MystDataError, MystRules

#: The counterattacks a won defence may take besides the punch or kick ("counterattack"), in the
#: seed's order (002:l.97, 107): push and trip share one rule, the grab has its own.
KINDS: Final = ("push", "trip", "grab")
#: Every counterattack a standing plan may name: the punch or kick first (002:l.89).
COUNTERATTACKS: Final = ("counterattack", *KINDS)
#: A standing plan's whole vocabulary: the four counter-moves of 002:l.76-79, then the kinds of
#: counterattack (002:l.85-109).
PLAN_MOVES: Final = (*combat.DEFENCE_OPTIONS, *KINDS)


@dataclass(frozen=True)
class CounterRules:
    """The numbers of game/data/myst/counters.toml."""

    down_attack: int
    down_defence: int


def _number(table: object, key: str, where: str) -> int:
    if not isinstance(table, dict) or key not in table:
        raise MystDataError(f"{where}.{key}: missing")
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int) or not -100 <= value <= 100:
        raise MystDataError(f"{where}.{key}: expected a whole number -100..100, got {value!r}")
    return value


@functools.cache
def load(path: Path = DIRECTORY / "counters.toml") -> CounterRules:
    """The counters' numbers; a bad file raises MystDataError naming the file and the key."""
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise MystDataError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise MystDataError(f"{path}: {exc}") from None
    down = data.get("knocked_down")
    where = f"{path} [knocked_down]"
    return CounterRules(_number(down, "attack", where), _number(down, "defence", where))


def check_plan(moves: Sequence[str]) -> str | None:
    """The first move of a standing plan that is not in `PLAN_MOVES` or is listed twice."""
    seen: set[str] = set()
    for move in moves:
        if move not in PLAN_MOVES or move in seen:
            return move
        seen.add(move)
    return None


def counter_moves(options: Sequence[str], units: int, plan: Sequence[str]) -> tuple[str, ...]:
    """The moves a won defence takes (002:l.74-79, 20 points each): the plan's moves that the
    defence offers, in the plan's order, as many as its units buy. The counterattack is one
    move (002:l.76 "Contrattaccare con il Corpo a Corpo: 20 punti") taken in one of its forms
    (002:l.87 "potrà scegliere tra le seguenti possibilità"): the plan's first form, the
    others skipped."""
    offered = set(options)
    if "counterattack" in offered:
        offered.update(KINDS)
    taken: list[str] = []
    countered = False
    for move in plan:
        if move not in offered:
            continue
        if move in COUNTERATTACKS:
            if countered:
                continue
            countered = True
        taken.append(move)
    return tuple(taken[:units])


def counter_kind(taken: Sequence[str]) -> str | None:
    """The counterattack among the taken moves (None: none), "punch" for the plain one."""
    for move in taken:
        if move in COUNTERATTACKS:
            return "punch" if move == "counterattack" else move
    return None


@dataclass(frozen=True)
class Knock:
    """What a push or trip that wins by `margin` does (002:l.101): a `penalty` on the target's
    next attack or defence (margin 1-19, "una penalità di pari entità"), or `down`."""

    margin: int
    penalty: int
    down: bool


def push(rules: MystRules, margin: int) -> Knock:
    """002:l.101: a margin of 1-19 is a penalty of that size on the next Attack Action or
    Defence Manoeuvre (this round or the next); 20 or more pushes the opponent to the ground."""
    if margin <= 0:
        raise combat.MystInputError(f"a push or trip that wins has a margin above 0, not {margin}")
    penalty, down = combat.push_outcome(rules, margin)
    return Knock(margin, penalty, down)


def down_modifiers(
    counters: CounterRules, attacker_down: bool, target_down: bool
) -> tuple[combat.Modifier, ...]:
    """The knocked-down modifiers of an exchange (002:l.101, assumed numbers): the attacker's on
    its attack, the target's on its defence (listed with the sign they have for the attacker)."""
    mods: list[combat.Modifier] = []
    if attacker_down:
        mods.append(combat.Modifier("knocked_down", counters.down_attack, ("M-1", "M-2")))
    if target_down:
        mods.append(combat.Modifier("target_knocked_down", -counters.down_defence, ("M-1", "M-2")))
    return tuple(mods)


def unbalanced_modifiers(attacker: int, target: int) -> tuple[combat.Modifier, ...]:
    """A pushed or tripped fighter's penalty on its next exchange (002:l.101): the attacker's
    lowers its attack, the target's its defence (listed with the sign they have for the
    attacker)."""
    mods: list[combat.Modifier] = []
    if attacker:
        mods.append(combat.Modifier("unbalanced", -attacker, ("M-1",)))
    if target:
        mods.append(combat.Modifier("target_unbalanced", target, ("M-1",)))
    return tuple(mods)


def with_modifiers(done: combat.Exchange, extra: Sequence[combat.Modifier]) -> combat.Exchange:
    """The exchange with `extra` modifiers counted (each listed with its sign for the
    attacker: an attack modifier changes the attack total, a target's the defence total) and
    its chances again, exact."""
    if not extra:
        return done
    attack = done.attack + sum(m.value for m in extra if not m.code.startswith("target_"))
    defence = done.defence - sum(m.value for m in extra if m.code.startswith("target_"))
    return combat.Exchange(
        attack=attack,
        defence=defence,
        modifiers=(*done.modifiers, *extra),
        chance=combat.opposed_chance(attack, defence),
        chance_defence=combat.opposed_chance(defence, attack),
        rules=tuple(dict.fromkeys((*done.rules, *(r for m in extra for r in m.rules)))),
    )


def grip_total(brawl: int, strength: int, constitution: int | None = None) -> int:
    """A fighter's total for breaking or keeping a grab (002:l.113-114): Destrezza + Corpo a
    Corpo (the sheet's `brawl`) or Costituzione + Forza, "a scelta del Personaggio": the
    higher. A sheet without Constitution (M-2's has none) has only the first."""
    if constitution is None:
        return brawl
    return max(brawl, constitution + strength)


@dataclass(frozen=True)
class BreakResult:
    """An attempt to break a grab (002:l.113-114): both totals with their 3d10 and whether the
    grabbed fighter broke free (it must beat the holder's total: a tie keeps the hold, as a
    tie is nobody's exchange, M-1)."""

    breaker_total: int
    holder_total: int
    broken: bool


def break_grab(
    breaker: int, holder: int, breaker_dice: Sequence[int], holder_dice: Sequence[int]
) -> BreakResult:
    """002:l.113-114: the grabbed fighter's total + 3d10 against the holder's + 3d10."""
    b = breaker + sum(combat.check_dice(breaker_dice, "breaker dice"))
    h = holder + sum(combat.check_dice(holder_dice, "holder dice"))
    return BreakResult(b, h, b > h)


#: The standing plan the computer gives its fighters (docs/rules.md, "Myst counters in
#: battle"): the trip, whose penalty or fall (002:l.101) costs the attacker more than a punch's
#: point or two (002:l.91) and, unlike the grab, costs the defender nothing (a grab bars the
#: holder's actions as much as the held one's, 002:l.116).
COMPUTER_PLAN: Final = ("trip",)
