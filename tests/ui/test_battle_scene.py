"""The battle window driven headless by mouse and keys: what it shows and what it makes happen.

Battles on maps/station_interior.tmx with seed 1: Kask (raiders, at (11, 14, 0)) acts first;
the raiders see Okafor (20, 2, 1) and Vidal (28, 9, 1) on the gallery above; Bruno (security)
is hidden from the raiders at (15, 28, 0). The computer plays station security.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from game.battle import commands as cmd
from game.battle.engine import GM
from game.battle.setup import UnitSpec
from game.ui.board import FACTION_COLOURS
from tests.ui.conftest import MakeWindow, Window

RAIDERS, SECURITY = FACTION_COLOURS[0], FACTION_COLOURS[1]  # the sides in alphabetical order


def _colour_in(window: Window, cell: tuple[int, int, int], colour: tuple[int, int, int]) -> int:
    """How many pixels of `colour` the screen has inside a cell's square (panned into view)."""
    window.scene.board.show_cell(cell)
    window.frames(1)
    screen = window.app.screen
    rect = window.scene.board.cell_rect(cell).clip(screen.get_rect())
    return sum(
        1
        for x in range(rect.left, rect.right)
        for y in range(rect.top, rect.bottom)
        if tuple(screen.get_at((x, y)))[:3] == colour
    )


def test_a_unit_token_is_drawn_in_its_side_colour_on_its_cell(make_window: MakeWindow) -> None:
    w = make_window()
    kask = w.battle.sheet("Kask").cell
    w.at(kask)
    w.frames(1)
    assert _colour_in(w, kask, RAIDERS) > 10
    # an empty cell nearby has none of it: the count above is the token, not the map
    assert _colour_in(w, (kask[0] + 2, kask[1] + 2, kask[2]), RAIDERS) == 0


