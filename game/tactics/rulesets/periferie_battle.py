"""Le Periferie del Vuoto (seed 001) in battle: its answers to the battle's questions, each
delegated to the modules that held them before the interface (game/rules/*,
game/tactics/answers.py), so that not a number changes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from game.grid.geometry import chebyshev
from game.grid.los import LosResult
from game.grid.model import Cell
from game.grid.movement import MoveRequest
from game.rules import checknames
from game.rules.checks import passive_perception
from game.rules.data import RulesInputError, Weapon
from game.rules.death import DEATH_SAVE_DC, death_save
from game.rules.dice import Advantage, Roller, RollRecord
from game.rules.heal import check_dc, use_medkit
from game.rules.hit import HitChance, attack_bonus, hit_chance
from game.rules.initiative import Combatant, Initiative, InitiativeEntry
from game.rules.movement import MoveAllowance
from game.rules.ruleset_answers import (
    Aid,
    Attack,
    AttackRoll,
    ConditionEffects,
    DamageRoll,
    Harm,
    Modifier,
    Throw,
    ThrowRoll,
    TurnBudget,
    TurnEffects,
    TurnStep,
)
from game.rules.throw import THROW_SIZES, ThrowBand, landing_cell, miss_deviation
from game.rules.wounds import (
    CONDITIONS,
    Health,
    apply_damage,
    attack_barred_by,
    end_of_turn,
    is_dying,
    start_of_turn,
    turn_lost_to,
)
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import BattleRules, TurnRules
from game.tactics.rulesets.common_battle import pattern_victims
from game.tactics.rulesets.cover_seeking import worst_cover

#: P-TURN-1: movement, one action, one interaction (P-TURN-2: a change of stance), a bonus
#: action and one reaction a round. The action bar's kinds, each with the slot it spends.
BUDGET = TurnBudget(
    slots=("movement", "action", "interaction", "bonus", "reaction"),
    costs=MappingProxyType(
        {
            "move": "movement",
            "attack": "action",
            "throw": "action",
            "dash": "action",
            "dodge": "action",
            "disengage": "action",
            "help": "action",
            "ready": "action",
            "hide": "action",
            "search": "action",
            "use_object": "action",
            "crouch": "interaction",
            "prone": "interaction",
            "stand": "interaction",
            "improvise": "action",
            "end_turn": "",
        }
    ),
)

#: The computer's score of each cover grade (P-COV-1): better cover, higher; others score 0.
COVER_SCORE = {"heavy": 3, "light": 2, "none": 0, "high_exposure": -1}


def modifiers(hit: HitChance) -> tuple[Modifier, ...]:
    """P-HIT-2's terms as notes: the weapon's P, the attack and defence bonuses (x5 points),
    the armour's share (P-HIT-3) and the cover (P-COV-1), in percentage points."""
    return _modifiers(
        hit.p_weapon, hit.b_att, hit.b_def, hit.armour_pct, hit.armour_efficacy < 1, hit.cover_pct
    )


# A few numbers make the terms, and a hover asks for them each time: kept (they are frozen).
@lru_cache(maxsize=4096, typed=True)
def _modifiers(
    p_weapon: int, b_att: int, b_def: int, armour_pct: Fraction, reduced: bool, cover_pct: int
) -> tuple[Modifier, ...]:
    notes = [
        Modifier("weapon_p", p_weapon, ("P-HIT-2",)),
        Modifier("attack_bonus", b_att, ("P-HIT-2",)),
        Modifier("defence_bonus", -b_def, ("P-HIT-2",)),
    ]
    if armour_pct:
        rules = ("P-HIT-2", "P-HIT-3") if reduced else ("P-HIT-2",)
        notes.append(Modifier("armour", -armour_pct, rules))
    if cover_pct:
        notes.append(Modifier("cover", -cover_pct, ("P-COV-1",)))
    return tuple(notes)


@lru_cache(maxsize=256, typed=True)
def _percent(p: int) -> Fraction:
    """P% as a Fraction of 1 (a hover's chance: made once per P)."""
    return Fraction(p, 100)


def clamp(cell: Cell, shape: tuple[int, int, int]) -> Cell:
    """The nearest cell inside the map (a throw that went astray lands on its edge)."""
    return (
        min(max(cell[0], 0), shape[0] - 1),
        min(max(cell[1], 0), shape[1] - 1),
        min(max(cell[2], 0), shape[2] - 1),
    )


def _kit_kwargs(medic: EntitySheet, patient: EntitySheet) -> dict[str, bool]:
    return {
        "self_target": medic.id == patient.id,
        "adjacent": chebyshev(medic.cell, patient.cell) <= 1,
    }


