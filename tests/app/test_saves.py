"""The saves list: journals in the saves folder, newest first, with what the load screen shows;
the round from a sidecar that agrees with its journal, what the journal alone tells without it,
and damaged saves listed with the reason they cannot be loaded. Listing reads a journal's header
and last lines only; a FIFO or a link to /dev/zero is never read; names are clipped."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime
from pathlib import Path

import pytest

from game.app import saves
from game.app.saves import (
    delete_save,
    latest,
    list_saves,
    meta_path,
    read_save,
    saves_dir,
    write_meta,
)
from game.app.settings import open_regular
from game.battle import commands as cmd
from game.battle.engine import GM
from game.battle.journal import MAX_LINE, JournalError
from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.maps import load_map
from game.text.bounds import MESSAGE, NAME

REPO = Path(__file__).resolve().parents[2]
STATION = REPO / "maps" / "station_interior.tmx"
HULL = REPO / "maps" / "hull_breach.tmx"


def _battle(
    journal: Path,
    *,
    map_path: Path = STATION,
    turns: int = 0,
    meta: bool = True,
    gm: bool = False,
) -> Session:
    """A battle saved in `journal` after `turns` ended turns (the sidecar written after each
    when `meta`); the session is left open for the test to go on or close."""
    loaded = load_map(map_path)
    first, *rest = sorted({u.faction for u in loaded.units})
    setup = setup_from_map(loaded, seed=5, computer=tuple(rest), players={"Anna": (first,)}, gm=gm)
    session = Session.new(setup, journal)
    if meta:
        write_meta(journal, session)
    for _ in range(turns):
        _end_turn(session)
        if meta:
            write_meta(journal, session)
    return session


def _end_turn(session: Session) -> None:
    b = session.battle
    assert b.active is not None
    assert session.submit(cmd.EndTurn(b.active), b.controller_of(b.faction_of(b.active))).accepted


def _replayed_round(journal: Path) -> int:
    session = Session.open(journal, for_append=False)
    try:
        return session.battle.round
    finally:
        session.close()


def _set_mtime(path: Path, when: datetime) -> None:
    os.utime(path, (when.timestamp(), when.timestamp()))


def test_the_saves_folder_is_in_the_users_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert saves_dir() == tmp_path / "data" / "tessera" / "saves"
    assert list_saves() == []  # no folder yet: no saves, no error


def test_saves_are_listed_newest_first_with_map_players_round_and_time(tmp_path: Path) -> None:
    old, new = tmp_path / "station_interior_a.jsonl", tmp_path / "hull_breach_b.jsonl"
    _battle(old, turns=2).close()
    _battle(new, map_path=HULL, turns=9).close()
    _set_mtime(old, datetime(2024, 5, 1, 20, 30))
    _set_mtime(new, datetime(2024, 5, 2, 21, 0))
    saves = list_saves(tmp_path)
    assert [s.path for s in saves] == [new, old]
    first = saves[0]
    assert first.map_name == "Ardea Station, module C: hull breach"  # the map's own name
    assert dict(first.players) == {"Anna": ("raiders",)}
    assert first.computer == ("station_security",)
    assert first.played == datetime(2024, 5, 2, 21, 0)
    assert first.commands == 9
    assert first.round == _replayed_round(new) and first.round is not None
    assert first.over is False and first.loadable
    assert saves[1].map_name == "Ardea Station, deck 7: cargo hall"
    assert saves[1].round == 1 and saves[1].commands == 2
    assert not any(p.name.endswith(".meta.json") for p in (s.path for s in saves))


def test_without_a_sidecar_the_journal_alone_tells_map_players_and_commands_not_the_round(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "station_interior_2024-05-01_20-30-00.jsonl"
    _battle(journal, turns=3, meta=False).close()
    info = read_save(journal)
    assert not meta_path(journal).exists()
    assert info.loadable
    assert info.round is None and info.over is None  # unknown without a replay
    assert info.commands == 3
    assert info.map_name == "Ardea Station, deck 7: cargo hall"
    assert dict(info.players) == {"Anna": ("raiders",)}


def test_a_sidecar_left_behind_by_a_later_command_is_stale_and_not_believed(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "station_interior_x.jsonl"
    session = _battle(journal, turns=1)
    assert read_save(journal).round == 1
    _end_turn(session)  # journaled, but the sidecar is not written again (a crash, say)
    session.close()
    info = read_save(journal)
    assert info.round is None
    assert info.commands == 2
    assert info.map_name == "Ardea Station, deck 7: cargo hall"  # the name is still good


def test_undone_commands_are_not_counted(tmp_path: Path) -> None:
    journal = tmp_path / "station_interior_u.jsonl"
    session = _battle(journal, turns=2, gm=True, meta=False)
    assert session.undo(GM) is None
    session.close()
    info = read_save(journal)
    assert info.commands == 1  # two commands, one undone: the undo line says n = 1


def test_a_battle_the_gm_ended_is_finished_even_without_a_sidecar(tmp_path: Path) -> None:
    journal = tmp_path / "station_interior_end.jsonl"
    session = _battle(journal, gm=True, meta=False)
    assert session.submit(cmd.EndCombat(), GM).accepted
    session.close()
    assert read_save(journal).finished


def test_a_player_taking_the_screen_last_neither_damages_nor_changes_the_listing(
    tmp_path: Path,
) -> None:
    # The seen marker (a hand-over) is the journal's last line: it is no command.
    journal = tmp_path / "station_interior_seen.jsonl"
    session = _battle(journal, turns=2, gm=True, meta=False)
    assert session.submit(cmd.EndCombat(), GM).accepted
    session.seen_by("Anna")
    session.close()
    assert '"seen"' in journal.read_text(encoding="utf-8").splitlines()[-1]
    info = read_save(journal)
    assert info.error is None
    assert info.commands == 3  # two ended turns and the GM's end of combat
    assert info.finished


def test_a_finished_battle_is_not_the_one_continue_resumes(tmp_path: Path) -> None:
    ended, older = tmp_path / "station_interior_end.jsonl", tmp_path / "station_interior_o.jsonl"
    _battle(older, turns=1).close()
    session = _battle(ended, gm=True)
    assert session.submit(cmd.EndCombat(), GM).accepted
    write_meta(ended, session)
    session.close()
    _set_mtime(older, datetime(2024, 1, 1))
    saves = list_saves(tmp_path)
    assert saves[0].path == ended and saves[0].finished
    assert latest(saves) is not None and latest(saves).path == older  # type: ignore[union-attr]


def test_a_damaged_save_is_listed_with_the_reason_and_is_never_the_one_to_continue(
    tmp_path: Path,
) -> None:
    good, bad = tmp_path / "station_interior_good.jsonl", tmp_path / "station_interior_bad.jsonl"
    _battle(good, turns=1).close()
    _battle(bad, turns=2).close()
    lines = bad.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = '{"n": 1, "by": "Anna", "cmd": {"cmd": "fly"}}\n'
    bad.write_text("".join(lines), encoding="utf-8")
    _set_mtime(good, datetime(2024, 1, 1))
    saves = list_saves(tmp_path)
    assert [s.path for s in saves] == [bad, good]
    assert not saves[0].loadable
    assert saves[0].error is not None and f"{bad}:2" in saves[0].error
    assert saves[0].map_name == "Ardea Station, deck 7: cargo hall"  # from its sidecar
    assert latest(saves) is not None and latest(saves).path == good  # type: ignore[union-attr]


def test_a_file_that_is_not_a_journal_is_listed_as_damaged(tmp_path: Path) -> None:
    junk = tmp_path / "notes_2024-01-01_10-00-00.jsonl"
    junk.write_text("hello\n", encoding="utf-8")
    (info,) = list_saves(tmp_path)
    assert not info.loadable and f"{junk}:1" in (info.error or "")
    assert info.map_name == "notes"  # from the file's name, all there is


def test_a_save_whose_map_has_changed_cannot_be_loaded_and_says_so(tmp_path: Path) -> None:
    maps = tmp_path / "maps"
    maps.mkdir()
    (tmp_path / "assets").symlink_to(REPO / "assets")  # the map's tilesets, as it names them
    map_copy = maps / "hull_breach.tmx"
    # A content of its own (a line more): no known map folder holds a copy of it
    # (game/battle/map_lookup.py would continue the battle on one).
    map_copy.write_text(HULL.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    journal = tmp_path / "hull_breach_x.jsonl"
    _battle(journal, map_path=map_copy).close()
    assert read_save(journal).loadable
    map_copy.write_text(map_copy.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    info = read_save(journal)
    assert not info.loadable and "has changed" in (info.error or "")
    assert "put the map back as it was" in (info.error or "")
    map_copy.unlink()
    error = read_save(journal).error or ""
    assert "missing" in error and "put the map back" in error


def test_a_torn_last_line_still_loads_and_is_noted(tmp_path: Path) -> None:
    journal = tmp_path / "station_interior_t.jsonl"
    _battle(journal, turns=2).close()
    with journal.open("ab") as handle:
        handle.write(b'{"n": 3, "by": "An')
    info = read_save(journal)
    assert info.loadable and info.commands == 2
    assert info.notices and "unfinished last line" in info.notices[0]


def test_deleting_a_save_removes_the_journal_and_its_sidecar(tmp_path: Path) -> None:
    journal = tmp_path / "station_interior_d.jsonl"
    _battle(journal).close()
    assert meta_path(journal).exists()
    delete_save(journal)
    assert list(tmp_path.iterdir()) == []


def test_the_sidecar_is_written_whole_with_the_battle_state(tmp_path: Path) -> None:
    journal = tmp_path / "station_interior_m.jsonl"
    session = _battle(journal, turns=1)
    data = json.loads(meta_path(journal).read_text(encoding="utf-8"))
    assert data["round"] == session.battle.round and data["active"] == session.battle.active
    assert data["commands"] == 1 and data["over"] is False
    assert data["size"] == journal.stat().st_size
    header = journal.read_bytes().split(b"\n")[0]
    assert data["header"] == hashlib.sha256(header).hexdigest()
    session.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [journal.name, meta_path(journal).name]


# ---------------------------------------------------------------- listing reads only the ends


def _garbage_in_the_middle(journal: Path, garbage: int) -> None:
    """`garbage` bytes of lines that are not JSON put after the header and the first command:
    opening the journal finds them, listing (header and last lines) does not read them."""
    lines = journal.read_bytes().splitlines(keepends=True)
    junk = (b"this is not a journal line " * 37 + b"\n") * (garbage // 1000 + 1)
    journal.write_bytes(b"".join(lines[:2]) + junk + b"".join(lines[2:]))


def test_a_journal_is_listed_from_its_header_and_its_last_lines_never_its_middle(
    tmp_path: Path,
) -> None:
    """A journal of 5 MB whose middle is garbage still lists as it was (map, players, command
    count from its last line): listing never reached the middle. Opening it, which reads every
    line, finds the damage and names it, and nothing is lost."""
    journal = tmp_path / "station_interior_big.jsonl"
    _battle(journal, turns=12).close()
    before = read_save(journal)
    _garbage_in_the_middle(journal, 5_000_000)
    assert journal.stat().st_size > 5_000_000
    info = read_save(journal)
    assert info.loadable and info.commands == 12 == before.commands
    assert info.map_name == "Ardea Station, deck 7: cargo hall"
    assert dict(info.players) == {"Anna": ("raiders",)}
    assert info.round is None  # the sidecar was written for the journal before: not believed
    with pytest.raises(JournalError, match=rf"{journal}:3: damaged line"):
        Session.open(journal, for_append=False)


def test_listing_a_big_journal_reads_a_few_kilobytes_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every byte listing reads passes through the file `open_regular` gives: counted."""
    journal = tmp_path / "station_interior_big.jsonl"
    _battle(journal, turns=12).close()
    _garbage_in_the_middle(journal, 20_000_000)
    read: list[int] = []

    class Counted:
        def __init__(self, path: Path) -> None:
            self.handle = open_regular(path)

        def __enter__(self) -> Counted:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def read(self, size: int = -1) -> bytes:
            data = self.handle.read(size)
            read.append(len(data))
            return data

        def seek(self, offset: int, whence: int = 0) -> int:
            return self.handle.seek(offset, whence)

        def fileno(self) -> int:
            return self.handle.fileno()

    monkeypatch.setattr(saves, "open_regular", Counted)
    (info,) = list_saves(tmp_path)
    assert info.loadable and info.commands == 12
    assert 0 < sum(read) < 200_000  # of 20 MB: the header, and 64 KB from the end


