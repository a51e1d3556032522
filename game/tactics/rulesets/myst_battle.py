"""Myst (seed 002, M-1, M-2) in battle: its answers to the battle's questions from the pure rules
of game/rules/myst/ over the shared grid.

Choices where the seed and the rulings leave the battle free (docs/rules.md, "Myst in battle"):
the attacker's margin is spent after the exchange and the damage dice (002:l.24), by the
attacker's `spend_margin` when its attack asked to choose, else by the computer's choice (every
5-point unit on Strength up to its cap, the rest on the die's minimum, nothing on reduction:
the most damage); a won defence takes its counter-moves from the defender's standing plan, else
the counterattack; the line of fire's partial obstruction (M-1's default) lowers the attack, but
a shot that strays is not rolled against the people in line yet; one exchange per round is the
turn's one attack (a defence costs no action; a second defence in a round is at -20); a charge
after 4 cells walked this turn and a sheet's two-handed grip raise the Strength cap (the turn's
and round's counts live in the sheet: game/rules/myst/round.py); people never block the line
of sight.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import Any

from game.grid.geometry import chebyshev
from game.grid.lines import cells_entered
from game.grid.los import LosResult, explain_line_of_sight
from game.grid.model import Cell
from game.grid.movement import MoveRequest
from game.rules import exact
from game.rules.data import Weapon as PeriferieWeapon
from game.rules.dice import Advantage, Roller, RollRecord
from game.rules.hit import NoChance
from game.rules.initiative import Combatant, Initiative, InitiativeEntry
from game.rules.movement import MoveAllowance
from game.rules.myst import combat, counters
from game.rules.myst import round as state
from game.rules.myst.data import MystRules, Sheet, Weapon, load
from game.rules.ruleset_answers import (
    Attack,
    AttackRoll,
    ConditionEffects,
    DamageChoice,
    DamagePlan,
    DamageRoll,
    DamageSpent,
    DefenceWon,
    GrabBreak,
    Harm,
    HealthShown,
    Modifier,
    Saddle,
    TurnBudget,
    WeaponShown,
)
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import BattleRules, CountersDefence, RidesHorses, ShapesDamage
from game.tactics.rulesets import myst_counters, myst_mounted
from game.tactics.rulesets.common_battle import (
    MOVE_AND_ACTION,
    NotOffered,
    cells_move,
    microgravity_move,
    order_keeper,
)
from game.tactics.rulesets.cover_seeking import worst_cover
from game.tactics.rulesets.improvised import MystImprovised

#: M-2: a move and one exchange (an attack) a turn; nothing else exists in Myst's battle.
BUDGET = MOVE_AND_ACTION
#: The condition code of a fighter whose Status Globale is 0 (M-2: out of the fight): the
#: battle's shared "out of combat".
OUT = "out_of_combat"
#: An attack on a fighter out of the fight already.
TARGET_OUT = "target_out_of_combat"


def rules() -> MystRules:
    return load()


def sheet_of(entity: EntitySheet) -> Sheet:
    """The entity's Myst sheet (the defaults for an entity built without one)."""
    return entity.sheet if isinstance(entity.sheet, Sheet) else rules().defaults


@dataclass(frozen=True)
class MystAttack:
    """Myst's own answer behind an `Attack`: the exchange and what resolving it needs."""

    exchange: combat.Exchange
    attacker: Sheet
    target: Sheet
    melee: bool
    in_line: tuple[str, ...]
    #: The charge, the two-handed grip and the second defence of this exchange (the sheets').
    situation: combat.Situation = field(default_factory=combat.Situation)
    #: What riding changes in it (002:l.118-185), None when neither side rides.
    mount: myst_mounted.Mount | None = None


def _weapon_roll(roller: Roller, weapon: Weapon) -> RollRecord:
    """The weapon's damage dice rolled with the battle's roller; a fixed damage ("1", a punch:
    002:l.91) is a roll of no dice, logged all the same."""
    if weapon.damage_min != weapon.damage_max:
        return roller.roll(weapon.damage, f"damage {weapon.id}")
    return RollRecord(
        purpose=f"damage {weapon.id}",
        expression=weapon.damage,
        dice=(),
        kept=(),
        dropped=(),
        modifier=weapon.damage_min,
        total=weapon.damage_min,
        target=None,
        target_kind=None,
        outcome=None,
        source="random",
        advantage=Advantage.NONE,
    )


