"""Cepheus's suppression fire in battle (000:l.317-321): an attack command with `suppress`, rolled
"normalmente, salvo l'applicazione di un MD-2"; "Il successo ... congelando la sua azione
successiva con una penalità sul tiro di iniziativa pari all'Effetto dell'attacco. Gli obiettivi
soppressi ricevono inoltre una penalità MD-1 a ogni prova di abilità ... sia in questo turno che
nel successivo"; "Se sono usati colpi multipli sullo stesso obiettivo, l'Effetto più alto ha la
precedenza". Numbers worked out by hand from the sample sheets (game/data/cepheus/sheets.toml)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction

import pytest

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.ecs.components import RulesetSheet
from game.rules.cepheus.sheet import Sheet
from game.rules.cepheus.tempo import Tempo
from game.rules.data import load_rules
from game.text.explain_battle import event_text
from tests.battle.conftest import OPEN_FIELD, ascii_grid


@pytest.fixture
def made() -> Iterator[list[Battle]]:
    battles: list[Battle] = []
    yield battles
    for battle in battles:
        battle.close()


def _ok(battle: Battle, command: cmd.Command) -> None:
    outcome = battle.apply(command, GM)
    assert outcome.refusal is None, outcome.refusal


def _tempo(battle: Battle, unit: str) -> Tempo:
    own = battle.world.get(unit, RulesetSheet).sheet
    assert isinstance(own, Sheet)
    return own.tempo


def _totals(battle: Battle) -> dict[str, int]:
    return {e.entity_id: e.total for e in battle.initiative.visible_order(for_gm=True)}


def _dms(battle: Battle, attacker: str, target: str) -> dict[str, object]:
    answer = battle.ruleset.attack(battle.bf, battle.sheet(attacker), battle.sheet(target))
    return {m.code: m.value for m in answer.modifiers}


def _guards_and_civilian(made: list[Battle]) -> Battle:
    # Two guards (pistol: Armi da Fuoco 1, DEX DM +1) 7 cells (Breve, pistol Media DM 0,
    # 000:l.52) from a civilian with a pistol; initiative ada 6+6+1 = 13, bo 6+5+1 = 12,
    # civilian 1+1 = 2.
    setup = BattleSetup(
        map_path="<test>",
        map_sha256="",
        seed=5,
        units=(
            UnitSpec("ada", "blue", (2, 5, 0), template="station_guard", weapon="pistol"),
            UnitSpec("bo", "blue", (2, 7, 0), template="station_guard", weapon="pistol"),
            UnitSpec("foe", "red", (9, 5, 0), template="human", weapon="pistol"),
        ),
        initiative_dice=(6, 6, 6, 5, 1, 1),
        ruleset="cepheus",
    )
    battle = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    made.append(battle)
    return battle


def test_000_l319_suppression_fire_is_the_attack_minus_2_and_the_target_takes_no_dodge(
    made,
) -> None:
    # 2d6 + 1 + 1 + 0 - 2 >= 8: 2d6 >= 8, 15/36 (a shot at it: -1 dodge, 2d6 >= 7, 21/36).
    battle = _guards_and_civilian(made)
    ada, foe = battle.sheet("ada"), battle.sheet("foe")
    answer = battle.ruleset.suppression(battle.bf, ada, foe)
    codes = {m.code: m.value for m in answer.modifiers}
    assert codes["dm_suppression"] == -2 and "dm_dodge" not in codes
    assert answer.chance == Fraction(15, 36)
    assert "C-1" in answer.rules


def test_000_l319_a_success_takes_the_effect_off_the_initiative_and_minus_1_two_rounds(
    made,
) -> None:
    battle = _guards_and_civilian(made)
    battle.roller.supply(6, 6)  # 12 + 0 = 12: Effect 4
    _ok(battle, cmd.Attack("ada", "foe", suppress=True))
    fire = [e for e in battle.log if e.kind == "suppression_fire"]
    assert [(e.data["hit"], e.data["effect"]) for e in fire] == [(True, 4)]
    assert [e for e in battle.log if e.kind in ("damage", "reacted")] == []
    suppressed = [e.data for e in battle.log if e.kind == "suppressed"]
    assert suppressed == [{"unit": "foe", "by": "ada", "initiative": -4, "round": 1}]
    assert _totals(battle)["foe"] == 2 - 4  # it has still to act: this round's (000:l.77)
    assert battle.turn("ada").action == "attack"  # the significant action (l.245)
    # Its own attacks: -1 (l.319) this round...
    assert _dms(battle, "foe", "ada")["dm_suppressed"] == -1
    _ok(battle, cmd.EndTurn("ada"))
    _ok(battle, cmd.EndTurn("bo"))
    _ok(battle, cmd.EndTurn("foe"))
    # ... and the next, its score back (a change lasts one round); not in the third.
    assert battle.round == 2 and _totals(battle)["foe"] == 2
    assert _dms(battle, "foe", "ada")["dm_suppressed"] == -1
    for unit in ("ada", "bo", "foe"):
        _ok(battle, cmd.EndTurn(unit))
    assert battle.round == 3
    assert "dm_suppressed" not in _dms(battle, "foe", "ada")


def test_000_l321_suppressed_again_before_acting_only_a_higher_effect_counts(made) -> None:
    battle = _guards_and_civilian(made)
    battle.roller.supply(6, 6)  # Effect 4: -4
    _ok(battle, cmd.Attack("ada", "foe", suppress=True))
    _ok(battle, cmd.EndTurn("ada"))
    _ok(battle, cmd.Aim("bo", "foe"))  # +1 (000:l.87): 2d6 + 1 + 1 + 1 - 2
    battle.roller.supply(6, 6)  # 13: Effect 5, one more than the 4 already taken
    _ok(battle, cmd.Attack("bo", "foe", suppress=True))
    changes = [e.data["initiative"] for e in battle.log if e.kind == "suppressed"]
    assert changes == [-4, -1]
    assert _totals(battle)["foe"] == 2 - 5
    assert _tempo(battle, "foe").suppression == 5
    _ok(battle, cmd.EndTurn("bo"))
    assert battle.active == "foe"  # it has its chance to act: a new suppression counts afresh
    assert _tempo(battle, "foe").suppression == 0


def test_000_l319_a_failure_is_a_plain_miss(made) -> None:
    battle = _guards_and_civilian(made)
    battle.roller.supply(1, 1)
    _ok(battle, cmd.Attack("ada", "foe", suppress=True))
    assert [e.data["hit"] for e in battle.log if e.kind == "suppression_fire"] == [False]
    assert [e for e in battle.log if e.kind == "suppressed"] == []
    assert _totals(battle)["foe"] == 2 and _tempo(battle, "foe").suppressed == 0


def test_suppression_fire_needs_a_firearm_and_is_worded_in_the_log(made) -> None:
    battle = _guards_and_civilian(made)
    knife = battle.sheet("foe")
    own = knife.sheet
    assert isinstance(own, Sheet) and own.weapon is not None
    melee = replace(knife, sheet=replace(own, weapon=replace(own.weapon, kind="melee")))
    assert battle.ruleset.can_suppress(battle.bf, melee) == "needs_firearm"
    assert battle.ruleset.can_suppress(battle.bf, battle.sheet("ada")) is None
    battle.roller.supply(6, 6)
    _ok(battle, cmd.Attack("ada", "foe", suppress=True))
    texts = [event_text(e) for e in battle.log if e.kind in ("suppression_fire", "suppressed")]
    assert texts[0].startswith("ada lays suppression fire on foe")
    assert texts[1].startswith("foe is suppressed by ada: initiative -4")


def test_the_suppress_flag_is_journaled_only_when_set() -> None:
    assert cmd.Attack("ada", "foe").to_json() == {"cmd": "attack", "unit": "ada", "target": "foe"}
    fired = cmd.Attack("ada", "foe", suppress=True)
    assert fired.to_json()["suppress"] is True
    assert cmd.parse_command(fired.to_json()) == fired
    with pytest.raises(cmd.CommandError):
        cmd.Attack("ada", at=(1, 1, 0), suppress=True)


def test_000_l321_a_lower_effect_before_it_acts_suppresses_it_again_for_nothing_more(
    made,
) -> None:
    battle = _guards_and_civilian(made)
    battle.roller.supply(6, 6)  # 12: Effect 4, -4
    _ok(battle, cmd.Attack("ada", "foe", suppress=True))
    _ok(battle, cmd.EndTurn("ada"))
    battle.roller.supply(5, 5)  # 2d6 + 1 + 1 - 2 = 10: Effect 2, below the 4 taken
    _ok(battle, cmd.Attack("bo", "foe", suppress=True))
    suppressed = [e.data for e in battle.log if e.kind == "suppressed"]
    assert suppressed[-1] == {"unit": "foe", "by": "bo", "initiative": 0, "round": 1}
    assert _totals(battle)["foe"] == 2 - 4 and _tempo(battle, "foe").suppression == 4
