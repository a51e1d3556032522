"""The player's view carries the battlefield's conditions (issue 15): every seat knows the light,
smoke and weather the GM set, and what they do under the battle's ruleset (the battle screen's
badge reads them there; the window computes no rule)."""

from __future__ import annotations

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.setup import UnitSpec
from game.battle.view import view_for
from game.tactics.battlefield import FieldConditions

RED = UnitSpec("ada", "red", (1, 1, 0))
BLUE = UnitSpec("bo", "blue", (6, 1, 0))


def test_every_seats_view_holds_the_gms_field_conditions_and_periferie_gives_them_no_effect(
    make_battle,
) -> None:
    b: Battle = make_battle([RED, BLUE], initiative=(15, 5))
    for seat in ("red", "blue", GM):
        assert view_for(b, seat).conditions == FieldConditions()
    assert b.apply(cmd.ChangeField(smoke="dense", weather="bad"), GM).accepted
    for seat in ("red", "blue", GM):
        view = view_for(b, seat)
        assert view.conditions == FieldConditions(smoke="dense", weather="bad")
        # docs/rules.md: Le Periferie's seed has no rule for light, smoke or weather.
        assert view.field_effects is None
