"""The journal is the save: written line by line, reopened to the same state, undo by replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.battle import commands as cmd
from game.battle.engine import GM
from game.battle.journal import VERSION, JournalError, read_journal
from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.maps import load_map

MAPS = Path(__file__).resolve().parents[2] / "maps"
STATION = MAPS / "station_interior.tmx"


@pytest.fixture(scope="module")
def station_setup():
    return setup_from_map(load_map(STATION), seed=11)


def _play(session: Session, turns: int) -> None:
    """Ending turns only: the order moves on and start-of-turn effects run, nothing is rolled
    unless a condition asks for it."""
    for _ in range(turns):
        active = session.battle.active
        assert active is not None
        outcome = session.submit(cmd.EndTurn(active), GM)
        assert outcome.accepted, outcome.refusal


def test_a_journal_reopens_to_the_same_state_hash_after_every_command(tmp_path, station_setup):
    journal = tmp_path / "battle.jsonl"
    session = Session.new(station_setup, journal)
    hashes = []
    for _ in range(4):
        _play(session, 1)
        hashes.append(session.battle.state_hash())
    session.close()
    lines = journal.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["format"] == "tessera-journal"
    assert [json.loads(line)["hash"] for line in lines[1:]] == hashes
    reopened = Session.open(journal, for_append=False)
    assert reopened.battle.state_hash() == hashes[-1]
    reopened.close()


def test_the_map_path_in_the_header_is_relative_to_the_journal_so_a_moved_folder_still_opens(
    tmp_path, station_setup
):
    journal = tmp_path / "battle.jsonl"
    Session.new(station_setup, journal).close()
    header = json.loads(journal.read_text(encoding="utf-8").splitlines()[0])
    assert not Path(header["setup"]["map"]).is_absolute()
    assert read_journal(journal).setup.map_path == str(STATION.resolve())


def test_a_torn_last_line_is_dropped_with_a_notice_and_the_journal_goes_on_from_there(
    tmp_path, station_setup
):
    journal = tmp_path / "battle.jsonl"
    session = Session.new(station_setup, journal)
    _play(session, 2)
    kept_hash = session.battle.state_hash()
    _play(session, 1)
    session.close()
    data = journal.read_bytes()
    journal.write_bytes(data[: data.rstrip(b"\n").rfind(b"\n") + 10])  # a crash mid-line
    reopened = Session.open(journal)
    assert reopened.battle.state_hash() == kept_hash
    assert any("unfinished last line was dropped" in n for n in reopened.notices)
    _play(reopened, 1)
    after = reopened.battle.state_hash()
    reopened.close()
    again = Session.open(journal, for_append=False)
    assert again.battle.state_hash() == after and not again.notices
    again.close()


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda lines: ["not json", *lines[1:]], ":1: not a Tessera journal"),
        (lambda lines: [lines[0], "{broken", *lines[2:]], ":2: damaged line"),
        (
            lambda lines: [lines[0].replace(f'"version":{VERSION}', '"version":9'), *lines[1:]],
            ":1: written by a newer Tessera (journal version 9)",
        ),
        (
            lambda lines: [lines[0], lines[1].replace('"end_turn"', '"end_turns"'), *lines[2:]],
            ":2: cmd.cmd: unknown command 'end_turns'",
        ),
        (
            lambda lines: [lines[0], lines[1].replace('"hash":"', '"hash":"0'), *lines[2:]],
            ":2: the state differs from the one the journal recorded",
        ),
    ],
)
def test_a_damaged_or_foreign_journal_is_refused_naming_the_file_and_line(
    tmp_path, station_setup, damage, message
):
    journal = tmp_path / "battle.jsonl"
    session = Session.new(station_setup, journal)
    _play(session, 3)
    session.close()
    lines = journal.read_text(encoding="utf-8").splitlines()
    journal.write_text("\n".join(damage(lines)) + "\n", encoding="utf-8")
    with pytest.raises(JournalError) as caught:
        Session.open(journal, for_append=False)
    assert str(caught.value).startswith(str(journal))
    assert message in str(caught.value)


def test_a_journal_whose_map_changed_since_the_battle_began_is_refused(tmp_path, station_setup):
    journal = tmp_path / "battle.jsonl"
    Session.new(station_setup, journal).close()
    text = journal.read_text(encoding="utf-8")
    journal.write_text(text.replace(station_setup.map_sha256, "0" * 64), encoding="utf-8")
    with pytest.raises(JournalError, match="has changed since the battle began"):
        Session.open(journal, for_append=False)


def test_a_player_may_undo_a_move_that_rolled_nothing_and_showed_nobody(station_setup):
    session = Session.new(station_setup, None)
    b = session.battle
    unit = b.active
    assert unit is not None
    player = b.controller_of(b.faction_of(unit))
    before = b.state_hash()
    from game.tactics import answers as tactics

    cells, _allow = tactics.reachable_cells(b.bf, b.sheet(unit))
    quiet = None
    for cell in sorted(cells):
        probe = Session.new(station_setup, None)
        outcome = probe.submit(cmd.Move(unit, cell), player)
        if outcome.accepted and not outcome.rolls and not outcome.sighted:
            quiet = cell
            probe.close()
            break
        probe.close()
    assert quiet is not None, "no quiet move on this map"
    assert session.submit(cmd.Move(unit, quiet), player).accepted
    assert session.undo(player) is None
    assert session.battle.state_hash() == before
    assert session.redo(player) is None
    assert session.battle.sheet(unit).cell == quiet
    session.close()


def test_a_player_may_not_undo_what_rolled_dice_but_the_gm_may(make_battle):
    from game.battle.setup import UnitSpec

    ada = UnitSpec("ada", "red", (1, 3, 0), weapon="pistol")
    bo = UnitSpec("bo", "blue", (9, 3, 0))
    battle = make_battle([ada, bo], initiative=(15, 5))
    session = Session(battle.setup, battle.grid, battle.rules, None)
    before = session.battle.state_hash()
    assert session.submit(cmd.Attack("ada", "bo"), "red").accepted
    refusal = session.undo("red")
    assert refusal is not None and refusal.code == "undo_would_hide_what_was_seen"
    assert session.undo("blue") is not None
    assert session.undo(GM) is None
    assert session.battle.state_hash() == before
    session.close()


def test_undo_and_redo_are_journaled_and_replayed(tmp_path, station_setup):
    journal = tmp_path / "battle.jsonl"
    session = Session.new(station_setup, journal)
    _play(session, 3)
    assert session.undo(GM) is None
    assert session.undo(GM) is None
    assert session.redo(GM) is None
    final = session.battle.state_hash()
    session.close()
    reopened = Session.open(journal, for_append=False)
    assert reopened.battle.state_hash() == final
    assert len(reopened.history) == 2 and len(reopened.undone) == 1
    reopened.close()


def _duel(make_battle, journal: Path | None = None) -> Session:
    from game.battle.setup import UnitSpec

    ada = UnitSpec("ada", "red", (1, 3, 0), weapon="pistol")
    bo = UnitSpec("bo", "blue", (9, 3, 0))
    battle = make_battle([ada, bo], initiative=(15, 5))
    return Session(battle.setup, battle.grid, battle.rules, None)


def test_p_chk_4_the_gm_overrides_a_missed_shot_with_physical_dice_and_it_hits(make_battle):
    # P = 80 (see tests/battle/test_commands.py): 95 misses; the GM's 10 hits, 2d6 = 7 -> grave.
    session = _duel(make_battle)
    session.submit(cmd.EnterRoll((95,)), GM)
    missed = session.submit(cmd.Attack("ada", "bo"), "red")
    assert next(e for e in missed.events if e.kind == "attack").data["hit"] is False
    again = session.override((10, 3, 4), GM)
    assert next(e for e in again.events if e.kind == "attack").data["hit"] is True
    assert session.battle.sheet("bo").health.grave == 1
    assert all(r.source == "gm" for r in again.rolls)
    refused = session.override((1,), "red")
    assert refused.refusal is not None and refused.refusal.code == "gm_only"
    session.close()


def test_a_gm_face_that_does_not_fit_its_die_is_refused_and_the_state_is_as_before(make_battle):
    session = _duel(make_battle)
    session.submit(cmd.EnterRoll((150,)), GM)  # no d100 shows 150
    before = session.battle.state_hash()
    outcome = session.submit(cmd.Attack("ada", "bo"), "red")
    assert outcome.refusal is not None and outcome.refusal.code == "bad_die_face"
    assert "150" in str(outcome.refusal.values["why"])
    assert session.battle.state_hash() == before
    session.close()
