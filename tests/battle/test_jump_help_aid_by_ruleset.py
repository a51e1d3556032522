"""Jumps, help and the computer's first aid in a battle under each ruleset (issue 15): the engine,
the handlers and the computer ask the ruleset (BattleRules.can_jump, can_help, aid_wanted)
instead of seed 001's rules, which periferie's object still answers with."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from game.battle import ai
from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.options import options_for
from game.battle.setup import UnitSpec
from game.ecs.components import RulesetSheet, Status
from game.rules.wounds import Health
from game.tactics.ruleset import playable_ids

OTHERS = tuple(r for r in playable_ids() if r != "periferie")


def _turn_of(battle: Battle, unit: str) -> None:
    for _ in range(6):
        if battle.active == unit:
            return
        assert battle.active is not None
        assert battle.apply(cmd.EndTurn(battle.active), GM).refusal is None
    raise AssertionError(f"{unit} never acts")


def _battle(
    make_battle: Callable[..., Battle],
    ruleset: str,
    edit: Callable[[dict[str, Any]], None] | None = None,
) -> Battle:
    """The medic 5 cells from its ally bob, a foe far off, under `ruleset`; `edit` changes
    bob's saved state (the battle's own snapshot, restored: public entry points only)."""
    medic = UnitSpec("medic", "blue", (4, 5, 0))
    bob = UnitSpec("bob", "blue", (9, 5, 0))
    foe = UnitSpec("foe", "red", (18, 11, 0), weapon="pistol")
    plain: Battle = make_battle([medic, bob, foe])
    setup = replace(plain.setup, ruleset=ruleset)
    fresh = Battle(setup, plain.grid, plain.rules)
    if edit is None:
        return fresh
    data = fresh.snapshot()
    edit(data["units"]["bob"])
    fresh.close()
    return Battle.restore(setup, plain.grid, plain.rules, data)


@pytest.mark.parametrize("ruleset", OTHERS)
def test_a_jump_and_help_are_refused_as_not_offered_where_the_seed_has_neither(
    make_battle, ruleset: str
) -> None:
    battle = _battle(make_battle, ruleset)
    try:
        _turn_of(battle, "medic")
        jump = battle.apply(cmd.Move("medic", (6, 5, 0), mode="jump"), GM).refusal
        assert jump is not None and jump.code == "not_offered"
        help_ = battle.apply(cmd.Help("medic", "bob"), GM).refusal
        assert help_ is not None and help_.code == "not_offered"
        # The action bar lists the help greyed with that reason (in both languages: the
        # reason's wording, explain_battle's "Not offered").
        shown = {o.kind: o for o in options_for(battle, GM, "medic")}
        refusal = shown["help"].refusal
        assert refusal is not None and refusal.code == "not_offered"
        assert battle.apply(cmd.Move("medic", (6, 5, 0)), GM).refusal is None  # walking is
    finally:
        battle.close()


def test_p_chk_2_periferie_still_helps_an_ally_beside(make_battle) -> None:
    battle = _battle(make_battle, "periferie")
    try:
        _turn_of(battle, "medic")
        assert battle.apply(cmd.Move("medic", (8, 5, 0)), GM).refusal is None
        assert battle.apply(cmd.Help("medic", "bob"), GM).refusal is None
        assert battle.world.get("bob", Status).helped_by == "medic"  # advantage next (P-CHK-2)
    finally:
        battle.close()


def _first_aid_by_computer(battle: Battle) -> cmd.Command:
    """The computer's two commands for the medic: beside its ally, then the medkit on it."""
    _turn_of(battle, "medic")
    move = ai.choose(battle, "medic")
    # The cheapest cell beside bob (4 cells away), the first in reading order: (8, 4, 0).
    assert isinstance(move, cmd.Move) and move.to == (8, 4, 0)
    assert battle.apply(move, GM).refusal is None
    return ai.choose(battle, "medic")


def test_p_heal_1_the_periferie_computer_goes_beside_a_dying_ally_and_treats_its_mortal_wound(
    make_battle,
) -> None:
    def dying(bob: dict[str, Any]) -> None:
        bob["Wounds"] = Health(mortal=1).to_dict()

    battle = _battle(make_battle, "periferie", dying)
    try:
        assert _first_aid_by_computer(battle) == cmd.UseObject("medic", "bob", "mortal")
    finally:
        battle.close()


def _cepheus_chars(end: int, str_: int, dex: int) -> Callable[[dict[str, Any]], None]:
    def edit(bob: dict[str, Any]) -> None:
        chars = [["dex", dex], ["end", end], ["str", str_]]  # the saved map's sorted keys
        bob["RulesetSheet"]["sheet"]["fields"]["chars"] = {"map": chars}

    return edit


def test_000_l398_the_cepheus_computer_gives_first_aid_where_periferies_would_treat_the_dying(
    make_battle,
) -> None:
    # 000:l.366: all three characteristics damaged, seriously wounded (the map's civilian
    # sheet, 7 each: END 0, STR 5, DEX 3). l.398: first aid, 2d6 + Medico (0) >= 8 (C-1):
    # 6 + 6 = 12, Effect 4, twice the Effect back: 8 points, one at a time to the lowest
    # (ties END, STR, DEX): END 0->6 and DEX 3->5 in turn, END 6, STR 5, DEX 5.
    battle = _battle(make_battle, "cepheus", _cepheus_chars(0, 5, 3))
    try:
        aid = _first_aid_by_computer(battle)
        assert aid == cmd.UseObject("medic", "bob", "seriously_wounded")
        battle.roller.supply(6, 6)
        outcome = battle.apply(aid, GM)
        assert outcome.refusal is None
        done = next(e for e in battle.log if e.kind == "medkit")
        assert done.data["result"] == "first_aid" and done.data["restored"] == 8
        sheet = battle.world.get("bob", RulesetSheet).sheet
        assert dict(sheet.chars) == {"end": 6, "str": 5, "dex": 5}  # type: ignore[attr-defined]
    finally:
        battle.close()


def test_the_cepheus_computer_leaves_a_merely_wounded_ally_to_fight_on(make_battle) -> None:
    # 000:l.365: END and STR damaged, DEX whole: wounded only (as periferie's computer leaves
    # a grave wound).
    battle = _battle(make_battle, "cepheus", _cepheus_chars(0, 5, 7))
    try:
        _turn_of(battle, "medic")
        assert not isinstance(ai.choose(battle, "medic"), cmd.UseObject)
        assert battle.ruleset.aid_wanted(battle.bf, battle.sheet("bob")) is None
    finally:
        battle.close()
