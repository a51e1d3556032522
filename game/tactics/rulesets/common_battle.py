"""What the battle objects of the rulesets without periferie's stances and speeds share: a
move of so many cells, an initiative order from totals the ruleset worked out itself, and the
answers of a ruleset whose seed has no throws nor area attacks at a cell (`NotOffered`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import NoReturn

from game.grid.area import area_cells
from game.grid.model import Cell
from game.grid.movement import PUSH_OFF, MoveRequest
from game.rules.data import Weapon
from game.rules.dice import Advantage, Roller, RollRecord
from game.rules.initiative import Initiative, InitiativeEntry
from game.rules.movement import MoveAllowance
from game.rules.ruleset_answers import (
    NOT_OFFERED,
    Aid,
    Attack,
    DamageRoll,
    Throw,
    ThrowRoll,
    TurnBudget,
)
from game.tactics.battlefield import Battlefield, EntitySheet

#: A turn of a move and one action (an attack), nothing else: Myst's exchange (M-2) and the
#: fantasy system's one action, which may follow closing in (003:l.4, 55).
MOVE_AND_ACTION = TurnBudget(
    slots=("movement", "action"),
    # "throw" and "help" are listed so that the action bar greys them with their reason
    # (NotOffered, BattleRules.can_help: not offered)
    costs=MappingProxyType(
        {
            "move": "movement",
            "attack": "action",
            "throw": "action",
            "help": "action",
            "end_turn": "",
            "improvise": "action",  # the GM's ruling, each system's check (improvised.py)
        }
    ),
)
#: The movement modes such a fighter has, all at its one speed in cells.
MODES = ("walk", "swim", "climb")


def cells_move(
    mode: str | None, cells: int, rule_ids: tuple[str, ...]
) -> tuple[MoveRequest, MoveAllowance]:
    """`cells` movement points in every mode a fighter has: a cell of plain ground costs one,
    the shared terrain costs apply (the search's cap in cells is periferie's blinded one)."""
    budgets = {m: cells for m in MODES}
    chosen = mode if mode in budgets else "walk"
    request = MoveRequest(budgets=dict(budgets), mode=chosen)
    allowance = MoveAllowance(dict(budgets), False, None, 0, rule_ids, ())
    return request, allowance


def microgravity_move(
    bf: Battlefield,
    entity: EntitySheet,
    mode: str | None,
    move: tuple[MoveRequest, MoveAllowance],
    cells: int,
) -> tuple[MoveRequest, MoveAllowance]:
    """The map's microgravity physics for a ruleset whose seed is silent on it (issues 15/16,
    docs/rules.md "Microgravity under each ruleset"): besides walking the surfaces, `cells`
    (the ruleset's own cells a turn) of pushing off a surface in a straight line (P-ZERO-1's
    flight, not a jump and no check) and, for a unit that wears them, of thrusters (P-ZERO-2,
    a carried velocity cancelled first). Under gravity, or for one who cannot move, `move`."""
    request, allowance = move
    if not bf.grid.microgravity or not cells:
        budgets = {m: p for m, p in request.budgets.items() if m != PUSH_OFF}
        chosen = "walk" if request.mode == PUSH_OFF else request.mode
        if budgets == dict(request.budgets) and chosen == request.mode:
            return request, allowance
        return replace(request, budgets=budgets, mode=chosen), replace(allowance, budgets=budgets)
    budgets = {**request.budgets, PUSH_OFF: cells}
    if entity.thrusters:
        budgets["thrusters"] = cells
    chosen = mode if mode in (PUSH_OFF, "thrusters") and mode in budgets else request.mode
    request = replace(
        request,
        budgets=budgets,
        mode=chosen,
        has_thrusters=entity.thrusters,
        velocity=entity.velocity if entity.thrusters else (0, 0, 0),
    )
    return request, replace(allowance, budgets=dict(budgets))


def order_keeper(entries: Sequence[InitiativeEntry]) -> Initiative:
    """The shared order keeper holding `entries` by descending total, ties by the higher
    bonus then listing (its own tie rule), round 1 and nobody active yet."""
    ordered = sorted(entries, key=lambda e: (-e.total, -e.combatant.bonus, e.listed))
    return Initiative.from_dict(
        {
            "round": 1,
            "started": False,
            "reached": 0,
            "active": None,
            "skip": sorted(e.entity_id for e in entries if e.combatant.surprised),
            "next_listed": len(entries),
            "order": [e.to_dict() for e in ordered],
            "pending": [],
        }
    )


# ---------------------------------------------------------------- no throws (issue 15)


def pattern_victims(bf: Battlefield, weapon: Weapon, origin: Cell) -> tuple[str, ...] | None:
    """Everyone in the shared weapon's area pattern from `origin` (through sight unless the
    weapon ignores it, P-AREA-1), in the pattern's order; None for a one-target weapon."""
    if not weapon.area:
        return None
    cells = area_cells(bf.grid, origin, weapon.area, not weapon.area_ignores_sight)
    return tuple(o.id for c in cells for o in bf.occupancy.all_at(c))


