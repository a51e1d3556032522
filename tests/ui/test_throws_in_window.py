"""The throw on the action bar under every playable ruleset (issue 15): offered where the
ruleset throws (periferie: anyone, P-THR-1; Cepheus: a unit holding a thrown weapon, 000:l.134),
greyed with the ruleset's reason elsewhere ("not offered" where its seed has no throws)."""

from __future__ import annotations

import pytest

from game.tactics.ruleset import playable_ids
from tests.ui.conftest import MakeWindow


def _raiders_turn(w) -> str:  # type: ignore[no-untyped-def]
    for _ in range(300):  # the computer plays station security's turns until a raider acts
        if w.battle.active is not None and w.battle.faction_of(w.battle.active) == "raiders":
            break
        w.frames(1)
    unit = w.battle.active
    assert unit is not None and w.battle.faction_of(unit) == "raiders"
    return str(unit)


@pytest.mark.parametrize("ruleset", playable_ids())
def test_the_bar_offers_the_throw_or_greys_it_with_the_rulesets_reason(
    make_window: MakeWindow, ruleset: str
) -> None:
    w = make_window(ruleset=ruleset)
    unit = _raiders_turn(w)
    w.frames(2)
    buttons = {a.kind: (a, b) for a, b in w.scene.bar.buttons}
    assert "throw" in buttons
    action, button = buttons["throw"]
    cannot = w.battle.ruleset.can_throw(w.battle.bf, w.battle.sheet(unit))
    assert action.allowed == (cannot is None) == button.is_enabled
    if cannot == "not_offered":
        assert "Not offered" in action.why_not
    elif cannot == "no_thrown_weapon":
        assert "No thrown weapon" in action.why_not
    if ruleset == "periferie":
        assert action.allowed  # P-THR-1: anyone may throw a light object
    if ruleset in ("d20", "myst", "fantasy"):
        assert cannot == "not_offered" and not action.allowed
