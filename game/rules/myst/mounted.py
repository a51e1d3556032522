"""Myst's mounted combat (seed 002, l.118-185; M-1, M-2) as pure functions: gaits and their
declared changes, the exchange's riding modifiers, the horse as a target, the extra Cavalcare
roll after a violent blow and the fall from the horse (game/data/myst/mounted.toml)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from game.rules import exact
from game.rules.myst import combat
from game.rules.myst.data import DIRECTORY, RIDING_GAITS, MystDataError, Sheet, read_table

#: The fall table's rows, in the seed's order (002:l.164-167): a success, then failures by
#: 1-9, 10-19 and 20 or more.
BANDS: Final = ("success", "fail_1_9", "fail_10_19", "fail_20")
#: The two halves of horse and rider a ranged hit may strike (002:l.150).
HORSE, RIDER = "horse", "rider"


@dataclass(frozen=True)
class FallRow:
    """One row of a fall table: the damage die and how many limbs take it ("0": Status
    Globale once; "1": one limb; "1d3": 1d3 limbs; M-2 has no limbs, so all lower Status
    Globale)."""

    dice: str
    limbs: str


@dataclass(frozen=True)
class MountedRules:
    """The numbers of game/data/myst/mounted.toml."""

    horse_percent: int
    large_target: int
    horse_status: int
    violent_margin: int
    pass_cells: int
    athletics: int
    unhorsing_margin: int
    difficulty: Mapping[str, int]
    falls: Mapping[str, Mapping[str, FallRow]]


def _number(table: object, key: str, where: str, low: int = 0, high: int = 1000) -> int:
    if not isinstance(table, dict) or key not in table:
        raise MystDataError(f"{where}.{key}: missing")
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MystDataError(f"{where}.{key}: expected a whole number {low}..{high}, got {value!r}")
    return value


def _dice(table: object, key: str, where: str) -> str:
    if not isinstance(table, dict) or not isinstance(table.get(key), str):
        raise MystDataError(f'{where}.{key}: expected dice text such as "1d4"')
    text = str(table[key])
    try:
        exact.parse(text)
    except exact.DiceError as exc:
        raise MystDataError(f"{where}.{key}: {exc}") from None
    return text


@functools.cache
def load(path: Path = DIRECTORY / "mounted.toml") -> MountedRules:
    """The mounted rules' numbers; a bad file raises MystDataError naming the file and key."""
    data = read_table(path)
    assumed = data.get("assumed")
    where = f"{path} [assumed]"
    difficulty: dict[str, int] = {}
    falls: dict[str, dict[str, FallRow]] = {}
    fall = data.get("fall")
    for gait in RIDING_GAITS:
        table = fall.get(gait) if isinstance(fall, dict) else None
        at = f"{path} [fall.{gait}]"
        difficulty[gait] = _number(table, "difficulty", at, 0, 300)
        rows: dict[str, FallRow] = {}
        for band in BANDS:
            row = table.get(band) if isinstance(table, dict) else None
            rows[band] = FallRow(
                _dice(row, "dice", f"{at}.{band}"), _dice(row, "limbs", f"{at}.{band}")
            )
        falls[gait] = rows
    return MountedRules(
        horse_percent=_number(data.get("split"), "horse_percent", f"{path} [split]", 0, 100),
        large_target=_number(assumed, "large_target", where, 0, 100),
        horse_status=_number(assumed, "horse_status", where, 1, 1000),
        violent_margin=_number(assumed, "violent_margin", where, 1, 300),
        pass_cells=_number(assumed, "pass_cells", where, 0, 100),
        athletics=_number(assumed, "athletics", where, 0, 300),
        unhorsing_margin=_number(fall, "unhorsing_margin", f"{path} [fall]", 1, 300),
        difficulty=difficulty,
        falls=falls,
    )


# ---------------------------------------------------------------- gaits


def speed_rank(gait: str) -> int:
    return RIDING_GAITS.index(gait)


def fast(gait: str) -> bool:
    """Canter or gallop: the lower of skill and Cavalcare, one round (002:l.136-145)."""
    return speed_rank(gait) >= 1


def exchange_gait(attacker: Sheet, target: Sheet) -> str:
    """The gait whose rules an exchange follows: a rider's own; between two riders the faster
    one's (002:l.152 "secondo le regole/eccezioni previste dall'andatura dall'avversario più
    veloce"); on foot against a rider, the rider's."""
    gaits = [s.gait for s in (attacker, target) if s.mounted]
    return max(gaits, key=speed_rank) if gaits else "walk"


