"""Myst's counters kept in the battle (game/battle/counters.py; seed 002, l.72-116; M-1, M-2):
the push or trip's penalty and fall, the grab and breaking it, breaking off, journaled and
saved. Numbers worked by hand from the seed (002:l.N = shared/seeds/002_41e7330db40f429a.txt).

The duel: Desmond, the sample `popolano` (attack 30, defence 32, Strength 18, Status Globale 22,
no `brawl`: his Corpo a Corpo is his attack total, 30), strikes first at Josh, the `soldato`
(attack 45, defence 50, Corpo a Corpo 45), side by side in the open. Desmond's attack dice
1+1+1 make 33 against Josh's 50 + 10+10+10 = 80: a defence margin of 47, two counter-moves of
20 (002:l.76-79). Josh's counterattack is Corpo a Corpo 45 + 3d10 against Desmond's 30 + 3d10
(002:l.99, 109: "un normale tiro di Corpo a Corpo ... che può rispondere con un tiro di Corpo a
Corpo a sua volta").
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
from game.battle.session import Session
from game.battle.setup import BattleSetup, UnitSpec, setup_from_map
from game.ecs.components import Grabbed, Position, Posture, StandingDefence, Unbalanced
from game.maps import load_map
from game.rules.data import load_rules
from game.rules.stance import Stance
from game.text.explain_battle import event_text
from game.text.i18n import speaking
from tests.battle import test_soak
from tests.battle.conftest import OPEN_FIELD, ascii_grid

#: Desmond's attack lost by 47 (33 against 80), then the counter's two 3d10.
LOST_BY_47 = (1, 1, 1, 10, 10, 10)
#: The counter: 45 + 5+5+5 = 60 against 30 + 5+5+5 = 45, won by 15 (002:l.101: "tra 1 e 19").
COUNTER_BY_15 = (5, 5, 5, 5, 5, 5)
#: The counter: 45 + 10+10+10 = 75 against 30 + 1+1+1 = 33, won by 42 ("20 o più").
COUNTER_BY_42 = (10, 10, 10, 1, 1, 1)


@pytest.fixture
def duel() -> Iterator[Battle]:
    """Josh at (2, 2, 0) and Desmond at (3, 2, 0) under Myst, Desmond first (9 + 10 against
    12 + 1, M-2); Josh's standing plan is set on his turn, so round 1 passes first."""
    setup = BattleSetup(
        map_path="<test>",
        map_sha256="",
        seed=7,
        units=(
            UnitSpec("josh", "a", (2, 2, 0), template="station_guard"),  # sample `soldato`
            UnitSpec("desmond", "b", (3, 2, 0), template="human", weapon="combat_knife"),
        ),
        initiative_dice=(1, 10),
        ruleset="myst",
    )
    battle = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    assert battle.active == "desmond"
    yield battle
    battle.close()


def _plan_then_desmond_attacks(b: Battle, plan: tuple[str, ...], counter: tuple[int, ...]) -> None:
    """Round 1: Josh sets `plan`; round 2: Desmond attacks, loses by 47, Josh counters."""
    assert b.apply(cmd.EndTurn("desmond"), GM).accepted
    assert b.apply(cmd.DefencePlan("josh", plan), GM).accepted
    assert b.apply(cmd.EndTurn("josh"), GM).accepted
    assert (b.active, b.round) == ("desmond", 2)
    assert b.apply(cmd.EnterRoll(LOST_BY_47 + counter), GM).accepted
    assert b.apply(cmd.Attack("desmond", "josh"), GM).accepted


def _won(b: Battle) -> dict[str, object]:
    return dict(next(e for e in reversed(b.log) if e.kind == "defence_margin").data)


