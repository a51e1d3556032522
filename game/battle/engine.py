"""The battle engine: one battle's world, turn order and dice, changed only by commands.

`Battle.apply(command, by)` checks a command against the state and either refuses it (nothing
changes) or carries it out and answers with the events it caused. Every rule comes from
game/tactics/ and game/rules/; this module only sequences them (P-TURN-1) and keeps the state.
The command handlers are in game/battle/handlers.py; what apply answers, in outcome.py.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from game.battle import combat, counters
from game.battle import commands as cmd
from game.battle.events import Event, Withheld
from game.battle.handlers import HANDLERS
from game.battle.outcome import GM, Outcome, PendingMove, Refusal
from game.battle.reasons import Happened
from game.battle.setup import BattleSetup, UnitSpec
from game.ecs.components import (
    Armed,
    Armoured,
    Controller,
    Crowded,
    DamageWaiting,
    Deferred,
    DeferredHit,
    Disengaged,
    Faction,
    Fallen,
    Motion,
    Outsider,
    Position,
    Posture,
    RulesetSheet,
    Sheet,
    Status,
    Turn,
    Visibility,
    Waiting,
    Wounds,
    json_cell,
    json_text,
)
from game.ecs.systems import (
    Vision,
    battlefield,
    hidden_map,
    pack_bytes,
    pack_mask,
    unpack_bytes,
    unpack_mask,
)
from game.ecs.world import BattleWorld
from game.grid.geometry import chebyshev
from game.grid.model import Cell, Grid, Obstacle, Terrain
from game.grid.movement import (
    PUSH_OFF,
    CostNote,
    MoveRequest,
    PathResult,
    StepKind,
    find_path,
    on_surface,
    reachable,
    reaction_exits,
    short_jump,
    straight_flight,
)
from game.grid.occupants import Relation, Size, relation
from game.rules import checknames
from game.rules.data import RulesData, Weapon
from game.rules.dice import Advantage, Roller, RollRecord
from game.rules.initiative import Combatant, Initiative
from game.rules.movement import Speeds
from game.rules.ruleset_answers import ConditionEffects, DamageChoice
from game.rules.stance import Stance
from game.rules.turn import TurnState
from game.rules.wounds import Health, can_see, turn_lost_to
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield, EntitySheet, FieldConditions
from game.tactics.ruleset import (
    BattleRules,
    battle_rules,
    coup_de_grace_rules,
    damage_shaper,
    round_rules,
    ruleset_for,
    turn_rules,
)

__all__ = ["GM", "STALEMATE_ROUNDS", "Battle", "Outcome", "PendingMove", "Refusal"]

#: The stalemate rule: this many whole rounds in a row without contact end the combat with no
#: winner, as a GM would end a fight nobody can win (`Battle._stalemate`, docs/battle.md).
STALEMATE_ROUNDS = 10
#: Contact: what happens only while the sides can still hurt each other or the fight changes —
#: an attack, a wound, a death save, a medkit, a unit arriving or found, any GM intervention.
#: Moving, sighting, hiding, searching in vain, dodging and ending turns are not: units that
#: only do those (or walk to and fro in and out of sight) will never end the fight.
_CONTACT = frozenset(
    Happened(kind)
    for kind in (
        "combat_started", "attack", "reaction_attack", "throw", "damage", "died", "death_save",
        "dying", "medkit", "revealed", "discovered", "surprised", "arrived", "reinforcement_called",
        "concealed", "initiative_reordered", "initiative_restarted", "dice_entered", "condition",
        "cell_edited", "controller", "improvise_ruled", "damage_deferred", "reloaded",
        "field_conditions",
    )
)  # fmt: skip


@dataclass
class _Scratch:
    """What one command collects while it runs."""

    events: list[Event] = field(default_factory=list)
    rolls: list[RollRecord] = field(default_factory=list)


class Battle:
    """One battle's state. Build it from a setup; change it only with `apply`."""

    def __init__(
        self,
        setup: BattleSetup,
        grid: Grid,
        rules: RulesData,
        *,
        ruleset: BattleRules | None = None,
    ) -> None:
        """`ruleset`: the combat system's battle side, by default the registry's object of
        `setup.ruleset` (a ruleset that answers queries only raises ruleset.NotPlayable)."""
        found = ruleset if ruleset is not None else battle_rules(setup.ruleset)
        self._blank(setup, grid, rules, BattleWorld(), found)
        try:
            self._start()
        except BaseException:
            self.world.close()  # a setup the rules refuse leaves no esper world behind
            raise

    def _blank(
        self,
        setup: BattleSetup,
        grid: Grid,
        rules: RulesData,
        world: BattleWorld,
        ruleset: BattleRules,
    ) -> None:
        """The battle's fields before its start (or a snapshot) fills them."""
        _check_places(setup, grid)
        self.setup = setup
        #: The combat system the battle asks (game/tactics/ruleset.py); never its name.
        self.ruleset = ruleset
        self.grid = grid
        self.grid_version = 0
        #: The light, smoke and weather now (issue 15): the map's, until the GM changes them.
        self.map_conditions = FieldConditions.of_grid(grid)
        self.conditions = self.map_conditions
        self.rules = rules
        self.roller = Roller(setup.seed, on_roll=self._on_roll)
        self.world = world
        self.log: list[Event] = []
        self.pending: PendingMove | None = None
        self.improvising: list[tuple[str, str]] = []
        self.over = False
        self.winner: str | None = None
        self._scratch: _Scratch | None = None
        self._bf: Battlefield | None = None
        #: Per faction: the battlefield and sightings a known field was made from, and it.
        self._known: dict[str, tuple[Battlefield, frozenset[str], Battlefield]] = {}
        self._controllers: dict[str, str] | None = None
        self._sides_of: dict[str, frozenset[str]] | None = None
        self.vision = Vision(grid.shape, setup.factions)
        #: The log's events as snapshots write them, kept (events are values, the log grows).
        self._log_dicts: list[tuple[Event, dict[str, Any]]] = []
        #: The state hash's digest of the log: the first `_log_hashed` events folded in.
        self._log_digest = hashlib.sha256()
        self._log_hashed = 0
        self._setup_digest = setup_digest(setup).encode()
        #: What the command handlers may use of this battle (game/battle/context.py).
        self._context = _Context(self)

    # ------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """The whole battle as plain JSON data: `restore` gives it back, to play on exactly as
        this one would. Besides `state_json()`: the cells when a GM has edited them, the fog
        (each side's cells and sightings, each unit's kept view) and the log of events."""
        snapshot = self.state_json()
        if self.grid_version:
            snapshot["grid"] = {
                "obstacle": pack_bytes(self.grid.obstacle),
                "terrain": pack_bytes(self.grid.terrain),
                "floor": pack_mask(self.grid.floor),
            }
        snapshot["vision"] = self.vision.to_json()
        kept = self._log_dicts
        if len(kept) > len(self.log) or (kept and kept[-1][0] is not self.log[len(kept) - 1]):
            kept.clear()
        kept.extend((event, event.to_dict()) for event in self.log[len(kept) :])
        snapshot["log"] = [data for _event, data in kept]  # shared: not to be changed
        return snapshot

    @classmethod
    def restore(
        cls,
        setup: BattleSetup,
        grid: Grid,
        rules: RulesData,
        snapshot: Mapping[str, Any],
        *,
        ruleset: BattleRules | None = None,
    ) -> Battle:
        """The battle a `snapshot()` was taken of, on the map's `grid` (no opening rolls: the
        snapshot holds their results). Setup units the rules do not know raise ValueError as
        a new battle would; a snapshot that is not one a battle wrote raises SnapshotError."""
        _check_places(setup, grid)
        for spec in setup.units:
            _check_known(spec, rules)
        expected = {*_SNAPSHOT_FIELDS, *(("grid",) if snapshot.get("grid_version") else ())}
        expected |= {"conditions"} & set(snapshot)  # the GM's light, smoke and weather
        if set(snapshot) != expected:
            raise SnapshotError(f"the fields {sorted(set(snapshot))}, not {sorted(expected)}")
        try:
            world = BattleWorld.from_json(snapshot["units"])
        except ValueError as exc:
            raise SnapshotError(f"units: {exc}") from None
        if world.unit_ids != sorted(u.id for u in setup.units):
            world.close()
            raise SnapshotError(f"units: {world.unit_ids} are not the battle's")
        found = ruleset if ruleset is not None else battle_rules(setup.ruleset)
        battle = cls.__new__(cls)
        part = "battle"
        try:
            battle._blank(setup, grid, rules, world, found)
            part = "initiative"
            battle.initiative = Initiative.from_dict(snapshot["initiative"])
            part = "roller"
            roller = snapshot["roller"]
            battle.roller.setstate(roller)
            battle.roller.supply(*roller["supplied"])
            part = "pending"
            battle.pending = _pending_from_json(snapshot["pending"])
            part = "improvising"
            battle.improvising = [(json_text(u), json_text(t)) for u, t in snapshot["improvising"]]
            part = "over"
            over, winner, version = snapshot["over"], snapshot["winner"], snapshot["grid_version"]
            if not isinstance(over, bool) or not isinstance(winner, str | None):
                raise TypeError(f"over {over!r}, winner {winner!r}")
            if isinstance(version, bool) or not isinstance(version, int) or version < 0:
                raise TypeError(f"grid version {version!r}")
            battle.over, battle.winner, battle.grid_version = over, winner, version
            if battle.grid_version:
                part = "grid"
                cells = snapshot["grid"]
                battle.grid = Grid.build(
                    unpack_bytes(cells["obstacle"], grid.shape),
                    unpack_bytes(cells["terrain"], grid.shape),
                    unpack_mask(cells["floor"], grid.shape),
                    gravity=grid.gravity,
                    pressurised=grid.pressurised,
                    darkness=grid.darkness,
                    smoke=grid.smoke,
                    weather=grid.weather,
                )
            if "conditions" in snapshot:
                part = "conditions"
                battle.conditions = _conditions_from_json(snapshot["conditions"])
            part = "vision"
            battle.vision = Vision.from_json(grid.shape, snapshot["vision"])
            part = "log"
            if not isinstance(snapshot["log"], list):
                raise TypeError("the log is a list")
            battle.log = [Event.from_dict(event) for event in snapshot["log"]]
            battle._log_dicts = list(zip(battle.log, snapshot["log"], strict=True))
            part = "units"
            for unit in world.unit_ids:
                for kind, ref, table in (
                    ("weapon", world.get(unit, Armed).weapon, rules.weapons),
                    ("armour", world.get(unit, Armoured).armour, rules.armour),
                ):
                    if ref is not None and ref not in table:
                        raise SnapshotError(f"unit {unit!r}: unknown {kind} {ref!r}")
        except SnapshotError:
            world.close()
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            world.close()
            raise SnapshotError(f"{part}: {exc}") from None
        except BaseException:
            world.close()
            raise
        return battle

    def _start(self) -> None:
        setup = self.setup
        for spec in setup.units:
            self._add_unit(spec)
        on_map = [u for u in setup.units if (u.arrives_round or 1) <= 1 and not u.outside_combat]
        scratch = self._begin()
        if setup.initiative_dice:
            self.roller.supply(*setup.initiative_dice)
        self.initiative = self.ruleset.start_initiative(
            self.roller, [self._combatant(u) for u in on_map]
        )
        self._emit("combat_started", {"round": 1})
        for spec in on_map:
            self._initiative_event(spec.id)
        self._next_turn()
        self._finish(scratch)
        self.log.extend(scratch.events)

    # ------------------------------------------------------------ building

    def _add_unit(self, spec: UnitSpec) -> None:
        _check_known(spec, self.rules)
        template = self.rules.templates[spec.template]
        others = frozenset(f for f in self.setup.factions if f != spec.faction)
        sheet = Sheet(
            checks=template.checks,
            speeds=Speeds.from_mapping(template.speeds, f"template {template.id}"),
            size=Size.from_name(spec.size),
            thrusters=template.thrusters,
            vulnerability=template.vulnerability,
            medkits=spec.medkits,
        )
        controller = (
            Controller("computer")
            if spec.faction in self.setup.computer
            else Controller("player", self.setup.player_of_unit(spec))
        )
        components: list[object] = [
            Faction(spec.faction, spec.neutral),
            sheet,
            Posture(Stance.from_name(spec.stance)),
            Wounds(),
            Armed(spec.weapon if spec.weapon is not None else template.weapon),
            Armoured(spec.armour if spec.armour is not None else template.armour),
            Motion(),
            Turn(),
            Status(),
            controller,
            Visibility(
                others if spec.hidden else frozenset(),
                10 + checknames.bonus(template.checks, checknames.STEALTH),
            ),
        ]
        if (spec.arrives_round or 1) <= 1:
            components.append(Position(spec.cell))
            if spec.outside_combat:
                components.append(Outsider(spec.surprised))
        else:
            components.append(Waiting(spec.arrives_round or 1, spec.cell, spec.surprised))
        own = self._ruleset_sheet(spec)
        if own is not None:
            components.append(RulesetSheet(own))
        self.world.add_unit(spec.id, *components)

    def _ruleset_sheet(self, spec: UnitSpec) -> object:
        """The unit's own sheet under the battle's ruleset, read as the scenario reads a map's
        unit (`unit_fields` from its template, weapon and armour, then `read_entity`); None
        for periferie's, whose sheet is the components above."""
        reader = ruleset_for(self.setup.ruleset)
        fields = reader.unit_fields(spec.template, spec.weapon, spec.armour)
        base = EntitySheet(spec.id, spec.faction, spec.cell)
        sheet = reader.read_entity(fields, f"unit {spec.id!r}", base, self.rules).sheet
        # A ruleset's sheet as the unit joins a battle (d20: flat-footed until its first
        # turn, 004:l.29); the sheet a query reads is as the scenario gives it.
        joining = getattr(self.ruleset, "sheet_joining", None)
        return sheet if joining is None or sheet is None else joining(sheet)

    def _combatant(self, spec: UnitSpec) -> Combatant:
        own = self.world.try_get(spec.id, RulesetSheet)
        # A ruleset whose order is not periferie's d20 + bonus names its own bonus (Myst's
        # sheet priority, fantasy's AGI and DES dice); the others keep P-INIT-1's check.
        bonus_of = getattr(self.ruleset, "initiative_bonus", None)
        return Combatant(
            spec.id,
            spec.faction,
            bonus_of(self.sheet(spec.id))
            if bonus_of is not None
            else checknames.bonus(self.world.get(spec.id, Sheet).checks, checknames.INITIATIVE),
            hidden=bool(self.world.get(spec.id, Visibility).hidden_from),
            surprised=spec.surprised,
            sheet=None if own is None else own.sheet,
        )

    def close(self) -> None:
        self.world.close()

    # ------------------------------------------------------------ reading the state

    @property
    def bf(self) -> Battlefield:
        """The rules' picture of the battle now (units on the map), rebuilt after changes."""
        if self._bf is None:
            self._bf = battlefield(
                self.world, self.grid, self.rules, self.setup.ruleset, self.conditions
            )
        return self._bf

    @property
    def active(self) -> str | None:
        return None if self.over else self.initiative.active

    @property
    def round(self) -> int:
        return self.initiative.round

    def sheet(self, unit_id: str) -> EntitySheet:
        return self.bf.entity(unit_id)

    def faction_of(self, unit_id: str) -> str:
        return self.world.get(unit_id, Faction).name

    def factions_of(self, player: str) -> frozenset[str]:
        """The factions a player commands a unit of (empty for an unknown name): a side split
        among players is each of theirs, its view shared."""
        self._read_controllers()
        assert self._sides_of is not None
        return self._sides_of.get(player, frozenset())

    def controller_of(self, faction: str) -> str:
        """ "computer", or the name of the player commanding `faction` now (of a split side,
        the player of its first unit)."""
        self._read_controllers()
        assert self._controllers is not None
        return self._controllers.get(faction) or self.setup.player_of(faction)

    def controller_of_unit(self, unit_id: str) -> str:
        """ "computer", or the name of the player who gives `unit_id` its orders."""
        c = self.world.get(unit_id, Controller)
        return "computer" if c.kind == "computer" else (c.player or self.faction_of(unit_id))

    def players(self) -> tuple[str, ...]:
        """Everyone who commands a unit now (the GM aside), by name."""
        self._read_controllers()
        assert self._sides_of is not None
        return tuple(sorted(p for p in self._sides_of if p != "computer"))

    def _read_controllers(self) -> None:
        """Who commands what, read from the units once per change of a Controller."""
        if self._controllers is not None:
            return
        controllers: dict[str, str] = {}
        sides: dict[str, set[str]] = {}
        for unit_id in self.world.units_with(Faction, Controller):
            name = self.world.get(unit_id, Faction).name
            c = self.world.get(unit_id, Controller)
            player = "computer" if c.kind == "computer" else (c.player or name)
            controllers.setdefault(name, player)
            sides.setdefault(player, set()).add(name)
        self._controllers = controllers
        self._sides_of = {p: frozenset(f) for p, f in sides.items()}

    def on_map(self, unit_id: str) -> bool:
        return self.world.has(unit_id, Position)

    def sees(self, faction: str, unit_id: str) -> bool:
        return unit_id in self.vision.factions[faction].units

    def state_json(self) -> dict[str, Any]:
        """The whole state as plain data (what the state hash is made of, fog aside)."""
        return {"units": self.world.to_json(), **self._state_besides_units()}

    def _state_besides_units(self) -> dict[str, Any]:
        return {
            "initiative": self.initiative.to_dict(),
            "roller": {**self.roller.getstate(), "supplied": list(self.roller.supplied)},
            "pending": None if self.pending is None else self.pending.to_json(),
            "improvising": [list(i) for i in self.improvising],
            "over": self.over,
            "winner": self.winner,
            "grid_version": self.grid_version,
            # Only once the GM has changed them: a battle without it hashes as it always did.
            **(
                {"conditions": self.conditions.to_json()}
                if self.conditions != self.map_conditions
                else {}
            ),
        }

    def state_text(self) -> str:
        """`json.dumps(self.state_json(), sort_keys=True)`, with the units written from the
        world's kept texts: the hash is taken after every command, and replaying a journal
        spent half its time writing the same units again."""
        fields: dict[str, Any] = {**self._state_besides_units(), "units": None}
        return (
            "{"
            + ", ".join(
                f"{json.dumps(key)}: "
                + (
                    self.world.to_json_text()
                    if key == "units"
                    else json.dumps(fields[key], sort_keys=True)
                )
                for key in sorted(fields)
            )
            + "}"
        )

    def state_hash(self, *, legacy: bool = False) -> str:
        """A digest of everything that decides what happens next and of everything a snapshot
        holds: two battles with the same hash play on identically and have told the same story.
        It covers the state, the grid and fog, each unit's kept view, the log of events (an
        edited command that rolls the same dice, such as a missed attack re-targeted, changes
        it) and the setup the battle began with (the journal's header but for its map path).

        `legacy`: the hash journals of version 1 and 2 recorded (no views, log or setup)."""
        digest = hashlib.sha256()
        digest.update(self.state_text().encode())
        for array in (self.grid.obstacle, self.grid.terrain, self.grid.floor):
            digest.update(np.ascontiguousarray(array).tobytes())
        for part in self.vision.digest_parts():
            digest.update(part)
        if not legacy:
            digest.update(b"\0views")
            for part in self.vision.view_digest_parts():
                digest.update(part)
            digest.update(b"\0log")
            digest.update(self._log_hash())
            digest.update(b"\0setup")
            digest.update(self._setup_digest)
        return digest.hexdigest()

    def _log_hash(self) -> bytes:
        """A running digest of the log, each event folded in once (the log only grows)."""
        if self._log_hashed > len(self.log):  # a log replaced: fold it in again
            self._log_digest, self._log_hashed = hashlib.sha256(), 0
        for event in self.log[self._log_hashed :]:
            text = json.dumps(
                event.to_dict(), sort_keys=True, ensure_ascii=False, separators=(",", ":")
            )
            self._log_digest.update(text.encode("utf-8", "surrogatepass") + b"\n")
        self._log_hashed = len(self.log)
        return self._log_digest.digest()

    # ------------------------------------------------------------ applying commands

    def apply(self, command: cmd.Command, by: str) -> Outcome:
        """Carry out `command` given by `by` (a player's name, or "gm"), or refuse it."""
        before = {f: s.units for f, s in self.vision.factions.items()}
        scratch = self._begin()
        try:
            self.authorise(command, by)
            handler = HANDLERS[type(command)]
            refusal = handler.check(self, command)
            if refusal is not None:
                raise refusal
            handler.do(self._context, command)
            self._after_command(command)
            self._check_over()
            if not self.over and self.pending is None and self.initiative.active is None:
                self._next_turn()  # the acting unit fell: the order moves on
        except Refusal as refusal:
            self._scratch = None
            if scratch.rolls:  # a refusal after dice would be a bug: the state has moved on
                raise AssertionError(f"{command.KIND} refused after rolling dice") from refusal
            return Outcome(refusal=refusal)
        sighted = self._finish(scratch, before)
        sighted = sighted or any(
            self.vision.factions[f].units - before.get(f, frozenset()) or s.glimpsed
            for f, s in self.vision.factions.items()
        )
        self.log.extend(scratch.events)
        return Outcome(tuple(scratch.events), None, tuple(scratch.rolls), sighted)

    def _begin(self) -> _Scratch:
        self.vision.clear_glimpses()
        self._scratch = _Scratch()
        return self._scratch

    def _finish(
        self, scratch: _Scratch, before: Mapping[str, frozenset[str]] | None = None
    ) -> bool:
        newly = self._update_vision()
        self._check_over()
        self._scratch = None
        seen_before = before or {}
        scratch.events[:] = [self._withhold(e, seen_before) for e in scratch.events]
        return any(newly.values())

    def _withhold(self, event: Event, before: Mapping[str, frozenset[str]]) -> Event:
        """What each side that sees the event may not be told of it: the units it saw neither
        before nor after the command (an attacker it cannot see, whose allies stand between,
        P-LOS-3), and where a move ended when the mover has gone out of its sight."""
        named = {u for u in _strings(event.data) if u in self.world}
        for record in event.rolls:
            named.update(w for w in record.purpose.split() if w in self.world)
        moves = (Happened.MOVED, Happened.DRIFTED)
        mover = event.data.get("unit") if event.kind in moves else None
        withheld: dict[str, Withheld] = {}
        for faction, sight in self.vision.factions.items():
            if event.audience is not None and faction not in event.audience:
                continue
            known = sight.units | before.get(faction, frozenset()) | set(sight.glimpsed)
            units = frozenset(u for u in named if u not in known and self.faction_of(u) != faction)
            fields: frozenset[str] = frozenset()
            if (
                isinstance(mover, str)
                and mover not in sight.units
                and self.faction_of(mover) != faction
            ):
                fields = frozenset({"to", "cost", "spent", "velocity"})
            if units or fields:
                withheld[faction] = Withheld(units, fields)
        return replace(event, withheld=withheld) if withheld else event

    def _on_roll(self, record: RollRecord) -> None:
        if self._scratch is not None:
            self._scratch.rolls.append(record)

    def _emit(
        self,
        kind: str,
        data: Mapping[str, Any],
        *,
        about: Iterable[str] = (),
        rolls: Sequence[RollRecord] = (),
        rules: Sequence[str] = (),
        gm_only: bool = False,
        to: frozenset[str] | None = None,
    ) -> None:
        assert self._scratch is not None
        kind = Happened(kind)  # an unlisted kind is a bug
        audience: frozenset[str] | None
        if gm_only:
            audience = frozenset()
        elif to is not None:
            audience = to
        else:
            units = list(about)
            audience = None if not units else self._audience(units)
        self._scratch.events.append(Event(kind, dict(data), audience, tuple(rolls), tuple(rules)))

    def _audience(self, units: Sequence[str]) -> frozenset[str]:
        """The factions that may learn of something these units did: their own, and those that
        see any of them (now, or before this command)."""
        factions = {self.faction_of(u) for u in units}
        for faction, sight in self.vision.factions.items():
            if any(u in sight.units for u in units):
                factions.add(faction)
        return frozenset(factions)

    def authorise(self, command: cmd.Command, by: str) -> None:
        """Refuse the command if `by` may not give it now: the combat is over, the command is
        the GM's, the unit is not theirs, a reaction is waiting or it is not the unit's turn."""
        if self.over and not isinstance(command, cmd.EndCombat | cmd.EnterRoll):
            raise Refusal("combat_over")
        if command.GM:
            if by != GM:
                raise Refusal("gm_only", command=command.KIND)
            return
        if isinstance(command, cmd.OrderTie):
            factions = {self.faction_of(u) for u in command.order if u in self.world}
            if by != GM and (len(factions) != 1 or self.controller_of(factions.pop()) != by):
                raise Refusal("tie_not_yours")  # P-INIT-2: ties across sides are the GM's
            return
        unit = getattr(command, "unit", None)
        if not isinstance(unit, str) or unit not in self.world:
            raise Refusal("unknown_unit", unit=unit)
        if by != GM and self.controller_of_unit(unit) != by:
            raise Refusal("not_your_unit", unit=unit)
        waiting = self.margin_waiting()
        if isinstance(command, cmd.SpendMargin):
            if waiting != unit:
                raise Refusal("no_margin_to_spend", unit=unit)
            return
        if waiting is not None:
            raise Refusal("margin_waiting", unit=waiting)
        if isinstance(command, cmd.React):
            if self.pending is None or self.pending.reactor != unit:
                raise Refusal("no_reaction_offered", unit=unit)
            return
        if self.pending is not None:
            raise Refusal("reaction_pending", reactor=self.pending.reactor)
        if self.active != unit:
            raise Refusal("not_active", unit=unit, active=self.active)

    def margin_waiting(self) -> str | None:
        """The unit whose hit waits for it to spend its margin (M-1), if any: until it does,
        it alone may give a command (`spend_margin`), and the GM."""
        for unit in self.world.units_with(DamageWaiting):
            return unit
        return None

    def damage_choice(self, unit: str) -> DamageChoice | None:
        """What the unit may still choose about its hit's damage (the margin's units, each
        use's cap, one plan per damage, most first), or None when nothing waits for it."""
        waiting = self.world.try_get(unit, DamageWaiting)
        shaper = damage_shaper(self.ruleset)
        if waiting is None or shaper is None:
            return None
        return shaper.damage_choice(waiting.choice)

    # ------------------------------------------------------------ shared pieces

    def _set(self, unit_id: str, component: object) -> None:
        self.world.set(unit_id, component)
        self._bf = None
        if isinstance(component, Controller):
            self._controllers = None

    def condition_effects(self, unit_id: str) -> ConditionEffects:
        """What the unit's health does to its turn, asked of the ruleset with its own health
        value: the ruleset sheet when the unit has one, else periferie's wound ladder."""
        own = self.world.try_get(unit_id, RulesetSheet)
        return self.ruleset.condition_effects(self.health(unit_id) if own is None else own.sheet)

    def health(self, unit_id: str) -> Health:
        """The unit's wounds and conditions."""
        return self.world.get(unit_id, Wounds).health

    def turn(self, unit_id: str) -> TurnState:
        """The unit's turn budget (P-TURN-1). Read it: only the engine and its handlers,
        through the context, spend it."""
        state: TurnState = self.world.get(unit_id, Turn).state
        return state

    def _need_action(self, unit_id: str) -> None:
        used = self.turn(unit_id).action
        if used is not None:
            raise Refusal("action_used", used=used)

    def _use_action(self, unit_id: str, kind: str) -> None:
        self._need_action(unit_id)
        self.turn(unit_id).use_action(kind)

    def _visible_target(self, unit_id: str, target: str | None) -> EntitySheet:
        """A target the unit's side knows is there; anything else reads as unknown, so that a
        refusal never tells a player where a hidden unit stands."""
        if target is None or target not in self.world or not self.on_map(target):
            raise Refusal("unknown_target", target=target)
        if not self.sees(self.faction_of(unit_id), target):
            raise Refusal("unknown_target", target=target)
        return self.sheet(target)

    def _advantage(self, attacker: str, target: str | None) -> Advantage:
        """The ruleset's advantage from an ally's help, a dodging target and a shared cell
        (periferie: P-CHK-2, P-MOV-8; the others have none, issue 15)."""
        helped = self.world.get(attacker, Status).helped_by is not None
        dodging = target is not None and self.world.get(target, Status).dodging
        crowded = self.world.has(attacker, Crowded)
        return self.ruleset.advantage(helped=helped, dodging=dodging, crowded=crowded)

    def _spend_help(self, unit_id: str) -> None:
        status = self.world.get(unit_id, Status)
        if status.helped_by is not None:
            self._set(unit_id, replace(status, helped_by=None))

    def _in_cell(self, cell: Cell) -> str | None:
        occ = self.bf.occupancy.at(cell)
        return None if occ is None else occ.id

    def _all_in_cell(self, cell: Cell) -> list[str]:
        """Everyone in `cell`: two share it after a move nobody steered ended there (P-MOV-8)."""
        return [o.id for o in self.bf.occupancy.all_at(cell)]

    # ------------------------------------------------------------ damage and its results

    def _fall(self, unit_id: str) -> None:
        cell = self.world.get(unit_id, Position).cell
        self._emit("died", {"unit": unit_id, "at": list(cell)}, about=[unit_id])
        self._uncrowd(unit_id)
        self.world.remove(unit_id, Position)
        self._set(unit_id, Fallen(cell))
        if self.world.has(unit_id, DamageWaiting):  # a GM's ruling killed it: the hit is lost
            self.world.remove(unit_id, DamageWaiting)
        if self.initiative.entry(unit_id) is not None:
            # if it was acting, its turn is over: apply() moves the order on
            self.initiative.remove(unit_id)
        if self.pending is not None and unit_id in (self.pending.mover, self.pending.reactor):
            self.pending = None

    def _reveal_to(self, unit_id: str, factions: Iterable[str]) -> None:
        vis = self.world.get(unit_id, Visibility)
        left = vis.hidden_from - set(factions)
        if left != vis.hidden_from:
            self._set(unit_id, replace(vis, hidden_from=left))
            # A side it is revealed to that sees it now has seen it here, and is told (P-STL-1),
            # besides the sides that may learn of what it does; a side that does not see it
            # (a GM's reveal, a shot from out of its sight) learns of it only on sighting it.
            seeing = self._seeing(unit_id, vis.hidden_from - left)
            for faction in sorted(seeing):
                self.vision.glimpse(faction, unit_id, self.world.get(unit_id, Position).cell)
            self._emit(
                "revealed",
                {"unit": unit_id, "to": sorted(vis.hidden_from - left)},
                to=self._audience([unit_id]) | seeing,
            )
            if not left and self.initiative.entry(unit_id) is not None:
                self.initiative.reveal(unit_id)

    def _seeing(self, unit_id: str, factions: Iterable[str]) -> frozenset[str]:
        """Those of `factions` one of whose units able to see has line of sight to the unit
        now (P-LOS-1..3, P-VUL-3), hidden or not."""
        if not self.on_map(unit_id):
            return frozenset()
        me = self.sheet(unit_id)
        return frozenset(
            f
            for f in factions
            if any(
                e.faction == f and can_see(e.health) and self.ruleset.sight(self.bf, e, me).clear
                for e in self.bf.entities
            )
        )

    # ------------------------------------------------------------ turns

    def _next_turn(self) -> None:
        """Advance the order to the next unit that can act, running the start-of-turn effects
        (P-VUL-3, P-DEATH-1); reinforcements join as their round begins (P-INIT-6)."""
        for _ in range(10_000):
            self._check_over()
            if self.over:
                return
            if self.initiative.round_over:
                if self._stalemate():
                    self._end_combat(None, stalemate=True)
                    return
                self._arrivals(self.initiative.round + 1)
            previous_round = self.initiative.round
            waiting_skip = self.initiative.to_skip
            group = self._group(self.initiative.active)
            unit = self.initiative.advance()
            for skipped in sorted(waiting_skip - self.initiative.to_skip):
                self._emit(
                    "turn_skipped",
                    {"unit": skipped, "because": "surprised"},
                    about=[skipped],
                    rules=("P-INIT-5",),
                )
            if unit is None:
                self._end_combat(None)
                return
            if self.initiative.round != previous_round:
                self._emit("round_started", {"round": self.initiative.round})
                self._round_sheets()
            if (unit not in group or self.initiative.round != previous_round) and (
                self._apply_deferred() and self.initiative.active != unit
            ):
                continue  # the group's harm felled the unit whose turn came
            if self._start_turn(unit):
                return
        raise AssertionError("no unit could take a turn in 10,000 tries")

    def _group(self, unit: str | None) -> tuple[str, ...]:
        """The units acting simultaneously with `unit` (the ruleset's, F-1), or ()."""
        if unit is None:
            return ()
        return self.ruleset.acts_with(self.initiative.visible_order(True), unit)

    def _defer(self, target: str, hit: DeferredHit) -> bool:
        """Keep a hit's harm aside while the acting unit is one of a simultaneous group (F-1:
        the group's results are counted after each of them has acted): False to apply it now."""
        active = self.initiative.active
        if len(self._group(active)) < 2 or not self.on_map(target):
            return False
        kept = self.world.try_get(target, Deferred)
        self._set(target, Deferred((*(() if kept is None else kept.hits), hit)))
        self._emit(
            "damage_deferred",
            {"unit": target, "source": hit.source, "rolled": hit.rolled},
            about=[target],
            rolls=() if hit.roll is None else (hit.roll,),
            rules=self.ruleset.acts_with_rules(),
        )
        return True

    def _apply_deferred(self) -> bool:
        """The harm kept aside during a simultaneous group, applied unit by unit in the order
        each took it; True when there was any."""
        units = list(self.world.units_with(Deferred))
        for unit in units:
            hits = self.world.get(unit, Deferred).hits
            self.world.remove(unit, Deferred)
            self._bf = None
            for hit in hits:
                if self.on_map(unit) and not self.health(unit).has("dead"):
                    combat.hurt(
                        self._context, unit, hit.damage_type, hit.rolled, hit.source, hit.roll,
                        hit.on_hit,
                    )  # fmt: skip
        return bool(units)

    def _start_turn(self, unit: str) -> bool:
        """The unit's turn begins; False when it is skipped (and already ended)."""
        self.turn(unit).start_turn()
        self._round_sheets(unit)
        for other in self.world.units_with(Status):
            status = self.world.get(other, Status)
            if other == unit:
                self._set(other, replace(status, dodging=False, readied=None))
            if status.helped_by == unit:
                self._set(other, replace(self.world.get(other, Status), helped_by=None))
        self._set(unit, replace(self.world.get(unit, Motion), stealthy=False, run=(0, 0, 0)))
        self.world.remove(unit, Disengaged)
        effects = turn_rules(self.ruleset)
        begins = effects.turn_begins(self.roller, self.bf, self.sheet(unit), self._health_of(unit))
        self._store_health(unit, begins.after)
        self._emit("turn_started", {"unit": unit, "round": self.round}, about=[unit])
        self._drift(unit)  # momentum first: a stunned or dying unit drifts too (P-ZERO-1/2)
        drift_lost = None
        if self.health(unit).has("stunned"):
            # P-MOV-8: stunned by the landing its drift just made: the turn now beginning is
            # the one it loses.
            health = self.health(unit)
            self._set(unit, Wounds(replace(health, conditions=health.conditions - {"stunned"})))
            drift_lost = "stunned"
        crowded = self.world.try_get(unit, Crowded)
        computer = self.controller_of_unit(unit) == "computer"
        if crowded is not None and not crowded.later and computer and begins.turn_lost is None:
            self._auto_step_aside(unit)  # the computer's first arrival steps out if it may
        # The ruleset's rolled effects (periferie: the death save P-DEATH-1, then the burn
        # P-VUL-3; d20: a dying creature's d%, D-2), each emitted as it left the unit.
        start = effects.turn_start(self.roller, self.bf, self.sheet(unit), self._health_of(unit))
        for step in start.steps:
            self._store_health(unit, step.after)
            self._emit(step.kind, step.data, about=[unit], rolls=step.rolls, rules=step.rules)
            if self.health(unit).has("dead"):
                self._fall(unit)
                return False
        self._store_health(unit, start.after)
        # Stunned and shock end as the turn they cost begins; out of combat (perhaps from the
        # burn just taken) and death cost every turn (P-VUL-3).
        lost = self.condition_effects(unit).turn_lost or begins.turn_lost or drift_lost
        if lost:
            self._emit(
                "turn_skipped",
                {"unit": unit, "because": lost},
                about=[unit],
                rules=("P-VUL-3",),
            )
            self._end_turn_effects(unit)
            return False
        return True

    def _health_of(self, unit: str) -> object:
        """The unit's health value as its ruleset reads it: its ruleset sheet when it has one,
        else periferie's wound ladder."""
        own = self.world.try_get(unit, RulesetSheet)
        return self.health(unit) if own is None else own.sheet

    def _store_health(self, unit: str, value: object) -> None:
        """Keep a health value the ruleset answered: periferie's in `Wounds`; another's in its
        sheet, with the battle's two facts about it in `Wounds` (as combat.hurt keeps them)."""
        own = self.world.try_get(unit, RulesetSheet)
        if own is None:
            assert isinstance(value, Health)
            self._set(unit, Wounds(value))
            return
        if own.sheet == value:
            return
        self._set(unit, RulesetSheet(value))
        facts = self.ruleset.condition_effects(value)
        held = {"dead": facts.dead, "out_of_combat": facts.out_of_combat and not facts.dead}
        self._set(unit, Wounds(Health(conditions=frozenset(c for c, on in held.items() if on))))

    def _end_turn_effects(self, unit: str) -> None:
        """P-VUL-3: burning and blinded end; P-STL-1: ending in an enemy's sight without cover
        reveals a hidden unit to that enemy's side."""
        if self.on_map(unit):
            self._coast(unit)
            end = turn_rules(self.ruleset).turn_end(
                self.roller, self.bf, self.sheet(unit), self._health_of(unit)
            )
            for step in end.steps:
                self._store_health(unit, step.after)
                self._emit(step.kind, step.data, about=[unit], rolls=step.rolls, rules=step.rules)
                if self.health(unit).has("dead"):
                    self._fall(unit)
                    break
            else:
                self._store_health(unit, end.after)
        if self.on_map(unit):
            vis = self.world.get(unit, Visibility)
            if vis.hidden_from:
                me = self.sheet(unit)
                spotted = {
                    e.faction
                    for e in self.bf.entities
                    if e.faction in vis.hidden_from
                    and can_see(e.health)
                    and self.ruleset.sight(self.bf, e, me).clear
                    and tactics.target_cover(self.bf, e, me).grade in ("none", "high_exposure")
                }
                if spotted:
                    self._reveal_to(unit, spotted)
        if self.on_map(unit):
            counters.turn_ended(self._context, unit)  # a push's penalty given up (002:l.105)
        self.turn(unit).end_turn()
        self._emit("turn_ended", {"unit": unit}, about=[unit])

    def _coast(self, unit: str) -> None:
        """P-ZERO-2: with the dampers off, the unit keeps as its velocity its last straight
        run of the turn (no more than the cells it moved in a straight line)."""
        motion = self.world.get(unit, Motion)
        if motion.dampers or motion.flight is not None:
            return
        if motion.velocity != motion.run:
            self._set(unit, replace(motion, velocity=motion.run))
        if any(motion.run):
            self._emit(
                "coasting",
                {"unit": unit, "velocity": list(motion.run)},
                about=[unit],
                rules=("P-ZERO-2",),
            )

    def _end_turn(self, unit: str) -> None:
        self._end_turn_effects(unit)
        self._next_turn()

    # ------------------------------------------------------------ the round's rules (C-1)
    # A ruleset with round rules (game/tactics/ruleset.py: RoundRules) keeps a state in its
    # units' sheets within the round; without them none of this runs.

    def _round_sheets(self, unit: str | None = None) -> None:
        """A round or `unit`'s turn begins: each ruleset sheet as the round rules leave it."""
        rules = round_rules(self.ruleset)
        if rules is None:
            return
        for other in [unit] if unit is not None else self.world.units_with(RulesetSheet):
            own = self.world.try_get(other, RulesetSheet)
            if own is None:
                continue
            after = rules.start_turn(own.sheet) if unit else rules.start_round(own.sheet)
            if after is not own.sheet:
                self._set(other, RulesetSheet(after))

    def _after_command(self, command: cmd.Command) -> None:
        """Its unit's state after a player command (an aim lost on doing anything else)."""
        rules = round_rules(self.ruleset)
        unit = getattr(command, "unit", None)
        if rules is None or command.GM or not isinstance(unit, str):
            return
        own = self.world.try_get(unit, RulesetSheet)
        if own is not None:
            after = rules.after_command(own.sheet, command.KIND)
            if after is not own.sheet:
                self._set(unit, RulesetSheet(after))

    def _delay_turn(self, unit: str) -> None:
        following = self.initiative.delay(unit)
        self.turn(unit).end_turn()
        self._emit(
            "delayed",
            {
                "unit": unit,
                "after": following,
                "round": self.round + (1 if following is None else 0),
            },
            about=[unit],
            rules=("C-1",),
        )
        self._next_turn()

    def _arrivals(self, round_no: int) -> None:
        """Reinforcements due by `round_no` take their cells and roll (P-INIT-6)."""
        due = [
            u
            for u in self.world.units_with(Waiting)
            if self.world.get(u, Waiting).round <= round_no
        ]
        combatants = []
        for unit in due:
            waiting = self.world.get(unit, Waiting)
            cell = self._free_cell_near(waiting.cell)
            if cell is None:
                continue  # nowhere to stand yet: it waits another round
            self.world.remove(unit, Waiting)
            self._set(unit, Position(cell))
            spec = next(s for s in self.setup.units if s.id == unit)
            combatants.append(replace(self._combatant(spec), surprised=waiting.surprised))
            self._emit("arrived", {"unit": unit, "at": list(cell)}, about=[unit])
        if combatants:
            self.initiative.queue_reinforcements(self.roller, combatants)
            for c in combatants:
                self._initiative_event(c.entity_id, pending=True)

    def _initiative_event(self, unit: str, pending: bool = False) -> None:
        entries = self.initiative.pending if pending else self.initiative.visible_order(True)
        entry = next(e for e in entries if e.entity_id == unit)
        rolls = () if entry.record is None else (entry.record,)
        self._emit(
            "initiative",
            {"unit": unit, "total": entry.total},
            about=[unit],
            rolls=rolls,
            rules=("P-INIT-1", "P-INIT-4") if entry.combatant.hidden else ("P-INIT-1",),
            gm_only=entry.combatant.hidden,
        )

    def _free_cell_near(self, cell: Cell) -> Cell | None:
        """The cell itself if a unit may stand there, else the nearest such cell (G-3)."""
        w, h, d = self.grid.shape
        for radius in range(max(w, h, d)):
            ring = [
                (cell[0] + dx, cell[1] + dy, cell[2] + dz)
                for dz in range(-radius, radius + 1)
                for dy in range(-radius, radius + 1)
                for dx in range(-radius, radius + 1)
                if max(abs(dx), abs(dy), abs(dz)) == radius
            ]
            for c in ring:
                if self.grid.in_bounds(c) and self.grid.standable[c] and self._in_cell(c) is None:
                    return c
        return None

    def _check_over(self) -> None:
        if self.over:
            return
        sides = set()
        for unit in self.world.units_with(Faction):
            faction = self.world.get(unit, Faction)
            if faction.neutral or self.world.has(unit, Outsider):
                continue
            if self.world.has(unit, Waiting) or (
                self.on_map(unit) and not {"dead", "out_of_combat"} & self.health(unit).conditions
            ):
                sides.add(faction.name)
        if len(sides) <= 1:
            self._end_combat(next(iter(sides), None))

    def _end_combat(self, winner: str | None, *, stalemate: bool = False) -> None:
        self.over = True
        self.winner = winner
        self.pending = None
        reason = {"because": "stalemate", "rounds": STALEMATE_ROUNDS} if stalemate else {}
        self._emit("combat_over", {"winner": winner, **reason})

    def _stalemate(self) -> bool:
        """The stalemate rule (docs/battle.md, "Battles that end"): the round that ends is the
        last of STALEMATE_ROUNDS whole rounds in a row without contact, and no reinforcement
        is still to come. Read from the log (every battle, restored or not, has all of it), so
        the rule keeps no state of its own."""
        if next(iter(self.world.units_with(Waiting)), None) is not None:
            return False
        rounds = 0
        newest = self._scratch.events if self._scratch is not None else []
        for event in itertools.chain(reversed(newest), reversed(self.log)):
            if event.kind in _CONTACT:
                return False
            if event.kind == Happened.ROUND_STARTED:
                rounds += 1
                if rounds == STALEMATE_ROUNDS:
                    return True
        return False

    def _update_vision(self) -> dict[str, frozenset[str]]:
        newly = self.vision.update(self.bf, hidden_map(self.world), self.grid_version)
        for sight in self.vision.factions.values():
            # A side that looks at an enemy's last known cell and does not see it there knows
            # it has gone: the ghost goes too (whether the enemy moved, hid, or stands behind
            # another unit: the side cannot tell, so neither may its view).
            # A unit glimpsed during this command stays shown where it was seen (P-STL-1): the
            # side saw it there after it last looked.
            for unit, cell in sorted(sight.last_known.items()):
                if unit not in sight.units and unit not in sight.glimpsed and sight.seen[cell]:
                    del sight.last_known[unit]
        for faction, units in sorted(newly.items()):
            for unit in sorted(units):
                if self.faction_of(unit) == faction:
                    continue
                self._emit(
                    "sighted",
                    {"faction": faction, "unit": unit, "at": list(self.sheet(unit).cell)},
                    to=frozenset({faction}),
                )
        self._discover()
        return {
            f: frozenset(u for u in units if self.faction_of(u) != f) for f, units in newly.items()
        }

    def _discover(self) -> None:
        """A hidden unit that is seen has its place shown (P-INIT-4). A unit outside the combat
        that another side sees joins it: it rolls at once and takes its place, acting this
        round only if that place comes after the acting unit's (P-INIT-7)."""
        for unit in self.world.units_with(Visibility, Position):
            entry = self.initiative.entry(unit)
            hidden = self.world.get(unit, Visibility).hidden_from
            if entry is not None and entry.combatant.hidden and not hidden:
                self.initiative.reveal(unit)
        for unit in self.world.units_with(Outsider, Position):
            own = self.faction_of(unit)
            seen_by = [
                f for f, sight in self.vision.factions.items() if f != own and unit in sight.units
            ]
            if not seen_by:
                continue
            outsider = self.world.get(unit, Outsider)
            self.world.remove(unit, Outsider)
            spec = next(s for s in self.setup.units if s.id == unit)
            combatant = replace(self._combatant(spec), surprised=outsider.surprised)
            self.initiative.discover(self.roller, combatant)
            self._emit(
                "discovered",
                {"unit": unit, "by": sorted(seen_by)},
                about=[unit],
                rules=("P-INIT-7",),
            )
            self._initiative_event(unit)

    # ------------------------------------------------------------ movement

    def plan_path(
        self,
        unit: str,
        to: Cell,
        via: Sequence[Cell],
        mode: str | None,
        stealth: bool,
        dampers: bool = True,
    ) -> PlannedMove:
        """The cells and running totals of the move through `via` to `to` (P-MOV-*), and the
        index in the cells where each leg ends. A carried velocity is cancelled first, and paid
        for, unless a thrusters move keeps the dampers off (P-ZERO-2). A microgravity jump is a
        flight to its surface; one beyond this turn's reach flies as far as the turn allows and
        lands in a later turn (P-ZERO-1)."""
        sheet = self.sheet(unit)
        motion = self.world.get(unit, Motion)
        if not dampers and mode != "thrusters":
            raise Refusal("dampers_need_thrusters", unit=unit)
        if (motion.in_flight or any(motion.velocity)) and not sheet.thrusters:
            raise Refusal("in_flight", unit=unit, at=motion.flight[1] if motion.flight else None)
        no_jump = self.ruleset.can_jump(self.bf, sheet) if mode == "jump" else None
        if no_jump is not None:
            raise Refusal(no_jump, unit=unit)  # a ruleset without jumps (issue 15)
        turn = self.turn(unit)
        helped = self.world.get(unit, Status).helped_by is not None
        known = self.known_field(self.faction_of(unit))
        cancel = sheet.velocity if dampers or mode != "thrusters" else (0, 0, 0)
        cells: list[Cell] = [sheet.cell]
        totals: list[int] = [turn.movement_spent]
        leg_ends: list[int] = []
        checks: dict[int, LeapCheck] = {}
        # P-ZERO-1's flight: a periferie jump, or the push-off of a ruleset without jumps
        leap = PUSH_OFF if mode == PUSH_OFF else "jump"
        jump = mode == leap and self.grid.microgravity
        speed = 0
        for leg, leg_end in enumerate([*via, to]):
            if not self.grid.in_bounds(leg_end):
                raise Refusal("outside_map", at=leg_end)
            # The velocity is cancelled once, on the first leg.
            start_sheet = replace(sheet, cell=cells[-1], velocity=cancel if leg == 0 else (0, 0, 0))
            request, _allow = self.ruleset.move_request(
                known, start_sheet, mode, dash=turn.dashed, stealth=stealth, helped=helped
            )
            request = replace(request, spent=totals[-1])
            speed = request.budgets.get(leap, 0)
            if max(request.budgets.values(), default=0) == 0:
                raise Refusal("cannot_move", unit=unit, because=_why_still(sheet))
            waypoint = leg < len(via)  # P-MOV-4: passing an ally's cell, not ending there
            path = find_path(
                self.grid, known.occupancy, start_sheet.occupant, request, leg_end,
                waypoint=waypoint,
            )  # fmt: skip
            if path.cost is None and not self.grid.microgravity:
                # P-JUMP-1/3: a jump higher or a drop deeper than n_max, with the check, only
                # where no move without one gets there.
                request = replace(request, checked=True)
                path = find_path(
                    self.grid, known.occupancy, start_sheet.occupant, request, leg_end,
                    waypoint=waypoint,
                )  # fmt: skip
            if path.cost is None and jump and not via:
                far = self._far_jump(known, start_sheet, request, leg_end)
                if far is not None:
                    return PlannedMove(
                        [*cells, *far[0]], [*totals, *far[1]], [len(far[0])], to, speed
                    )
            if path.cost is None:
                raise self._unreachable(known, start_sheet, request, leg_end, totals[-1], waypoint)
            step_totals = [s.total for s in path.steps]
            walked = [s.end for s in path.steps]  # a drop is one hop, edge to landing (P-JUMP-3)
            flight = (StepKind.JUMP, StepKind.MICROGRAVITY_JUMP, StepKind.PUSH_OFF)
            if len(path.steps) == 1 and path.steps[0].move in flight:
                # a jump: one step for the whole flight, which goes through every cell
                step_totals = [path.cost] * (len(path.cells) - 1)
                walked = list(path.cells[1:])
            checks.update(_leap_checks(path, len(cells) - 1))
            cells.extend(walked)
            totals.extend(step_totals)
            leg_ends.append(len(cells) - 1)
        # A leap is one straight line: a jump through waypoints is hops, each landing.
        flight_to = to if jump and not via else None
        return PlannedMove(cells, totals, leg_ends, flight_to, speed, checks)

    def _unreachable(
        self,
        known: Battlefield,
        me: EntitySheet,
        request: MoveRequest,
        to: Cell,
        spent: int,
        waypoint: bool,
    ) -> Refusal:
        """Why a leg cannot reach `to`, naming the rule that forbids it (P-MOV-4, G-3,
        P-JUMP-1/3) before the points left, which are the last reason."""
        leap = request.mode if request.mode in ("jump", PUSH_OFF) else None
        points = request.budgets.get(leap, 0) if leap else None
        left = max(0, (max(request.budgets.values()) if points is None else points) - spent)
        there = known.occupancy.at(to)
        passed = (
            waypoint and there is not None and relation(me.occupant, there) is not Relation.ENEMY
        )
        if there is not None and there.id != me.id and not passed:
            return Refusal("cell_occupied", at=to)  # P-MOV-4: never ending on someone
        gravity = not self.grid.microgravity
        hold = self.grid.standable[to] or (request.mode != "jump" and _climbable(self.grid, to))
        if gravity and not hold:
            return Refusal("no_landing", at=to)  # G-3
        if gravity and request.mode == "jump" and request.max_cells is None:
            if to[2] < me.cell[2]:
                return Refusal("jump_lands_lower", at=to)
            # With points enough, could the jump be made at all? An apex needing more points
            # than are left is a matter of points; no flight at any apex is the jump's rule.
            # Above the map's top there is open air: no apex beyond it or beyond the
            # horizontal length helps.
            across = max(abs(to[0] - me.cell[0]), abs(to[1] - me.cell[1]))
            budgets = {**request.budgets, "jump": spent + max(across, self.grid.shape[2])}
            roomy = replace(request, budgets=budgets)
            far = find_path(self.grid, known.occupancy, me.occupant, roomy, to)
            if far.cost is None:
                return Refusal("jump_blocked", at=to)
            return Refusal("jump_too_high", at=to, apex=far.cost - spent, left=left)
        if gravity and to[2] < me.cell[2] and request.max_cells is None:
            # P-JUMP-3, P-MOV-1: is it the drop that costs more jump points than are left?
            deep = {**request.budgets, "jump": spent + self.grid.shape[2]}
            down = find_path(
                self.grid, known.occupancy, me.occupant, replace(request, budgets=deep), to,
                waypoint=waypoint,
            )  # fmt: skip
            drops = [s.start[2] - s.end[2] for s in down.steps if s.move is StepKind.DROP]
            jump_left = max(0, request.budgets.get("jump", 0) - spent)
            if drops and max(drops) > jump_left:
                return Refusal("drop_too_deep", at=to, depth=max(drops), left=jump_left)
        return Refusal("unreachable", at=to, left=left)

    def _far_jump(
        self, known: Battlefield, me: EntitySheet, request: MoveRequest, to: Cell
    ) -> tuple[list[Cell], list[int]] | None:
        """P-ZERO-1: a straight jump from a surface to a free surface beyond this turn's
        doubled jump budget: the cells flown this turn and their running totals (1 point a
        cell, after any velocity cancelled), or None when there is no such flight."""
        if request.max_cells is not None:  # blinded: no jumps (P-VUL-3)
            return None
        mover = me.occupant
        if known.occupancy.at(to) is not None or not on_surface(self.grid, known.occupancy, mover):
            return None
        if not on_surface(self.grid, known.occupancy, replace(mover, cell=to)):
            return None
        spent = request.spent + max(abs(v) for v in request.velocity)
        left = request.budgets.get(PUSH_OFF if request.mode == PUSH_OFF else "jump", 0) - spent
        line = straight_flight(self.grid, known.occupancy, mover, to)
        if line.stopped_at is not None or not 0 < left < len(line.cells):
            return None
        flown = list(line.cells[:left])
        while flown and known.occupancy.at(flown[-1]) is not None:
            flown.pop()  # nobody stops in another's cell (P-MOV-4): passing an ally, short
        if not flown:
            return None
        return flown, [spent + k for k in range(1, len(flown) + 1)]

    def known_field(self, faction: str) -> Battlefield:
        """The battlefield as `faction` knows it: its own units and those it sees. Moves are
        planned on it, so a path never bends round a unit its side cannot see (that would
        show where the unit is); walking into one is an ambush instead."""
        seen = self.vision.factions[faction].units
        bf = self.bf
        cached = self._known.get(faction)
        # The same battlefield and the same sightings give the same field: the window asks for
        # it on every hover, and building its occupancy costs more than the answer.
        if cached is not None and cached[0] is bf and cached[1] == seen:
            return cached[2]
        entities = tuple(e for e in bf.entities if e.faction == faction or e.id in seen)
        known = (
            bf
            if len(entities) == len(bf.entities)
            else Battlefield(self.grid, entities, self.rules, self.setup.ruleset, bf.conditions)
        )
        self._known[faction] = (bf, seen, known)
        return known

    def _move(self, command: cmd.Move, offered: tuple[str, ...] = ()) -> None:
        unit = command.unit
        motion = self.world.get(unit, Motion)
        stealth = motion.stealthy or command.stealth
        plan = self.plan_path(unit, command.to, command.via, command.mode, stealth, command.dampers)
        thrusters = command.mode == "thrusters"
        if any(motion.velocity) and (command.dampers or not thrusters):
            # P-ZERO-2: the carried velocity (a leap's too) is cancelled first (its points
            # are in the plan).
            motion = replace(
                motion, velocity=(0, 0, 0), run=(0, 0, 0), in_flight=False, flight=None
            )
        if thrusters or plan.flight_to is not None:
            motion = replace(motion, in_flight=False, flight=None)  # a new course
        motion = replace(motion, stealthy=stealth, dampers=command.dampers or not thrusters)
        start = plan.cells[0]
        if plan.flight_to is not None:
            # P-ZERO-1: a microgravity jump flies; a flight has no cover but is not highly
            # exposed (tactics.target_cover reads in_flight) until it lands.
            velocity = _scaled(_minus(plan.flight_to, start), plan.speed)
            motion = replace(
                motion, in_flight=True, flight=(start, plan.flight_to), velocity=velocity
            )
        self._set(unit, motion)
        if plan.flight_to is not None and plan.cells[-1] != plan.flight_to:
            self._emit(
                "flying",
                {"unit": unit, "toward": list(plan.flight_to), "velocity": list(motion.velocity)},
                about=[unit],
                rules=("P-ZERO-1",),
            )
        self._walk(
            unit, plan.cells, plan.totals, plan.leg_ends, command, offered, stealth,
            checks=plan.checks,
        )  # fmt: skip

    def _fly_on(self, unit: str, offered: tuple[str, ...], *, react: bool = True) -> None:
        """A jump in flight goes on after a reaction, as far as this turn's jump budget goes
        (P-ZERO-1: even when the reaction ended the turn, the flight continues)."""
        motion = self.world.get(unit, Motion)
        assert motion.flight is not None
        target = motion.flight[1]
        sheet = self.sheet(unit)
        turn = self.turn(unit)
        known = self.known_field(sheet.faction)
        # The leap's speed was set at launch (the doubled jump budget then): a wound taken on
        # the way does not slow it (P-ZERO-1).
        left = max(abs(v) for v in motion.velocity) - turn.movement_spent
        line = straight_flight(self.grid, known.occupancy, sheet.occupant, target, left)
        flown = list(line.cells)
        if line.stopped_at == target and len(flown) < left and known.occupancy.at(target):
            flown.append(target)  # P-MOV-8: the leap lands on the unit now in its landing cell
        while flown and flown[-1] != target and known.occupancy.at(flown[-1]) is not None:
            flown.pop()
        cells = [sheet.cell, *flown]
        totals = [turn.movement_spent + k for k in range(len(cells))]
        command = cmd.Move(unit, target, (), "jump")
        self._walk(
            unit, cells, totals, [len(cells) - 1], command, offered, motion.stealthy, react=react
        )
        if self.pending is None and line.stopped_at is not None and len(line.cells) < left:
            self._stop_flight(unit)  # it ran into something: a collision simply stops it

    def _walk(
        self,
        unit: str,
        cells: list[Cell],
        totals: list[int],
        leg_ends: list[int],
        command: cmd.Move,
        offered: tuple[str, ...],
        stealth: bool,
        *,
        react: bool = True,
        checks: Mapping[int, LeapCheck] | None = None,
    ) -> None:
        """Go step by step; stop where a reaction is offered (P-OA-1, P-OA-2); roll stealth
        against each enemy whose sight the move crosses in the open (P-STL-1). A jump in
        flight lands at its surface, or stops against a unit it runs into (P-ZERO-1). A jump
        or drop beyond n_max rolls its check as it leaves the ground (P-JUMP-1/3)."""
        start = cells[0]
        mover_faction = self.faction_of(unit)
        rolled_against: set[str] = set()
        for k in range(1, len(cells)):
            a, b = cells[k - 1], cells[k]
            # Only a free cell is somewhere to stop: passing an ally's cell, nothing triggers
            # there (P-MOV-4 forbids ending in it), and the ally covers the retreat (P-OA-1).
            here_free = a == start or self._in_cell(a) in (None, unit)
            if react and here_free:
                exits = self.provoked_by(self.bf, self.sheet(unit), a, b)
                if exits and self.disengage_covers(unit):
                    # P-OA-3: Disengage covers the areas left from one cell, this step's.
                    self._set(unit, Disengaged(a))
                    exits = []
                if "opportunity_attack" not in self.ruleset.reactions:
                    exits = []  # no attacks of opportunity under this ruleset
                found = [(enemy_id, a) for enemy_id in exits]
                if "opportunity_attack" in self.ruleset.reactions:
                    found += self._provoked_passing(unit, cells, k)
                for enemy_id, left in found:
                    if enemy_id not in offered and self.can_react(enemy_id, melee=True):
                        self._stop(unit, start, a, totals[k - 1])
                        rest = _rest_via(command.via, leg_ends, k - 1)
                        attacked = None if left == a else left
                        self._offer(
                            unit, enemy_id, "opportunity", command, rest, offered, a, attacked
                        )
                        return
            leap = (checks or {}).get(k - 1)
            fell = leap is not None and not self._leap_check(unit, leap)
            if fell and leap is not None and leap.kind == "jump":
                # P-JUMP-1: the jump still happens, only n_max high.
                self._stop(unit, start, a, totals[k - 1])
                self._short_jump(unit, a, cells[leap.land], leap, command, offered, stealth, react)
                return
            blocker = self._in_cell(b)
            flight = self.world.get(unit, Motion).flight
            if (
                blocker not in (None, unit)
                and flight is not None
                and b == flight[1]
                and k == len(cells) - 1
            ):
                # P-MOV-8: a leap is not steered; it lands on whoever took its landing cell.
                self._run(unit, a, b)
                self._stop(unit, start, b, totals[k])
                self._stop_flight(unit)
                self._collide(unit, b)
                return
            if blocker is not None and blocker != unit:
                if self.sees(mover_faction, blocker) or self._relation_ok(
                    unit, blocker, b, k, cells
                ):
                    self._run(unit, a, b)
                    continue  # passing through a known ally's or neutral's cell (P-MOV-4)
                self._stop(unit, start, a, totals[k - 1])
                self._stop_flight(unit)
                self._ambush(unit, b)
                return
            self._place(unit, b)
            self._run(unit, a, b)
            if fell:  # P-JUMP-3: a failed deep drop lands prone, and the move ends there
                self._stop(unit, start, b, totals[k])
                self._set(unit, Posture(Stance.PRONE))
                return
            for enemy in self.bf.entities:
                if enemy.faction == mover_faction or enemy.neutral or enemy.id in offered:
                    continue
                hidden = self.world.get(unit, Visibility).hidden_from
                fresh = enemy.id not in rolled_against
                if (
                    stealth
                    and enemy.faction in hidden
                    and fresh
                    and self.in_open_sight(enemy, unit)
                ):
                    rolled_against.add(enemy.id)
                    self._stealth_roll(unit, enemy)
                    hidden = self.world.get(unit, Visibility).hidden_from
                if (
                    react
                    and self.world.get(enemy.id, Status).readied
                    and enemy.faction not in hidden
                    and self.can_react(enemy.id, melee=False)
                    and self.ruleset.sight(self.bf, enemy, self.sheet(unit)).clear
                ):
                    self._stop(unit, start, b, totals[k])
                    rest = _rest_via(command.via, leg_ends, k)
                    self._offer(unit, enemy.id, "readied", command, rest, offered, b)
                    return
        self._stop(unit, start, cells[-1], totals[-1])
        flight = self.world.get(unit, Motion).flight
        if flight is not None and cells[-1] == flight[1]:
            self._stop_flight(unit)  # landed (P-ZERO-1)

    def _leap_check(self, unit: str, leap: LeapCheck) -> bool:
        """Roll a jump's or a drop's check, the ruleset's (periferie: `gravità muscolare
        (atletica)`, P-JUMP-1/3)."""
        record = self.ruleset.roll_leap(
            self.roller, self.bf, self.sheet(unit), leap.dc, self._advantage(unit, None),
            f"{leap.kind} {unit}",
        )  # fmt: skip
        self._spend_help(unit)
        success = record.outcome == "success"
        self._emit(
            "jump_check",
            {
                "unit": unit,
                "kind": leap.kind,
                "height": leap.height,
                "n_max": leap.n_max,
                "dc": leap.dc,
                "success": success,
            },
            about=[unit],
            rolls=(record,),
            rules=("P-JUMP-1", "P-CHK-1") if leap.kind == "jump" else ("P-JUMP-3", "P-CHK-1"),
        )
        return success

    def _short_jump(
        self,
        unit: str,
        at: Cell,
        toward: Cell,
        leap: LeapCheck,
        command: cmd.Move,
        offered: tuple[str, ...],
        stealth: bool,
        react: bool,
    ) -> None:
        """P-JUMP-1: a failed check's jump, n_max high toward where it was aimed; it costs
        that apex (movement.short_jump says where it comes down)."""
        me = self.sheet(unit)
        known = self.known_field(me.faction)
        jump = short_jump(self.grid, known.occupancy, me.occupant, toward, leap.n_max)
        spent = self.turn(unit).movement_spent
        cells = [at, *jump.cells]
        totals = [spent] + [spent + jump.apex] * len(jump.cells)
        if not jump.cells:
            self._stop(unit, at, at, spent + jump.apex)
            return
        rest = replace(command, to=cells[-1], via=())
        self._walk(unit, cells, totals, [len(cells) - 1], rest, offered, stealth, react=react)

    def provoked_by(self, bf: Battlefield, mover: EntitySheet, a: Cell, b: Cell) -> list[str]:
        """The enemies of `mover` on `bf` whose attack of opportunity its step a -> b provokes,
        in `bf`'s order: the ruleset's answer (`provokes`: d20's threatened cells, D-2), else
        the shared rule's (P-OA-1: leaving the 26 cells around the enemy, `reaction_exits`).
        Whether each may react now is `can_react`'s question."""
        here = replace(mover, cell=a)
        shared = {
            ex.enemy_id for ex in reaction_exits(self.grid, bf.occupancy, here.occupant, [a, b])
        }
        found = []
        for enemy in bf.entities:
            if (
                enemy.id == mover.id
                or relation(here.occupant, enemy.occupant) is not Relation.ENEMY
            ):
                continue
            said = self.ruleset.provokes(bf, here, enemy, a, b)
            if (enemy.id in shared) if said is None else said:
                found.append(enemy.id)
        return found

    def _provoked_passing(self, unit: str, cells: list[Cell], k: int) -> list[tuple[str, Cell]]:
        """The attacks of opportunity the steps out of the allies' (or neutrals') cells that
        follow the free cell `cells[k - 1]` provoke, by the ruleset's own answer (`provokes`,
        d20's D-2: leaving a threatened cell provokes, whoever stands in it), each with the
        cell left. The shared rule has none there (P-OA-1: the ally covers the retreat). The
        move stops at the free cell before them; the attack finds the mover in the cell it
        leaves (`PendingMove.attacked_at`)."""
        found: list[tuple[str, Cell]] = []
        me = self.sheet(unit)
        for j in range(k, len(cells) - 1):
            other = self._in_cell(cells[j])
            if other in (None, unit) or not self._relation_ok(unit, other, cells[j], j, cells):
                break
            here = replace(me, cell=cells[j])
            for enemy in self.bf.entities:
                if (
                    enemy.id == unit
                    or relation(here.occupant, enemy.occupant) is not Relation.ENEMY
                ):
                    continue
                if self.ruleset.provokes(self.bf, here, enemy, cells[j], cells[j + 1]):
                    found.append((enemy.id, cells[j]))
        return found

    def disengage_covers(self, unit: str) -> bool:
        """The unit has used Disengage this turn and not yet spent it on a step out of an
        enemy's reaction area (P-OA-3: the first such step of the turn's movement)."""
        return self.turn(unit).disengaged and not self.world.has(unit, Disengaged)

    def _run(self, unit: str, a: Cell, b: Cell) -> None:
        """This turn's last straight run grows by the step a -> b, or starts again with it
        (what dampers off keep as the velocity, P-ZERO-2)."""
        motion = self.world.get(unit, Motion)
        step = _minus(b, a)
        run = motion.run
        length = max(abs(v) for v in run)
        same = length > 0 and all(r == d * length for r, d in zip(run, step, strict=True))
        new = tuple(r + d for r, d in zip(run, step, strict=True)) if same else step
        self._set(unit, replace(motion, run=(new[0], new[1], new[2])))
        own = self.world.try_get(unit, RulesetSheet)
        if own is not None:  # one more cell walked: Myst's charge counts them (002:l.189)
            after = self.ruleset.after_step(own.sheet)
            if after is not own.sheet:
                self._set(unit, RulesetSheet(after))

    def _stop_flight(self, unit: str) -> None:
        """A jump lands, or the unit runs into something (a collision simply stops it): no
        velocity, no flight, and no straight run left for the dampers to keep (P-ZERO-1/2)."""
        motion = self.world.get(unit, Motion)
        stopped = replace(motion, velocity=(0, 0, 0), in_flight=False, flight=None, run=(0, 0, 0))
        if stopped != motion:
            self._set(unit, stopped)

    def _drift(self, unit: str) -> None:
        """At the start of its turn a unit with a velocity carries on along it, before it does
        anything (P-ZERO-1/2): a jump in flight along its line towards its surface, a velocity
        kept with the dampers off along itself. Nobody steers a drift: it stops before anything
        solid, the map's edge or any unit (and a collision costs the velocity); it provokes no
        reaction. A unit it runs into is no longer hidden from the drifter's side."""
        motion = self.world.get(unit, Motion)
        speed = max(abs(v) for v in motion.velocity)
        if not speed or not self.on_map(unit):
            return
        me = self.sheet(unit)
        start = me.cell
        toward = (
            motion.flight[1]
            if motion.flight is not None
            else (start[0] + motion.velocity[0], start[1] + motion.velocity[1],
                  start[2] + motion.velocity[2])
        )  # fmt: skip
        line = straight_flight(
            self.grid, self.bf.occupancy, me.occupant, toward, speed, any_unit_stops=True
        )
        end = line.cells[-1] if line.cells else start
        landing = None if motion.flight is None else motion.flight[1]
        crowded = (
            landing is not None
            and line.stopped_at == landing
            and len(line.cells) < speed
            and bool(self._all_in_cell(landing))
        )
        if crowded:
            assert landing is not None
            end = landing  # P-MOV-8: the leap lands on the unit now in its landing cell
        landed = motion.flight is not None and end == motion.flight[1]
        stopped = line.stopped_at is not None and not landed
        if end != start:
            self._place(unit, end)
        self._set(unit, replace(self.world.get(unit, Motion), run=_minus(end, start)))
        if landed or stopped:
            self._stop_flight(unit)
        if stopped and line.stopped_at is not None and self.grid.in_bounds(line.stopped_at):
            other = self._in_cell(line.stopped_at)
            if other is not None:
                self._reveal_to(other, {me.faction})
        after = self.world.get(unit, Motion).velocity
        self._emit(
            "drifted",
            {
                "unit": unit,
                "from": list(start),
                "to": list(end),
                "velocity": list(after),
                "landed": landed,
                "stopped": stopped,
            },
            about=[unit],
            rules=("P-ZERO-1",) if motion.flight is not None else ("P-ZERO-2",),
        )
        if crowded:
            self._collide(unit, end)

    def _relation_ok(self, unit: str, other: str, cell: Cell, k: int, cells: list[Cell]) -> bool:
        """An unseen unit in the way may still be passed: an ally or a neutral, mid-path."""
        own, theirs = self.world.get(unit, Faction), self.world.get(other, Faction)
        passable = own.name == theirs.name or own.neutral or theirs.neutral
        return passable and k < len(cells) - 1

    def _place(self, unit: str, cell: Cell) -> None:
        if self.on_map(unit) and self.world.get(unit, Position).cell != cell:
            self._uncrowd(unit)
        self._set(unit, Position(cell))

    def _uncrowd(self, unit: str) -> None:
        """The unit leaves a cell it shared (P-MOV-8): neither shares any longer."""
        crowded = self.world.try_get(unit, Crowded)
        if crowded is not None:
            self.world.remove(unit, Crowded)
            self.world.remove(crowded.other, Crowded)

    def _collide(self, later: str, cell: Cell) -> None:
        """P-MOV-8: a move nobody could steer ended on an occupied cell. Both save (the
        ruleset's `shared_cell_save`; periferie: acrobatics, DC 10 + 2 x (the other's size -
        its own)), the later arrival first; a failure falls prone and loses its next turn
        (stunned). Each side learns of the other unit.
        The later arrival, then the first, may step to a free cell of the 8 around if it saved
        (`step_aside`); the computer decides for its own units at once."""
        first = next((u for u in self._all_in_cell(cell) if u != later), None)
        if first is None:
            return
        self._reveal_to(first, {self.faction_of(later)})
        self._reveal_to(later, {self.faction_of(first)})
        rolls = []
        saved = {}
        for unit, other in ((later, first), (first, later)):
            # periferie: acrobatics (P-MOV-8); asked of the ruleset (issue 15)
            record = self.ruleset.shared_cell_save(
                self.roller, self.bf, self.sheet(unit), self.sheet(other), f"collision {unit}"
            )
            rolls.append(record)
            saved[unit] = record.outcome == "success"
            if not saved[unit]:
                health = self.health(unit)
                self._set(unit, Posture(Stance.PRONE))
                self._set(unit, Wounds(replace(health, conditions=health.conditions | {"stunned"})))
            self._set(unit, Crowded(other, unit == later, saved[unit]))
        self._emit(
            "collided",
            {
                "unit": later,
                "with": first,
                "at": list(cell),
                "unit_saved": saved[later],
                "with_saved": saved[first],
            },
            about=[later, first],
            rolls=tuple(rolls),
            rules=("P-MOV-8", "P-CHK-1"),
        )
        for unit in (later, first):
            if self.controller_of_unit(unit) == "computer" and self._auto_step_aside(unit):
                break  # once one has moved, the other may not (P-MOV-8)
            if unit == later and self.controller_of_unit(unit) != "computer":
                break  # the player of the later arrival chooses first, with `step_aside`

    def step_aside_cells(self, unit: str) -> list[Cell]:
        """The free cells among the 8 around a unit sharing its cell (P-MOV-8) that it may step
        to, as its side knows the field: no obstacle, nobody known there, and somewhere to
        stand (in microgravity, a surface). Empty when it may not step (no shared cell, a
        failed save, stunned)."""
        crowded = self.world.try_get(unit, Crowded)
        lost = self.condition_effects(unit).turn_lost
        if crowded is None or not crowded.saved or lost:
            return []
        me = self.sheet(unit)
        known = self.known_field(me.faction)
        x, y, z = me.cell
        cells = []
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                c = (x + dx, y + dy, z)
                if (dx, dy) == (0, 0) or not self.grid.in_bounds(c):
                    continue
                if self.grid.obstacle[c] != Obstacle.NONE or known.occupancy.at(c) is not None:
                    continue
                if self.grid.microgravity:
                    stands = on_surface(self.grid, known.occupancy, replace(me.occupant, cell=c))
                else:
                    stands = bool(self.grid.standable[c])
                if stands:
                    cells.append(c)
        return cells

    def _step_aside(self, unit: str, to: Cell) -> bool:
        """P-MOV-8: step from the shared cell to `to` (no movement points, no reaction). A unit
        its side did not know of in `to` stops it there, revealed, and it stays put (False)."""
        if self._ambush(unit, to):
            return False
        start = self.sheet(unit).cell
        self._place(unit, to)
        self._emit(
            "stepped_aside",
            {"unit": unit, "from": list(start), "to": list(to)},
            about=[unit],
            rules=("P-MOV-8",),
        )
        return True

    def five_foot_step_cells(self, unit: str) -> list[Cell]:
        """Where a 5-foot step (D-2) may take the unit, as its side knows the field: the cells
        next to it that the shared path search reaches with one movement point and one cell
        (not into difficult terrain, not crawling, G-3's footing and G-4's diagonals), in
        reading order. Empty when it cannot move at all or is in flight."""
        sheet = self.sheet(unit)
        motion = self.world.get(unit, Motion)
        if motion.in_flight or any(motion.velocity):
            return []
        known = self.known_field(self.faction_of(unit))
        request, _allow = self.ruleset.move_request(known, sheet, None, dash=False, stealth=False)
        if max(request.budgets.values(), default=0) == 0:
            return []
        one = replace(request, budgets={mode: 1 for mode in request.budgets}, max_cells=1)
        cells = reachable(self.grid, known.occupancy, sheet.occupant, one)
        return sorted(
            (c for c, cost in cells.items() if cost <= 1 and chebyshev(c, sheet.cell) == 1),
            key=lambda c: (c[2], c[1], c[0]),
        )

    def _five_foot_step(self, unit: str, to: Cell) -> None:
        """D-2: one cell to a free cell next to the unit (`five_foot_step_cells`), provoking no
        attack of opportunity. A unit its side did not know of in `to` stops it, revealed (the
        step is taken all the same)."""
        if not self.grid.in_bounds(to):
            raise Refusal("outside_map", at=to)
        if to not in self.five_foot_step_cells(unit):
            raise Refusal("not_one_step", unit=unit, at=to)
        sheet = self.sheet(unit)
        turn = self.turn(unit)
        turn.stepped = True
        if self._ambush(unit, to):
            return
        self._place(unit, to)
        turn.movement_spent += 1
        self._emit(
            "five_foot_step",
            {"unit": unit, "from": list(sheet.cell), "to": list(to)},
            about=[unit],
            rules=("D-2",),
        )

    def _coup_de_grace(self, unit: str, target: str, offered: tuple[str, ...] = ()) -> None:
        """A d20 coup de grâce (004:l.114-120), its full-round action already spent: first the
        attacks of opportunity it provokes from every enemy that threatens the attacker
        (l.118), offered one at a time as a move's are (the pending reaction names the
        target); then, the attacker still standing and the target still helpless in reach,
        the blow: an automatic critical, and the survivor's Fortitude save or death (l.116)."""
        rules = coup_de_grace_rules(self.ruleset)
        assert rules is not None, "the handler's check: a ruleset with a coup de grâce"
        me = self.sheet(unit)
        for enemy in self.bf.entities:
            if (
                enemy.id in offered
                or relation(me.occupant, enemy.occupant) is not Relation.ENEMY
                or not rules.provoked_by_act(self.bf, me, enemy)
                or not self.can_react(enemy.id, melee=True)
            ):
                continue
            self.pending = PendingMove(
                unit, enemy.id, "opportunity", me.cell, (), None, (*offered, enemy.id),
                coup_de_grace=target,
            )  # fmt: skip
            self._emit(
                "reaction_offered",
                {
                    "unit": enemy.id,
                    "mover": unit,
                    "kind": "opportunity",
                    "at": list(me.cell),
                    "act": "coup_de_grace",
                },
                about=[enemy.id, unit],
                rules=("D-2",),
            )
            return
        if not self.on_map(unit) or self.condition_effects(unit).turn_lost:
            return
        answer = (
            rules.coup_de_grace(self.bf, me, self.sheet(target)) if self.on_map(target) else None
        )
        if answer is None or answer.chance is None:
            why = "dead" if answer is None else str(answer.reason)
            self._emit(
                "coup_de_grace_lost",
                {"unit": unit, "target": target, "why": why},
                about=[unit, target],
                rules=("D-2",),
            )
            return
        weapon_id = self.world.get(unit, Armed).weapon
        assert weapon_id is not None, "the handler's check: no coup de grâce without a weapon"
        weapon = self.rules.weapons[weapon_id]
        roll = self.ruleset.roll_damage(self.roller, self.bf, me, weapon, answer, None)
        self._emit(
            "coup_de_grace",
            {
                "unit": unit,
                "target": target,
                **combat.weapon_named(self._context, unit, answer),
                "damage": roll.rolled,
                "why": list(answer.why),
            },
            about=[unit, target],
            rules=answer.rules,
        )
        damage_type = roll.damage_type or weapon.damage_type
        self._context.hurt(target, damage_type, roll.rolled, unit, roll.record)
        if not self.on_map(target):
            return  # the blow killed it: no save
        step = rules.coup_de_grace_save(
            self.roller, self.sheet(target), self._health_of(target), roll.rolled
        )
        if step is None:
            return
        self._store_health(target, step.after)
        self._emit(step.kind, step.data, about=[target, unit], rolls=step.rolls, rules=step.rules)
        if self.health(target).has("dead"):
            self._fall(target)

    def _ambush(self, unit: str, to: Cell) -> bool:
        """A step of `unit` into `to` (a move's, a step aside's, a 5-foot step's, a break-off's)
        where someone stands that its side did not know of: that one stops it where it stands,
        revealed to its side, which is told (`ambushed`). False when nobody else is there."""
        hidden = self._in_cell(to)
        if hidden is None or hidden == unit:
            return False
        self._reveal_to(hidden, {self.faction_of(unit)})
        self._emit(
            "ambushed",
            {"unit": unit, "by": hidden, "at": list(self.sheet(unit).cell)},
            about=[unit, hidden],
        )
        return True

    def _auto_step_aside(self, unit: str) -> bool:
        """The computer's choice for its unit: the first free cell around, north-west first
        (reading order), if it may step at all."""
        cells = self.step_aside_cells(unit)
        return bool(cells) and self._step_aside(unit, cells[0])

    def _stop(self, unit: str, start: Cell, at: Cell, total: int) -> None:
        self._place(unit, at)
        turn = self.turn(unit)
        spent_now = total - turn.movement_spent
        turn.movement_spent = total
        if at != start:
            self._emit(
                "moved",
                {
                    "unit": unit,
                    "from": list(start),
                    "to": list(at),
                    "cost": spent_now,
                    "spent": total,
                },
                about=[unit],
                rules=("P-MOV-1", "P-TURN-1"),
            )

    def can_react(self, unit: str, *, melee: bool) -> bool:
        """The unit may take a reaction now (P-OA-1 in melee; P-OA-2 a readied ranged one)."""
        effects = self.condition_effects(unit)
        if effects.turn_lost or effects.attack_barred or effects.no_reaction:
            return False
        kind = "opportunity_attack" if melee else "readied_attack"
        if kind not in self.ruleset.reactions:
            return False
        if self.turn(unit).reaction_used or not self.initiative.can_react(unit):
            return False
        weapon_id = self.world.get(unit, Armed).weapon
        if not melee:
            return weapon_id is not None and self.rules.weapons[weapon_id].kind != "melee"
        return True

    def _offer(
        self,
        mover: str,
        reactor: str,
        kind: str,
        command: cmd.Move,
        rest_via: tuple[Cell, ...],
        offered: tuple[str, ...],
        at: Cell,
        attacked_at: Cell | None = None,
    ) -> None:
        self.pending = PendingMove(
            mover,
            reactor,
            kind,
            command.to,
            rest_via,
            command.mode,
            (*offered, reactor),
            attacked_at,
        )
        rule = "P-OA-1" if kind == "opportunity" else "P-OA-2"
        # `at`: the cell the step leaves, where the attack finds the mover (an ally's cell it
        # passes, D-2, while it waits at the free cell before).
        self._emit(
            "reaction_offered",
            {"unit": reactor, "mover": mover, "kind": kind, "at": list(attacked_at or at)},
            about=[reactor, mover],
            rules=(rule,),
        )

    def in_open_sight(self, enemy: EntitySheet, unit: str) -> bool:
        """P-STL-1/2: the enemy sees the unit and the unit has no cover from it for hiding."""
        me = self.sheet(unit)
        if not can_see(enemy.health) or not self.ruleset.sight(self.bf, enemy, me).clear:
            return False
        # P-STL-2 (periferie: heavy cover, or a half obstacle up to its distance from the
        # enemy, behind it): the ruleset says which cover hides.
        return not self.ruleset.hides_behind(self.bf, enemy, me)

    def _stealth_roll(self, unit: str, enemy: EntitySheet) -> None:
        """P-STL-1: `precisione (furtività)` against the enemy's passive perception."""
        dc = self.ruleset.perception_dc(self.bf, enemy)
        purpose = f"stealth {unit} vs {enemy.id}"
        record = self.ruleset.stealth_roll(
            self.roller, self.bf, self.sheet(unit), Advantage.NONE, dc, purpose
        )
        failed = record.total < dc  # periferie: the d20's outcome against the DC (P-CHK-1)
        if failed:
            # The enemy's side sees the unit here, whether it stays in sight or not (P-STL-1).
            self.vision.glimpse(enemy.faction, unit, self.sheet(unit).cell)
        self._emit(
            "stealth_check",
            {"unit": unit, "against": enemy.id, "success": not failed},
            to=self._audience([unit]) | ({enemy.faction} if failed else set()),
            rolls=(record,),
            rules=("P-STL-1", "P-CHK-3"),
        )
        if failed:
            self._reveal_to(unit, {enemy.faction})


