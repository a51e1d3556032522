"""The battlefield on screen: the map's levels, fog, reach, paths, sight lines and unit tokens.

It draws what the player's view and the previews say; it computes no rule. The map, the reach
colours, the grid and the fog are drawn in chunks of tiles.CHUNK_CELLS cells a side, cached until
the level, the zoom or what they show changes: a frame blits the few chunks in view straight to
the screen, then the lines, tokens and markers. Frames with time to spare draw the chunks next to
the view and at the next zoom steps before they are needed; in the window a frame draws at most
FRAME_CHUNKS new chunks in view, the others showing a stand-in until the next frames.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pygame
from numpy.typing import NDArray

from game.grid.model import Cell
from game.maps import RenderMap
from game.text.bounds import clip
from game.ui import fonts
from game.ui.camera import ZOOMS, Camera, readable_zoom
from game.ui.tiles import PREMULTIPLIED, LevelRenderer, scratch

RGB = tuple[int, int, int]

#: Side colours in the order of the battle's factions; neutrals are grey.
FACTION_COLOURS: tuple[RGB, ...] = (
    (70, 140, 235),
    (225, 75, 60),
    (80, 185, 95),
    (235, 180, 45),
    (175, 100, 215),
    (60, 200, 200),
)
NEUTRAL_COLOUR: RGB = (150, 150, 150)
BACKGROUND: RGB = (18, 20, 26)
UNSEEN = (6, 8, 12, 225)
REMEMBERED = (40, 42, 50, 150)
#: Reach in violet, lighter the cheaper, and Dash-only cells in magenta: hues no tile of our
#: tilesets has (their colours are slate, steel blue, cyan, amber, rust, olive and dust;
#: tests/ui/test_board_decision.py measures it), so a reach colour is never read as a floor.
REACH_NEAR = np.array([210, 180, 255], dtype=np.float32)
REACH_FAR = np.array([130, 70, 235], dtype=np.float32)
REACH_ALPHA = 110
DASH = (250, 80, 210, 70)
PATH_COLOUR: RGB = (250, 250, 250)
WARN_COLOUR: RGB = (255, 80, 60)
CLEAR_COLOUR: RGB = (120, 235, 120)
BLOCKED_COLOUR: RGB = (255, 70, 70)
COVER_COLOUR: RGB = (255, 170, 40)
WOUND_COLOURS = {"light": (250, 220, 60), "grave": (250, 130, 40), "mortal": (230, 30, 30)}
CONDITION_LETTERS = {
    "burning": ("B", (255, 120, 30)),
    "stunned": ("S", (220, 220, 90)),
    "shock": ("K", (200, 120, 255)),
    "blinded": ("X", (200, 200, 200)),
    "out_of_combat": ("O", (160, 160, 160)),
    "stabilised": ("+", (120, 220, 140)),
    "dead": ("†", (120, 120, 120)),
}
STANCE_LETTERS = {"standing": "", "crouched": "C", "prone": "P"}
#: Tokens: the figure's ink, the active unit's ring and chevron, the selected unit's ring.
FIGURE_COLOUR: RGB = (16, 18, 26)
ACTIVE_COLOUR: RGB = (255, 236, 120)
SELECTED_COLOUR: RGB = (255, 255, 255)
#: Below this radius (a cell of ~17 px) a token shows a stance letter instead of a figure.
FIGURE_MIN_RADIUS = 7
#: Names are written under tokens from this cell size on, at most this many characters.
NAME_MIN_CELL = 28
NAME_CHARS = 16
#: The base's shape for each side, in the order of the battle's factions: (corners, turn°);
#: 0 corners is a circle.
PLATE_SIDES: tuple[tuple[int, float], ...] = (
    (0, 0.0), (4, 0.0), (4, 45.0), (6, 0.0), (3, -90.0), (8, 22.5),
)  # fmt: skip
GRID_ALPHA = 40
#: Badges over a target or a path's end: font sizes (pygame's default font), padding, colours.
BADGE_TITLE = 34
BADGE_LINE = 22
BADGE_PAD = 5
BADGE_BACK = (12, 14, 20, 215)
BANNER_FONT = 30
SHIELD_COLOUR = (120, 200, 255, 255)
#: Pixels of board chunks kept (about 64 MB with the views they are drawn from); the least
#: recently shown go first.
CHUNK_BUDGET = 16_000_000
#: Seconds a frame that drew no chunk of its own may spend drawing chunks ahead of need: those
#: within PREFETCH_MARGIN screen pixels of the view, then the view at the next zoom steps. The
#: work comes in pieces of a few ms.
PREFETCH_SECONDS = 0.002
PREFETCH_MARGIN = 256
#: Surfaces of dropped chunks kept to draw new chunks on.
SPARE_CHUNKS = 8
#: New chunks a frame draws for the view at most, where the board has a frame budget (the
#: window's, `Board(frame_chunks=...)`): a view that jumps (following the acting unit) needs
#: a screenful of new chunks, each drawn, composed, scaled and overlaid (about 10 ms at zoom
#: 1.5), and drawing them all at once made that frame the slowest of a battle. The middle of
#: the view comes first; the others show the same chunk kept at another zoom, scaled, or the
#: background, until the next frames draw them.
FRAME_CHUNKS = 1


@dataclass(frozen=True)
class Token:
    """A unit as the board draws it: where, whose, how hurt (the board dims it below the level
    in view and outlines it above)."""

    id: str
    cell: Cell
    colour: RGB
    stance: str
    wounds: Mapping[str, object]
    own: bool
    ghost: bool = False
    active: bool = False
    selected: bool = False
    #: The side's place in the battle's factions (its base's shape); -1 neutral.
    side: int = -1
    #: The pips of a ruleset with its own health (issue 16: UnitView.health, worst first,
    #: "mortal", "grave", "light"), drawn instead of `wounds`' periferie counts; None: those.
    pips: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Badge:
    """Words over a cell of the board, where the eye already is: a target's hit chance and its
    cover, a path's cost at the pointer. Every number in it comes from a preview."""

    cell: Cell
    title: str
    colour: RGB = (255, 255, 255)
    lines: tuple[str, ...] = ()
    #: The target's Cover% (the preview's), drawn as a shield filled that far; None: no shield.
    shield: int | None = None
    #: "above" the cell (a target: over its token), or "beside" it (a path's end: the token
    #: that walks there stands next to it).
    place: str = "above"


