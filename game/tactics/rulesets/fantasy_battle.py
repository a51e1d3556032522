"""The dice-step fantasy system (seed 003, F-1..F-3) in battle: its answers to the battle's
questions from the pure rules of game/rules/fantasy/ over the shared grid.

Choices where the seed and the rulings leave the battle free (docs/rules.md, "Dice-step fantasy
in battle"): initiative is the sheets' AGI then DES dice, no roll, and those equal in both act
in listing order as one simultaneous group whose harm is applied when the last of them ends
its turn (`acts_with`); a turn is a move and one attack (003:l.55 lets a fighter that closes in
attack in the same turn) or a turn of reloading (CAD, 003:l.140); each attack is defended with
the target's next defence since its own turn began, in its sheet's order (003:l.160-165,
`after_defence`), one ranged attack a turn defended; enemies block the
line of sight and allies do not (the shared kernel's rule, as the query answers it); leaving
an enemy's melee reach is fleeing (003:l.67): the enemy's free attack from behind is the
shared opportunity reaction, a check against the DP with no defence (`reaction_attack`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
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
    HealthShown,
    Modifier,
    TurnBudget,
    TurnEffects,
    WeaponShown,
)
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import BattleRules, NoTurnEffects
from game.tactics.rulesets.common_battle import (
    MOVE_AND_ACTION,
    NotOffered,
    cells_move,
    microgravity_move,
    order_keeper,
)
from game.tactics.rulesets.cover_seeking import worst_cover
from game.tactics.rulesets.improvised import FantasyImprovised
from game.text import explain
from game.text.i18n import speaking
from game.text.names import sample_name, weapon_name

#: 003:l.4, 55: one action a turn, and a fighter that closes in may attack in the same turn;
#: reloading a CAD weapon is the action "Preparare l'Arma" (003:l.52, 140).
BUDGET = TurnBudget(
    slots=MOVE_AND_ACTION.slots,
    costs=MappingProxyType({**MOVE_AND_ACTION.costs, "reload": "action"}),
)
#: The condition of a fighter with every body point lost (003:l.184).
DEAD = "dead"
#: A ranged attack from a fighter engaged in melee (003:l.61).
ENGAGED = "engaged"
#: An attack on a fighter already dead.
TARGET_DEAD = "target_dead"
#: A ranged weapon still being reloaded (003:l.140).
RELOADING = "reloading"
#: A fighter whose weapon is not for melee strikes a fleeing enemy bare-handed (003:l.79).
BARE_HAND = Weapon("Pugno", "melee", None, "1d3", id="pugno")
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


def _defence_why(
    target: Sheet, melee: bool, defended: bool, situation: combat.Situation
) -> tuple[str, ...]:
    """Why the defence is lowered or missing: the defences made since the target's turn."""
    if melee and defended and situation.attacker_index > 1:
        return (
            f"attack {situation.attacker_index} on the target since its turn: the next "
            "defence skill, or AGI one die lower per attacker beyond the first (003:l.160-164)",
        )
    if not melee and situation.ranged_defended and not defended:
        return ("the target defended a ranged attack this turn already: unaware (003:l.165)",)
    return ()


def _no_attack(reason: str, rules_: tuple[str, ...], why: str, **values: object) -> Attack:
    return Attack(None, reason, (), rules_, (why,), values=values)


