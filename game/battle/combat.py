"""Attacks and harm, written against the battle's public context: to-hit, damage over an area, a
hit landing. The numbers are the ruleset's (`b.ruleset`, game/tactics/ruleset.py): its chance,
its roll, its damage and health value; nothing here reaches into `Battle` (docs/battle.md, "The
handlers and the battle's context")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from game.battle import counters as counter_effects
from game.battle import mounted
from game.battle.outcome import Refusal, no_chance
from game.ecs.components import (
    Crowded,
    DamageWaiting,
    Position,
    RulesetSheet,
    StandingDefence,
    Wounds,
)
from game.rules.wounds import Health
from game.tactics.ruleset import damage_shaper, defence_counters, round_rules

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
    if after.has("dead") or after.has("out_of_combat"):
        counter_effects.out_of_the_fight(b, target)  # nobody holds or is held out of the fight
    if after.has("dead"):
        b.fall(target)
    return after


def _attack_roll(
    b: BattleContext,
    attacker: str,
    target: EntitySheet,
    weapon: Weapon,
    purpose: str,
    kind: str = "attack",
) -> tuple[AttackRoll, Attack]:
    me = b.sheet(attacker)
    if kind == "reaction_attack":  # the ruleset's own: fantasy's fleeing target (003:l.67)
        answer = b.ruleset.reaction_attack(b.bf, me, target, weapon)
    else:
        answer = b.ruleset.attack(b.bf, me, target, weapon)
    if answer.chance is None:
        raise no_chance(answer.reason, target.id, answer.why)
    advantage = b.advantage(attacker, target.id)
    rolled = b.ruleset.roll_attack(b.roller, answer, advantage, purpose)
    b.spend_help(attacker)
    own = b.world.try_get(attacker, RulesetSheet)
    if own is not None:  # the weapon fired may need reloading (fantasy's CAD, 003:l.140)
        after = b.ruleset.after_attack(own.sheet, answer)
        if after != own.sheet:
            b.set(attacker, RulesetSheet(after))
    theirs = b.world.try_get(target.id, RulesetSheet)
    if theirs is not None:  # the target has defended (Myst: the round's defences, M-2)
        after = b.ruleset.after_defence(theirs.sheet, answer)
        if after is not theirs.sheet:
            b.set(target.id, RulesetSheet(after))
    return rolled, answer


def resolve_attack(
    b: BattleContext,
    attacker: str,
    target: EntitySheet,
    weapon: Weapon,
    kind: str,
    *,
    both: bool = True,
    margin: str | None = None,
) -> None:
    """One attack at an entity: to-hit (P-HIT-*), then damage over the area (P-AREA-1). An
    attack on a cell two share is aimed at both (P-MOV-8): the other is attacked next, with
    its own roll, if the attacker could attack it. `margin`: the attack command's choice of
    how a hit's margin is spent (`damage_area`)."""
    mate = b.world.try_get(target.id, Crowded)
    rolled, answer = _attack_roll(b, attacker, target, weapon, f"{kind} {attacker}", kind)
    counter_effects.exchanged(b, attacker, target.id)  # a push's penalty counted (Myst, 002:l.101)
    b.reveal_to(attacker, {target.faction})
    _reaction(b, attacker, target.id, answer)
    b.emit(
        kind,
        {
            "unit": attacker,
            "target": target.id,
            "weapon": weapon.id,
            **weapon_named(b, attacker, answer),
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
        damage_area(b, attacker, weapon, target.cell, target.id, answer, rolled, margin=margin)
    else:
        defence_won(b, attacker, target, answer, rolled)
    mounted.after_exchange(b, attacker, target.id, answer, rolled)  # Myst riders, 002:l.144-185
    other = None if mate is None or not both or weapon.area else mate.other
    if other is None or other == attacker or not b.on_map(other):
        return  # an area weapon has hit the whole cell already
    if b.world.get(other, Position).cell != target.cell:
        return
    second = b.sheet(other)
    if b.ruleset.attack(b.bf, b.sheet(attacker), second, weapon, worded=False).chance is None:
        return
    # The second is the computer's choice: one margin waits at a time.
    resolve_attack(b, attacker, second, weapon, kind, both=False)


def weapon_named(b: BattleContext, unit: str, answer: Attack | None = None) -> dict[str, str]:
    """The event fields naming the weapon `unit` fights with under a ruleset whose sheet has its
    own (Myst, fantasy, Cepheus, d20: `attack_weapon`, else `sheet_weapon`): its data name and
    its id in the ruleset's TOML, which the log words (names.weapon_name). None under periferie,
    whose events keep their fields (the journal's bytes): their `weapon` is the one."""
    named = None if answer is None else b.ruleset.attack_weapon(answer)
    own = b.world.try_get(unit, RulesetSheet)
    if named is None and own is not None:
        named = b.ruleset.sheet_weapon(own.sheet)
    return {} if named is None else {"weapon_name": named.name, "sheet_weapon": named.id}


def _reaction(b: BattleContext, attacker: str, target: str, answer: Attack) -> None:
    """The target's reaction counted in the attack (Cepheus's dodge or parry, 000:l.158-170):
    what it costs the reactor, its own checks and its initiative (C-1, C-4)."""
    rules = round_rules(b.ruleset)
    own = b.world.try_get(target, RulesetSheet)
    taken = None if rules is None or own is None else rules.reaction(answer)
    if rules is None or own is None or taken is None:
        return
    after, change = rules.reacted(own.sheet)
    b.set(target, RulesetSheet(after))
    counts_in = b.initiative.adjust(target, change)
    b.emit(
        "reacted",
        {"unit": target, "reaction": taken, "against": attacker, "initiative": change,
         "round": counts_in},
        about=[target, attacker],
        rules=("C-1", "C-4"),
    )  # fmt: skip


def damage_area(
    b: BattleContext,
    attacker: str,
    weapon: Weapon,
    origin: Cell,
    aimed: str | None,
    attack: Attack | None = None,
    hit: AttackRoll | None = None,
    *,
    margin: str | None = None,
) -> None:
    """Everyone the ruleset puts in the weapon's area from `origin` takes the damage (one
    roll, each with its own armour and table); a one-target weapon hits only the aimed entity.
    A hit whose damage its attacker may still shape (`DamageRoll.choice`, Myst's margin, M-1)
    waits for its `spend_margin` when `margin` is "ask", takes the least damage for "least",
    and the computer's choice (the most) otherwise (docs/battle.md, "A hit's margin")."""
    by = b.bf.by_id.get(attacker)
    area = b.ruleset.area_victims(b.bf, by, weapon, origin)  # periferie: P-AREA-1's pattern
    victims = list(area) if area is not None else ([aimed] if aimed is not None else [])
    if not victims:
        return
    roll = b.ruleset.roll_damage(b.roller, b.bf, by, weapon, attack, hit)
    on_hit = weapon.on_hit
    damage_type = roll.damage_type or weapon.damage_type
    rolled = roll.rolled
    shaper = damage_shaper(b.ruleset)
    asked = margin in ("ask", "least")  # else `rolled` is already the most damage
    if asked and roll.choice is not None and shaper is not None and len(victims) == 1:
        choice = shaper.damage_choice(roll.choice)
        if margin == "ask":
            b.set(attacker, DamageWaiting(victims[0], damage_type, on_hit, roll.choice))
            b.emit(
                "margin_won",
                {
                    "unit": attacker,
                    "target": victims[0],
                    "units": choice.units,
                    "rolled": choice.rolled,
                    "caps": dict(choice.caps),
                },
                about=[attacker, victims[0]],
                rolls=(roll.record,),
                rules=choice.rules,
            )
            return
        if margin == "least":
            rolled = choice.plans[-1].damage
    for victim in victims:
        # through the context: harm done while a simultaneous group acts waits (F-1)
        b.hurt(victim, damage_type, rolled, attacker, roll.record, on_hit)


def defence_won(
    b: BattleContext, attacker: str, target: EntitySheet, answer: Attack, rolled: AttackRoll
) -> None:
    """A missed attack whose defence won counter-moves (Myst's defence margin, M-1): the
    target's standing plan (`defence_plan`) or the ruleset's choice; a counterattack that
    lands hurts the attacker."""
    counters = defence_counters(b.ruleset)
    if counters is None or not b.on_map(attacker) or not b.on_map(target.id):
        return
    standing = b.world.try_get(target.id, StandingDefence)
    plan = None if standing is None else standing.moves
    won = counters.defence_won(b.roller, b.bf, b.sheet(attacker), target, answer, rolled, plan)
    if won is None:
        return
    if won.after is not None and b.world.has(target.id, RulesetSheet):
        b.set(target.id, RulesetSheet(won.after))
    if won.attacker_after is not None and b.world.has(attacker, RulesetSheet):
        b.set(attacker, RulesetSheet(won.attacker_after))  # its answer to the counter (M-2)
    gained = {} if won.priority_over is None else _priority(b, target.id, won.priority_over)
    b.emit(
        "defence_margin",
        {
            "unit": target.id,
            "against": attacker,
            "margin": won.margin,
            "units": won.units,
            "taken": list(won.taken),
            **won.logged,
            "hit": won.hit,
            **gained,
        },
        about=[target.id, attacker],
        rolls=won.rolls,
        rules=won.rules,
    )
    counter_effects.after_defence(b, attacker, target.id, won)  # push, trip, grab, break off
    if won.hit and won.damage_type:  # a punch (a push, trip or grab does no damage)
        b.hurt(attacker, won.damage_type, won.damage, target.id, None)
        # A counterattack that puts the attacker out of the fight in its own turn ends that
        # turn there, as a reaction's hit does (P-OA-1's turn_cut_short, M-1's counter).
        out = b.on_map(attacker) and b.condition_effects(attacker).turn_lost is not None
        if out and b.initiative.active == attacker:
            b.emit("turn_cut_short", {"unit": attacker}, about=[attacker], rules=("M-1",))
            b.end_turn(attacker)


def _priority(b: BattleContext, unit: str, over: str) -> dict[str, int]:
    """`unit` acts before `over` next round (Myst's "Priority next round", 002:l.79): its
    score that round one above `over`'s, nothing when above already; the change counts for
    that round only (the order keeper's `adjust`). The event's fields: the change and the
    round it counts in."""
    own, theirs = b.initiative.entry(unit), b.initiative.entry(over)
    if own is None or theirs is None:
        return {"initiative": 0}
    change = max(0, theirs.total - own.total + 1)
    if change == 0:
        return {"initiative": 0}
    return {"initiative": change, "round": b.initiative.adjust(unit, change)}


def spend_margin(b: BattleContext, unit: str, uses: Mapping[str, int]) -> None:
    """The attacker's choice for its waiting hit (M-1): the ruleset's damage of it, or the
    refusal of the rule it breaks (nothing changes); then the hit lands."""
    shaper = damage_shaper(b.ruleset)
    waiting = b.world.try_get(unit, DamageWaiting)
    if waiting is None or shaper is None:
        raise Refusal("no_margin_to_spend", unit=unit)
    done = shaper.spend_damage(waiting.choice, uses)
    if done.refused is not None:
        raise Refusal(done.refused, unit=unit, **done.values)
    b.take_damage_waiting(unit)
    b.emit(
        "margin_spent",
        {
            "unit": unit,
            "target": waiting.target,
            "uses": dict(uses),
            "damage": done.damage,
            "why": list(done.why),
        },
        about=[unit, waiting.target],
        rules=("M-1",),
    )
    if b.on_map(waiting.target):
        b.hurt(waiting.target, waiting.damage_type, done.damage, unit, None, waiting.on_hit)
        mounted.horse_check(b, waiting.target)  # a Myst horse killed by the hit (002:l.156)
