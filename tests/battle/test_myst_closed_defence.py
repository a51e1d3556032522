"""Myst's closed defence and a counterattack's exchange counted as a defence, played in a battle
(game/battle/handlers.py `close_defence`, game/tactics/rulesets/myst_battle.py `defence_won`,
game/rules/myst/round.py; seed 002 l.72-91, l.137, M-1, M-2); numbers worked out by hand.

002:l.74 "a patto che il Personaggio non abbia scelto di Chiudersi in Difesa"; l.81-83 "Nel caso
in cui il Personaggio abbia scelto di Chiudersi in Difesa, lo Scarto di Difesa potrà essere
utilizzato soltanto ... Rompere la mischia: 0 punti di Scarto"; l.137 "chiudersi in difesa
rinunciando alla propria azione". The base chapter's +10 to a closed defence is assumed
(game/data/myst/rules.toml `closed_defence_bonus`, M-2's base). 002:l.91 "Il Personaggio che
contrattacca effettua un normale tiro di Corpo a Corpo ai danni del suo avversario, che può
rispondere con un tiro di Corpo a Corpo a sua volta": the countered fighter's answer is its
own defence, one of the round's (M-2: the second and later at -20).

Every fighter is the sample `popolano` (attack 30 = its Corpo a Corpo, defence 32, Strength 18:
no bonus, a forcone 1d3, priority 9, Status Globale 22).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from game.battle import commands as cmd
from game.battle.ai import choose
from game.battle.engine import GM, Battle
from game.battle.events import Event
from game.battle.session import Session
from game.battle.setup import UnitSpec, setup_from_map
from game.ecs.components import Position
from game.maps import load_map
from game.text.explain import modifier_line
from game.text.explain_battle import event_text
from game.text.i18n import speaking
from tests.battle import test_soak
from tests.battle.myst_fields import myst_battle, myst_sheet
from tests.battle.test_soak import MAPS, play_and_check


@pytest.fixture
def surrounded() -> Iterator[Battle]:
    """One popolano of side b, who acts first (9 + 10, then 9 + 8, 9 + 6, 9 + 4, M-2), with a1
    next to it on the west, a2 two cells east and a3 far off."""
    b = myst_battle(
        (
            UnitSpec("t", "b", (5, 5, 0)),
            UnitSpec("a1", "a", (4, 5, 0)),
            UnitSpec("a2", "a", (7, 5, 0)),
            UnitSpec("a3", "a", (0, 0, 0)),
        ),
        (10, 8, 6, 4),
    )
    assert b.active == "t"
    yield b
    b.close()


def _attack(b: Battle, dice: tuple[int, ...], unit: str, target: str) -> list[Event]:
    """The GM's dice (attack 3d10, defence 3d10, then any others), the attack's events."""
    assert b.apply(cmd.EnterRoll(dice), GM).accepted
    outcome = b.apply(cmd.Attack(unit, target), GM)
    assert outcome.accepted, outcome.refusal
    return list(outcome.events)


def _first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


# ---------------------------------------------------------------- the closed defence


def test_m1_closing_into_defence_gives_up_the_turns_attack(surrounded: Battle) -> None:
    b = surrounded
    outcome = b.apply(cmd.CloseDefence("t"), GM)
    assert outcome.accepted and _first(list(outcome.events), "closed_defence").data == {"unit": "t"}
    assert myst_sheet(b, "t").closed_defence and b.active == "t"  # its move is still its own
    refused = b.apply(cmd.Attack("t", "a1"), GM).refusal
    assert refused is not None and refused.code == "action_used"
    assert refused.values["used"] == "close_defence"
    # Twice is as refused as after the attack: the action is gone.
    refused = b.apply(cmd.CloseDefence("t"), GM).refusal
    assert refused is not None and refused.code == "action_used"


def test_m1_no_closed_defence_after_the_turns_attack(surrounded: Battle) -> None:
    b = surrounded
    _attack(b, (5, 5, 5, 5, 5, 5), "t", "a1")  # 45 against 47: a1 defends, nothing bought
    refused = b.apply(cmd.CloseDefence("t"), GM).refusal
    assert refused is not None and refused.code == "action_used"
    assert not myst_sheet(b, "t").closed_defence


def test_m1_a_closed_defence_is_10_higher_and_its_margin_only_breaks_off_for_0(
    surrounded: Battle,
) -> None:
    b = surrounded
    # t's plan would counterattack; closed, only its "break_off" counts (002:l.81-83).
    assert b.apply(cmd.DefencePlan("t", ("counterattack", "break_off")), GM).accepted
    assert b.apply(cmd.CloseDefence("t"), GM).accepted
    assert b.apply(cmd.EndTurn("t"), GM).accepted
    # a1: 30 + 1+1+1 = 33 against 32 + 10 (closed) + 10+10+10 = 72: won by 39, which would buy
    # one counter-move (39 // 20 = 1), the counterattack; closed, it buys only breaking off,
    # for 0 units.
    events = _attack(b, (1, 1, 1, 10, 10, 10), "a1", "t")
    attack = _first(events, "attack")
    assert attack.data["defence_total"] == 72 and attack.data["situation"] == ["closed_defence"]
    won = _first(events, "defence_margin")
    assert (won.data["margin"], won.data["units"], won.data["taken"]) == (39, 0, ["break_off"])
    assert "counter_attack_total" not in won.data
    # One step out of a1's reach (a1 at (4, 5)): x = 6, the first in reading order.
    broke = _first(events, "broke_off")
    assert broke.data["to"] == [6, 4, 0] and b.world.get("t", Position).cell == (6, 4, 0)
    assert "the target is closed into defence: defence +10 (assumed)" in " ".join(
        attack.data["why"]
    )
    assert "the target is closed into defence" in event_text(attack)
    with speaking("it"):
        assert "il bersaglio è chiuso in difesa" in event_text(attack)
    assert b.apply(cmd.EndTurn("a1"), GM).accepted
    # The breakdown's line (the preview's) for a2's attack to come.
    answer = b.ruleset.attack(b.bf, b.sheet("a2"), b.sheet("t"))
    closed = [m for m in answer.modifiers if m.code == "myst_closed_defence"]
    assert [modifier_line(m) for m in closed] == ["closed into defence: defence +10 (M-1, M-2)"]
    # a2 (at (7, 5), next to t now): t's second defence this round, closed: 32 + 10 - 20 = 22,
    # + 10+10+10 = 52 against 30 + 5+5+5 = 45: won by 7, under 20 and still a break-off.
    events = _attack(b, (5, 5, 5, 10, 10, 10), "a2", "t")
    attack = _first(events, "attack")
    assert attack.data["defence_total"] == 52
    assert attack.data["situation"] == ["second_defence", "closed_defence"]
    assert _first(events, "defence_margin").data["taken"] == ["break_off"]
    assert b.apply(cmd.EndTurn("a2"), GM).accepted
    assert b.apply(cmd.EndTurn("a3"), GM).accepted
    # Round 2: t's own turn again, its closed defence over (002:l.137: it gave up one action).
    assert (b.round, b.active) == (2, "t") and not myst_sheet(b, "t").closed_defence


def test_m1_a_closed_defence_whose_plan_has_no_break_off_keeps_its_margin(
    surrounded: Battle,
) -> None:
    b = surrounded
    assert b.apply(cmd.DefencePlan("t", ("trip",)), GM).accepted
    assert b.apply(cmd.CloseDefence("t"), GM).accepted
    assert b.apply(cmd.EndTurn("t"), GM).accepted
    # 33 against 72 again: a trip is a counterattack, which a closed defence cannot buy.
    events = _attack(b, (1, 1, 1, 10, 10, 10), "a1", "t")
    assert not any(e.kind in ("defence_margin", "broke_off") for e in events)
    assert b.world.get("t", Position).cell == (5, 5, 0)


def test_m1_a_closed_defence_lasts_past_the_round_until_its_own_next_turn() -> None:
    # t acts last (9 + 1 against 9 + 10): it closes in round 1, and a1's attack in round 2,
    # before t's turn, still meets the closed defence: 32 + 10 + 5+5+5 = 57.
    b = myst_battle((UnitSpec("a1", "a", (4, 5, 0)), UnitSpec("t", "b", (5, 5, 0))), (10, 1))
    try:
        assert b.apply(cmd.EndTurn("a1"), GM).accepted
        assert b.apply(cmd.CloseDefence("t"), GM).accepted
        assert b.apply(cmd.EndTurn("t"), GM).accepted
        assert (b.round, b.active) == (2, "a1")
        attack = _first(_attack(b, (5, 5, 5, 5, 5, 5), "a1", "t"), "attack")
        assert attack.data["defence_total"] == 57
        assert b.apply(cmd.EndTurn("a1"), GM).accepted
        assert b.active == "t" and not myst_sheet(b, "t").closed_defence
    finally:
        b.close()


def test_m1_the_closed_defence_is_journaled_and_read_back_to_the_same_state(
    surrounded: Battle,
) -> None:
    b = surrounded
    command = cmd.CloseDefence("t")
    assert command.to_json() == {"cmd": "close_defence", "unit": "t"}
    assert cmd.parse_command(json.loads(json.dumps(command.to_json()))) == command
    assert b.apply(command, GM).accepted
    snapshot = json.loads(json.dumps(b.snapshot()))
    again = Battle.restore(b.setup, b.grid, b.rules, snapshot)
    try:
        assert again.state_hash() == b.state_hash() and myst_sheet(again, "t").closed_defence
    finally:
        again.close()


def test_a_ruleset_without_counter_moves_has_no_closed_defence() -> None:
    b = myst_battle((UnitSpec("a1", "a", (4, 5, 0)), UnitSpec("t", "b", (5, 5, 0))), (10, 1), "d20")
    try:
        refused = b.apply(cmd.CloseDefence(b.active or ""), GM).refusal
        assert refused is not None and refused.code == "not_in_ruleset"
    finally:
        b.close()


def test_the_closed_defence_event_reads_in_both_languages(surrounded: Battle) -> None:
    b = surrounded
    event = _first(list(b.apply(cmd.CloseDefence("t"), GM).events), "closed_defence")
    assert event_text(event).startswith("t closes into defence, giving up its attack")
    with speaking("it"):
        assert event_text(event).startswith("t si chiude in difesa, rinunciando al suo attacco")


def test_the_computer_closes_into_defence_when_no_attack_is_left_to_make() -> None:
    # Josh (side a) 12 cells from Desmond: a walk of 4 cannot reach him, so the turn would end
    # with its action unused; closing costs nothing and raises its defences until its turn.
    b = myst_battle(
        (UnitSpec("josh", "a", (0, 0, 0)), UnitSpec("desmond", "b", (12, 0, 0))), (10, 1)
    )
    try:
        given: list[cmd.Command] = []
        while b.active == "josh" and len(given) < 10:
            command = choose(b, "josh")
            given.append(command)
            assert b.apply(command, GM).accepted
        assert cmd.CloseDefence("josh") in given
        assert not any(isinstance(c, cmd.Attack) for c in given)
        assert isinstance(given[-1], cmd.EndTurn)
    finally:
        b.close()


def test_the_computer_attacks_rather_than_close_when_an_enemy_is_in_reach() -> None:
    b = myst_battle(
        (UnitSpec("josh", "a", (0, 0, 0)), UnitSpec("desmond", "b", (1, 0, 0))), (10, 1)
    )
    try:
        given: list[cmd.Command] = []
        while b.active == "josh" and len(given) < 10:
            command = choose(b, "josh")
            given.append(command)
            assert b.apply(command, GM).accepted
        assert cmd.Attack("josh", "desmond") in given and cmd.CloseDefence("josh") not in given
    finally:
        b.close()


# ---------------------------------------------------------------- the counterattack's answer


def test_m2_the_answer_to_a_counterattack_is_the_attackers_second_defence_at_20() -> None:
    # Round 1, t first: t attacks a1, 30 + 5+5+5 = 45 against 32 + 5+5+5 = 47: a1's first
    # defence, won by 2 (nothing bought). Then a1 attacks t: 30 + 1+1+1 = 33 against 32 +
    # 10+10+10 = 62, t wins by 29: one move, its plan's counterattack, a punch (002:l.91).
    # a1's answer (Corpo a Corpo 30) is its second defence this round: 30 - 20 = 10, + 5+5+5 =
    # 25 against t's 30 + 5+5+5 = 45: the punch lands by 20 (without the -20, 45 against 45
    # would be a tie and miss). Damage 1 (Strength 18: no bonus; the fixed 1 takes no higher
    # minimum): a1's Status Globale 22 - 1 = 21.
    b = myst_battle((UnitSpec("t", "b", (5, 5, 0)), UnitSpec("a1", "a", (4, 5, 0))), (10, 1))
    try:
        assert b.apply(cmd.DefencePlan("t", ("counterattack",)), GM).accepted
        _attack(b, (5, 5, 5, 5, 5, 5), "t", "a1")
        assert myst_sheet(b, "a1").defences == 1
        assert b.apply(cmd.EndTurn("t"), GM).accepted
        events = _attack(b, (1, 1, 1, 10, 10, 10, 5, 5, 5, 5, 5, 5), "a1", "t")
        won = _first(events, "defence_margin")
        assert won.data["taken"] == ["counterattack"]
        assert (won.data["counter_attack_total"], won.data["counter_defence_total"]) == (45, 25)
        assert won.data["counter_situation"] == ["second_defence"] and won.data["hit"] is True
        assert myst_sheet(b, "a1").defences == 2 and myst_sheet(b, "a1").status == 21
        text = "a1's answer is its second defence this round: -20 (M-2)."
        assert text in event_text(won)
        with speaking("it"):
            assert "La risposta di a1 è la sua seconda difesa del round: -20 (M-2)." in event_text(
                won
            )
    finally:
        b.close()


def test_m2_a_first_answer_to_a_counterattack_puts_the_next_defence_at_20() -> None:
    # a1 first (9 + 10 against 9 + 5). a1 attacks t: 33 against 62, t (no plan: the
    # counterattack) punches: 30 + 5+5+5 = 45 against a1's first answer, 30 + 1+1+1 = 33, no
    # -20: won by 12, 1 damage (22 - 1 = 21). Then t attacks a1: a1's second defence of the
    # round, 32 - 20 + 5+5+5 = 27 against 45: t wins by 18, three units, all on the forcone's
    # minimum (1d3: at most 3), the die's 1 raised to 3: 21 - 3 = 18.
    b = myst_battle((UnitSpec("a1", "a", (4, 5, 0)), UnitSpec("t", "b", (5, 5, 0))), (10, 5))
    try:
        events = _attack(b, (1, 1, 1, 10, 10, 10, 5, 5, 5, 1, 1, 1), "a1", "t")
        won = _first(events, "defence_margin")
        assert (won.data["counter_attack_total"], won.data["counter_defence_total"]) == (45, 33)
        assert "counter_situation" not in won.data
        assert myst_sheet(b, "a1").defences == 1 and myst_sheet(b, "a1").status == 21
        assert b.apply(cmd.EndTurn("a1"), GM).accepted
        attack = _first(_attack(b, (5, 5, 5, 5, 5, 5, 1), "t", "a1"), "attack")
        assert attack.data["defence_total"] == 27
        assert attack.data["situation"] == ["second_defence"]
        assert myst_sheet(b, "a1").status == 18
    finally:
        b.close()


def test_m2_a_cancelled_20_spares_the_answer_to_a_counterattack() -> None:
    # a1 bought "cancel the -20" with its first defence (002:l.77): t attacks a1, 30 + 1+1+1 =
    # 33 against 32 + 10+10+10 = 62, won by 29. Then a1 attacks t and loses by 29 (33 against
    # 62); t's punch, 30 + 5+5+5 = 45, against a1's answer, its second defence with the -20
    # cancelled: 30 + 5+5+5 = 45, a tie: the punch misses.
    b = myst_battle((UnitSpec("t", "b", (5, 5, 0)), UnitSpec("a1", "a", (4, 5, 0))), (10, 1))
    try:
        assert b.apply(cmd.DefencePlan("t", ("counterattack",)), GM).accepted
        assert b.apply(cmd.EndTurn("t"), GM).accepted
        assert b.apply(cmd.DefencePlan("a1", ("cancel_penalty",)), GM).accepted
        assert b.apply(cmd.EndTurn("a1"), GM).accepted
        # round 2: t first again
        assert (b.round, b.active) == (2, "t")
        _attack(b, (1, 1, 1, 10, 10, 10), "t", "a1")
        assert (myst_sheet(b, "a1").defences, myst_sheet(b, "a1").cancel_penalty) == (1, True)
        assert b.apply(cmd.EndTurn("t"), GM).accepted
        events = _attack(b, (1, 1, 1, 10, 10, 10, 5, 5, 5, 5, 5, 5), "a1", "t")
        won = _first(events, "defence_margin")
        assert (won.data["counter_attack_total"], won.data["counter_defence_total"]) == (45, 45)
        assert won.data["counter_situation"] == ["penalty_cancelled"] and won.data["hit"] is False
        assert (myst_sheet(b, "a1").defences, myst_sheet(b, "a1").cancel_penalty) == (2, False)
    finally:
        b.close()


# ---------------------------------------------------------------- a whole battle


def test_the_computers_myst_battle_on_the_keep_ends_closing_defences_and_replays_identical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(test_soak, "MAX_COMMANDS", 5000)
    monkeypatch.setattr(test_soak, "MAX_ROUNDS", 400)
    loaded = load_map(MAPS / "keep_gate.tmx")
    factions = tuple(sorted({u.faction for u in loaded.units}))
    setup = replace(setup_from_map(loaded, seed=3, computer=factions), ruleset="myst")
    journal = tmp_path / "keep_gate-myst.jsonl"
    session = Session.new(setup, journal)
    try:
        given = play_and_check(session)
        b = session.battle
        assert b.over and given > 0
        assert any(e.kind == "closed_defence" for e in b.log)
        final = b.state_hash()
    finally:
        session.close()
    reopened = Session.open(journal, for_append=False)
    try:
        assert reopened.battle.over and reopened.battle.state_hash() == final
    finally:
        reopened.close()
