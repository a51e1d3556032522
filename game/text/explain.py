"""The text a player reads, made from the rules' and grid's structured results through gettext.

Rules, grid and tactics answer with codes (StrEnums), the numbers that went in and ruling ids;
this module is the one place that turns them into sentences, in the language `game.text.i18n` speaks
now (English source text, an Italian catalogue). The window, the log, the query and the demo all
call it, so a sentence is written once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from math import floor
from typing import Any

from game.grid.cover import SAMPLES, CoverNote, CoverResult, HiddenSample
from game.grid.los import LosResult
from game.grid.model import Cell
from game.grid.movement import CostNote, PathResult, SearchNote, Step, StepKind
from game.rules.checknames import DIVIDED_ATTENTION
from game.rules.damage import DamageBreakdown
from game.rules.dice import RollRecord
from game.rules.heal import MedkitOutcome, MedkitResult
from game.rules.hit import P_MAX, P_MIN, PIERCING, HitChance, NoChance, exact_decimal
from game.rules.initiative import InitiativeEntry
from game.rules.movement import AllowanceNote, MoveAllowance, SpeedStep
from game.rules.notes import Note, Value
from game.rules.ruleset_answers import Attack, Modifier
from game.rules.throw import CELL_LONG_P_WEAPON
from game.rules.turn import RefusalCode, Refused
from game.rules.wounds import DamageOutcome
from game.text.i18n import _
from game.text.names import check_name, damage_type_name, purpose_text

# --- names of the rules' terms (the seed's Italian names in Italian) ---------------------------


def cover_name(grade: str) -> str:
    """A cover grade of P-COV-1 (heavy, light, none, high exposure) or of d20's (D-1, D-3,
    004:l.52-70: normal, soft, improved, total)."""
    names = {
        "heavy": _("heavy"),
        "light": _("light"),
        "none": _("none"),
        "high_exposure": _("high exposure"),
        # d20's grades, the seed's "copertura leggera / migliorata / totale" in Italian.
        "normal": _("normal"),
        "soft": _("soft"),
        "improved": _("improved"),
        "total": _("total"),
    }
    return names.get(grade, grade)


def obstacle_name(obstacle: str) -> str:
    """An obstacle kind of G-2 as an adjective: full, half, thin."""
    names = {"full": _("full"), "half": _("half"), "thin": _("thin"), "none": _("none")}
    return names.get(obstacle, obstacle)


def mode_name(mode: str) -> str:
    """A movement mode of P-MOV-1 (and `air`, a push on the air adrift, P-ZERO-2; `push_off`,
    pushing off a surface in 0 g under a ruleset without jumps)."""
    names = {
        "walk": _("walk"),
        "crawl": _("crawl"),
        "swim": _("swim"),
        "climb": _("climb"),
        "jump": _("jump"),
        "thrusters": _("thrusters"),
        "air": _("air"),
        "push_off": _("push off"),
    }
    return names.get(mode, mode)


def field_condition_name(name: str, value: str) -> str:
    """One of the battlefield's conditions at one value (issue 15): "dense smoke"."""
    names = {
        ("darkness", "none"): lambda: _("full light"),
        ("darkness", "low"): lambda: _("low light"),
        ("darkness", "total"): lambda: _("total darkness"),
        ("smoke", "none"): lambda: _("no smoke"),
        ("smoke", "light"): lambda: _("light smoke"),
        ("smoke", "dense"): lambda: _("dense smoke"),
        ("weather", "none"): lambda: _("fair weather"),
        ("weather", "bad"): lambda: _("bad weather"),
    }
    found = names.get((name, value))
    return found() if found is not None else f"{name} {value}"


def condition_name(condition: str) -> str:
    """A condition of P-VUL-3 or `stabilised` (P-DEATH-1)."""
    names = {
        "stunned": _("stunned"),
        "shock": _("shock"),
        "blinded": _("blinded"),
        "burning": _("burning"),
        "out_of_combat": _("out of combat"),
        "dead": _("dead"),
        "stabilised": _("stabilised"),
        # a Myst rider's horse (002:l.150)
        "horse_hit": _("the horse is hit"),
        "horse_down": _("the horse is down"),
        # Cepheus's wound states (C-5)
        "wounded": _("wounded"),
        "seriously_wounded": _("seriously wounded"),
        "unconscious": _("unconscious"),
        "disabled": _("disabled"),  # d20, D-2: 0 hit points
        "dying": _("dying"),  # d20, D-2: -1 to -9 hit points
    }
    return names.get(condition, condition)


def effect_name(effect: str) -> str:
    """An effect a vulnerability table gives (P-VUL-1): a wound or a condition."""
    wounds = {
        "light_wound": _("light wound"),
        "grave_wound": _("grave wound"),
        "mortal_wound": _("mortal wound"),
        "armour_destroyed": _("armour destroyed"),
    }
    return wounds.get(effect) or condition_name(effect)


#: Effects from the most telling down, for the one word the board floats over a hit.
_SEVERITY = ("dead", "out_of_combat", "mortal_wound", "grave_wound", "light_wound")


def effect_short(effects: Sequence[str]) -> str:
    """The one word a damage's effects float up with on the board ("grave", "KO"); the log
    words them all in full (issue 17: the board's text short, the full words in the log)."""
    if not effects:
        return ""
    worst = min(effects, key=lambda e: _SEVERITY.index(e) if e in _SEVERITY else len(_SEVERITY))
    short = {
        "out_of_combat": _("KO"),
        "mortal_wound": _("mortal"),
        "grave_wound": _("grave"),
        "light_wound": _("light"),
    }
    return short.get(worst) or condition_name(worst)


def stance_name(stance: str) -> str:
    names = {"standing": _("standing"), "crouched": _("crouched"), "prone": _("prone")}
    return names.get(stance, stance)


