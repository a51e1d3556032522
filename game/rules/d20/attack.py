"""A d20 attack from two sheets and a situation: the seed's modifiers, AC, cover, the exact chance.

Seed 004's two tables (l.7-48) on D-2's base: hit when d20 + attack bonus >= AC, a natural 1
misses, a natural 20 hits and is a critical (no confirmation). Concealment's miss chance (l.80,
l.84) is rolled after a hit. Pure: the grid's answers (cover grade, flanking, reach, higher
ground) come in as plain values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType
from typing import Final

from game.rules.d20.data import D20Data, Modifier, Weapon
from game.rules.d20.health import HpState, hp_state
from game.rules.d20.sheet import Sheet
from game.rules.exact import Term, parse
from game.rules.stance import Stance

#: Cover grades (D-1, D-3, 004:l.52-70); "total" means no line of sight (l.68).
COVER_GRADES: Final = ("none", "normal", "soft", "improved", "total")
#: Concealment miss chances a situation may give (D-1: 20 % or 50 %, not cumulative).
CONCEALMENTS: Final = (0, 20, 50)
#: The base rule every chance assumes (RULESETS.md section 4, D-2).
ASSUMES: Final = "d20+bonus>=AC, nat 1/20"


class Reason(StrEnum):
    """Why there is no attack roll."""

    NO_LOS = "no_los"  # total cover: no line of sight (004:l.68)
    OUT_OF_REACH = "out_of_reach"  # melee beyond the sheet's reach (D-1, D-2)
    CANNOT_ATTACK_PRONE = "cannot_attack_prone"  # 004:l.23
    NOT_HELPLESS = "not_helpless"  # a coup de grâce needs a helpless target (004:l.114)
    WEAPON_CANNOT_COUP_DE_GRACE = "weapon_cannot_coup_de_grace"  # melee, bow, crossbow (l.114)
    IMMUNE_TO_CRITICAL = "immune_to_critical"  # 004:l.120
    COVER_BLOCKS_OPPORTUNITY = "cover_blocks_opportunity"  # 004:l.58, l.68
    CONCEALMENT_BLOCKS_OPPORTUNITY = "concealment_blocks_opportunity"  # 004:l.84-86


@dataclass(frozen=True)
class Situation:
    """What the grid and the GM say about one attack."""

    weapon: Weapon
    attacker_stance: Stance = Stance.STANDING
    target_stance: Stance = Stance.STANDING
    #: The grid's answers (D-1, D-3).
    flanking: bool = False
    higher_ground: bool = False
    cover: str = "none"
    #: Melee: the target is within the attacker's reach; a coup de grâce with a bow or a
    #: crossbow: the target is adjacent (004:l.114).
    in_reach: bool = True
    adjacent: bool = True
    #: The GM's (004:l.80, l.84; D-1).
    concealment: int = 0
    opportunity: bool = False
    coup_de_grace: bool = False


@dataclass(frozen=True)
class AttackOutcome:
    """The numbers of one attack, or the reason there is none."""

    reason: Reason | None
    cover: str
    concealment: int
    flanking: bool
    attack_modifiers: Mapping[str, int] = field(default_factory=dict)
    attack_bonus: int = 0
    ac_modifiers: Mapping[str, int] = field(default_factory=dict)
    ac: int = 0
    dex_lost: bool = False
    #: The natural d20 face needed (2..20: a 1 always misses, a 20 always hits).
    needed: int | None = None
    #: P(hit) before concealment's miss chance, and after it.
    hit: Fraction | None = None
    chance: Fraction | None = None
    #: A coup de grâce: automatic hit and critical (004:l.116); 2 full rounds against total
    #: concealment (l.120).
    automatic: bool = False
    critical: bool = False
    rounds: int = 1
    rules: tuple[str, ...] = ()


#: The defender's conditions the battle's own state gives (D-2's base, the 3.5 SRD's): a
#: dying creature (-1..-9, stable or not) is unconscious, the seed's "privo di sensi", so
#: helpless (004:l.110); a creature that has not yet had its first turn is flat-footed (l.29).
HELPLESS: Final = "indifeso"
FLAT_FOOTED: Final = "colto_alla_sprovvista"


def helpless(data: D20Data, sheet: Sheet) -> bool:
    """004:l.110 "indifeso ... privo di sensi": the sheet says so, or it is dying (D-2: -1..-9,
    unconscious in D-2's 3.5 base). A disabled one (0) is conscious, not helpless."""
    return sheet.has(HELPLESS) or hp_state(data, sheet.hit_points) is HpState.DYING


def conditions_of(data: D20Data, sheet: Sheet) -> frozenset[str]:
    """The sheet's conditions and those its state gives: helpless while dying (`helpless`),
    flat-footed before its first turn of the battle (`Sheet.before_first_turn`)."""
    found = set(sheet.conditions)
    if helpless(data, sheet):
        found.add(HELPLESS)
    if sheet.before_first_turn:
        found.add(FLAT_FOOTED)
    return frozenset(found)


def attack_modifiers(
    data: D20Data, attacker: Sheet, target: Sheet, sit: Situation
) -> dict[str, int]:
    """The attacker's table rows that apply (004:l.7-23), keyed by condition or code."""
    melee = sit.weapon.melee
    mods: dict[str, int] = {}
    for name, row in data.attack.items():
        if not attacker.has(name):
            continue
        if name == "invisibile" and target.has("accecato"):
            continue  # l.21: "Questo bonus non si applica se il bersaglio è accecato"
        value = row.value(melee)
        if value is not None:
            mods[name] = value
        if row.dex_penalty and not melee:
            # l.19: -4 Dex "può influenzare il suo tiro per colpire": a ranged attack adds the
            # Dex modifier (D-2's 3.5 base), and -4 Dex is -2 to it.
            mods[f"{name}_dex"] = row.dex_penalty // 2
    if sit.flanking and melee:
        mods["flanking"] = _value(data.attack["flanking"], melee)
    if sit.higher_ground:
        mods["higher_ground"] = _value(data.attack["higher_ground"], melee)
    if sit.attacker_stance is Stance.PRONE:
        prone = data.attack["prone"].value(melee)
        mods["prone"] = 0 if prone is None else prone
    return mods


def _value(row: Modifier, melee: bool) -> int:
    value = row.value(melee)
    return 0 if value is None else value


def ac_modifiers(
    data: D20Data, attacker: Sheet, target: Sheet, sit: Situation
) -> tuple[dict[str, int], bool]:
    """The defender's table rows that apply (004:l.25-48) and whether its Dex bonus is lost."""
    melee = sit.weapon.melee
    mods: dict[str, int] = {}
    lost = zero = False
    dex_penalty = 0
    held = conditions_of(data, target)
    for name, row in data.ac.items():
        if name not in held:
            continue
        if name == "in_lotta" and attacker.has("in_lotta"):
            continue  # l.32: "In lotta (ma l'attaccante non lo è)"
        value = row.value(melee)
        mods[name] = 0 if value is None else value
        lost = lost or row.dex == "lost"
        zero = zero or row.dex == "zero"
        if row.dex_penalty:
            dex_penalty = row.dex_penalty // 2  # l.48: -4 Dex is -2 to the Dex modifier
    if sit.target_stance is Stance.PRONE:
        mods["prone"] = _value(data.ac["prone"], melee)
    elif sit.target_stance is Stance.CROUCHED:
        mods["kneeling"] = _value(data.ac["kneeling"], melee)  # D-3
    bonus = cover_bonus(data, sit.cover)
    if bonus:
        mods["cover"] = bonus
    if attacker.has("invisibile"):
        lost = True  # l.21: "Il difensore perde qualsiasi bonus di Destrezza alla CA"
    if zero:
        # l.44, l.112: Dex counts as 0, modifier -5, in place of the Dex bonus in the AC.
        mods["dex_zero"] = data.base.dex_zero_modifier - target.dex_ac
    else:
        if dex_penalty:
            mods["intralciato_dex"] = dex_penalty
        if lost:
            # l.42: the bonus is lost; a Dex penalty stays.
            mods["dex_lost"] = -max(target.dex_ac + dex_penalty, 0)
    return mods, lost or zero


def cover_bonus(data: D20Data, grade: str) -> int:
    """The AC bonus of a cover grade (l.36, l.64, l.70); 0 for none and total."""
    base = data.base
    return {
        "normal": base.cover_normal,
        "soft": base.cover_soft,
        "improved": base.cover_improved,
    }.get(grade, 0)


def needed_face(data: D20Data, attack_bonus: int, ac: int) -> int:
    """The natural d20 face that hits (D-2): AC - bonus, at least 2 (a 1 misses), at most 20."""
    base = data.base
    return max(base.natural_miss + 1, min(base.natural_hit, ac - attack_bonus))


def hit_probability(data: D20Data, needed: int) -> Fraction:
    """P(d20 >= needed) for a face 2..20."""
    return Fraction(data.base.natural_hit - needed + 1, data.base.natural_hit)


def attack(data: D20Data, attacker: Sheet, target: Sheet, sit: Situation) -> AttackOutcome:
    """The seed's modifiers and the chance of one attack, or the reason it cannot be made."""
    melee = sit.weapon.melee
    total_concealment = sit.concealment >= data.base.concealment_total
    rules = ["D-1", "D-2"]
    if sit.cover == "soft" or sit.higher_ground:
        rules.append("D-3")
    if sit.cover == "total":
        return _refused(Reason.NO_LOS, sit, ("D-1", "D-3"))
    if melee and not sit.in_reach:
        return _refused(Reason.OUT_OF_REACH, sit, ("D-1", "D-2"))
    if (
        not melee
        and sit.attacker_stance is Stance.PRONE
        and sit.weapon.kind not in data.attack["prone"].ranged_only_with
    ):
        return _refused(Reason.CANNOT_ATTACK_PRONE, sit, ("D-1",))
    if sit.coup_de_grace:
        reason = None
        if not helpless(data, target):
            reason = Reason.NOT_HELPLESS
        elif sit.weapon.kind not in ("melee", "bow", "crossbow"):
            reason = Reason.WEAPON_CANNOT_COUP_DE_GRACE
        elif not melee and not sit.adjacent:
            reason = Reason.OUT_OF_REACH
        elif target.crit_immune:
            reason = Reason.IMMUNE_TO_CRITICAL
        if reason is not None:
            return _refused(reason, sit, ("D-1",))
        return AttackOutcome(
            None,
            sit.cover,
            sit.concealment,
            sit.flanking,
            hit=Fraction(1),
            chance=Fraction(1),
            automatic=True,
            critical=True,
            rounds=2 if total_concealment else 1,
            rules=("D-1", "D-2"),
        )
    if sit.opportunity and sit.cover != "none":
        return _refused(Reason.COVER_BLOCKS_OPPORTUNITY, sit, tuple(rules))
    if sit.opportunity and total_concealment:
        return _refused(Reason.CONCEALMENT_BLOCKS_OPPORTUNITY, sit, tuple(rules))
    a_mods = attack_modifiers(data, attacker, target, sit)
    c_mods, dex_lost = ac_modifiers(data, attacker, target, sit)
    bonus = attacker.attack_bonus(melee) + sum(a_mods.values())
    ac = target.ac + sum(c_mods.values())
    needed = needed_face(data, bonus, ac)
    hit = hit_probability(data, needed)
    return AttackOutcome(
        None,
        sit.cover,
        sit.concealment,
        sit.flanking,
        attack_modifiers=MappingProxyType(a_mods),
        attack_bonus=bonus,
        ac_modifiers=MappingProxyType(c_mods),
        ac=ac,
        dex_lost=dex_lost,
        needed=needed,
        hit=hit,
        chance=hit * Fraction(100 - sit.concealment, 100),
        rules=tuple(rules),
    )


def _refused(reason: Reason, sit: Situation, rules: tuple[str, ...]) -> AttackOutcome:
    return AttackOutcome(reason, sit.cover, sit.concealment, sit.flanking, rules=rules)


@dataclass(frozen=True)
class AttackRoll:
    """One attack resolved from given dice (the battle rolls them)."""

    natural: int
    total: int
    #: The roll hit the AC (before concealment).
    hit_ac: bool
    #: Concealment's percentile made it miss (004:l.80: rolled only after a hit).
    concealed: bool
    hit: bool
    critical: bool


def resolve(
    data: D20Data,
    attack_bonus: int,
    ac: int,
    natural: int,
    *,
    concealment: int = 0,
    percentile: int | None = None,
    crit_immune: bool = False,
) -> AttackRoll:
    """D-2 with a d20 face; the miss chance with a d100 face (1..100, a miss at or below it)."""
    base = data.base
    if not 1 <= natural <= base.natural_hit:
        raise ValueError(f"a d20 face must be 1..{base.natural_hit}, got {natural}")
    hit_ac = natural != base.natural_miss and (
        natural == base.natural_hit or natural + attack_bonus >= ac
    )
    concealed = False
    if hit_ac and concealment:
        if percentile is None or not 1 <= percentile <= 100:
            raise ValueError(f"concealment {concealment}% needs a d100 face 1..100")
        concealed = percentile <= concealment
    hit = hit_ac and not concealed
    return AttackRoll(
        natural,
        natural + attack_bonus,
        hit_ac,
        concealed,
        hit,
        hit and natural == base.natural_hit and not crit_immune,
    )


def critical_dice(data: D20Data, damage: str) -> str:
    """A weapon's dice on a critical (D-2: "criticals double the weapon dice"): 1d8+2 -> 2d8+2."""
    out = []
    for term in parse(damage):
        doubled = (
            term
            if term.constant
            else Term(
                term.sign, term.count * data.base.critical_multiplier, term.faces, term.explode
            )
        )
        sign = "-" if doubled.sign < 0 else "+"
        text = str(doubled.count) if doubled.constant else f"{doubled.count}d{doubled.faces}"
        out.append(sign + text + ("!" if doubled.explode else ""))
    joined = "".join(out)
    return joined[1:] if joined.startswith("+") else joined
