"""Cepheus Engine (seed 000, RULINGS C-1..C-5) in battle: its answers to the battle's questions
from the pure rules of game/rules/cepheus, over the shared grid (sight, G-4 distances, the
obstacles that give C-3 cover, the path search).

What the battle cannot say yet, and how it is approximated (docs/rules.md, "Cepheus in the
battle"): the C-4 turn is mapped onto the battle's slots — a movement of one minor action (4
cells), the significant action (an attack), or the significant action spent on two more minor
actions of movement (the `dash`: three minor actions, 12 cells); a change of stance takes the
interaction slot, where C-4 counts it as a minor action. The round's own commands (aim and
aim to kill, act hastily, delay, the reaction stance, the fire mode, reload), suppression and
the dodge and parry reactions are the `round_rules` block below (docs/rules.md, "Cepheus in the
battle"); initiative ties of the same DEX act simultaneously (`acts_with`). There are no attacks
of opportunity nor readied shots. The map's darkness and smoke count; weather is not offered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import Any

from game.grid.area import area_cells
from game.grid.cover import hiding_kinds
from game.grid.geometry import chebyshev
from game.grid.los import LosResult
from game.grid.model import Cell
from game.grid.movement import MoveRequest
from game.rules import exact
from game.rules.cepheus import ammo
from game.rules.cepheus import attack as rules_attack
from game.rules.cepheus import tempo as rules_tempo
from game.rules.cepheus.checks import CELL_METRES, check_chance, resolve_check
from game.rules.cepheus.cover import cover_grade, grade_from_obstacles
from game.rules.cepheus.damage import (
    DEAD,
    SERIOUSLY_WOUNDED,
    UNCONSCIOUS,
    UNINJURED,
    hit_sheet,
    wound_state,
)
from game.rules.cepheus.data import CepheusData, default_data
from game.rules.cepheus.first_aid import damaged, first_aid_dm, restore, restored_points
from game.rules.cepheus.initiative import Contender, order
from game.rules.cepheus.sheet import CHARS, Sheet
from game.rules.cepheus.sheet import Weapon as CepheusWeapon
from game.rules.cepheus.throw import BOUNCE_DIRECTIONS, adds_effect, bounce_cells, bounce_offset
from game.rules.cepheus.turn import movement_allowance
from game.rules.data import Weapon
from game.rules.dice import Advantage, Roller, RollRecord
from game.rules.initiative import Combatant, Initiative, InitiativeEntry
from game.rules.movement import MoveAllowance
from game.rules.ruleset_answers import (
    Aid,
    Attack,
    AttackRoll,
    ConditionEffects,
    DamageRoll,
    Harm,
    HealthShown,
    Modifier,
    RulesRefusal,
    Throw,
    ThrowRoll,
    TurnBudget,
    WeaponShown,
)
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield, EntitySheet, FieldConditions
from game.tactics.ruleset import BattleRules, RoundRules
from game.tactics.rulesets.common_battle import microgravity_move
from game.tactics.rulesets.cover_seeking import worst_cover
from game.tactics.rulesets.improvised import CepheusImprovised

#: Reason codes of an attack without a chance (the battle's refusals: battle/reasons.py).
NO_LOS = "no_los"
OUT_OF_BAND = "out_of_band"  # C-2: "--" in the difficulty table at this band
REASONS = {
    rules_attack.OUT_OF_RANGE: OUT_OF_BAND,
    rules_attack.CANNOT_BE_HIT: "cannot_be_hit",  # C-3
    rules_attack.PRONE_NO_MELEE: "prone_no_melee",  # 000:l.343
    rules_attack.NO_WEAPON: "no_weapon",
}

#: C-4 mapped onto the battle's slots (module docstring): one minor action of movement, the
#: significant action (an attack, or two more minor actions of movement: `dash`), and a change
#: of stance in the interaction slot.
BUDGET = TurnBudget(
    slots=("movement", "action", "interaction"),
    costs=MappingProxyType(
        {
            "move": "movement",
            "attack": "action",
            "dash": "action",
            "throw": "action",  # an attack with a thrown weapon (000:l.134, 351-353)
            "use_object": "action",  # first aid, a Medico check (000:l.121, 398)
            "hide": "action",  # a check is a significant action (000:l.121); C-3 cover
            "search": "action",
            "improvise": "action",  # something else as a significant action (000:l.121)
            "crouch": "interaction",
            "prone": "interaction",
            "stand": "interaction",
            "end_turn": "",
            # C-1/C-4's round commands: the round rules count their minor actions themselves
            "aim": "",
            "hasty": "",
            "delay": "",
            "react_stance": "",
            "fire_mode": "",
            "help": "action",  # greyed: no help in seed 000 (can_help, issue 15)
            "reload": "",  # a minor action (000:l.99), counted by the round rules as an aim
        }
    ),
)
#: A dash is the significant action spent as two minor actions: three minor actions of
#: movement in the turn (C-4: "three minor actions").
MINOR_WALKING = 1
MINOR_DASHING = 3


def data() -> CepheusData:
    return default_data()


def sheet_of(entity: EntitySheet) -> Sheet:
    """The entity's Cepheus sheet (an entity read by another ruleset has an empty one)."""
    return entity.sheet if isinstance(entity.sheet, Sheet) else Sheet()


def state_of(sheet: Sheet) -> str:
    """The wound state (C-5); a sheet without all three characteristics counts as uninjured;
    one knocked out stays unconscious until it dies (`Sheet.unconscious`, 000:l.380)."""
    if any(c not in sheet.chars for c in CHARS):
        return UNINJURED
    state = wound_state(sheet.chars, {c: sheet.max_of(c) for c in CHARS})
    return UNCONSCIOUS if sheet.unconscious and state != DEAD else state


