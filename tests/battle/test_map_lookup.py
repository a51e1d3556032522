"""Saves survive moves (game/battle/map_lookup.py, issue 17): a journal copied elsewhere, or a
checkout moved, still replays and continues on a map with the content the battle began with,
found in the known map folders; a map missing or changed is named with what to do. The header
is not changed: old journals read as before, and the same battle writes the same bytes.

Before the fix the header's map path (relative to the journal's folder) was the only place
looked at: a journal copied to another folder, or saves kept in the data folder after the
checkout moved, could not be opened ("the battle's map cannot be loaded").
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from game.battle import commands as cmd
from game.battle import map_lookup
from game.battle.engine import GM
from game.battle.journal import VERSION, JournalError, read_journal
from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.maps import load_map

REPO = Path(__file__).resolve().parents[2]
STATION = REPO / "maps" / "station_interior.tmx"


def _end_turns(session: Session, n: int) -> None:
    for _ in range(n):
        active = session.battle.active
        assert active is not None
        assert session.submit(cmd.EndTurn(active), GM).accepted


def _map_folder(root: Path, text: str | None = None) -> Path:
    """A map folder of its own under `root` (its tilesets reached as the map names them); the
    station's map, or `text` for a content no other folder holds."""
    (root / "maps").mkdir(parents=True)
    (root / "assets").symlink_to(REPO / "assets")
    copy = root / "maps" / "station_interior.tmx"
    copy.write_text(text if text is not None else STATION.read_text(encoding="utf-8"), "utf-8")
    return copy


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)  # the working folder is a known place too: an empty one
    return tmp_path / "data"


def test_a_journal_copied_to_another_folder_replays_and_continues(
    tmp_path: Path, data_home: Path
) -> None:
    first = tmp_path / "saves" / "battle.jsonl"
    first.parent.mkdir()
    session = Session.new(setup_from_map(load_map(STATION), seed=4), first)
    _end_turns(session, 3)
    state = session.battle.state_hash()
    session.close()
    elsewhere = tmp_path / "usb" / "deep" / "down" / "battle.jsonl"
    elsewhere.parent.mkdir(parents=True)
    shutil.copy(first, elsewhere)
    reopened = Session.open(elsewhere)
    assert reopened.battle.state_hash() == state
    assert reopened.setup.map_path == str(STATION.resolve())
    _end_turns(reopened, 1)
    reopened.close()


def test_saves_in_the_data_folder_open_after_the_checkout_moved(
    tmp_path: Path, data_home: Path
) -> None:
    """The battle began on the map of a checkout at old/; the checkout is now where this code
    runs from (old/ is gone): its maps/ holds the same content."""
    old_map = _map_folder(tmp_path / "old")
    saves = data_home / "tessera" / "saves"
    saves.mkdir(parents=True)
    journal = saves / "station.jsonl"
    session = Session.new(setup_from_map(load_map(old_map), seed=4), journal)
    _end_turns(session, 2)
    state = session.battle.state_hash()
    session.close()
    shutil.rmtree(tmp_path / "old")
    reopened = Session.open(journal)
    assert reopened.battle.state_hash() == state
    assert Path(reopened.setup.map_path) == STATION.resolve()
    reopened.close()


def test_a_map_of_its_own_is_found_in_the_data_folders_maps_by_its_content(
    tmp_path: Path, data_home: Path
) -> None:
    own = STATION.read_text(encoding="utf-8") + "\n"  # a content the project does not have
    mine = _map_folder(tmp_path / "mine", own)
    journal = tmp_path / "mine" / "battle.jsonl"
    session = Session.new(setup_from_map(load_map(mine), seed=4), journal)
    _end_turns(session, 1)
    session.close()
    copied = tmp_path / "elsewhere" / "battle.jsonl"
    copied.parent.mkdir()
    shutil.copy(journal, copied)
    shutil.rmtree(tmp_path / "mine")
    with pytest.raises(JournalError, match="is missing") as missing:
        Session.open(copied)
    assert "put the map back" in str(missing.value)
    assert str(data_home / "tessera" / "maps") in str(missing.value)
    # The table puts the map in the data folder's maps/ (beside the tilesets it names).
    placed = _map_folder(data_home / "tessera", own)
    assert placed.parent == map_lookup.data_maps()
    reopened = Session.open(copied)
    assert reopened.setup.map_path == str(placed.resolve())
    reopened.close()


def test_a_changed_map_with_no_copy_of_the_original_is_named_with_what_to_do(
    tmp_path: Path, data_home: Path
) -> None:
    own = STATION.read_text(encoding="utf-8") + "\n"
    mine = _map_folder(tmp_path / "mine", own)
    journal = tmp_path / "mine" / "battle.jsonl"
    Session.new(setup_from_map(load_map(mine), seed=4), journal).close()
    mine.write_text(own + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match="has changed since the battle began") as changed:
        Session.open(journal)
    assert f"{journal}:1" in str(changed.value)
    assert "put the map back as it was" in str(changed.value)


def test_a_damaged_map_says_how_to_find_what_is_wrong(tmp_path: Path, data_home: Path) -> None:
    mine = _map_folder(tmp_path / "mine", STATION.read_text(encoding="utf-8") + "\n")
    journal = tmp_path / "mine" / "battle.jsonl"
    setup = setup_from_map(load_map(mine), seed=4)
    Session.new(setup, journal).close()
    mine.write_text("<map>", encoding="utf-8")
    lines = journal.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["setup"]["map_sha256"] = map_lookup.digest(mine)  # damaged, yet the hash agrees
    journal.write_text(json.dumps(header) + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match="cannot be loaded") as damaged:
        Session.open(journal)
    assert "tessera check-map" in str(damaged.value)


def test_a_moved_journal_continues_with_the_same_bytes_as_the_one_left_in_place(
    tmp_path: Path, data_home: Path
) -> None:
    here = tmp_path / "a" / "battle.jsonl"
    here.parent.mkdir()
    session = Session.new(setup_from_map(load_map(STATION), seed=9), here)
    _end_turns(session, 2)
    session.close()
    moved = tmp_path / "b" / "c" / "battle.jsonl"
    moved.parent.mkdir(parents=True)
    shutil.copy(here, moved)
    sizes = {p: p.stat().st_size for p in (here, moved)}
    for path in (here, moved):
        s = Session.open(path)
        _end_turns(s, 3)
        s.close()
    appended = [p.read_bytes()[sizes[p] :] for p in (here, moved)]
    assert appended[0] == appended[1] and appended[0]
    assert moved.read_bytes().splitlines()[0] == here.read_bytes().splitlines()[0]


def test_the_header_still_records_the_map_relative_to_the_journal_as_before(
    tmp_path: Path, data_home: Path
) -> None:
    journal = tmp_path / "battle.jsonl"
    Session.new(setup_from_map(load_map(STATION), seed=9), journal).close()
    header = json.loads(journal.read_text(encoding="utf-8").splitlines()[0])
    assert header["version"] == VERSION
    assert Path(tmp_path, header["setup"]["map"]).resolve() == STATION.resolve()
    assert read_journal(journal).setup.map_path == str(STATION.resolve())


def test_a_fifo_in_a_known_folder_is_never_read(tmp_path: Path, data_home: Path) -> None:
    import os

    folder = map_lookup.data_maps()
    folder.mkdir(parents=True)
    fifo = folder / "station_interior.tmx"
    os.mkfifo(fifo)
    assert map_lookup.digest(fifo) is None  # returns at once: nothing waits on the FIFO