def default_spend(
    data: MystRules,
    margin: int,
    strength: int,
    weapon: Weapon,
    *,
    two_handed: bool = False,
    charge: bool = False,
) -> combat.Spend:
    """M-1's margin spent by the computer's choice (and a player's who did not ask to
    choose): the most damage (`combat.most_damage`: Strength up to the cap, then the die's
    minimum up to the dice's maximum; never reduction). The die does not change it. A
    two-handed grip and a charge raise the cap (002:l.193, 234)."""
    waiting = combat.MarginToSpend(
        margin, weapon.damage_min, strength, weapon, two_handed=two_handed, charge=charge
    )
    return combat.most_damage(data, waiting)


def damage_from(
    data: MystRules,
    margin: int,
    rolled: int,
    strength: int,
    weapon: Weapon,
    *,
    two_handed: bool = False,
    charge: bool = False,
) -> int:
    """The damage a won exchange of `margin` does with the die showing `rolled` (M-1)."""
    raised = {"two_handed": two_handed, "charge": charge}
    spend = default_spend(data, margin, strength, weapon, **raised)
    return combat.spend_margin(data, margin, rolled, spend, strength, weapon, **raised).damage


@cache
def _difference() -> Mapping[int, Fraction]:
    return MappingProxyType(exact.distribution(exact.parse(f"{combat.DICE}-{combat.DICE}")))


@cache
def mean_damage(
    attack: int,
    defence: int,
    strength: int,
    weapon: Weapon,
    *,
    two_handed: bool = False,
    charge: bool = False,
) -> Fraction:
    """E[damage] of one exchange, exact: over the 3d10 - 3d10 difference (a positive margin
    wins) and the weapon's dice, the margin spent by default (M-1), the Strength cap raised
    by a two-handed grip or a charge (002:l.193, 234)."""
    data = rules()
    raised = {"two_handed": two_handed, "charge": charge}
    faces = exact.distribution(exact.parse(weapon.damage))
    total = Fraction(0)
    for diff, p in _difference().items():
        margin = attack - defence + diff
        if margin <= 0:
            continue
        mean = sum(
            (
                q * damage_from(data, margin, face, strength, weapon, **raised)
                for face, q in faces.items()
            ),
            Fraction(0),
        )
        total += p * mean
    return total


def in_line(bf: Battlefield, attacker: EntitySheet, target: EntitySheet) -> tuple[str, ...]:
    """M-1: every entity whose cell the centre-to-centre line enters, nearest first."""
    found: list[str] = []
    for cell in cells_entered(attacker.cell, target.cell):
        found.extend(o.id for o in bf.occupancy.all_at(cell))
    return tuple(found)


#: The exchange's own modifiers the breakdown names (explain.modifier_line), by their code in
#: game/rules/myst/combat.py, with their rulings.
_NAMED = {
    "mounted": ("myst_mounted", ("M-1",)),  # 002:l.128
    "target_mounted": ("myst_target_mounted", ("M-1",)),  # 002:l.128
    "second_defence": ("myst_second_defence", ("M-2",)),  # M-2's base, 002:l.77
    "closed_defence": ("myst_closed_defence", ("M-1", "M-2")),  # 002:l.81, 137; base assumed
}


def situation_notes(
    data: MystRules,
    done: combat.Exchange,
    attacker: Sheet,
    target: Sheet,
    situation: combat.Situation,
) -> tuple[Modifier, ...]:
    """The breakdown's lines for what changes the exchange besides the sheets' totals: riding
    (+10 to the rider's attack or defence), a second defence's -20 or its cancelling, and what
    raises the Strength cap (a charge +2, a two-handed grip +1)."""
    notes = [
        Modifier(_NAMED[m.code][0], m.value, _NAMED[m.code][1])
        for m in done.modifiers
        if m.code in _NAMED
    ]
    if state.penalty_cancelled(target):
        notes.append(Modifier("myst_penalty_cancelled", 0, ("M-1", "M-2")))
    if situation.charge:
        notes.append(Modifier("myst_charge", data.cap_charge, ("M-1",)))
    if situation.two_handed:
        notes.append(Modifier("myst_two_handed", data.cap_two_handed, ("M-1",)))
    return tuple(notes)


