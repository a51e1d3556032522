"""Attacks under any ruleset: one the ruleset gives no chance for its own reason is refused, not
a crash (the battle's `no_chance` code carries the ruleset's reason, worded: d20's prone attacker
with a ranged weapon, seed 004:l.23, D-1); a unit armed only on its ruleset sheet may attack."""

from __future__ import annotations

from dataclasses import replace

from game.battle import commands as cmd
from game.battle.ai import choose
from game.battle.engine import Battle
from game.battle.handlers import check
from game.battle.reasons import Why
from game.battle.setup import UnitSpec
from game.ecs.components import Armed
from game.text.explain_battle import refusal_text
from game.text.i18n import speaking
from tests.battle.conftest import MakeBattle


def test_a_prone_d20_shooter_is_refused_with_no_chance_naming_the_prone_rule(
    make_battle: MakeBattle,
) -> None:
    # 004:l.23 "Prono ... -4 (mischia), non può attaccare a distanza" (except crossbow and
    # shuriken): the guard's pistol from the prone stance has no roll at all.
    units = [
        UnitSpec("ada", "blue", (5, 5, 0), template="station_guard", stance="prone"),
        UnitSpec("bo", "red", (9, 5, 0)),
    ]
    plain = make_battle(units, initiative=(20, 1))
    b = Battle(replace(plain.setup, ruleset="d20"), plain.grid, plain.rules)
    outcome = b.apply(cmd.Attack("ada", target="bo"), "blue")
    assert outcome.refusal is not None
    assert outcome.refusal.code is Why.NO_CHANCE
    assert outcome.refusal.values["reason"] == "cannot_attack_prone"
    with speaking("en"):
        text = refusal_text(outcome.refusal)
    assert text.startswith("No chance to hit: ") and "prone" in text.lower()
    assert "cannot_attack_prone" not in text


def test_a_unit_armed_only_on_its_ruleset_sheet_may_attack_and_the_computer_attacks_with_it(
    make_battle: MakeBattle,
) -> None:
    # A map unit with no periferie weapon (the "human" template carries none) gets a fantasy
    # sample sheet with a weapon of its own (F-3, game/data/fantasy): before, the battle and the
    # computer read only periferie's `Armed` and the fighter could never attack (a stalemate).
    units = [UnitSpec("ada", "blue", (5, 5, 0)), UnitSpec("bo", "red", (6, 5, 0))]
    plain = make_battle(units)  # fantasy's order needs no dice (AGI, then DES: F-1)
    b = Battle(replace(plain.setup, ruleset="fantasy", computer=("blue",)), plain.grid, plain.rules)
    assert b.world.get("ada", Armed).weapon is None
    if b.active != "ada":  # bo acts first: it ends its turn
        assert b.apply(cmd.EndTurn("bo"), b.controller_of("red")).accepted
    assert check(b, "ada", "attack") is None
    chosen = choose(b, "ada")
    assert isinstance(chosen, cmd.Attack) and chosen.target == "bo"
    assert b.apply(chosen, b.controller_of("blue")).accepted
