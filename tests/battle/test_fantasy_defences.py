"""Fantasy (seed 003) defending against several attacks: the battle counts the defences a
fighter made since its own turn began, the preview asks with the same count, one ranged attack
a turn is defended, and the log shows every defence roll (003:l.160-166, RULESETS.md 2.4)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from game.battle import commands as cmd
from game.battle import preview
from game.battle.engine import Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.ecs.components import RulesetSheet
from game.rules.data import load_rules
from game.rules.fantasy import combat
from game.rules.fantasy.data import Sheet, load
from game.scenario.parse import parse_scenario
from game.tactics.battlefield import Battlefield
from game.tactics.rulesets.fantasy_battle import BATTLE
from game.text.explain_battle import fantasy_rolls_text
from game.text.i18n import speaking
from tests.battle.conftest import OPEN_FIELD, ascii_grid


@pytest.fixture
def battles() -> Iterator[list[Battle]]:
    made: list[Battle] = []
    yield made
    for b in made:
        b.close()


def _battle(made: list[Battle], *units: UnitSpec) -> Battle:
    setup = BattleSetup(
        map_path="<test>", map_sha256="", seed=7, units=tuple(units), ruleset="fantasy"
    )
    b = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    made.append(b)
    return b


def _sheet(b: Battle, unit: str) -> Sheet:
    own = b.world.get(unit, RulesetSheet).sheet
    assert isinstance(own, Sheet)
    return own


def _ok(b: Battle, command: cmd.Command) -> list[dict[str, object]]:
    out = b.apply(command, "gm")
    assert out.accepted, out.refusal and out.refusal.code
    return [dict(e.data) for e in out.events if e.kind == "attack"]


def test_003_l162_agi_d8_with_dodge_d6_defends_skill_then_agi_d6_then_d4_and_stays_d4() -> None:
    # 003:l.164 "Se il numero di attacchi supera il numero di abilità di difesa del difensore,
    # quest'ultimo si difenderà da ogni attacco in eccesso utilizzando solo la caratteristica
    # AGI, con la caratteristica diminuita di un dado (minimo 1d4) per ogni attaccante oltre al
    # primo." The arciere: AGI d8, one defence, schivare d6. Attack 1: d8 + d6; attack 2: AGI
    # one die lower (one attacker beyond the first): d6; attack 3: two lower, d4; then d4.
    archer = load().samples["arciere"]
    got = [combat.defence_dice(load(), archer, melee=True, index=i) for i in (1, 2, 3, 4, 5)]
    assert got == [("d8", "d6"), ("d6",), ("d4",), ("d4",), ("d4",)]


def test_003_l162_two_defence_skills_are_used_one_per_attack_before_agi_alone() -> None:
    # 003:l.162 "utilizzando per ogni attacco avversario un'abilità di difesa diversa". The
    # duellante (AGI d10, DES d8): schivare d8 with AGI, then parare con l'arma d6 with DES,
    # then the third attacker: AGI d10 two dice lower, d6; the fourth d4 (d10 -> d8 -> d6 -> d4).
    duel = load().samples["duellante"]
    got = [combat.defence_dice(load(), duel, melee=True, index=i) for i in (1, 2, 3, 4)]
    assert got == [("d10", "d8"), ("d8", "d6"), ("d6",), ("d4",)]


def _field() -> Battlefield:
    entities = [
        {"id": "arc", "faction": "x", "at": [1, 0, 0], "sheet": {"sample": "arciere"}},
        {"id": "p1", "faction": "y", "at": [0, 0, 0], "sheet": {"sample": "popolano"}},
        {"id": "p2", "faction": "y", "at": [2, 0, 0], "sheet": {"sample": "popolano"}},
    ]
    scenario = {"ruleset": "fantasy", "map": {"size": [10, 4, 1]}, "entities": entities}
    return parse_scenario(scenario, Path.cwd())[0]


def _with_sheet(bf: Battlefield, unit: str, sheet: Sheet) -> Battlefield:
    entities = [replace(e, sheet=sheet) if e.id == unit else e for e in bf.entities]
    return replace(bf, entities=tuple(entities))


def test_003_l164_the_battle_answer_lowers_the_defence_after_each_defended_melee_attack() -> None:
    # after_defence counts the defended attack; the next attacker's answer asks index 2, and
    # the defender's own turn beginning clears the count (RULESETS.md 2.4).
    bf = _field()
    first = BATTLE.attack(bf, bf.entity("p1"), bf.entity("arc"))
    assert first.detail.plan.defence_dice == ("d8", "d6")
    after = BATTLE.after_defence(bf.entity("arc").sheet, first)
    assert after.defended == 1
    bf2 = _with_sheet(bf, "arc", after)
    second = BATTLE.attack(bf2, bf2.entity("p2"), bf2.entity("arc"))
    assert second.detail.plan.defence_dice == ("d6",)
    # The lowered defence is a worse one: the second attacker's chance is higher.
    assert second.chance is not None and first.chance is not None
    assert second.chance > first.chance
    began = BATTLE.turn_begins(None, bf2, bf2.entity("arc"), after)  # type: ignore[arg-type]
    assert began.after.defended == 0 and not began.after.ranged_defended


def test_003_l165_only_one_ranged_attack_a_turn_is_defended_the_others_as_unaware() -> None:
    # 003:l.165-166 "un personaggio può cercare di difendersi solo da un attacco a distanza ...
    # Gli altri attacchi a distanza verranno eseguiti come se il bersaglio non fosse cosciente".
    entities = [
        {"id": "t", "faction": "x", "at": [5, 0, 0], "sheet": {"sample": "arciere"}},
        {"id": "a1", "faction": "y", "at": [0, 0, 0], "sheet": {"sample": "arciere"}},
        {"id": "a2", "faction": "y", "at": [0, 2, 0], "sheet": {"sample": "arciere"}},
    ]
    scenario = {"ruleset": "fantasy", "map": {"size": [10, 4, 1]}, "entities": entities}
    bf = parse_scenario(scenario, Path.cwd())[0]
    first = BATTLE.attack(bf, bf.entity("a1"), bf.entity("t"))
    assert first.detail.plan.defence_dice == ("d8", "d6")  # schivare with AGI (003:l.165)
    after = BATTLE.after_defence(bf.entity("t").sheet, first)
    assert after.ranged_defended and after.defended == 0
    bf2 = _with_sheet(bf, "t", after)
    second = BATTLE.attack(bf2, bf2.entity("a2"), bf2.entity("t"))
    assert second.detail.plan.defence_dice is None  # a check against the DP (003:l.110)
    assert any("003:l.165" in w for w in second.why)
    # A melee attack on it is still defended with its first skill (the melee count is 0).
    assert BATTLE.after_defence(after, second) == after


def test_two_attackers_in_a_round_the_second_faces_the_lowered_defence_in_preview_and_battle(
    battles: list[Battle],
) -> None:
    # The keep's table: two attackers on one defender in the same round. The arciere (AGI d8,
    # scavenger template) acts first (F-1) and ends its turn; the popolani attack it in turn.
    b = _battle(
        battles,
        UnitSpec("arc", "x", (1, 0, 0), template="scavenger"),
        UnitSpec("p1", "y", (0, 0, 0), template="human"),
        UnitSpec("p2", "y", (2, 0, 0), template="human"),
    )
    assert b.active == "arc"
    _ok(b, cmd.EndTurn("arc"))
    assert b.active == "p1"
    shown1 = preview.attack(b, "gm", "p1", "arc")
    assert shown1 is not None and shown1.attack.detail.plan.defence_dice == ("d8", "d6")
    (first,) = _ok(b, cmd.Attack("p1", "arc"))
    assert first["defence_dice"] == "d8+d6" and first["defence_total"] is not None
    _ok(b, cmd.EndTurn("p1"))
    assert b.active == "p2"
    assert _sheet(b, "arc").defended == 1
    shown2 = preview.attack(b, "gm", "p2", "arc")
    assert shown2 is not None and shown2.attack.detail.plan.defence_dice == ("d6",)
    (second,) = _ok(b, cmd.Attack("p2", "arc"))
    # The preview's chance is the one the battle rolled against (the same count asked).
    assert second["defence_dice"] == "d6" and second["chance"] != first["chance"]
    assert second["chance"] == str(shown2.attack.chance.numerator) + "/" + str(
        shown2.attack.chance.denominator
    )
    _ok(b, cmd.EndTurn("p2"))
    if not _sheet(b, "arc").dead:
        assert b.active == "arc" and _sheet(b, "arc").defended == 0


def test_the_log_shows_the_defence_roll_of_a_nothing_outcome_and_no_defence_otherwise() -> None:
    # 003:l.91, 103: "nothing" happens when both fail: the defence was still rolled.
    with speaking("en"):
        shown = fantasy_rolls_text(
            {"attack_total": 5, "dp": 8, "defence_dice": "d6", "defence_total": 3}
        )
        plain = fantasy_rolls_text({"attack_total": 9, "dp": 8, "defence_dice": None})
    assert shown == "(attack 5 against DP 8; defence d6: 3)"
    assert plain == "(attack 9 against DP 8, no defence)"


def test_003_l164_the_third_attackers_chance_against_agi_d4_alone_worked_by_hand() -> None:
    # The arciere (AGI d8, schivare d6) with a DP of 4 (vpb 4, no shield, 003:l.76) has
    # defended twice since its turn: the third attacker faces AGI two dice lower, d4 alone
    # (003:l.164). The attacker: POT d4 and a bare fist (no skill, 003:l.79), exploding (F-1).
    # A hit: A > DP 4 and A > D (F-2), so the first d4 must show 4 (A = 4 + d4! >= 5).
    #   D <= 3 (3/4): any such A wins: 1/4 x 3/4 = 3/16.
    #   D = 4 + D' (1/4): A' > D', both d4!: ties t = 3/16 + t/16, t = 1/5; by symmetry
    #   (1 - 1/5) / 2 = 2/5: 1/4 x 1/4 x 2/5 = 1/40.
    # 3/16 + 1/40 = 15/80 + 2/80 = 17/80.
    entities = [
        {"id": "arc", "faction": "x", "at": [1, 0, 0], "sheet": {"sample": "arciere", "vpb": 4}},
        {"id": "f", "faction": "y", "at": [0, 0, 0], "sheet": {"pot": "d4"}},
    ]
    scenario = {"ruleset": "fantasy", "map": {"size": [10, 4, 1]}, "entities": entities}
    bf = parse_scenario(scenario, Path.cwd())[0]
    tired = replace(bf.entity("arc").sheet, defended=2)
    bf = _with_sheet(bf, "arc", tired)
    third = BATTLE.attack(bf, bf.entity("f"), bf.entity("arc"))
    assert third.detail.plan.defence_dice == ("d4",) and third.detail.plan.dp == 4
    assert third.chance == Fraction(17, 80)
