"""What a player may be shown: their sides' units, the enemies they see, ghosts, fog, the order.

The window draws only through this view, so a unit hidden from a player's factions, its
initiative and its rolls never reach that player's screen or log. The GM's view holds everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.battle.engine import GM, Battle
from game.battle.events import UNSEEN, Event, Withheld
from game.ecs.components import RulesetSheet, Sheet, Turn
from game.grid.model import Cell
from game.rules.ruleset_answers import HealthShown, Modifier, WeaponShown
from game.tactics.battlefield import FieldConditions
from game.tactics.ruleset import field_reader


@dataclass(frozen=True)
class UnitView:
    """A unit as the player sees it. Only the player's own units (every unit, for the GM) show
    their kit and their turn so far: `weapon`, `armour` (ids in the rules data), `medkits` and
    `turn` are None for the others."""

    id: str
    faction: str
    cell: Cell
    stance: str
    wounds: dict[str, Any]
    own: bool
    weapon: str | None = None
    armour: str | None = None
    medkits: int | None = None
    turn: dict[str, Any] | None = None
    #: Microgravity, seen by anyone who sees the unit: a jump not yet landed (P-ZERO-1) and
    #: the velocity it carries into its next turn (P-ZERO-1/2).
    in_flight: bool = False
    velocity: Cell = (0, 0, 0)
    #: The weapon an own unit fights with under a ruleset whose sheet has its own (Myst,
    #: fantasy, Cepheus, d20: `BattleRules.sheet_weapon`), which the card names instead of
    #: the map's periferie `weapon`; None under periferie and for the others' units.
    sheet_weapon: WeaponShown | None = None
    #: Myst, seen by anyone who sees the unit: the grab it is in (the other end, and whether
    #: it holds) and a push's penalty on its next exchange (002:l.101-116).
    hold: tuple[str, bool] | None = None
    unbalanced: int = 0
    #: Under a ruleset with its own health (Myst, fantasy, Cepheus, d20: BattleRules.
    #: health_shown) its state and pips for anyone who sees the unit, its numbers and armour
    #: for its own side only (HealthShown.public); None under periferie, whose `wounds` these are.
    health: HealthShown | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "faction": self.faction,
            "cell": list(self.cell),
            "stance": self.stance,
            "wounds": self.wounds,
            "own": self.own,
            "in_flight": self.in_flight,
            "velocity": list(self.velocity),
        }
        if self.turn is not None:
            out.update(weapon=self.weapon, armour=self.armour, medkits=self.medkits)
            out["turn"] = self.turn
        if self.sheet_weapon is not None:  # periferie's view keeps its fields
            out["sheet_weapon"] = self.sheet_weapon.to_json()
        # Written only when set, so that the views of a battle without them are as they were.
        if self.hold is not None:
            out["hold"] = {"other": self.hold[0], "holding": self.hold[1]}
        if self.unbalanced:
            out["unbalanced"] = self.unbalanced
        if self.health is not None:
            out["health"] = self.health.to_json()
        return out


@dataclass(frozen=True)
class ReactionView:
    """A reaction offered now, as far as the player knows of it."""

    reactor: str
    mover: str
    kind: str


@dataclass(frozen=True)
class PlayerView:
    """One player's (or the GM's, `factions` None) knowledge of the battle now."""

    player: str
    factions: frozenset[str] | None
    units: tuple[UnitView, ...]
    #: Where unseen enemies were last seen: (unit id, cell).
    ghosts: tuple[tuple[str, Cell], ...]
    #: [x, y, z] masks: cells seen now, cells seen before (the GM's view: all True).
    seen: NDArray[np.bool_]
    remembered: NDArray[np.bool_]
    #: The turn order as this player may know it: (unit id, total or None when secret).
    order: tuple[tuple[str, int | None], ...]
    active: str | None
    round: int
    log: tuple[Event, ...]
    #: The side of every unit this view names (units, ghosts, the order).
    sides: dict[str, str] = field(default_factory=dict)
    #: A reaction offered now, when the player knows both units.
    pending: ReactionView | None = None
    over: bool = False
    winner: str | None = None
    #: The battlefield's light, smoke and weather now (issue 15: every seat knows them), and what
    #: they do to an attack under the battle's ruleset (None: its seed has no such rule).
    conditions: FieldConditions = field(default_factory=FieldConditions)
    field_effects: tuple[Modifier, ...] | None = None

    def unit(self, unit_id: str) -> UnitView | None:
        return next((u for u in self.units if u.id == unit_id), None)

    def unit_ids(self) -> set[str]:
        return {u.id for u in self.units} | {g for g, _c in self.ghosts}


def view_for(battle: Battle, player: str) -> PlayerView:
    """The view of `player` (a name, or "gm" for everything)."""
    if player == GM:
        factions: frozenset[str] | None = None
    else:
        factions = battle.factions_of(player)
    shape = battle.grid.shape
    if factions is None:
        seen = np.ones(shape, np.bool_)
        remembered = seen
        known = set(battle.world.unit_ids)
    else:
        seen = np.zeros(shape, np.bool_)
        remembered = np.zeros(shape, np.bool_)
        known = set()
        for faction in factions:
            sight = battle.vision.factions[faction]
            seen |= sight.seen
            remembered |= sight.remembered
            known |= sight.units
    units = []
    for unit_id in sorted(known):
        if not battle.on_map(unit_id):
            continue
        sheet = battle.sheet(unit_id)
        own = factions is None or sheet.faction in factions
        ruleset_sheet = battle.world.try_get(unit_id, RulesetSheet)
        kit: dict[str, Any] = {}
        if own:
            kit = {
                "weapon": None if sheet.weapon is None else sheet.weapon.id,
                "armour": None if sheet.armour is None else sheet.armour.id,
                "medkits": battle.world.get(unit_id, Sheet).medkits,
                "turn": battle.world.get(unit_id, Turn).state.to_dict(),
            }
            if ruleset_sheet is not None:
                kit["sheet_weapon"] = battle.ruleset.sheet_weapon(ruleset_sheet.sheet)
        health = None
        if ruleset_sheet is not None:
            shown = battle.ruleset.health_shown(ruleset_sheet.sheet)
            health = shown if own or shown is None else shown.public()
        units.append(
            UnitView(
                unit_id,
                sheet.faction,
                sheet.cell,
                sheet.stance.value,
                sheet.health.to_dict(),
                own,
                **kit,
                in_flight=sheet.in_flight,
                velocity=sheet.velocity,
                hold=sheet.hold,
                unbalanced=sheet.unbalanced,
                health=health,
            )
        )
    ghosts: list[tuple[str, Cell]] = []
    if factions is not None:
        for faction in sorted(factions):
            for unit_id, cell in sorted(battle.vision.factions[faction].last_known.items()):
                if unit_id not in known and battle.on_map(unit_id):
                    ghosts.append((unit_id, cell))
    order = []
    # Enemies seen before and lost keep their place in the tracker: their place was seen.
    placed = known | {g for g, _cell in ghosts}
    for entry in battle.initiative.visible_order(for_gm=True):
        own = factions is None or entry.combatant.faction in factions
        if factions is not None and not own and entry.entity_id not in placed:
            continue  # P-INIT-4: an unseen unit's place is not shown
        # A hidden unit's roll is secret from the other sides, not from its own (P-INIT-4).
        secret = entry.record is not None and entry.record.secret and not own
        order.append((entry.entity_id, None if secret else entry.total))
    active = battle.active
    if active is not None and factions is not None and active not in known:
        active = None
    pending = None
    if battle.pending is not None and {battle.pending.reactor, battle.pending.mover} <= (
        set(known) if factions is not None else set(battle.world.unit_ids)
    ):
        pending = ReactionView(battle.pending.reactor, battle.pending.mover, battle.pending.kind)
    named = {u.id for u in units} | placed | {unit for unit, _total in order}
    sides = {u: battle.faction_of(u) for u in sorted(named) if u in battle.world}
    log = tuple(told(e, factions) for e in battle.log if e.visible_to(factions))
    conditions = battle.conditions
    reader = field_reader(battle.ruleset)
    effects = None if reader is None else reader.field_effects(conditions)
    return PlayerView(
        player,
        factions,
        tuple(units),
        tuple(ghosts),
        seen,
        remembered,
        tuple(order),
        active,
        battle.round,
        log,
        sides,
        pending,
        battle.over,
        battle.winner,
        conditions,
        effects,
    )


def told(event: Event, factions: frozenset[str] | None) -> Event:
    """The event as a player commanding `factions` may read it: units none of its sides that
    see the event knew of around it, and fields they did not see, blanked (UNSEEN)."""
    if factions is None or not event.withheld:
        return event
    relevant = [f for f in sorted(factions) if event.audience is None or f in event.audience]
    if not relevant:
        return event
    parts = [event.withheld.get(f, Withheld()) for f in relevant]
    units = frozenset.intersection(*(p.units for p in parts))
    fields = frozenset.intersection(*(p.fields for p in parts))
    if not units and not fields:
        return event
    data = {k: UNSEEN if k in fields else _blank(v, units) for k, v in event.data.items()}
    rolls = tuple(
        replace(r, purpose=" ".join(UNSEEN if w in units else w for w in r.purpose.split()))
        for r in event.rolls
    )
    return replace(event, data=data, rolls=rolls, withheld={})


def _blank(value: Any, units: frozenset[str]) -> Any:
    if isinstance(value, str):
        return UNSEEN if value in units else value
    if isinstance(value, dict):
        return {k: _blank(v, units) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_blank(v, units) for v in value]
    return value


def player_view(battle: Battle, player: str) -> dict[str, Any]:
    """The view as JSON (fog as counts: the masks are for the window)."""
    view = view_for(battle, player)
    return {
        "player": view.player,
        "factions": None if view.factions is None else sorted(view.factions),
        "round": view.round,
        "active": view.active,
        "units": [u.to_json() for u in view.units],
        "ghosts": [{"id": g, "cell": list(c)} for g, c in view.ghosts],
        "order": [{"id": u, "total": t} for u, t in view.order],
        "cells_seen": int(view.seen.sum()),
        "cells_remembered": int(view.remembered.sum()),
        "log": [e.to_json() for e in view.log[-20:]],
    }
