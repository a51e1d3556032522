"""Myst (seed 002, M-1, M-2) in battle: its answers to the battle's questions from the pure rules
of game/rules/myst/ over the shared grid.

Choices where the seed and the rulings leave the battle free (docs/rules.md, "Myst in battle"):
the attacker's margin is spent after the exchange and the damage dice (002:l.24), by the
attacker's `spend_margin` when its attack asked to choose, else by the computer's choice (every
5-point unit on Strength up to its cap, the rest on the die's minimum, nothing on reduction:
the most damage); a won defence takes its counter-moves from the defender's standing plan, else
the counterattack; the line of fire's partial obstruction (M-1's default) lowers the attack, but
a shot that strays is not rolled against the people in line yet; one exchange per round is the
turn's one attack (a defence costs nothing and the second-defence penalty is not counted);
people never block the line of sight.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
from game.rules.myst import combat
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
    Harm,
    Modifier,
    TurnBudget,
)
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import BattleRules, CountersDefence, ShapesDamage
from game.tactics.rulesets.common_battle import (
    MOVE_AND_ACTION,
    NotOffered,
    cells_move,
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


def default_spend(data: MystRules, margin: int, strength: int, weapon: Weapon) -> combat.Spend:
    """M-1's margin spent by the computer's choice (and a player's who did not ask to
    choose): the most damage (`combat.most_damage`: Strength up to the cap, then the die's
    minimum up to the dice's maximum; never reduction). The die does not change it."""
    waiting = combat.MarginToSpend(margin, weapon.damage_min, strength, weapon)
    return combat.most_damage(data, waiting)


def damage_from(data: MystRules, margin: int, rolled: int, strength: int, weapon: Weapon) -> int:
    """The damage a won exchange of `margin` does with the die showing `rolled` (M-1)."""
    spend = default_spend(data, margin, strength, weapon)
    return combat.spend_margin(data, margin, rolled, spend, strength, weapon).damage


@cache
def _difference() -> Mapping[int, Fraction]:
    return MappingProxyType(exact.distribution(exact.parse(f"{combat.DICE}-{combat.DICE}")))


@cache
def mean_damage(attack: int, defence: int, strength: int, weapon: Weapon) -> Fraction:
    """E[damage] of one exchange, exact: over the 3d10 - 3d10 difference (a positive margin
    wins) and the weapon's dice, the margin spent by default (M-1)."""
    data = rules()
    faces = exact.distribution(exact.parse(weapon.damage))
    total = Fraction(0)
    for diff, p in _difference().items():
        margin = attack - defence + diff
        if margin <= 0:
            continue
        mean = sum(
            (q * damage_from(data, margin, face, strength, weapon) for face, q in faces.items()),
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
        line = () if melee else in_line(bf, attacker, target)
        done = combat.exchange(data, a_sheet, t_sheet, combat.Situation(), in_line=len(line))
        notes = [
            Modifier("myst_attack", done.attack, ("M-1",)),
            Modifier("myst_defence", -done.defence, ("M-1",)),
        ]
        why: tuple[str, ...] = ()
        if worded:
            why = (
                f"attack {done.attack} + 3d10 against defence {done.defence} + 3d10 (M-1)",
                *(f"{m.code} {m.value:+d}" for m in done.modifiers),
                *((f"in the line of fire: {', '.join(line)}",) if line else ()),
            )
        return Attack(
            chance=done.chance,
            reason=None,
            modifiers=tuple(notes),
            rules=tuple(dict.fromkeys((*done.rules, "M-2"))),
            why=why,
            cover=None,
            detail=MystAttack(done, a_sheet, t_sheet, melee, line),
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
            combat.Situation(),
            melee=detail.melee,
        )
        logged = {
            "chance": exact.fraction_text(done.chance),
            "attack_total": result.attack_total,
            "defence_total": result.defence_total,
            "winner": result.winner,
            "margin": result.margin,
        }
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
        waiting = combat.MarginToSpend(margin, record.total, sheet.strength, arm)
        dealt = combat.spent(data, waiting, combat.most_damage(data, waiting))
        # A margin of a unit or more may be spent otherwise: the attacker's to choose (M-1).
        choice = waiting if combat.units_of(data, margin) > 0 else None
        # The sheet weapon's type (impatto/taglio/punta), not the map's weapon's, is the
        # damage the log names (M-2 counts no type).
        return DamageRoll(record, dealt.damage, arm.type, choice=choice)

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
            DamagePlan(_uses(spend), done.damage) for spend, done in combat.plans(data, waiting)
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

    #: The defence margin's counter-moves (002:l.76-79), a standing plan's vocabulary.
    defence_moves: tuple[str, ...] = combat.DEFENCE_OPTIONS

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
        the counterattack). A counterattack is a punch or kick (002:l.89-91): Corpo a Corpo
        against Corpo a Corpo + 3d10 each, shield not counted, 1 damage + the margin spent
        for the most (Strength up to its cap). The other moves are taken and told; the
        battle's base has nothing for them to change (docs/rules.md, "Myst in battle")."""
        if roll.logged.get("winner") != "defence":
            return None
        detail: MystAttack = attack.detail
        data = rules()
        margin = int(str(roll.logged["margin"]))
        options, units = combat.defence_options(data, margin, closed=False, melee=detail.melee)
        chosen = combat.DEFAULT_DEFENCE_PLAN if plan is None else tuple(plan)
        taken = combat.counter_moves(options, units, chosen)
        if not taken:
            return None
        if "counterattack" not in taken:
            return DefenceWon(margin, units, taken, rules=("M-1",))
        # The defender strikes back at the attacker: the exchange with the roles swapped.
        punch = combat.Situation(counter="punch")
        done = combat.exchange(data, detail.target, detail.attacker, punch)
        a = roller.roll(combat.DICE, f"counter {target.id}")
        d = roller.roll(combat.DICE, f"counter {target.id} defence")
        result = combat.resolve(data, done.attack, done.defence, a.dice, d.dice, punch)
        hit = result.winner == "attack"
        damage = combat.punch_damage(data, result.margin, detail.target.strength) if hit else 0
        logged = {
            "counter_attack_total": result.attack_total,
            "counter_defence_total": result.defence_total,
            "counter_margin": result.margin,
        }
        weapon = data.weapons["pugno"]
        return DefenceWon(margin, units, taken, logged, (a, d), hit, damage, weapon.type, ("M-1",))

    def expected_harm(
        self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet, attack: Attack
    ) -> Fraction:
        """Expected Status Globale lost: the exchange's margin and the weapon's dice (M-1)."""
        if attack.chance is None:
            return Fraction(0)
        detail: MystAttack = attack.detail
        a = detail.attacker
        return mean_damage(detail.exchange.attack, detail.exchange.defence, a.strength, a.weapon)

    def damage(self, bf: Battlefield, target: EntitySheet, damage_type: str, rolled: int) -> Harm:
        """M-2: `rolled` (the damage the margin made of the die) lowers Status Globale; the
        health value after is the sheet itself; 0 is out of the fight."""
        sheet = sheet_of(target)
        after = combat.damaged(sheet, rolled)
        effects = (OUT,) if after.out and not sheet.out else ()
        why = (f"Status Globale {sheet.status} - {rolled} = {after.status}",)
        return Harm(rolled, after, effects, ("M-2",), why)

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
        """M-2: the sheet's speed in cells, over the shared path search and its terrain."""
        cells = combat.movement_allowance(sheet_of(entity))
        return cells_move(mode, cells, ("M-2",))

    def sight(self, bf: Battlefield, frm: EntitySheet | Cell, to: EntitySheet | Cell) -> LosResult:
        # M-1: people never block the line (those in it are friendly fire): terrain only.
        a = frm.cell if isinstance(frm, EntitySheet) else frm
        b = to.cell if isinstance(to, EntitySheet) else to
        return explain_line_of_sight(bf.grid, a, b)

    # ---------------------------------------------------------------- the computer's cover
    def attack_weapon(self, attack: Attack) -> str | None:
        """The sheet's weapon the exchange was fought with, not the map's."""
        detail: MystAttack | None = attack.detail
        return None if detail is None else detail.attacker.weapon.name

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


BATTLE = MystBattle()
#: mypy checks here that the object implements the whole protocol.
_CHECKED: BattleRules = BATTLE
_SHAPES: ShapesDamage = BATTLE
_COUNTERS: CountersDefence = BATTLE
