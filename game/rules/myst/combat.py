"""Myst's opposed exchange, margins and friendly fire (seed 002, M-1, M-2) as pure functions.

Everything takes plain values (totals, Strength, dice faces, counts of entities in line) and
returns values with `Modifier` notes (code, value, rulings); the grid is the caller's business.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from typing import Final

from game.rules import exact
from game.rules.myst.data import MystRules, Sheet, Weapon

#: The dice each side adds to its total (M-1: "attack total + 3d10 against defence + 3d10").
DICE: Final = "3d10"
OBSTRUCTIONS: Final = ("total", "partial", "slight")  # 002:l.255-257, M-1
COUNTERS: Final = ("punch", "push", "trip", "grab")  # 002:l.89-109
AIMS: Final = ("part", "limb")  # 002:l.248
GAITS: Final = ("still", "walk", "canter", "gallop")  # 002:l.130-145
#: Defence-margin counter-moves (002:l.76-79), in the seed's order.
DEFENCE_OPTIONS: Final = ("counterattack", "cancel_penalty", "break_off", "priority")


class MystInputError(ValueError):
    """A rules input outside its domain (over-spent margin, impossible grip); says which."""


@dataclass(frozen=True)
class Modifier:
    """One number added to a total or a cap, with the rulings behind it."""

    code: str
    value: int
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Situation:
    """The attack's circumstances, all plain flags (RULESETS.md section 4, myst)."""

    mounted: bool | None = None  # None: the attacker's sheet says
    target_mounted: bool | None = None
    gait: str = "still"
    charge: bool = False
    closed_defence: bool = False
    counter: str | None = None
    obstruction: str = "partial"
    penalty: int | None = None
    aimed: str | None = None
    shield_off_side: bool = False
    two_handed: bool = False
    second_defence: bool = False


@dataclass(frozen=True)
class Exchange:
    """Attack and defence totals before the dice, and the exact chances of each side winning."""

    attack: int
    defence: int
    modifiers: tuple[Modifier, ...]
    chance: Fraction
    chance_defence: Fraction
    rules: tuple[str, ...]


def strength_bonus(rules: MystRules, strength: int) -> int:
    return rules.strength_bonus(strength)


@cache  # a pure function of two ints, asked for every hover and every cell the computer weighs
def opposed_chance(attack: int, defence: int) -> Fraction:
    """P(attack + 3d10 > defence + 3d10), exact (M-1; a tie is no margin for either side)."""
    return exact.chance_at_least(_difference(), defence - attack + 1)


@cache
def _difference() -> tuple[exact.Term, ...]:
    return exact.parse(f"{DICE}-{DICE}")


def check_two_handed(weapon: Weapon) -> None:
    """002:l.232-235: only a one-handed weapon with a wide enough grip (not daggers)."""
    if weapon.hands == 2:
        raise MystInputError(f"{weapon.name} is already a two-handed weapon (002:l.232)")
    if not weapon.grip:
        raise MystInputError(f"{weapon.name} cannot be held in two hands (002:l.234-235)")


