"""`tessera` and `tessera play MAP`: a battle in the window, the computer on the other sides."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from game.battle.engine import GM
from game.battle.journal import JournalError
from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.i18n import _
from game.maps import LoadedMap, MapError, load_map

DEMO_MAP = Path(__file__).resolve().parents[2] / "maps" / "station_interior.tmx"
#: The side a newcomer plays in the demo; the computer plays the rest.
DEMO_SIDE = "raiders"


@dataclass(frozen=True)
class WindowOptions:
    size: tuple[int, int] = (1280, 720)
    #: Close after this many frames (tests, screenshots); None: until the window is closed.
    frames: int | None = None
    screenshot: Path | None = None
    animation_speed: float = 1.0


def saves_dir() -> Path:
    """Where journals (the saves) live: the user's data folder."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("tessera", appauthor=False)) / "saves"


def new_journal_path(loaded: LoadedMap) -> Path:
    stamp = datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    return saves_dir() / f"{loaded.source.stem}_{stamp}.jsonl"


def play(
    map_path: Path,
    *,
    sides: tuple[str, ...] = (),
    computer: tuple[str, ...] = (),
    seed: int = 1,
    journal: Path | None = None,
    window: WindowOptions | None = None,
) -> int:
    """Open a battle in a window: the player commands `sides` (default: the map's first side,
    or the demo's), the computer the others. Answers the exit status."""
    window = window or WindowOptions()
    try:
        loaded = load_map(map_path)
    except MapError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    factions = sorted({u.faction for u in loaded.units})
    unknown = [f for f in (*sides, *computer) if f not in factions]
    if unknown:
        print(
            f"error: {map_path}: no side {unknown[0]!r} on this map (sides: {', '.join(factions)})",
            file=sys.stderr,
        )
        return 2
    if not sides:
        free = [f for f in factions if f not in computer]
        sides = (DEMO_SIDE,) if DEMO_SIDE in free else tuple(free[:1])
    computer = tuple(sorted(set(computer) | {f for f in factions if f not in sides}))
    # With every side given to the computer, the one at the window watches with the GM's eyes.
    player = "player" if sides else GM
    setup = setup_from_map(
        loaded, seed=seed, computer=computer, players={player: sides} if sides else {}
    )
    path = journal or new_journal_path(loaded)
    return _run_window(loaded, setup, path, player, window)


def _run_window(
    loaded: LoadedMap, setup: object, journal: Path, player: str, window: WindowOptions
) -> int:
    from game.battle.setup import BattleSetup
    from game.ui.app import App
    from game.ui.battle_scene import BattleScene
    from game.ui.play import Loading, ProgressScene, wait_for
    from game.warmup import warm_kernels

    assert isinstance(setup, BattleSetup)
    import pygame

    try:
        app = App(window.size)
    except pygame.error as exc:
        print(
            f"error: cannot open a window ({exc}); `tessera run` plays without one",
            file=sys.stderr,
        )
        return 2

    def work(state: Loading) -> Session:
        def progress(step: str, done: float) -> None:
            state.step, state.done = step, done * 0.9

        warm_kernels(progress)
        state.step = "battle"
        journal.parent.mkdir(parents=True, exist_ok=True)
        if journal.exists() and journal.stat().st_size > 0:
            session = Session.open(journal)
        else:
            session = Session.new(setup, journal)
        state.step, state.done = "ready", 1.0
        return session

    loading = wait_for(
        app, ProgressScene(app.size, loaded.properties.name or "Tessera", work), window.frames
    )
    if loading.error is not None or not isinstance(loading.result, Session):
        message = loading.error or _("the window was closed")
        print(f"error: {message}", file=sys.stderr)
        app.close()
        return 2
    session = loading.result
    try:
        scene = BattleScene(
            app.size, session, player, loaded.render, animation_speed=window.animation_speed
        )
        app.show(scene)
        app.run(window.frames)
        if window.screenshot is not None:
            app.screenshot(window.screenshot)
    finally:
        session.close()
        app.close()
    return 0


__all__ = ["DEMO_MAP", "JournalError", "WindowOptions", "play", "saves_dir"]