def counter_lines(hold: tuple[str, bool] | None, unbalanced: int) -> list[str]:
    """A Myst fighter's grab and push penalty for its card (002:l.101-116)."""
    lines = []
    if hold is not None:
        other, holding = hold
        text = _("Holds {other} in a grab") if holding else _("Held in {other}'s grab")
        lines.append(text.format(other=other))
    if unbalanced:
        lines.append(_("Unbalanced: -{n} on its next exchange").format(n=unbalanced))
    return lines


def action_name(kind: str) -> str:
    """An action of the seed's list (the battle's action kinds); unknown kinds as given."""
    names = {
        "attack": _("attack"),
        "dash": _("dash"),
        "dodge": _("dodge"),
        "disengage": _("disengage"),
        "help": _("help"),
        "ready": _("ready"),
        "hide": _("hide"),
        "search": _("search"),
        "use_object": _("use an object"),
        "improvise": _("improvise"),
        "throw": _("throw"),
        "reload": _("reload"),
        "aim": _("aim"),
        "break_grab": _("break the grab"),
        "stand": _("stand up"),
        "coup_de_grace": _("coup de grâce"),
        "close_defence": _("close into defence"),
    }
    return names.get(kind, kind)


def rulings_line(rules: Iterable[str]) -> str:
    return _("rulings: {ids}").format(ids=", ".join(rules))


def _unknown(note: Note) -> ValueError:
    return ValueError(f"no text for note code {note.code!r}")


# --- line of sight and cover -------------------------------------------------------------------


def sight_lines(los: LosResult) -> list[str]:
    """Why a line of sight is clear or not (empty when nothing stood in the way)."""
    if los.rules == ("P-VUL-3",):
        return [_("the viewer cannot see (blinded or dead)")]
    if los.blocked_by is not None:
        return [
            _("the segment between the cell centres enters {cell}").format(
                cell=list(los.blocked_by)
            )
        ]
    if los.grazed:
        cells = [list(c) for c in los.grazed]
        if los.clear:
            return [_("grazes {cells}: one side stays free").format(cells=cells)]
        return [_("grazes {cells}: no single shift clears them all").format(cells=cells)]
    return []


def cover_note_text(note: Note) -> str:
    """One CoverNote: why a sample is hidden, or what else decided the grade."""
    match note.code:
        case CoverNote.FULL:
            return _("full obstacle: heavy cover (P-COV-2)")
        case CoverNote.THIN:
            return _("thin obstacle: light cover (P-COV-2)")
        case CoverNote.HALF:
            return _(
                "half obstacle {distance} from the target <= ceil({near}/(1+{levels})) - 1"
                " = {reach}: light cover (P-COV-3)"
            ).format(**note.values)
        case CoverNote.HALF_TOO_FAR:
            return _(
                "half obstacle {distance} from the target > ceil({near}/(1+{levels})) - 1"
                " = {reach}: no cover (P-COV-3)"
            ).format(**note.values)
        case CoverNote.LOW_STANCE:
            return _("crouched or prone behind a half obstacle: heavy instead of light (P-COV-5)")
        case CoverNote.SHOCK:
            return _("in shock: no cover (P-COV-5)")
        case CoverNote.IN_FLIGHT:
            return _("mid-flight in microgravity: no cover, not exposed (P-ZERO-1)")
        case CoverNote.ADRIFT:
            return _("stationary in the void without thrusters or cable: highly exposed (P-ZERO-1)")
        case CoverNote.HIGH_EXPOSURE:
            return _("no obstacle in the 8 cells around the target: highly exposed (P-COV-4)")
        case CoverNote.NOT_EXPOSED:
            return _("an obstacle stands next to the target: not highly exposed (P-COV-4)")
        case CoverNote.SHARED_CELL:
            return _("two share the target's cell, out of cover: highly exposed (P-MOV-8)")
    raise _unknown(note)


def _heights(samples: Iterable[HiddenSample]) -> str:
    """Which of a target's samples these are, by height: "3 low, 2 middle" (the 27 samples sit
    at a tenth, a half and nine tenths of the cell's height, nine at each)."""
    counts = {"low": 0, "middle": 0, "high": 0}
    for sample in samples:
        z = sample.sample[2]
        counts["low" if z < 0.34 else "middle" if z < 0.67 else "high"] += 1
    words = {
        "low": _("{n} low"),
        "middle": _("{n} middle"),
        "high": _("{n} high"),
    }
    return ", ".join(words[k].format(n=n) for k, n in counts.items() if n)


def cover_lines(cover: CoverResult) -> list[str]:
    """The grade and the samples hidden in all (once), then each obstacle cell with the samples
    it hides and why, what else decided the grade, and the rulings."""
    grade = _("cover: {grade} ({percent}%)").format(
        grade=cover_name(cover.grade), percent=f"{cover.percent:+d}"
    )
    hidden = {sample.sample for sample in cover.hidden}
    if hidden:
        grade += ", " + _("{n} of {total} samples hidden").format(n=len(hidden), total=SAMPLES)
    lines = [grade]
    by_cell: dict[tuple[Cell, str, bool], list[HiddenSample]] = {}
    for sample in cover.hidden:
        by_cell.setdefault((sample.cell, sample.obstacle, sample.counted), []).append(sample)
    for (cell, obstacle, _counted), samples in by_cell.items():
        text = (
            _("the {obstacle} obstacle at {cell} hides 1 sample ({which}): {reason}")
            if len(samples) == 1
            else _("the {obstacle} obstacle at {cell} hides {n} samples ({which}): {reason}")
        )
        lines.append(
            text.format(
                n=len(samples),
                which=_heights(samples),
                obstacle=obstacle_name(obstacle),
                cell=cell,
                reason=cover_note_text(samples[0].reason),
            )
        )
    lines += [cover_note_text(note) for note in cover.notes]
    lines.append(rulings_line(cover.rules))
    return lines


