"""Rules data of "Le Periferie del Vuoto" as frozen records, validated as they load from TOML."""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Final, TypeVar

from game.rules import checknames, movement, registry

#: The damage types of P-DMG-1, in the seed's order.
DAMAGE_TYPES: Final = ("taglio", "perforante", "impatto", "elettrico", "ustione", "radiazione")
#: Effect names a vulnerability table may give: the query contract's names (QUERY-FORMAT.md).
EFFECTS: Final = (
    "light_wound",
    "grave_wound",
    "mortal_wound",
    "stunned",
    "shock",
    "blinded",
    "burning",
    "out_of_combat",
    "dead",
)
#: Conditions an entity may carry (P-VUL-3, plus `stabilised` of P-DEATH-1).
CONDITIONS: Final = (
    "stunned",
    "shock",
    "blinded",
    "burning",
    "out_of_combat",
    "dead",
    "stabilised",
)
#: Conditions a weapon may give on a hit (`on_hit`): those of P-VUL-3. Death comes from the saves
#: of P-DEATH-1 and `stabilised` needs a mortal wound, so no weapon gives either directly.
ON_HIT_CONDITIONS: Final = ("stunned", "shock", "blinded", "burning", "out_of_combat")
WEAPON_KINDS: Final = ("firearm", "thrown", "melee")  # P-HIT-4
SIZES: Final = ("small", "medium", "large")
SPEED_MODES: Final = movement.MODES
#: P-MOV-2 human speeds; a template's missing speeds take these values.
HUMAN_SPEEDS: Final[Mapping[str, int]] = MappingProxyType(
    {mode: v for mode, v in movement.HUMAN_SPEEDS.items() if mode != "thrusters"}
)
THRUSTER_SPEED: Final = movement.HUMAN_SPEEDS["thrusters"]  # P-MOV-2: "(if fitted)"

DEFAULT_DIRECTORY: Final = registry.ruleset(registry.DEFAULT).directory

# Count 'd' sides, then an optional constant: "2d6", "1d8+1", "3d6 - 2".
_DICE: Final = re.compile(r"(?P<count>\d+)d(?P<sides>\d+)(?:\s*(?P<sign>[+-])\s*(?P<mod>\d+))?")

_T = TypeVar("_T")


class RulesDataError(ValueError):
    """A rules data file or inline object is wrong; the message names the file, entry and field."""


class RulesInputError(ValueError):
    """A rules function got an argument outside its domain: a roll out of range, an unknown name."""


def check_damage_type(damage_type: str) -> str:
    """`damage_type` itself if it is one of DAMAGE_TYPES, else RulesInputError."""
    if damage_type not in DAMAGE_TYPES:
        raise RulesInputError(
            f"unknown damage type {damage_type!r} (expected one of {', '.join(DAMAGE_TYPES)})"
        )
    return damage_type


@dataclass(frozen=True)
class DamageType:
    id: str
    #: English display name.
    name: str


@dataclass(frozen=True)
class VulnerabilityBand:
    """Damage values low..high (high None: no upper end) give `effects` (P-VUL-1)."""

    low: int
    high: int | None
    effects: tuple[str, ...]

    def contains(self, value: int) -> bool:
        return self.low <= value and (self.high is None or value <= self.high)


@dataclass(frozen=True)
class VulnerabilityTable:
    """Damage ranges to effects, per damage type (P-VUL-1). A type with no bands is immune."""

    id: str
    name: str
    bands: Mapping[str, tuple[VulnerabilityBand, ...]]
    sample: bool = False

    def effects_at(self, damage_type: str, value: int) -> tuple[str, ...]:
        """The effects read at `value`; below the first band (or for no bands) there are none."""
        for band in self.bands[check_damage_type(damage_type)]:
            if band.contains(value):
                return band.effects
        return ()


@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    kind: str
    #: P_weapon of P-HIT-2, 1..100.
    hit: int
    #: Dice expression such as "2d6+1"; the caller rolls it.
    damage: str
    damage_type: str
    #: Last cell of medium / long range (P-THR-1 for thrown weapons); None for melee.
    medium_range: int | None
    long_range: int | None
    #: Offsets (dx, dy, dz) of the area pattern from its origin cell (P-AREA-1); empty: one target.
    area: tuple[tuple[int, int, int], ...]
    #: The area is not stopped by line-of-sight obstacles (P-AREA-1: the flamethrower).
    area_ignores_sight: bool
    #: Invented sample data, not canon of the setting.
    sample: bool
    #: Conditions given to the target when the attack hits (e.g. an incendiary's "burning").
    on_hit: tuple[str, ...] = ()