@dataclass(frozen=True)
class PlannedMove:
    """A move as planned: its cells (the start first), the turn's running total of points at
    each, the index where each leg ends; for a microgravity jump, the surface it is bound for
    and its speed in cells a turn (the doubled jump budget, P-ZERO-1)."""

    cells: list[Cell]
    totals: list[int]
    leg_ends: list[int]
    flight_to: Cell | None = None
    speed: int = 0
    #: By the index in `cells` of the cell a jump or drop starts from: the check it needs.
    checks: Mapping[int, LeapCheck] = field(default_factory=dict)


@dataclass(frozen=True)
class LeapCheck:
    """P-JUMP-1/3: a jump higher or a drop deeper than n_max needs a `gravità muscolare
    (atletica)` check at `dc`; `height` is the apex or the levels dropped, `land` the index in
    the move's cells of where it lands."""

    kind: str  # "jump" or "drop"
    height: int
    dc: int
    n_max: int
    land: int


def _leap_checks(path: PathResult, first: int) -> dict[int, LeapCheck]:
    """The checks a found path needs, keyed by the index in the whole move's cells of the cell
    each jump or drop starts from (the path's start is at `first`)."""
    found: dict[int, LeapCheck] = {}
    if len(path.steps) == 1 and path.steps[0].move is StepKind.JUMP:
        indices = [first]
        lands = [first + len(path.cells) - 1]
    else:
        indices = list(range(first, first + len(path.steps)))
        lands = [k + 1 for k in indices]
    for k, land, step in zip(indices, lands, path.steps, strict=True):
        for part in step.parts:
            if part.code in (CostNote.APEX, CostNote.DROP) and "dc" in part.values:
                height = part.values["apex" if part.code is CostNote.APEX else "depth"]
                kind = "jump" if part.code is CostNote.APEX else "drop"
                dc, n_max = part.values["dc"], part.values["n_max"]
                assert isinstance(height, int) and isinstance(dc, int) and isinstance(n_max, int)
                found[k] = LeapCheck(kind, height, dc, n_max, land)
    return found


