"""The saves: each battle's journal in the user's data folder, listed for the load screen.

The journal is the save (docs/battle.md). Its round and whether the battle is over are only known
by replaying it, so a small sidecar `<journal>.meta.json` beside it records them after each
command. Listing never replays a battle nor reads a journal whole: it reads the header line and
the last lines (seeking to the end), so a long battle lists as fast as a short one. The sidecar is
believed only when it agrees with the journal (its size, its header, its command count); else the
list says what the journal alone tells: who plays, how many commands, when it was last played.
Only regular files are read, each with a bound on its size (docs/window.md, "Saves").
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from game.app.settings import open_regular, read_small_file, write_atomically
from game.battle import map_lookup
from game.battle.commands import CommandError, parse_command
from game.battle.journal import MAX_LINE, JournalError, read_header
from game.battle.setup import BattleSetup
from game.text.bounds import MESSAGE, clip

if TYPE_CHECKING:
    from game.battle.session import Session

JOURNAL_SUFFIX = ".jsonl"
META_SUFFIX = ".meta.json"
#: 2: the sidecar names its journal's header (a digest) instead of counting its lines.
META_VERSION = 2
#: A sidecar is a few hundred bytes; a longer one is not read (nor believed).
MAX_META = 64_000
#: Bytes read from a journal's end at first, doubled until its last command line is whole...
TAIL = 64 * 1024
#: ...but never more than this (past a snapshot line this long the end is left unknown).
MAX_TAIL = 8_000_000
#: The last lines checked when listing (the whole journal is checked when it is opened).
CHECKED_LINES = 8
#: A snapshot line, told without reading it whole: its "snapshot" key comes before any object
#: or list (journal.snapshot_line writes {"n":..,"snapshot":{..},..}). A line this misses but
#: that holds a "snapshot" is still told when it is parsed.
_SNAPSHOT = re.compile(rb'\{[^{\[\n]{0,300}"snapshot":')


def saves_dir() -> Path:
    """Where journals (the saves) live: the user's data folder."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("tessera", appauthor=False)) / "saves"


def meta_path(journal: Path) -> Path:
    return journal.with_name(journal.name + META_SUFFIX)


@dataclass(frozen=True)
class SaveInfo:
    """One save as the load screen lists it. `round`, `over`, `winner` and `active` are None
    when unknown (no sidecar that agrees with the journal); `error` says why a save cannot be
    loaded. Names and messages are clipped (text/bounds.py): a map named with 200,000 characters
    is listed by its first few dozen."""

    path: Path
    played: datetime
    map_name: str
    map_path: str = ""
    players: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    computer: tuple[str, ...] = ()
    gm: bool = False
    seed: int | None = None
    #: Commands in effect (undone ones left out): the journal's last line says; None when it
    #: is too far from the end to find.
    commands: int | None = 0
    round: int | None = None
    over: bool | None = None
    winner: str | None = None
    active: str | None = None
    error: str | None = None
    #: Loadable, but with something to say (a torn last line that will be dropped).
    notices: tuple[str, ...] = ()

    @property
    def loadable(self) -> bool:
        return self.error is None

    @property
    def finished(self) -> bool:
        return bool(self.over)


def write_meta(journal: Path, session: Session) -> bool:
    """Record beside `journal` what the load screen shows of the battle now (round, who acts,
    whether it is over), with what ties it to this journal as it is now: its size, its header's
    digest and the number of commands in effect. Call it after each command and when a battle
    opens; it reads only the journal's header. The sidecar is a convenience: failing to write it
    (a full disk) loses nothing and is answered False."""
    battle = session.battle
    try:
        with open_regular(journal) as handle:
            size = os.fstat(handle.fileno()).st_size
            head = _header_bytes(handle, str(journal))
        data = {
            "version": META_VERSION,
            "size": size,
            "header": hashlib.sha256(head).hexdigest(),
            "commands": len(session.history),
            "round": battle.round,
            "over": battle.over,
            "winner": battle.winner,
            "active": battle.active,
            "map_name": clip(_map_name(session.setup.map_path, session.setup.map_sha256)),
        }
        write_atomically(meta_path(journal), json.dumps(data, ensure_ascii=False) + "\n")
    except (OSError, JournalError):
        return False
    return True


def list_saves(folder: Path | None = None) -> list[SaveInfo]:
    """Every journal in `folder` (default: the user's saves), the most recently played first."""
    folder = saves_dir() if folder is None else folder
    try:
        journals = [p for p in folder.iterdir() if p.name.endswith(JOURNAL_SUFFIX)]
    except OSError:  # no saves folder yet
        return []
    saves = [read_save(p) for p in journals if not p.is_dir()]
    saves.sort(key=lambda s: (s.played, s.path.name), reverse=True)
    return saves


