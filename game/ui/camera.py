"""The battlefield camera: map pixels to screen pixels, pan, zoom about a point, fit the map."""

from __future__ import annotations

from dataclasses import dataclass

#: Zoom steps the wheel moves through; 1 is the map's own tile size.
ZOOMS: tuple[float, ...] = (0.25, 0.375, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
#: Screen pixels a cell needs for a token's figure, name and badges to read at a glance: the
#: battle opens at the first zoom step that gives at least this much.
READABLE_CELL = 44


def readable_zoom(tile: int, cell_px: int = READABLE_CELL) -> float:
    """The smallest zoom step at which a `tile`-pixel cell is at least `cell_px` on screen."""
    return next((z for z in ZOOMS if tile * z >= cell_px), ZOOMS[-1])


@dataclass
class Camera:
    """Where the map lies in the board's viewport.

    `x`, `y`: the map pixel (at zoom 1) shown at the viewport's top-left corner; `zoom` scales
    map pixels to screen pixels. The viewport is the part of the window the board draws in.
    """

    map_size: tuple[int, int]
    viewport: tuple[int, int, int, int]
    x: float = 0.0
    y: float = 0.0
    zoom: float = 1.0

    @property
    def view_size(self) -> tuple[float, float]:
        """The viewport's size in map pixels at the current zoom."""
        return self.viewport[2] / self.zoom, self.viewport[3] / self.zoom

    def to_screen(self, mx: float, my: float) -> tuple[float, float]:
        vx, vy, _w, _h = self.viewport
        return vx + (mx - self.x) * self.zoom, vy + (my - self.y) * self.zoom

    def to_map(self, sx: float, sy: float) -> tuple[float, float]:
        vx, vy, _w, _h = self.viewport
        return self.x + (sx - vx) / self.zoom, self.y + (sy - vy) / self.zoom

    def pan(self, dx_screen: float, dy_screen: float) -> None:
        """Move the view by screen pixels (a drag to the right shows what is to the left)."""
        self.x += dx_screen / self.zoom
        self.y += dy_screen / self.zoom
        self.clamp()

    def zoom_at(self, steps: int, sx: float, sy: float) -> None:
        """Zoom `steps` notches in (positive) or out, keeping the map point under (sx, sy) put."""
        index = min(range(len(ZOOMS)), key=lambda i: abs(ZOOMS[i] - self.zoom))
        new = ZOOMS[max(0, min(len(ZOOMS) - 1, index + steps))]
        if new == self.zoom:
            return
        mx, my = self.to_map(sx, sy)
        self.zoom = new
        vx, vy, _w, _h = self.viewport
        self.x = mx - (sx - vx) / new
        self.y = my - (sy - vy) / new
        self.clamp()

    def fit(self) -> None:
        """The largest zoom step at which the whole map fits, centred."""
        w, h = self.map_size
        fitting = [z for z in ZOOMS if w * z <= self.viewport[2] and h * z <= self.viewport[3]]
        self.zoom = max(fitting) if fitting else ZOOMS[0]
        self.centre_on(w / 2, h / 2)

    def centre_on(self, mx: float, my: float) -> None:
        vw, vh = self.view_size
        self.x, self.y = mx - vw / 2, my - vh / 2
        self.clamp()

    def show(self, mx: float, my: float, margin: float = 64.0) -> None:
        """Pan just enough that the map point is inside the view, `margin` screen pixels in."""
        vw, vh = self.view_size
        m = margin / self.zoom
        if not (self.x + m <= mx <= self.x + vw - m and self.y + m <= my <= self.y + vh - m):
            self.centre_on(mx, my)

    def clamp(self) -> None:
        """Keep some of the map in view: at most half a viewport of empty space on any side."""
        w, h = self.map_size
        vw, vh = self.view_size
        self.x = min(max(self.x, -vw / 2), max(w - vw / 2, -vw / 2))
        self.y = min(max(self.y, -vh / 2), max(h - vh / 2, -vh / 2))
