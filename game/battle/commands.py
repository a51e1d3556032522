"""Every act of a player or the GM as a named, serialisable command (the only way a battle changes).

A command is read from JSON (`{"cmd": "move", "unit": "ada", "to": [3, 4, 0]}`), checked for
shape here, and checked against the battle's state by the engine, which answers with the events
it caused or a refusal.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from game.grid.model import DARKNESS, SMOKE, WEATHER, Cell
from game.rules.reader import (
    ScenarioError,
    as_bool,
    as_cell,
    as_int,
    as_list,
    as_object,
    as_str,
)


class CommandError(ValueError):
    """A command that is not well formed; the message names the field."""


@dataclass(frozen=True)
class Command:
    KIND: ClassVar[str] = ""
    #: Only the GM may give it.
    GM: ClassVar[bool] = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cmd": self.KIND}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None or value == () or (f.name in _DEFAULT_FALSE and value is False):
                continue
            if f.name in _DEFAULT_TRUE and value is True:
                continue
            out[_json_name(f.name)] = _to_json(value)
        return out


_DEFAULT_FALSE = {"stealth", "dash", "suppress", "kill"}
_DEFAULT_TRUE = {"dampers"}


def _json_name(name: str) -> str:
    return name.rstrip("_")


def _to_json(value: object) -> object:
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


# ---------------------------------------------------------------- the players' commands


@dataclass(frozen=True)
class Move(Command):
    """Move to `to` along the cheapest path, through the `via` cells in order (P-MOV-*).

    `dampers` off (thrusters only): the velocity is kept for the next turn, and a velocity
    carried from the last one is not cancelled first (P-ZERO-2)."""

    KIND: ClassVar[str] = "move"
    unit: str
    to: Cell
    via: tuple[Cell, ...] = ()
    mode: str | None = None
    stealth: bool = False
    dampers: bool = True


@dataclass(frozen=True)
class Dash(Command):
    KIND: ClassVar[str] = "dash"
    unit: str


@dataclass(frozen=True)
class Attack(Command):
    """Attack an entity (`target`) or, with an area weapon, a cell (`at`)."""

    KIND: ClassVar[str] = "attack"
    unit: str
    target: str | None = None
    at: Cell | None = None
    #: How a hit's margin is spent where the ruleset has one (Myst, M-1): "ask" waits for
    #: the attacker's `spend_margin` once the dice are known; "most" (the default, the
    #: computer's choice) or "least" damage are applied at once (docs/battle.md, "Commands").
    margin: str | None = None
    #: Suppression fire at `target` rather than a shot at it (Cepheus, 000:l.317-321: the
    #: ruleset's `suppression`); absent from the JSON when false.
    suppress: bool = False

    def __post_init__(self) -> None:
        if self.suppress and self.target is None:
            raise CommandError("command.suppress: suppression fire needs a `target`")
        if self.margin is not None and self.margin not in MARGIN_CHOICES:
            raise CommandError(
                f"command.margin: {self.margin!r} is not one of {', '.join(MARGIN_CHOICES)}"
            )


#: The attack's `margin` values: wait for the attacker's choice, or the most or least damage.
MARGIN_CHOICES = ("ask", "most", "least")


@dataclass(frozen=True)
class Throw(Command):
    """Throw the thrown weapon in hand, or an object of `size`, at an entity or a cell."""

    KIND: ClassVar[str] = "throw"
    unit: str
    target: str | None = None
    at: Cell | None = None
    size: str | None = None


@dataclass(frozen=True)
class ChangeStance(Command):
    KIND: ClassVar[str] = "stance"
    unit: str
    stance: str


@dataclass(frozen=True)
class Dodge(Command):
    KIND: ClassVar[str] = "dodge"
    unit: str


@dataclass(frozen=True)
class Disengage(Command):
    KIND: ClassVar[str] = "disengage"
    unit: str


@dataclass(frozen=True)
class Help(Command):
    KIND: ClassVar[str] = "help"
    unit: str
    ally: str


@dataclass(frozen=True)
class Ready(Command):
    KIND: ClassVar[str] = "ready"
    unit: str
    trigger: str = "enemy_enters_sight"


@dataclass(frozen=True)
class Hide(Command):
    KIND: ClassVar[str] = "hide"
    unit: str


@dataclass(frozen=True)
class Search(Command):
    KIND: ClassVar[str] = "search"
    unit: str


@dataclass(frozen=True)
class UseObject(Command):
    """Use an object; today the medkit (P-HEAL-1) on oneself or an adjacent ally."""

    KIND: ClassVar[str] = "use_object"
    unit: str
    target: str
    wound: str
    object: str = "medkit"


@dataclass(frozen=True)
class Improvise(Command):
    KIND: ClassVar[str] = "improvise"
    unit: str
    text: str


@dataclass(frozen=True)
class React(Command):
    """Answer an offered reaction (opportunity attack, readied attack): take it or let it go."""

    KIND: ClassVar[str] = "react"
    unit: str
    take: bool


@dataclass(frozen=True)
class StepAside(Command):
    """Out of a cell shared with another unit to a free cell of the 8 around it, after a
    successful save (P-MOV-8); it costs nothing."""

    KIND: ClassVar[str] = "step_aside"
    unit: str
    to: Cell


@dataclass(frozen=True)
class FiveFootStep(Command):
    """The d20 5-foot step (D-2): one cell, to a free cell next to the unit, that provokes no
    attack of opportunity; only when the unit does not otherwise move this turn, and only
    under a ruleset whose turn budget has it."""

    KIND: ClassVar[str] = "five_foot_step"
    unit: str
    to: Cell


@dataclass(frozen=True)
class SpendMargin(Command):
    """Spend the margin of a hit that waits for its attacker's choice (Myst, M-1): units of 5
    points on the Strength bonus, the die's minimum and the die's reduction (002:l.18-70)."""

    KIND: ClassVar[str] = "spend_margin"
    unit: str
    strength: int = 0
    minimum: int = 0
    reduce: int = 0

    @property
    def uses(self) -> dict[str, int]:
        return {"strength": self.strength, "minimum": self.minimum, "reduce": self.reduce}


@dataclass(frozen=True)
class DefencePlan(Command):
    """The counter-moves the unit's won defences take from now on, in order (Myst's defence
    margin, M-1: "counterattack", "cancel_penalty", "break_off", "priority"); none: it keeps
    its margins. Given on its own turn; it costs nothing."""

    KIND: ClassVar[str] = "defence_plan"
    unit: str
    moves: tuple[str, ...] = ()


@dataclass(frozen=True)
class CloseDefence(Command):
    """Myst's closed defence (002:l.137 "chiudersi in difesa rinunciando alla propria azione"):
    the unit gives up its turn's action; until its next turn begins its defences have the
    base's bonus and a won one's margin only breaks off, for 0, when its standing plan names
    breaking off (002:l.81-83). Given on its own turn, while its action is free."""

    KIND: ClassVar[str] = "close_defence"
    unit: str


@dataclass(frozen=True)
class BreakGrab(Command):
    """Out of a Myst grab (002:l.109-116): the holder lets go, free; the grabbed fighter
    spends its action trying to break it (an opposed roll)."""

    KIND: ClassVar[str] = "break_grab"
    unit: str


@dataclass(frozen=True)
class CoupDeGrace(Command):
    """The d20 coup de grâce (004:l.114-120): a full-round action against a helpless target
    in reach (a bow or crossbow next to it); it provokes attacks of opportunity, then hits
    automatically as a critical and the survivor saves on Fortitude or dies. Only under a
    ruleset whose turn budget has it, and not after the unit has moved (a 5-foot step aside)."""

    KIND: ClassVar[str] = "coup_de_grace"
    unit: str
    target: str


@dataclass(frozen=True)
class EndTurn(Command):
    KIND: ClassVar[str] = "end_turn"
    unit: str


# The round's own commands (a ruleset with round rules: Cepheus C-1/C-4).


@dataclass(frozen=True)
class Aim(Command):
    """Spend a minor action aiming at `target`: +1 to the next attack on it (000:l.87)."""

    KIND: ClassVar[str] = "aim"
    unit: str
    target: str
    #: Aiming to kill (000:l.89-91): +1 damage a minor action instead of +1 to hit; absent
    #: from the JSON when false.
    kill: bool = False


@dataclass(frozen=True)
class Hasty(Command):
    """Act hastily next round: +2 initiative, -1 to every action (000:l.79)."""

    KIND: ClassVar[str] = "hasty"
    unit: str


@dataclass(frozen=True)
class Delay(Command):
    """Act later this round, or first next round (000:l.186)."""

    KIND: ClassVar[str] = "delay"
    unit: str


@dataclass(frozen=True)
class ReactStance(Command):
    """Flip the standing choice to dodge or parry when attacked (000:l.158-170)."""

    KIND: ClassVar[str] = "react_stance"
    unit: str


@dataclass(frozen=True)
class FireMode(Command):
    """Flip an automatic weapon between single shots and bursts (000:l.245)."""

    KIND: ClassVar[str] = "fire_mode"
    unit: str


@dataclass(frozen=True)
class Gait(Command):
    """A Myst rider declares its change of gait, walk, canter or gallop, one step at a time
    (002:l.153: "non può avvenire nel giro di un istante"): taken at its next turn. Free."""

    KIND: ClassVar[str] = "gait"
    unit: str
    gait: str


@dataclass(frozen=True)
class StrikeHorse(Command):
    """A Myst melee attacker names whom its blows strike (002:l.150): riders' horses (`horse`
    true) or the riders themselves (false). It stands until changed; free."""

    KIND: ClassVar[str] = "strike_horse"
    unit: str
    horse: bool = True


# ---------------------------------------------------------------- the GM's commands


@dataclass(frozen=True)
class Reveal(Command):
    """Show a unit to the given factions (all others when none are named)."""

    KIND: ClassVar[str] = "reveal"
    GM: ClassVar[bool] = True
    unit: str
    factions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Conceal(Command):
    """Hide a unit from the given factions (all others when none are named)."""

    KIND: ClassVar[str] = "conceal"
    GM: ClassVar[bool] = True
    unit: str
    factions: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlaceReinforcement(Command):
    """Bring a waiting reinforcement in at the start of the next round (P-INIT-6), at `at`."""

    KIND: ClassVar[str] = "place_reinforcement"
    GM: ClassVar[bool] = True
    unit: str
    at: Cell | None = None


@dataclass(frozen=True)
class MarkSurprised(Command):
    KIND: ClassVar[str] = "surprise"
    GM: ClassVar[bool] = True
    unit: str


@dataclass(frozen=True)
class OrderTie(Command):
    """Order units tied on initiative (P-INIT-2): `order` lists them first to last. Ties across
    sides are the GM's to order; ties inside one side, that side's player's too."""

    KIND: ClassVar[str] = "order_tie"
    order: tuple[str, ...]


