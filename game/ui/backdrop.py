"""The title screen's background, drawn by code: a mosaic of small tiles (a *tessera* is one),
dark blue-grey with a few lit in the sides' colours, under a vignette. No image file."""

from __future__ import annotations

import numpy as np
import pygame

TILE = 22
GROUT = 2
#: The base tone and the accents (the board's first side colours, dimmed).
BASE = np.array([24, 30, 40], dtype=np.float64)
ACCENTS = np.array([[70, 110, 170], [170, 80, 70], [60, 140, 110], [150, 130, 60]])


def mosaic(size: tuple[int, int], seed: int = 17) -> pygame.Surface:
    """The background for a screen of `size`; the same picture for the same size and seed."""
    w, h = max(1, size[0]), max(1, size[1])
    rng = np.random.default_rng(seed)
    cols, rows = w // TILE + 2, h // TILE + 2
    tiles = BASE + rng.normal(0.0, 4.0, (cols, rows, 1))
    lit = rng.random((cols, rows)) < 0.035
    picks = rng.integers(0, len(ACCENTS), (cols, rows))
    glow = rng.uniform(0.35, 0.7, (cols, rows, 1))
    tiles = np.where(lit[..., None], ACCENTS[picks] * glow, tiles)
    # Each pixel takes its tile's colour; the grout lines between tiles are darker.
    xs, ys = np.arange(w), np.arange(h)
    picture = tiles[xs[:, None] // TILE, ys[None, :] // TILE]
    grout = ((xs % TILE) < GROUT)[:, None] | ((ys % TILE) < GROUT)[None, :]
    picture[grout] = BASE * 0.45
    # A vignette: the centre, where the menu stands, a little darker and calmer.
    cx, cy = (xs - w / 2) / (w / 2), (ys - h / 2) / (h / 2)
    distance = np.sqrt(cx[:, None] ** 2 + cy[None, :] ** 2)
    shade = np.clip(0.45 + 0.45 * distance, 0.45, 1.0)[..., None]
    picture = np.clip(picture * shade, 0, 255).astype(np.uint8)
    return pygame.surfarray.make_surface(picture)


#: The pane that holds a screen's words over the mosaic: near-black, a thin blue rim.
PANE, PANE_RIM = (10, 12, 16, 215), (90, 130, 190, 150)


def pane(screen: pygame.Surface, rect: pygame.Rect) -> None:
    """A dark pane over the mosaic, so that the words on it read (the title screen's, the
    hand-over's)."""
    surface = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(surface, PANE, surface.get_rect(), border_radius=10)
    pygame.draw.rect(surface, PANE_RIM, surface.get_rect(), 1, border_radius=10)
    screen.blit(surface, rect.topleft)
