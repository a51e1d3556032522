"""The board's right-click medkit entries follow the battle's ruleset (issue 16): options.first_aid
asks the ruleset which wounds first aid could treat on an ally (BattleRules.medkit_wounds) and
refuses each as the engine would (the command's check, then `medkit_refusal`). Periferie lists
the wounds carried (P-HEAL-1), Cepheus one entry for damaged characteristics (000:l.398, named
by the C-5 state); d20, Myst and fantasy, whose seeds give no first aid, one greyed entry."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.options import first_aid
from game.battle.setup import UnitSpec
from game.rules.ruleset_answers import NOT_OFFERED
from game.rules.wounds import Health
from tests.battle.conftest import MakeBattle

#: Bo beside Ada, Cy 5 cells away, all blue; the foe far off.
UNITS = [
    UnitSpec("Ada", "blue", (5, 5, 0), template="scavenger", weapon="pistol"),
    UnitSpec("Bo", "blue", (6, 5, 0), template="scavenger", weapon="pistol"),
    UnitSpec("Cy", "blue", (10, 5, 0), template="scavenger", weapon="pistol"),
    UnitSpec("Foe", "red", (15, 9, 0), weapon="pistol"),
]


def _battle(make_battle: MakeBattle, ruleset: str) -> Battle:
    """The battle under `ruleset` at Ada's first turn (the others' turns ended)."""
    plain = make_battle(UNITS)
    battle = plain
    if ruleset != "periferie":
        battle = Battle(replace(plain.setup, ruleset=ruleset), plain.grid, plain.rules)
    for _ in range(8):
        if battle.active == "Ada":
            return battle
        assert battle.active is not None
        assert battle.apply(cmd.EndTurn(battle.active), GM).refusal is None
    raise AssertionError("Ada never acts")


def _end_cepheus_hurt(battle: Battle, lost: dict[str, int]) -> Battle:
    """The battle with `lost` END points off each unit's Cepheus sheet, as hits its armour let
    through: its own snapshot with them written in, restored (public entry points only)."""
    data = battle.snapshot()
    for unit, points in lost.items():
        chars = data["units"][unit]["RulesetSheet"]["sheet"]["fields"]["chars"]["map"]
        for pair in chars:
            if pair[0] == "end":
                pair[1] -= points
    hurt = Battle.restore(battle.setup, battle.grid, battle.rules, data)
    battle.close()
    return hurt


def _options(battle: Battle, patient: str) -> list[tuple[str, str | None]]:
    return [
        (o.kind, None if o.refusal is None else str(o.refusal.code))
        for o in first_aid(battle, "blue", "Ada", patient)
    ]


def test_000_l398_cepheus_lists_a_damaged_ally_by_its_c5_state_and_the_engine_accepts_it(
    make_battle: MakeBattle,
) -> None:
    # C-5: "Wounded (END reduced)": 3 END off Bo and Cy, their STR and DEX whole.
    battle = _end_cepheus_hurt(_battle(make_battle, "cepheus"), {"Bo": 3, "Cy": 3})
    try:
        assert _options(battle, "Bo") == [("use_object:wounded", None)]
        # Cy is 5 cells away: first aid is for oneself or an adjacent ally (G-5, as periferie's).
        assert _options(battle, "Cy") == [("use_object:wounded", "not_adjacent")]
        # Ada herself is uninjured: nothing for first aid to treat, so no entry.
        assert _options(battle, "Ada") == []
        # The entry offered is what the engine accepts: 000:l.398, 2d6 + Medico >= 8 (the
        # sample scavenger lists no Medico: 0, not on herself so no -2); 5 + 4 = 9, Effect 1:
        # twice the Effect, 2 points back to END.
        battle.roller.supply(5, 4)
        outcome = battle.apply(cmd.UseObject("Ada", "Bo", "wounded"), GM)
        assert outcome.refusal is None
        aid = next(e for e in battle.log if e.kind == "medkit")
        assert aid.data["result"] == "first_aid" and aid.data["restored"] == 2
        # The action spent: the entry stays, greyed with the engine's reason.
        assert _options(battle, "Bo") == [("use_object:wounded", "action_used")]
    finally:
        battle.close()


def test_p_heal_1_periferie_lists_each_wound_carried_gravest_first(
    make_battle: MakeBattle,
) -> None:
    battle = _battle(make_battle, "periferie")
    # Bo carries a light and a grave wound, the battle's snapshot written in and restored.
    data = battle.snapshot()
    data["units"]["Bo"]["Wounds"] = Health(light=1, grave=1).to_dict()
    hurt = Battle.restore(battle.setup, battle.grid, battle.rules, data)
    try:
        assert _options(hurt, "Bo") == [("use_object:grave", None), ("use_object:light", None)]
        assert _options(hurt, "Cy") == []  # unwounded: nothing to treat
    finally:
        hurt.close()


@pytest.mark.parametrize("ruleset", ["d20", "myst", "fantasy"])
def test_a_ruleset_without_first_aid_greys_one_medkit_entry_as_not_offered(
    make_battle: MakeBattle, ruleset: str
) -> None:
    battle = _battle(make_battle, ruleset)
    try:
        assert _options(battle, "Bo") == [("use_object", NOT_OFFERED)]
        # ... and the engine indeed has no medkit in that turn.
        outcome = battle.apply(cmd.UseObject("Ada", "Bo", "light"), GM)
        assert outcome.refusal is not None
    finally:
        battle.close()
