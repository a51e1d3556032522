"""A Cepheus attack (C-1, C-2, 000:l.123-353): band, difficulty, every DM, the exact chance."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import floor

from game.rules.cepheus.checks import (
    CELL_METRES,
    CheckResult,
    band_for,
    check_chance,
    difficulty_dm,
    difficulty_for,
    resolve_check,
)
from game.rules.cepheus.cover import CoverGrade, cover_grade
from game.rules.cepheus.data import Tables
from game.rules.cepheus.notes import Step
from game.rules.cepheus.sheet import Sheet, Weapon

DARKNESS = ("low", "total")
SMOKE = ("light", "dense")
STANCES = ("standing", "crouched", "prone")

#: Reasons an attack has no chance (fixed codes of the query).
OUT_OF_RANGE = "out_of_range"
CANNOT_BE_HIT = "cannot_be_hit"
PRONE_NO_MELEE = "prone_no_melee"
NO_WEAPON = "no_weapon"


class SituationError(ValueError):
    """A situation that cannot be: `key` names the situation field at fault."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"situation.{key}: {problem}")
        self.key = key


@dataclass(frozen=True)
class Situation:
    """What the grid does not know about an attack (RULESETS.md section 4, `situation`)."""

    aim: int = 0
    laser_sight: bool = False
    aim_to_kill: int = 0
    dodge: bool = False
    parry: bool = False
    hasty: bool = False
    reactions: int = 0
    #: The GM's cover grade instead of the grid's (before the stance shift), or None.
    cover: str | None = None
    darkness: str | None = None
    smoke: str | None = None
    weather: bool = False
    target_moved_cells: int = 0
    burst: int | None = None
    uncontrolled_burst: bool = False
    #: True/False overrides the grid's answer (another combatant next to the target).
    into_melee: bool | None = None
    suppression: bool = False
    #: The attacker is suppressed: -1 to its checks this turn and the next (000:l.319).
    suppressed: bool = False
    extreme_range: bool = False


@dataclass(frozen=True)
class Geometry:
    """What the grid says about attacker and target: plain values, no grid types."""

    cells: int
    #: the cover grade of the obstacles hiding the target (C-3), before the stance shift
    cover: str
    attacker_stance: str = "standing"
    target_stance: str = "standing"
    zero_g: bool = False
    #: another combatant stands in one of the 26 cells around the target (000:l.287)
    beside_target: bool = False


@dataclass(frozen=True)
class Attack:
    """An attack's numbers; `chance` is None when there is no attack, with `reason`."""

    band: str
    difficulty: str | None
    modifiers: tuple[Step, ...]
    total_dm: int
    target: int
    chance: Fraction | None
    reason: str | None
    extra_damage: str
    cover: CoverGrade | None
    rules: tuple[str, ...]
    notes: tuple[str, ...] = ()

    def dm(self, code: str) -> int | None:
        for step in self.modifiers:
            if step.code == code:
                return step.value
        return None


def _check_situation(s: Situation, weapon: Weapon, geo: Geometry, tables: Tables) -> None:
    if s.aim < 0 or s.aim_to_kill < 0 or s.reactions < 0 or s.target_moved_cells < 0:
        raise SituationError("aim", "aim, aim_to_kill, reactions and moves are counts >= 0")
    if s.aim and s.aim_to_kill:
        raise SituationError(
            "aim_to_kill", "aiming to kill spends the aiming actions on damage, not on aim"
        )
    if s.dodge and s.parry:
        raise SituationError("parry", "a target reacts once to an attack (000:l.160)")
    if s.dodge and geo.target_stance == "prone":
        raise SituationError("dodge", "a prone target cannot dodge (000:l.343)")
    if s.parry and weapon.ranged:
        raise SituationError("parry", "only melee attacks can be parried (000:l.170)")
    if s.burst is not None and s.burst not in tables.bursts:
        known = ", ".join(str(b) for b in tables.bursts)
        raise SituationError("burst", f"no burst of {s.burst} rounds (000:l.249-256: {known})")
    if s.uncontrolled_burst and s.burst is None:
        raise SituationError(
            "uncontrolled_burst", "give `burst`: its damage is the burst's (000:l.311)"
        )
    if s.cover is not None and s.cover not in tables.cover_ids:
        raise SituationError("cover", f"expected one of: {', '.join(tables.cover_ids)}")
    if s.darkness is not None and s.darkness not in DARKNESS:
        raise SituationError("darkness", f"expected one of: {', '.join(DARKNESS)}")
    if s.smoke is not None and s.smoke not in SMOKE:
        raise SituationError("smoke", f"expected one of: {', '.join(SMOKE)}")


