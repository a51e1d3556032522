"""What a command handler may read of a battle (`BattleState`) and change in it (`BattleContext`).

A handler is a pair (game/battle/handlers.py): a *check* that reads a `BattleState` and answers
the Refusal the command would get before anything is chosen or rolled, and a *do* that carries
the command out through a `BattleContext`. The engine (game/battle/engine.py) is the only
implementation of the context; the action bar (options.py), the preview (preview.py) and the
computer (ai.py) read a `Battle`, which is a `BattleState`, and call the same checks, so the
three can never disagree with the engine. Nothing outside `Battle` touches its private members:
this surface is the whole of what a rule system plugged into a battle may use (docs/battle.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from game.battle.commands import Move
    from game.battle.outcome import PendingMove
    from game.battle.setup import BattleSetup
    from game.ecs.components import DamageWaiting
    from game.ecs.world import BattleWorld
    from game.grid.model import Cell, Grid
    from game.rules.data import RulesData, Weapon
    from game.rules.dice import Advantage, Roller, RollRecord
    from game.rules.initiative import Initiative
    from game.rules.ruleset_answers import ConditionEffects
    from game.rules.turn import TurnState
    from game.rules.wounds import Health
    from game.tactics.battlefield import Battlefield, EntitySheet, FieldConditions
    from game.tactics.ruleset import BattleRules


class BattleState(Protocol):
    """What a check may read: the battle as it stands, never changed by reading it."""

    @property
    def world(self) -> BattleWorld: ...
    @property
    def rules(self) -> RulesData: ...
    @property
    def grid(self) -> Grid: ...
    @property
    def setup(self) -> BattleSetup: ...
    @property
    def initiative(self) -> Initiative: ...
    @property
    def pending(self) -> PendingMove | None: ...
    @property
    def bf(self) -> Battlefield: ...
    @property
    def ruleset(self) -> BattleRules:
        """The combat system's battle side: ask it, never branch on its name."""
        ...

    @property
    def round(self) -> int: ...
    @property
    def over(self) -> bool: ...

    def sheet(self, unit_id: str) -> EntitySheet: ...
    def faction_of(self, unit_id: str) -> str: ...
    def on_map(self, unit_id: str) -> bool: ...
    def sees(self, faction: str, unit_id: str) -> bool: ...
    def turn(self, unit_id: str) -> TurnState:
        """The unit's turn budget (P-TURN-1): read it; spend it only through the context."""
        ...

    def health(self, unit_id: str) -> Health: ...
    def condition_effects(self, unit_id: str) -> ConditionEffects:
        """What the unit's health (the ruleset's own value) does to its turn."""
        ...

    def can_react(self, unit: str, *, melee: bool) -> bool:
        """The unit may take a reaction now (P-OA-1: melee; P-OA-2: a readied ranged one)."""
        ...

    def in_open_sight(self, enemy: EntitySheet, unit: str) -> bool:
        """P-STL-1/2: the enemy sees the unit and the unit has no cover from it for hiding."""
        ...

    def step_aside_cells(self, unit: str) -> list[Cell]:
        """The free cells a unit sharing its cell may step aside to (P-MOV-8)."""
        ...

    def five_foot_step_cells(self, unit: str) -> list[Cell]:
        """Where a 5-foot step may take the unit, as its side knows the field (D-2)."""
        ...


