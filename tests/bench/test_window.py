"""The window's bench (game/bench/window.py) measures each of its goals; speed is never asserted
here (the figures go to docs/performance.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from game.bench import window as bench_window
from game.bench.window import (
    Figures,
    PlayRun,
    WindowReport,
    measure_pyscroll,
    measure_window,
    open_window,
    play_frames,
    print_report,
    run_frames,
    schedule,
    write_map,
)
from game.grid.model import OBSTACLE_FULL, OBSTACLE_HALF
from game.maps import load_map

FRAME_KINDS = ("all", "still", "hover", "pan", "zoom", "level")


@pytest.fixture(autouse=True)
def _headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


def test_the_bench_map_is_128_by_128_cells_on_3_levels_with_32_units_of_two_sides(
    tmp_path: Path,
) -> None:
    loaded = load_map(write_map(tmp_path))
    assert loaded.grid.shape == (128, 128, 3)
    assert len(loaded.units) == 32
    assert sorted({u.faction for u in loaded.units}) == ["blue", "red"]
    assert {u.cell[2] for u in loaded.units} == {0, 1, 2}
    for z in range(3):
        assert (loaded.grid.obstacle[:, :, z] == OBSTACLE_FULL).any(), f"walls on level {z}"
        assert (loaded.grid.obstacle[:, :, z] == OBSTACLE_HALF).any(), f"crates on level {z}"
    # The upper levels are partly open: some floor to stand on, most of it open air.
    for z in (1, 2):
        floor = float(loaded.grid.standable[:, :, z].mean())
        assert 0.02 < floor < 0.6, f"level {z}: {floor:.0%} standable"


def test_the_bench_s_pageup_and_pagedown_take_the_view_up_a_level_and_back(
    tmp_path: Path,
) -> None:
    app, scene, session = open_window(write_map(tmp_path))
    try:
        frames = schedule(scene, 0.02)
        levels = []
        for frame in frames:
            run_frames(app, scene, [frame])
            levels.append(scene.board.level)
        ups = [i for i, f in enumerate(frames) if f.level == 1]
        downs = [i for i, f in enumerate(frames) if f.level == -1]
        assert len(ups) == len(downs) == 1 and ups[0] < downs[0]
        assert levels[ups[0] - 1] == 0 and levels[ups[0]] == 1
        assert levels[downs[0]] == 0
    finally:
        session.close()
        app.close()


def test_the_window_under_the_bench_shows_reach_fog_sight_and_cover_over_an_enemy(
    tmp_path: Path,
) -> None:
    app, scene, session = open_window(write_map(tmp_path))
    try:
        frames = schedule(scene, 0.02)
        enemy_frame = next(f for f in frames if f.kind == "hover")
        enemies = {u.cell for u in scene.view.units if u.faction != scene.player}
        assert enemy_frame.hover in enemies
        run_frames(app, scene, [enemy_frame])
        board = scene.board
        assert board.has_reach and board.has_fog
        overlay = scene.pointer.overlay
        assert overlay.sight is not None and overlay.sight[1] == enemy_frame.hover
        assert overlay.cover_target == enemy_frame.hover
    finally:
        session.close()
        app.close()


def test_a_short_run_measures_every_frame_kind_the_board_the_hover_and_pyscroll(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = measure_window(scale=0.02, hover_repeats=3)
    assert report.skipped == ""
    for kind in FRAME_KINDS:
        assert report.frames[kind].samples, kind
        assert all(t > 0 for t in report.frames[kind].samples)
        assert len(report.cpu[kind].samples) == len(report.frames[kind].samples)
    assert len(report.frames["level"].samples) == 2  # up a level and back down
    assert report.board is not None
    assert len(report.board.samples) == len(report.frames["all"].samples)
    assert report.first_frame > 0
    for key in ("scene", "preview", "attack"):
        assert len(report.hover[key].samples) == 3, key
    if report.pyscroll is None:
        assert "pip install" in report.pyscroll_skipped
    else:
        assert len(report.pyscroll.samples) == len(report.frames["all"].samples)
    print_report(report)
    out = capsys.readouterr().out
    frame_row = next(line for line in out.splitlines() if line.startswith("window frame"))
    assert "p99 16.67 ms" in frame_row and frame_row.split()[-1] in ("yes", "NO")
    hover_row = next(line for line in out.splitlines() if "scene's whole answer" in line)
    assert "p99 16.67 ms" in hover_row and hover_row.split()[-1] in ("yes", "NO")
    preview_row = next(line for line in out.splitlines() if "sight, cover and hit" in line)
    assert "100.0 µs" in preview_row and preview_row.split()[-1] in ("yes", "NO")
    assert "pyscroll" in out


def test_without_pyscroll_its_row_is_skipped_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "pyscroll", None)
    figures, why = measure_pyscroll(tmp_path / "none.tmx", [], (0, 0, 10, 10))
    assert figures is None
    assert "pyscroll" in why and "pip install" in why
    frame = Figures((0.004, 0.005, 0.02))
    report = WindowReport(frames={"all": frame}, board=frame, pyscroll_skipped=why)
    print_report(report)
    row = next(line for line in capsys.readouterr().out.splitlines() if "pyscroll" in line)
    assert "skipped" in row and why in row


def test_a_quick_run_leaves_the_frame_goal_to_the_full_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    frame = Figures(tuple(0.001 * i for i in range(1, 100)))
    print_report(WindowReport(frames={"all": frame}, board=frame, quick=True))
    row = next(line for line in capsys.readouterr().out.splitlines() if "window frame" in line)
    assert row.split()[-1] == "-"


def test_percentiles_are_taken_from_the_samples_not_interpolated() -> None:
    # 100 frames of 1..100 ms: the 99th percentile is a frame that happened, 99 ms.
    figures = Figures(tuple(float(i) / 1000 for i in range(1, 101)))
    assert figures.p99 == pytest.approx(0.099)
    assert figures.p95 == pytest.approx(0.095)
    assert figures.median == pytest.approx(0.0505)


def test_the_goals_are_issue_8_s_60_frames_a_second_at_1280x720_and_a_100_us_hover() -> None:
    assert abs(bench_window.FRAME_GOAL - 1 / 60) < 1e-12
    assert abs(bench_window.HOVER_GOAL - 100e-6) < 1e-12
    assert bench_window.WINDOW == (1280, 720)
    assert (bench_window.MAP_CELLS, bench_window.LEVELS, bench_window.UNITS) == (128, 3, 32)


def test_while_the_battle_plays_the_bench_times_each_frame_and_each_command_on_the_worker(
    tmp_path: Path,
) -> None:
    app, scene, session = open_window(write_map(tmp_path), computer="red", threaded=True)
    try:
        assert scene.worker.threaded
        run = play_frames(app, scene, 40)
        assert len(run.frames.samples) == len(run.cpu.samples) == 40
        assert run.commands > 0  # the viewer's moves and end of turn, the computer's turn
        assert len(session.history) >= run.commands
        assert all(s > 0 for s in run.shown.samples)
        assert not scene.worker.busy
    finally:
        session.close()
        app.close()


def test_the_busy_core_frame_row_is_judged_against_a_frame_and_the_inline_one_is_shown_beside(
    capsys: pytest.CaptureFixture[str],
) -> None:
    frame = Figures(tuple(0.001 * i for i in range(1, 101)))
    slow = Figures(tuple(0.002 * i for i in range(1, 101)))
    played = {"worker": PlayRun(frame, frame, frame, 5), "inline": PlayRun(slow, slow, slow, 5)}
    print_report(WindowReport(frames={"all": frame}, board=frame, playing=played))
    lines = capsys.readouterr().out.splitlines()
    busy = next(line for line in lines if "battle playing, other core busy" in line)
    assert busy.split()[-1] == "NO"  # p99 99 ms
    assert any("commands on the frame's thread" in line for line in lines)
    assert sum("5 commands" in line for line in lines) == 2