@dataclass(frozen=True)
class Armour:
    id: str
    name: str
    #: Base Armour% against the to-hit roll, per damage type (P-HIT-2, P-HIT-3); all six present.
    hit: Mapping[str, int]
    #: R_armour% damage reduction per damage type (P-DMG-1); all six present.
    damage: Mapping[str, int]
    sample: bool = False


@dataclass(frozen=True)
class Template:
    id: str
    name: str
    size: str
    #: Check bonuses by check name (P-CHK-1); a check not listed has bonus 0.
    checks: Mapping[str, int]
    #: Speeds in cells by movement mode (P-MOV-1); `thrusters` only when fitted.
    speeds: Mapping[str, int]
    thrusters: bool
    #: Id of the vulnerability table.
    vulnerability: str
    weapon: str | None
    armour: str | None
    sample: bool = False


@dataclass(frozen=True)
class RulesData:
    damage_types: Mapping[str, DamageType]
    vulnerabilities: Mapping[str, VulnerabilityTable]
    weapons: Mapping[str, Weapon]
    armour: Mapping[str, Armour]
    templates: Mapping[str, Template]


@dataclass(frozen=True)
class _Entry:
    """One entry being parsed, so that every error names the file, the entry and the field."""

    where: str
    kind: str
    entry_id: str
    mapping: Mapping[str, object]

    def error(self, field: str, problem: str) -> RulesDataError:
        return RulesDataError(
            f"{self.where}: {self.kind} {self.entry_id!r}: field {field!r}: {problem}"
        )

    def check_keys(self, allowed: tuple[str, ...]) -> None:
        for key in self.mapping:
            if key not in allowed:
                raise self.error(key, f"unknown key (known keys: {', '.join(allowed)})")

    def required(self, field: str) -> object:
        if field not in self.mapping:
            raise self.error(field, "missing")
        return self.mapping[field]

    def get(self, field: str, expected: type[_T], what: str, default: _T | None = None) -> _T:
        """The field's value checked against `expected`; `default` when absent (None: required)."""
        if field not in self.mapping and default is not None:
            return default
        return self.check_type(field, self.required(field), expected, what)

    def check_type(self, field: str, value: object, expected: type[_T], what: str) -> _T:
        # bool is an int in Python, but `true` is never a number in a data file.
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise self.error(field, f"{value!r} is not {what}")
        return value

    def optional_string(self, field: str) -> str | None:
        return self.get(field, str, "a string") if field in self.mapping else None

    def choice(self, field: str, choices: tuple[str, ...], default: str | None = None) -> str:
        value = self.get(field, str, "a string", default)
        if value not in choices:
            raise self.error(field, f"{value!r} is not one of {', '.join(choices)}")
        return value

    def integer(self, field: str, value: object, low: int, high: int | None, what: str) -> int:
        span = f"{low}..{high}" if high is not None else f">= {low}"
        number = self.check_type(field, value, int, f"{what} {span}")
        if number < low or (high is not None and number > high):
            raise self.error(field, f"{number!r} is not {what} {span}")
        return number

    def table(self, field: str) -> Mapping[str, object]:
        return self.get(field, dict, "a table", {})

    def per_damage_type(self, field: str, low: int, high: int, what: str) -> Mapping[str, int]:
        """A table keyed by damage type; types not listed are 0."""
        values = dict.fromkeys(DAMAGE_TYPES, 0)
        for damage_type, value in self.table(field).items():
            if damage_type not in DAMAGE_TYPES:
                raise self.error(
                    f"{field}.{damage_type}",
                    f"unknown damage type (known: {', '.join(DAMAGE_TYPES)})",
                )
            values[damage_type] = self.integer(f"{field}.{damage_type}", value, low, high, what)
        return MappingProxyType(values)


_WEAPON_KEYS: Final = (
    "name",
    "kind",
    "hit",
    "damage",
    "type",
    "medium_range",
    "long_range",
    "area",
    "area_ignores_sight",
    "sample",
    "on_hit",
)


