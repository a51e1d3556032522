"""`tessera bench`, the window's goals: frame times of the battle window, the hover preview, and
pyscroll drawing the same map.

The window is the real one (game.ui.app.App and game.ui.battle.scene.BattleScene), opened
headless (SDL_VIDEODRIVER=dummy) on a 128x128 map of 3 levels written as a Tiled .tmx with the
shipped station tileset, 32 units in two factions, a unit selected (its reach coloured by cost)
and the pointer over enemies and cells (sight line, cover rays, paths). pygame, pytmx and pyscroll
are used here only: pyscroll is a bench-only comparison (`pip install -e '.[bench]'`).
"""

from __future__ import annotations

import math
import os
import shutil
import statistics
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from game.battle.session import Session
    from game.ui.app import App
    from game.ui.battle.scene import BattleScene

MAP_CELLS = 128
LEVELS = 3
UNITS = 32
SEED = 20261122
WINDOW = (1280, 720)
FRAME_DT = 1 / 60
#: The goals of issue 8: a frame's 99th percentile; a new hover on an enemy answered within one
#: frame, its preview of line of sight, cover and hit chance within HOVER_GOAL.
FRAME_GOAL = 1 / 60
HOVER_GOAL = 100e-6
TILESETS = Path(__file__).resolve().parents[2] / "assets" / "tilesets"
TILESET = "station"
TILE = 32
#: The hall in the middle of level 0, where the two sides face each other: no inner walls.
HALL = (32, 96)
#: The map point (in cells) the camera starts over: between the sides.
VIEW_CENTRE = (64.5, 63.0)


# --- the map ------------------------------------------------------------------------------------


def _tile_ids(tsx: Path) -> dict[str, int]:
    """The station tileset's tiles by their type (floor, wall, crate...)."""
    root = ET.parse(tsx).getroot()
    return {t.get("type", ""): int(t.get("id", "0")) for t in root.iter("tile")}


@dataclass
class _Level:
    base: NDArray[np.int64]
    objects: NDArray[np.int64]
    units: list[tuple[str, str, int, int]] = field(default_factory=list)