def test_p_init_4_a_hidden_enemy_is_not_drawn_for_the_players_who_cannot_see_it(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    bruno = w.battle.sheet("Bruno").cell
    w.at(bruno)
    w.frames(1)
    assert _colour_in(w, bruno, SECURITY) == 0
    assert "Bruno" not in {u.id for u in w.scene.view.units}


def test_the_gm_at_the_window_sees_the_hidden_enemy_drawn_on_its_cell(
    make_window: MakeWindow,
) -> None:
    w = make_window(player=GM)
    bruno = w.battle.sheet("Bruno").cell
    w.at(bruno)
    w.frames(1)
    assert _colour_in(w, bruno, SECURITY) > 10


def test_p_hit_2_the_hit_chance_shown_on_hover_is_the_one_the_attack_then_rolls_against(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    vidal = w.battle.sheet("Vidal").cell
    w.hover(vidal)
    shown = w.scene.hover_text()
    assert "Hit chance" in shown
    w.click(vidal)
    w.click(vidal)  # the second click confirms
    attacks = [e for e in w.battle.log if e.kind == "attack" and e.data.get("unit") == "Kask"]
    assert len(attacks) == 1
    assert f"Hit chance {attacks[0].data['hit_chance']}%" in shown
    assert attacks[0].rolls[0].target == attacks[0].data["hit_chance"]


def test_a_click_plans_a_move_a_second_click_makes_it_and_the_token_follows(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    to = (13, 16, 0)
    w.hover(to)
    assert "Move: 2 points" in w.scene.hover_text()  # the cell only with Alt held
    w.click(to)
    assert w.battle.sheet("Kask").cell == (11, 14, 0)  # only planned
    w.click(to)
    assert w.battle.sheet("Kask").cell == to
    w.frames(2)
    assert _colour_in(w, to, RAIDERS) > 10


def test_escape_cancels_a_planned_move(make_window: MakeWindow) -> None:
    w = make_window()
    w.click((13, 16, 0))
    w.key(pygame.K_ESCAPE)
    w.click((13, 16, 0))
    assert w.battle.sheet("Kask").cell == (11, 14, 0)
    w.key(pygame.K_SPACE)  # confirms the plan made by the last click
    assert w.battle.sheet("Kask").cell == (13, 16, 0)


def test_enter_ends_the_turn_and_the_computer_plays_until_a_raider_acts_again(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    w.key(pygame.K_RETURN)
    w.settle()
    b = w.battle
    assert any(e.kind == "turn_ended" and e.data["unit"] == "Kask" for e in b.log)
    assert b.over or b.faction_of(b.active or "Kask") == "raiders"


def test_p_turn_1_after_an_attack_the_bar_greys_the_other_actions_with_the_reason(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    w.key(pygame.K_o)  # Dodge
    buttons = {a.kind: (a, b) for a, b in w.scene.bar.buttons}
    action, button = buttons["attack"]
    assert not action.allowed and not button.is_enabled
    assert "already used" in action.why_not
    assert buttons["end_turn"][0].allowed
    assert buttons["crouch"][0].allowed  # the interaction is still free (P-TURN-2)


def test_a_refused_command_is_explained_in_the_status_line_and_changes_nothing(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    before = w.battle.state_hash()
    w.key(pygame.K_v)  # Stand: Kask is already standing
    assert w.battle.state_hash() == before
    assert "Already standing" in w.scene.bar.status.text


def test_right_click_on_a_cell_offers_move_here_which_moves_there(make_window: MakeWindow) -> None:
    w = make_window()
    w.click((12, 16, 0), button=3)
    menu = w.scene.orders.menu
    assert menu is not None
    keys = [key for key, _button in menu.buttons]
    assert "move" in keys
    button = dict(menu.buttons)["move"]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=button.rect.center, button=1))
    w.frames(3)
    assert w.battle.sheet("Kask").cell == (12, 16, 0)


def test_page_up_shows_the_upper_level_where_the_enemies_on_the_gallery_are_drawn(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    assert w.scene.board.level == 0
    w.key(pygame.K_PAGEUP)
    assert w.scene.board.level == 1
    w.frames(1)
    assert _colour_in(w, w.battle.sheet("Vidal").cell, SECURITY) > 10


def test_p_init_4_the_tracker_shows_the_order_without_the_hidden_enemy(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    chips = [chip.unit for chip, _button in w.scene.tracker.chips]
    assert chips[0] == "Kask"
    assert "Bruno" not in chips
    gm = make_window(player=GM)
    assert "Bruno" in [chip.unit for chip, _button in gm.scene.tracker.chips]


def _bo_leaves_adas_reach(make_window: MakeWindow) -> Window:
    """The GM at the window moves Bo (security) out of Ada's reach (the raiders' knife)."""
    units = [
        UnitSpec("Ada", "raiders", (12, 16, 0), weapon="combat_knife"),
        UnitSpec("Bo", "station_security", (13, 16, 0), weapon="pistol"),
    ]
    w = make_window(player=GM, units=units, computer=())
    if w.battle.active == "Ada":
        w.key(pygame.K_RETURN)
    assert w.battle.active == "Bo"
    w.click((16, 16, 0))
    w.click((16, 16, 0))
    return w


def test_p_oa_1_a_unit_leaving_an_enemys_reach_prompts_for_the_reaction_and_n_lets_it_go(
    make_window: MakeWindow,
) -> None:
    """Ada's side is offered the opportunity attack in a prompt; N declines it and Bo's move
    goes on to its end."""
    w = _bo_leaves_adas_reach(make_window)
    b = w.battle
    assert w.scene.prompts.prompt is not None and w.scene.prompts.kind == "reaction"
    assert b.pending is not None and b.pending.reactor == "Ada" and b.pending.kind == "opportunity"
    asked = w.scene.prompts.prompt.text.html_text
    assert "Ada" in asked and "P-OA-1" in asked
    w.key(pygame.K_n)
    assert w.scene.prompts.prompt is None and b.pending is None
    assert any(e.kind == "reaction_declined" for e in b.log)
    assert b.sheet("Bo").cell == (16, 16, 0)


def test_p_oa_1_y_takes_the_offered_reaction_and_the_attack_is_rolled(
    make_window: MakeWindow,
) -> None:
    w = _bo_leaves_adas_reach(make_window)
    w.key(pygame.K_y)
    attacks = [e for e in w.battle.log if e.kind == "reaction_attack"]
    assert len(attacks) == 1 and attacks[0].data["unit"] == "Ada"


def test_every_log_event_reaches_the_log_panel_and_copy_text(make_window: MakeWindow) -> None:
    w = make_window()
    w.click((13, 16, 0))
    w.click((13, 16, 0))
    text = w.scene.log_text()
    assert "Kask moves (11, 14, 0) → (13, 16, 0): 2 points (2 this turn)" in text
    assert "P-MOV-1" in text


def test_the_log_filter_keeps_only_the_chosen_kind_of_event(make_window: MakeWindow) -> None:
    w = make_window()
    w.click((13, 16, 0))
    w.click((13, 16, 0))
    w.scene.log.set_filter("movement")
    w.scene.log.show(w.scene.side)
    shown = w.scene.side.text("log")
    assert "Kask moves" in shown
    assert "rolls initiative" not in shown


def test_a_whole_demo_battle_is_played_to_its_end_with_mouse_and_keys_alone(
    make_window: MakeWindow,
) -> None:
    """The raiders' player: attack the enemy with the best chance shown, else end the turn."""
    w = make_window()
    b = w.battle
    for _ in range(400):
        w.settle()
        if b.over:
            break
        if w.scene.prompts.prompt is not None:
            w.key(pygame.K_y)
            continue
        unit = b.active
        assert unit is not None and b.faction_of(unit) == "raiders"
        target = _best_target(w, unit)
        if target is not None:
            w.click(target)
            w.click(target)
        w.key(pygame.K_RETURN)
    assert b.over


def _best_target(w: Window, unit: str) -> tuple[int, int, int] | None:
    """The enemy whose shown hit chance is highest (read from the window's own hover text)."""
    best: tuple[int, tuple[int, int, int]] | None = None
    for u in w.scene.view.units:
        if u.own or "dead" in u.wounds.get("conditions", ()):
            continue
        w.hover(u.cell)
        text = w.scene.hover_text()
        if "Hit chance " in text:
            p = int(text.split("Hit chance ")[1].split("%")[0])
            if best is None or p > best[0]:
                best = (p, u.cell)
    return None if best is None else best[1]


def test_commands_given_through_the_window_are_the_battles_own(make_window: MakeWindow) -> None:
    w = make_window()
    w.key(pygame.K_r)  # Dash
    assert isinstance(w.session.history[-1].command, cmd.Dash)
    assert w.session.history[-1].by == "player"


def test_escape_with_nothing_to_cancel_offers_to_leave_and_back_to_the_title_leaves(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    left: list[str] = []

    class Director:
        def leave(self) -> None:
            left.append("title")

        def quit(self) -> None:
            left.append("quit")

    w.scene.director = Director()
    w.key(pygame.K_ESCAPE)
    assert w.scene.prompts.prompt is not None and w.scene.prompts.kind == "pause"
    w.key(pygame.K_ESCAPE)  # Esc again: back to the battle
    assert w.scene.prompts.prompt is None and left == []
    w.key(pygame.K_ESCAPE)
    w.scene.answer("title")
    assert left == ["title"]


def test_the_saves_list_knows_the_round_after_every_command_made_at_the_window(
    tmp_path: Path,
) -> None:
    from game.app.saves import read_save
    from game.battle.session import Session
    from game.battle.setup import setup_from_map
    from game.maps import load_map
    from game.ui.app import App
    from game.ui.battle.scene import BattleScene
    from tests.ui.conftest import STATION

    loaded = load_map(STATION)
    setup = setup_from_map(
        loaded, seed=1, computer=("station_security",), players={"player": ("raiders",)}
    )
    journal = tmp_path / "battle.jsonl"
    session = Session.new(setup, journal)
    app = App((1280, 720))
    try:
        scene = BattleScene(app.size, session, "player", loaded.render, animation_speed=0)
        app.show(scene)
        scene.submit(cmd.EndTurn("Kask"))
        for _ in range(400):  # the computer plays until a raider acts
            app.step(1 / 60)
            if session.battle.faction_of(session.battle.active or "Kask") == "raiders":
                break
        app.step(1 / 60)
        info = read_save(journal)
        assert info.round == session.battle.round
        assert info.active == session.battle.active
    finally:
        session.close()
        pygame.quit()
