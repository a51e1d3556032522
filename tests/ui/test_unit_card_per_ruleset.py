"""Issue 16, "the window shows each system's own numbers": the unit card (the side panel,
game/ui/aim.py) shows the battle's ruleset's own health and armour, asked of the ruleset
through the player's view (`UnitView.health`, BattleRules.health_shown) and worded in the
interface's language — Myst's Status Globale and shield, fantasy's body sections and armour per
location, Cepheus's END/STR/DEX, d20's hit points and AC — never periferie's "Wounds:" line nor
the map's periferie armour; an enemy's card only the state anyone sees. The token's pips follow
the ruleset's severity (SDL dummy)."""

from __future__ import annotations

import re
from dataclasses import replace

import pygame

from game.battle.setup import UnitSpec
from game.ecs.components import RulesetSheet
from game.rules.ruleset_answers import HealthShown
from game.text import i18n
from game.text.card_words import note_lines
from game.ui.board import FACTION_COLOURS, WOUND_COLOURS, Overlay, Token
from tests.ui.conftest import MakeWindow, Window


def _card(w: Window, unit: str, language: str) -> str:
    i18n.set_language(language)
    try:
        w.scene.selected = unit
        w.scene.refresh_widgets()
        w.frames(1)
        return " ".join(re.sub(r"<[^>]*>", " ", w.scene.side.text("unit")).split())
    finally:
        i18n.set_language(None)


def _window(make_window: MakeWindow, ruleset: str) -> Window:
    # Kask (ours) is a station_guard given periferie's carbine and padded vest; Vidal, the
    # enemy in sight two cells away, a void_marine.
    units = [
        UnitSpec("Kask", "raiders", (14, 4, 1), template="station_guard", weapon="carbine",
                 armour="padded_vest"),
        UnitSpec("Vidal", "station_security", (16, 4, 1), template="void_marine", weapon="smg"),
    ]  # fmt: skip
    return make_window(ruleset=ruleset, units=units)


def _hurt(w: Window, unit: str, **changes: object) -> None:
    """The unit's ruleset sheet as a hit left it (the values worked out in each test)."""
    sheet = w.battle.world.get(unit, RulesetSheet).sheet
    w.battle.world.set(unit, RulesetSheet(replace(sheet, **changes)))  # type: ignore[type-var]
    w.scene.refresh()


def _no_periferie(card: str) -> None:
    for word in ("Wounds:", "Ferite:", "Padded vest", "Giubbotto imbottito", "Death saves"):
        assert word not in card


def test_m2_a_myst_card_shows_status_globale_and_the_shield_and_the_enemy_only_hurt(
    make_window: MakeWindow,
) -> None:
    w = _window(make_window, "myst")
    # myst/sheets.toml soldato: Status Globale 30, shield 10; a 12 off it leaves 18 (M-2).
    _hurt(w, "Kask", status=18)
    english, italian = _card(w, "Kask", "en"), _card(w, "Kask", "it")
    assert "Status Globale: 18 of 30" in english
    assert "Sword (1d8); shield +10 in defence" in english
    assert "Status Globale: 18 su 30" in italian and "Spada (1d8); scudo +10 in difesa" in italian
    _no_periferie(english)
    _no_periferie(italian)
    # Vidal is the bruto (Status Globale 36): 30 left is hurt, above half; its numbers hidden.
    _hurt(w, "Vidal", status=30)
    enemy = _card(w, "Vidal", "en")
    assert "Health: hurt" in enemy
    assert "30" not in enemy and "36" not in enemy and "Status Globale" not in enemy
    assert "Salute: ferito" in _card(w, "Vidal", "it")


def test_003_a_fantasy_card_shows_body_sections_lost_armour_per_location_and_the_penalty(
    make_window: MakeWindow,
) -> None:
    w = _window(make_window, "fantasy")
    # fantasy/sheets.toml guerriero: torso 3, head 2, shield 2 (DP 8 + 2 = 10, 003:l.76). A 5
    # on the torso destroys its 3 (l.178), 2 body points blacken Lieve's 2 boxes: full, -1.
    _hurt(w, "Kask", armour={"head": 2}, body_lost=2)
    english, italian = _card(w, "Kask", "en"), _card(w, "Kask", "it")
    assert (
        "Body points lost: Light 2/2 · Serious 0/2 · Grave 0/2 · Critical 0/1 · Mortal 0/1"
        in english
    )
    assert "Penalty -1 to every action" in english
    assert "Sword (1d8); armour head 2, DP 10" in english
    assert (
        "Punti corpo persi: Lieve 2/2 · Serio 0/2 · Grave 0/2 · Critico 0/1 · Mortale 0/1"
        in italian
    )
    assert "Penalità -1 a ogni azione" in italian and "armatura testa 2, DP 10" in italian
    _no_periferie(english)
    # The bruto enemy, 3 of its 10 boxes lost (lieve 3): its card says light wounds only.
    _hurt(w, "Vidal", body_lost=3)
    enemy = _card(w, "Vidal", "en")
    assert "Health: light wounds" in enemy and "Body points" not in enemy and "armour" not in enemy
    assert "Salute: ferite lievi" in _card(w, "Vidal", "it")


def test_c5_a_cepheus_card_shows_end_str_dex_and_armour(make_window: MakeWindow) -> None:
    w = _window(make_window, "cepheus")
    # cepheus/sheets.toml guardia: STR 7, DEX 9, END 8; the map's padded vest is armour 5 under
    # Cepheus (from_periferie.armour). A 9 - 5 = 4 off END leaves 4/8: wounded (C-5).
    _hurt(w, "Kask", chars={"str": 7, "dex": 9, "end": 4})
    english, italian = _card(w, "Kask", "en"), _card(w, "Kask", "it")
    assert "END 4/8 · STR 7/7 · DEX 9/9: wounded" in english
    assert "Carbine (3d6-3); armour 5" in english
    assert "RES 4/8 · FOR 7/7 · DES 9/9: ferito" in italian and "; armatura 5" in italian
    _no_periferie(english)
    enemy = _card(w, "Vidal", "en")
    assert "Health: uninjured" in enemy and "END" not in enemy


