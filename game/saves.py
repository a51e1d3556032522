"""The saves: each battle's journal in the user's data folder, listed for the load screen.

The journal is the save (docs/battle.md). Its round and whether the battle is over are only known
by replaying it, so a small sidecar `<journal>.meta.json` beside it records them after each
command; listing reads the sidecar when it is fresh (it counts as many journal lines as the
journal has) and otherwise says what the journal alone tells: who plays, how many commands, when
it was last played. Nothing here replays a battle.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.battle.journal import JournalError, read_journal
from game.settings import write_atomically

if TYPE_CHECKING:
    from game.battle.session import Session

JOURNAL_SUFFIX = ".jsonl"
META_SUFFIX = ".meta.json"
META_VERSION = 1


def saves_dir() -> Path:
    """Where journals (the saves) live: the user's data folder."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("tessera", appauthor=False)) / "saves"


def meta_path(journal: Path) -> Path:
    return journal.with_name(journal.name + META_SUFFIX)


@dataclass(frozen=True)
class SaveInfo:
    """One save as the load screen lists it. `round`, `over`, `winner` and `active` are None
    when unknown (no fresh sidecar); `error` says why a save cannot be loaded."""

    path: Path
    played: datetime
    map_name: str
    map_path: str = ""
    players: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    computer: tuple[str, ...] = ()
    gm: bool = False
    seed: int | None = None
    #: Journal lines after the header: commands, undos, redos, seen markers.
    lines: int = 0
    #: Commands in effect (undone ones left out).
    commands: int = 0
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
    whether it is over). Call it after each command and when a battle opens. The sidecar is a
    convenience: failing to write it (a full disk) loses nothing and is answered False."""
    battle = session.battle
    try:
        lines, size = _journal_lines(journal)
        data = {
            "version": META_VERSION,
            "lines": lines,
            "size": size,
            "commands": len(session.history),
            "round": battle.round,
            "over": battle.over,
            "winner": battle.winner,
            "active": battle.active,
            "map_name": _map_name(session.setup.map_path, session.setup.map_sha256),
        }
        write_atomically(meta_path(journal), json.dumps(data, ensure_ascii=False) + "\n")
    except OSError:
        return False
    return True


def list_saves(folder: Path | None = None) -> list[SaveInfo]:
    """Every journal in `folder` (default: the user's saves), the most recently played first."""
    folder = saves_dir() if folder is None else folder
    try:
        journals = [p for p in folder.iterdir() if p.name.endswith(JOURNAL_SUFFIX)]
    except OSError:  # no saves folder yet
        return []
    saves = [read_save(p) for p in journals if p.is_file()]
    saves.sort(key=lambda s: (s.played, s.path.name), reverse=True)
    return saves


def latest(saves: list[SaveInfo]) -> SaveInfo | None:
    """The save "continue" resumes: the most recently played one that loads and is not over."""
    return next((s for s in saves if s.loadable and not s.finished), None)


def delete_save(path: Path) -> None:
    """Remove a save and its sidecar."""
    path.unlink(missing_ok=True)
    meta_path(path).unlink(missing_ok=True)


def read_save(path: Path) -> SaveInfo:
    """What one journal tells without replaying it (and its sidecar, when fresh)."""
    try:
        played = datetime.fromtimestamp(path.stat().st_mtime)
    except OSError as exc:
        return SaveInfo(path, datetime.fromtimestamp(0), path.stem, error=f"{path}: {exc.strerror}")
    meta = _read_meta(path)
    meta_name = meta.get("map_name")
    fallback_name = meta_name if isinstance(meta_name, str) and meta_name else _stem_map(path)
    try:
        contents = read_journal(path)
    except JournalError as exc:
        return SaveInfo(path, played, fallback_name, error=str(exc))
    setup = contents.setup
    commands = 0
    for entry in contents.entries:  # undo and redo markers move along the history
        if entry.marker != "seen":  # a player taking the screen changes nothing
            commands += -1 if entry.marker == "undo" else 1
    info = SaveInfo(
        path,
        played,
        fallback_name,
        map_path=setup.map_path,
        players={p: tuple(f) for p, f in setup.players.items()},
        computer=tuple(setup.computer),
        gm=setup.gm,
        seed=setup.seed,
        lines=len(contents.entries),
        commands=commands,
        notices=contents.notices,
    )
    map_error = _map_error(path, setup.map_path, setup.map_sha256)
    if map_error is not None:
        return _replace(info, error=map_error)
    if not (isinstance(meta_name, str) and meta_name):
        info = _replace(info, map_name=_map_name(setup.map_path, setup.map_sha256))
    lines, size = _journal_lines(path)
    if meta.get("lines") == lines and meta.get("size") == size:
        return _replace(
            info,
            round=_int_or_none(meta.get("round")),
            over=meta.get("over") if isinstance(meta.get("over"), bool) else None,
            winner=meta.get("winner") if isinstance(meta.get("winner"), str) else None,
            active=meta.get("active") if isinstance(meta.get("active"), str) else None,
            commands=meta["commands"] if _int_or_none(meta.get("commands")) else commands,
        )
    last = next(
        (e for e in reversed(contents.entries) if e.command is not None and e.marker is None),
        None,
    )
    if last is not None and last.command is not None and last.command.KIND == "end_combat":
        info = _replace(info, over=True)
    return info


# ---------------------------------------------------------------- helpers


def _replace(info: SaveInfo, **changes: Any) -> SaveInfo:
    from dataclasses import replace

    return replace(info, **changes)


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _stem_map(journal: Path) -> str:
    """The map's file name from a journal named `<map stem>_<date>_<time>.jsonl`."""
    parts = journal.name.removesuffix(JOURNAL_SUFFIX).rsplit("_", 2)
    return parts[0] if len(parts) == 3 else journal.stem


def _journal_lines(journal: Path) -> tuple[int, int]:
    """Whole lines after the header, and the file's size: what a fresh sidecar matches."""
    data = journal.read_bytes()
    return max(0, data.count(b"\n") - 1), len(data)


def _read_meta(journal: Path) -> dict[str, Any]:
    with contextlib.suppress(OSError, ValueError, RecursionError):
        data = json.loads(meta_path(journal).read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("version") == META_VERSION:
            return data
    return {}


@lru_cache(maxsize=64)
def _map_facts(map_path: str, mtime_ns: int) -> tuple[str, str, str | None]:
    """The sha256 of a map file, its name, and why it does not load (None when it does)."""
    from game.battle.setup import file_sha256
    from game.maps import MapError, load_map

    digest = file_sha256(Path(map_path))
    try:
        return digest, load_map(Path(map_path)).properties.name, None
    except MapError as exc:
        return digest, "", str(exc)


def _facts(map_path: str) -> tuple[str, str, str | None] | None:
    try:
        return _map_facts(map_path, Path(map_path).stat().st_mtime_ns)
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
        return f"{journal}:1: the battle's map {map_path} is missing"
    if facts[0] != sha256:
        return (
            f"{journal}:1: the map {map_path} has changed since the battle began "
            f"(sha256 {facts[0][:12]}…, the journal says {sha256[:12]}…)"
        )
    if facts[2] is not None:
        return f"{journal}:1: the battle's map cannot be loaded: {facts[2]}"
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
