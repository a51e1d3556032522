"""d20 (seed 004, 3.5 combat modifiers; D-1..D-3): its scenario sheet and its queries.

The geometry (cover by corner lines, threat, flanking, one attack's numbers) is
game/tactics/rulesets/d20_geometry.py, shared with the battle object (d20_battle.py); its
names are re-exported here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from types import MappingProxyType

from game.rules.d20 import attack as rules
from game.rules.d20.data import Weapon
from game.rules.d20.health import take_damage
from game.rules.d20.initiative import initiative_order
from game.rules.d20.sheet import read_sheet, read_weapon
from game.rules.data import RulesData
from game.rules.exact import fraction_text
from game.rules.reader import as_bool, as_int, as_object, fail
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import Json, Query, entity_arg
from game.tactics.rulesets.d20_battle import BATTLE, D20Battle
from game.tactics.rulesets.d20_geometry import (
    AttackAnswer,
    Cover,
    attack_answer,
    cover_between,
    cover_grade,
    data,
    flanking_ally,
    sheet_of,
    threatens,
)

__all__ = [
    "AttackAnswer",
    "Cover",
    "attack_answer",
    "cover_between",
    "data",
    "flanking_ally",
    "sheet_of",
    "threatens",
]

#: The scenario entity fields d20 reads besides the shared ones (RULESETS.md section 4).
ENTITY_FIELDS = ("sheet",)
#: The `situation` of an attack or cover query: the GM's inputs (D-1, 004:l.58-92, l.106-120).
SITUATION_FIELDS = ("concealment", "improved_cover", "total_cover", "opportunity", "coup_de_grace")


def read_entity(
    spec: Mapping[str, object], where: str, base: EntitySheet, rules_data: RulesData
) -> EntitySheet:
    """A scenario entity's `sheet`: a sample sheet id or an object (RULESETS.md section 4)."""
    return replace(base, sheet=read_sheet(spec.get("sheet", {}), f"{where}.sheet", data()))


def unit_fields(template: str | None, weapon: str | None, armour: str | None) -> dict[str, object]:
    """A map unit gets the sample sheet of its template (sheets.toml has one per periferie
    template) and the d20 sample weapon of the same id; armour is inside the sheet's AC."""
    sheet: dict[str, object] = {"template": template or "human"}
    if weapon is not None:
        sheet["weapon"] = weapon
    return {"sheet": sheet}


# --- the attack -------------------------------------------------------------------------------


def _weapon(
    bf: Battlefield, attacker: EntitySheet, spec: Mapping[str, object], where: str
) -> Weapon:
    if "weapon" in spec:
        return read_weapon(spec["weapon"], f"{where}.weapon", data())
    return sheet_of(attacker).weapon


def _situation_spec(spec: Mapping[str, object], where: str) -> Mapping[str, object]:
    return as_object(spec.get("situation", {}), f"{where}.situation", SITUATION_FIELDS)