def situation_why(
    data: MystRules, attacker: Sheet, target: Sheet, situation: combat.Situation
) -> tuple[str, ...]:
    """The attack's reasons for the charge, the grip and a cancelled -20 (the log's `why`)."""
    why: list[str] = []
    if situation.charge:
        metres = attacker.run_up * state.CELL_METRES
        why.append(
            f"charge after a run-up of {attacker.run_up} cells ({metres:g} m, at "
            f"least {data.run_up_metres} m): Strength cap +{data.cap_charge}, a won defence "
            f"+{data.charge_defence_bonus} margin; the charger rolls for Priority: its attack "
            "in its own turn (002:l.189-193, M-1, M-2)"
        )
    if situation.two_handed:
        why.append(f"two-handed grip: Strength cap +{data.cap_two_handed} (002:l.234, M-1)")
    if state.penalty_cancelled(target):
        why.append("a defence margin cancelled this second defence's -20 (002:l.77, M-2)")
    if situation.closed_defence:
        why.append(
            f"the target is closed into defence: defence +{data.closed_defence_bonus} "
            "(assumed), a won defence only breaks off, for 0 (002:l.81-83, M-2)"
        )
    return tuple(why)


def situation_logged(
    attacker: Sheet, target: Sheet, situation: combat.Situation
) -> dict[str, object]:
    """The attack event's `situation` (codes) and a charge's `run_up` (cells), only when one
    applies: an exchange without them logs as it did before they existed."""
    codes = [
        code
        for code, held in (
            ("charge", situation.charge),
            ("two_handed", situation.two_handed),
            ("second_defence", situation.second_defence),
            ("penalty_cancelled", state.penalty_cancelled(target)),
            ("closed_defence", situation.closed_defence),
        )
        if held
    ]
    if not codes:
        return {}
    logged: dict[str, object] = {"situation": codes}
    if situation.charge:
        logged["run_up"] = attacker.run_up
    return logged


def _useful(
    data: MystRules, waiting: combat.MarginToSpend, spend: combat.Spend, done: combat.Damage
) -> combat.Spend:
    """`spend` without a die minimum that changes nothing once the die is known: 002:l.54-62
    raise the die's lowest score, so a minimum at or under what it shows (a 6 with a minimum
    of 2, a 1 with a minimum of 1) does nothing and is not offered (docs/rules.md)."""
    bare = replace(spend, minimum=0)
    if spend.minimum and combat.spent(data, waiting, bare).damage == done.damage:
        return bare
    return spend


def _uses(spend: combat.Spend) -> tuple[tuple[str, int], ...]:
    return (("strength", spend.strength), ("minimum", spend.minimum), ("reduce", spend.reduce))


def _no_attack(reason: str, rules_: tuple[str, ...], why: str, **values: object) -> Attack:
    return Attack(None, reason, (), rules_, (why,), values=values)


