"""d20 (seed 004, 3.5 combat modifiers; D-1..D-3): its scenario sheet, its geometry and its queries.

The grid decides cover by corner-to-corner lines (game/grid/corners.py, D-1, D-3), flanking by
the centre line (004:l.98), higher ground by the level (D-3) and total cover by the shared line
of sight without creatures (D-3: creatures never block sight); the pure rules of
game/rules/d20 turn those into the seed's modifiers and an exact chance.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType

import numpy as np
from numpy.typing import NDArray

from game.grid.corners import adjacent_blocked, cover_corner, flanks
from game.grid.geometry import chebyshev
from game.grid.los import explain_line_of_sight
from game.grid.model import OBSTACLE_HALF, OBSTACLE_NONE
from game.grid.occupants import Relation, relation
from game.rules.d20 import attack as rules
from game.rules.d20.data import D20Data, Weapon, load_d20
from game.rules.d20.health import HpState, hp_state, take_damage
from game.rules.d20.initiative import initiative_order
from game.rules.d20.sheet import Sheet, bare_sheet, read_sheet, read_weapon
from game.rules.data import RulesData
from game.rules.exact import fraction_text
from game.rules.reader import as_bool, as_int, as_object, fail
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import Json, Query, entity_arg

#: The scenario entity fields d20 reads besides the shared ones (RULESETS.md section 4).
ENTITY_FIELDS = ("sheet",)
#: The `situation` of an attack or cover query: the GM's inputs (D-1, 004:l.58-92, l.106-120).
SITUATION_FIELDS = ("concealment", "improved_cover", "total_cover", "opportunity", "coup_de_grace")


def data() -> D20Data:
    """The d20 rules data (game/data/d20), read once."""
    return load_d20()


def sheet_of(entity: EntitySheet) -> Sheet:
    """The entity's d20 sheet (the bare sheet if it was read under another ruleset)."""
    return entity.sheet if isinstance(entity.sheet, Sheet) else bare_sheet(data())


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


# --- geometry ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cover:
    """A cover grade (none/normal/soft/total) and how the grid found it."""

    grade: str
    rules: tuple[str, ...]
    #: The attacker's corner that sees the target whole (none when the target has cover).
    corner: tuple[int, int, int] | None = None
    #: Low obstacles that counted (D-3), and the creatures whose cells gave soft cover.
    low_obstacles: tuple[tuple[int, int, int], ...] = ()
    creatures: tuple[str, ...] = ()


