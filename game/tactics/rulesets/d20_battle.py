"""d20 3.5 (seed 004) in battle: its answers to the battle's questions (BattleRules) from the
pure rules of game/rules/d20 and the geometry of game/tactics/rulesets/d20.py (D-1..D-3).

Approximations of D-2's action economy on the battle's slots (docs/rules.md, "d20 in battle"):
the move action is the battle's movement (speed in cells, which may be split around the
standard action), the standard action is the battle's action (an attack; a dash is the double
move, the standard action spent as a second move action), a change of stance is the battle's
interaction, and a full-round action is not a command of its own (with one attack a round at
the sample sheets' base attack bonus, a full attack is the standard attack). A disabled
creature's one action (D-2) is a move action or a standard action, never both and no double
move (`ConditionEffects.one_action`); a 5-foot step may go with the standard action. ASSUMED,
the 3.5 SRD's and in base.toml's [disabled] for a GM to turn off: it moves at half speed, and
an attack (its own or one of opportunity) costs it 1 hit point once done (`exertion`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any, cast

from game.grid.geometry import chebyshev
from game.grid.los import LosResult, explain_line_of_sight
from game.grid.model import Cell
from game.grid.movement import MoveRequest
from game.rules.d20 import attack as d20_attack
from game.rules.d20.data import Weapon as D20Weapon
from game.rules.d20.health import (
    HpState,
    coup_de_grace_save,
    disabled_speed,
    dying_round,
    hp_state,
    strenuous_cost,
    take_damage,
)
from game.rules.d20.initiative import initiative_order as d20_initiative_order
from game.rules.d20.sheet import BARE_HANDED, Sheet, max_hit_points
from game.rules.d20.turn import provokes_opportunity
from game.rules.data import Weapon
from game.rules.dice import Advantage, Roller
from game.rules.exact import distribution, fraction_text, parse
from game.rules.initiative import (
    Combatant,
    Initiative,
    InitiativeEntry,
    TieScope,
)
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
    TurnStep,
    WeaponShown,
)
from game.rules.stance import Stance
from game.tactics.battlefield import Battlefield, EntitySheet, FieldConditions
from game.tactics.ruleset import BattleRules, GivesCoupDeGrace, TurnRules
from game.tactics.rulesets import d20_geometry as d20
from game.tactics.rulesets.common_battle import NotOffered, microgravity_move
from game.tactics.rulesets.cover_seeking import worst_cover
from game.tactics.rulesets.improvised import D20Improvised
from game.text import explain

#: D-2: a standard and a move action, or one full-round action; mapped onto the battle's slots
#: (the module's docstring). The commands that exist under d20: those below.
BUDGET = TurnBudget(
    slots=("movement", "action", "interaction", "reaction"),
    costs=MappingProxyType(
        {
            "move": "movement",  # the move action (D-2: speed in cells)
            "attack": "action",  # the standard action
            "dash": "action",  # the double move: the standard action as a second move
            # D-2: one cell that provokes no attack of opportunity, when not otherwise moving
            # (the move action's slot: a move after it, or it after a move, is refused).
            "five_foot_step": "movement",
            "crouch": "interaction",  # D-3: crouched is the table's "kneeling"
            "prone": "interaction",
            "stand": "interaction",
            "throw": "action",  # greyed: not offered (NotOffered)
            "end_turn": "",
            "help": "action",  # greyed: no aid another in seed 004 nor D-2 (can_help)
            # 004:l.114: a full-round action; the battle's action, refused after a move and
            # refusing one after it (a 5-foot step may go with it, D-2).
            "coup_de_grace": "action",
            "improvise": "action",  # the GM's ruling, a d20 check (improvised.py)
        }
    ),
)

#: The damage of a weapon that gives no dice (the bare sheet's "melee"): the 3.5 SRD's unarmed
#: strike of a Medium creature, as the sample sheets' "unarmed" weapon (weapons.toml).
UNARMED_DICE = "1d3"

#: The reason an entity cannot attack itself (the query refuses it the same way).
SELF_TARGET = "self_target"


def sheet_of(entity: EntitySheet) -> Sheet:
    """The entity's d20 sheet (d20.sheet_of: the bare sheet for one read under another ruleset)."""
    return d20.sheet_of(entity)


