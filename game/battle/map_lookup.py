"""Where a journal's map is now. The header records the map's path (relative to the journal's
folder) and its sha256; when that path no longer holds that content — the journal was copied
elsewhere, the checkout moved — a file with the same content is looked for in the known map
folders: beside the journal (and its maps/), the project's maps/, the data folder's maps/, the
working folder (and its maps/), by the map's file name and by the tail of its recorded path.
The content is what counts: a map is only ever taken when its sha256 is the journal's."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path

#: The project's own maps (maps/ beside game/).
PROJECT_MAPS = Path(__file__).resolve().parents[2] / "maps"
#: A file larger than a map may be (game/maps/tmx.py) is never hashed.
MAX_MAP_BYTES = 64 * 2**20
#: Components of the recorded path tried under each root, from its end.
TAIL = 4

_digests: dict[tuple[str, int, int, int], str] = {}


def data_maps() -> Path:
    """The maps folder in the user's data folder (beside the saves)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("tessera", appauthor=False)) / "maps"


def known_folders(journal: Path) -> list[Path]:
    """The folders a journal's map is looked for in, first first."""
    here = journal.resolve().parent
    cwd = Path.cwd()
    found: list[Path] = []
    for folder in (here, here / "maps", PROJECT_MAPS, data_maps(), cwd / "maps", cwd):
        if folder not in found:
            found.append(folder)
    return found


def digest(path: Path) -> str | None:
    """The sha256 of a regular file of at most MAX_MAP_BYTES, None for anything else (missing,
    a folder, a FIFO or a device is never read: looked at, opened without waiting, looked at
    again). Kept by the file's identity and change time, so that listing many saves of one map
    hashes it once."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_MAP_BYTES:
            return None
        key = (str(path), info.st_ino, info.st_mtime_ns, info.st_size)
        known = _digests.get(key)
        if known is not None:
            return known
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(path, flags)
        with os.fdopen(fd, "rb") as handle:
            again = os.fstat(handle.fileno())
            if not stat.S_ISREG(again.st_mode) or again.st_size > MAX_MAP_BYTES:
                raise OSError(errno.EINVAL, "not a regular map file", str(path))
            data = handle.read(MAX_MAP_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_MAP_BYTES:
        return None
    if len(_digests) > 1024:
        _digests.clear()
    _digests[key] = hashlib.sha256(data).hexdigest()
    return _digests[key]


def candidates(recorded: str, journal: Path) -> list[Path]:
    """Where a copy of the map may be: its file name in each known folder, and the tail of its
    recorded path (`maps/x.tmx`, `campaign/maps/x.tmx`) under the project, the data folder, the
    journal's folder and the working folder."""
    parts = [p for p in Path(recorded).parts if p not in ("..", ".") and p != Path(recorded).anchor]
    if not parts:
        return []
    out: list[Path] = []
    for folder in known_folders(journal):
        out.append(folder / parts[-1])
    roots = (PROJECT_MAPS.parent, data_maps().parent, journal.resolve().parent, Path.cwd())
    tail = parts[-TAIL:]
    for k in range(len(tail) - 1):
        for root in roots:
            out.append(root.joinpath(*tail[k:]))
    seen: set[Path] = set()
    unique = []
    for p in out:
        if p not in seen:
            seen.add(p)
            unique.append(p)
    return unique


def recorded_path(recorded: str, journal: Path) -> Path:
    """The path a header records, made absolute beside the journal."""
    path = Path(recorded)
    return path if path.is_absolute() else (journal.resolve().parent / path).resolve()


def locate(recorded: str, sha256: str, journal: Path) -> Path | None:
    """The map file a journal's battle is on now: its recorded path (relative to the journal's
    folder) when that holds the content the battle began with, else the first known place that
    does; None when no file with that content is found."""
    path = recorded_path(recorded, journal)
    if digest(path) == sha256:
        return path
    for candidate in candidates(recorded, journal):
        if candidate != path and digest(candidate) == sha256:
            return candidate.resolve()
    return None


def where_looked(journal: Path) -> str:
    """The known folders, for a message saying where a missing map may be put."""
    return ", ".join(str(f) for f in known_folders(journal))


def missing_text(map_path: str, journal: Path) -> str:
    """A journal's map is nowhere: what to do."""
    return (
        f"the battle's map {map_path} is missing, and no file with its content is in the known "
        f"map folders ({where_looked(journal)}): put the map back, or a copy of it beside the "
        "journal or in one of those folders"
    )


def changed_text(map_path: str, found: str, recorded: str) -> str:
    """A journal's map is there but not as the battle began: what to do."""
    return (
        f"the map {map_path} has changed since the battle began (sha256 {found[:12]}…, the "
        f"journal says {recorded[:12]}…): put the map back as it was when the battle began, "
        "there or beside the journal (a changed map needs a new battle)"
    )


def damaged_text(map_path: str, problem: str) -> str:
    """A journal's map does not load: what to do."""
    return (
        f"the battle's map cannot be loaded: {problem} — repair it "
        f"(`tessera check-map {map_path}` says what is wrong) or put back a good copy"
    )