class MystBattle(NotOffered, MystImprovised, BattleRules):  # no throws in its seed (issue 15)
    """The battle side of seed 002 (game.tactics.ruleset.BattleRules)."""

    #: No reactions: an exchange is the whole of Myst's melee (M-2).
    reactions: frozenset[str] = frozenset()
    #: The computer attacks at once from an expected point of Status Globale.
    worth_attacking = Fraction(1)

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
        # `weapon` is periferie's record: a Myst fighter attacks with its sheet's weapon.
        data = rules()
        a_sheet, t_sheet = sheet_of(attacker), sheet_of(target)
        values = {"attacker": attacker.id, "target": target.id}
        if attacker.id == target.id:
            return _no_attack(NoChance.SELF_TARGET, (), "nobody attacks itself", **values)
        if a_sheet.out:
            return _no_attack(
                NoChance.OUT_OF_COMBAT, ("M-2",), f"{attacker.id} is out of the fight", **values
            )
        if t_sheet.out:
            return _no_attack(
                TARGET_OUT, ("M-2",), f"{target.id} is out of the fight already", **values
            )
        held = myst_counters.grab_bar(attacker)
        if held is not None:  # 002:l.109, 116: nobody in a grab acts until it is broken
            return _no_attack(held, ("M-1",), f"{attacker.id} is in a grab", **values)
        melee = a_sheet.weapon.melee
        distance = chebyshev(attacker.cell, target.cell)
        if melee and distance > data.melee_cells:
            return _no_attack(
                NoChance.OUT_OF_REACH,
                ("M-2", "G-4"),
                f"a melee attack reaches {data.melee_cells} cell(s); {target.id} is {distance}",
                distance=distance,
                **values,
            )
        sight = los if los is not None else self.sight(bf, attacker, target)
        if not sight.clear:
            return _no_attack(NoChance.NO_LOS, sight.rules, "no line of sight", **values)
        riding = myst_mounted.refused(a_sheet, t_sheet, melee=melee)
        if riding is not None:  # 002:l.138, 144-145: the gallop's and the pass's limits
            return _no_attack(riding[0], ("M-1",), riding[1], **values)
        line = () if melee else in_line(bf, attacker, target)
        situation = state.situation(data, a_sheet, t_sheet)
        done = combat.exchange(data, a_sheet, t_sheet, situation, in_line=len(line))
        done = myst_counters.counted(attacker, target, done)  # on the ground, pushed (l.101)
        ride = myst_mounted.mount(a_sheet, t_sheet, melee=melee)  # 002:l.136-152
        done = counters.with_modifiers(done, () if ride is None else ride.modifiers)
        notes = [
            Modifier("myst_attack", done.attack, ("M-1",)),
            Modifier("myst_defence", -done.defence, ("M-1",)),
            *situation_notes(data, done, a_sheet, t_sheet, situation),
            *myst_mounted.notes(ride),
        ]
        why: tuple[str, ...] = ()
        if worded:
            why = (
                f"attack {done.attack} + 3d10 against defence {done.defence} + 3d10 (M-1)",
                *(f"{m.code} {m.value:+d}" for m in done.modifiers),
                *((f"in the line of fire: {', '.join(line)}",) if line else ()),
                *situation_why(data, a_sheet, t_sheet, situation),
                *myst_mounted.why(ride),
            )
        return Attack(
            chance=done.chance,
            reason=None,
            modifiers=tuple(notes),
            rules=tuple(dict.fromkeys((*done.rules, "M-2"))),
            why=why,
            cover=None,
            detail=MystAttack(done, a_sheet, t_sheet, melee, line, situation, ride),
            values=values,
        )

    def roll_attack(
        self, roller: Roller, attack: Attack, advantage: Advantage, purpose: str
    ) -> AttackRoll:
        """M-1: attack total + 3d10 against defence total + 3d10, both rolled with the
        battle's roller; the attack wins on a higher total (a tie is nobody's)."""
        detail: MystAttack = attack.detail
        done = detail.exchange
        a = roller.roll("3d10", purpose)
        d = roller.roll("3d10", f"{purpose} defence")
        result = combat.resolve(
            rules(),
            done.attack,
            done.defence,
            a.dice,
            d.dice,
            detail.situation,
            melee=detail.melee,
        )
        logged: dict[str, object] = {
            "chance": exact.fraction_text(done.chance),
            "attack_total": result.attack_total,
            "defence_total": result.defence_total,
            "winner": result.winner,
            "margin": result.margin,
        }
        # Written only when one applies, so an exchange without them logs as it did.
        logged.update(situation_logged(detail.attacker, detail.target, detail.situation))
        hit = result.winner == "attack"
        logged.update(myst_mounted.struck(roller, detail.mount, hit, purpose))  # 002:l.150
        return AttackRoll(result.winner == "attack", a, MappingProxyType(logged))

    def roll_damage(
        self,
        roller: Roller,
        bf: Battlefield,
        attacker: EntitySheet | None,
        weapon: PeriferieWeapon,
        attack: Attack | None,
        roll: AttackRoll | None,
    ) -> DamageRoll:
        """A won exchange's damage: the sheet weapon's dice rolled with the battle's roller,
        the margin spent by the computer's choice (M-1, `default_spend`) and offered to the
        attacker as `choice` (`damage_choice`, `spend_damage`); without an exchange (an area or
        a throw, periferie's) the dice alone."""
        detail: MystAttack | None = None if attack is None else attack.detail
        sheet = detail.attacker if detail is not None else rules().defaults
        if detail is None and attacker is not None:
            sheet = sheet_of(attacker)
        arm = sheet.weapon
        record = _weapon_roll(roller, arm)
        if detail is None or roll is None:
            return DamageRoll(record, record.total, arm.type)
        margin = int(str(roll.logged["margin"]))
        data = rules()
        raised = detail.situation
        waiting = combat.MarginToSpend(
            margin,
            record.total,
            sheet.strength,
            arm,
            two_handed=raised.two_handed,
            charge=raised.charge,
            gallop=detail.mount is not None and detail.mount.gallop,  # 002:l.142
        )
        dealt = combat.spent(data, waiting, combat.most_damage(data, waiting))
        # A margin of a unit or more may be spent otherwise: the attacker's to choose (M-1).
        choice = waiting if combat.units_of(data, margin) > 0 else None
        # The sheet weapon's type (impatto/taglio/punta), not the map's weapon's, is the
        # damage the log names (M-2 counts no type).
        struck = myst_mounted.damage_type(roll, arm.type)  # the horse, 002:l.150
        return DamageRoll(record, dealt.damage, struck, choice=choice)

    def damage_choice(self, choice: Any) -> DamageChoice:
        """The margin's units, the Strength cap and the die's maximum, and one plan for each
        damage the margin can make of the die rolled, most first (M-1, 002:l.18-70)."""
        waiting: combat.MarginToSpend = choice
        data = rules()
        units = combat.units_of(data, waiting.margin)
        caps = (
            ("strength", min(units, combat.cap_of(data, waiting))),
            ("minimum", min(units, waiting.weapon.damage_max)),
            ("reduce", units),
        )
        plans = tuple(
            DamagePlan(_uses(_useful(data, waiting, spend, done)), done.damage)
            for spend, done in combat.plans(data, waiting)
        )
        return DamageChoice(units, caps, waiting.rolled, plans, ("M-1",))

    def spend_damage(self, choice: Any, uses: Mapping[str, int]) -> DamageSpent:
        """The damage of the waiting margin spent as `uses`, or the first rule it breaks:
        negative_spend, margin_overspent, over_strength_cap, over_die_maximum (M-1)."""
        waiting: combat.MarginToSpend = choice
        data = rules()
        unknown = sorted(set(uses) - set(combat.USES))
        if unknown:
            return DamageSpent(0, "unknown_margin_use", {"use": unknown[0]})
        spend = combat.Spend(**{name: uses.get(name, 0) for name in combat.USES})
        refused = combat.check_spend(data, waiting, spend)
        if refused is not None:
            return DamageSpent(0, refused.code, dict(refused.values))
        done = combat.spent(data, waiting, spend)
        why = (
            f"margin {waiting.margin}: {done.units} unit(s); Strength +{spend.strength} "
            f"(cap {done.strength_cap}), die minimum {spend.minimum}, reduced by "
            f"{spend.reduce}: die {waiting.rolled} -> {done.die}, damage {done.damage} (M-1)",
        )
        return DamageSpent(done.damage, None, {}, why)

    #: The defence margin's counter-moves (002:l.76-79) and the counterattack's forms besides
    #: the punch (002:l.97, 107), a standing plan's vocabulary.
    defence_moves: tuple[str, ...] = counters.PLAN_MOVES

    def computer_plan(
        self, bf: Battlefield, unit: EntitySheet, enemies: Sequence[EntitySheet]
    ) -> tuple[str, ...]:
        """The grab or the trip, whichever pays against the enemies that may strike `unit`
        before its next turn (docs/rules.md, "Myst counters in battle")."""
        return myst_counters.computer_plan(rules(), unit, enemies, self._harm)

    def keeps_grab(self, bf: Battlefield, unit: EntitySheet, other: EntitySheet) -> bool:
        """002:l.116: the grab trades both fighters' actions; kept while that pays."""
        allies = [e for e in bf.entities if e.faction == unit.faction]
        return myst_counters.keeps_grab(rules(), unit, other, allies, self._harm)

    @staticmethod
    def _harm(attack: int, defence: int, attacker: Sheet, situation: combat.Situation) -> Fraction:
        raised = {"two_handed": situation.two_handed, "charge": situation.charge}
        return mean_damage(attack, defence, attacker.strength, attacker.weapon, **raised)

    def break_off_cell(
        self, steps: Sequence[Cell], attacker: EntitySheet, defender: EntitySheet
    ) -> Cell | None:
        """002:l.78 "Rompere la mischia": the first free step out of the attacker's reach."""
        return myst_counters.break_off_cell(rules(), steps, attacker, defender)

    def break_grab(
        self, roller: Roller, breaker: EntitySheet, holder: EntitySheet, purpose: str
    ) -> GrabBreak:
        """002:l.113-114: the grabbed fighter's total + 3d10 against the holder's + 3d10."""
        mine, theirs = myst_counters.break_totals(rules(), sheet_of(breaker), sheet_of(holder))
        a = roller.roll(combat.DICE, purpose)
        d = roller.roll(combat.DICE, f"{purpose} holder")
        done = counters.break_grab(mine, theirs, a.dice, d.dice)
        return GrabBreak(done.breaker_total, done.holder_total, done.broken, (a, d))

    def defence_won(
        self,
        roller: Roller,
        bf: Battlefield,
        attacker: EntitySheet,
        target: EntitySheet,
        attack: Attack,
        roll: AttackRoll,
        plan: Sequence[str] | None,
    ) -> DefenceWon | None:
        """A won defence's counter-moves (002:l.74-79, 20 points each; against a ranged attack
        no counterattack or break-off): the plan's, else the computer's (`DEFAULT_DEFENCE_PLAN`:
        the counterattack). The counterattack is one move in one of its forms (002:l.87): the
        punch or kick ("counterattack", 002:l.89-91: 1 damage + the margin spent for the most,
        Strength up to its cap), the push or trip (002:l.97-101: a margin of 1-19 is that
        penalty on the attacker's next exchange, 20+ knocks it down) or the grab (002:l.107-116:
        both held until it is broken), each Corpo a Corpo against Corpo a Corpo + 3d10, shield
        not counted (`myst_counters.roll_counter`). Breaking off steps the defender away (the
        battle's, `DefenceWon.taken`). "Cancel the -20" spares the defender's next defence this
        round the second defence's -20 (`after`); "Priority next round" puts it before the
        attacker next round (`priority_over`; docs/rules.md, "Myst in battle"). A defender
        closed into defence only breaks off, for 0, when its plan names it (002:l.81-83); the
        attacker's answer to a counterattack is its own defence this round (`attacker_after`,
        at -20 when a second one: M-2, 002:l.91)."""
        if roll.logged.get("winner") != "defence":
            return None
        detail: MystAttack = attack.detail
        data = rules()
        margin = int(str(roll.logged["margin"]))
        closed = detail.situation.closed_defence
        options, units = combat.defence_options(data, margin, closed=closed, melee=detail.melee)
        chosen = combat.DEFAULT_DEFENCE_PLAN if plan is None else tuple(plan)
        if closed:
            taken = tuple(o for o in options if o in chosen)
        else:
            taken = counters.counter_moves(options, units, chosen)
        if not taken:
            return None
        # The target's sheet now (its defence counted), not the one it was attacked with.
        now = sheet_of(bf.by_id.get(target.id, target))
        after = state.after_counter_moves(now, taken)
        over = attacker.id if "priority" in taken else None
        kind = counters.counter_kind(taken)
        if kind is None:
            return DefenceWon(margin, units, taken, rules=("M-1",), after=after, priority_over=over)
        # The defender strikes back at the attacker: the exchange with the roles swapped, the
        # attacker's answer a defence of its own (002:l.91 "che può rispondere", M-2).
        foe = sheet_of(bf.by_id.get(attacker.id, attacker))
        second = state.second_defence(foe)
        done = myst_counters.roll_counter(
            roller, data, kind, target, attacker, detail.target, detail.attacker,
            second_defence=second,
        )  # fmt: skip
        logged = {**done.logged, **state.counter_logged(foe)}
        answered = state.countered(foe)
        if kind != "punch":
            effects, penalty = myst_counters.effects_of(done)
            return DefenceWon(
                margin, units, taken, logged, done.rolls, done.hit, 0, "", ("M-1",),
                after=after, priority_over=over, effects=effects, penalty=penalty,
                attacker_after=answered,
            )  # fmt: skip
        damage = combat.punch_damage(data, done.margin, detail.target.strength) if done.hit else 0
        weapon = data.weapons["pugno"]
        return DefenceWon(
            margin, units, taken, logged, done.rolls, done.hit, damage, weapon.type,
            ("M-1",), after=after, priority_over=over, attacker_after=answered,
        )  # fmt: skip

    def expected_harm(
        self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet, attack: Attack
    ) -> Fraction:
        """Expected Status Globale lost: the exchange's margin and the weapon's dice (M-1)."""
        if attack.chance is None:
            return Fraction(0)
        detail: MystAttack = attack.detail
        a, raised = detail.attacker, detail.situation
        return mean_damage(
            detail.exchange.attack,
            detail.exchange.defence,
            a.strength,
            a.weapon,
            two_handed=raised.two_handed,
            charge=raised.charge,
        )

    def damage(self, bf: Battlefield, target: EntitySheet, damage_type: str, rolled: int) -> Harm:
        """M-2: `rolled` (the damage the margin made of the die) lowers Status Globale; the
        health value after is the sheet itself; 0 is out of the fight."""
        sheet = sheet_of(target)
        if damage_type == myst_mounted.HORSE:  # 002:l.150: the horse takes the hit
            ridden, hurt, said = myst_mounted.horse_harm(sheet, rolled)
            return Harm(rolled, ridden, hurt, ("M-1", "M-2"), (said,))
        after = combat.damaged(sheet, rolled)
        effects = (OUT,) if after.out and not sheet.out else ()
        why = (f"Status Globale {sheet.status} - {rolled} = {after.status}",)
        return Harm(rolled, after, effects, ("M-2",), why)

    # ---------------------------------------------------------------- riding (002:l.118-185)
    def declare_gait(self, sheet: Any, gait: str) -> Any:
        """002:l.153: a change of gait declared, taken at the rider's next turn."""
        return myst_mounted.declare_gait(sheet, gait)

    def strike_horse(self, sheet: Any, on: bool) -> Any:
        """002:l.150: a melee attacker names whom it strikes, the rider or the horse."""
        return myst_mounted.strike_horse(sheet, on)

    def after_exchange(
        self, roller: Roller, sheet: Any, attack: Attack, roll: AttackRoll
    ) -> tuple[Saddle, ...]:
        """The gallop's defender, the extra Cavalcare roll and the fall (002:l.144-185)."""
        if not isinstance(sheet, Sheet) or not isinstance(attack.detail, MystAttack):
            return ()
        return myst_mounted.after_exchange(roller, sheet, attack, roll)

    def horse_fall(self, roller: Roller, sheet: Any) -> tuple[Saddle, ...]:
        """A rider whose horse is down falls (002:l.156)."""
        return myst_mounted.horse_fall(roller, sheet) if isinstance(sheet, Sheet) else ()

    def computer_gait(
        self, bf: Battlefield, unit: EntitySheet, enemies: Sequence[EntitySheet]
    ) -> str | None:
        """The gait a computer rider declares now, None to keep it (myst_mounted)."""
        return myst_mounted.computer_gait(unit, enemies, rules().melee_cells)

    def computer_at_horse(
        self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet
    ) -> bool:
        """Whether a computer's melee blow at `target` aims at its horse (002:l.150): the blow
        tried both ways with the battle's own exchange and expected harm."""
        a, t = sheet_of(attacker), sheet_of(target)
        if not (a.weapon.melee and t.mounted):
            return False

        def harm(on: bool) -> Fraction:
            unit = replace(attacker, sheet=replace(a, at_horse=on))
            return self.expected_harm(bf, unit, target, self.attack(bf, unit, target, worded=False))

        return myst_mounted.horse_pays(t, harm(False), harm(True))

    def condition_effects(self, health: Any) -> ConditionEffects:
        sheet: Sheet = health
        if sheet.out:
            return ConditionEffects(
                turn_lost=OUT,
                attack_barred=OUT,
                no_movement=True,
                no_reaction=True,
                out_of_combat=True,
            )
        return ConditionEffects()

    def initiative_bonus(self, entity: EntitySheet) -> int:
        """What the battle's `Combatant.bonus` holds for a Myst fighter: its sheet priority."""
        return sheet_of(entity).priority

    def start_initiative(self, roller: Roller, combatants: Sequence[Combatant]) -> Initiative:
        """M-2: Priority = sheet priority (the combatant's bonus) + 1d10 rolled with the
        battle's roller, highest first; equal: the higher sheet priority, then listing order
        (those equal in both would act together: the shared order runs them one after
        another). Arrivals later in the battle join by the shared d20 roll."""
        rolled = []
        for listed, c in enumerate(combatants):
            record = roller.roll(
                f"1d{rules().priority_die}", f"initiative {c.entity_id}", secret=c.hidden
            )
            rolled.append(InitiativeEntry(c, record.total, c.bonus + record.total, listed, record))
        return order_keeper(rolled)

    def initiative_order(self, bf: Battlefield, rolls: Mapping[str, int]) -> list[InitiativeEntry]:
        priorities = {e: sheet_of(bf.entity(e)).priority for e in rolls}
        done = combat.priority_order(priorities, rolls, rules().priority_die)
        listed = {e: i for i, e in enumerate(rolls)}
        return [
            InitiativeEntry(
                Combatant(e, bf.entity(e).faction, priorities[e]),
                rolls[e],
                done.scores[e],
                listed[e],
            )
            for e in done.order
        ]

    def turn_budget(self) -> TurnBudget:
        return myst_counters.BUDGET  # BUDGET, with standing up and breaking a grab

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
        """M-2: the sheet's speed in cells, over the shared path search and its terrain (in
        microgravity pushing off and thrusters too, docs/rules.md)."""
        cells = combat.movement_allowance(sheet_of(entity))
        if myst_counters.still(entity):  # on the ground or in a grab (002:l.101, 116)
            return cells_move(mode, 0, ("M-1", "M-2"))
        return microgravity_move(bf, entity, mode, cells_move(mode, cells, ("M-2",)), cells)

    def sight(self, bf: Battlefield, frm: EntitySheet | Cell, to: EntitySheet | Cell) -> LosResult:
        # M-1: people never block the line (those in it are friendly fire): terrain only.
        a = frm.cell if isinstance(frm, EntitySheet) else frm
        b = to.cell if isinstance(to, EntitySheet) else to
        return explain_line_of_sight(bf.grid, a, b)

    # ---------------------------------------------------------------- the computer's cover
    def attack_weapon(self, attack: Attack) -> WeaponShown | None:
        """The sheet's weapon the exchange was fought with, not the map's."""
        detail: MystAttack | None = attack.detail
        return None if detail is None else shown_weapon(detail.attacker.weapon)

    def carries_weapon(self, sheet: Any) -> bool | None:
        """The sheet's own weapon decides: a sample sheet arms a unit the map left unarmed
        (unlike Cepheus's and d20's, whose sheet weapon is the map's periferie one translated)."""
        return isinstance(sheet, Sheet) and sheet.weapon is not None

    def cover_value(
        self, bf: Battlefield, unit: EntitySheet, threats: Sequence[EntitySheet]
    ) -> Fraction:
        """M-1 (002:l.256): the penalty a ranged attack at `unit` takes for the entities in its
        line of fire (partial obstruction), from the threats that shoot; seen by none of them
        counts as obstructed. A melee attack has no such penalty: against melee threats alone
        no cell is better than another (0). Terrain gives the seed's passive cover only by the
        GM's word."""
        shooters = [t for t in threats if not sheet_of(t).weapon.melee]
        if not shooters:
            return Fraction(0)
        best = Fraction(rules().partial_penalty)

        def value(threat: EntitySheet) -> Fraction:
            return best if in_line(bf, threat, unit) else Fraction(0)

        return worst_cover(self.sight, bf, unit, shooters, value, best)

    # ---------------------------------------------------------------- the weapon named
    def sheet_weapon(self, sheet: Any) -> WeaponShown | None:
        """The sheet's own weapon (a sample sheet's, whatever the map gave the unit)."""
        return shown_weapon(sheet.weapon) if isinstance(sheet, Sheet) else None

    # ---------------------------------------------------------------- the turn's and round's state
    #: A round's defences and a turn's run-up end with them (game/tactics/rulesets/myst_round.py).
    round_rules = myst_mounted.ROUND  # ROUND with the riders' gait and gallop (002:l.144, 153)

    def after_step(self, sheet: Any) -> Any:
        """One more cell walked this turn: a charge's run-up (002:l.189)."""
        return state.walked(sheet) if isinstance(sheet, Sheet) else sheet

    def after_defence(self, sheet: Any, attack: Attack) -> Any:
        """The target defended: one more defence this round (M-2), a cancelled -20 used."""
        if not isinstance(sheet, Sheet) or not isinstance(attack.detail, MystAttack):
            return sheet
        return state.defended(sheet)

    # ---------------------------------------------------------------- the unit card (issue 16)
    def health_shown(self, sheet: Any) -> HealthShown | None:
        """M-2: Status Globale now and at most (0 is out of the fight); the shield's bonus (in
        the defence total) is the sheet's only protection: M-2 keeps no armour. The pips are a
        display band, not a rule (the seed has none): hurt, then at half or less, then out.
        A rider adds its horse's Status Globale (its side's only), its gait and a declared
        change (002:l.153); a closed defence is noted (both known to anyone who sees it)."""
        if not isinstance(sheet, Sheet):
            return None
        now, most = sheet.status, sheet.status_max
        low = 2 * now <= most
        band = "out" if sheet.out else "badly_hurt" if low else "hurt" if now < most else "unhurt"
        pips = {"out": ("mortal",), "badly_hurt": ("grave",), "hurt": ("light",)}.get(band, ())
        shield = (("shield", sheet.shield),) if sheet.shield else ()
        rows = (("status", now, most), *myst_mounted.horse_row(sheet))
        # 002:l.137: closing into defence gives up the action in everyone's sight: public.
        closed = (("closed_defence", ""),) if sheet.closed_defence else ()
        notes = (*myst_mounted.gait_notes(sheet), *closed)
        return HealthShown("status", band, pips, rows, shield, notes=notes)


def shown_weapon(weapon: Weapon) -> WeaponShown:
    """A Myst weapon as the card and the log name it: weapons.toml's id, its name, its dice."""
    return WeaponShown(weapon.id, weapon.name, weapon.damage)


BATTLE = MystBattle()
#: mypy checks here that the object implements the whole protocol.
_CHECKED: BattleRules = BATTLE
_SHAPES: ShapesDamage = BATTLE
_COUNTERS: CountersDefence = BATTLE
_RIDES: RidesHorses = BATTLE
