"""Myst's mounted combat played in a battle (game/battle/mounted.py, combat.py; myst_mounted.py;
seed 002 l.118-185, M-1, M-2): gaits declared a turn ahead, the canter's pass and the lower of
skill and Cavalcare, the gallop's Strength cap and its "no action after defending", the 60/40
split of a ranged hit on horse and rider, the violent blow's Cavalcare roll and the fall;
numbers worked out by hand.

The sheets are the samples: `knight` is the `cavaliere` (attack 50, defence 52 with a shield of
12, Strength 38: +2 on the table's 38-45 row, a lancia 1d6, Cavalcare 46, Atletica 44, Status
Globale 34, priority 11, speed 8, its horse's Status Globale the assumed 40), `human` the
`popolano` (attack 30, defence 32, Strength 18: +0, a forcone 1d3, Status Globale 22, priority 9)
and `scavenger` the `arciere` (attack 48, defence 38, Strength 22: +0, an arco 1d6, priority 14).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.events import Event
from game.battle.outcome import Outcome
from game.battle.setup import UnitSpec
from game.rules.dice import Roller
from game.tactics.rulesets.myst_battle import BATTLE
from game.text.explain import modifier_line
from game.text.explain_battle import event_text, why_text
from game.text.i18n import speaking
from tests.battle.myst_fields import myst_battle, myst_sheet


@pytest.fixture
def joust() -> Iterator[Battle]:
    """Osric the knight next to Desmond on foot, Osric first (11 + 10 against 9 + 1)."""
    b = myst_battle(
        (
            UnitSpec("osric", "a", (0, 0, 0), template="knight"),
            UnitSpec("desmond", "b", (1, 0, 0), template="human"),
        ),
        (10, 1),
    )
    yield b
    b.close()


@pytest.fixture
def volley() -> Iterator[Battle]:
    """Ivo the archer six cells from Osric the knight, Ivo first (14 + 10 against 11 + 1)."""
    b = myst_battle(
        (
            UnitSpec("ivo", "b", (6, 0, 0), template="scavenger"),
            UnitSpec("osric", "a", (0, 0, 0), template="knight"),
        ),
        (10, 1),
    )
    yield b
    b.close()


def _ok(b: Battle, command: cmd.Command) -> Outcome:
    outcome = b.apply(command, GM)
    assert outcome.accepted, outcome.refusal
    return outcome


def _event(outcome: Outcome, kind: str) -> Event:
    return next(e for e in outcome.events if e.kind == kind)


def _next_turn_of(b: Battle, unit: str) -> None:
    """End turns until `unit`'s comes round again."""
    _ok(b, cmd.EndTurn(b.initiative.active or ""))
    while b.initiative.active != unit:
        _ok(b, cmd.EndTurn(b.initiative.active or ""))


def _ride_to(b: Battle, gait: str) -> None:
    """Declare each step of the way to `gait`, one a turn (002:l.153)."""
    steps = {"canter": ("canter",), "gallop": ("canter", "gallop")}[gait]
    for step in steps:
        _ok(b, cmd.Gait("osric", step))
        _next_turn_of(b, "osric")


def test_m1_a_change_of_gait_is_declared_and_taken_only_at_the_riders_next_turn(
    joust: Battle,
) -> None:
    # 002:l.153 "non può avvenire nel giro di un istante. Il Personaggio dovrà dichiarare le sue
    # intenzioni di cambiare andatura, e i suoi avversari potranno regolarsi di conseguenza".
    b = joust
    declared = _event(_ok(b, cmd.Gait("osric", "canter")), "gait_declared")
    assert declared.data == {"unit": "osric", "gait": "canter"}
    assert (myst_sheet(b, "osric").gait, myst_sheet(b, "osric").gait_next) == ("walk", "canter")
    with speaking("en"):
        assert event_text(declared) == (
            "osric declares its horse's gait: at a canter from its next turn (002:l.153)."
        )
    with speaking("it"):
        assert "canter" in event_text(declared) and "declares" not in event_text(declared)
    # Walk to gallop is two steps: refused now, and a rider on foot has no gait at all.
    refused = b.apply(cmd.Gait("osric", "gallop"), GM)
    assert refused.refusal is not None and refused.refusal.code == "gait_too_far"
    _next_turn_of(b, "osric")
    assert (myst_sheet(b, "osric").gait, myst_sheet(b, "osric").gait_next) == ("canter", None)
    _next_turn_of(b, "desmond")
    on_foot = b.apply(cmd.Gait("desmond", "canter"), GM)
    assert on_foot.refusal is not None and on_foot.refusal.code == "not_mounted"
    with speaking("it"):
        assert why_text("not_mounted", {"unit": "desmond"}) != "desmond is not on horseback."