def test_m1_a_trip_won_by_15_leaves_a_penalty_of_15_on_the_next_defence(duel: Battle) -> None:
    # 002:l.101: "se lo Scarto è compreso tra 1 e 19 l'avversario subirà una penalità di pari
    # entità alla sua prossima Azione di Attacco o Manovra di Difesa": -15.
    b = duel
    _plan_then_desmond_attacks(b, ("trip",), COUNTER_BY_15)
    won = _won(b)
    assert won["taken"] == ["trip"] and won["counter"] == "trip"
    assert (won["counter_attack_total"], won["counter_defence_total"]) == (60, 45)
    assert (won["penalty"], won["knocked_down"], won["hit"]) == (15, False, True)
    assert b.world.get("desmond", Unbalanced) == Unbalanced(15, 2)
    assert b.sheet("desmond").unbalanced == 15
    assert not any(e.kind == "damage" for e in b.log)  # a trip does no damage
    assert b.apply(cmd.EndTurn("desmond"), GM).accepted
    assert b.world.has("desmond", Unbalanced)  # given this turn: it waits
    # Josh strikes: Desmond's answer to the trip (002:l.99 "può rispondere con un tiro di Corpo
    # a Corpo") was its first defence of round 2, so this is its second (M-2: -20): it defends
    # with 32 - 15 - 20 = -3; 45 + 1+1+1 = 48 against -3 + 1+1+1 = 0.
    assert b.apply(cmd.EnterRoll((1, 1, 1, 1, 1, 1, 1)), GM).accepted
    assert b.apply(cmd.Attack("josh", "desmond", margin=None), GM).accepted
    attack = next(e for e in reversed(b.log) if e.kind == "attack")
    assert (attack.data["attack_total"], attack.data["defence_total"]) == (48, 0)
    assert attack.data["situation"] == ["second_defence"]
    assert "target_unbalanced +15" in attack.data["why"]
    assert not b.world.has("desmond", Unbalanced)  # spent by that exchange


def test_m1_a_trip_won_by_42_knocks_down_and_the_fall_costs_20_until_an_action_stands(
    duel: Battle,
) -> None:
    # 002:l.101: "Con uno Scarto di 20 o più l'avversario sarà invece spinto al suolo, e
    # soffrirà dei modificatori globali previsti in caso di atterramento fino a quando non
    # riuscirà a rialzarsi, al costo di un'Azione" (the modifiers assumed -20, counters.toml).
    b = duel
    _plan_then_desmond_attacks(b, ("trip",), COUNTER_BY_42)
    won = _won(b)
    assert (won["counter_margin"], won["knocked_down"], won["penalty"]) == (42, True, 0)
    assert b.world.get("desmond", Posture).stance is Stance.PRONE
    assert not b.world.has("desmond", Unbalanced)
    assert b.apply(cmd.EndTurn("desmond"), GM).accepted
    # Josh: 45 + 1+1+1 = 48 against Desmond on the ground, 32 - 20 = 12, and his second
    # defence of round 2 (his answer to the trip was the first, 002:l.99, M-2): 12 - 20 = -8,
    # + 1+1+1 = -5.
    assert b.apply(cmd.EnterRoll((1, 1, 1, 1, 1, 1, 1)), GM).accepted
    assert b.apply(cmd.Attack("josh", "desmond", margin=None), GM).accepted
    attack = next(e for e in reversed(b.log) if e.kind == "attack")
    assert (attack.data["attack_total"], attack.data["defence_total"]) == (48, -5)
    assert b.apply(cmd.EndTurn("josh"), GM).accepted
    # Round 3, Desmond on the ground: no move until he stands; his attack is 30 - 20 = 10.
    refused = b.apply(cmd.Move("desmond", (5, 2, 0)), GM).refusal
    assert refused is not None and refused.code == "cannot_move"
    assert refused.values["because"] == "on_the_ground"
    answer = b.ruleset.attack(b.bf, b.sheet("desmond"), b.sheet("josh"))
    assert answer.detail.exchange.attack == 10
    assert b.apply(cmd.ChangeStance("desmond", "standing"), GM).accepted
    assert b.world.get("desmond", Posture).stance is Stance.STANDING
    refused = b.apply(cmd.Attack("desmond", "josh"), GM).refusal  # the action stood him up
    assert refused is not None and refused.code == "action_used"
    assert b.apply(cmd.Move("desmond", (5, 2, 0)), GM).accepted  # the move is still his


def test_m1_a_penalty_given_up_with_a_turns_attack_lapses(duel: Battle) -> None:
    # 002:l.105: "l'avversario potrà sempre scegliere di annullare quest'ultima [l'Azione di
    # Attacco], cancellando in tal modo anche la penalità": Desmond's next turn ends without
    # his attack, and the -15 with it.
    b = duel
    _plan_then_desmond_attacks(b, ("trip",), COUNTER_BY_15)
    assert b.apply(cmd.EndTurn("desmond"), GM).accepted
    assert b.apply(cmd.EndTurn("josh"), GM).accepted
    assert (b.active, b.round) == ("desmond", 3)
    assert b.apply(cmd.EndTurn("desmond"), GM).accepted
    assert not b.world.has("desmond", Unbalanced)
    lapsed = next(e for e in reversed(b.log) if e.kind == "unbalance_lapsed")
    assert lapsed.data == {"unit": "desmond", "penalty": 15}