def parse_weapon(entry_id: str, mapping: Mapping[str, object], where: str) -> Weapon:
    """A Weapon from a weapons.toml entry or an inline scenario object (`where` names the place)."""
    entry = _Entry(where, "weapon", entry_id, mapping)
    entry.check_keys(_WEAPON_KEYS)
    kind = entry.choice("kind", WEAPON_KINDS, "firearm")  # P-HIT-4: firearm is the default
    medium_range, long_range = _ranges(entry, kind)
    area = _area(entry)
    ignores_sight = entry.get("area_ignores_sight", bool, "true or false", False)
    if ignores_sight and not area:
        raise entry.error("area_ignores_sight", "true without an area pattern")
    return Weapon(
        id=entry_id,
        name=entry.get("name", str, "a string", entry_id),
        kind=kind,
        hit=entry.integer("hit", entry.required("hit"), 1, 100, "a percentage"),
        damage=_dice(entry),
        damage_type=entry.choice("type", DAMAGE_TYPES),
        medium_range=medium_range,
        long_range=long_range,
        area=area,
        area_ignores_sight=ignores_sight,
        sample=entry.get("sample", bool, "true or false", False),
        on_hit=_on_hit(entry),
    )


def _on_hit(entry: _Entry) -> tuple[str, ...]:
    names = entry.get("on_hit", list, "a list of condition names", [])
    for index, name in enumerate(names):
        if name not in ON_HIT_CONDITIONS:
            raise entry.error(
                f"on_hit[{index}]",
                f"unknown condition {name!r} (known: {', '.join(ON_HIT_CONDITIONS)})",
            )
    if len(set(names)) != len(names):
        raise entry.error("on_hit", "a condition is listed twice")
    return tuple(names)


def _dice(entry: _Entry) -> str:
    text = entry.get("damage", str, "a dice expression like '2d6+1'").strip()
    match = _DICE.fullmatch(text)
    if match is None:
        raise entry.error("damage", f"{text!r} is not a dice expression like '2d6+1'")
    count, sides = int(match["count"]), int(match["sides"])
    if count < 1 or sides < 2:
        raise entry.error("damage", f"{text!r} needs at least one die of at least 2 sides")
    modifier = int(match["mod"] or 0) * (-1 if match["sign"] == "-" else 1)
    if count + modifier < 0:
        # P-DMG-1 starts from a rolled damage that is never negative.
        raise entry.error("damage", f"{text!r} can roll below 0")
    return text


def _ranges(entry: _Entry, kind: str) -> tuple[int | None, int | None]:
    given = [field for field in ("medium_range", "long_range") if field in entry.mapping]
    if kind == "melee":
        # A melee weapon reaches the reaction area only.
        if given:
            raise entry.error(given[0], "a melee weapon has no range")
        return None, None
    if not given and kind == "firearm":
        return None, None
    if len(given) < 2:
        missing = "long_range" if given else "medium_range"
        raise entry.error(missing, "missing (medium_range and long_range go together)")
    medium = entry.integer("medium_range", entry.mapping["medium_range"], 1, None, "cells")
    long = entry.integer("long_range", entry.mapping["long_range"], medium, None, "cells")
    return medium, long


def _area(entry: _Entry) -> tuple[tuple[int, int, int], ...]:
    offsets: list[tuple[int, int, int]] = []
    for index, item in enumerate(entry.get("area", list, "a list of [dx, dy, dz] offsets", [])):
        field = f"area[{index}]"
        if (
            not isinstance(item, list)
            or len(item) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        ):
            raise entry.error(field, f"{item!r} is not an offset [dx, dy, dz] of 3 whole numbers")
        offset = (item[0], item[1], item[2])
        if offset in offsets:
            raise entry.error(field, f"{list(offset)} is listed twice")
        offsets.append(offset)
    return tuple(offsets)


def parse_armour(entry_id: str, mapping: Mapping[str, object], where: str) -> Armour:
    """An Armour from an armour.toml entry or an inline scenario object; missing types are 0."""
    entry = _Entry(where, "armour", entry_id, mapping)
    entry.check_keys(("name", "hit", "damage", "sample"))
    return Armour(
        id=entry_id,
        name=entry.get("name", str, "a string", entry_id),
        hit=entry.per_damage_type("hit", 0, 100, "a percentage"),
        damage=entry.per_damage_type("damage", 0, 100, "a percentage"),
        sample=entry.get("sample", bool, "true or false", False),
    )


