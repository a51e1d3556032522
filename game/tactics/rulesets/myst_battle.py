"""Myst (seed 002, M-1, M-2) in battle: its answers to the battle's questions from the pure rules
of game/rules/myst/ over the shared grid.

Choices where the seed and the rulings leave the battle free (docs/rules.md, "Myst in battle"):
the attacker's margin is spent by one default for everyone, the computer and the players alike
(every 5-point unit on Strength up to its cap, the rest on the die's minimum, nothing on
reduction; a window prompt to choose is later work); the line of fire's partial obstruction
(M-1's default) lowers the attack, but a shot that strays is not rolled against the people in
line yet; one exchange per round is the turn's one attack (a defence costs nothing and the
second-defence penalty is not counted); people never block the line of sight.
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
    DamageRoll,
    Harm,
    Modifier,
    TurnBudget,
)
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import BattleRules
from game.tactics.rulesets.common_battle import (
    MOVE_AND_ACTION,
    NotOffered,
    cells_move,
    order_keeper,
)

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
    """M-1's margin spent by the default choice (the computer's, and the players' until a
    window prompt exists): each unit of 5 on Strength up to the cap, then on the die's
    minimum up to the dice's maximum; never on reduction."""
    units = margin // data.margin_unit
    cap, _ = combat.strength_cap(data, strength, two_handed=False, charge=False, gallop=False)
    on_strength = min(units, max(cap, 0))
    on_minimum = min(units - on_strength, weapon.damage_max)
    return combat.Spend(strength=on_strength, minimum=on_minimum)


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


def _no_attack(reason: str, rules_: tuple[str, ...], why: str, **values: object) -> Attack:
    return Attack(None, reason, (), rules_, (why,), values=values)


class MystBattle(NotOffered):  # no throws in its seed (issue 15)
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
        the margin spent by default (M-1, `default_spend`); without an exchange (an area or
        a throw, periferie's) the dice alone."""
        detail: MystAttack | None = None if attack is None else attack.detail
        sheet = detail.attacker if detail is not None else rules().defaults
        if detail is None and attacker is not None:
            sheet = sheet_of(attacker)
        arm = sheet.weapon
        record = _weapon_roll(roller, arm)
        if detail is None or roll is None:
            return DamageRoll(record, record.total)
        margin = int(str(roll.logged["margin"]))
        data = rules()
        spend = default_spend(data, margin, sheet.strength, arm)
        dealt = combat.spend_margin(data, margin, record.total, spend, sheet.strength, arm)
        return DamageRoll(record, dealt.damage)

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


BATTLE = MystBattle()
#: mypy checks here that the object implements the whole protocol.
_CHECKED: BattleRules = BATTLE
