"""Cepheus's ammunition in battle (000:l.97-99, 245, 319): magazines (assumed in
game/data/cepheus/sheets.toml: the seed's chapter gives none), a burst fires its rounds,
suppression "fino al doppio", an attack greyed "Out of ammunition" with fewer rounds left than
it fires, and `reload` ("un'altra azione minore per essere ricaricata", l.99) as a minor action
the round rules count (C-4), the same command as fantasy's CAD."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.battle import commands as cmd
from game.battle import options as opts
from game.battle.ai import choose
from game.battle.engine import GM, Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.ecs.components import RulesetSheet
from game.rules.cepheus.data import default_data
from game.rules.cepheus.sheet import Sheet
from game.rules.data import load_rules
from game.text import i18n
from game.text.explain_battle import refusal_text
from tests.battle.conftest import OPEN_FIELD, ascii_grid


@pytest.fixture
def made() -> Iterator[list[Battle]]:
    battles: list[Battle] = []
    yield battles
    for battle in battles:
        battle.close()


def _battle(made: list[Battle], weapon: str) -> Battle:
    # A guard 7 cells from a civilian; initiative guard 6+6+1 = 13, civilian 1+1 = 2.
    setup = BattleSetup(
        map_path="<test>",
        map_sha256="",
        seed=5,
        units=(
            UnitSpec("ada", "blue", (2, 5, 0), template="station_guard", weapon=weapon),
            UnitSpec("foe", "red", (9, 5, 0), template="human"),
        ),
        initiative_dice=(6, 6, 1, 1),
        ruleset="cepheus",
    )
    battle = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    made.append(battle)
    return battle


def _ok(battle: Battle, command: cmd.Command) -> None:
    outcome = battle.apply(command, GM)
    assert outcome.refusal is None, outcome.refusal


def _refused(battle: Battle, command: cmd.Command) -> str:
    outcome = battle.apply(command, GM)
    assert outcome.refusal is not None
    return outcome.refusal.code


def _spent(battle: Battle, unit: str) -> int:
    own = battle.world.get(unit, RulesetSheet).sheet
    assert isinstance(own, Sheet)
    return own.spent


def _next_round(battle: Battle) -> None:
    _ok(battle, cmd.EndTurn("ada"))
    _ok(battle, cmd.EndTurn("foe"))
    assert battle.active == "ada"


def test_the_sample_firearms_have_assumed_magazines_and_melee_none() -> None:
    weapons = default_data().samples.weapons
    assert weapons["pistola_automatica"].magazine == 15
    assert weapons["doppietta"].magazine == 6
    assert weapons["mitraglietta"].magazine == 30
    assert weapons["coltello"].magazine == 0 and weapons["granata"].magazine == 0


def test_000_l245_a_burst_fires_its_4_rounds_and_a_shot_1(made) -> None:
    battle = _battle(made, "smg")
    battle.roller.supply(1, 1)  # a miss spends its rounds all the same
    _ok(battle, cmd.Attack("ada", "foe"))
    assert _spent(battle, "ada") == 1
    _next_round(battle)
    _ok(battle, cmd.FireMode("ada"))
    battle.roller.supply(1, 1)
    _ok(battle, cmd.Attack("ada", "foe"))
    assert _spent(battle, "ada") == 1 + 4


def test_000_l319_suppression_spends_twice_then_the_attack_is_greyed_out_of_ammunition(
    made,
) -> None:
    # The shotgun's 6 rounds (assumed): three suppressions of 2 rounds each (000:l.319).
    battle = _battle(made, "shotgun")
    for left in (4, 2, 0):
        battle.roller.supply(1, 1)
        _ok(battle, cmd.Attack("ada", "foe", suppress=True))
        assert 6 - _spent(battle, "ada") == left
        _next_round(battle)
    bar = {o.kind: o for o in opts.options_for(battle, GM, "ada")}
    refusal = bar["attack"].refusal
    assert refusal is not None and refusal.code == "out_of_ammo"
    assert refusal_text(refusal) == (
        "Out of ammunition: 0 rounds left, 1 needed. Reload first (a minor action)."
    )
    with i18n.speaking("it"):
        assert refusal_text(refusal) == (
            "Munizioni esaurite: 0 colpi rimasti, 1 necessari. Prima ricarica (un'azione minore)."
        )
    answer = battle.ruleset.attack(battle.bf, battle.sheet("ada"), battle.sheet("foe"))
    assert answer.chance is None and answer.reason == "out_of_ammo"
    assert _refused(battle, cmd.Attack("ada", "foe")) == "out_of_ammo"
    assert bar["reload"].allowed


def test_000_l99_reload_is_a_minor_action_leaving_the_attack_but_no_movement(made) -> None:
    battle = _battle(made, "shotgun")
    assert _refused(battle, cmd.Reload("ada")) == "nothing_to_reload"  # a full magazine
    battle.roller.supply(1, 1)
    _ok(battle, cmd.Attack("ada", "foe"))
    _ok(battle, cmd.Reload("ada"))  # the significant action, then the minor one (C-4)
    assert _spent(battle, "ada") == 0
    reloaded = [e for e in battle.log if e.kind == "reloaded"]
    assert [(e.data, e.rules) for e in reloaded] == [({"unit": "ada", "left": 0}, ("C-4",))]
    assert _refused(battle, cmd.Reload("ada")) == "nothing_to_reload"
    _next_round(battle)
    battle.roller.supply(1, 1)
    _ok(battle, cmd.Attack("ada", "foe"))
    _next_round(battle)
    _ok(battle, cmd.Reload("ada"))  # first: the turn's minor action
    assert battle.turn("ada").action is None  # the attack is left
    assert _refused(battle, cmd.Move("ada", (2, 6, 0))) in ("unreachable", "cannot_move")
    battle.roller.supply(1, 1)
    _ok(battle, cmd.Attack("ada", "foe"))
    assert _spent(battle, "ada") == 1


def test_the_computer_reloads_an_empty_magazine_before_anything_else(made) -> None:
    battle = _battle(made, "shotgun")
    for _ in range(3):
        battle.roller.supply(1, 1)
        _ok(battle, cmd.Attack("ada", "foe", suppress=True))
        _next_round(battle)
    assert _spent(battle, "ada") == 6
    move = choose(battle, "ada")
    while isinstance(move, cmd.ReactStance | cmd.FireMode):  # its standing choices first
        _ok(battle, move)
        move = choose(battle, "ada")
    assert move == cmd.Reload("ada")