def _parse_damage_type(entry_id: str, mapping: Mapping[str, object], where: str) -> DamageType:
    entry = _Entry(where, "damage type", entry_id, mapping)
    entry.check_keys(("name",))
    if entry_id not in DAMAGE_TYPES:
        raise RulesDataError(
            f"{where}: damage type {entry_id!r}: not one of the rules' {', '.join(DAMAGE_TYPES)}"
        )
    return DamageType(entry_id, entry.get("name", str, "a string"))


def _parse_vulnerability(
    entry_id: str, mapping: Mapping[str, object], where: str
) -> VulnerabilityTable:
    entry = _Entry(where, "table", entry_id, mapping)
    entry.check_keys(("name", "sample", *DAMAGE_TYPES))
    bands = {damage_type: _bands(entry, damage_type) for damage_type in DAMAGE_TYPES}
    return VulnerabilityTable(
        id=entry_id,
        name=entry.get("name", str, "a string", entry_id),
        bands=MappingProxyType(bands),
        sample=entry.get("sample", bool, "true or false", False),
    )


def _bands(entry: _Entry, damage_type: str) -> tuple[VulnerabilityBand, ...]:
    """Bands ascending and contiguous from a low >= 1, the last one open-ended; [] is immune."""
    items = entry.get(damage_type, list, "a list of bands (write [] for immune)")
    bands: list[VulnerabilityBand] = []
    for index, item in enumerate(items):
        field = f"{damage_type}[{index}]"
        if not isinstance(item, dict):
            raise entry.error(field, f"{item!r} is not a band {{ low, high, effects }}")
        for key in item:
            if key not in ("low", "high", "effects"):
                raise entry.error(f"{field}.{key}", "unknown key (known keys: low, high, effects)")
        for key in ("low", "effects"):
            if key not in item:
                raise entry.error(f"{field}.{key}", "missing")
        previous = bands[-1] if bands else None
        if previous is not None and previous.high is None:
            raise entry.error(field, "follows an open-ended band (only the last has no 'high')")
        # P-VUL-2: damage 0 has no effect, so no band may start below 1.
        expected_low = 1 if previous is None else (previous.high or 0) + 1
        low = entry.integer(f"{field}.low", item["low"], 1, None, "a damage value")
        if previous is not None and low != expected_low:
            problem = "overlaps" if low < expected_low else "leaves a gap after"
            raise entry.error(
                f"{field}.low",
                f"{low} {problem} the band before ({previous.low}..{previous.high}); "
                f"expected {expected_low}",
            )
        high = (
            entry.integer(f"{field}.high", item["high"], low, None, "a damage value")
            if "high" in item
            else None
        )
        effects = _effects(entry, f"{field}.effects", item["effects"])
        bands.append(VulnerabilityBand(low, high, effects))
    if bands and bands[-1].high is not None:
        raise entry.error(
            f"{damage_type}[{len(bands) - 1}].high",
            "the last band must be open-ended (leave out 'high': 'N or more')",
        )
    return tuple(bands)


def _effects(entry: _Entry, field: str, effects: object) -> tuple[str, ...]:
    if not isinstance(effects, list) or not effects:
        raise entry.error(field, f"{effects!r} is not a non-empty list of effect names")
    for effect in effects:
        if effect not in EFFECTS:
            raise entry.error(field, f"unknown effect {effect!r} (known: {', '.join(EFFECTS)})")
    if len(set(effects)) != len(effects):
        raise entry.error(field, "an effect is listed twice")
    return tuple(effects)


_TEMPLATE_KEYS: Final = (
    "name",
    "size",
    "checks",
    "speeds",
    "thrusters",
    "vulnerability",
    "weapon",
    "armour",
    "sample",
)


