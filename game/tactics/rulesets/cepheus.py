"""Cepheus Engine (seed 000, RULINGS C-1..C-5): its scenario sheet and its queries.

The pure rules are game/rules/cepheus; this object adds the shared grid's geometry to them:
line of sight (P-LOS, as in every ruleset), G-4 distances for the C-2 bands, the obstacles that
hide a target for the C-3 cover grade, occupancy for firing into melee, and the shared path
search for movement.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from game.grid.geometry import chebyshev
from game.grid.movement import MoveRequest, reachable
from game.rules import exact
from game.rules.cepheus import attack as rules_attack
from game.rules.cepheus.checks import CELL_METRES
from game.rules.cepheus.cover import CoverGrade, cover_grade
from game.rules.cepheus.damage import (
    DEAD,
    UNCONSCIOUS,
    apply_damage,
    damage_amount,
)
from game.rules.cepheus.data import CepheusData, default_data
from game.rules.cepheus.initiative import Contender, order
from game.rules.cepheus.notes import Step
from game.rules.cepheus.sheet import CHARS, MissingCharacteristic, Sheet, parse_sheet, weapon_ref
from game.rules.cepheus.turn import movement_allowance
from game.rules.data import RulesData
from game.rules.reader import (
    ScenarioError,
    as_bool,
    as_int,
    as_list,
    as_object,
    choice,
    fail,
)
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import BattleRules, Json, Query, entity_arg
from game.tactics.rulesets.cepheus_battle import (
    BATTLE,
    beside_target,
    grid_cover,
    sheet_of,
    state_of,
)

ENTITY_FIELDS = ("sheet",)
#: The `situation` keys of the attack query (RULESETS.md section 4, plus `suppressed` and
#: `extreme_range`).
SITUATION_KEYS = (
    "aim", "laser_sight", "aim_to_kill", "dodge", "parry", "hasty", "reactions", "cover",
    "darkness", "smoke", "weather", "target_moved_cells", "burst", "uncontrolled_burst",
    "into_melee", "suppression", "suppressed", "extreme_range",
)  # fmt: skip


def _data() -> CepheusData:
    return default_data()


def read_sheet(value: object, where: str) -> Sheet:
    data = _data()
    samples = data.samples
    return parse_sheet(
        value, where, data.tables.kinds, samples.weapons, samples.weapons.get("pugni")
    )


def read_entity(
    spec: Mapping[str, object], where: str, base: EntitySheet, rules: RulesData
) -> EntitySheet:
    """The entity's `sheet` (every key optional: RULESETS.md section 4)."""
    return replace(base, sheet=read_sheet(spec.get("sheet", {}), f"{where}.sheet"))


def unit_fields(template: str | None, weapon: str | None, armour: str | None) -> dict[str, object]:
    """A map unit's periferie ids as a Cepheus sample sheet (game/data/cepheus/sheets.toml):
    the template's sheet, with the unit's own weapon or armour replacing the sheet's."""
    samples = _data().samples
    name = template or "human"
    if name not in samples.templates:
        known = ", ".join(sorted(samples.templates))
        fail("template", f"{name!r} has no Cepheus sample sheet (known: {known})")
    sheet = dict(samples.raw_sheets[samples.templates[name]])
    if weapon is not None:
        if weapon not in samples.weapon_ids:
            known = ", ".join(sorted(samples.weapon_ids))
            fail("weapon", f"{weapon!r} has no Cepheus sample weapon (known: {known})")
        sheet["weapon"] = samples.weapon_ids[weapon]
    if armour is not None:
        if armour not in samples.armour:
            known = ", ".join(sorted(samples.armour))
            fail("armour", f"{armour!r} has no Cepheus armour value (known: {known})")
        sheet["armour"] = samples.armour[armour]
    return {"sheet": sheet}


def _steps_text(steps: tuple[Step, ...]) -> str:
    parts = []
    for s in steps:
        label = s.code.replace("_", " ") + (f" ({s.detail})" if s.detail else "")
        parts.append(f"{label} {s.value:+d}")
    return ", ".join(parts)


def _missing(where: str, entity: EntitySheet, exc: MissingCharacteristic) -> ScenarioError:
    return ScenarioError(f"{where}: entity {entity.id!r}: {exc}")