def test_m1_a_grab_holds_both_until_the_grabbed_one_breaks_it_with_its_action(
    duel: Battle,
) -> None:
    # 002:l.109: "l'avversario viene costretto in una presa: da quel momento in poi, prima di
    # poter compiere qualsiasi attacco o azione, sarà costretto a rompere la presa"; l.116:
    # "tanto l'attaccante quanto il difensore non potranno compiere azioni".
    b = duel
    _plan_then_desmond_attacks(b, ("grab",), COUNTER_BY_15)
    assert _won(b)["grabbed"] is True
    assert b.world.get("desmond", Grabbed) == Grabbed("josh", False)
    assert b.world.get("josh", Grabbed) == Grabbed("desmond", True)
    refused = b.apply(cmd.Move("desmond", (5, 2, 0)), GM).refusal
    assert refused is not None and refused.code == "in_a_grab"
    assert b.apply(cmd.EndTurn("desmond"), GM).accepted
    refused = b.apply(cmd.Attack("josh", "desmond"), GM).refusal
    assert refused is not None and refused.values["reason"] == "holding_grab"
    assert b.apply(cmd.EndTurn("josh"), GM).accepted
    refused = b.apply(cmd.Attack("desmond", "josh"), GM).refusal
    assert refused is not None and refused.values["reason"] == "held_in_grab"
    # 002:l.113-114: Destrezza + Corpo a Corpo + 3d10 each (M-2's sheet has no Constitution):
    # 30 + 5+5+5 = 45 against 45 + 1+1+1 = 48: held; the action is spent.
    assert b.apply(cmd.EnterRoll((5, 5, 5, 1, 1, 1)), GM).accepted
    assert b.apply(cmd.BreakGrab("desmond"), GM).accepted
    tried = next(e for e in reversed(b.log) if e.kind == "grab_break")
    assert (tried.data["total"], tried.data["holder_total"], tried.data["broken"]) == (
        45,
        48,
        False,
    )
    assert b.world.has("desmond", Grabbed)
    refused = b.apply(cmd.BreakGrab("desmond"), GM).refusal
    assert refused is not None and refused.code == "action_used"
    assert b.apply(cmd.EndTurn("desmond"), GM).accepted
    assert b.apply(cmd.EndTurn("josh"), GM).accepted
    # Round 4: 30 + 10+10+10 = 60 against 45 + 1+1+1 = 48: broken, both free.
    assert b.apply(cmd.EnterRoll((10, 10, 10, 1, 1, 1)), GM).accepted
    assert b.apply(cmd.BreakGrab("desmond"), GM).accepted
    assert not b.world.has("desmond", Grabbed) and not b.world.has("josh", Grabbed)
    ended = next(e for e in reversed(b.log) if e.kind == "grab_ended")
    assert ended.data == {"holder": "josh", "grabbed": "desmond", "why": "broken"}
    assert b.apply(cmd.Move("desmond", (5, 2, 0)), GM).accepted


def test_m1_the_holder_lets_go_for_free_at_any_time(duel: Battle) -> None:
    # 002:l.116: "Il Personaggio che controlla la presa può romperla in qualsiasi momento,
    # tornando in mischia con l'avversario (che torna libero di muoversi)".
    b = duel
    _plan_then_desmond_attacks(b, ("grab",), COUNTER_BY_15)
    assert b.apply(cmd.EndTurn("desmond"), GM).accepted
    let_go = b.apply(cmd.BreakGrab("josh"), GM)
    assert let_go.accepted and not any(e.rolls for e in let_go.events)  # no dice
    assert [e.data["why"] for e in let_go.events if e.kind == "grab_ended"] == ["let_go"]
    assert not b.world.has("desmond", Grabbed) and not b.world.has("josh", Grabbed)
    assert b.turn("josh").action is None  # free: Josh may still attack
    assert b.apply(cmd.EnterRoll((1, 1, 1, 1, 1, 1, 1)), GM).accepted
    assert b.apply(cmd.Attack("josh", "desmond", margin=None), GM).accepted
    refused = b.apply(cmd.BreakGrab("josh"), GM).refusal
    assert refused is not None and refused.code == "not_in_grab"