def test_a_journal_ending_in_a_snapshot_counts_the_commands_of_the_line_before_it(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "station_interior_s.jsonl"
    loaded = load_map(STATION)
    first, *rest = sorted({u.faction for u in loaded.units})
    setup = setup_from_map(loaded, seed=5, computer=tuple(rest), players={"Anna": (first,)})
    session = Session.new(setup, journal, snapshot_every=3)
    for _ in range(3):
        _end_turn(session)
    write_meta(journal, session)
    session.close()
    last = journal.read_bytes().splitlines()[-1]
    assert last.startswith(b'{"n":3,"snapshot":')  # the snapshot is the last line
    info = read_save(journal)
    assert info.commands == 3 and info.round == 1 and info.loadable
    # A snapshot line written another way (a key before it holding an object) is still told
    # for what it is when parsed: listed as before, not as damaged.
    lines = journal.read_bytes().splitlines(keepends=True)
    lines[-1] = b'{"later":{"a":1},' + lines[-1][1:]
    journal.write_bytes(b"".join(lines))
    info = read_save(journal)
    assert info.loadable and info.commands == 3


# ---------------------------------------------------------------- the sidecar is checked


def _rewrite_meta(journal: Path, **changes: object) -> None:
    data = json.loads(meta_path(journal).read_text(encoding="utf-8"))
    data.update(changes)
    meta_path(journal).write_text(json.dumps(data), encoding="utf-8")


def test_a_sidecar_of_another_battle_is_not_believed(tmp_path: Path) -> None:
    """Same size, same command count, but another battle's header (another seed): the sidecar
    tells nothing about this journal."""
    ours, theirs = tmp_path / "station_interior_a.jsonl", tmp_path / "station_interior_b.jsonl"
    _battle(ours, turns=1).close()
    _battle(theirs, map_path=HULL, turns=1).close()
    _rewrite_meta(ours, header=json.loads(meta_path(theirs).read_text())["header"])
    info = read_save(ours)
    assert info.loadable and info.round is None and info.over is None


@pytest.mark.parametrize(
    "claims",
    [
        {"commands": 5},  # the journal's last line says 2
        {"size": 1},  # written when the journal was another length
        {"round": 40},  # 40 rounds in 2 commands cannot be
        {"round": -1},
        {"over": "yes"},
        {"round": True},
    ],
)
def test_a_sidecar_that_disagrees_with_its_journal_is_not_believed(
    tmp_path: Path, claims: dict[str, object]
) -> None:
    journal = tmp_path / "station_interior_c.jsonl"
    _battle(journal, turns=2).close()
    assert read_save(journal).round == 1  # believed as written
    _rewrite_meta(journal, **claims)
    info = read_save(journal)
    assert info.loadable and info.round is None and info.commands == 2


def test_a_sidecar_saying_a_battle_the_gm_ended_goes_on_is_not_believed(tmp_path: Path) -> None:
    journal = tmp_path / "station_interior_e.jsonl"
    session = _battle(journal, gm=True)
    assert session.submit(cmd.EndCombat(), GM).accepted
    write_meta(journal, session)
    session.close()
    assert read_save(journal).finished
    _rewrite_meta(journal, over=False)
    assert read_save(journal).finished  # the journal's last command ended it


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("kind", ["fifo", "zero", "folder", "huge"])
def test_a_sidecar_that_is_not_a_small_regular_file_is_not_read(tmp_path: Path, kind: str) -> None:
    """A FIFO (reading it would wait for a writer for ever), a link to /dev/zero (reading it
    would never end), a folder, or a file of a megabyte: listing goes on without it, from the
    journal alone. The test has no timer: a listing that waited would never finish."""
    journal = tmp_path / "station_interior_f.jsonl"
    _battle(journal, turns=1, meta=False).close()
    sidecar = meta_path(journal)
    if kind == "fifo":
        os.mkfifo(sidecar)
    elif kind == "zero":
        sidecar.symlink_to("/dev/zero")
    elif kind == "folder":
        sidecar.mkdir()
    else:
        sidecar.write_text(" " * 1_000_000 + "{}", encoding="utf-8")
    (info,) = list_saves(tmp_path)
    assert info.loadable and info.commands == 1 and info.round is None
    assert info.map_name == "Ardea Station, deck 7: cargo hall"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_journal_that_is_not_a_regular_file_is_listed_as_damaged_and_not_read(
    tmp_path: Path, kind: str
) -> None:
    journal = tmp_path / "station_interior_2024-01-01_10-00-00.jsonl"
    if kind == "fifo":
        os.mkfifo(journal)
    else:
        journal.symlink_to("/dev/zero")
    (info,) = list_saves(tmp_path)
    assert not info.loadable and "not a regular file" in (info.error or "")
    assert info.map_name == "station_interior"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_journal_whose_map_is_a_fifo_cannot_be_loaded_and_is_not_read(tmp_path: Path) -> None:
    journal = tmp_path / "station_interior_m.jsonl"
    _battle(journal).close()
    data = journal.read_bytes().split(b"\n", 1)
    header = json.loads(data[0])
    os.mkfifo(tmp_path / "pipe.tmx")
    header["setup"]["map"] = "pipe.tmx"
    journal.write_bytes(json.dumps(header).encode() + b"\n" + data[1])
    info = read_save(journal)
    assert not info.loadable and "not a regular file" in (info.error or "")


# ---------------------------------------------------------------- names are bounded


def test_a_save_whose_map_was_renamed_with_200000_characters_is_listed_by_a_clipped_name(
    tmp_path: Path,
) -> None:
    # The loader now refuses such a name (docs/maps.md); a save made before the map was edited
    # must still list quickly, with a clipped name and the reason it cannot be loaded.
    maps = tmp_path / "maps"
    maps.mkdir()
    (tmp_path / "assets").symlink_to(REPO / "assets")
    edited_map = maps / "station_interior.tmx"
    # A line more: its own content, that no known map folder holds (game/battle/map_lookup.py).
    text = STATION.read_text(encoding="utf-8") + "\n"
    edited_map.write_text(text, encoding="utf-8")
    journal = tmp_path / "station_interior_long.jsonl"
    _battle(journal, map_path=edited_map, turns=1).close()
    edited_map.write_text(
        text.replace("Ardea Station, deck 7: cargo hall", "Ardea " + "x" * 200_000),
        encoding="utf-8",
    )
    meta_path(journal).unlink()
    info = read_save(journal)
    assert len(info.map_name) <= NAME
    assert not info.loadable and info.error is not None and len(info.error) <= MESSAGE


def test_a_sidecar_that_claims_a_long_name_is_clipped(tmp_path: Path) -> None:
    journal = tmp_path / "station_interior_n.jsonl"
    _battle(journal, turns=1).close()
    _rewrite_meta(journal, map_name="y" * 50_000, active="z" * 10_000)
    info = read_save(journal)
    assert info.map_name == "y" * (NAME - 1) + "…" and info.round == 1
    assert info.active is not None and len(info.active) == NAME


def test_a_header_with_a_huge_value_is_damaged_with_a_message_of_bounded_length(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "notes_2024-01-01_10-00-00.jsonl"
    journal.write_text(json.dumps({"format": "x" * 300_000}) + "\n", encoding="utf-8")
    (info,) = list_saves(tmp_path)
    assert not info.loadable and "not a Tessera journal" in (info.error or "")
    assert len(info.error or "") <= MESSAGE


def test_a_header_line_longer_than_a_journal_line_may_be_is_damaged_without_reading_on(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "notes_2024-01-01_10-00-00.jsonl"
    journal.write_bytes(b"{" + b" " * (MAX_LINE + 10))  # no end of line, ever
    info = read_save(journal)
    assert not info.loadable and "longer than" in (info.error or "")


def test_deleting_a_save_whose_sidecar_is_a_folder_removes_the_journal(tmp_path: Path) -> None:
    journal = tmp_path / "station_interior_d.jsonl"
    _battle(journal, meta=False).close()
    meta_path(journal).mkdir()
    assert delete_save(journal) is None
    assert not journal.exists()
    assert list_saves(tmp_path) == []  # a sidecar without its journal is not listed


def test_a_save_that_cannot_be_deleted_says_why_and_is_left_whole(tmp_path: Path) -> None:
    journal = tmp_path / "station_interior_x.jsonl"
    journal.mkdir()  # unlink refuses a folder, as a read-only saves folder would refuse a file
    problem = delete_save(journal)
    assert problem is not None and str(journal) in problem and "cannot delete" in problem
    assert journal.is_dir()


def test_a_journal_whose_map_is_larger_than_a_map_may_be_is_not_hashed(tmp_path: Path) -> None:
    """A map file of more than 64 MB (sparse here: nothing is written) is refused by its size,
    before it is read to be hashed."""
    from game.maps.tmx import MAX_FILE_BYTES

    journal = tmp_path / "station_interior_big.jsonl"
    _battle(journal).close()
    first, rest = journal.read_bytes().split(b"\n", 1)
    header = json.loads(first)
    with (tmp_path / "huge.tmx").open("wb") as huge:
        huge.truncate(MAX_FILE_BYTES + 1)
    header["setup"]["map"] = "huge.tmx"
    journal.write_bytes(json.dumps(header).encode() + b"\n" + rest)
    info = read_save(journal)
    assert not info.loadable and "larger than a map may be" in (info.error or "")
