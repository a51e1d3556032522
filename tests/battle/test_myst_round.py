"""Myst's charge, second defence and defence-margin moves played in a battle (game/battle/
combat.py, engine.py; M-1, M-2, seed 002 l.77-79 and l.187-193): the run-up counted from the
cells walked this turn, the -20 of a round's second defence and its cancelling, Priority over
the attacker next round, the computer's charge; numbers worked out by hand.

The sheets are the samples: `station_guard` is the `soldato` (attack 45, defence 50, Strength 30:
+1 on the table's 26-37 row, a spada 1d8, priority 12, speed 4) and `human` the `popolano`
(attack 30, defence 32, Strength 18: +0, a forcone 1d3, priority 9, Status Globale 22).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from game.battle import commands as cmd
from game.battle.ai import choose
from game.battle.engine import GM, Battle
from game.battle.events import Event
from game.battle.outcome import Outcome
from game.battle.setup import UnitSpec
from game.text.explain_battle import event_text
from game.text.i18n import speaking
from tests.battle.myst_fields import myst_battle, myst_sheet

#: 002:l.44: 45 + 5 + 6 + 6 = 62 against 32 + 4 + 5 + 5 = 46, a margin of 16 (three units of
#: 5); then the spada's 1d8 shows 1.
SEED_DICE = (5, 6, 6, 4, 5, 5, 1)


@pytest.fixture
def apart() -> Iterator[Battle]:
    """Josh (soldato) five cells from Desmond (popolano), Josh first (12 + 10 against 9 + 1)."""
    b = myst_battle(
        (
            UnitSpec("josh", "a", (0, 0, 0), template="station_guard"),
            UnitSpec("desmond", "b", (5, 0, 0), template="human"),
        ),
        (10, 1),
    )
    yield b
    b.close()


def _attack(
    b: Battle, dice: tuple[int, ...], unit: str, target: str, margin: str | None = None
) -> tuple[Outcome, Event]:
    """The GM's dice for the exchange (attack 3d10, defence 3d10, then any others), the attack."""
    assert b.apply(cmd.EnterRoll(dice), GM).accepted
    outcome = b.apply(cmd.Attack(unit, target, margin=margin), GM)
    assert outcome.accepted, outcome.refusal
    return outcome, next(e for e in outcome.events if e.kind == "attack")


def test_m1_the_seeds_16_after_a_4_cell_run_up_spends_3_on_strength_for_4_damage(
    apart: Battle,
) -> None:
    # 002:l.193 "guadagna un +2 al suo bonus di Forza": the cap +1 + 2 = 3, the seed's three
    # units all on Strength; the die's 1 + 3 = 4 (without the charge at most 1 + 1 raised to 2
    # + 1 = 3). Desmond's Status Globale 22 - 4 = 18.
    b = apart
    assert b.apply(cmd.Move("josh", (4, 0, 0)), GM).accepted
    assert myst_sheet(b, "josh").run_up == 4
    _outcome, attack = _attack(b, SEED_DICE, "josh", "desmond", "ask")
    assert (attack.data["attack_total"], attack.data["defence_total"]) == (62, 46)
    assert (attack.data["situation"], attack.data["run_up"]) == (["charge"], 4)
    won = next(e for e in b.log if e.kind == "margin_won")
    assert won.data["caps"]["strength"] == 3
    refused = b.apply(cmd.SpendMargin("josh", strength=4), GM).refusal
    assert refused is not None and refused.code == "margin_overspent"
    assert b.apply(cmd.SpendMargin("josh", strength=3), GM).accepted
    assert myst_sheet(b, "desmond").status == 18
    text = event_text(attack)
    assert "charge after a run-up of 4 cells" in text and "(M-1, M-2)" in text
    with speaking("it"):
        assert "carica dopo una rincorsa di 4 caselle" in event_text(attack)


