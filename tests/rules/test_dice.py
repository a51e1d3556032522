"""Tests for game.rules.dice: expressions, advantage, GM dice, the roll log (P-CHK-2, P-CHK-4)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.rules.dice import (
    Advantage,
    DiceError,
    DiceExpr,
    Roller,
    RollRecord,
    RollRequest,
)
from game.text.explain import roll_line

# --- expressions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count", "sides", "modifier", "shown"),
    [
        ("2d6+1", 2, 6, 1, "2d6+1"),
        ("d20", 1, 20, 0, "d20"),
        ("1D8", 1, 8, 0, "d8"),
        ("2d6 - 1", 2, 6, -1, "2d6-1"),
        ("3", 0, 0, 3, "3"),
        ("-2", 0, 0, -2, "-2"),
    ],
)
def test_dice_expr_parse_reads_the_usual_notations(
    text: str, count: int, sides: int, modifier: int, shown: str
) -> None:
    expr = DiceExpr.parse(text)
    assert (expr.count, expr.sides, expr.modifier) == (count, sides, modifier)
    assert str(expr) == shown


def test_dice_expr_min_and_max_of_2d6_plus_1_are_3_and_13() -> None:
    # min: 1 + 1 + 1 = 3; max: 6 + 6 + 1 = 13
    expr = DiceExpr.parse("2d6+1")
    assert (expr.min, expr.max) == (3, 13)


def test_dice_expr_min_and_max_of_a_constant_are_the_constant() -> None:
    expr = DiceExpr.parse("3")
    assert (expr.min, expr.max) == (3, 3)


@pytest.mark.parametrize("text", ["2x6", "", "d", "0d6", "2d0", "2d6+", "5000d6"])
def test_dice_expr_parse_rejects_nonsense_naming_the_text(text: str) -> None:
    with pytest.raises(DiceError, match=re.escape(repr(text))):
        DiceExpr.parse(text)


def test_dice_error_is_a_value_error() -> None:
    assert issubclass(DiceError, ValueError)


# --- advantage -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("advantage", "disadvantage", "expected"),
    [
        (False, False, Advantage.NONE),
        (True, False, Advantage.ADVANTAGE),
        (False, True, Advantage.DISADVANTAGE),
        (True, True, Advantage.NONE),
    ],
)
def test_p_chk_2_advantage_and_disadvantage_at_once_cancel(
    advantage: bool, disadvantage: bool, expected: Advantage
) -> None:
    assert Advantage.combine(advantage, disadvantage) is expected


def test_p_chk_2_d20_advantage_keeps_the_higher_face() -> None:
    roller = Roller(0)
    roller.supply(7, 15)
    record = roller.d20("stealth", bonus=2, advantage=Advantage.ADVANTAGE, dc=12)
    # keep 15; 15 + 2 = 17 >= 12
    assert record.dice == (7, 15)
    assert record.kept == (15,)
    assert record.dropped == (7,)
    assert record.total == 17
    assert record.outcome == "success"


def test_p_chk_2_d20_disadvantage_keeps_the_lower_face() -> None:
    roller = Roller(0)
    roller.supply(7, 15)
    record = roller.d20("stealth", bonus=2, advantage=Advantage.DISADVANTAGE, dc=12)
    # keep 7; 7 + 2 = 9 < 12
    assert record.kept == (7,)
    assert record.dropped == (15,)
    assert record.total == 9
    assert record.outcome == "failure"


def test_p_chk_2_d100_advantage_keeps_the_lower_face_because_lower_is_better() -> None:
    roller = Roller(0)
    roller.supply(37, 82)
    record = roller.d100("to-hit ada→bo", advantage=Advantage.ADVANTAGE, p=52)
    # keep 37; 37 <= 52: hit
    assert record.kept == (37,)
    assert record.dropped == (82,)
    assert record.outcome == "hit"


def test_p_chk_2_d100_disadvantage_keeps_the_higher_face() -> None:
    roller = Roller(0)
    roller.supply(37, 82)
    record = roller.d100("to-hit ada→bo", advantage=Advantage.DISADVANTAGE, p=52)
    # keep 82; 82 > 52: miss
    assert record.kept == (82,)
    assert record.outcome == "miss"


@given(seed=st.integers(0, 2**32), higher=st.booleans())
def test_p_chk_2_property_d20_advantage_keeps_the_better_of_its_two_faces(
    seed: int, higher: bool
) -> None:
    advantage = Advantage.ADVANTAGE if higher else Advantage.DISADVANTAGE
    record = Roller(seed).d20("x", advantage=advantage)
    assert len(record.dice) == 2
    assert record.kept == ((max if higher else min)(record.dice),)
    assert sorted(record.kept + record.dropped) == sorted(record.dice)
    assert 1 <= record.total <= 20


@given(seed=st.integers(0, 2**32), lower=st.booleans())
def test_p_chk_2_property_d100_advantage_keeps_the_lower_of_its_two_faces(
    seed: int, lower: bool
) -> None:
    advantage = Advantage.ADVANTAGE if lower else Advantage.DISADVANTAGE
    record = Roller(seed).d100("x", advantage=advantage)
    assert record.kept == ((min if lower else max)(record.dice),)
    assert 1 <= record.total <= 100


# --- checks against a DC and P ----------------------------------------------------------------


def test_p_chk_1_d20_meets_the_dc_exactly_and_succeeds() -> None:
    roller = Roller(0)
    roller.supply(10)
    # 10 + 2 = 12 meets DC 12
    record = roller.d20("athletics", bonus=2, dc=12)
    assert (record.total, record.outcome) == (12, "success")
    assert (record.target, record.target_kind) == (12, "dc")


def test_p_chk_1_d20_one_below_the_dc_fails() -> None:
    roller = Roller(0)
    roller.supply(9)
    # 9 + 2 = 11 < 12
    assert roller.d20("athletics", bonus=2, dc=12).outcome == "failure"


def test_d20_without_dc_has_no_outcome() -> None:
    roller = Roller(0)
    roller.supply(5)
    record = roller.d20("initiative", bonus=-1)
    assert (record.total, record.outcome, record.target) == (4, None, None)


@pytest.mark.parametrize(
    ("face", "p", "outcome"),
    [(52, 52, "hit"), (53, 52, "miss"), (1, 0, "hit"), (100, 100, "miss"), (99, 100, "hit")],
)
def test_p_chk_4_d100_against_p_follows_p_hit_1(face: int, p: int, outcome: str) -> None:
    # P-HIT-1: hit iff roll <= P, but 1 always hits and 100 always misses
    roller = Roller(0)
    roller.supply(face)
    assert roller.d100("to-hit", p=p).outcome == outcome


def test_d100_rejects_a_hit_chance_outside_0_to_100() -> None:
    with pytest.raises(DiceError, match="101"):
        Roller(0).d100("to-hit ada→bo", p=101)


# --- GM dice ---------------------------------------------------------------------------------


def test_p_chk_4_supplied_faces_are_used_and_marked_as_gm_dice() -> None:
    roller = Roller(0)
    roller.supply(4, 3)
    record = roller.roll("2d6+1", "damage")
    # 4 + 3 + 1 = 8
    assert record.dice == (4, 3)
    assert record.total == 8
    assert record.source == "gm"
    assert roller.supplied == ()


def test_p_chk_4_a_machine_roll_is_marked_random() -> None:
    assert Roller(0).roll("2d6").source == "random"


def test_p_chk_4_a_supplied_23_for_a_d20_names_the_die_and_the_value() -> None:
    roller = Roller(0)
    roller.supply(23, 5)
    with pytest.raises(DiceError, match=r"23.*d20"):
        roller.d20("initiative ada")
    # the rest of the bad entry is dropped, not used by a later roll
    assert roller.supplied == ()


@pytest.mark.parametrize("face", [0, -3, True])
def test_p_chk_4_supply_rejects_faces_that_are_no_die_result(face: int) -> None:
    with pytest.raises(DiceError, match="positive whole number"):
        Roller(0).supply(face)


def test_p_chk_4_supplied_faces_serve_the_next_dice_in_turn() -> None:
    roller = Roller(0)
    roller.supply(6, 2, 19)
    assert roller.die(6) == 6
    assert roller.die(4) == 2
    assert roller.d20("save").total == 19


def test_p_chk_4_too_few_supplied_faces_are_completed_by_the_machine() -> None:
    roller = Roller(0)
    roller.supply(11)
    record = roller.d20("stealth", advantage=Advantage.ADVANTAGE)
    assert record.dice[0] == 11
    assert len(record.dice) == 2
    # a record with any face entered by the GM counts as GM dice
    assert record.source == "gm"


def test_p_chk_4_gm_hook_is_asked_before_every_roll_and_its_faces_are_used() -> None:
    requests: list[RollRequest] = []

    def hook(request: RollRequest) -> list[int]:
        requests.append(request)
        return [17, 3][: request.count]

    roller = Roller(0, gm_hook=hook)
    record = roller.d20("perception bo", bonus=1, advantage=Advantage.ADVANTAGE, dc=15)
    # keep 17; 17 + 1 = 18 >= 15
    assert requests == [RollRequest("perception bo", 20, 2)]
    assert record.dice == (17, 3)
    assert record.total == 18
    assert record.source == "gm"


def test_p_chk_4_gm_hook_answering_none_lets_the_machine_roll() -> None:
    roller = Roller(0, gm_hook=lambda request: None)
    assert roller.roll("3d6").source == "random"


def test_p_chk_4_gm_hook_with_the_wrong_number_of_faces_is_refused() -> None:
    roller = Roller(0, gm_hook=lambda request: [4, 4])
    with pytest.raises(DiceError, match="2 faces"):
        roller.d20("save")


def test_p_chk_4_gm_hook_face_out_of_range_is_refused() -> None:
    roller = Roller(0, gm_hook=lambda request: [7])
    with pytest.raises(DiceError, match=r"7.*d6"):
        roller.die(6)


def test_p_chk_4_supplied_faces_take_precedence_over_the_hook() -> None:
    asked: list[RollRequest] = []
    roller = Roller(0, gm_hook=lambda request: asked.append(request))
    roller.supply(5)
    assert roller.die(8) == 5
    assert asked == []


@given(
    seed=st.integers(0, 2**32),
    faces=st.lists(st.integers(1, 20), min_size=1, max_size=10),
)
def test_p_chk_4_property_supplied_faces_are_used_verbatim(seed: int, faces: list[int]) -> None:
    roller = Roller(seed)
    roller.supply(*faces)
    record = roller.roll(DiceExpr(len(faces), 20))
    assert record.dice == tuple(faces)
    assert record.total == sum(faces)


# --- the log -----------------------------------------------------------------------------------


def test_p_chk_4_every_roll_is_logged_and_passed_to_on_roll() -> None:
    seen: list[RollRecord] = []
    roller = Roller(0, on_roll=seen.append)
    first = roller.roll("d6")
    second = roller.d20("save", dc=10)
    third = roller.die(4)
    assert roller.log == seen
    assert roller.log[:2] == [first, second]
    assert roller.log[2].total == third
    assert len(roller.log) == 3


def test_p_chk_4_roll_line_reads_like_the_combat_log() -> None:
    record = RollRecord(
        purpose="to-hit ada→bo",
        expression="d100",
        dice=(37, 82),
        kept=(37,),
        dropped=(82,),
        modifier=0,
        total=37,
        target=52,
        target_kind="p",
        outcome="hit",
        source="random",
        advantage=Advantage.ADVANTAGE,
    )
    assert roll_line(record) == "to-hit ada→bo: d100 [37, 82] keep 37 ≤ 52: hit"


def test_p_chk_4_roll_line_shows_bonus_total_dc_and_gm_dice() -> None:
    roller = Roller(0)
    roller.supply(14)
    # 14 + 3 = 17 >= 15
    record = roller.d20("perception bo", bonus=3, dc=15)
    assert roll_line(record) == "perception bo: d20+3 [14] = 17 vs DC 15: success (GM dice)"


def test_p_chk_4_roll_line_of_a_miss_and_of_a_natural_1() -> None:
    roller = Roller(0)
    roller.supply(82, 1)
    assert roll_line(roller.d100("to-hit", p=52)) == "to-hit: d100 [82] > 52: miss (GM dice)"
    assert roll_line(roller.d100("to-hit", p=0)) == (
        "to-hit: d100 [1] > 0 (1 always hits): hit (GM dice)"
    )


def test_p_chk_4_roll_line_of_a_damage_roll() -> None:
    roller = Roller(0)
    roller.supply(2, 5)
    # 2 + 5 + 1 = 8
    assert roll_line(roller.roll("2d6+1", "damage")) == "damage: 2d6+1 [2, 5] = 8 (GM dice)"


def test_p_chk_4_roll_record_survives_a_json_round_trip() -> None:
    roller = Roller(0)
    roller.supply(37, 82)
    record = roller.d100("to-hit ada→bo", advantage=Advantage.ADVANTAGE, p=52, secret=True)
    again = RollRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert again == record


def test_roll_record_from_dict_with_a_missing_field_raises_dice_error() -> None:
    data = Roller(0).roll("d6").to_dict()
    del data["total"]
    with pytest.raises(DiceError, match="total"):
        RollRecord.from_dict(data)


def test_roll_record_rejects_an_unknown_source() -> None:
    data = Roller(0).roll("d6").to_dict()
    data["source"] = "table"
    with pytest.raises(DiceError, match="table"):
        RollRecord.from_dict(data)


# --- seeds and state ---------------------------------------------------------------------------


@given(seed=st.integers(0, 2**64))
def test_property_same_seed_gives_the_same_rolls(seed: int) -> None:
    def rolls(roller: Roller) -> list[tuple[int, ...]]:
        return [
            roller.roll("3d6+2").dice,
            roller.d20("a", advantage=Advantage.ADVANTAGE).dice,
            roller.d100("b").dice,
            (roller.die(4),),
        ]

    assert rolls(Roller(seed)) == rolls(Roller(seed))


def test_getstate_and_setstate_replay_the_same_rolls_after_json() -> None:
    roller = Roller(42)
    roller.roll("5d20")
    saved = json.loads(json.dumps(roller.getstate()))
    after = [roller.die(20) for _ in range(10)]
    restored = Roller(7)
    restored.setstate(saved)
    assert [restored.die(20) for _ in range(10)] == after


def test_setstate_with_bad_state_raises_dice_error() -> None:
    with pytest.raises(DiceError, match="roller state"):
        Roller(0).setstate({"version": 3})
