"""Cepheus rules data (game/data/cepheus/*.toml) as frozen, checked records."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType

from game.rules import registry
from game.rules.cepheus.sheet import KINDS, Sheet, Weapon, parse_sheet, parse_weapon
from game.rules.reader import (
    ScenarioError,
    as_int,
    as_list,
    as_number,
    as_object,
    as_str,
    choice,
    fail,
)

#: The difficulty of an attack the table forbids (000:l.45-56).
NO_ATTACK = "--"


class CepheusDataError(ValueError):
    """A Cepheus data file that cannot be used; the message names the file and the place."""


@dataclass(frozen=True)
class Band:
    """A range band (C-2): it holds distances up to `cells_up_to` cells or `metres_up_to` metres
    (None: no upper bound)."""

    id: str
    cells_up_to: int | None = None
    metres_up_to: float | None = None


@dataclass(frozen=True)
class Burst:
    """A row of the burst table (000:l.249-256)."""

    rounds: int
    dm: int
    extra: str


@dataclass(frozen=True)
class Tables:
    """Everything in combat.toml."""

    check_dice: int
    check_target: int
    bands: tuple[Band, ...]
    difficulties: Mapping[str, int]
    #: weapon type -> kind (melee, thrown, firearm)
    kinds: Mapping[str, str]
    #: weapon type -> difficulty id per band (NO_ATTACK where the table says "--")
    difficulty: Mapping[str, tuple[str, ...]]
    bursts: Mapping[int, Burst]
    #: cover grades, worst first, and their DMs
    cover: tuple[tuple[str, int], ...]
    modifiers: Mapping[str, float]
    initiative: Mapping[str, int]
    turn: Mapping[str, int]

    @property
    def band_ids(self) -> tuple[str, ...]:
        return tuple(b.id for b in self.bands)

    @property
    def cover_ids(self) -> tuple[str, ...]:
        return tuple(c for c, _ in self.cover)

    def mod(self, name: str) -> int:
        """An integer modifier of combat.toml's [modifiers]."""
        return int(self.modifiers[name])


@dataclass(frozen=True)
class Samples:
    """sheets.toml: sample weapons and sheets, and the shipped maps' periferie ids mapped."""

    weapons: Mapping[str, Weapon]
    sheets: Mapping[str, Sheet]
    #: the raw `sheet` objects of the sample sheets (a map unit's scenario fields)
    raw_sheets: Mapping[str, Mapping[str, object]]
    templates: Mapping[str, str]
    weapon_ids: Mapping[str, str]
    armour: Mapping[str, int]


@dataclass(frozen=True)
class CepheusData:
    tables: Tables
    samples: Samples


_MODIFIER_KEYS = (
    "aim_per_action", "aim_max", "aim_to_kill_per_action", "aim_to_kill_max", "laser_sight",
    "movement_per", "movement_dm", "dodge", "dodge_in_cover", "prone_ranged",
    "prone_ravvicinata", "prone_personale", "darkness_low", "darkness_total", "smoke_light",
    "smoke_dense", "smoke_laser_factor", "weather_visibility", "weather_disturbance",
    "uncontrolled_burst", "into_melee", "suppression", "suppressed", "zero_g_recoil",
    "extreme_range", "extreme_range_skill", "hasty", "per_reaction", "effect_minimum",
)  # fmt: skip
_INITIATIVE_KEYS = ("dice", "ambush_roll", "hasty", "per_reaction")
_TURN_KEYS = (
    "minor_actions", "significant_actions", "all_minor", "cells_per_move", "crouched_divisor",
    "rough_divisor", "prone_cells", "seriously_wounded_cells_per_round",
)  # fmt: skip


def _all_present(spec: Mapping[str, object], keys: tuple[str, ...], where: str) -> None:
    for key in keys:
        if key not in spec:
            raise ScenarioError(f"{where}.{key}: missing")


