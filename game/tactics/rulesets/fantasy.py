"""The dice-step fantasy system (seed 003, F-1..F-3): its scenario sheet and query answers.

The pure rules are game/rules/fantasy/; here they meet the shared grid: line of sight and the
cover grade of the target (P-LOS-*, P-COV-*; the grade adds F-3's assumed DP modifier to ranged
attacks), G-4 distances, and F-2's "engaged" (an enemy in one of the 26 adjacent cells).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from game.grid.geometry import chebyshev
from game.rules.data import RulesData
from game.rules.exact import fraction_text
from game.rules.fantasy import combat
from game.rules.fantasy.data import FantasyDataError, FantasyRules, Sheet, load, parse_weapon
from game.rules.fantasy.data import read_sheet as read_fantasy_sheet
from game.rules.reader import (
    ScenarioError,
    as_bool,
    as_int,
    as_list,
    as_object,
    as_str,
    fail,
)
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import BattleRules, Json, Query, entity_arg
from game.tactics.rulesets.fantasy_battle import BATTLE

SITUATION_KEYS = (
    "unaware",
    "fleeing",
    "ranged_defended",
    "two_weapons",
    "attacker_index",
    "modifier",
)


def rules() -> FantasyRules:
    return load()


def sheet_of(entity: EntitySheet) -> Sheet:
    """The entity's fantasy sheet (the defaults for an entity built without one)."""
    return entity.sheet if isinstance(entity.sheet, Sheet) else rules().defaults


def read_entity(
    spec: Mapping[str, object], where: str, base: EntitySheet, _rules: RulesData
) -> EntitySheet:
    data = rules()
    try:
        sheet = data.defaults
        if "sheet" in spec:
            sheet = read_fantasy_sheet(spec["sheet"], f"{where}.sheet", data)
    except FantasyDataError as exc:
        raise ScenarioError(str(exc)) from None
    return replace(base, sheet=sheet)


def unit_fields(template: str | None, weapon: str | None, armour: str | None) -> dict[str, object]:
    """A map unit gets the sample sheet its periferie template maps to (sheets.toml)."""
    templates = rules().templates
    return {"sheet": templates.get(template or "default", templates["default"])}


def _enemies(a: EntitySheet, b: EntitySheet) -> bool:
    return a.faction != b.faction and not a.neutral and not b.neutral


def engaged(bf: Battlefield, entity: EntitySheet, besides: EntitySheet | None = None) -> bool:
    """F-2: an enemy stands in one of the 26 adjacent cells (`besides` not counted)."""
    return any(
        other.id != entity.id
        and (besides is None or other.id != besides.id)
        and _enemies(entity, other)
        and chebyshev(entity.cell, other.cell) == 1
        for other in bf.entities
    )


def _no_attack(reason: str, rule_ids: list[str], why: str) -> Json:
    return {"chance": None, "reason": reason, "rules": rule_ids, "why": why}


def _situation(spec: Mapping[str, object], where: str) -> combat.Situation:
    w = f"{where}.situation"
    raw = as_object(spec.get("situation", {}), w, SITUATION_KEYS)

    def flag(key: str) -> bool:
        return as_bool(raw.get(key, False), f"{w}.{key}")

    return combat.Situation(
        unaware=flag("unaware"),
        fleeing=flag("fleeing"),
        ranged_defended=flag("ranged_defended"),
        two_weapons=flag("two_weapons"),
        attacker_index=as_int(raw.get("attacker_index", 1), f"{w}.attacker_index", 1, 20),
        modifier=as_int(raw.get("modifier", 0), f"{w}.modifier", -100, 100),
    )


