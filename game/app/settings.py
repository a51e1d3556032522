"""The player's settings (language, window, UI scale, animation speed, keys) in a JSON file."""

from __future__ import annotations

import contextlib
import errno
import json
import locale
import math
import os
import stat
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, BinaryIO

FILE_NAME = "settings.json"
VERSION = 1
#: A settings file is a few hundred bytes; one longer than this is not read.
MAX_FILE = 1_000_000
LANGUAGES = ("en", "it")
UI_SCALES = (1.0, 1.25, 1.5)
#: Seconds of animation are divided by this; 0 shows every result at once.
ANIMATION_SPEEDS = (0.0, 0.5, 1.0, 2.0)
#: Sound effects' volumes offered (0 is silent, like muting).
VOLUMES = (0.0, 0.25, 0.5, 0.75, 1.0)
DEFAULT_SIZE = (1280, 720)
#: The smallest window the battle screen lays out in (the command line's --size floor too).
MIN_SIZE = (800, 560)
MAX_SIZE = (7680, 4320)
#: Window sizes offered in the settings screen (any size within the limits may be in the file).
WINDOW_SIZES = ((1280, 720), (1366, 768), (1600, 900), (1920, 1080), (2560, 1440))

#: Actions that are only asked while a reaction prompt is open; they may share keys with the
#: board's actions (Y takes a reaction and readies; N lets it go and cycles the movement mode).
PROMPT_ACTIONS = frozenset({"take", "let_go"})
#: Keys the window keeps for itself: they pan the map (arrows, W A S D) or modify other keys.
RESERVED_KEYS = frozenset(
    {"w", "a", "s", "d", "up", "down", "left", "right"}
    | {f"{side} {mod}" for side in ("left", "right") for mod in ("shift", "ctrl", "alt", "meta")}
)


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language to speak when the player has not chosen one: TESSERA_LANG when set, else the
    system locale's (Italian for any it_* locale); English otherwise."""
    env = os.environ if environ is None else environ
    chosen = env.get("TESSERA_LANG", "").strip().lower()
    if chosen:
        return "it" if chosen.startswith("it") else "en"
    try:
        name = locale.getlocale()[0] or ""
    except ValueError:  # an unparsable locale name in the environment
        name = ""
    for candidate in (name, env.get("LANG", "")):
        if candidate.lower().startswith("it"):
            return "it"
    return "en"


