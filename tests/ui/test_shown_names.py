"""Issue 17, words: what the screens show names things for players — no raw id
(`station_security`, `combat_knife`), no Italian rule term in the English interface and no
English item name in the Italian one — on the battle screen through a turn and on the menus."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game.app.settings import Settings
from game.rules.checknames import ALL as CHECKS
from game.rules.data import DAMAGE_TYPES, load_rules
from game.text import i18n
from game.text.names import side_name
from game.ui.app import App
from game.ui.hud import widget_texts
from game.ui.launch import DEMO_MAP, Director, WindowOptions
from game.ui.menus.new_battle import NewBattleScene
from tests.ui.conftest import MakeWindow, Window

#: A snake_case id: the journal's words, never a player's.
RAW_ID = re.compile(r"\b[a-z]+_[a-z_]+\b")


def _wrong_terms(language: str) -> set[str]:
    """Words that must not be on screen in `language`."""
    rules = load_rules("periferie")
    if language == "en":
        return {*DAMAGE_TYPES, *CHECKS, "gravità"}
    english_items = {w.name for w in rules.weapons.values()}
    english_items |= {a.name for a in rules.armour.values()}
    english_items |= {t.name for t in rules.damage_types.values()}
    with i18n.speaking("en"):
        from game.text.names import check_name

        english_items |= {check_name(c) for c in CHECKS}
    return english_items


def _problems(where: str, texts: list[str], language: str) -> list[str]:
    found = []
    wrong = _wrong_terms(language)
    for text in texts:
        plain = re.sub(r"<[^>]*>", " ", text)
        found += [f"{where}: raw id {m!r} in {plain[:80]!r}" for m in RAW_ID.findall(plain)]
        found += [
            f"{where}: {term!r} in {plain[:80]!r}"
            for term in wrong
            if re.search(rf"(?<![\w']){re.escape(term)}(?!\w)", plain)
        ]
    return found


def _shown(w: Window) -> list[str]:
    return [*widget_texts(w.scene.ui), w.scene.hover_text()]


@pytest.fixture(params=["en", "it"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language(None)


def test_the_battle_screen_shows_no_raw_id_nor_a_term_of_the_other_language(
    make_window: MakeWindow, language: str
) -> None:
    w = make_window()
    problems = _problems("opening", _shown(w), language)
    kask = w.battle.sheet("Kask").cell
    w.hover(kask)
    problems += _problems("own unit", _shown(w), language)
    vidal = w.battle.sheet("Vidal").cell
    w.hover(vidal)
    problems += _problems("aiming", _shown(w), language)
    w.key(pygame.K_LALT)
    problems += _problems("aiming with Alt", _shown(w), language)
    w.click(vidal)
    w.click(vidal)
    problems += _problems("after the attack", _shown(w), language)
    assert any(e.kind == "attack" for e in w.battle.log)  # the log had an attack to word
    w.key(pygame.K_RETURN)
    w.settle()
    problems += _problems("after the computer's turns", _shown(w), language)
    gm = make_window(player="gm", gm=True)
    problems += _problems("the GM's view", _shown(gm), language)
    assert problems == []


def test_the_new_battle_screen_names_the_sides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    app = App((1280, 720))
    director = Director(app, WindowOptions(), settings=Settings(language=language))
    try:
        director.new_battle()
        app.step(1 / 60)
        scene = app.scene
        scene = getattr(scene, "inner", scene)
        assert isinstance(scene, NewBattleScene)
        scene.choose_map(DEMO_MAP)
        app.step(1 / 60)
        texts = scene.texts()
        assert _problems("new battle", texts, language) == []
        side = "Station security" if language == "en" else "Sicurezza stazione"
        assert any(side in t for t in texts)
    finally:
        director.close_battle()
        pygame.quit()


def test_the_trackers_chips_and_the_combat_over_line_name_sides_for_players(
    make_window: MakeWindow, language: str
) -> None:
    # Issue 17: display names for sides, never raw ids. Before the fix the status line read
    # "The combat is over: station_security win." and the tracker's chips named no side.
    w = make_window()
    side = side_name("station_security")
    assert side not in ("station_security", "")
    tips = {chip.unit: button.tool_tip_text for chip, button in w.scene.tracker.chips}
    assert side in str(tips["Vidal"]) and side_name("raiders") in str(tips["Kask"])
    w.scene.view = replace(w.scene.view, over=True, winner="station_security")
    line = w.scene.status_line()
    assert side in line and "station_security" not in line