def declare_gait(sheet: Sheet, gait: str) -> tuple[Sheet | None, str | None]:
    """002:l.153: a change of gait "non può avvenire nel giro di un istante": declared now, one
    step at a time (walk-canter-gallop and back), taken at the rider's next turn. Returns the
    sheet, or None and the refusal's code."""
    if not sheet.mounted:
        return None, "not_mounted"
    if gait not in RIDING_GAITS:
        return None, "unknown_gait"
    if gait == sheet.gait:
        # Declaring the gait it rides at withdraws a declared change (not yet taken).
        if sheet.gait_next is None:
            return None, "same_gait"
        return replace(sheet, gait_next=None), None
    if abs(speed_rank(gait) - speed_rank(sheet.gait)) != 1:
        return None, "gait_too_far"
    return replace(sheet, gait_next=gait), None


def turn_begins(sheet: Sheet) -> Sheet:
    """The rider's turn begins: a change declared before is taken now (002:l.153)."""
    if sheet.gait_next is None:
        return sheet
    if not sheet.mounted:
        return replace(sheet, gait_next=None)
    return replace(sheet, gait=sheet.gait_next, gait_next=None)


def round_begins(sheet: Sheet) -> Sheet:
    """A new round: a gallop's "no action after defending" ends with its round (002:l.144)."""
    return replace(sheet, gallop_defended=False) if sheet.gallop_defended else sheet


def strike_horse(sheet: Sheet, on: bool) -> Sheet:
    """002:l.150: a melee attacker "è sempre obbligato a specificare chi intende colpire"."""
    return sheet if sheet.at_horse == on else replace(sheet, at_horse=on)


# ---------------------------------------------------------------- the exchange


def at_horse(attacker: Sheet, target: Sheet, *, melee: bool) -> bool:
    """Whether a melee blow is aimed at the target's horse (the attacker's choice, 002:l.150)."""
    return melee and target.mounted and attacker.at_horse


def modifiers(
    rules: MountedRules,
    attacker: Sheet,
    target: Sheet,
    *,
    melee: bool,
) -> tuple[combat.Modifier, ...]:
    """The riding modifiers of one exchange, each listed with its sign for the attacker (a
    defence change negative when it helps the defender; the codes starting with "target_" are
    the defence's, as game/rules/myst/counters.py's `with_modifiers` reads them):
    - a rider at (or against a rider at) a canter or gallop uses the lower of its skill and
      Cavalcare (`riding`) to attack and to defend (002:l.136, 143, 152);
    - an attack at the horse — every ranged one at horse and rider (002:l.150 "sono sempre da
      considerarsi come rivolti al cavallo ai fini delle Manovre di Difesa"), a melee blow the
      attacker aims at it — is defended with that lower skill, and without the shield's bonus
      when the attacker is on the ground (002:l.149);
    - a ranged attack at horse and rider aims at a large target (002:l.150; assumed +10).
    The shield's bonus is inside `defence`: the skill is `defence - shield`."""
    mods: list[combat.Modifier] = []
    gait = exchange_gait(attacker, target)
    if attacker.mounted and fast(gait) and attacker.riding is not None:
        lower = min(attacker.attack, attacker.riding) - attacker.attack
        if lower:
            mods.append(combat.Modifier("riding_attack", lower, ("M-1",)))
    if target.mounted:
        horse = not melee or at_horse(attacker, target, melee=melee)
        skill = target.defence - target.shield
        if (fast(gait) or horse) and target.riding is not None and target.riding < skill:
            mods.append(combat.Modifier("target_riding_defence", skill - target.riding, ("M-1",)))
        if horse and not attacker.mounted and target.shield:
            mods.append(combat.Modifier("target_horse_no_shield", target.shield, ("M-1",)))
        if not melee:
            mods.append(combat.Modifier("large_target", rules.large_target, ("M-1",)))
    return tuple(mods)


def gallop_cap(attacker: Sheet, *, melee: bool) -> bool:
    """002:l.142: the galloping rider's blow has +3 to its Strength cap ("in virtù della
    velocità della cavalcatura e della conseguente spinta cinetica": a melee blow's)."""
    return attacker.mounted and attacker.gait == "gallop" and melee


def pass_refused(rules: MountedRules, attacker: Sheet, target: Sheet, *, melee: bool) -> bool:
    """002:l.137-138, 144-145: at a canter or gallop the melee lasts one round and the horse
    rides past: a mounted attacker at such a gait strikes in melee only in passing, after
    riding `pass_cells` cells this turn (the turn's `run_up`)."""
    if not (melee and attacker.mounted and fast(attacker.gait)):
        return False
    return attacker.run_up < rules.pass_cells


