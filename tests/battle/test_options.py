"""The action bar's options agree with the engine: what they offer it accepts, what they refuse
it refuses for the same reason (game/battle/options.py reads the engine's own conditions)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from game.battle import commands as cmd
from game.battle import preview
from game.battle.engine import GM, Battle
from game.battle.options import KINDS, Needs, options_for, who_may_order
from game.battle.setup import UnitSpec
from game.rules.wounds import Health
from tests.battle.conftest import MakeBattle

#: Ada and Cy (side a) stand together; Bo (side b) is in sight four cells east.
UNITS = [
    UnitSpec("Ada", "a", (2, 2, 0), weapon="pistol"),
    UnitSpec("Cy", "a", (2, 3, 0), weapon="combat_knife"),
    UnitSpec("Bo", "b", (6, 2, 0), weapon="pistol"),
]
#: Initiative faces in listing order: Ada 20, Cy 15, Bo 10, so Ada acts first.
FACES = (20, 15, 10)


def _command(battle: Battle, unit: str, kind: str) -> cmd.Command:
    """A command of `kind` for `unit` aimed at a sensible target."""
    reach = preview.reach(battle, GM, unit)
    cells = sorted(reach.cells) if reach is not None else []
    targets = {
        "move": lambda: cmd.Move(unit, cells[0] if cells else (2, 5, 0)),
        "attack": lambda: cmd.Attack(unit, target="Bo"),
        "throw": lambda: cmd.Throw(unit, target="Bo", size="light"),
        "dash": lambda: cmd.Dash(unit),
        "dodge": lambda: cmd.Dodge(unit),
        "disengage": lambda: cmd.Disengage(unit),
        "help": lambda: cmd.Help(unit, "Cy"),
        "ready": lambda: cmd.Ready(unit),
        "hide": lambda: cmd.Hide(unit),
        "search": lambda: cmd.Search(unit),
        "use_object": lambda: cmd.UseObject(unit, unit, "light"),
        "crouch": lambda: cmd.ChangeStance(unit, "crouched"),
        "prone": lambda: cmd.ChangeStance(unit, "prone"),
        "stand": lambda: cmd.ChangeStance(unit, "standing"),
        "improvise": lambda: cmd.Improvise(unit, "kick the crate"),
        "end_turn": lambda: cmd.EndTurn(unit),
    }
    return targets[kind]()


#: The battles _fresh restored (make_battle closes only those it made): closed after each test.
_RESTORED: list[Battle] = []


@pytest.fixture(autouse=True)
def _close_restored() -> Iterator[None]:
    yield
    while _RESTORED:
        _RESTORED.pop().close()


def _fresh(make_battle: MakeBattle, given: list[cmd.Command], gm: bool = False) -> Battle:
    battle = make_battle(UNITS, initiative=FACES)
    if gm:
        battle.setup = replace(battle.setup, gm=True)
    # Ada carries a light wound, so that her medkit has something to treat (P-HEAL-1): the
    # battle's own snapshot with the wound written in, restored (public entry points only).
    data = battle.snapshot()
    data["units"]["Ada"]["Wounds"] = Health(light=1).to_dict()
    wounded = Battle.restore(battle.setup, battle.grid, battle.rules, data)
    battle.close()
    battle = wounded
    _RESTORED.append(battle)
    assert battle.sheet("Ada").health.light == 1
    for c in given:
        assert battle.apply(c, GM).accepted, c
    return battle


# Situations: the turn's start; after an attack (the action used); after a stance change (the
# interaction used); after walking all the way (no movement left).
SITUATIONS = {
    "turn start": [],
    "action used": [cmd.Attack("Ada", target="Bo")],
    "interaction used": [cmd.ChangeStance("Ada", "crouched")],
    "crouched and moved": [cmd.ChangeStance("Ada", "crouched"), cmd.Move("Ada", (1, 3, 0))],
}


@pytest.mark.parametrize("situation", sorted(SITUATIONS))
def test_every_option_offered_is_accepted_and_every_option_refused_is_refused_alike(
    make_battle: MakeBattle, situation: str
) -> None:
    given = SITUATIONS[situation]
    battle = _fresh(make_battle, given)
    options = {o.kind: o for o in options_for(battle, "a", "Ada")}
    offered = battle.ruleset.turn_budget().commands  # periferie's (a round's own are not)
    assert set(options) == {kind for kind, _needs in KINDS if kind in offered}
    for kind, option in options.items():
        if kind == "improvise":
            continue  # needs a GM at the table: below
        trial = _fresh(make_battle, given)
        before = trial.state_hash()
        outcome = trial.apply(_command(trial, "Ada", kind), "a")
        if option.allowed:
            assert outcome.accepted, (kind, outcome.refusal and outcome.refusal.code)
        else:
            assert option.refusal is not None
            assert not outcome.accepted, kind
            assert outcome.refusal is not None
            if kind != "move":  # a move is refused for its cell: "unreachable"
                assert outcome.refusal.code == option.refusal.code, kind
            assert trial.state_hash() == before


def test_p_turn_1_after_the_attack_the_other_actions_are_refused_as_action_used(
    make_battle: MakeBattle,
) -> None:
    battle = _fresh(make_battle, SITUATIONS["action used"])
    options = {o.kind: o for o in options_for(battle, "a", "Ada")}
    for kind in ("attack", "dash", "dodge", "help", "hide", "search", "use_object"):
        refusal = options[kind].refusal
        assert refusal is not None and refusal.code == "action_used"
    assert options["move"].allowed and options["crouch"].allowed and options["end_turn"].allowed


def test_p_turn_2_after_a_stance_change_the_others_are_refused_as_interaction_used(
    make_battle: MakeBattle,
) -> None:
    battle = _fresh(make_battle, SITUATIONS["interaction used"])
    options = {o.kind: o for o in options_for(battle, "a", "Ada")}
    refusal = options["prone"].refusal
    assert refusal is not None and refusal.code == "interaction_used"
    same = options["crouch"].refusal
    assert same is not None and same.code == "same_stance"


def test_improvise_is_offered_only_with_a_gm_at_the_table(make_battle: MakeBattle) -> None:
    without = _fresh(make_battle, [])
    option = {o.kind: o for o in options_for(without, "a", "Ada")}["improvise"]
    assert not option.allowed
    with_gm = _fresh(make_battle, [], gm=True)
    option = {o.kind: o for o in options_for(with_gm, "a", "Ada")}["improvise"]
    assert option.allowed
    assert with_gm.apply(_command(with_gm, "Ada", "improvise"), "a").accepted


def test_nothing_is_offered_for_a_unit_not_acting_or_not_the_players(
    make_battle: MakeBattle,
) -> None:
    battle = _fresh(make_battle, [])
    cy = who_may_order(battle, "a", "Cy")
    assert cy is not None and cy.code == "not_active"
    bo = who_may_order(battle, "a", "Bo")
    assert bo is not None and bo.code == "not_your_unit"
    assert all(not o.allowed for o in options_for(battle, "a", "Cy"))


def test_every_option_says_what_it_still_needs_to_be_pointed_at() -> None:
    needs = dict(KINDS)
    assert needs["move"] is Needs.CELL
    assert needs["help"] is Needs.ALLY
    assert needs["dash"] is Needs.NOTHING
    assert needs["attack"] is Needs.ENEMY_OR_CELL
