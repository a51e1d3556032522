"""A scenario's JSON read from its file or standard input, before anything heavy is imported."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from game.rules.reader import ScenarioError


def read_scenario(source: str) -> tuple[object, Path]:
    """The JSON of a scenario file (or `-` for standard input) and the folder its paths are
    relative to; ScenarioError names the file and the problem."""
    if source == "-":
        text, base = sys.stdin.read(), Path.cwd()
        name = "<stdin>"
    else:
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ScenarioError(f"{source}: cannot read the file ({exc.strerror})") from None
        except UnicodeDecodeError:
            raise ScenarioError(f"{source}: not UTF-8 text") from None
        base, name = path.resolve().parent, source
    try:
        data = json.loads(text)
    except RecursionError:
        raise ScenarioError(f"{name}: the JSON is nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise ScenarioError(
            f"{name}: bad JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    return data, base