def parse_tables(raw: Mapping[str, object]) -> Tables:
    top = as_object(
        raw,
        "",
        ("check", "bands", "difficulties", "weapon_types", "bursts", "cover", "modifiers",
         "initiative", "turn"),
    )  # fmt: skip
    check = as_object(top.get("check"), "check", ("dice", "target"))
    _all_present(check, ("dice", "target"), "check")
    bands: list[Band] = []
    for i, b in enumerate(as_list(top.get("bands"), "bands")):
        spec = as_object(b, f"bands[{i}]", ("id", "cells_up_to", "metres_up_to"))
        cells = spec.get("cells_up_to")
        metres = spec.get("metres_up_to")
        bands.append(
            Band(
                as_str(spec.get("id"), f"bands[{i}].id"),
                None if cells is None else as_int(cells, f"bands[{i}].cells_up_to", low=0),
                None if metres is None else as_number(metres, f"bands[{i}].metres_up_to", 0),
            )
        )
    if not bands or any(b.cells_up_to is None and b.metres_up_to is None for b in bands[:-1]):
        raise ScenarioError("bands: every band but the last needs an upper bound")
    difficulties = {
        k: as_int(v, f"difficulties.{k}", low=-20, high=20)
        for k, v in as_object(top.get("difficulties"), "difficulties").items()
    }
    kinds: dict[str, str] = {}
    table: dict[str, tuple[str, ...]] = {}
    for name, w in as_object(top.get("weapon_types"), "weapon_types").items():
        spec = as_object(w, f"weapon_types.{name}", ("kind", "bands"))
        kinds[name] = choice(spec.get("kind"), f"weapon_types.{name}.kind", KINDS)
        row = as_list(spec.get("bands"), f"weapon_types.{name}.bands")
        if len(row) != len(bands):
            raise ScenarioError(
                f"weapon_types.{name}.bands: {len(row)} entries for {len(bands)} bands"
            )
        table[name] = tuple(
            choice(d, f"weapon_types.{name}.bands[{j}]", (*difficulties, NO_ATTACK))
            for j, d in enumerate(row)
        )
    bursts: dict[int, Burst] = {}
    for rounds, spec_raw in as_object(top.get("bursts"), "bursts").items():
        spec = as_object(spec_raw, f"bursts.{rounds}", ("dm", "extra"))
        if not rounds.isdigit():
            raise ScenarioError(f"bursts.{rounds}: the key is a number of rounds")
        bursts[int(rounds)] = Burst(
            int(rounds),
            as_int(spec.get("dm"), f"bursts.{rounds}.dm", low=0, high=10),
            as_str(spec.get("extra"), f"bursts.{rounds}.extra"),
        )
    cover = []
    for i, c in enumerate(as_list(top.get("cover"), "cover")):
        spec = as_object(c, f"cover[{i}]", ("id", "dm"))
        cover.append(
            (as_str(spec.get("id"), f"cover[{i}].id"), as_int(spec.get("dm"), f"cover[{i}].dm"))
        )
    modifiers = as_object(top.get("modifiers"), "modifiers", _MODIFIER_KEYS)
    _all_present(modifiers, _MODIFIER_KEYS, "modifiers")
    initiative = as_object(top.get("initiative"), "initiative", _INITIATIVE_KEYS)
    _all_present(initiative, _INITIATIVE_KEYS, "initiative")
    turn = as_object(top.get("turn"), "turn", _TURN_KEYS)
    _all_present(turn, _TURN_KEYS, "turn")
    return Tables(
        check_dice=as_int(check["dice"], "check.dice", low=1, high=10),
        check_target=as_int(check["target"], "check.target"),
        bands=tuple(bands),
        difficulties=MappingProxyType(difficulties),
        kinds=MappingProxyType(kinds),
        difficulty=MappingProxyType(table),
        bursts=MappingProxyType(bursts),
        cover=tuple(cover),
        modifiers=MappingProxyType(
            {
                k: as_number(v, f"modifiers.{k}")
                if k == "movement_per"
                else as_int(v, f"modifiers.{k}")
                for k, v in modifiers.items()
            }
        ),
        initiative=MappingProxyType(
            {k: as_int(v, f"initiative.{k}") for k, v in initiative.items()}
        ),
        turn=MappingProxyType({k: as_int(v, f"turn.{k}", low=0) for k, v in turn.items()}),
    )


def parse_samples(raw: Mapping[str, object], tables: Tables) -> Samples:
    top = as_object(raw, "", ("weapons", "sheets", "from_periferie"))
    weapons = {
        wid: parse_weapon(w, f"weapons.{wid}", tables.kinds)
        for wid, w in as_object(top.get("weapons", {}), "weapons").items()
    }
    for wid, w in weapons.items():
        if w.auto and w.auto not in tables.bursts:
            known = ", ".join(str(b) for b in tables.bursts)
            fail(f"weapons.{wid}.auto", f"no burst of {w.auto} rounds (000:l.249-256: {known})")
    default = weapons.get("pugni")
    sheets: dict[str, Sheet] = {}
    raw_sheets: dict[str, Mapping[str, object]] = {}
    for sid, s in as_object(top.get("sheets", {}), "sheets").items():
        spec = dict(as_object(s, f"sheets.{sid}"))
        spec.pop("name", None)
        spec.pop("sample", None)
        sheets[sid] = parse_sheet(spec, f"sheets.{sid}", tables.kinds, weapons, default)
        raw_sheets[sid] = MappingProxyType(spec)
    mapped = as_object(
        top.get("from_periferie", {}), "from_periferie", ("templates", "weapons", "armour")
    )
    templates = {
        k: choice(v, f"from_periferie.templates.{k}", sheets)
        for k, v in as_object(mapped.get("templates", {}), "from_periferie.templates").items()
    }
    weapon_ids = {
        k: choice(v, f"from_periferie.weapons.{k}", weapons)
        for k, v in as_object(mapped.get("weapons", {}), "from_periferie.weapons").items()
    }
    armour = {
        k: as_int(v, f"from_periferie.armour.{k}", low=0)
        for k, v in as_object(mapped.get("armour", {}), "from_periferie.armour").items()
    }
    return Samples(
        MappingProxyType(weapons),
        MappingProxyType(sheets),
        MappingProxyType(raw_sheets),
        MappingProxyType(templates),
        MappingProxyType(weapon_ids),
        MappingProxyType(armour),
    )


def _read(path: Path) -> dict[str, object]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise CepheusDataError(f"{path}: cannot read the file ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise CepheusDataError(f"{path}: bad TOML: {exc}") from None


def load_data(directory: Path | None = None) -> CepheusData:
    """combat.toml and sheets.toml of `directory` (the registry's folder by default)."""
    folder = directory or registry.ruleset("cepheus").directory
    combat, sheets = folder / "combat.toml", folder / "sheets.toml"
    try:
        tables = parse_tables(_read(combat))
    except ScenarioError as exc:
        raise CepheusDataError(f"{combat}: {exc}") from None
    try:
        samples = parse_samples(_read(sheets), tables)
    except ScenarioError as exc:
        raise CepheusDataError(f"{sheets}: {exc}") from None
    return CepheusData(tables, samples)


@cache
def default_data() -> CepheusData:
    """The shipped data, read once."""
    return load_data()
