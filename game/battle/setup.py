"""What a battle starts from: the map, the units placed on it, who plays which side, the seed."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from game.grid.model import Cell
from game.maps import LoadedMap, UnitPlacement
from game.rules import registry
from game.rules.reader import (
    ScenarioError,
    as_bool,
    as_cell,
    as_int,
    as_list,
    as_object,
    as_str,
)


@dataclass(frozen=True)
class UnitSpec:
    """One unit as the battle starts with it (from a map's unit objects)."""

    id: str
    faction: str
    cell: Cell
    template: str = "human"
    stance: str = "standing"
    weapon: str | None = None
    armour: str | None = None
    hidden: bool = False
    surprised: bool = False
    arrives_round: int | None = None
    size: str = "medium"
    neutral: bool = False
    medkits: int = 1
    #: On the map but not in the fight yet: it rolls initiative when another side first sees it
    #: (P-INIT-7). The map unit property `outside_combat`.
    outside_combat: bool = False

    @classmethod
    def from_placement(cls, unit: UnitPlacement) -> UnitSpec:
        return cls(
            id=unit.name,
            faction=unit.faction,
            cell=unit.cell,
            template=unit.template or "human",
            stance=unit.stance.value,
            weapon=unit.weapon,
            armour=unit.armour,
            hidden=unit.hidden,
            surprised=unit.surprised,
            arrives_round=unit.arrives_round,
            size=unit.size.name.lower(),
            neutral=unit.neutral,
            medkits=unit.medkits,
            outside_combat=unit.outside_combat,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "faction": self.faction, "cell": list(self.cell)}
        defaults = UnitSpec("", "", (0, 0, 0))
        for name in (
            "template", "stance", "weapon", "armour", "hidden", "surprised", "arrives_round",
            "size", "neutral", "medkits", "outside_combat",
        ):  # fmt: skip
            if getattr(self, name) != getattr(defaults, name):
                out[name] = getattr(self, name)
        return out

    @classmethod
    def from_json(cls, data: object, where: str) -> UnitSpec:
        obj = as_object(data, where)
        known = {f for f in cls.__dataclass_fields__}
        as_object(obj, where, known)

        def opt_str(key: str) -> str | None:
            value = obj.get(key)
            return None if value is None else as_str(value, f"{where}.{key}")

        arrives = obj.get("arrives_round")
        return cls(
            id=as_str(obj.get("id"), f"{where}.id"),
            faction=as_str(obj.get("faction"), f"{where}.faction"),
            cell=as_cell(obj.get("cell"), f"{where}.cell"),
            template=as_str(obj.get("template", "human"), f"{where}.template"),
            stance=as_str(obj.get("stance", "standing"), f"{where}.stance"),
            weapon=opt_str("weapon"),
            armour=opt_str("armour"),
            hidden=as_bool(obj.get("hidden", False), f"{where}.hidden"),
            surprised=as_bool(obj.get("surprised", False), f"{where}.surprised"),
            arrives_round=None
            if arrives is None
            else as_int(arrives, f"{where}.arrives_round", low=1),
            size=as_str(obj.get("size", "medium"), f"{where}.size"),
            neutral=as_bool(obj.get("neutral", False), f"{where}.neutral"),
            medkits=as_int(obj.get("medkits", 1), f"{where}.medkits", low=0, high=99),
            outside_combat=as_bool(obj.get("outside_combat", False), f"{where}.outside_combat"),
        )


_SETUP_FIELDS = (
    "map", "map_sha256", "ruleset", "seed", "players", "computer", "gm", "initiative_dice", "units",
    "unit_players",
)  # fmt: skip


@dataclass(frozen=True)
class BattleSetup:
    """Everything a journal's header holds: enough, with the map file, to rebuild the battle.

    `players` maps a player's name to the factions it commands; `computer` lists the factions
    the computer plays. A faction nobody commands is played by a player named after it.
    `unit_players` splits a side among players, as at a table where each player runs their own
    characters: unit id -> the player who commands that unit (the side's view is shared).
    """

    map_path: str
    map_sha256: str
    seed: int
    units: tuple[UnitSpec, ...]
    ruleset: str = registry.DEFAULT
    players: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    computer: tuple[str, ...] = ()
    gm: bool = False
    #: Physical dice the GM rolled for the opening initiative, one face per unit in listing
    #: order (P-CHK-4); missing faces are rolled by the machine.
    initiative_dice: tuple[int, ...] = ()
    unit_players: Mapping[str, str] = field(default_factory=dict)

    @cached_property
    def factions(self) -> tuple[str, ...]:
        return tuple(sorted({u.faction for u in self.units}))

    def player_of(self, faction: str) -> str:
        for player, factions in sorted(self.players.items()):
            if faction in factions:
                return player
        return faction

    def player_of_unit(self, unit: UnitSpec) -> str:
        """Who commands `unit` when its side is a people's side: its own player, if the side
        is split, else the side's."""
        return self.unit_players.get(unit.id) or self.player_of(unit.faction)

    def to_json(self) -> dict[str, Any]:
        # Only a split side writes unit_players: headers of battles without one read as before.
        split = (
            {"unit_players": dict(sorted(self.unit_players.items()))} if self.unit_players else {}
        )
        return {
            "map": self.map_path,
            "map_sha256": self.map_sha256,
            "ruleset": self.ruleset,
            "seed": self.seed,
            "players": {p: list(f) for p, f in sorted(self.players.items())},
            "computer": list(self.computer),
            "gm": self.gm,
            "initiative_dice": list(self.initiative_dice),
            "units": [u.to_json() for u in self.units],
            **split,
        }

    @classmethod
    def from_json(cls, data: object, where: str) -> BattleSetup:
        obj = as_object(data, where, _SETUP_FIELDS)
        players_raw = as_object(obj.get("players", {}), f"{where}.players")
        players = {
            as_str(name, f"{where}.players"): tuple(
                as_str(f, f"{where}.players.{name}[{i}]")
                for i, f in enumerate(as_list(factions, f"{where}.players.{name}"))
            )
            for name, factions in players_raw.items()
        }
        units = tuple(
            UnitSpec.from_json(u, f"{where}.units[{i}]")
            for i, u in enumerate(as_list(obj.get("units"), f"{where}.units"))
        )
        if not units:
            raise ScenarioError(f"{where}.units: a battle needs at least one unit")
        split = as_object(obj.get("unit_players", {}), f"{where}.unit_players")
        known = {u.id for u in units}
        unit_players = {}
        for unit, player in split.items():
            if unit not in known:
                raise ScenarioError(f"{where}.unit_players.{unit}: no such unit in the battle")
            unit_players[unit] = as_str(player, f"{where}.unit_players.{unit}")
        return cls(
            map_path=as_str(obj.get("map"), f"{where}.map"),
            map_sha256=as_str(obj.get("map_sha256"), f"{where}.map_sha256"),
            seed=as_int(obj.get("seed"), f"{where}.seed", low=0, high=2**63),
            units=units,
            ruleset=as_str(obj.get("ruleset", registry.DEFAULT), f"{where}.ruleset"),
            players=players,
            computer=tuple(
                as_str(f, f"{where}.computer[{i}]")
                for i, f in enumerate(as_list(obj.get("computer", []), f"{where}.computer"))
            ),
            gm=as_bool(obj.get("gm", False), f"{where}.gm"),
            initiative_dice=tuple(
                as_int(f, f"{where}.initiative_dice[{i}]", low=1, high=20)
                for i, f in enumerate(
                    as_list(obj.get("initiative_dice", []), f"{where}.initiative_dice")
                )
            ),
            unit_players=unit_players,
        )


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def setup_from_map(
    loaded: LoadedMap,
    *,
    seed: int,
    computer: tuple[str, ...] = (),
    players: Mapping[str, tuple[str, ...]] | None = None,
    gm: bool = False,
    unit_players: Mapping[str, str] | None = None,
) -> BattleSetup:
    """A battle on a loaded map with the map's own units."""
    return BattleSetup(
        map_path=str(loaded.source),
        map_sha256=file_sha256(loaded.source),
        seed=seed,
        units=tuple(UnitSpec.from_placement(u) for u in loaded.units),
        ruleset=loaded.properties.ruleset or registry.DEFAULT,
        players=dict(players or {}),
        computer=tuple(sorted(computer)),
        gm=gm,
        unit_players=dict(unit_players or {}),
    )


def with_ruleset(setup: BattleSetup, ruleset: str | None) -> BattleSetup:
    """The setup played under `ruleset` (`tessera run/play --ruleset`) instead of the map's own
    `ruleset` property (None: the map's). A ruleset the registry does not list, or one that
    answers queries only, is a ValueError naming where it came from and the playable ones
    (docs/battle.md, "Rulesets")."""
    from game.tactics.ruleset import battle_rules

    chosen = setup.ruleset if ruleset is None else ruleset
    try:
        battle_rules(chosen)
    except ValueError as exc:
        where = f"--ruleset {ruleset}" if ruleset is not None else f"{setup.map_path}: ruleset"
        raise ValueError(f"{where}: {exc}") from None
    return replace(setup, ruleset=chosen)
