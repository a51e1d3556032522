"""Components of a unit in the battle world: small dataclasses, serialisable to JSON."""

from __future__ import annotations

import dataclasses
import enum
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from game.grid.model import Cell
from game.grid.occupants import Size
from game.rules.dice import RollRecord
from game.rules.movement import MODES, Speeds
from game.rules.stance import Stance
from game.rules.turn import TurnState
from game.rules.wounds import Health

CONTROLLERS = ("player", "computer", "gm")


@dataclass(frozen=True)
class Identity:
    """The unit's id (its name on the map, unique in the battle) and the template it came from."""

    id: str
    template: str = "human"


@dataclass(frozen=True)
class Position:
    cell: Cell


@dataclass(frozen=True)
class Posture:
    """Standing, crouched or prone (P-TURN-2)."""

    stance: Stance = Stance.STANDING


@dataclass(frozen=True)
class Wounds:
    """Wounds, conditions and death saves (P-VUL-*, P-DEATH-1)."""

    health: Health = field(default_factory=Health)


@dataclass(frozen=True)
class Armed:
    """The weapon in hand, by id in the rules data; None: unarmed."""

    weapon: str | None = None


@dataclass(frozen=True)
class Armoured:
    armour: str | None = None


@dataclass(frozen=True)
class Faction:
    name: str
    neutral: bool = False


@dataclass(frozen=True)
class Sheet:
    """What the rules read of a character: check bonuses, speeds, size, kit (P-CHK-1, P-MOV-1)."""

    checks: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    speeds: Speeds = field(default_factory=Speeds)
    size: Size = Size.MEDIUM
    thrusters: bool = False
    vulnerability: str = "human"
    medkits: int = 1


@dataclass(frozen=True)
class Motion:
    """This turn's movement state besides the points spent (which live in the turn budget).

    `velocity` is carried in microgravity, in cells a turn (P-ZERO-1/2). `in_flight`: a jump
    not yet landed (P-ZERO-1), launched from `flight[0]` towards the surface `flight[1]`.
    `dampers`: as set by the unit's last move with thrusters; off, the turn's last straight run
    (`run`, direction × cells) is the velocity it keeps (P-ZERO-2). `stealthy` marks a turn moved
    stealthily (P-STL-1, the halving applies to the whole turn's movement once chosen).
    """

    velocity: tuple[int, int, int] = (0, 0, 0)
    in_flight: bool = False
    stealthy: bool = False
    dampers: bool = True
    run: tuple[int, int, int] = (0, 0, 0)
    flight: tuple[Cell, Cell] | None = None


@dataclass
class Turn:
    """The turn budget (P-TURN-1): a rules TurnState, mutated only through its own methods."""

    state: TurnState = field(default_factory=TurnState)


@dataclass(frozen=True)
class Status:
    """Battle effects that last until the start of the unit's own next turn.

    dodging: attacks against it roll with disadvantage (seed 001, Schivata). helped_by: an ally's
    Help gives advantage on its next attack or check and lifts the blinded movement cap (Aiuto,
    P-VUL-3). readied: the trigger of a Ready action (P-OA-2), None when not readied.
    """

    dodging: bool = False
    helped_by: str | None = None
    readied: str | None = None


@dataclass(frozen=True)
class Controller:
    """Who gives this unit its orders: a player (by name), the computer, or the GM."""

    kind: str = "player"
    player: str | None = None


@dataclass(frozen=True)
class Visibility:
    """Factions this unit is hidden from (P-INIT-4, hiding); `stealth` is the check total that
    a Search must meet to find it (the hide roll, or 10 + bonus for a unit placed hidden)."""

    hidden_from: frozenset[str] = frozenset()
    stealth: int = 10


@dataclass(frozen=True)
class Waiting:
    """A reinforcement off the map: it arrives at the start of `round` at `cell` (P-INIT-6)."""

    round: int
    cell: Cell
    surprised: bool = False


@dataclass(frozen=True)
class Outsider:
    """On the map but outside the combat until another side sees it (P-INIT-7)."""

    surprised: bool = False


@dataclass(frozen=True)
class Fallen:
    """A dead unit: its body lies at `cell` but no longer stands in anybody's way."""

    cell: Cell


@dataclass(frozen=True)
class Disengaged:
    """This turn's Disengage has been spent on the step out of `cell` (P-OA-3): it covered the
    reaction areas that step left, and no later one. Gone when the unit's next turn begins."""

    cell: Cell


