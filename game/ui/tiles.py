"""Drawing a map's levels as Tiled does: tiles cut from its tilesets, cached per level and zoom."""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pygame

from game.maps import FLIP_D, FLIP_H, FLIP_V, RenderLayer, RenderMap, RenderObject, RenderTileset
from game.maps.model import RGB, RGBA

#: How far the levels below the current one are pulled towards DIM_GREY (0 none, 1 all grey).
DIM_AMOUNT = 0.6
DIM_GREY: RGB = (34, 36, 42)
#: Zoom factors kept cached besides 1, the one every other zoom is scaled from.
KEPT_ZOOMS = 2

#: What LevelRenderer surfaces hold: premultiplied alpha. Blit them with this flag.
PREMULTIPLIED = pygame.BLEND_PREMULTIPLIED


def _has_display() -> bool:
    return bool(pygame.display.get_init()) and pygame.display.get_surface() is not None


def new_surface(size: tuple[int, int]) -> pygame.Surface:
    """A clear 32-bit surface with per-pixel alpha, in the display's format when there is one."""
    surface = pygame.Surface(size, pygame.SRCALPHA, 32)
    return surface.convert_alpha() if _has_display() else surface


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
            return
        self._levels.pop(level, None)
        for current in [c for c in self._composed if c >= level]:
            del self._composed[current]
        for key in list(self._scaled):
            kind, z, _ = key
            if (kind == "level" and z == level) or (kind == "composed" and z >= level):
                del self._scaled[key]

    def draw_layer(self, target: pygame.Surface, layer: RenderLayer) -> None:
        """Draw one layer at zoom 1 onto a premultiplied `target`, as Tiled would; units layers
        and hidden layers draw nothing."""
        if not layer.visible or layer.opacity <= 0:
            return
        if layer.kind == "tile":
            self._draw_tiles(target, layer)
        elif layer.kind == "image":
            self._draw_image(target, layer)
        elif layer.kind == "object" and not layer.units:
            self._draw_tile_objects(target, layer)

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
            size = self.pixel_size(zoom)
            if float(zoom).is_integer():
                # Whole zooms repeat pixels: pixel art stays crisp and exact.
                self._scaled[key] = pygame.transform.scale(base, size)
            else:
                # Averaging premultiplied pixels keeps clear pixels' colours from bleeding in.
                self._scaled[key] = pygame.transform.smoothscale(base, size)
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

    def _draw_tiles(self, target: pygame.Surface, layer: RenderLayer) -> None:
        assert layer.gids is not None and layer.flags is not None
        tw, th = self.render.tile_size
        xs, ys = np.nonzero(layer.gids)
        order = self.render.render_order
        # Overlapping tiles (taller than the grid, or offset) cover each other in render order.
        sequence = np.lexsort(
            (-xs if order.startswith("left") else xs, -ys if order.endswith("up") else ys)
        )
        blits = []
        for i in sequence:
            x, y = int(xs[i]), int(ys[i])
            flags = int(layer.flags[x, y])
            # A layer's fractional offset: see _place (flipped tiles are resampled).
            (dx, fx), (dy, fy) = (_place(v, bool(flags)) for v in layer.offset)
            found = self._variant(int(layer.gids[x, y]), flags, layer, (fx, fy))
            if found is None:
                continue
            ox, oy = found.tileset.tile_offset
            # Tiled anchors a tile at its cell's bottom-left corner.
            position = (x * tw + ox + dx, (y + 1) * th - found.size[1] + oy + dy)
            blits.append((found.surface, position, found.surface.get_rect(), PREMULTIPLIED))
        target.blits(blits, doreturn=False)

    def _draw_image(self, target: pygame.Surface, layer: RenderLayer) -> None:
        if layer.image is None:
            return
        image = premultiplied(
            self.atlas.image(layer.image, layer.transparent), layer.opacity, layer.tint
        )
        w, h = image.get_size()
        (dx, _), (dy, _) = (_place(v, False) for v in layer.offset)
        width, height = target.get_size()
        repeat_x, repeat_y = layer.repeat
        xs = range(dx % w - w, width, w) if repeat_x else range(dx, dx + 1)
        ys = range(dy % h - h, height, h) if repeat_y else range(dy, dy + 1)
        area = image.get_rect()
        target.blits([(image, (x, y), area, PREMULTIPLIED) for y in ys for x in xs], False)

    def _draw_tile_objects(self, target: pygame.Surface, layer: RenderLayer) -> None:
        objects = list(layer.objects)
        if layer.draw_order == "topdown":
            objects.sort(key=lambda o: o.y)
        for obj in objects:
            if obj.visible and obj.shape == "tile" and obj.gid:
                self._draw_tile_object(target, obj, layer)

    def _draw_tile_object(
        self, target: pygame.Surface, obj: RenderObject, layer: RenderLayer
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
            tile = pygame.transform.rotate(resampled(tile, size), -obj.rotation)
            vx, vy = pivot[0] - size[0] / 2, pivot[1] - size[1] / 2
            turn = math.radians(obj.rotation)
            cos, sin = math.cos(turn), math.sin(turn)
            size = tile.get_size()
            pivot = (size[0] / 2 + vx * cos - vy * sin, size[1] / 2 + vx * sin + vy * cos)
        resample = bool(obj.flags or obj.rotation) or (width, height) != (tw, th)
        x, fx = _place(obj.x - pivot[0] + layer.offset[0], resample)
        y, fy = _place(obj.y - pivot[1] + layer.offset[1], resample)
        target.blit(resampled(tile, size, fx, fy), (x, y), special_flags=PREMULTIPLIED)


@dataclass(frozen=True, eq=False)
class _Variant:
    """A tile ready to blit, the tileset it comes from, and its size before any sub-pixel
    shift."""

    surface: pygame.Surface
    tileset: RenderTileset
    size: tuple[int, int]


def _dim(surface: pygame.Surface) -> None:
    """Pull a premultiplied surface's colours towards DIM_GREY, keeping its alpha."""
    rgb = pygame.surfarray.pixels3d(surface)
    alpha = pygame.surfarray.pixels_alpha(surface)
    grey = np.array(DIM_GREY, dtype=np.float32) * (alpha[..., None] / np.float32(255))
    rgb[...] = (rgb * np.float32(1 - DIM_AMOUNT) + grey * np.float32(DIM_AMOUNT) + 0.5).astype(
        np.uint8
    )
    del rgb, alpha
