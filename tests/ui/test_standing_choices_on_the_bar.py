"""The action bar shows a Cepheus unit's standing choices as they are now (issue 15/17): the
reaction stance's button says when the unit dodges or parries (always, after its turn, never)
and the fire mode's whether it fires bursts, read from the battle (Option.now), not only the log
line after a change; B and Z change them and the label follows. maps/station_interior.tmx,
seed 1, the computer plays station security."""

from __future__ import annotations

import pygame
import pytest

from game.battle.setup import UnitSpec
from game.text import i18n
from game.ui import hud
from tests.ui.conftest import MakeWindow, Window


def _raider_acts(w: Window) -> str:
    for _ in range(300):  # the computer plays station security until a raider acts
        active = w.battle.active
        if active is not None and w.battle.faction_of(active) == "raiders":
            return active
        w.frames(1)
    raise AssertionError("no raider's turn")


def _label(w: Window, kind: str) -> str:
    """The button's text as drawn (with its key when the bar has room for it)."""
    for action, button in w.scene.bar.buttons:
        if action.kind == kind:
            assert button.text in (action.label, action.short)
            return action.short
    raise AssertionError(f"no {kind} button")


def _duel(make_window: MakeWindow, weapon: str = "smg") -> Window:
    """Kask (a scavenger, the sample SMG fires bursts) and Vidal 4 cells east in the open."""
    return make_window(
        ruleset="cepheus",
        units=[
            UnitSpec("Kask", "raiders", (11, 14, 0), template="scavenger", weapon=weapon),
            UnitSpec("Vidal", "station_security", (15, 14, 0), template="station_guard",
                     weapon="pistol"),
        ],
    )  # fmt: skip


def test_b_cycles_the_reaction_stance_and_its_button_says_the_value_now(
    make_window: MakeWindow,
) -> None:
    w = make_window(ruleset="cepheus")
    _raider_acts(w)
    w.frames(2)
    # a Tempo starts at "always"; B: always -> after acting -> never -> always (C-4)
    seen = [_label(w, "react_stance")]
    for _ in range(3):
        w.key(pygame.K_b)
        w.frames(3)
        seen.append(_label(w, "react_stance"))
    assert seen == [
        "Dodge: always",
        "Dodge: after turn",
        "Dodge: never",
        "Dodge: always",
    ]


def test_z_turns_bursts_on_and_off_and_its_button_says_so(make_window: MakeWindow) -> None:
    w = _duel(make_window)
    assert _raider_acts(w) == "Kask"
    w.frames(2)
    seen = [_label(w, "fire_mode")]
    for _ in range(2):
        w.key(pygame.K_z)
        w.frames(3)
        seen.append(_label(w, "fire_mode"))
    assert seen == ["Bursts: off", "Bursts: on", "Bursts: off"]
    # the key is on the button too, where the bar has room for it
    button = next(b for a, b in w.scene.bar.buttons if a.kind == "fire_mode")
    assert button.text in ("Bursts: off", "Bursts: off (Z)")


def test_a_weapon_without_bursts_keeps_the_plain_greyed_button(make_window: MakeWindow) -> None:
    w = _duel(make_window, weapon="pistol")
    assert _raider_acts(w) == "Kask"
    w.frames(2)
    action = next(a for a, _b in w.scene.bar.buttons if a.kind == "fire_mode")
    assert action.short == "Bursts on-off" and not action.allowed


def test_the_right_click_menu_on_the_acting_unit_says_the_values_too(
    make_window: MakeWindow,
) -> None:
    w = _duel(make_window)
    assert _raider_acts(w) == "Kask"
    w.key(pygame.K_z)
    w.frames(3)
    w.click(w.battle.sheet("Kask").cell, button=3)
    menu = w.scene.orders.menu
    assert menu is not None
    texts = [label for label, *_rest in menu.items]
    assert "Bursts: on" in texts and "Dodge: always" in texts


def test_the_values_are_said_in_italian(make_window: MakeWindow) -> None:
    with i18n.speaking("it"):
        w = _duel(make_window)
        assert _raider_acts(w) == "Kask"
        w.key(pygame.K_z)
        w.frames(3)
        w.key(pygame.K_b)
        w.frames(3)
        assert _label(w, "fire_mode") == "Raffiche: sì"
        assert _label(w, "react_stance") == "Schiva: dopo"


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("size", [(1280, 720), (1228, 648)])  # 1228x648: a 1280x720 display
def test_every_value_is_shown_whole_on_the_bar_at_1280x720(
    make_window: MakeWindow, language: str, size: tuple[int, int]
) -> None:
    # issue 17: no label cut at 1280x720, in Italian too; `_label` fails on an ellipsis
    with i18n.speaking(language):
        w = _duel(make_window)
        _raider_acts(w)
        pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
        w.frames(3)
        shown = set()
        for key in (pygame.K_b, pygame.K_b, pygame.K_b, pygame.K_z, pygame.K_z):
            shown |= {_label(w, "react_stance"), _label(w, "fire_mode")}
            w.key(key)
            w.frames(3)
        assert len(shown) == 5  # three stances, bursts on and off
        assert hud.cut_labels(w.scene.ui) == []