@dataclass(frozen=True)
class Crowded:
    """The unit shares its cell with `other` after a move nobody could steer ended there
    (P-MOV-8). `later`: it arrived second, and chooses first whether to step out. `saved`: it
    passed the acrobatics save, so it may step to a free cell around (once `other` has moved,
    nobody shares and the component is gone)."""

    other: str
    later: bool
    saved: bool


@dataclass(frozen=True)
class DeferredHit:
    """One hit's harm kept aside: what `hurt` is given when it is applied."""

    damage_type: str
    rolled: int
    source: str
    roll: RollRecord | None
    on_hit: tuple[str, ...] = ()


@dataclass(frozen=True)
class Deferred:
    """Harm the unit took while a simultaneous group acted (fantasy F-1, 003:l.13: "i
    risultati ... vengono segnati a parte e conteggiati dopo che ognuno di loro ha agito"),
    applied in order when the group's last unit ends its turn; only present meanwhile."""

    hits: tuple[DeferredHit, ...]


@dataclass(frozen=True)
class RulesetSheet:
    """The unit's own sheet under a ruleset that is not periferie-shaped (its object's
    `read_entity` gives it: Cepheus characteristics, a d20 sheet...), with its health state:
    the battle stores `Harm.after` back into it. Periferie's units have none (its sheet is
    `Sheet`, `Wounds`...), so its state and hashes are as they were."""

    sheet: object


@dataclass(frozen=True)
class DamageWaiting:
    """A hit of this unit's whose damage waits for its choice once the dice are known (Myst's
    attack margin, M-1): the target, the damage's type, the weapon's on-hit effects and the
    ruleset's own waiting value (a pure rules record, written like a ruleset sheet)."""

    target: str
    damage_type: str
    on_hit: tuple[str, ...]
    choice: object


@dataclass(frozen=True)
class StandingDefence:
    """The counter-moves a won defence of this unit takes, in order (Myst's defence margin,
    M-1): set on its own turn, since it is not at the screen when it is attacked."""

    moves: tuple[str, ...]


@dataclass(frozen=True)
class Grabbed:
    """One end of a Myst grab (002:l.107-116): `other` is the fighter at the other end and
    `holding` says this one holds it. Neither moves nor attacks until the hold is broken (the
    grabbed fighter's `break_grab`) or let go (the holder's); written as its fields, in order."""

    other: str
    holding: bool


@dataclass(frozen=True)
class Unbalanced:
    """A Myst fighter pushed or tripped by a margin of 1-19 (002:l.101): `penalty` on its next
    attack or defence; given in round `round`, it lapses at the end of the fighter's next turn
    without an attack (002:l.105: it gave that attack up, and the penalty with it)."""

    penalty: int
    round: int


COMPONENTS: tuple[type, ...] = (
    Identity,
    Position,
    Posture,
    Wounds,
    Armed,
    Armoured,
    Faction,
    Sheet,
    Motion,
    Turn,
    Status,
    Controller,
    Visibility,
    Waiting,
    Outsider,
    Fallen,
    Disengaged,
    Crowded,
    RulesetSheet,
    Deferred,
    DamageWaiting,
    StandingDefence,
    Grabbed,
    Unbalanced,
)


def component_to_json(component: object) -> dict[str, Any]:
    """A component as plain JSON data, for the state hash and the player views."""
    if isinstance(component, Position):
        return {"cell": list(component.cell)}
    if isinstance(component, Posture):
        return {"stance": component.stance.value}
    if isinstance(component, Wounds):
        return component.health.to_dict()
    if isinstance(component, Turn):
        return component.state.to_dict()
    if isinstance(component, Sheet):
        return {
            "checks": dict(sorted(component.checks.items())),
            "speeds": {mode: getattr(component.speeds, mode) for mode in MODES},
            "size": component.size.name.lower(),
            "thrusters": component.thrusters,
            "vulnerability": component.vulnerability,
            "medkits": component.medkits,
        }
    if isinstance(component, Motion):
        return {
            "velocity": list(component.velocity),
            "in_flight": component.in_flight,
            "stealthy": component.stealthy,
            "dampers": component.dampers,
            "run": list(component.run),
            "flight": None if component.flight is None else [list(c) for c in component.flight],
        }
    if isinstance(component, Visibility):
        return {"hidden_from": sorted(component.hidden_from), "stealth": component.stealth}
    if isinstance(component, RulesetSheet):
        return {"sheet": sheet_to_json(component.sheet)}
    if isinstance(component, Deferred):
        return {
            "hits": [
                {
                    "type": h.damage_type,
                    "rolled": h.rolled,
                    "source": h.source,
                    "roll": None if h.roll is None else h.roll.to_dict(),
                    "on_hit": list(h.on_hit),
                }
                for h in component.hits
            ]
        }
    if isinstance(component, StandingDefence):
        return {"moves": list(component.moves)}
    if isinstance(component, DamageWaiting):
        return {
            "target": component.target,
            "damage_type": component.damage_type,
            "on_hit": list(component.on_hit),
            "choice": sheet_to_json(component.choice),
        }
    if isinstance(component, Waiting | Fallen | Disengaged):
        data = dict(vars(component))
        data["cell"] = list(component.cell)
        return data
    return dict(vars(component))