# NotOffered: no throws in its seed (issue 15); NoTurnEffects: only `turn_begins` has one.
class FantasyBattle(NotOffered, FantasyImprovised, NoTurnEffects, BattleRules):
    """The battle side of seed 003 (game.tactics.ruleset.BattleRules)."""

    #: 003:l.67: leaving an enemy's melee reach gives it a free attack from behind (the
    #: shared "opportunity" reaction, asked through `reaction_attack`).
    reactions: frozenset[str] = frozenset({"opportunity_attack"})
    #: The computer attacks at once from an expected half body point.
    worth_attacking = Fraction(1, 2)

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
        return self._attack(bf, attacker, target, los, worded=worded, fleeing=False)

    def reaction_attack(
        self,
        bf: Battlefield,
        attacker: EntitySheet,
        target: EntitySheet,
        weapon: PeriferieWeapon,
    ) -> Attack:
        """003:l.67 "L'avversario guadagna un attacco alle spalle verso il fuggitivo, senza che
        questi possa in alcun modo difendersi": a check against the DP, no defence (003:l.110);
        in melee, with the sheet's weapon or, a ranged one in hand, bare-handed."""
        return self._attack(bf, attacker, target, None, worded=True, fleeing=True)

    def _attack(
        self,
        bf: Battlefield,
        attacker: EntitySheet,
        target: EntitySheet,
        los: LosResult | None,
        *,
        worded: bool,
        fleeing: bool,
    ) -> Attack:
        data = rules()
        a_sheet, t_sheet = sheet_of(attacker), sheet_of(target)
        arm = a_sheet.weapon
        if fleeing and not arm.melee:
            arm = BARE_HAND
        values = {"attacker": attacker.id, "target": target.id}
        if attacker.id == target.id:
            return _no_attack(NoChance.SELF_TARGET, (), "nobody attacks itself", **values)
        if a_sheet.dead:
            return _no_attack(NoChance.DEAD, ("F-2",), f"{attacker.id} is dead", **values)
        if t_sheet.dead:
            return _no_attack(TARGET_DEAD, ("F-2",), f"{target.id} is dead already", **values)
        if not arm.melee and a_sheet.reload:
            with speaking("en"):  # the answer's `why` is English, its weapon too ("Crossbow")
                named = weapon_name(arm.id, arm.name)
            return _no_attack(
                RELOADING,
                ("F-3",),
                f"{named} needs {a_sheet.reload} more turn(s) of reloading (003:l.140)",
                turns=a_sheet.reload,
                **values,
            )
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
        # 003:l.160-165: the defences the target made since its own turn began (the sheet's
        # count, `after_defence`) lower the next one; one ranged attack a turn is defended.
        situation = combat.Situation(fleeing=fleeing, attacker_index=t_sheet.defended + 1)
        rule_ids: list[str] = ["F-1", "F-2"]
        grade: str | None = None
        if not arm.melee:
            cover = tactics.target_cover(bf, attacker, target, detail=False)
            grade = cover.grade
            rule_ids += list(cover.rules)
            situation = combat.Situation(
                cover=grade,
                target_engaged=engaged(bf, target, besides=attacker),
                ranged_defended=t_sheet.ranged_defended,
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
                *_defence_why(t_sheet, arm.melee, plan.defence_dice is not None, situation),
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
            # The defence rolled (003:l.160-166), whatever the outcome: the log words it.
            "defence_dice": None if plan.defence_dice is None else "+".join(plan.defence_dice),
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
        The location the hit's d100 chose is the damage type `damage` is given."""
        detail: FantasyAttack | None = None if attack is None else attack.detail
        if detail is not None:
            arm = detail.weapon
        else:
            arm = (rules().defaults if attacker is None else sheet_of(attacker)).weapon
        # The purpose names the weapon by its data id (names.purpose_text words it).
        record = roller.roll(arm.damage, f"damage {arm.id or arm.name}")
        location = None if roll is None else roll.logged.get("location")
        return DamageRoll(record, record.total, location if isinstance(location, str) else None)

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
        """003:l.174-184: `rolled` points at the location `damage_type` names (the hit's d100,
        `roll_damage`), else the torso: the armour there first, the rest
        blackens body boxes from Lieve down; the health value after is the sheet itself."""
        data = rules()
        sheet = sheet_of(target)
        names = [name for name, _ in data.locations]
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

    def after_defence(self, sheet: Any, attack: Attack) -> Any:
        """003:l.160-165: the target defended (its plan had a defence): one more melee
        defence since its turn began, or its one ranged defence of the turn used."""
        detail = attack.detail
        if not isinstance(sheet, Sheet) or not isinstance(detail, FantasyAttack):
            return sheet
        if detail.plan.defence_dice is None:
            return sheet  # unaware, fleeing, a second ranged attack: nothing defended
        if detail.weapon.melee:
            return replace(sheet, defended=sheet.defended + 1)
        return replace(sheet, ranged_defended=True)

    # The defences counted above last until the defender's own turn begins (003:l.160-165:
    # "per ogni attaccante", a turn's attackers; RULESETS.md 2.4 "one ranged attack a turn").
    def turn_begins(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, health: Any
    ) -> TurnEffects:
        if isinstance(health, Sheet) and (health.defended or health.ranged_defended):
            return TurnEffects(replace(health, defended=0, ranged_defended=False))
        return TurnEffects(health)

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
        in listing order, acting as one simultaneous group (`acts_with`)."""
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
        """F-3: 6 cells a turn (the sheet's movement), over the shared path search. Where there
        is no gravity those cells also push off a surface, and a map unit that wears thrusters
        (the hull's void marines) flies them (docs/rules.md)."""
        cells = combat.movement_allowance(sheet_of(entity))
        return microgravity_move(bf, entity, mode, cells_move(mode, cells, ("F-3",)), cells)

    def sight(self, bf: Battlefield, frm: EntitySheet | Cell, to: EntitySheet | Cell) -> LosResult:
        # Enemies block and allies do not: the shared kernel's rule, as the query answers it.
        viewer = frm if isinstance(frm, EntitySheet) else bf.at(frm)
        a = frm.cell if isinstance(frm, EntitySheet) else frm
        b = to.cell if isinstance(to, EntitySheet) else to
        occupant = None if viewer is None else viewer.occupant
        return explain_line_of_sight(bf.grid, a, b, bf.occupancy, occupant)

    # ---------------------------------------------------------------- the computer's cover
    def carries_weapon(self, sheet: Any) -> bool | None:
        """The sheet's own weapon decides: a sample sheet arms a unit the map left unarmed
        (unlike Cepheus's and d20's, whose sheet weapon is the map's periferie one translated)."""
        return isinstance(sheet, Sheet) and sheet.weapon is not None

    def cover_value(
        self, bf: Battlefield, unit: EntitySheet, threats: Sequence[EntitySheet]
    ) -> Fraction:
        """003:l.83, F-3 (assumed): the DP a ranged attack at `unit` gets from its cover grade
        on the shared grid, from the threats that shoot; the best grade's when none of them
        sees it. A melee attack gets none: against melee threats alone no cell is better than
        another (0)."""
        shooters = [t for t in threats if not sheet_of(t).weapon.melee]
        if not shooters:
            return Fraction(0)
        cover_dp = rules().cover_dp
        best = Fraction(max(cover_dp.values(), default=0))

        def value(threat: EntitySheet) -> Fraction:
            grade = tactics.target_cover(bf, threat, unit, detail=False).grade
            return Fraction(cover_dp.get(grade, 0))

        return worst_cover(self.sight, bf, unit, shooters, value, best)

    # ------------------------------------------------------------ CAD, groups, the tracker
    def reloading(self, sheet: Any) -> int:
        """003:l.140: turns of reloading left before the weapon fires again."""
        return sheet.reload if isinstance(sheet, Sheet) else 0

    def after_attack(self, sheet: Any, attack: Attack) -> Any:
        """003:l.140: a ranged weapon of CAD n fires, then takes n - 1 turns of "Preparare
        l'Arma" ("CAD 2 ... tirano un turno sì e uno no", "3 ... impiegano i 2 seguenti")."""
        detail = attack.detail
        if not isinstance(sheet, Sheet) or not isinstance(detail, FantasyAttack):
            return sheet
        if detail.weapon.melee or detail.weapon.cad <= 1:
            return sheet
        return replace(sheet, reload=detail.weapon.cad - 1)

    def reload(self, sheet: Any) -> Any:
        """One turn of "Preparare l'Arma" (003:l.52, 140)."""
        if not isinstance(sheet, Sheet) or not sheet.reload:
            return sheet
        return replace(sheet, reload=sheet.reload - 1)

    def acts_with(self, order: Sequence[InitiativeEntry], unit: str) -> tuple[str, ...]:
        """F-1, 003:l.13: equal AGI and DES (the same total, `initiative_bonus`) act together,
        their results counted after each of them has acted."""
        mine = next((e.total for e in order if e.entity_id == unit), None)
        group = tuple(e.entity_id for e in order if e.total == mine)
        return group if len(group) > 1 else ()

    def initiative_text(self, total: int) -> str:
        """The tracker's words for an order key: the AGI and DES dice it was made from."""
        agi, des = divmod(total, AGI_WEIGHT)
        return explain.fantasy_initiative(_die_name(agi), _die_name(des))

    def attack_weapon(self, attack: Attack) -> WeaponShown | None:
        """The sheet's weapon the attack was made with (003:l.75), not the map's."""
        detail: FantasyAttack | None = attack.detail
        return None if detail is None else shown_weapon(detail.weapon)

    def sheet_text(self, sheet: Any) -> str:
        """The sample's dice, weapon (its attack dice and damage, CAD), DP and body points."""
        if not isinstance(sheet, Sheet):
            return ""
        arm = sheet.weapon
        skill = sheet.skills.get(arm.skill) if arm.skill else None
        first = sheet.pot if arm.melee else sheet.pre
        return explain.fantasy_sheet(
            sample_name(sheet.sample) if sheet.sample else "",
            (sheet.agi, sheet.des, sheet.pot, sheet.pre),
            weapon_name(arm.id, arm.name),
            "+".join(d for d in (first, skill) if d),
            arm.damage,
            arm.cad,
            sheet.dp,
            sheet.body_total,
        )

    # ---------------------------------------------------------------- the weapon named
    def sheet_weapon(self, sheet: Any) -> WeaponShown | None:
        """The sheet's own weapon (003:l.75; a sample sheet's, whatever the map gave)."""
        return shown_weapon(sheet.weapon) if isinstance(sheet, Sheet) else None

    # ---------------------------------------------------------------- the unit card (issue 16)
    def health_shown(self, sheet: Any) -> HealthShown | None:
        """003:l.174-185: the body boxes lost per section, blackened from Lieve down, and the
        deepest full section's penalty (F-3); the armour points left per location (a destroyed
        protection is gone) and the DP (l.76). State: the deepest section reached; a pip per
        section reached, Lieve and Serio yellow, Grave and Critico orange, Mortale red."""
        if not isinstance(sheet, Sheet):
            return None
        data, left, rows = rules(), sheet.body_lost, []
        for section in data.sections:
            boxes = sheet.body.get(section, 0)
            rows.append((section, min(left, boxes), boxes))
            left -= min(left, boxes)
        reached = [section for section, lost, _boxes in rows if lost]
        state = "dead" if sheet.dead else reached[-1] if reached else "unhurt"
        pips = tuple(SECTION_PIPS.get(s, "grave") for s in reversed(reached))
        armour = [(p, sheet.armour[p]) for p, _top in data.locations if sheet.armour.get(p)]
        armour.append(("dp", sheet.dp))
        penalty = combat.section_penalty(data, sheet.body, sheet.body_lost)
        return HealthShown("body", state, pips, tuple(rows), tuple(armour), penalty)


#: The token's pip for a body section reached (the window's three colours for five sections).
SECTION_PIPS = {
    "lieve": "light",
    "serio": "light",
    "grave": "grave",
    "critico": "grave",
    "mortale": "mortal",
}


def shown_weapon(weapon: Weapon) -> WeaponShown:
    """A fantasy weapon as the card and the log name it: its data id, name and dice."""
    return WeaponShown(weapon.id, weapon.name, weapon.damage)


def _die_name(faces: int) -> str:
    return next((d for d, f in dice.FACES.items() if f == faces and f), "-")


BATTLE = FantasyBattle()
#: mypy checks here that the object implements the whole protocol.
_CHECKED: BattleRules = BATTLE
