"""Myst's mounted combat in battle (seed 002, l.118-185; M-1, M-2) over the pure rules of
game/rules/myst/mounted.py: a rider's gait declared a turn ahead, the exchange's riding
modifiers and the breakdown's lines, the 60/40 split of a ranged hit on horse and rider, the
horse's Status Globale, the extra Cavalcare roll after a violent blow and the fall.

Choices where the seed leaves the grid free are in docs/rules.md, "Myst mounted in battle".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from game.grid.geometry import chebyshev
from game.rules.dice import Roller, RollRecord
from game.rules.myst import combat, mounted
from game.rules.myst.data import RIDING_GAITS, Sheet, load
from game.rules.ruleset_answers import Attack, AttackRoll, Modifier, RulesRefusal, Saddle
from game.tactics.battlefield import EntitySheet
from game.tactics.rulesets.myst_round import MystRound

#: The damage "type" a hit on a rider's horse lands with (as fantasy's hit location: the
#: damage can wait for its margin and still land on the horse).
HORSE = mounted.HORSE
#: Effects of a hit on the horse.
HORSE_HIT, HORSE_DOWN = "horse_hit", "horse_down"
#: Why a mounted exchange is refused (MystBattle.attack).
NO_PASS = "no_riding_pass"
DEFENDED_AT_GALLOP = "defended_at_gallop"


@dataclass(frozen=True)
class Mount:
    """What riding changes in one exchange: its gait, the modifiers, the gallop's Strength cap,
    and whether the hit goes to the horse (a melee blow aimed at it) or is split 60/40 (a
    ranged one at horse and rider)."""

    gait: str
    modifiers: tuple[combat.Modifier, ...]
    gallop: bool
    at_horse: bool
    split: bool


def mount(attacker: Sheet, target: Sheet, *, melee: bool) -> Mount | None:
    """The exchange's riding, None when neither side rides (the exchange as it always was)."""
    if not (attacker.mounted or target.mounted):
        return None
    rules = mounted.load()
    return Mount(
        gait=mounted.exchange_gait(attacker, target),
        modifiers=mounted.modifiers(rules, attacker, target, melee=melee),
        gallop=mounted.gallop_cap(attacker, melee=melee),
        at_horse=mounted.at_horse(attacker, target, melee=melee),
        split=target.mounted and not melee,
    )


def refused(attacker: Sheet, target: Sheet, *, melee: bool) -> tuple[str, str] | None:
    """Why a rider's exchange cannot be fought now (reason code, words), else None: no action
    after defending in a gallop's exchange this round (002:l.144); at a canter or gallop a melee
    blow only in passing, after riding this turn (002:l.137-138, 144-145)."""
    rules = mounted.load()
    if attacker.gallop_defended:
        return DEFENDED_AT_GALLOP, "it defended in a gallop's exchange this round (002:l.144)"
    if mounted.pass_refused(rules, attacker, target, melee=melee):
        return NO_PASS, (
            f"at a {attacker.gait} a melee blow is struck in passing: ride at least "
            f"{rules.pass_cells} cell(s) this turn first (002:l.138, 145)"
        )
    return None


#: The riding modifiers' codes in the breakdown (explain.modifier_line).
_NAMED = {
    "riding_attack": "myst_riding_attack",
    "target_riding_defence": "myst_riding_defence",
    "target_horse_no_shield": "myst_horse_no_shield",
    "large_target": "myst_large_target",
}


def notes(ride: Mount | None) -> tuple[Modifier, ...]:
    """The breakdown's lines for riding: the gait (canter, gallop), the lower of skill and
    Cavalcare, the horse defended without the shield, the large target, the gallop's Strength
    cap and a blow aimed at the horse."""
    if ride is None:
        return ()
    found: list[Modifier] = []
    if ride.gait != "walk":
        found.append(Modifier(f"myst_gait_{ride.gait}", 0, ("M-1",)))
    found += [Modifier(_NAMED[m.code], m.value, m.rules) for m in ride.modifiers]
    if ride.gallop:
        found.append(Modifier("myst_gallop", combat_cap_gallop(), ("M-1",)))
    if ride.at_horse:
        found.append(Modifier("myst_at_horse", 0, ("M-1",)))
    return tuple(found)


def combat_cap_gallop() -> int:
    return load().cap_gallop


def why(ride: Mount | None) -> tuple[str, ...]:
    """The log's words for riding."""
    if ride is None:
        return ()
    said = [f"{m.code} {m.value:+d} (002:l.136-150)" for m in ride.modifiers]
    if ride.gait != "walk":
        said.append(f"an exchange at the {ride.gait}'s rules (002:l.134-145, 152)")
    if ride.gallop:
        said.append(f"gallop: Strength cap +{combat_cap_gallop()} (002:l.142)")
    if ride.at_horse:
        said.append("the blow aims at the horse (002:l.150)")
    if ride.split:
        rules = mounted.load()
        said.append(
            f"a hit strikes the horse on a d100 of {rules.horse_percent} or less, else the "
            "rider (002:l.150)"
        )
    return tuple(said)


