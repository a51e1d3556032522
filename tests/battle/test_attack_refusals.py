"""An attack a ruleset gives no chance for its own reason is refused, not a crash: the battle's
`no_chance` code carries the ruleset's reason, and the refusal reads it in words (d20's prone
attacker with a ranged weapon, seed 004:l.23, D-1)."""

from __future__ import annotations

from dataclasses import replace

from game.battle import commands as cmd
from game.battle.engine import Battle
from game.battle.reasons import Why
from game.battle.setup import UnitSpec
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
