"""Myst's rules data (seed 002 tables, M-2's assumed base) and sheets as frozen records."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Final, TypeVar

from game.rules import exact, registry

_T = TypeVar("_T")

DIRECTORY: Final = registry.DATA / "myst"
DAMAGE_TYPES: Final = ("impatto", "taglio", "punta")
WEAPON_KINDS: Final = ("melee", "ranged")
#: The scenario `sheet` keys (RULESETS.md section 4, plus M-2's base and `sample`).
SHEET_KEYS: Final = (
    "sample",
    "attack",
    "defence",
    "strength",
    "weapon",
    "shield",
    "mounted",
    "riding",
    "brawl",
    "priority",
    "status",
    "status_max",
    "speed",
    "two_handed",
    # mounted combat (002:l.118-185; game/rules/myst/mounted.py)
    "athletics",
    "horse",
    "gait",
)
#: A rider's gaits, slowest first (002:l.130-145: still or walking, canter, gallop).
RIDING_GAITS: Final = ("walk", "canter", "gallop")
WEAPON_KEYS: Final = (
    "name",
    "damage",
    "type",
    "kind",
    "reach",
    "hands",
    "grip",
    "improvised",
    "sample",
)


class MystDataError(ValueError):
    """Bad Myst data or sheet; the message names the file or place and the field."""


def _fail(where: str, problem: str) -> MystDataError:
    return MystDataError(f"{where}: {problem}")


def _int(raw: Mapping[str, object], key: str, where: str, low: int, high: int) -> int:
    value = raw[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"{where}.{key}", f"expected a whole number, got {value!r}")
    if not low <= value <= high:
        raise _fail(f"{where}.{key}", f"{value} is outside {low}..{high}")
    return value


def _bool(raw: Mapping[str, object], key: str, where: str, default: bool = False) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise _fail(f"{where}.{key}", f"expected true or false, got {value!r}")
    return value


def _str(raw: Mapping[str, object], key: str, where: str, options: tuple[str, ...] = ()) -> str:
    value = raw[key]
    if not isinstance(value, str) or not value:
        raise _fail(f"{where}.{key}", f"expected a non-empty string, got {value!r}")
    if options and value not in options:
        raise _fail(
            f"{where}.{key}",
            f"unknown value {value!r} (expected one of: " + ", ".join(options) + ")",
        )
    return value


def _known(raw: object, where: str, keys: tuple[str, ...]) -> Mapping[str, object]:
    if not isinstance(raw, dict):
        raise _fail(where, f"expected an object, got {type(raw).__name__}")
    for key in raw:
        if key not in keys:
            raise _fail(where, f"unknown field {key!r} (known: {', '.join(sorted(keys))})")
    return raw


@dataclass(frozen=True)
class Weapon:
    """A weapon: its damage dice (`1` is a fixed 1), type, melee or ranged, Reach, hands."""

    id: str
    name: str
    damage: str
    type: str
    kind: str = "melee"
    reach: int | None = None
    #: 2 for a two-handed weapon (against which an off-side shield keeps its bonus, 002:l.218).
    hands: int = 1
    #: A one-handed weapon that may be held in two hands (002:l.234: not daggers).
    grip: bool = False
    improvised: bool = False
    sample: bool = False

    @property
    def melee(self) -> bool:
        return self.kind == "melee"

    @property
    def damage_max(self) -> int:
        """The highest result of the damage dice: the die minimum's ceiling (002:l.62)."""
        return max(exact.distribution(exact.parse(self.damage)))

    @property
    def damage_min(self) -> int:
        return min(exact.distribution(exact.parse(self.damage)))


def parse_weapon(weapon_id: str, raw: object, where: str) -> Weapon:
    spec = _known(raw, where, WEAPON_KEYS)
    for key in ("damage", "type"):
        if key not in spec:
            raise _fail(f"{where}.{key}", "missing")
    damage = _str(spec, "damage", where)
    try:
        terms = exact.parse(damage)
        if any(t.explode or t.sign < 0 for t in terms):
            raise exact.DiceError(f"{damage!r}: Myst damage dice neither explode nor subtract")
        low = min(exact.distribution(terms))
    except exact.DiceError as exc:
        raise _fail(f"{where}.damage", str(exc)) from None
    if low < 0:
        raise _fail(f"{where}.damage", f"{damage!r} can roll below 0")
    return Weapon(
        id=weapon_id,
        name=_str(spec, "name", where) if "name" in spec else weapon_id,
        damage=damage,
        type=_str(spec, "type", where, DAMAGE_TYPES),
        kind=_str(spec, "kind", where, WEAPON_KINDS) if "kind" in spec else "melee",
        reach=_int(spec, "reach", where, 0, 100) if "reach" in spec else None,
        hands=_int(spec, "hands", where, 1, 2) if "hands" in spec else 1,
        grip=_bool(spec, "grip", where),
        improvised=_bool(spec, "improvised", where),
        sample=_bool(spec, "sample", where),
    )


