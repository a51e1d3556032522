"""`tessera`, `tessera demo` and `tessera play MAP`: the window and the way between its screens."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

import pygame

from game.app.draft import DEMO_MAP
from game.app.settings import Settings
from game.battle.engine import GM
from game.battle.journal import JournalError
from game.battle.session import Session
from game.battle.setup import BattleSetup, setup_from_map, with_ruleset
from game.maps import LoadedMap, MapError, load_map
from game.ui import sound
from game.ui.app import App, NoDisplay, Scene, display_size, fit_display
from game.ui.battle.worker import Worker
from game.ui.keys import KeyMap
from game.ui.menus.base import Scaled, fitting_scale
from game.ui.menus.load import LoadScene
from game.ui.menus.new_battle import NewBattleScene
from game.ui.menus.settings import SettingsScene, default_key_names
from game.ui.menus.title import TitleScene
from game.ui.seats import Seats

#: The side a newcomer plays in the demo; the computer plays the rest.
DEMO_SIDE = "raiders"
#: The name the one player of a single-player battle goes by.
PLAYER = "player"


@dataclass(frozen=True)
class WindowOptions:
    size: tuple[int, int] = (1280, 720)
    #: Close after this many frames (tests, screenshots); None: until the window is closed.
    frames: int | None = None
    screenshot: Path | None = None
    animation_speed: float = 1.0


def saves_dir() -> Path:
    """Where journals (the saves) live: the user's data folder (game/app/saves.py lists them)."""
    from game.app import saves

    return saves.saves_dir()


def new_journal_path(map_path: Path) -> Path:
    """A new save's file: named by its map and the date and time it began."""
    stamp = datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    return saves_dir() / f"{map_path.stem}_{stamp}.jsonl"


def single_player_setup(
    loaded: LoadedMap,
    *,
    sides: tuple[str, ...] = (),
    computer: tuple[str, ...] = (),
    seed: int = 1,
) -> BattleSetup:
    """One person at the window commands `sides` (default: the demo's side, else the map's first
    free side); the computer plays the rest. With every side the computer's, the person at the
    window watches with the GM's eyes."""
    factions = sorted({u.faction for u in loaded.units})
    unknown = [f for f in (*sides, *computer) if f not in factions]
    if unknown:
        raise MapError(
            f"{loaded.source}: no side {unknown[0]!r} on this map (sides: {', '.join(factions)})"
        )
    if not sides:
        free = [f for f in factions if f not in computer]
        sides = (DEMO_SIDE,) if DEMO_SIDE in free else tuple(free[:1])
    computer = tuple(sorted(set(computer) | {f for f in factions if f not in sides}))
    players = {PLAYER: sides} if sides else {}
    return setup_from_map(loaded, seed=seed, computer=computer, players=players)