def _situation(spec: Mapping[str, object], where: str) -> rules_attack.Situation:
    w = f"{where}.situation"
    raw = as_object(spec.get("situation", {}), w, SITUATION_KEYS)

    def flag(key: str) -> bool:
        return as_bool(raw[key], f"{w}.{key}") if key in raw else False

    def count(key: str, high: int = 100) -> int:
        return as_int(raw[key], f"{w}.{key}", low=0, high=high) if key in raw else 0

    def named(key: str, options: tuple[str, ...]) -> str | None:
        return choice(raw[key], f"{w}.{key}", options) if key in raw else None

    into_melee = raw.get("into_melee")
    return rules_attack.Situation(
        aim=count("aim"),
        laser_sight=flag("laser_sight"),
        aim_to_kill=count("aim_to_kill"),
        dodge=flag("dodge"),
        parry=flag("parry"),
        hasty=flag("hasty"),
        reactions=count("reactions"),
        cover=named("cover", _data().tables.cover_ids),
        darkness=named("darkness", rules_attack.DARKNESS),
        smoke=named("smoke", rules_attack.SMOKE),
        weather=flag("weather"),
        target_moved_cells=count("target_moved_cells", 100_000),
        burst=as_int(raw["burst"], f"{w}.burst", low=1, high=1000) if "burst" in raw else None,
        uncontrolled_burst=flag("uncontrolled_burst"),
        into_melee=None if into_melee is None else as_bool(into_melee, f"{w}.into_melee"),
        suppression=flag("suppression"),
        suppressed=flag("suppressed"),
        extreme_range=flag("extreme_range"),
    )


def _low(entity: EntitySheet) -> bool:
    return entity.stance.value in ("crouched", "prone")


def _cover_answer(grade: CoverGrade) -> Json:
    why = f"cover {grade.base}"
    if grade.shifted:
        why += f", one row better for a low stance: {grade.grade}"
    if grade.cannot_be_hit:
        return {
            "cover": grade.grade,
            "dm": None,
            "reason": rules_attack.CANNOT_BE_HIT,
            "rules": list(grade.rules),
            "why": why + "; full cover and a low stance: cannot be hit",
        }
    return {
        "cover": grade.grade,
        "dm": grade.dm,
        "rules": list(grade.rules),
        "why": f"{why}; DM {grade.dm:+d}",
    }


