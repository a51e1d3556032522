"""Draws the project's tileset art (PNG) and writes the Tiled .tsx files (build-time tool)."""

from __future__ import annotations

import argparse
import struct
import sys
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

TILE = 32
COLUMNS = 8
TILED_VERSION = "1.8.2"
OUT_DIR = Path(__file__).resolve().parent / "tilesets"

Colour = tuple[int, int, int] | tuple[int, int, int, int]
Mask = NDArray[np.float64]

# The palette: cold slate steel, amber industrial paint, cyan light and coolant, warm dust.
INK: Colour = (14, 17, 24)
STEEL_DARK: Colour = (38, 45, 58)
STEEL: Colour = (58, 68, 84)
STEEL_LIGHT: Colour = (84, 97, 116)
WALL_TOP: Colour = (92, 104, 122)
WALL_LIGHT: Colour = (138, 152, 172)
CYAN: Colour = (72, 214, 232)
AMBER: Colour = (214, 150, 46)
AMBER_DARK: Colour = (128, 84, 26)
CONTAINER: Colour = (60, 102, 128)
HAZARD: Colour = (232, 192, 44)
CRATE: Colour = (184, 112, 46)
MILITARY: Colour = (92, 112, 70)
COOLANT: Colour = (24, 118, 170)
COOLANT_LIGHT: Colour = (120, 224, 244)
ICE_MELT: Colour = (40, 128, 140)
DUST: Colour = (112, 102, 90)
REGOLITH: Colour = (132, 120, 104)
ROCK: Colour = (70, 62, 57)
HULL: Colour = (168, 175, 184)
HULL_DARK: Colour = (112, 118, 128)
SCORCH: Colour = (44, 38, 36)
VOID: Colour = (5, 7, 17)
GIRDER: Colour = (206, 152, 40)
RUST: Colour = (132, 62, 46)
CONTOURS: tuple[Colour, ...] = ((150, 126, 92), (174, 150, 108), (198, 176, 130), (222, 204, 160))