def test_m1_at_a_canter_the_knight_strikes_in_passing_with_the_lower_of_lance_and_cavalcare(
    joust: Battle,
) -> None:
    b = joust
    _ride_to(b, "canter")
    # 002:l.138: the horse rides past: no blow standing still (assumed: 1 cell ridden first).
    still = b.apply(cmd.Attack("osric", "desmond"), GM)
    assert still.refusal is not None and still.refusal.values["reason"] == "no_riding_pass"
    _ok(b, cmd.Move("osric", (0, 1, 0)))  # still next to Desmond at (1, 0, 0)
    # 002:l.136: min(50, Cavalcare 46) = 46, + 10 mounted (l.128) = 56 against 32.
    answer = BATTLE.attack(b.bf, b.sheet("osric"), b.sheet("desmond"))
    assert answer.detail.exchange.attack == 56 and answer.detail.exchange.defence == 32
    with speaking("en"):
        lines = [modifier_line(m) for m in answer.modifiers]
    assert "Cavalcare lower than the skill: attack -4 (M-1)" in lines
    assert "at a canter: one round, the lower of skill and Cavalcare (M-1)" in lines
    # 56 + 15 = 71 against 32 + 15 = 47: a margin of 24, 4 units; the lancia shows 3: +2 from
    # Strength (its cap, no gallop), 2 on the minimum: max(3, 2) + 2 = 5; 22 - 5 = 17.
    _ok(b, cmd.EnterRoll((5, 5, 5, 5, 5, 5, 3)))
    hit = _ok(b, cmd.Attack("osric", "desmond"))
    assert _event(hit, "attack").data["attack_total"] == 71
    assert _event(hit, "damage").data["damage"] == 5 and myst_sheet(b, "desmond").status == 17
    # A margin of 24 is a violent blow only on a rider (Desmond is on foot): no riding check.
    assert not [e for e in hit.events if e.kind == "riding_check"]


def test_m1_at_a_gallop_the_cap_is_3_higher_and_the_defender_has_no_action_after_it(
    joust: Battle,
) -> None:
    b = joust
    _ride_to(b, "gallop")
    _ok(b, cmd.Move("osric", (0, 1, 0)))
    # 002:l.142-143: 46 + 10 = 56 against 32; 56 + 15 = 71 against 47, margin 24, 4 units;
    # Strength cap +2 + 3 = 5 (the margin buys 4): the caps the attacker may choose from.
    _ok(b, cmd.EnterRoll((5, 5, 5, 5, 5, 5, 3)))
    hit = _ok(b, cmd.Attack("osric", "desmond", margin="ask"))
    assert _event(hit, "margin_won").data["caps"]["strength"] == 4
    spent = _ok(b, cmd.SpendMargin("osric", strength=4))
    assert _event(spent, "margin_spent").data["damage"] == 7  # the die's 3 + 4
    # 002:l.144: Desmond defended in a gallop's exchange: no action for it this round.
    told = [e for e in hit.events if e.kind == "gallop_defended"]
    assert told and told[0].data["unit"] == "desmond" and myst_sheet(b, "desmond").gallop_defended
    _ok(b, cmd.EndTurn("osric"))
    barred = b.apply(cmd.Attack("desmond", "osric"), GM)
    assert barred.refusal is not None and barred.refusal.values["reason"] == "defended_at_gallop"
    _next_turn_of(b, "desmond")  # the next round
    assert not myst_sheet(b, "desmond").gallop_defended


