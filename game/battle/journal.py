"""The battle journal: an append-only JSON-lines file that is the save, the replay and the undo.

Line 1 is the header (format, version, the setup: map path and hash, ruleset, seed, units, who
plays what). Each further line is one accepted command with who gave it, the dice it rolled, the
state hash after it and whether a player may take it back, or an undo/redo marker, or a snapshot
of the whole battle (every so many commands, so that reopening replays only what follows the
last one). A line is flushed and fsynced before its result is shown, so a crash loses nothing
that was shown; a torn last line (the crash itself) is dropped on reopening. No pickle, no eval:
only JSON, validated as it is read.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from game.battle.commands import Command, CommandError, parse_command
from game.battle.map_lookup import locate, recorded_path
from game.battle.setup import BattleSetup
from game.rules.dice import RollRecord
from game.rules.reader import ScenarioError
from game.text.bounds import MESSAGE, NAME, clip

FORMAT = "tessera-journal"
#: 2: command lines say whether a player may take them back ("private"); snapshot lines.
#: 3: the state hash covers the log, the kept views and the header (the setup but for its map
#: path), and snapshot lines carry a digest of the header ("header").
VERSION = 3


def _from_version_1(header: dict[str, Any], lines: list[dict[str, Any]]) -> None:
    """Version 1 had no snapshots and did not record whether a command was private: that is
    unknown (None) until the command is replayed."""
    for line in lines:
        if "cmd" in line:
            line["private"] = None


def _from_version_2(header: dict[str, Any], lines: list[dict[str, Any]]) -> None:
    """Version 2's lines read as version 3's; what differs is how their state hashes were taken
    (without the log, the views and the header: `Battle.state_hash(legacy=True)`) and that
    their snapshots carry no header digest. The session knows from `JournalContents.version`,
    and continues such a journal in its own version."""


#: Upgrades from older format versions: version -> function turning a header and lines into the
#: next version's.
UPGRADES: Mapping[int, Callable[[dict[str, Any], list[dict[str, Any]]], None]] = {
    1: _from_version_1,
    2: _from_version_2,
}

#: A journal line longer than this is damage, not a command.
MAX_LINE = 1_000_000
#: A snapshot line may be longer (a big map's fog and views), not endless.
MAX_SNAPSHOT_LINE = 64_000_000


class JournalError(ValueError):
    """A journal that cannot be read; the message names the file and the line."""


class JournalWriteError(JournalError):
    """A line could not be written (the disk is full, or another error of the file system):
    the battle is saved up to `saved` commands in effect, and nothing after them was shown."""

    def __init__(self, path: Path, error: OSError, saved: int) -> None:
        self.path = path
        self.error = error
        self.saved = saved
        if error.errno == errno.ENOSPC:
            why = "the disk is full"
        else:
            why = f"the journal cannot be written ({error.strerror or error})"
        super().__init__(f"{path}: {why}; the battle is saved up to command {saved}")


@dataclass(frozen=True)
class Entry:
    """One line after the header: a command (with its dice, the hash after it and whether it
    was private: None when a version-1 journal did not say), or an undo, redo or seen marker
    (`command` None, `marker` "undo"/"redo"/"seen": a player took the screen)."""

    line: int
    by: str
    command: Command | None = None
    marker: str | None = None
    dice: tuple[tuple[int, ...], ...] = ()
    state_hash: str = ""
    private: bool | None = None


@dataclass(frozen=True)
class SnapshotEntry:
    """A snapshot line: the battle after `n` commands in effect, written after the first
    `after` entries. `data` is what `Battle.snapshot()` answered, but for its log: only the
    events from `data["log_from"]` on (those before are in the snapshot before it)."""

    line: int
    n: int
    after: int
    data: dict[str, Any]


@dataclass(frozen=True)
class JournalContents:
    setup: BattleSetup
    entries: tuple[Entry, ...]
    #: Bytes of the file that hold whole lines; past them is a torn line from a crash.
    good_bytes: int
    notices: tuple[str, ...] = ()
    snapshots: tuple[SnapshotEntry, ...] = ()
    #: The version the file was written in (a version-1 journal is continued in version 1).
    version: int = VERSION


def dice_of(rolls: tuple[RollRecord, ...]) -> list[list[int]]:
    return [list(r.dice) for r in rolls]


def snapshot_line(n: int, snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """The journal line of a snapshot after `n` commands in effect, with a digest of it: the
    state hash checks the state it restores, the digest the rest (the log, the views)."""
    return {"n": n, "snapshot": snapshot, "check": _digest(snapshot)}


def _digest(snapshot: Mapping[str, Any]) -> str:
    text = json.dumps(snapshot, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def header_line(setup: BattleSetup, journal: Path, version: int = VERSION) -> dict[str, Any]:
    """The header, with the map path relative to the journal's folder when it can be."""
    data = setup.to_json()
    try:
        data["map"] = os.path.relpath(Path(setup.map_path).resolve(), journal.resolve().parent)
    except ValueError:  # another drive on Windows
        data["map"] = str(Path(setup.map_path).resolve())
    return {"format": FORMAT, "version": version, "setup": data}