class ComponentError(ValueError):
    """Component data (a battle snapshot's) that is not what `component_to_json` writes."""


_BY_NAME: dict[str, type] = {kind.__name__: kind for kind in COMPONENTS}


def component_from_json(name: str, data: object) -> object:
    """The inverse of `component_to_json`, for a component of type `name`; data that the
    writer could not have written raises ComponentError naming the component."""
    kind = _BY_NAME.get(name)
    if kind is None:
        raise ComponentError(f"unknown component {name!r}")
    if not isinstance(data, dict):
        raise ComponentError(f"{name}: expected an object, not {type(data).__name__}")
    try:
        component = _from_json(kind, data)
    except ComponentError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise ComponentError(f"{name}: {exc!r}") from None
    if component_to_json(component) != data:  # a field too many, or of another kind
        raise ComponentError(f"{name}: {data!r} is not what the battle writes")
    return component


def _from_json(kind: type, data: dict[str, Any]) -> object:
    if kind is Position:
        return Position(json_cell(data["cell"]))
    if kind is Posture:
        return Posture(Stance(data["stance"]))
    if kind is Wounds:
        return Wounds(Health.from_dict(data, "Wounds"))
    if kind is Turn:
        return Turn(TurnState.from_dict(data))
    if kind is Sheet:
        checks = data["checks"]
        speeds = data["speeds"]
        if not isinstance(checks, dict) or not isinstance(speeds, dict):
            raise TypeError("checks and speeds are objects")
        return Sheet(
            checks=MappingProxyType({str(k): _int(v) for k, v in checks.items()}),
            speeds=Speeds(**{mode: speeds[mode] for mode in MODES}),
            size=Size.from_name(json_text(data["size"])),
            thrusters=_bool(data["thrusters"]),
            vulnerability=json_text(data["vulnerability"]),
            medkits=_int(data["medkits"]),
        )
    if kind is Motion:
        flight = data["flight"]
        return Motion(
            velocity=json_cell(data["velocity"]),
            in_flight=_bool(data["in_flight"]),
            stealthy=_bool(data["stealthy"]),
            dampers=_bool(data["dampers"]),
            run=json_cell(data["run"]),
            flight=None if flight is None else (json_cell(flight[0]), json_cell(flight[1])),
        )
    if kind is Visibility:
        hidden = data["hidden_from"]
        if not isinstance(hidden, list):
            raise TypeError("hidden_from is a list")
        return Visibility(frozenset(json_text(f) for f in hidden), _int(data["stealth"]))
    if kind is Waiting:
        return Waiting(_int(data["round"]), json_cell(data["cell"]), _bool(data["surprised"]))
    if kind is Fallen:
        return Fallen(json_cell(data["cell"]))
    if kind is RulesetSheet:
        return RulesetSheet(sheet_from_json(data["sheet"]))
    if kind is StandingDefence:
        moves = data["moves"]
        if not isinstance(moves, list):
            raise TypeError("moves is a list")
        return StandingDefence(tuple(json_text(m) for m in moves))
    if kind is DamageWaiting:
        on_hit = data["on_hit"]
        if not isinstance(on_hit, list):
            raise TypeError("on_hit is a list")
        return DamageWaiting(
            json_text(data["target"]),
            json_text(data["damage_type"]),
            tuple(json_text(e) for e in on_hit),
            sheet_from_json(data["choice"]),
        )
    if kind is Disengaged:
        return Disengaged(json_cell(data["cell"]))
    if kind is Deferred:
        hits = data["hits"]
        if not isinstance(hits, list):
            raise TypeError("hits is a list")
        return Deferred(
            tuple(
                DeferredHit(
                    json_text(h["type"]),
                    _int(h["rolled"]),
                    json_text(h["source"]),
                    None if h["roll"] is None else RollRecord.from_dict(h["roll"]),
                    tuple(json_text(e) for e in h["on_hit"]),
                )
                for h in hits
            )
        )
    # The rest are written as their fields (vars): read them back the same way.
    return kind(**data)