class Canvas:
    """One 32×32 RGBA tile being painted with anti-aliased coverage masks (straight alpha)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rgb = np.zeros((TILE, TILE, 3))
        self.alpha = np.zeros((TILE, TILE))
        self.rng = rng
        # Pixel centres, so shapes are symmetric about the tile's middle (16, 16).
        centres = np.mgrid[0:TILE, 0:TILE].astype(np.float64) + 0.5
        self.y: Mask = centres[0]
        self.x: Mask = centres[1]

    def paint(self, mask: Mask, colour: Colour | NDArray[np.float64], opacity: float = 1.0) -> None:
        """Composite `colour` over the tile where `mask` (0..1 coverage) says."""
        rgb = np.asarray(colour, dtype=np.float64)
        a_src = np.clip(mask, 0.0, 1.0) * opacity
        if rgb.ndim == 1 and rgb.shape[0] == 4:
            a_src = a_src * rgb[3] / 255.0
            rgb = rgb[:3]
        a_out = a_src + self.alpha * (1.0 - a_src)
        safe = np.where(a_out > 0, a_out, 1.0)
        blended = rgb * a_src[..., None] + self.rgb * (self.alpha * (1.0 - a_src))[..., None]
        self.rgb = blended / safe[..., None]
        self.alpha = a_out

    def fill(self, colour: Colour) -> None:
        self.paint(np.ones((TILE, TILE)), colour)

    def shade(self, mask: Mask, factor: Mask | float) -> None:
        """Multiply the brightness where `mask` is set (factor > 1 lightens)."""
        f = 1.0 + (np.asarray(factor) - 1.0) * np.clip(mask, 0.0, 1.0)
        self.rgb = np.clip(self.rgb * f[..., None], 0, 255)

    def grain(self, amount: float, mask: Mask | None = None) -> None:
        """Per-pixel brightness jitter: keeps flat colours from looking like vector art."""
        jitter = 1.0 + self.rng.uniform(-amount, amount, (TILE, TILE))
        self.shade(np.ones((TILE, TILE)) if mask is None else mask, jitter)

    def shadow(self, mask: Mask, dx: float = 2.0, dy: float = 2.0, opacity: float = 0.45) -> None:
        """A soft drop shadow of `mask` towards the bottom right (light comes from the top left)."""
        shifted = np.roll(np.roll(mask, int(dy), axis=0), int(dx), axis=1)
        if dy > 0:
            shifted[: int(dy), :] = 0
        if dx > 0:
            shifted[:, : int(dx)] = 0
        soft = (shifted + np.roll(shifted, 1, axis=0) + np.roll(shifted, 1, axis=1)) / 3.0
        self.paint(soft * (1.0 - np.clip(mask, 0, 1)), INK, opacity)

    def to_rgba(self) -> NDArray[np.uint8]:
        out = np.dstack([self.rgb, self.alpha * 255.0])
        return np.clip(np.rint(out), 0, 255).astype(np.uint8)


# --- masks ---------------------------------------------------------------------------------------


def rect(c: Canvas, x0: float, y0: float, x1: float, y1: float) -> Mask:
    """Pixels whose centre lies in [x0, x1) × [y0, y1)."""
    return ((c.x >= x0) & (c.x < x1) & (c.y >= y0) & (c.y < y1)).astype(np.float64)


def frame(c: Canvas, x0: float, y0: float, x1: float, y1: float, width: float = 1) -> Mask:
    return rect(c, x0, y0, x1, y1) - rect(c, x0 + width, y0 + width, x1 - width, y1 - width)


def disc(c: Canvas, cx: float, cy: float, r: float) -> Mask:
    return np.clip(r - np.hypot(c.x - cx, c.y - cy) + 0.5, 0.0, 1.0)


def ring(c: Canvas, cx: float, cy: float, r: float, width: float) -> Mask:
    return np.clip(disc(c, cx, cy, r) - disc(c, cx, cy, r - width), 0.0, 1.0)


def segment(c: Canvas, x0: float, y0: float, x1: float, y1: float, width: float) -> Mask:
    """A stroke of `width` pixels between two points, anti-aliased."""
    px, py = c.x - x0, c.y - y0
    dx, dy = x1 - x0, y1 - y0
    t = np.clip((px * dx + py * dy) / max(dx * dx + dy * dy, 1e-9), 0.0, 1.0)
    dist = np.hypot(px - t * dx, py - t * dy)
    return np.clip(width / 2.0 - dist + 0.5, 0.0, 1.0)


def blob(c: Canvas, cx: float, cy: float, radius: float, wobble: float) -> Mask:
    """An irregular round shape (rocks, debris): a radius that wanders with the angle."""
    angle = np.arctan2(c.y - cy, c.x - cx)
    r = np.full_like(angle, radius)
    for k in (2, 3, 5):
        r += wobble * c.rng.uniform(-1, 1) * np.cos(k * angle + c.rng.uniform(0, 2 * np.pi)) / k
    return np.clip(r - np.hypot(c.x - cx, c.y - cy) + 0.5, 0.0, 1.0)


def lit(c: Canvas, cx: float, cy: float, radius: float) -> Mask:
    """Light from the top left across a round shape: > 1 towards the light, < 1 away from it."""
    return 1.0 + 0.45 * ((cx - c.x) + (cy - c.y)) / (radius * 1.414)


def bevel(c: Canvas, x0: float, y0: float, x1: float, y1: float, width: float = 2) -> None:
    """Raised-edge shading: light on the top and left edges, dark on the bottom and right."""
    outer = rect(c, x0, y0, x1, y1)
    inner = rect(c, x0 + width, y0 + width, x1 - width, y1 - width)
    edge = outer - inner
    top_left = (
        edge
        * (((c.y - y0) < width) | ((c.x - x0) < width))
        * (((x1 - c.x) > (c.y - y0)) & ((y1 - c.y) > (c.x - x0)))
    )
    c.shade(top_left, 1.35)
    c.shade(edge - top_left, 0.6)


# --- shared motifs -------------------------------------------------------------------------------


def deck_plate(c: Canvas, base: Colour, rivets: bool = True) -> None:
    """A square deck plate per cell, seams on its edges so the grid reads at a glance."""
    c.fill(base)
    c.grain(0.05)
    # Diagonal anti-slip ribs, faint.
    ribs = ((c.x + c.y) % 6 < 1.0) * rect(c, 3, 3, 29, 29)
    c.shade(ribs, 1.08)
    bevel(c, 0, 0, TILE, TILE, 1)
    c.paint(frame(c, 0, 0, TILE, TILE), INK, 0.55)
    if rivets:
        for x, y in ((4, 4), (28, 4), (4, 28), (28, 28)):
            c.paint(disc(c, x, y, 1.3), STEEL_LIGHT)
            c.paint(disc(c, x + 0.6, y + 0.6, 0.7), INK, 0.5)


def stripes(c: Canvas, mask: Mask, colour: Colour, period: int = 8) -> None:
    """Yellow-and-black style hazard striping inside `mask`."""
    c.paint(mask, INK)
    c.paint(mask * (((c.x + c.y) % period) < period / 2), colour)


def box(c: Canvas, inset: float, paint_colour: Colour, brace: bool) -> None:
    """A cargo crate seen from above, with its shadow: the `half` obstacle motif."""
    body = rect(c, inset, inset, TILE - inset, TILE - inset)
    c.shadow(body, 3, 3, 0.5)
    c.paint(body, paint_colour)
    c.grain(0.06, body)
    bevel(c, inset, inset, TILE - inset, TILE - inset, 2)
    c.paint(frame(c, inset, inset, TILE - inset, TILE - inset), INK, 0.8)
    lid = rect(c, inset + 4, inset + 4, TILE - inset - 4, TILE - inset - 4)
    c.shade(lid, 0.88)
    if brace:
        lo, hi = inset + 4, TILE - inset - 4
        c.paint(segment(c, lo, lo, hi, hi, 2.2) * lid, INK, 0.45)
        c.paint(segment(c, lo, hi, hi, lo, 2.2) * lid, INK, 0.45)
    else:
        c.paint(rect(c, inset + 4, 14.5, TILE - inset - 4, 17.5), INK, 0.4)


def column(c: Canvas, radius: float, metal: Colour, cap: Colour) -> None:
    """A narrow round column seen from above: the `thin` obstacle motif."""
    body = disc(c, 16, 16, radius)
    c.shadow(body, 3, 3, 0.5)
    c.paint(body, metal)
    c.shade(body, lit(c, 16, 16, radius))
    c.paint(ring(c, 16, 16, radius, 1.2), INK, 0.9)
    c.paint(disc(c, 16, 16, radius * 0.45), cap)
    c.paint(disc(c, 14.5, 14.5, radius * 0.2), WALL_LIGHT, 0.8)


def stair_steps(c: Canvas, base: Colour, rail: Colour) -> None:
    """Steps rising towards the top of the tile (north): higher treads are lighter."""
    c.fill(base)
    for i in range(5):
        y0 = 2 + i * 6
        tread = rect(c, 4, y0, 28, y0 + 6)
        c.shade(tread, 1.32 - i * 0.09)
        c.paint(rect(c, 4, y0 + 5, 28, y0 + 6), INK, 0.7)
        c.paint(rect(c, 4, y0, 28, y0 + 1), WALL_LIGHT, 0.35)
    c.paint(rect(c, 0, 0, 4, TILE) + rect(c, 28, 0, TILE, TILE), rail)
    bevel(c, 0, 0, 4, TILE, 1)
    bevel(c, 28, 0, TILE, TILE, 1)
    arrow = segment(c, 16, 8, 16, 25, 2.0) + segment(c, 16, 7, 11, 12, 2.0)
    c.paint(np.clip(arrow + segment(c, 16, 7, 21, 12, 2.0), 0, 1), CYAN, 0.75)


def ladder_rungs(c: Canvas, rail: Colour) -> None:
    """A ladder lying against the floor plan: two rails and five rungs, transparent around."""
    rails = rect(c, 8, 1, 11, 31) + rect(c, 21, 1, 24, 31)
    rungs = sum((rect(c, 11, y, 21, y + 2) for y in (4, 10, 16, 22, 28)), np.zeros((TILE, TILE)))
    shape = np.clip(rails + rungs, 0, 1)
    c.shadow(shape, 2, 2, 0.55)
    c.paint(shape, rail)
    c.shade(rails, 1.15)
    c.paint(rect(c, 8, 1, 9, 31) + rect(c, 21, 1, 22, 31), WALL_LIGHT, 0.6)


def fluid(c: Canvas, deep: Colour, light: Colour) -> None:
    """Coolant or meltwater: darker at the rim, bright caustic ripples."""
    c.fill(deep)
    waves = np.sin(c.x * 0.55 + np.sin(c.y * 0.35) * 2.2) + np.sin(c.y * 0.45 - c.x * 0.2)
    c.paint(np.clip(waves - 1.3, 0, 1), light, 0.7)
    c.grain(0.04)
    c.paint(frame(c, 0, 0, TILE, TILE), INK, 0.18)


def railing(c: Canvas, colour: Colour) -> None:
    """A handrail running across the tile (west-east), posts at the ends: `half` cover."""
    bar = rect(c, 0, 13, TILE, 19)
    posts = rect(c, 3, 10, 9, 22) + rect(c, 23, 10, 29, 22)
    shape = np.clip(bar + posts, 0, 1)
    c.shadow(shape, 2, 3, 0.5)
    c.paint(shape, colour)
    c.paint(rect(c, 0, 13, TILE, 14.5), WALL_LIGHT, 0.55)
    c.paint(rect(c, 0, 18, TILE, 19), INK, 0.6)
    bevel(c, 3, 10, 9, 22, 1)
    bevel(c, 23, 10, 29, 22, 1)


def lattice(c: Canvas, x0: float, y0: float, x1: float, y1: float, colour: Colour) -> Mask:
    """An open truss: a frame with cross bracing; returns its mask (already painted)."""
    shape = frame(c, x0, y0, x1, y1, 2.5)
    shape = np.clip(shape + segment(c, x0 + 1, y0 + 1, x1 - 1, y1 - 1, 1.8), 0, 1)
    shape = np.clip(shape + segment(c, x0 + 1, y1 - 1, x1 - 1, y0 + 1, 1.8), 0, 1)
    c.shadow(shape, 3, 3, 0.55)
    c.paint(shape, colour)
    c.paint(frame(c, x0, y0, x1, y1, 1) * rect(c, x0, y0, x1, y0 + 1), WALL_LIGHT, 0.6)
    c.grain(0.06, shape)
    return shape


def rotate(draw: Callable[[Canvas], None], quarter_turns: int) -> Callable[[Canvas], None]:
    """The same drawing turned counter-clockwise, for the other facings of stairs, doors, rails."""

    def drawn(c: Canvas) -> None:
        draw(c)
        c.rgb = np.rot90(c.rgb, quarter_turns).copy()
        c.alpha = np.rot90(c.alpha, quarter_turns).copy()

    return drawn


# --- station -------------------------------------------------------------------------------------


def draw_floor(c: Canvas) -> None:
    deck_plate(c, STEEL)


def draw_floor_worn(c: Canvas) -> None:
    deck_plate(c, STEEL)
    for _ in range(5):
        x, y = c.rng.uniform(6, 26, 2)
        c.paint(disc(c, x, y, c.rng.uniform(1.5, 4.0)), STEEL_DARK, 0.35)
    c.paint(segment(c, 7, 22, 19, 19, 1.0), INK, 0.35)


def draw_floor_upper(c: Canvas) -> None:
    """A deck plate of an upper storey: amber trim, the colour of everything at z >= 1."""
    deck_plate(c, STEEL_LIGHT)
    c.paint(frame(c, 1, 1, 31, 31, 2), AMBER, 0.8)


def draw_floor_hazard(c: Canvas) -> None:
    deck_plate(c, STEEL, rivets=False)
    stripes(c, frame(c, 2, 2, 30, 30, 4), HAZARD)


def draw_grating(c: Canvas) -> None:
    """Mezzanine catwalk: amber frame, see-through slots (the storey below shows through)."""
    c.fill(AMBER_DARK)
    slots = np.zeros((TILE, TILE))
    for x in range(4, 28, 5):
        slots += rect(c, x, 4, x + 3, 28)
    c.alpha = c.alpha - slots * 0.45
    c.rgb = c.rgb * (1 - slots[..., None] * 0.75)
    bars = 1 - slots
    c.shade(bars * rect(c, 0, 0, TILE, TILE), 1.25)
    c.grain(0.05, bars)
    bevel(c, 0, 0, TILE, TILE, 2)
    c.paint(frame(c, 0, 0, TILE, TILE), INK, 0.85)


def draw_grating_edge(c: Canvas) -> None:
    """Catwalk grating with a painted kick-plate stripe: marks a walkway's edge."""
    draw_grating(c)
    stripes(c, rect(c, 0, 26, TILE, 30), HAZARD, 6)