def struck(roller: Roller, ride: Mount | None, hit: bool, purpose: str) -> dict[str, object]:
    """The attack event's `struck` (horse or rider) and its d100, rolled with the battle's
    roller for a ranged hit on horse and rider (002:l.150); a melee blow at the horse says so."""
    if ride is None or not hit:
        return {}
    if ride.at_horse:
        return {"struck": HORSE}
    if not ride.split:
        return {}
    d100 = roller.roll("1d100", f"{purpose} horse or rider")
    return {"struck": mounted.struck(mounted.load(), d100.total), "struck_roll": d100.total}


def damage_type(roll: AttackRoll | None, weapon_type: str) -> str:
    """The hit's damage type: the horse when it struck the horse, else the weapon's."""
    if roll is not None and roll.logged.get("struck") == HORSE:
        return HORSE
    return weapon_type


def horse_harm(sheet: Sheet, rolled: int) -> tuple[Sheet, tuple[str, ...], str]:
    """The horse takes the hit (M-2: its Status Globale lowered): the sheet, effects, words."""
    rules = mounted.load()
    before = mounted.horse_left(rules, sheet)
    after = mounted.horse_hurt(rules, sheet, rolled)
    left = mounted.horse_left(rules, after)
    effects = (HORSE_DOWN,) if left <= 0 < before else (HORSE_HIT,)
    return after, effects, f"the horse's Status Globale {before} - {rolled} = {left}"


# ---------------------------------------------------------------- the unit card


def horse_row(sheet: Sheet) -> tuple[tuple[str, int, int], ...]:
    """The card's ("horse", left, of) for a rider: "of" is mounted.toml's assumed horse
    Status Globale, or the sheet's own when it gave a stronger horse."""
    if not sheet.mounted:
        return ()
    rules = mounted.load()
    left = mounted.horse_left(rules, sheet)
    return (("horse", left, max(left, rules.horse_status)),)


def gait_notes(sheet: Sheet) -> tuple[tuple[str, str], ...]:
    """The card's gait and declared change of a rider: 002:l.153 "i suoi avversari potranno
    regolarsi di conseguenza", so anyone who sees the rider knows both."""
    if not sheet.mounted:
        return ()
    declared = (("gait_next", sheet.gait_next),) if sheet.gait_next is not None else ()
    return (("gait", sheet.gait), *declared)


# ---------------------------------------------------------------- the computer's riding


def computer_gait(
    unit: EntitySheet, enemies: Sequence[EntitySheet], melee_cells: int
) -> str | None:
    """The gait step a computer rider declares now, None to keep its gait (docs/rules.md,
    "Myst mounted in battle"): among two or more enemies within a melee blow's reach it slows
    towards the walk (the canter and gallop last one round and ride past, 002:l.137-145: no
    place for a fight against many); with a melee weapon and every enemy it sees farther than
    one turn's ride, it speeds up towards the gallop, whose blow has +3 to its Strength cap
    (002:l.142). One step declared at a time and only when none waits (002:l.153)."""
    sheet = unit.sheet
    if not isinstance(sheet, Sheet) or not sheet.mounted or sheet.out or sheet.gait_next:
        return None
    standing = [e for e in enemies if not (isinstance(e.sheet, Sheet) and e.sheet.out)]
    distances = [chebyshev(unit.cell, e.cell) for e in standing]
    if sum(1 for d in distances if d <= melee_cells) >= 2:
        want = "walk"
    elif distances and min(distances) > combat.movement_allowance(sheet) and sheet.weapon.melee:
        want = "gallop"
    else:
        return None
    now, goal = mounted.speed_rank(sheet.gait), mounted.speed_rank(want)
    if now == goal:
        return None
    return RIDING_GAITS[now + (1 if goal > now else -1)]


def horse_pays(target: Sheet, at_rider: Fraction, at_horse: Fraction) -> bool:
    """Whether a computer's melee blow aims at the rider's horse (002:l.150): when it takes a
    larger share of what the horse has left than of the rider's Status Globale (`at_rider`,
    `at_horse`: the blow's expected Status Globale lost, chance counted). A horse nearly dead
    is worth finishing (the rider falls with it, 002:l.156), and a horse defended much worse
    than its rider (no shield against one on foot, the lower of skill and Cavalcare,
    002:l.149) is hit far more often. An equal share: the rider."""
    if not target.mounted or target.out or at_horse <= 0:
        return False
    left = mounted.horse_left(mounted.load(), target)
    if left <= 0:
        return False
    return at_horse / left > at_rider / max(1, target.status)


# ---------------------------------------------------------------- after the exchange


def _check_roll(roller: Roller, purpose: str) -> RollRecord:
    return roller.roll(combat.DICE, purpose)


