"""What every ruleset answers the battle with: plain records the battle, the computer player and
the wording read without knowing which combat system produced them (docs/architecture.md,
"The ruleset interface")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from game.rules.dice import RollRecord


@dataclass(frozen=True)
class Modifier:
    """One term of an attack's chance: a code the wording knows (explain.modifier_line), its
    value in the ruleset's own unit (percentage points, a DM, a d20 bonus) and its rulings."""

    code: str
    value: int | Fraction
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Attack:
    """An attack's chance before the dice: exact (`chance`, a Fraction of 1), or None with the
    `reason` code there is none (a NoChance or the ruleset's own code)."""

    chance: Fraction | None
    reason: str | None
    modifiers: tuple[Modifier, ...]
    rules: tuple[str, ...]
    #: The breakdown in words when asked for (`worded`), else empty.
    why: tuple[str, ...] = ()
    #: The cover grade the chance counts, in the ruleset's own grades (None: not looked at).
    cover: str | None = None
    #: The ruleset's own answer behind it (periferie: tactics.answers.HitAnswer), for the
    #: window's ruleset-specific tooltip; the battle and the computer never read it.
    detail: Any = None
    #: The numbers behind a refusal, for its wording.
    values: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class AttackRoll:
    """An attack resolved from the battle's roller: hit or not, the roll, and the fields the
    attack's event records about the chance (periferie: {"hit_chance": P})."""

    hit: bool
    record: RollRecord
    logged: Mapping[str, object]
    #: The ruleset's own resolution (Cepheus: the roll's Effect), for its damage step
    #: (BattleRules.roll_damage); the battle never reads it.
    detail: Any = None


@dataclass(frozen=True)
class DamageRoll:
    """A hit's damage as rolled with the battle's roller (BattleRules.roll_damage): the roll
    the `damage` event records and the amount `BattleRules.damage` is given (periferie: the
    weapon's dice; Cepheus: Nd6 + the attack's Effect, armour coming off in `damage`)."""

    record: RollRecord
    rolled: int
    #: The damage type `damage` is given when it is not the weapon's (fantasy: the hit
    #: location its d100 chose, so that a hit's damage can wait and still land there).
    damage_type: str | None = None
    #: The ruleset's own value when the attacker may still shape the damage after the dice
    #: (Myst's attack margin, M-1): a frozen pure-rules record the battle keeps (and saves)
    #: while the choice waits; `rolled` is then the computer's choice. None: nothing to choose.
    choice: Any = None


@dataclass(frozen=True)
class Harm:
    """Damage taken: the damage after the ruleset's reductions, the health value after it (the
    ruleset's own: periferie's wound ladder, Cepheus characteristics, hit points...), the
    effects named by code, and the rulings and words behind it."""

    damage: int
    after: Any
    effects: tuple[str, ...]
    rules: tuple[str, ...]
    why: tuple[str, ...]


@dataclass(frozen=True)
class ConditionEffects:
    """What a health value does to its owner's turn, read by the battle, the action bar and
    the computer without knowing the ruleset's conditions. The battle reads the lost turn, the
    barred attack and the reaction; the movement the path search gets is the allowance's
    (BattleRules.move_request), which counts `no_movement` and `speed_cap` itself (periferie:
    a blinded unit helped by another moves freely, P-VUL-3)."""

    #: The condition code that takes the whole turn away, or None.
    turn_lost: str | None = None
    #: The condition code that forbids attacking, or None.
    attack_barred: str | None = None
    #: May not move at all (beyond a lost turn).
    no_movement: bool = False
    #: The most cells it may move in a turn, or None for no cap.
    speed_cap: int | None = None
    #: May not take a reaction.
    no_reaction: bool = False
    #: The battle's own two facts about a health value that is not periferie's wound ladder
    #: (a ruleset sheet in the `RulesetSheet` component): dead (the unit falls) and out of
    #: the fight. The battle keeps them in the shared `Wounds` as periferie's "dead" and
    #: "out_of_combat", which the order, the victory and the computer read.
    dead: bool = False
    out_of_combat: bool = False
    #: The condition code under which a turn has its movement or its action, not both, and
    #: no double move (d20's disabled creature, D-2: one move or one standard action), or None.
    one_action: str | None = None


@dataclass(frozen=True)
class TurnBudget:
    """The action economy as data: the slots a turn has, and what each command costs.

    `costs` maps every player command the ruleset offers (the action bar's kinds) to the slot
    it spends ("" for none): a command not in it does not exist under the ruleset."""

    slots: tuple[str, ...]
    costs: Mapping[str, str]

    @property
    def commands(self) -> frozenset[str]:
        return frozenset(self.costs)

    def spending(self, slot: str) -> frozenset[str]:
        """The commands that spend `slot`."""
        return frozenset(kind for kind, used in self.costs.items() if used == slot)