@dataclass(frozen=True)
class EnterRoll(Command):
    """The GM's physical dice: the faces are used, one per die, by the next rolls (P-CHK-4)."""

    KIND: ClassVar[str] = "roll"
    GM: ClassVar[bool] = True
    faces: tuple[int, ...]


@dataclass(frozen=True)
class SetCondition(Command):
    KIND: ClassVar[str] = "condition"
    GM: ClassVar[bool] = True
    unit: str
    add: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()


@dataclass(frozen=True)
class EditCell(Command):
    KIND: ClassVar[str] = "edit_cell"
    GM: ClassVar[bool] = True
    at: Cell
    obstacle: str | None = None
    terrain: tuple[str, ...] | None = None
    floor: bool | None = None


@dataclass(frozen=True)
class RestartInitiative(Command):
    KIND: ClassVar[str] = "restart_initiative"
    GM: ClassVar[bool] = True


@dataclass(frozen=True)
class EndCombat(Command):
    KIND: ClassVar[str] = "end_combat"
    GM: ClassVar[bool] = True


@dataclass(frozen=True)
class RuleImprovise(Command):
    """The GM's answer to an improvised action: accept, reject, or resolve with a check."""

    KIND: ClassVar[str] = "rule_improvise"
    GM: ClassVar[bool] = True
    unit: str
    verdict: str
    check: str | None = None
    dc: int | None = None