class JournalWriter:
    """Appends lines and makes each durable before returning (flush + fsync). The file is
    written unbuffered, so that a line the disk refused leaves nothing behind to be written
    later in the middle of the next one."""

    def __init__(self, path: Path, handle: IO[bytes], version: int = VERSION) -> None:
        self.path = path
        self._handle = handle
        #: The format the lines are written in: a version-1 journal is continued in its own.
        self.version = version

    @classmethod
    def create(cls, path: Path, setup: BattleSetup, version: int = VERSION) -> JournalWriter:
        """A new journal holding its header. The header is written to a file beside it and
        then given the journal's name, so a crash leaves either no journal or a whole header,
        never a torn one that could not be told from a foreign file. An existing file is never
        overwritten, unless it is empty (nothing is lost). `version`: an older format (2), for
        a journal an older Tessera must read."""
        if version not in (2, VERSION):
            raise ValueError(f"journal version {version}: only 2 and {VERSION} are written")
        line = _encode(header_line(setup, path, version))
        temporary = path.with_name(f".{path.name}.{os.getpid()}.new")
        try:
            with temporary.open("wb") as new:
                new.write(line)
                new.flush()
                os.fsync(new.fileno())
            if path.is_file() and path.stat().st_size == 0:
                os.replace(temporary, path)
            else:
                _link_new(temporary, path)
            _fsync_dir(path)
            handle = path.open("ab", buffering=0)
        except FileExistsError:
            raise JournalError(f"{path}: a file is there already; it is not overwritten") from None
        except OSError as exc:
            raise JournalError(f"{path}: cannot write the journal ({exc.strerror})") from None
        finally:
            with contextlib.suppress(OSError):
                temporary.unlink()
        return cls(path, handle, version)

    @classmethod
    def append_to(cls, path: Path, good_bytes: int, version: int = VERSION) -> JournalWriter:
        """Reopen for appending, cutting off a torn last line first."""
        try:
            handle = path.open("r+b", buffering=0)
        except OSError as exc:
            raise JournalError(f"{path}: cannot write to the journal ({exc.strerror})") from None
        try:
            handle.truncate(good_bytes)
            handle.seek(good_bytes)
        except OSError as exc:
            handle.close()
            raise JournalError(f"{path}: cannot write to the journal ({exc.strerror})") from None
        return cls(path, handle, version)

    def write(self, data: Mapping[str, Any]) -> None:
        """Append one line, durably. When the file system refuses it (a full disk), the file is
        cut back to the lines before it, so that it can be continued later, and OSError is
        raised: the caller knows how much of the battle that leaves saved."""
        line = memoryview(_encode(data))
        start = self._handle.tell()
        try:
            while line:  # unbuffered: a write may take only part of the line
                written = self._handle.write(line)
                line = line[len(line) if written is None else written :]
            self._handle.flush()
            os.fsync(self._handle.fileno())
        except OSError:
            self._cut(start)
            raise

    def _cut(self, size: int) -> None:
        """Drop what a failed write may have left past `size` (in the file and the buffer);
        if even that fails, reopening drops it as a torn last line."""
        with contextlib.suppress(OSError, ValueError):
            self._handle.seek(size)
            self._handle.truncate(size)

    def close(self) -> None:
        self._handle.close()