def test_m1_the_run_up_adds_up_over_a_turns_moves_and_3_cells_are_no_charge() -> None:
    b = myst_battle(
        (
            UnitSpec("josh", "a", (0, 0, 0), template="station_guard"),
            UnitSpec("desmond", "b", (4, 0, 0), template="human"),
        ),
        (10, 1),
    )
    try:
        # 3 cells (4.5 m, short of 002:l.189's 5 m): the cap stays the table's 1.
        assert b.apply(cmd.Move("josh", (3, 0, 0)), GM).accepted
        _outcome, attack = _attack(b, SEED_DICE, "josh", "desmond", "ask")
        assert "situation" not in attack.data
        assert next(e for e in b.log if e.kind == "margin_won").data["caps"]["strength"] == 1
    finally:
        b.close()
    b = myst_battle(
        (
            UnitSpec("josh", "a", (0, 0, 0), template="station_guard"),
            UnitSpec("desmond", "b", (5, 0, 0), template="human"),
        ),
        (10, 1),
    )
    try:
        assert b.apply(cmd.Move("josh", (2, 0, 0)), GM).accepted
        assert b.apply(cmd.Move("josh", (4, 0, 0)), GM).accepted  # 2 + 2 in the same turn
        _outcome, attack = _attack(b, SEED_DICE, "josh", "desmond", "ask")
        assert attack.data["situation"] == ["charge"] and attack.data["run_up"] == 4
    finally:
        b.close()


def test_m1_a_run_up_ends_with_its_turn(apart: Battle) -> None:
    b = apart
    assert b.apply(cmd.Move("josh", (4, 0, 0)), GM).accepted
    assert b.apply(cmd.EndTurn("josh"), GM).accepted
    assert b.apply(cmd.EndTurn("desmond"), GM).accepted
    assert b.active == "josh" and myst_sheet(b, "josh").run_up == 0
    _outcome, attack = _attack(b, SEED_DICE, "josh", "desmond")
    assert "situation" not in attack.data


@pytest.fixture
def surrounded() -> Iterator[Battle]:
    """Three popolani of side a around one of side b, who acts first (9 + 10, then 9 + 8, 9 +
    6, 9 + 4, M-2)."""
    b = myst_battle(
        (
            UnitSpec("t", "b", (5, 5, 0)),
            UnitSpec("a1", "a", (4, 5, 0)),
            UnitSpec("a2", "a", (6, 5, 0)),
            UnitSpec("a3", "a", (5, 4, 0)),
        ),
        (10, 8, 6, 4),
    )
    assert b.active == "t"
    yield b
    b.close()


def test_m2_a_second_defence_takes_20_unless_the_last_defence_margin_cancelled_it(
    surrounded: Battle,
) -> None:
    b = surrounded
    # 002:l.77: t's standing plan buys "cancel the -20" with a won defence's 20 points.
    assert b.apply(cmd.DefencePlan("t", ("cancel_penalty",)), GM).accepted
    assert b.apply(cmd.EndTurn("t"), GM).accepted
    # a1: 30 + 3 = 33 against 32 + 30 = 62: t's first defence, won by 29: one move, the cancel.
    outcome, attack = _attack(b, (1, 1, 1, 10, 10, 10), "a1", "t")
    assert attack.data["defence_total"] == 62 and "situation" not in attack.data
    won = next(e for e in outcome.events if e.kind == "defence_margin")
    assert won.data["taken"] == ["cancel_penalty"]
    assert (myst_sheet(b, "t").defences, myst_sheet(b, "t").cancel_penalty) == (1, True)
    assert b.apply(cmd.EndTurn("a1"), GM).accepted
    # a2: t's second defence without its -20: 30 + 15 = 45 against 32 + 15 = 47.
    _outcome, attack = _attack(b, (5, 5, 5, 5, 5, 5), "a2", "t")
    assert attack.data["defence_total"] == 47
    assert attack.data["situation"] == ["penalty_cancelled"]
    assert b.apply(cmd.EndTurn("a2"), GM).accepted
    # a3: the third defence takes the -20 again (the cancel was the next defence's only):
    # 45 against 32 - 20 + 15 = 27, the attack wins by 18: three units, Strength 18 has no
    # bonus, all on the forcone's minimum (1d3): its 1 raised to 3. Status 22 - 3 = 19.
    _outcome, attack = _attack(b, (5, 5, 5, 5, 5, 5, 1), "a3", "t")
    assert attack.data["defence_total"] == 27 and attack.data["situation"] == ["second_defence"]
    assert myst_sheet(b, "t").status == 19
    assert "second defence this round: -20 (M-2)" in event_text(attack)
    assert b.apply(cmd.EndTurn("a3"), GM).accepted
    # A new round: no defence made in it yet.
    assert b.round == 2 and b.active == "t" and myst_sheet(b, "t").defences == 0
    assert b.apply(cmd.EndTurn("t"), GM).accepted
    _outcome, attack = _attack(b, (5, 5, 5, 5, 5, 5), "a1", "t")
    assert attack.data["defence_total"] == 47 and "situation" not in attack.data