def draw_wall(c: Canvas) -> None:
    """A floor-to-ceiling bulkhead seen from above: raised, bevelled, hatched top."""
    c.fill(WALL_TOP)
    c.grain(0.04)
    hatch = ((c.x - c.y) % 8 < 1.2) * rect(c, 4, 4, 28, 28)
    c.shade(hatch, 0.78)
    bevel(c, 0, 0, TILE, TILE, 3)
    c.paint(frame(c, 0, 0, TILE, TILE), INK)
    c.paint(rect(c, 4, 15, 28, 17), CYAN, 0.18)


def draw_crate(c: Canvas) -> None:
    box(c, 4, CRATE, brace=True)
    c.paint(rect(c, 10, 6.5, 22, 8.5), HAZARD, 0.9)


def draw_crate_stack(c: Canvas) -> None:
    """Cargo containers stacked to the ceiling: `full`, so steel-blue, ribbed, long shadow."""
    body = rect(c, 1, 1, 29, 29)
    c.shadow(body, 3, 3, 0.75)
    c.paint(body, CONTAINER)
    c.grain(0.05, body)
    c.shade(body * ((c.x % 4) < 1.5), 0.72)
    bevel(c, 1, 1, 29, 29, 2)
    c.paint(frame(c, 1, 1, 29, 29), INK)
    c.paint(rect(c, 5, 12, 25, 18), HAZARD, 0.9)
    c.paint(rect(c, 5, 14, 25, 16), INK, 0.7)


def draw_console(c: Canvas) -> None:
    """A workstation: dark casing, glowing screen, keypad."""
    body = rect(c, 4, 6, 28, 27)
    c.shadow(body, 3, 3, 0.5)
    c.paint(body, STEEL_DARK)
    bevel(c, 4, 6, 28, 27, 2)
    c.paint(frame(c, 4, 6, 28, 27), INK)
    screen = rect(c, 7, 9, 25, 18)
    c.paint(screen, (12, 60, 70))
    c.paint(screen * (np.sin(c.x * 1.3) * np.sin(c.y * 0.9) > 0.2), CYAN, 0.55)
    c.paint(rect(c, 7, 9, 25, 10), CYAN, 0.9)
    for i, x in enumerate(range(8, 24, 4)):
        c.paint(rect(c, x, 21, x + 3, 24), AMBER if i % 2 else WALL_LIGHT, 0.9)


def draw_pillar(c: Canvas) -> None:
    column(c, 7.5, WALL_TOP, STEEL_DARK)


def draw_stairs(c: Canvas) -> None:
    stair_steps(c, STEEL, STEEL_DARK)


