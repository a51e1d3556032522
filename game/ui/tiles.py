"""Drawing a map's levels as Tiled does: tiles cut from its tilesets, cached per level and zoom."""

from __future__ import annotations

import functools
import math
import sys
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pygame
from numpy.typing import NDArray

from game.maps import FLIP_D, FLIP_H, FLIP_V, RenderLayer, RenderMap, RenderObject, RenderTileset
from game.maps.model import RGB, RGBA

#: How far the levels below the current one are pulled towards DIM_GREY (0 none, 1 all grey).
DIM_AMOUNT = 0.6
DIM_GREY: RGB = (34, 36, 42)
#: Zoom factors kept cached besides 1, the one every other zoom is scaled from.
KEPT_ZOOMS = 2
#: The window draws and caches a map in square chunks of this many cells a side: a 128x128
#: level at 32 px is 4096x4096 pixels (64 MB, 256 MB at zoom 2), so it only draws the chunks in
#: view. 16 cells keep every zoom step's chunk a whole number of pixels.
CHUNK_CELLS = 16
#: Pixels of chunks (of every kind and zoom) kept cached, least recently used dropped first:
#: about 32 MB.
CHUNK_BUDGET = 8_000_000
#: Surfaces of dropped chunks kept to draw new chunks on.
SPARE_CHUNKS = 8

#: What LevelRenderer surfaces hold: premultiplied alpha. Blit them with this flag.
PREMULTIPLIED = pygame.BLEND_PREMULTIPLIED


def _has_display() -> bool:
    return bool(pygame.display.get_init()) and pygame.display.get_surface() is not None


def new_surface(size: tuple[int, int]) -> pygame.Surface:
    """A clear 32-bit surface with per-pixel alpha, in the display's format when there is one."""
    display = pygame.display.get_surface() if pygame.display.get_init() else None
    if display is None:
        return pygame.Surface(size, pygame.SRCALPHA, 32)
    # Made in that format at once: converting a new surface would allocate and copy it again.
    masks = _alpha_masks(display.get_bitsize(), display.get_masks())
    return pygame.Surface(size, pygame.SRCALPHA, 32, masks)


@functools.cache
def _alpha_masks(_bits: int, _display_masks: tuple[int, ...]) -> tuple[int, ...]:
    """The masks convert_alpha() gives on a display of that format."""
    return tuple(pygame.Surface((1, 1), pygame.SRCALPHA, 32).convert_alpha().get_masks())


def load_image(path: Path, transparent: RGB | None = None) -> pygame.Surface:
    """An image file as a 32-bit surface with straight alpha; `transparent` pixels become clear,
    as Tiled's "trans" colour makes them."""
    raw = pygame.image.load(str(path))
    image = pygame.Surface(raw.get_size(), pygame.SRCALPHA, 32)
    if raw.get_flags() & pygame.SRCALPHA:
        # Adding onto a clear surface copies every channel exactly, even under alpha 0.
        image.blit(raw, (0, 0), special_flags=pygame.BLEND_RGBA_ADD)
    else:
        # A plain blit honours a palette image's colour key and makes the rest opaque.
        image.blit(raw, (0, 0))
    if transparent is not None:
        rgb = pygame.surfarray.pixels3d(image)
        alpha = pygame.surfarray.pixels_alpha(image)
        alpha[(rgb == np.array(transparent, dtype=np.uint8)).all(axis=2)] = 0
        del rgb, alpha
    return image.convert_alpha() if _has_display() else image


def flipped(tile: pygame.Surface, flags: int) -> pygame.Surface:
    """`tile` with Tiled's flip flags applied: the diagonal flip (a transpose) first, then the
    horizontal and vertical flips, as Tiled defines them."""
    out = tile
    if flags & FLIP_D:
        # A quarter turn anticlockwise then a vertical flip swaps x and y exactly.
        out = pygame.transform.flip(pygame.transform.rotate(out, 90), False, True)
    if flags & (FLIP_H | FLIP_V):
        out = pygame.transform.flip(out, bool(flags & FLIP_H), bool(flags & FLIP_V))
    return out if out is not tile else tile.copy()


