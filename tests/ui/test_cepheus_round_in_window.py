"""Cepheus's round commands in the window (C-1, C-4): the action bar offers aim, act hastily,
delay, the reaction stance and the fire mode under Cepheus only; their keys give them; aiming
is a key then two clicks on an enemy; the initiative tracker shows the scores as they change.
maps/station_interior.tmx, seed 1, the computer plays station security."""

from __future__ import annotations

import pygame
import pytest

from game.battle import preview
from game.battle.setup import UnitSpec
from game.ecs.components import RulesetSheet
from game.text import explain, i18n
from game.ui import hud
from tests.ui.conftest import MakeWindow, Window

ROUND_KINDS = ("aim", "hasty", "delay", "react_stance", "fire_mode")


def _raider_acts(w: Window) -> str:
    for _ in range(300):  # the computer plays station security until a raider acts
        active = w.battle.active
        if active is not None and w.battle.faction_of(active) == "raiders":
            return active
        w.frames(1)
    raise AssertionError("no raider's turn")


def _bar_kinds(w: Window) -> set[str]:
    return set(w.scene.orders.options)


def _chips(w: Window) -> list[str]:
    return [chip.text for chip, _button in w.scene.tracker.chips]


def test_the_bar_offers_the_round_commands_under_cepheus_only(make_window: MakeWindow) -> None:
    w = make_window(ruleset="cepheus")
    _raider_acts(w)
    w.frames(2)
    assert set(ROUND_KINDS) <= _bar_kinds(w)
    plain = make_window()
    plain.frames(2)
    assert not set(ROUND_KINDS) & _bar_kinds(plain)


def _duel(make_window: MakeWindow) -> Window:
    """Kask (a scavenger with the sample SMG, automatic) and Vidal 4 cells east in the open."""
    return make_window(
        ruleset="cepheus",
        units=[
            UnitSpec("Kask", "raiders", (11, 14, 0), template="scavenger", weapon="smg"),
            UnitSpec("Vidal", "station_security", (15, 14, 0), template="station_guard",
                     weapon="pistol"),
        ],
    )  # fmt: skip


def test_aim_is_a_key_then_two_clicks_on_an_enemy_and_the_breakdown_shows_it(
    make_window: MakeWindow,
) -> None:
    w = _duel(make_window)
    assert _raider_acts(w) == "Kask"
    w.key(pygame.K_g)
    assert w.scene.orders.targeting == "aim"
    w.click(w.battle.sheet("Vidal").cell)
    w.click(w.battle.sheet("Vidal").cell)
    w.frames(5)
    aimed = [e for e in w.battle.log if e.kind == "aimed"]
    assert aimed and aimed[-1].data == {"unit": "Kask", "target": "Vidal"}
    # the aimed attack's chance breakdown names the aim (000:l.87)
    shot = preview.attack(w.battle, "player", "Kask", "Vidal")
    assert shot is not None
    assert ("dm_aim", 1) in [(m.code, m.value) for m in shot.attack.modifiers]
    assert any("aim DM +1" in line for line in explain.attack_lines(shot.attack))


def test_the_fire_mode_key_turns_an_automatic_weapons_bursts_on(make_window: MakeWindow) -> None:
    w = _duel(make_window)
    _raider_acts(w)
    w.key(pygame.K_z)
    w.frames(3)
    assert w.battle.world.get("Kask", RulesetSheet).sheet.tempo.burst
    shot = preview.attack(w.battle, "player", "Kask", "Vidal")
    assert shot is not None and ("dm_burst", 1) in [
        (m.code, m.value) for m in shot.attack.modifiers
    ]


def test_hasty_and_the_reaction_stance_are_one_key_each(make_window: MakeWindow) -> None:
    w = make_window(ruleset="cepheus")
    unit = _raider_acts(w)
    w.key(pygame.K_j)
    w.frames(3)
    w.key(pygame.K_b)
    w.frames(3)
    kinds = [e.kind for e in w.battle.log if e.data.get("unit") == unit]
    assert "hasty" in kinds and "react_stance" in kinds
    tempo = w.battle.world.get(unit, RulesetSheet).sheet.tempo
    assert tempo.hasty_next and tempo.react == "after_acting"


def test_delay_shows_the_units_new_score_in_the_tracker(make_window: MakeWindow) -> None:
    w = make_window(ruleset="cepheus")
    unit = _raider_acts(w)
    w.frames(2)
    before = dict(w.scene.view.order)[unit]
    w.key(pygame.K_y)  # Y holds the turn, as periferie's ready (L reloads, H helps)
    w.frames(5)
    delayed = [e for e in w.battle.log if e.kind == "delayed"]
    assert delayed and delayed[-1].data["unit"] == unit
    after = delayed[-1].data["after"]
    assert after is not None  # another unit still had to act this round
    # C-1/l.186: it acts right after that unit, at its score; the tracker shows the new one.
    now = w.battle.initiative.entry(unit)
    assert now is not None and now.total == w.battle.initiative.entry(after).total < before
    assert dict(w.scene.view.order)[unit] == now.total
    assert f"{unit} {now.total}" in _chips(w)


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("size", [(1280, 720), (800, 560)])
def test_the_round_commands_labels_are_not_cut_on_the_bar(
    make_window: MakeWindow, language: str, size: tuple[int, int]
) -> None:
    with i18n.speaking(language):
        w = make_window(ruleset="cepheus")
        _raider_acts(w)
        pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
        w.frames(3)
        assert {a.kind for a, _button in w.scene.bar.buttons} >= set(ROUND_KINDS)
        assert hud.cut_labels(w.scene.ui) == []