@dataclass(frozen=True)
class SetController(Command):
    """Who plays a faction from now on: a player by name, or the computer."""

    KIND: ClassVar[str] = "controller"
    GM: ClassVar[bool] = True
    faction: str
    controller: str


@dataclass(frozen=True)
class Reload(Command):
    """A turn spent reloading a ranged weapon whose cadence (CAD) needs it (fantasy, 003:l.140:
    "deve utilizzare l'azione Preparare l'Arma per il numero di turni necessari")."""

    KIND: ClassVar[str] = "reload"
    unit: str


@dataclass(frozen=True)
class ChangeField(Command):
    """The GM changes the battlefield's light, smoke or weather (issue 15), for the whole map;
    a condition left out stays as it is. Values: darkness none/low/total, smoke
    none/light/dense, weather none/bad; any other is refused when the command is read."""

    KIND: ClassVar[str] = "field_conditions"
    GM: ClassVar[bool] = True
    darkness: str | None = None
    smoke: str | None = None
    weather: str | None = None

    def __post_init__(self) -> None:
        for name, known in (("darkness", DARKNESS), ("smoke", SMOKE), ("weather", WEATHER)):
            value = getattr(self, name)
            if value is not None and value not in known:
                raise CommandError(f"command.{name}: {value!r} is not one of {', '.join(known)}")


