"""The battlefield on screen: the map's levels, fog, reach, paths, sight lines and unit tokens.

It draws what the player's view and the previews say; it computes no rule. The map, the fog and
the reach colours are drawn into a frame cached until the camera, the level or what they show
changes, so that a still frame costs one blit plus the tokens and the lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pygame
from numpy.typing import NDArray

from game.grid.model import Cell
from game.maps import RenderMap
from game.ui.camera import Camera
from game.ui.tiles import PREMULTIPLIED, LevelRenderer

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
REACH_NEAR = np.array([110, 190, 255], dtype=np.float32)
REACH_FAR = np.array([40, 90, 210], dtype=np.float32)
REACH_ALPHA = 105
DASH = (240, 170, 40, 95)
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


@dataclass(frozen=True)
class Token:
    """A unit as the board draws it: where, whose, how hurt. `level_offset` < 0: below the
    level in view (drawn dimmed)."""

    id: str
    cell: Cell
    colour: RGB
    stance: str
    wounds: Mapping[str, object]
    own: bool
    ghost: bool = False
    active: bool = False
    selected: bool = False


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


class Board:
    """Draws the battlefield into a viewport of the window, through a Camera."""

    def __init__(self, render: RenderMap, viewport: tuple[int, int, int, int]) -> None:
        self.render = render
        self.levels = LevelRenderer(render)
        self.tile = render.tile_size
        self.cells = render.size
        self.camera = Camera(self.levels.pixel_size(), viewport)
        self.level = 0
        self._frame: pygame.Surface | None = None
        self._frame_key: tuple[object, ...] = ()
        self._fog: pygame.Surface | None = None
        self._fog_version = 0
        self._reach: pygame.Surface | None = None
        self._reach_version = 0
        self._tokens: dict[tuple[object, ...], pygame.Surface] = {}
        self._font_cache: dict[int, pygame.font.Font] = {}

    # ------------------------------------------------------------ geometry

    @property
    def viewport(self) -> pygame.Rect:
        return pygame.Rect(self.camera.viewport)

    def set_viewport(self, viewport: tuple[int, int, int, int]) -> None:
        self.camera.viewport = viewport
        self.camera.clamp()
        self._frame = None

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

    def set_level(self, level: int) -> None:
        level = max(0, min(self.levels.level_count - 1, level))
        if level != self.level:
            self.level = level
            self._frame = None

    # ------------------------------------------------------------ what is shown

    def set_fog(self, seen: NDArray[np.bool_] | None, remembered: NDArray[np.bool_] | None) -> None:
        """Fog for the level in view: a column is seen when any cell of it at or below the level
        is (open air shows the ground beneath); None: no fog (the GM's view)."""
        if seen is None or remembered is None:
            self._fog = None
        else:
            top = self.level + 1
            seen2 = seen[:, :, :top].any(axis=2)
            rem2 = remembered[:, :, :top].any(axis=2)
            rgba = np.zeros((*seen2.shape, 4), dtype=np.uint8)
            rgba[~rem2] = UNSEEN
            rgba[rem2 & ~seen2] = REMEMBERED
            self._fog = _small_surface(rgba)
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
        self._reach = _small_surface(rgba) if reach or dash else None
        self._reach_version += 1

    # ------------------------------------------------------------ drawing

    def draw(
        self,
        screen: pygame.Surface,
        tokens: Sequence[Token],
        overlay: Overlay,
        moving: Mapping[str, tuple[float, float]] | None = None,
    ) -> None:
        """The whole board: the cached frame, then lines, tokens and markers on top."""
        clip = screen.get_clip()
        screen.set_clip(self.viewport)
        screen.blit(self._static_frame(), self.viewport.topleft)
        self._draw_overlay(screen, overlay)
        for token in sorted(tokens, key=lambda t: (t.cell[2], t.selected, t.active)):
            self._draw_token(screen, token, (moving or {}).get(token.id))
        screen.set_clip(clip)

    def _static_frame(self) -> pygame.Surface:
        cam = self.camera
        key = (
            round(cam.x, 2),
            round(cam.y, 2),
            cam.zoom,
            cam.viewport,
            self.level,
            self._fog_version,
            self._reach_version,
        )
        if self._frame is not None and key == self._frame_key:
            return self._frame
        vw, vh = cam.viewport[2], cam.viewport[3]
        if self._frame is None or self._frame.get_size() != (vw, vh):
            self._frame = pygame.Surface((vw, vh))
        frame = self._frame
        frame.fill(BACKGROUND)
        level = self.levels.compose_levels(self.level, cam.zoom)
        origin = (round(-cam.x * cam.zoom), round(-cam.y * cam.zoom))
        frame.blit(level, origin, special_flags=PREMULTIPLIED)
        if self._reach is not None:
            self._blit_cells(frame, self._reach)
        if cam.zoom >= 0.75:
            self._grid_lines(frame)
        if self._fog is not None:
            self._blit_cells(frame, self._fog)
        self._frame_key = key
        return frame

    def _visible_cells(self) -> tuple[int, int, int, int]:
        tw, th = self.tile
        cam = self.camera
        vw, vh = cam.view_size
        x0 = max(0, int(cam.x // tw))
        y0 = max(0, int(cam.y // th))
        x1 = min(self.cells[0], int((cam.x + vw) // tw) + 1)
        y1 = min(self.cells[1], int((cam.y + vh) // th) + 1)
        return x0, y0, x1, y1

    def _blit_cells(self, frame: pygame.Surface, cells: pygame.Surface) -> None:
        """A one-pixel-per-cell surface scaled to the cells in view and laid over the frame."""
        x0, y0, x1, y1 = self._visible_cells()
        if x1 <= x0 or y1 <= y0:
            return
        tw, th = self.tile
        cam = self.camera
        left, top = cam.to_screen(x0 * tw, y0 * th)
        right, bottom = cam.to_screen(x1 * tw, y1 * th)
        vx, vy = cam.viewport[0], cam.viewport[1]
        size = (round(right) - round(left), round(bottom) - round(top))
        if size[0] <= 0 or size[1] <= 0:
            return
        part = cells.subsurface(pygame.Rect(x0, y0, x1 - x0, y1 - y0))
        frame.blit(pygame.transform.scale(part, size), (round(left) - vx, round(top) - vy))

    def _grid_lines(self, frame: pygame.Surface) -> None:
        x0, y0, x1, y1 = self._visible_cells()
        tw, th = self.tile
        cam = self.camera
        vx, vy = cam.viewport[0], cam.viewport[1]
        colour = (0, 0, 0)
        lines = pygame.Surface(frame.get_size(), pygame.SRCALPHA)
        top = cam.to_screen(0, y0 * th)[1] - vy
        bottom = cam.to_screen(0, y1 * th)[1] - vy
        left = cam.to_screen(x0 * tw, 0)[0] - vx
        right = cam.to_screen(x1 * tw, 0)[0] - vx
        for x in range(x0, x1 + 1):
            sx = cam.to_screen(x * tw, 0)[0] - vx
            pygame.draw.line(lines, (*colour, 40), (sx, top), (sx, bottom))
        for y in range(y0, y1 + 1):
            sy = cam.to_screen(0, y * th)[1] - vy
            pygame.draw.line(lines, (*colour, 40), (left, sy), (right, sy))
        frame.blit(lines, (0, 0))

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

    def _scale(self, pixels: float) -> int:
        return max(1, round(pixels * self.camera.zoom * self.tile[0] / 32))

    def _font(self, size: int) -> pygame.font.Font:
        if size not in self._font_cache:
            self._font_cache[size] = pygame.font.Font(None, size)
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
        rect = image.get_rect(center=(round(centre[0]), round(centre[1])))
        screen.blit(image, rect)

    def _token_image(self, token: Token, where: str) -> pygame.Surface:
        key = (
            token.id,
            token.colour,
            token.stance,
            repr(sorted(token.wounds.items())),
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
        radius = max(3, round(cell_px * 0.38))
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
                pygame.draw.circle(image, (255, 255, 255), (c, c), radius + max(2, radius // 3))
            if token.selected:
                pygame.draw.circle(image, (255, 230, 90), (c, c), radius + max(3, radius // 2), 2)
            pygame.draw.circle(image, (10, 10, 14), (c, c), radius + 1)
            pygame.draw.circle(image, colour, (c, c), radius)
            if token.own:
                pygame.draw.circle(image, (255, 255, 255), (c, c), max(2, radius // 3))
            stance = STANCE_LETTERS.get(token.stance, "")
            if stance:
                badge = self._font(max(10, radius)).render(stance, True, (255, 255, 255))
                box = badge.get_rect(topleft=(c + radius // 2, c - radius - 2))
                pygame.draw.rect(image, (20, 20, 20), box.inflate(2, 0))
                image.blit(badge, box)
            self._pips(image, token, c, radius)
        if radius >= 8:
            label = self._font(max(11, min(18, radius))).render(token.id, True, (255, 255, 255))
            back = pygame.Surface(label.get_size(), pygame.SRCALPHA)
            back.fill((0, 0, 0, 150))
            spot = label.get_rect(midtop=(c, min(size - label.get_height(), c + radius)))
            image.blit(back, spot)
            image.blit(label, spot)
        if where != "here":
            image.set_alpha(120)
        self._tokens[key] = image
        return image

    def _pips(self, image: pygame.Surface, token: Token, c: int, radius: int) -> None:
        pips: list[RGB] = []
        for kind in ("mortal", "grave", "light"):
            count = token.wounds.get(kind, 0)
            if isinstance(count, int):
                pips += [WOUND_COLOURS[kind]] * count
        pip = max(2, radius // 4)
        x = c - radius
        y = c - radius - pip
        for colour in pips:
            pygame.draw.circle(image, (0, 0, 0), (x, y), pip + 1)
            pygame.draw.circle(image, colour, (x, y), pip)
            x += 2 * pip + 2
        conditions = token.wounds.get("conditions", ())
        if isinstance(conditions, list | tuple):
            font = self._font(max(10, radius))
            x = c - radius
            for name in conditions:
                letter, colour = CONDITION_LETTERS.get(str(name), ("?", (200, 200, 200)))
                text = font.render(letter, True, (0, 0, 0))
                box = pygame.Rect(0, 0, text.get_width() + 4, text.get_height())
                box.bottomleft = (x, c + radius + 2)
                pygame.draw.rect(image, colour, box)
                image.blit(text, text.get_rect(center=box.center))
                x += box.width + 1


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
