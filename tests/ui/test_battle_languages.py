"""The battle screen speaks Italian everywhere: its widgets, previews, prompts, the GM's tools,
the hand-over screen's words; a string left in English is listed by name."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.battle import commands as cmd
from game.battle.engine import GM
from game.battle.setup import UnitSpec
from game.text import i18n
from game.ui.hud import widget_texts
from tests.ui.conftest import MakeWindow, Window

CATALOGUE = Path(__file__).resolve().parents[2] / "game/text/locale/it/LC_MESSAGES/tessera.po"


def _english_fragments() -> set[str]:
    """The English texts (the parts between placeholders) whose Italian is different: any of
    them on the screen while the game speaks Italian is a string left untranslated."""
    text = CATALOGUE.read_text(encoding="utf-8")
    pairs = re.findall(r'^msgid "(.+)"\nmsgstr "(.*)"$', text, re.M)
    fragments = set()
    for english, italian in pairs:
        if english == italian:
            continue
        for part in re.split(r"\{[^}]*\}", english):
            part = part.strip(" :;,.()—-")
            if len(part) >= 12:  # short words ("Move") also read as parts of Italian names
                fragments.add(part)
    return fragments


def _untranslated(window: Window, where: str, fragments: set[str]) -> list[str]:
    found = []
    for shown in widget_texts(window.scene.ui):
        found += [f"{where}: {f!r} in {shown[:60]!r}" for f in fragments if f in shown]
    return found


@pytest.fixture
def italian() -> Iterator[None]:
    i18n.set_language("it")
    yield
    i18n.set_language(None)


def test_every_state_of_the_battle_screen_is_in_italian(
    make_window: MakeWindow, italian: None
) -> None:
    fragments = _english_fragments()
    problems: list[str] = []
    w = make_window()
    problems += _untranslated(w, "opening", fragments)
    w.hover(w.battle.sheet("Vidal").cell)
    problems += _untranslated(w, "hovering an enemy", fragments)
    w.hover((13, 16, 0))
    problems += _untranslated(w, "hovering a cell", fragments)
    w.click((13, 16, 0), button=3)
    problems += _untranslated(w, "context menu", fragments)
    w.key(pygame.K_ESCAPE)
    w.key(pygame.K_ESCAPE)
    problems += _untranslated(w, "pause", fragments)
    w.key(pygame.K_ESCAPE)
    w.key(pygame.K_o)  # dodge: the bar greys the other actions with their reasons
    problems += _untranslated(w, "action used", fragments)
    gm = make_window(player=GM, gm=True)
    gm.take_screen()
    problems += _untranslated(gm, "GM tools", fragments)
    gm.scene.submit(cmd.Improvise("Kask", "kick the crate"))
    gm.frames(3)
    problems += _untranslated(gm, "ruling prompt", fragments)
    units = [
        UnitSpec("Ada", "raiders", (12, 16, 0), weapon="combat_knife"),
        UnitSpec("Bo", "station_security", (13, 16, 0), weapon="pistol"),
    ]
    r = make_window(player=GM, units=units, computer=())
    if r.battle.active == "Ada":
        r.key(pygame.K_RETURN)
    r.click((16, 16, 0))
    r.click((16, 16, 0))
    problems += _untranslated(r, "reaction prompt", fragments)
    assert r.scene.prompts.prompt is not None  # the prompt was there to be read
    assert problems == []


def test_the_battle_screen_says_its_words_in_italian_not_english(
    make_window: MakeWindow, italian: None
) -> None:
    w = make_window()
    texts = " ".join(widget_texts(w.scene.ui))
    assert "Fine turno" in texts and "End turn" not in texts
    assert "Tutta la mappa" in texts