# --- hit chance and throws ----------------------------------------------------------------------


def _term(value: int | Fraction) -> str:
    """A number after an operator: negative ones in brackets so that "− (−15)" stays readable."""
    text = exact_decimal(Fraction(value))
    return f"({text})" if value < 0 else text


def hit_lines(chance: HitChance) -> list[str]:
    """One line per factor of P-HIT-2, the formula last with its exact value."""
    if chance.b_att_check:
        attack = _("attack bonus {bonus} ({check})").format(
            bonus=f"{chance.b_att:+d}", check=check_name(chance.b_att_check)
        )
    else:
        attack = _("attack bonus {bonus}").format(bonus=f"{chance.b_att:+d}")
    if chance.damage_type == PIERCING:
        armour = _(
            "armour {base}% × efficacy {efficacy} ({type} at {distance} cells) = {armour}%"
        ).format(
            base=chance.armour_base,
            efficacy=exact_decimal(chance.armour_efficacy),
            type=damage_type_name(PIERCING),
            distance=chance.distance,
            armour=exact_decimal(chance.armour_pct),
        )
    else:
        armour = _("armour {base}% ({type})").format(
            base=chance.armour_base, type=damage_type_name(chance.damage_type)
        )
    clamp = "" if floor(chance.raw) == chance.p else _(" (clamped to {low}..{high})")
    formula = (
        f"P = {chance.p_weapon} × (100 + ({chance.b_att} − {_term(chance.b_def)})×5"
        f" − {_term(chance.armour_pct)} − {_term(chance.cover_pct)})/100"
        f" = {exact_decimal(chance.raw)} → {chance.p}{clamp.format(low=P_MIN, high=P_MAX)}"
    )
    return [
        _("weapon {p}%").format(p=chance.p_weapon),
        attack,
        _("defence bonus {bonus} ({check})").format(
            bonus=f"{chance.b_def:+d}", check=check_name(DIVIDED_ATTENTION)
        ),
        armour,
        _("cover {grade} {percent}%").format(
            grade=cover_name(chance.cover), percent=chance.cover_pct
        ),
        formula,
    ]


def no_chance_text(reason: NoChance, values: Mapping[str, Value]) -> str:
    """Why an attack or a throw has no chance; `values` as game/tactics/answers.py gives them."""
    return _NO_CHANCE_TEXTS[reason]().format(**values)


_NO_CHANCE_TEXTS: Mapping[NoChance, Callable[[], str]] = {
    NoChance.SELF_TARGET: lambda: _("{attacker} aims at itself"),
    NoChance.NO_WEAPON: lambda: _("{attacker} carries no weapon"),
    NoChance.BLINDED: lambda: _("{attacker} is blinded"),
    NoChance.OUT_OF_COMBAT: lambda: _("{attacker} is out of combat"),
    NoChance.DEAD: lambda: _("{attacker} is dead"),
    NoChance.NO_LOS: lambda: _("no line of sight"),
    NoChance.OUT_OF_REACH: lambda: _(
        "a melee weapon reaches the 26 cells around; target at {distance}"
    ),
    NoChance.OUT_OF_RANGE: lambda: _("long range {long_range} cells; target at {distance}"),
}


# --- any ruleset's attack (game/rules/ruleset_answers.py) ------------------------------------


def chance_text(chance: Fraction) -> str:
    """An exact chance for players: a percentage when it is one, else the fraction with its
    percentage to one decimal ("7/12 ≈ 58.3%")."""
    percent = chance * 100
    if percent.denominator == 1:
        return f"{percent.numerator}%"
    return f"{chance.numerator}/{chance.denominator} ≈ {float(percent):.1f}%"


def percent_text(chance: Fraction) -> str:
    """An exact chance as players read it at a glance: its percentage to one decimal ("58.3%"),
    a whole one without decimals ("50%")."""
    percent = chance * 100
    if percent.denominator == 1:
        return f"{percent.numerator}%"
    return f"{float(percent):.1f}%"


def _signed(value: int | Fraction) -> str:
    text = exact_decimal(Fraction(value))
    return text if text.startswith("-") else f"+{text}"