def test_m1_a_ranged_hit_on_horse_and_rider_strikes_the_horse_on_60_or_less(
    volley: Battle,
) -> None:
    b = volley
    # 002:l.150: a large target (assumed +10): 48 + 10 = 58; defended as the horse from the
    # ground: 52 - 12 (no shield, l.149) + 10 mounted = 50. 58 + 15 = 73 against 50 + 14 = 64:
    # a margin of 9 (1 unit, on the minimum: the arciere's Strength cap is 0); the d100 shows
    # 30: the horse; the arco shows 4: the horse's 40 - 4 = 36, the rider untouched.
    _ok(b, cmd.EnterRoll((5, 5, 5, 5, 5, 4, 30, 4)))
    shot = _ok(b, cmd.Attack("ivo", "osric"))
    attack = _event(shot, "attack").data
    assert (attack["attack_total"], attack["defence_total"]) == (73, 64)
    assert (attack["struck"], attack["struck_roll"]) == ("horse", 30)
    damage = _event(shot, "damage")
    assert damage.data["type"] == "horse" and damage.data["effects"] == ["horse_hit"]
    assert (myst_sheet(b, "osric").horse, myst_sheet(b, "osric").status) == (36, 34)
    with speaking("en"):
        assert event_text(damage).startswith("osric takes 4 horse damage")
    # Next round, a d100 of 61 strikes the rider: 34 - 4 = 30.
    _next_turn_of(b, "ivo")
    _ok(b, cmd.EnterRoll((5, 5, 5, 5, 5, 4, 61, 4)))
    shot = _ok(b, cmd.Attack("ivo", "osric"))
    assert _event(shot, "attack").data["struck"] == "rider"
    assert (myst_sheet(b, "osric").horse, myst_sheet(b, "osric").status) == (36, 30)


def test_m1_a_violent_shot_failed_by_20_on_cavalcare_throws_the_knight_who_rolls_atletica(
    volley: Battle,
) -> None:
    b = volley
    # 58 + 30 = 88 against 50 + 3 = 53: a margin of 35 (violent: assumed 20+); the d100's 30
    # strikes the horse for the arco's 6 (40 - 6 = 34). 002:l.154: Cavalcare 46 + 3 = 49
    # against the blow's 88, 39 short: thrown. 002:l.162-165: Atletica 44 + 3 = 47 against 50,
    # 3 short: 1d3 to Status Globale, showing 2: 34 - 2 = 32, and on foot.
    _ok(b, cmd.EnterRoll((10, 10, 10, 1, 1, 1, 30, 6, 1, 1, 1, 1, 1, 1, 2)))
    shot = _ok(b, cmd.Attack("ivo", "osric"))
    kinds = [e.kind for e in shot.events]
    assert kinds.index("riding_check") < kinds.index("unhorsed")
    check = _event(shot, "riding_check").data
    assert (check["total"], check["difficulty"], check["failed_by"]) == (49, 88, 39)
    fall = _event(shot, "unhorsed").data
    assert (fall["total"], fall["difficulty"], fall["failed_by"], fall["damage"]) == (
        47,
        50,
        3,
        2,
    )
    after = myst_sheet(b, "osric")
    assert (after.mounted, after.status, after.horse) == (False, 32, 34)
    falls = [e for e in shot.events if e.kind == "damage" and e.data["source"] == "fall"]
    assert falls and falls[0].data["type"] == "impatto"  # 002:l.158 "da impatto"
    with speaking("it"):
        assert "Atletica 47" in event_text(_event(shot, "unhorsed"))


