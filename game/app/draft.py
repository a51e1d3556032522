"""A new battle as it is filled in (the map, the players and who plays each side, the GM, the
initiative and seed) and what keeps it from starting; no pygame (game/ui/menus/new_battle.py
shows it)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from game.battle.engine import GM
from game.battle.setup import BattleSetup, setup_from_map
from game.maps import LoadedMap
from game.rules import registry
from game.tactics.ruleset import playable_ids
from game.text import names
from game.text.i18n import _

#: The repository's maps, and the demo's among them.
MAPS = Path(__file__).resolve().parents[2] / "maps"
DEMO_MAP = MAPS / "station_interior.tmx"
#: A side whose units are handed out one by one to the players (a character each).
SPLIT = "split"
#: Who plays a side nobody else does.
COMPUTER = "computer"


def rulesets() -> dict[str, str]:
    """The rulesets a battle may be played with, by their seeds' own titles, in the registry's
    order: those whose object has a battle side. One that answers `tessera query` only is left
    out of the list, not shown greyed (docs/window.md)."""
    playable = playable_ids()
    return {r.id: r.title for r in registry.RULESETS if r.id in playable}


@dataclass
class Player:
    key: str
    name: str


@dataclass
class Draft:
    """What the new-battle screen holds while it is filled in (it outlives a rebuild)."""

    map_path: Path | None = None
    loaded: LoadedMap | None = None
    map_error: str | None = None
    typing_path: bool = False
    typed_path: str = ""
    ruleset: str = registry.DEFAULT
    players: list[Player] = field(default_factory=list)
    #: faction -> a player's key, "computer", or SPLIT (each unit its own player).
    controllers: dict[str, str] = field(default_factory=dict)
    #: unit -> a player's key, for the units of split sides.
    unit_controllers: dict[str, str] = field(default_factory=dict)
    gm: bool = False
    dice_mode: bool = False
    seed: str = ""
    #: unit -> the d20 face typed for it.
    dice: dict[str, str] = field(default_factory=dict)
    step: str = "setup"
    #: What is wrong, by field, as the screen shows it (see problems()).
    problems: dict[str, str] = field(default_factory=dict)
    next_key: int = 0

    @property
    def factions(self) -> list[str]:
        if self.loaded is None:
            return []
        return sorted({u.faction for u in self.loaded.units})

    def units_of(self, faction: str) -> list[str]:
        """The units of a side, in the map's listing order."""
        if self.loaded is None:
            return []
        return [u.name for u in self.loaded.units if u.faction == faction]

    def split_units(self) -> list[str]:
        """The units of the sides split among players."""
        return [
            u for f in self.factions if self.controllers.get(f) == SPLIT for u in self.units_of(f)
        ]

    def starting_units(self) -> list[tuple[str, str, bool]]:
        """(unit, faction, hidden) of every unit that rolls initiative as the battle begins,
        in the map's listing order: the order initiative_dice are used in."""
        if self.loaded is None:
            return []
        return [
            (u.name, u.faction, u.hidden)
            for u in self.loaded.units
            if (u.arrives_round or 1) <= 1 and not u.outside_combat
        ]

    def add_player(self, name: str) -> Player:
        player = Player(f"p{self.next_key}", name)
        self.next_key += 1
        self.players.append(player)
        return player

    def add_playing(self, name: str) -> Player:
        """A new player, who takes the first side the computer plays (if any)."""
        player = self.add_player(name)
        free = [f for f in self.factions if self.controllers.get(f) == COMPUTER]
        if free:
            self.controllers[free[0]] = player.key
        return player

    def remove_player(self, key: str) -> None:
        """The player leaves: the computer takes their sides, the first player their units."""
        self.players = [p for p in self.players if p.key != key]
        for faction, controller in self.controllers.items():
            if controller == key:
                self.controllers[faction] = COMPUTER
        for unit, controller in self.unit_controllers.items():
            if controller == key and self.players:
                self.unit_controllers[unit] = self.players[0].key

    def set_controller(self, faction: str, controller: str) -> bool:
        """Who plays a side; True if the side was split or is now (its units' rows come or
        go)."""
        was = self.controllers.get(faction)
        self.controllers[faction] = controller
        if controller == SPLIT:
            first = self.players[0].key if self.players else COMPUTER
            for unit in self.units_of(faction):
                self.unit_controllers.setdefault(unit, first)
        return SPLIT in (was, controller) and was != controller

    def use_map(self, path: Path, loaded: LoadedMap | None, error: str | None) -> None:
        """Play on this map (`loaded`, or the `error` that kept it from loading)."""
        self.map_path, self.loaded, self.map_error = path, loaded, error
        self.dice = {}
        if loaded is None:
            return
        # The map's own ruleset, as `tessera play MAP` plays it (the keep's is fantasy); the
        # dropdown below the map list still overrides it.
        own = loaded.properties.ruleset or registry.DEFAULT
        self.ruleset = own if own in rulesets() else registry.DEFAULT
        factions = sorted({u.faction for u in loaded.units})
        keys = [p.key for p in self.players]
        # The first player takes the first side (the raiders where there are some, as in the
        # demo); further players the next ones; the computer the rest.
        order = sorted(factions, key=lambda f: f != "raiders")
        self.controllers = {f: keys[i] if i < len(keys) else COMPUTER for i, f in enumerate(order)}