def draw_ladder(c: Canvas) -> None:
    ladder_rungs(c, HAZARD)


def draw_hatch(c: Canvas) -> None:
    """An open hatch in an upper floor, the ladder's top visible through it: floor and climbable."""
    draw_grating(c)
    hole = rect(c, 6, 6, 26, 26)
    c.paint(hole, INK)
    stripes(c, frame(c, 4, 4, 28, 28, 2), HAZARD, 6)
    for y in (10, 16, 22):
        c.paint(rect(c, 10, y, 22, y + 2), HAZARD, 0.8)
    c.paint(rect(c, 9, 7, 11, 26) + rect(c, 21, 7, 23, 26), HAZARD, 0.9)


def draw_door(c: Canvas) -> None:
    """An open doorway in a west-east wall line: door leaves retracted into the jambs."""
    deck_plate(c, STEEL, rivets=False)
    jambs = rect(c, 0, 0, 5, TILE) + rect(c, 27, 0, TILE, TILE)
    c.paint(jambs, WALL_TOP)
    bevel(c, 0, 0, 5, TILE, 1)
    bevel(c, 27, 0, TILE, TILE, 1)
    c.paint(rect(c, 5, 14, 27, 18), INK, 0.6)
    stripes(c, rect(c, 5, 15, 27, 17), HAZARD, 6)
    c.paint(rect(c, 1, 12, 4, 20) + rect(c, 28, 12, 31, 20), CYAN, 0.8)


def draw_coolant(c: Canvas) -> None:
    fluid(c, COOLANT, COOLANT_LIGHT)


def draw_railing(c: Canvas) -> None:
    railing(c, AMBER)


def draw_marker(c: Canvas) -> None:
    """A painted deployment mark (decal over a floor): corner brackets and a ring."""
    for sx in (0, 1):
        for sy in (0, 1):
            x = 3 if sx == 0 else 23
            y = 3 if sy == 0 else 23
            horiz = rect(c, x, y if sy == 0 else y + 4, x + 6, (y if sy == 0 else y + 4) + 2)
            vert = rect(c, x if sx == 0 else x + 4, y, (x if sx == 0 else x + 4) + 2, y + 6)
            c.paint(np.clip(horiz + vert, 0, 1), CYAN, 0.85)
    c.paint(ring(c, 16, 16, 6, 1.5), CYAN, 0.7)


def draw_pipes(c: Canvas) -> None:
    """Bundled conduits running west-east on the floor: low `half` cover."""
    for y, colour in ((8, STEEL_LIGHT), (15, AMBER), (22, STEEL_LIGHT)):
        pipe = rect(c, 0, y, TILE, y + 6)
        c.shadow(pipe, 0, 2, 0.45)
        c.paint(pipe, colour)
        c.paint(rect(c, 0, y + 1, TILE, y + 2.5), WALL_LIGHT, 0.6)
        c.paint(rect(c, 0, y + 5, TILE, y + 6), INK, 0.6)
    c.paint(rect(c, 12, 6, 16, 30), STEEL_DARK)
    bevel(c, 12, 6, 16, 30, 1)


# --- surface -------------------------------------------------------------------------------------


def ground(c: Canvas, base: Colour, roughness: float) -> None:
    c.fill(base)
    c.grain(roughness)
    # A faint cell edge: a tactical map needs the grid visible on open ground too.
    c.paint(rect(c, 0, 31, TILE, TILE) + rect(c, 31, 0, TILE, 31), INK, 0.18)


def draw_bedrock(c: Canvas) -> None:
    ground(c, DUST, 0.07)
    for _ in range(3):
        x, y = c.rng.uniform(4, 28, 2)
        c.paint(disc(c, x, y, c.rng.uniform(2, 5)), ROCK, 0.18)


def draw_regolith(c: Canvas) -> None:
    """Loose, deep dust with ripples and pebbles: rough going."""
    ground(c, REGOLITH, 0.1)
    ripples = np.sin((c.x * 0.5 + c.y * 0.9) + np.sin(c.x * 0.3) * 1.5)
    c.shade(np.clip(ripples - 0.4, 0, 1), 0.8)
    c.shade(np.clip(-ripples - 0.6, 0, 1), 1.12)
    for _ in range(7):
        x, y = c.rng.uniform(3, 29, 2)
        pebble = disc(c, x, y, c.rng.uniform(0.9, 1.8))
        c.shadow(pebble, 1, 1, 0.5)
        c.paint(pebble, ROCK)


def draw_rubble(c: Canvas) -> None:
    """Broken rock and scrap strewn over the ground: rough, no cover."""
    ground(c, DUST, 0.08)
    for _ in range(9):
        x, y = c.rng.uniform(4, 28, 2)
        stone = blob(c, x, y, c.rng.uniform(2.0, 3.8), 1.6)
        c.shadow(stone, 2, 2, 0.55)
        c.paint(stone, ROCK)
        c.shade(stone, lit(c, x, y, 3.0))


def draw_boulder(c: Canvas) -> None:
    """A waist-high boulder: `half` cover."""
    rock = blob(c, 16, 16, 11.0, 3.0)
    c.shadow(rock, 3, 3, 0.55)
    c.paint(rock, ROCK)
    c.shade(rock, lit(c, 16, 16, 11.0))
    c.grain(0.09, rock)
    c.paint(segment(c, 11, 13, 18, 19, 1.0) * rock, INK, 0.5)


def draw_rock_wall(c: Canvas) -> None:
    """Solid rock face seen from above: dark, fractured, bevelled."""
    c.fill(ROCK)
    c.grain(0.12)
    for _ in range(3):
        x0, y0, x1, y1 = c.rng.uniform(2, 30, 4)
        c.paint(segment(c, x0, y0, x1, y1, 1.0), INK, 0.55)
    bevel(c, 0, 0, TILE, TILE, 2)
    c.paint(frame(c, 0, 0, TILE, TILE), INK, 0.7)


def draw_meltwater(c: Canvas) -> None:
    fluid(c, ICE_MELT, (170, 230, 226))


def draw_pad(c: Canvas) -> None:
    """Landing pad / outpost apron: smooth poured plates, painted corner marks."""
    deck_plate(c, (96, 98, 104), rivets=False)
    c.paint(rect(c, 2, 2, 8, 4) + rect(c, 2, 2, 4, 8), HAZARD, 0.85)


def draw_module_floor(c: Canvas) -> None:
    deck_plate(c, (70, 78, 80))