def fall(roller: Roller, sheet: Sheet, why: str) -> tuple[Saddle, ...]:
    """002:l.156-185: Atletica + 3d10 against the gait's difficulty, the row's die rolled once
    per limb struck (1d3 of them where the row says), all off Status Globale (M-2); on foot."""
    rules = mounted.load()
    athletics = rules.athletics if sheet.athletics is None else sheet.athletics
    check = _check_roll(roller, "fall athletics")
    done = mounted.fall_check(rules, sheet.gait, athletics, check.dice)
    rolls = [check]
    fixed = mounted.limbs_fixed(done.row)
    if fixed is None:
        limbs_roll = roller.roll(done.row.limbs, "fall limbs")
        rolls.append(limbs_roll)
        limbs = limbs_roll.total
    else:
        limbs = fixed
    faces: list[int] = []
    if done.row.dice != "0":
        for _ in range(limbs):
            dealt = roller.roll(done.row.dice, "fall damage")
            rolls.append(dealt)
            faces.append(dealt.total)
    else:
        limbs = 0
    damage = mounted.fall_damage(done.row, limbs, faces)
    logged = {
        "why": why,
        "gait": done.gait,
        "total": done.total,
        "difficulty": done.difficulty,
        "failed_by": done.failed_by,
        "limbs": limbs if fixed is None or done.row.limbs != "0" else 0,
        "damage": damage,
    }
    after = mounted.dismounted(sheet, 0)  # the damage lands as a hit (the battle's `hurt`)
    return (Saddle(after, "unhorsed", MappingProxyType(logged), tuple(rolls), fall_damage=damage),)


def after_exchange(
    roller: Roller, sheet: Sheet, attack: Attack, roll: AttackRoll
) -> tuple[Saddle, ...]:
    """What an exchange leaves its target: a gallop's defender has no action left this round
    (002:l.144); a rider hit by a violent blow rolls Cavalcare against the blow (002:l.154),
    the failure a penalty, 20+ a fall; a rider whose horse is down falls."""
    detail = attack.detail
    ride: Mount | None = getattr(detail, "mount", None)
    if ride is None or sheet.out:
        return ()
    steps: list[Saddle] = []
    if ride.gait == "gallop" and not sheet.gallop_defended:
        sheet = replace(sheet, gallop_defended=True)
        steps.append(Saddle(sheet, "gallop_defended", MappingProxyType({"unit_gait": "gallop"})))
    rules = mounted.load()
    margin = int(str(roll.logged.get("margin", 0)))
    if roll.hit and sheet.mounted and mounted.violent(rules, margin):
        # A mounted sheet without its Cavalcare total rides with its defence total.
        riding = sheet.riding if sheet.riding is not None else sheet.defence
        dice = _check_roll(roller, "riding check")
        blow = int(str(roll.logged["attack_total"]))
        done = mounted.riding_check(rules, riding, dice.dice, blow)
        logged = {"total": done.total, "difficulty": done.difficulty, "failed_by": done.failed_by}
        steps.append(
            Saddle(
                sheet,
                "riding_check",
                MappingProxyType(logged),
                (dice,),
                penalty=0 if done.unhorsed else done.failed_by,
            )
        )
        if done.unhorsed:
            return (*steps, *fall(roller, sheet, "riding_check"))
    return (*steps, *horse_fall(roller, sheet))


def horse_fall(roller: Roller, sheet: Sheet) -> tuple[Saddle, ...]:
    """A rider whose horse is down falls from it at its gait (002:l.156)."""
    if sheet.out or not mounted.horse_down(mounted.load(), sheet):
        return ()
    return fall(roller, sheet, "horse_down")


# ---------------------------------------------------------------- the commands


def declare_gait(sheet: Any, gait: str) -> Sheet:
    """The `gait` command: the change declared, taken at the rider's next turn (002:l.153)."""
    if not isinstance(sheet, Sheet):
        raise RulesRefusal("not_mounted")
    after, refusal = mounted.declare_gait(sheet, gait)
    if after is None:
        raise RulesRefusal(refusal or "not_mounted", gait=gait, now=sheet.gait)
    return after


def strike_horse(sheet: Any, on: bool) -> Any:
    """The `strike_horse` command: the attacker's melee blows aim at horses or riders."""
    return mounted.strike_horse(sheet, on) if isinstance(sheet, Sheet) else sheet


class MountedRound(MystRound):
    """Myst's round rules with the riders': a declared gait is taken as the rider's turn
    begins (002:l.153); a gallop's "no action after defending" ends with the round (l.144)."""

    def start_round(self, sheet: object) -> object:
        sheet = super().start_round(sheet)
        return mounted.round_begins(sheet) if isinstance(sheet, Sheet) else sheet

    def start_turn(self, sheet: object) -> object:
        sheet = super().start_turn(sheet)
        return mounted.turn_begins(sheet) if isinstance(sheet, Sheet) else sheet


ROUND = MountedRound()