def test_m1_a_shaken_rider_keeps_its_saddle_with_a_penalty_of_the_margin(
    volley: Battle,
) -> None:
    b = volley
    # 88 against 53 as above; Cavalcare 46 + 30 = 76 against 88: 12 short, "una penalità pari
    # allo Scarto" (002:l.154) on its next exchange, still mounted.
    _ok(b, cmd.EnterRoll((10, 10, 10, 1, 1, 1, 30, 6, 10, 10, 10)))
    shot = _ok(b, cmd.Attack("ivo", "osric"))
    assert _event(shot, "riding_check").data["failed_by"] == 12
    assert myst_sheet(b, "osric").mounted and b.sheet("osric").unbalanced == 12


def test_m1_a_melee_attacker_who_names_the_horse_strikes_it_past_the_shield(
    joust: Battle,
) -> None:
    b = joust
    _ok(b, cmd.EndTurn("osric"))
    told = _event(_ok(b, cmd.StrikeHorse("desmond")), "strike_horse")
    assert told.data == {"unit": "desmond", "horse": True}
    # 002:l.149-150: the horse defended from the ground without the shield: 52 - 12 + 10 = 50
    # against Desmond's 30.
    answer = BATTLE.attack(b.bf, b.sheet("desmond"), b.sheet("osric"))
    assert answer.detail.exchange.defence == 50
    # 30 + 30 = 60 against 50 + 3 = 53: a margin of 7, 1 unit on the minimum; the forcone's
    # 1d3 shows 2: max(2, 1) = 2 to the horse: 40 - 2 = 38.
    _ok(b, cmd.EnterRoll((10, 10, 10, 1, 1, 1, 2)))
    hit = _ok(b, cmd.Attack("desmond", "osric"))
    assert _event(hit, "attack").data["struck"] == "horse"
    assert (myst_sheet(b, "osric").horse, myst_sheet(b, "osric").status) == (38, 34)


def test_m1_a_rider_whose_horse_goes_down_falls_at_its_gait() -> None:
    # 002:l.156 "cadere da cavallo"; the horse at 5 takes 6 (M-2): down. At a canter (l.171,
    # 173): Atletica 44 + 6 + 6 + 4 = 60 reaches 60: "1d4 danni allo Status Globale", showing 3.
    from dataclasses import replace

    from game.rules.myst.data import load

    knight = replace(load().samples["cavaliere"], horse=5, gait="canter")
    field = myst_battle((UnitSpec("osric", "a", (0, 0, 0), template="knight"),), (5,))
    try:
        unit = replace(field.sheet("osric"), sheet=knight)
        harm = BATTLE.damage(field.bf, unit, "horse", 6)
        assert harm.effects == ("horse_down",) and harm.after.horse == 0
    finally:
        field.close()
    roller = Roller(1)
    roller.supply(6, 6, 4, 3)
    (fall,) = BATTLE.horse_fall(roller, harm.after)
    assert fall.kind == "unhorsed" and fall.fall_damage == 3
    assert (fall.logged["total"], fall.logged["difficulty"], fall.logged["why"]) == (
        60,
        60,
        "horse_down",
    )
    assert not fall.sheet.mounted


def test_m1_the_boards_menu_offers_a_rider_one_gait_step_and_every_unit_whom_to_strike(
    joust: Battle,
) -> None:
    # 002:l.153: one step at a time, the gait it rides at already refused; 002:l.150: a melee
    # attacker names horse or rider. The options are the engine's own checks.
    from game.battle import options as opts

    b = joust
    knight = {o.kind: o for o in opts.riding(b, GM, "osric")}
    assert list(knight) == [
        "gait:walk", "gait:canter", "gait:gallop", "strike_horse:horse", "strike_horse:rider",
    ]  # fmt: skip
    assert knight["gait:canter"].allowed
    assert knight["gait:walk"].refusal is not None
    assert knight["gait:walk"].refusal.code == "same_gait"
    assert knight["gait:gallop"].refusal is not None
    assert knight["gait:gallop"].refusal.code == "gait_too_far"
    on_foot = [o.kind for o in opts.riding(b, GM, "desmond")]
    assert on_foot == ["strike_horse:horse", "strike_horse:rider"]