def galloping(attacker: Sheet, target: Sheet) -> bool:
    """An exchange fought by the gallop's rules (002:l.144, 152)."""
    return exchange_gait(attacker, target) == "gallop"


def after_gallop_defence(attacker: Sheet, target: Sheet) -> bool:
    """002:l.144: "nessun Personaggio coinvolto nello scontro potrà effettuare la propria
    Azione dopo aver effettuato una Manovra di Difesa": the target of a gallop's exchange
    defended, so it has no action left this round."""
    return galloping(attacker, target)


# ---------------------------------------------------------------- the horse as a target


def struck(rules: MountedRules, d100: int) -> str:
    """002:l.150: a ranged hit on horse and rider strikes the horse on a d100 of at most 60."""
    if not 1 <= d100 <= 100:
        raise combat.MystInputError(f"d100 {d100} is not a face 1..100")
    return HORSE if d100 <= rules.horse_percent else RIDER


def horse_left(rules: MountedRules, sheet: Sheet) -> int:
    return rules.horse_status if sheet.horse is None else sheet.horse


def horse_hurt(rules: MountedRules, sheet: Sheet, damage: int) -> Sheet:
    """The horse's Status Globale lowered (M-2); at 0 the horse is down."""
    return replace(sheet, horse=max(0, horse_left(rules, sheet) - damage))


def horse_down(rules: MountedRules, sheet: Sheet) -> bool:
    return sheet.mounted and horse_left(rules, sheet) <= 0


# ---------------------------------------------------------------- staying in the saddle


def violent(rules: MountedRules, margin: int) -> bool:
    """002:l.154: a blow that asks for the extra Cavalcare roll (assumed: margin 20 or more)."""
    return margin >= rules.violent_margin


@dataclass(frozen=True)
class RidingCheck:
    total: int
    difficulty: int
    #: The failure's margin ("Scarto"), 0 on a success: the penalty it costs (002:l.154).
    failed_by: int
    unhorsed: bool


def riding_check(rules: MountedRules, riding: int, faces: Sequence[int], blow: int) -> RidingCheck:
    """002:l.154: Cavalcare + 3d10 against "difficoltà pari a quella del colpo subito" (the
    blow's attack total); a failure costs a penalty equal to its margin, and a margin of 20 or
    more unhorses the rider. Reaching the difficulty succeeds."""
    total = riding + sum(combat.check_dice(faces, "riding dice"))
    failed_by = max(0, blow - total)
    return RidingCheck(total, blow, failed_by, failed_by >= rules.unhorsing_margin)


@dataclass(frozen=True)
class FallCheck:
    gait: str
    total: int
    difficulty: int
    #: 0 on a success, else how far below the difficulty (the seed's "Scarto").
    failed_by: int
    band: str
    row: FallRow


def fall_check(rules: MountedRules, gait: str, athletics: int, faces: Sequence[int]) -> FallCheck:
    """002:l.158-185: Atletica + 3d10 against 50, 60 or 70 by gait; the row by the failure's
    margin (1-9, 10-19, 20+). Reaching the difficulty succeeds (a margin of 0 is no failure)."""
    difficulty = rules.difficulty[gait]
    total = athletics + sum(combat.check_dice(faces, "athletics dice"))
    failed_by = max(0, difficulty - total)
    band = (
        "success"
        if failed_by == 0
        else "fail_1_9"
        if failed_by < 10
        else "fail_10_19"
        if failed_by < 20
        else "fail_20"
    )
    return FallCheck(gait, total, difficulty, failed_by, band, rules.falls[gait][band])


def fall_damage(row: FallRow, limbs: int, dice: Sequence[int]) -> int:
    """The fall's damage: the row's die once per limb struck (`limbs`, 1 for Status Globale),
    all lowering Status Globale (M-2 has no limbs). `dice` are the rolled faces, one per limb."""
    if len(dice) != limbs:
        raise combat.MystInputError(f"{limbs} limb(s) struck but {len(dice)} damage roll(s)")
    return sum(dice)


def limbs_fixed(row: FallRow) -> int | None:
    """How many times the row's die is rolled when that is fixed (0 -> Status Globale once: 1),
    None when it is itself rolled ("1d3")."""
    terms = exact.distribution(exact.parse(row.limbs))
    if len(terms) == 1:
        return max(1, next(iter(terms)))
    return None


def dismounted(sheet: Sheet, damage: int) -> Sheet:
    """The rider on foot after its fall, the fall's damage off its Status Globale (M-2); the
    seed does not lay it on the ground (002:l.156-185 names no knock-down)."""
    after = combat.damaged(sheet, damage)
    return replace(after, mounted=False, gait="walk", gait_next=None, gallop_defended=False)
