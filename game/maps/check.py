"""`tessera check-map MAP...`: load maps and summarise each for its maker, or say what is wrong."""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from game.grid.model import Obstacle, Terrain
from game.maps.loader import load_map
from game.maps.model import LoadedMap, MapError, RenderLayer, UnitPlacement


def run_check_map(paths: str | Sequence[str]) -> int:
    """Summarise each map on standard output (its first line, `map: PATH`, heads it; a blank
    line between two) and return 0; a map that fails gives `error: <message>` on standard error
    and the others are still summarised, and then 2 is returned."""
    if isinstance(paths, str):
        paths = [paths]
    status = 0
    shown = 0
    for path in paths:
        try:
            loaded = load_map(path)
        except MapError as e:
            sys.stdout.flush()  # keep stdout and stderr in order on a terminal
            print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
            status = 2
            continue
        if shown:
            print()
        print(summary(loaded, path))
        shown += 1
    return status


def summary(loaded: LoadedMap, shown_path: str) -> str:
    grid, props = loaded.grid, loaded.properties
    width, height, levels = grid.shape
    tile_w, tile_h = loaded.render.tile_size
    lines = [
        f"map: {shown_path}",
        f"name: {props.name}" + (f" — {props.description}" if props.description else ""),
        f"size: {width}×{height} cells, {levels} level{'s' if levels != 1 else ''}"
        f" (tiles {tile_w}×{tile_h} px)",
        f"gravity: {props.gravity:g} g{' (microgravity)' if grid.microgravity else ''}; "
        f"pressurised: {'yes' if props.pressurised else 'no'}; ruleset: {props.ruleset}",
        "levels:",
    ]
    for level in loaded.levels:
        group = ""
        if level.group_id is not None:
            group = f" {level.group_name} (group {level.group_id})"
        names = ", ".join(_layer_label(layer) for layer in level.layers) or "no layers"
        lines.append(f"  {level.level}{group}: {names}")
    kinds = (Obstacle.FULL, Obstacle.THIN, Obstacle.HALF)
    lines.append(f"obstacles ({' / '.join(k.name.lower() for k in kinds)}):")
    for z in range(levels):
        kind_counts = (str(int(np.count_nonzero(grid.obstacle[:, :, z] == k))) for k in kinds)
        lines.append(f"  level {z}: {' / '.join(kind_counts)}")
    flags = [t for t in Terrain if t]
    lines.append("terrain:")
    for z in range(levels):
        counts = [
            f"{t.name.lower() if t.name else t} {int(np.count_nonzero(grid.terrain[:, :, z] & t))}"
            for t in flags
        ]
        counts.append(f"floor {int(np.count_nonzero(grid.floor[:, :, z]))}")
        lines.append(f"  level {z}: {', '.join(counts)}")
    lines.append(f"units: {len(loaded.units)}")
    by_faction: dict[str, list[UnitPlacement]] = defaultdict(list)
    for unit in loaded.units:
        by_faction[unit.faction].append(unit)
    for faction, units in by_faction.items():
        lines.append(f"  {faction} ({len(units)}):")
        lines.extend(f"    {_unit_label(u)}" for u in units)
    lines.append(f"notices: {len(loaded.notices)}")
    lines.extend(f"  - {notice}" for notice in loaded.notices)
    return "\n".join(lines)


def _layer_label(layer: RenderLayer) -> str:
    return layer.name + ("" if layer.visible else " (hidden)")


def _unit_label(unit: UnitPlacement) -> str:
    x, y, z = unit.cell
    marks = [
        mark
        for mark, on in (
            ("hidden", unit.hidden),
            ("surprised", unit.surprised),
            (f"arrives round {unit.arrives_round}", unit.arrives_round is not None),
        )
        if on
    ]
    return f"{unit.name} at ({x}, {y}, {z})" + (f" [{', '.join(marks)}]" if marks else "")