def exchange(
    rules: MystRules, attacker: Sheet, target: Sheet, situation: Situation, *, in_line: int = 0
) -> Exchange:
    """The totals of an exchange and who wins it how often (M-1), `in_line` the entities
    the line of fire enters (002:l.256: a partial obstruction costs -10/-20)."""
    mods: list[Modifier] = []
    rule_ids = ["M-1"]
    if situation.counter is not None:
        # 002:l.91, 99, 109: a counter is a Corpo a Corpo roll against one, shield not counted.
        attack = attacker.brawl_total
        defence = target.brawl_total
    else:
        attack, defence = attacker.attack, target.defence
        if situation.shield_off_side and target.shield:
            two_handed_weapon = attacker.weapon.hands == 2 or situation.two_handed
            if not two_handed_weapon:  # 002:l.218: not against a two-handed weapon
                lost = target.shield - target.shield // 2  # halved, rounded down (002:l.216)
                mods.append(Modifier("shield_off_side", lost, ("M-1",)))
    mounted = attacker.mounted if situation.mounted is None else situation.mounted
    if mounted:
        if situation.gait in ("canter", "gallop") and attacker.riding is not None:
            # 002:l.136, 143: the lower of the weapon's total and Cavalcare's.
            attack = min(attack, attacker.riding)
        mods.append(Modifier("mounted", rules.mounted_bonus, ("M-1",)))  # 002:l.128
    target_mounted = situation.target_mounted
    if target_mounted is None:
        target_mounted = target.mounted
    if target_mounted:
        mods.append(Modifier("target_mounted", -rules.mounted_bonus, ("M-1",)))  # 002:l.128
    if situation.aimed is not None:
        cost = rules.aimed_part if situation.aimed == "part" else rules.aimed_limb
        mods.append(Modifier("aimed", -cost, ("M-1",)))  # 002:l.248
    if in_line and situation.obstruction == "partial":
        penalty = rules.partial_penalty if situation.penalty is None else situation.penalty
        mods.append(Modifier("obstruction", -penalty, ("M-1",)))  # 002:l.256
    if situation.second_defence:
        mods.append(Modifier("second_defence", rules.second_defence_penalty, ("M-2",)))
    if situation.closed_defence and rules.closed_defence_bonus:
        # 002:l.81, 137 "chiudersi in difesa rinunciando alla propria azione": the base
        # chapter's defence bonus (M-2's base, assumed: game/data/myst/rules.toml).
        mods.append(Modifier("closed_defence", -rules.closed_defence_bonus, ("M-1", "M-2")))
    # Positive values help the attacker: the defender's bonuses are listed negated.
    attack_total = attack + sum(m.value for m in mods if m.code in _ATTACK_SIDE)
    defence_total = defence - sum(m.value for m in mods if m.code not in _ATTACK_SIDE)
    chance = opposed_chance(attack_total, defence_total)
    return Exchange(
        attack=attack_total,
        defence=defence_total,
        modifiers=tuple(mods),
        chance=chance,
        chance_defence=opposed_chance(defence_total, attack_total),
        rules=tuple(dict.fromkeys(rule_ids + [r for m in mods for r in m.rules])),
    )


#: Modifiers of the attack total; the others change the defence total (listed with the sign
#: they have for the attacker: a defence bonus is negative).
_ATTACK_SIDE: Final = frozenset({"mounted", "aimed", "obstruction"})


@dataclass(frozen=True)
class Result:
    """An exchange resolved with given dice (M-1)."""

    attack_total: int
    defence_total: int
    winner: str  # "attack", "defence" or "none"
    margin: int
    defence_options: tuple[str, ...]
    defence_units: int
    penalty: int
    knocked_down: bool
    double_one: bool


def check_dice(faces: Sequence[int], what: str) -> tuple[int, int, int]:
    if len(faces) != 3 or any(isinstance(f, bool) or not 1 <= f <= 10 for f in faces):
        raise MystInputError(f"{what}: expected three d10 faces 1..10, got {list(faces)}")
    return faces[0], faces[1], faces[2]


def resolve(
    rules: MystRules,
    attack: int,
    defence: int,
    attack_dice: Sequence[int],
    defence_dice: Sequence[int],
    situation: Situation,
    *,
    melee: bool = True,
) -> Result:
    """The exchange with its dice: totals, winner, margin and what the margin buys (M-1)."""
    a = attack + sum(check_dice(attack_dice, "attack dice"))
    d = defence + sum(check_dice(defence_dice, "defence dice"))
    winner = "attack" if a > d else "defence" if d > a else "none"
    margin = abs(a - d)
    options: tuple[str, ...] = ()
    units = 0
    if winner == "defence":
        if situation.charge:
            margin += rules.charge_defence_bonus  # 002:l.193
        options, units = defence_options(
            rules, margin, closed=situation.closed_defence, melee=melee
        )
    penalty, knocked_down = 0, False
    if winner == "attack" and situation.counter in ("push", "trip"):
        penalty, knocked_down = push_outcome(rules, margin)
    return Result(
        a, d, winner, margin, options, units, penalty, knocked_down, double_one(attack_dice)
    )