def test_d2_a_d20_card_shows_hit_points_and_ac_and_the_enemy_only_disabled(
    make_window: MakeWindow,
) -> None:
    w = _window(make_window, "d20")
    # d20/sheets.toml station_guard: 13 hit points, AC 15; 5 off leaves 8 of its full 13 (the
    # sample's hit points at the start, issue 16), still able.
    _hurt(w, "Kask", hit_points=8)
    english, italian = _card(w, "Kask", "en"), _card(w, "Kask", "it")
    assert "Hit points: 8 of 13" in english and "Carbine (2d8); AC 15" in english
    assert "Punti ferita: 8 su 13" in italian and "CA 15" in italian
    _no_periferie(english)
    _hurt(w, "Kask", hit_points=0)
    assert "Hit points: 0 of 13 (disabled)" in _card(w, "Kask", "en")
    assert "Punti ferita: 0 su 13 (inabile)" in _card(w, "Kask", "it")
    # The void_marine enemy at 0 (D-2: disabled): the state, not its hit points nor AC.
    _hurt(w, "Vidal", hit_points=0)
    enemy = _card(w, "Vidal", "en")
    assert "Health: disabled" in enemy and "Hit points" not in enemy and "AC" not in enemy


def test_periferies_card_keeps_its_wounds_line_and_the_maps_armour(make_window: MakeWindow) -> None:
    w = _window(make_window, "periferie")
    card = _card(w, "Kask", "en")
    assert "Wounds: none" in card and "Carbine (2d8); Padded vest" in card
    assert "Health:" not in card


def test_the_tokens_pips_are_the_rulesets_own_for_both_sides(make_window: MakeWindow) -> None:
    w = _window(make_window, "d20")
    _hurt(w, "Kask", hit_points=0)  # disabled: an orange pip (D-2)
    _hurt(w, "Vidal", hit_points=-3)  # dying: a red pip, seen by the other side too
    pips = {t.id: t.pips for t in w.scene.tokens()}
    assert pips == {"Kask": ("grave",), "Vidal": ("mortal",)}


def test_the_board_draws_a_tokens_ruleset_pips_instead_of_periferies_wounds(
    make_window: MakeWindow,
) -> None:
    w = _window(make_window, "periferie")
    board = w.scene.board
    cells = [(11, 14, 0), (13, 14, 0), (15, 14, 0)]
    periferie = {"light": 1, "grave": 0, "mortal": 0}
    tokens = [
        Token("a", cells[0], FACTION_COLOURS[0], "standing", periferie, own=True, side=0),
        # a ruleset's pips win over the wounds dict (which the view leaves periferie's)
        Token("b", cells[1], FACTION_COLOURS[0], "standing", periferie, True, side=0,
              pips=("mortal", "grave")),
        Token("c", cells[2], FACTION_COLOURS[0], "standing", {}, own=True, side=0, pips=()),
    ]  # fmt: skip
    board.set_level(0)
    board.focus(cells[1])
    screen = pygame.Surface(w.app.size)
    board.draw(screen, tokens, Overlay())

    def colours(cell: tuple[int, int, int]) -> set[str]:
        rect = board.cell_rect(cell)
        found = set()
        for x in range(rect.left, rect.right):
            for y in range(rect.top, rect.bottom):
                pixel = tuple(screen.get_at((x, y)))[:3]
                found |= {k for k, c in WOUND_COLOURS.items() if c == pixel}
        return found

    assert colours(cells[0]) == {"light"}
    assert colours(cells[1]) == {"mortal", "grave"}
    assert colours(cells[2]) == set()


def test_002_l150_l153_l137_a_myst_riders_card_shows_gait_horse_and_closed_defence(
    make_window: MakeWindow,
) -> None:
    w = _window(make_window, "myst")
    # Kask (ours) rides at a canter and declared the gallop (002:l.153, taken at its next
    # turn); its horse has 32 of mounted.toml's assumed 40 left (002:l.150, M-2).
    rider = {"mounted": True, "riding": 40, "gait": "canter", "gait_next": "gallop", "horse": 32}
    _hurt(w, "Kask", **rider)
    english = _card(w, "Kask", "en")
    assert "Riding at a canter (at a gallop from its next turn)" in english
    assert "Horse: 32 of 40" in english and "Closed into defence" not in english
    # Its turn began with the first frame and took the declared gallop (002:l.153).
    italian = _card(w, "Kask", "it")
    assert "A cavallo al galoppo" in italian and "Cavallo: 32 su 40" in italian
    shown = HealthShown("status", "unhurt", notes=(("gait", "canter"), ("gait_next", "gallop")))
    i18n.set_language("it")
    try:
        assert note_lines(shown) == ["A cavallo al canter (al galoppo dal suo prossimo turno)"]
    finally:
        i18n.set_language(None)
    # Vidal (the enemy) gallops and closed into defence (002:l.137): both seen by anyone, its
    # horse's numbers not.
    _hurt(w, "Vidal", mounted=True, riding=40, gait="gallop", horse=10, closed_defence=True)
    enemy = _card(w, "Vidal", "en")
    assert "Riding at a gallop" in enemy and "from its next turn" not in enemy
    assert "Closed into defence until its next turn" in enemy
    assert "Horse" not in enemy and "10" not in enemy
    assert "Chiuso in difesa fino al suo prossimo turno" in _card(w, "Vidal", "it")