def _cover(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    attacker = entity_arg(bf, spec, "attacker", where)
    target = entity_arg(bf, spec, "target", where)
    los = tactics.sight(bf, attacker, target)
    if not los.clear:
        return {"cover": None, "reason": "no_los", "rules": list(los.rules)}
    tables = _data().tables
    base = (
        choice(spec["cover"], f"{where}.cover", tables.cover_ids)
        if "cover" in spec
        else grid_cover(bf, attacker, target)
    )
    answer = _cover_answer(cover_grade(base, _low(target), tables))
    answer["rules"] = list(
        tactics.merge_rules(los.rules, ("P-COV-2", "P-COV-3"), tuple(answer["rules"]))
    )
    return answer


def _dice(value: object, where: str) -> tuple[int, ...]:
    items = as_list(value, where)
    if len(items) != 2:
        fail(where, f"expected the two dice of 2d6, got {len(items)}")
    return tuple(as_int(d, f"{where}[{i}]", low=1, high=6) for i, d in enumerate(items))


def _attack(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    data = _data()
    tables = data.tables
    attacker = entity_arg(bf, spec, "attacker", where)
    target = entity_arg(bf, spec, "target", where)
    if attacker.id == target.id:
        fail(f"{where}.target", "an entity does not attack itself")
    a_sheet, t_sheet = sheet_of(attacker), sheet_of(target)
    weapon = (
        weapon_ref(spec["weapon"], f"{where}.weapon", tables.kinds, data.samples.weapons)
        if "weapon" in spec
        else a_sheet.weapon
    )
    situation = _situation(spec, where)
    dice = _dice(spec["dice"], f"{where}.dice") if "dice" in spec else None
    cells = chebyshev(attacker.cell, target.cell)
    state = state_of(a_sheet)
    if state in (UNCONSCIOUS, DEAD):
        return {
            "chance": None,
            "reason": state,
            "rules": ["C-5"],
            "why": f"the attacker is {state}",
        }
    los = tactics.sight(bf, attacker, target)
    if not los.clear:
        return {
            "chance": None,
            "reason": "no_los",
            "rules": list(los.rules),
            "why": "; ".join(tactics.sight_why(los)) or "no line of sight",
        }
    geometry = rules_attack.Geometry(
        cells=cells,
        cover=grid_cover(bf, attacker, target),
        attacker_stance=attacker.stance.value,
        target_stance=target.stance.value,
        zero_g=bf.grid.gravity == 0,  # C-5
        beside_target=beside_target(bf, attacker, target),
    )
    try:
        result = rules_attack.attack(a_sheet, t_sheet, weapon, geometry, situation, tables)
    except rules_attack.SituationError as exc:
        raise ScenarioError(f"{where}.{exc}") from None
    rules = list(tactics.merge_rules(los.rules, ("G-4",), result.rules))
    if result.chance is None:
        why = [f"{cells} cells ({cells * CELL_METRES:g} m): {result.band}"]
        if result.reason == rules_attack.OUT_OF_RANGE and not result.notes:
            kind = weapon.type if weapon else "?"
            why.append(f'{kind} has no attack at {result.band} ("--")')
        elif result.reason == rules_attack.CANNOT_BE_HIT and result.cover:
            why.append(_cover_answer(result.cover)["why"])
        elif result.reason == rules_attack.PRONE_NO_MELEE:
            why.append("a prone attacker cannot attack in melee")
        elif result.reason == rules_attack.NO_WEAPON:
            why.append("no weapon")
        why.extend(result.notes)
        out: Json = {"band": result.band, "chance": None, "reason": result.reason}
        if result.difficulty is not None:
            out["difficulty"] = result.difficulty
        return {**out, "rules": rules, "why": "; ".join(why)}
    why = [
        f"{cells} cells ({cells * CELL_METRES:g} m): {result.band}, {result.difficulty}",
        _steps_text(result.modifiers),
        f"2d6 {result.total_dm:+d} >= {result.target}",
        *result.notes,
    ]
    answer: Json = {
        "band": result.band,
        "difficulty": result.difficulty,
        "modifiers": {s.code: s.value for s in result.modifiers},
        "total_dm": result.total_dm,
        "target": result.target,
        "chance": exact.fraction_text(result.chance),
        "extra_damage": result.extra_damage,
        "cover": result.cover.grade if result.cover else "none",
        "rules": rules,
        "why": "; ".join(why),
    }
    if dice is not None:
        rolled = rules_attack.resolve(result, dice, tables)
        answer["result"] = {"total": rolled.total, "effect": rolled.effect, "hit": rolled.success}
    return answer


def _damage(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    tables = _data().tables
    target = entity_arg(bf, spec, "target", where)
    if "rolled" not in spec:
        fail(f"{where}.rolled", "missing (the weapon's Nd6 as rolled)")
    rolled = as_int(spec["rolled"], f"{where}.rolled", low=0, high=1000)
    effect = as_int(spec.get("effect", 0), f"{where}.effect", low=0, high=100)
    bonus = as_int(spec.get("bonus", 0), f"{where}.bonus", low=0, high=1000)
    to = choice(spec["to"], f"{where}.to", CHARS) if "to" in spec else None
    sheet = sheet_of(target)
    try:
        chars = {c: sheet.char(c) for c in CHARS}
        maximum = {c: sheet.max_of(c) for c in CHARS}
    except MissingCharacteristic as exc:
        raise _missing(where, target, exc) from None
    damage, steps = damage_amount(rolled, effect, bonus, sheet.armour, tables)
    try:
        result = apply_damage(chars, maximum, damage, to, steps)
    except ValueError as exc:
        fail(f"{where}.to", str(exc))
    went = ", ".join(f"{n} to {c.upper()}" for c, n in result.applied) or "nothing"
    return {
        "damage": result.damage,
        "chars": {c: result.chars[c] for c in CHARS},
        "applied": {c: n for c, n in result.applied},
        "state": result.state,
        "rules": list(result.rules),
        "why": f"{_steps_text(steps)} = {damage}; {went}; {result.state.replace('_', ' ')}",
    }


def _ids(bf: Battlefield, value: object, where: str) -> list[str]:
    ids = []
    for i, item in enumerate(as_list(value, where)):
        if not isinstance(item, str) or item not in bf.by_id:
            fail(f"{where}[{i}]", f"no entity {item!r} (known: {', '.join(bf.by_id)})")
        ids.append(item)
    return ids


def _per_entity(bf: Battlefield, value: object, where: str, low: int, high: int) -> dict[str, int]:
    out = {}
    for entity_id, n in as_object(value, where).items():
        if entity_id not in bf.by_id:
            fail(where, f"no entity {entity_id!r} (known: {', '.join(bf.by_id)})")
        out[entity_id] = as_int(n, f"{where}[{entity_id!r}]", low=low, high=high)
    return out


def _initiative(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    tables = _data().tables
    if "rolls" not in spec and "aware" not in spec:
        fail(f"{where}.rolls", "missing ({entity id: 2d6 result})")
    rolls = _per_entity(bf, spec.get("rolls", {}), f"{where}.rolls", 2, 12)
    aware = _ids(bf, spec.get("aware", []), f"{where}.aware")
    hasty = _ids(bf, spec.get("hasty", []), f"{where}.hasty")
    reactions = _per_entity(bf, spec.get("reactions", {}), f"{where}.reactions", 0, 100)
    bonus = _per_entity(bf, spec.get("bonus", {}), f"{where}.bonus", -100, 100)
    ids = list(dict.fromkeys([*rolls, *aware]))
    for key, named in (("hasty", hasty), ("reactions", reactions), ("bonus", bonus)):
        for entity_id in named:
            if entity_id not in ids:
                fail(f"{where}.{key}", f"{entity_id!r} has no roll and is not aware")
    contenders = []
    for entity_id in ids:
        sheet = sheet_of(bf.by_id[entity_id])
        contenders.append(
            Contender(
                entity_id,
                rolls.get(entity_id),
                dex_dm=sheet.char_dm("dex"),
                dex=sheet.chars.get("dex"),
                aware=entity_id in aware,
                hasty=entity_id in hasty,
                reactions=reactions.get(entity_id, 0),
                bonus=bonus.get(entity_id, 0),
            )
        )
    try:
        result = order(contenders, tables)
    except MissingCharacteristic as exc:
        fail(where, str(exc))
    why = [f"{i} {result.scores[i]} ({_steps_text(result.steps[i])})" for i in result.order]
    for group in result.simultaneous:
        why.append("simultaneous: " + ", ".join(group))
    return {
        "order": list(result.order),
        "scores": dict(result.scores),
        "simultaneous": [list(g) for g in result.simultaneous],
        "rules": list(result.rules),
        "why": "; ".join(why),
    }


def _allowance_text(steps: tuple[Step, ...], cells: int) -> str:
    first = steps[0]
    if first.code == "per_action":
        actions = steps[1].value
        return f"{first.value} cells a minor action ({first.detail}) x {actions} = {cells} cells"
    if cells:
        return f"{first.code.replace('_', ' ')}: {cells} cell a round"
    return f"{first.code}: no movement"


def _reachable(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    tables = _data().tables
    entity = entity_arg(bf, spec, "entity", where)
    minor = as_int(
        spec.get("minor_actions", 1),
        f"{where}.minor_actions",
        low=1,
        high=tables.turn["all_minor"],
    )
    allow = movement_allowance(minor, entity.stance.value, state_of(sheet_of(entity)), tables)
    cells: dict[tuple[int, int, int], int] = {}
    if allow.cells > 0:
        # C-4: the allowance in cells is the shared search's budget; a rough cell costs it 2
        # (P-MOV-2's +1), which is C-4's halving on rough ground.
        budgets = {"walk": allow.cells, "swim": allow.cells, "climb": allow.cells}
        request = MoveRequest(budgets=budgets, mode="walk")
        cells = reachable(bf.grid, bf.occupancy, entity.occupant, request)
    listing = sorted(
        ([*c, cost] for c, cost in cells.items()), key=lambda r: (r[3], r[2], r[1], r[0])
    )
    return {
        "reachable": listing,
        "cells": allow.cells,
        "rules": list(tactics.merge_rules(allow.rules, ("G-3", "G-4"))),
        "why": _allowance_text(allow.steps, allow.cells),
    }


QUERIES: Mapping[str, Query] = MappingProxyType(
    {
        "attack": Query(_attack, ("attacker", "target", "weapon", "situation", "dice")),
        "damage": Query(_damage, ("target", "rolled", "effect", "to", "bonus")),
        "initiative": Query(_initiative, ("rolls", "aware", "hasty", "reactions", "bonus")),
        "cover": Query(_cover, ("attacker", "target", "cover")),
        "reachable": Query(_reachable, ("entity", "minor_actions")),
    }
)


class Cepheus:
    """The ruleset object of seed 000."""

    id = "cepheus"
    entity_fields = ENTITY_FIELDS
    queries = QUERIES

    def read_entity(
        self, spec: Mapping[str, object], where: str, base: EntitySheet, rules: RulesData
    ) -> EntitySheet:
        return read_entity(spec, where, base, rules)

    def unit_fields(
        self, template: str | None, weapon: str | None, armour: str | None
    ) -> dict[str, object]:
        return unit_fields(template, weapon, armour)

    @property
    def battle(self) -> BattleRules:
        return BATTLE


RULESET = Cepheus()
