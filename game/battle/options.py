"""What a player may order a unit to do now, and why not: the window's action bar reads this.

Each option is a command kind with what it still needs (a cell, an enemy, an ally) and, when it
cannot be given, the Refusal the engine would answer. The conditions are the engine's own: who
may order (`Battle.authorise`) and each handler's check (handlers.check: the action used, no
weapon, no medkit...), read before any target is chosen; a test gives every option to the
engine and checks that it accepts what is offered and refuses the rest with the same code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from game.battle import commands as cmd
from game.battle import mounted
from game.battle.engine import GM, Battle, Refusal
from game.battle.handlers import READY_TRIGGERS, check, step_aside_check
from game.ecs.components import RulesetSheet
from game.rules.ruleset_answers import NOT_OFFERED, Modifier
from game.tactics.battlefield import FieldConditions
from game.tactics.ruleset import field_reader, horse_riders, round_rules


class Needs(StrEnum):
    """What the player still has to point at before the command can be given."""

    NOTHING = "nothing"
    CELL = "cell"
    ENEMY = "enemy"
    ENEMY_OR_CELL = "enemy_or_cell"
    ALLY = "ally"
    ALLY_OR_SELF = "ally_or_self"
    TEXT = "text"


@dataclass(frozen=True)
class Option:
    kind: str
    needs: Needs
    refusal: Refusal | None = None
    #: A standing choice's value now (the round rules' code: `react_stance` "always",
    #: "after_acting", "never"; `fire_mode` "burst", "single"), None for any other command.
    now: str | None = None

    @property
    def allowed(self) -> bool:
        return self.refusal is None


#: The player's commands in the order the action bar shows them.
KINDS: tuple[tuple[str, Needs], ...] = (
    ("move", Needs.CELL),
    ("five_foot_step", Needs.CELL),  # d20 only: its turn budget has it (D-2)
    ("attack", Needs.ENEMY_OR_CELL),
    ("throw", Needs.ENEMY_OR_CELL),
    ("reload", Needs.NOTHING),
    ("dash", Needs.NOTHING),
    ("dodge", Needs.NOTHING),
    ("disengage", Needs.NOTHING),
    ("help", Needs.ALLY),
    ("ready", Needs.NOTHING),
    ("hide", Needs.NOTHING),
    ("search", Needs.NOTHING),
    ("use_object", Needs.ALLY_OR_SELF),
    ("crouch", Needs.NOTHING),
    ("prone", Needs.NOTHING),
    ("stand", Needs.NOTHING),
    # a round's own commands (Cepheus C-1/C-4; only where the turn budget lists them)
    ("aim", Needs.ENEMY),
    ("hasty", Needs.NOTHING),
    ("delay", Needs.NOTHING),
    ("react_stance", Needs.NOTHING),
    ("fire_mode", Needs.NOTHING),
    ("break_grab", Needs.NOTHING),  # Myst's grab (002:l.109-116; where the budget lists it)
    ("improvise", Needs.TEXT),
    ("coup_de_grace", Needs.ENEMY),  # d20 only: a full-round action (004:l.114)
    ("end_turn", Needs.NOTHING),
)
#: The commands that flip a standing choice of the unit (Cepheus C-1/C-4): the bar shows its
#: value now (`Option.now`).
STANDING = frozenset({"react_stance", "fire_mode"})


def who_may_order(battle: Battle, by: str, unit: str) -> Refusal | None:
    """The engine's own answer to who gives a command to `unit` now (`Battle.authorise`, asked
    about a command every unit may give when it may act at all)."""
    try:
        battle.authorise(cmd.EndTurn(unit), by)
    except Refusal as refusal:
        return refusal
    return None


def options_for(battle: Battle, by: str, unit: str) -> tuple[Option, ...]:
    """Every player command of the battle's ruleset for `unit` (its turn budget lists them),
    each allowed or refused with the engine's reason."""
    general = who_may_order(battle, by, unit)
    offered = battle.ruleset.turn_budget().commands  # the ruleset's commands only
    return tuple(
        Option(kind, needs, general or _refusal(battle, unit, kind), standing(battle, unit, kind))
        for kind, needs in KINDS
        if kind in offered
    )


def standing(battle: Battle, unit: str, kind: str) -> str | None:
    """The value of `unit`'s standing choice `kind` now, as the ruleset's round rules read it
    from its sheet (RoundRules.standing), so the bar can show it (issue 15/17); None for a
    command that is no standing choice, a ruleset without round rules or a unit without it."""
    rules = round_rules(battle.ruleset)
    if rules is None or kind not in STANDING:
        return None
    own = battle.world.try_get(unit, RulesetSheet)
    return None if own is None else rules.standing(own.sheet, kind)


def step_aside(battle: Battle, by: str, unit: str) -> Option:
    """Stepping out of a cell two share (P-MOV-8). Not on the bar, where it would almost always
    sit greyed: the board's right-click menu offers it on a cell while the unit shares one."""
    refusal = who_may_order(battle, by, unit) or step_aside_check(battle, unit)
    return Option("step_aside", Needs.CELL, refusal)