def modifier_line(modifier: Modifier) -> str:
    """One term of an attack's chance, by its code; a code this table does not know yet is
    shown as it is, with its value and rulings, rather than hidden (a new ruleset adds its
    codes' wording here)."""
    value = modifier.value
    texts = {
        "weapon_p": lambda: _("weapon {p}%").format(p=exact_decimal(Fraction(value))),
        "attack_bonus": lambda: _("attack bonus {bonus}").format(bonus=_signed(value)),
        "defence_bonus": lambda: _("defence bonus {bonus}").format(bonus=_signed(value)),
        "armour": lambda: _("armour {points} points").format(points=_signed(value)),
        "cover": lambda: _("cover {points} points").format(points=_signed(value)),
        # Cepheus's DMs on 2d6 (C-1, C-2, C-3, C-5)
        "dm_skill": lambda: _("skill DM {dm}").format(dm=_signed(value)),
        "dm_characteristic": lambda: _("characteristic DM {dm}").format(dm=_signed(value)),
        "dm_difficulty": lambda: _("difficulty DM {dm}").format(dm=_signed(value)),
        "dm_cover": lambda: _("cover DM {dm}").format(dm=_signed(value)),
        "dm_prone": lambda: _("prone target DM {dm}").format(dm=_signed(value)),
        "dm_into_melee": lambda: _("firing into melee DM {dm}").format(dm=_signed(value)),
        "dm_zero_g_recoil": lambda: _("recoil in zero-G DM {dm}").format(dm=_signed(value)),
        "dm_aim": lambda: _("aim DM {dm}").format(dm=_signed(value)),
        "dm_laser_sight": lambda: _("laser sight DM {dm}").format(dm=_signed(value)),
        "dm_dodge": lambda: _("target dodges DM {dm}").format(dm=_signed(value)),
        "dm_parry": lambda: _("target parries DM {dm}").format(dm=_signed(value)),
        "dm_burst": lambda: _("burst DM {dm}").format(dm=_signed(value)),
        "dm_hasty": lambda: _("hasty DM {dm}").format(dm=_signed(value)),
        "dm_reactions": lambda: _("own reactions DM {dm}").format(dm=_signed(value)),
        # the battlefield's conditions under Cepheus (000:l.213-217, issue 15)
        "dm_darkness": lambda: _("darkness DM {dm}").format(dm=_signed(value)),
        "dm_smoke": lambda: _("smoke DM {dm}").format(dm=_signed(value)),
        "dm_weather": lambda: _("weather DM {dm}").format(dm=_signed(value)),
        "myst_attack": lambda: _("attack total {total} + 3d10").format(total=value),
        "myst_defence": lambda: _("defence total {total} + 3d10").format(total=-value),
        "myst_mounted": lambda: _("mounted: attack {bonus}").format(bonus=_signed(value)),
        "myst_target_mounted": lambda: _("mounted target: defence {bonus}").format(
            bonus=_signed(-value)
        ),
        "myst_second_defence": lambda: _("second defence this round: defence {penalty}").format(
            penalty=_signed(-value)
        ),
        "myst_closed_defence": lambda: _("closed into defence: defence {bonus}").format(
            bonus=_signed(-value)
        ),
        "myst_penalty_cancelled": lambda: _(
            "second defence: its -20 cancelled by a defence margin"
        ),
        "myst_charge": lambda: _(
            "charge: Strength cap {bonus}; a won defence adds to its margin"
        ).format(bonus=_signed(value)),
        "myst_two_handed": lambda: _("two-handed grip: Strength cap {bonus}").format(
            bonus=_signed(value)
        ),
        # Myst's riders (002:l.118-185)
        "myst_gait_canter": lambda: _("at a canter: one round, the lower of skill and Cavalcare"),
        "myst_gait_gallop": lambda: _(
            "at a gallop: one round, the lower of skill and Cavalcare, no action after defending"
        ),
        "myst_riding_attack": lambda: _("Cavalcare lower than the skill: attack {bonus}").format(
            bonus=_signed(value)
        ),
        "myst_riding_defence": lambda: _("Cavalcare lower than the skill: defence {bonus}").format(
            bonus=_signed(-value)
        ),
        "myst_horse_no_shield": lambda: _(
            "the horse defended from the ground: no shield, defence {bonus}"
        ).format(bonus=_signed(-value)),
        "myst_large_target": lambda: _("horse and rider, a large target: attack {bonus}").format(
            bonus=_signed(value)
        ),
        "myst_gallop": lambda: _("gallop: Strength cap {bonus}").format(bonus=_signed(value)),
        "myst_at_horse": lambda: _("the blow aims at the horse"),
        "fantasy_dp": lambda: _("protection difficulty {dp}").format(dp=value),
        "fantasy_attack_modifier": lambda: _("attack {points}").format(points=_signed(value)),
        "fantasy_defence_modifier": lambda: _("defence {points}").format(points=_signed(-value)),
    }
    if modifier.code in texts:
        text = texts[modifier.code]()
    elif modifier.code.startswith("d20_"):
        text = d20_modifier_text(modifier.code, value)
    else:
        text = f"{modifier.code} {_signed(value)}"
    return f"{text} ({', '.join(modifier.rules)})" if modifier.rules else text


def fantasy_initiative(agi: str, des: str) -> str:
    """A fantasy fighter's place in the order as the seed makes it (F-1, 003:l.12-13): its AGI
    die, then its DES die."""
    return _("AGI {agi} · DES {des}").format(agi=agi, des=des)


def fantasy_sheet(
    name: str,
    chars: tuple[str, str, str, str],
    weapon: str,
    attack: str,
    damage: str,
    cad: int,
    dp: int,
    body: int,
) -> str:
    """A fantasy sheet in one line (003: characteristics are dice, l.16; DP l.76; CAD l.140)."""
    agi, des, pot, pre = chars
    arm = _("{weapon} {dice}, damage {damage}").format(weapon=weapon, dice=attack, damage=damage)
    if cad > 1:
        arm += ", " + _("CAD {cad}").format(cad=cad)
    text = _("AGI {agi} · DES {des} · POT {pot} · PRE {pre}; {weapon}; DP {dp}; {body} body points")
    line = text.format(agi=agi, des=des, pot=pot, pre=pre, weapon=arm, dp=dp, body=body)
    return f"{name}: {line}" if name else line


#: Other rulesets' reasons for no chance (Myst M-2, fantasy F-2), worded with the attack's values.
_RULESET_NO_CHANCE: Mapping[str, Callable[[], str]] = {
    "engaged": lambda: _("{attacker} is engaged in melee: no ranged attack"),
    "target_out_of_combat": lambda: _("{target} is out of the fight already"),
    "held_in_grab": lambda: _("{attacker} is held in a grab: it must break it first"),
    "holding_grab": lambda: _("{attacker} holds a grab: it must let go first"),
    "no_riding_pass": lambda: _(
        "{attacker} rides fast: a melee blow only in passing, after riding this turn"
    ),
    "defended_at_gallop": lambda: _(
        "{attacker} defended in a gallop's exchange: no action this round"
    ),
    "target_dead": lambda: _("{target} is dead already"),
    "reloading": lambda: _("{attacker} is reloading ({turns} turns left)"),
    "out_of_ammo": lambda: _(
        "Out of ammunition: {left} rounds left, {needs} needed. Reload first (a minor action)."
    ),
}


