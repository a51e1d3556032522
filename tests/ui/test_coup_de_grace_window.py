"""The d20 coup de grâce in the window (004:l.114): a bar button (key K) and an item of the
board's right-click menu on an enemy, only where the ruleset's turn budget has it; aimed at an
enemy that is not helpless, the window says why instead of aiming it."""

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


def _seen_enemy(w: Window, unit: str) -> str | None:
    seen = w.battle.vision.factions[w.battle.faction_of(unit)].units
    return next(
        (
            e.id
            for e in w.battle.bf.entities
            if e.id in seen and e.faction != w.battle.faction_of(unit)
        ),
        None,
    )


def test_the_bar_offers_the_coup_de_grace_under_d20_only(make_window: MakeWindow) -> None:
    plain = make_window()
    assert "coup_de_grace" not in {a.kind for a, _b in plain.scene.bar.buttons}
    w = make_window(ruleset="d20")
    _raider_acting(w)
    assert "coup_de_grace" in {a.kind for a, _b in w.scene.bar.buttons}


def test_004_l114_aimed_at_an_enemy_not_helpless_the_window_says_why(
    make_window: MakeWindow,
) -> None:
    w = make_window(ruleset="d20")
    unit = _raider_acting(w)
    enemy = _seen_enemy(w, unit)
    if enemy is None:
        return  # nobody in sight on this map's first raider turn: nothing to aim at
    w.key(pygame.K_k)
    w.click(w.battle.sheet(enemy).cell)
    w.frames(2)
    assert w.scene.orders.plan is None
    assert "helpless" in w.scene.status or "reach" in w.scene.status
    w.click(w.battle.sheet(enemy).cell, button=3)
    menu = w.scene.orders.menu
    assert menu is not None and "coup_de_grace" in dict(menu.buttons)
