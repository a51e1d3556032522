"""P-OA-3: Disengage covers the reaction areas left from one cell: the first step of the move
that leaves any area, with every enemy whose area that step leaves ("Se uscendo dalla stessa
casella si uscirebbe dalla zona di attacco di più di un nemico, l'azione di disingaggio vale
sempre", seed 001). Leaving another enemy's area from a later cell provokes as usual (P-OA-1).

Worked on an open field. Reaction areas are the 26 cells around a unit (G-5), distances are
Chebyshev (G-4). Ada (red) starts at (5, 5); bo at (4, 5), so ada is in bo's area; cy at
(7, 6). Ada walks east (5,5) -> (6,5) -> (7,5) -> (8,5) -> (9,5), 4 of her 5 points:
- the step (5,5) -> (6,5) leaves bo's area (d = 1 -> 2); (6,5) is inside cy's (d = 1);
- (6,5), (7,5), (8,5) are all within 1 of cy; the step (8,5) -> (9,5) leaves cy's area (d = 2).
"""

from __future__ import annotations

from game.battle import commands as cmd
from game.battle.engine import Battle
from game.battle.preview import path as preview_path
from game.battle.setup import UnitSpec
from tests.battle.conftest import MakeBattle

EAST = ((6, 5, 0), (7, 5, 0), (8, 5, 0))
ADA = UnitSpec("ada", "red", (5, 5, 0))
BO = UnitSpec("bo", "blue", (4, 5, 0))
CY = UnitSpec("cy", "blue", (7, 6, 0))


def _offers(outcome: object) -> list[tuple[str, list[int]]]:
    return [
        (e.data["unit"], e.data["at"])
        for e in outcome.events  # type: ignore[attr-defined]
        if e.kind == "reaction_offered"
    ]


def test_p_oa_3_disengage_covers_the_first_step_out_of_an_area_not_a_later_one(
    make_battle: MakeBattle,
) -> None:
    b: Battle = make_battle([ADA, BO, CY], initiative=(15, 5, 4))
    assert b.apply(cmd.Disengage("ada"), "red").accepted
    moved = b.apply(cmd.Move("ada", (9, 5, 0), via=EAST), "red")
    # bo's area, left by the first step, is covered; cy's, left from (8, 5), provokes.
    assert _offers(moved) == [("cy", [8, 5, 0])]
    assert b.sheet("ada").cell == (8, 5, 0)
    assert b.apply(cmd.React("cy", take=False), "blue").accepted
    assert b.sheet("ada").cell == (9, 5, 0)


def test_p_oa_3_one_step_out_of_two_enemies_areas_at_once_is_covered_for_both(
    make_battle: MakeBattle,
) -> None:
    # dan at (4, 4) too: the step (5,5) -> (6,5) leaves bo's and dan's areas together ("vale
    # sempre"); no reaction is offered on the way to (7, 5), still inside cy's area.
    dan = UnitSpec("dan", "blue", (4, 4, 0))
    b: Battle = make_battle([ADA, BO, CY, dan], initiative=(15, 5, 4, 3))
    assert b.apply(cmd.Disengage("ada"), "red").accepted
    moved = b.apply(cmd.Move("ada", (7, 5, 0), via=EAST[:1]), "red")
    assert _offers(moved) == [] and b.pending is None
    assert b.sheet("ada").cell == (7, 5, 0)


def test_p_oa_3_the_cover_is_spent_across_a_split_move(make_battle: MakeBattle) -> None:
    # The turn's movement split in two moves (P-TURN-1): the first leaves bo's area (covered),
    # the second leaves cy's from (8, 5): the Disengage was spent, cy may react.
    b: Battle = make_battle([ADA, BO, CY], initiative=(15, 5, 4))
    assert b.apply(cmd.Disengage("ada"), "red").accepted
    first = b.apply(cmd.Move("ada", (6, 5, 0)), "red")
    assert _offers(first) == []
    second = b.apply(cmd.Move("ada", (9, 5, 0), via=EAST[1:]), "red")
    assert _offers(second) == [("cy", [8, 5, 0])]


def test_p_oa_3_a_move_that_leaves_no_area_keeps_the_cover_for_a_later_one(
    make_battle: MakeBattle,
) -> None:
    # Ada starts at (5, 8), in nobody's area (bo at d = 3, cy at d = 2); she walks to (6, 7),
    # into cy's area, and later out of it: (8, 7) -> (9, 7), d((9, 7), (7, 6)) = 2. That first
    # step out of any area is the covered one: no reaction.
    ada = UnitSpec("ada", "red", (5, 8, 0))
    b: Battle = make_battle([ada, BO, CY], initiative=(15, 5, 4))
    assert b.apply(cmd.Disengage("ada"), "red").accepted
    assert _offers(b.apply(cmd.Move("ada", (6, 7, 0)), "red")) == []
    moved = b.apply(cmd.Move("ada", (9, 7, 0), via=((7, 7, 0), (8, 7, 0))), "red")
    assert _offers(moved) == [] and b.sheet("ada").cell == (9, 7, 0)


def test_p_oa_3_the_path_preview_warns_of_the_reaction_after_the_covered_step(
    make_battle: MakeBattle,
) -> None:
    b: Battle = make_battle([ADA, BO, CY], initiative=(15, 5, 4))
    assert b.apply(cmd.Disengage("ada"), "red").accepted
    shown = preview_path(b, "red", "ada", (9, 5, 0), EAST)
    assert shown is not None
    assert [(w.cell, w.kind, w.enemy) for w in shown.warnings] == [((8, 5, 0), "opportunity", "cy")]