def config_dir() -> Path:
    """The user's configuration folder for Tessera (platformdirs)."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("tessera", appauthor=False))


def default_path() -> Path:
    return config_dir() / FILE_NAME


@dataclass(frozen=True)
class Settings:
    """What the player chose in the settings screen. `keys` holds only the actions whose keys
    differ from the window's defaults (game/ui/keys.py), as pygame key names ("m", "page up"),
    so that a new default key in a later version reaches players who never changed it."""

    language: str = field(default_factory=system_language)
    window_size: tuple[int, int] = DEFAULT_SIZE
    fullscreen: bool = False
    ui_scale: float = 1.0
    animation_speed: float = 1.0
    #: The sound effects' volume (one of VOLUMES) and whether they are muted.
    volume: float = 0.75
    muted: bool = False
    keys: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: The first battle's guide was dismissed once: it is not shown by itself again.
    guide_seen: bool = False
    #: What was wrong in the file this was loaded from (each names the file and the field).
    notices: tuple[str, ...] = field(default=(), compare=False)
    #: The file these settings were read from, for notices about them.
    source: Path | None = field(default=None, compare=False)

    # ------------------------------------------------------------ the file

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        """The settings in `path` (default: the user's config folder). A missing file gives the
        defaults; a damaged one the defaults for what is wrong, with a notice for each."""
        path = default_path() if path is None else path
        defaults = cls(source=path)
        try:
            text = read_small_file(path, MAX_FILE).decode("utf-8")
        except FileNotFoundError:
            return defaults
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
            return replace(
                defaults,
                notices=(f"{path}: cannot read the settings ({why}); the defaults are used",),
            )
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            return replace(
                defaults,
                notices=(f"{path}: damaged, not JSON ({exc}); the defaults are used",),
            )
        if not isinstance(data, dict):
            return replace(
                defaults,
                notices=(f"{path}: expected a JSON object of settings; the defaults are used",),
            )
        return _from_json(data, path, defaults)

    def save(self, path: Path | None = None) -> Path:
        """Write the settings atomically (a crash leaves the old settings or the new, never
        half of them); answer the file written."""
        path = default_path() if path is None else path
        write_atomically(path, json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n")
        return path

    def to_json(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "language": self.language,
            "window_size": list(self.window_size),
            "fullscreen": self.fullscreen,
            "ui_scale": self.ui_scale,
            "animation_speed": self.animation_speed,
            "volume": self.volume,
            "muted": self.muted,
            "keys": {action: list(names) for action, names in sorted(self.keys.items())},
            "guide_seen": self.guide_seen,
        }

    # ------------------------------------------------------------ keys

    def bindings(
        self, defaults: Mapping[str, Sequence[str]]
    ) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
        """Every action's keys (the defaults given, the player's changes over them) and what was
        wrong with the changes: an action the window does not have, or a key that another action
        answers to at the same time (that change is dropped: the action keeps its default)."""
        where = str(self.source) if self.source is not None else "settings"
        notices = [
            f"{where}: field 'keys.{action}': no such action; ignored"
            for action in sorted(self.keys)
            if action not in defaults
        ]
        changed = [a for a in defaults if a in self.keys]
        out = {action: tuple(names) for action, names in defaults.items()}
        out.update({a: tuple(self.keys[a]) for a in changed})
        while True:
            clash = next(
                (
                    (action, key, conflict[1])
                    for action in reversed(changed)
                    for key in out[action]
                    if (conflict := key_conflict(out, action, key)) is not None
                ),
                None,
            )
            if clash is None:
                return out, tuple(notices)
            action, key, other = clash
            notices.append(
                f"{where}: field 'keys.{action}': the key {key!r} is also {other}'s; "
                "its default keys are used"
            )
            out[action] = tuple(defaults[action])
            changed.remove(action)

    def with_keys(
        self, names: Mapping[str, Sequence[str]], defaults: Mapping[str, Sequence[str]]
    ) -> Settings:
        """These settings with every action's keys `names`; only changes from `defaults` kept."""
        changed = {
            action: tuple(keys)
            for action, keys in names.items()
            if tuple(keys) != tuple(defaults.get(action, ()))
        }
        return replace(self, keys=changed)


def open_regular(path: Path) -> BinaryIO:
    """`path` opened for reading when it is a regular file; else OSError (its strerror says
    why). A FIFO, a device (a link to /dev/zero) or a folder is refused before anything is read,
    so a reader never waits on it nor reads without end: the file is looked at first, opened
    without waiting (a FIFO swapped in meanwhile cannot block the open) and looked at again."""
    _regular(os.stat(path), path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags | getattr(os, "O_BINARY", 0))
    try:
        _regular(os.fstat(fd), path)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_small_file(path: Path, limit: int) -> bytes:
    """The bytes of `path` when it is a regular file (`open_regular`) of at most `limit` bytes;
    else OSError. Never more than `limit` + 1 bytes are read."""
    with open_regular(path) as handle:
        if os.fstat(handle.fileno()).st_size > limit:
            raise OSError(errno.EFBIG, f"larger than {limit} bytes", str(path))
        data = handle.read(limit + 1)
    if len(data) > limit:  # it grew since it was looked at
        raise OSError(errno.EFBIG, f"larger than {limit} bytes", str(path))
    return data


def _regular(info: os.stat_result, path: Path) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", str(path))