def test_m1_breaking_off_steps_the_defender_out_of_the_attackers_reach(duel: Battle) -> None:
    # 002:l.78 "Rompere la mischia: 20 punti di scarto": Josh at (2, 2, 0) leaves Desmond's
    # reach (the 26 cells around (3, 2, 0)) by one step: the cells of x = 1 are 2 away, the
    # first in reading order is (1, 1, 0). No movement point of his is spent.
    b = duel
    _plan_then_desmond_attacks(b, ("break_off",), ())
    assert _won(b)["taken"] == ["break_off"]
    assert b.world.get("josh", Position).cell == (1, 1, 0)
    off = next(e for e in reversed(b.log) if e.kind == "broke_off")
    assert off.data == {"unit": "josh", "against": "desmond", "at": [2, 2, 0], "to": [1, 1, 0]}
    assert b.turn("josh").movement_spent == 0


def test_m1_one_counterattack_a_defence_whatever_the_margin_buys(duel: Battle) -> None:
    # 002:l.76, 87: the counterattack is one use of 20 points, in one of its forms: a margin
    # of 47 buys two moves, but the plan's grab after its trip is not a second counterattack.
    b = duel
    _plan_then_desmond_attacks(b, ("trip", "grab", "priority"), COUNTER_BY_15)
    assert _won(b)["taken"] == ["trip", "priority"]
    assert not b.world.has("desmond", Grabbed)


def test_the_counters_components_are_saved_and_read_back_to_the_same_state(duel: Battle) -> None:
    b = duel
    _plan_then_desmond_attacks(b, ("grab",), COUNTER_BY_15)
    b.world.set("desmond", Unbalanced(7, 2))  # both kinds at once, for the round trip
    snapshot = json.loads(json.dumps(b.snapshot()))
    assert snapshot["units"]["desmond"]["Grabbed"] == {"other": "josh", "holding": False}
    assert snapshot["units"]["desmond"]["Unbalanced"] == {"penalty": 7, "round": 2}
    again = Battle.restore(b.setup, b.grid, b.rules, snapshot)
    try:
        assert again.state_hash() == b.state_hash()
        assert again.sheet("josh").hold == ("desmond", True)
    finally:
        again.close()


def test_the_computer_grabs_a_stronger_arm_and_trips_a_weaker_one(duel: Battle) -> None:
    # docs/rules.md, "Myst counters in battle": Josh's sword (attack 45 against defence 32)
    # is worth more to Desmond's Status Globale than Desmond's blade to Josh's (30 against
    # 50): the grab would trade Josh's attack for Desmond's own (002:l.116), so Desmond plans
    # it; Josh, the stronger, plans the trip.
    b = duel
    assert choose(b, "desmond") == cmd.DefencePlan("desmond", ("grab",))
    assert b.apply(cmd.DefencePlan("desmond", ("grab",)), GM).accepted
    assert choose(b, "desmond") != cmd.DefencePlan("desmond", ("grab",))  # kept, not asked again
    assert b.apply(cmd.EndTurn("desmond"), GM).accepted
    assert choose(b, "josh") == cmd.DefencePlan("josh", ("trip",))


def test_the_computer_lets_go_breaks_a_grab_and_stands_up(duel: Battle) -> None:
    b = duel
    _plan_then_desmond_attacks(b, ("grab",), COUNTER_BY_15)
    # In a grab a fighter grabs nobody else: the trip.
    assert choose(b, "desmond") == cmd.DefencePlan("desmond", ("trip",))
    assert b.apply(cmd.DefencePlan("desmond", ("trip",)), GM).accepted
    assert choose(b, "desmond") == cmd.EndTurn("desmond")  # held, his action spent
    assert b.apply(cmd.EndTurn("desmond"), GM).accepted
    assert b.apply(cmd.DefencePlan("josh", ("trip",)), GM).accepted
    # Josh holds a weaker arm with no ally by Desmond: he lets go, then fights.
    assert choose(b, "josh") == cmd.BreakGrab("josh")
    assert b.apply(cmd.BreakGrab("josh"), GM).accepted
    b.world.set("desmond", Posture(Stance.PRONE))
    assert b.apply(cmd.EndTurn("josh"), GM).accepted
    # On the ground (-20, assumed) Desmond's counter cannot win: 30 - 20 + 3d10 is at most 40,
    # Josh's 45 + 3d10 at least 48. The grab does not pay: his standing trip is kept.
    assert b.world.get("desmond", StandingDefence).moves == ("trip",)
    assert choose(b, "desmond") == cmd.ChangeStance("desmond", "standing")