@dataclass
class Overlay:
    """What the previews ask the board to show over the map."""

    reach: Mapping[Cell, int] = field(default_factory=dict)
    dash: Mapping[Cell, int] = field(default_factory=dict)
    reach_limit: int = 1
    path: Sequence[Cell] = ()
    warnings: Sequence[Cell] = ()
    sight: tuple[Cell, Cell] | None = None
    sight_clear: bool = True
    blocked_at: Cell | None = None
    #: Cover: the target cell, the sample fractions hidden, the cells that hid them.
    cover_target: Cell | None = None
    hidden_samples: Sequence[tuple[float, float, float]] = ()
    cover_cells: Sequence[Cell] = ()
    marked: Cell | None = None
    area: Sequence[Cell] = ()
    badges: Sequence[Badge] = ()


class Board:
    """Draws the battlefield into a viewport of the window, through a Camera."""

    def __init__(
        self,
        render: RenderMap,
        viewport: tuple[int, int, int, int],
        frame_chunks: int | None = None,
    ) -> None:
        self.render = render
        #: New chunks a frame draws at most (FRAME_CHUNKS); None: every chunk in view at once.
        self.frame_chunks = frame_chunks
        #: Chunks in view the last frame could not draw yet (shown by a stand-in).
        self.waiting = 0
        self.levels = LevelRenderer(render)
        self.tile = render.tile_size
        self.cells = render.size
        self.camera = Camera(self.levels.pixel_size(), viewport)
        self.level = 0
        self._fog: pygame.Surface | None = None
        self._fog_rgba: NDArray[np.uint8] | None = None
        self._fog_version = 0
        self._reach: pygame.Surface | None = None
        self._reach_rgba: NDArray[np.uint8] | None = None
        self._reach_version = 0
        self._chunks: OrderedDict[tuple[int, float, int, int], _Chunk] = OrderedDict()
        self._chunk_pixels = 0
        #: The chunks the last frame showed: never dropped to make room.
        self._showing: set[tuple[int, float, int, int]] = set()
        #: Surfaces of dropped chunks, drawn over again for new ones (fresh megabytes cost more
        #: than the drawing on this kind of machine).
        self._spare: list[pygame.Surface] = []
        self._drawn = 0
        self._grids: dict[float, pygame.Surface] = {}
        self._tokens: dict[tuple[object, ...], pygame.Surface] = {}
        self._font_cache: dict[int, pygame.font.Font] = {}
        self._badges: list[tuple[pygame.Rect, Badge]] = []

    # ------------------------------------------------------------ what tests and benches read

    @property
    def has_fog(self) -> bool:
        return self._fog is not None

    @property
    def has_reach(self) -> bool:
        return self._reach is not None

    @property
    def chunk_pixels(self) -> int:
        """Pixels the kept chunks take (bounded by CHUNK_BUDGET)."""
        return self._chunk_pixels

    @property
    def chunks_drawn(self) -> int:
        """Chunks drawn (with the reach, grid and fog over them) since the board was made."""
        return self._drawn

    def badges_shown(self) -> list[tuple[pygame.Rect, Badge]]:
        """The badges the last frame drew, with the screen rectangle each took."""
        return list(self._badges)

    def showing(self) -> frozenset[tuple[int, float, int, int]]:
        """The chunks (level, zoom, column, row) the last frame showed."""
        return frozenset(self._showing)

    def kept_chunks(self) -> dict[tuple[int, float, int, int], pygame.Surface | None]:
        """The chunks kept, each as last shown (None: not drawn yet)."""
        return {key: chunk.shown for key, chunk in self._chunks.items()}

    def chunks_current(self) -> bool:
        """Every kept chunk was drawn with the fog and reach set last."""
        versions = (self._fog_version, self._reach_version)
        return all(chunk.versions == versions for chunk in self._chunks.values())

    # ------------------------------------------------------------ geometry

    @property
    def viewport(self) -> pygame.Rect:
        return pygame.Rect(self.camera.viewport)

    def set_viewport(self, viewport: tuple[int, int, int, int]) -> None:
        self.camera.viewport = viewport
        self.camera.clamp()

    def cell_centre(self, cell: Cell | tuple[float, float]) -> tuple[float, float]:
        """The screen point at the centre of a cell's square (x, y; any level)."""
        tw, th = self.tile
        return self.camera.to_screen((cell[0] + 0.5) * tw, (cell[1] + 0.5) * th)

    def cell_rect(self, cell: Cell | tuple[int, int]) -> pygame.Rect:
        tw, th = self.tile
        x0, y0 = self.camera.to_screen(cell[0] * tw, cell[1] * th)
        x1, y1 = self.camera.to_screen((cell[0] + 1) * tw, (cell[1] + 1) * th)
        return pygame.Rect(round(x0), round(y0), round(x1) - round(x0), round(y1) - round(y0))

    def column_at(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """The map column (x, y) under a screen point, or None off the map or the viewport."""
        if not self.viewport.collidepoint(pos):
            return None
        mx, my = self.camera.to_map(*pos)
        tw, th = self.tile
        x, y = int(mx // tw), int(my // th)
        if 0 <= x < self.cells[0] and 0 <= y < self.cells[1]:
            return x, y
        return None

    def show_cell(self, cell: Cell) -> None:
        tw, th = self.tile
        self.camera.show((cell[0] + 0.5) * tw, (cell[1] + 0.5) * th)

    def focus(self, cell: Cell) -> None:
        """Centre the view on a cell, zoomed in (not out) to where a token reads at a glance."""
        self.camera.zoom = max(self.camera.zoom, readable_zoom(self.tile[0]))
        tw, th = self.tile
        self.camera.centre_on((cell[0] + 0.5) * tw, (cell[1] + 0.5) * th)

    def set_level(self, level: int) -> None:
        level = max(0, min(self.levels.level_count - 1, level))
        if level != self.level:
            self.level = level

    # ------------------------------------------------------------ what is shown

    def set_fog(self, seen: NDArray[np.bool_] | None, remembered: NDArray[np.bool_] | None) -> None:
        """Fog for the level in view: a column is seen when any cell of it at or below the level
        is (open air shows the ground beneath); None: no fog (the GM's view)."""
        rgba = None
        if seen is not None and remembered is not None:
            top = self.level + 1
            seen2 = seen[:, :, :top].any(axis=2)
            rem2 = remembered[:, :, :top].any(axis=2)
            rgba = np.zeros((*seen2.shape, 4), dtype=np.uint8)
            rgba[~rem2] = UNSEEN
            rgba[rem2 & ~seen2] = REMEMBERED
        # The same fog again (a refresh that changed nothing seen) keeps the drawn chunks.
        if _same(rgba, self._fog_rgba):
            return
        self._fog_rgba = rgba
        self._fog = None if rgba is None else _small_surface(rgba)
        self._fog_version += 1

    def set_reach(self, reach: Mapping[Cell, int], dash: Mapping[Cell, int], limit: int) -> None:
        """Reachable cells of the level in view, coloured by the points they cost; dash-only
        cells in amber."""
        w, h = self.cells
        rgba = np.zeros((w, h, 4), dtype=np.uint8)
        top = max(1, limit)
        for (x, y, z), cost in reach.items():
            if z == self.level:
                t = min(1.0, cost / top)
                rgba[x, y, :3] = (REACH_NEAR * (1 - t) + REACH_FAR * t).astype(np.uint8)
                rgba[x, y, 3] = REACH_ALPHA
        for (x, y, z), _cost in dash.items():
            if z == self.level:
                rgba[x, y] = DASH
        shown = rgba if rgba[:, :, 3].any() else None
        if _same(shown, self._reach_rgba):
            return
        self._reach_rgba = shown
        self._reach = None if shown is None else _small_surface(shown)
        self._reach_version += 1

    # ------------------------------------------------------------ drawing

    def draw(
        self,
        screen: pygame.Surface,
        tokens: Sequence[Token],
        overlay: Overlay,
        moving: Mapping[str, tuple[float, float]] | None = None,
    ) -> None:
        """The whole board: the chunks in view, then lines, tokens and markers on top; then,
        if that drew no chunk, a few ms of chunks drawn ahead of need."""
        clip = screen.get_clip()
        screen.set_clip(self.viewport)
        drawn = self._drawn
        self._draw_map(screen)
        self._draw_overlay(screen, overlay)
        for token in sorted(tokens, key=lambda t: (t.cell[2], t.selected, t.active)):
            self._draw_token(screen, token, (moving or {}).get(token.id))
        self._draw_badges(screen, overlay.badges)
        screen.set_clip(clip)
        if self._drawn == drawn:
            self.prefetch(PREFETCH_SECONDS)

    def _draw_map(self, screen: pygame.Surface) -> None:
        """The chunks in view, straight onto the screen; the background where there is no map."""
        cam = self.camera
        view = self.viewport
        ox = view.x + round(-cam.x * cam.zoom)
        oy = view.y + round(-cam.y * cam.zoom)
        width, height = self.levels.pixel_size(cam.zoom)
        if not pygame.Rect(ox, oy, width, height).contains(view):
            screen.fill(BACKGROUND, view)
        visible = self._visible_chunks()
        self._showing = {(self.level, cam.zoom, cx, cy) for cx, cy in visible}
        budget = self.frame_chunks
        if budget is not None:  # the middle of the view first
            mid_x, mid_y = view.centerx - ox, view.centery - oy
            visible.sort(
                key=lambda c: _distance(self.levels.chunk_rect(c[0], c[1], cam.zoom), mid_x, mid_y)
            )
        self.waiting = 0
        blits = []
        for cx, cy in visible:
            rect = self.levels.chunk_rect(cx, cy, cam.zoom)
            at = (ox + rect.x, oy + rect.y)
            if (
                budget is not None
                and (self.level, cam.zoom, cx, cy) not in self._chunks
                and not self.levels.is_ready(self.level, cam.zoom, cx, cy)
            ):  # its map not drawn yet at this zoom (a chunk drawn ahead is only overlaid)
                if budget <= 0:
                    self.waiting += 1
                    self._stand_in(screen, cam.zoom, cx, cy, pygame.Rect(at, rect.size))
                    continue
                budget -= 1
            blits.append((self._chunk(cam.zoom, cx, cy), at))
        screen.blits(blits, doreturn=False)

    def _stand_in(
        self, screen: pygame.Surface, zoom: float, cx: int, cy: int, place: pygame.Rect
    ) -> None:
        """What a chunk not drawn yet shows meanwhile: the same chunk drawn at another zoom,
        scaled to this one (pixels repeated: quick), or the background."""
        for (level, other, x, y), chunk in self._chunks.items():
            if (level, x, y) == (self.level, cx, cy) and other != zoom and chunk.shown is not None:
                picture = chunk.shown
                screen.blit(
                    pygame.transform.scale(picture, place.size, scratch(place.size, picture)),
                    place,
                )
                return
        screen.fill(BACKGROUND, place)

    def _visible_chunks(self, grow: float = 0.0) -> list[tuple[int, int]]:
        """The chunks the viewport shows, and those within `grow` map pixels of it."""
        cam = self.camera
        vw, vh = cam.view_size
        tw, th = self.tile
        side_x, side_y = self.levels.chunk_cells * tw, self.levels.chunk_cells * th
        nx, ny = self.levels.chunk_counts
        x0 = max(0, int((cam.x - grow) // side_x))
        y0 = max(0, int((cam.y - grow) // side_y))
        x1 = min(nx, int((cam.x + vw + grow) // side_x) + 1)
        y1 = min(ny, int((cam.y + vh + grow) // side_y) + 1)
        return [(cx, cy) for cy in range(y0, y1) for cx in range(x0, x1)]

    def _chunk(self, zoom: float, cx: int, cy: int) -> pygame.Surface:
        """Chunk (cx, cy) as the board shows it at `zoom`: the view from the level, the reach
        colours, the grid, the fog; opaque, ready to blit. Its view of the map is kept with it,
        so that new fog or reach redraws it without drawing the map again."""
        key = (self.level, zoom, cx, cy)
        versions = (self._fog_version, self._reach_version)
        found = self._chunks.get(key)
        if found is None:
            found = _Chunk(self.levels.view_chunk(self.level, zoom, cx, cy))
            self._make_room(2 * _area(found.view), {key})
            self._chunks[key] = found
            self._chunk_pixels += 2 * _area(found.view)
        else:
            self._chunks.move_to_end(key)
        if found.shown is None or found.versions != versions:
            found.shown = self._overlaid(found, zoom, cx, cy)
            found.versions = versions
            self._drawn += 1
        return found.shown

    def _overlaid(self, found: _Chunk, zoom: float, cx: int, cy: int) -> pygame.Surface:
        size = found.view.get_size()
        chunk = found.shown if found.shown is not None else self._surface(size)
        chunk.fill(BACKGROUND)
        chunk.blit(found.view, (0, 0), special_flags=PREMULTIPLIED)
        cells = self.levels.chunk_rect(cx, cy)
        tw, th = self.tile
        part = pygame.Rect(cells.x // tw, cells.y // th, cells.w // tw, cells.h // th)
        if self._reach is not None:
            _cells_over(chunk, self._reach.subsurface(part))
        if zoom >= 0.75:
            chunk.blit(self._grid(zoom).subsurface(pygame.Rect((0, 0), size)), (0, 0))
        if self._fog is not None:
            _cells_over(chunk, self._fog.subsurface(part))
        return chunk

    def prefetch(self, seconds: float) -> None:
        """Draw chunks before they are needed, for about `seconds`: those around the view, then
        the view at the next zoom steps in and out. Drops only chunks neither shown nor wanted
        to make room."""
        start = time.perf_counter()
        cam = self.camera
        index = min(range(len(ZOOMS)), key=lambda i: abs(ZOOMS[i] - cam.zoom))
        ring = PREFETCH_MARGIN / cam.zoom
        wanted = [(self.level, cam.zoom, *c) for c in self._visible_chunks(ring)]
        # A notch in shows part of the view, wherever the pointer is; a notch out shows the
        # view and up to the difference in width around it.
        if index + 1 < len(ZOOMS):
            wanted += [(self.level, ZOOMS[index + 1], *c) for c in self._visible_chunks()]
        if index > 0:
            grow = cam.viewport[2] / ZOOMS[index - 1] - cam.viewport[2] / cam.zoom
            wanted += [(self.level, ZOOMS[index - 1], *c) for c in self._visible_chunks(grow)]
        keep = set(wanted)
        versions = (self._fog_version, self._reach_version)
        for key in wanted:
            level, zoom, cx, cy = key
            found = self._chunks.get(key)
            if found is not None and found.shown is not None and found.versions == versions:
                continue
            if found is None:
                if not self.levels.is_ready(level, zoom, cx, cy):
                    self.levels.prepare(level, zoom, cx, cy)
                    if time.perf_counter() - start >= seconds:
                        return
                    continue
                w, h = self.levels.chunk_rect(cx, cy, zoom).size
                if not self._make_room(2 * w * h, keep):
                    return
            self._chunk(zoom, cx, cy)
            if time.perf_counter() - start >= seconds:
                return

    def _make_room(self, pixels: int, keep: set[tuple[int, float, int, int]]) -> bool:
        """Drop the least recently shown chunks, but neither those in `keep` nor those on
        screen, until `pixels` more fit in the budget; whether they do."""
        for key in list(self._chunks):
            if self._chunk_pixels + pixels <= CHUNK_BUDGET:
                break
            if key not in keep and key not in self._showing:
                dropped = self._chunks.pop(key)
                self._chunk_pixels -= 2 * _area(dropped.view)
                if dropped.shown is not None and len(self._spare) < SPARE_CHUNKS:
                    self._spare.append(dropped.shown)
        return self._chunk_pixels + pixels <= CHUNK_BUDGET

    def _surface(self, size: tuple[int, int]) -> pygame.Surface:
        """An opaque surface for a chunk: a dropped chunk's of that size, else a new one."""
        for i, spare in enumerate(self._spare):
            if spare.get_size() == size:
                return self._spare.pop(i)
        return _opaque(size)

    def _grid(self, zoom: float) -> pygame.Surface:
        """Faint lines along the left and top edges of every cell of a whole chunk."""
        if zoom not in self._grids:
            tw, th = self.tile
            cells = self.levels.chunk_cells
            size = (round(cells * tw * zoom), round(cells * th * zoom))
            lines = pygame.Surface(size, pygame.SRCALPHA)
            colour = (0, 0, 0, GRID_ALPHA)
            for i in range(cells):
                x, y = round(i * tw * zoom), round(i * th * zoom)
                pygame.draw.line(lines, colour, (x, 0), (x, size[1] - 1))
                pygame.draw.line(lines, colour, (0, y), (size[0] - 1, y))
            self._grids[zoom] = lines
        return self._grids[zoom]

    def _draw_overlay(self, screen: pygame.Surface, o: Overlay) -> None:
        for cell in o.area:
            if cell[2] == self.level:
                pygame.draw.rect(screen, WARN_COLOUR, self.cell_rect(cell), 2)
        if len(o.path) > 1:
            points = [self.cell_centre(c) for c in o.path]
            pygame.draw.lines(screen, (0, 0, 0), False, points, 5)
            pygame.draw.lines(screen, PATH_COLOUR, False, points, 3)
            end = self.cell_rect(o.path[-1])
            pygame.draw.rect(screen, PATH_COLOUR, end, 2)
        for cell in o.warnings:
            centre = self.cell_centre(cell)
            pygame.draw.circle(screen, WARN_COLOUR, centre, max(5, self._scale(7)))
            pygame.draw.circle(screen, (255, 255, 255), centre, max(5, self._scale(7)), 1)
            mark = self._font(12).render("!", True, (255, 255, 255))
            screen.blit(mark, mark.get_rect(center=(round(centre[0]), round(centre[1]))))
        if o.cover_target is not None and o.sight is not None:
            start = self.cell_centre(o.sight[0])
            tx, ty = o.cover_target[0], o.cover_target[1]
            for fx, fy, _fz in o.hidden_samples:
                sample = self.cell_centre((tx + fx - 0.5, ty + fy - 0.5))
                pygame.draw.line(screen, COVER_COLOUR, start, sample, 1)
            for cell in o.cover_cells:
                pygame.draw.rect(screen, COVER_COLOUR, self.cell_rect(cell), 2)
        if o.sight is not None:
            a, b = (self.cell_centre(c) for c in o.sight)
            colour = CLEAR_COLOUR if o.sight_clear else BLOCKED_COLOUR
            pygame.draw.line(screen, (0, 0, 0), a, b, 4)
            pygame.draw.line(screen, colour, a, b, 2)
            if o.blocked_at is not None:
                r = self.cell_rect(o.blocked_at).inflate(-4, -4)
                pygame.draw.line(screen, BLOCKED_COLOUR, r.topleft, r.bottomright, 3)
                pygame.draw.line(screen, BLOCKED_COLOUR, r.topright, r.bottomleft, 3)
        if o.marked is not None:
            pygame.draw.rect(screen, (255, 255, 255), self.cell_rect(o.marked), 1)

    def draw_banner(self, screen: pygame.Surface, text: str, colour: RGB) -> pygame.Rect:
        """Whose turn it is, in a plate at the top of the board in that side's colour; at the
        bottom while a badge (a hit chance, a cost) sits where it would hide it."""
        words = self._font(BANNER_FONT).render(text, True, (255, 255, 255))
        box = words.get_rect().inflate(24, 10)
        box.midtop = (self.viewport.centerx, self.viewport.top + 6)
        if box.collidelist([shown for shown, _badge in self._badges]) >= 0:
            box.midbottom = (self.viewport.centerx, self.viewport.bottom - 6)
        panel = pygame.Surface(box.size, pygame.SRCALPHA)
        panel.fill((10, 12, 18, 215))
        screen.blit(panel, box)
        pygame.draw.rect(screen, colour, box, 3, border_radius=6)
        screen.blit(words, words.get_rect(center=box.center))
        return box

    def _draw_badges(self, screen: pygame.Surface, badges: Sequence[Badge]) -> None:
        """Each badge in a dark box just above its cell (above the token there), kept inside
        the board."""
        self._badges = []
        if not badges:
            return
        cell_px = max(8, round(self.tile[0] * self.camera.zoom))
        big, small = self._font(BADGE_TITLE), self._font(BADGE_LINE)
        for badge in badges:
            title = big.render(badge.title, True, badge.colour)
            rows = [small.render(line, True, (235, 235, 240)) for line in badge.lines]
            shield = BADGE_LINE if badge.shield is not None else 0
            width = max(
                [title.get_width(), *(r.get_width() + (shield + 4 if i == 0 else 0)
                                      for i, r in enumerate(rows))]
            )  # fmt: skip
            if badge.shield is not None and not rows:
                width = max(width, title.get_width() + shield + 4)
            height = title.get_height() + sum(r.get_height() for r in rows)
            box = pygame.Rect(0, 0, width + 2 * BADGE_PAD, height + 2 * BADGE_PAD)
            cell = self.cell_rect(badge.cell)
            if badge.place == "beside":
                box.midleft = (cell.right + 4, cell.centery)
                if not self.viewport.contains(box):
                    box.midright = (cell.left - 4, cell.centery)
                box = box.clamp(self.viewport)
            else:
                box.midbottom = (cell.centerx, cell.top - max(2, cell_px // 5))
                box = box.clamp(self.viewport)
                if box.colliderect(cell.inflate(-cell.w // 3, -cell.h // 3)):
                    box.top = cell.bottom + max(2, cell_px // 3)  # no room above: below it
                    box = box.clamp(self.viewport)
            panel = pygame.Surface(box.size, pygame.SRCALPHA)
            panel.fill(BADGE_BACK)
            screen.blit(panel, box)
            pygame.draw.rect(screen, badge.colour, box, 2, border_radius=4)
            y = box.y + BADGE_PAD
            screen.blit(title, title.get_rect(midtop=(box.centerx, y)))
            y += title.get_height()
            for i, row in enumerate(rows):
                x = box.x + BADGE_PAD
                if i == 0 and badge.shield is not None:
                    _shield(screen, pygame.Rect(x, y, shield, row.get_height()), badge.shield)
                    x += shield + 4
                screen.blit(row, (x, y))
                y += row.get_height()
            self._badges.append((box, badge))

    def _scale(self, pixels: float) -> int:
        return max(1, round(pixels * self.camera.zoom * self.tile[0] / 32))

    def _font(self, size: int) -> pygame.font.Font:
        if size not in self._font_cache:
            self._font_cache[size] = fonts.font(max(1, size * 3 // 4), bold=True)
        return self._font_cache[size]

    def _draw_token(
        self, screen: pygame.Surface, token: Token, at: tuple[float, float] | None
    ) -> None:
        # Units below the level in view are dimmed like their level; units above it are only
        # outlined, so that a player knows someone stands overhead without the cut-away lying.
        where = (
            "below"
            if token.cell[2] < self.level
            else "above"
            if token.cell[2] > self.level
            else "here"
        )
        image = self._token_image(token, where)
        centre = self.cell_centre(token.cell if at is None else at)
        x, y = round(centre[0]), round(centre[1])
        rect = image.get_rect(center=(x, y))
        screen.blit(image, rect)
        cell_px = max(8, round(self.tile[0] * self.camera.zoom))
        if token.active and where == "here" and not token.ghost:
            # The unit whose turn it is: a chevron over it, seen from across the board.
            size = max(6, cell_px // 4)
            top = y - round(cell_px * 0.5) - size - 2
            points = [(x - size, top), (x + size, top), (x, top + size)]
            pygame.draw.polygon(screen, (0, 0, 0), [(a, b + 1) for a, b in points])
            pygame.draw.polygon(screen, ACTIVE_COLOUR, points)
        if cell_px >= NAME_MIN_CELL and where != "above":
            label = self._name_label(token.id, cell_px)
            spot = label.get_rect(midtop=(x, y + round(cell_px * 0.42)))
            screen.blit(label, spot)

    def _name_label(self, name: str, cell_px: int) -> pygame.Surface:
        """A unit's name on a dark plate, sized to read at a glance at the default zoom."""
        size = max(15, min(24, round(cell_px * 0.42)))
        key = ("name", name, size)
        cached = self._tokens.get(key)
        if cached is None:
            text = self._font(size).render(clip(name, NAME_CHARS), True, (255, 255, 255))
            cached = pygame.Surface((text.get_width() + 6, text.get_height()), pygame.SRCALPHA)
            cached.fill((0, 0, 0, 170))
            cached.blit(text, (3, 0))
            self._tokens[key] = cached
        return cached

    def _token_image(self, token: Token, where: str) -> pygame.Surface:
        key = (
            token.id,
            token.colour,
            token.side,
            token.stance,
            repr(sorted(token.wounds.items())),
            token.pips,
            token.own,
            token.ghost,
            token.active,
            token.selected,
            where,
            self.camera.zoom,
        )
        cached = self._tokens.get(key)
        if cached is not None:
            return cached
        if len(self._tokens) > 512:
            self._tokens.clear()
        cell_px = max(8, round(self.tile[0] * self.camera.zoom))
        size = cell_px + 2 * max(4, cell_px // 4)
        image = pygame.Surface((size, size), pygame.SRCALPHA)
        c = size // 2
        radius = max(3, round(cell_px * 0.42))
        colour = token.colour
        if where == "above":
            pygame.draw.circle(image, colour, (c, c), radius, max(2, radius // 4))
            mark = self._font(max(10, radius * 2)).render("^", True, colour)
            image.blit(mark, mark.get_rect(center=(c, c + 2)))
        elif token.ghost:
            pygame.draw.circle(image, (*colour, 110), (c, c), radius, max(1, radius // 4))
            mark = self._font(max(10, radius * 2)).render("?", True, (*colour, 180))
            image.blit(mark, mark.get_rect(center=(c, c)))
        else:
            if token.active:
                pygame.draw.circle(image, ACTIVE_COLOUR, (c, c), radius + max(3, radius // 4))
            if token.selected:
                pygame.draw.circle(image, SELECTED_COLOUR, (c, c), radius + max(3, radius // 3), 2)
            # The base: one shape per side (circle, diamond, square, hexagon...), so sides
            # differ by more than their colour; a white rim for the player's own units.
            rim = (255, 255, 255) if token.own else (10, 10, 14)
            plate(image, (c, c), radius + 2, token.side, rim)
            plate(image, (c, c), radius, token.side, colour)
            if radius >= FIGURE_MIN_RADIUS:
                figure(image, (c, c), radius, token.stance)
            else:
                stance = STANCE_LETTERS.get(token.stance, "")
                if stance:
                    badge = self._font(max(10, radius)).render(stance, True, (255, 255, 255))
                    box = badge.get_rect(topleft=(c + radius // 2, c - radius - 2))
                    pygame.draw.rect(image, (20, 20, 20), box.inflate(2, 0))
                    image.blit(badge, box)
            self._pips(image, token, c, radius)
        if where != "here":
            image.set_alpha(120)
        self._tokens[key] = image
        return image

    def _pips(self, image: pygame.Surface, token: Token, c: int, radius: int) -> None:
        """Wounds as coloured pips down the token's left (worst first; a ruleset's own as it
        gives them), conditions as letter boxes along its bottom right."""
        pips: list[RGB] = []
        if token.pips is not None:
            pips = [WOUND_COLOURS[kind] for kind in token.pips if kind in WOUND_COLOURS]
        else:
            for kind in ("mortal", "grave", "light"):
                count = token.wounds.get(kind, 0)
                if isinstance(count, int):
                    pips += [WOUND_COLOURS[kind]] * count
        pip = max(2, radius // 4)
        x = max(pip + 1, c - radius - 1)
        y = c - radius + pip
        for colour in pips[:6]:
            pygame.draw.circle(image, (0, 0, 0), (x, y), pip + 1)
            pygame.draw.circle(image, colour, (x, y), pip)
            y += 2 * pip + 2
        conditions = token.wounds.get("conditions", ())
        if isinstance(conditions, list | tuple):
            font = self._font(max(12, round(radius * 0.9)))
            right = image.get_width() - 1
            for name in reversed(list(conditions)):
                letter, colour = CONDITION_LETTERS.get(str(name), ("?", (200, 200, 200)))
                text = font.render(letter, True, (0, 0, 0))
                box = pygame.Rect(0, 0, text.get_width() + 4, text.get_height())
                box.bottomright = (right, min(image.get_height(), c + radius + 3))
                pygame.draw.rect(image, colour, box)
                pygame.draw.rect(image, (0, 0, 0), box, 1)
                image.blit(text, text.get_rect(center=box.center))
                right -= box.width + 1


def plate(
    image: pygame.Surface, centre: tuple[int, int], radius: int, side: int, colour: RGB
) -> None:
    """A token's base in its side's shape: circle, diamond, square, hexagon, triangle, octagon."""
    shape = side % len(PLATE_SIDES) if side >= 0 else 0
    corners, turn = PLATE_SIDES[shape]
    if corners == 0:
        pygame.draw.circle(image, colour, centre, radius)
        return
    # Polygons a little larger than the circle, so they read as big as it does.
    r = radius * (1.12 if corners <= 4 else 1.04)
    points = [
        (
            centre[0] + r * math.cos(math.radians(turn + 360 * i / corners)),
            centre[1] + r * math.sin(math.radians(turn + 360 * i / corners)),
        )
        for i in range(corners)
    ]
    pygame.draw.polygon(image, colour, points)


def figure(image: pygame.Surface, centre: tuple[int, int], radius: int, stance: str) -> None:
    """A person drawn by code in the stance the unit is in: upright standing, folded low
    crouched, lying flat prone — told apart at a glance by its outline."""
    cx, cy = centre
    r = radius

    def p(x: float, y: float) -> tuple[float, float]:
        return cx + x * r, cy + y * r

    ink = FIGURE_COLOUR
    limb = max(2, round(r * 0.13))
    if stance == "prone":
        pygame.draw.circle(image, ink, p(-0.58, -0.02), max(2, round(r * 0.17)))
        body = [p(-0.4, -0.15), p(0.22, -0.13), p(0.22, 0.13), p(-0.4, 0.15)]
        pygame.draw.polygon(image, ink, body)
        pygame.draw.line(image, ink, p(0.2, -0.07), p(0.75, -0.12), limb)
        pygame.draw.line(image, ink, p(0.2, 0.07), p(0.75, 0.12), limb)
        pygame.draw.line(image, ink, p(-0.3, -0.14), p(-0.72, -0.28), limb)
    elif stance == "crouched":
        pygame.draw.circle(image, ink, p(0.05, -0.32), max(2, round(r * 0.17)))
        body = [p(-0.2, -0.14), p(0.24, -0.14), p(0.2, 0.26), p(-0.16, 0.26)]
        pygame.draw.polygon(image, ink, body)
        for side in (-1, 1):
            knee, foot = p(0.42 * side, 0.3), p(0.34 * side, 0.56)
            pygame.draw.line(image, ink, p(0.12 * side, 0.24), knee, limb)
            pygame.draw.line(image, ink, knee, foot, limb)
        pygame.draw.line(image, ink, p(0.22, -0.1), p(0.5, 0.05), limb)
    else:
        pygame.draw.circle(image, ink, p(0, -0.58), max(2, round(r * 0.17)))
        body = [p(-0.24, -0.38), p(0.24, -0.38), p(0.17, 0.14), p(-0.17, 0.14)]
        pygame.draw.polygon(image, ink, body)
        for side in (-1, 1):
            pygame.draw.line(image, ink, p(0.1 * side, 0.1), p(0.16 * side, 0.74), limb)
            pygame.draw.line(image, ink, p(0.24 * side, -0.34), p(0.32 * side, 0.12), limb)


def _shield(screen: pygame.Surface, rect: pygame.Rect, percent: int) -> None:
    """A shield outline filled from the bottom as far as the target is hidden (Cover%)."""
    w, h = rect.w, rect.h
    points = [
        (rect.x, rect.y + 1),
        (rect.right - 1, rect.y + 1),
        (rect.right - 1, rect.y + h * 0.55),
        (rect.centerx, rect.bottom - 1),
        (rect.x, rect.y + h * 0.55),
    ]
    level = max(0, min(100, percent))
    if level:
        fill = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.polygon(fill, SHIELD_COLOUR, [(x - rect.x, y - rect.y) for x, y in points])
        cut = round(h * (1 - level / 100))
        fill.fill((0, 0, 0, 0), pygame.Rect(0, 0, w, cut))
        screen.blit(fill, rect)
    pygame.draw.polygon(screen, (235, 235, 240), points, 2)


@dataclass
class _Chunk:
    """A chunk of the board: the map's view at one zoom, and the same with the reach, grid and
    fog over it as of `versions` (of the fog and the reach)."""

    view: pygame.Surface
    shown: pygame.Surface | None = None
    versions: tuple[int, int] = (-1, -1)


def _cells_over(chunk: pygame.Surface, cells: pygame.Surface) -> None:
    """A one-pixel-per-cell surface stretched over a chunk and blended onto it."""
    size = chunk.get_size()
    chunk.blit(pygame.transform.scale(cells, size, scratch(size, cells)), (0, 0))


def _area(surface: pygame.Surface) -> int:
    return surface.get_width() * surface.get_height()


def _distance(rect: pygame.Rect, x: float, y: float) -> float:
    return (rect.centerx - x) ** 2 + (rect.centery - y) ** 2


def _same(a: NDArray[np.uint8] | None, b: NDArray[np.uint8] | None) -> bool:
    if a is None or b is None:
        return a is b
    return a.shape == b.shape and bool(np.array_equal(a, b))


def _opaque(size: tuple[int, int]) -> pygame.Surface:
    """A surface without alpha, in the display's format when there is one (the fastest blit)."""
    display = pygame.display.get_surface() if pygame.display.get_init() else None
    return pygame.Surface(size) if display is None else pygame.Surface(size, 0, display)


def _small_surface(rgba: NDArray[np.uint8]) -> pygame.Surface:
    """A surface of one pixel per cell from an [x, y, rgba] array."""
    w, h = rgba.shape[0], rgba.shape[1]
    surface = pygame.Surface((w, h), pygame.SRCALPHA, 32)
    pixels = pygame.surfarray.pixels3d(surface)
    pixels[...] = rgba[:, :, :3]
    del pixels
    alpha = pygame.surfarray.pixels_alpha(surface)
    alpha[...] = rgba[:, :, 3]
    del alpha
    return surface


def faction_colours(factions: Sequence[str]) -> dict[str, RGB]:
    return {f: FACTION_COLOURS[i % len(FACTION_COLOURS)] for i, f in enumerate(factions)}
