"""Le Periferie del Vuoto (seed 001), the default ruleset: its scenario sheet and its queries."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import TypeVar

from game.grid.occupants import Size
from game.rules import checknames
from game.rules.data import (
    DAMAGE_TYPES,
    Armour,
    RulesData,
    RulesDataError,
    Weapon,
    parse_armour,
    parse_weapon,
)
from game.rules.hit import NoChance
from game.rules.movement import MODES, Speeds
from game.rules.reader import (
    ScenarioError,
    as_bool,
    as_cell,
    as_int,
    as_list,
    as_object,
    choice,
    fail,
)
from game.rules.throw import THROW_SIZES
from game.rules.wounds import CONDITIONS, Health
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import Json, Query, entity_arg, point_arg
from game.tactics.rulesets.periferie_battle import BATTLE, PeriferieBattle
from game.text import explain

Item = TypeVar("Item", Weapon, Armour)

#: The scenario entity fields periferie reads besides the shared ones.
ENTITY_FIELDS = (
    "template",
    "checks",
    "weapon",
    "armour",
    "wounds",
    "conditions",
    "speeds",
    "thrusters",
    "in_flight",
    "velocity",
)


def read_entity(
    spec: Mapping[str, object], where: str, base: EntitySheet, rules: RulesData
) -> EntitySheet:
    """A scenario entity's periferie sheet: a template's checks, speeds and kit, then the
    entity's own fields over them."""
    template_id = choice(
        spec.get("template", "human"), f"{where}.template", sorted(rules.templates)
    )
    template = rules.templates[template_id]
    checks: dict[str, int] = dict(template.checks)
    if "checks" in spec:
        for name, v in as_object(spec["checks"], f"{where}.checks").items():
            if name not in checknames.ALL:  # a typo must not silently become a bonus of 0
                fail(
                    f"{where}.checks",
                    f"unknown check {name!r} (known: {', '.join(checknames.ALL)})",
                )
            checks[name] = as_int(v, f"{where}.checks[{name!r}]", low=-20, high=40)
    speeds_map: dict[str, object] = dict(template.speeds)
    if "speeds" in spec:
        speeds_map.update(as_object(spec["speeds"], f"{where}.speeds"))
    try:
        speeds = Speeds.from_mapping(speeds_map, f"{where}.speeds")
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None
    size = base.size
    if "size" not in spec:  # the template's size unless the entity names its own
        size = Size.from_name(
            choice(template.size, f"{where}.template.size", [z.name.lower() for z in Size])
        )
    return replace(
        base,
        size=size,
        checks=MappingProxyType(checks),
        weapon=weapon_ref(spec.get("weapon", template.weapon), f"{where}.weapon", rules),
        armour=armour_ref(spec.get("armour", template.armour), f"{where}.armour", rules),
        health=_parse_health(spec, where),
        speeds=speeds,
        thrusters=as_bool(spec.get("thrusters", template.thrusters), f"{where}.thrusters"),
        vulnerability=template.vulnerability,
        in_flight=as_bool(spec.get("in_flight", False), f"{where}.in_flight"),
        velocity=as_cell(spec.get("velocity", [0, 0, 0]), f"{where}.velocity"),
    )


def unit_fields(template: str | None, weapon: str | None, armour: str | None) -> dict[str, object]:
    """A map unit's Tiled properties are periferie's own ids."""
    named = {"template": template, "weapon": weapon, "armour": armour}
    return {key: value for key, value in named.items() if value is not None}


def weapon_ref(value: object, where: str, rules: RulesData) -> Weapon | None:
    """A weapon given by id from the rules data or as an inline object; None for none."""
    return _by_id_or_inline(value, where, "weapon", rules.weapons, parse_weapon)


def armour_ref(value: object, where: str, rules: RulesData) -> Armour | None:
    """An armour given by id from the rules data or as an inline object; None for none."""
    return _by_id_or_inline(value, where, "armour", rules.armour, parse_armour)