@pytest.mark.parametrize(("eve_at", "expected"), [((1, 2, 0), "wait"), ((9, 9, 0), "break")])
def test_the_computer_held_by_a_stronger_arm_waits_while_a_free_ally_strikes_the_holder(
    eve_at: tuple[int, int, int], expected: str
) -> None:
    # 002:l.116: while the grab lasts neither acts. Josh (sword, 45) holds Desmond (30): his
    # attack is worth more than Desmond's, so Desmond keeps him bound while Eve, a free ally
    # beside Josh, strikes him; with nobody by Josh, Desmond tries to break it (l.109).
    setup = BattleSetup(
        map_path="<test>",
        map_sha256="",
        seed=7,
        units=(
            UnitSpec("josh", "a", (2, 2, 0), template="station_guard"),
            UnitSpec("desmond", "b", (3, 2, 0), template="human", weapon="combat_knife"),
            UnitSpec("eve", "b", eve_at, template="human", weapon="combat_knife"),
        ),
        initiative_dice=(1, 10, 1),  # josh 12 + 1, desmond 9 + 10, eve 9 + 1 (M-2)
        ruleset="myst",
    )
    b = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    try:
        assert b.active == "desmond"
        assert b.apply(cmd.EndTurn("desmond"), GM).accepted
        assert b.apply(cmd.DefencePlan("josh", ("grab",)), GM).accepted
        assert b.apply(cmd.EndTurn("josh"), GM).accepted
        assert b.apply(cmd.EndTurn("eve"), GM).accepted
        assert b.apply(cmd.EnterRoll(LOST_BY_47 + COUNTER_BY_15), GM).accepted
        assert b.apply(cmd.Attack("desmond", "josh"), GM).accepted  # Josh grabs him
        assert b.apply(cmd.EndTurn("desmond"), GM).accepted
        assert b.apply(cmd.EndTurn("josh"), GM).accepted
        assert b.apply(cmd.EndTurn("eve"), GM).accepted
        assert (b.active, b.round) == ("desmond", 3)
        assert b.world.get("desmond", Grabbed) == Grabbed("josh", False)
        assert choose(b, "desmond") == cmd.DefencePlan("desmond", ("trip",))
        assert b.apply(cmd.DefencePlan("desmond", ("trip",)), GM).accepted
        waits = cmd.EndTurn("desmond")
        assert choose(b, "desmond") == (waits if expected == "wait" else cmd.BreakGrab("desmond"))
    finally:
        b.close()


def _with_eve_at_1_1(hidden: bool) -> Battle:
    """The duel with Eve, Desmond's side, at (1, 1, 0): the first cell of Josh's break-off;
    hidden from Josh's side or not, and out of the fight until seen (so that no turn of hers
    in the open gives her away, P-INIT-7). Desmond 9 + 10, Josh 12 + 1 (M-2)."""
    setup = BattleSetup(
        map_path="<test>",
        map_sha256="",
        seed=7,
        units=(
            UnitSpec("josh", "a", (2, 2, 0), template="station_guard"),
            UnitSpec("desmond", "b", (3, 2, 0), template="human", weapon="combat_knife"),
            UnitSpec("eve", "b", (1, 1, 0), template="human", hidden=hidden, outside_combat=True),
        ),
        initiative_dice=(1, 10, 1),
        ruleset="myst",
    )
    battle = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    assert battle.active == "desmond"
    assert battle.sees("a", "eve") is not hidden
    return battle


def _josh_breaks_off(b: Battle) -> None:
    assert b.apply(cmd.EndTurn("desmond"), GM).accepted
    assert b.apply(cmd.DefencePlan("josh", ("break_off",)), GM).accepted
    assert b.apply(cmd.EndTurn("josh"), GM).accepted
    if b.active == "eve":  # seen, she is in the fight
        assert b.apply(cmd.EndTurn("eve"), GM).accepted
    assert b.apply(cmd.EnterRoll(LOST_BY_47), GM).accepted
    assert b.apply(cmd.Attack("desmond", "josh"), GM).accepted
    assert _won(b)["taken"] == ["break_off"]


def test_m1_breaking_off_passes_over_a_seen_units_cell() -> None:
    # 002:l.78: the step goes to a free cell; Eve, seen, stands in (1, 1, 0): the next of the
    # x = 1 cells (2 from Desmond) in reading order is (1, 2, 0).
    b = _with_eve_at_1_1(hidden=False)
    try:
        _josh_breaks_off(b)
        assert b.world.get("josh", Position).cell == (1, 2, 0)
    finally:
        b.close()


