"""The dice-step fantasy system (seed 003, F-1..F-3) in battle: its answers to the battle's
questions from the pure rules of game/rules/fantasy/ over the shared grid.

Choices where the seed and the rulings leave the battle free (docs/rules.md, "Dice-step fantasy
in battle"): initiative is the sheets' AGI then DES dice, no roll, and those equal in both act
one after another in listing order (the shared order keeper has no simultaneous groups yet);
a turn is a move and one attack (003:l.55 lets a fighter that closes in attack in the same
turn); each attack is defended with the target's first defence (the count of attackers a
round is not kept); enemies block the line of sight and allies do not (the shared kernel's
rule, as the query answers it); the free attack on a fleeing fighter (003:l.67) is not a
reaction yet: the battle's reaction asks `attack` without saying the target flees.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import Any

from game.grid.geometry import chebyshev
from game.grid.los import LosResult, explain_line_of_sight
from game.grid.model import Cell
from game.grid.movement import MoveRequest
from game.rules import exact
from game.rules.data import Weapon as PeriferieWeapon
from game.rules.dice import Advantage, Roller, RollRecord
from game.rules.fantasy import combat, dice
from game.rules.fantasy.data import FantasyRules, Sheet, Weapon, load
from game.rules.hit import NoChance
from game.rules.initiative import Combatant, Initiative, InitiativeEntry
from game.rules.movement import MoveAllowance
from game.rules.ruleset_answers import (
    Attack,
    AttackRoll,
    ConditionEffects,
    DamageRoll,
    Harm,
    Modifier,
    TurnBudget,
)
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import BattleRules
from game.tactics.rulesets.common_battle import (
    MOVE_AND_ACTION,
    NotOffered,
    cells_move,
    order_keeper,
)

#: 003:l.4, 55: one action a turn, and a fighter that closes in may attack in the same turn.
BUDGET = MOVE_AND_ACTION
#: The condition of a fighter with every body point lost (003:l.184).
DEAD = "dead"
#: A ranged attack from a fighter engaged in melee (003:l.61).
ENGAGED = "engaged"
#: An attack on a fighter already dead.
TARGET_DEAD = "target_dead"
#: Where a hit lands when the battle gives no location (the table's middle row, F-3).
DEFAULT_LOCATION = "torso"
#: Initiative's bonus: the AGI die's faces weigh more than any DES die's (F-1).
AGI_WEIGHT = 16


def rules() -> FantasyRules:
    return load()


def sheet_of(entity: EntitySheet) -> Sheet:
    """The entity's fantasy sheet (the defaults for an entity built without one)."""
    return entity.sheet if isinstance(entity.sheet, Sheet) else rules().defaults


def _enemies(a: EntitySheet, b: EntitySheet) -> bool:
    return a.faction != b.faction and not a.neutral and not b.neutral


def engaged(bf: Battlefield, entity: EntitySheet, besides: EntitySheet | None = None) -> bool:
    """F-2: a living enemy stands in one of the 26 adjacent cells (`besides` not counted)."""
    return any(
        other.id != entity.id
        and (besides is None or other.id != besides.id)
        and _enemies(entity, other)
        and not sheet_of(other).dead
        and chebyshev(entity.cell, other.cell) == 1
        for other in bf.entities
    )


@dataclass(frozen=True)
class FantasyAttack:
    """The fantasy answer behind an `Attack`: the plan of dice, its chances, the sheets."""

    plan: combat.Plan
    chances: combat.Chances
    attacker: Sheet
    target: Sheet
    weapon: Weapon
    target_id: str


def roll_exploding(roller: Roller, die: str, purpose: str) -> list[int]:
    """F-1: one die rolled with the battle's roller, again on its maximum for as long as it
    shows it; every face in order."""
    size = dice.FACES[die]
    faces = [roller.roll(f"1d{size}", purpose).total]
    while faces[-1] == size:
        faces.append(roller.roll(f"1d{size}", purpose).total)
    return faces