def skill_and_characteristic(
    attacker: Sheet, weapon: Weapon, zero_g: bool
) -> tuple[Step, Step, tuple[str, ...]]:
    """000:l.130-134 (C-1): melee = Mischia + the better of the STR and DEX DMs (the attacker's
    choice); thrown = Atletica + DEX DM; firearms = Armi da Fuoco + DEX DM. In zero-G the skill is
    capped at G-Zero (000:l.283, C-5; a missing G-Zero skill is 0)."""
    notes: list[str] = []
    if weapon.kind == "melee":
        skill_name = "mischia"
        strength, dexterity = attacker.char_dm("str"), attacker.char_dm("dex")
        char, char_dm = ("str", strength) if strength > dexterity else ("dex", dexterity)
    else:
        skill_name = "atletica" if weapon.kind == "thrown" else "armi da fuoco"
        char, char_dm = "dex", attacker.char_dm("dex")
    level = attacker.skill(skill_name)
    rules: tuple[str, ...] = ("C-1",)
    if zero_g and attacker.skill("g-zero") < level:
        notes.append(f"zero-G caps {skill_name} {level} at g-zero {attacker.skill('g-zero')}")
        level = attacker.skill("g-zero")
        rules = ("C-1", "C-5")
    return (
        Step("skill", level, rules, skill_name),
        Step("characteristic", char_dm, ("C-1",), char),
        tuple(notes),
    )


def _no_attack(
    band: str,
    difficulty: str | None,
    reason: str,
    rules: tuple[str, ...],
    tables: Tables,
    notes: tuple[str, ...] = (),
    cover: CoverGrade | None = None,
) -> Attack:
    return Attack(
        band, difficulty, (), 0, tables.check_target, None, reason, "0", cover, rules, notes
    )


def extra_damage_text(dice: int, constant: int) -> str:
    """ "2d6+2", "1d6", "3", "0": the damage an attack adds to the weapon's dice and Effect."""
    if not dice:
        return str(constant)
    return f"{dice}d6" + (f"{constant:+d}" if constant else "")


def extra_damage(s: Situation, tables: Tables) -> tuple[int, int]:
    """C-5: the burst's extra damage (000:l.249-256, also for an uncontrolled burst, l.311)
    and aiming to kill, +1 a minor action up to +6 (l.91): (d6 count, constant)."""
    dice = constant = 0
    if s.burst is not None:
        extra = tables.bursts[s.burst].extra
        if "d6" in extra:
            dice = int(extra.split("d6")[0] or 1)
        else:
            constant = int(extra)
    per = tables.mod("aim_to_kill_per_action")
    constant += min(s.aim_to_kill * per, tables.mod("aim_to_kill_max"))
    return dice, constant