def _plan(ids: dict[str, int], seed: int) -> list[_Level]:
    """Three storeys of a station deck, indexed [y, x] (rows as Tiled writes them).

    Level 0: rooms of 16 cells with doors, a hall in the middle with pillars and crates where
    the sides stand. Level 1: walls rise floor to ceiling; upper rooms over the north and west
    bands, a catwalk along the hall's north and west walls; the rest open. Level 2: rooms over
    the north-west corner and a bridge across the hall; the rest open.
    """
    n = MAP_CELLS
    gen = np.random.default_rng(seed)

    def gid(kind: str) -> int:
        return ids[kind] + 1

    lo, hi = HALL
    ys, xs = np.mgrid[0:n, 0:n]
    in_hall = (xs > lo) & (xs < hi) & (ys > lo) & (ys < hi)
    wall = (xs % 16 == 0) | (ys % 16 == 0) | (xs == n - 1) | (ys == n - 1)
    wall &= ~in_hall
    door = np.zeros((n, n), dtype=bool)
    for k in range(16, n, 16):
        for m in range(8, n, 16):  # a two-cell door in the middle of every wall segment
            door[m : m + 2, k] = True
            door[k, m : m + 2] = True
    door &= wall & (xs > 0) & (ys > 0) & (xs < n - 1) & (ys < n - 1)

    base0 = np.full((n, n), gid("floor"))
    base0[gen.random((n, n)) < 0.12] = gid("floor_worn")
    base0[(gen.random((n, n)) < 0.03)] = gid("floor_hazard")
    base0[wall] = gid("wall")
    base0[door] = gid("door_ew")
    objects0 = np.zeros((n, n), dtype=np.int64)
    free0 = ~wall
    clutter = gen.random((n, n))
    objects0[free0 & (clutter < 0.035)] = gid("crate")
    objects0[free0 & (clutter > 0.99)] = gid("crate_stack")
    objects0[free0 & (clutter > 0.975) & (clutter <= 0.99)] = gid("console")
    # Pillars down the hall, none in the open ground between the sides.
    pillars = in_hall & (xs % 8 == 4) & (ys % 8 == 4) & ((xs < 52) | (xs > 76))
    objects0[pillars] = gid("pillar")
    objects0[free0 & (ys % 16 == 3) & (xs % 16 > 4) & (xs % 16 < 12) & ~in_hall] = gid("pipes_ew")
    # Cover in the middle of the hall, between the sides.
    objects0[lo + 4 : hi - 4 : 3, 62:66] = gid("crate")
    # Stairs up from the hall to the catwalk, and from the west rooms to the upper rooms.
    base0[lo + 3, lo + 6 : lo + 8] = gid("stairs_n")
    base0[40:42, 8] = gid("stairs_n")
    objects0[base0 == gid("stairs_n")] = 0

    def upper(floor: NDArray[np.bool_], below_wall: NDArray[np.bool_]) -> _Level:
        base = np.zeros((n, n), dtype=np.int64)
        base[floor] = gid("floor_upper")
        base[below_wall] = gid("wall")  # walls run floor to ceiling
        objects = np.zeros((n, n), dtype=np.int64)
        roll = gen.random((n, n))
        objects[floor & ~below_wall & (roll < 0.03)] = gid("crate")
        objects[floor & ~below_wall & (roll > 0.985)] = gid("console")
        return _Level(base, objects)

    rooms1 = ((ys < lo) | (xs < lo)) & ~wall
    catwalk = ((ys > lo) & (ys < lo + 3) & in_hall) | ((xs > lo) & (xs < lo + 3) & in_hall)
    level1 = upper(rooms1, wall & ~door)
    level1.base[catwalk] = gid("grating")
    level1.objects[catwalk] = 0
    level1.objects[(ys == lo + 3) & (xs > lo + 8) & (xs < hi)] = gid("railing_ew")
    level1.base[(ys == lo + 3) & (xs > lo + 8) & (xs < hi)] = gid("grating")
    rooms2 = (xs < 48) & (ys < 48) & ~wall
    level2 = upper(rooms2, wall & ~door)
    bridge = (ys >= 63) & (ys <= 64) & in_hall
    level2.base[bridge] = gid("grating")
    level2.objects[bridge] = 0

    levels = [_Level(base0, objects0), level1, level2]
    # The sides: blue on the hall's west half, red on its east half, in view together at zoom
    # 1 (see VIEW_CENTRE); two of each upstairs.
    spots_blue = [(x, y) for y in range(55, 71, 3) for x in (54, 56, 58)]
    spots_red = [(x, y) for y in range(55, 71, 3) for x in (70, 72, 74)]
    for i, (x, y) in enumerate(spots_blue[:14]):
        levels[0].units.append((f"b{i}", "blue", x, y))
    for i, (x, y) in enumerate(spots_red[:14]):
        levels[0].units.append((f"r{i}", "red", x, y))
    levels[1].units += [("b14", "blue", 44, lo + 1), ("b15", "blue", 58, lo + 2)]
    levels[2].units += [("r14", "red", 80, 63), ("r15", "red", 86, 64)]
    for z, level in enumerate(levels):
        for _name, _faction, x, y in level.units:
            level.objects[y, x] = 0
            if z == 0 and level.base[y, x] != gid("floor_hazard"):
                level.base[y, x] = gid("floor")
    return levels


def _csv(grid: NDArray[np.int64]) -> str:
    return ",\n".join(",".join(str(int(g)) for g in row) for row in grid)