def _by_id_or_inline(
    value: object,
    where: str,
    kind: str,
    table: Mapping[str, Item],
    parse: Callable[[str, Mapping[str, object], str], Item],
) -> Item | None:
    if value is None:
        return None
    if isinstance(value, str):
        if value not in table:
            fail(where, f"unknown {kind} id {value!r} (known: {', '.join(sorted(table))})")
        return table[value]
    try:
        return parse(f"inline {kind}", as_object(value, where), where)
    except RulesDataError as exc:
        raise ScenarioError(str(exc)) from None


def _parse_health(spec: Mapping[str, object], where: str) -> Health:
    wounds = as_object(spec.get("wounds", {}), f"{where}.wounds", ("light", "grave", "mortal"))
    conditions = [
        choice(c, f"{where}.conditions[{j}]", CONDITIONS)
        for j, c in enumerate(as_list(spec.get("conditions", []), f"{where}.conditions"))
    ]
    try:
        return Health.from_dict({**wounds, "conditions": conditions}, f"{where}.wounds")
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None


def _cover(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    attacker = entity_arg(bf, spec, "attacker", where)
    target = entity_arg(bf, spec, "target", where)
    los = tactics.sight(bf, attacker, target)
    if not los.clear:
        return {"cover": None, "reason": NoChance.NO_LOS, "rules": list(los.rules)}
    result = tactics.target_cover(bf, attacker, target)
    return {
        "cover": result.grade,
        "percent": result.percent,
        "rules": list(tactics.merge_rules(los.rules, result.rules)),
        "why": "; ".join(explain.cover_lines(result)),
    }


def _hit_chance(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    attacker = entity_arg(bf, spec, "attacker", where)
    target = entity_arg(bf, spec, "target", where)
    weapon = weapon_ref(spec.get("weapon"), f"{where}.weapon", bf.rules)
    result = tactics.attack_chance(bf, attacker, target, weapon)
    if result.hit is None:
        return {
            "hit_chance": None,
            "reason": result.reason,
            "rules": list(result.rules),
            "why": "; ".join(result.why),
        }
    breakdown = dict(result.hit.breakdown())
    if result.cover is not None:
        breakdown["cover"] = result.cover.grade
    return {
        "hit_chance": result.hit.p,
        "breakdown": breakdown,
        "rules": list(result.rules),
        "why": "; ".join(result.why),
    }


def _movement_options(spec: Mapping[str, object], where: str) -> tuple[str | None, bool, bool]:
    mode = choice(spec["mode"], f"{where}.mode", MODES) if "mode" in spec else None
    dash = as_bool(spec.get("dash", False), f"{where}.dash")
    stealth = as_bool(spec.get("stealth", False), f"{where}.stealth")
    return mode, dash, stealth


def _reachable(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    entity = entity_arg(bf, spec, "entity", where)
    mode, dash, stealth = _movement_options(spec, where)
    cells, allow = tactics.reachable_cells(bf, entity, mode, dash=dash, stealth=stealth)
    listing = sorted(
        ([*c, cost] for c, cost in cells.items()), key=lambda r: (r[3], r[2], r[1], r[0])
    )
    return {
        "reachable": listing,
        "rules": _movement_rules(allow.rules),
        "why": "; ".join(explain.allowance_lines(allow)),
    }


def _movement_rules(extra: tuple[str, ...]) -> list[str]:
    return list(tactics.merge_rules(("P-MOV-1", "P-MOV-2", "P-MOV-3", "P-MOV-4", "G-3"), extra))


def _path(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    entity = entity_arg(bf, spec, "entity", where)
    if "to" not in spec:
        fail(f"{where}.to", "missing (a cell [x, y, z])")
    to = point_arg(bf, spec, "to", where)
    if isinstance(to, EntitySheet):
        fail(f"{where}.to", "expected a cell [x, y, z]")
    mode, dash, stealth = _movement_options(spec, where)
    result, allow = tactics.path_to(bf, entity, to, mode, dash=dash, stealth=stealth)
    if result.cost is None:
        return {
            "cost": None,
            "rules": _movement_rules(allow.rules),
            "why": "; ".join(explain.allowance_lines(allow)),
        }
    return {
        "cost": result.cost,
        "path": [list(c) for c in result.cells],
        "rules": _movement_rules(allow.rules),
        "why": "; ".join(explain.path_lines(result)),
    }


def _damage(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    target = entity_arg(bf, spec, "target", where)
    if "type" not in spec:
        fail(f"{where}.type", "missing (" + ", ".join(DAMAGE_TYPES) + ")")
    damage_type = choice(spec["type"], f"{where}.type", DAMAGE_TYPES)
    if "roll" not in spec:
        fail(f"{where}.roll", "missing (the weapon's rolled damage before armour)")
    rolled = as_int(spec["roll"], f"{where}.roll", low=0, high=1000)
    result = tactics.damage_to(bf, target, damage_type, rolled)
    after = result.outcome.after
    return {
        "damage": result.damage,
        "effects": list(result.outcome.effects),
        "wounds": {"light": after.light, "grave": after.grave, "mortal": after.mortal},
        "rules": list(result.rules),
        "why": "; ".join(result.why),
    }


def _initiative(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    if "rolls" not in spec:
        fail(f"{where}.rolls", "missing ({entity id: d20 result})")
    rolls: dict[str, int] = {}
    for entity_id, value in as_object(spec["rolls"], f"{where}.rolls").items():
        if entity_id not in bf.by_id:
            fail(f"{where}.rolls", f"no entity {entity_id!r}")
        rolls[entity_id] = as_int(value, f"{where}.rolls[{entity_id!r}]", low=1, high=20)
    order = tactics.initiative_order(bf, rolls)
    return {
        "order": [e.combatant.entity_id for e in order],
        "rules": ["P-INIT-1", "P-INIT-2"],
        "why": "; ".join(explain.initiative_lines(order)),
    }


def _jump(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    entity = entity_arg(bf, spec, "entity", where)
    if "height" not in spec:
        fail(f"{where}.height", "missing (cells)")
    height = as_int(spec["height"], f"{where}.height", low=0, high=100)
    n_max, dc = tactics.jump_limits(bf, entity, height)
    if n_max is None:
        return {
            "n_max": None,
            "dc": None,
            "rules": ["P-JUMP-2", "P-ZERO-1"],
            "why": explain.jump_line(bf.grid.gravity, microgravity=True),
        }
    return {
        "n_max": n_max,
        "dc": dc,
        "rules": ["P-JUMP-1", "P-JUMP-2"],
        "why": explain.jump_line(bf.grid.gravity, microgravity=False),
    }


def _throw(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    thrower = entity_arg(bf, spec, "attacker", where)
    if "size" not in spec:
        fail(f"{where}.size", "missing (light, medium or heavy)")
    size = choice(spec["size"], f"{where}.size", THROW_SIZES)
    result = tactics.throw_at(bf, thrower, size, point_arg(bf, spec, "to", where))
    out: Json = {
        "band": result.band,
        "automatic": result.automatic,
        "hit_chance": result.hit_chance,
        "rules": list(result.rules),
        "why": "; ".join(result.why),
    }
    if result.reason:
        out["reason"] = result.reason
    return out


QUERIES: Mapping[str, Query] = MappingProxyType(
    {
        "cover": Query(_cover, ("attacker", "target")),
        "hit_chance": Query(_hit_chance, ("attacker", "target", "weapon")),
        "reachable": Query(_reachable, ("entity", "mode", "dash", "stealth")),
        "path": Query(_path, ("entity", "to", "mode", "dash", "stealth")),
        "damage": Query(_damage, ("target", "type", "roll")),
        "initiative": Query(_initiative, ("rolls",)),
        "jump": Query(_jump, ("entity", "height")),
        "throw": Query(_throw, ("attacker", "size", "to")),
    }
)


class Periferie:
    """The ruleset object of seed 001."""

    id = "periferie"
    entity_fields = ENTITY_FIELDS
    queries = QUERIES
    #: Its battle side (game.tactics.ruleset.BattleRules).
    battle: PeriferieBattle = BATTLE

    def read_entity(
        self, spec: Mapping[str, object], where: str, base: EntitySheet, rules: RulesData
    ) -> EntitySheet:
        return read_entity(spec, where, base, rules)

    def unit_fields(
        self, template: str | None, weapon: str | None, armour: str | None
    ) -> dict[str, object]:
        return unit_fields(template, weapon, armour)


RULESET = Periferie()