def _later(default: _T) -> _T:
    """A sheet field added after journals existed: omitted from the state when at `default`
    ("omit_default", game/ecs/components.py OMIT_DEFAULT)."""
    found: _T = field(default=default, metadata={"omit_default": True})
    return found


@dataclass(frozen=True)
class StrengthRow:
    low: int
    high: int
    bonus: int


@dataclass(frozen=True)
class Sheet:
    """One Myst fighter (M-2): totals, Strength, weapon, shield, Status Globale, priority, speed."""

    attack: int
    defence: int
    strength: int
    weapon: Weapon
    status: int
    status_max: int
    priority: int
    speed: int
    #: The shield's bonus, already inside `defence` (an off-side shield loses half, 002:l.216).
    shield: int = 0
    mounted: bool = False
    #: The characteristic + Cavalcare total: canter and gallop use the lower one (002:l.136, 143).
    riding: int | None = None
    #: The Corpo a Corpo total for counter-moves (002:l.91-109); the attack total when absent.
    brawl: int | None = None
    sample: str | None = None
    # ---- added later: written in a battle's state only when not at their default (game/ecs/
    # components.py OMIT_DEFAULT), so that older Myst journals keep their state hashes.
    #: A one-handed weapon held in both hands (002:l.232-235): the Strength cap +1, no shield.
    two_handed: bool = _later(False)
    #: The battle's count of the cells walked this turn so far: a charge's run-up (002:l.189).
    run_up: int = _later(0)
    #: The defences made this round (M-2): the second and later take the base's -20.
    defences: int = _later(0)
    #: A defence margin's "cancel the -20" (002:l.77) bought for the next defence this round.
    cancel_penalty: bool = _later(False)
    #: Closed into defence (002:l.81, 137: its action given up) until its next turn begins.
    closed_defence: bool = _later(False)
    # ---- mounted combat (002:l.118-185, game/rules/myst/mounted.py), added later too.
    #: The Atletica total (characteristic + skill) a fall from the horse rolls (002:l.158).
    athletics: int | None = _later(None)
    #: The horse's Status Globale left (None: mounted.toml's assumed `horse_status`).
    horse: int | None = _later(None)
    #: The rider's gait: walk (still or walking), canter or gallop (002:l.130-145).
    gait: str = _later("walk")
    #: A declared change of gait, taken at the rider's next turn (002:l.153).
    gait_next: str | None = _later(None)
    #: The attacker's melee blows aim at a rider's horse, not the rider (002:l.150).
    at_horse: bool = _later(False)
    #: Defended in a gallop's exchange this round: no action after it (002:l.144).
    gallop_defended: bool = _later(False)

    @property
    def brawl_total(self) -> int:
        return self.attack if self.brawl is None else self.brawl

    @property
    def out(self) -> bool:
        """M-2: Status Globale 0 is out of the fight."""
        return self.status <= 0


def _sample(
    name: str, raw: object, where: str, defaults: Sheet, weapons: Mapping[str, Weapon]
) -> Sheet:
    """A sample sheet over the defaults: its own `status` is its whole Status Globale (the
    defaults' maximum is no sample's: a scenario's lower `status` is a wounded unit's)."""
    sheet = replace(read_sheet(raw, where, defaults, weapons), sample=name)
    given = raw if isinstance(raw, dict) else {}
    if "status" in given and "status_max" not in given:
        sheet = replace(sheet, status_max=sheet.status)
    return sheet


@dataclass(frozen=True)
class MystRules:
    """Every number of the Myst ruleset, from game/data/myst/."""

    margin_unit: int
    defence_cost: int
    closed_break_off_cost: int
    knock_down: int
    charge_defence_bonus: int
    strength_table: tuple[StrengthRow, ...]
    cap_two_handed: int
    cap_charge: int
    cap_gallop: int
    mounted_bonus: int
    stray_percent: int
    partial_penalty: int
    aimed_part: int
    aimed_limb: int
    run_up_metres: int
    second_defence_penalty: int
    closed_defence_bonus: int
    melee_cells: int
    priority_die: int
    defaults: Sheet
    weapons: Mapping[str, Weapon]
    samples: Mapping[str, Sheet]
    templates: Mapping[str, str]
    #: The sample sheet of a map unit whose template gives the default sheet but whose
    #: periferie weapon is one of these (a commoner the map armed with a bow): by weapon id.
    armed_commoners: Mapping[str, str]

    def strength_bonus(self, strength: int) -> int:
        """The table's damage bonus for a Strength score (002:l.30-40)."""
        for row in self.strength_table:
            if row.low <= strength <= row.high:
                return row.bonus
        raise ValueError(f"Strength {strength} is outside the table (1..50, 002:l.30-40)")


