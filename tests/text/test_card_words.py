"""The unit card's words for a ruleset's health and armour (game/text/card_words.py, issue 16):
each entry the ruleset gives worded in the language spoken now, "no armour" where it gives none
worn, and another side's unit only by its state."""

from __future__ import annotations

from game.rules.ruleset_answers import HealthShown
from game.text.card_words import health_lines, protection_text
from game.text.i18n import speaking


def test_protection_words_each_entry_and_says_no_armour_when_none_is_worn() -> None:
    cases = [
        # Myst's soldato: the shield's bonus inside its defence (myst/sheets.toml).
        (HealthShown("status", "unhurt", armour=(("shield", 10),)), "shield +10 in defence"),
        # Myst's arciere: no shield, and M-2 keeps no armour.
        (HealthShown("status", "unhurt"), "no armour"),
        # fantasy: the points left per location in the table's order, then the DP.
        (
            HealthShown("body", "unhurt", armour=(("head", 2), ("torso", 3), ("dp", 10))),
            "armour head 2, torso 3, DP 10",
        ),
        (HealthShown("body", "unhurt", armour=(("dp", 8),)), "no armour, DP 8"),
        (HealthShown("characteristics", "uninjured", armour=(("armour", 5),)), "armour 5"),
        (HealthShown("hit_points", "ok", armour=(("ac", 15),)), "AC 15"),
    ]
    with speaking("en"):
        assert [protection_text(shown) for shown, _words in cases] == [w for _s, w in cases]
    with speaking("it"):
        assert protection_text(cases[2][0]) == "armatura testa 2, torso 3, DP 10"
        assert protection_text(cases[3][0]) == "senza armatura, DP 8"
        assert protection_text(cases[5][0]) == "CA 15"


def test_another_sides_unit_is_worded_by_its_state_only_even_with_numbers_given() -> None:
    shown = HealthShown("hit_points", "stable", ("mortal",), (("hp", -3, 12),), (("ac", 15),))
    with speaking("en"):
        assert health_lines(shown, own=False) == ["Health: dying, stable"]
        assert health_lines(shown, own=True) == ["Hit points: -3 of 12 (dying, stable)"]
    with speaking("it"):
        assert health_lines(shown, own=False) == ["Salute: morente, stabile"]