class Director:
    """Moves the window between its screens: the progress screen while a battle opens, the
    battle, the menus. Scenes ask it to go somewhere; it builds the next scene and shows it."""

    def __init__(
        self, app: App, options: WindowOptions, *, settings: Settings | None = None
    ) -> None:
        self.app = app
        self.options = options
        self.session: Session | None = None
        #: The battle's worker thread (game/ui/battle/worker.py): its commands and the fog.
        self.worker = Worker()
        #: What stopped the last battle from opening, for the command line to report.
        self.failure: str | None = None
        # --- menus, saves and settings (game/ui/menus/) ---
        #: The player's settings; None: the window's defaults (and options.animation_speed).
        self.user_settings = settings
        #: Where the settings are saved (None: the user's config folder).
        self.settings_path: Path | None = None
        #: What the title screen tells (a damaged settings file...).
        self.notices: list[str] = list(settings.notices) if settings is not None else []
        #: The size the person last gave the window, kept in the settings when it closes.
        self.resized: tuple[int, int] | None = None
        app.on_resize = self.window_resized
        if settings is not None:
            sound.effects.configure(settings.volume, settings.muted)

    # ------------------------------------------------------------ battles

    def start(self, setup: BattleSetup, journal: Path) -> None:
        """A new battle from its setup, saved in `journal` from the first command."""

        def open_session() -> Session:
            journal.parent.mkdir(parents=True, exist_ok=True)
            return Session.new(setup, journal)

        self._open(Path(setup.map_path), open_session)

    def resume(self, journal: Path) -> None:
        """Continue the battle saved in `journal` at its last command (the autosave)."""

        def open_session() -> Session:
            return Session.open(journal)

        self._open(None, open_session, title=journal.name)

    def _open(
        self, map_path: Path | None, open_session: Callable[[], Session], title: str = ""
    ) -> None:
        from game.app.warmup import warm_kernels
        from game.ui.battle.scene import BattleScene
        from game.ui.play import Loading, ProgressScene

        self.close_battle()

        def work(state: Loading) -> tuple[Session, LoadedMap]:
            def progress(step: str, done: float) -> None:
                state.step, state.done = step, done * 0.8

            warm_kernels(progress)
            state.step = "battle"
            session = open_session()
            try:
                state.step, state.done = "map", 0.9
                loaded = load_map(Path(session.setup.map_path))
            except MapError:
                session.close()
                raise
            state.step, state.done = "ready", 1.0
            return session, loaded

        def opened(result: object) -> None:
            assert isinstance(result, tuple)
            session, loaded = result
            self.session = session
            self.app.show(
                self._scaled(
                    lambda size: BattleScene(
                        size,
                        session,
                        viewer_for(session),
                        loaded.render,
                        animation_speed=self.animation_speed(),
                        keys=self.keys(),
                        director=self,
                        worker=self.worker,
                        guide=self.guide_due(),
                        on_guide_seen=self.guide_seen,
                    )
                )
            )
            self._write_meta()

        def failed(message: str) -> None:
            self.failure = message

        name = title or (map_path.stem if map_path is not None else "Tessera")
        self.app.show(
            ProgressScene(
                self.app.size, name, work, on_done=opened, on_error=failed, on_leave=self.leave
            )
        )

    def leave(self) -> None:
        """Back from a battle or a failed opening: to the title screen."""
        self.close_battle()
        self.title()

    def close_battle(self) -> None:
        if self.session is not None:
            self.worker.wait()  # a command half given is finished and journaled first
            self._write_meta()
            self.session.close()
            self.session = None

    def quit(self) -> None:
        self.app.running = False

    # ------------------------------------------------------------ menus, saves and settings
    # (game/ui/menus/, game/app/saves.py, game/app/settings.py; docs/window.md "Menus, saves and
    # settings")

    def title(self) -> None:
        """The title screen: new battle, continue, load, settings, quit."""
        self.failure = None  # it was shown; the player has moved on
        self.app.show(self._scaled(lambda size: TitleScene(size, self)))

    def new_battle(self) -> None:
        self.app.show(self._scaled(lambda size: NewBattleScene(size, self)))

    def load(self) -> None:
        self.app.show(self._scaled(lambda size: LoadScene(size, self)))

    def settings(self, status: str = "") -> None:
        self.app.show(self._scaled(lambda size: SettingsScene(size, self, status)))

    def saves_folder(self) -> Path:
        return saves_dir()

    def new_journal(self, map_path: Path) -> Path:
        """Where a new battle on `map_path` is saved."""
        return new_journal_path(map_path)

    def save_settings(self, settings: Settings) -> Path:
        """Keep `settings` (in the user's config folder) and apply them now: the language at
        once, the window's size and mode; keys and animation speed from the next battle."""
        where = settings.save(self.settings_path)
        self.apply_settings(settings)
        return where

    def apply_settings(self, settings: Settings) -> None:
        from game.text.i18n import set_language

        before = self.user_settings
        self.user_settings = settings
        set_language(settings.language)
        sound.effects.configure(settings.volume, settings.muted)
        if before is None or (before.window_size, before.fullscreen) != (
            settings.window_size,
            settings.fullscreen,
        ):
            self.apply_display()

    def apply_display(self) -> None:
        """The window's size and full screen as the settings say."""
        settings = self.user_settings
        if settings is None:
            return
        if settings.fullscreen:
            screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            size = fit_display(settings.window_size, display_size())
            screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.app.screen = screen
        if self.app.scene is not None:
            self.app.scene.resize(screen.get_size())

    def _scaled(self, make: Callable[[tuple[int, int]], Scene]) -> Scene:
        """The scene `make` builds, at the UI scale (laid out smaller, drawn scaled up)."""
        wanted = self.user_settings.ui_scale if self.user_settings is not None else 1.0
        scale = fitting_scale(wanted, self.app.size)
        if scale <= 1.0:
            return make(self.app.size)
        return Scaled(make, self.app.size, scale)

    def window_resized(self, size: tuple[int, int]) -> None:
        self.resized = size

    def keep_window_size(self) -> None:
        """The window's size as the person left it, in the settings for the next launch (not
        in full screen; within the sizes a settings file may hold)."""
        from game.app.settings import MAX_SIZE, MIN_SIZE

        settings = self.user_settings
        if settings is None or self.resized is None or settings.fullscreen:
            return
        w = max(MIN_SIZE[0], min(MAX_SIZE[0], self.resized[0]))
        h = max(MIN_SIZE[1], min(MAX_SIZE[1], self.resized[1]))
        self.resized = None
        if (w, h) == settings.window_size:
            return
        self.user_settings = replace(settings, window_size=(w, h))
        try:
            self.user_settings.save(self.settings_path)
        except OSError as exc:
            print(f"notice: cannot keep the window's size ({exc})", file=sys.stderr)

    def guide_due(self) -> bool:
        """The first battle's guide opens by itself until the player has dismissed it once."""
        return self.user_settings is not None and not self.user_settings.guide_seen

    def guide_seen(self) -> None:
        """The guide was dismissed: the settings remember it (a file that cannot be written
        only means the guide shows again next time)."""
        settings = self.user_settings
        if settings is None or settings.guide_seen:
            return
        self.user_settings = replace(settings, guide_seen=True)
        try:
            self.user_settings.save(self.settings_path)
        except OSError as exc:
            print(f"notice: cannot keep the settings ({exc})", file=sys.stderr)

    def animation_speed(self) -> float:
        """How fast a battle's animations play: the settings', or the command line's."""
        if self.user_settings is None:
            return self.options.animation_speed
        return self.user_settings.animation_speed

    def keys(self) -> KeyMap:
        """The keys a battle answers to, as the settings bind them."""
        if self.user_settings is None:
            return KeyMap()
        bindings, notices = self.user_settings.bindings(default_key_names())
        for notice in notices:
            if notice not in self.notices:
                self.notices.append(notice)
        return KeyMap.from_names(bindings)

    def _write_meta(self) -> None:
        """The load screen's note of the battle (round, who acts) beside its journal."""
        from game.app import saves

        session = self.session
        if session is not None and session.writer is not None:
            saves.write_meta(session.writer.path, session)


