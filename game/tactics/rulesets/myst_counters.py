"""Myst's melee counters in battle (seed 002, l.85-116; M-1, M-2): the push, trip and grab a
won defence buys besides the punch, the knocked-down and grabbed fighter's limits, breaking a
grab and breaking off, over the pure rules of game/rules/myst/counters.py.

Choices where the seed leaves the battle free are in docs/rules.md, "Myst counters in battle":
a fighter on the ground takes -20 on attack and defence (assumed) and moves nowhere until it
stands, which costs its action; a grab holds both where they stand and bars both from
attacking; breaking off steps the defender one cell out of its attacker's reach at once; the
computer grabs an enemy whose attack is worth more than its own and trips the others.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
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


#: The expected Status Globale an exchange costs its target (M-1), from the attack and defence
#: totals, the attacker's sheet and the exchange's situation: the battle side's `mean_damage`.
Harm = Callable[[int, int, Sheet, combat.Situation], Fraction]


def _sheet(data: MystRules, entity: EntitySheet) -> Sheet:
    return entity.sheet if isinstance(entity.sheet, Sheet) else data.defaults


def expected_harm(
    data: MystRules, attacker: EntitySheet, target: EntitySheet, harm: Harm, penalty: int = 0
) -> Fraction:
    """What an attack of `attacker` on `target` is expected to cost it (M-1), its attack total
    lowered by `penalty`, each on the ground or pushed as it is now; a charge is not foreseen
    (its run-up is the next turn's)."""
    a, t = _sheet(data, attacker), _sheet(data, target)
    situation = combat.Situation(two_handed=a.two_handed)
    done = counted(attacker, target, combat.exchange(data, a, t, situation))
    return harm(done.attack - penalty, done.defence, a, situation)


def threatens(data: MystRules, enemy: EntitySheet, unit: EntitySheet) -> bool:
    """`enemy` may strike `unit` in melee before `unit`'s next turn (each fighter acts once in
    between, M-2): a melee weapon, in the fight, standing (002:l.101: standing up is its
    action), not held in a grab (l.109), and `unit` within its speed in cells and its reach."""
    sheet = _sheet(data, enemy)
    if sheet.out or not sheet.weapon.melee or down(enemy):
        return False
    if enemy.hold is not None and not enemy.hold[1]:
        return False
    return chebyshev(enemy.cell, unit.cell) <= sheet.speed + data.melee_cells


def threat(data: MystRules, enemy: EntitySheet, unit: EntitySheet, harm: Harm) -> counters.Threat:
    """How the computer weighs a counterattack of `unit` against `enemy` (counters.Threat):
    the counter's Corpo a Corpo totals with each side's fall counted (002:l.99, 109), the
    enemy's attack on `unit` at each push penalty 0..19 (l.101), `unit`'s own attack on it."""
    counter = counted(
        unit,
        enemy,
        combat.exchange(
            data, _sheet(data, unit), _sheet(data, enemy), combat.Situation(counter="grab")
        ),
        counter=True,
    )
    return counters.Threat(
        counter.attack,
        counter.defence,
        tuple(expected_harm(data, enemy, unit, harm, k) for k in range(counters.KNOCK_DOWN)),
        expected_harm(data, unit, enemy, harm),
    )


def computer_plan(
    data: MystRules, unit: EntitySheet, enemies: Sequence[EntitySheet], harm: Harm
) -> tuple[str, ...]:
    """The standing plan the computer keeps for `unit` against `enemies` (those its side sees):
    the grab or the trip, whichever the enemies that may strike it before its next turn make
    pay more (counters.computer_counter); the trip for a fighter already in a grab (it holds
    one fighter at a time) or with nobody to fear."""
    if unit.hold is not None:
        return counters.COMPUTER_PLAN
    near = [e for e in enemies if threatens(data, e, unit)]
    # The grab pays against none of them (their attack worth no more than the unit's): the
    # trip, without weighing each push penalty (exact sums over 3d10 - 3d10, worth sparing).
    if all(expected_harm(data, e, unit, harm) <= expected_harm(data, unit, e, harm) for e in near):
        return counters.COMPUTER_PLAN
    return counters.computer_counter([threat(data, e, unit, harm) for e in near])


def keeps_grab(
    data: MystRules,
    unit: EntitySheet,
    other: EntitySheet,
    allies: Sequence[EntitySheet],
    harm: Harm,
) -> bool:
    """The computer's `unit` leaves its grab with `other` as it is this turn (counters.
    keep_grab): the two attacks it trades, and whether an ally of `unit` (among `allies`),
    in the fight, standing and in no grab, stands within reach of `other` to strike it."""
    assert unit.hold is not None, "only a fighter in a grab keeps it"
    ally_by = any(
        a.id != unit.id
        and a.hold is None
        and not down(a)
        and not _sheet(data, a).out
        and chebyshev(a.cell, other.cell) <= data.melee_cells
        for a in allies
    )
    return counters.keep_grab(
        unit.hold[1],
        expected_harm(data, other, unit, harm),
        expected_harm(data, unit, other, harm),
        ally_by,
    )