def draw_module_wall(c: Canvas) -> None:
    """A prefab habitat wall: off-white panels with an orange band."""
    c.fill((196, 196, 188))
    c.grain(0.04)
    c.paint(rect(c, 0, 12, TILE, 20), (204, 104, 44))
    bevel(c, 0, 0, TILE, TILE, 3)
    c.paint(frame(c, 0, 0, TILE, TILE), INK)


def draw_supply_crate(c: Canvas) -> None:
    box(c, 5, MILITARY, brace=False)
    c.paint(rect(c, 9, 9, 13, 13), HAZARD, 0.9)


def draw_barrier(c: Canvas) -> None:
    """Regolith-filled bags stacked into a breastwork: `half` cover."""
    for row, y in enumerate((9, 17)):
        for x in range(-4 + 6 * row, 32, 12):
            bag = blob(c, x + 6, y + 3, 5.0, 0.8) * rect(c, x, y - 2, x + 12, y + 9)
            c.shadow(bag, 2, 2, 0.45)
            c.paint(bag, (150, 138, 110))
            c.shade(bag, lit(c, x + 6, y + 3, 5.0))
    c.grain(0.05, c.alpha)


def draw_mast(c: Canvas) -> None:
    """An antenna mast, a narrow lattice: `thin`."""
    lattice(c, 9, 9, 23, 23, (180, 184, 190))
    c.paint(disc(c, 16, 16, 2.2), (220, 60, 50))


def draw_rock_steps(c: Canvas) -> None:
    stair_steps(c, (108, 98, 86), ROCK)


#: Sides of a heightmap tile whose neighbour is lower, as bits: the map generator picks the variant.
NORTH, EAST, SOUTH, WEST = 1, 2, 4, 8


def draw_height(level: int, lower_sides: int) -> Callable[[Canvas], None]:
    """Heightmap band `level` (1..4): paler the higher, like a relief map's colour bands.

    Where a neighbour is lower the edge is drawn as a slope, lit on the north and west sides and in
    shadow on the south and east ones, with a dark contour line at its foot.
    """

    def draw(c: Canvas) -> None:
        ground(c, CONTOURS[level - 1], 0.06)
        sides = (
            (NORTH, c.y, 1.3),
            (WEST, c.x, 1.3),
            (SOUTH, TILE - c.y, 0.62),
            (EAST, TILE - c.x, 0.62),
        )
        for bit, distance, factor in sides:
            if lower_sides & bit:
                c.shade(np.clip(1.0 - distance / 6.0, 0, 1), factor)
                c.paint((distance < 1.0).astype(np.float64), INK, 0.75)
        # Tick marks in the corner count the height, readable without a legend.
        for i in range(level):
            c.paint(rect(c, 8 + i * 4, 8, 10 + i * 4, 12), INK, 0.4)

    return draw


# --- hull ----------------------------------------------------------------------------------------


def draw_void(c: Canvas) -> None:
    """Open space: a deep blue-black with scattered stars."""
    c.fill(VOID)
    c.paint(np.clip(np.sin(c.x * 0.12 + c.y * 0.08) * 0.5, 0, 1), (22, 18, 44), 0.6)
    for _ in range(6):
        x, y = c.rng.uniform(1, 31, 2)
        c.paint(disc(c, x, y, c.rng.uniform(0.3, 0.8)), (230, 236, 255), c.rng.uniform(0.5, 1))


def hull_plate(c: Canvas, base: Colour) -> None:
    c.fill(base)
    c.grain(0.04)
    c.paint(rect(c, 15.5, 0, 16.5, TILE), HULL_DARK, 0.6)
    bevel(c, 0, 0, TILE, TILE, 2)
    c.paint(frame(c, 0, 0, TILE, TILE), INK, 0.8)
    for x, y in ((5, 5), (27, 5), (5, 27), (27, 27), (12, 16), (20, 16)):
        c.paint(disc(c, x, y, 1.1), HULL_DARK)


def draw_hull(c: Canvas) -> None:
    hull_plate(c, HULL)


def draw_hull_rib(c: Canvas) -> None:
    """Plating over a structural frame (west-east): a raised, darker rib across the panel."""
    hull_plate(c, HULL)
    rib = rect(c, 0, 11, TILE, 21)
    c.shadow(rib, 0, 2, 0.5)
    c.paint(rib, HULL_DARK)
    c.paint(rect(c, 0, 11, TILE, 12.5), WALL_LIGHT, 0.7)
    for x in (4, 12, 20, 28):
        c.paint(disc(c, x, 16, 1.3), INK, 0.5)


def draw_hull_vent(c: Canvas) -> None:
    hull_plate(c, HULL)
    for y in range(8, 25, 4):
        c.paint(rect(c, 7, y, 25, y + 2), INK, 0.75)
    c.paint(rect(c, 7, 6, 25, 7), HAZARD, 0.8)


def draw_hull_torn(c: Canvas) -> None:
    """Plating at the breach's lip: scorched, buckled."""
    hull_plate(c, HULL)
    burn = np.clip(1.2 - np.hypot(c.x - 24, c.y - 24) / 16, 0, 1)
    c.paint(burn, SCORCH, 0.9)
    c.paint(segment(c, 6, 26, 22, 10, 1.4), INK, 0.7)
    c.paint(segment(c, 12, 30, 28, 18, 1.0), (236, 120, 40), 0.5)


def draw_debris(c: Canvas) -> None:
    """Torn plating drifting out of the breach: rough going, no cover."""
    for _ in range(5):
        x, y = c.rng.uniform(5, 27, 2)
        shard = blob(c, x, y, c.rng.uniform(1.8, 3.4), 2.4)
        c.shadow(shard, 2, 2, 0.6)
        c.paint(shard, HULL_DARK)
        c.shade(shard, lit(c, x, y, 3.0))


def draw_girder(c: Canvas) -> None:
    """A girder upright (seen end-on): a small square truss, `thin`."""
    lattice(c, 8, 8, 24, 24, GIRDER)


def draw_girder_beam(c: Canvas) -> None:
    """A girder running west-east through the cell: `thin`."""
    lattice(c, 0, 10, TILE, 22, GIRDER)


def draw_equipment(c: Canvas) -> None:
    """A sensor housing bolted to the hull: `half` cover."""
    box(c, 5, (120, 128, 140), brace=False)
    c.paint(disc(c, 16, 16, 4.0), (40, 44, 52))
    c.paint(disc(c, 15, 15, 1.6), (240, 80, 60))


def draw_hull_rail(c: Canvas) -> None:
    railing(c, HAZARD)