def premultiplied(
    surface: pygame.Surface, opacity: float = 1.0, tint: RGBA | None = None
) -> pygame.Surface:
    """A premultiplied copy of a straight-alpha surface, faded by `opacity` and multiplied by
    `tint` (Tiled's tint: colour times tint colour, alpha times tint alpha)."""
    r, g, b, a = tint if tint is not None else (255, 255, 255, 255)
    fade = max(0.0, min(1.0, opacity)) * a / 255
    out = surface.copy()
    rgb = pygame.surfarray.pixels3d(out)
    alpha = pygame.surfarray.pixels_alpha(out)
    # One rounding for premultiplying, fading and tinting together (pygame's multiply blend
    # truncates, which would darken every faded layer by up to a level).
    faded = alpha * np.float32(fade)
    colour = np.array([r, g, b], dtype=np.float32) / 255
    rgb[...] = (rgb * (faded[..., None] / 255) * colour + 0.5).astype(np.uint8)
    alpha[...] = (faded + 0.5).astype(np.uint8)
    del rgb, alpha
    return out


def resampled(
    surface: pygame.Surface, size: tuple[int, int], fx: float = 0.0, fy: float = 0.0
) -> pygame.Surface:
    """A premultiplied surface stretched to `size` and moved `fx`, `fy` (each in [0, 1)) pixels
    right and down of a whole pixel, as Qt's smooth drawing does it for Tiled: every pixel whose
    centre the image covers takes the bilinear mix of the two source pixels nearest to where
    that centre falls, edges repeated. Blit the result at the position _place gives."""
    if size == surface.get_size() and fx == 0 and fy == 0:
        return surface
    pixels = np.dstack(
        [pygame.surfarray.pixels3d(surface), pygame.surfarray.pixels_alpha(surface)]
    ).astype(np.float32)
    for axis, (n_out, fraction) in enumerate(zip(size, (fx, fy), strict=True)):
        n_in = pixels.shape[axis]
        if n_in == n_out and fraction == 0:
            continue
        # Past half a pixel the covered centres start one pixel further on (see _place).
        start = 1 if fraction >= 0.5 else 0
        centres = np.arange(start, start + n_out) + 0.5 - fraction
        where = centres * (n_in / n_out) - 0.5
        below = np.floor(where)
        shape = [1, 1, 1]
        shape[axis] = n_out
        weight = (where - below).astype(np.float32).reshape(shape)
        first = np.clip(below.astype(np.int64), 0, n_in - 1)
        second = np.clip(below.astype(np.int64) + 1, 0, n_in - 1)
        pixels = (
            np.take(pixels, first, axis=axis) * (1 - weight)
            + np.take(pixels, second, axis=axis) * weight
        )
    rounded = np.minimum(pixels + 0.5, 255).astype(np.uint8)
    result = new_surface(size)
    pygame.surfarray.blit_array(result, rounded[..., :3])
    pygame.surfarray.pixels_alpha(result)[...] = rounded[..., 3]
    return result


def _place(value: float, resample: bool) -> tuple[int, float]:
    """Where Tiled (Qt) puts an image at a fractional position, as (pixel, fraction): a plain
    image snaps to the nearest pixel (halves up); a flipped, turned or scaled one is resampled,
    covering the pixels whose centres fall inside it (see resampled). Fractions within a
    hundredth of a pixel are float noise, not placement."""
    if not resample:
        return math.floor(value + 0.5), 0.0
    whole = math.floor(value + 0.005)
    fraction = value - whole
    if fraction < 0.005:
        return whole, 0.0
    return whole + (1 if fraction >= 0.5 else 0), fraction


