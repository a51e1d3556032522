"""`tessera play` opens a battle in a window (headless here), shows a progress screen while the
kernels compile and the map loads, and says clearly what is wrong with bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pygame

from game.ui.app import App
from game.ui.play import Loading, ProgressScene

REPO = Path(__file__).resolve().parents[2]


def _tessera(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env["XDG_DATA_HOME"] = str(tmp / "data")  # saves go to the test's own folder
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=300,
    )


def test_tessera_play_opens_the_map_in_a_window_and_saves_the_battle_as_a_journal(
    tmp_path: Path,
) -> None:
    shot = tmp_path / "shot.png"
    journal = tmp_path / "battle.jsonl"
    done = _tessera(
        "play", "maps/surface_outpost.tmx", "--journal", str(journal),
        "--frames", "20", "--screenshot", str(shot), tmp=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    image = pygame.image.load(str(shot))
    assert image.get_size() == (1280, 720)
    header = json.loads(journal.read_text().splitlines()[0])
    assert header["format"] == "tessera-journal"
    assert header["setup"]["map"].endswith("surface_outpost.tmx")


def test_the_demo_saves_in_the_users_data_folder_when_no_journal_is_named(tmp_path: Path) -> None:
    done = _tessera("demo", "--frames", "5", tmp=tmp_path)
    assert done.returncode == 0, done.stderr
    saves = list((tmp_path / "data" / "tessera" / "saves").glob("station_interior_*.jsonl"))
    assert len(saves) == 1


def test_a_map_that_does_not_load_is_one_line_naming_the_file_and_no_window(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "bad.tmx"
    bad.write_text("<map>")
    done = _tessera("play", str(bad), tmp=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and "bad.tmx" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_side_the_map_does_not_have_is_named_with_the_sides_it_has(tmp_path: Path) -> None:
    done = _tessera("play", "maps/hull_breach.tmx", "--side", "pirates", tmp=tmp_path)
    assert done.returncode == 2
    assert "pirates" in done.stderr and "raiders" in done.stderr


def test_the_progress_screen_keeps_drawing_while_the_work_runs_in_its_thread() -> None:
    release = threading.Event()

    def work(state: Loading) -> str:
        state.step, state.done = "sight", 0.5
        release.wait(5)
        return "ready"

    app = App((640, 400))
    try:
        scene = ProgressScene(app.size, "Ardea", work)
        app.show(scene)
        frames = 0
        start = time.perf_counter()
        while frames < 10 and time.perf_counter() - start < 5:
            app.step(1 / 60)
            frames += 1
        assert frames == 10 and not scene.state.finished  # drawn while the work waits
        bar = app.screen.get_at((320, 240))[:3]
        assert bar != (14, 16, 20)  # the bar is drawn, not the bare background
        release.set()
        while not scene.state.finished:
            app.step(1 / 60)
        assert scene.state.result == "ready" and scene.state.error is None
    finally:
        app.close()


def test_an_error_in_the_work_is_shown_on_the_progress_screen_not_lost() -> None:
    def work(state: Loading) -> None:
        raise ValueError("the map is gone")

    app = App((640, 400))
    try:
        scene = ProgressScene(app.size, "Ardea", work)
        app.show(scene)
        while not scene.state.finished:
            app.step(1 / 60)
        assert scene.state.error == "ValueError: the map is gone"
    finally:
        app.close()


def test_a_damaged_journal_is_refused_naming_the_file_and_line_and_nothing_half_opens(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "battle.jsonl"
    journal.write_text('{"format": "tessera-journal", "version": 1, "setup": 7}\n')
    done = _tessera("play", "maps/hull_breach.tmx", "--journal", str(journal), "--frames", "3",
                    tmp=tmp_path)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and f"{journal}:1" in done.stderr
    assert "Traceback" not in done.stderr
