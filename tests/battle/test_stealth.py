"""P-STL-2: for hiding, a half obstacle's cover reaches behind it only as far as the obstacle is
from the enemy — even where, for an attack, P-COV-3 gives no cover at all.

Hand-worked on an open field: the enemy Eve at (2, 5), a crate (half obstacle) at (6, 5), so
d(crate, Eve) = 4. Mo stands behind the crate on the same row.
- Mo at (10, 5): d(crate, Mo) = 4 <= 4, hidden for stealth (P-STL-2); for an attack P-COV-3
  (N = 0) asks d(crate, Mo) <= ceil(4 / 1) - 1 = 3: no cover, and with no obstacle around Mo,
  high exposure (P-COV-4).
- Mo at (11, 5): d(crate, Mo) = 5 > 4: in the open.
"""

from __future__ import annotations

import json

import pytest

from game.battle import commands as cmd
from game.battle.engine import GM, Battle, Outcome
from game.battle.setup import UnitSpec
from game.battle.view import player_view, view_for
from game.ecs.components import Visibility
from game.tactics import answers as tactics
from tests.battle.conftest import MakeBattle

FIELD = "\n".join(
    "." * 20 if y != 5 else "......h" + "." * 13 for y in range(12)
)  # the crate at (6, 5)


@pytest.mark.parametrize(("x", "in_open"), [(10, False), (11, True), (8, False)])
def test_p_stl_2_a_crate_hides_a_sneaking_unit_only_as_far_behind_it_as_it_is_from_the_enemy(
    make_battle: MakeBattle, x: int, in_open: bool
) -> None:
    units = [
        UnitSpec("Eve", "b", (2, 5, 0), weapon="pistol"),
        UnitSpec("Mo", "a", (x, 5, 0), weapon="pistol"),
    ]
    battle = make_battle(units, FIELD, initiative=(20, 10))
    eve = battle.sheet("Eve")
    assert battle.in_open_sight(eve, "Mo") is in_open


def test_p_stl_2_hides_where_p_cov_3_gives_an_attack_no_cover(make_battle: MakeBattle) -> None:
    units = [
        UnitSpec("Eve", "b", (2, 5, 0), weapon="pistol"),
        UnitSpec("Mo", "a", (10, 5, 0), weapon="pistol"),
    ]
    battle = make_battle(units, FIELD, initiative=(20, 10))
    cover = tactics.target_cover(battle.bf, battle.sheet("Eve"), battle.sheet("Mo"))
    # P-COV-3: 4 > 3, the crate gives no cover; nothing around Mo either: high exposure (P-COV-4)
    assert cover.grade == "high_exposure"
    assert cover.hidden and all(s.obstacle == "half" and not s.counted for s in cover.hidden)
    assert battle.in_open_sight(battle.sheet("Eve"), "Mo") is False  # P-STL-2: 4 <= 4


# ---------------------------------------------------------------- P-STL-1: who learns of a failure

# A wall along row 4 with one gap at (5, 4). Bo stands south of it at (5, 10) and sees north
# only through the gap: (5, 3) is in his sight, (4, 3) and (6, 3) are not (the lines from
# (5, 10) cross row 4 at x = 4.14 and 5.86, inside the wall cells (4, 4) and (6, 4)).
GAP = "\n".join("#####.##############" if y == 4 else "." * 20 for y in range(12))


def _gap_battle(
    make_battle: MakeBattle, face: int, *, third_side: bool = False
) -> tuple[Battle, Outcome]:
    units = [
        UnitSpec("ada", "red", (4, 3, 0), hidden=True),
        UnitSpec("bo", "blue", (5, 10, 0)),
    ]
    if third_side:  # a side that sees nothing of the move: its line to (5, 3) crosses the
        # wall at x = 6.75, in the wall cell (6, 4)
        units.append(UnitSpec("gus", "green", (19, 11, 0)))
    b = make_battle(units, GAP, initiative=(15, 5, 1)[: len(units)])
    assert b.active == "ada" and not b.sees("blue", "ada")
    b.apply(cmd.EnterRoll((face,)), GM)
    # Stealth halves walking to floor(5 / 2) = 2 cells (P-STL-1, P-MOV-7): (4,3) -> (6,3)
    # through (5, 3), in the open before bo: one precisione (furtività) roll against bo's
    # passive perception 10 + 0 = 10 (P-CHK-3).
    moved = b.apply(cmd.Move("ada", (6, 3, 0), stealth=True), "red")
    assert moved.accepted, moved.refusal
    return b, moved