def grid_cover(bf: Battlefield, attacker: EntitySheet, target: EntitySheet) -> str:
    """C-3's base grade from the obstacles that hide the target (P-COV-2/3 samples)."""
    return grade_from_obstacles(hiding_kinds(bf.grid, attacker.cell, target.cell))


def beside_target(bf: Battlefield, attacker: EntitySheet, target: EntitySheet) -> bool:
    """000:l.287: another combatant (not neutral, not out of the fight) at Personale range of
    the target, i.e. in its cell or one of the 26 around it (C-2)."""
    for other in bf.entities:
        if other.id in (attacker.id, target.id) or other.neutral:
            continue
        # The distance first: the wound state is the dearer test (asked on every hover).
        if chebyshev(other.cell, target.cell) > 1:
            continue
        if state_of(sheet_of(other)) not in (UNCONSCIOUS, DEAD):
            return True
    return False


def modifiers(result: rules_attack.Attack) -> tuple[Modifier, ...]:
    """C-1's DMs as notes, each under its code with a `dm_` prefix (explain.modifier_line)."""
    return tuple(Modifier(f"dm_{s.code}", s.value, s.rules) for s in result.modifiers)


def _why(result: rules_attack.Attack, cells: int) -> tuple[str, ...]:
    # The query's own words (RULESETS.md section 4), kept short: the band, the DMs, the roll.
    head = f"{cells} cells ({cells * CELL_METRES:g} m): {result.band}"
    if result.chance is None:
        return (head, *result.notes)
    steps = ", ".join(f"{s.code} {s.value:+d}" for s in result.modifiers)
    return (
        f"{head}, {result.difficulty}",
        steps,
        f"2d6 {result.total_dm:+d} >= {result.target}",
        *result.notes,
    )


@cache
def _nd6(count: int) -> Mapping[int, Fraction]:
    return exact.distribution(exact.parse(f"{count}d6")) if count else {0: Fraction(1)}


@cache
def _expected(total_dm: int, dice: int, bonus: int, armour: int) -> Fraction:
    """C-1 and C-5 exactly: the mean damage of an attack, 0 on a miss; on a hit the weapon's
    dice + its bonus + the Effect - armour, at least 0, at least 1 from an Effect of 6+."""
    tables = data().tables
    check = _nd6(tables.check_dice)
    minimum = tables.mod("effect_minimum")
    total = Fraction(0)
    for roll, p_roll in check.items():
        effect = roll + total_dm - tables.check_target
        if effect < 0:
            continue
        for rolled, p in _nd6(dice).items():
            damage = max(rolled + bonus + effect - armour, 0)
            if effect >= minimum:
                damage = max(damage, 1)
            total += p_roll * p * damage
    return total


# ---------------------------------------------------------------- the field, throws (issue 15)

#: A Cepheus unit whose weapon is not a thrown one cannot throw (the seed has no improvised
#: throws with their own damage, unlike periferie's objects by size).
NO_THROWN_WEAPON = "no_thrown_weapon"
#: Suppression fire needs a firearm (000:l.317).
NEEDS_FIREARM = "needs_firearm"
#: Fewer rounds left in the magazine than the attack fires (rules/cepheus/ammo.py).
OUT_OF_AMMO = "out_of_ammo"


def field_situation(bf: Battlefield) -> rules_attack.Situation:
    """000:l.211-217: the battlefield's darkness, smoke and bad weather (`bf.conditions`: the
    map's properties, then the GM's command, issue 15) as the situation of every attack; the
    pure rules apply them to ranged attacks and throws only, smoke doubled for lasers."""
    now = bf.conditions
    return rules_attack.Situation(
        darkness=None if now.darkness == "none" else now.darkness,
        smoke=None if now.smoke == "none" else now.smoke,
        weather=now.weather != "none",
    )


def _attack_record(result: rules_attack.Attack, cells: int, rules: tuple[str, ...]) -> Attack:
    return Attack(
        chance=result.chance,
        reason=None if result.reason is None else REASONS.get(result.reason, result.reason),
        modifiers=modifiers(result),
        rules=tactics.merge_rules(rules, ("G-4",), result.rules),
        why=_why(result, cells),
        cover=None,
        detail=result,
        values={"band": result.band},
    )


def at_cell(bf: Battlefield, attacker: EntitySheet, at: Cell) -> Attack:
    """The attacker's own weapon at a cell nobody stands in for (a throw or an explosive):
    C-1/C-2 and the field's DMs, no target's cover, stance or reaction."""
    a_sheet = sheet_of(attacker)
    cells = chebyshev(attacker.cell, at)
    geometry = rules_attack.Geometry(
        cells=cells,
        cover="none",
        attacker_stance=attacker.stance.value,
        zero_g=bf.grid.gravity == 0,  # C-5
    )
    result = rules_attack.attack(
        a_sheet, Sheet(), a_sheet.weapon, geometry, field_situation(bf), data().tables
    )
    return _attack_record(result, cells, ())