def _why_still(sheet: EntitySheet) -> str:
    """Why a unit has no movement at all this turn, for the `cannot_move` refusal."""
    if sheet.health.mortal:
        return "mortal_wound"  # P-MOV-6
    if turn_lost_to(sheet.health):
        return "turn_lost"  # P-VUL-3
    if sheet.hold is not None:
        return "in_a_grab"  # Myst, 002:l.116
    if sheet.stance is Stance.PRONE:
        return "on_the_ground"  # Myst: it stands first (002:l.101)
    return "no_speed"


def _climbable(grid: Grid, cell: Cell) -> bool:
    return bool(int(grid.terrain[cell]) & int(Terrain.CLIMBABLE))


def _minus(b: Cell, a: Cell) -> Cell:
    return (b[0] - a[0], b[1] - a[1], b[2] - a[2])


def _scaled(d: Cell, speed: int) -> Cell:
    """The direction `d` as a velocity of `speed` cells a turn along its longest axis (the
    others in proportion, halves rounded up, as a flight line rounds them)."""
    length = max(abs(v) for v in d)
    if not length:
        return (0, 0, 0)

    def part(v: int) -> int:
        return (2 * v * speed + length) // (2 * length)

    return (part(d[0]), part(d[1]), part(d[2]))


class SnapshotError(ValueError):
    """Data that is not a snapshot a battle wrote; the message says which part."""