def _attack(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    data = rules()
    attacker = entity_arg(bf, spec, "attacker", where)
    target = entity_arg(bf, spec, "target", where)
    a_sheet, t_sheet = sheet_of(attacker), sheet_of(target)
    weapon = a_sheet.weapon
    if "weapon" in spec:
        raw = as_object(spec["weapon"], f"{where}.weapon")
        try:
            weapon = parse_weapon({**_weapon_fields(a_sheet), **raw}, f"{where}.weapon")
        except FantasyDataError as exc:
            raise ScenarioError(str(exc)) from None
    situation = _situation(spec, where)
    if attacker.id == target.id:
        return _no_attack("self_target", [], "nobody attacks itself")
    if a_sheet.dead:
        return _no_attack("dead", ["F-2"], f"{attacker.id} has lost all its body points")
    distance = chebyshev(attacker.cell, target.cell)
    if weapon.melee and distance > 1:
        return _no_attack(
            "out_of_reach",
            ["F-2", "G-4"],
            f"a melee attack needs contact (an adjacent cell); {target.id} is {distance} away",
        )
    if not weapon.melee and engaged(bf, attacker):
        return _no_attack(
            "engaged", ["F-2"], f"{attacker.id} is engaged in melee: no ranged attack (003:l.61)"
        )
    if situation.two_weapons:
        why_not = combat.cannot_two_weapons(data, a_sheet, weapon)
        if why_not is not None:
            return _no_attack("cannot_two_weapons", ["F-2"], why_not)
    los = tactics.sight(bf, attacker, target)
    if not los.clear:
        return _no_attack(
            "no_los", list(los.rules), f"the line of sight is blocked at {los.blocked_by}"
        )
    rule_ids = ["F-1", "F-2"]
    if not weapon.melee:
        cover = tactics.target_cover(bf, attacker, target)
        rule_ids += list(cover.rules)
        situation = replace(
            situation, cover=cover.grade, target_engaged=engaged(bf, target, besides=attacker)
        )
    p = combat.plan(data, a_sheet, t_sheet, weapon, situation)
    odds = combat.chances(data, p, melee=weapon.melee)
    out: Json = {
        "attack_dice": list(p.attack_dice),
        "defence_dice": None if p.defence_dice is None else list(p.defence_dice),
        "dp": p.dp,
        "contest": p.contest,
        "success_chance": fraction_text(odds.hit),
        "critical_chance": fraction_text(odds.critical),
        "critical_failure_chance": fraction_text(odds.critical_failure),
        "chance": None if p.contest else fraction_text(odds.hit),
        "outcomes": {k: fraction_text(v) for k, v in odds.outcomes.items()},
        "modifiers": {"attack": p.attack_modifier, "defence": p.defence_modifier},
        "rules": list(dict.fromkeys([*rule_ids, *p.rules, *los.rules])),
        "why": "; ".join(_why(p, situation)),
    }
    if "dice" in spec:
        out["result"] = _result(spec, where, data, p, weapon.melee)
    return out


def _weapon_fields(sheet: Sheet) -> dict[str, object]:
    w = sheet.weapon
    fields: dict[str, object] = {"name": w.name, "kind": w.kind, "damage": w.damage, "cad": w.cad}
    if w.skill is not None:
        fields["skill"] = w.skill
    return fields


def _why(p: combat.Plan, situation: combat.Situation) -> list[str]:
    lines = [f"attack {' + '.join(p.attack_dice)} (exploding) against DP {p.dp}"]
    if p.defence_dice is None:
        surprise = "fleeing" if situation.fleeing else "unaware"
        lines.append(f"the target is {surprise}: a check, not a contest (003:l.110)")
    else:
        lines.append(f"defence {' + '.join(p.defence_dice)} against the same DP (003:l.76)")
    if p.attack_modifier:
        lines.append(f"attack modifier {p.attack_modifier:+d}")
    if p.defence_modifier:
        lines.append(f"defence modifier {p.defence_modifier:+d}")
    lines += list(p.why)
    return lines


def _die_faces(value: object, where: str) -> list[list[int]]:
    out: list[list[int]] = []
    for i, die in enumerate(as_list(value, where)):
        faces = as_list(die, f"{where}[{i}]")
        out.append([as_int(f, f"{where}[{i}][{j}]", 1, 12) for j, f in enumerate(faces)])
    return out


def _result(
    spec: Mapping[str, object], where: str, data: FantasyRules, p: combat.Plan, melee: bool
) -> Json:
    dice = as_object(spec["dice"], f"{where}.dice", ("attack", "defence", "location"))
    if "attack" not in dice:
        fail(f"{where}.dice.attack", "missing (the faces of each attack die)")
    defence = _die_faces(dice["defence"], f"{where}.dice.defence") if "defence" in dice else None
    location = (
        as_int(dice["location"], f"{where}.dice.location", 1, 100) if "location" in dice else None
    )
    try:
        done = combat.resolve(
            data,
            p,
            _die_faces(dice["attack"], f"{where}.dice.attack"),
            defence,
            location,
            melee=melee,
        )
    except combat.FantasyInputError as exc:
        fail(f"{where}.dice", str(exc))
    return {
        "attack_total": done.attack_total,
        "defence_total": done.defence_total,
        "outcome": done.outcome,
        "critical": done.critical,
        "critical_failure": done.critical_failure,
        "location": done.location,
        "critical_roll": done.critical_roll,
    }


def _damage(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    data = rules()
    target = entity_arg(bf, spec, "target", where)
    if "damage" not in spec:
        fail(f"{where}.damage", "missing (the weapon's rolled damage)")
    damage = as_int(spec["damage"], f"{where}.damage", 0, 1000)
    places = [name for name, _ in data.locations]
    if "location" not in spec:
        fail(f"{where}.location", f"missing ({', '.join(places)}, or a d100 result)")
    raw = spec["location"]
    if isinstance(raw, str):
        location = as_str(raw, f"{where}.location")
        if location not in places:
            fail(
                f"{where}.location",
                f"unknown value {location!r} (expected one of: "
                f"{', '.join(places)}, or a d100 result)",
            )
    else:
        location = data.location(as_int(raw, f"{where}.location", 1, 100))
    wound = combat.take_damage(data, sheet_of(target), damage, location)
    return {
        "location": location,
        "armour_left": wound.armour_left,
        "armour_destroyed": wound.armour_destroyed,
        "body_damage": wound.body_damage,
        "body_lost": wound.body_lost,
        "full_sections": list(wound.full_sections),
        "penalty": wound.penalty,
        "dead": wound.dead,
        "rules": ["F-3"],
        "why": f"{damage} on the {location}: armour {sheet_of(target).armour.get(location, 0)} "
        f"-> {wound.armour_left}, {wound.body_damage} to the body points (003:l.179)",
    }


def _initiative(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    ids = [e.id for e in bf.entities]
    if "entities" in spec:
        ids = []
        for i, value in enumerate(as_list(spec["entities"], f"{where}.entities")):
            entity_id = as_str(value, f"{where}.entities[{i}]")
            if entity_id not in bf.by_id:
                fail(f"{where}.entities[{i}]", f"no entity {entity_id!r}")
            ids.append(entity_id)
    fighters = {e: (sheet_of(bf.by_id[e]).agi, sheet_of(bf.by_id[e]).des) for e in ids}
    done = combat.initiative(fighters)
    return {
        "order": list(done.order),
        # RULESETS.md section 4's `scores`: fantasy rolls nothing, its scores are the dice
        # that order (AGI, then DES breaking ties: F-1).
        "scores": {e: list(fighters[e]) for e in done.order},
        "simultaneous": [list(g) for g in done.simultaneous],
        "rules": ["F-1"],
        "why": "; ".join(f"{e}: AGI {fighters[e][0]}, DES {fighters[e][1]}" for e in done.order),
    }


QUERIES: Mapping[str, Query] = MappingProxyType(
    {
        "attack": Query(_attack, ("attacker", "target", "weapon", "situation", "dice")),
        "damage": Query(_damage, ("target", "damage", "location")),
        "initiative": Query(_initiative, ("entities",)),
    }
)


class Fantasy:
    """The ruleset object of seed 003."""

    id = "fantasy"
    entity_fields = ("sheet",)
    queries = QUERIES
    battle: BattleRules | None = BATTLE

    def read_entity(
        self, spec: Mapping[str, object], where: str, base: EntitySheet, rules: RulesData
    ) -> EntitySheet:
        return read_entity(spec, where, base, rules)

    def unit_fields(
        self, template: str | None, weapon: str | None, armour: str | None
    ) -> dict[str, object]:
        return unit_fields(template, weapon, armour)


RULESET = Fantasy()
