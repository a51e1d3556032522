"""Battles that end: the stalemate rule (game/battle/engine.py, docs/battle.md "Battles that end").

The rule: the combat ends with no winner when STALEMATE_ROUNDS (10) whole rounds in a row pass
without contact (no attack, wound, death save, medkit, arrival, unit found, GM intervention) and
no reinforcement is still to come. Round 1 holds the combat's start, so in a battle where nothing
ever happens rounds 2 to 11 are the ten quiet ones: it ends as round 11 does.
"""

from __future__ import annotations

import json

from game.battle import commands as cmd
from game.battle.engine import GM, STALEMATE_ROUNDS, Battle
from game.battle.setup import UnitSpec
from game.grid.model import Cell
from game.rules.data import load_rules

#: Two rooms with no way between them: neither side can see, reach or hurt the other.
WALLED = "\n".join(["....#....."] * 6)
ADA = UnitSpec("ada", "red", (1, 2, 0), weapon="pistol")
BO = UnitSpec("bo", "blue", (8, 2, 0), weapon="pistol")


def end_turns(b: Battle, turns: int) -> None:
    for _ in range(turns):
        unit = b.active
        assert unit is not None and not b.over
        assert b.apply(cmd.EndTurn(unit), b.controller_of_unit(unit)).accepted


def test_stalemate_ten_quiet_whole_rounds_end_the_combat_with_no_winner(make_battle) -> None:
    assert STALEMATE_ROUNDS == 10
    b: Battle = make_battle([ADA, BO], WALLED, initiative=(15, 5))
    end_turns(b, 2 * 11 - 1)  # every turn of rounds 1 to 11 but the last
    assert not b.over and b.round == 11
    last = b.apply(cmd.EndTurn("bo"), "blue")
    assert b.over and b.winner is None and b.active is None
    over = [e for e in last.events if e.kind == "combat_over"]
    assert [dict(e.data) for e in over] == [
        {"winner": None, "because": "stalemate", "rounds": STALEMATE_ROUNDS}
    ]
    assert "round_started" not in [e.kind for e in last.events]  # round 12 never begins
    refused = b.apply(cmd.EndTurn("ada"), "red")
    assert refused.refusal is not None and refused.refusal.code == "combat_over"


def test_stalemate_moving_to_and_fro_is_not_contact(make_battle) -> None:
    b: Battle = make_battle([ADA, BO], WALLED, initiative=(15, 5))
    steps: dict[str, tuple[Cell, Cell]] = {
        "ada": ((1, 3, 0), (1, 2, 0)),
        "bo": ((8, 3, 0), (8, 2, 0)),
    }
    turns = 0
    while not b.over:
        unit = b.active
        assert unit is not None and turns < 100
        there, back = steps[unit]
        to = there if b.sheet(unit).cell == back else back
        assert b.apply(cmd.Move(unit, to), b.controller_of_unit(unit)).accepted
        b.apply(cmd.EndTurn(unit), b.controller_of_unit(unit))
        turns += 1
    assert turns == 22 and b.winner is None


def test_stalemate_an_attack_starts_the_count_again(make_battle) -> None:
    # In the open the two see each other; ada shoots (a miss: d100 99) in round 5, so rounds
    # 6 to 15 are the ten quiet ones and the combat ends as round 15 does.
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    end_turns(b, 2 * 4)
    assert (b.round, b.active) == (5, "ada")
    b.apply(cmd.EnterRoll((99,)), GM)
    shot = b.apply(cmd.Attack("ada", "bo"), "red")
    assert [e.data["hit"] for e in shot.events if e.kind == "attack"] == [False]
    end_turns(b, 1 + 2 * 10)  # the rest of round 5, then rounds 6 to 15 but bo's last turn
    assert not b.over and (b.round, b.active) == (15, "bo")
    end_turns(b, 1)
    assert b.over and b.winner is None


def test_stalemate_waits_for_a_reinforcement_still_to_come(make_battle) -> None:
    # cy arrives as round 15 begins (its arrival is contact): rounds 15 to 24 are then quiet.
    cy = UnitSpec("cy", "blue", (9, 5, 0), weapon="pistol", arrives_round=15)
    b: Battle = make_battle([ADA, BO, cy], WALLED, initiative=(15, 5))
    end_turns(b, 2 * 14)
    assert not b.over and b.round == 15 and b.on_map("cy")
    while not b.over:
        assert b.round <= 24
        end_turns(b, 1)
    assert b.round == 24


def test_stalemate_a_battle_restored_from_a_snapshot_mid_way_ends_on_the_same_turn(
    make_battle,
) -> None:
    """The rule reads the log, which a snapshot restores whole: restoring changes nothing."""
    b: Battle = make_battle([ADA, BO], WALLED, initiative=(15, 5))
    end_turns(b, 2 * 7)
    assert b.round == 8
    data = json.loads(json.dumps(b.snapshot()))
    restored = Battle.restore(b.setup, b.grid, load_rules(), data)
    try:
        end_turns(restored, 2 * 4 - 1)
        assert not restored.over
        end_turns(restored, 1)
        assert restored.over and restored.winner is None
        end_turns(b, 2 * 4)
        assert b.state_hash() == restored.state_hash()
    finally:
        restored.close()
