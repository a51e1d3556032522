"""Cepheus's suppression fire and aiming to kill on the board's right-click menu (000:l.89, 317;
no letter key is left for them): over an enemy the menu offers "Suppress …" and "Aim to kill …",
and choosing one journals an attack with `suppress` or an aim with `kill`; periferie's menu has
no such item. maps/station_interior.tmx, seed 1, the computer
plays station security."""

from __future__ import annotations

from game.battle.setup import UnitSpec
from tests.ui.conftest import MakeWindow, Window


def _raider_acts(w: Window) -> str:
    for _ in range(300):  # the computer plays station security until a raider acts
        active = w.battle.active
        if active is not None and w.battle.faction_of(active) == "raiders":
            return active
        w.frames(1)
    raise AssertionError("no raider's turn")


def _duel(make_window: MakeWindow, ruleset: str) -> Window:
    """Kask (a scavenger with the sample SMG) and Vidal 4 cells east in the open."""
    return make_window(
        ruleset=ruleset,
        units=[
            UnitSpec("Kask", "raiders", (11, 14, 0), template="scavenger", weapon="smg"),
            UnitSpec("Vidal", "station_security", (15, 14, 0), template="station_guard",
                     weapon="pistol"),
        ],
    )  # fmt: skip


def test_the_menu_over_an_enemy_offers_suppression_and_it_is_journaled(
    make_window: MakeWindow,
) -> None:
    w = _duel(make_window, "cepheus")
    assert _raider_acts(w) == "Kask"
    w.frames(2)
    w.click(w.battle.sheet("Vidal").cell, button=3)
    menu = w.scene.orders.menu
    assert menu is not None
    items = {label: (key, allowed) for label, key, allowed, _why in menu.items}
    assert items["Suppress Vidal"] == ("suppress", True)
    w.scene.orders.menu_choice("suppress")
    w.frames(5)
    fired = [e for e in w.battle.log if e.kind == "suppression_fire"]
    assert [(e.data["unit"], e.data["target"]) for e in fired] == [("Kask", "Vidal")]


def test_periferie_offers_no_suppression(make_window: MakeWindow) -> None:
    w = _duel(make_window, "periferie")
    assert _raider_acts(w) == "Kask"
    w.frames(2)
    w.click(w.battle.sheet("Vidal").cell, button=3)
    menu = w.scene.orders.menu
    assert menu is not None
    assert all(key != "suppress" for _label, key, _allowed, _why in menu.items)


def test_the_menu_over_an_enemy_aims_and_aims_to_kill(make_window: MakeWindow) -> None:
    # 000:l.87-91: both aims are offered on the menu and given as the Aim command.
    w = _duel(make_window, "cepheus")
    assert _raider_acts(w) == "Kask"
    w.frames(2)
    w.click(w.battle.sheet("Vidal").cell, button=3)
    menu = w.scene.orders.menu
    assert menu is not None
    items = {label: key for label, key, _allowed, _why in menu.items}
    assert items["Aim at Vidal"] == "aim" and items["Aim to kill Vidal"] == "aim_kill"
    w.scene.orders.menu_choice("aim_kill")
    w.frames(5)
    aimed = [e.data for e in w.battle.log if e.kind == "aimed"]
    assert aimed == [{"unit": "Kask", "target": "Vidal", "kill": True}]