def latest(saves: list[SaveInfo]) -> SaveInfo | None:
    """The save "continue" resumes: the most recently played one that loads and is not over."""
    return next((s for s in saves if s.loadable and not s.finished), None)


def delete_save(path: Path) -> str | None:
    """Remove a save and its sidecar; answer why the journal could not be removed (None when it
    was). A sidecar that cannot be removed is left: without its journal it is never listed."""
    with contextlib.suppress(OSError):
        meta_path(path).unlink(missing_ok=True)
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        return clip(f"{path}: cannot delete the save ({exc.strerror})", MESSAGE)
    return None


def read_save(path: Path) -> SaveInfo:
    """What one journal tells from its header and its last lines (and its sidecar, when it
    agrees with them), without replaying it or reading it whole."""
    try:
        played = datetime.fromtimestamp(path.stat().st_mtime)
    except (OSError, ValueError, OverflowError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else str(exc)
        error = clip(f"{path}: {why}", MESSAGE)
        return SaveInfo(path, datetime.fromtimestamp(0), clip(path.stem), error=error)
    meta = _read_meta(path)
    try:
        ends = _read_ends(path)
    except JournalError as exc:
        return SaveInfo(path, played, clip(_stem_map(path)), error=clip(str(exc), MESSAGE))
    setup = ends.setup
    agrees = meta.get("header") == ends.header_digest
    meta_name = meta.get("map_name") if agrees else None
    info = SaveInfo(
        path,
        played,
        clip(meta_name) if isinstance(meta_name, str) and meta_name else clip(_stem_map(path)),
        map_path=setup.map_path,
        players={p: tuple(f) for p, f in setup.players.items()},
        computer=tuple(setup.computer),
        gm=setup.gm,
        seed=setup.seed,
        commands=ends.commands,
        notices=tuple(clip(n, MESSAGE) for n in ends.notices),
    )
    if ends.error is not None:
        return replace(info, error=clip(ends.error, MESSAGE))
    map_error = _map_error(path, setup.map_path, setup.map_sha256)
    if map_error is not None:
        return replace(info, error=clip(map_error, MESSAGE))
    if not (isinstance(meta_name, str) and meta_name):
        info = replace(info, map_name=clip(_map_name(setup.map_path, setup.map_sha256)))
    if agrees and _believed(meta, ends):
        over = meta["over"]
        return replace(
            info,
            round=meta["round"],
            over=over,
            winner=clip(meta["winner"]) if over and isinstance(meta["winner"], str) else None,
            active=clip(meta["active"]) if isinstance(meta["active"], str) else None,
        )
    if ends.last_kind == "end_combat":
        info = replace(info, over=True)
    return info


# ---------------------------------------------------------------- reading a journal's ends


@dataclass(frozen=True)
class _Ends:
    """What a journal's header and last lines tell."""

    setup: BattleSetup
    header_digest: str
    size: int
    #: Commands in effect after the last line (its "n"); None when not found.
    commands: int | None
    #: The kind of the last line's command ("end_combat"...), "undo"/"redo" for a marker,
    #: "" when there is no line after the header, None when not found.
    last_kind: str | None
    notices: tuple[str, ...] = ()
    #: A damaged line among the last ones: the save cannot be loaded.
    error: str | None = None


def _read_ends(path: Path) -> _Ends:
    """The header (checked as opening checks it) and the last lines of a journal: at most the
    header line and MAX_TAIL bytes from its end are read."""
    name = str(path)
    try:
        handle = open_regular(path)
    except OSError as exc:
        raise JournalError(f"{name}: cannot read the journal ({exc.strerror})") from None
    with handle:
        try:
            size = os.fstat(handle.fileno()).st_size
            head = _header_bytes(handle, name)
            setup = _setup(head, path)
            return _tail(handle, name, setup, head, size)
        except OSError as exc:
            raise JournalError(f"{name}: cannot read the journal ({exc.strerror})") from None


def _header_bytes(handle: BinaryIO, name: str) -> bytes:
    """The journal's first line (without its end), read in pieces and never past MAX_LINE."""
    handle.seek(0)
    data = b""
    while True:
        piece = handle.read(64 * 1024)
        end = piece.find(b"\n")
        if end >= 0 and len(data) + end <= MAX_LINE:
            return data + piece[:end]
        data += piece
        if len(data) > MAX_LINE:
            why = f"line longer than {MAX_LINE} bytes"
            break
        if not piece:
            if not data.strip():
                raise JournalError(f"{name}:1: the file is empty, not a Tessera journal")
            why = "no end of line"
            break
    raise JournalError(f"{name}:1: not a Tessera journal (the first line is not its header: {why})")


def _setup(head: bytes, path: Path) -> BattleSetup:
    """The battle's setup from the header line, checked as `read_journal` checks it."""
    name = str(path)
    try:
        header = _json_object(head)
    except (ValueError, RecursionError) as exc:
        raise JournalError(
            f"{name}:1: not a Tessera journal (the first line is not its header: {exc})"
        ) from None
    return read_header(header, [], path)[0]


def _json_object(raw: bytes) -> dict[str, Any]:
    value = json.loads(raw.decode("utf-8"))
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    if b"\\u" in raw:  # an escape may stand for a lone surrogate: not Unicode text
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    return value


def _tail(handle: BinaryIO, name: str, setup: BattleSetup, head: bytes, size: int) -> _Ends:
    """The last lines: read from the end, TAIL bytes and twice as many until the last line that
    is not a snapshot is whole (or MAX_TAIL); the last CHECKED_LINES of them are checked."""
    digest = hashlib.sha256(head).hexdigest()
    first = len(head) + 1  # where the lines after the header begin
    if size <= first:
        return _Ends(setup, digest, size, 0, "")
    want = TAIL
    while True:
        start = max(first, size - want)
        handle.seek(start)
        data = handle.read(size - start)
        whole = start == first  # every line after the header is in `data`
        pieces = data.split(b"\n")
        torn = pieces.pop()  # after the last end of line: a line a crash left unfinished
        if not whole and pieces:
            pieces.pop(0)  # the window began inside this line
        if any(not _SNAPSHOT.match(p) for p in pieces) or whole or want >= MAX_TAIL:
            break
        want *= 2
    notices: list[str] = []
    # Line numbers are known when the window holds every line; else say where in bytes.
    numbered = whole
    end_offset = size - len(torn)
    offsets: list[int] = []
    at = end_offset
    for piece in reversed(pieces):
        at -= len(piece) + 1
        offsets.append(at)
    offsets.reverse()

    def where(index: int) -> str:
        if numbered:
            return f"{name}:{index + 2}"
        return f"{name} (the line at byte {offsets[index]})"

    lines: list[tuple[int, bytes]] = list(enumerate(pieces))
    if torn:
        number = f"{name}:{len(pieces) + 2}" if numbered else f"{name} (its last line)"
        notices.append(f"{number}: an unfinished last line will be dropped (no end of line)")
    checked: list[tuple[int, dict[str, Any] | None]] = []
    for index, raw in reversed(lines):
        if len(checked) >= CHECKED_LINES:
            break
        if _SNAPSHOT.match(raw):
            checked.append((index, None))
            continue
        try:
            if len(raw) > MAX_LINE:
                raise ValueError(f"line longer than {MAX_LINE} bytes")
            value = _json_object(raw)
        except (ValueError, RecursionError) as exc:
            if index == len(pieces) - 1 and not torn:
                # P: a crash while writing leaves at most the last line torn: it is dropped.
                notices.append(f"{where(index)}: an unfinished last line will be dropped ({exc})")
                continue
            return _Ends(setup, digest, size, None, None, tuple(notices),
                         f"{where(index)}: damaged line ({exc})")  # fmt: skip
        if "snapshot" in value:
            checked.append((index, None))
            continue
        problem = _line_problem(value)
        if problem is not None:
            return _Ends(setup, digest, size, None, None, tuple(notices),
                         f"{where(index)}: {problem}")  # fmt: skip
        checked.append((index, value))
    # A seen marker (a player took the screen) changes no command: the line before it tells.
    last = next((v for _i, v in checked if v is not None and "seen" not in v), None)
    commands: int | None = None
    kind: str | None = None
    if last is not None:
        n = last.get("n")
        commands = n if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else None
        marker = next((m for m in ("undo", "redo") if m in last), None)
        cmd = last.get("cmd")
        kind = marker or (str(cmd.get("cmd")) if isinstance(cmd, dict) else None)
    elif not pieces and whole:
        commands, kind = 0, ""
    if commands is None and whole:  # no "n" to read: count, as the journal is all here
        commands = _count(pieces)
    return _Ends(setup, digest, size, commands, kind, tuple(notices))


def _line_problem(value: dict[str, Any]) -> str | None:
    """What is wrong with a command or undo/redo line, or None: who gave it, and a command
    that parses (opening checks the rest: the fields the journal's version has, dice, hashes)."""
    by = value.get("by")
    if not isinstance(by, str) or not by:
        return "field 'by': expected who gave the command"
    if "undo" in value or "redo" in value or "seen" in value:
        return None
    try:
        parse_command(value.get("cmd"), "cmd")
    except CommandError as exc:
        return clip(str(exc), MESSAGE)
    return None


def _count(pieces: list[bytes]) -> int | None:
    """Commands in effect, counted from every line (undo and redo markers move along)."""
    commands = 0
    for raw in pieces:
        if _SNAPSHOT.match(raw):
            continue
        try:
            value = _json_object(raw)
        except (ValueError, RecursionError):
            return None
        if "snapshot" not in value and "seen" not in value:
            commands += -1 if "undo" in value else 1
    return commands


# ---------------------------------------------------------------- helpers


def _believed(meta: Mapping[str, Any], ends: _Ends) -> bool:
    """Whether a sidecar naming this journal's header agrees with the journal as it is: written
    when the journal had its size and its last line's command count, and saying nothing that
    cannot be (a round beyond one per command, a battle the GM ended that is not over)."""
    round_no, commands, over = meta.get("round"), meta.get("commands"), meta.get("over")
    if not (_int_or_none(round_no) is not None and _int_or_none(commands) is not None):
        return False
    assert isinstance(round_no, int) and isinstance(commands, int)
    return (
        meta.get("size") == ends.size
        and commands == ends.commands
        and 0 <= round_no <= commands + 1
        and isinstance(over, bool)
        and (over or ends.last_kind != "end_combat")
        and all(meta.get(k) is None or isinstance(meta.get(k), str) for k in ("winner", "active"))
    )


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _stem_map(journal: Path) -> str:
    """The map's file name from a journal named `<map stem>_<date>_<time>.jsonl`."""
    parts = journal.name.removesuffix(JOURNAL_SUFFIX).rsplit("_", 2)
    return parts[0] if len(parts) == 3 else journal.stem


def _read_meta(journal: Path) -> dict[str, Any]:
    """The sidecar's claims (only a regular file of at most MAX_META bytes is read)."""
    with contextlib.suppress(OSError, ValueError, RecursionError):
        data = json.loads(read_small_file(meta_path(journal), MAX_META).decode("utf-8"))
        if isinstance(data, dict) and data.get("version") == META_VERSION:
            return data
    return {}


@lru_cache(maxsize=64)
def _map_facts(map_path: str, mtime_ns: int, size: int) -> tuple[str, str, str | None]:
    """The sha256 of a map file, its name, and why it does not load (None when it does). A
    file larger than a map may be is not read ("" for its digest)."""
    from game.battle.setup import file_sha256
    from game.maps import MapError, load_map
    from game.maps.tmx import MAX_FILE_BYTES

    if size > MAX_FILE_BYTES:
        return "", "", f"{map_path}: larger than a map may be ({MAX_FILE_BYTES} bytes)"
    digest = file_sha256(Path(map_path))
    try:
        return digest, load_map(Path(map_path)).properties.name, None
    except MapError as exc:
        return digest, "", str(exc)


def _facts(map_path: str) -> tuple[str, str, str | None] | None:
    """The map's facts; None when it is missing or not a regular file (a FIFO or a device
    named by a journal is never read)."""
    try:
        with open_regular(Path(map_path)) as handle:
            info = os.fstat(handle.fileno())
        return _map_facts(map_path, info.st_mtime_ns, info.st_size)
    except OSError:
        return None


def _map_name(map_path: str, sha256: str) -> str:
    facts = _facts(map_path)
    if facts is not None and facts[0] == sha256 and facts[1]:
        return facts[1]
    return Path(map_path).stem


def _map_error(journal: Path, map_path: str, sha256: str) -> str | None:
    """Why the battle's map keeps it from loading (the same checks as opening it)."""
    facts = _facts(map_path)
    if facts is None:
        if Path(map_path).exists():
            return f"{journal}:1: the battle's map {map_path} is not a regular file"
        return f"{journal}:1: {map_lookup.missing_text(map_path, journal)}"
    if not facts[0] and facts[2] is not None:
        return f"{journal}:1: {map_lookup.damaged_text(map_path, facts[2])}"
    if facts[0] != sha256:
        return f"{journal}:1: {map_lookup.changed_text(map_path, facts[0], sha256)}"
    if facts[2] is not None:
        return f"{journal}:1: {map_lookup.damaged_text(map_path, facts[2])}"
    return None


__all__ = [
    "SaveInfo",
    "delete_save",
    "latest",
    "list_saves",
    "meta_path",
    "read_save",
    "saves_dir",
    "write_meta",
]