class CepheusBattle(CepheusImprovised, BattleRules):
    """The battle side of seed 000 (game.tactics.ruleset.BattleRules)."""

    #: No attacks of opportunity nor readied shots: the seed's reactions (dodge, parry) are
    #: situations of an attack, not offered by the battle yet.
    reactions: frozenset[str] = frozenset()
    #: The computer shoots at once when it expects half a characteristic point of damage.
    worth_attacking = Fraction(1, 2)
    #: C-1/C-4 within the round: aim, dodge and parry, hasty, the fire mode (set below).
    round_rules: RoundRules

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
        """C-1/C-2/C-3 with the plain situation; the weapon is the Cepheus sheet's (the map
        unit's periferie weapon became it in `unit_fields`), whatever `weapon` names."""
        return self._attack(bf, attacker, target, los, worded=worded, suppress=False)

    def _attack(
        self,
        bf: Battlefield,
        attacker: EntitySheet,
        target: EntitySheet,
        los: LosResult | None,
        *,
        worded: bool,
        suppress: bool,
    ) -> Attack:
        a_sheet, t_sheet = sheet_of(attacker), sheet_of(target)
        state = state_of(a_sheet)
        if attacker.id == target.id:
            return Attack(None, "self_target", (), (), values={"attacker": attacker.id})
        if state in (UNCONSCIOUS, DEAD):
            why: tuple[str, ...] = (f"{attacker.id} is {state}",) if worded else ()
            return Attack(None, state, (), ("C-5",), why, values={"attacker": attacker.id})
        short = ammo.short_of(a_sheet)
        if short is not None:  # 000:l.99: reload first (a minor action)
            left, needs = short
            return Attack(None, OUT_OF_AMMO, (), ("C-4",), values={"left": left, "needs": needs})
        sight = los if los is not None else tactics.sight(bf, attacker, target)
        if not sight.clear:
            why = tuple(tactics.sight_why(sight)) if worded else ()
            return Attack(None, NO_LOS, (), sight.rules, why)
        cells = chebyshev(attacker.cell, target.cell)
        geometry = rules_attack.Geometry(
            cells=cells,
            cover=grid_cover(bf, attacker, target),
            attacker_stance=attacker.stance.value,
            target_stance=target.stance.value,
            zero_g=bf.grid.gravity == 0,  # C-5
            beside_target=beside_target(bf, attacker, target),
        )
        # the round's own (aim, reactions, bursts) in the field's conditions (000:l.211-217)
        field = field_situation(bf)
        own = round_situation(bf, attacker, target, geometry, suppress=suppress)
        situation = replace(own, darkness=field.darkness, smoke=field.smoke, weather=field.weather)
        result = rules_attack.attack(
            a_sheet, t_sheet, a_sheet.weapon, geometry, situation, data().tables
        )
        rules = tactics.merge_rules(sight.rules, ("G-4",), result.rules)
        return Attack(
            chance=result.chance,
            reason=None if result.reason is None else REASONS.get(result.reason, result.reason),
            modifiers=modifiers(result),
            rules=rules,
            why=_why(result, cells) if worded else (),
            cover=None if result.cover is None else result.cover.grade,
            detail=result,
            values={"band": result.band},
        )

    def roll_attack(
        self, roller: Roller, attack: Attack, advantage: Advantage, purpose: str
    ) -> AttackRoll:
        """C-1: 2d6 + DMs >= 8 with the battle's roller; the Effect goes to the damage.
        Cepheus has no advantage: `advantage` (periferie's help, dodge) is not read."""
        result: rules_attack.Attack = attack.detail
        record = roller.roll(f"{data().tables.check_dice}d6", purpose)
        check = rules_attack.resolve(result, record.dice, data().tables)
        logged = {
            "chance": exact.fraction_text(result.chance or Fraction(0)),
            "total": check.total,
            "effect": check.effect,
        }
        return AttackRoll(check.success, record, logged, check)

    def expected_harm(
        self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet, attack: Attack
    ) -> Fraction:
        """The exact mean of the characteristic points the attack takes off (C-1, C-5)."""
        result = attack.detail
        weapon = sheet_of(attacker).weapon
        if attack.chance is None or not isinstance(result, rules_attack.Attack) or weapon is None:
            return Fraction(0)
        dice, extra = burst_extra(attack)
        return _expected(
            result.total_dm, weapon.dice + dice, weapon.bonus + extra, sheet_of(target).armour
        )

    def roll_damage(
        self,
        roller: Roller,
        bf: Battlefield,
        attacker: EntitySheet | None,
        weapon: Weapon,
        attack: Attack | None,
        roll: AttackRoll | None,
    ) -> DamageRoll:
        """C-5: the Cepheus weapon's Nd6 (+ its bonus) + the attack's Effect; armour comes off
        for each victim in `damage`. Without an attack roll (none in this battle yet) the
        Effect is 0."""
        own = None if attacker is None else sheet_of(attacker).weapon
        effect = roll.detail.effect if roll is not None and roll.detail is not None else 0
        if own is None:
            record = roller.roll("1d6", f"damage {weapon.id}")
            return DamageRoll(record, record.total + effect)
        dice, extra = burst_extra(attack)
        # The purpose names the weapon by its sample id (names.purpose_text words it).
        record = roller.roll(f"{own.dice + dice}d6", f"damage {sample_id(own) or weapon.id}")
        return DamageRoll(record, record.total + own.bonus + extra + effect)

    def damage(self, bf: Battlefield, target: EntitySheet, damage_type: str, rolled: int) -> Harm:
        """C-5: `rolled` (dice + bonus + Effect) - armour, END first, then the higher of STR
        and DEX (the computer's choice for every target, C-5), then the other. The Effect-6
        minimum of 000:l.372 is not applied here: the damage step is given one number."""
        sheet = sheet_of(target)
        after, result = hit_sheet(sheet, rolled, 0, data().tables)
        kept = rules_tempo.hit_while_aiming(after.tempo)  # 000:l.91: an aim to kill is lost
        after = after if kept is after.tempo else replace(after, tempo=kept)
        before, now = state_of(sheet), state_of(after)
        went = ", ".join(f"{n} {c.upper()}" for c, n in result.applied) or "-"
        why = (f"{rolled} - armour {sheet.armour} = {result.damage}: {went}; {now}",)
        effects = (now,) if now != before else ()
        return Harm(result.damage, after, effects, result.rules, why)

    def condition_effects(self, health: Any) -> ConditionEffects:
        """C-5's wound states: unconscious and dead lose every turn (and are out of the
        fight); seriously wounded moves 1 cell a round (the allowance says it)."""
        state = state_of(health) if isinstance(health, Sheet) else UNINJURED
        if state in (UNCONSCIOUS, DEAD):
            return ConditionEffects(
                turn_lost=state,
                attack_barred=state,
                no_movement=True,
                no_reaction=True,
                dead=state == DEAD,
                out_of_combat=True,
            )
        if state == SERIOUSLY_WOUNDED:
            cells = data().tables.turn["seriously_wounded_cells_per_round"]
            return ConditionEffects(speed_cap=cells)
        return ConditionEffects()

    def start_initiative(self, roller: Roller, combatants: Sequence[Combatant]) -> Initiative:
        """C-1: 2d6 + DEX DM each with the battle's roller; ties by the higher DEX (kept as
        each entry's `tie`), then simultaneous (`acts_with`), listed in the order given."""
        entries = []
        for listed, c in enumerate(combatants):
            sheet = c.sheet if isinstance(c.sheet, Sheet) else Sheet()
            record = roller.roll(
                f"{data().tables.initiative['dice']}d6",
                f"initiative {c.entity_id}",
                secret=c.hidden,
            )
            total = record.total + sheet.char_dm("dex")
            entries.append((total, sheet.chars.get("dex", 0), listed, c, record))
        entries.sort(key=lambda e: (-e[0], -e[1], e[2]))
        order_data = [
            InitiativeEntry(c, record.total, total, listed, record, tie=dex).to_dict()
            for total, dex, listed, c, record in entries
        ]
        return Initiative.from_dict(
            {
                "order": order_data,
                "pending": [],
                "round": 1,
                "started": False,
                "reached": 0,
                "active": None,
                "skip": sorted(c.entity_id for c in combatants if c.surprised),
                "next_listed": len(combatants),
            }
        )

    def initiative_order(self, bf: Battlefield, rolls: Mapping[str, int]) -> list[InitiativeEntry]:
        """The order of given 2d6 rolls (C-1): + DEX DM, ties by DEX."""
        contenders = []
        for entity_id, roll in rolls.items():
            sheet = sheet_of(bf.entity(entity_id))
            contenders.append(
                Contender(entity_id, roll, sheet.char_dm("dex"), sheet.chars.get("dex", 0))
            )
        result = order(contenders, data().tables)
        listed = {entity_id: i for i, entity_id in enumerate(rolls)}
        return [
            InitiativeEntry(
                Combatant(i, bf.entity(i).faction, 0),
                rolls[i],
                result.scores[i],
                listed[i],
                tie=sheet_of(bf.entity(i)).chars.get("dex", 0),
            )
            for i in result.order
        ]

    def acts_with(self, order: Sequence[InitiativeEntry], unit: str) -> tuple[str, ...]:
        """000:l.70 (C-1): "Se sono ancora pari, i personaggi agiscono simultaneamente": the
        units of the same score now and the same DEX act as one group, whose harm lands when
        the last of them ends its turn (the battle's `Deferred`, as fantasy's F-1). A score
        changed this round (a reaction, hasty) leaves or joins a group; a delayed unit acts
        after the one it follows, never with it."""
        mine = next(((e.total, e.tie) for e in order if e.entity_id == unit), None)
        group = tuple(e.entity_id for e in order if (e.total, e.tie) == mine)
        return group if len(group) > 1 else ()

    def acts_with_rules(self) -> tuple[str, ...]:
        return ("C-1",)

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
        """C-4: 4 cells a minor action (crouched 2, prone 1), one minor action walking, three
        dashing; seriously wounded 1 cell a round, unconscious or dead none (C-5). The shared
        search's terrain costs halve it on rough ground. The request's other fields (the mode,
        microgravity) are the shared ones."""
        request, allow = tactics.move_request(bf, entity, mode, dash=False, stealth=False)
        minor = MINOR_DASHING if dash else MINOR_WALKING
        state = state_of(sheet_of(entity))
        cells = movement_allowance(minor, entity.stance.value, state, data().tables).cells
        if sheet_of(entity).tempo.aimed_this_turn or sheet_of(entity).tempo.reloads:
            cells = 0  # C-4: the turn's minor action went on aiming or reloading (round rules)
        budgets = {m: cells for m in request.budgets} if request.budgets else {}
        if budgets and request.mode not in budgets:
            budgets[request.mode] = cells
        cepheus_request = MoveRequest(
            budgets=budgets,
            mode="walk" if request.mode == "crawl" else request.mode,
            crawling=False,  # C-4's prone allowance is already the crawl
            athletics=request.athletics,
            velocity=request.velocity,
            has_thrusters=request.has_thrusters,
            max_cells=None,
        )
        if "walk" not in budgets and budgets and cepheus_request.mode == "walk":
            budgets["walk"] = cells
        if self.can_jump(bf, entity) is not None:  # seed 000 has no jumps (issue 15)
            budgets.pop("jump", None)
            if cepheus_request.mode == "jump":
                cepheus_request = replace(cepheus_request, mode="walk")
        allowance = MoveAllowance(
            budgets=dict(budgets),
            crawling=False,
            max_cells=None,
            drift=allow.drift,
            rules=("C-4", "C-5") if state != UNINJURED else ("C-4",),
            explanation=(),
        )
        # C-5: seed 000's zero-G rules cap skills, not moves: in 0 g C-4's cells also push off
        # a surface, with no check (docs/rules.md, "Microgravity under each ruleset")
        return microgravity_move(bf, entity, mode, (cepheus_request, allowance), cells)

    def sight(self, bf: Battlefield, frm: EntitySheet | Cell, to: EntitySheet | Cell) -> LosResult:
        # P-LOS-3 as in every ruleset: enemies block, allies do not (the shared kernel's rule).
        return tactics.sight(bf, frm, to)

    # ---------------------------------------------------------------- the computer's cover
    def cover_value(
        self, bf: Battlefield, unit: EntitySheet, threats: Sequence[EntitySheet]
    ) -> Fraction:
        """C-3: the cover DM an attack at `unit` takes, as a bonus (1/2 cover: 1, full: 4),
        with its stance's shift; full cover with a low stance (no hit at all) counts as the
        best row, as does being seen by no threat."""
        tables = data().tables
        best = Fraction(max(-dm for _grade, dm in tables.cover))
        low = unit.stance.value in ("crouched", "prone")

        def value(threat: EntitySheet) -> Fraction:
            grade = cover_grade(grid_cover(bf, threat, unit), low, tables)
            return best if grade.dm is None else Fraction(-grade.dm)

        return worst_cover(self.sight, bf, unit, threats, value, best)

    # ---------------------------------------------------------------- throws and areas at a cell
    # 000:l.134, 271-273, 351-353: a throw is an attack with a `lancio` weapon (Atletica + DEX
    # DM, the table's row); a miss bounces (6 + Effect) m; an explosive goes off where it lands.

    def can_throw(self, bf: Battlefield, thrower: EntitySheet) -> str | None:
        weapon = sheet_of(thrower).weapon
        return None if weapon is not None and weapon.kind == "thrown" else NO_THROWN_WEAPON

    def throw(
        self,
        bf: Battlefield,
        thrower: EntitySheet,
        to: EntitySheet | Cell,
        size: str,
        weapon: Weapon | None,
    ) -> Throw:
        """The Cepheus sheet's thrown weapon at an entity (the attack, with its cover and
        stance) or at a cell (`at_cell`); `size` and the map's `weapon` are not read."""
        cannot = self.can_throw(bf, thrower)
        if cannot is not None:
            return Throw(None, False, cannot, "out_of_range", ("C-1",))
        if isinstance(to, EntitySheet):
            attack = self.attack(bf, thrower, to)
        else:
            attack = at_cell(bf, thrower, to)
        band = str(attack.values.get("band", "out_of_range"))
        return Throw(attack.chance, False, attack.reason, band, attack.rules, attack.why, attack)

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
        """C-1's 2d6; a miss bounces (6 + Effect) m (000:l.353) in a d8's compass direction,
        stopping before a wall or the map's edge."""
        rolled = self.roll_attack(roller, throw.detail, advantage, purpose)
        records: tuple[RollRecord, ...] = (rolled.record,)
        cells = 0 if rolled.hit else bounce_cells(rolled.detail.effect)
        if not cells:
            return ThrowRoll(rolled.hit, aim, records, rolled.logged, ("C-1",), rolled.detail)
        direction = roller.die(BOUNCE_DIRECTIONS, f"throw bounce {thrower.id}")
        records = (*records, roller.log[-1])
        dx, dy, _dz = bounce_offset(direction, 1)
        landed = aim
        for _step in range(cells):
            nxt = (landed[0] + dx, landed[1] + dy, landed[2])
            if not bf.grid.in_bounds(nxt) or bf.grid.sight_block[nxt]:
                break
            landed = nxt
        return ThrowRoll(False, landed, records, rolled.logged, ("C-1",), rolled.detail)

    def throw_damage(
        self,
        roller: Roller,
        bf: Battlefield,
        thrower: EntitySheet,
        weapon: Weapon | None,
        size: str,
        roll: ThrowRoll,
    ) -> DamageRoll:
        """000:l.353: an impact thrown weapon's Nd6 (+ its bonus) + the throw's Effect."""
        own = sheet_of(thrower).weapon
        assert own is not None, "a Cepheus throw needs a thrown weapon (can_throw)"
        effect = roll.detail.effect if adds_effect(own.blast) and roll.detail is not None else 0
        record = roller.roll(f"{own.dice}d6", f"damage throw {thrower.id}")
        return DamageRoll(record, record.total + own.bonus + effect)

    def area_attack(
        self, bf: Battlefield, attacker: EntitySheet, weapon: Weapon, at: Cell
    ) -> Attack:
        """An explosive weapon (a blast) fired at a cell: the sheet weapon's check against
        nobody (`at_cell`), in sight of the cell; a weapon without a blast needs a target."""
        own = sheet_of(attacker).weapon
        if own is None or not own.blast:
            return Attack(None, "needs_target", (), (), values={"weapon": weapon.id})
        if not bf.grid.in_bounds(at):
            return Attack(None, "outside_map", (), (), values={"at": at})
        sight = self.sight(bf, attacker, at)
        if not sight.clear:
            why = tuple(tactics.sight_why(sight))
            return Attack(None, NO_LOS, (), sight.rules, why, values={"at": at, "why": why})
        return at_cell(bf, attacker, at)

    def area_victims(
        self, bf: Battlefield, attacker: EntitySheet | None, weapon: Weapon, origin: Cell
    ) -> tuple[str, ...] | None:
        """000:l.273: everyone within the explosive's blast (G-4 cells) of where it goes off,
        by a clear line from there (the shared area rule, P-AREA-1); None without a blast."""
        cells = None if attacker is None else self.area_cells(bf, attacker, weapon, origin)
        if cells is None:
            return None
        return tuple(o.id for c in cells for o in bf.occupancy.all_at(c))

    def area_cells(
        self, bf: Battlefield, attacker: EntitySheet, weapon: Weapon, origin: Cell
    ) -> tuple[Cell, ...] | None:
        """000:l.273: the cells within the sheet weapon's blast (G-4 cells) of `origin` that
        a clear line from there reaches (P-AREA-1), not the map's periferie weapon's pattern;
        None without a blast."""
        own = sheet_of(attacker).weapon
        if own is None or not own.blast:
            return None
        r = own.blast
        cube = [
            (x, y, z) for z in range(-r, r + 1) for y in range(-r, r + 1) for x in range(-r, r + 1)
        ]
        return tuple(area_cells(bf.grid, origin, cube, True))

    # ---------------------------------------------------------------- first aid (000:l.398)

    def medkit_refusal(
        self, bf: Battlefield, medic: EntitySheet, patient: EntitySheet, wound: str
    ) -> tuple[str, Mapping[str, object]] | None:
        """A dead patient, one neither the medic nor beside it (as periferie's medkit, G-5),
        or one with nothing damaged keeps the kit; `wound` is not read."""
        sheet = sheet_of(patient)
        if state_of(sheet) == DEAD:
            return "target_dead", {"target": patient.id}
        if medic.id != patient.id and chebyshev(medic.cell, patient.cell) > 1:
            return "not_adjacent", {"target": patient.id}
        if not damaged(sheet):
            return "no_such_wound", {"target": patient.id}
        return None

    def use_medkit(
        self,
        roller: Roller,
        bf: Battlefield,
        medic: EntitySheet,
        patient: EntitySheet,
        wound: str,
        advantage: Advantage,
    ) -> Aid:
        """000:l.398: 2d6 + Medico (Difficile, -2, on oneself) >= 8 (C-1); twice the Effect in
        characteristic points back (`first_aid.restore`). No advantage in Cepheus."""
        tables = data().tables
        dm = first_aid_dm(sheet_of(medic), medic.id == patient.id)
        record = roller.roll(f"{tables.check_dice}d6", f"first aid {medic.id}")
        check = resolve_check(record.dice, dm, tables)
        after, points = restore(sheet_of(patient), restored_points(check.effect))
        if state_of(sheet_of(patient)) == UNCONSCIOUS:  # the points back do not wake it (l.380)
            after = replace(after, unconscious=True)
        logged = {
            "chance": exact.fraction_text(check_chance(dm, tables)),
            "total": check.total,
            "effect": check.effect,
            "restored": points,
        }
        result = "first_aid" if check.success else "check_failed"
        return Aid(after, result, (record,), ("C-1",), logged)

    def aid_wanted(self, bf: Battlefield, patient: EntitySheet) -> str | None:
        """The computer's first aid (000:l.398) goes to a seriously wounded ally (all three
        characteristics damaged, 000:l.366: no minor action and 1.5 m a round, l.386), the
        worst state it can still be treated back from, as periferie's goes to a dying one; a
        merely wounded one fights on, and an unconscious one stays out of the fight for the
        battle whatever is done (it wakes after minutes, l.380). Its C-5 state is the `wound`."""
        state = state_of(sheet_of(patient))
        return state if state == SERIOUSLY_WOUNDED else None

    def medkit_wounds(self, bf: Battlefield, patient: EntitySheet) -> tuple[str, ...]:
        """000:l.398: first aid restores damaged characteristics, whatever the state: one
        entry, named by the patient's C-5 state (the `wound` `use_medkit` does not read), for
        a patient with any damaged; none for an uninjured one."""
        sheet = sheet_of(patient)
        return (state_of(sheet),) if damaged(sheet) else ()

    # ---------------------------------------------------------------- suppression (000:l.317-333)

    def can_suppress(self, bf: Battlefield, unit: EntitySheet) -> str | None:
        """000:l.317: suppression fire is a firearm's (a melee or thrown weapon has none)."""
        weapon = sheet_of(unit).weapon
        return None if weapon is not None and weapon.kind == "firearm" else NEEDS_FIREARM

    def suppression(self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet) -> Attack:
        """000:l.319: the attack rolled "normalmente, salvo l'applicazione di un MD-2", with
        the attacker's aim, burst and own DMs; the target takes no reaction (it is not shot
        at). The seed's unshakeable targets (l.323-333: vehicles, androids, battle dress...)
        are not in the sample sheets."""
        cannot = self.can_suppress(bf, attacker)
        if cannot is not None:
            return Attack(None, cannot, (), ("C-1",), values={"attacker": attacker.id})
        if attacker.id == target.id:
            return Attack(None, "self_target", (), (), values={"attacker": attacker.id})
        return self._attack(bf, attacker, target, None, worded=True, suppress=True)

    # ---------------------------------------------------------------- ammunition (000:l.97-99)

    def after_attack(self, sheet: Any, attack: Attack) -> Any:
        """The rounds the attack fired off the magazine: one, or its burst (000:l.245), twice
        that as suppression fire (l.319); a weapon without a magazine counts none."""
        result = attack.detail
        if not isinstance(sheet, Sheet) or not isinstance(result, rules_attack.Attack):
            return sheet
        rounds = 1
        for step in result.modifiers:
            if step.code in ("burst", "uncontrolled_burst"):
                rounds = int(step.detail)
        return ammo.fired(sheet, rounds, suppression=result.dm("suppression") is not None)

    def reload(self, sheet: Any) -> Any:
        """000:l.99: a full magazine again."""
        return ammo.reloaded(sheet) if isinstance(sheet, Sheet) else sheet

    def out_of_ammunition(self, sheet: Any) -> Mapping[str, object] | None:
        if not isinstance(sheet, Sheet):
            return None
        short = ammo.short_of(sheet)
        return None if short is None else {"left": short[0], "needs": short[1]}

    def can_reload(self, sheet: Any) -> bool | None:
        return isinstance(sheet, Sheet) and ammo.not_full(sheet)

    def reload_rules(self) -> tuple[str, ...]:
        return ("C-4",)

    # ---------------------------------------------------------------- hiding (C-3, assumed)
    # The seed has no stealth or perception rules: a unit hides behind any C-3 cover (after
    # its stance's row) from the enemies that see it, with a plain C-1 check, 2d6 + DEX DM
    # against 8; a search is the same check against the hider's total (docs/rules.md).

    def hides_behind(self, bf: Battlefield, enemy: EntitySheet, unit: EntitySheet) -> bool:
        low = unit.stance.value in ("crouched", "prone")
        return cover_grade(grid_cover(bf, enemy, unit), low, data().tables).in_cover

    def perception_dc(self, bf: Battlefield, watcher: EntitySheet) -> int:
        return data().tables.check_target  # C-1: 8+

    def stealth_roll(
        self,
        roller: Roller,
        bf: Battlefield,
        unit: EntitySheet,
        advantage: Advantage,
        dc: int | None,
        purpose: str,
    ) -> RollRecord:
        dm = sheet_of(unit).char_dm("dex")
        return roller.roll(f"{data().tables.check_dice}d6{dm:+d}", purpose)

    def search_roll(
        self,
        roller: Roller,
        bf: Battlefield,
        searcher: EntitySheet,
        advantage: Advantage,
        purpose: str,
    ) -> RollRecord:
        return self.stealth_roll(roller, bf, searcher, advantage, None, purpose)

    # ---------------------------------------------------------------- the weapon named
    def sheet_weapon(self, sheet: Any) -> WeaponShown | None:
        """The sheet's own weapon (the map's periferie weapon translated, sheets.toml's
        `from_periferie`) by its sample id, name and Nd6 damage; None for an unarmed sheet."""
        own = sheet.weapon if isinstance(sheet, Sheet) else None
        if own is None:
            return None
        bonus = f"{own.bonus:+d}" if own.bonus else ""
        return WeaponShown(sample_id(own), own.name, f"{own.dice}d6{bonus}")

    # ---------------------------------------------------------------- the field (issue 15)
    def field_effects(self, conditions: FieldConditions) -> tuple[Modifier, ...]:
        """000:l.213-217 (ReadsField): the DMs of a ranged attack or a throw in `conditions`,
        as the pure rules add them (a laser's smoke DM is doubled, shown with the shot)."""
        m = data().tables.mod
        found = [
            Modifier(f"dm_{name}", m(f"{name}_{value}"), ("C-1",))
            for name, value in (("darkness", conditions.darkness), ("smoke", conditions.smoke))
            if value != "none"
        ]
        if conditions.weather != "none":
            dm = m("weather_visibility") + m("weather_disturbance")
            found.append(Modifier("dm_weather", dm, ("C-1",)))
        return tuple(found)

    # ---------------------------------------------------------------- the unit card (issue 16)
    def health_shown(self, sheet: Any) -> HealthShown | None:
        """C-5: END, STR and DEX now and at most, the wound state they make (000:l.357-368)
        and the sheet's armour; a pip: wounded yellow, seriously wounded orange, unconscious
        red (the dead leave the board)."""
        if not isinstance(sheet, Sheet):
            return None
        state = state_of(sheet)
        rows = tuple((c, sheet.chars[c], sheet.max_of(c)) for c in CHARS if c in sheet.chars)
        pip = {"wounded": "light", SERIOUSLY_WOUNDED: "grave", UNCONSCIOUS: "mortal"}.get(state)
        pips = () if pip is None else (pip,)
        armour = (("armour", sheet.armour),) if sheet.armour else ()
        return HealthShown("characteristics", state, pips, rows, armour)


