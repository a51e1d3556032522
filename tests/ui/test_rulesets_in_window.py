"""Every playable ruleset in the window (issue 15/16): the board shows that ruleset's own chance
for a hovered target, an attack is given with the mouse, and nothing in the window assumes
periferie's answer (before, the tooltip read periferie's HitAnswer and failed on another's)."""

from __future__ import annotations

import pytest

from game.battle import preview
from game.tactics.ruleset import playable_ids
from tests.ui.conftest import MakeWindow

OTHERS = [r for r in playable_ids() if r != "periferie"]


@pytest.mark.parametrize("ruleset", OTHERS)
def test_a_hovered_enemy_shows_the_rulesets_own_chance_and_a_click_pair_attacks_it(
    make_window: MakeWindow, ruleset: str
) -> None:
    w = make_window(ruleset=ruleset)
    assert w.battle.setup.ruleset == ruleset
    for _ in range(300):  # the computer plays station security's turns until a raider acts
        if w.battle.active is not None and w.battle.faction_of(w.battle.active) == "raiders":
            break
        w.frames(1)
    unit = w.battle.active  # the ruleset's own initiative decides which raider acts first
    assert unit is not None and w.battle.faction_of(unit) == "raiders"
    vidal = w.battle.sheet("Vidal").cell
    w.hover(vidal)
    shot = preview.attack(w.battle, "player", unit, "Vidal")
    assert shot is not None
    badges = [b for _rect, b in w.scene.board.badges_shown() if b.cell == vidal]
    assert len(badges) == 1
    if shot.attack.chance is None:
        assert badges[0].title == "No shot"
    else:
        # The badge's number is the ruleset's exact chance as a percentage, nothing computed.
        percent = shot.attack.chance * 100
        shown = str(percent.numerator) if percent.denominator == 1 else f"{float(percent):.1f}"
        assert badges[0].title == f"{shown}%"
    w.click(vidal)
    w.click(vidal)
    w.frames(5)
    # The window is still up and reading its player's view; the log has what happened.
    assert w.scene.battle is w.battle


def test_the_turn_line_names_only_the_slots_the_rulesets_turn_has(make_window: MakeWindow) -> None:
    # F-3/M-2: a fantasy or Myst turn is a move and one action; periferie's has an interaction
    # and a reaction too (P-TURN-1).
    plain = make_window()
    assert "interaction" in plain.scene.budget_text() and "reaction" in plain.scene.budget_text()
    fantasy = make_window(ruleset="fantasy")
    for _ in range(300):
        if fantasy.battle.active is not None and fantasy.scene.view.unit(fantasy.battle.active):
            break
        fantasy.frames(1)
    text = fantasy.scene.budget_text()
    assert "moved" in text and "action" in text
    assert "interaction" not in text and "reaction" not in text
