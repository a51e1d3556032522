"""Myst's counters in the window (docs/window.md): the bar offers standing up and breaking a
grab (greyed, with the battle's reason, when the unit is in none) and no other stance; G breaks
the grab. maps/station_interior.tmx, seed 2, the computer plays station security."""

from __future__ import annotations

import pygame

from game.battle import commands as cmd
from game.battle.setup import UnitSpec
from tests.ui.conftest import MakeWindow


def test_myst_bar_has_stand_and_break_the_grab_greyed_outside_a_grab(
    make_window: MakeWindow,
) -> None:
    units = [
        UnitSpec("Kask", "raiders", (12, 16, 0), template="station_guard"),
        UnitSpec("Vidal", "station_security", (13, 16, 0), template="human"),
    ]
    w = make_window(units=units, ruleset="myst", seed=2)
    assert w.battle.active == "Kask"
    actions = {a.kind: a for a, _b in w.scene.bar.buttons}
    assert "crouch" not in actions and "prone" not in actions  # not Myst's
    assert actions["break_grab"].short == "Break the grab" and not actions["break_grab"].allowed
    assert not actions["stand"].allowed  # standing already
    w.key(pygame.K_g)  # refused before it is sent: nothing in the journal
    w.frames(2)
    assert not any(isinstance(h.command, cmd.BreakGrab) for h in w.session.history)
    assert "Kask is in no grab." in w.scene.status