def write_atomically(path: Path, text: str) -> None:
    """`text` in `path`, whole or not at all: a temporary file beside it, flushed and fsynced,
    then renamed over it (a crash leaves the old file or the new one, never half of one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def key_conflict(
    bindings: Mapping[str, Sequence[str]], action: str, key: str
) -> tuple[str, str | None] | None:
    """Why `key` cannot be given to `action`, or None when it can: ("reserved", None) for a key
    the window keeps, ("used", other action) for a key another action answers to at the same
    time (the reaction prompt's keys are asked apart from the board's)."""
    key = key.lower()
    if key in RESERVED_KEYS:
        return ("reserved", None)
    group = action in PROMPT_ACTIONS
    for other, names in bindings.items():
        if other == action or (other in PROMPT_ACTIONS) != group:
            continue
        if key in (n.lower() for n in names):
            return ("used", other)
    return None


# ---------------------------------------------------------------- reading the file


def _from_json(data: dict[str, Any], path: Path, defaults: Settings) -> Settings:
    notices: list[str] = []

    def wrong(name: str, why: str, default: object) -> None:
        notices.append(f"{path}: field '{name}': {why}; the default {default} is used")

    values: dict[str, Any] = {}
    known = {"version", "language", "window_size", "fullscreen", "ui_scale", "animation_speed"}
    known |= {"keys", "guide_seen", "volume", "muted"}
    for name in sorted(set(data) - known):
        notices.append(f"{path}: unknown field '{name}' is ignored")

    version = data.get("version", VERSION)
    if version != VERSION:
        notices.append(f"{path}: field 'version': {version!r} is not {VERSION}; read as {VERSION}")

    if "language" in data:
        language = data["language"]
        if language in LANGUAGES:
            values["language"] = language
        else:
            wrong(
                "language",
                f"expected one of {', '.join(LANGUAGES)}, not {language!r}",
                repr(defaults.language),
            )

    if "window_size" in data:
        size = data["window_size"]
        if (
            isinstance(size, list)
            and len(size) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in size)
            and MIN_SIZE[0] <= size[0] <= MAX_SIZE[0]
            and MIN_SIZE[1] <= size[1] <= MAX_SIZE[1]
        ):
            values["window_size"] = (size[0], size[1])
        else:
            wrong(
                "window_size",
                f"expected [width, height] from {list(MIN_SIZE)} to {list(MAX_SIZE)}, "
                f"not {json.dumps(size)}",
                list(defaults.window_size),
            )

    if "guide_seen" in data:
        if isinstance(data["guide_seen"], bool):
            values["guide_seen"] = data["guide_seen"]
        else:
            wrong(
                "guide_seen",
                f"expected true or false, not {json.dumps(data['guide_seen'])}",
                "false",
            )

    if "fullscreen" in data:
        if isinstance(data["fullscreen"], bool):
            values["fullscreen"] = data["fullscreen"]
        else:
            wrong(
                "fullscreen",
                f"expected true or false, not {json.dumps(data['fullscreen'])}",
                "false",
            )

    if "muted" in data:
        if isinstance(data["muted"], bool):
            values["muted"] = data["muted"]
        else:
            wrong("muted", f"expected true or false, not {json.dumps(data['muted'])}", "false")

    for name, allowed in (
        ("ui_scale", UI_SCALES),
        ("animation_speed", ANIMATION_SPEEDS),
        ("volume", VOLUMES),
    ):
        if name not in data:
            continue
        value = data[name]
        number = (
            float(value)
            if isinstance(value, int | float) and not isinstance(value, bool)
            else math.nan
        )
        match = next((a for a in allowed if math.isclose(a, number)), None)
        if match is None:
            wrong(
                name,
                f"expected one of {', '.join(f'{a:g}' for a in allowed)}, not {json.dumps(value)}",
                f"{getattr(defaults, name):g}",
            )
        else:
            values[name] = match

    if "keys" in data:
        values["keys"] = _keys(data["keys"], path, notices)

    return replace(defaults, **values, notices=tuple(notices))


def _keys(raw: object, path: Path, notices: list[str]) -> dict[str, tuple[str, ...]]:
    if not isinstance(raw, dict):
        notices.append(
            f"{path}: field 'keys': expected an object of action: [key names]; "
            "the default keys are used"
        )
        return {}
    keys: dict[str, tuple[str, ...]] = {}
    for action, names in raw.items():
        where = f"keys.{action}"
        if isinstance(names, str):
            names = [names]
        if (
            not isinstance(names, list)
            or not names
            or not all(isinstance(n, str) and n.strip() for n in names)
        ):
            notices.append(
                f"{path}: field '{where}': expected a list of key names, not "
                f"{json.dumps(names)}; its default keys are used"
            )
            continue
        chosen = tuple(n.strip().lower() for n in names)
        clash = next((k for k in chosen if k in RESERVED_KEYS), None)
        if clash is not None:
            notices.append(
                f"{path}: field '{where}': the key {clash!r} pans the map or modifies "
                "other keys; its default keys are used"
            )
            continue
        keys[str(action)] = chosen
    return keys


__all__ = [
    "ANIMATION_SPEEDS",
    "LANGUAGES",
    "MIN_SIZE",
    "UI_SCALES",
    "VOLUMES",
    "WINDOW_SIZES",
    "Settings",
    "config_dir",
    "default_path",
    "key_conflict",
    "open_regular",
    "read_small_file",
    "system_language",
    "write_atomically",
]
