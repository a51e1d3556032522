"""Seed 004's tables, D-2's base numbers, sample weapons and sheets (game/data/d20/*.toml)."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Final

#: game/data/d20, beside periferie's data (game/rules/registry.py names the same folder).
DIRECTORY: Final = Path(__file__).resolve().parents[2] / "data" / "d20"

#: Weapon kinds: "melee" uses the melee bonus and the melee columns, the rest are ranged.
WEAPON_KINDS: Final = ("melee", "ranged", "bow", "crossbow", "shuriken")
#: What a table note does to the defender's Dex bonus to AC (004:l.42, l.44).
DEX_EFFECTS: Final = ("keep", "lost", "zero")
#: The acts base.toml's [disabled] may name as strenuous (assumed, the 3.5 SRD's).
STRENUOUS_ACTS: Final = ("attack", "opportunity_attack")


class D20DataError(ValueError):
    """A d20 data file that cannot be read; the message names the file, the entry and the key."""


@dataclass(frozen=True)
class Modifier:
    """One row of a seed table: its value in melee and at range (None where the seed has "-")."""

    id: str
    line: int
    melee: int | None
    ranged: int | None
    dex: str = "keep"
    dex_penalty: int = 0
    #: For a row whose ranged column is "-" with an exception (prone, 004:l.23).
    ranged_only_with: tuple[str, ...] = ()

    def value(self, melee: bool) -> int | None:
        return self.melee if melee else self.ranged


@dataclass(frozen=True)
class Weapon:
    """A weapon: its kind and its dice (sample data or inline)."""

    id: str
    name: str
    kind: str
    damage: str | None = None
    sample: bool = False

    @property
    def melee(self) -> bool:
        return self.kind == "melee"


@dataclass(frozen=True)
class SampleSheet:
    """A sample character sheet of sheets.toml (the seed has none)."""

    id: str
    name: str
    attack_melee: int
    attack_ranged: int
    ac: int
    dex_ac: int
    dex: int
    reach: int
    hit_points: int
    speed: int
    weapon: str
    sample: bool


@dataclass(frozen=True)
class Base:
    """The numbers outside the tables (base.toml): the seed's and D-2's."""

    natural_miss: int
    natural_hit: int
    critical_multiplier: int
    dex_zero_modifier: int
    cover_normal: int
    cover_soft: int
    cover_improved: int
    low_obstacle_range: int
    concealment_normal: int
    concealment_total: int
    coup_de_grace_dc: int
    #: ASSUMED (base.toml [coup_de_grace] fortitude): the Fortitude save bonus of a sheet that
    #: gives none; the seed and D-2 name the save (004:l.116) but no bonus.
    fortitude: int
    hp_disabled: int
    hp_dead: int
    dying_loss: int
    stabilise_percent: int
    #: ASSUMED (the 3.5 SRD's disabled creature, base.toml [disabled]): the hit points a
    #: strenuous act costs it after the act (0: off), which acts, and its speed's divisor.
    disabled_strenuous_damage: int
    disabled_strenuous: tuple[str, ...]
    disabled_speed_divisor: int
    speed: int
    five_foot_step: int
    reach: int
    sheet_ac: int
    sheet_hit_points: int


@dataclass(frozen=True)
class D20Data:
    """Everything of game/data/d20, validated and frozen."""

    attack: Mapping[str, Modifier]
    ac: Mapping[str, Modifier]
    base: Base
    weapons: Mapping[str, Weapon]
    sheets: Mapping[str, SampleSheet]


def _read(directory: Path, filename: str) -> dict[str, object]:
    path = directory / filename
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise D20DataError(f"{filename}: missing from {directory}") from None
    except tomllib.TOMLDecodeError as error:
        raise D20DataError(f"{filename}: not valid TOML: {error}") from None


class _Entry:
    """One [table] of a file, read key by key with messages naming the place."""

    def __init__(self, where: str, raw: object, allowed: tuple[str, ...]) -> None:
        if not isinstance(raw, dict):
            raise D20DataError(f"{where}: expected a table")
        for key in raw:
            if key not in allowed:
                raise D20DataError(f"{where}: unknown key {key!r} (known: {', '.join(allowed)})")
        self.where = where
        self.raw: dict[str, object] = raw

    def integer(self, key: str, default: int | None = None) -> int:
        value = self.raw.get(key, default)
        if value is None:
            raise D20DataError(f"{self.where}.{key}: missing (a whole number)")
        if isinstance(value, bool) or not isinstance(value, int):
            raise D20DataError(f"{self.where}.{key}: expected a whole number, got {value!r}")
        return value

    def optional_integer(self, key: str) -> int | None:
        return self.integer(key) if key in self.raw else None

    def text(self, key: str, default: str | None = None, options: tuple[str, ...] = ()) -> str:
        value = self.raw.get(key, default)
        if not isinstance(value, str) or not value:
            raise D20DataError(f"{self.where}.{key}: expected a non-empty string, got {value!r}")
        if options and value not in options:
            raise D20DataError(
                f"{self.where}.{key}: unknown value {value!r} (known: {', '.join(options)})"
            )
        return value

    def flag(self, key: str) -> bool:
        value = self.raw.get(key, False)
        if not isinstance(value, bool):
            raise D20DataError(f"{self.where}.{key}: expected true or false, got {value!r}")
        return value

    def table(self, key: str) -> _Entry:
        return _Entry(f"{self.where}.{key}", self.raw.get(key), ("melee", "ranged"))


def _modifiers(document: dict[str, object], part: str) -> Mapping[str, Modifier]:
    where = f"modifiers.toml: [{part}]"
    rows = document.get(part)
    if not isinstance(rows, dict):
        raise D20DataError(f"{where}: missing")
    out: dict[str, Modifier] = {}
    allowed = ("line", "melee", "ranged", "dex", "dex_penalty", "ranged_only_with")
    for row_id, raw in rows.items():
        entry = _Entry(f"modifiers.toml: [{part}.{row_id}]", raw, allowed)
        kinds = entry.raw.get("ranged_only_with", [])
        if not isinstance(kinds, list) or any(k not in WEAPON_KINDS for k in kinds):
            raise D20DataError(
                f"{entry.where}.ranged_only_with: expected a list of {', '.join(WEAPON_KINDS)}"
            )
        out[row_id] = Modifier(
            id=row_id,
            line=entry.integer("line"),
            melee=entry.optional_integer("melee"),
            ranged=entry.optional_integer("ranged"),
            dex=entry.text("dex", "keep", DEX_EFFECTS),
            dex_penalty=entry.integer("dex_penalty", 0),
            ranged_only_with=tuple(str(k) for k in kinds),
        )
    return MappingProxyType(out)


def _base(document: dict[str, object]) -> Base:
    def section(name: str, keys: tuple[str, ...]) -> _Entry:
        return _Entry(f"base.toml: [{name}]", document.get(name), keys)

    attack = section("attack", ("natural_miss", "natural_hit", "critical_multiplier"))
    dexterity = section("dexterity", ("zero_modifier",))
    cover = section("cover", ("normal", "soft", "improved", "low_obstacle_range"))
    concealment = section("concealment", ("normal", "total"))
    coup = section("coup_de_grace", ("dc_base", "fortitude"))
    hp = section("hit_points", ("disabled", "dead", "dying_loss", "stabilise_percent"))
    disabled = section("disabled", ("strenuous_damage", "strenuous", "speed_divisor"))
    acts = disabled.raw.get("strenuous")
    if not isinstance(acts, list) or any(a not in STRENUOUS_ACTS for a in acts):
        raise D20DataError(
            f"{disabled.where}.strenuous: expected a list of {', '.join(STRENUOUS_ACTS)}, "
            f"got {acts!r}"
        )
    strenuous_damage = disabled.integer("strenuous_damage")
    if strenuous_damage < 0:
        raise D20DataError(f"{disabled.where}.strenuous_damage: 0 or more, got {strenuous_damage}")
    divisor = disabled.integer("speed_divisor")
    if divisor < 1:
        raise D20DataError(f"{disabled.where}.speed_divisor: 1 or more, got {divisor}")
    turn = section("turn", ("speed", "five_foot_step", "reach"))
    sheet = section("sheet", ("ac", "hit_points"))
    return Base(
        natural_miss=attack.integer("natural_miss"),
        natural_hit=attack.integer("natural_hit"),
        critical_multiplier=attack.integer("critical_multiplier"),
        dex_zero_modifier=dexterity.integer("zero_modifier"),
        cover_normal=cover.integer("normal"),
        cover_soft=cover.integer("soft"),
        cover_improved=cover.integer("improved"),
        low_obstacle_range=cover.integer("low_obstacle_range"),
        concealment_normal=concealment.integer("normal"),
        concealment_total=concealment.integer("total"),
        coup_de_grace_dc=coup.integer("dc_base"),
        fortitude=coup.integer("fortitude"),
        hp_disabled=hp.integer("disabled"),
        hp_dead=hp.integer("dead"),
        dying_loss=hp.integer("dying_loss"),
        stabilise_percent=hp.integer("stabilise_percent"),
        disabled_strenuous_damage=strenuous_damage,
        disabled_strenuous=tuple(str(a) for a in acts),
        disabled_speed_divisor=divisor,
        speed=turn.integer("speed"),
        five_foot_step=turn.integer("five_foot_step"),
        reach=turn.integer("reach"),
        sheet_ac=sheet.integer("ac"),
        sheet_hit_points=sheet.integer("hit_points"),
    )


def _weapons(document: dict[str, object]) -> Mapping[str, Weapon]:
    out: dict[str, Weapon] = {}
    for weapon_id, raw in document.items():
        entry = _Entry(f"weapons.toml: [{weapon_id}]", raw, ("name", "sample", "kind", "damage"))
        out[weapon_id] = Weapon(
            id=weapon_id,
            name=entry.text("name", weapon_id),
            kind=entry.text("kind", None, WEAPON_KINDS),
            damage=entry.text("damage") if "damage" in entry.raw else None,
            sample=entry.flag("sample"),
        )
    return MappingProxyType(out)


SHEET_KEYS: Final = (
    "name", "sample", "attack", "ac", "dex_ac", "dex", "reach", "hit_points", "speed", "weapon",
)  # fmt: skip


def _sheets(
    document: dict[str, object], weapons: Mapping[str, Weapon]
) -> Mapping[str, SampleSheet]:
    out: dict[str, SampleSheet] = {}
    for sheet_id, raw in document.items():
        entry = _Entry(f"sheets.toml: [{sheet_id}]", raw, SHEET_KEYS)
        attack = entry.table("attack")
        weapon = entry.text("weapon")
        if weapon not in weapons:
            raise D20DataError(
                f"{entry.where}.weapon: unknown weapon {weapon!r} (known: {', '.join(weapons)})"
            )
        out[sheet_id] = SampleSheet(
            id=sheet_id,
            name=entry.text("name", sheet_id),
            attack_melee=attack.integer("melee", 0),
            attack_ranged=attack.integer("ranged", 0),
            ac=entry.integer("ac"),
            dex_ac=entry.integer("dex_ac", 0),
            dex=entry.integer("dex", entry.integer("dex_ac", 0)),
            reach=entry.integer("reach", 1),
            hit_points=entry.integer("hit_points"),
            speed=entry.integer("speed", 6),
            weapon=weapon,
            sample=entry.flag("sample"),
        )
    return MappingProxyType(out)


def load_d20(directory: Path | None = None) -> D20Data:
    """game/data/d20 (or `directory`) read and checked; the shipped data is read once."""
    return _load(DIRECTORY if directory is None else directory)


@functools.lru_cache(maxsize=4)
def _load(directory: Path) -> D20Data:
    modifiers = _read(directory, "modifiers.toml")
    for part in modifiers:
        if part not in ("attack", "ac"):
            raise D20DataError(f"modifiers.toml: unknown table [{part}] (known: attack, ac)")
    weapons = _weapons(_read(directory, "weapons.toml"))
    return D20Data(
        attack=_modifiers(modifiers, "attack"),
        ac=_modifiers(modifiers, "ac"),
        base=_base(_read(directory, "base.toml")),
        weapons=weapons,
        sheets=_sheets(_read(directory, "sheets.toml"), weapons),
    )
