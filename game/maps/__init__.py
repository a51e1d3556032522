"""The only module that knows Tiled: .tmx files become grids, units and render layers."""

from game.maps.loader import MAX_CELLS, MAX_LEVELS, load_map
from game.maps.model import (
    FLIP_D,
    FLIP_H,
    FLIP_V,
    LayerNode,
    LevelInfo,
    LoadedMap,
    MapError,
    MapProperties,
    RenderLayer,
    RenderMap,
    RenderObject,
    RenderTileset,
    UnitPlacement,
)
from game.maps.tmx import MAX_FILE_BYTES, MAX_SIDE, MAX_TILE_ENTRIES

__all__ = [
    "FLIP_D",
    "FLIP_H",
    "FLIP_V",
    "MAX_CELLS",
    "MAX_FILE_BYTES",
    "MAX_LEVELS",
    "MAX_SIDE",
    "MAX_TILE_ENTRIES",
    "LayerNode",
    "LevelInfo",
    "LoadedMap",
    "MapError",
    "MapProperties",
    "RenderLayer",
    "RenderMap",
    "RenderObject",
    "RenderTileset",
    "UnitPlacement",
    "load_map",
]