def suppress(battle: Battle, by: str, unit: str) -> Option | None:
    """Suppression fire (Cepheus, 000:l.317): an attack with `suppress`, so not on the bar (no
    letter key is left for it): the board's right-click menu offers it over an enemy, refused
    as the attack is or for want of a firearm; None under a ruleset without it."""
    if not battle.on_map(unit):
        return None
    cannot = battle.ruleset.can_suppress(battle.bf, battle.sheet(unit))
    if cannot == NOT_OFFERED or "attack" not in battle.ruleset.turn_budget().commands:
        return None
    refusal = who_may_order(battle, by, unit) or check(battle, unit, "attack")
    if refusal is None and cannot is not None:
        refusal = Refusal(cannot, unit=unit)
    return Option("suppress", Needs.ENEMY, refusal)


def first_aid(battle: Battle, by: str, unit: str, patient: str) -> tuple[Option, ...]:
    """A medkit on `patient` (the unit itself or an ally), on the board's right-click menu:
    one option `use_object:<wound>` for each wound the battle's ruleset says first aid could
    treat on it (BattleRules.medkit_wounds: periferie's wounds, Cepheus's damaged
    characteristics), refused as the engine would (the command's check, then the ruleset's
    `medkit_refusal`: not adjacent, dead...); under a ruleset whose turn has no medkit one
    option `use_object`, refused with NOT_OFFERED; none for a patient nothing ails."""
    if not battle.on_map(unit) or not battle.on_map(patient):
        return ()
    if "use_object" not in battle.ruleset.turn_budget().commands:
        return (Option("use_object", Needs.ALLY_OR_SELF, Refusal(NOT_OFFERED, unit=unit)),)
    general = who_may_order(battle, by, unit) or check(battle, unit, "use_object")
    medic, sheet = battle.sheet(unit), battle.sheet(patient)
    found: list[Option] = []
    for wound in battle.ruleset.medkit_wounds(battle.bf, sheet):
        refusal = general
        if refusal is None:
            refused = battle.ruleset.medkit_refusal(battle.bf, medic, sheet, wound)
            refusal = None if refused is None else Refusal(refused[0], **refused[1])
        found.append(Option("use_object:" + wound, Needs.ALLY_OR_SELF, refusal))
    return tuple(found)


def _refusal(battle: Battle, unit: str, kind: str) -> Refusal | None:
    """The handler's own check (handlers.check), and two the bar adds: an improvised action
    needs a GM at the table to rule it, and a move needs a cell within reach."""
    if kind == "improvise" and not battle.setup.gm:
        return Refusal("gm_only", command="improvise")
    refusal = check(battle, unit, kind)
    if refusal is None and kind == "move":
        from game.battle.preview import reach

        answer = reach(battle, GM, unit)
        if answer is None or not answer.cells:
            return Refusal("cannot_move", unit=unit)
    return refusal


#: The trigger a Ready is given with (P-OA-2 names only one).
READY_TRIGGER = READY_TRIGGERS[0]


@dataclass(frozen=True)
class GmTable:
    """What the GM's tools list: reinforcements still to come, groups tied on initiative, the
    improvised actions waiting for a ruling, and who plays each side."""

    waiting: tuple[tuple[str, int], ...]
    ties: tuple[tuple[str, ...], ...]
    improvising: tuple[tuple[str, str], ...]
    controllers: tuple[tuple[str, str], ...]
    #: The battlefield's light, smoke and weather now (issue 15), and what they do to an attack
    #: under the battle's ruleset (None: its seed has no such rule, docs/rules.md).
    conditions: FieldConditions = field(default_factory=FieldConditions)
    field_effects: tuple[Modifier, ...] | None = None
    #: The conditions the GM may give a unit or take from it, the ruleset's own (none: Myst).
    unit_conditions: tuple[str, ...] = ()


def gm_table(battle: Battle) -> GmTable:
    from game.ecs.components import Waiting

    waiting = tuple(
        (u, battle.world.get(u, Waiting).round) for u in battle.world.units_with(Waiting)
    )
    totals: dict[int, list[str]] = {}
    for entry in battle.initiative.visible_order(for_gm=True):
        totals.setdefault(entry.total, []).append(entry.entity_id)
    ties = tuple(tuple(group) for group in totals.values() if len(group) > 1)
    controllers = tuple((f, battle.controller_of(f)) for f in battle.setup.factions)
    reader = field_reader(battle.ruleset)
    conditions = battle.bf.conditions
    effects = None if reader is None else reader.field_effects(conditions)
    return GmTable(
        waiting,
        ties,
        tuple(battle.improvising),
        controllers,
        conditions,
        effects,
        battle.ruleset.gm_conditions(),
    )


def riding(battle: Battle, by: str, unit: str) -> tuple[Option, ...]:
    """Myst's riders (002:l.150, 153), on the board's right-click menu over the acting unit (no
    letter key is left): a gait to declare for each of walk, canter and gallop (refused as the
    `gait` command is; none for a unit on foot), then whom its melee blows strike, riders'
    horses or riders; empty under a ruleset without riders."""
    if horse_riders(battle.ruleset) is None or not battle.on_map(unit):
        return ()
    who = who_may_order(battle, by, unit)
    found: list[Option] = []
    for gait in mounted.GAITS:
        refusal = mounted.gait_check(battle, cmd.Gait(unit, gait))
        if refusal is not None and refusal.code == "not_mounted":
            break
        refusal = who or refusal
        found.append(Option("gait:" + gait, Needs.NOTHING, refusal))
    for aim in ("horse", "rider"):
        found.append(Option("strike_horse:" + aim, Needs.NOTHING, who))
    return tuple(found)
