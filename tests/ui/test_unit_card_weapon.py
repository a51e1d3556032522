"""Issue 16, words: the unit card (the side panel, game/ui/aim.py) names the weapon a unit
fights with under the battle's ruleset, with that ruleset's damage dice — asked of the ruleset
through the player's view (`UnitView.sheet_weapon`, BattleRules.sheet_weapon) — in the
interface's language; never the map's periferie weapon a Myst or fantasy fighter does not
use (SDL dummy)."""

from __future__ import annotations

import re

import pytest

from game.battle.setup import UnitSpec
from game.text import i18n
from tests.ui.conftest import MakeWindow, Window


def _card(w: Window, unit: str, language: str) -> str:
    i18n.set_language(language)
    try:
        w.scene.selected = unit
        w.scene.refresh_widgets()
        w.frames(1)
        return re.sub(r"<[^>]*>", " ", w.scene.side.text("unit"))
    finally:
        i18n.set_language(None)


def _units(template: str, weapon: str) -> list[UnitSpec]:
    return [
        UnitSpec("Kask", "raiders", (14, 4, 1), template=template, weapon=weapon),
        UnitSpec("Vidal", "station_security", (28, 9, 1), template="void_marine", weapon="smg"),
    ]


def test_a_myst_units_card_names_its_sheets_spada_in_english_and_italian(
    make_window: MakeWindow,
) -> None:
    # game/data/myst/sheets.toml: a station_guard is the sample `soldato`, whose weapon is the
    # spada (weapons.toml: 1d8, 002:l.62), whatever periferie's carbine the map gave it.
    w = make_window(ruleset="myst", units=_units("station_guard", "carbine"))
    view = w.scene.view.unit("Kask")
    assert view is not None and view.sheet_weapon is not None
    assert (view.sheet_weapon.id, view.sheet_weapon.damage) == ("spada", "1d8")
    english = _card(w, "Kask", "en")
    assert "Sword (1d8)" in english
    assert "Carbine" not in english and "Spada" not in english
    italian = _card(w, "Kask", "it")
    assert "Spada (1d8)" in italian
    assert "Carabina" not in italian and "Sword" not in italian


@pytest.mark.parametrize(
    ("ruleset", "template", "weapon", "english", "italian", "not_shown"),
    [
        # fantasy's arciere (sheets.toml): its balestra, 1d10 (003 sample data).
        ("fantasy", "scavenger", "carbine", "Crossbow (1d10)", "Balestra (1d10)", "Carbine"),
        # Cepheus's from_periferie: the flamethrower is the sample doppietta, 4d6.
        ("cepheus", "station_guard", "flamethrower", "Shotgun (4d6)", "Fucile a pompa (4d6)",
         "Flamethrower"),
        # d20's weapons.toml smg: 2d6 (periferie's is 2d6+1).
        ("d20", "station_guard", "smg", "Submachine gun (2d6)", "Mitraglietta (2d6)", "2d6+1"),
        # periferie: the map's own weapon and its dice (weapons.toml).
        ("periferie", "station_guard", "smg", "Submachine gun (2d6+1)", "Mitraglietta (2d6+1)",
         "Mitraglietta"),
    ],
)  # fmt: skip
def test_every_rulesets_card_names_the_weapon_it_fights_with_and_its_dice(
    make_window: MakeWindow,
    ruleset: str,
    template: str,
    weapon: str,
    english: str,
    italian: str,
    not_shown: str,
) -> None:
    w = make_window(ruleset=ruleset, units=_units(template, weapon))
    shown_en, shown_it = _card(w, "Kask", "en"), _card(w, "Kask", "it")
    assert english in shown_en and not_shown not in shown_en
    assert italian in shown_it