def defence_options(
    rules: MystRules, margin: int, *, closed: bool, melee: bool = True
) -> tuple[tuple[str, ...], int]:
    """What a won defence may buy (002:l.74-83): each counter-move costs 20, so a margin buys
    margin // 20 of them; after a closed defence only breaking off, for 0. Against a ranged
    attack there is no melee to counter or break off (after a closed defence: nothing)."""
    if closed:
        free = melee and margin >= rules.closed_break_off_cost
        return (("break_off",), 0) if free else ((), 0)
    units = margin // rules.defence_cost
    if units == 0:
        return (), 0
    options = tuple(o for o in DEFENCE_OPTIONS if melee or o in ("cancel_penalty", "priority"))
    return options, units


def push_outcome(rules: MystRules, margin: int) -> tuple[int, bool]:
    """002:l.101: a push or trip margin of 1-19 is that penalty on the next action; 20+ knocks
    the opponent down."""
    if margin >= rules.knock_down:
        return 0, True
    return max(0, margin), False


def double_one(faces: Sequence[int]) -> bool:
    """Exactly two ones on the attack's 3d10 (002:l.257 "doppio uno"; three ones are a tris,
    a critical the GM applies, 002:l.259)."""
    return sum(1 for f in faces if f == 1) == 2


#: P(exactly two of three d10 show 1) = 3 x (1/10)^2 x 9/10 = 27/1000.
DOUBLE_ONE: Final = Fraction(27, 1000)


@dataclass(frozen=True)
class Strays:
    """Who a shot that goes astray may hit, each exactly (M-1: 33/100 each, nearest first)."""

    trigger: Fraction  # P(the shot goes astray at all)
    each: tuple[Fraction, ...]  # P(the i-th entity in line is hit), nearest first
    none: Fraction  # P(nobody in line is hit)


def strays(rules: MystRules, obstruction: str, chance: Fraction, in_line: int) -> Strays:
    """002:l.256-257: partial — a miss (1 - chance) strays; slight — only a double one strays.
    Each entity in line is then hit at 33/100, one roll each from the nearest; the first hit
    spares the rest."""
    if in_line == 0 or obstruction == "total":
        return Strays(Fraction(0), (), Fraction(1))
    trigger = 1 - chance if obstruction == "partial" else DOUBLE_ONE
    p = Fraction(rules.stray_percent, 100)
    each = tuple(trigger * (1 - p) ** i * p for i in range(in_line))
    return Strays(trigger, each, 1 - sum(each, Fraction(0)))


def stray_victim(rules: MystRules, rolls: Sequence[int], in_line: int) -> int | None:
    """Which entity in line (index, nearest first) a stray shot hits, given one d100 a head:
    a roll of at most 33 hits and spares the rest."""
    for i, roll in enumerate(rolls[:in_line]):
        if not 1 <= roll <= 100:
            raise MystInputError(f"stray roll {roll} is not a d100 face 1..100")
        if roll <= rules.stray_percent:
            return i
    return None


@dataclass(frozen=True)
class Spend:
    """How many 5-point units of the attack margin go to each use (002:l.18-22)."""

    strength: int = 0
    minimum: int = 0
    reduce: int = 0


@dataclass(frozen=True)
class Damage:
    units: int
    strength_cap: int
    strength_bonus: int
    minimum: int
    die: int
    damage: int
    notes: tuple[Modifier, ...] = field(default_factory=tuple)