def _rolled(roller: Roller, named: Sequence[str], purpose: str) -> list[list[int]]:
    return [roll_exploding(roller, d, purpose) for d in named if dice.FACES[d]]


@cache
def mean_body_damage(weapon_damage: str, armour: tuple[tuple[str, int], ...]) -> Fraction:
    """E[body points lost] of one hit, exact: the location by the d100 table, its armour
    taking the points first (003:l.179), the weapon's dice."""
    data = rules()
    worn = dict(armour)
    faces = exact.distribution(exact.parse(weapon_damage))
    total, low = Fraction(0), 0
    for location, top in data.locations:
        share = Fraction(top - low, 100)
        low = top
        points = worn.get(location, 0)
        total += share * sum((p * max(0, face - points) for face, p in faces.items()), Fraction(0))
    return total


def _no_attack(reason: str, rules_: tuple[str, ...], why: str, **values: object) -> Attack:
    return Attack(None, reason, (), rules_, (why,), values=values)


class FantasyBattle(NotOffered):  # no throws in its seed (issue 15)
    """The battle side of seed 003 (game.tactics.ruleset.BattleRules)."""

    #: None yet: the free attack on a fleeing fighter (003:l.67) is documented as left.
    reactions: frozenset[str] = frozenset()
    #: The computer attacks at once from an expected half body point.
    worth_attacking = Fraction(1, 2)

    def __init__(self) -> None:
        # The location of the hit just rolled, by target, until `damage` takes it: the one
        # piece of a hit the battle's damage step does not carry (its damage type is the
        # periferie weapon's). Rolled and taken within the same command, so a replay makes
        # the same hand-offs.
        self._locations: dict[str, str] = {}

    def attack(
        self,
        bf: Battlefield,
        attacker: EntitySheet,
        target: EntitySheet,
        weapon: PeriferieWeapon | None = None,
        los: LosResult | None = None,
        *,
        worded: bool = True,
    ) -> Attack:
        # `weapon` is periferie's record: a fantasy fighter attacks with its sheet's weapon.
        data = rules()
        a_sheet, t_sheet = sheet_of(attacker), sheet_of(target)
        arm = a_sheet.weapon
        values = {"attacker": attacker.id, "target": target.id}
        if attacker.id == target.id:
            return _no_attack(NoChance.SELF_TARGET, (), "nobody attacks itself", **values)
        if a_sheet.dead:
            return _no_attack(NoChance.DEAD, ("F-2",), f"{attacker.id} is dead", **values)
        if t_sheet.dead:
            return _no_attack(TARGET_DEAD, ("F-2",), f"{target.id} is dead already", **values)
        distance = chebyshev(attacker.cell, target.cell)
        if arm.melee and distance > 1:
            return _no_attack(
                NoChance.OUT_OF_REACH,
                ("F-2", "G-4"),
                f"a melee attack needs an adjacent cell; {target.id} is {distance} away",
                distance=distance,
                **values,
            )
        if not arm.melee and engaged(bf, attacker):
            return _no_attack(
                ENGAGED, ("F-2",), f"{attacker.id} is engaged in melee (003:l.61)", **values
            )
        sight = los if los is not None else self.sight(bf, attacker, target)
        if not sight.clear:
            return _no_attack(NoChance.NO_LOS, sight.rules, "no line of sight", **values)
        situation = combat.Situation()
        rule_ids: list[str] = ["F-1", "F-2"]
        grade: str | None = None
        if not arm.melee:
            cover = tactics.target_cover(bf, attacker, target, detail=False)
            grade = cover.grade
            rule_ids += list(cover.rules)
            situation = combat.Situation(
                cover=grade, target_engaged=engaged(bf, target, besides=attacker)
            )
        plan = combat.plan(data, a_sheet, t_sheet, arm, situation)
        odds = combat.chances(data, plan, melee=arm.melee)
        notes = [Modifier("fantasy_dp", plan.dp, ("F-2",))]
        if plan.attack_modifier:
            notes.append(Modifier("fantasy_attack_modifier", plan.attack_modifier, ("F-3",)))
        if plan.defence_modifier:
            notes.append(Modifier("fantasy_defence_modifier", -plan.defence_modifier, ("F-3",)))
        why: tuple[str, ...] = ()
        if worded:
            defence = "no defence" if plan.defence_dice is None else "+".join(plan.defence_dice)
            why = (
                f"attack {'+'.join(plan.attack_dice)} (exploding) against DP {plan.dp}; "
                f"defence {defence} (F-2)",
                *plan.why,
            )
        return Attack(
            chance=odds.hit,
            reason=None,
            modifiers=tuple(notes),
            rules=tuple(dict.fromkeys((*rule_ids, *plan.rules, *sight.rules))),
            why=why,
            cover=grade,
            detail=FantasyAttack(plan, odds, a_sheet, t_sheet, arm, target.id),
            values=values,
        )

    def roll_attack(
        self, roller: Roller, attack: Attack, advantage: Advantage, purpose: str
    ) -> AttackRoll:
        """F-1, F-2: each side's dice rolled with the battle's roller, exploding; one of the
        seed's five outcomes; on a hit, the d100 of the location (F-3)."""
        detail: FantasyAttack = attack.detail
        plan, melee = detail.plan, detail.weapon.melee
        data = rules()
        a_faces = _rolled(roller, plan.attack_dice, purpose)
        d_faces = None
        if plan.defence_dice is not None:
            d_faces = _rolled(roller, plan.defence_dice, f"{purpose} defence")
        done = combat.resolve(data, plan, a_faces, d_faces, None, melee=melee)
        if done.outcome == "hit":
            location = roller.roll("1d100", f"{purpose} location").total
            done = combat.resolve(data, plan, a_faces, d_faces, location, melee=melee)
        every = tuple(f for die in a_faces for f in die)
        record = RollRecord(
            purpose=purpose,
            expression="+".join(f"{d}!" for d in plan.attack_dice if dice.FACES[d]) or "0",
            dice=every,
            kept=every,
            dropped=(),
            modifier=plan.attack_modifier,
            total=done.attack_total,
            target=None,
            target_kind=None,
            outcome=done.outcome,
            source="random",
            advantage=Advantage.NONE,
        )
        logged = {
            "chance": exact.fraction_text(detail.chances.hit),
            "dp": plan.dp,
            "attack_total": done.attack_total,
            "defence_total": done.defence_total,
            "outcome": done.outcome,
            "critical": done.critical,
            "critical_failure": done.critical_failure,
            "location": done.location,
        }
        return AttackRoll(done.outcome == "hit", record, MappingProxyType(logged))

    def roll_damage(
        self,
        roller: Roller,
        bf: Battlefield,
        attacker: EntitySheet | None,
        weapon: PeriferieWeapon,
        attack: Attack | None,
        roll: AttackRoll | None,
    ) -> DamageRoll:
        """003:l.174: the sheet weapon's dice (not exploding: 003:l.123 is the combat dice).
        The location the hit's d100 chose is handed to `damage` for the attack's target (the
        battle gives `damage` the periferie weapon's damage type, not a location)."""
        detail: FantasyAttack | None = None if attack is None else attack.detail
        if detail is not None:
            arm = detail.weapon
        else:
            arm = (rules().defaults if attacker is None else sheet_of(attacker)).weapon
        record = roller.roll(arm.damage, f"damage {arm.name}")
        location = None if roll is None else roll.logged.get("location")
        if detail is not None and isinstance(location, str):
            self._locations[detail.target_id] = location
        return DamageRoll(record, record.total)

    def expected_harm(
        self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet, attack: Attack
    ) -> Fraction:
        """Expected body points lost: the chance of a hit x the weapon's mean damage through
        the armour of the location the d100 picks (003:l.179, F-3)."""
        if attack.chance is None:
            return Fraction(0)
        detail: FantasyAttack = attack.detail
        armour = tuple(sorted(detail.target.armour.items()))
        return attack.chance * mean_body_damage(detail.weapon.damage, armour)

    def damage(self, bf: Battlefield, target: EntitySheet, damage_type: str, rolled: int) -> Harm:
        """003:l.174-184: `rolled` points at the location the hit's d100 chose (`roll_damage`),
        else the one `damage_type` names, else the torso: the armour there first, the rest
        blackens body boxes from Lieve down; the health value after is the sheet itself."""
        data = rules()
        sheet = sheet_of(target)
        names = [name for name, _ in data.locations]
        location = self._locations.pop(target.id, None)
        if location is None:
            location = damage_type if damage_type in names else DEFAULT_LOCATION
        wound = combat.take_damage(data, sheet, rolled, location)
        after = combat.wounded(sheet, location, wound)
        effects = tuple(
            code
            for code, on in (("armour_destroyed", wound.armour_destroyed), (DEAD, wound.dead))
            if on
        )
        why = (
            f"{rolled} at the {location}: armour {sheet.armour.get(location, 0)}, "
            f"{wound.body_damage} body point(s), {wound.body_lost}/{sheet.body_total} lost",
        )
        return Harm(wound.body_damage, after, effects, ("F-2", "F-3"), why)

    def condition_effects(self, health: Any) -> ConditionEffects:
        sheet: Sheet = health
        if sheet.dead:
            return ConditionEffects(
                turn_lost=DEAD,
                attack_barred=DEAD,
                no_movement=True,
                no_reaction=True,
                dead=True,
            )
        return ConditionEffects()

    def initiative_bonus(self, entity: EntitySheet) -> int:
        """What the battle's `Combatant.bonus` holds for a fantasy fighter: its AGI die's faces
        x 16 + its DES die's (F-1: AGI first, DES breaks ties)."""
        sheet = sheet_of(entity)
        return dice.FACES[sheet.agi] * AGI_WEIGHT + dice.FACES[sheet.des]

    def start_initiative(self, roller: Roller, combatants: Sequence[Combatant]) -> Initiative:
        """F-1: no roll; the order of the combatants' bonuses (`initiative_bonus`), equal ones
        in listing order (simultaneous in the seed: one after another here)."""
        entries = [InitiativeEntry(c, 0, c.bonus, i) for i, c in enumerate(combatants)]
        return order_keeper(entries)

    def initiative_order(self, bf: Battlefield, rolls: Mapping[str, int]) -> list[InitiativeEntry]:
        """F-1 for the entities named in `rolls` (their values are not used: no roll)."""
        fighters = {e: (sheet_of(bf.entity(e)).agi, sheet_of(bf.entity(e)).des) for e in rolls}
        done = combat.initiative(fighters)
        listed = {e: i for i, e in enumerate(rolls)}
        out = []
        for e in done.order:
            bonus = self.initiative_bonus(bf.entity(e))
            out.append(
                InitiativeEntry(Combatant(e, bf.entity(e).faction, bonus), 0, bonus, listed[e])
            )
        return out

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
        """F-3: 6 cells a turn (the sheet's movement), over the shared path search."""
        return cells_move(mode, combat.movement_allowance(sheet_of(entity)), ("F-3",))

    def sight(self, bf: Battlefield, frm: EntitySheet | Cell, to: EntitySheet | Cell) -> LosResult:
        # Enemies block and allies do not: the shared kernel's rule, as the query answers it.
        viewer = frm if isinstance(frm, EntitySheet) else bf.at(frm)
        a = frm.cell if isinstance(frm, EntitySheet) else frm
        b = to.cell if isinstance(to, EntitySheet) else to
        occupant = None if viewer is None else viewer.occupant
        return explain_line_of_sight(bf.grid, a, b, bf.occupancy, occupant)


BATTLE = FantasyBattle()
#: mypy checks here that the object implements the whole protocol.
_CHECKED: BattleRules = BATTLE