def write_map(folder: Path, seed: int = SEED) -> Path:
    """The bench map as a Tiled .tmx in `folder`, beside a copy of the station tileset."""
    tilesets = folder / "tilesets"
    tilesets.mkdir(parents=True, exist_ok=True)
    for suffix in (".tsx", ".png"):
        shutil.copyfile(TILESETS / f"{TILESET}{suffix}", tilesets / f"{TILESET}{suffix}")
    levels = _plan(_tile_ids(tilesets / f"{TILESET}.tsx"), seed)
    n = MAP_CELLS
    body: list[str] = []
    layer_id = object_id = 0
    for z, level in enumerate(levels):
        layer_id += 1
        body += [
            f' <group id="{layer_id}" name="level {z}">',
            '  <properties><property name="level" type="int" value="' + str(z) + '"/></properties>',
        ]
        for name, grid in (("base", level.base), ("objects", level.objects)):
            layer_id += 1
            body += [
                f'  <layer id="{layer_id}" name="{name}" width="{n}" height="{n}">',
                '   <data encoding="csv">',
                _csv(grid),
                "</data>",
                "  </layer>",
            ]
        layer_id += 1
        body.append(f'  <objectgroup id="{layer_id}" name="units">')
        for name, faction, x, y in level.units:
            object_id += 1
            body += [
                f'   <object id="{object_id}" name="{name}" x="{(x + 0.5) * TILE:g}" '
                f'y="{(y + 0.5) * TILE:g}">',
                "    <properties>",
                f'     <property name="faction" value="{faction}"/>',
                '     <property name="weapon" value="carbine"/>',
                "    </properties>",
                "    <point/>",
                "   </object>",
            ]
        body += ["  </objectgroup>", " </group>"]
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" '
        f'renderorder="right-down" width="{n}" height="{n}" tilewidth="{TILE}" '
        f'tileheight="{TILE}" infinite="0" nextlayerid="{layer_id + 1}" '
        f'nextobjectid="{object_id + 1}">',
        ' <properties><property name="name" value="Bench deck"/></properties>',
        f' <tileset firstgid="1" source="tilesets/{TILESET}.tsx"/>',
    ]
    path = folder / "bench_deck.tmx"
    path.write_text("\n".join([*head, *body, "</map>"]) + "\n", encoding="utf-8")
    return path


# --- figures ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figures:
    """Seconds per frame (or per call) of one kind of measurement."""

    samples: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    def percentile(self, p: float) -> float:
        return float(np.percentile(np.array(self.samples), p, method="inverted_cdf"))

    @property
    def p95(self) -> float:
        return self.percentile(95)

    @property
    def p99(self) -> float:
        return self.percentile(99)


@dataclass
class WindowReport:
    """What one run of the window bench measured."""

    frames: dict[str, Figures] = field(default_factory=dict)
    cpu: dict[str, Figures] = field(default_factory=dict)
    board: Figures | None = None
    hover: dict[str, Figures] = field(default_factory=dict)
    pyscroll: Figures | None = None
    pyscroll_skipped: str = ""
    #: The first frame: every cache cold (levels drawn, tokens rendered).
    first_frame: float = 0.0
    #: Fewer frames than the 99th percentile of the goal needs (`tessera bench --quick`).
    quick: bool = False
    #: Resident memory of the process (MB) once the window is open, and at its peak after the
    #: frames (before pyscroll loads the map).
    memory: tuple[float, float] = (0.0, 0.0)
    skipped: str = ""
    #: Frames while the battle plays, the other core busy (issue 18): the commands on the
    #: scene's worker thread ("worker") and, for comparison, on the frame's thread ("inline").
    playing: dict[str, PlayRun] = field(default_factory=dict)


@dataclass
class PlayRun:
    """Frames paced at 60 a second while the viewer's side moves and ends its turns and the
    computer plays the other: App.step (and the click's command) per frame, in wall and CPU
    time, and how long each command took from given to shown."""

    frames: Figures
    cpu: Figures
    #: Seconds from a command given (or the computer's started) to its result shown.
    shown: Figures
    commands: int


# --- driving the window -------------------------------------------------------------------------


@contextmanager
def _headless() -> Iterator[None]:
    """The dummy video and audio drivers while the bench runs (what the tests use too)."""
    keys = ("SDL_VIDEODRIVER", "SDL_AUDIODRIVER", "PYGAME_HIDE_SUPPORT_PROMPT")
    before = {k: os.environ.get(k) for k in keys}
    os.environ.update(
        SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1"
    )
    try:
        yield
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def open_window(
    tmx: Path,
    *,
    computer: str | None = None,
    threaded: bool = False,
    animation_speed: float = 0.0,
) -> tuple[App, BattleScene, Session]:
    """The real window on the bench map, seen by the side whose unit acts first, that unit
    selected; animations off unless `animation_speed` is set. `computer`: that side is the
    computer's; `threaded`: the scene's commands run on its worker thread, as in the game's
    window."""
    from game.battle.session import Session
    from game.battle.setup import setup_from_map
    from game.maps import load_map
    from game.ui.app import App
    from game.ui.battle.scene import BattleScene
    from game.ui.battle.worker import Worker

    loaded = load_map(tmx)
    players = {f: (f,) for f in ("blue", "red") if f != computer}
    others = () if computer is None else (computer,)
    setup = setup_from_map(loaded, seed=SEED, players=players, computer=others)
    session = Session.new(setup, None)
    active = session.battle.active
    player = session.battle.faction_of(active) if active is not None else "blue"
    if computer is not None:
        player = next(iter(players))
    app = App(WINDOW)
    scene = BattleScene(
        app.size,
        session,
        player,
        loaded.render,
        animation_speed=animation_speed,
        worker=Worker(threaded=threaded),
    )
    if scene.seats.waiting_for is not None:
        scene.take_screen()  # a shared screen opens covered: the bench measures the board
    app.show(scene)
    # The map's own tile size, over the middle of the hall where the sides face each other.
    scene.board.camera.zoom = 1.0
    scene.board.camera.centre_on(VIEW_CENTRE[0] * TILE, VIEW_CENTRE[1] * TILE)
    return app, scene, session