def draw_airlock(c: Canvas) -> None:
    """An open airlock hatch through the hull, handholds inside: floor and climbable."""
    hull_plate(c, HULL)
    c.paint(disc(c, 16, 16, 13), INK)
    stripes(c, ring(c, 16, 16, 13, 3), HAZARD, 6)
    for y in (10, 15, 20):
        c.paint(rect(c, 11, y, 21, y + 2), HAZARD, 0.8)


def draw_radiator(c: Canvas) -> None:
    """A radiator fin standing edge-on (west-east): a thin sheet, `thin`."""
    fin = rect(c, 0, 12, TILE, 20)
    c.shadow(fin, 2, 4, 0.6)
    c.paint(fin, (226, 228, 232))
    for x in range(2, 32, 4):
        c.paint(rect(c, x, 12, x + 1, 20), HULL_DARK, 0.6)
    c.paint(rect(c, 0, 12, TILE, 13), INK, 0.3)


def draw_pod_hull(c: Canvas) -> None:
    """The raiders' boarding pod: rust-red armour plates."""
    hull_plate(c, RUST)
    c.paint(rect(c, 0, 26, TILE, 29), INK, 0.5)
    stripes(c, rect(c, 0, 26, TILE, 29), HAZARD, 8)


# --- keep ----------------------------------------------------------------------------------------

# A stone keep in green country: grey limestone, warm oak, turf and trodden earth.
STONE: Colour = (128, 124, 116)
STONE_DARK: Colour = (88, 84, 80)
STONE_LIGHT: Colour = (170, 166, 156)
MORTAR: Colour = (64, 60, 56)
OAK: Colour = (122, 84, 50)
OAK_DARK: Colour = (76, 50, 30)
TURF: Colour = (78, 112, 58)
EARTH: Colour = (112, 88, 62)
IRON: Colour = (58, 60, 66)


