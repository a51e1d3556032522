"""Myst's melee counters (seed 002, l.85-116; M-1) as pure functions: which counterattack a won
defence takes, the push or trip's penalty or knock-down, the grab and breaking it, the
knocked-down fighter's modifiers (an assumption of M-2's base, game/data/myst/counters.toml),
and the computer's choice among them (what each is expected to spare its fighter)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Final

from game.rules import exact
from game.rules.myst import combat
from game.rules.myst.data import DIRECTORY, MystDataError, MystRules, read_table

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
    data = read_table(path)
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


#: The standing plan the computer gives its fighters when the grab does not pay (docs/rules.md,
#: "Myst counters in battle"): the trip, whose penalty or fall (002:l.101) costs the attacker
#: more than a punch's point or two (002:l.91) and, unlike the grab, costs the defender nothing
#: (a grab bars the holder's actions as much as the held one's, 002:l.116). Push and trip are
#: one rule (002:l.97-101: nobody is moved), so the computer names the trip.
COMPUTER_PLAN: Final = ("trip",)
#: A push or trip won by this much or more knocks down; below, the margin is the penalty
#: (002:l.101 "tra 1 e 19", "di 20 o più").
KNOCK_DOWN: Final = 20


@dataclass(frozen=True)
class Threat:
    """An enemy that may strike the fighter in melee before its next turn, as the computer
    weighs a counterattack against it: the counter's Corpo a Corpo totals, the fighter's
    (`counter`) and the enemy's (`resists`) (002:l.99, 109); `harm[k]`, the Status Globale the
    enemy's attack is expected to cost the fighter with its attack total lowered by k (a push's
    penalty, 002:l.101), k = 0..19; and `returned`, what the fighter's own attack is expected
    to cost the enemy."""

    counter: int
    resists: int
    harm: tuple[Fraction, ...]
    returned: Fraction

    def __post_init__(self) -> None:
        if len(self.harm) != KNOCK_DOWN:
            raise combat.MystInputError(
                f"a threat's harm lists penalties 0..{KNOCK_DOWN - 1}, not {len(self.harm)}"
            )


@functools.cache
def _difference() -> Mapping[int, Fraction]:
    return MappingProxyType(exact.distribution(exact.parse(f"{combat.DICE}-{combat.DICE}")))


def margin_chances(counter: int, resists: int) -> dict[int, Fraction]:
    """P(the counter wins by exactly m), for every m above 0: `counter` + 3d10 against
    `resists` + 3d10 (M-1: a tie is nobody's)."""
    lead = counter - resists
    return {lead + d: p for d, p in _difference().items() if lead + d > 0}


def trip_worth(threat: Threat) -> Fraction:
    """The Status Globale a won push or trip is expected to spare the fighter (002:l.101): won
    by 20 or more, the enemy is knocked down and spends its next action standing, its next
    attack lost (`harm[0]`); by 1-19, its next attack is that much lower (`harm[0] - harm[m]`;
    the penalty falls on its next exchange, an attack or a defence: the attack is what the
    computer counts)."""
    worth = Fraction(0)
    for margin, p in margin_chances(threat.counter, threat.resists).items():
        lost = threat.harm[0] if margin >= KNOCK_DOWN else threat.harm[0] - threat.harm[margin]
        worth += p * lost
    return worth


def grab_worth(threat: Threat) -> Fraction:
    """The Status Globale a won grab is expected to spare the fighter (002:l.107-116): won by
    any margin, it binds both (l.116), so holding trades the enemy's next attack for the
    fighter's own; the holder lets go for free when that does not pay, so it is worth the
    difference when the enemy's attack is worth more, else nothing."""
    won = sum(margin_chances(threat.counter, threat.resists).values(), Fraction(0))
    return won * max(threat.harm[0] - threat.returned, Fraction(0))


def computer_counter(threats: Sequence[Threat]) -> tuple[str, ...]:
    """The computer's standing plan against the enemies that may strike its fighter before its
    next turn (any of them may be the one it counters): the grab when, summed over them, it
    is expected to spare more than the trip (an enemy whose attack is worth more than the
    fighter's own: a stronger weapon, a stronger arm); else the trip (`COMPUTER_PLAN`)."""
    grab = sum((grab_worth(t) for t in threats), Fraction(0))
    trip = sum((trip_worth(t) for t in threats), Fraction(0))
    return ("grab",) if grab > trip else COMPUTER_PLAN


def keep_grab(holding: bool, their_harm: Fraction, my_harm: Fraction, ally_by: bool) -> bool:
    """Whether the computer's fighter leaves the grab it is in as it is this turn (002:l.107-
    116). While it lasts neither acts (l.116): it trades the fighter's attacks for the other's
    (`their_harm`, the other's attack on it, against `my_harm`, its own on the other). The
    holder, free to let go "in qualsiasi momento", keeps it when the other's attack is worth
    more, or when a free ally of its stands by the held one to strike it. The grabbed one
    tries to break it with its action (l.109: nothing else is open to it) unless the grab
    binds an enemy whose attack is worth more than its own while a free ally of its stands by
    that enemy to strike it."""
    if holding:
        return their_harm > my_harm or ally_by
    return their_harm > my_harm and ally_by