@dataclass(frozen=True)
class TurnStep:
    """One effect at the start or the end of a unit's turn (BattleRules.turn_start, turn_end):
    the event the battle emits for it (a `reasons.Happened` kind and its data), the health value
    it leaves (the ruleset's own), the rolls made for it with the battle's roller, the rulings."""

    kind: str
    data: Mapping[str, object]
    after: Any
    rolls: tuple[RollRecord, ...] = ()
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class TurnEffects:
    """What the start or the end of a unit's turn does, in order: the health value after it
    all (`after`), the steps the battle emits one by one (it stops at a step that leaves the
    unit dead), and the condition that ends with this start and costs the turn now beginning
    (periferie's stunned and shock, P-VUL-3), if any."""

    after: Any
    steps: tuple[TurnStep, ...] = ()
    turn_lost: str | None = None


@dataclass(frozen=True)
class DamagePlan:
    """One way to shape a hit's damage after the dice: units per use, in the ruleset's order of
    its uses (Myst: ("strength", 2), ("minimum", 1), ("reduce", 0)), and the damage it makes."""

    uses: tuple[tuple[str, int], ...]
    damage: int


@dataclass(frozen=True)
class DamageChoice:
    """What the attacker of a hit may still choose (ShapesDamage.damage_choice): the units
    there are to spend, the most each use may take, the die as rolled, and one plan for each
    damage it can make, most damage first (the first is the computer's choice)."""

    units: int
    caps: tuple[tuple[str, int], ...]
    rolled: int
    plans: tuple[DamagePlan, ...]
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class DamageSpent:
    """A plan for a waiting choice: the damage it makes, or the refusal code (and its numbers)
    of the rule it breaks."""

    damage: int
    refused: str | None = None
    values: Mapping[str, object] = field(default_factory=dict)
    why: tuple[str, ...] = ()


@dataclass(frozen=True)
class GrabBreak:
    """A grabbed fighter's attempt to break the hold (Myst, 002:l.113-114): both totals, the
    rolls made, and whether it broke free."""

    total: int
    holder_total: int
    broken: bool
    rolls: tuple[RollRecord, ...]


@dataclass(frozen=True)
class DefenceWon:
    """What a won defence buys its defender (CountersDefence.defence_won; Myst's defence margin,
    M-1): the margin and its units, the counter-moves taken, and a counterattack's exchange
    (its fields for the event, its rolls) with the damage it does to the attacker (`hit`
    False: it did not land)."""

    margin: int
    units: int
    taken: tuple[str, ...]
    logged: Mapping[str, object] = field(default_factory=dict)
    rolls: tuple[RollRecord, ...] = ()
    hit: bool = False
    damage: int = 0
    damage_type: str = ""
    rules: tuple[str, ...] = ()
    #: The defender's ruleset sheet after its counter-moves (Myst's "cancel the -20",
    #: 002:l.77), None when they leave it as it is.
    after: Any = None
    #: The unit the defender acts before next round (Myst's "Priority next round", 002:l.79),
    #: None when it bought no Priority.
    priority_over: str | None = None
    #: What the counterattack leaves on the attacker for the battle to keep (Myst's push, trip
    #: and grab, 002:l.101-116): "knocked_down", "unbalanced" (by `penalty`), "grabbed".
    effects: tuple[str, ...] = ()
    penalty: int = 0
    #: The attacker's ruleset sheet after answering a counterattack, itself a defence (Myst:
    #: one more this round, 002:l.91, M-2), None when it leaves it as it is.
    attacker_after: Any = None


class RulesRefusal(ValueError):
    """A ruleset refuses a command of its own (Cepheus's aim, hasty...): `code` is the
    battle's refusal code (battle/reasons.py), `values` fill its words."""

    def __init__(self, code: str, **values: object) -> None:
        super().__init__(code)
        self.code = code
        self.values = values


# ---------------------------------------------------------------- throws and areas (issue 15)

#: The reason code of a question a ruleset does not offer at all (no throws in its seed): the
#: action bar greys the command with it, the battle refuses it.
NOT_OFFERED = "not_offered"


@dataclass(frozen=True)
class Throw:
    """A throw's chance before the dice (BattleRules.throw): exact (`chance`), automatic (it
    lands where aimed without a roll), or neither with the `reason` there is none (NOT_OFFERED
    when the ruleset has no throws). `band` is the ruleset's own range band ("out_of_range"
    beyond the last); `detail` the ruleset's own answer (periferie: tactics.ThrowAnswer)."""

    chance: Fraction | None
    automatic: bool
    reason: str | None
    band: str
    rules: tuple[str, ...]
    why: tuple[str, ...] = ()
    detail: Any = None
    values: Mapping[str, object] = field(default_factory=dict)

    @property
    def possible(self) -> bool:
        """It may be thrown: it lands where aimed or rolls a chance."""
        return self.reason is None and (self.automatic or self.chance is not None)