def _parse_template(entry_id: str, mapping: Mapping[str, object], where: str) -> Template:
    """A template is a medium human (P-MOV-2 speeds, checks 0, human table) except where it says."""
    entry = _Entry(where, "template", entry_id, mapping)
    entry.check_keys(_TEMPLATE_KEYS)
    checks: dict[str, int] = {}
    for check, value in entry.table("checks").items():
        if check not in checknames.ALL:
            raise entry.error(
                f"checks.{check}", f"unknown check (known: {', '.join(checknames.ALL)})"
            )
        checks[check] = entry.integer(f"checks.{check}", value, -100, 100, "a bonus")
    thrusters = entry.get("thrusters", bool, "true or false", False)
    speeds = dict(HUMAN_SPEEDS)
    if thrusters:
        speeds["thrusters"] = THRUSTER_SPEED
    for mode, value in entry.table("speeds").items():
        if mode not in SPEED_MODES:
            raise entry.error(f"speeds.{mode}", f"unknown mode (known: {', '.join(SPEED_MODES)})")
        if mode == "thrusters" and not thrusters:
            raise entry.error("speeds.thrusters", "given, but thrusters = false")
        speeds[mode] = entry.integer(f"speeds.{mode}", value, 0, None, "a speed in cells")
    return Template(
        id=entry_id,
        name=entry.get("name", str, "a string", entry_id),
        size=entry.choice("size", SIZES, "medium"),
        checks=MappingProxyType(checks),
        speeds=MappingProxyType(speeds),
        thrusters=thrusters,
        vulnerability=entry.get("vulnerability", str, "a string", "human"),
        weapon=entry.optional_string("weapon"),
        armour=entry.optional_string("armour"),
        sample=entry.get("sample", bool, "true or false", False),
    )


def _read(directory: Path, filename: str) -> dict[str, Mapping[str, object]]:
    path = directory / filename
    try:
        with path.open("rb") as handle:
            document = tomllib.load(handle)
    except FileNotFoundError:
        raise RulesDataError(f"{filename}: missing from {directory}") from None
    except tomllib.TOMLDecodeError as error:
        raise RulesDataError(f"{filename}: not valid TOML: {error}") from None
    for entry_id, value in document.items():
        if not isinstance(value, dict):
            raise RulesDataError(f"{filename}: entry {entry_id!r}: is not a table [{entry_id}]")
    return document


def _parse_file(
    directory: Path, filename: str, parse: Callable[[str, Mapping[str, object], str], _T]
) -> dict[str, _T]:
    return {key: parse(key, value, filename) for key, value in _read(directory, filename).items()}


def load_rules(ruleset: str = registry.DEFAULT, *, directory: Path | None = None) -> RulesData:
    """Load and cross-check the five TOML files of `ruleset` (game/rules/registry.py), or those
    in `directory`; a ruleset's data is loaded once and cached. An unknown ruleset is
    registry.UnknownRuleset (a ValueError)."""
    if directory is None:
        return _ruleset_rules(ruleset)
    return _load(directory)


@functools.lru_cache(maxsize=len(registry.RULESETS))
def _ruleset_rules(ruleset: str) -> RulesData:
    return _load(registry.ruleset(ruleset).directory)


def _load(directory: Path) -> RulesData:
    damage_types = _parse_file(directory, "damage_types.toml", _parse_damage_type)
    for damage_type in DAMAGE_TYPES:
        if damage_type not in damage_types:
            raise RulesDataError(f"damage_types.toml: damage type {damage_type!r}: missing")
    vulnerabilities = _parse_file(directory, "vulnerabilities.toml", _parse_vulnerability)
    weapons = _parse_file(directory, "weapons.toml", parse_weapon)
    armour = _parse_file(directory, "armour.toml", parse_armour)
    templates = _parse_file(directory, "templates.toml", _parse_template)
    for template in templates.values():
        entry = _Entry("templates.toml", "template", template.id, {})
        references = (
            ("vulnerability", "table", template.vulnerability, vulnerabilities),
            ("weapon", "weapon", template.weapon, weapons),
            ("armour", "armour", template.armour, armour),
        )
        for field, kind, reference, known in references:
            if reference is not None and reference not in known:
                raise entry.error(
                    field, f"unknown {kind} {reference!r} (known: {', '.join(sorted(known))})"
                )
    return RulesData(
        damage_types=MappingProxyType(damage_types),
        vulnerabilities=MappingProxyType(vulnerabilities),
        weapons=MappingProxyType(weapons),
        armour=MappingProxyType(armour),
        templates=MappingProxyType(templates),
    )
