"""Attacks and harm, written against the battle's public context: to-hit, damage over an area, a
hit landing. The numbers are the ruleset's (`b.ruleset`, game/tactics/ruleset.py): its chance,
its roll, its damage and health value; nothing here reaches into `Battle` (docs/battle.md, "The
handlers and the battle's context")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from game.battle.outcome import Refusal
from game.ecs.components import Crowded, Position, RulesetSheet, Wounds
from game.rules.wounds import Health

if TYPE_CHECKING:
    from game.battle.context import BattleContext
    from game.grid.model import Cell
    from game.rules.data import Weapon
    from game.rules.dice import RollRecord
    from game.rules.ruleset_answers import Attack, AttackRoll
    from game.tactics.battlefield import EntitySheet


def hurt(
    b: BattleContext,
    target: str,
    damage_type: str,
    rolled: int,
    source: str,
    roll: RollRecord | None,
    on_hit: Sequence[str] = (),
) -> Health:
    """A hit lands: the ruleset's damage and health value (periferie: P-DMG-1, the table
    P-VUL-1/2, death saves P-DEATH-1), then the weapon's on-hit effects."""
    answer = b.ruleset.damage(b.bf, b.sheet(target), damage_type, rolled)
    if b.world.has(target, RulesetSheet):
        # A ruleset's own health lives in its sheet; the shared Wounds keeps the battle's two
        # facts about it (dead, out of the fight). Periferie's on-hit conditions are its own.
        b.set(target, RulesetSheet(answer.after))
        effects = b.ruleset.condition_effects(answer.after)
        facts = {"dead": effects.dead, "out_of_combat": effects.out_of_combat and not effects.dead}
        after = Health(conditions=frozenset(name for name, held in facts.items() if held))
        extra: list[str] = []
    else:
        after = answer.after  # periferie's wound ladder
        extra = [e for e in on_hit if not after.has("dead") and e not in after.conditions]
        if extra:
            after = replace(after, conditions=after.conditions | frozenset(extra))
    b.set(target, Wounds(after))
    b.emit(
        "damage",
        {
            "unit": target,
            "source": source,
            "type": damage_type,
            "rolled": rolled,
            "damage": answer.damage,
            "effects": list(answer.effects) + extra,
            "wounds": after.to_dict(),
            "why": list(answer.why),
        },
        about=[target],
        rolls=() if roll is None else (roll,),
        rules=answer.rules,
    )
    if after.has("dead"):
        b.fall(target)
    return after


def _attack_roll(
    b: BattleContext,
    attacker: str,
    target: EntitySheet,
    weapon: Weapon,
    purpose: str,
) -> tuple[AttackRoll, Attack]:
    answer = b.ruleset.attack(b.bf, b.sheet(attacker), target, weapon)
    if answer.chance is None:
        raise Refusal(str(answer.reason), target=target.id, why=answer.why)
    advantage = b.advantage(attacker, target.id)
    rolled = b.ruleset.roll_attack(b.roller, answer, advantage, purpose)
    b.spend_help(attacker)
    return rolled, answer


def resolve_attack(
    b: BattleContext,
    attacker: str,
    target: EntitySheet,
    weapon: Weapon,
    kind: str,
    *,
    both: bool = True,
) -> None:
    """One attack at an entity: to-hit (P-HIT-*), then damage over the area (P-AREA-1). An
    attack on a cell two share is aimed at both (P-MOV-8): the other is attacked next, with
    its own roll, if the attacker could attack it."""
    mate = b.world.try_get(target.id, Crowded)
    rolled, answer = _attack_roll(b, attacker, target, weapon, f"{kind} {attacker}")
    b.reveal_to(attacker, {target.faction})
    b.emit(
        kind,
        {
            "unit": attacker,
            "target": target.id,
            "weapon": weapon.id,
            **rolled.logged,
            "hit": rolled.hit,
            "cover": answer.cover,
            "why": list(answer.why),
        },
        about=[attacker, target.id],
        rolls=(rolled.record,),
        rules=answer.rules,
    )
    if rolled.hit:
        damage_area(b, attacker, weapon, target.cell, target.id, answer, rolled)
    other = None if mate is None or not both or weapon.area else mate.other
    if other is None or other == attacker or not b.on_map(other):
        return  # an area weapon has hit the whole cell already
    if b.world.get(other, Position).cell != target.cell:
        return
    second = b.sheet(other)
    if b.ruleset.attack(b.bf, b.sheet(attacker), second, weapon, worded=False).chance is None:
        return
    resolve_attack(b, attacker, second, weapon, kind, both=False)


def damage_area(
    b: BattleContext,
    attacker: str,
    weapon: Weapon,
    origin: Cell,
    aimed: str | None,
    attack: Attack | None = None,
    hit: AttackRoll | None = None,
) -> None:
    """Everyone the ruleset puts in the weapon's area from `origin` takes the damage (one
    roll, each with its own armour and table); a one-target weapon hits only the aimed entity."""
    by = b.bf.by_id.get(attacker)
    area = b.ruleset.area_victims(b.bf, by, weapon, origin)  # periferie: P-AREA-1's pattern
    victims = list(area) if area is not None else ([aimed] if aimed is not None else [])
    if not victims:
        return
    roll = b.ruleset.roll_damage(b.roller, b.bf, by, weapon, attack, hit)
    on_hit = weapon.on_hit
    for victim in victims:
        hurt(b, victim, weapon.damage_type, roll.rolled, attacker, roll.record, on_hit)
