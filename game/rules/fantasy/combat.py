"""The dice-step fantasy system's attacks, wounds and initiative (seed 003, F-1..F-3), pure.

Functions take sheets, dice and plain flags (engaged, cover grade, how many attackers) and
return values with the seed lines and rulings behind them; the grid is the caller's business.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Final

from game.rules.fantasy import dice
from game.rules.fantasy.data import FantasyRules, Sheet, Weapon

OUTCOMES: Final = ("hit", "miss", "nothing")


class FantasyInputError(ValueError):
    """A rules input outside its domain (a face a die cannot show); says which."""


@dataclass(frozen=True)
class Situation:
    """The attack's circumstances (RULESETS.md section 4, fantasy), plain values."""

    unaware: bool = False
    fleeing: bool = False
    ranged_defended: bool = False
    two_weapons: bool = False
    attacker_index: int = 1
    modifier: int = 0
    #: The shared grid's cover grade of the target (ranged DP modifier, F-3 assumed).
    cover: str = "none"
    #: The ranged target is in melee with someone else: taken by surprise (003:l.109).
    target_engaged: bool = False


@dataclass(frozen=True)
class Plan:
    """What an attack rolls against what: dice (characteristic first), DP, a contest or not."""

    attack_dice: tuple[str, ...]
    defence_dice: tuple[str, ...] | None
    dp: int
    attack_modifier: int
    defence_modifier: int
    rules: tuple[str, ...]
    why: tuple[str, ...]

    @property
    def contest(self) -> bool:
        return self.defence_dice is not None


def section_penalty(rules: FantasyRules, body: Mapping[str, int], lost: int) -> int:
    """003:l.183: the penalty of the deepest full body section (F-3 assumed values; 0 if none)."""
    full = full_sections(rules, body, lost)
    return rules.penalties[full[-1]] if full else 0


def full_sections(rules: FantasyRules, body: Mapping[str, int], lost: int) -> tuple[str, ...]:
    """The sections whose boxes are all lost, filled from Lieve down (003:l.175, 183)."""
    full: list[str] = []
    filled = 0
    for section in rules.sections:
        filled += body.get(section, 0)
        if filled > lost:
            break
        full.append(section)
    return tuple(full)


def cannot_two_weapons(rules: FantasyRules, attacker: Sheet, weapon: Weapon) -> str | None:
    """Why two weapons are not possible (003:l.148-152), or None."""
    if not weapon.melee:
        return "two weapons are for melee only (003:l.152)"
    if attacker.shield:
        return "not while carrying a shield (003:l.148)"
    if dice.FACES[attacker.pot] <= dice.FACES["d4"]:
        return f"POT {attacker.pot}: zero or d4 cannot attack with two weapons (003:l.148)"
    return None


def plan(
    rules: FantasyRules, attacker: Sheet, target: Sheet, weapon: Weapon, situation: Situation
) -> Plan:
    """The dice of both sides, the DP and whether it is a contest (003:l.74-119, 144-166)."""
    ids = ["F-2"]
    why: list[str] = []
    characteristic = attacker.pot if weapon.melee else attacker.pre  # 003:l.75, 82
    if situation.two_weapons and rules.ambidextrous not in attacker.skills:
        characteristic = dice.step_down(characteristic)  # 003:l.148 "diminuito di un dado"
        why.append(f"two weapons: {'POT'} one die lower, {characteristic}")
    skill = attacker.skills.get(weapon.skill) if weapon.skill else None
    attack_dice = (characteristic,) if skill is None else (characteristic, skill)
    dp = target.dp  # 003:l.76 VPB + shield VP
    if not weapon.melee:
        dp += rules.cover_dp.get(situation.cover, 0)  # 003:l.83, F-3 assumed
        if rules.cover_dp.get(situation.cover, 0):
            ids.append("F-3")
            why.append(f"{situation.cover} cover: DP +{rules.cover_dp[situation.cover]}")
    surprised = situation.unaware or situation.fleeing
    if not weapon.melee and (situation.ranged_defended or situation.target_engaged):
        surprised = True  # 003:l.109, 165: a second ranged attack, or a target in a melee
    defence: tuple[str, ...] | None = None
    if not surprised:
        defence = defence_dice(rules, target, melee=weapon.melee, index=situation.attacker_index)
    attack_mod = situation.modifier + section_penalty(rules, attacker.body, attacker.body_lost)
    defence_mod = section_penalty(rules, target.body, target.body_lost)
    if attack_mod != situation.modifier or defence_mod:
        ids.append("F-3")
    return Plan(attack_dice, defence, dp, attack_mod, defence_mod, tuple(ids), tuple(why))