def strength_cap(
    rules: MystRules, strength: int, *, two_handed: bool, charge: bool, gallop: bool
) -> tuple[int, tuple[Modifier, ...]]:
    """The table's bonus plus what raises it (M-1; 002:l.142, 193, 234): the most the margin
    may buy, or (when negative) the malus that always applies (002:l.48)."""
    notes = [Modifier("table", rules.strength_bonus(strength), ("M-1",))]
    if two_handed:
        notes.append(Modifier("two_handed", rules.cap_two_handed, ("M-1",)))
    if charge:
        notes.append(Modifier("charge", rules.cap_charge, ("M-1",)))
    if gallop:
        notes.append(Modifier("gallop", rules.cap_gallop, ("M-1",)))
    return sum(n.value for n in notes), tuple(notes)


def spend_margin(
    rules: MystRules,
    margin: int,
    rolled: int,
    spend: Spend,
    strength: int,
    weapon: Weapon,
    *,
    two_handed: bool = False,
    charge: bool = False,
    gallop: bool = False,
    stray: bool = False,
) -> Damage:
    """Damage from an attack margin spent in units of 5 (M-1, 002:l.18-70): +1 per unit up to
    the Strength cap (a malus always applies), the die's minimum raised to the units spent on
    it (from 0, never above the dice's maximum), -1 to the die per unit of reduction. A stray
    hit (002:l.259) does the rolled damage alone: no minimum, no Strength."""
    if margin < 0:
        raise MystInputError(f"margin {margin} is negative")
    if two_handed:
        check_two_handed(weapon)
    low, high = weapon.damage_min, weapon.damage_max
    if not low <= rolled <= high:
        raise MystInputError(f"rolled {rolled} is not a result of {weapon.damage} ({low}..{high})")
    units = margin // rules.margin_unit
    if stray:
        if spend != Spend():
            raise MystInputError("a stray hit spends no margin: no minimum or Strength (002:l.259)")
        return Damage(units, 0, 0, 0, rolled, rolled)
    for name, value in (
        ("strength", spend.strength),
        ("minimum", spend.minimum),
        ("reduce", spend.reduce),
    ):
        if value < 0:
            raise MystInputError(f"spend.{name} {value} is negative")
    used = spend.strength + spend.minimum + spend.reduce
    if used > units:
        raise MystInputError(
            f"spending {used} units but a margin of {margin} buys {units} "
            f"(one per {rules.margin_unit} points, 002:l.42, 60)"
        )
    cap, notes = strength_cap(rules, strength, two_handed=two_handed, charge=charge, gallop=gallop)
    if spend.strength > max(cap, 0):
        raise MystInputError(
            f"spend.strength {spend.strength} is above the Strength cap {max(cap, 0)} "
            "(002:l.20, 46)"
        )
    if spend.minimum > high:
        raise MystInputError(
            f"spend.minimum {spend.minimum} is above the maximum {high} of {weapon.damage} "
            "(002:l.62)"
        )
    bonus = cap if cap < 0 else spend.strength  # 002:l.48: a malus applies anyway
    die = max(rolled, spend.minimum) - spend.reduce
    die = max(die, 0)
    return Damage(units, max(cap, 0), bonus, spend.minimum, die, max(0, die + bonus), notes)


def apply_damage(sheet_status: int, damage: int) -> tuple[int, bool]:
    """M-2: damage lowers Status Globale; 0 is out of the fight."""
    left = max(0, sheet_status - damage)
    return left, left == 0


@dataclass(frozen=True)
class Priority:
    order: tuple[str, ...]
    scores: Mapping[str, int]
    simultaneous: tuple[tuple[str, ...], ...]