def viewer_for(session: Session) -> str:
    """Who looks at the screen first: the one person playing; at a shared screen the person
    whose unit acts (or who is asked for a reaction or a ruling), else the first player (the
    computer acts first), else the GM. A shared battle opens covered for them to take
    (game/ui/seats.py): never straight into anyone's view, the GM's least of all."""
    people = sorted(set(session.setup.players))
    if len(people) == 1 and not session.setup.gm:
        return people[0]
    wanted = Seats(session.battle, people[0] if people else GM).wanted(session.battle)
    if wanted is not None:
        return wanted
    return people[0] if people else GM


def play(
    map_path: Path,
    *,
    sides: tuple[str, ...] = (),
    computer: tuple[str, ...] = (),
    seed: int = 1,
    journal: Path | None = None,
    ruleset: str | None = None,
    window: WindowOptions | None = None,
    settings: Settings | None = None,
) -> int:
    """Open a battle in a window: `tessera play` and the demo. Answers the exit status.
    `ruleset` (`--ruleset`): a new battle under it instead of the map's own."""
    window = window or WindowOptions()
    continuing = journal is not None and journal.exists() and journal.stat().st_size > 0
    if continuing and ruleset is not None:
        print(f"error: --ruleset {ruleset}: {journal} is a battle begun already", file=sys.stderr)
        return 2
    if not continuing:
        try:
            setup = single_player_setup(
                load_map(map_path), sides=sides, computer=computer, seed=seed
            )
        except MapError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        try:
            setup = with_ruleset(setup, ruleset)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2

    def begin(director: Director) -> None:
        if continuing:
            assert journal is not None
            director.resume(journal)
        else:
            director.start(setup, journal or new_journal_path(map_path))
        if window.frames is not None:  # counted from the battle's first frame
            app = director.app
            while app.running and director.session is None and director.failure is None:
                app.step()

    return _in_window(window, settings, begin)


def menu(window: WindowOptions | None = None, settings: Settings | None = None) -> int:
    """Open the window on the title screen (`tessera` once there are saves)."""
    return _in_window(window or WindowOptions(), settings, Director.title)


def _in_window(
    window: WindowOptions, settings: Settings | None, begin: Callable[[Director], None]
) -> int:
    """Open the window, let `begin` show its first screen, run until it is closed (or for
    `window.frames`), and answer the exit status: 2 when a battle could not be opened."""
    app = _open_app(window.size)
    if app is None:
        return 2
    director = _director(app, window, settings)
    try:
        begin(director)
        if director.failure is None or window.frames is None:
            app.run(window.frames)
        if window.screenshot is not None:
            app.screenshot(window.screenshot)
    finally:
        director.close_battle()
        director.keep_window_size()
        app.close()
    if director.failure is not None:
        print(f"error: {director.failure}", file=sys.stderr)
        return 2
    return 0


def _director(app: App, window: WindowOptions, settings: Settings | None) -> Director:
    """The Director with the player's settings applied: language, full screen; their notices
    (a damaged settings file) also on standard error."""
    director = Director(app, window, settings=settings)
    if settings is not None:
        from game.text.i18n import set_language

        set_language(settings.language)
        if settings.fullscreen:
            director.apply_display()
        for notice in settings.notices:
            print(f"notice: {notice}", file=sys.stderr)
    return director


def _open_app(size: tuple[int, int]) -> App | None:
    """The window, or None after saying on standard error why there is none (nothing else is
    done then: no battle is opened, no save written)."""
    try:
        return App(size)
    except NoDisplay as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    except pygame.error as exc:
        print(
            f"error: cannot open a window ({exc}); `tessera run` plays without one",
            file=sys.stderr,
        )
        return None


__all__ = [
    "DEMO_MAP",
    "Director",
    "JournalError",
    "WindowOptions",
    "menu",
    "play",
    "saves_dir",
    "single_player_setup",
]