def health_of(health: Any) -> Sheet:
    """The d20 health value is the whole sheet (Harm.after): its hit points and conditions."""
    if not isinstance(health, Sheet):
        raise TypeError(f"a d20 health value is a d20 Sheet, not {type(health).__name__}")
    return health


def state_of(sheet: Sheet) -> HpState:
    """D-2: ok, disabled (0), dying (-1..-9) or dead (-10 or lower)."""
    return hp_state(d20.data(), sheet.hit_points)


def mean_damage(dice: str) -> Fraction:
    """The exact mean of a damage expression ("1d8+2" -> 13/2)."""
    return sum((v * p for v, p in distribution(parse(dice)).items()), Fraction(0))


def _weapon_of(attacker: EntitySheet, weapon: Weapon | D20Weapon | None) -> D20Weapon:
    # The battle hands the periferie weapon of its units; a d20 unit fights with its sheet's.
    return weapon if isinstance(weapon, D20Weapon) else sheet_of(attacker).weapon


def modifiers(
    outcome: d20_attack.AttackOutcome, attacker: Sheet, melee: bool
) -> tuple[Modifier, ...]:
    """D-2's terms as notes: the sheet's attack bonus and the seed's rows to it (004:l.7-23),
    the sheet's AC and the rows to it (l.25-48, cover l.52-70), then concealment's miss
    chance in percent (l.80, l.84). Attack terms add to the roll, AC terms to the AC."""
    notes = [Modifier("d20_attack_bonus", attacker.attack_bonus(melee), ("D-2",))]
    for code, value in outcome.attack_modifiers.items():
        rules = ("D-1", "D-3") if code == "higher_ground" else ("D-1",)
        notes.append(Modifier(f"d20_attack.{code}", value, rules))
    notes.append(Modifier("d20_ac", outcome.ac - sum(outcome.ac_modifiers.values()), ("D-2",)))
    for code, value in outcome.ac_modifiers.items():
        rules = ("D-1", "D-3") if code in ("kneeling", "cover") else ("D-1",)
        notes.append(Modifier(f"d20_ac.{code}", value, rules))
    assert outcome.needed is not None
    notes.append(Modifier("d20_needed", outcome.needed, ("D-2",)))
    if outcome.concealment:
        notes.append(Modifier("d20_concealment", outcome.concealment, ("D-1",)))
    return tuple(notes)


@dataclass(frozen=True)
class Detail:
    """The d20 answer behind an Attack (`Attack.detail`): the geometry's and the pure rules'
    numbers, and whether the target is immune to critical hits (004:l.120)."""

    answer: d20.AttackAnswer
    crit_immune: bool