def json_cell(value: object) -> Cell:
    """A cell as the JSON a battle writes holds it ([x, y, z]); anything else is refused."""
    if not isinstance(value, list) or len(value) != 3:
        raise TypeError(f"{value!r} is not a cell")
    x, y, z = (_int(v) for v in value)
    return (x, y, z)


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not a whole number")
    return value


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{value!r} is not true or false")
    return value


def json_text(value: object) -> str:
    """Text as the JSON a battle writes holds it; anything else is refused."""
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not text")
    return value


# A ruleset's sheet is a frozen dataclass of its pure rules (game/rules/<id>/) holding plain
# values; it is written with its type named, every collection in a fixed order, so that the
# same sheet gives the same bytes and a snapshot reads it back without knowing the ruleset.
_SHEET_MODULES = "game.rules."
#: A ruleset sheet field with this metadata key is written only when it differs from its
#: default (`dataclasses.field(default=..., metadata={OMIT_DEFAULT: True})`): a field added
#: later keeps the state, and so the hashes, of older journals as they were (Myst's battle
#: state, docs/rules.md "Myst in battle").
OMIT_DEFAULT = "omit_default"


def sheet_to_json(value: object) -> Any:
    """A ruleset sheet (or a value in it) as plain JSON data: `sheet_from_json` reads it back."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return {"float": repr(value)}
    if isinstance(value, enum.Enum):
        return {"enum": _type_name(type(value)), "value": sheet_to_json(value.value)}
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {
            f.name: sheet_to_json(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not (f.metadata.get(OMIT_DEFAULT) and getattr(value, f.name) == f.default)
        }
        return {"type": _type_name(type(value)), "fields": fields}
    if isinstance(value, Mapping):
        items = sorted(value.items(), key=lambda kv: (type(kv[0]).__name__, kv[0]))
        return {"map": [[sheet_to_json(k), sheet_to_json(v)] for k, v in items]}
    if isinstance(value, frozenset):
        return {"set": sorted((sheet_to_json(v) for v in value), key=repr)}
    if isinstance(value, tuple):
        return {"tuple": [sheet_to_json(v) for v in value]}
    raise TypeError(f"a ruleset sheet holds {type(value).__name__}, which a battle cannot write")


def _type_name(kind: type) -> str:
    if not kind.__module__.startswith(_SHEET_MODULES):
        raise TypeError(f"{kind.__module__}.{kind.__qualname__} is not a pure rules type")
    return f"{kind.__module__}:{kind.__qualname__}"


def _named_type(name: object) -> type:
    module, _, qualname = json_text(name).partition(":")
    if not module.startswith(_SHEET_MODULES) or not qualname:
        raise ValueError(f"{name!r} is not a pure rules type")
    found: object = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    if not isinstance(found, type):
        raise TypeError(f"{name!r} is not a type")
    return found


def sheet_from_json(data: object) -> Any:
    """The inverse of `sheet_to_json`; data it could not have written raises an error."""
    if data is None or isinstance(data, bool | int | str):
        return data
    if not isinstance(data, dict) or not data:
        raise TypeError(f"{data!r} is not a ruleset sheet's value")
    if "type" in data:
        kind = _named_type(data["type"])
        if not dataclasses.is_dataclass(kind):
            raise TypeError(f"{data['type']!r} is not a record")
        fields = data["fields"]
        if not isinstance(fields, dict):
            raise TypeError("fields is an object")
        return kind(**{str(k): sheet_from_json(v) for k, v in fields.items()})
    if "enum" in data:
        enum_kind = _named_type(data["enum"])
        if not issubclass(enum_kind, enum.Enum):
            raise TypeError(f"{data['enum']!r} is not an enumeration")
        return enum_kind(sheet_from_json(data["value"]))
    if "map" in data:
        return MappingProxyType({sheet_from_json(k): sheet_from_json(v) for k, v in data["map"]})
    if "set" in data:
        return frozenset(sheet_from_json(v) for v in data["set"])
    if "tuple" in data:
        return tuple(sheet_from_json(v) for v in data["tuple"])
    if "fraction" in data:
        return Fraction(json_text(data["fraction"]))
    if "float" in data:
        return float(json_text(data["float"]))
    raise TypeError(f"{data!r} is not a ruleset sheet's value")
