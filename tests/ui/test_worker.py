"""The battle's heavy work runs on a worker thread: the frame loop goes on, animations play, and
the command's result (its fog and sightings) is shown once it is ready."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

import pygame
import pytest

from game.battle import commands as cmd
from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.maps import load_map
from game.ui.anim import Beat
from game.ui.app import App, post_key
from game.ui.battle.scene import BattleScene
from game.ui.battle.worker import SWITCH_INTERVAL, Worker
from tests.ui.conftest import STATION

#: Seconds a test waits for the worker before it fails (never a timing assertion: only a guard
#: against a test that would hang).
PATIENCE = 60.0


def test_a_threaded_job_runs_off_the_callers_thread_and_its_result_is_handed_over_by_poll() -> None:
    gate = threading.Event()
    ran_on: list[threading.Thread] = []
    got: list[tuple[int, threading.Thread]] = []

    def work() -> int:
        ran_on.append(threading.current_thread())
        assert gate.wait(PATIENCE)
        return 42

    worker = Worker()
    worker.run(work, lambda result: got.append((result, threading.current_thread())))
    assert worker.busy
    for _ in range(20):
        assert not worker.poll()  # not finished: nothing handed over, nothing waited for
    assert got == []
    gate.set()
    assert worker.wait(PATIENCE)
    assert not worker.busy
    assert ran_on and ran_on[0] is not threading.current_thread()
    assert got == [(42, threading.current_thread())]  # the continuation: on the caller's thread


def test_an_error_in_a_job_is_raised_on_the_frames_thread_when_polled() -> None:
    def work() -> None:
        raise ValueError("bad")

    worker = Worker()
    worker.run(work, lambda _result: None)
    with pytest.raises(ValueError, match="bad"):
        worker.wait(PATIENCE)
    assert not worker.busy


def test_a_second_job_waits_for_the_first_so_jobs_keep_their_order() -> None:
    order: list[str] = []
    gate = threading.Event()

    def first() -> str:
        assert gate.wait(PATIENCE)
        return "first"

    worker = Worker()
    worker.run(first, order.append)
    threading.Timer(0.05, gate.set).start()
    worker.run(lambda: "second", order.append)
    worker.wait(PATIENCE)
    assert order == ["first", "second"]


def test_while_a_job_runs_the_gil_changes_hands_often_and_the_setting_comes_back_after() -> None:
    before = sys.getswitchinterval()
    gate = threading.Event()
    worker = Worker()
    worker.run(lambda: gate.wait(PATIENCE), lambda _r: None)
    assert sys.getswitchinterval() == pytest.approx(min(before, SWITCH_INTERVAL))
    gate.set()
    worker.wait(PATIENCE)
    assert sys.getswitchinterval() == pytest.approx(before)


def test_a_worker_not_threaded_does_the_job_and_its_continuation_at_once() -> None:
    got: list[int] = []
    worker = Worker(threaded=False)
    worker.run(lambda: 7, got.append)
    assert got == [7] and not worker.busy


# ---------------------------------------------------------------- the battle window


class _Gate:
    """Holds the battle's fog and sightings update (`Vision.update`, on the worker's thread)
    until the test lets it go, so that frames can be stepped while it has not finished."""

    def __init__(self, session: Session) -> None:
        self.open = threading.Event()
        self.entered = threading.Event()
        self.threads: list[threading.Thread] = []
        vision = session.battle.vision
        real: Callable[..., Any] = vision.update

        def update(*args: Any, **kwargs: Any) -> Any:
            self.threads.append(threading.current_thread())
            self.entered.set()
            assert self.open.wait(PATIENCE)
            return real(*args, **kwargs)

        setattr(vision, "update", update)  # noqa: B010 - an instance attribute shadows the method


def _threaded_window(animation_speed: float = 0) -> tuple[App, BattleScene, Session]:
    loaded = load_map(STATION)
    setup = setup_from_map(
        loaded, seed=1, computer=("station_security",), players={"player": ("raiders",)}
    )
    session = Session.new(setup, None)
    app = App((1280, 720))
    scene = BattleScene(
        app.size,
        session,
        "player",
        loaded.render,
        animation_speed=animation_speed,
        worker=Worker(),
    )
    app.show(scene)
    app.step(1 / 60)
    return app, scene, session


def test_a_move_is_computed_by_the_worker_while_frames_go_on_and_shown_when_ready() -> None:
    app, scene, session = _threaded_window()
    try:
        to = (13, 16, 0)
        before = scene.view
        seen_before = before.seen.copy()
        gate = _Gate(session)
        scene.orders.submit(cmd.Move("Kask", to))  # what a click or Space does
        assert gate.entered.wait(PATIENCE)  # the worker is in the fog update, held there
        assert gate.threads[0] is not threading.current_thread()
        for _ in range(30):  # the frame loop is not held: each frame returns at once
            app.step(1 / 60)
        assert scene.worker.busy
        assert scene.view is before  # the window still shows the last view it read
        gate.open.set()
        for _ in range(600):
            app.step(1 / 60)
            if not scene.worker.busy:
                break
        app.step(1 / 60)
        assert not scene.worker.busy
        assert scene.unit_cell("Kask") == to  # the move and its new fog are now shown
        assert not (scene.view.seen == seen_before).all()
        assert session.battle.sheet("Kask").cell == to
    finally:
        session.close()
        pygame.quit()


def test_an_animation_goes_on_while_the_worker_computes_a_command() -> None:
    app, scene, session = _threaded_window(animation_speed=1.0)
    try:
        ended: list[bool] = []
        scene.animator.add(Beat(0.2, done=lambda: ended.append(True)))
        gate = _Gate(session)
        scene.orders.submit(cmd.ChangeStance("Kask", "crouched"))
        assert gate.entered.wait(PATIENCE)
        for _ in range(20):  # a third of a second of frames, the worker held all along
            app.step(1 / 60)
        assert ended == [True] and scene.worker.busy
        gate.open.set()
        assert scene.worker.wait(PATIENCE)
    finally:
        session.close()
        pygame.quit()


def test_keys_pressed_while_the_worker_is_busy_are_handled_once_its_result_is_shown() -> None:
    app, scene, session = _threaded_window()
    try:
        gate = _Gate(session)
        scene.orders.submit(cmd.Move("Kask", (13, 16, 0)))
        assert gate.entered.wait(PATIENCE)
        level = scene.board.level
        post_key(pygame.K_PAGEUP)
        app.step(1 / 60)
        assert scene.board.level == level  # waiting: the battle is the worker's
        gate.open.set()
        for _ in range(600):
            app.step(1 / 60)
            if not scene.worker.busy:
                break
        app.step(1 / 60)
        assert scene.board.level == level + 1
    finally:
        session.close()
        pygame.quit()


def test_the_computers_turn_is_played_by_the_worker_and_the_scene_shows_it_after() -> None:
    app, scene, session = _threaded_window()
    try:
        scene.submit(cmd.EndTurn("Kask"))  # waits: tests and the GM's tools use the result
        assert not scene.worker.busy
        b = session.battle
        for _ in range(2000):  # the computer plays until a raider acts
            app.step(1 / 60)
            if b.over or b.faction_of(b.active or "Kask") == "raiders":
                break
        scene.worker.wait(PATIENCE)
        app.step(1 / 60)
        assert b.over or b.faction_of(b.active or "Kask") == "raiders"
        assert scene.view.round == b.round
    finally:
        session.close()
        pygame.quit()
