"""The hover panel's first lines show each ruleset's own headline numbers (issue 15: "the window
shows each ruleset's own numbers where it shows ours: the Cepheus band, DMs and 8+ target; the
d20 roll needed against AC"), in English and Italian, on one line of the panel at 1280x720.

Ardea Station (maps/station_interior.tmx) with two units: Kask (raiders) at (27, 9, 1), beside
Vidal (station security) at (28, 9, 1), so that every ruleset's weapons reach; one person plays
both sides (no hand-over), and ends turns until Kask acts.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.battle import commands as cmd
from game.battle import preview
from game.battle.setup import setup_from_map
from game.maps import load_map
from game.tactics.ruleset import playable_ids
from game.text import i18n
from game.ui import fonts
from tests.ui.conftest import STATION, MakeWindow, Window

#: Each ruleset's headline for Kask's attack on Vidal beside it, as the window words it, with
#: the numbers of the ruleset's own answer (checked against it below):
#: - periferie P-HIT-2: roll d100 at most P = 68 (Kask's pistol beside Vidal, no cover);
#: - Cepheus C-2: the adjacent cells are the Personal band; DMs total -2, and -1 more for
#:   Vidal's dodge (000:l.158, its standing choice); 2d6 >= 8 (C-1);
#: - d20 D-2: d20 + attack bonus 1 >= AC 15, so a natural 14 or more;
#: - Myst M-1: attack total 30 + 3d10 against defence total 50 + 3d10;
#: - fantasy F-2: Kask's d6 + its pitchfork skill d6 against DP 10, Vidal defends with d6+d6.
HEADLINES = {
    "periferie": ("d100: 68 or less hits", "d100: colpisce con 68 o meno"),
    # Vidal, in the open, dodges (its standing choice, -1: 000:l.158) on top of Kask's -2.
    "cepheus": ("Personal range · DM -3 · 8+ on 2d6", "Distanza personale · MD -3 · 8+ su 2d6"),
    "d20": ("needs 14+ on d20 vs AC 15", "14+ su d20 contro CA 15"),
    "myst": (
        "attack 3d10+30 vs defence 3d10+50",
        "attacco 3d10+30 contro difesa 3d10+50",
    ),
    # The popolano's pitchfork: POT d6 + its skill d6 (the tuned sample, docs/rules.md).
    "fantasy": ("d6+d6 vs DP 10 · defence d6+d6", "d6+d6 contro DP 10 · difesa d6+d6"),
}


def _kask_beside_vidal(make_window: MakeWindow, ruleset: str, beside: bool = True) -> Window:
    loaded = load_map(STATION)
    units = tuple(
        replace(u, cell=(27, 9, 1)) if u.id == "Kask" and beside else u
        for u in setup_from_map(loaded, seed=1).units
        if u.id in ("Kask", "Vidal")
    )
    w = make_window(sides=("raiders", "station_security"), units=units, ruleset=ruleset)
    for _ in range(4):  # the ruleset's own initiative decides who acts first
        if w.battle.active == "Kask":
            break
        assert w.battle.active is not None
        assert w.scene.submit(cmd.EndTurn(w.battle.active)).accepted
    assert w.battle.active == "Kask"
    return w


def test_every_playable_ruleset_has_its_headline_here() -> None:
    assert set(HEADLINES) == set(playable_ids())


@pytest.mark.parametrize("ruleset", sorted(HEADLINES))
def test_the_hover_panel_shows_the_rulesets_own_headline_under_the_chance_in_both_languages(
    make_window: MakeWindow, ruleset: str
) -> None:
    english, italian = HEADLINES[ruleset]
    for language, expected in (("en", english), ("it", italian)):
        with i18n.speaking(language):
            w = _kask_beside_vidal(make_window, ruleset)
            w.hover(w.battle.sheet("Vidal").cell)
            lines = w.scene.hover_text().split("<br>")
            # The attack's title, its chance in big, then the headline.
            assert "%" in lines[1] and lines[2] == expected, lines
            # One line of the panel at 1280x720: the box's font (theme.json, Noto Sans 13)
            # within the box less its padding (6 px a side) and a scrollbar's room.
            room = w.scene.side.hover.rect.width - 12 - 20
            assert fonts.font(13).size(expected)[0] <= room, (expected, room)
    # The numbers are the ruleset's own answer's, not the window's.
    shot = preview.attack(w.battle, "player", "Kask", "Vidal")
    assert shot is not None and shot.attack.chance is not None
    detail = shot.attack.detail
    if ruleset == "cepheus":
        assert (detail.band, detail.total_dm, detail.target) == ("personale", -3, 8)
    if ruleset == "d20":
        out = detail.answer.outcome
        assert (out.needed, out.ac) == (14, 15)
    if ruleset == "periferie":
        assert detail.hit.p == 68


def test_the_d20_headline_names_the_cover_behind_the_ac_and_fits_in_italian(
    make_window: MakeWindow,
) -> None:
    """Kask at its own cell, 17 cells from Vidal behind a half wall: D-1 cover gives Vidal +4
    AC (15 + 4 = 19), so a natural 18 with Kask's +1 (D-2)."""
    for language, expected in (
        ("en", "needs 18+ on d20 vs AC 19 (cover +4)"),
        ("it", "18+ su d20 contro CA 19 (copertura +4)"),
    ):
        with i18n.speaking(language):
            w = _kask_beside_vidal(make_window, "d20", beside=False)
            w.hover(w.battle.sheet("Vidal").cell)
            assert w.scene.hover_text().split("<br>")[2] == expected
            room = w.scene.side.hover.rect.width - 12 - 20
            assert fonts.font(13).size(expected)[0] <= room


def test_no_chance_no_headline(make_window: MakeWindow) -> None:
    """Vidal out of a melee weapon's reach (Myst, M-2): the reason, not a headline."""
    w = make_window(ruleset="myst")
    for _ in range(300):  # a raider with a melee weapon (the archers shoot: their turns end)
        active = w.battle.active
        if active is not None and w.battle.faction_of(active) == "raiders":
            if w.battle.sheet(active).sheet.weapon.melee:
                break
            assert w.scene.submit(cmd.EndTurn(active)).accepted
        w.frames(1)
    unit = w.battle.active
    assert unit is not None
    shot = preview.attack(w.battle, "player", unit, "Vidal")
    assert shot is not None and shot.attack.chance is None
    w.hover(w.battle.sheet("Vidal").cell)
    text = w.scene.hover_text()
    assert "3d10+" not in text
