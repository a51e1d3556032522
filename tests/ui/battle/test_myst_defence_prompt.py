"""The Myst defence prompt's closed defence (game/ui/battle/prompts.py; 002:l.81-83, 137): the
acting unit's *Counter-moves…* prompt offers closing into defence after the standing plans; the
choice reaches the battle's journal as `close_defence`, which gives up the turn's attack. The
window computes nothing: the battle refuses it once the attack is spent."""

from __future__ import annotations

import pygame

from game.battle import commands as cmd
from game.battle.setup import UnitSpec
from game.rules.myst.data import Sheet
from game.text import i18n
from tests.ui.conftest import MakeWindow, Window


def _prompt(make_window: MakeWindow) -> Window:
    units = [
        UnitSpec("Kask", "raiders", (12, 16, 0), template="station_guard"),
        UnitSpec("Vidal", "station_security", (14, 16, 0), template="human"),
    ]
    # The computer plays station security; with seed 2 Kask's priority comes first (M-2).
    w = make_window(units=units, ruleset="myst", seed=2)
    assert w.battle.active == "Kask"
    w.click((12, 16, 0), button=3)
    menu = w.scene.orders.menu
    assert menu is not None
    button = dict(menu.buttons)["defence_plan"]
    pos = button.rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    w.frames(3)
    assert w.scene.prompts.kind == "defence"
    return w


def test_m1_the_ninth_answer_closes_the_unit_into_defence_in_the_journal(
    make_window: MakeWindow,
) -> None:
    w = _prompt(make_window)
    prompt = w.scene.prompts.prompt
    assert prompt is not None
    assert prompt.buttons[-1][1].text == "9. close into defence (gives up this turn's attack)"
    w.key(pygame.K_9)
    w.frames(3)
    assert w.session.history[-1].command == cmd.CloseDefence("Kask")
    sheet = w.battle.sheet("Kask").sheet
    assert isinstance(sheet, Sheet) and sheet.closed_defence
    assert w.battle.turn("Kask").action == "close_defence" and w.battle.active == "Kask"


def test_m1_closing_after_the_attack_is_refused_and_said_on_the_status_line(
    make_window: MakeWindow,
) -> None:
    w = _prompt(make_window)
    w.key(pygame.K_9)
    w.frames(3)
    before = len(w.session.history)
    w.click((12, 16, 0), button=3)  # again: the action is gone
    menu = w.scene.orders.menu
    assert menu is not None
    w.scene.orders.menu_choice("defence_plan")
    w.frames(2)
    w.key(pygame.K_9)
    w.frames(3)
    assert len(w.session.history) == before  # refused: nothing journaled
    assert w.scene.status  # the refusal in words


def test_m1_the_closed_defence_answer_speaks_italian(make_window: MakeWindow) -> None:
    i18n.set_language("it")
    try:
        w = _prompt(make_window)
        prompt = w.scene.prompts.prompt
        assert prompt is not None
        assert prompt.buttons[-1][1].text == (
            "9. chiudersi in difesa (rinuncia all'attacco di questo turno)"
        )
    finally:
        i18n.set_language(None)