def masonry(c: Canvas, base: Colour, course: int = 8) -> None:
    """Dressed stone laid in courses, every other course offset by half a block."""
    c.fill(base)
    c.grain(0.08)
    for row in range(TILE // course):
        y = row * course
        c.paint(rect(c, 0, y, TILE, y + 1), MORTAR, 0.7)
        offset = 0 if row % 2 == 0 else 8
        for x in range(offset, TILE + 16, 16):
            c.paint(rect(c, x, y, x + 1, y + course), MORTAR, 0.7)


def draw_grass(c: Canvas) -> None:
    ground(c, TURF, 0.12)
    for _ in range(14):
        x, y = c.rng.uniform(2, 30, 2)
        c.paint(segment(c, x, y, x + c.rng.uniform(-1.5, 1.5), y - 2.5, 0.7), (122, 160, 84), 0.7)


def draw_cobbles(c: Canvas) -> None:
    """The courtyard's cobbles: round setts in rows, earth between them."""
    ground(c, EARTH, 0.05)
    for row in range(4):
        for col in range(4):
            x = 4 + col * 8 + (4 if row % 2 else 0) - (2 if row % 2 else 0)
            y = 4 + row * 8
            sett = blob(c, x, y, 3.4, 0.6)
            c.paint(sett, STONE)
            c.shade(sett, lit(c, x, y, 3.4))
    c.grain(0.05)


def draw_mud(c: Canvas) -> None:
    """Churned mud and puddles before the gate: rough going."""
    ground(c, (92, 72, 50), 0.1)
    for _ in range(3):
        x, y = c.rng.uniform(6, 26, 2)
        c.paint(blob(c, x, y, c.rng.uniform(2.5, 4.5), 1.2), (70, 86, 96), 0.55)
    ruts = np.sin(c.x * 0.9) > 0.85
    c.shade(ruts.astype(np.float64), 0.8)


def draw_stone_wall(c: Canvas) -> None:
    """The top of a curtain wall or tower wall: big blocks, floor to sky (`full`)."""
    masonry(c, STONE, 11)
    bevel(c, 0, 0, TILE, TILE, 3)
    c.paint(frame(c, 0, 0, TILE, TILE), INK, 0.9)


def draw_walk(c: Canvas) -> None:
    """Flagstones of the wall walk and the tower top: a floor up on the walls."""
    masonry(c, STONE_LIGHT, 16)
    c.paint(frame(c, 0, 0, TILE, TILE), INK, 0.35)


def draw_battlement(c: Canvas) -> None:
    """A merlon and its crenel: a waist-high parapet with a gap (`half`)."""
    masonry(c, STONE_LIGHT, 16)
    for x0 in (0, 18):
        merlon = rect(c, x0 + 1, 4, x0 + 13, 28)
        c.shadow(merlon, 3, 3, 0.55)
        c.paint(merlon, STONE)
        c.grain(0.06, merlon)
        bevel(c, x0 + 1, 4, x0 + 13, 28, 2)
        c.paint(frame(c, x0 + 1, 4, x0 + 13, 28), INK, 0.8)


def draw_planks(c: Canvas) -> None:
    """Oak boards of the tower's floors."""
    c.fill(OAK)
    c.grain(0.1)
    for x in range(0, TILE, 8):
        c.paint(rect(c, x, 0, x + 1, TILE), OAK_DARK, 0.8)
    for y in (6, 22):
        c.paint(disc(c, 4, y, 0.9) + disc(c, 20, y + 4, 0.9), IRON)


def draw_gate(c: Canvas) -> None:
    """The open gateway in a west-east wall: oak leaves swung back to the jambs, iron studs."""
    draw_cobbles(c)
    jambs = rect(c, 0, 0, 5, TILE) + rect(c, 27, 0, TILE, TILE)
    c.paint(jambs, STONE)
    bevel(c, 0, 0, 5, TILE, 1)
    bevel(c, 27, 0, TILE, TILE, 1)
    for x0 in (5, 23):
        leaf = rect(c, x0, 2, x0 + 4, 14)
        c.paint(leaf, OAK_DARK)
        c.paint(disc(c, x0 + 2, 5, 0.8) + disc(c, x0 + 2, 11, 0.8), IRON)


def draw_keep_stairs(c: Canvas) -> None:
    stair_steps(c, STONE, STONE_DARK)


def draw_keep_ladder(c: Canvas) -> None:
    ladder_rungs(c, OAK)


def draw_trapdoor(c: Canvas) -> None:
    """An open trapdoor in the tower's top, the ladder below it: floor and climbable."""
    draw_walk(c)
    c.paint(rect(c, 6, 6, 26, 26), INK)
    c.paint(frame(c, 4, 4, 28, 28, 2), OAK_DARK)
    for y in (10, 16, 22):
        c.paint(rect(c, 10, y, 22, y + 2), OAK, 0.9)


def draw_barrel(c: Canvas) -> None:
    """A barrel seen from above: hoops and staves (`half`)."""
    body = disc(c, 16, 16, 11)
    c.shadow(body, 3, 3, 0.5)
    c.paint(body, OAK)
    c.paint(ring(c, 16, 16, 10.5, 1.6) + ring(c, 16, 16, 6, 1.2), IRON, 0.9)
    c.shade(body, lit(c, 14, 14, 11))


def draw_cart(c: Canvas) -> None:
    """A hay cart: boards heaped with straw (`half`)."""
    box(c, 3, OAK, brace=False)
    c.paint(blob(c, 16, 16, 9, 1.5), (206, 178, 92), 0.95)
    c.grain(0.12, blob(c, 16, 16, 9, 1.5))


def draw_well(c: Canvas) -> None:
    """The courtyard well: a round stone kerb, dark water far below (`half`)."""
    draw_cobbles(c)
    kerb = disc(c, 16, 16, 13)
    c.shadow(kerb, 3, 3, 0.5)
    c.paint(kerb, STONE_LIGHT)
    c.paint(disc(c, 16, 16, 8.5), (20, 30, 40))
    c.paint(ring(c, 16, 16, 13, 1.2), INK, 0.7)


def draw_tree(c: Canvas) -> None:
    """An old oak: trunk and crown; the trunk blocks a narrow line (`thin`)."""
    draw_grass(c)
    crown = blob(c, 16, 16, 13, 2.5)
    c.paint(crown, (46, 84, 40), 0.75)
    c.shade(crown, lit(c, 12, 12, 13))
    trunk = disc(c, 16, 16, 4)
    c.paint(trunk, OAK_DARK)


def draw_rock(c: Canvas) -> None:
    draw_grass(c)
    draw_boulder(c)


# --- tilesets ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TileSpec:
    """One tile: its key (for maps/generate_maps.py), its art and its grid meaning (G-2, G-3)."""

    key: str
    draw: Callable[[Canvas], None]
    obstacle: str | None = "none"
    terrain: tuple[str, ...] = ()
    floor: bool | None = False
    height: int | None = None

    def properties(self) -> list[tuple[str, str, str]]:
        """(name, Tiled type, value) sorted by name, as Tiled saves them."""
        props: list[tuple[str, str, str]] = []
        if self.floor is not None:
            props.append(("floor", "bool", "true" if self.floor else "false"))
        if self.height is not None:
            props.append(("height", "int", str(self.height)))
        if self.obstacle is not None:
            props.append(("obstacle", "string", self.obstacle))
        if self.terrain:
            props.append(("terrain", "string", ",".join(self.terrain)))
        return sorted(props)


def _station() -> list[TileSpec]:
    return [
        TileSpec("floor", draw_floor, floor=True),
        TileSpec("floor_worn", draw_floor_worn, floor=True),
        TileSpec("floor_hazard", draw_floor_hazard, floor=True),
        TileSpec("grating", draw_grating, floor=True),
        TileSpec("wall", draw_wall, obstacle="full"),
        TileSpec("crate", draw_crate, obstacle="half"),
        TileSpec("console", draw_console, obstacle="half"),
        TileSpec("pillar", draw_pillar, obstacle="thin"),
        TileSpec("stairs_n", draw_stairs, terrain=("stairs",), floor=True),
        TileSpec("stairs_w", rotate(draw_stairs, 1), terrain=("stairs",), floor=True),
        TileSpec("stairs_s", rotate(draw_stairs, 2), terrain=("stairs",), floor=True),
        TileSpec("stairs_e", rotate(draw_stairs, 3), terrain=("stairs",), floor=True),
        TileSpec("ladder", draw_ladder, terrain=("climbable",)),
        TileSpec("hatch", draw_hatch, terrain=("climbable",), floor=True),
        TileSpec("door_ew", draw_door, floor=True),
        TileSpec("door_ns", rotate(draw_door, 1), floor=True),
        TileSpec("coolant", draw_coolant, terrain=("water",)),
        TileSpec("railing_ew", draw_railing, obstacle="half"),
        TileSpec("railing_ns", rotate(draw_railing, 1), obstacle="half"),
        TileSpec("marker", draw_marker),
        TileSpec("pipes_ew", draw_pipes, obstacle="half"),
        TileSpec("pipes_ns", rotate(draw_pipes, 1), obstacle="half"),
        TileSpec("crate_stack", draw_crate_stack, obstacle="full"),
        TileSpec("grating_edge", draw_grating_edge, floor=True),
        TileSpec("floor_upper", draw_floor_upper, floor=True),
    ]


def _surface() -> list[TileSpec]:
    return [
        TileSpec("bedrock", draw_bedrock),
        TileSpec("regolith", draw_regolith, terrain=("rough",)),
        TileSpec("rubble", draw_rubble, terrain=("rough",)),
        TileSpec("boulder", draw_boulder, obstacle="half"),
        TileSpec("rock_wall", draw_rock_wall, obstacle="full"),
        TileSpec("meltwater", draw_meltwater, terrain=("water",)),
        TileSpec("pad", draw_pad, floor=True),
        TileSpec("module_floor", draw_module_floor, floor=True),
        TileSpec("module_wall", draw_module_wall, obstacle="full"),
        TileSpec("supply_crate", draw_supply_crate, obstacle="half"),
        TileSpec("barrier", draw_barrier, obstacle="half"),
        TileSpec("mast", draw_mast, obstacle="thin"),
        TileSpec("steps_n", draw_rock_steps, terrain=("stairs",)),
        TileSpec("steps_w", rotate(draw_rock_steps, 1), terrain=("stairs",)),
        TileSpec("steps_s", rotate(draw_rock_steps, 2), terrain=("stairs",)),
        TileSpec("steps_e", rotate(draw_rock_steps, 3), terrain=("stairs",)),
        TileSpec("ladder", draw_ladder, terrain=("climbable",)),
        TileSpec("platform", draw_grating, floor=True),
        TileSpec("platform_hatch", draw_hatch, terrain=("climbable",), floor=True),
        TileSpec("platform_rail", draw_railing, obstacle="half"),
        # Heightmap tiles say only how high their column is (G-3): the loader fills it.
        *(
            TileSpec(height_key(h, sides), draw_height(h, sides), None, (), None, h)
            for h in range(1, 5)
            for sides in range(16)
        ),
    ]


def height_key(height: int, lower_sides: int) -> str:
    """Key of the heightmap tile of `height` whose `lower_sides` (NORTH|EAST|...) are slopes."""
    return f"height_{height}_{lower_sides:02d}"


def _hull() -> list[TileSpec]:
    return [
        TileSpec("void", draw_void),
        TileSpec("hull", draw_hull, obstacle="full"),
        TileSpec("hull_vent", draw_hull_vent, obstacle="full"),
        TileSpec("hull_torn", draw_hull_torn, obstacle="full"),
        TileSpec("debris", draw_debris, terrain=("rough",)),
        TileSpec("girder", draw_girder, obstacle="thin"),
        TileSpec("girder_ew", draw_girder_beam, obstacle="thin"),
        TileSpec("girder_ns", rotate(draw_girder_beam, 1), obstacle="thin"),
        TileSpec("equipment", draw_equipment, obstacle="half"),
        TileSpec("hull_rail_ew", draw_hull_rail, obstacle="half"),
        TileSpec("hull_rail_ns", rotate(draw_hull_rail, 1), obstacle="half"),
        TileSpec("airlock", draw_airlock, terrain=("climbable",), floor=True),
        TileSpec("radiator_ew", draw_radiator, obstacle="thin"),
        TileSpec("radiator_ns", rotate(draw_radiator, 1), obstacle="thin"),
        TileSpec("pod_hull", draw_pod_hull, obstacle="full"),
        TileSpec("mast", lambda c: column(c, 5.0, HULL, (220, 60, 50)), obstacle="thin"),
        TileSpec("hull_rib_ew", draw_hull_rib, obstacle="full"),
        TileSpec("hull_rib_ns", rotate(draw_hull_rib, 1), obstacle="full"),
    ]


def _keep() -> list[TileSpec]:
    return [
        TileSpec("grass", draw_grass),
        TileSpec("cobbles", draw_cobbles),
        TileSpec("mud", draw_mud, terrain=("rough",)),
        TileSpec("stone_wall", draw_stone_wall, obstacle="full"),
        TileSpec("walk", draw_walk, floor=True),
        TileSpec("battlement", draw_battlement, obstacle="half"),
        TileSpec("planks", draw_planks, floor=True),
        TileSpec("gate", draw_gate),
        TileSpec("stairs_n", draw_keep_stairs, terrain=("stairs",), floor=True),
        TileSpec("stairs_w", rotate(draw_keep_stairs, 1), terrain=("stairs",), floor=True),
        TileSpec("stairs_s", rotate(draw_keep_stairs, 2), terrain=("stairs",), floor=True),
        TileSpec("stairs_e", rotate(draw_keep_stairs, 3), terrain=("stairs",), floor=True),
        TileSpec("ladder", draw_keep_ladder, terrain=("climbable",)),
        TileSpec("trapdoor", draw_trapdoor, terrain=("climbable",), floor=True),
        TileSpec("barrel", draw_barrel, obstacle="half"),
        TileSpec("cart", draw_cart, obstacle="half"),
        TileSpec("well", draw_well, obstacle="half"),
        TileSpec("tree", draw_tree, obstacle="thin"),
        TileSpec("rock", draw_rock, obstacle="half"),
        TileSpec("water", lambda c: fluid(c, (30, 70, 96), (150, 200, 220)), terrain=("water",)),
        TileSpec("door_ns", rotate(draw_gate, 1), floor=True),
    ]


TILESETS: dict[str, list[TileSpec]] = {
    "station": _station(),
    "surface": _surface(),
    "hull": _hull(),
    "keep": _keep(),
}


def tile_ids(tileset: str) -> dict[str, int]:
    """Tile key -> local tile id in `tileset` (ids are positions: append new tiles at the end)."""
    return {spec.key: i for i, spec in enumerate(TILESETS[tileset])}


def tile_count(tileset: str) -> int:
    """Slots in the tileset image: whole rows of COLUMNS, as Tiled counts them."""
    return -(-len(TILESETS[tileset]) // COLUMNS) * COLUMNS


def _seed(name: str, key: str) -> int:
    # Seeded from the names, so adding a tile elsewhere never changes another tile's art.
    return zlib.crc32(f"{name}/{key}".encode())


def render(name: str) -> NDArray[np.uint8]:
    """The tileset image: tiles left to right, top to bottom, COLUMNS a row, transparent padding."""
    specs = TILESETS[name]
    rows = tile_count(name) // COLUMNS
    sheet = np.zeros((rows * TILE, COLUMNS * TILE, 4), dtype=np.uint8)
    for i, spec in enumerate(specs):
        canvas = Canvas(np.random.default_rng(_seed(name, spec.key)))
        spec.draw(canvas)
        row, col = divmod(i, COLUMNS)
        sheet[row * TILE : (row + 1) * TILE, col * TILE : (col + 1) * TILE] = canvas.to_rgba()
    return sheet


def png_bytes(rgba: NDArray[np.uint8]) -> bytes:
    """A minimal RGBA PNG (no filters, zlib level 9): deterministic for a given zlib."""
    height, width, _ = rgba.shape

    def chunk(tag: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(tag + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)

    raw = b"".join(b"\x00" + rgba[y].tobytes() for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def tsx_text(name: str) -> str:
    """The .tsx text, laid out as Tiled 1.8 saves it, so a save from Tiled changes nothing."""
    specs = TILESETS[name]
    count = tile_count(name)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tileset version="1.8" tiledversion="{TILED_VERSION}" name="{name}" '
        f'tilewidth="{TILE}" tileheight="{TILE}" tilecount="{count}" columns="{COLUMNS}">',
        f' <image source="{name}.png" width="{COLUMNS * TILE}" '
        f'height="{count // COLUMNS * TILE}"/>',
    ]
    for i, spec in enumerate(specs):
        lines.append(f' <tile id="{i}" type="{spec.key}">')
        lines.append("  <properties>")
        for prop, kind, value in spec.properties():
            type_attr = "" if kind == "string" else f' type="{kind}"'
            lines.append(f'   <property name="{prop}"{type_attr} value="{value}"/>')
        lines.append("  </properties>")
        lines.append(" </tile>")
    lines.append("</tileset>")
    return "\n".join(lines) + "\n"


def write_tilesets(out_dir: Path) -> list[Path]:
    """Write every tileset's PNG and .tsx into `out_dir`; returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name in TILESETS:
        png = out_dir / f"{name}.png"
        png.write_bytes(png_bytes(render(name)))
        tsx = out_dir / f"{name}.tsx"
        tsx.write_text(tsx_text(name), encoding="utf-8", newline="\n")
        written += [png, tsx]
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output folder")
    args = parser.parse_args(argv)
    for path in write_tilesets(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