PLAYER_COMMANDS: tuple[type[Command], ...] = (
    Move, Dash, Attack, Throw, ChangeStance, Dodge, Disengage, Help, Ready, Hide, Search,
    UseObject, Improvise, React, StepAside, FiveFootStep, EndTurn, Reload, SpendMargin,
    DefencePlan, Aim, Hasty, Delay, ReactStance, FireMode,
    BreakGrab, CoupDeGrace, CloseDefence, Gait, StrikeHorse,
)  # fmt: skip
GM_COMMANDS: tuple[type[Command], ...] = (
    Reveal, Conceal, PlaceReinforcement, MarkSurprised, OrderTie, EnterRoll, SetCondition,
    EditCell, RestartInitiative, EndCombat, RuleImprovise, SetController, ChangeField,
)  # fmt: skip
BY_KIND: dict[str, type[Command]] = {c.KIND: c for c in (*PLAYER_COMMANDS, *GM_COMMANDS)}


def _read(annotation: str, value: object, where: str) -> object:
    optional = annotation.endswith(" | None")
    base = annotation.removesuffix(" | None")
    if optional and value is None:
        return None
    if base == "str":
        return as_str(value, where)
    if base == "bool":
        return as_bool(value, where)
    if base == "int":
        return as_int(value, where, low=-1_000_000, high=1_000_000)
    if base == "Cell":
        return as_cell(value, where)
    items = as_list(value, where)
    if len(items) > 10_000:
        raise ScenarioError(f"{where}: too many items ({len(items)})")
    if base == "tuple[Cell, ...]":
        return tuple(as_cell(v, f"{where}[{i}]") for i, v in enumerate(items))
    if base == "tuple[str, ...]":
        return tuple(as_str(v, f"{where}[{i}]") for i, v in enumerate(items))
    if base == "tuple[int, ...]":
        return tuple(as_int(v, f"{where}[{i}]", low=1, high=1000) for i, v in enumerate(items))
    raise AssertionError(f"no reader for {annotation}")


def parse_command(data: object, where: str = "command") -> Command:
    """A command from its JSON form; a malformed one raises CommandError naming the field."""
    try:
        obj = as_object(data, where)
        kind = as_str(obj.get("cmd"), f"{where}.cmd")
        cls = BY_KIND.get(kind)
        if cls is None:
            raise CommandError(
                f"{where}.cmd: unknown command {kind!r} (known: {', '.join(sorted(BY_KIND))})"
            )
        specs = {_json_name(f.name): f for f in fields(cls)}
        as_object(obj, where, ("cmd", "by", *specs))
        values: dict[str, object] = {}
        for name, f in specs.items():
            if name in obj:
                values[f.name] = _read(str(f.type), obj[name], f"{where}.{name}")
            elif f.default is f.default_factory:  # dataclasses.MISSING on both: required
                raise CommandError(f"{where}.{name}: missing")
        return cls(**values)
    except ScenarioError as exc:
        raise CommandError(str(exc)) from None


__all__ = ["BY_KIND", "Command", "CommandError", "parse_command"]