def _enemies_in_sight(scene: BattleScene) -> list[str]:
    """The enemies the player sees on the level in view or below, those the selected unit has a
    clear line to first, and of those the ones it sees behind cover first (the full preview:
    sight, cover rays, hit chance)."""
    from game.battle import preview

    mine = scene.factions() or frozenset()
    enemies = [
        u.id for u in scene.view.units if u.faction not in mine and u.cell[2] <= scene.board.level
    ]
    unit = scene.selected

    def rank(enemy: str) -> int:
        shot = None if unit is None else preview.attack(scene.battle, scene.player, unit, enemy)
        if shot is None or not shot.los.clear:
            return 2
        return 0 if shot.answer.cover is not None and shot.answer.cover.hidden else 1

    return sorted(enemies, key=rank)


@dataclass(frozen=True)
class _View:
    x: float
    y: float
    zoom: float


@dataclass(frozen=True)
class _Frame:
    kind: str
    #: The map cell the pointer is put over this frame (None: it stays).
    hover: tuple[int, int, int] | None = None
    pan: tuple[float, float] = (0.0, 0.0)
    zoom: int = 0
    #: PageUp (1) or PageDown (-1) this frame: the view from another level.
    level: int = 0


def schedule(scene: BattleScene, scale: float) -> list[_Frame]:
    """The frames of a run: still, then the pointer moving over enemies and cells with the
    camera still, then the camera panning in a slow circle (at the arrow keys' speed, moved
    directly: held keys cannot be faked headless) and zooming a notch in and out now and then
    at the pointer, going up a level (PageUp) and back down once, the pointer following its
    targets."""
    from game.ui.battle.input import PAN_SPEED

    enemies = _enemies_in_sight(scene)
    cells = {u.id: u.cell for u in scene.view.units}
    selected = cells.get(scene.selected or "", (64, 64, 0))
    targets: list[tuple[int, int, int]] = []
    for i, enemy in enumerate(enemies):
        targets.append(cells[enemy])
        # And a floor cell between the sides: the path there and its cost.
        x, y, z = selected
        targets.append((x + 3 + i % 5, y - 4 + i % 9, z))
    if not targets:
        targets = [selected]
    out: list[_Frame] = []
    still, hover, pan = (max(2, round(n * scale)) for n in (120, 120, 480))
    out += [_Frame("still", targets[0] if i == 0 else None) for i in range(still)]
    # The pointer onto a new target every 4 frames (kind "hover"), still in between.
    out += [
        _Frame("hover", targets[(i // 4) % len(targets)]) if i % 4 == 0 else _Frame("still")
        for i in range(hover)
    ]
    step = PAN_SPEED * FRAME_DT
    zooms = [1, -1, -1, 1]
    every = max(5, round(60 * scale))
    # Up a level a third of the way, back down two thirds of the way.
    levels = {pan // 3 + every // 2: 1, 2 * pan // 3 + every // 2: -1}
    for i in range(pan):
        angle = 2 * math.pi * i / 120
        zoom = zooms[(i // every) % 4] if i % every == every - 1 else 0
        level = 0 if zoom else levels.get(i, 0)
        out.append(
            _Frame(
                "zoom" if zoom else "level" if level else "pan",
                targets[(i // 6) % len(targets)],
                (step * math.cos(angle), step * math.sin(angle)),
                zoom,
                level,
            )
        )
    return out


@dataclass
class Run:
    """What a run of frames measured: App.step by kind of frame and all together, the board's
    share of each frame, and where the camera was."""

    frames: dict[str, Figures]
    #: The same frames in CPU time of this thread: without the waits of a busy machine.
    cpu: dict[str, Figures]
    board: Figures
    views: list[_View]


def run_frames(app: App, scene: BattleScene, frames: Sequence[_Frame]) -> Run:
    """Each frame's App.step, timed."""
    import pygame

    from game.ui.app import post_key, post_mouse_move

    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    board = scene.board
    board_times: list[float] = []
    draw = board.draw
    board.draw = _timed(draw, board_times)  # type: ignore[method-assign]
    views: list[_View] = []
    try:
        for frame in frames:
            if frame.pan != (0.0, 0.0):
                board.camera.pan(*frame.pan)
            pointer = None
            if frame.hover is not None:
                pointer = _on_screen(scene, frame.hover)
            if frame.zoom:
                post_mouse_move(pointer or board.viewport.center)
                pygame.event.post(
                    pygame.event.Event(
                        pygame.MOUSEWHEEL,
                        x=0,
                        y=frame.zoom,
                        flipped=False,
                        precise_x=0.0,
                        precise_y=float(frame.zoom),
                    )
                )
            elif pointer is not None:
                post_mouse_move(pointer)
            if frame.level:
                post_key(pygame.K_PAGEUP if frame.level > 0 else pygame.K_PAGEDOWN)
            start, start_cpu = time.perf_counter(), time.thread_time()
            app.step(FRAME_DT)
            elapsed, used = time.perf_counter() - start, time.thread_time() - start_cpu
            for kind in (frame.kind, "all"):
                times.setdefault(kind, []).append(elapsed)
                cpu.setdefault(kind, []).append(used)
            cam = board.camera
            views.append(_View(cam.x, cam.y, cam.zoom))
    finally:
        board.draw = draw  # type: ignore[method-assign]
    return Run(
        {k: Figures(tuple(v)) for k, v in times.items()},
        {k: Figures(tuple(v)) for k, v in cpu.items()},
        Figures(tuple(board_times)),
        views,
    )


def _on_screen(scene: BattleScene, cell: tuple[int, int, int]) -> tuple[int, int] | None:
    """The screen point over a cell, or None when the board does not show it now."""
    x, y = scene.board.cell_centre(cell)
    point = (round(x), round(y))
    return point if scene.board.viewport.inflate(-8, -8).collidepoint(point) else None


def _warm_up(app: App, scene: BattleScene) -> None:
    """The pointer once over every target, unmeasured: first uses (numba loading its cached
    kernels, fonts, token images) are the first frame's cost, not a frame's."""
    cam = scene.board.camera
    where = (cam.x, cam.y, cam.zoom)
    run_frames(app, scene, [f for f in schedule(scene, 1.0) if f.kind == "hover"][::4])
    cam.x, cam.y, cam.zoom = where


def _timed(fn: Callable[..., None], into: list[float]) -> Callable[..., None]:
    def wrapper(*args: object, **kwargs: object) -> None:
        start = time.perf_counter()
        fn(*args, **kwargs)
        into.append(time.perf_counter() - start)

    return wrapper


def measure_hover(scene: BattleScene, repeats: int) -> dict[str, Figures]:
    """A new hover over an enemy, answered: alternating between two enemies so that every
    answer is a new one. "scene": what BattleScene does for a pointer that moved onto an enemy
    (the hovered cell, the preview, the overlay, the panel's text); "preview": the same but for
    the panel's text box (pygame-gui laying out its HTML); "attack": the pure
    game.battle.preview.attack call."""
    from game.battle import preview

    unit = scene.selected
    enemies = _enemies_in_sight(scene)[:2]
    if unit is None or len(enemies) < 2:
        return {}
    cells = {u.id: u.cell for u in scene.view.units}
    points = [_on_screen(scene, cells[e]) for e in enemies]
    if None in points:
        return {}
    battle, player = scene.battle, scene.player
    out: dict[str, list[float]] = {"scene": [], "preview": [], "attack": []}
    side = scene.side

    def answer(k: int, with_text: bool) -> float:
        if not with_text:
            side.set_html = lambda *_args: None  # type: ignore[method-assign]
        try:
            start = time.perf_counter()
            scene.hover(points[k])  # type: ignore[arg-type]
            scene.refresh_previews()
            return time.perf_counter() - start
        finally:
            if not with_text:
                del side.set_html

    for i in range(repeats + 2):
        k = i % 2
        scene_time = answer(k, with_text=True)
        # The other enemy, then this one again: a new answer, without the panel's text.
        answer(1 - k, with_text=False)
        preview_time = answer(k, with_text=False)
        start = time.perf_counter()
        preview.attack(battle, player, unit, enemies[k])
        attack_time = time.perf_counter() - start
        if i >= 2:  # the first of each: caches filled
            out["scene"].append(scene_time)
            out["preview"].append(preview_time)
            out["attack"].append(attack_time)
    return {k: Figures(tuple(v)) for k, v in out.items()}


def measure_pyscroll(
    tmx: Path, views: Sequence[_View], viewport: tuple[int, int, int, int]
) -> tuple[Figures | None, str]:
    """pyscroll drawing the same map through the same camera path into a viewport of the same
    size, with a sprite for each unit; (None, why) where it cannot run. It draws every level's
    layers stacked (it has no cut-away), and no fog, reach or grid."""
    try:
        import pyscroll  # type: ignore[import-untyped]
        from pytmx.util_pygame import load_pygame
    except ImportError as exc:
        return None, f"{exc.name or 'pyscroll'} is not installed (pip install -e '.[bench]')"
    import pygame

    screen = pygame.display.get_surface()
    assert screen is not None, "the window is open"
    tmx_data = load_pygame(str(tmx))
    renderer = pyscroll.BufferedRenderer(
        pyscroll.TiledMapData(tmx_data), viewport[2:], clamp_camera=False
    )
    group = pyscroll.PyscrollGroup(map_layer=renderer)
    for obj in [o for layer in tmx_data.objectgroups for o in layer]:
        sprite = pygame.sprite.Sprite()
        sprite.image = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
        pygame.draw.circle(sprite.image, (225, 75, 60), (TILE // 2, TILE // 2), TILE * 3 // 8)
        sprite.rect = sprite.image.get_rect(center=(round(obj.x), round(obj.y)))
        group.add(sprite)
    target = screen.subsurface(pygame.Rect(viewport))
    times: list[float] = []
    zoom = renderer.zoom
    for i, view in enumerate([views[0], *views]):
        start = time.perf_counter()
        if view.zoom != zoom:
            renderer.zoom = zoom = view.zoom
        vw, vh = viewport[2] / view.zoom, viewport[3] / view.zoom
        group.center((view.x + vw / 2, view.y + vh / 2))
        group.draw(target)
        if i:  # the first draws the whole buffer: the cold start, not a frame
            times.append(time.perf_counter() - start)
    return Figures(tuple(times)), ""


def play_frames(app: App, scene: BattleScene, frames: int, seed: int = SEED) -> PlayRun:
    """`frames` frames paced as the window's clock paces them (60 a second), the battle going
    on: once the scene has been idle (no command running or animated) for the computer's own
    pause, the viewer's acting unit moves to a random cell of its reach, then ends its turn (a
    reaction offered is let go), as clicks would; the computer's turns are the scene's own. A
    frame is the command's giving (where the scene's worker is not threaded, the command
    itself) and App.step."""
    from game.battle import commands as cmd
    from game.ui.battle.scene import COMPUTER_PAUSE

    gen = np.random.default_rng(seed)
    walked: set[tuple[str, int]] = set()
    wall: list[float] = []
    cpu: list[float] = []
    shown: list[float] = []
    given_at: float | None = None
    period = FRAME_DT
    history = len(scene.session.history)
    tick = time.perf_counter()
    idle = 0.0
    for _ in range(frames):
        start, start_cpu = time.perf_counter(), time.thread_time()
        idle = 0.0 if scene.worker.busy or scene.animator.busy else idle + period
        pause_over = idle >= COMPUTER_PAUSE * (1 if scene.animator.speed > 0 else 0)
        if idle and pause_over and not scene.view.over:
            idle = period
            unit = scene.acting()
            command: cmd.Command | None = None
            if scene.prompts.prompt is not None and scene.prompts.kind == "reaction":
                given_at = start
                scene.answer("let_go")
            elif unit is not None:
                turn = (unit, scene.view.round)
                cells = sorted(scene.reach.cells) if scene.reach is not None else []
                if turn not in walked and cells:
                    walked.add(turn)
                    command = cmd.Move(unit, cells[int(gen.integers(len(cells)))])
                else:
                    command = cmd.EndTurn(unit)
            if command is not None:
                given_at = start
                scene.orders.submit(command)
        busy_before = scene.worker.busy
        app.step(period)
        end = time.perf_counter()
        wall.append(end - start)
        cpu.append(time.thread_time() - start_cpu)
        if not busy_before and scene.worker.busy:  # the computer's command started this frame
            given_at = start
        if given_at is not None and not scene.worker.busy:
            shown.append(end - given_at)
            given_at = None
        tick += period
        pause = tick - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        else:
            tick = time.perf_counter()  # late: the next frame starts now, as clock.tick does
    scene.worker.wait()
    commands = len(scene.session.history) - history
    return PlayRun(
        Figures(tuple(wall)), Figures(tuple(cpu)), Figures(tuple(shown or [0.0])), commands
    )


def measure_playing(scale: float = 1.0) -> dict[str, PlayRun]:
    """The window while the battle plays, the other core busy: the commands on the worker
    (the game's window) and on the frame's thread (as before issue 18)."""
    from game.bench.battle import other_core_busy

    out: dict[str, PlayRun] = {}
    frames = max(30, round(600 * scale))
    with _headless(), tempfile.TemporaryDirectory(prefix="tessera-bench-") as folder:
        tmx = write_map(Path(folder))
        for name, threaded in (("worker", True), ("inline", False)):
            app, scene, session = open_window(
                tmx, computer="red", threaded=threaded, animation_speed=1.0
            )
            try:
                app.step(FRAME_DT)
                play_frames(app, scene, 20)  # warm-up: first uses, caches
                with other_core_busy():
                    out[name] = play_frames(app, scene, frames)
            finally:
                session.close()
                app.close()
    return out


def measure_window(scale: float = 1.0, hover_repeats: int = 200) -> WindowReport:
    """Every figure of the window bench; `scale` shrinks the number of frames (tests)."""
    report = WindowReport()
    if not (TILESETS / f"{TILESET}.tsx").exists():
        report.skipped = f"the shipped tilesets are not here ({TILESETS})"
        return report
    with _headless(), tempfile.TemporaryDirectory(prefix="tessera-bench-") as folder:
        tmx = write_map(Path(folder))
        app, scene, session = open_window(tmx)
        opened = _resident_mb()
        try:
            start = time.perf_counter()
            app.step(FRAME_DT)
            report.first_frame = time.perf_counter() - start
            _warm_up(app, scene)
            report.hover = measure_hover(scene, hover_repeats)
            run = run_frames(app, scene, schedule(scene, scale))
            report.frames, report.cpu, report.board = run.frames, run.cpu, run.board
            report.memory = (opened, _peak_mb())
            report.pyscroll, report.pyscroll_skipped = measure_pyscroll(
                tmx, run.views, scene.board.camera.viewport
            )
        finally:
            session.close()
            app.close()
    return report


def _resident_mb() -> float:
    """The process's resident memory now (Linux), else 0."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def _peak_mb() -> float:
    """The process's peak resident memory (Linux reports kB), else 0."""
    try:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    except (ImportError, OSError):
        return 0.0


def _ms(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    return f"{seconds * 1e3:.2f} ms"


_FRAME_ROWS = (
    ("all", "window frame, all frames (App.step)"),
    ("still", "  still: nothing changes"),
    ("hover", "  pointer onto a new enemy or cell"),
    ("pan", "  panning (and the pointer moving)"),
    ("zoom", "  first frame after a zoom notch"),
    ("level", "  first frame after PageUp / PageDown"),
)
_HOVER_ROWS = (
    ("scene", "hover an enemy: the scene's whole answer"),
    ("preview", "  the same without the panel's text box"),
    ("attack", "  its sight, cover and hit chance (preview)"),
)


def print_report(report: WindowReport) -> None:
    import pygame

    print()
    print(
        f"window: {WINDOW[0]}x{WINDOW[1]}, map {MAP_CELLS}x{MAP_CELLS}x{LEVELS}, {UNITS} units, "
        f"reach, fog, sight and cover overlays; pygame-ce {pygame.version.ver}, "
        f"SDL {'.'.join(map(str, pygame.version.SDL))}, dummy video driver; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    if report.skipped:
        print(f"window bench skipped: {report.skipped}")
        return
    header = f"{'window':<46} {'median':>10} {'p95':>10} {'p99':>10} {'max':>10} {'goal':>12}  met"
    print(header)
    print("-" * len(header))

    def row(label: str, fig: Figures | None, goal: str = "-", verdict: str = "info") -> None:
        if fig is None:
            print(f"{label:<46} {'skipped':>10}")
            return
        print(
            f"{label:<46} {_ms(fig.median):>10} {_ms(fig.p95):>10} {_ms(fig.p99):>10} "
            f"{_ms(max(fig.samples)):>10} {goal:>12}  {verdict}"
        )

    for key, label in _FRAME_ROWS:
        fig = report.frames.get(key)
        if key == "all" and fig is not None:
            verdict = "-" if report.quick else "yes" if fig.p99 <= FRAME_GOAL else "NO"
            row(label, fig, "p99 " + _ms(FRAME_GOAL), verdict)
        elif fig is not None:
            row(label, fig)
        if key == "all" and key in report.cpu:
            row("  all frames in CPU time (no waits)", report.cpu[key])
    row("board's share of a frame (Board.draw)", report.board)
    print(f"{'  first frame (caches cold)':<46} {_ms(report.first_frame):>10}")
    opened, peak = report.memory
    if peak:
        print(f"{'  memory: open, peak after the frames':<46} {opened:>7.0f} MB {peak:>7.0f} MB")
    for key, label in _HOVER_ROWS:
        fig = report.hover.get(key)
        if key == "scene" and fig is not None:
            met = "yes" if fig.p99 <= FRAME_GOAL else "NO"
            row(label, fig, "p99 " + _ms(FRAME_GOAL), met)
        elif key == "attack" and fig is not None:
            met = "yes" if fig.median <= HOVER_GOAL else "NO"
            row(label, fig, _ms(HOVER_GOAL), met)
        else:
            row(label, fig)
    for name, label in (
        ("worker", "window frame, battle playing, other core busy"),
        ("inline", "  the same, commands on the frame's thread"),
    ):
        played = report.playing.get(name)
        if played is None:
            continue
        if name == "worker":
            verdict = "-" if report.quick else "yes" if played.frames.p99 <= FRAME_GOAL else "NO"
            row(label, played.frames, "p99 " + _ms(FRAME_GOAL), verdict)
        else:
            row(label, played.frames)
        row("    in CPU time (no waits)", played.cpu)
        row(f"    a command given to shown ({played.commands} commands)", played.shown)
    if report.pyscroll is None:
        print(f"{'pyscroll, same map and camera path':<46} skipped: {report.pyscroll_skipped}")
    else:
        row("pyscroll, same map and camera path", report.pyscroll)
        if report.board is not None:
            ours, theirs = report.board, report.pyscroll
            ratios = (
                ours.median / theirs.median,
                ours.p95 / theirs.p95,
                ours.p99 / theirs.p99,
                max(ours.samples) / max(theirs.samples),
            )
            print(f"{'  ratio board / pyscroll':<46}" + "".join(f"{r:>10.1f}x" for r in ratios))


def run_window_bench(quick: bool = False) -> WindowReport:
    """The window's rows of `tessera bench`."""
    report = measure_window(0.15 if quick else 1.0, 40 if quick else 200)
    if not report.skipped:
        report.playing = measure_playing(0.15 if quick else 1.0)
    report.quick = quick
    print_report(report)
    if quick:
        # A zoom or a level change is then more than 1 % of the frames: the full run judges.
        print(
            f"--quick: {len(report.frames.get('all', Figures((0.0,))).samples)} frames, too few "
            "for a 99th percentile; tessera bench (720 frames) judges the frame goal"
        )
    return report


if __name__ == "__main__":
    import sys

    run_window_bench("--quick" in sys.argv)