def test_m2_a_snapshot_in_the_middle_of_a_round_keeps_its_defences(surrounded: Battle) -> None:
    b = surrounded
    assert b.apply(cmd.EndTurn("t"), GM).accepted
    _attack(b, (5, 5, 5, 5, 5, 5), "a1", "t")  # 45 against 47: no margin to spend
    assert myst_sheet(b, "t").defences == 1
    snapshot = json.loads(json.dumps(b.snapshot()))
    again = Battle.restore(b.setup, b.grid, b.rules, snapshot)
    try:
        assert again.state_hash() == b.state_hash() and myst_sheet(again, "t").defences == 1
    finally:
        again.close()


def test_m1_priority_next_round_puts_the_defender_before_its_attacker_for_one_round() -> None:
    # a1 19 (9 + 10), t 14 (9 + 5). 002:l.79 "Acquisire la Priorità sull'avversario per il
    # Round successivo": t's score next round 19 + 1 = 20, a change of +6 for round 3.
    b = myst_battle((UnitSpec("a1", "a", (4, 5, 0)), UnitSpec("t", "b", (5, 5, 0))), (10, 5))
    try:
        assert b.apply(cmd.EndTurn("a1"), GM).accepted
        assert b.apply(cmd.DefencePlan("t", ("priority",)), GM).accepted
        assert b.apply(cmd.EndTurn("t"), GM).accepted
        outcome, _attack_event = _attack(b, (1, 1, 1, 10, 10, 10), "a1", "t")
        won = next(e for e in outcome.events if e.kind == "defence_margin")
        assert won.data["taken"] == ["priority"]
        assert (won.data["initiative"], won.data["round"]) == (6, 3)
        assert "t acts before a1 in round 3 (Priority +6)." in event_text(won)
        with speaking("it"):
            assert "t agisce prima di a1 nel round 3 (Priorità +6)." in event_text(won)
        assert b.apply(cmd.EndTurn("a1"), GM).accepted
        assert b.apply(cmd.EndTurn("t"), GM).accepted
        assert (b.round, b.active) == (3, "t")
        assert b.apply(cmd.EndTurn("t"), GM).accepted
        assert b.apply(cmd.EndTurn("a1"), GM).accepted
        assert (b.round, b.active) == (4, "a1")  # one round only
    finally:
        b.close()


@pytest.mark.parametrize(("josh", "desmond"), [(0, 5), (8, 5)])
def test_m1_the_computer_charges_when_a_run_up_of_4_cells_reaches_its_enemy(
    josh: int, desmond: int
) -> None:
    # Desmond 5 cells away: the walk to him is the run-up. Desmond 3 cells away: the cells
    # beside him on his far side are 4 from Josh and still make a charge, whose +2 Strength
    # cap is more harm expected, so the computer walks round him rather than 2 cells straight.
    b = myst_battle(
        (
            UnitSpec("josh", "a", (josh, 0, 0), template="station_guard"),
            UnitSpec("desmond", "b", (desmond, 0, 0), template="human"),
        ),
        (10, 1),
    )
    try:
        # The computer first keeps its standing counter plan (the trip, docs/battle.md).
        plan = choose(b, "josh")
        assert plan == cmd.DefencePlan("josh", ("trip",))
        assert b.apply(plan, GM).accepted
        move = choose(b, "josh")
        assert isinstance(move, cmd.Move)
        assert b.apply(move, GM).accepted
        assert myst_sheet(b, "josh").run_up >= 4
        attack = choose(b, "josh")
        assert attack == cmd.Attack("josh", "desmond")
        assert b.apply(cmd.EnterRoll(SEED_DICE), GM).accepted
        outcome = b.apply(attack, GM)
        event = next(e for e in outcome.events if e.kind == "attack")
        assert event.data["situation"] == ["charge"]
    finally:
        b.close()
