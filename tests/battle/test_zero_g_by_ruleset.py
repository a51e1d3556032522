"""Microgravity under every ruleset (issues 15/16; docs/rules.md "Microgravity under each
ruleset"): the map's physics is the shared grid's, each ruleset gives it its own cells a turn.

Worked out by hand from the rulesets' sample sheets and RULINGS.md:
- cells a turn: periferie's void_marine thrusters 5 (P-ZERO-2: "Thrusters: 5 cells"), its
  human jump 4, doubled in microgravity to 8 (P-ZERO-1); Myst 4 (M-2, sheets.toml: popolano
  and bruto `speed = 4`); the fantasy system 6 (F-3: "6 cells of movement a turn"); d20 6 for
  a human, 4 for the void_marine (D-2, d20 sheets.toml `speed`); Cepheus 4 standing (C-4:
  "Each minor action spent moving gives 4 cells");
- thrusters fly 1 point a cell in any of the 26 directions, ending anywhere (P-ZERO-2);
- pushing off flies a straight line from a surface to a surface cell, 1 point a cell of the
  ruleset's cells, no check; beyond this turn it flies on next turn (P-ZERO-1's flight);
  periferie keeps its jump for it, the others have no jump (can_jump) but push off;
- in vacuum, off every surface and without thrusters, nobody moves (adrift).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

from game.battle import commands as cmd
from game.battle import preview
from game.battle.engine import Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.ecs.components import Motion
from game.grid.model import OBSTACLE_FULL, Cell, Grid
from game.maps import load_map
from game.rules.data import load_rules
from tests.battle.test_soak import MAPS

RULESETS = ("periferie", "myst", "fantasy", "d20", "cepheus")
OTHERS = ("myst", "fantasy", "d20", "cepheus")

Make = Callable[[str, Grid, tuple[UnitSpec, ...]], Battle]


def shaft(height: int, ceiling: int | None = None) -> Grid:
    """A one-cell-wide vertical shaft in vacuum at 0 g; a full obstacle at z=`ceiling`."""
    obstacle = np.zeros((1, 1, height), dtype=np.uint8)
    if ceiling is not None:
        obstacle[0, 0, ceiling] = OBSTACLE_FULL
    return Grid.build(obstacle, gravity=0.0, pressurised=False)


@pytest.fixture
def battle() -> Iterator[Make]:
    made: list[Battle] = []

    def make(ruleset: str, grid: Grid, units: tuple[UnitSpec, ...]) -> Battle:
        setup = BattleSetup("<test>", "", 7, units, ruleset=ruleset)
        made.append(Battle(setup, grid, load_rules()))
        return made[-1]

    yield make
    for b in made:
        b.close()


def reach(b: Battle, unit: str, mode: str | None) -> dict[Cell, int]:
    seen = preview.reach(b, b.faction_of(unit), unit, mode)
    assert seen is not None
    return dict(seen.cells)


# ---------------------------------------------------------------- thrusters, afloat (Hale)

#: A void marine afloat at z=5 of a 16-high shaft, off every surface (the shaft's cells touch
#: no full obstacle and only z=0 is standable), as Hale is afloat where he arrives.
HALE = UnitSpec("hale", "security", (0, 0, 5), template="void_marine")
FOE = UnitSpec("foe", "raiders", (0, 0, 15), template="void_marine")  # out of every reach
THRUSTER_CELLS = {"periferie": 5, "myst": 4, "fantasy": 6, "d20": 4, "cepheus": 4}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_issue_15_a_void_marine_afloat_flies_its_rulesets_cells_with_thrusters_under_every_ruleset(
    battle: Make, ruleset: str
) -> None:
    # z=5 ± k for k = 1..cells inside 0..15: 4 cells give z 1..4 and 6..9 (8 cells); 5 give
    # 0..4 and 6..10 (10); 6 give 0..4 and 6..11 (11); each costs k points.
    b = battle(ruleset, shaft(16), (HALE, FOE))
    cells = THRUSTER_CELLS[ruleset]
    expected = {(0, 0, z): abs(z - 5) for z in range(max(0, 5 - cells), 5 + cells + 1) if z != 5}
    assert len(expected) == {4: 8, 5: 10, 6: 11}[cells]
    assert reach(b, "hale", "thrusters") == expected
    # Walking the surfaces: he is on none, in vacuum: adrift, nowhere (P-ZERO-2).
    assert reach(b, "hale", None) == {}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_issue_15_hale_where_he_arrives_on_hull_breach_flies_with_thrusters_under_every_ruleset(
    battle: Make, ruleset: str
) -> None:
    # maps/hull_breach.tmx: Hale (void_marine, arrives round 3) at (27,15,1) walks nowhere
    # from there; before issue 16 Myst and d20 gave him no thrusters and he never moved.
    loaded = load_map(MAPS / "hull_breach.tmx")
    hale = UnitSpec("hale", "station_security", (27, 15, 1), template="void_marine")
    varga = UnitSpec("varga", "raiders", (28, 16, 2), template="void_marine")
    b = battle(ruleset, loaded.grid, (hale, varga))
    flown = reach(b, "hale", "thrusters")
    assert flown and max(flown.values()) <= THRUSTER_CELLS[ruleset]
    assert reach(b, "hale", None) == {}


# ---------------------------------------------------------------- pushing off, no thrusters

#: A human on the floor of a shaft whose ceiling (a full obstacle) is at z=5: the surfaces are
#: the floor (z=0, standable) and z=4 (against the ceiling); z=1..3 touch nothing.
CY = UnitSpec("cy", "red", (0, 0, 0))
ABOVE = UnitSpec("bo", "blue", (0, 0, 10), template="void_marine")  # beyond the ceiling


@pytest.mark.parametrize("ruleset", OTHERS)
def test_issue_16_without_thrusters_the_rulesets_without_jumps_push_off_to_the_ceiling(
    battle: Make, ruleset: str
) -> None:
    # The only surface in a straight line is (0,0,4), 4 cells up: within 4 (Myst, Cepheus)
    # and 6 (fantasy, d20) cells, 4 points. Walking the surfaces gets nowhere (z=1 is none).
    b = battle(ruleset, shaft(16, ceiling=5), (CY, ABOVE))
    assert reach(b, "cy", "push_off") == {(0, 0, 4): 4}
    assert reach(b, "cy", None) == {}
    budgets = preview.reach(b, "red", "cy", "push_off")
    assert budgets is not None and "jump" not in budgets.allowance.budgets
    assert budgets.allowance.budgets["push_off"] == {"myst": 4, "fantasy": 6, "d20": 6}.get(
        ruleset, 4
    )


def test_issue_16_periferie_keeps_its_jump_for_it_and_has_no_push_off(battle: Make) -> None:
    # P-ZERO-1: the jump's 4 doubled to 8 reaches the same (0,0,4) for 4 points; periferie's
    # allowance has no push-off, so that mode reaches nothing.
    b = battle("periferie", shaft(16, ceiling=5), (CY, ABOVE))
    assert reach(b, "cy", "jump") == {(0, 0, 4): 4}
    assert reach(b, "cy", "push_off") == {}
    seen = preview.reach(b, "red", "cy", None)
    assert seen is not None and "push_off" not in seen.allowance.budgets


def until_turn_of(b: Battle, unit: str) -> None:
    for _ in range(10):
        if b.active == unit:
            return
        assert b.active is not None
        outcome = b.apply(cmd.EndTurn(b.active), b.faction_of(b.active))
        assert outcome.accepted, outcome.refusal
    raise AssertionError(f"{unit} never became active")


@pytest.mark.parametrize("ruleset", ["myst", "cepheus"])
def test_issue_16_a_push_off_beyond_the_turn_flies_on_and_lands_next_turn_with_no_check(
    battle: Make, ruleset: str
) -> None:
    # Ceiling at z=8: the surface is (0,0,7), 7 cells up, beyond 4 cells a turn. Cy flies 4 cells
    # to (0,0,4), in flight with velocity (0,0,4), spending her 4 points; no dice are rolled
    # (no check). Her next turn she flies the last 3 cells and lands on (0,0,7).
    b = battle(ruleset, shaft(16, ceiling=8), (CY, ABOVE))
    until_turn_of(b, "cy")
    jump = b.apply(cmd.Move("cy", (0, 0, 7), mode="jump"), "red")
    assert jump.refusal is not None and jump.refusal.code == "not_offered"
    leap = b.apply(cmd.Move("cy", (0, 0, 7), mode="push_off"), "red")
    assert leap.accepted, leap.refusal
    assert not leap.rolls
    flying = [dict(e.data) for e in leap.events if e.kind == "flying"]
    assert flying == [{"unit": "cy", "toward": [0, 0, 7], "velocity": [0, 0, 4]}]
    m = b.world.get("cy", Motion)
    assert b.sheet("cy").cell == (0, 0, 4) and (m.in_flight, m.velocity) == (True, (0, 0, 4))
    b.apply(cmd.EndTurn("cy"), "red")
    until_turn_of(b, "cy")
    assert b.sheet("cy").cell == (0, 0, 7) and not b.world.get("cy", Motion).in_flight
