"""Without a display the window commands say so and stop (game/ui/app.py, issue 17): `tessera`,
`tessera demo` and `tessera play` exit non-zero with one clear line and write no save. Before
the fix SDL fell back to its offscreen driver: the battle ran where nobody could see it, exit 0,
a new save in the saves folder each time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.ui.app import no_display

REPO = Path(__file__).resolve().parents[2]


def _without_display(args: list[str], tmp: Path, display: str | None = None) -> tuple[int, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    }
    if display is not None:
        env["DISPLAY"] = display  # a display nobody serves: SDL falls back to drawing nowhere
    env["XDG_DATA_HOME"] = str(tmp / "data")
    env["XDG_CONFIG_HOME"] = str(tmp / "config")
    done = subprocess.run(
        [sys.executable, "-m", "game", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=300,
    )
    return done.returncode, done.stderr


def _files(tmp: Path) -> list[Path]:
    return sorted(p for p in tmp.rglob("*") if p.is_file())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY is X11's (Linux)")
@pytest.mark.parametrize(
    "args",
    [["demo", "--frames", "5"], ["play", "maps/hull_breach.tmx", "--frames", "5"], []],
    ids=["demo", "play", "plain"],
)
def test_without_a_display_a_window_command_says_so_exits_non_zero_and_writes_no_save(
    tmp_path: Path, args: list[str]
) -> None:
    status, err = _without_display(args, tmp_path)
    assert status == 2
    assert err.startswith("error: no display to open the window on")
    assert "tessera run" in err and "Traceback" not in err
    assert _files(tmp_path) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY is X11's (Linux)")
def test_the_title_screen_without_a_display_leaves_the_saves_as_they_were(tmp_path: Path) -> None:
    saves = tmp_path / "data" / "tessera" / "saves"
    saves.mkdir(parents=True)
    (saves / "old.jsonl").write_text("not even a journal\n")
    before = {p: p.read_bytes() for p in _files(tmp_path)}
    status, err = _without_display([], tmp_path)
    assert status == 2 and "no display" in err
    assert {p: p.read_bytes() for p in _files(tmp_path)} == before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY is X11's (Linux)")
def test_a_display_nobody_serves_is_no_display_either(tmp_path: Path) -> None:
    status, err = _without_display(["demo", "--frames", "5"], tmp_path, display=":97")
    assert status == 2 and "no display to open the window on" in err
    assert _files(tmp_path) == []


def test_a_driver_asked_for_by_name_is_trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests and screenshots ask for SDL's dummy driver: the window opens, drawing nowhere."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert no_display() is None
    monkeypatch.delenv("SDL_VIDEODRIVER")
    if sys.platform.startswith("linux"):
        assert no_display() == "DISPLAY and WAYLAND_DISPLAY are not set"
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    assert no_display() is None