def _encode(data: Mapping[str, Any]) -> bytes:
    """One journal line; the whole line is encoded before any of it is written, so text that
    is not valid Unicode (a lone surrogate) fails here and leaves the file as it was."""
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _link_new(source: Path, path: Path) -> None:
    """Give `source` the name `path` unless that name is taken (FileExistsError)."""
    try:
        os.link(source, path)  # refuses an existing name, unlike a rename
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: check, then rename
        if path.exists():
            raise FileExistsError(f"{path}: the file exists") from None
        os.replace(source, path)


def _fsync_dir(path: Path) -> None:
    """Make the new file's name durable too (POSIX; harmless elsewhere)."""
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _lines(data: bytes) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, bytes, whether it ended with a newline) for each line."""
    start = 0
    number = 1
    while start < len(data):
        end = data.find(b"\n", start)
        if end < 0:
            yield number, data[start:], False
            return
        yield number, data[start:end], True
        start = end + 1
        number += 1


def read_journal(path: Path) -> JournalContents:
    """Read and check a journal file; raise JournalError naming the file and line."""
    name = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"{name}: cannot read the journal ({exc.strerror})") from None
    if not data.strip():
        raise JournalError(f"{name}:1: the file is empty, not a Tessera journal")
    notices: list[str] = []
    parsed: list[tuple[int, dict[str, Any]]] = []
    good = 0
    offset = 0
    all_lines = list(_lines(data))
    for index, (number, raw, complete) in enumerate(all_lines):
        last = index == len(all_lines) - 1
        offset_after = offset + len(raw) + (1 if complete else 0)
        try:
            if len(raw) > MAX_SNAPSHOT_LINE:
                raise ValueError(f"line longer than {MAX_SNAPSHOT_LINE} bytes")
            value = json.loads(raw.decode("utf-8"))
            if not isinstance(value, dict):
                raise ValueError("not a JSON object")
            if len(raw) > MAX_LINE and "snapshot" not in value:
                raise ValueError(f"line longer than {MAX_LINE} bytes")
            if b"\\u" in raw:  # an escape may stand for a lone surrogate: not Unicode text
                json.dumps(value, ensure_ascii=False).encode("utf-8")
            if not complete:
                raise ValueError("no end of line")
        except (ValueError, RecursionError) as exc:  # Unicode errors are ValueErrors
            if last and number > 1:
                # P: a crash while writing leaves at most the last line torn: drop it.
                notices.append(f"{name}:{number}: an unfinished last line was dropped ({exc})")
                break
            if number == 1:
                raise JournalError(
                    f"{name}:1: not a Tessera journal (the first line is not its header: {exc})"
                ) from None
            raise JournalError(f"{name}:{number}: damaged line ({exc})") from None
        parsed.append((number, value))
        offset = offset_after
        good = offset
    rest = [value for _n, value in parsed[1:]]
    setup, written = read_header(parsed[0][1], rest, path)
    entries: list[Entry] = []
    snapshots: list[SnapshotEntry] = []
    for number, value in parsed[1:]:
        if "snapshot" in value:
            snapshots.append(_snapshot_entry(name, number, value, len(entries)))
        else:
            entries.append(_entry(name, number, value))
    return JournalContents(
        setup, tuple(entries), good, tuple(notices), tuple(snapshots), min(written, VERSION)
    )


def read_header(
    header: dict[str, Any], lines: list[dict[str, Any]], path: Path
) -> tuple[BattleSetup, int]:
    """The setup a journal's header line holds (its map path made absolute beside `path`) and
    the version it was written in; `header` and `lines` are upgraded in place to VERSION. The
    saves list reads headers through this too, so a header is checked one way everywhere."""
    name = str(path)
    if header.get("format") != FORMAT:
        shown = clip(repr(header.get("format")), NAME)
        raise JournalError(f"{name}:1: not a Tessera journal (format {shown})")
    version = header.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        shown = clip(repr(version), NAME)
        raise JournalError(f"{name}:1: the version {shown} is not a whole number")
    written = version
    while version < VERSION:
        upgrade = UPGRADES.get(version)
        if upgrade is None:
            raise JournalError(f"{name}:1: version {version} cannot be upgraded")
        upgrade(header, lines)
        version += 1
    if version > VERSION:
        raise JournalError(
            f"{name}:1: written by a newer Tessera (journal version {version}); "
            f"this one reads version {VERSION}"
        )
    try:
        setup = BattleSetup.from_json(header.get("setup"), "setup")
    except ScenarioError as exc:
        raise JournalError(f"{name}:1: {clip(str(exc), MESSAGE)}") from None
    # The map where the header says, else a copy with its content in the known map folders
    # (game/battle/map_lookup.py): a journal copied elsewhere or a moved checkout still opens.
    found = locate(setup.map_path, setup.map_sha256, path)
    map_path = found if found is not None else recorded_path(setup.map_path, path)
    return _with_map(setup, str(map_path)), written


def _with_map(setup: BattleSetup, map_path: str) -> BattleSetup:
    from dataclasses import replace

    return replace(setup, map_path=map_path)


def _entry(name: str, number: int, value: dict[str, Any]) -> Entry:
    where = f"{name}:{number}"
    by = value.get("by")
    if not isinstance(by, str) or not by:
        raise JournalError(f"{where}: field 'by': expected who gave the command")
    for marker in ("undo", "redo", "seen"):
        if marker in value:
            if set(value) - {"n", "by", marker}:
                raise JournalError(f"{where}: unexpected fields beside {marker!r}")
            return Entry(number, by, marker=marker)
    known = {"n", "by", "cmd", "dice", "hash", "private"}
    extra = set(value) - known
    if extra:
        raise JournalError(f"{where}: unknown fields {sorted(extra)}")
    try:
        command = parse_command(value.get("cmd"), "cmd")
    except CommandError as exc:
        raise JournalError(f"{where}: {exc}") from None
    dice_raw = value.get("dice", [])
    if not isinstance(dice_raw, list) or not all(
        isinstance(d, list) and all(isinstance(f, int) and not isinstance(f, bool) for f in d)
        for d in dice_raw
    ):
        raise JournalError(f"{where}: field 'dice': expected lists of die faces")
    state_hash = value.get("hash")
    if state_hash is None:
        raise JournalError(
            f"{where}: field 'hash': missing (each command line records the state after it)"
        )
    if not isinstance(state_hash, str) or not state_hash:
        raise JournalError(f"{where}: field 'hash': expected the state hash after the command")
    private = value.get("private", False)
    if private is not None and not isinstance(private, bool):
        raise JournalError(f"{where}: field 'private': expected true or false")
    dice = tuple(tuple(d) for d in dice_raw)
    return Entry(number, by, command, None, dice, state_hash, private)


def _snapshot_entry(name: str, number: int, value: dict[str, Any], after: int) -> SnapshotEntry:
    where = f"{name}:{number}"
    if set(value) != {"n", "snapshot", "check"}:
        raise JournalError(f"{where}: a snapshot line holds n, snapshot and check only")
    n, data = value["n"], value["snapshot"]
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise JournalError(f"{where}: field 'n': expected the number of commands in effect")
    if not isinstance(data, dict):
        raise JournalError(f"{where}: field 'snapshot': expected an object")
    if value["check"] != _digest(data):
        raise JournalError(f"{where}: damaged snapshot (it does not match its check)")
    return SnapshotEntry(number, n, after, data)