def read_table(path: Path) -> Mapping[str, object]:
    """A Myst TOML file's top table; a missing or malformed file raises MystDataError naming it."""
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise MystDataError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise MystDataError(f"{path}: {exc}") from None


def _section(data: Mapping[str, object], key: str, where: str) -> Mapping[str, object]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise _fail(f"{where} [{key}]", "missing table")
    return value


def read_sheet(
    raw: object,
    where: str,
    base: Sheet,
    weapons: Mapping[str, Weapon],
    samples: Mapping[str, Sheet] | None = None,
) -> Sheet:
    """A sheet from a scenario or data object over `base`; a string names a sample sheet.
    Unknown keys are refused by name; `sample` starts from that sample instead of `base`."""
    if isinstance(raw, str):
        raw = {"sample": raw}
    spec = _known(raw, where, SHEET_KEYS)
    sheet = base
    if "sample" in spec:
        options = tuple(sorted(samples or {}))
        name = _str(spec, "sample", where, options)
        sheet = replace((samples or {})[name], sample=name)
    changes: dict[str, object] = {}
    for key, low, high in (
        ("attack", 0, 300),
        ("defence", 0, 300),
        ("strength", 1, 50),  # the table's range, 002:l.30-40
        ("shield", 0, 100),
        ("riding", 0, 300),
        ("brawl", 0, 300),
        ("priority", -50, 100),
        ("status", 0, 1000),
        ("status_max", 1, 1000),
        ("speed", 0, 100),
        ("athletics", 0, 300),
        ("horse", 0, 1000),
    ):
        if key in spec:
            changes[key] = _int(spec, key, where, low, high)
    if "gait" in spec:
        changes["gait"] = _str(spec, "gait", where, RIDING_GAITS)
    for key in ("mounted", "two_handed"):
        if key in spec:
            changes[key] = _bool(spec, key, where)
    if "weapon" in spec:
        value = spec["weapon"]
        if isinstance(value, str):
            if value not in weapons:
                raise _fail(
                    f"{where}.weapon",
                    f"unknown weapon {value!r} (known: " + ", ".join(sorted(weapons)) + ")",
                )
            changes["weapon"] = weapons[value]
        else:
            changes["weapon"] = parse_weapon("inline", value, f"{where}.weapon")
    if "status" in changes and "status_max" not in changes and "status_max" not in spec:
        changes["status_max"] = max(_int(spec, "status", where, 0, 1000), sheet.status_max)
    sheet = replace(sheet, **changes)  # type: ignore[arg-type]
    if sheet.status > sheet.status_max:
        raise _fail(f"{where}.status", f"{sheet.status} is above status_max {sheet.status_max}")
    if sheet.two_handed:
        # 002:l.232-235: a one-handed weapon with a wide enough grip; both hands on it leave
        # none for a shield (docs/rules.md, "Myst in battle").
        arm = sheet.weapon
        if arm.hands == 2:
            raise _fail(f"{where}.two_handed", f"{arm.name} is a two-handed weapon already")
        if not arm.grip:
            raise _fail(f"{where}.two_handed", f"{arm.name} cannot be held in two hands")
        if sheet.shield:
            raise _fail(f"{where}.two_handed", f"both hands on {arm.name} leave none for a shield")
    if sheet.gait != "walk" and not sheet.mounted:
        raise _fail(f"{where}.gait", f"{sheet.gait!r} needs a mounted sheet (002:l.134, 140)")
    if sheet.shield > sheet.defence:
        raise _fail(
            f"{where}.shield",
            f"{sheet.shield} is more than the defence {sheet.defence} it is part of",
        )
    return sheet