def priority_order(priorities: Mapping[str, int], rolls: Mapping[str, int], die: int) -> Priority:
    """M-2: Priority = sheet priority + 1d10, highest first; equal scores: the higher sheet
    priority first, and those equal in both act together (a group, listed in given order)."""
    scores: dict[str, int] = {}
    for name, roll in rolls.items():
        if not 1 <= roll <= die:
            raise MystInputError(f"{name}: roll {roll} is not a d{die} face 1..{die}")
        scores[name] = priorities[name] + roll
    order = sorted(scores, key=lambda n: (-scores[n], -priorities[n]))
    groups: dict[tuple[int, int], list[str]] = {}
    for name in order:
        groups.setdefault((scores[name], priorities[name]), []).append(name)
    together = tuple(tuple(g) for g in groups.values() if len(g) > 1)
    return Priority(tuple(order), scores, together)


def charge_run_up_ok(rules: MystRules, run_up_cells: int, cell_metres: float) -> bool:
    """002:l.189: a charge needs at least 5 m of run-up."""
    return run_up_cells * cell_metres >= rules.run_up_metres


def damaged(sheet: Sheet, damage: int) -> Sheet:
    """The sheet after a hit (M-2): Status Globale lowered, never below 0."""
    left, _ = apply_damage(sheet.status, damage)
    return replace(sheet, status=left)


def movement_allowance(sheet: Sheet) -> int:
    """M-2: the move on the shared grid is the sheet's speed in cells; out of the fight, none."""
    return 0 if sheet.out else sheet.speed


#: The attack margin's three uses, in the order a plan is read and the seed lists them
#: (002:l.18-22): Strength bonus, die minimum, reduction.
USES: Final = ("strength", "minimum", "reduce")


@dataclass(frozen=True)
class MarginToSpend:
    """A won exchange's margin and the damage dice already rolled, waiting for the attacker's
    choice: 002:l.24 "Lo Scarto di Attacco può essere applicato anche dopo il tiro dei dadi
    dei danni" (M-1). Plain values only: the battle keeps and saves it while it waits."""

    margin: int
    rolled: int
    strength: int
    weapon: Weapon
    two_handed: bool = False
    charge: bool = False
    gallop: bool = False


@dataclass(frozen=True)
class SpendRefused:
    """Why a spend does not fit the margin: a code (the battle's refusal) and its numbers."""

    code: str
    values: Mapping[str, int]


def units_of(rules: MystRules, margin: int) -> int:
    """The 5-point units a margin buys (002:l.42, 60, 68: "per ogni 5 punti di scarto")."""
    return max(0, margin) // rules.margin_unit


def cap_of(rules: MystRules, waiting: MarginToSpend) -> int:
    """The most units Strength may take (the table's bonus and what raises it; 0 for a malus)."""
    cap, _ = strength_cap(
        rules,
        waiting.strength,
        two_handed=waiting.two_handed,
        charge=waiting.charge,
        gallop=waiting.gallop,
    )
    return max(cap, 0)


def check_spend(rules: MystRules, waiting: MarginToSpend, spend: Spend) -> SpendRefused | None:
    """Whether `spend` fits the waiting margin, naming the first rule it breaks: no use below
    0, no more units than the margin buys (002:l.42, 60), Strength up to its cap (002:l.20, 46)
    and the minimum up to the dice's maximum (002:l.62)."""
    for name, value in zip(USES, (spend.strength, spend.minimum, spend.reduce), strict=True):
        if value < 0:
            return SpendRefused("negative_spend", {name: value})
    units = units_of(rules, waiting.margin)
    used = spend.strength + spend.minimum + spend.reduce
    if used > units:
        return SpendRefused("margin_overspent", {"used": used, "units": units})
    cap = cap_of(rules, waiting)
    if spend.strength > cap:
        return SpendRefused("over_strength_cap", {"strength": spend.strength, "cap": cap})
    high = waiting.weapon.damage_max
    if spend.minimum > high:
        return SpendRefused("over_die_maximum", {"minimum": spend.minimum, "maximum": high})
    return None