def no_chance_words(reason: str, values: Mapping[str, object]) -> str:
    """Any ruleset's reason code for an attack without a chance, in words (the code itself
    when it has none); `values` fill its names, a missing one reads "?"."""
    filled = _Filled({k: str(v) for k, v in values.items()})
    if reason in NoChance.__members__.values():
        return _NO_CHANCE_TEXTS[NoChance(reason)]().format_map(filled)
    if reason in D20_REASONS:
        return d20_reason_text(reason)
    if reason in _RULESET_NO_CHANCE:
        return _RULESET_NO_CHANCE[reason]().format_map(filled)
    return reason


class _Filled(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "?"


def attack_lines(attack: Attack) -> list[str]:
    """Any ruleset's attack in words: its chance and a line a modifier, or why it has none."""
    if attack.chance is None:
        reason = attack.reason or ""
        words = no_chance_words(reason, attack.values)
        if words == reason and attack.why:
            return [attack.why[0]]
        return [words]
    lines = [_("Chance to hit {chance}").format(chance=chance_text(attack.chance))]
    return lines + [modifier_line(m) for m in attack.modifiers]


# --- d20 (seed 004): its modifier and refusal codes (game/tactics/rulesets/d20_battle.py) ---------

#: The d20 refusal codes (game.rules.d20.attack.Reason, and the battle object's self_target).
D20_REASONS = (
    "self_target",
    "no_los",
    "out_of_reach",
    "cannot_attack_prone",
    "not_helpless",
    "weapon_cannot_coup_de_grace",
    "immune_to_critical",
    "cover_blocks_opportunity",
    "concealment_blocks_opportunity",
)


def d20_reason_text(reason: str) -> str:
    """Why a d20 attack has no roll (004:l.23, l.58, l.68, l.84-86, l.114-120)."""
    texts = {
        "self_target": _("an entity cannot attack itself"),
        "no_los": _("no line of sight: the target has total cover (004:l.68)"),
        "out_of_reach": _("the target is beyond the attacker's reach"),
        "cannot_attack_prone": _(
            "a prone attacker uses no ranged weapon but a crossbow or shuriken (004:l.23)"
        ),
        "not_helpless": _("a coup de grâce needs a helpless target (004:l.114)"),
        "weapon_cannot_coup_de_grace": _(
            "a coup de grâce needs a melee weapon, a bow or a crossbow (004:l.114)"
        ),
        "immune_to_critical": _("no coup de grâce on a creature immune to critical hits"),
        "cover_blocks_opportunity": _(
            "no attack of opportunity against a target with cover (004:l.58)"
        ),
        "concealment_blocks_opportunity": _(
            "no attack of opportunity against a target with total concealment (004:l.86)"
        ),
    }
    return texts.get(reason, reason)


def _d20_row_name(name: str) -> str:
    """A row of seed 004's tables by its sheet or grid code."""
    names = {
        "abbagliato": _("dazzled"),
        "flanking": _("flanking"),
        "higher_ground": _("higher ground"),
        "intralciato": _("entangled"),
        "intralciato_dex": _("entangled (Dex)"),
        "invisibile": _("invisible"),
        "invisibile_dex": _("invisible (Dex)"),
        "prone": _("prone"),
        "ristretto": _("squeezing"),
        "scosso": _("shaken"),
        "spaventato": _("frightened"),
        "accecato": _("blinded"),
        "colto_alla_sprovvista": _("flat-footed"),
        "immobilizzato": _("pinned"),
        "in_lotta": _("grappling"),
        "indifeso": _("helpless"),
        "kneeling": _("kneeling"),
        "cover": _("cover"),
        "dex_lost": _("Dex bonus lost"),
        "dex_zero": _("Dex 0"),
        "stordito": _("stunned"),
        "tremante": _("cowering"),
    }
    return names.get(name, name)


def d20_modifier_text(code: str, value: int | Fraction) -> str:
    """One term of a d20 attack (D-2): the attack bonus and rows to it, the AC and rows to it,
    the natural face needed, concealment's miss chance."""
    if code == "d20_attack_bonus":
        return _("attack bonus {bonus}").format(bonus=_signed(value))
    if code == "d20_ac":
        return _("armour class {ac}").format(ac=exact_decimal(Fraction(value)))
    if code == "d20_needed":
        return _("d20 needs {face} or more (a 1 misses, a 20 hits)").format(
            face=exact_decimal(Fraction(value))
        )
    if code == "d20_coup_de_grace":
        return _("coup de grâce: an automatic hit (004:l.116)")
    if code == "d20_critical":
        return _("critical: the weapon dice times {times}").format(times=value)
    if code == "d20_concealment":
        return _("concealment: {percent}% miss chance").format(
            percent=exact_decimal(Fraction(value))
        )
    kind, _dot, name = code.partition(".")
    if kind == "d20_attack":
        return _("to hit {bonus}: {row}").format(bonus=_signed(value), row=_d20_row_name(name))
    if kind == "d20_ac":
        return _("AC {bonus}: {row}").format(bonus=_signed(value), row=_d20_row_name(name))
    return f"{code} {_signed(value)}"


def d20_damage_line(before: int, damage: int, after: int, state: str) -> str:
    """Damage off d20 hit points and the state reached (D-2)."""
    names = {
        "ok": _("fighting"),
        "disabled": _("disabled"),
        "dying": _("dying"),
        "dead": _("dead"),
    }
    return _("{before} - {damage} = {after} hit points: {state}").format(
        before=before, damage=damage, after=after, state=names.get(state, state)
    )


def throw_line(size: str, distance: int, band: str, *, b_att: int = 0, p: int | None = None) -> str:
    """A throw out of range, or at a cell (P-THR-1): automatic within medium range, else the
    long-range cell chance `p` from B_att. A throw at an entity is explained by hit_lines."""
    objects = {"light": _("light object"), "medium": _("medium object"), "heavy": _("heavy object")}
    thrown = objects.get(size, size)
    if band == "out_of_range":
        return _("{object}, {distance} cells").format(object=thrown, distance=distance)
    if p is None:
        return _("{object} at {distance} cells: medium range, automatic").format(
            object=thrown, distance=distance
        )
    return _("cell at long range: {p_weapon} × (100 + {b_att} × 5)/100 → {p}").format(
        p_weapon=CELL_LONG_P_WEAPON, b_att=b_att, p=p
    )


# --- movement ----------------------------------------------------------------------------------


def _speed_step_name(step: Note, mode: str) -> str:
    names = {
        SpeedStep.MORTAL_WOUND: _("mortal wound"),
        SpeedStep.CROUCHED: _("crouched"),
        SpeedStep.GRAVE_WOUND: _("grave wound"),
        SpeedStep.STEALTH: _("stealth"),
        SpeedStep.DASH: _("dash"),
        SpeedStep.MICROGRAVITY_JUMP: _("microgravity jump ×2"),
    }
    return mode_name(mode) if step.code == SpeedStep.BASE else names[SpeedStep(step.code)]


def allowance_note_text(note: Note) -> str:
    """One AllowanceNote: a mode's speed step by step ("walk 5 → crouched 2"), or a rule."""
    match note.code:
        case AllowanceNote.SPEED:
            mode = str(note.values["mode"])
            return " → ".join(
                f"{_speed_step_name(step, mode)} {step.values['speed']}" for step in note.parts
            )
        case AllowanceNote.PRONE:
            return _("prone: crawling, every cell costs +1 (P-MOV-2)")
        case AllowanceNote.PRONE_IN_WATER:
            return _("in water: swimming at crawl speed, +1 more a cell (P-MOV-2)")
        case AllowanceNote.BLINDED:
            return _("blinded: at most 1 cell this turn (P-VUL-3)")
        case AllowanceNote.BLINDED_HELPED:
            return _("blinded but helped: no cell limit (P-VUL-3)")
        case AllowanceNote.ADRIFT:
            return _("adrift without thrusters: 1 cell a turn, any direction (P-ZERO-2)")
        case AllowanceNote.TURN_LOST:
            return _("{condition}: skips its turn, no movement (P-VUL-3)").format(
                condition=condition_name(str(note.values["condition"]))
            )
    raise _unknown(note)


def allowance_lines(allow: MoveAllowance) -> list[str]:
    """This turn's movement allowance, a line per mode and per rule that applies."""
    return [allowance_note_text(note) for note in allow.explanation]


def search_note_text(note: Note) -> str:
    """One SearchNote: how the grid searches a movement request."""
    match note.code:
        case SearchNote.SPENT:
            return _("{points} points already spent this turn [P-TURN-1]").format(**note.values)
        case SearchNote.VELOCITY:
            return _(
                "carried velocity {velocity} cancelled first: {points} points [P-ZERO-2]"
            ).format(**note.values)
        case SearchNote.MICROGRAVITY_JUMP:
            return _(
                "microgravity jump: a straight line from a surface to a surface cell, 1 point a"
                " cell of the doubled jump speed; cells it would reach only next turn are not"
                " listed [P-ZERO-1]"
            )
        case SearchNote.RUN_UP:
            return _(
                "run-up {run_up}: reach apex + 2×{run_up} cells in any direction; the caller"
                " passes the run-up made toward the jump [P-JUMP-1]"
            ).format(**note.values)
        case SearchNote.JUMP:
            return _(
                "jump: n_max {n_max} at {gravity} g; higher apexes need an athletics check"
                " and are not listed [P-JUMP-1]"
            ).format(**note.values)
        case SearchNote.THRUSTERS_UNDER_GRAVITY:
            return _("thrusters under gravity: the flight must end on standable ground")
        case SearchNote.SURFACE:
            return _(
                "microgravity: magnetic boots walk between surface cells (standable, or beside"
                " a full obstacle) in 26 directions"
            )
        case SearchNote.AIR:
            return _("adrift without thrusters in pressurised space: 1 cell a turn [P-ZERO-2]")
        case SearchNote.ADRIFT:
            return _("adrift: no surface to walk on; use thrusters, or no movement")
        case SearchNote.BLINDED_NO_JUMP:
            return _("blinded: no jump, 1 cell of movement at most [P-VUL-3]")
        case SearchNote.BLINDED:
            return _("blinded: 1 cell of movement at most [P-VUL-3]")
        case SearchNote.PUSH_OFF:
            return _(
                "push off: a straight line from a surface to a surface cell, 1 point a cell,"
                " no check; cells it would reach only next turn are not listed [P-ZERO-1]"
            )
    raise _unknown(note)


def _compact(cell: Value) -> str:
    """A cell as a path step writes it: "(4,4,0)"."""
    assert isinstance(cell, tuple)
    return "({},{},{})".format(*cell)


def part_text(part: Note) -> str:
    """One CostNote of a step: an extra cost ("rough +1") or a jump's figure."""
    match part.code:
        case CostNote.CORNER:
            extras = " ".join(part_text(extra) for extra in part.parts)
            return _("corner {cell} {extras}").format(
                cell=_compact(part.values["cell"]), extras=extras
            )
        case CostNote.ROUGH:
            return _("rough +1")
        case CostNote.WATER:
            return _("water +1")
        case CostNote.PASS_THROUGH:
            relations = {"ally": _("ally"), "neutral": _("neutral")}
            relation = str(part.values["relation"])
            return _("{relation} {id} +1").format(
                relation=relations.get(relation, relation), id=part.values["id"]
            )
        case CostNote.CRAWLING:
            return _("crawling +1")
        case CostNote.APEX:
            if "dc" in part.values:  # P-JUMP-1: above n_max, with the check
                return _(
                    "apex {apex} (n_max {n_max}): athletics check DC {dc},"
                    " on a failure the jump is only {n_max} high"
                ).format(**part.values)
            return _("apex {apex} (n_max {n_max})").format(**part.values)
        case CostNote.DROP:
            if "dc" in part.values:  # P-JUMP-3: deeper than n_max
                return _(
                    "drop {depth} (n_max {n_max}): athletics check DC {dc},"
                    " on a failure it lands prone"
                ).format(**part.values)
            return _("drop {depth} (n_max {n_max})").format(**part.values)
        case CostNote.HORIZONTAL:
            return _("horizontal {length} ≤ {apex} + 2×{run_up}").format(**part.values)
        case CostNote.STRAIGHT_LINE:
            return _("{length} cells in a straight line").format(**part.values)
    raise _unknown(part)


def step_kind_name(kind: StepKind) -> str:
    names = {
        StepKind.CARDINAL: _("cardinal"),
        StepKind.DIAGONAL: _("diagonal"),
        StepKind.DIAGONAL_3D: _("3D diagonal"),
        StepKind.STAIRS_UP: _("stairs up"),
        StepKind.STAIRS_DOWN: _("stairs down"),
        StepKind.CLIMB_UP: _("climb up"),
        StepKind.CLIMB_DOWN: _("climb down"),
        StepKind.JUMP: _("jump"),
        StepKind.MICROGRAVITY_JUMP: _("microgravity jump"),
        StepKind.PUSH_OFF: _("push off"),
        StepKind.DROP: _("drop"),
    }
    return names[kind]


def step_line(step: Step) -> str:
    """A path step: cells, kind, mode, extra costs, points, running total and rulings."""
    extras = "".join(f", {part_text(part)}" for part in step.parts)
    cited = f" [{', '.join(step.rules)}]" if step.rules else ""
    return _("{start}→{end} {move} ({mode}){extras}: {points}, total {total}{rules}").format(
        start=_compact(step.start),
        end=_compact(step.end),
        move=step_kind_name(step.move),
        mode=mode_name(step.mode),
        extras=extras,
        points=step.points,
        total=step.total,
        rules=cited,
    )


def path_lines(path: PathResult) -> list[str]:
    """How the search ran, then each step, or that the cell is out of reach this turn."""
    notes = [search_note_text(note) for note in path.notes]
    if path.cost is None:
        return [*notes, _("not reachable this turn")]
    return [*notes, *(step_line(step) for step in path.steps)]


def jump_line(gravity: float, microgravity: bool) -> str:
    """The gravity a jump's limits were read at (P-JUMP-1/2)."""
    if microgravity:
        return _("gravity {g} g is microgravity: jumps fly to a surface").format(g=gravity)
    return _("gravity {g} g").format(g=gravity)


# --- damage, wounds, medkits --------------------------------------------------------------------


def damage_lines(steps: DamageBreakdown) -> list[str]:
    """Every step of P-DMG-1."""
    return [
        _("rolled damage {rolled} {type}").format(
            rolled=steps.rolled, type=damage_type_name(steps.damage_type)
        ),
        _("armour {armour}%: floor({rolled} × {kept} / 100) = {after}").format(
            armour=steps.armour_pct,
            rolled=steps.rolled,
            kept=100 - steps.armour_pct,
            after=steps.after_armour,
        ),
        _("resistance {resistance} ({check}): {after} − {resistance} = {difference}").format(
            resistance=steps.resistance,
            check=check_name(steps.resistance_check),
            after=steps.after_armour,
            difference=steps.after_armour - steps.resistance,
        ),
        _("damage D = {damage} (P-DMG-1, at least 0)").format(damage=steps.damage),
    ]


def vulnerability_line(table: str, damage_type: str, damage: int, outcome: DamageOutcome) -> str:
    """Where the vulnerability table was read and what it gave (P-VUL-1)."""
    if damage == 0:
        return _("no effect: damage 0")
    effects = ", ".join(effect_name(e) for e in outcome.effects) or _("no effect")
    return _("table {table}/{type} read at {value}: {effects}").format(
        table=table, type=damage_type_name(damage_type), value=outcome.read_at, effects=effects
    )


def medkit_text(outcome: MedkitOutcome) -> str:
    """What a medkit did, or why it was kept (P-HEAL-1)."""
    texts = {
        MedkitResult.HEALED: _("wound healed"),
        MedkitResult.STABILISED: _("stabilised: out of combat, no longer dying (P-DEATH-1)"),
        MedkitResult.CHECK_FAILED: _("the medicine check failed; the kit is spent"),
        MedkitResult.ALREADY_STABILISED: _("already stabilised; the kit is spent"),
        MedkitResult.TARGET_DEAD: _("the target is dead; the kit is kept"),
        MedkitResult.NOT_ADJACENT: _("the target is neither oneself nor adjacent; the kit is kept"),
        MedkitResult.OWN_MORTAL_WOUND: _("nobody treats their own mortal wound; the kit is kept"),
        MedkitResult.NO_SUCH_WOUND: _("the target has no such wound; the kit is kept"),
    }
    return texts[outcome.reason]


# --- turns, dice, initiative -------------------------------------------------------------------


def refusal_text(refused: Refused) -> str:
    """Why a turn request is refused (P-TURN-1/2), as a sentence for the player."""
    texts = {
        RefusalCode.NOT_YOUR_TURN: _("Only during this entity's own turn."),
        RefusalCode.NOT_ENOUGH_MOVEMENT: _(
            "Not enough movement: {left} of {limit} points left, this move costs {cost}."
        ),
        RefusalCode.ACTION_USED: _("The action of this turn is already used ({action})."),
        RefusalCode.INTERACTION_USED: _("The interaction of this turn is already used."),
        RefusalCode.BONUS_ACTION_USED: _("The bonus action of this turn is already used."),
        RefusalCode.REACTION_USED: _(
            "The reaction is already used; it comes back at the start of the next turn."
        ),
        RefusalCode.SAME_STANCE: _("Already {stance}."),
        RefusalCode.STANCE_NEEDS_INTERACTION: _(
            "Changing stance costs the interaction, already used this turn."
        ),
    }
    values = dict(refused.values)
    if "action" in values:
        values["action"] = action_name(str(values["action"]))
    if "stance" in values:
        values["stance"] = stance_name(str(values["stance"]))
    return texts[refused.code].format(**values)


def roll_line(record: RollRecord) -> str:
    """One roll for the combat log, e.g. "to-hit ada→bo: d100 [37, 82] keep 37 ≤ 52: hit"."""
    text = f"{purpose_text(record.purpose)}: " if record.purpose else ""
    text += record.expression
    if record.dice:
        text += f" [{', '.join(map(str, record.dice))}]"
    if record.dropped:
        text += " " + _("keep {faces}").format(faces=", ".join(map(str, record.kept)))
    if record.dice and (record.modifier or len(record.kept) > 1):
        text += f" = {record.total}"
    if record.target_kind == "dc":
        text += " " + _("vs DC {dc}").format(dc=record.target)
    elif record.target is not None:
        text += f" {'≤' if record.total <= record.target else '>'} {record.target}"
        if record.outcome and (record.outcome == "hit") != (record.total <= record.target):
            text += " " + (_("(1 always hits)") if record.total == 1 else _("(100 always misses)"))
    if record.outcome:
        outcomes = {
            "hit": _("hit"),
            "miss": _("miss"),
            "success": _("success"),
            "failure": _("failure"),
        }
        text += f": {outcomes.get(record.outcome, record.outcome)}"
    if record.source == "gm":
        text += " " + _("(GM dice)")
    return text


def initiative_lines(order: Sequence[InitiativeEntry]) -> list[str]:
    """Each entity's d20 + bonus = total, in turn order (P-INIT-1)."""
    return [f"{e.combatant.entity_id} {e.natural}{e.combatant.bonus:+d} = {e.total}" for e in order]


# --- Each ruleset's headline numbers for an attack (game/tactics/headline.py, issue 15/17) -----

#: Cepheus's range bands (000:l.33-41), by the ids of game/data/cepheus/combat.toml.
_CEPHEUS_BANDS: Mapping[str, Callable[[], str]] = {
    "personale": lambda: _("Personal range"),
    "ravvicinata": lambda: _("Close range"),
    "breve": lambda: _("Short range"),
    "media": lambda: _("Medium range"),
    "lunga": lambda: _("Long range"),
    "molto_lunga": lambda: _("Very long range"),
    "distante": lambda: _("Distant range"),
}


def _band_2d6(v: Mapping[str, Any]) -> str:
    band = str(v["band"])
    text = _("{band} · DM {dm} · {target}+ on {dice}d6").format(
        band=_CEPHEUS_BANDS[band]() if band in _CEPHEUS_BANDS else band,
        dm=_signed(int(v["dm"])),
        target=v["target"],
        dice=v["dice"],
    )
    field = [f"{_FIELD_DMS[str(code)]()} {_signed(int(dm))}" for code, dm in v.get("field", ())]
    return f"{text} ({', '.join(field)})" if field else text


#: The battlefield's conditions in a Cepheus headline (issue 15): "Smoke −2".
_FIELD_DMS = {
    "darkness": lambda: _("Darkness"),
    "smoke": lambda: _("Smoke"),
    "weather": lambda: _("Bad weather"),
}


def _d20_ac(v: Mapping[str, Any]) -> str:
    rows = [
        f"{_d20_row_name(str(name))} {_signed(int(value))}"
        for name, value in (*v["ac_rows"], *v["attack_rows"])
    ]
    if v["concealment"]:
        rows.append(_("concealment {percent}%").format(percent=v["concealment"]))
    text = _("needs {needed}+ on d20 vs AC {ac}").format(needed=v["needed"], ac=v["ac"])
    return f"{text} ({', '.join(rows)})" if rows else text


def _dice_dp(v: Mapping[str, Any]) -> str:
    dice = "+".join(str(d) for d in v["dice"])
    if v["modifier"]:
        dice += _signed(int(v["modifier"]))
    text = _("{dice} vs DP {dp}").format(dice=dice, dp=v["dp"])
    if v["defence"]:
        defence = "+".join(str(d) for d in v["defence"])
        text += " · " + _("defence {dice}").format(dice=defence)
    return text


#: Each form of headline (game/tactics/headline.py `Headline.kind`) in words.
_HEADLINES: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    "d100": lambda v: _("d100: {p} or less hits").format(p=v["p"]),
    "band_2d6": _band_2d6,
    "d20_ac": _d20_ac,
    "opposed_3d10": lambda v: _("attack 3d10+{attack} vs defence 3d10+{defence}").format(
        attack=v["attack"], defence=v["defence"]
    ),
    "dice_dp": _dice_dp,
}


def headline_text(kind: str, values: Mapping[str, Any]) -> str:
    """An attack's headline in one line, in its ruleset's own terms (`Headline.kind` and
    `Headline.values` of game/tactics/headline.py): "Medium range · DM -1 · 8+ on 2d6"; ""
    for a kind not known here."""
    words = _HEADLINES.get(kind)
    return "" if words is None else words(values)