def attack(
    attacker: Sheet,
    target: Sheet,
    weapon: Weapon | None,
    geo: Geometry,
    s: Situation,
    tables: Tables,
) -> Attack:
    """Every DM of 000:l.136-353 the grid and the situation give, and the exact chance of
    2d6 + DMs >= 8 (C-1); no attack when the table says "--" (C-2), when full cover and a low
    stance hide the target (C-3), or when a prone attacker tries a melee attack (000:l.343)."""
    band = band_for(geo.cells, tables)
    if weapon is None:
        return _no_attack(band, None, NO_WEAPON, ("C-1",), tables)
    _check_situation(s, weapon, geo, tables)
    difficulty = difficulty_for(weapon.type, band, tables)
    if difficulty is None:
        return _no_attack(band, None, OUT_OF_RANGE, ("C-2",), tables)
    if not weapon.ranged and geo.attacker_stance == "prone":
        return _no_attack(band, difficulty, PRONE_NO_MELEE, ("C-1",), tables)
    skill, char, notes = skill_and_characteristic(attacker, weapon, geo.zero_g)
    m = tables.mod
    if s.extreme_range:
        # 000:l.277: beyond Distante, for weapons that reach it, by a shooter with skill 3+.
        reach = difficulty_for(weapon.type, tables.band_ids[-1], tables)
        if band != tables.band_ids[-1] or reach is None or skill.value < m("extreme_range_skill"):
            why = (
                f"extreme range needs the {tables.band_ids[-1]} band, a weapon that reaches it"
                f" and skill {m('extreme_range_skill')}+",
            )
            return _no_attack(band, difficulty, OUT_OF_RANGE, ("C-2",), tables, why)
    steps = [skill, char, Step("difficulty", difficulty_dm(difficulty, tables), ("C-2",))]
    add = steps.append
    if s.aim:
        add(Step("aim", min(s.aim * m("aim_per_action"), m("aim_max")), ("C-1",)))
    if s.laser_sight and (s.aim or s.aim_to_kill):
        add(Step("laser_sight", m("laser_sight"), ("C-1",)))
    moved = floor(s.target_moved_cells * CELL_METRES / float(tables.modifiers["movement_per"]))
    if moved:
        add(Step("target_movement", moved * m("movement_dm"), ("C-1",)))
    base = s.cover if s.cover is not None else geo.cover
    grade = cover_grade(base, geo.target_stance in ("crouched", "prone"), tables)
    if grade.cannot_be_hit:
        return _no_attack(band, difficulty, CANNOT_BE_HIT, ("C-3",), tables, cover=grade)
    if s.dodge:
        add(Step("dodge", m("dodge_in_cover") if grade.in_cover else m("dodge"), ("C-4",)))
    if s.parry:
        add(Step("parry", -target.skill("mischia"), ("C-4",)))
    if geo.target_stance == "prone":
        if band == tables.band_ids[0]:
            add(Step("prone", m("prone_personale"), ("C-2",), band))
        elif band == tables.band_ids[1]:
            add(Step("prone", m("prone_ravvicinata"), ("C-2",), band))
        elif weapon.ranged:
            add(Step("prone", m("prone_ranged"), ("C-1",), band))
    if grade.in_cover:
        add(Step("cover", grade.dm or 0, grade.rules, grade.grade))
    if weapon.ranged:  # 000:l.211: the battlefield's conditions touch ranged attacks
        if s.darkness:
            add(Step("darkness", m(f"darkness_{s.darkness}"), ("C-1",), s.darkness))
        if s.smoke:
            factor = m("smoke_laser_factor") if weapon.laser else 1
            add(Step("smoke", m(f"smoke_{s.smoke}") * factor, ("C-1",), s.smoke))
        if s.weather:
            add(Step("weather", m("weather_visibility") + m("weather_disturbance"), ("C-1",)))
    if s.burst is not None and not s.uncontrolled_burst:
        add(Step("burst", tables.bursts[s.burst].dm, ("C-5",), str(s.burst)))
    if s.uncontrolled_burst:
        add(Step("uncontrolled_burst", m("uncontrolled_burst"), ("C-5",), str(s.burst)))
    into_melee = geo.beside_target if s.into_melee is None else s.into_melee
    if into_melee and weapon.kind == "firearm":
        add(Step("into_melee", m("into_melee"), ("C-2",)))
    if s.suppression:
        add(Step("suppression", m("suppression"), ("C-1",)))
    if s.suppressed:
        add(Step("suppressed", m("suppressed"), ("C-1",)))
    if geo.zero_g and weapon.recoil:
        add(Step("zero_g_recoil", m("zero_g_recoil"), ("C-5",)))
    if s.extreme_range:
        add(Step("extreme_range", m("extreme_range"), ("C-2",)))
    if s.hasty:
        add(Step("hasty", m("hasty"), ("C-1",)))
    if s.reactions:
        add(Step("reactions", s.reactions * m("per_reaction"), ("C-4",)))
    total = sum(step.value for step in steps)
    rules = tuple(dict.fromkeys(r for step in steps for r in step.rules))
    return Attack(
        band,
        difficulty,
        tuple(steps),
        total,
        tables.check_target,
        check_chance(total, tables),
        None,
        extra_damage_text(*extra_damage(s, tables)),
        grade,
        rules,
        notes,
    )


def resolve(result: Attack, dice: tuple[int, ...], tables: Tables) -> CheckResult:
    """The attack's check from given dice (C-1): total, Effect, hit."""
    if result.chance is None:
        raise ValueError(f"there is no attack to roll ({result.reason})")
    return resolve_check(dice, result.total_dm, tables)
