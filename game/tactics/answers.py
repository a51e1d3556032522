"""The numbers a player sees, combined from grid geometry and pure rules, each with its rulings.

This is the one place where line of sight, cover, movement and the rules formulas meet; the
headless query and the window both call it, so no rule is computed twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from game.grid.cover import PERCENT, CoverNote, CoverResult, cover
from game.grid.geometry import chebyshev
from game.grid.los import LosResult, explain_line_of_sight
from game.grid.model import Cell
from game.grid.movement import MoveRequest, PathResult, find_path, on_surface, reachable
from game.rules import checknames
from game.rules.damage import damage_breakdown
from game.rules.data import Weapon
from game.rules.hit import HitChance, NoChance, attack_bonus, hit_chance
from game.rules.initiative import Combatant, InitiativeEntry, order_from_rolls
from game.rules.jump import jump_dc, max_jump_height
from game.rules.movement import AllowanceNote, MoveAllowance, allowance
from game.rules.notes import Note, Value
from game.rules.throw import cell_throw_chance, entity_throw_hit_chance, range_band, throw_band
from game.rules.wounds import (
    DamageOutcome,
    attack_barred_by,
    can_see,
    has_grave_wound,
    take_hit,
    turn_lost_to,
)
from game.tactics.battlefield import Battlefield, EntitySheet
from game.text import explain

Point = Cell | EntitySheet


@dataclass(frozen=True)
class Answer:
    """A computed value plus the rulings that decided it and a readable why."""

    value: object
    rules: tuple[str, ...] = ()
    why: tuple[str, ...] = ()
    extra: Mapping[str, object] = field(default_factory=dict)


def _cell(p: Point) -> Cell:
    return p.cell if isinstance(p, EntitySheet) else p


def sight(bf: Battlefield, frm: Point, to: Point) -> LosResult:
    """P-LOS-1..3 from an entity (its allies are transparent) or a bare cell (terrain only)."""
    viewer = frm if isinstance(frm, EntitySheet) else bf.at(frm)
    if viewer is not None and not can_see(viewer.health):
        return LosResult(False, None, (), ("P-VUL-3",))  # blinded: no line of sight
    return explain_line_of_sight(
        bf.grid,
        _cell(frm),
        _cell(to),
        bf.occupancy,
        None if viewer is None else viewer.occupant,
    )


def target_cover(
    bf: Battlefield, attacker: EntitySheet, target: EntitySheet, *, detail: bool = True
) -> CoverResult:
    """P-COV-1..5 and P-ZERO-1 for a target, assuming line of sight is clear. Without `detail`
    the grade and percent alone (`cover`'s fast path), for callers that never show why."""
    adrift = (
        bf.grid.microgravity
        and not target.in_flight
        and not target.thrusters
        and not on_surface(bf.grid, bf.occupancy, target.occupant)
    )
    result = cover(
        bf.grid,
        attacker.cell,
        target.cell,
        target_low_stance=target.stance.low,
        target_shock=target.has("shock"),
        in_flight=target.in_flight,
        adrift=adrift,
        detail=detail,
    )
    if result.grade == "none" and len(bf.occupancy.all_at(target.cell)) > 1:
        # P-MOV-8: "se le entità non sono in copertura, sono considerate in alta esposizione"
        return replace(
            result,
            grade="high_exposure",
            percent=PERCENT["high_exposure"],
            rules=(*result.rules, "P-MOV-8"),
            notes=(*result.notes, Note(CoverNote.SHARED_CELL)),
        )
    return result


@dataclass(frozen=True)
class HitAnswer:
    """A hit chance, or the reason there is none; `values` are the numbers behind the reason."""

    hit: HitChance | None
    reason: NoChance | None
    rules: tuple[str, ...]
    cover: CoverResult | None = None
    why: tuple[str, ...] = ()
    values: Mapping[str, Value] = field(default_factory=dict)


def _no_chance(reason: NoChance, rules: tuple[str, ...], **values: Value) -> HitAnswer:
    return HitAnswer(
        None, reason, rules, why=(explain.no_chance_text(reason, values),), values=values
    )


def attack_chance(
    bf: Battlefield,
    attacker: EntitySheet,
    target: EntitySheet,
    weapon: Weapon | None = None,
    los: LosResult | None = None,
    *,
    worded: bool = True,
) -> HitAnswer:
    """P-HIT-2 with P-HIT-3 armour efficacy and P-COV cover, or the reason there is no chance.
    `los`: the attacker's line of sight to the target when the caller has it already.
    `worded` False leaves out the chance's breakdown in words (`why`): previews and the
    computer weigh many chances and word few (explain.hit_lines words one when needed)."""
    weapon = weapon or attacker.weapon
    if attacker.id == target.id:
        return _no_chance(NoChance.SELF_TARGET, ("P-HIT-2",), attacker=attacker.id)
    if weapon is None:
        return _no_chance(NoChance.NO_WEAPON, ("P-HIT-2",), attacker=attacker.id)
    blocked = attack_barred_by(attacker.health)
    if blocked:
        return _no_chance(NoChance(blocked), ("P-VUL-3",), attacker=attacker.id)
    los = los if los is not None else sight(bf, attacker, target)
    if not los.clear:
        return HitAnswer(None, NoChance.NO_LOS, los.rules, why=sight_why(los))
    distance = chebyshev(attacker.cell, target.cell)
    if weapon.kind == "melee" and distance > 1:
        return _no_chance(NoChance.OUT_OF_REACH, ("G-5", "P-HIT-4"), distance=distance)
    thrown = weapon.kind == "thrown" and weapon.long_range is not None
    if thrown and range_band(distance, weapon.medium_range or 0, weapon.long_range or 0) == (
        "out_of_range"
    ):
        return _no_chance(
            NoChance.OUT_OF_RANGE,
            ("P-THR-1",),
            long_range=weapon.long_range or 0,
            distance=distance,
        )
    cover_result = target_cover(bf, attacker, target)
    b_att, b_att_check = attack_bonus(weapon.kind, attacker.checks)
    b_def = checknames.bonus(target.checks, checknames.DIVIDED_ATTENTION)
    armour_base = target.armour.hit.get(weapon.damage_type, 0) if target.armour else 0
    chance = hit_chance(
        weapon.hit,
        b_att,
        b_def,
        armour_base,
        cover_result.grade,
        weapon.damage_type,
        distance,
        b_att_check=b_att_check,
    )
    all_rules = merge_rules(
        los.rules, cover_result.rules, chance.rules, ("P-THR-1",) if thrown else ()
    )
    why = tuple(explain.hit_lines(chance)) if worded else ()
    return HitAnswer(chance, None, all_rules, cover_result, why)


def sight_why(los: LosResult) -> tuple[str, ...]:
    """Why a line of sight is clear or not, for players (empty when nothing stood in the way)."""
    return tuple(explain.sight_lines(los))


def merge_rules(*groups: tuple[str, ...]) -> tuple[str, ...]:
    """Ruling ids of several answers, each once, in order of first mention."""
    return tuple(dict.fromkeys(rule for group in groups for rule in group))


def move_allowance(
    bf: Battlefield,
    entity: EntitySheet,
    *,
    dash: bool = False,
    stealth: bool = False,
    stance: str | None = None,
    helped: bool = False,
) -> MoveAllowance:
    """P-MOV-1/2/5/6/7, P-VUL-3 and P-ZERO-2: movement points per mode for this turn.

    `helped`: another entity helps a blinded one, lifting its 1-cell limit (P-VUL-3)."""
    h = entity.health
    return allowance(
        entity.speeds,
        stance=stance or entity.stance.value,
        grave_wound=has_grave_wound(h),
        mortal_wound=h.mortal > 0,
        stealth=stealth,
        dash=dash,
        blinded=entity.has("blinded"),
        helped=helped,
        has_thrusters=entity.thrusters,
        microgravity=bf.grid.microgravity,
        pressurised=bf.grid.pressurised,
    )


def move_request(
    bf: Battlefield,
    entity: EntitySheet,
    mode: str | None,
    *,
    dash: bool,
    stealth: bool,
    helped: bool = False,
) -> tuple[MoveRequest, MoveAllowance]:
    # P-MOV-2: prone is crawling and crawling is prone; asking to crawl reads the allowance as
    # if the entity had gone prone (which costs the interaction, P-TURN-2).
    prone = entity.stance.value == "prone" or mode == "crawl"
    allow = move_allowance(
        bf, entity, dash=dash, stealth=stealth, stance="prone" if prone else None, helped=helped
    )
    chosen = "crawl" if prone and mode in (None, "walk", "swim", "climb") else (mode or "walk")
    idle = turn_lost_to(entity.health)
    if idle:  # P-VUL-3: no turn, so no movement
        allow = replace(
            allow,
            budgets={},
            rules=(*allow.rules, "P-VUL-3"),
            explanation=(*allow.explanation, Note(AllowanceNote.TURN_LOST, {"condition": idle})),
        )
    request = MoveRequest(
        budgets=dict(allow.budgets),
        mode=chosen,
        crawling=allow.crawling or chosen == "crawl",
        athletics=checknames.bonus(entity.checks, checknames.ATHLETICS),
        velocity=entity.velocity,
        has_thrusters=entity.thrusters,
        max_cells=allow.max_cells,  # P-VUL-3: blinded, 1 cell unless helped
    )
    return request, allow


def reachable_cells(
    bf: Battlefield,
    entity: EntitySheet,
    mode: str | None = None,
    *,
    dash: bool = False,
    stealth: bool = False,
    helped: bool = False,
) -> tuple[dict[Cell, int], MoveAllowance]:
    request, allow = move_request(bf, entity, mode, dash=dash, stealth=stealth, helped=helped)
    return reachable(bf.grid, bf.occupancy, entity.occupant, request), allow


def path_to(
    bf: Battlefield,
    entity: EntitySheet,
    to: Cell,
    mode: str | None = None,
    *,
    dash: bool = False,
    stealth: bool = False,
    helped: bool = False,
) -> tuple[PathResult, MoveAllowance]:
    request, allow = move_request(bf, entity, mode, dash=dash, stealth=stealth, helped=helped)
    return find_path(bf.grid, bf.occupancy, entity.occupant, request, to), allow


@dataclass(frozen=True)
class DamageAnswer:
    damage: int
    outcome: DamageOutcome
    rules: tuple[str, ...]
    why: tuple[str, ...]


def damage_to(bf: Battlefield, target: EntitySheet, damage_type: str, rolled: int) -> DamageAnswer:
    """P-DMG-1 then P-VUL-1/2 (and P-DEATH-1 for a mortally wounded target)."""
    steps = damage_breakdown(rolled, damage_type, target.armour, target.checks)
    table = bf.rules.vulnerabilities[target.vulnerability]
    outcome = take_hit(target.health, table, damage_type, steps.damage)
    read = explain.vulnerability_line(target.vulnerability, damage_type, steps.damage, outcome)
    rules = merge_rules(("P-DMG-1",), outcome.rules)
    return DamageAnswer(steps.damage, outcome, rules, (*explain.damage_lines(steps), read))


def initiative_order(bf: Battlefield, rolls: Mapping[str, int]) -> list[InitiativeEntry]:
    """P-INIT-1/2 from given d20 results; ties: the higher bonus, then the order given."""
    entries = []
    for entity_id, natural in rolls.items():
        e = bf.entity(entity_id)
        bonus = checknames.bonus(e.checks, checknames.INITIATIVE)
        entries.append((Combatant(e.id, e.faction, bonus), natural))
    return order_from_rolls(entries)


def jump_limits(bf: Battlefield, entity: EntitySheet, height: int) -> tuple[int | None, int | None]:
    """P-JUMP-1: the highest jump without a check and the DC for `height` (None: no check).

    Both are None in microgravity, where jumps follow P-ZERO-1 instead."""
    athletics = checknames.bonus(entity.checks, checknames.ATHLETICS)
    return max_jump_height(athletics, bf.grid.gravity), jump_dc(height, athletics, bf.grid.gravity)


@dataclass(frozen=True)
class ThrowAnswer:
    """A throw's band and chance, or the reason it has none; `values`: the numbers behind it."""

    band: str
    automatic: bool
    hit_chance: int | None
    rules: tuple[str, ...]
    why: tuple[str, ...]
    reason: NoChance | None = None
    values: Mapping[str, Value] = field(default_factory=dict)


def throw_at(bf: Battlefield, thrower: EntitySheet, size: str, to: Point) -> ThrowAnswer:
    """P-THR-1: the band and whether the throw hits automatically or rolls, and at what P."""
    distance = chebyshev(thrower.cell, _cell(to))
    band = throw_band(size, distance)
    values: dict[str, Value] = {"size": size, "distance": distance}

    def refused(reason: NoChance, rules: tuple[str, ...]) -> ThrowAnswer:
        why = explain.no_chance_text(reason, {"attacker": thrower.id})
        return ThrowAnswer(band, False, None, rules, (why,), reason, values)

    if isinstance(to, EntitySheet) and to.id == thrower.id:
        return refused(NoChance.SELF_TARGET, ("P-THR-1",))
    blocked = attack_barred_by(thrower.health)
    if blocked:
        return refused(NoChance(blocked), ("P-VUL-3",))
    if band == "out_of_range":
        why = (explain.throw_line(size, distance, band),)
        return ThrowAnswer(band, False, None, ("P-THR-1",), why, values=values)
    b_att, b_check = attack_bonus("thrown", thrower.checks)
    if not isinstance(to, EntitySheet):
        if band == "medium":
            why = (explain.throw_line(size, distance, band),)
            return ThrowAnswer(band, True, None, ("P-THR-1",), why, values=values)
        p = cell_throw_chance(b_att)
        why = (explain.throw_line(size, distance, band, b_att=b_att, p=p),)
        return ThrowAnswer(band, False, p, ("P-THR-1",), why, values={**values, "b_att": b_att})
    los = sight(bf, thrower, to)
    if not los.clear:
        return ThrowAnswer(band, False, None, los.rules, sight_why(los), NoChance.NO_LOS, values)
    cover_result = target_cover(bf, thrower, to)
    b_def = checknames.bonus(to.checks, checknames.DIVIDED_ATTENTION)
    armour_base = to.armour.hit.get("impatto", 0) if to.armour else 0
    chance = entity_throw_hit_chance(
        size, distance, b_att, b_def, armour_base, cover_result.grade, b_att_check=b_check
    )
    return ThrowAnswer(
        band,
        False,
        chance.p,
        merge_rules(("P-THR-1",), cover_result.rules, chance.rules),
        tuple(explain.hit_lines(chance)),
        values=values,
    )
