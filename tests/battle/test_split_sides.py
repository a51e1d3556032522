"""A side split among players, as at a table where each player runs their own characters: each
player commands only their units; the side's view is shared by them all.

maps/station_interior.tmx, seed 1: the raiders are Kask, Rook, Sable, Wisp (and Brann, Tallow
arriving later). Anna runs Kask and Rook, Cara runs Sable and Wisp (and the rest of the side,
by the side's player); Ben plays station security.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from game.battle import commands as cmd
from game.battle.options import who_may_order
from game.battle.session import Session
from game.battle.setup import BattleSetup, setup_from_map
from game.battle.view import view_for
from game.maps import load_map
from game.rules.reader import ScenarioError

STATION = Path(__file__).resolve().parents[2] / "maps" / "station_interior.tmx"


def _setup() -> BattleSetup:
    return setup_from_map(
        load_map(STATION),
        seed=1,
        players={"Cara": ("raiders",), "Ben": ("station_security",)},
        unit_players={"Kask": "Anna", "Rook": "Anna"},
    )


@pytest.fixture
def session() -> Iterator[Session]:
    s = Session.new(_setup(), None)
    yield s
    s.close()


def test_each_player_commands_only_their_own_units_of_a_split_side(session: Session) -> None:
    b = session.battle
    assert b.active == "Kask"
    assert b.controller_of_unit("Kask") == "Anna"
    assert b.controller_of_unit("Sable") == "Cara"
    assert b.controller_of_unit("Brann") == "Cara"  # not named: the side's player
    refused = session.submit(cmd.Dash("Kask"), "Cara")
    assert refused.refusal is not None and refused.refusal.code == "not_your_unit"
    why = who_may_order(b, "Cara", "Kask")
    assert why is not None and why.code == "not_your_unit"
    assert who_may_order(b, "Anna", "Kask") is None
    assert session.submit(cmd.Dash("Kask"), "Anna").accepted


def test_the_players_of_a_split_side_share_its_view(session: Session) -> None:
    b = session.battle
    assert b.factions_of("Anna") == b.factions_of("Cara") == frozenset({"raiders"})
    anna, cara = view_for(b, "Anna"), view_for(b, "Cara")
    assert {u.id for u in anna.units} == {u.id for u in cara.units}
    assert (anna.seen == cara.seen).all()
    assert b.players() == ("Anna", "Ben", "Cara")


def test_a_split_side_is_in_the_journal_header_and_the_battle_reopens_alike(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "battle.jsonl"
    first = Session.new(_setup(), journal)
    try:
        assert first.submit(cmd.Dash("Kask"), "Anna").accepted
        digest = first.battle.state_hash()
    finally:
        first.close()
    again = Session.open(journal)
    try:
        assert again.setup.unit_players == {"Kask": "Anna", "Rook": "Anna"}
        assert again.battle.state_hash() == digest
        assert again.battle.controller_of_unit("Rook") == "Anna"
    finally:
        again.close()


def test_a_header_splitting_a_unit_the_battle_does_not_have_is_refused_by_name() -> None:
    data = _setup().to_json()
    data["unit_players"] = {"Nobody": "Anna"}
    with pytest.raises(ScenarioError, match=r"unit_players\.Nobody: no such unit"):
        BattleSetup.from_json(data, "battle.jsonl:1")


def test_a_battle_without_a_split_side_writes_its_header_as_before() -> None:
    plain = setup_from_map(load_map(STATION), seed=1)
    assert "unit_players" not in plain.to_json()