@functools.cache
def load(directory: Path = DIRECTORY) -> MystRules:
    """The Myst rules data in `directory` (rules.toml, weapons.toml, sheets.toml)."""
    rules_path, weapons_path, sheets_path = (
        directory / name for name in ("rules.toml", "weapons.toml", "sheets.toml")
    )
    data = read_table(rules_path)
    where = str(rules_path)
    margin = _section(data, "margin", where)
    cap = _section(data, "cap", where)
    fire = _section(data, "line_of_fire", where)
    base = _section(data, "base", where)
    rows = data.get("strength")
    if not isinstance(rows, list) or not rows:
        raise _fail(f"{where} [[strength]]", "missing table")
    table = tuple(
        StrengthRow(
            _int(r, "low", f"{where} strength[{i}]", 1, 50),
            _int(r, "high", f"{where} strength[{i}]", 1, 50),
            _int(r, "bonus", f"{where} strength[{i}]", -10, 10),
        )
        for i, r in enumerate(rows)
    )
    covered = [s for row in table for s in range(row.low, row.high + 1)]
    if covered != list(range(1, 51)):
        raise _fail(f"{where} [[strength]]", "the rows must cover 1..50 once, in order")
    weapons_raw = read_table(weapons_path)
    weapons = {
        wid: parse_weapon(wid, raw, f"{weapons_path} [{wid}]")
        for wid, raw in sorted(weapons_raw.items())
    }
    defaults_raw = dict(_section(data, "defaults", where))
    defaults_raw.pop("assumed", None)
    default_weapon = _str(defaults_raw, "weapon", f"{where} [defaults]", tuple(sorted(weapons)))
    for key in ("attack", "defence", "strength", "status", "priority", "speed"):
        if key not in defaults_raw:
            raise _fail(f"{where} [defaults].{key}", "missing")
    defaults = Sheet(
        attack=_int(defaults_raw, "attack", f"{where} [defaults]", 0, 300),
        defence=_int(defaults_raw, "defence", f"{where} [defaults]", 0, 300),
        strength=_int(defaults_raw, "strength", f"{where} [defaults]", 1, 50),
        weapon=weapons[default_weapon],
        status=_int(defaults_raw, "status", f"{where} [defaults]", 1, 1000),
        status_max=_int(defaults_raw, "status", f"{where} [defaults]", 1, 1000),
        priority=_int(defaults_raw, "priority", f"{where} [defaults]", -50, 100),
        speed=_int(defaults_raw, "speed", f"{where} [defaults]", 0, 100),
    )
    sheets_data = read_table(sheets_path)
    sheets_where = str(sheets_path)
    sample_raw = _section(sheets_data, "sheets", sheets_where)
    samples = {
        name: _sample(name, raw, f"{sheets_where} [sheets.{name}]", defaults, weapons)
        for name, raw in sorted(sample_raw.items())
    }
    templates_raw = _section(sheets_data, "templates", sheets_where)
    templates: dict[str, str] = {}
    for template in sorted(templates_raw):
        templates[template] = _str(
            templates_raw, template, f"{sheets_where} [templates]", tuple(sorted(samples))
        )
    if "default" not in templates:
        raise _fail(f"{sheets_where} [templates].default", "missing")
    commoners_raw = sheets_data.get("armed_commoners", {})
    if not isinstance(commoners_raw, dict):
        raise _fail(f"{sheets_where} [armed_commoners]", "not a table")
    armed_commoners = {
        weapon: _str(
            commoners_raw, weapon, f"{sheets_where} [armed_commoners]", tuple(sorted(samples))
        )
        for weapon in sorted(commoners_raw)
    }
    return MystRules(
        margin_unit=_int(margin, "unit", where, 1, 100),
        defence_cost=_int(margin, "defence_cost", where, 1, 100),
        closed_break_off_cost=_int(margin, "closed_break_off_cost", where, 0, 100),
        knock_down=_int(margin, "knock_down", where, 1, 100),
        charge_defence_bonus=_int(margin, "charge_defence_bonus", where, 0, 100),
        strength_table=table,
        cap_two_handed=_int(cap, "two_handed", where, 0, 10),
        cap_charge=_int(cap, "charge", where, 0, 10),
        cap_gallop=_int(cap, "gallop", where, 0, 10),
        mounted_bonus=_int(_section(data, "mounted", where), "bonus", where, 0, 100),
        stray_percent=_int(fire, "stray_percent", where, 0, 100),
        partial_penalty=_int(fire, "partial_penalty", where, 0, 100),
        aimed_part=_int(fire, "aimed_part", where, 0, 100),
        aimed_limb=_int(fire, "aimed_limb", where, 0, 100),
        run_up_metres=_int(_section(data, "charge", where), "run_up_metres", where, 0, 100),
        second_defence_penalty=_int(base, "second_defence_penalty", where, 0, 100),
        closed_defence_bonus=_int(base, "closed_defence_bonus", where, 0, 100),
        melee_cells=_int(base, "melee_cells", where, 1, 10),
        priority_die=_int(base, "priority_die", where, 2, 100),
        defaults=defaults,
        weapons=MappingProxyType(weapons),
        samples=MappingProxyType(samples),
        templates=MappingProxyType(templates),
        armed_commoners=MappingProxyType(armed_commoners),
    )
