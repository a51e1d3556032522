"""The read-only 3D battlefield: one obstacle, terrain flags and a floor flag per cell (G-1..3)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, IntFlag
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from game.rules.jump import is_microgravity

Cell = tuple[int, int, int]

# Obstacle codes as plain ints too, so numba kernels can compare against them (G-2).
OBSTACLE_NONE = 0
OBSTACLE_HALF = 1
OBSTACLE_FULL = 2
OBSTACLE_THIN = 3

# Terrain bit flags (G-3).
TERRAIN_ROUGH = 1
TERRAIN_WATER = 2
TERRAIN_CLIMBABLE = 4
TERRAIN_STAIRS = 8

DEFAULT_GRAVITY = 0.2
CELL_METRES = 1.5


class Obstacle(IntEnum):
    """What stands in a cell (G-2); ordered by strength so the strongest of several wins."""

    NONE = OBSTACLE_NONE
    HALF = OBSTACLE_HALF
    THIN = OBSTACLE_THIN
    FULL = OBSTACLE_FULL

    @classmethod
    def from_name(cls, name: str) -> Obstacle:
        try:
            return cls[name.strip().upper()]
        except KeyError:
            raise ValueError(
                f"unknown obstacle {name!r} (expected none, half, full or thin)"
            ) from None

    @property
    def strength(self) -> int:
        """none < half < thin < full: thin blocks sight like full but covers less (G-2)."""
        return {Obstacle.NONE: 0, Obstacle.HALF: 1, Obstacle.THIN: 2, Obstacle.FULL: 3}[self]


class Terrain(IntFlag):
    """Terrain flags of a cell (G-3); several add up."""

    NONE = 0
    ROUGH = TERRAIN_ROUGH
    WATER = TERRAIN_WATER
    CLIMBABLE = TERRAIN_CLIMBABLE
    STAIRS = TERRAIN_STAIRS

    @classmethod
    def from_names(cls, names: list[str] | tuple[str, ...]) -> Terrain:
        flags = cls.NONE
        for name in names:
            key = name.strip().upper()
            if not key:
                continue
            if key not in cls.__members__ or key == "NONE":
                raise ValueError(
                    f"unknown terrain {name!r} (expected rough, water, climbable or stairs)"
                )
            flags |= cls[key]
        return flags


def _read_only(a: NDArray[np.generic]) -> None:
    a.setflags(write=False)


#: The map-wide light, smoke and weather a grid may carry (map properties `darkness`, `smoke`
#: and `weather`): the battle's starting conditions (issue 15; the GM may change them).
DARKNESS = ("none", "low", "total")
SMOKE = ("none", "light", "dense")
WEATHER = ("none", "bad")


@dataclass(frozen=True, eq=False)
class Grid:
    """A battlefield of width x height x levels cells, indexed [x, y, z]; z grows up (G-1).

    x grows right and y grows down, as in Tiled. Arrays are read-only: a battle never edits
    terrain, it only reads it.
    """

    obstacle: NDArray[np.uint8]
    terrain: NDArray[np.uint8]
    floor: NDArray[np.bool_]
    #: Derived (G-3): no obstacle, and z == 0 or a floor flag or a full obstacle below.
    standable: NDArray[np.bool_]
    #: Derived: 1 where the obstacle blocks line of sight (full or thin, P-LOS-1).
    sight_block: NDArray[np.uint8]
    gravity: float = DEFAULT_GRAVITY
    pressurised: bool = True
    #: The map's light and smoke over the whole battlefield (map properties `darkness`, `smoke`):
    #: what a ruleset's ranged attacks read (Cepheus 000:l.213-215); "none" for neither.
    darkness: str = "none"
    smoke: str = "none"
    weather: str = "none"

    @staticmethod
    def build(
        obstacle: NDArray[np.uint8],
        terrain: NDArray[np.uint8] | None = None,
        floor: NDArray[np.bool_] | None = None,
        *,
        gravity: float = DEFAULT_GRAVITY,
        pressurised: bool = True,
        darkness: str = "none",
        smoke: str = "none",
        weather: str = "none",
    ) -> Grid:
        """Validate the arrays, derive the rest and freeze everything."""
        obs = np.ascontiguousarray(obstacle, dtype=np.uint8).copy()
        if obs.ndim != 3 or min(obs.shape) < 1:
            raise ValueError(f"a grid needs three non-empty dimensions, got shape {obs.shape}")
        if int(obs.max(initial=0)) > OBSTACLE_THIN:
            raise ValueError("obstacle codes must be 0..3 (none, half, full, thin)")
        ter = (
            np.zeros_like(obs)
            if terrain is None
            else np.ascontiguousarray(terrain, dtype=np.uint8).copy()
        )
        flo = (
            np.zeros(obs.shape, dtype=np.bool_)
            if floor is None
            else np.ascontiguousarray(floor, dtype=np.bool_).copy()
        )
        if ter.shape != obs.shape or flo.shape != obs.shape:
            raise ValueError("obstacle, terrain and floor arrays must have the same shape")
        if not np.isfinite(gravity) or gravity < 0:
            raise ValueError(f"gravity must be a number of g >= 0, got {gravity!r}")
        if darkness not in DARKNESS or smoke not in SMOKE:
            raise ValueError(
                f"darkness must be one of {', '.join(DARKNESS)} and smoke one of"
                f" {', '.join(SMOKE)}, got {darkness!r} and {smoke!r}"
            )
        if weather not in WEATHER:
            raise ValueError(f"weather must be one of {', '.join(WEATHER)}, got {weather!r}")
        supported = flo.copy()
        supported[:, :, 0] = True
        supported[:, :, 1:] |= obs[:, :, :-1] == OBSTACLE_FULL
        standable = supported & (obs == OBSTACLE_NONE)
        sight = ((obs == OBSTACLE_FULL) | (obs == OBSTACLE_THIN)).astype(np.uint8)
        for a in (obs, ter, flo, standable, sight):
            _read_only(a)
        return Grid(
            obs, ter, flo, standable, sight, float(gravity), bool(pressurised), darkness, smoke,
            weather,
        )  # fmt: skip

    @staticmethod
    def empty(width: int, height: int, levels: int = 1, **kwargs: float | bool) -> Grid:
        """Open ground of the given size."""
        obs = np.zeros((width, height, levels), dtype=np.uint8)
        return Grid.build(obs, **kwargs)  # type: ignore[arg-type]

    @property
    def shape(self) -> tuple[int, int, int]:
        x, y, z = self.obstacle.shape
        return int(x), int(y), int(z)

    @cached_property
    def microgravity(self) -> bool:
        """P-JUMP-2: below 0.05 g the P-ZERO rules apply."""
        return is_microgravity(self.gravity)

    def in_bounds(self, cell: Cell) -> bool:
        x, y, z = cell
        w, h, d = self.shape
        return 0 <= x < w and 0 <= y < h and 0 <= z < d

    def obstacle_at(self, cell: Cell) -> Obstacle:
        return Obstacle(int(self.obstacle[cell]))

    def terrain_at(self, cell: Cell) -> Terrain:
        return Terrain(int(self.terrain[cell]))