def test_p_stl_1_a_failed_check_tells_the_enemys_side_which_sees_the_unit_where_it_failed(
    make_battle: MakeBattle,
) -> None:
    # d20 = 9 < 10: bo spots ada at (5, 3). She walks on out of his sight to (6, 3), but blue
    # has seen her: its log says she was revealed to it, and its view shows her where seen.
    b, moved = _gap_battle(make_battle, 9)
    (check,) = [e for e in moved.events if e.kind == "stealth_check"]
    assert check.data == {"unit": "ada", "against": "bo", "success": False}
    assert check.rolls[0].target == 10 and check.rolls[0].total == 9
    assert b.sheet("ada").cell == (6, 3, 0)
    assert "blue" not in b.world.get("ada", Visibility).hidden_from
    assert b.vision.factions["blue"].last_known["ada"] == (5, 3, 0)
    blue = view_for(b, "blue")
    told = {e.kind: e.to_json() for e in blue.log}
    assert told["revealed"]["unit"] == "ada" and told["revealed"]["to"] == ["blue"]
    assert told["stealth_check"]["unit"] == "ada" and told["stealth_check"]["success"] is False
    assert ("ada", (5, 3, 0)) in blue.ghosts
    # where she went from there, blue did not see
    assert "moved" not in told


def test_p_stl_1_a_failed_check_at_the_moves_end_shows_the_unit_to_the_enemy(
    make_battle: MakeBattle,
) -> None:
    # The same failure (d20 = 9 < 10) on a move that stops in the gap's sight, at (5, 3).
    from game.battle import commands as cmd
    from game.battle.engine import GM

    b = make_battle(
        [UnitSpec("ada", "red", (4, 3, 0), hidden=True), UnitSpec("bo", "blue", (5, 10, 0))],
        GAP,
        initiative=(15, 5),
    )
    b.apply(cmd.EnterRoll((9,)), GM)
    assert b.apply(cmd.Move("ada", (5, 3, 0), stealth=True), "red").accepted
    assert b.sees("blue", "ada")
    blue = view_for(b, "blue")
    assert "ada" in {u.id for u in blue.units}
    assert [e.data["to"] for e in blue.log if e.kind == "revealed"] == [["blue"]]


def test_p_stl_1_secrecy_a_passed_check_tells_the_enemy_nothing(make_battle: MakeBattle) -> None:
    # d20 = 10 >= 10: ada stays hidden; blue's view and log say nothing of her.
    b, _moved = _gap_battle(make_battle, 10)
    assert "blue" in b.world.get("ada", Visibility).hidden_from
    assert "ada" not in json.dumps(player_view(b, "blue"), default=str)
    assert not b.vision.factions["blue"].glimpsed


def test_p_stl_1_secrecy_only_the_discovering_side_is_told_not_a_third_that_saw_nothing(
    make_battle: MakeBattle,
) -> None:
    # green's gus, south of the wall in the far corner, sees none of it: ada stays hidden from
    # green, and green's view names her nowhere; blue's names her.
    b, _moved = _gap_battle(make_battle, 9, third_side=True)
    hidden = b.world.get("ada", Visibility).hidden_from
    assert "green" in hidden and "blue" not in hidden
    assert "ada" not in json.dumps(player_view(b, "green"), default=str)
    assert "ada" in json.dumps(player_view(b, "blue"), default=str)