def spent(rules: MystRules, waiting: MarginToSpend, spend: Spend) -> Damage:
    """The damage of the waiting margin spent so (`check_spend` first: this raises on a spend
    that does not fit)."""
    return spend_margin(
        rules,
        waiting.margin,
        waiting.rolled,
        spend,
        waiting.strength,
        waiting.weapon,
        two_handed=waiting.two_handed,
        charge=waiting.charge,
        gallop=waiting.gallop,
    )


def most_damage(rules: MystRules, waiting: MarginToSpend) -> Spend:
    """The spend that does the most damage, the computer's choice: every unit on Strength up to
    its cap, the rest on the die's minimum (up to the dice's maximum), none on reduction.
    Strength first is best whatever the die shows, and before the die is known too: a unit of
    Strength is +1 for sure, a unit of minimum +1 only when the die shows less than it
    (docs/rules.md, "Myst in battle")."""
    units = units_of(rules, waiting.margin)
    on_strength = min(units, cap_of(rules, waiting))
    on_minimum = min(units - on_strength, waiting.weapon.damage_max)
    return Spend(strength=on_strength, minimum=on_minimum)


def least_damage(rules: MystRules, waiting: MarginToSpend) -> Spend:
    """The spend that does the least damage (002:l.68-70: reduction "per contenere i danni"):
    the die lowered by as many units as it shows, never below 0."""
    return Spend(reduce=min(units_of(rules, waiting.margin), waiting.rolled))


def plans(rules: MystRules, waiting: MarginToSpend) -> tuple[tuple[Spend, Damage], ...]:
    """One spend for each damage the margin can make of the die, most damage first: the most
    is `most_damage`'s; each other damage is made by the spend of the fewest units (then the
    most on Strength, then on the minimum) among all that fit."""
    units = units_of(rules, waiting.margin)
    cap = min(units, cap_of(rules, waiting))
    high = min(units, waiting.weapon.damage_max)
    best = most_damage(rules, waiting)
    found: dict[int, tuple[tuple[int, int, int, int], Spend, Damage]] = {}
    for s in range(cap + 1):
        for m in range(min(high, units - s) + 1):
            for r in range(units - s - m + 1):
                spend = Spend(strength=s, minimum=m, reduce=r)
                done = spent(rules, waiting, spend)
                rank = (0 if spend == best else 1, s + m + r, -s, -m)
                kept = found.get(done.damage)
                if kept is None or rank < kept[0]:
                    found[done.damage] = (rank, spend, done)
    return tuple((found[d][1], found[d][2]) for d in sorted(found, reverse=True))


#: The defence margin's counter-moves a won defence takes when its defender set no plan (the
#: computer's choice): the counterattack, the one that does harm (a standing plan may take
#: "cancel the -20" and "Priority next round", which the battle carries out too).
DEFAULT_DEFENCE_PLAN: Final = ("counterattack",)


def check_defence_plan(moves: Sequence[str]) -> str | None:
    """The first move of a defender's standing plan that is not a counter-move of 002:l.76-79
    (or is listed twice), else None."""
    seen: set[str] = set()
    for move in moves:
        if move not in DEFENCE_OPTIONS or move in seen:
            return move
        seen.add(move)
    return None


def counter_moves(options: Sequence[str], units: int, plan: Sequence[str]) -> tuple[str, ...]:
    """The counter-moves a won defence takes (002:l.74-79, 20 points each): the plan's moves
    that the defence offers, in the plan's order, as many as its units buy."""
    return tuple(m for m in plan if m in options)[:units]


def punch_damage(rules: MystRules, margin: int, strength: int) -> int:
    """A counterattack's punch or kick that wins by `margin` (002:l.91): "un danno pari a 1,
    incrementabile con eventuali bonus dovuti alla Forza secondo le normali regole", its
    margin spent for the most damage."""
    punch = rules.weapons["pugno"]
    waiting = MarginToSpend(margin, punch.damage_min, strength, punch)
    return spent(rules, waiting, most_damage(rules, waiting)).damage