class D20Battle(NotOffered, D20Improvised, BattleRules):  # no throws in its seed (issue 15)
    """The battle side of seed 004 (game.tactics.ruleset.BattleRules)."""

    #: D-2: attacks of opportunity only (no readied attack in the seed or D-2's base).
    reactions = frozenset({"opportunity_attack"})
    #: The computer attacks at once from an expected 1/2 hit point up (a third of a first-level
    #: sample sheet's unarmed mean, 1d3 = 2): the d20 measure is hit points.
    worth_attacking = Fraction(1, 2)

    # ---------------------------------------------------------------- the attack
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
        """D-1..D-3 on the grid (d20.attack_answer) into the shared record: the chance after
        concealment's miss chance; `detail` is the d20 AttackAnswer."""
        chosen = _weapon_of(attacker, weapon)
        if attacker.id == target.id:
            found = Attack(None, SELF_TARGET, (), ("D-2",), values={"attacker": attacker.id})
        else:
            # `los` is this object's own `sight`, the terrain's line D-3 counts: not traced twice.
            adjacent = chebyshev(attacker.cell, target.cell) <= 1
            field = {"concealment": field_concealment(bf.conditions, adjacent)}  # issue 15
            answer = d20.attack_answer(bf, attacker, target, chosen, field, los=los)
            out = answer.outcome
            rules = _merge(out.rules, answer.cover.rules)
            detail = Detail(answer, sheet_of(target).crit_immune)
            if out.reason is not None:
                found = Attack(
                    None,
                    str(out.reason),
                    (),
                    rules,
                    cover=out.cover,
                    detail=detail,
                    # The shared codes (no_los, out_of_reach) are worded as periferie's.
                    values={
                        "attacker": attacker.id,
                        "target": target.id,
                        "distance": chebyshev(attacker.cell, target.cell),
                    },
                )
            else:
                found = Attack(
                    out.chance,
                    None,
                    modifiers(out, sheet_of(attacker), chosen.melee),
                    rules,
                    cover=out.cover,
                    detail=detail,
                )
        if worded:
            found = replace(found, why=tuple(explain.attack_lines(found)))
        return found

    def roll_attack(
        self, roller: Roller, attack: Attack, advantage: Advantage, purpose: str
    ) -> AttackRoll:
        """D-2: d20 + attack bonus >= AC, a natural 1 misses, a natural 20 hits and is a
        critical; after a hit, concealment's d100 (004:l.80: a miss at or below its percent).
        D-2 has no advantage: `advantage` is not read."""
        detail: Detail = attack.detail
        out = detail.answer.outcome
        assert out.needed is not None and out.chance is not None, "an attack with a chance"
        record = roller.d20(purpose, bonus=out.attack_bonus)
        natural = record.kept[0]
        rules = d20.data()
        rolled = d20_attack.resolve(
            rules, out.attack_bonus, out.ac, natural, crit_immune=detail.crit_immune
        )
        if rolled.hit_ac and out.concealment:
            # 004:l.80: the miss chance is rolled only after a hit.
            percentile = roller.d100(f"{purpose} concealment").total
            rolled = d20_attack.resolve(
                rules,
                out.attack_bonus,
                out.ac,
                natural,
                concealment=out.concealment,
                percentile=percentile,
                crit_immune=detail.crit_immune,
            )
        logged: dict[str, object] = {
            "hit_chance": fraction_text(out.chance),
            "attack_bonus": out.attack_bonus,
            "ac": out.ac,
            "needed": out.needed,
            "natural": natural,
            "critical": rolled.critical,
        }
        if out.concealment:
            logged["concealment"] = out.concealment
            logged["concealed"] = rolled.concealed
        return AttackRoll(rolled.hit, record, MappingProxyType(logged))

    def damage_dice(
        self, attacker: EntitySheet | None, attack: Attack | None, roll: AttackRoll | None
    ) -> str:
        """The damage a hit rolls: the weapon's dice (the attack's, else the attacker's sheet's),
        doubled on a critical (D-2: "criticals double the weapon dice"). A weapon without dice
        strikes for UNARMED_DICE."""
        if attack is not None:
            detail: Detail = attack.detail
            weapon = detail.answer.weapon
        else:
            weapon = sheet_of(attacker).weapon if attacker is not None else BARE_HANDED
        dice = weapon.damage or UNARMED_DICE
        critical = roll is not None and bool(roll.logged.get("critical"))
        if attack is not None and cast(Detail, attack.detail).answer.outcome.critical:
            critical = True  # a coup de grâce: an automatic critical (004:l.116)
        return d20_attack.critical_dice(d20.data(), dice) if critical else dice

    def roll_damage(
        self,
        roller: Roller,
        bf: Battlefield,
        attacker: EntitySheet | None,
        weapon: Weapon,
        attack: Attack | None,
        roll: AttackRoll | None,
    ) -> DamageRoll:
        """The hit's damage (damage_dice) with the battle's roller; the battle's periferie
        `weapon` is not read: a d20 unit strikes with its sheet's weapon."""
        dice = self.damage_dice(attacker, attack, roll)
        name = "" if attack is None else cast(Detail, attack.detail).answer.weapon.id
        record = roller.roll(dice, f"damage {name or weapon.id}")
        return DamageRoll(record, max(record.total, 0))

    def expected_harm(
        self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet, attack: Attack
    ) -> Fraction:
        """Hit points the attack is worth: the chance times the weapon's mean damage, plus the
        natural 20's extra dice (D-2: a 20 hits and doubles the dice; concealment may still
        make it miss) unless the target is immune to critical hits."""
        if attack.chance is None:
            return Fraction(0)
        detail: Detail = attack.detail
        dice = detail.answer.weapon.damage or UNARMED_DICE
        mean = mean_damage(dice)
        harm = attack.chance * mean
        if not detail.crit_immune:
            extra = mean_damage(d20_attack.critical_dice(d20.data(), dice)) - mean
            natural_20 = Fraction(1, 20) * Fraction(100 - detail.answer.outcome.concealment, 100)
            harm += natural_20 * extra
        return harm

    # ---------------------------------------------------------------- damage and health
    def damage(self, bf: Battlefield, target: EntitySheet, damage_type: str, rolled: int) -> Harm:
        """D-2: the damage off the hit points (no reduction in the seed); the new sheet is the
        health value; the effect is the state reached when it changes."""
        before = sheet_of(target)
        result = take_damage(d20.data(), before.hit_points, rolled)
        # 3.5: a stable creature that takes damage is dying again (it bleeds once more).
        after = replace(before, hit_points=result.hit_points, stable=before.stable and not rolled)
        effects = () if result.state is state_of(before) else (str(result.state),)
        state = str(result.state)
        why = (explain.d20_damage_line(before.hit_points, rolled, after.hit_points, state),)
        return Harm(result.damage, after, effects, ("D-2",), why)

    def condition_effects(self, health: Any) -> ConditionEffects:
        """D-2: dead and dying creatures take no turn and no reaction (a dying one is
        unconscious); a disabled one takes one action, a move or a standard one (the module's
        docstring), moving at most its disabled speed (assumed, half its sheet's)."""
        state = state_of(health_of(health))
        if state in (HpState.DEAD, HpState.DYING):
            # A stable dying creature is as unconscious; its lost turn is named as such.
            stable = state is HpState.DYING and health_of(health).stable
            code = "stabilised" if stable else str(state)
            return ConditionEffects(
                turn_lost=code,
                attack_barred=code,
                no_movement=True,
                no_reaction=True,
                dead=state is HpState.DEAD,
                out_of_combat=True,
            )
        if state is HpState.DISABLED:
            speed = disabled_speed(d20.data(), health_of(health).speed)
            return ConditionEffects(speed_cap=speed, one_action=str(state))
        return ConditionEffects()

    # ---------------------------------------------------------------- initiative
    def start_initiative(self, roller: Roller, combatants: Sequence[Combatant]) -> Initiative:
        """D-2: d20 + Dex modifier (each combatant's `bonus` is its Dex modifier), ties by the
        Dex modifier, then by a roll-off of a d20 each (rolled once, equal faces keeping the
        order of listing)."""
        offs: dict[str, int] = {}

        def tie_break(tied: Sequence[InitiativeEntry], scope: TieScope) -> list[InitiativeEntry]:
            for entry in tied:
                if (
                    entry.entity_id not in offs
                    and sum(1 for e in tied if e.combatant.bonus == entry.combatant.bonus) > 1
                ):
                    offs[entry.entity_id] = roller.die(20, f"initiative roll-off {entry.entity_id}")
            return sorted(
                tied,
                key=lambda e: (-e.combatant.bonus, -offs.get(e.entity_id, 0), e.listed),
            )

        return Initiative.start(roller, combatants, tie_break)

    def initiative_bonus(self, entity: EntitySheet) -> int:
        """D-2: the Dex modifier of the unit's d20 sheet is its initiative bonus (the battle's
        combatants, reinforcements included, roll d20 + it)."""
        return sheet_of(entity).dex

    def initiative_order(self, bf: Battlefield, rolls: Mapping[str, int]) -> list[InitiativeEntry]:
        """Given d20 faces in listing order: D-2's order; a tie not settled by the Dex modifier
        keeps the listing order (the query's roll_off settles it)."""
        listed = [(i, roll, sheet_of(bf.by_id[i]).dex) for i, roll in rolls.items()]
        order = d20_initiative_order(listed)
        index = {i: n for n, (i, _, _) in enumerate(listed)}
        return [
            InitiativeEntry(
                Combatant(e.id, bf.by_id[e.id].faction, e.dex), e.roll, e.score, index[e.id]
            )
            for e in order.order
        ]

    # ---------------------------------------------------------------- the turn
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
        """D-2: the sheet's speed in cells (diagonals as G-4, the shared search), twice with
        the double move; prone crawls (+1 a cell, the shared search); dying and dead creatures
        do not move; a disabled one moves at its disabled speed (assumed: half, base.toml),
        never doubled (no double move for its one action). Walking only (the d20 sheet has
        no other mode). An ally's cell costs nothing extra to pass (D-2's base; periferie's
        P-MOV-4 +1 is not d20's)."""
        sheet = sheet_of(entity)
        state = state_of(sheet)
        speed = sheet.speed * (2 if dash else 1)
        if state is HpState.DISABLED:
            speed = disabled_speed(d20.data(), sheet.speed)
        budgets = {} if state in (HpState.DEAD, HpState.DYING) else {"walk": speed}
        crawling = entity.stance is Stance.PRONE or mode == "crawl"
        allow = MoveAllowance(
            budgets=budgets,
            crawling=crawling,
            max_cells=None,
            drift=0,
            rules=("D-2",),
            explanation=(),
        )
        request = MoveRequest(
            budgets=dict(budgets),
            mode="crawl" if crawling else "walk",
            crawling=crawling,
            max_cells=None,
            # D-2's 3.5 base: an ally's cell is passed at no extra cost (P-MOV-4's +1 is
            # periferie's); an enemy's still blocks and no move ends in an occupied cell.
            ally_cost=False,
        )
        # in microgravity the speed pushes off and flies thrusters too (docs/rules.md)
        return microgravity_move(bf, entity, mode, (request, allow), budgets.get("walk", 0))

    # ---------------------------------------------------------------- sight and reactions
    def sight(self, bf: Battlefield, frm: EntitySheet | Cell, to: EntitySheet | Cell) -> LosResult:
        """D-3: creatures never block sight; terrain alone over the shared 3D kernel."""
        a = frm.cell if isinstance(frm, EntitySheet) else frm
        b = to.cell if isinstance(to, EntitySheet) else to
        return explain_line_of_sight(bf.grid, a, b)

    # ---------------------------------------------------------------- the turn's start and end
    def turn_begins(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, health: Any
    ) -> TurnEffects:
        """The unit's first turn ends its flat-footed start (004:l.29, `sheet_joining`)."""
        sheet = health_of(health)
        if sheet.before_first_turn:
            return TurnEffects(replace(sheet, before_first_turn=False))
        return TurnEffects(health)

    def sheet_joining(self, sheet: Any) -> Any:
        """A unit's d20 sheet as it joins the battle: flat-footed until its first turn
        (004:l.29 "Colto alla sprovvista", its Dex bonus to AC lost; ASSUMED, the 3.5 SRD's
        "before your first regular turn in the initiative order", D-2's base). A surprised
        unit's skipped turn (P-INIT-5) is no turn: it stays flat-footed until its next."""
        if not isinstance(sheet, Sheet):
            return sheet
        return replace(sheet, before_first_turn=True)

    def turn_start(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, health: Any
    ) -> TurnEffects:
        """D-2: a dying creature (-1 to -9) that is not stable rolls d% at the start of its
        turn (once a round, on its own place in the order): at or below 10 it stabilises,
        else it loses 1 hit point, dead at -10. Its turn is lost either way."""
        sheet = health_of(health)
        if state_of(sheet) is not HpState.DYING or sheet.stable:
            return TurnEffects(sheet)
        record = roller.d100(f"dying {unit.id}")
        rolled = dying_round(d20.data(), sheet.hit_points, record.total)
        after = replace(sheet, hit_points=rolled.hit_points, stable=rolled.stabilised)
        data = {
            "unit": unit.id,
            "roll": record.total,
            "stabilised": rolled.stabilised,
            "hit_points": after.hit_points,
            "state": str(rolled.state),
        }
        return TurnEffects(after, (TurnStep("dying", data, after, (record,), ("D-2",)),))

    def turn_end(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, health: Any
    ) -> TurnEffects:
        """Nothing happens as a d20 turn ends (D-2's dying roll is the start's)."""
        return TurnEffects(health)

    def threatens(self, entity: EntitySheet, cell: Cell) -> bool:
        """D-1: the cells within the entity's reach (not when helpless, dying or dead)."""
        return d20.threatens(entity, cell)

    def provokes(
        self,
        bf: Battlefield,
        mover: EntitySheet,
        reactor: EntitySheet,
        from_cell: Cell,
        to_cell: Cell,
    ) -> bool | None:
        """D-2: a step leaving `from_cell`, a cell `reactor` threatens (its reach, D-1),
        provokes its attack of opportunity, even into another cell it threatens; a step that
        stays outside its threatened cells does not. The battle never asks about a 5-foot step
        (its own command) and counts the one attack a round per reactor. No attack against a
        mover with cover from the reactor (004:l.58; total cover, no line of sight, l.68) or
        with total concealment (l.84-86: invisible, l.90)."""
        threatened = from_cell != to_cell and d20.threatens(reactor, from_cell)
        if not provokes_opportunity(threatened, five_foot_step=False, attacker_used_one=False):
            return False
        there = replace(mover, cell=from_cell)
        # The attack of opportunity is a melee attack: l.54's wall rule next to the reactor,
        # the corner lines of l.52 (creatures' soft cover included, D-3) at a longer reach.
        if d20.cover_between(bf, reactor, there, melee=True).grade != "none":
            return False
        total = d20.data().base.concealment_total
        if field_concealment(bf.conditions, chebyshev(reactor.cell, from_cell) <= 1) >= total:
            return False  # l.84-86: total concealment from the battlefield (issue 15)
        return not sheet_of(there).has("invisibile")  # l.90: invisibility, total concealment

    def exertion(self, unit: EntitySheet, act: str) -> int:
        """ASSUMED (the 3.5 SRD's, base.toml's [disabled]; D-2 names only "one action"): a
        disabled creature's strenuous act, an attack, costs it 1 hit point once done, and at
        -1 it is dying."""
        return strenuous_cost(d20.data(), sheet_of(unit).hit_points, act)

    # ---------------------------------------------------------------- the computer's cover
    def cover_value(
        self, bf: Battlefield, unit: EntitySheet, threats: Sequence[EntitySheet]
    ) -> Fraction:
        """D-1/D-3: the AC bonus of `unit`'s cover against each threat's own weapon, found by
        corner lines (+4); total cover (no line at all), like being seen by no threat, counts
        as the best the seed gives, improved cover's +8 (004:l.70)."""
        best = Fraction(d20.data().base.cover_improved)

        def value(threat: EntitySheet) -> Fraction:
            found = d20.cover_between(bf, threat, unit, _weapon_of(threat, None).melee)
            if found.grade == "total":
                return best
            return Fraction(d20_attack.cover_bonus(d20.data(), found.grade))

        return worst_cover(self.sight, bf, unit, threats, value, best)

    # ---------------------------------------------------------------- the weapon named
    def sheet_weapon(self, sheet: Any) -> WeaponShown | None:
        """The sheet's own weapon (weapons.toml's of the map's periferie id, D-2) by its id,
        name and dice (a weapon without dice strikes for UNARMED_DICE)."""
        if not isinstance(sheet, Sheet):
            return None
        own = sheet.weapon
        return WeaponShown(own.id, own.name, own.damage or UNARMED_DICE)

    # ---------------------------------------------------------------- the field (issue 15)
    def field_effects(self, conditions: FieldConditions) -> tuple[Modifier, ...]:
        """ReadsField: the concealment the conditions give a target beyond arm's length."""
        percent = field_concealment(conditions, adjacent=False)
        return (Modifier("d20_concealment", percent, ("D-1",)),) if percent else ()

    # ---------------------------------------------------------------- the coup de grâce
    def coup_de_grace(self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet) -> Attack:
        """004:l.114-120 (game.tactics.ruleset.GivesCoupDeGrace): against a helpless target
        (its sheet's "indifeso", or dying, D-2), with the sheet's melee weapon within reach or
        a bow or crossbow next to it: an automatic hit and critical, chance 1; else the
        reason (not_helpless, out_of_reach, weapon_cannot_coup_de_grace, immune_to_critical,
        no_los)."""
        if attacker.id == target.id:
            return Attack(None, SELF_TARGET, (), ("D-2",), values={"attacker": attacker.id})
        chosen = sheet_of(attacker).weapon
        answer = d20.attack_answer(bf, attacker, target, chosen, {"coup_de_grace": True})
        out = answer.outcome
        detail = Detail(answer, sheet_of(target).crit_immune)
        values = {"attacker": attacker.id, "target": target.id}
        if out.reason is not None:
            found = Attack(None, str(out.reason), (), out.rules, detail=detail, values=values)
        else:
            notes = (
                Modifier("d20_coup_de_grace", 1, ("D-1", "D-2")),
                Modifier("d20_critical", d20.data().base.critical_multiplier, ("D-2",)),
            )
            found = Attack(Fraction(1), None, notes, ("D-1", "D-2"), detail=detail, values=values)
        return replace(found, why=tuple(explain.attack_lines(found)))

    def provoked_by_act(self, bf: Battlefield, doer: EntitySheet, reactor: EntitySheet) -> bool:
        """004:l.118: a coup de grâce provokes the attack of opportunity of every enemy that
        threatens the attacker (its reach, D-1), unless the attacker has cover from it (l.58,
        l.68) or total concealment (l.84-86: invisible)."""
        if not d20.threatens(reactor, doer.cell):
            return False
        if d20.cover_between(bf, reactor, doer, melee=True).grade != "none":
            return False
        return not sheet_of(doer).has("invisibile")

    def coup_de_grace_save(
        self, roller: Roller, target: EntitySheet, health: Any, damage: int
    ) -> TurnStep | None:
        """004:l.116: a target the blow left alive saves on Fortitude at DC 10 + `damage` or
        dies (the save's bonus and its natural 1 and 20 ASSUMED, base.toml [coup_de_grace]);
        None when the blow killed it."""
        sheet = health_of(health)
        if state_of(sheet) is HpState.DEAD:
            return None
        record = roller.d20(f"fortitude {target.id}", bonus=sheet.fortitude)
        saved = coup_de_grace_save(
            d20.data(), sheet.hit_points, damage, sheet.fortitude, record.kept[0]
        )
        after = replace(sheet, hit_points=saved.hit_points)
        data = {
            "unit": target.id,
            "natural": saved.natural,
            "total": saved.total,
            "dc": saved.dc,
            "survived": saved.survived,
            "hit_points": after.hit_points,
        }
        return TurnStep("fortitude_save", data, after, (record,), ("D-2",))

    def coup_de_grace_harm(self, attack: Attack) -> Fraction:
        """The blow's expected hit points: the mean of the weapon's doubled dice (D-2), the
        hit being automatic (004:l.116); 0 when there is no blow."""
        if attack.chance is None:
            return Fraction(0)
        detail: Detail = attack.detail
        dice = detail.answer.weapon.damage or UNARMED_DICE
        return mean_damage(d20_attack.critical_dice(d20.data(), dice))

    # ---------------------------------------------------------------- the unit card (issue 16)
    def health_shown(self, sheet: Any) -> HealthShown | None:
        """D-2: the hit points of its full ones (`max_hit_points`: "8 of 12") and their state,
        disabled at 0, dying below (stable once the 10 % came up), dead at -10; the whole AC.
        A pip: disabled orange, dying red."""
        if not isinstance(sheet, Sheet):
            return None
        found = state_of(sheet)
        state = "stable" if found is HpState.DYING and sheet.stable else found.value
        pips = {HpState.DISABLED: ("grave",), HpState.DYING: ("mortal",)}.get(found, ())
        return HealthShown(
            "hit_points",
            state,
            pips,
            (("hp", sheet.hit_points, max_hit_points(d20.data(), sheet)),),
            (("ac", sheet.ac),),
        )


def field_concealment(conditions: FieldConditions, adjacent: bool) -> int:
    """Issue 15, a choice (docs/rules.md, "The battlefield's conditions"): low light and light
    smoke conceal (20 %, 004:l.80), total darkness and dense smoke conceal totally (50 %,
    l.84), dense smoke only 20 % between adjacent creatures, as 3.5's fog; weather gives none.
    Several do not add up (l.80): the highest counts."""
    base = d20.data().base
    normal, total = base.concealment_normal, base.concealment_total
    darkness = {"low": normal, "total": total}.get(conditions.darkness, 0)
    smoke = {"light": normal, "dense": normal if adjacent else total}.get(conditions.smoke, 0)
    return max(darkness, smoke)


def _merge(*groups: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(r for group in groups for r in group))


BATTLE = D20Battle()
#: mypy checks here that the object implements the whole protocol.
_CHECKED: BattleRules = BATTLE
_TURNS: TurnRules = BATTLE
_COUP: GivesCoupDeGrace = BATTLE