class BattleContext(BattleState, Protocol):
    """What a handler's *do* may change, and nothing else. Every change goes through here so
    that the engine keeps its caches, its event log and its dice in step: the state hash and a
    journal's replay depend on it. Each method is one of the battle's effects, named for what
    happens at the table."""

    @property
    def roller(self) -> Roller:
        """The battle's one seeded roller; every roll made with it is logged with the command."""
        ...

    @property
    def improvising(self) -> list[tuple[str, str]]:
        """The improvised actions waiting for the GM's ruling, oldest first (P-CHK-1)."""
        ...

    # ---------------------------------------------------------------- events and state
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
        """Tell what happened: the sides that own or see the units `about` learn of it (or only
        the GM, or the sides `to`); the kind must be listed in reasons.Happened."""
        ...

    def set(self, unit_id: str, component: object) -> None:
        """Give a unit a new component (components are frozen: replace, never mutate)."""
        ...

    def remove(self, unit_id: str, kind: type) -> None:
        """Take a component of `kind` from a unit (Myst's grab and push, 002:l.101-116)."""
        ...

    def place(self, unit_id: str, cell: Cell) -> None:
        """Stand the unit at `cell` now, no movement spent (Myst's breaking off, 002:l.78)."""
        ...

    def take_pending(self) -> PendingMove | None:
        """The move waiting on a reaction, which is no longer waiting."""
        ...

    def replace_grid(self, grid: Grid) -> None:
        """The GM has edited the map: every view of the field is rebuilt from the new grid."""
        ...

    def set_conditions(self, conditions: FieldConditions) -> None:
        """The GM has changed the light, smoke or weather: every attack from now on is made in
        them (the ruleset reads `Battlefield.conditions`)."""
        ...

    # ---------------------------------------------------------------- the turn's budget
    def need_action(self, unit_id: str) -> None:
        """Refuse ("action_used") if the unit has used its action this turn (P-TURN-1)."""
        ...

    def use_action(self, unit_id: str, kind: str) -> None:
        """Spend the unit's action on `kind`, or refuse as `need_action` does."""
        ...

    # ---------------------------------------------------------------- rolls and harm
    def advantage(self, attacker: str, target: str | None) -> Advantage:
        """Help, a dodging target and a shared cell on a roll (P-CHK-2, P-MOV-8)."""
        ...

    def spend_help(self, unit_id: str) -> None:
        """The help given to the unit is used by its roll (P-CHK-2)."""
        ...

    def visible_target(self, unit_id: str, target: str | None) -> EntitySheet:
        """A target the unit's side knows is there, or Refusal("unknown_target")."""
        ...

    def resolve_attack(
        self,
        attacker: str,
        target: EntitySheet,
        weapon: Weapon,
        kind: str,
        margin: str | None = None,
    ) -> None:
        """One attack at an entity: to-hit (P-HIT-*), then damage (P-AREA-1, P-MOV-8);
        `margin` the attack command's (Myst, M-1: "ask" leaves the hit's damage waiting)."""
        ...

    def damage_area(self, attacker: str, weapon: Weapon, origin: Cell, aimed: str | None) -> None:
        """The weapon's damage over its pattern from `origin` (or on `aimed` alone)."""
        ...

    def hurt(
        self,
        target: str,
        damage_type: str,
        rolled: int,
        source: str,
        roll: RollRecord | None,
        on_hit: Sequence[str] = (),
    ) -> Health:
        """A hit lands: P-DMG-1, the table (P-VUL-1/2), P-DEATH-1; the wounds after it."""
        ...

    def fall(self, unit_id: str) -> None:
        """The unit dies: off the map and out of the order."""
        ...

    def take_damage_waiting(self, unit_id: str) -> DamageWaiting | None:
        """The unit's hit whose damage waited for its choice (M-1), which waits no longer."""
        ...

    # ---------------------------------------------------------------- sight
    def reveal_to(self, unit_id: str, factions: Iterable[str]) -> None:
        """The unit is no longer hidden from these sides (P-STL-1)."""
        ...

    def in_cell(self, cell: Cell) -> str | None:
        """Who stands in `cell` (known or not: only the engine's handlers may ask)."""
        ...

    # ---------------------------------------------------------------- movement
    def move(self, command: Move, offered: tuple[str, ...] = ()) -> None:
        """Walk, jump or fly along the planned path, offering reactions on the way."""
        ...

    def fly_on(self, unit: str, offered: tuple[str, ...], *, react: bool = True) -> None:
        """A leap in flight goes on after a reaction (P-ZERO-1)."""
        ...

    def step_aside(self, unit: str, to: Cell) -> bool:
        """P-MOV-8: out of a shared cell to `to`; False when someone hidden stops it there."""
        ...

    def five_foot_step(self, unit: str, to: Cell) -> None:
        """D-2: one cell next to the unit, no attack of opportunity; refuses any other cell."""
        ...

    def ambush(self, unit: str, to: Cell) -> bool:
        """A step of `unit` into `to` where someone stands that its side did not know of (a
        choice made on the field as its side knows it): stopped where it stands, that one
        revealed to its side and told, as a move's step is; False when nobody is there."""
        ...

    def coup_de_grace(self, unit: str, target: str, offered: tuple[str, ...] = ()) -> None:
        """004:l.114-120: the attacks of opportunity the blow provokes (those not yet
        `offered`), then the blow; the full-round action is already spent."""
        ...

    # ---------------------------------------------------------------- the order of play
    def start_turn(self, unit: str) -> bool:
        """Begin the unit's turn (its start-of-turn effects); False if it cannot act."""
        ...

    def end_turn(self, unit: str) -> None:
        """End the unit's turn (its end-of-turn effects) and move the order on."""
        ...

    def next_turn(self) -> None:
        """Move the order on to the next unit that can act."""
        ...

    def announce_initiative(self, unit: str) -> None:
        """Tell the sides the unit's place in the order."""
        ...

    def end_combat(self, winner: str | None) -> None:
        """The combat is over (the GM ends it, or a side has won)."""
        ...

    def delay_turn(self, unit: str) -> None:
        """The acting unit acts later this round or first next round (C-1): its turn stops
        without its end-of-turn effects and the order moves on."""
        ...
