"""What loading a Tiled map produces: a grid, unit placements, render layers, and MapError."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

from game.grid.model import Cell, Grid
from game.grid.occupants import Size
from game.rules.stance import Stance

#: A custom property as Tiled stores it; class-typed properties become nested mappings.
PropertyValue: TypeAlias = "str | int | float | bool | Mapping[str, PropertyValue]"
Properties: TypeAlias = Mapping[str, PropertyValue]
RGB: TypeAlias = tuple[int, int, int]
RGBA: TypeAlias = tuple[int, int, int, int]

#: Flip flags of a tile, as in RenderLayer.flags (Tiled keeps them in the gid's top bits).
FLIP_H = 1
FLIP_V = 2
FLIP_D = 4


class MapError(ValueError):
    """A map that cannot be opened; the message names the file, the place and the problem."""


@dataclass(frozen=True)
class MapProperties:
    """The map-wide settings (map properties in Tiled), defaults filled in."""

    name: str
    description: str
    ruleset: str
    #: In g (P-JUMP-2).
    gravity: float
    pressurised: bool
    #: Every map property as written, including the ones above and any others.
    all: Properties
    #: The light, smoke and weather over the whole map as a battle begins (grid.model.DARKNESS,
    #: SMOKE, WEATHER): "none" by default.
    darkness: str = "none"
    smoke: str = "none"
    weather: str = "none"


@dataclass(frozen=True)
class UnitPlacement:
    """A unit the map places on the battlefield at the start (or as reinforcement)."""

    name: str
    faction: str
    cell: Cell
    template: str | None
    stance: Stance
    weapon: str | None
    armour: str | None
    #: Hidden from the other factions (P-INIT-4).
    hidden: bool
    #: Skips its first turn (P-INIT-5).
    surprised: bool
    #: Reinforcement arriving at the start of this round (P-INIT-6); None = present from the start.
    arrives_round: int | None
    size: Size
    neutral: bool
    object_id: int
    layer_id: int
    #: All the object's properties: tile's, then template's, then its own, later ones winning.
    properties: Properties
    #: Medical kits carried (P-HEAL-1).
    medkits: int = 1
    #: On the map but outside the combat until another side sees it (P-INIT-7).
    outside_combat: bool = False


@dataclass(frozen=True)
class RenderTileset:
    """A tileset as the renderer needs it; it owns gids first_gid .. first_gid + tile_count - 1
    (for an image collection, tile_count spans up to its highest tile id)."""

    name: str
    first_gid: int
    tile_count: int
    tile_size: tuple[int, int]
    #: The tileset image (absolute path), or None for an image-collection tileset.
    image: Path | None
    image_size: tuple[int, int] | None
    margin: int
    spacing: int
    columns: int
    #: Colour drawn as transparent (Tiled's "trans"), or None.
    transparent: RGB | None
    tile_offset: tuple[int, int]
    #: Image-collection tilesets: local tile id -> its own image.
    tile_images: Mapping[int, Path]
    #: Animated tiles: local tile id -> ((local tile id, duration in ms), ...).
    animations: Mapping[int, tuple[tuple[int, int], ...]]
    #: The .tsx file, or None when the tileset is embedded in the map.
    source: Path | None


@dataclass(frozen=True)
class RenderObject:
    """One object of an object layer, templates applied; coordinates in pixels as in Tiled."""

    id: int
    name: str
    cls: str
    #: rectangle, ellipse, point, polygon, polyline, text or tile.
    shape: str
    x: float
    y: float
    width: float
    height: float
    rotation: float
    visible: bool
    #: Tile objects: the gid without flip bits (0 for other shapes), and its FLIP_* flags.
    gid: int
    flags: int
    #: Polygon / polyline points, relative to (x, y).
    points: tuple[tuple[float, float], ...]
    text: str
    properties: Properties


@dataclass(frozen=True, eq=False)
class RenderLayer:
    """A drawable layer with everything inherited from its groups already applied."""

    #: tile, image or object.
    kind: str
    id: int
    name: str
    level: int
    #: Effective values: own combined with every enclosing group's.
    visible: bool
    opacity: float
    offset: tuple[float, float]
    parallax: tuple[float, float]
    tint: RGBA | None
    #: Tile layers: gids without flip bits, indexed [x, y] like the grid (0 = no tile), and the
    #: FLIP_* flags per cell. None for other kinds.
    gids: NDArray[np.uint32] | None
    flags: NDArray[np.uint8] | None
    #: Image layers: the image (absolute path), or None when the layer has no image.
    image: Path | None
    transparent: RGB | None
    repeat: tuple[bool, bool]
    #: Object layers: the objects in file order, and Tiled's draw order (topdown or index).
    objects: tuple[RenderObject, ...]
    draw_order: str
    #: A units layer: the game draws its units itself.
    units: bool


@dataclass(frozen=True, eq=False)
class RenderMap:
    """Everything needed to draw the map as Tiled does, per level."""

    tile_size: tuple[int, int]
    #: In cells (tiles).
    size: tuple[int, int]
    background: RGBA | None
    render_order: str
    #: Sorted by first_gid.
    tilesets: tuple[RenderTileset, ...]
    #: levels[z] is level z's layers in draw order (bottom first).
    levels: tuple[tuple[RenderLayer, ...], ...]

    def tileset_for(self, gid: int) -> RenderTileset | None:
        """The tileset that owns `gid` (flip bits removed), or None."""
        firsts = [t.first_gid for t in self.tilesets]
        i = bisect_right(firsts, gid) - 1
        if i < 0 or gid >= self.tilesets[i].first_gid + self.tilesets[i].tile_count:
            return None
        return self.tilesets[i]


@dataclass(frozen=True)
class LevelInfo:
    """One level of the map: its number, the group that defines it, its layers in draw order."""

    level: int
    #: The top-level group carrying `level`, or None (layers outside level groups).
    group_name: str | None
    group_id: int | None
    layers: tuple[RenderLayer, ...]


@dataclass(frozen=True)
class LayerNode:
    """A node of the map's layer tree (group, tile, object or image layer), in file order."""

    kind: str
    id: int
    name: str
    cls: str
    properties: Properties
    #: Own properties over the enclosing groups' (the innermost wins).
    effective_properties: Properties
    visible: bool
    effective_visible: bool
    #: The level the layer belongs to; groups: the level of (or inside) a level group, else None.
    level: int | None
    children: tuple[LayerNode, ...]


@dataclass(frozen=True, eq=False)
class LoadedMap:
    """A Tiled map made ready for a battle."""

    grid: Grid
    units: tuple[UnitPlacement, ...]
    levels: tuple[LevelInfo, ...]
    render: RenderMap
    properties: MapProperties
    #: Warnings for the map maker; the map still works.
    notices: tuple[str, ...]
    group_tree: tuple[LayerNode, ...]
    source: Path