def sample_id(weapon: CepheusWeapon) -> str:
    """A sheet weapon's id in sheets.toml: the sheet holds the record, not its id, so the sample
    it equals (by name, for a record the battle may have changed); "" for a scenario's own."""
    samples = data().samples.weapons
    found = next((k for k, w in samples.items() if w == weapon), None)
    return found or next((k for k, w in samples.items() if w.name == weapon.name), "")


# ---------------------------------------------------------------- the round (C-1, C-4)


def round_situation(
    bf: Battlefield,
    attacker: EntitySheet,
    target: EntitySheet,
    geo: rules_attack.Geometry,
    *,
    suppress: bool = False,
) -> rules_attack.Situation:
    """What the attacker's round state and the target's standing reaction add to an attack:
    the aim at this target (+ the laser sight), hasty, its own reactions and suppression, the
    burst of its fire mode (000:l.79-87, 144, 160, 245, 319), and the target's dodge or parry
    (l.158-170, 343). Suppression fire (`suppress`, l.319) is -2 and aimed at what is near the
    target, not at it: the target takes no reaction (a success forces its dodge instead)."""
    a_sheet = sheet_of(attacker)
    mine, weapon = a_sheet.tempo, a_sheet.weapon
    taken = None if suppress else target_reaction(bf, attacker, target, geo)
    aimed = mine.aim if mine.aim_at == target.id else 0
    return rules_attack.Situation(
        aim=0 if mine.aim_kill else aimed,
        aim_to_kill=aimed if mine.aim_kill else 0,  # 000:l.91: damage, not the hit
        laser_sight=weapon is not None and weapon.laser_sight,
        hasty=mine.hasty,
        reactions=mine.reactions,
        burst=weapon.auto if weapon is not None and weapon.auto and mine.burst else None,
        dodge=taken == rules_tempo.DODGE,
        parry=taken == rules_tempo.PARRY,
        suppression=suppress,
        suppressed=mine.suppressed > 0,
    )