#: The fields of a snapshot (and "grid" once a GM has edited the cells, "conditions" while the
#: GM's light, smoke and weather differ from the map's).
_SNAPSHOT_FIELDS = (
    "units",
    "initiative",
    "roller",
    "pending",
    "improvising",
    "over",
    "winner",
    "grid_version",
    "vision",
    "log",
)


def setup_digest(setup: BattleSetup) -> str:
    """A digest of the setup as the journal's header holds it, but for the map's path (the
    map is checked by its sha256, and a journal moved with its map still opens): a unit's cell,
    the seed or a hidden flag edited in the header changes it."""
    data = {k: v for k, v in setup.to_json().items() if k != "map"}
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _check_known(spec: UnitSpec, rules: RulesData) -> None:
    """The unit's template, weapon and armour are in the rules (ValueError naming it if not)."""
    if spec.template not in rules.templates:
        raise ValueError(f"unit {spec.id!r}: unknown template {spec.template!r}")
    for kind, ref, table in (
        ("weapon", spec.weapon, rules.weapons),
        ("armour", spec.armour, rules.armour),
    ):
        if ref is not None and ref not in table:
            raise ValueError(f"unit {spec.id!r}: unknown {kind} {ref!r}")


def _conditions_from_json(data: Any) -> FieldConditions:
    """The GM's light, smoke and weather as a snapshot holds them (ValueError: not so)."""
    if not isinstance(data, dict) or set(data) != {"darkness", "smoke", "weather"}:
        raise ValueError(f"{data!r} is not darkness, smoke and weather")
    return FieldConditions(**{k: json_text(v) for k, v in data.items()})