def _box(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[slice, slice, slice]:
    """The cells a corner-to-corner line between a and b can enter: their bounding box."""
    lo = [min(p, q) for p, q in zip(a, b, strict=True)]
    hi = [max(p, q) + 1 for p, q in zip(a, b, strict=True)]
    return slice(lo[0], hi[0]), slice(lo[1], hi[1]), slice(lo[2], hi[2])


def cover_between(
    bf: Battlefield, attacker: EntitySheet, target: EntitySheet, melee: bool
) -> Cover:
    """The target's cover against this attacker (004:l.52-68, D-1, D-3)."""
    grid = bf.grid
    a, t = attacker.cell, target.cell
    los = explain_line_of_sight(grid, a, t)  # terrain only: D-3, creatures never block sight
    if not los.clear:
        return Cover("total", ("D-3", *los.rules))
    if melee and chebyshev(a, t) <= 1:
        # l.54: against an adjacent target, any line through a wall, a low wall included.
        walls = (grid.obstacle != OBSTACLE_NONE).astype(np.uint8)
        grade = "normal" if adjacent_blocked(walls, a, t) else "none"
        return Cover(grade, ("D-1",))
    mask: NDArray[np.uint8] = grid.sight_block.copy()
    box = _box(a, t)
    origin = (box[0].start, box[1].start, box[2].start)
    low: list[tuple[int, int, int]] = []
    limit = data().base.low_obstacle_range
    for rel in np.argwhere(grid.obstacle[box] == OBSTACLE_HALF).tolist():
        h = (origin[0] + rel[0], origin[1] + rel[1], origin[2] + rel[2])
        # D-3 (004:l.56): only within 6 cells of the target, and not when the attacker is
        # nearer to the obstacle than the target.
        if chebyshev(h, t) <= limit and not chebyshev(a, h) < chebyshev(t, h):
            mask[h] = 1
            low.append(h)
    corner = cover_corner(mask, a, t)
    if corner < 0:
        return Cover("normal", ("D-1", "D-3") if low else ("D-1",), low_obstacles=tuple(low))
    # D-3 (l.52, l.64): the creatures in between give soft cover, even enemies.
    others = [e for e in bf.entities if e.id not in (attacker.id, target.id)]
    for e in others:
        mask[e.cell] = 1
    soft_corner = cover_corner(mask, a, t)
    if soft_corner < 0:
        names = tuple(sorted(e.id for e in others if _in_box(e.cell, box)))
        return Cover("soft", ("D-1", "D-3"), creatures=names)
    return Cover("none", ("D-1",), corner=_corner_point(a, soft_corner))


def _in_box(cell: tuple[int, int, int], box: tuple[slice, slice, slice]) -> bool:
    return all(s.start <= c < s.stop for c, s in zip(cell, box, strict=True))


def _corner_point(cell: tuple[int, int, int], k: int) -> tuple[int, int, int]:
    return cell[0] + (k & 1), cell[1] + ((k >> 1) & 1), cell[2] + ((k >> 2) & 1)


def threatens(entity: EntitySheet, cell: tuple[int, int, int]) -> bool:
    """D-1: an entity threatens the cells within its reach; reach 0 threatens nothing (l.104),
    and a helpless, dying or dead one threatens nothing (D-2's base)."""
    sheet = sheet_of(entity)
    if sheet.reach < 1 or sheet.has("indifeso"):
        return False
    if hp_state(data(), sheet.hit_points) in (HpState.DYING, HpState.DEAD):
        return False
    return chebyshev(entity.cell, cell) <= sheet.reach


def flanking_ally(bf: Battlefield, attacker: EntitySheet, target: EntitySheet) -> str | None:
    """004:l.94-104, D-1: the ally whose centre and the attacker's are joined by a line crossing
    opposite borders of the target's cell, the ally threatening the target; None if none."""
    if sheet_of(attacker).reach < 1:
        return None  # l.104: reach 0 cannot flank
    for ally in bf.entities:
        if ally.id in (attacker.id, target.id):
            continue
        if relation(attacker.occupant, ally.occupant) is not Relation.ALLY:
            continue
        if threatens(ally, target.cell) and flanks(attacker.cell, ally.cell, target.cell):
            return ally.id
    return None


# --- the attack -------------------------------------------------------------------------------


def _weapon(
    bf: Battlefield, attacker: EntitySheet, spec: Mapping[str, object], where: str
) -> Weapon:
    if "weapon" in spec:
        return read_weapon(spec["weapon"], f"{where}.weapon", data())
    return sheet_of(attacker).weapon


def _situation_spec(spec: Mapping[str, object], where: str) -> Mapping[str, object]:
    return as_object(spec.get("situation", {}), f"{where}.situation", SITUATION_FIELDS)


def _cover_grade(found: Cover, situation: Mapping[str, object], where: str) -> str:
    if as_bool(situation.get("total_cover", False), f"{where}.situation.total_cover"):
        return "total"  # l.68, the GM's word
    if found.grade == "total":
        return "total"
    if as_bool(situation.get("improved_cover", False), f"{where}.situation.improved_cover"):
        return "improved"  # l.70, the GM's word
    return found.grade


@dataclass(frozen=True)
class AttackAnswer:
    outcome: rules.AttackOutcome
    cover: Cover
    flanking_ally: str | None
    weapon: Weapon


def attack_answer(
    bf: Battlefield,
    attacker: EntitySheet,
    target: EntitySheet,
    weapon: Weapon,
    situation: Mapping[str, object],
    where: str = "situation",
) -> AttackAnswer:
    """Geometry and the GM's situation into the pure rules' attack (D-1..D-3)."""
    a_sheet, t_sheet = sheet_of(attacker), sheet_of(target)
    melee = weapon.melee
    found = cover_between(bf, attacker, target, melee)
    grade = _cover_grade(found, situation, where)
    concealment = as_int(situation.get("concealment", 0), f"{where}.situation.concealment")
    if concealment not in rules.CONCEALMENTS:
        # D-1: "Concealment 20% / 50% miss chance (not cumulative)": one of them, or none.
        fail(f"{where}.situation.concealment", f"{concealment} is not one of 0, 20, 50")
    if t_sheet.has("invisibile"):
        concealment = data().base.concealment_total  # l.90: invisibility is total concealment
    distance = chebyshev(attacker.cell, target.cell)
    in_reach = distance <= a_sheet.reach
    ally = flanking_ally(bf, attacker, target) if melee and in_reach else None
    sit = rules.Situation(
        weapon=weapon,
        attacker_stance=attacker.stance,
        target_stance=target.stance,
        flanking=ally is not None,
        higher_ground=attacker.cell[2] > target.cell[2],  # D-3
        cover=grade,
        in_reach=in_reach,
        adjacent=distance <= 1,
        concealment=concealment,
        opportunity=as_bool(situation.get("opportunity", False), f"{where}.situation.opportunity"),
        coup_de_grace=as_bool(
            situation.get("coup_de_grace", False), f"{where}.situation.coup_de_grace"
        ),
    )
    return AttackAnswer(rules.attack(data(), a_sheet, t_sheet, sit), found, ally, weapon)


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
    grade = _cover_grade(found, situation, where)
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


RULESET = D20()
