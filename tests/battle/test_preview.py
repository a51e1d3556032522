"""The previews a player sees before acting agree with what the commands then do, and hide what
the player's sides do not know."""

from __future__ import annotations

from game.battle import commands as cmd
from game.battle import preview
from game.battle.engine import GM, Battle
from game.battle.setup import UnitSpec

ADA = UnitSpec("ada", "red", (1, 3, 0), weapon="pistol")
BO = UnitSpec("bo", "blue", (9, 8, 0))


def test_p_mov_5_reach_lists_five_cells_walking_and_the_dash_ring_out_to_ten(make_battle) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    seen = preview.reach(b, "red", "ada")
    assert seen is not None
    assert seen.cells[(6, 3, 0)] == 5 and (7, 3, 0) not in seen.cells
    assert seen.dash_cells[(11, 3, 0)] == 10 and (12, 3, 0) not in seen.dash_cells
    b.apply(cmd.Move("ada", (3, 3, 0)), "red")
    after = preview.reach(b, "red", "ada")
    assert after is not None and after.cells[(6, 3, 0)] == 5 and (7, 3, 0) not in after.cells


def test_the_path_preview_costs_what_the_move_then_spends(make_battle) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    shown = preview.path(b, "red", "ada", (4, 5, 0))
    assert shown is not None and shown.cost == 3 and shown.cells[-1] == (4, 5, 0)
    moved = b.apply(cmd.Move("ada", (4, 5, 0)), "red")
    assert next(e for e in moved.events if e.kind == "moved").data["cost"] == shown.cost
    unreachable = preview.path(b, "red", "ada", (19, 11, 0))
    assert unreachable is not None and unreachable.refusal is not None


def test_p_oa_1_the_path_preview_warns_where_an_enemy_may_strike_and_who_sees_the_end(
    make_battle,
) -> None:
    ada = UnitSpec("ada", "red", (5, 5, 0), weapon="combat_knife")
    bo = UnitSpec("bo", "blue", (6, 5, 0))
    b: Battle = make_battle([ada, bo], initiative=(5, 15))
    shown = preview.path(b, "blue", "bo", (9, 5, 0))
    assert shown is not None
    assert [(w.cell, w.kind, w.enemy) for w in shown.warnings] == [
        ((6, 5, 0), "opportunity", "ada")
    ]
    assert shown.seen_by == ("ada",)


def test_p_hit_2_the_attack_preview_shows_the_chance_the_attack_then_rolls_against(
    make_battle,
) -> None:
    near_bo = UnitSpec("bo", "blue", (9, 3, 0))
    b: Battle = make_battle([ADA, near_bo], initiative=(15, 5))
    shown = preview.attack(b, "red", "ada", "bo")
    assert shown is not None and shown.los.clear
    assert shown.answer.hit is not None and shown.answer.hit.p == 80
    assert shown.answer.cover is not None and shown.answer.cover.grade == "high_exposure"
    b.apply(cmd.EnterRoll((99,)), GM)
    attack = b.apply(cmd.Attack("ada", "bo"), "red")
    assert next(e for e in attack.events if e.kind == "attack").data["hit_chance"] == 80


def test_previews_say_nothing_of_a_unit_hidden_from_the_player(make_battle) -> None:
    hidden_bo = UnitSpec("bo", "blue", (9, 3, 0), hidden=True)
    b: Battle = make_battle([ADA, hidden_bo], initiative=(15, 5))
    assert preview.attack(b, "red", "ada", "bo") is None
    assert preview.reach(b, "red", "bo") is None
    assert preview.attack(b, GM, "ada", "bo") is not None


def test_a_path_preview_runs_through_a_hidden_enemy_as_if_the_cell_were_free(make_battle) -> None:
    corridor = """
    #########
    .........
    #########
    """
    ada = UnitSpec("ada", "red", (2, 1, 0))
    bo = UnitSpec("bo", "blue", (5, 1, 0), hidden=True)
    b: Battle = make_battle([ada, bo], picture=corridor, initiative=(15, 5))
    shown = preview.path(b, "red", "ada", (7, 1, 0))
    assert shown is not None and shown.cells == tuple((x, 1, 0) for x in range(2, 8))
    assert preview.path(b, GM, "ada", (7, 1, 0)) is not None