def _merge(*groups: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for group in groups:
        out.extend(r for r in group if r not in out)
    return out


def _attack(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    attacker = entity_arg(bf, spec, "attacker", where)
    target = entity_arg(bf, spec, "target", where)
    if attacker.id == target.id:
        fail(f"{where}.target", "an entity cannot attack itself")
    weapon = _weapon(bf, attacker, spec, where)
    answer = attack_answer(bf, attacker, target, weapon, _situation_spec(spec, where), where)
    out = answer.outcome
    rule_ids = _merge(out.rules, answer.cover.rules)
    if out.reason is not None:
        return {
            "chance": None,
            "reason": str(out.reason),
            "cover": out.cover,
            "rules": rule_ids,
            "why": _REASON_WHY[out.reason],
        }
    if out.automatic:
        return {
            "automatic": True,
            "critical": True,
            "chance": "1/1",
            "rounds": out.rounds,
            "damage": _critical(weapon),
            "rules": rule_ids,
            "why": "a coup de grâce hits automatically and is a critical (004:l.116); the "
            "target then saves on Fortitude at DC 10 + damage or dies"
            + ("; two full rounds against total concealment (l.120)" if out.rounds > 1 else ""),
        }
    assert out.hit is not None and out.chance is not None and out.needed is not None
    result: Json = {
        "attack_modifiers": dict(out.attack_modifiers),
        "attack_bonus": out.attack_bonus,
        "ac_modifiers": dict(out.ac_modifiers),
        "ac": out.ac,
        "dex_lost": out.dex_lost,
        "cover": out.cover,
        "concealment": out.concealment,
        "flanking": out.flanking,
        "needed": out.needed,
        "chance": fraction_text(out.chance),
        "chance_before_concealment": fraction_text(out.hit),
        "assumes": rules.ASSUMES,
        "rules": rule_ids,
        "why": _attack_why(out, answer.flanking_ally),
    }
    return result


def _critical(weapon: Weapon) -> str | None:
    return None if weapon.damage is None else rules.critical_dice(data(), weapon.damage)


_REASON_WHY: Mapping[rules.Reason, str] = MappingProxyType(
    {
        rules.Reason.NO_LOS: "no line of sight: the target has total cover (004:l.68)",
        rules.Reason.OUT_OF_REACH: "the target is beyond the attacker's reach",
        rules.Reason.CANNOT_ATTACK_PRONE: "a prone attacker uses no ranged weapon but a crossbow "
        "or shuriken (004:l.23)",
        rules.Reason.NOT_HELPLESS: "a coup de grâce needs a helpless target (004:l.114)",
        rules.Reason.WEAPON_CANNOT_COUP_DE_GRACE: "a coup de grâce needs a melee weapon, a bow "
        "or a crossbow (004:l.114)",
        rules.Reason.IMMUNE_TO_CRITICAL: "no coup de grâce on a creature immune to critical "
        "hits (004:l.120)",
        rules.Reason.COVER_BLOCKS_OPPORTUNITY: "no attack of opportunity against a target with "
        "cover (004:l.58)",
        rules.Reason.CONCEALMENT_BLOCKS_OPPORTUNITY: "no attack of opportunity against a target "
        "with total concealment (004:l.84-86)",
    }
)


def _signed(mods: Mapping[str, int]) -> str:
    return ", ".join(f"{k} {v:+d}" for k, v in mods.items()) or "no modifier"


def _attack_why(out: rules.AttackOutcome, ally: str | None) -> str:
    parts = [
        f"attack bonus {out.attack_bonus} ({_signed(out.attack_modifiers)})",
        f"AC {out.ac} ({_signed(out.ac_modifiers)})",
        f"d20 needs {out.needed}+ (a 1 misses, a 20 hits): {fraction_text(out.hit or Fraction(0))}",
    ]
    if ally is not None:
        parts.append(f"flanked with {ally}")
    if out.concealment:
        parts.append(f"{out.concealment}% miss chance from concealment")
    return "; ".join(parts)


def _cover(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    attacker = entity_arg(bf, spec, "attacker", where)
    target = entity_arg(bf, spec, "target", where)
    if attacker.id == target.id:
        fail(f"{where}.target", "an entity has no cover against itself")
    weapon = _weapon(bf, attacker, spec, where)
    situation = _situation_spec(spec, where)
    found = cover_between(bf, attacker, target, weapon.melee)
    grade = cover_grade(found, situation, where)
    if grade == "total":
        return {
            "cover": "total",
            "ac_bonus": None,
            "reason": str(rules.Reason.NO_LOS),
            "rules": list(found.rules),
            "why": _REASON_WHY[rules.Reason.NO_LOS],
        }
    out: Json = {
        "cover": grade,
        "ac_bonus": rules.cover_bonus(data(), grade),
        "rules": list(found.rules),
        "why": _cover_why(found, grade),
    }
    return out


def _cover_why(found: Cover, grade: str) -> str:
    if grade == "improved":
        return "improved cover, as the situation says (004:l.70)"
    if found.corner is not None:
        return f"no line from the attacker's corner {list(found.corner)} to the target is blocked"
    if grade == "soft":
        return "creatures between give soft cover (004:l.64): " + ", ".join(found.creatures)
    if grade == "normal" and found.low_obstacles:
        cells = ", ".join(str(list(c)) for c in found.low_obstacles)
        return f"from every corner a line is blocked; low obstacles counted: {cells}"
    if grade == "normal":
        return "from every corner of the attacker's cell a line to the target is blocked"
    return "no wall between the adjacent cells (004:l.54)"


def _damage(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    target = entity_arg(bf, spec, "target", where)
    if "rolled" not in spec:
        fail(f"{where}.rolled", "missing (the damage dealt)")
    rolled = as_int(spec["rolled"], f"{where}.rolled", low=0, high=10_000)
    coup = as_bool(spec.get("coup_de_grace", False), f"{where}.coup_de_grace")
    result = take_damage(data(), sheet_of(target).hit_points, rolled, coup_de_grace=coup)
    return {
        "damage": result.damage,
        "hit_points": result.hit_points,
        "state": str(result.state),
        "fort_dc": result.fort_dc,
        "rules": ["D-2"],
        "why": f"{sheet_of(target).hit_points} - {rolled} = {result.hit_points} hit points: "
        f"{result.state}"
        + (
            f"; Fortitude DC 10 + {rolled} = {result.fort_dc} or die (004:l.116)"
            if result.fort_dc is not None
            else ""
        ),
    }


def _initiative(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    if "rolls" not in spec:
        fail(f"{where}.rolls", "missing ({entity id: d20 result})")
    combatants: list[tuple[str, int, int]] = []
    for entity_id, value in as_object(spec["rolls"], f"{where}.rolls").items():
        if entity_id not in bf.by_id:
            fail(f"{where}.rolls", f"no entity {entity_id!r}")
        roll = as_int(value, f"{where}.rolls[{entity_id!r}]", low=1, high=20)
        combatants.append((entity_id, roll, sheet_of(bf.by_id[entity_id]).dex))
    offs: dict[str, int] = {}
    for entity_id, value in as_object(spec.get("roll_off", {}), f"{where}.roll_off").items():
        if entity_id not in bf.by_id:
            fail(f"{where}.roll_off", f"no entity {entity_id!r}")
        offs[entity_id] = as_int(value, f"{where}.roll_off[{entity_id!r}]", low=1, high=20)
    result = initiative_order(combatants, offs)
    out: Json = {
        "order": [e.id for e in result.order],
        "scores": {e.id: e.score for e in result.order},
        "ties": [list(t) for t in result.ties],
        "rules": ["D-2"],
        "why": "; ".join(f"{e.id} {e.roll}{e.dex:+d} = {e.score}" for e in result.order),
    }
    if result.unsettled:
        out["roll_off_needed"] = [list(t) for t in result.unsettled]
    return out


QUERIES: Mapping[str, Query] = MappingProxyType(
    {
        "attack": Query(_attack, ("attacker", "target", "weapon", "situation")),
        "cover": Query(_cover, ("attacker", "target", "weapon", "situation")),
        "damage": Query(_damage, ("target", "rolled", "coup_de_grace")),
        "initiative": Query(_initiative, ("rolls", "roll_off")),
    }
)


class D20:
    """The ruleset object of seed 004."""

    id = "d20"
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

    #: Its battle side (game.tactics.ruleset.BattleRules).
    battle: D20Battle = BATTLE


RULESET = D20()