def target_reaction(
    bf: Battlefield, attacker: EntitySheet, target: EntitySheet, geo: rules_attack.Geometry
) -> str | None:
    """The reaction the target's standing choice takes to this attack: only aware of it when
    it sees the attacker (000:l.162, `aware_of`), not unconscious or dead; in cover (any grade,
    after the stance shift) a dodge is -2 (l.166)."""
    t_sheet, weapon = sheet_of(target), sheet_of(attacker).weapon
    t = t_sheet.tempo
    melee = weapon is not None and not weapon.ranged
    prone = geo.target_stance == "prone"
    if t.react == "never" or weapon is None or (prone and not melee):
        return None
    if state_of(t_sheet) in (UNCONSCIOUS, DEAD):
        return None
    tables = data().tables
    grade = cover_grade(geo.cover, geo.target_stance in ("crouched", "prone"), tables)
    return rules_tempo.choose_reaction(
        t,
        aware=aware_of(bf, target, attacker),
        # 000:l.91: aiming to kill, "non può schivare" (as prone: a parry is still taken)
        prone=prone or rules_tempo.aiming_to_kill(t),
        melee=melee,
        in_cover=grade.in_cover,
        mischia=t_sheet.skill("mischia"),
        able=True,
        tables=tables,
    )


def aware_of(bf: Battlefield, defender: EntitySheet, attacker: EntitySheet) -> bool:
    """000:l.162 "solo ad attacchi di cui è consapevole": the defender sees the attacker, by
    its own line of sight and not hidden from its side (the battle's hiding, P-STL-1/2): an
    attack from hiding, or past the attacker's ally that hides it from the defender, is not
    dodged (docs/rules.md, "Cepheus in the battle")."""
    if defender.faction in attacker.hidden_from:
        return False
    return tactics.sight(bf, defender, attacker).clear