def straight_alpha(surface: pygame.Surface) -> pygame.Surface:
    """A straight-alpha copy of a premultiplied surface (to save it or blit it without
    PREMULTIPLIED)."""
    out = surface.copy()
    rgb = pygame.surfarray.pixels3d(out)
    alpha = pygame.surfarray.pixels_alpha(out)
    seen = alpha > 0
    a = alpha[seen].astype(np.uint32)[:, None]
    rgb[seen] = np.minimum(255, (rgb[seen].astype(np.uint32) * 255 + a // 2) // a)
    del rgb, alpha
    return out


class TileAtlas:
    """The tile images of one map: each tileset image loaded once, tiles cut from it on first
    use, flipped variants cached. Surfaces hold straight alpha."""

    def __init__(self, render: RenderMap) -> None:
        self.render = render
        self._images: dict[tuple[Path, RGB | None], pygame.Surface] = {}
        self._tiles: dict[tuple[int, int], pygame.Surface | None] = {}

    def image(self, path: Path, transparent: RGB | None = None) -> pygame.Surface:
        """An image file, loaded once."""
        key = (path, transparent)
        if key not in self._images:
            self._images[key] = load_image(path, transparent)
        return self._images[key]

    def tile(self, gid: int, flags: int = 0) -> pygame.Surface | None:
        """The tile `gid` (flip bits removed) with its FLIP_* `flags` applied, or None when no
        tileset holds an image for it. Do not draw on the result: it is shared."""
        key = (gid, flags)
        if key not in self._tiles:
            if flags:
                base = self.tile(gid)
                self._tiles[key] = flipped(base, flags) if base is not None else None
            else:
                self._tiles[key] = self._cut(gid)
        return self._tiles[key]

    def _cut(self, gid: int) -> pygame.Surface | None:
        tileset = self.render.tileset_for(gid)
        if tileset is None:
            return None
        local = gid - tileset.first_gid
        if tileset.image is None:
            path = tileset.tile_images.get(local)
            return self.image(path).copy() if path is not None else None
        if tileset.columns <= 0:
            return None
        sheet = self.image(tileset.image, tileset.transparent)
        width, height = tileset.tile_size
        column, row = local % tileset.columns, local // tileset.columns
        rect = pygame.Rect(
            tileset.margin + column * (width + tileset.spacing),
            tileset.margin + row * (height + tileset.spacing),
            width,
            height,
        )
        if not sheet.get_rect().contains(rect):
            return None
        return sheet.subsurface(rect).copy()


class LevelRenderer:
    """Draws one map level by level, as Tiled draws the same layers, into surfaces cached per
    (level, zoom) until invalidate(). The surfaces hold premultiplied alpha: blit them with
    special_flags=PREMULTIPLIED (or convert them with straight_alpha)."""

    def __init__(self, render: RenderMap, atlas: TileAtlas | None = None) -> None:
        self.render = render
        self.atlas = atlas if atlas is not None else TileAtlas(render)
        self._levels: dict[int, pygame.Surface] = {}
        self._composed: dict[int, pygame.Surface] = {}
        self._scaled: dict[tuple[str, int, float], pygame.Surface] = {}
        self._zooms: OrderedDict[float, None] = OrderedDict()
        self._variants: dict[
            tuple[int, int, float, RGBA | None, tuple[float, float]], _Variant | None
        ] = {}
        #: Cells a side of a chunk (CHUNK_CELLS when this renderer was made).
        self.chunk_cells = CHUNK_CELLS
        self._chunks: OrderedDict[tuple[str, int, float, int, int], pygame.Surface] = OrderedDict()
        self._chunk_pixels = 0
        self._spare: list[pygame.Surface] = []
        self._margins: dict[int, tuple[int, int]] = {}

    @property
    def level_count(self) -> int:
        return len(self.render.levels)

    def pixel_size(self, zoom: float = 1.0) -> tuple[int, int]:
        """The size of a level surface at `zoom`: the map's tiles, scaled."""
        (cols, rows), (tw, th) = self.render.size, self.render.tile_size
        return max(1, round(cols * tw * zoom)), max(1, round(rows * th * zoom))

    def level(self, z: int, zoom: float = 1.0) -> pygame.Surface:
        """Level `z` alone: its visible tile, image and tile-object layers in Tiled's order."""
        self._check(z, zoom)
        if z not in self._levels:
            surface = new_surface(self.pixel_size())
            for layer in self.render.levels[z]:
                self.draw_layer(surface, layer)
            self._levels[z] = surface
        return self._zoomed("level", z, zoom, self._levels[z])

    def compose_levels(self, current_level: int, zoom: float = 1.0) -> pygame.Surface:
        """The view from `current_level`: the levels below it dimmed, it sharp on top, the levels
        above cut away."""
        self._check(current_level, zoom)
        if current_level not in self._composed:
            surface = new_surface(self.pixel_size())
            for z in range(current_level):
                surface.blit(self.level(z), (0, 0), special_flags=PREMULTIPLIED)
            if current_level > 0:
                _dim(surface)
            surface.blit(self.level(current_level), (0, 0), special_flags=PREMULTIPLIED)
            self._composed[current_level] = surface
        return self._zoomed("composed", current_level, zoom, self._composed[current_level])

    def invalidate(self, level: int | None = None) -> None:
        """Forget the drawings of `level` (and the views that show it), or of every level."""
        if level is None:
            self._levels.clear()
            self._composed.clear()
            self._scaled.clear()
            self._chunks.clear()
            self._chunk_pixels = 0
            return
        for chunk in list(self._chunks):
            if (chunk[0] == "level" and chunk[1] == level) or (
                chunk[0] == "view" and chunk[1] >= level
            ):
                self._chunk_pixels -= _area(self._chunks.pop(chunk))
        self._levels.pop(level, None)
        for current in [c for c in self._composed if c >= level]:
            del self._composed[current]
        for key in list(self._scaled):
            kind, z, _ = key
            if (kind == "level" and z == level) or (kind == "composed" and z >= level):
                del self._scaled[key]

    # ------------------------------------------------------------ chunks

    @property
    def chunk_pixels(self) -> int:
        """Pixels the kept chunks take (bounded by CHUNK_BUDGET)."""
        return self._chunk_pixels

    @property
    def chunk_counts(self) -> tuple[int, int]:
        """How many chunks across and down the map is cut into."""
        cols, rows = self.render.size
        return -(-cols // self.chunk_cells), -(-rows // self.chunk_cells)

    def chunk_rect(self, cx: int, cy: int, zoom: float = 1.0) -> pygame.Rect:
        """Where chunk (cx, cy) lies on a level surface at `zoom` (the map's edge cuts the last
        ones short). Chunks at one zoom tile the surface without gaps or overlaps."""
        (cols, rows), (tw, th) = self.render.size, self.render.tile_size
        side = self.chunk_cells
        x0, y0 = cx * side, cy * side
        x1, y1 = min(cols, x0 + side), min(rows, y0 + side)
        left, top = round(x0 * tw * zoom), round(y0 * th * zoom)
        return pygame.Rect(left, top, round(x1 * tw * zoom) - left, round(y1 * th * zoom) - top)

    def level_chunk(self, z: int, cx: int, cy: int) -> pygame.Surface:
        """Chunk (cx, cy) of level `z` alone at zoom 1: the very pixels of that part of
        level(z), drawn without drawing the rest."""
        self._check(z, 1.0)
        key = ("level", z, 1.0, cx, cy)
        found = self._cached_chunk(key)
        if found is None:
            rect = self.chunk_rect(cx, cy)
            found = self._clear_surface(rect.size)
            for layer in self.render.levels[z]:
                self.draw_layer(found, layer, rect.topleft)
            self._keep_chunk(key, found)
        return found

    def view_chunk(self, current_level: int, zoom: float, cx: int, cy: int) -> pygame.Surface:
        """Chunk (cx, cy) of compose_levels(current_level, zoom): the levels below dimmed, the
        current one sharp, the ones above cut away. At zoom 1 its pixels are those of the whole
        view; other zooms scale each chunk on its own (see scaled)."""
        self._check(current_level, zoom)
        key = ("view", current_level, zoom, cx, cy)
        found = self._cached_chunk(key)
        if found is not None:
            return found
        if zoom == 1:
            found = self._clear_surface(self.chunk_rect(cx, cy).size)
            for z in range(current_level):
                found.blit(self.level_chunk(z, cx, cy), (0, 0), special_flags=PREMULTIPLIED)
            if current_level > 0:
                _dim(found)
            found.blit(self.level_chunk(current_level, cx, cy), (0, 0), special_flags=PREMULTIPLIED)
        else:
            found = scaled(
                self.view_chunk(current_level, 1.0, cx, cy), self.chunk_rect(cx, cy, zoom).size
            )
        self._keep_chunk(key, found)
        return found

    def is_ready(self, current_level: int, zoom: float, cx: int, cy: int) -> bool:
        """Whether view_chunk(current_level, zoom, cx, cy) is drawn and cached."""
        return ("view", current_level, zoom, cx, cy) in self._chunks

    def prepare(self, current_level: int, zoom: float, cx: int, cy: int) -> bool:
        """One step towards view_chunk(current_level, zoom, cx, cy) (a level's chunk drawn, the
        levels composed, or the chunk scaled), so that work done ahead of need comes in short
        pieces; False when the chunk is ready."""
        self._check(current_level, zoom)
        steps: list[tuple[tuple[str, int, float, int, int], Callable[[], object]]] = [
            (("level", z, 1.0, cx, cy), functools.partial(self.level_chunk, z, cx, cy))
            for z in range(current_level + 1)
        ]
        steps.append(
            (
                ("view", current_level, 1.0, cx, cy),
                functools.partial(self.view_chunk, current_level, 1.0, cx, cy),
            )
        )
        if zoom != 1:
            steps.append(
                (
                    ("view", current_level, zoom, cx, cy),
                    functools.partial(self.view_chunk, current_level, zoom, cx, cy),
                )
            )
        for key, step in steps:
            if key not in self._chunks:
                step()
                return True
        return False

    def _cached_chunk(self, key: tuple[str, int, float, int, int]) -> pygame.Surface | None:
        found = self._chunks.get(key)
        if found is not None:
            self._chunks.move_to_end(key)
        return found

    def _keep_chunk(self, key: tuple[str, int, float, int, int], surface: pygame.Surface) -> None:
        self._chunks[key] = surface
        self._chunk_pixels += _area(surface)
        while self._chunk_pixels > CHUNK_BUDGET and len(self._chunks) > 1:
            _old, dropped = self._chunks.popitem(last=False)
            self._chunk_pixels -= _area(dropped)
            # Drawn over again for a new chunk, unless someone else still holds it (the board
            # keeps the views it shows): only this loop's name and getrefcount's argument.
            if len(self._spare) < SPARE_CHUNKS and sys.getrefcount(dropped) <= 2:
                self._spare.append(dropped)
            del dropped

    def _clear_surface(self, size: tuple[int, int]) -> pygame.Surface:
        """A clear surface for a chunk: a dropped chunk's of that size, cleared, else a new
        one (fresh megabytes cost more than clearing them)."""
        for i, spare in enumerate(self._spare):
            if spare.get_size() == size:
                surface = self._spare.pop(i)
                surface.fill((0, 0, 0, 0))
                return surface
        return new_surface(size)

    # ------------------------------------------------------------ layers

    def draw_layer(
        self, target: pygame.Surface, layer: RenderLayer, origin: tuple[int, int] = (0, 0)
    ) -> None:
        """Draw one layer at zoom 1 onto a premultiplied `target`, as Tiled would; units layers
        and hidden layers draw nothing. `origin`: the map pixel at the target's top-left corner
        (a chunk of the level); only what falls on the target is drawn."""
        if not layer.visible or layer.opacity <= 0:
            return
        if layer.kind == "tile":
            self._draw_tiles(target, layer, origin)
        elif layer.kind == "image":
            self._draw_image(target, layer, origin)
        elif layer.kind == "object" and not layer.units:
            self._draw_tile_objects(target, layer, origin)

    def _check(self, z: int, zoom: float) -> None:
        if not 0 <= z < self.level_count:
            raise ValueError(f"level {z} does not exist (the map has {self.level_count})")
        if not (math.isfinite(zoom) and zoom > 0):
            raise ValueError(f"zoom {zoom} must be a positive number")

    def _zoomed(self, kind: str, z: int, zoom: float, base: pygame.Surface) -> pygame.Surface:
        if zoom == 1:
            return base
        self._zooms[zoom] = None
        self._zooms.move_to_end(zoom)
        while len(self._zooms) > KEPT_ZOOMS:
            old, _ = self._zooms.popitem(last=False)
            for key in [k for k in self._scaled if k[2] == old]:
                del self._scaled[key]
        key = (kind, z, zoom)
        if key not in self._scaled:
            self._scaled[key] = scaled(base, self.pixel_size(zoom))
        return self._scaled[key]

    def _variant(
        self, gid: int, flags: int, layer: RenderLayer, shift: tuple[float, float] = (0.0, 0.0)
    ) -> _Variant | None:
        """A tile ready to blit: the first frame of an animation, flipped, faded and tinted as
        `layer` says, premultiplied, moved by the sub-pixel `shift`."""
        key = (gid, flags, layer.opacity, layer.tint, shift)
        if key not in self._variants:
            tileset = self.render.tileset_for(gid)
            found = None
            if tileset is not None:
                frames = tileset.animations.get(gid - tileset.first_gid)
                # Tiled draws an animation at its first frame until time advances.
                shown = tileset.first_gid + frames[0][0] if frames else gid
                tile = self.atlas.tile(shown, flags)
                if tile is not None:
                    ready = premultiplied(tile, layer.opacity, layer.tint)
                    found = _Variant(
                        resampled(ready, ready.get_size(), *shift), tileset, tile.get_size()
                    )
            self._variants[key] = found
        return self._variants[key]

    def margin(self, layer: RenderLayer) -> tuple[int, int]:
        """How many cells away from a region a tile of `layer` may lie and still draw into it:
        its tiles' size beyond the grid, tile offsets and the layer's offset, rounded up."""
        assert layer.gids is not None and layer.flags is not None
        if layer.id not in self._margins:
            tw, th = self.render.tile_size
            width, height = tw, th
            for gid in np.unique(layer.gids[layer.gids > 0]).tolist():
                tileset = self.render.tileset_for(gid)
                tile = self.atlas.tile(gid)
                if tileset is None or tile is None:
                    continue
                ox, oy = tileset.tile_offset
                w, h = tile.get_size()
                # A diagonal flip swaps a tile's sides.
                width = max(width, max(w, h) + abs(ox))
                height = max(height, max(w, h) + abs(oy))
            dx, dy = layer.offset
            self._margins[layer.id] = (
                math.ceil((width + abs(dx)) / tw) + 1,
                math.ceil((height + abs(dy)) / th) + 1,
            )
        return self._margins[layer.id]

    def _draw_tiles(
        self, target: pygame.Surface, layer: RenderLayer, origin: tuple[int, int] = (0, 0)
    ) -> None:
        assert layer.gids is not None and layer.flags is not None
        tw, th = self.render.tile_size
        left, top = origin
        gids = layer.gids
        cx0 = cy0 = 0
        if origin != (0, 0) or target.get_size() != self.pixel_size():
            # Only the cells whose tiles may reach the target: the order among them is the
            # order they have among all (a window keeps a lexicographic order).
            mx, my = self.margin(layer)
            width, height = target.get_size()
            cx0, cy0 = max(0, left // tw - mx), max(0, top // th - my)
            cx1 = min(gids.shape[0], (left + width) // tw + mx + 1)
            cy1 = min(gids.shape[1], (top + height) // th + my + 1)
            if cx1 <= cx0 or cy1 <= cy0:
                return
            gids = gids[cx0:cx1, cy0:cy1]
        xs, ys = np.nonzero(gids)
        xs, ys = xs + cx0, ys + cy0
        order = self.render.render_order
        # Overlapping tiles (taller than the grid, or offset) cover each other in render order.
        sequence = np.lexsort(
            (-xs if order.startswith("left") else xs, -ys if order.endswith("up") else ys)
        )
        xs, ys = xs[sequence], ys[sequence]
        cell_gids = layer.gids[xs, ys].tolist()
        cell_flags = layer.flags[xs, ys].tolist()
        # A layer's fractional offset: see _place (flipped tiles are resampled).
        places = {
            resample: tuple(_place(v, resample) for v in layer.offset) for resample in (False, True)
        }
        # Per tile: the surface, where it goes relative to its cell's corner, its area.
        ready: dict[tuple[int, int], tuple[pygame.Surface, int, int, pygame.Rect] | None] = {}
        blits = []
        for x, y, gid, flags in zip(xs.tolist(), ys.tolist(), cell_gids, cell_flags, strict=True):
            key = (gid, flags)
            if key not in ready:
                (dx, fx), (dy, fy) = places[bool(flags)]
                found = self._variant(gid, flags, layer, (fx, fy))
                if found is None:
                    ready[key] = None
                else:
                    ox, oy = found.tileset.tile_offset
                    # Tiled anchors a tile at its cell's bottom-left corner.
                    ready[key] = (
                        found.surface,
                        ox + dx - left,
                        th - found.size[1] + oy + dy - top,
                        found.surface.get_rect(),
                    )
            tile = ready[key]
            if tile is not None:
                surface, px, py, area = tile
                blits.append((surface, (x * tw + px, y * th + py), area, PREMULTIPLIED))
        target.blits(blits, doreturn=False)

    def _draw_image(
        self, target: pygame.Surface, layer: RenderLayer, origin: tuple[int, int] = (0, 0)
    ) -> None:
        if layer.image is None:
            return
        image = premultiplied(
            self.atlas.image(layer.image, layer.transparent), layer.opacity, layer.tint
        )
        w, h = image.get_size()
        (dx, _), (dy, _) = (_place(v, False) for v in layer.offset)
        left, top = origin
        width, height = target.get_size()
        repeat_x, repeat_y = layer.repeat
        # Repeats start one image before the map's corner; those on the target are drawn.
        first_x = dx % w - w + max(0, (left - (dx % w - w)) // w - 1) * w
        first_y = dy % h - h + max(0, (top - (dy % h - h)) // h - 1) * h
        xs = range(first_x, left + width, w) if repeat_x else range(dx, dx + 1)
        ys = range(first_y, top + height, h) if repeat_y else range(dy, dy + 1)
        area = image.get_rect()
        target.blits(
            [(image, (x - left, y - top), area, PREMULTIPLIED) for y in ys for x in xs], False
        )

    def _draw_tile_objects(
        self, target: pygame.Surface, layer: RenderLayer, origin: tuple[int, int] = (0, 0)
    ) -> None:
        objects = list(layer.objects)
        if layer.draw_order == "topdown":
            objects.sort(key=lambda o: o.y)
        for obj in objects:
            if obj.visible and obj.shape == "tile" and obj.gid:
                self._draw_tile_object(target, obj, layer, origin)

    def _draw_tile_object(
        self,
        target: pygame.Surface,
        obj: RenderObject,
        layer: RenderLayer,
        origin: tuple[int, int] = (0, 0),
    ) -> None:
        found = self._variant(obj.gid, 0, layer)
        if found is None:
            return
        tw, th = found.size
        width, height = round(obj.width or tw), round(obj.height or th)
        if width <= 0 or height <= 0:
            return
        # Tiled stretches the tile to the object's size, then flips it: a transpose swaps sides.
        tile = flipped(found.surface, obj.flags) if obj.flags else found.surface
        size = (height, width) if obj.flags & FLIP_D else (width, height)
        ox, oy = found.tileset.tile_offset
        sx, sy = width / tw, height / th
        # The object hangs from its bottom-left corner (x, y), around which it also turns.
        pivot = (-ox * sx, size[1] - oy * sy)
        if obj.rotation:
            tile = _clear_corners(pygame.transform.rotate(resampled(tile, size), -obj.rotation))
            vx, vy = pivot[0] - size[0] / 2, pivot[1] - size[1] / 2
            turn = math.radians(obj.rotation)
            cos, sin = math.cos(turn), math.sin(turn)
            size = tile.get_size()
            pivot = (size[0] / 2 + vx * cos - vy * sin, size[1] / 2 + vx * sin + vy * cos)
        resample = bool(obj.flags or obj.rotation) or (width, height) != (tw, th)
        x, fx = _place(obj.x - pivot[0] + layer.offset[0], resample)
        y, fy = _place(obj.y - pivot[1] + layer.offset[1], resample)
        position = (x - origin[0], y - origin[1])
        target.blit(resampled(tile, size, fx, fy), position, special_flags=PREMULTIPLIED)


@dataclass(frozen=True, eq=False)
class _Variant:
    """A tile ready to blit, the tileset it comes from, and its size before any sub-pixel
    shift."""

    surface: pygame.Surface
    tileset: RenderTileset
    size: tuple[int, int]


def _dim(surface: pygame.Surface) -> None:
    """Pull a premultiplied surface's colours towards DIM_GREY, keeping its alpha: each channel
    c of a pixel of alpha a becomes c * (1 - DIM_AMOUNT) + grey * a / 255 * DIM_AMOUNT, rounded,
    read from a table of every (a, c) (one look-up a channel instead of float arithmetic over
    every pixel: five times faster), in reused buffers (fresh megabytes cost more than the
    arithmetic)."""
    shifts = surface.get_shifts()
    tables = _dim_tables(shifts[:3])
    # Rows of pixels, as they lie in memory.
    packed = pygame.surfarray.pixels2d(surface).T
    rows, part, out = _dim_buffers(packed.shape)
    np.right_shift(packed, np.uint32(shifts[3]), out=rows)
    np.bitwise_and(rows, np.uint32(255), out=rows)
    np.left_shift(rows, np.uint32(8), out=rows)
    np.bitwise_and(packed, np.uint32(255 << shifts[3]), out=out)
    for table, shift in zip(tables, shifts[:3], strict=True):
        np.right_shift(packed, np.uint32(shift), out=part)
        np.bitwise_and(part, np.uint32(255), out=part)
        np.bitwise_or(part, rows, out=part)
        np.take(table, part, out=part)
        np.bitwise_or(out, part, out=out)
    packed[...] = out
    del packed


_DIM_BUFFERS: dict[tuple[int, ...], tuple[NDArray[np.uint32], ...]] = {}


def _dim_buffers(shape: tuple[int, ...]) -> tuple[NDArray[np.uint32], ...]:
    """Three uint32 arrays of `shape` to work in, kept for the next surface of that shape
    (whole levels get their own)."""
    if shape[0] * shape[1] > _SCRATCH_PIXELS:
        return tuple(np.empty(shape, dtype=np.uint32) for _ in range(3))
    if shape not in _DIM_BUFFERS:
        if len(_DIM_BUFFERS) >= 4:
            _DIM_BUFFERS.clear()
        _DIM_BUFFERS[shape] = tuple(np.empty(shape, dtype=np.uint32) for _ in range(3))
    return _DIM_BUFFERS[shape]


@functools.cache
def _dim_tables(shifts: tuple[int, int, int]) -> tuple[NDArray[np.uint32], ...]:
    """For each colour channel, the dimmed value of every (alpha, channel) pair, at its place
    in a pixel."""
    alpha = np.arange(256, dtype=np.float32)[:, None] / np.float32(255)
    values = np.arange(256, dtype=np.float32)[None, :]
    tables = []
    for grey, shift in zip(DIM_GREY, shifts, strict=True):
        dimmed = values * np.float32(1 - DIM_AMOUNT) + (
            np.float32(grey) * alpha * np.float32(DIM_AMOUNT)
        )
        table = (dimmed + 0.5).astype(np.uint8).astype(np.uint32) << np.uint32(shift)
        tables.append(table.ravel())
    return tuple(tables)


def scaled(surface: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
    """A premultiplied surface at another size, as the window zooms it: whole zooms repeat
    pixels (pixel art stays crisp and exact); other sizes average the pixels each output pixel
    covers (averaging premultiplied pixels keeps clear pixels' colours from bleeding in). An
    enlargement by a fraction repeats pixels to the next whole size first, so that every output
    pixel is an area average too: then each part of a surface scales on its own exactly as it
    does within the whole (the window scales its chunks one by one)."""
    w, h = surface.get_size()
    if size == (w, h):
        return surface.copy()
    if size[0] % w == 0 and size[1] % h == 0:
        return pygame.transform.scale(surface, size)
    if size[0] > w or size[1] > h:
        whole = (w * -(-size[0] // w), h * -(-size[1] // h))
        surface = pygame.transform.scale(surface, whole, scratch(whole, surface))
    return pygame.transform.smoothscale(surface, size)


#: Chunk-sized scratch surfaces, one per size and format: allocating and freeing a few MB for
#: every scaled chunk costs several times the scaling itself.
_SCRATCH: dict[tuple[tuple[int, int], int, tuple[int, ...]], pygame.Surface] = {}
_SCRATCH_PIXELS = 4_000_000


def scratch(size: tuple[int, int], like: pygame.Surface) -> pygame.Surface:
    """A surface of `size` in the format of `like` to draw into (whole levels get their own)."""
    if size[0] * size[1] > _SCRATCH_PIXELS:
        return pygame.Surface(size, like.get_flags(), like)
    key = (size, like.get_flags(), like.get_masks())
    if key not in _SCRATCH:
        if len(_SCRATCH) >= 8:
            _SCRATCH.clear()
        _SCRATCH[key] = pygame.Surface(size, like.get_flags(), like)
    return _SCRATCH[key]


def _clear_corners(turned: pygame.Surface) -> pygame.Surface:
    """A turned premultiplied picture with its clear corners black: pygame fills them with the
    picture's corner colour at alpha 0, which a premultiplied blend would add to what is below
    (a faint box around the turned object, and blends that differ with the blit's clipping)."""
    rgb = pygame.surfarray.pixels3d(turned)
    rgb[pygame.surfarray.pixels_alpha(turned) == 0] = 0
    del rgb
    return turned


def _area(surface: pygame.Surface) -> int:
    w, h = surface.get_size()
    return w * h