def _pending_from_json(data: Any) -> PendingMove | None:
    """The inverse of `PendingMove.to_json`."""
    if data is None:
        return None
    pending = PendingMove(
        json_text(data["mover"]),
        json_text(data["reactor"]),
        json_text(data["kind"]),
        json_cell(data["to"]),
        tuple(json_cell(c) for c in data["via"]),
        None if data["mode"] is None else json_text(data["mode"]),
        tuple(json_text(u) for u in data["offered"]),
        None if data.get("attacked_at") is None else json_cell(data["attacked_at"]),
        None if data.get("coup_de_grace") is None else json_text(data["coup_de_grace"]),
    )
    if pending.to_json() != data:
        raise ValueError(f"{data!r} is not a reaction a battle writes")
    return pending


def _check_places(setup: BattleSetup, grid: Grid) -> None:
    """Every unit's cell on the map, and no two units on the map at the start in one cell (a
    header edited by hand could say otherwise; numpy would wrap a negative cell round)."""
    taken: dict[Cell, str] = {}
    for spec in setup.units:
        if not grid.in_bounds(spec.cell):
            raise ValueError(f"unit {spec.id!r}: cell {spec.cell} is outside the map {grid.shape}")
        if (spec.arrives_round or 1) > 1:
            continue
        if spec.cell in taken:
            raise ValueError(
                f"units {taken[spec.cell]!r} and {spec.id!r} both stand in {spec.cell}"
            )
        taken[spec.cell] = spec.id