def test_m1_breaking_off_chooses_as_its_side_knows_and_an_unseen_unit_stops_it_as_a_move() -> None:
    # The step is chosen as Josh's side knows the field: Eve unseen, (1, 1, 0) is chosen as in
    # the duel without her (test_m1_breaking_off_steps_the_defender_out_of_the_attackers_reach)
    # -- where it goes tells nothing of her. Stepping into her: stopped where he stands, Eve
    # revealed to his side and the side told, exactly as a move into her cell (below).
    b = _with_eve_at_1_1(hidden=True)
    try:
        _josh_breaks_off(b)
        assert b.world.get("josh", Position).cell == (2, 2, 0)
        assert b.sees("a", "eve")
        off = next(e for e in reversed(b.log) if e.kind == "broke_off")
        assert off.data == {
            "unit": "josh",
            "against": "desmond",
            "at": [2, 2, 0],
            "to": [1, 1, 0],
            "stopped": True,
        }
        assert event_text(off) == (
            "josh breaks off from desmond towards (1, 1, 0), but is stopped (M-1)."
        )
        stopped = [(e.kind, e.data) for e in b.log if e.kind in ("revealed", "ambushed")]
    finally:
        b.close()
    moved = _with_eve_at_1_1(hidden=True)
    try:
        assert moved.apply(cmd.EndTurn("desmond"), GM).accepted
        assert moved.apply(cmd.Move("josh", (1, 1, 0)), GM).accepted
        assert moved.world.get("josh", Position).cell == (2, 2, 0)
        assert moved.sees("a", "eve")
        by_move = [(e.kind, e.data) for e in moved.log if e.kind in ("revealed", "ambushed")]
    finally:
        moved.close()
    assert ("ambushed", {"unit": "josh", "by": "eve", "at": [2, 2, 0]}) in stopped
    assert stopped == by_move


def test_the_counters_events_read_in_both_languages(duel: Battle) -> None:
    b = duel
    _plan_then_desmond_attacks(b, ("trip",), COUNTER_BY_42)
    event = next(e for e in reversed(b.log) if e.kind == "defence_margin")
    assert "desmond is knocked down until it stands (M-1)." in event_text(event)
    with speaking("it"):
        assert "desmond è atterrato finché non si rialza (M-1)." in event_text(event)


def test_the_players_view_and_the_unit_card_tell_the_grab_and_the_penalty(duel: Battle) -> None:
    from game.battle.view import view_for
    from game.text.explain import counter_lines

    b = duel
    _plan_then_desmond_attacks(b, ("grab",), COUNTER_BY_15)
    seen = view_for(b, GM).unit("desmond")
    assert seen is not None and seen.hold == ("josh", False) and seen.unbalanced == 0
    assert seen.to_json()["hold"] == {"other": "josh", "holding": False}
    assert "unbalanced" not in seen.to_json()  # written only when set
    assert counter_lines(("josh", False), 0) == ["Held in josh's grab"]
    assert counter_lines(("desmond", True), 15) == [
        "Holds desmond in a grab",
        "Unbalanced: -15 on its next exchange",
    ]
    with speaking("it"):
        assert counter_lines(("josh", False), 0) == ["Costretto nella presa di josh"]


def test_the_computer_plans_grabs_and_trips_on_the_keep_and_the_battle_ends_and_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every side the computer's, Myst on the keep (seed 7: since the closed defence, most seeds
    # of this map see trips only): some of its fighters face a stronger arm and plan the
    # grab, the others the trip; the battle still ends with a winner, and its journal replays
    # to the same state (the choice draws on no dice).
    monkeypatch.setattr(test_soak, "MAX_COMMANDS", 5000)
    monkeypatch.setattr(test_soak, "MAX_ROUNDS", 400)
    loaded = load_map(test_soak.MAPS / "keep_gate.tmx")
    factions = tuple(sorted({u.faction for u in loaded.units}))
    setup = replace(setup_from_map(loaded, seed=7, computer=factions), ruleset="myst")
    journal = tmp_path / "keep.jsonl"
    session = Session.new(setup, journal)
    try:
        test_soak.play_and_check(session)
        b = session.battle
        assert b.over and b.winner is not None
        plans = {tuple(e.data["moves"]) for e in b.log if e.kind == "defence_plan"}
        assert plans == {("grab",), ("trip",)}
        final = b.state_hash()
    finally:
        session.close()
    reopened = Session.open(journal, for_append=False)
    try:
        assert reopened.battle.over and reopened.battle.state_hash() == final
    finally:
        reopened.close()
