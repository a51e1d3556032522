"""Mounted combat kept in the battle (Myst, seed 002, l.118-185): the `gait` and
`strike_horse` commands, and what an exchange leaves a rider (the gallop's defender without
its action, the extra Cavalcare roll, the fall from the horse). Written against the battle's
public context; the numbers are the ruleset's (`RidesHorses`, game/tactics/ruleset.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.battle import commands as cmd
from game.battle.outcome import Refusal
from game.ecs.components import RulesetSheet, Unbalanced
from game.rules.ruleset_answers import RulesRefusal
from game.tactics.ruleset import RidesHorses, horse_riders

#: A rider's gaits, slowest first (002:l.130-145): the `gait` command's values.
GAITS = ("walk", "canter", "gallop")

if TYPE_CHECKING:
    from game.battle.context import BattleContext, BattleState
    from game.rules.ruleset_answers import Attack, AttackRoll, Saddle


def _riders(b: BattleState, unit: str) -> tuple[RidesHorses, object]:
    rules = horse_riders(b.ruleset)
    own = b.world.try_get(unit, RulesetSheet)
    if rules is None or own is None:
        raise Refusal("not_in_ruleset", command="gait")
    return rules, own.sheet


def gait_check(b: BattleState, c: cmd.Gait) -> Refusal | None:
    """The `gait` command's refusal: not under this ruleset, not a rider, not a gait, the gait
    it rides at already (with nothing declared), or two steps away (002:l.153)."""
    try:
        rules, sheet = _riders(b, c.unit)
        rules.declare_gait(sheet, c.gait)
    except Refusal as refused:
        return refused
    except RulesRefusal as refused:
        return Refusal(refused.code, unit=c.unit, **refused.values)
    return None


def gait(b: BattleContext, c: cmd.Gait) -> None:
    """002:l.153: the rider declares its change of gait, taken at its next turn; everyone who
    sees it learns of it ("i suoi avversari potranno regolarsi di conseguenza"). Free."""
    rules, sheet = _riders(b, c.unit)
    try:
        after = rules.declare_gait(sheet, c.gait)
    except RulesRefusal as refused:
        raise Refusal(refused.code, unit=c.unit, **refused.values) from None
    b.set(c.unit, RulesetSheet(after))
    b.emit("gait_declared", {"unit": c.unit, "gait": c.gait}, about=[c.unit], rules=("M-1",))


def strike_horse(b: BattleContext, c: cmd.StrikeHorse) -> None:
    """002:l.150: a melee attacker names whom it strikes; its choice stands until changed, told
    to its own side (the enemy learns it from the blow)."""
    rules, sheet = _riders(b, c.unit)
    b.set(c.unit, RulesetSheet(rules.strike_horse(sheet, c.horse)))
    b.emit(
        "strike_horse",
        {"unit": c.unit, "horse": c.horse},
        to=frozenset({b.faction_of(c.unit)}),
        rules=("M-1",),
    )


def after_exchange(
    b: BattleContext, attacker: str, target: str, attack: Attack, rolled: AttackRoll
) -> None:
    """What the exchange leaves its target when it rides or fought a rider (002:l.144-185)."""
    rules = horse_riders(b.ruleset)
    own = b.world.try_get(target, RulesetSheet) if b.on_map(target) else None
    if rules is None or own is None:
        return
    _apply(b, target, rules.after_exchange(b.roller, own.sheet, attack, rolled), attacker)


def horse_check(b: BattleContext, target: str) -> None:
    """After a hit that waited for its margin: a rider whose horse it killed falls (l.156)."""
    rules = horse_riders(b.ruleset)
    own = b.world.try_get(target, RulesetSheet) if b.on_map(target) else None
    if rules is None or own is None:
        return
    _apply(b, target, rules.horse_fall(b.roller, own.sheet), None)


def _apply(b: BattleContext, unit: str, steps: tuple[Saddle, ...], by: str | None) -> None:
    for step in steps:
        b.set(unit, RulesetSheet(step.sheet))
        about = [unit] if by is None else [unit, by]
        b.emit(step.kind, {"unit": unit, **step.logged}, about=about, rolls=step.rolls,
               rules=step.rules)  # fmt: skip
        if step.penalty:  # 002:l.154 "una penalità pari allo Scarto", on its next exchange
            b.set(unit, Unbalanced(step.penalty, b.round))
        if step.fall_damage and b.on_map(unit):
            b.hurt(unit, "impatto", step.fall_damage, "fall", None)  # 002:l.158 "da impatto"