def burst_extra(attack: Attack | None) -> tuple[int, int]:
    """The attack's extra damage, a burst's (000:l.249-256) and aiming to kill's (l.91, C-5):
    (d6 count, constant), read back from its `extra_damage` ("1d6+3", "3", "0")."""
    result = None if attack is None else attack.detail
    if not isinstance(result, rules_attack.Attack) or result.chance is None:
        return 0, 0
    text = result.extra_damage
    if "d6" not in text:
        return 0, int(text)
    dice, constant = text.split("d6")
    return int(dice), int(constant or 0)


def _tempo_sheet(sheet: object) -> Sheet:
    return sheet if isinstance(sheet, Sheet) else Sheet()


class CepheusRound:
    """C-1/C-4 within the round (game.tactics.ruleset.RoundRules): the unit's `Tempo` lives in
    its sheet; the battle asks this object, which never knows the battle."""

    def start_round(self, sheet: object) -> object:
        s = _tempo_sheet(sheet)
        after = rules_tempo.start_round(s.tempo)
        return sheet if after is s.tempo else replace(s, tempo=after)

    def start_turn(self, sheet: object) -> object:
        s = _tempo_sheet(sheet)
        after = rules_tempo.start_turn(s.tempo)
        return sheet if after is s.tempo else replace(s, tempo=after)

    def after_command(self, sheet: object, kind: str) -> object:
        s = _tempo_sheet(sheet)
        after = rules_tempo.after_command(s.tempo, kind)
        return sheet if after is s.tempo else replace(s, tempo=after)

    def aim(
        self, sheet: object, target: str, action: str | None, *, kill: bool = False
    ) -> tuple[object, bool]:
        s = _tempo_sheet(sheet)
        tables = data().tables
        lost = 1 if state_of(s) == SERIOUSLY_WOUNDED else 0  # 000:l.386: no minor action
        after = rules_tempo.aim(s.tempo, target, action, tables, lost, kill)
        return replace(s, tempo=after), rules_tempo.aim_spends_action(after, tables, lost)

    def declare_hasty(self, sheet: object) -> tuple[object, int]:
        s = _tempo_sheet(sheet)
        after = rules_tempo.declare_hasty(s.tempo)
        return replace(s, tempo=after), data().tables.initiative["hasty"]

    def toggle(self, sheet: object, what: str) -> tuple[object, str]:
        s = _tempo_sheet(sheet)
        t = s.tempo
        if what == "fire_mode":
            if s.weapon is None or not s.weapon.auto:
                raise RulesRefusal("no_auto_fire")
            return replace(s, tempo=replace(t, burst=not t.burst)), "single" if t.burst else "burst"
        after = rules_tempo.next_react_mode(t)
        return replace(s, tempo=after), after.react

    def reaction(self, attack: Attack) -> str | None:
        result = attack.detail
        if not isinstance(result, rules_attack.Attack):
            return None
        for code in (rules_tempo.DODGE, rules_tempo.PARRY):
            if result.dm(code) is not None:
                return code
        return None

    def reacted(self, sheet: object) -> tuple[object, int]:
        s = _tempo_sheet(sheet)
        after = rules_tempo.reacted(s.tempo)
        return replace(s, tempo=after), data().tables.initiative["per_reaction"]

    def computer_toggles(self, sheet: object) -> tuple[str, ...]:
        # A burst is always the better shot (+DM, more damage); it reloads when short of one.
        # It reacts once its turn is over, where the reaction's -1 costs it no check (C-4).
        s = _tempo_sheet(sheet)
        auto = s.weapon is not None and s.weapon.auto
        fire = ("fire_mode",) if auto and not s.tempo.burst else ()
        return fire + (("react_stance",) if s.tempo.react != "after_acting" else ())

    def turn_begun(self, sheet: object) -> bool:
        t = _tempo_sheet(sheet).tempo
        return t.aimed_this_turn > 0 or t.reloads > 0

    def standing(self, sheet: object, what: str) -> str | None:
        s = _tempo_sheet(sheet)
        if what == "fire_mode":
            auto = s.weapon is not None and s.weapon.auto
            return ("burst" if s.tempo.burst else "single") if auto else None
        return s.tempo.react if what == "react_stance" else None

    def minor_action(self, sheet: object, kind: str, action: str | None) -> tuple[object, bool]:
        # 000:l.99: a reload is a minor action, counted as an aim is (C-4)
        s = _tempo_sheet(sheet)
        if kind != "reload":
            raise RulesRefusal("not_in_ruleset", command=kind)
        tables = data().tables
        lost = 1 if state_of(s) == SERIOUSLY_WOUNDED else 0  # 000:l.386: no minor action
        after = rules_tempo.reload_minor(s.tempo, action, tables, lost)
        return replace(s, tempo=after), rules_tempo.aim_spends_action(after, tables, lost)

    def suppressed(self, sheet: object, roll: AttackRoll) -> tuple[object, int]:
        s = _tempo_sheet(sheet)
        effect = roll.detail.effect if roll.detail is not None else 0
        after, change = rules_tempo.suppress(s.tempo, effect)
        return replace(s, tempo=after), change


ROUND = CepheusRound()
_ROUND_CHECKED: RoundRules = ROUND
CepheusBattle.round_rules = ROUND  # the optional side the battle asks (ruleset.round_rules)


BATTLE = CepheusBattle()
#: mypy checks here that the object implements the whole protocol.
_CHECKED: BattleRules = BATTLE