def new_seed() -> int:
    """A seed for a new battle from the clock (the journal keeps it, so replays are exact)."""
    return time.time_ns() % 1_000_000_000


def shipped_maps() -> list[Path]:
    """The maps in the repository's maps/ folder."""
    return sorted(MAPS.glob("*.tmx"))


def side_name(faction: str) -> str:
    """A side as the menus name it: its display name (game/text/names.py), clipped."""
    return names.side_name(faction)


def problems(d: Draft) -> dict[str, str]:
    """What keeps the battle from starting, by the field it is about."""
    found: dict[str, str] = {}
    if d.loaded is None:
        found["map"] = d.map_error or _("Choose a map.")
        return found
    names = [p.name.strip() for p in d.players]
    folded = [n.casefold() for n in names]
    if any(not n for n in names):
        found["players"] = _("Every player needs a name.")
    elif len(set(folded)) < len(folded):
        twice = next(n for n in names if folded.count(n.casefold()) > 1)
        found["players"] = _("Two players are called {name}.").format(name=twice)
    elif any(n in (GM, COMPUTER) for n in folded):
        reserved = next(n for n in names if n.casefold() in (GM, COMPUTER))
        found["players"] = _("{name} is kept for the game; choose another name.").format(
            name=reserved
        )
    else:
        playing = set(d.controllers.values()) | {d.unit_controllers.get(u) for u in d.split_units()}
        idle = [p.name for p in d.players if p.key not in playing]
        if idle:
            found["players"] = _("{name} plays no side: give them one or remove them.").format(
                name=idle[0]
            )
    keys = {p.key for p in d.players} | {COMPUTER}
    nobody = [f for f in d.factions if d.controllers.get(f) not in keys | {SPLIT}]
    nobody += [
        f
        for f in d.factions
        if d.controllers.get(f) == SPLIT
        and any(d.unit_controllers.get(u) not in keys - {COMPUTER} for u in d.units_of(f))
    ]
    if nobody:
        found["sides"] = _("Nobody plays {side}.").format(side=side_name(nobody[0]))
    elif all(d.controllers.get(f) == COMPUTER for f in d.factions) and not d.gm:
        found["sides"] = _("The computer plays every side: let a person play one, or seat a GM.")
    try:
        seed = int(d.seed)
        if not 0 <= seed < 2**63:
            raise ValueError
    except ValueError:
        found["seed"] = _("The seed is a whole number.")
    return found


def dice_problems(d: Draft) -> dict[str, str]:
    """What is wrong with the initiative dice typed in: the first unit without a d20's face."""
    for unit, _faction, _hidden in d.starting_units():
        text = d.dice.get(unit, "").strip()
        if not text.isdigit() or not 1 <= int(text) <= 20:
            return {"dice": _("{unit}: a d20 shows a whole number from 1 to 20.").format(unit=unit)}
    return {}


def battle_setup(d: Draft) -> BattleSetup:
    """The battle as filled in (call when `problems(d)` is empty)."""
    assert d.loaded is not None
    names = {p.key: p.name.strip() for p in d.players}
    owner = {}  # a split side belongs to the player of its first unit; the rest are named
    for f in d.factions:
        if d.controllers.get(f) == SPLIT:
            owner[f] = d.unit_controllers[d.units_of(f)[0]]
        else:
            owner[f] = d.controllers.get(f, COMPUTER)
    players = {p.name.strip(): tuple(f for f in d.factions if owner[f] == p.key) for p in d.players}
    unit_players = {u: names[d.unit_controllers[u]] for u in d.split_units()}
    computer = tuple(f for f in d.factions if owner[f] == COMPUTER)
    setup = setup_from_map(
        d.loaded,
        seed=int(d.seed),
        computer=computer,
        players=players,
        gm=d.gm,
        unit_players=unit_players,
    )
    setup = replace(setup, ruleset=d.ruleset)
    if d.dice_mode:
        faces = tuple(int(d.dice[u]) for u, _f, _h in d.starting_units())
        setup = replace(setup, initiative_dice=faces)
    return setup