def defence_dice(rules: FantasyRules, target: Sheet, *, melee: bool, index: int) -> tuple[str, ...]:
    """003:l.160-164: one defence skill per attack, in the sheet's order; beyond them AGI alone,
    one die lower per attacker beyond the first (at least d4). Against a ranged attack only
    dodging or a shield parry (the first such defence)."""
    usable = [d for d in target.defences if melee or d[0] in rules.ranged_defence_skills]
    slot = index if melee else 1
    if slot <= len(usable):
        skill, char = usable[slot - 1]
        return (target.agi if char == "agi" else target.des, target.skills[skill])
    agi = target.agi
    if agi != "none":
        agi = dice.step_down(agi, index - 1, floor="d4") if melee else agi
    return (agi,)


@dataclass(frozen=True)
class Chances:
    hit: Fraction
    critical: Fraction
    critical_failure: Fraction
    outcomes: Mapping[str, Fraction]


def chances(rules: FantasyRules, p: Plan, *, melee: bool) -> Chances:
    """Exact chances of each outcome, the critical and the critical failure (F-1, F-2)."""
    att = dice.faces(p.attack_dice)
    am, dm = p.attack_modifier, p.defence_modifier
    crit_dp = rules.critical_multiple * p.dp
    n = len(att)
    ones = dice.all_ones(att) if n else Fraction(0)
    low = n * rules.critical_failure_divisor  # the dice's minimum must be <= 1/10 of the ref
    if p.defence_dice is None:
        hit = dice.at_least(att, p.dp + 1 - am)  # 003:l.110: a check against the DP
        crit = dice.at_least(att, crit_dp - am)
        fail = ones if (n and low <= p.dp and n + am <= p.dp) else Fraction(0)
        return Chances(hit, crit, fail, {"hit": hit, "miss": 1 - hit, "nothing": Fraction(0)})
    dfc = dice.faces(p.defence_dice)
    m, t = am - dm, p.dp - dm  # A + am > max(DP, D + dm)  <=>  A + m > max(t, D)
    hit = dice.above_both(att, dfc, m, t)
    crit = dice.above_both(att, dfc, m, crit_dp - dm - 1) if p.dp > 0 else hit
    a_fail = 1 - dice.at_least(att, t + 1 - m)
    d_fail = 1 - dice.at_least(dfc, t + 1)
    nothing = a_fail * d_fail + dice.ties_above(att, dfc, m, t)  # 003:l.91, 103
    total = n + am  # the all-ones attack's total
    fail = Fraction(0)
    if n:
        if not melee:  # 003:l.201: 1/10 of the difficulty, and the attack must not win
            if low <= p.dp:
                fail = ones * (1 if total <= p.dp else dice.at_least(dfc, total - dm))
        else:  # 1/10 of the opponent's result
            need = low if total <= p.dp else max(low, total)
            fail = ones * dice.at_least(dfc, need - dm)
    return Chances(hit, crit, fail, {"hit": hit, "miss": 1 - hit - nothing, "nothing": nothing})


def roll_total(die_faces: Sequence[Sequence[int]], named: Sequence[str], what: str) -> int:
    """The sum of exploding dice given as each die's faces in order (F-1: a maximum is always
    rolled again, so every face but a die's last is its maximum)."""
    real = [d for d in named if dice.FACES[d]]
    if len(die_faces) != len(real):
        raise FantasyInputError(
            f"{what}: {len(real)} dice ({', '.join(real)}) but {len(die_faces)} given"
        )
    total = 0
    for die, rolled in zip(real, die_faces, strict=True):
        size = dice.FACES[die]
        if not rolled or any(not 1 <= f <= size for f in rolled):
            raise FantasyInputError(f"{what}: {list(rolled)} are not {die} faces 1..{size}")
        if any(f != size for f in rolled[:-1]) or rolled[-1] == size:
            raise FantasyInputError(
                f"{what}: {list(rolled)} — a {die} is rolled again on {size} and only then (F-1)"
            )
        total += sum(rolled)
    return total


def outcome(attack_total: int, defence_total: int | None, dp: int) -> str:
    """003:l.88-103 (a contest's five cases) and 003:l.113-119 (a check)."""
    a_ok = attack_total > dp
    if defence_total is None:
        return "hit" if a_ok else "miss"
    d_ok = defence_total > dp
    if not a_ok and not d_ok:
        return "nothing"
    if a_ok and not d_ok:
        return "hit"
    if d_ok and not a_ok:
        return "miss"
    if attack_total == defence_total:
        return "nothing"  # the same margin over the same DP
    return "hit" if attack_total > defence_total else "miss"


