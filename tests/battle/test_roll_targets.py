"""P-CHK-4: "Every roll is logged with its dice, modifiers and target." The checks that have a
target log it (the medkit's medicine check, hiding); the rolls that have none are listed in
docs/rules.md (initiative, damage, a throw's deviation, a search, whose targets are the hidden
units' stealth totals the searcher's side may not be told).

Numbers worked by hand from seed 001 and RULINGS.md; dice are entered as the GM would.
"""

from __future__ import annotations

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.setup import UnitSpec
from tests.battle.conftest import MakeBattle

ADA = UnitSpec("ada", "red", (1, 3, 0), weapon="pistol")
BO = UnitSpec("bo", "blue", (9, 3, 0))


def _event(outcome: object, kind: str):  # type: ignore[no-untyped-def]
    return next(e for e in outcome.events if e.kind == kind)  # type: ignore[attr-defined]


def test_p_chk_4_the_medkit_medicine_check_on_a_grave_wound_is_logged_with_its_dc_12(
    make_battle: MakeBattle,
) -> None:
    # d100 10 hits; 2d6 = 3 + 4 = 7 perforante: 6-9, a grave wound (P-VUL-1). bo treats it:
    # "Curare ferita grave: ... con una prova di applicazione (medicina) DC12" (seed 001); the
    # d20 shows 11, bonus 0: 11 < 12, the check fails and the kit is spent all the same.
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    b.apply(cmd.EnterRoll((10, 3, 4)), GM)
    b.apply(cmd.Attack("ada", "bo"), "red")
    assert b.sheet("bo").health.grave == 1
    b.apply(cmd.EndTurn("ada"), "red")
    b.apply(cmd.EnterRoll((11,)), GM)
    treated = b.apply(cmd.UseObject("bo", "bo", "grave"), "blue")
    medkit = _event(treated, "medkit")
    assert medkit.data["result"] == "check_failed"
    (roll,) = medkit.rolls
    assert (roll.total, roll.target, roll.target_kind, roll.outcome) == (11, 12, "dc", "failure")
    assert medkit.to_json()["rolls"][0]["target"] == 12


def test_p_chk_4_the_medkit_check_on_an_allys_mortal_wound_is_logged_with_its_dc_15(
    make_battle: MakeBattle,
) -> None:
    # Two hits of 2d6 = 7 and 6 (+2 for the grave wound carried, P-VUL-1): two grave wounds, one
    # mortal (P-VUL-2). Cy, bo's ally next to it, treats it: "ferita mortale ... DC15"; a total
    # of 12 fails the DC 15 but passes "la soglia DC10": bo is stabilised (P-HEAL-1).
    cy = UnitSpec("cy", "blue", (9, 4, 0))
    b: Battle = make_battle([ADA, BO, cy], initiative=(15, 5, 4))
    b.apply(cmd.EnterRoll((10, 3, 4)), GM)
    b.apply(cmd.Attack("ada", "bo"), "red")
    b.apply(cmd.EndTurn("ada"), "red")
    b.apply(cmd.EndTurn("bo"), "blue")
    b.apply(cmd.EndTurn("cy"), "blue")
    b.apply(cmd.EnterRoll((10, 3, 3)), GM)
    b.apply(cmd.Attack("ada", "bo"), "red")
    assert b.sheet("bo").health.mortal == 1
    b.apply(cmd.EnterRoll((15,)), GM)  # bo's death save at its turn's start
    b.apply(cmd.EndTurn("ada"), "red")
    assert b.active == "bo"  # dying, it still takes its turn (P-DEATH-1)
    b.apply(cmd.EndTurn("bo"), "blue")
    assert b.active == "cy"
    b.apply(cmd.EnterRoll((12,)), GM)
    treated = b.apply(cmd.UseObject("cy", "bo", "mortal"), "blue")
    medkit = _event(treated, "medkit")
    assert medkit.data["result"] == "stabilised"
    (roll,) = medkit.rolls
    assert (roll.total, roll.target, roll.target_kind) == (12, 15, "dc")


def test_p_chk_4_a_hide_roll_is_logged_against_the_highest_enemy_passive_perception(
    make_battle: MakeBattle,
) -> None:
    # Behind a wall from both enemies. Passive perception = 10 + `multitasking (percezione)`
    # (P-CHK-3): a plain human 10, a station guard 10 + 1 = 11. The hide meets every enemy's
    # passive perception to hide from that side, so its target is 11; d20 = 11 hides ada.
    picture = "\n".join(["....#......."] * 7)
    guard = UnitSpec("gu", "blue", (9, 1, 0), template="station_guard")
    b: Battle = make_battle(
        [UnitSpec("ada", "red", (1, 3, 0)), UnitSpec("bo", "blue", (9, 5, 0)), guard],
        picture,
        initiative=(15, 5, 4),
    )
    b.apply(cmd.EnterRoll((11,)), GM)
    hid = b.apply(cmd.Hide("ada"), "red")
    hide = _event(hid, "hide")
    (roll,) = hide.rolls
    assert (roll.total, roll.target, roll.target_kind, roll.outcome) == (11, 11, "dc", "success")
    assert hide.data["success"] is True
