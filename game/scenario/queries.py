"""Answers to `tessera query` questions (QUERY-FORMAT.md), each with the rulings that decided it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from game.grid.geometry import chebyshev
from game.grid.model import CELL_METRES, Cell
from game.rules.data import DAMAGE_TYPES
from game.rules.hit import NoChance
from game.rules.movement import MODES
from game.rules.reader import (
    as_bool,
    as_cell,
    as_int,
    as_object,
    as_str,
    choice,
    fail,
)
from game.rules.throw import THROW_SIZES
from game.scenario.parse import weapon_ref
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield, EntitySheet
from game.text import explain

Json = dict[str, Any]


def answer_all(bf: Battlefield, queries: list[object]) -> Json:
    """One answer per query, in order; a query that cannot be answered answers an error."""
    results: list[Json] = []
    for i, raw in enumerate(queries):
        try:
            results.append(answer(bf, raw, f"queries[{i}]"))
        except ValueError as exc:  # ScenarioError, and the rules' and grid's refusals
            message = str(exc)
            prefix = f"queries[{i}]"
            results.append(
                {"error": message if message.startswith(prefix) else f"{prefix}: {message}"}
            )
    return {"results": results}


def answer(bf: Battlefield, raw: object, where: str) -> Json:
    spec = as_object(raw, where)
    if "q" not in spec:
        fail(f"{where}.q", "missing (one of: " + ", ".join(HANDLERS) + ")")
    kind = choice(spec["q"], f"{where}.q", HANDLERS)
    handler, fields = HANDLERS[kind]
    as_object(spec, where, ("q", *fields))
    return handler(bf, spec, where)


def _entity(bf: Battlefield, spec: Mapping[str, object], key: str, where: str) -> EntitySheet:
    if key not in spec:
        fail(f"{where}.{key}", "missing (an entity id)")
    entity_id = as_str(spec[key], f"{where}.{key}")
    if entity_id not in bf.by_id:
        fail(f"{where}.{key}", f"no entity {entity_id!r} (known: {', '.join(bf.by_id)})")
    return bf.by_id[entity_id]


def _point(bf: Battlefield, spec: Mapping[str, object], key: str, where: str) -> Cell | EntitySheet:
    if key not in spec:
        fail(f"{where}.{key}", "missing (an entity id or a cell [x, y, z])")
    value = spec[key]
    if isinstance(value, str):
        return _entity(bf, spec, key, where)
    cell = as_cell(value, f"{where}.{key}")
    if not bf.grid.in_bounds(cell):
        w, h, d = bf.grid.shape
        fail(f"{where}.{key}", f"{cell} is outside the {w}x{h}x{d} map")
    return cell


def _los(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    result = tactics.sight(bf, _point(bf, spec, "from", where), _point(bf, spec, "to", where))
    out: Json = {"los": result.clear, "rules": list(result.rules)}
    why = tactics.sight_why(result)
    if why:
        out["why"] = "; ".join(why)
    return out


def _distance(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    a = _point(bf, spec, "from", where)
    b = _point(bf, spec, "to", where)
    cells = chebyshev(
        a.cell if isinstance(a, EntitySheet) else a, b.cell if isinstance(b, EntitySheet) else b
    )
    return {"cells": cells, "metres": cells * CELL_METRES, "rules": ["G-4"]}


def _cover(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    attacker = _entity(bf, spec, "attacker", where)
    target = _entity(bf, spec, "target", where)
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
    attacker = _entity(bf, spec, "attacker", where)
    target = _entity(bf, spec, "target", where)
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
    entity = _entity(bf, spec, "entity", where)
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
    entity = _entity(bf, spec, "entity", where)
    if "to" not in spec:
        fail(f"{where}.to", "missing (a cell [x, y, z])")
    to = _point(bf, spec, "to", where)
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
    target = _entity(bf, spec, "target", where)
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
    entity = _entity(bf, spec, "entity", where)
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
    thrower = _entity(bf, spec, "attacker", where)
    if "size" not in spec:
        fail(f"{where}.size", "missing (light, medium or heavy)")
    size = choice(spec["size"], f"{where}.size", THROW_SIZES)
    result = tactics.throw_at(bf, thrower, size, _point(bf, spec, "to", where))
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


Handler = Callable[[Battlefield, Mapping[str, object], str], Json]
HANDLERS: dict[str, tuple[Handler, tuple[str, ...]]] = {
    "los": (_los, ("from", "to")),
    "distance": (_distance, ("from", "to")),
    "cover": (_cover, ("attacker", "target")),
    "hit_chance": (_hit_chance, ("attacker", "target", "weapon")),
    "reachable": (_reachable, ("entity", "mode", "dash", "stealth")),
    "path": (_path, ("entity", "to", "mode", "dash", "stealth")),
    "damage": (_damage, ("target", "type", "roll")),
    "initiative": (_initiative, ("rolls",)),
    "jump": (_jump, ("entity", "height")),
    "throw": (_throw, ("attacker", "size", "to")),
}
