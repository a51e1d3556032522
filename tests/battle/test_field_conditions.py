"""The GM's battlefield conditions (issue 15): the `field_conditions` command read, checked,
carried out, journaled, snapshotted, replayed and undone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.battle import commands as cmd
from game.battle.engine import GM, Battle, SnapshotError
from game.battle.session import Session
from game.battle.setup import UnitSpec, setup_from_map
from game.maps import load_map
from game.tactics.battlefield import FieldConditions
from game.text.explain_battle import event_text, refusal_text
from game.text.i18n import speaking

STATION = Path(__file__).resolve().parents[2] / "maps" / "station_interior.tmx"


def _duel(make_battle) -> Battle:
    ada = UnitSpec("ada", "red", (1, 3, 0), weapon="pistol")
    bo = UnitSpec("bo", "blue", (9, 3, 0))
    return make_battle([ada, bo], initiative=(15, 5))


@pytest.mark.parametrize(
    "data, named",
    [
        ({"cmd": "field_conditions", "smoke": "thick"}, "command.smoke: 'thick' is not one of"),
        ({"cmd": "field_conditions", "darkness": "dim"}, "command.darkness: 'dim' is not one of"),
        ({"cmd": "field_conditions", "weather": "rain"}, "command.weather: 'rain' is not one of"),
        ({"cmd": "field_conditions", "weather": 3}, "command.weather"),
        ({"cmd": "field_conditions", "fog": "dense"}, "fog"),
    ],
)
def test_a_field_conditions_command_with_a_bad_value_is_refused_naming_the_field(
    data, named
) -> None:
    with pytest.raises(cmd.CommandError, match=named):
        cmd.parse_command(data)


def test_a_field_conditions_command_reads_back_from_its_json_and_leaves_out_what_it_keeps() -> None:
    command = cmd.ChangeField(smoke="dense", weather="bad")
    assert command.to_json() == {"cmd": "field_conditions", "smoke": "dense", "weather": "bad"}
    assert cmd.parse_command(json.loads(json.dumps(command.to_json()))) == command
    assert cmd.ChangeField.GM


def test_a_battle_on_a_map_with_bad_weather_starts_in_it_and_keeps_no_conditions_state(
    make_battle,
) -> None:
    from dataclasses import replace as replaced

    b = _duel(make_battle)
    stormy = Battle(b.setup, replaced(b.grid, weather="bad", darkness="low"), b.rules)
    try:
        assert stormy.bf.conditions == FieldConditions("low", "none", "bad")
        assert "conditions" not in stormy.state_json()  # the map's own: nothing to keep
        assert stormy.apply(cmd.ChangeField(weather="none"), GM).accepted
        assert stormy.state_json()["conditions"]["weather"] == "none"
    finally:
        stormy.close()


def test_the_battle_starts_in_the_maps_conditions_and_only_the_gm_may_change_them(
    make_battle,
) -> None:
    b = _duel(make_battle)
    assert b.bf.conditions == FieldConditions() == b.map_conditions
    before = b.state_hash()
    refused = b.apply(cmd.ChangeField(smoke="dense"), "red")
    assert refused.refusal is not None and refused.refusal.code == "gm_only"
    assert b.state_hash() == before and b.bf.conditions.smoke == "none"


def test_the_gm_makes_the_smoke_dense_every_side_is_told_and_the_field_reads_it(
    make_battle,
) -> None:
    b = _duel(make_battle)
    hashed = b.state_hash()
    done = b.apply(cmd.ChangeField(smoke="dense"), GM)
    assert done.accepted and not done.rolls
    (event,) = done.events
    assert event.kind == "field_conditions"
    assert event.data == {"darkness": "none", "smoke": "dense", "weather": "none",
                          "changed": ["smoke"]}  # fmt: skip
    assert event.audience is None  # everyone sees the smoke
    assert b.bf.conditions == FieldConditions(smoke="dense")
    assert b.known_field("red").conditions == FieldConditions(smoke="dense")
    assert b.state_json()["conditions"] == {"darkness": "none", "smoke": "dense",
                                            "weather": "none"}  # fmt: skip
    assert b.state_hash() != hashed
    with speaking("en"):
        assert event_text(event) == "GM: dense smoke."
    with speaking("it"):
        assert event_text(event) == "Master: fumo denso."


def test_conditions_already_so_are_refused_by_name_and_change_nothing(make_battle) -> None:
    b = _duel(make_battle)
    assert b.apply(cmd.ChangeField(darkness="low", weather="bad"), GM).accepted
    hashed = b.state_hash()
    refused = b.apply(cmd.ChangeField(darkness="low"), GM).refusal
    assert refused is not None and refused.code == "field_unchanged"
    assert b.apply(cmd.ChangeField(), GM).refusal is not None
    assert b.state_hash() == hashed
    with speaking("en"):
        assert "already" in refusal_text(refused)


def test_a_battle_whose_conditions_are_the_maps_again_keeps_no_conditions_in_its_state(
    make_battle,
) -> None:
    # So that a battle without the command hashes and snapshots as it always did.
    b = _duel(make_battle)
    assert "conditions" not in b.state_json() and "conditions" not in b.snapshot()
    assert b.apply(cmd.ChangeField(smoke="light"), GM).accepted
    assert b.apply(cmd.ChangeField(smoke="none"), GM).accepted
    assert "conditions" not in b.state_json()


def test_a_snapshot_keeps_the_gms_conditions_and_a_damaged_one_is_refused(make_battle) -> None:
    b = _duel(make_battle)
    assert b.apply(cmd.ChangeField(darkness="total", weather="bad"), GM).accepted
    snapshot = json.loads(json.dumps(b.snapshot()))
    restored = Battle.restore(b.setup, b.grid, b.rules, snapshot)
    try:
        assert restored.bf.conditions == FieldConditions(darkness="total", weather="bad")
        assert restored.state_hash() == b.state_hash()
    finally:
        restored.close()
    snapshot["conditions"]["smoke"] = "thick"
    with pytest.raises(SnapshotError, match="conditions"):
        Battle.restore(b.setup, b.grid, b.rules, snapshot)


@pytest.mark.parametrize("every", [1, 1000])
def test_the_conditions_are_journaled_reopened_replayed_and_undone(tmp_path, every) -> None:
    setup = setup_from_map(load_map(STATION), seed=11)
    journal = tmp_path / "battle.jsonl"
    session = Session.new(setup, journal, snapshot_every=every)
    active = session.battle.active
    assert active is not None
    assert session.submit(cmd.ChangeField(smoke="dense", darkness="low"), GM).accepted
    assert session.submit(cmd.EndTurn(active), GM).accepted
    final = session.battle.state_hash()
    session.close()
    line = json.loads(journal.read_text(encoding="utf-8").splitlines()[1])
    assert line["cmd"] == {"cmd": "field_conditions", "darkness": "low", "smoke": "dense"}
    for verify in (False, True):
        reopened = Session.open(journal, for_append=False, verify=verify)
        assert reopened.battle.state_hash() == final
        assert reopened.battle.bf.conditions == FieldConditions("low", "dense")
        reopened.close()
    session = Session.open(journal)
    assert session.undo(GM) is None and session.undo(GM) is None
    assert session.battle.bf.conditions == session.battle.map_conditions == FieldConditions()
    assert session.redo(GM) is None
    assert session.battle.bf.conditions == FieldConditions("low", "dense")
    session.close()


def test_cepheus_in_battle_the_players_hover_preview_reads_the_gms_smoke(make_battle) -> None:
    # 000:l.215 "un fumo particolarmente denso ... dà un MD di -2": the guard's pistol shot at
    # 7 cells (tests/battle/test_cepheus_round.py) loses 2 from its total DM once the GM makes
    # the smoke dense, in the preview the player hovers and in the attack the battle rolls.
    from dataclasses import replace as replaced

    from game.battle import preview

    b = make_battle(
        [
            UnitSpec("ada", "blue", (2, 5, 0), template="station_guard", weapon="pistol"),
            UnitSpec("foe", "red", (9, 5, 0), template="human"),
        ],
        initiative=(6, 6, 1, 1),
    )
    setup = replaced(b.setup, ruleset="cepheus")
    cepheus = Battle(setup, b.grid, b.rules)
    try:
        before = preview.attack(cepheus, "blue", "ada", "foe")
        assert before is not None and before.attack.chance is not None
        assert cepheus.apply(cmd.ChangeField(smoke="dense"), GM).accepted
        after = preview.attack(cepheus, "blue", "ada", "foe")
        assert after is not None and after.attack.chance is not None
        dms = {m.code: m.value for m in after.attack.modifiers}
        assert dms["dm_smoke"] == -2 and "dm_smoke" not in {m.code for m in before.attack.modifiers}
        assert after.attack.detail.total_dm == before.attack.detail.total_dm - 2
        assert after.attack.chance < before.attack.chance
    finally:
        cepheus.close()
