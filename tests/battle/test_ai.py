"""The computer player (game/battle/ai.py): how it seeks a fight it cannot yet see or reach.

Each test puts a unit where the computer used to end its turn for ever (issue 13) and checks the
command it gives now. Initiative faces are entered like a GM's (P-CHK-4), in listing order.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.battle import commands as cmd
from game.battle.ai import choose
from game.battle.engine import GM, Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.grid.geometry import chebyshev
from game.rules.data import load_rules
from game.tactics.battlefield import Battlefield
from tests.battle.conftest import ascii_grid

#: A corridor one cell wide, nobody able to step round another unit in it, turning a corner.
CORRIDOR = """
    ################
    ...........#####
    ##########.#####
    ##########.#####
    ##########.....#
    ################
    """


def test_a_unit_blocked_by_allies_dashes_past_them_instead_of_standing_still(
    make_battle,
) -> None:
    # Three allies fill the corridor before ada: passing through them (P-MOV-4: 1 + 1 a cell,
    # never ending in their cells) and stopping in the first free cell costs 3 x 2 + 1 = 7 of a
    # walk of 5, so a walk gets ada no nearer the ground round the corner its side has not
    # seen; a dash (P-MOV-5) doubles the walk to 10.
    # The enemy round the corner is out of everyone's sight.
    ada = UnitSpec("ada", "blue", (0, 1, 0), weapon="pistol")
    allies = [UnitSpec(f"ally{i}", "blue", (i, 1, 0), weapon="pistol") for i in range(1, 4)]
    foe = UnitSpec("foe", "red", (14, 4, 0), weapon="pistol")
    b: Battle = make_battle([ada, *allies, foe], CORRIDOR, initiative=(20, 2, 2, 2, 1))
    assert b.active == "ada" and "foe" not in b.vision.factions["blue"].units
    assert choose(b, "ada") == cmd.Dash("ada")
    assert b.apply(cmd.Dash("ada"), "blue").accepted
    move = choose(b, "ada")
    assert isinstance(move, cmd.Move) and move.to[0] >= 4  # past the allies
    assert b.apply(move, "blue").accepted


def test_a_unit_with_no_weapon_hides_rather_than_waiting_in_the_open(make_battle) -> None:
    # The human template carries no weapon: the guard has no fight to seek. Out of the enemy's
    # sight (a wall between) it hides, then ends its turn.
    walled = "\n".join(["......#......."] * 5)
    guard = UnitSpec("guard", "blue", (1, 2, 0))
    raider = UnitSpec("raider", "red", (12, 2, 0), weapon="pistol")
    b: Battle = make_battle([guard, raider], walled, initiative=(20, 1))
    assert choose(b, "guard") == cmd.Hide("guard")
    b.apply(cmd.EnterRoll((20,)), GM)
    assert b.apply(cmd.Hide("guard"), "blue").accepted
    assert choose(b, "guard") == cmd.EndTurn("guard")


def test_a_unit_knowing_of_no_enemy_with_nothing_left_to_explore_patrols_then_searches(
    make_battle,
) -> None:
    # One open room, all of it in sight from the start; the raider is placed hidden, so blue
    # knows of no enemy and has no ground left to explore: it patrols (a waypoint drawn from
    # the unit and the round) and, the move made, searches with its action.
    room = "\n".join(["." * 8] * 6)
    guard = UnitSpec("guard", "blue", (0, 0, 0), weapon="pistol")
    raider = UnitSpec("raider", "red", (7, 5, 0), weapon="pistol", hidden=True)
    b: Battle = make_battle([guard, raider], room, initiative=(20, 1))
    assert not b.vision.factions["blue"].units - {"guard"}
    first = choose(b, "guard")
    assert isinstance(first, cmd.Move) and first.to != (0, 0, 0)
    assert choose(b, "guard") == first  # the same state, the same waypoint
    assert b.apply(first, "blue").accepted
    assert choose(b, "guard") == cmd.Search("guard")


#: A room three cells deep with a half-height obstacle at (4, 1): from (11, 1) it hides the
#: cells behind it, (0..3, 1) and (under Cepheus's samples) the row below them.
LOW_WALL = """
    ############
    ....h.......
    ............
    ............
    ############
    """


@pytest.mark.parametrize(
    ("ruleset", "covered"), [("cepheus", {(3, 1, 0), (3, 2, 0)}), ("d20", {(3, 1, 0)})]
)
def test_a_computer_unit_prefers_a_cell_with_cover_when_equally_placed_under_cepheus_and_d20(
    ruleset: str, covered: set[tuple[int, int, int]]
) -> None:
    # The unarmed ada (no fight to seek) keeps to cover from the armed foe at (11, 1). Its
    # best cells as near the foe as possible, 8 cells: (3, 1) and (3, 2) behind the half wall,
    # and (3, 3) in the open. It goes behind the wall: Cepheus C-3 1/2 cover (DM -1, scored 1),
    # d20 cover by corner lines (D-1/D-3, +4 AC; the row below has none there).
    units = (
        UnitSpec("ada", "blue", (2, 3, 0)),
        UnitSpec("foe", "red", (11, 1, 0), weapon="pistol"),
    )
    setup = BattleSetup("<test>", "", 7, units, ruleset=ruleset)
    b = Battle(setup, ascii_grid(LOW_WALL), load_rules())
    try:
        while b.active != "ada":
            assert b.apply(cmd.EndTurn(b.active), b.controller_of_unit(b.active)).accepted
        foe = b.bf.entity("foe")
        open_cell = replace(b.sheet("ada"), cell=(3, 3, 0))
        there = Battlefield(b.grid, (open_cell, foe), b.rules, ruleset)
        assert b.ruleset.cover_value(there, open_cell, [foe]) == 0
        move = choose(b, "ada")
        while isinstance(move, cmd.ReactStance | cmd.FireMode):  # Cepheus's standing choices
            assert b.apply(move, b.controller_of_unit("ada")).accepted
            move = choose(b, "ada")
        assert isinstance(move, cmd.Move) and move.to in covered
        assert chebyshev(move.to, foe.cell) == chebyshev((3, 3, 0), foe.cell) == 8
    finally:
        b.close()