class NotOffered:
    """The throw, the area attack at a cell and the medkit of a ruleset whose seed has none of
    them: NOT_OFFERED (the action bar greys the throw with it, the battle refuses them; the
    medkit is not in such a turn budget at all). A hit of an area weapon on its target still
    covers the weapon's shared pattern (`pattern_victims`), as before."""

    def can_throw(self, bf: Battlefield, thrower: EntitySheet) -> str | None:
        return NOT_OFFERED

    def throw(
        self,
        bf: Battlefield,
        thrower: EntitySheet,
        to: EntitySheet | Cell,
        size: str,
        weapon: Weapon | None,
    ) -> Throw:
        return Throw(None, False, NOT_OFFERED, "out_of_range", ())

    def roll_throw(
        self,
        roller: Roller,
        bf: Battlefield,
        thrower: EntitySheet,
        aim: Cell,
        throw: Throw,
        advantage: Advantage,
        purpose: str,
    ) -> ThrowRoll:
        _never()

    def throw_damage(
        self,
        roller: Roller,
        bf: Battlefield,
        thrower: EntitySheet,
        weapon: Weapon | None,
        size: str,
        roll: ThrowRoll,
    ) -> DamageRoll:
        _never()

    def area_attack(
        self, bf: Battlefield, attacker: EntitySheet, weapon: Weapon, at: Cell
    ) -> Attack:
        return Attack(None, NOT_OFFERED, (), ())

    def area_victims(
        self, bf: Battlefield, attacker: EntitySheet | None, weapon: Weapon, origin: Cell
    ) -> tuple[str, ...] | None:
        return pattern_victims(bf, weapon, origin)

    def medkit_refusal(
        self, bf: Battlefield, medic: EntitySheet, patient: EntitySheet, wound: str
    ) -> tuple[str, Mapping[str, object]] | None:
        return NOT_OFFERED, {}

    def use_medkit(
        self,
        roller: Roller,
        bf: Battlefield,
        medic: EntitySheet,
        patient: EntitySheet,
        wound: str,
        advantage: Advantage,
    ) -> Aid:
        _never()

    def hides_behind(self, bf: Battlefield, enemy: EntitySheet, unit: EntitySheet) -> bool:
        return False  # no hiding in its turn: nothing hides anyone

    def perception_dc(self, bf: Battlefield, watcher: EntitySheet) -> int:
        return 0

    def stealth_roll(
        self,
        roller: Roller,
        bf: Battlefield,
        unit: EntitySheet,
        advantage: Advantage,
        dc: int | None,
        purpose: str,
    ) -> RollRecord:
        _never()

    def search_roll(
        self,
        roller: Roller,
        bf: Battlefield,
        searcher: EntitySheet,
        advantage: Advantage,
        purpose: str,
    ) -> RollRecord:
        _never()


def _never() -> NoReturn:
    raise ValueError("this ruleset does not offer it: nothing to roll (its answers say so)")