class PeriferieBattle(BattleRules):
    """The battle side of seed 001 (game.tactics.ruleset.BattleRules)."""

    reactions = frozenset({"opportunity_attack", "readied_attack"})  # P-OA-1, P-OA-2
    #: The computer shoots at once from a 10% chance up (its choices before the interface).
    worth_attacking = Fraction(1, 10)

    def attack(
        self,
        bf: Battlefield,
        attacker: EntitySheet,
        target: EntitySheet,
        weapon: Weapon | None = None,
        los: LosResult | None = None,
        *,
        worded: bool = True,
    ) -> Attack:
        answer = tactics.attack_chance(bf, attacker, target, weapon, los, worded=worded)
        hit = answer.hit
        return Attack(
            chance=None if hit is None else _percent(hit.p),
            reason=None if answer.reason is None else str(answer.reason),
            modifiers=() if hit is None else modifiers(hit),
            rules=answer.rules,
            why=answer.why,
            cover=None if answer.cover is None else answer.cover.grade,
            detail=answer,
            values=answer.values,
        )

    def roll_attack(
        self, roller: Roller, attack: Attack, advantage: Advantage, purpose: str
    ) -> AttackRoll:
        """P-HIT-1: d100 (two with advantage, P-CHK-2) against P."""
        answer: tactics.HitAnswer = attack.detail
        assert answer.hit is not None, "roll_attack needs an attack with a chance"
        record = roller.d100(purpose, advantage, answer.hit.p)
        return AttackRoll(record.outcome == "hit", record, {"hit_chance": answer.hit.p})

    def expected_harm(
        self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet, attack: Attack
    ) -> Fraction:
        # A hit is a step down the wound ladder whatever its damage (P-VUL-1/2): the chance
        # to hit is the expected harm, which keeps the computer's choices as they were.
        return attack.chance or Fraction(0)

    def roll_damage(
        self,
        roller: Roller,
        bf: Battlefield,
        attacker: EntitySheet | None,
        weapon: Weapon,
        attack: Attack | None,
        roll: AttackRoll | None,
    ) -> DamageRoll:
        """P-DMG-1: the weapon's dice, whatever the attack roll (the roll and its purpose as
        the battle made them before the interface)."""
        record = roller.roll(weapon.damage, f"damage {weapon.id}")
        return DamageRoll(record, record.total)

    def damage(self, bf: Battlefield, target: EntitySheet, damage_type: str, rolled: int) -> Harm:
        answer = tactics.damage_to(bf, target, damage_type, rolled)
        outcome = answer.outcome
        return Harm(answer.damage, outcome.after, tuple(outcome.effects), answer.rules, answer.why)

    def gm_conditions(self) -> tuple[str, ...]:
        return CONDITIONS  # P-VUL-3's conditions, kept in `Health.conditions`

    def condition_effects(self, health: Any) -> ConditionEffects:
        h: Health = health
        lost = turn_lost_to(h)
        return ConditionEffects(
            turn_lost=lost,
            attack_barred=attack_barred_by(h),
            no_movement=lost is not None,
            speed_cap=1 if h.has("blinded") else None,  # P-VUL-3, unless helped
            no_reaction=h.mortal > 0,
        )

    def start_initiative(self, roller: Roller, combatants: Sequence[Combatant]) -> Initiative:
        return Initiative.start(roller, combatants)  # P-INIT-1..4

    def initiative_order(self, bf: Battlefield, rolls: Mapping[str, int]) -> list[InitiativeEntry]:
        return tactics.initiative_order(bf, rolls)

    def turn_budget(self) -> TurnBudget:
        return BUDGET

    def move_request(
        self,
        bf: Battlefield,
        entity: EntitySheet,
        mode: str | None,
        *,
        dash: bool,
        stealth: bool,
        helped: bool = False,
    ) -> tuple[MoveRequest, MoveAllowance]:
        return tactics.move_request(bf, entity, mode, dash=dash, stealth=stealth, helped=helped)

    def sight(self, bf: Battlefield, frm: EntitySheet | Cell, to: EntitySheet | Cell) -> LosResult:
        # P-LOS-3: enemies block, allies do not (the shared kernel's rule); P-VUL-3 blinded.
        return tactics.sight(bf, frm, to)

    # ---------------------------------------------------------------- the turn's start and end
    # (game.tactics.ruleset.TurnRules: the battle's effects as they were before the interface,
    # the same rolls with the same purposes in the same order.)
    def turn_begins(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, health: Any
    ) -> TurnEffects:
        """P-VUL-3: stunned and shock end as the turn they cost begins; out of combat costs
        every turn."""
        if not isinstance(health, Health):
            return TurnEffects(health)  # another ruleset's sheet (a test's fake object)
        start = start_of_turn(health)
        lost = start.ended[0] if start.ended else turn_lost_to(health)
        return TurnEffects(start.after, (), lost if start.skip_turn else None)

    def turn_start(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, health: Any
    ) -> TurnEffects:
        """P-DEATH-1: a dying unit's death save (d20, DC 10); then P-VUL-3: a burning unit
        takes 1d8 ustione through its table (no armour). A unit the save kills does not burn."""
        if not isinstance(health, Health):
            return TurnEffects(health)
        h = health
        steps: list[TurnStep] = []
        if is_dying(h):
            record = roller.d20(f"death save {unit.id}", dc=DEATH_SAVE_DC)
            saved = death_save(h, record.kept[0])
            h = saved.after
            saved_data = {"unit": unit.id, "result": saved.result, "wounds": h.to_dict()}
            steps.append(TurnStep("death_save", saved_data, h, (record,), ("P-DEATH-1",)))
            if h.has("dead"):
                return TurnEffects(h, tuple(steps))
        if h.has("burning"):
            record = roller.roll("1d8", f"burning {unit.id}")
            table = bf.rules.vulnerabilities[unit.vulnerability]
            outcome = apply_damage(h, table, "ustione", record.total)
            h = outcome.after
            data: dict[str, object] = {
                "unit": unit.id,
                "source": "burning",
                "type": "ustione",
                "rolled": record.total,
                "damage": record.total,
                "effects": list(outcome.effects),
                "wounds": h.to_dict(),
            }
            rules = ("P-VUL-3", *outcome.rules)
            steps.append(TurnStep("damage", data, h, (record,), rules))
        return TurnEffects(h, tuple(steps))

    def turn_end(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, health: Any
    ) -> TurnEffects:
        """P-VUL-3: burning and blinded end with the unit's turn."""
        if not isinstance(health, Health):
            return TurnEffects(health)
        return TurnEffects(end_of_turn(health))

    # ---------------------------------------------------------------- the computer's cover
    def cover_value(
        self, bf: Battlefield, unit: EntitySheet, threats: Sequence[EntitySheet]
    ) -> Fraction:
        """Periferie's cover grades (P-COV-1) as the computer has always scored them, heavy
        the best (what a unit no threat sees counts as)."""

        def value(threat: EntitySheet) -> Fraction:
            grade = tactics.target_cover(bf, threat, unit, detail=False).grade
            return Fraction(COVER_SCORE.get(grade, 0))

        return worst_cover(self.sight, bf, unit, threats, value, Fraction(COVER_SCORE["heavy"]))

    # ---------------------------------------------------------------- throws and areas at a cell
    # What handlers._throw, _area_at_cell and combat.damage_area did before the interface, the
    # same rolls with the same purposes in the same order (P-THR-1/2, P-AREA-1).

    def can_throw(self, bf: Battlefield, thrower: EntitySheet) -> str | None:
        return None  # anyone may throw a light object (P-THR-1)

    def throw(
        self,
        bf: Battlefield,
        thrower: EntitySheet,
        to: EntitySheet | Cell,
        size: str,
        weapon: Weapon | None,
    ) -> Throw:
        answer = tactics.throw_at(bf, thrower, size, to)
        p = answer.hit_chance
        return Throw(
            chance=None if p is None else Fraction(p, 100),
            automatic=answer.automatic,
            reason=None if answer.reason is None else str(answer.reason),
            band=answer.band,
            rules=answer.rules,
            why=answer.why,
            detail=answer,
            values=answer.values,
        )

    def roll_throw(
        self,
        roller: Roller,
        bf: Battlefield,
        thrower: EntitySheet,
        aim: Cell,
        throw: Throw,
        advantage: Advantage,
        purpose: str,
    ) -> ThrowRoll:
        """P-THR-1: a d100 against P unless automatic; P-THR-2: a miss deviates (d4, d6 in
        microgravity), kept inside the map."""
        answer: tactics.ThrowAnswer = throw.detail
        logged = {"hit_chance": answer.hit_chance}
        if answer.automatic:
            return ThrowRoll(True, aim, (), logged)
        assert answer.hit_chance is not None, "roll_throw needs a possible throw"
        record = roller.d100(purpose, advantage, answer.hit_chance)
        if record.outcome == "hit":
            return ThrowRoll(True, aim, (record,), logged)
        b_att, _check = attack_bonus("thrown", thrower.checks)
        band: ThrowBand = "long" if answer.band == "long" else "medium"
        cells_off = miss_deviation(band, record.kept[0], b_att)
        if not cells_off:
            return ThrowRoll(False, aim, (record,), logged)
        grid = bf.grid
        direction = roller.die(6 if grid.microgravity else 4, f"throw deviation {thrower.id}")
        landed = landing_cell(thrower.cell, aim, cells_off, direction, grid.microgravity)
        landed = clamp(landed, grid.shape)
        rules = ("P-THR-2",) if landed != aim else ()
        return ThrowRoll(False, landed, (record, roller.log[-1]), logged, rules)

    def throw_damage(
        self,
        roller: Roller,
        bf: Battlefield,
        thrower: EntitySheet,
        weapon: Weapon | None,
        size: str,
        roll: ThrowRoll,
    ) -> DamageRoll:
        """P-THR-1: the thrown weapon's dice, else the object's size's."""
        dice = weapon.damage if weapon is not None else THROW_SIZES[size].damage
        record = roller.roll(dice, f"damage throw {thrower.id}")
        return DamageRoll(record, record.total)

    def area_attack(
        self, bf: Battlefield, attacker: EntitySheet, weapon: Weapon, at: Cell
    ) -> Attack:
        """P-AREA-1: line of sight to the cell, then the weapon's own P against a cell (no
        defence, armour or cover: nobody is aimed at)."""
        if not weapon.area:
            return Attack(None, "needs_target", (), (), values={"weapon": weapon.id})
        if not bf.grid.in_bounds(at):
            return Attack(None, "outside_map", (), (), values={"at": at})
        barred = attack_barred_by(attacker.health)
        if barred:
            return Attack(None, barred, (), (), values={"unit": attacker.id})
        los = self.sight(bf, attacker, at)
        if not los.clear:
            why = tactics.sight_why(los)
            return Attack(None, "no_los", (), los.rules, why, values={"at": at, "why": why})
        distance = chebyshev(attacker.cell, at)
        if weapon.long_range is not None and distance > weapon.long_range:
            return Attack(None, "out_of_range", (), (), values={"at": at})
        b_att, check = attack_bonus(weapon.kind, attacker.checks)
        chance = hit_chance(
            weapon.hit, b_att, 0, 0, "none", weapon.damage_type, distance, b_att_check=check
        )
        rules = ("P-AREA-1", *chance.rules)
        answer = tactics.HitAnswer(chance, None, rules)
        return Attack(Fraction(chance.p, 100), None, modifiers(chance), rules, detail=answer)

    def area_victims(
        self, bf: Battlefield, attacker: EntitySheet | None, weapon: Weapon, origin: Cell
    ) -> tuple[str, ...] | None:
        """P-AREA-1: everyone in the weapon's pattern from `origin` (through sight unless the
        weapon ignores it)."""
        return pattern_victims(bf, weapon, origin)

    # ---------------------------------------------------------------- medkits (P-HEAL-1)

    def medkit_refusal(
        self, bf: Battlefield, medic: EntitySheet, patient: EntitySheet, wound: str
    ) -> tuple[str, Mapping[str, object]] | None:
        try:
            trial = use_medkit(patient.health, wound, 0, **_kit_kwargs(medic, patient))
        except RulesInputError:
            return "unknown_wound", {"wound": wound}
        return None if trial.kit_spent else (str(trial.reason), {"target": patient.id})

    def use_medkit(
        self,
        roller: Roller,
        bf: Battlefield,
        medic: EntitySheet,
        patient: EntitySheet,
        wound: str,
        advantage: Advantage,
    ) -> Aid:
        """P-HEAL-1: a light wound needs no check; a grave or mortal one the `applicazione
        (medicina)` check against its DC, logged with it (P-CHK-4)."""
        rolls: tuple[RollRecord, ...] = ()
        total = None
        dc = check_dc(wound)
        if dc is not None:
            bonus = checknames.bonus(medic.checks, checknames.MEDICINE)
            record = roller.d20(f"medicine {medic.id}", bonus, advantage, dc)
            rolls, total = (record,), record.total
        outcome = use_medkit(patient.health, wound, total, **_kit_kwargs(medic, patient))
        return Aid(outcome.after, str(outcome.reason), rolls, outcome.rules)

    # ---------------------------------------------------------------- hiding (P-STL-1/2)

    def hides_behind(self, bf: Battlefield, enemy: EntitySheet, unit: EntitySheet) -> bool:
        """P-STL-2: heavy cover, or a half obstacle no farther from the unit than from the
        enemy, behind it."""
        result = tactics.target_cover(bf, enemy, unit)
        if result.grade == "heavy":
            return True
        return any(
            s.obstacle != "half" or chebyshev(s.cell, unit.cell) <= chebyshev(s.cell, enemy.cell)
            for s in result.hidden
        )

    def perception_dc(self, bf: Battlefield, watcher: EntitySheet) -> int:
        return passive_perception(watcher.checks)  # P-STL-1

    def stealth_roll(
        self,
        roller: Roller,
        bf: Battlefield,
        unit: EntitySheet,
        advantage: Advantage,
        dc: int | None,
        purpose: str,
    ) -> RollRecord:
        """P-STL-1: `precisione (furtività)`, a d20."""
        bonus = checknames.bonus(unit.checks, checknames.STEALTH)
        return roller.d20(purpose, bonus, advantage, dc)

    def search_roll(
        self,
        roller: Roller,
        bf: Battlefield,
        searcher: EntitySheet,
        advantage: Advantage,
        purpose: str,
    ) -> RollRecord:
        bonus = checknames.bonus(searcher.checks, checknames.PERCEPTION)
        return roller.d20(purpose, bonus, advantage)

    # ---------------------------------------------------------------- jumps, help, advantage
    # What the engine, the help handler and the computer did before the interface (issue 15),
    # the same rolls with the same purposes in the same order.

    def can_jump(self, bf: Battlefield, jumper: EntitySheet) -> str | None:
        return None  # P-JUMP-1..3, P-ZERO-1: the jump budget of `move_request`

    def roll_leap(
        self,
        roller: Roller,
        bf: Battlefield,
        unit: EntitySheet,
        dc: int,
        advantage: Advantage,
        purpose: str,
    ) -> RollRecord:
        """P-JUMP-1/3: `gravità muscolare (atletica)`, a d20 (P-CHK-1)."""
        bonus = checknames.bonus(unit.checks, checknames.ATHLETICS)
        return roller.d20(purpose, bonus, advantage, dc=dc)

    def can_help(self, bf: Battlefield, helper: EntitySheet) -> str | None:
        return None  # P-CHK-2: the help action, advantage on the ally's next roll

    def advantage(self, *, helped: bool, dodging: bool, crowded: bool) -> Advantage:
        """P-CHK-2: help gives advantage; a dodging target, or a cell shared with another unit
        (P-MOV-8: "Tutte le azioni svolte dalle entità nella stessa casella sono svolte con
        svantaggio"), disadvantage; both cancel."""
        return Advantage.combine(helped, dodging or crowded)

    def aid_wanted(self, bf: Battlefield, patient: EntitySheet) -> str | None:
        """P-HEAL-1, P-DEATH-1: a dying ally's mortal wound (the computer leaves the others)."""
        return "mortal" if is_dying(patient.health) else None

    def medkit_wounds(self, bf: Battlefield, patient: EntitySheet) -> tuple[str, ...]:
        """P-HEAL-1: each kind of wound the patient carries, mortal, grave, light."""
        health = patient.health
        carried = {"mortal": health.mortal, "grave": health.grave, "light": health.light}
        return tuple(wound for wound, n in carried.items() if n)

    # ---------------------------------------------------------------- shared cell, improvising
    # What the engine and the GM's ruling rolled before the interface (issue 15), the same
    # d20s with the same purposes.

    def shared_cell_save(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, other: EntitySheet, purpose: str
    ) -> RollRecord:
        """P-MOV-8: acrobatics, DC 10 + 2 x (the other's size - its own) (P-CHK-1)."""
        dc = 10 + 2 * (int(other.size) - int(unit.size))
        bonus = checknames.bonus(unit.checks, checknames.ACROBATICS)
        return roller.d20(purpose, bonus, dc=dc)

    def improvised_checks(self) -> tuple[str, ...]:
        return checknames.ALL  # P-CHK-1's checks

    def roll_improvised(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, check: str, dc: int, purpose: str
    ) -> RollRecord:
        """P-CHK-1: d20 + the check's bonus against the GM's DC."""
        return roller.d20(purpose, checknames.bonus(unit.checks, check), dc=dc)


BATTLE = PeriferieBattle()
#: mypy checks here that the object implements the whole protocol.
_CHECKED: BattleRules = BATTLE
_TURNS: TurnRules = BATTLE
