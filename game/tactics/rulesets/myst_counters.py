"""Myst's melee counters in battle (seed 002, l.85-116; M-1, M-2): the push, trip and grab a
won defence buys besides the punch, the knocked-down and grabbed fighter's limits, breaking a
grab and breaking off, over the pure rules of game/rules/myst/counters.py.

Choices where the seed leaves the battle free are in docs/rules.md, "Myst counters in battle":
a fighter on the ground takes -20 on attack and defence (assumed) and moves nowhere until it
stands, which costs its action; a grab holds both where they stand and bars both from
attacking; breaking off steps the defender one cell out of its attacker's reach at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from game.grid.geometry import chebyshev
from game.grid.model import Cell
from game.rules.dice import Roller, RollRecord
from game.rules.myst import combat, counters
from game.rules.myst.data import MystRules, Sheet
from game.rules.ruleset_answers import TurnBudget
from game.rules.stance import Stance
from game.tactics.battlefield import EntitySheet
from game.tactics.rulesets.common_battle import MOVE_AND_ACTION

#: M-2's move and one exchange, and what the counters add: standing up costs the action
#: (002:l.101 "al costo di un'Azione"); breaking a grab is the grabbed fighter's action
#: (002:l.109), letting go is free (002:l.116 "in qualsiasi momento"): the battle spends it.
BUDGET: Final = TurnBudget(
    slots=MOVE_AND_ACTION.slots,
    costs=MappingProxyType({**MOVE_AND_ACTION.costs, "stand": "action", "break_grab": ""}),
)
#: The reasons an attack has no chance while in a grab (002:l.109, 116).
HELD = "held_in_grab"
HOLDING = "holding_grab"


def down(entity: EntitySheet) -> bool:
    """Knocked down: the battle's prone stance (002:l.101 "spinto al suolo")."""
    return entity.stance is Stance.PRONE


def grab_bar(attacker: EntitySheet) -> str | None:
    """Why a fighter in a grab may not attack (002:l.109: the grabbed one must break it first;
    002:l.116: "tanto l'attaccante quanto il difensore non potranno compiere azioni"), or None."""
    if attacker.hold is None:
        return None
    return HOLDING if attacker.hold[1] else HELD


def counted(
    attacker: EntitySheet, target: EntitySheet, done: combat.Exchange, *, counter: bool = False
) -> combat.Exchange:
    """The exchange with the counters' lasting effects: each side on the ground (assumed -20,
    game/data/myst/counters.toml) and, for an exchange that is not itself a counter, each
    side's push or trip penalty (002:l.101, its next Attack Action or Defence Manoeuvre)."""
    extra = counters.down_modifiers(counters.load(), down(attacker), down(target))
    if not counter:
        extra += counters.unbalanced_modifiers(attacker.unbalanced, target.unbalanced)
    return counters.with_modifiers(done, extra)


def still(entity: EntitySheet) -> bool:
    """No movement: on the ground until it stands (002:l.101), or in a grab (002:l.116: the
    grabbed "torna libero di muoversi" only once it is let go)."""
    return down(entity) or entity.hold is not None


@dataclass(frozen=True)
class Counter:
    """A counterattack's exchange (002:l.91, 99, 109) and what it did: `hit` when the
    defender won it, its fields for the event, its rolls, and the knock (push or trip)."""

    kind: str
    hit: bool
    logged: dict[str, object]
    rolls: tuple[RollRecord, ...]
    margin: int
    knock: counters.Knock | None = None


def roll_counter(
    roller: Roller,
    data: MystRules,
    kind: str,
    defender: EntitySheet,
    attacker: EntitySheet,
    defender_sheet: Sheet,
    attacker_sheet: Sheet,
    *,
    second_defence: bool = False,
) -> Counter:
    """The counterattack of `kind` ("punch", "push", "trip", "grab"): "un normale tiro di Corpo
    a Corpo" against the attacker's Corpo a Corpo, 3d10 each, shield not counted (002:l.91,
    99, 109), with each side's knocked-down modifier; the attacker's answer is a defence of
    its own, at -20 when `second_defence` (M-2, game/rules/myst/round.py `countered`)."""
    situation = combat.Situation(counter=kind, second_defence=second_defence)
    done = combat.exchange(data, defender_sheet, attacker_sheet, situation)
    done = counted(defender, attacker, done, counter=True)
    a = roller.roll(combat.DICE, f"counter {defender.id}")
    d = roller.roll(combat.DICE, f"counter {defender.id} defence")
    result = combat.resolve(data, done.attack, done.defence, a.dice, d.dice, situation)
    hit = result.winner == "attack"
    logged: dict[str, object] = {
        "counter_attack_total": result.attack_total,
        "counter_defence_total": result.defence_total,
        "counter_margin": result.margin,
    }
    knock = None
    if kind != "punch":
        logged["counter"] = kind
    if hit and kind in ("push", "trip"):
        knock = counters.push(data, result.margin)
        logged["penalty"] = knock.penalty
        logged["knocked_down"] = knock.down
    if kind == "grab":
        logged["grabbed"] = hit
    return Counter(kind, hit, logged, (a, d), result.margin, knock)


def effects_of(counter: Counter | None) -> tuple[tuple[str, ...], int]:
    """What the battle keeps of a counter (DefenceWon.effects, .penalty): "knocked_down",
    "unbalanced" with its penalty, or "grabbed"."""
    if counter is None or not counter.hit:
        return (), 0
    if counter.knock is not None:
        if counter.knock.down:
            return ("knocked_down",), 0
        return ("unbalanced",), counter.knock.penalty
    if counter.kind == "grab":
        return ("grabbed",), 0
    return (), 0


def break_off_cell(
    data: MystRules, steps: Sequence[Cell], attacker: EntitySheet, defender: EntitySheet
) -> Cell | None:
    """Where breaking off (002:l.78 "Rompere la mischia") takes the defender: of the cells one
    step away (`steps`, the battle's), the first out of the attacker's melee reach, farthest
    from it first, then in reading order; None when no step leaves its reach."""
    away = [c for c in steps if chebyshev(c, attacker.cell) > data.melee_cells]
    if not away:
        return None
    return min(away, key=lambda c: (-chebyshev(c, attacker.cell), c[2], c[1], c[0]))


def break_totals(data: MystRules, breaker: Sheet, holder: Sheet) -> tuple[int, int]:
    """Both sides' totals for breaking a grab (002:l.113-114), each its higher: Destrezza +
    Corpo a Corpo (`brawl`); M-2's sheet has no Constitution for the other."""
    return (
        counters.grip_total(breaker.brawl_total, breaker.strength),
        counters.grip_total(holder.brawl_total, holder.strength),
    )
