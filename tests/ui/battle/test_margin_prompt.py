"""The margin prompt (game/ui/battle/prompts.py, Myst M-1): after a hit with a margin the player
sees the battle's plans with their numbers and picks one by key or by mouse; the choice reaches
the battle's journal as a `spend_margin` command. The window computes nothing: the plans and
their damage are the battle's (`Battle.damage_choice`)."""

from __future__ import annotations

import pygame

from game.battle import commands as cmd
from game.battle.engine import GM
from game.battle.setup import UnitSpec
from game.text import i18n
from tests.ui.conftest import MakeWindow, Window

#: 002:l.44's exchange: 45 + 5 + 6 + 6 = 62 against 32 + 4 + 5 + 5 = 46, margin 16 (three
#: units); the spada's 1d8 shows 1. Kask is the sample `soldato` (Strength 30: cap +1), Vidal
#: the `popolano` (Status Globale 22).
SEED_DICE = (5, 6, 6, 4, 5, 5, 1)


def _kask_hits_vidal(make_window: MakeWindow) -> Window:
    units = [
        UnitSpec("Kask", "raiders", (12, 16, 0), template="station_guard"),
        UnitSpec("Vidal", "station_security", (13, 16, 0), template="human"),
    ]
    # The computer plays station security; with seed 2 Kask's priority comes first (M-2).
    w = make_window(units=units, ruleset="myst", seed=2)
    assert w.battle.active == "Kask"
    assert w.session.submit(cmd.EnterRoll(SEED_DICE), GM).accepted
    w.click((13, 16, 0))
    w.click((13, 16, 0))
    for _ in range(200):
        if w.scene.prompts.kind == "margin":
            break
        w.frames(1)
    return w


def test_m1_a_hit_with_a_margin_asks_its_player_with_the_battles_plans(
    make_window: MakeWindow,
) -> None:
    w = _kask_hits_vidal(make_window)
    attack = w.session.history[-1].command
    assert attack == cmd.Attack("Kask", "Vidal", margin="ask")
    prompt = w.scene.prompts.prompt
    assert prompt is not None and w.scene.prompts.kind == "margin"
    assert "Kask" in prompt.text.html_text and "3" in prompt.text.html_text
    labels = [button.text for _key, button in prompt.buttons]
    # The battle's four plans, most damage first (tests/battle/test_combat.py works them out).
    assert labels == [
        "1. +1 damage (Strength, cap 1), die minimum 2: 3 damage",
        "2. +1 damage (Strength, cap 1): 2 damage",
        "3. nothing spent: 1 damage",
        "4. the die reduced by 1: 0 damage",
    ]
    # Nothing else may be done meanwhile, and Esc does not put the question away.
    w.key(pygame.K_ESCAPE)
    assert w.scene.prompts.kind == "margin" and w.battle.margin_waiting() == "Kask"


def test_m1_the_number_key_spends_the_margin_and_the_journal_has_it(
    make_window: MakeWindow,
) -> None:
    w = _kask_hits_vidal(make_window)
    w.key(pygame.K_2)
    w.frames(5)
    assert w.scene.prompts.prompt is None and w.battle.margin_waiting() is None
    assert w.session.history[-1].command == cmd.SpendMargin("Kask", strength=1)
    damage = [e.data["damage"] for e in w.battle.log if e.kind == "damage"]
    assert damage == [2]


def test_m1_a_click_on_a_plan_spends_the_margin(make_window: MakeWindow) -> None:
    w = _kask_hits_vidal(make_window)
    prompt = w.scene.prompts.prompt
    assert prompt is not None
    button = prompt.buttons[0][1]
    pos = button.rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    w.frames(5)
    assert w.session.history[-1].command == cmd.SpendMargin("Kask", strength=1, minimum=2)
    assert [e.data["damage"] for e in w.battle.log if e.kind == "damage"] == [3]


def test_m1_the_margin_prompt_speaks_italian(make_window: MakeWindow) -> None:
    i18n.set_language("it")
    try:
        w = _kask_hits_vidal(make_window)
        prompt = w.scene.prompts.prompt
        assert prompt is not None
        assert "unità di scarto" in prompt.text.html_text
        assert (
            prompt.buttons[0][1].text
            == "1. +1 danni (Forza, massimo 1), minimo del dado 2: 3 danni"
        )
    finally:
        i18n.set_language(None)


def _press(button: object) -> None:
    pos = button.rect.center  # type: ignore[attr-defined]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def test_m1_the_acting_units_menu_sets_its_standing_counter_moves_into_the_journal(
    make_window: MakeWindow,
) -> None:
    # The defender is not at the screen when it is attacked: its player sets on its own turn
    # which counter-moves a won defence takes (002:l.76-79), from its right-click menu.
    units = [
        UnitSpec("Kask", "raiders", (12, 16, 0), template="station_guard"),
        UnitSpec("Vidal", "station_security", (13, 16, 0), template="human"),
    ]
    w = make_window(units=units, ruleset="myst", seed=2)
    assert w.battle.active == "Kask"
    w.click((12, 16, 0), button=3)
    menu = w.scene.orders.menu
    assert menu is not None and "defence_plan" in dict(menu.buttons)
    _press(dict(menu.buttons)["defence_plan"])
    w.frames(3)
    prompt = w.scene.prompts.prompt
    assert prompt is not None and w.scene.prompts.kind == "defence"
    assert [b.text for _k, b in prompt.buttons] == [
        "1. first: counterattack",
        "2. first: no -20 on the next defence this round",
        "3. first: break off",
        "4. first: Priority next round",
        # the counterattack's other forms (002:l.97-109): one counterattack a defence
        "5. first: push",
        "6. first: trip",
        "7. first: grab",
        "8. keep the margins",
        "9. close into defence (gives up this turn's attack)",  # 002:l.81-83, 137
    ]
    w.key(pygame.K_4)
    w.frames(3)
    assert w.session.history[-1].command == cmd.DefencePlan(
        "Kask",
        ("priority", "counterattack", "cancel_penalty", "break_off", "push", "trip", "grab"),
    )
    assert w.battle.active == "Kask"  # it costs nothing


def test_periferie_offers_no_counter_moves_in_the_menu(make_window: MakeWindow) -> None:
    w = make_window()
    w.click(w.battle.sheet("Kask").cell, button=3)
    menu = w.scene.orders.menu
    assert menu is not None and "defence_plan" not in dict(menu.buttons)