@dataclass(frozen=True)
class ThrowRoll:
    """A throw resolved with the battle's roller (BattleRules.roll_throw): whether it hit what
    it was aimed at, the cell it landed in (the aim, or where a miss went), every roll in
    order, the fields the `throw` event records about the chance, and the rulings behind where
    it landed; `detail` is the ruleset's own (Cepheus: the check's Effect, for the damage)."""

    hit: bool
    landed: tuple[int, int, int]
    rolls: tuple[RollRecord, ...]
    logged: Mapping[str, object]
    rules: tuple[str, ...] = ()
    detail: Any = None


# ---------------------------------------------------------------- medkits (issue 15)


@dataclass(frozen=True)
class Aid:
    """A medkit used (BattleRules.use_medkit): the patient's health value after it (the
    ruleset's own, as `Harm.after`), the result's code, the rolls, the rulings and the fields
    the `medkit` event records besides the result (Cepheus: the points restored)."""

    after: Any
    result: str
    rolls: tuple[RollRecord, ...]
    rules: tuple[str, ...]
    logged: Mapping[str, object] = field(default_factory=dict)


# ---------------------------------------------------------------- the weapon a unit fights with


@dataclass(frozen=True)
class WeaponShown:
    """The weapon a unit fights with under its ruleset, as the window and the log name it
    (BattleRules.sheet_weapon, attack_weapon): its data id in the ruleset's TOML (names.
    weapon_name gives the display name; "" or an unknown id for a scenario's inline weapon),
    the data's own name (shown when the id has no display name) and its damage dice as the
    ruleset writes them ("1d8", "3d6-3"; "" when the ruleset gives none)."""

    id: str
    name: str
    damage: str = ""

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name, "damage": self.damage}


# ---------------------------------------------------------------- a unit's health and armour


@dataclass(frozen=True)
class HealthShown:
    """A unit's health and protection as its ruleset keeps them (BattleRules.health_shown), for
    the unit card and the token's pips; the window only words them (game/text/card_words.py).

    `state` (a code of the ruleset's: Cepheus "wounded", d20 "dying", fantasy the deepest body
    section reached...) and `pips` (one a mark, worst first: "mortal", "grave", "light") are
    what anyone who sees the unit may know; `rows` and `armour` are its numbers, which the
    player's view keeps for the player's own units only (`public`)."""

    #: The shape of the numbers, which the wording follows: "status" (Myst's one pool),
    #: "characteristics" (Cepheus), "hit_points" (d20), "body" (fantasy's sections).
    kind: str
    state: str
    pips: tuple[str, ...] = ()
    #: (name, value, of): Myst ("status", now, max); Cepheus ("end", now, max) and STR, DEX;
    #: d20 ("hp", now, max_hit_points); fantasy (section, boxes lost, boxes).
    rows: tuple[tuple[str, int, int], ...] = ()
    #: (where, points): fantasy's locations; Cepheus ("armour", n); d20 ("ac", n), Myst
    #: ("shield", bonus); fantasy also ("dp", n), its protection difficulty.
    armour: tuple[tuple[str, int], ...] = ()
    #: Fantasy: the deepest full section's penalty to every action (003:l.183); else 0.
    penalty: int = 0
    #: (Myst's rider has a second row, ("horse", left, of), kept with the numbers.)
    #: (code, value) facts anyone who sees the unit knows, worded by card_words.note_lines:
    #: Myst ("gait", "canter"), ("gait_next", "gallop") (002:l.153: declared to all) and
    #: ("closed_defence", "") (002:l.137: its action given up in the open).
    notes: tuple[tuple[str, str], ...] = ()

    def public(self) -> HealthShown:
        """What a player who does not command the unit is shown: its state, pips and notes."""
        return HealthShown(self.kind, self.state, self.pips, notes=self.notes)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "state": self.state}
        out["pips"] = list(self.pips)
        if self.rows:
            out["rows"] = [list(r) for r in self.rows]
        if self.armour:
            out["armour"] = [list(a) for a in self.armour]
        if self.penalty:
            out["penalty"] = self.penalty
        if self.notes:
            out["notes"] = [list(n) for n in self.notes]
        return out


# ---------------------------------------------------------------- a rider's saddle (Myst)


@dataclass(frozen=True)
class Saddle:
    """One step of what a mounted exchange leaves (Myst, 002:l.144-185): the unit's sheet
    after it, the event that tells it (`kind`, `logged`), the rolls made, and what the battle
    does besides: a penalty on its next exchange, a fall's damage to land as a hit."""

    sheet: Any
    kind: str
    logged: Mapping[str, object]
    rolls: tuple[RollRecord, ...] = ()
    penalty: int = 0
    fall_damage: int = 0
    rules: tuple[str, ...] = ("M-1",)