@dataclass(frozen=True)
class Resolution:
    attack_total: int
    defence_total: int | None
    outcome: str
    critical: bool
    critical_failure: bool
    location: str | None
    critical_roll: int | None


def swap_digits(roll: int) -> int:
    """003:l.193: the critical table is read with the d100's tens and units swapped (25 -> 52;
    a 100 reads 00, which stays 100; 7 is 07 -> 70)."""
    tens, units = (roll // 10) % 10, roll % 10
    swapped = units * 10 + tens
    return 100 if swapped == 0 else swapped


def resolve(
    rules: FantasyRules,
    p: Plan,
    attack_faces: Sequence[Sequence[int]],
    defence_faces: Sequence[Sequence[int]] | None,
    location_roll: int | None,
    *,
    melee: bool,
) -> Resolution:
    """An attack with given dice: totals, outcome, critical (003:l.192) and critical failure
    (003:l.201), and where a critical lands."""
    raw = roll_total(attack_faces, p.attack_dice, "attack dice")
    a = raw + p.attack_modifier
    d: int | None = None
    if p.defence_dice is not None:
        if defence_faces is None:
            raise FantasyInputError(f"defence dice: missing ({', '.join(p.defence_dice)})")
        d = roll_total(defence_faces, p.defence_dice, "defence dice") + p.defence_modifier
    result = outcome(a, d, p.dp)
    critical = result == "hit" and a >= rules.critical_multiple * p.dp
    n = len(dice.faces(p.attack_dice))
    reference = p.dp if (d is None or not melee) else d
    fumble = (
        n > 0 and result != "hit" and raw == n and raw * rules.critical_failure_divisor <= reference
    )
    place = rules.location(location_roll) if location_roll is not None else None
    crit_roll = swap_digits(location_roll) if (critical and location_roll is not None) else None
    return Resolution(a, d, result, critical, fumble, place, crit_roll)


@dataclass(frozen=True)
class Wound:
    armour_left: int
    armour_destroyed: bool
    body_damage: int
    body_lost: int
    full_sections: tuple[str, ...]
    penalty: int
    dead: bool


def take_damage(rules: FantasyRules, sheet: Sheet, damage: int, location: str) -> Wound:
    """003:l.174-184: the location's armour takes the points first — destroyed when they equal
    (or pass) what it has left — and the excess blackens body boxes from Lieve down; a full
    section's penalty applies; all boxes lost is death."""
    if damage < 0:
        raise FantasyInputError(f"damage {damage} is negative")
    armour = sheet.armour.get(location, 0)
    destroyed = armour > 0 and damage >= armour
    left = max(0, armour - damage)
    through = max(0, damage - armour)
    lost = min(sheet.body_total, sheet.body_lost + through)
    full = full_sections(rules, sheet.body, lost)
    penalty = rules.penalties[full[-1]] if full else 0
    return Wound(left, destroyed, through, lost, full, penalty, lost >= sheet.body_total)


@dataclass(frozen=True)
class Order:
    order: tuple[str, ...]
    simultaneous: tuple[tuple[str, ...], ...]


def initiative(fighters: Mapping[str, tuple[str, str]]) -> Order:
    """F-1, 003:l.12-13: AGI die size, higher first; then DES; still equal: they act together
    (results applied after all of them). `fighters`: id -> (agi, des), in listing order."""

    def key(name: str) -> tuple[int, int]:
        agi, des = fighters[name]
        return -dice.FACES[agi], -dice.FACES[des]

    order = sorted(fighters, key=key)
    groups: dict[tuple[int, int], list[str]] = {}
    for name in order:
        groups.setdefault(key(name), []).append(name)
    return Order(tuple(order), tuple(tuple(g) for g in groups.values() if len(g) > 1))


def wounded(sheet: Sheet, location: str, wound: Wound) -> Sheet:
    """The sheet after `take_damage`: the location's armour left (gone when destroyed) and the
    body points lost."""
    armour = {k: v for k, v in sheet.armour.items() if k != location}
    if wound.armour_left > 0:
        armour[location] = wound.armour_left
    return replace(sheet, armour=MappingProxyType(armour), body_lost=wound.body_lost)


def movement_allowance(sheet: Sheet) -> int:
    """F-3: cells a turn (6, assumed); the dead do not move."""
    return 0 if sheet.dead else sheet.movement