def _strings(value: object) -> Iterator[str]:
    """Every string in a JSON-like value (an event's data)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _rest_via(via: Sequence[Cell], leg_ends: Sequence[int], stop: int) -> tuple[Cell, ...]:
    """The waypoints still ahead of a move stopped at index `stop` of its cells."""
    return tuple(c for c, end in zip(via, leg_ends, strict=False) if end > stop)


class _Context:
    """The engine's `BattleContext` (game/battle/context.py): the battle's effects as the
    command handlers may use them. It lives here because it is the engine's own: nothing else
    reaches the battle's private members."""

    def __init__(self, battle: Battle) -> None:
        self._b = battle

    # ---------------------------------------------------------------- reading (BattleState)
    @property
    def world(self) -> BattleWorld:
        return self._b.world

    @property
    def rules(self) -> RulesData:
        return self._b.rules

    @property
    def grid(self) -> Grid:
        return self._b.grid

    @property
    def setup(self) -> BattleSetup:
        return self._b.setup

    @property
    def initiative(self) -> Initiative:
        return self._b.initiative

    @property
    def pending(self) -> PendingMove | None:
        return self._b.pending

    @property
    def bf(self) -> Battlefield:
        return self._b.bf

    @property
    def ruleset(self) -> BattleRules:
        return self._b.ruleset

    @property
    def round(self) -> int:
        return self._b.round

    @property
    def over(self) -> bool:
        return self._b.over

    def sheet(self, unit_id: str) -> EntitySheet:
        return self._b.sheet(unit_id)

    def faction_of(self, unit_id: str) -> str:
        return self._b.faction_of(unit_id)

    def on_map(self, unit_id: str) -> bool:
        return self._b.on_map(unit_id)

    def sees(self, faction: str, unit_id: str) -> bool:
        return self._b.sees(faction, unit_id)

    def turn(self, unit_id: str) -> TurnState:
        return self._b.turn(unit_id)

    def health(self, unit_id: str) -> Health:
        return self._b.health(unit_id)

    def condition_effects(self, unit_id: str) -> ConditionEffects:
        return self._b.condition_effects(unit_id)

    def can_react(self, unit: str, *, melee: bool) -> bool:
        return self._b.can_react(unit, melee=melee)

    def in_open_sight(self, enemy: EntitySheet, unit: str) -> bool:
        return self._b.in_open_sight(enemy, unit)

    def step_aside_cells(self, unit: str) -> list[Cell]:
        return self._b.step_aside_cells(unit)

    # ---------------------------------------------------------------- changing (BattleContext)
    @property
    def roller(self) -> Roller:
        return self._b.roller

    @property
    def improvising(self) -> list[tuple[str, str]]:
        return self._b.improvising

    def emit(
        self,
        kind: str,
        data: Mapping[str, Any],
        *,
        about: Iterable[str] = (),
        rolls: Sequence[RollRecord] = (),
        rules: Sequence[str] = (),
        gm_only: bool = False,
        to: frozenset[str] | None = None,
    ) -> None:
        self._b._emit(kind, data, about=about, rolls=rolls, rules=rules, gm_only=gm_only, to=to)

    def set(self, unit_id: str, component: object) -> None:
        self._b._set(unit_id, component)

    def take_pending(self) -> PendingMove | None:
        pending, self._b.pending = self._b.pending, None
        return pending

    def replace_grid(self, grid: Grid) -> None:
        self._b.grid = grid
        self._b.grid_version += 1
        self._b._bf = None

    def set_conditions(self, conditions: FieldConditions) -> None:
        self._b.conditions = conditions
        self._b._bf = None

    def need_action(self, unit_id: str) -> None:
        self._b._need_action(unit_id)

    def use_action(self, unit_id: str, kind: str) -> None:
        self._b._use_action(unit_id, kind)

    def advantage(self, attacker: str, target: str | None) -> Advantage:
        return self._b._advantage(attacker, target)

    def spend_help(self, unit_id: str) -> None:
        self._b._spend_help(unit_id)

    def visible_target(self, unit_id: str, target: str | None) -> EntitySheet:
        return self._b._visible_target(unit_id, target)

    def resolve_attack(
        self,
        attacker: str,
        target: EntitySheet,
        weapon: Weapon,
        kind: str,
        margin: str | None = None,
    ) -> None:
        combat.resolve_attack(self, attacker, target, weapon, kind, margin=margin)

    def damage_area(self, attacker: str, weapon: Weapon, origin: Cell, aimed: str | None) -> None:
        combat.damage_area(self, attacker, weapon, origin, aimed)

    def hurt(
        self,
        target: str,
        damage_type: str,
        rolled: int,
        source: str,
        roll: RollRecord | None,
        on_hit: Sequence[str] = (),
    ) -> Health:
        if self._b._defer(target, DeferredHit(damage_type, rolled, source, roll, tuple(on_hit))):
            return self._b.health(target)
        return combat.hurt(self, target, damage_type, rolled, source, roll, on_hit)

    def fall(self, unit_id: str) -> None:
        self._b._fall(unit_id)

    def remove(self, unit_id: str, kind: type) -> None:
        self._b.world.remove(unit_id, kind)
        self._b._bf = None

    def place(self, unit_id: str, cell: Cell) -> None:
        self._b._place(unit_id, cell)

    def take_damage_waiting(self, unit_id: str) -> DamageWaiting | None:
        waiting = self._b.world.try_get(unit_id, DamageWaiting)
        if waiting is not None:
            self._b.world.remove(unit_id, DamageWaiting)
        return waiting

    def reveal_to(self, unit_id: str, factions: Iterable[str]) -> None:
        self._b._reveal_to(unit_id, factions)

    def in_cell(self, cell: Cell) -> str | None:
        return self._b._in_cell(cell)

    def move(self, command: cmd.Move, offered: tuple[str, ...] = ()) -> None:
        self._b._move(command, offered)

    def fly_on(self, unit: str, offered: tuple[str, ...], *, react: bool = True) -> None:
        self._b._fly_on(unit, offered, react=react)

    def step_aside(self, unit: str, to: Cell) -> bool:
        return self._b._step_aside(unit, to)

    def ambush(self, unit: str, to: Cell) -> bool:
        return self._b._ambush(unit, to)

    def start_turn(self, unit: str) -> bool:
        return self._b._start_turn(unit)

    def end_turn(self, unit: str) -> None:
        self._b._end_turn(unit)

    def next_turn(self) -> None:
        self._b._next_turn()

    def five_foot_step(self, unit: str, to: Cell) -> None:
        self._b._five_foot_step(unit, to)

    def five_foot_step_cells(self, unit: str) -> list[Cell]:
        return self._b.five_foot_step_cells(unit)

    def coup_de_grace(self, unit: str, target: str, offered: tuple[str, ...] = ()) -> None:
        self._b._coup_de_grace(unit, target, offered)

    def announce_initiative(self, unit: str) -> None:
        self._b._initiative_event(unit)

    def end_combat(self, winner: str | None) -> None:
        self._b._end_combat(winner)

    def delay_turn(self, unit: str) -> None:
        self._b._delay_turn(unit)
