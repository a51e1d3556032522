"""The ruleset interface: what the query, the battle and the window ask of a combat system.

One object per ruleset, chosen by the id in the one list (`game/rules/registry.py`). Its pure
rules live in `game/rules/<id>/` (periferie's in the modules of `game/rules/` themselves) with
its data in `game/data/<id>/`; the object sits here, in tactics, because it combines those rules
with the shared grid (line of sight, cover samples, distances, path search), which pure rules
may not import. Code asks the object; nothing branches on a ruleset's name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Protocol, cast, runtime_checkable

from game.grid.area import area_cells
from game.grid.los import LosResult
from game.grid.model import Cell
from game.grid.movement import MoveRequest
from game.rules import registry
from game.rules.data import RulesData, Weapon
from game.rules.dice import Advantage, Roller, RollRecord
from game.rules.initiative import Combatant, Initiative, InitiativeEntry
from game.rules.movement import MoveAllowance
from game.rules.reader import as_cell, as_str, fail
from game.rules.ruleset_answers import (
    NOT_OFFERED,
    Aid,
    Attack,
    AttackRoll,
    ConditionEffects,
    DamageChoice,
    DamageRoll,
    DamageSpent,
    DefenceWon,
    GrabBreak,
    Harm,
    HealthShown,
    Modifier,
    Saddle,
    Throw,
    ThrowRoll,
    TurnBudget,
    TurnEffects,
    TurnStep,
    WeaponShown,
)
from game.tactics.battlefield import Battlefield, EntitySheet, FieldConditions

Json = dict[str, Any]
#: A `tessera query` question: (battlefield, the query object, where it is in the file) -> answer.
QueryHandler = Callable[[Battlefield, Mapping[str, object], str], Json]

#: Scenario entity fields every ruleset reads the same way (QUERY-FORMAT.md, RULESETS.md §4).
SHARED_ENTITY_FIELDS = ("id", "faction", "at", "name", "stance", "size", "neutral")


@dataclass(frozen=True)
class Query:
    """One query kind a ruleset answers, with the fields it accepts besides `q`."""

    handler: QueryHandler
    fields: tuple[str, ...]


class BattleRules(Protocol):
    """The battle side of a ruleset: every question the battle, the previews, the action bar,
    the computer player and the wording ask of a combat system (docs/architecture.md, "The
    ruleset interface"). Answers are the plain records of game/rules/ruleset_answers.py."""

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
        """The exact chance of `attacker` hitting `target` (with `weapon`, else its own), or
        None and the reason; `los` when the caller has it; `worded` False skips the words."""
        ...

    def roll_attack(
        self, roller: Roller, attack: Attack, advantage: Advantage, purpose: str
    ) -> AttackRoll:
        """Resolve an attack that has a chance with the battle's seeded roller."""
        ...

    def expected_harm(
        self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet, attack: Attack
    ) -> Fraction:
        """What the attack is worth to the computer player: its expected harm to the target
        in the ruleset's own measure (0 without a chance)."""
        ...

    @property
    def worth_attacking(self) -> Fraction:
        """The expected harm above which the computer takes a shot at once, before moving."""
        ...

    # ---------------------------------------------------------------- damage and health
    def roll_damage(
        self,
        roller: Roller,
        bf: Battlefield,
        attacker: EntitySheet | None,
        weapon: Weapon,
        attack: Attack | None,
        roll: AttackRoll | None,
    ) -> DamageRoll:
        """A hit's damage rolled with the battle's roller, once for every victim of it:
        `attack` and `roll` are the attack that hit (None for an area at a cell or a throw),
        for a ruleset whose damage depends on the roll (Cepheus: Nd6 + Effect)."""
        ...

    def damage(self, bf: Battlefield, target: EntitySheet, damage_type: str, rolled: int) -> Harm:
        """`rolled` damage of `damage_type` reaching `target`: its health value after."""
        ...

    def condition_effects(self, health: Any) -> ConditionEffects:
        """What the ruleset's health value does to its owner's turn."""
        ...

    # ---------------------------------------------------------------- initiative
    def start_initiative(self, roller: Roller, combatants: Sequence[Combatant]) -> Initiative:
        """The battle's order: everyone rolls with the battle's roller (round 1)."""
        ...

    def initiative_order(self, bf: Battlefield, rolls: Mapping[str, int]) -> list[InitiativeEntry]:
        """The order from given rolls, ties broken as the ruleset says."""
        ...

    # ---------------------------------------------------------------- the turn
    def turn_budget(self) -> TurnBudget:
        """The slots of a turn and what each player command costs; the commands that exist."""
        ...

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
        """The movement allowance in cells per mode for the shared path search; in
        microgravity also the modes that move there (`jump` or `push_off`, `thrusters` for a
        unit that wears them: docs/rules.md, "Microgravity under each ruleset")."""
        ...

    # ---------------------------------------------------------------- sight and reactions
    def sight(self, bf: Battlefield, frm: EntitySheet | Cell, to: EntitySheet | Cell) -> LosResult:
        """The line of sight with the entities the ruleset lets block it (and the viewer's
        conditions) over the shared 3D kernel."""
        ...

    @property
    def reactions(self) -> frozenset[str]:
        """The reactions that exist: "opportunity_attack" (leaving reach), "readied_attack"
        (a readied ranged attack); none for a ruleset without them."""
        ...

    # ---------------------------------------------------------------- the computer's cover
    def cover_value(
        self, bf: Battlefield, unit: EntitySheet, threats: Sequence[EntitySheet]
    ) -> Fraction:
        """How well `unit`, where it stands on `bf`, is covered from the `threats` that see it,
        in the ruleset's own measure (periferie: its grades scored; Cepheus: the cover DM;
        d20: the AC bonus...), higher is better: the worst cover from any one of them, the
        ruleset's best when none sees it (rulesets/cover_seeking.py). The computer seeks it."""
        ...

    # ---------------------------------------------------------------- added with defaults
    # A battle object that subclasses BattleRules inherits these; each says what the shared
    # battle does for a ruleset without the rule (periferie's journals stay as they were).
    def reaction_attack(
        self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet, weapon: Weapon
    ) -> Attack:
        """The attack a reaction makes on the unit that provoked it (fantasy: the free back
        attack on a fleeing fighter, 003:l.67); by default the ordinary attack."""
        return self.attack(bf, attacker, target, weapon, worded=True)

    def reloading(self, sheet: Any) -> int:
        """Turns of reloading the unit's weapon still needs before it fires again (fantasy's
        CAD, 003:l.140), from its ruleset sheet; 0: ready (by default always)."""
        return 0

    def after_attack(self, sheet: Any, attack: Attack) -> Any:
        """The attacker's ruleset sheet after it made `attack` (fantasy: a CAD weapon now
        needs reloading); by default unchanged."""
        return sheet

    def reload(self, sheet: Any) -> Any:
        """The ruleset sheet after one turn spent reloading (the `reload` command, which
        exists where `turn_budget` lists it); by default unchanged."""
        return sheet

    def acts_with(self, order: Sequence[InitiativeEntry], unit: str) -> tuple[str, ...]:
        """The units of `order` that act simultaneously with `unit` (itself included), whose
        harm done while they act is applied together when the last of them ends its turn
        (fantasy F-1); () when `unit` acts alone (by default always)."""
        return ()

    def gm_conditions(self) -> tuple[str, ...]:
        """The conditions the GM may give a unit or take from it (the `condition` command on
        its health value), in the order the GM's tools list them; by default none (Myst,
        fantasy and Cepheus keep no named conditions; d20's live on its sheet, not its health
        value, where the `condition` command cannot set them yet)."""
        return ()

    def initiative_text(self, total: int) -> str:
        """An initiative total as the tracker shows it (fantasy: its AGI and DES dice); by
        default the roll's total."""
        return str(total)

    def attack_weapon(self, attack: Attack) -> WeaponShown | None:
        """The weapon `attack` was made with when the ruleset's answer knows it (Myst, fantasy:
        the sheet's), for the log to name; None: the attacker's `sheet_weapon`, else periferie's
        weapon, named by its id in the event."""
        return None

    def sheet_text(self, sheet: Any) -> str:
        """A unit's ruleset sheet in one line for `tessera summary` (fantasy: its dice, weapon,
        DP and body points); "" by default (periferie's sheet is its template)."""
        return ""

    def carries_weapon(self, sheet: Any) -> bool | None:
        """Whether the unit with this ruleset sheet has a weapon to attack with (its sheet's,
        whatever the map gave it in periferie's terms), or None to go by periferie's `Armed`
        weapon (by default: periferie's sheet is its components)."""
        return None

    # ---------------------------------------------------------------- throws and areas at a cell
    def can_throw(self, bf: Battlefield, thrower: EntitySheet) -> str | None:
        """The reason code `thrower` cannot throw anything now, whatever at (the action bar
        greys the throw with it): ruleset_answers.NOT_OFFERED for a ruleset without throws;
        None: it may try."""
        ...

    def throw(
        self,
        bf: Battlefield,
        thrower: EntitySheet,
        to: EntitySheet | Cell,
        size: str,
        weapon: Weapon | None,
    ) -> Throw:
        """A throw at an entity or a cell: of the thrown `weapon` in hand, else of an object of
        periferie's `size` (light, medium, heavy; a ruleset without sizes ignores it)."""
        ...

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
        """Resolve a possible throw aimed at the cell `aim` with the battle's roller: hit or
        not, and where it landed (a miss may go astray), every roll in order."""
        ...

    def throw_damage(
        self,
        roller: Roller,
        bf: Battlefield,
        thrower: EntitySheet,
        weapon: Weapon | None,
        size: str,
        roll: ThrowRoll,
    ) -> DamageRoll:
        """The damage of a thrown object (not an area weapon) that hit its target."""
        ...

    def area_attack(
        self, bf: Battlefield, attacker: EntitySheet, weapon: Weapon, at: Cell
    ) -> Attack:
        """An area weapon fired at the cell `at` (nobody aimed at): its chance, rolled with
        `roll_attack`, or the reason there is none (with the values its wording needs)."""
        ...

    def area_victims(
        self, bf: Battlefield, attacker: EntitySheet | None, weapon: Weapon, origin: Cell
    ) -> tuple[str, ...] | None:
        """The entities a hit of an area weapon going off at `origin` reaches, in a fixed
        order; None for a weapon without an area (only the one aimed at is hurt)."""
        ...

    def area_cells(
        self, bf: Battlefield, attacker: EntitySheet, weapon: Weapon, origin: Cell
    ) -> tuple[Cell, ...] | None:
        """The cells a hit of the area weapon `attacker` fights with covers going off at
        `origin` (the window's overlay when it aims at a cell), None for a weapon without an
        area. By default periferie's `weapon` pattern (P-AREA-1: through sight unless the
        weapon ignores it); a ruleset whose sheet has its own weapon reads that (Cepheus)."""
        if not weapon.area:
            return None
        return tuple(area_cells(bf.grid, origin, weapon.area, not weapon.area_ignores_sight))

    # ---------------------------------------------------------------- medkits (first aid)
    def medkit_refusal(
        self, bf: Battlefield, medic: EntitySheet, patient: EntitySheet, wound: str
    ) -> tuple[str, Mapping[str, object]] | None:
        """Why `medic` may not use a medkit on `patient` (its ally or itself) now, the kit kept:
        a reason code and the values its wording needs; None: it may. `wound` is periferie's
        wound treated (light, grave, mortal); a ruleset without wound kinds ignores it."""
        ...

    def use_medkit(
        self,
        roller: Roller,
        bf: Battlefield,
        medic: EntitySheet,
        patient: EntitySheet,
        wound: str,
        advantage: Advantage,
    ) -> Aid:
        """A medkit used (the kit is spent) after `medkit_refusal` said yes: the check rolled
        with the battle's roller and the patient's health value after."""
        ...

    # ---------------------------------------------------------------- hiding and searching
    # The battle's hiding is shared (P-STL-1/2: hidden from a side none of whose units sees the
    # unit in the open, found by a search or a failed stealth check); the ruleset gives the
    # cover that hides, the checks and the total a stealth check must reach.
    def hides_behind(self, bf: Battlefield, enemy: EntitySheet, unit: EntitySheet) -> bool:
        """Whether `unit`, in `enemy`'s sight, has cover enough from it to hide behind."""
        ...

    def perception_dc(self, bf: Battlefield, watcher: EntitySheet) -> int:
        """The total a stealth check must reach to slip past `watcher`."""
        ...

    def stealth_roll(
        self,
        roller: Roller,
        bf: Battlefield,
        unit: EntitySheet,
        advantage: Advantage,
        dc: int | None,
        purpose: str,
    ) -> RollRecord:
        """`unit`'s stealth check with the battle's roller (its total is what a search must
        reach); `dc` is the target logged with it, when there is one."""
        ...

    def search_roll(
        self,
        roller: Roller,
        bf: Battlefield,
        searcher: EntitySheet,
        advantage: Advantage,
        purpose: str,
    ) -> RollRecord:
        """`searcher`'s search: it finds a hidden unit in its sight whose stealth total it meets."""
        ...

    # ---------------------------------------------------------------- attacks of opportunity
    def provokes(
        self,
        bf: Battlefield,
        mover: EntitySheet,
        reactor: EntitySheet,
        from_cell: Cell,
        to_cell: Cell,
    ) -> bool | None:
        """Whether `mover`'s step from `from_cell` to `to_cell` (a move's step, never d20's
        5-foot step) provokes its enemy `reactor`'s attack of opportunity, or None for the shared
        rule: leaving the reactor's reaction area, the 26 cells around it (P-OA-1, G-5; the
        battle's `reaction_exits`). By default None. Once a round per reactor, Disengage and
        whether the ruleset has the reaction at all (`reactions`) stay the battle's business."""
        return None

    # ---------------------------------------------------------------- jumps, help, advantage
    # Seed 001's own (P-JUMP-1..3, P-CHK-2); no other seed has them (docs/rules.md, "Jumps,
    # help and advantage under each ruleset"): by default a ruleset has none of the three and
    # the computer gives no first aid. Periferie's object answers as the battle did before.
    def can_jump(self, bf: Battlefield, jumper: EntitySheet) -> str | None:
        """The reason code `jumper` has no jumps at all (ruleset_answers.NOT_OFFERED: its move
        has no `jump` mode nor any drop off an edge, and a move in mode `jump` is refused with
        it); None: it jumps and drops by `move_request`'s jump budget."""
        return NOT_OFFERED

    def roll_leap(
        self,
        roller: Roller,
        bf: Battlefield,
        unit: EntitySheet,
        dc: int,
        advantage: Advantage,
        purpose: str,
    ) -> RollRecord:
        """The check of a jump higher or a drop deeper than the unit may make without one, at
        `dc` (the path search's), with the battle's roller; asked only where `can_jump` is None."""
        raise ValueError("this ruleset has no jumps: no leap check to roll (can_jump says so)")

    def can_help(self, bf: Battlefield, helper: EntitySheet) -> str | None:
        """The reason code `helper` cannot help an ally at all (NOT_OFFERED: the action bar
        greys `help` with it, the battle refuses it); None: it may help an ally beside it."""
        return NOT_OFFERED

    def advantage(self, *, helped: bool, dodging: bool, crowded: bool) -> Advantage:
        """The advantage of a unit's next roll from the battle's facts: an ally's help, a
        dodging target, a cell shared with another unit (P-MOV-8); Advantage.NONE for a
        ruleset without advantage (by default)."""
        return Advantage.NONE

    def aid_wanted(self, bf: Battlefield, patient: EntitySheet) -> str | None:
        """What the computer treats first on its ally `patient` with a medkit (the `wound` a
        `use_medkit` is given), or None: the ally needs no first aid the ruleset gives (by
        default none ever)."""
        return None

    def medkit_wounds(self, bf: Battlefield, patient: EntitySheet) -> tuple[str, ...]:
        """The `wound`s a medkit could be used for on `patient` (one each; `medkit_refusal`
        then says whether it may now), gravest first: the board's right-click menu lists them
        on an ally. Empty (by default): nothing first aid treats."""
        return ()

    def sheet_weapon(self, sheet: Any) -> WeaponShown | None:
        """The weapon the unit with this ruleset sheet fights with, as the unit card, the log
        of a throw or a shot at a cell and an attack name it (its id, data name and damage dice
        in the ruleset's own terms), or None: periferie's `Armed` weapon is the one (by
        default: periferie's sheet is its components)."""
        return None

    def threatens(self, entity: EntitySheet, cell: Cell) -> bool | None:
        """Whether `entity` threatens `cell` (d20's cells within its reach, D-1), or None for
        the shared reaction area, the 26 cells around it (G-5). By default None. The computer
        reads it to step out of every threat (d20's 5-foot step, D-2)."""
        return None

    def exertion(self, unit: EntitySheet, act: str) -> int:
        """The damage `act` ("attack", or "opportunity_attack" as a reaction) costs `unit` once
        done, dealt to it by the battle as a hit from "exertion" (d20's disabled creature: 1
        hit point for a strenuous act, assumed, D-2). By default 0."""
        return 0

    # ---------------------------------------------------------------- a unit's own state
    # Myst keeps a charge's run-up and the round's defences in its units' sheets (002:l.189,
    # M-2); by default both leave the sheet as it is (no other ruleset's state changes).
    def after_step(self, sheet: Any) -> Any:
        """The ruleset sheet of a unit that walked one more cell of a move this turn."""
        return sheet

    def after_defence(self, sheet: Any, attack: Attack) -> Any:
        """The ruleset sheet of an attack's target after it defended against `attack`."""
        return sheet

    # ---------------------------------------------------------------- simultaneous groups
    def acts_with_rules(self) -> tuple[str, ...]:
        """The rulings a simultaneous group (`acts_with`) stands on, cited where its harm is
        kept aside (Cepheus: C-1); by default fantasy's F-1."""
        return ("F-1",)

    # ---------------------------------------------------------------- suppression fire
    def can_suppress(self, bf: Battlefield, unit: EntitySheet) -> str | None:
        """The reason code `unit` cannot lay suppression fire now, whatever at (the board's
        menu greys it with it): NOT_OFFERED for a ruleset without it (by default); None: it
        may try (an attack with `suppress`)."""
        return NOT_OFFERED

    def suppression(self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet) -> Attack:
        """The chance of suppression fire at `target` (Cepheus: 000:l.317-321, the attack with
        -2 and no reaction of the target's); rolled as an attack, a success suppresses the
        target (RoundRules.suppressed). By default none."""
        return Attack(None, NOT_OFFERED, (), ())

    # ---------------------------------------------------------------- ammunition
    def out_of_ammunition(self, sheet: Any) -> Mapping[str, object] | None:
        """The values of the `out_of_ammo` refusal when the unit with this ruleset sheet has
        fewer rounds than its next attack fires (Cepheus's magazines, 000:l.99); None: it may
        fire (by default always: ammunition is not counted)."""
        return None

    def can_reload(self, sheet: Any) -> bool | None:
        """Whether a `reload` would put rounds back (Cepheus: a magazine short of full), or None
        to go by `reloading` (fantasy's CAD: only while it still needs reloading)."""
        return None

    def reload_rules(self) -> tuple[str, ...]:
        """The rulings a reload stands on, cited in its event; by default fantasy's F-3."""
        return ("F-3",)

    # ---------------------------------------------------------------- shared cell, improvising
    # (issue 15) Periferie's d20 checks by name no more under every ruleset.

    def shared_cell_save(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, other: EntitySheet, purpose: str
    ) -> RollRecord:
        """The save of `unit` when a move nobody steered (a leap in flight, a drift) ended it
        in `other`'s cell, or `other`'s in its (P-MOV-8), its outcome "success" when saved.
        Asked only where two units may come to share a cell, a ruleset with jumps
        (`can_jump` None): no other ruleset's move ends in an occupied cell."""
        raise ValueError("this ruleset never lets two units share a cell: no save to roll")

    def improvised_checks(self) -> tuple[str, ...]:
        """The checks the GM may resolve an improvised action with, by id (the GM's prompt
        lists them by name, game/text/names.check_name); empty: accept or reject only."""
        return ()

    def roll_improvised(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, check: str, dc: int, purpose: str
    ) -> RollRecord:
        """The GM's check on `unit`'s improvised action: `check` one of `improvised_checks`,
        `dc` the difficulty the GM typed; the record's outcome is "success" or "failure"."""
        raise ValueError(f"this ruleset has no improvised check {check!r}")

    # ---------------------------------------------------------------- the unit card (issue 16)
    def health_shown(self, sheet: Any) -> HealthShown | None:
        """The health and armour of the unit with this ruleset sheet as the card and the
        token's pips show them, in the ruleset's own terms (Myst's Status Globale, fantasy's
        body sections and armour per location, Cepheus's END/STR/DEX, d20's hit points), or
        None: periferie's wound ladder and armour are the ones (by default)."""
        return None


class TurnRules(Protocol):
    """The start- and end-of-turn effects of a ruleset's battle side: an object of `BattleRules`
    may also have these three (`turn_rules` answers a default without effects for one that has
    not). Each gets the battle's roller, the battlefield, the unit and its health value (the
    ruleset's own, as `condition_effects` reads it) and answers its `TurnEffects`."""

    def turn_begins(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, health: Any
    ) -> TurnEffects:
        """As the unit's turn begins, before its momentum carries it (P-ZERO-1): what ends
        with it (periferie: stunned and shock, whose lost turn this is, P-VUL-3)."""
        ...

    def turn_start(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, health: Any
    ) -> TurnEffects:
        """Once the unit stands where its turn starts: the rolled effects (periferie: the
        death save P-DEATH-1, then the burn P-VUL-3; d20: a dying creature's d% of D-2)."""
        ...

    def turn_end(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, health: Any
    ) -> TurnEffects:
        """As the unit's turn ends (periferie: burning and blinded end, P-VUL-3)."""
        ...


class NoTurnEffects:
    """A ruleset without start- or end-of-turn effects (Cepheus, Myst, fantasy today)."""

    def turn_begins(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, health: Any
    ) -> TurnEffects:
        return TurnEffects(health)

    def turn_start(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, health: Any
    ) -> TurnEffects:
        return TurnEffects(health)

    def turn_end(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, health: Any
    ) -> TurnEffects:
        return TurnEffects(health)


NO_TURN_EFFECTS: TurnRules = NoTurnEffects()


def turn_rules(rules: BattleRules) -> TurnRules:
    """The ruleset's start- and end-of-turn effects: its battle object when it has them, else
    NO_TURN_EFFECTS."""
    if all(hasattr(rules, name) for name in ("turn_begins", "turn_start", "turn_end")):
        return cast(TurnRules, rules)
    return NO_TURN_EFFECTS


@runtime_checkable
class ShapesDamage(Protocol):
    """What a ruleset whose attacker shapes a hit's damage after the dice answers besides
    `BattleRules` (Myst: the attack margin spent on Strength, the die minimum or reduction,
    M-1). Its `roll_damage` puts the waiting value in `DamageRoll.choice`; the battle keeps it
    until the attacker's `spend_margin` (or applies the computer's choice at once)."""

    def damage_choice(self, choice: Any) -> DamageChoice:
        """The units to spend, each use's cap, the die rolled and one plan per damage."""
        ...

    def spend_damage(self, choice: Any, uses: Mapping[str, int]) -> DamageSpent:
        """The damage of `uses` (units per use; a use left out is 0), or the refusal of the
        first rule they break."""
        ...


def damage_shaper(rules: BattleRules) -> ShapesDamage | None:
    """The battle side's answers about damage chosen after the dice, when it has them."""
    return rules if isinstance(rules, ShapesDamage) else None


@runtime_checkable
class CountersDefence(Protocol):
    """What a ruleset whose won defence buys counter-moves answers besides `BattleRules`
    (Myst: the defence margin, 20 points a move, M-1). The defender is not at the screen when
    it is attacked: its standing plan (the `defence_plan` command on its own turn) decides,
    else the ruleset's own choice (the computer's)."""

    @property
    def defence_moves(self) -> tuple[str, ...]:
        """The counter-moves a standing plan may name, in the ruleset's order."""
        ...

    def computer_plan(
        self, bf: Battlefield, unit: EntitySheet, enemies: Sequence[EntitySheet]
    ) -> tuple[str, ...]:
        """The standing plan the computer keeps for `unit`, against `enemies` (the ones its
        side sees), chosen again on each of its turns."""
        ...

    def keeps_grab(self, bf: Battlefield, unit: EntitySheet, other: EntitySheet) -> bool:
        """The computer's `unit`, in a grab with `other`, leaves it as it is this turn: the
        holder does not let go, the held one does not try to break it."""
        ...

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
        """After an attack that missed: what the target's won defence buys with `plan` (None:
        the ruleset's choice), a counterattack rolled with the battle's roller; None when the
        defence won nothing."""
        ...

    def break_off_cell(
        self, steps: Sequence[Cell], attacker: EntitySheet, defender: EntitySheet
    ) -> Cell | None:
        """Where a defender breaking off steps among the free `steps` (out of the attacker's
        reach), or None where none leaves it."""
        ...

    def break_grab(
        self, roller: Roller, breaker: EntitySheet, holder: EntitySheet, purpose: str
    ) -> GrabBreak:
        """The grabbed `breaker`'s roll to break `holder`'s grab, with the battle's roller."""
        ...


def defence_counters(rules: BattleRules) -> CountersDefence | None:
    """The battle side's answers about a won defence's counter-moves, when it has them."""
    return rules if isinstance(rules, CountersDefence) else None


@runtime_checkable
class ReadsField(Protocol):
    """What a ruleset whose attacks read the battlefield's light, smoke and weather answers
    besides `BattleRules` (issue 15: Cepheus's DMs, d20's concealment). Its attacks read
    `Battlefield.conditions` themselves; this only says what the conditions do, for the GM's
    tools. A ruleset without it ignores them (its seed has no such rule: docs/rules.md)."""

    def field_effects(self, conditions: FieldConditions) -> tuple[Modifier, ...]:
        """What `conditions` do to an attack at range (empty: nothing), worded by
        explain.modifier_line."""
        ...


def field_reader(rules: BattleRules) -> ReadsField | None:
    """The battle side's answer about the battlefield's conditions, when its seed has one."""
    return rules if isinstance(rules, ReadsField) else None


class NotPlayable(ValueError):
    """A ruleset listed in the registry whose battle side does not exist yet (query only)."""


class Ruleset(Protocol):
    """A combat system on the shared grid."""

    @property
    def id(self) -> str:
        """The id maps, scenarios and journals name it by (registry.IDS)."""
        ...

    @property
    def entity_fields(self) -> tuple[str, ...]:
        """The scenario entity fields it reads besides SHARED_ENTITY_FIELDS; others are refused."""
        ...

    @property
    def queries(self) -> Mapping[str, Query]:
        """The `tessera query` kinds it answers besides the shared ones (los, distance, chance)."""
        ...

    def read_entity(
        self, spec: Mapping[str, object], where: str, base: EntitySheet, rules: RulesData
    ) -> EntitySheet:
        """`base` (the shared fields read) completed from the ruleset's own fields of `spec`;
        bad input is a ScenarioError naming `where` and the field."""
        ...

    def unit_fields(
        self, template: str | None, weapon: str | None, armour: str | None
    ) -> dict[str, object]:
        """The scenario entity fields of a map's unit from its Tiled properties (periferie's
        template, weapon and armour ids); another ruleset gives its sample sheet instead."""
        ...

    @property
    def battle(self) -> BattleRules | None:
        """Its battle side, or None while it answers queries only (refused where a battle
        starts: `battle_rules`)."""
        ...


def ruleset_for(ruleset_id: str) -> Ruleset:
    """The object of the ruleset `ruleset_id` (registry.UnknownRuleset if it is not listed)."""
    return _load(registry.ruleset(ruleset_id).id)


def battle_rules(ruleset_id: str) -> BattleRules:
    """The battle side of the ruleset `ruleset_id`: registry.UnknownRuleset if it is not
    listed, NotPlayable (naming the playable ones) if it answers queries only."""
    found = _battle_of(ruleset_for(ruleset_id))
    if found is None:
        raise NotPlayable(
            f"the ruleset {ruleset_id!r} answers queries only: no battle can be played with it"
            f" yet (playable: {', '.join(playable_ids())})"
        )
    return found


def playable_ids() -> tuple[str, ...]:
    """The registry's rulesets a battle can be played with, in the registry's order."""
    return tuple(r for r in registry.IDS if _battle_of(ruleset_for(r)) is not None)


def _battle_of(ruleset: Ruleset) -> BattleRules | None:
    # An object written before the battle side existed has no `battle` at all: query only.
    found: BattleRules | None = getattr(ruleset, "battle", None)
    return found


@cache
def _load(ruleset_id: str) -> Ruleset:
    # Each listed id has a module game.tactics.rulesets.<id> holding RULESET; the list itself
    # stays the registry's (a test checks that every id has its object).
    module = importlib.import_module(f"game.tactics.rulesets.{ruleset_id}")
    found: Ruleset = module.RULESET
    return found


def entity_arg(bf: Battlefield, spec: Mapping[str, object], key: str, where: str) -> EntitySheet:
    """The entity a query names under `key`, or a ScenarioError listing the known ids."""
    if key not in spec:
        fail(f"{where}.{key}", "missing (an entity id)")
    entity_id = as_str(spec[key], f"{where}.{key}")
    if entity_id not in bf.by_id:
        fail(f"{where}.{key}", f"no entity {entity_id!r} (known: {', '.join(bf.by_id)})")
    return bf.by_id[entity_id]


def point_arg(
    bf: Battlefield, spec: Mapping[str, object], key: str, where: str
) -> Cell | EntitySheet:
    """An entity id or a cell inside the map, as a query gives a point."""
    if key not in spec:
        fail(f"{where}.{key}", "missing (an entity id or a cell [x, y, z])")
    value = spec[key]
    if isinstance(value, str):
        return entity_arg(bf, spec, key, where)
    cell = as_cell(value, f"{where}.{key}")
    if not bf.grid.in_bounds(cell):
        w, h, d = bf.grid.shape
        fail(f"{where}.{key}", f"{cell} is outside the {w}x{h}x{d} map")
    return cell


class RoundRules(Protocol):
    """Optional side of a ruleset whose units keep a state within the round (Cepheus C-1/C-4:
    aiming, dodge and parry, acting hastily, the fire mode) in their ruleset sheet, and whose
    initiative changes during a round. A ruleset without one (`round_rules` None) has none of
    its commands (`aim`, `hasty`, `delay`, `react_stance`, `fire_mode`: its turn budget lists
    them not), and the battle never calls it: periferie's order and journals are unchanged."""

    def start_round(self, sheet: object) -> object:
        """A new round begins: the sheet after it (a reaction's penalty ends...)."""
        ...

    def start_turn(self, sheet: object) -> object:
        """Its own turn begins: the sheet after it."""
        ...

    def after_command(self, sheet: object, kind: str) -> object:
        """Its unit's player command of `kind` was carried out: the sheet after it."""
        ...

    def aim(
        self, sheet: object, target: str, action: str | None, *, kill: bool = False
    ) -> tuple[object, bool]:
        """One aim at `target` with the turn's action so far (None: not used), for the damage
        when `kill` (Cepheus's aiming to kill): the sheet after it and whether it spends the
        turn's action; RulesRefusal when it may not."""
        ...

    def declare_hasty(self, sheet: object) -> tuple[object, int]:
        """Act hastily: the sheet after it and the initiative change; RulesRefusal if not."""
        ...

    def toggle(self, sheet: object, what: str) -> tuple[object, str]:
        """Change a standing choice (`react_stance`, `fire_mode`) to its next value: the sheet
        after it and the choice now (a code); RulesRefusal if the unit has no such choice."""
        ...

    def reaction(self, attack: Attack) -> str | None:
        """The reaction the target takes to this attack (a code), None for none."""
        ...

    def reacted(self, sheet: object) -> tuple[object, int]:
        """The target's sheet after a reaction, and the initiative change it costs."""
        ...

    def computer_toggles(self, sheet: object) -> tuple[str, ...]:
        """The standing choices the computer flips for its unit now (its fire mode...)."""
        ...

    def turn_begun(self, sheet: object) -> bool:
        """The unit has done something this turn the round rules count (an aim)."""
        ...

    def standing(self, sheet: object, what: str) -> str | None:
        """A standing choice's value now (`react_stance`, `fire_mode`; the code `toggle`
        answers), None if the unit has no such choice (a weapon without automatic fire)."""
        ...

    def minor_action(self, sheet: object, kind: str, action: str | None) -> tuple[object, bool]:
        """A minor action of `kind` (`reload`) with the turn's action so far: the sheet after
        it and whether it spends the turn's action (C-4, as `aim`); RulesRefusal if it may
        not. Asked for a command the turn budget gives no slot of its own ("")."""
        ...

    def suppressed(self, sheet: object, roll: AttackRoll) -> tuple[object, int]:
        """The target's sheet after suppression fire succeeded with `roll` (BattleRules.
        suppression), and the initiative change it costs it."""
        ...


def round_rules(rules: BattleRules) -> RoundRules | None:
    """The battle side's round rules, None for a ruleset without them."""
    found: RoundRules | None = getattr(rules, "round_rules", None)
    return found


@runtime_checkable
class GivesCoupDeGrace(Protocol):
    """What a ruleset with a coup de grâce answers besides `BattleRules` (d20, 004:l.114-120: a
    full-round action, an automatic critical against a helpless target, a save or die, and it
    provokes attacks of opportunity from every enemy that threatens the attacker)."""

    def coup_de_grace(self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet) -> Attack:
        """The blow's answer: chance 1 (automatic) or None and the reason (not helpless, out of
        reach, a weapon that cannot, immune to critical hits)."""
        ...

    def provoked_by_act(self, bf: Battlefield, doer: EntitySheet, reactor: EntitySheet) -> bool:
        """`reactor`'s attack of opportunity is provoked by an act of `doer` where it stands
        (its threatened cells, no cover nor total concealment)."""
        ...

    def coup_de_grace_save(
        self, roller: Roller, target: EntitySheet, health: Any, damage: int
    ) -> TurnStep | None:
        """After the blow's `damage`: the survivor's save or death, rolled with the battle's
        roller (the step's `after` is the health value); None when nothing is due (dead)."""
        ...

    def coup_de_grace_harm(self, attack: Attack) -> Fraction:
        """The expected hit points of the blow (the computer's choice)."""
        ...


def coup_de_grace_rules(rules: BattleRules) -> GivesCoupDeGrace | None:
    """The battle side's coup de grâce, when it has one."""
    return rules if isinstance(rules, GivesCoupDeGrace) else None


@runtime_checkable
class RidesHorses(Protocol):
    """What a ruleset with mounted combat answers besides `BattleRules` (Myst, 002:l.118-185):
    a rider's declared gait, a melee attacker's choice of the horse as its target, and what an
    exchange leaves a rider (the extra Cavalcare roll, a fall from the horse)."""

    def declare_gait(self, sheet: Any, gait: str) -> Any:
        """The sheet with `gait` declared (taken at its next turn); RulesRefusal if not."""
        ...

    def strike_horse(self, sheet: Any, on: bool) -> Any:
        """The attacker's sheet whose melee blows aim at riders' horses (`on`) or riders."""
        ...

    def after_exchange(
        self, roller: Roller, sheet: Any, attack: Attack, roll: AttackRoll
    ) -> tuple[Saddle, ...]:
        """What an exchange leaves its target (`sheet`, now), rolled with the battle's roller."""
        ...

    def horse_fall(self, roller: Roller, sheet: Any) -> tuple[Saddle, ...]:
        """A rider whose horse is down falls (empty: nothing to do)."""
        ...

    def computer_gait(
        self, bf: Battlefield, unit: EntitySheet, enemies: Sequence[EntitySheet]
    ) -> str | None:
        """The gait a computer rider declares now (one step), None to keep its gait."""
        ...

    def computer_at_horse(
        self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet
    ) -> bool:
        """Whether the computer's melee blow at `target` pays more aimed at its horse."""
        ...


def horse_riders(rules: BattleRules) -> RidesHorses | None:
    """The battle side's mounted combat, when it has one."""
    return rules if isinstance(rules, RidesHorses) else None
