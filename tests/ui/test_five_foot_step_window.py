"""The d20 5-foot step in the window (D-2): the bar and the board's right-click menu offer it
only where the ruleset's turn budget has it; aimed with its key and a cell, given with a
second click; afterwards the bar greys it and the move with the reason."""

from __future__ import annotations

import pygame

from tests.ui.conftest import MakeWindow, Window


def _raider_acting(w: Window) -> str:
    for _ in range(300):  # the computer plays station security's turns until a raider acts
        if w.battle.active is not None and w.battle.faction_of(w.battle.active) == "raiders":
            break
        w.frames(1)
    unit = w.battle.active
    assert unit is not None and w.battle.faction_of(unit) == "raiders"
    return unit


def test_the_bar_offers_the_5_foot_step_under_d20_only(make_window: MakeWindow) -> None:
    plain = make_window()
    assert "five_foot_step" not in {a.kind for a, _b in plain.scene.bar.buttons}
    w = make_window(ruleset="d20")
    _raider_acting(w)
    buttons = {a.kind: a for a, _b in w.scene.bar.buttons}
    assert buttons["five_foot_step"].allowed


def test_d2_the_5_foot_step_is_aimed_with_its_key_given_with_a_click_then_greyed(
    make_window: MakeWindow,
) -> None:
    w = make_window(ruleset="d20")
    unit = _raider_acting(w)
    start = w.battle.sheet(unit).cell
    to = w.battle.five_foot_step_cells(unit)[0]
    w.key(pygame.K_b)
    w.click(to)
    w.click(to)
    w.frames(5)
    assert w.battle.sheet(unit).cell == to != start
    assert any(e.kind == "five_foot_step" and e.data["unit"] == unit for e in w.battle.log)
    buttons = {a.kind: a for a, _b in w.scene.bar.buttons}
    for kind in ("five_foot_step", "move"):
        assert not buttons[kind].allowed and "5-foot step" in buttons[kind].why_not


def test_d2_right_click_on_a_cell_offers_a_5_foot_step_there(make_window: MakeWindow) -> None:
    w = make_window(ruleset="d20")
    unit = _raider_acting(w)
    to = w.battle.five_foot_step_cells(unit)[0]
    w.click(to, button=3)
    menu = w.scene.orders.menu
    assert menu is not None
    button = dict(menu.buttons)["five_foot_step"]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=button.rect.center, button=1))
    w.frames(5)
    assert w.battle.sheet(unit).cell == to
