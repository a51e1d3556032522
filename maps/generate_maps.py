"""Writes the project's battle maps (.tmx) from the plans in this file (build-time tool)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "maps"
TILESET_DIR = "../assets/tilesets"
TILE = 32


def _load_tilesets() -> ModuleType:
    """assets/generate_tilesets.py is a script, not a package: load it by path."""
    spec = importlib.util.spec_from_file_location(
        "generate_tilesets", ROOT / "assets" / "generate_tilesets.py"
    )
    if spec is None or spec.loader is None:
        raise ImportError("cannot load assets/generate_tilesets.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it is executing
    spec.loader.exec_module(module)
    return module


TILESETS = _load_tilesets()

#: A tile reference "tileset:key", e.g. "station:crate"; None leaves the cell empty.
Ref = str | None


@dataclass(frozen=True)
class Unit:
    """A unit placed in the cell (x, y) of the level whose plan lists it."""

    name: str
    faction: str
    x: int
    y: int
    template: str | None = None
    stance: str | None = None
    weapon: str | None = None
    hidden: bool = False
    surprised: bool = False
    arrives_round: int | None = None

    def properties(self) -> list[tuple[str, str, str]]:
        props = [("faction", "string", self.faction)]
        for name, value in (
            ("template", self.template),
            ("stance", self.stance),
            ("weapon", self.weapon),
        ):
            if value is not None:
                props.append((name, "string", value))
        if self.hidden:
            props.append(("hidden", "bool", "true"))
        if self.surprised:
            props.append(("surprised", "bool", "true"))
        if self.arrives_round is not None:
            props.append(("arrives_round", "int", str(self.arrives_round)))
        return sorted(props)


@dataclass(frozen=True)
class Level:
    """One storey: a picture of the level, one character a cell, read through a legend.

    The legend gives, for each character, the tile of each of the level's tile layers (in
    `layers` order), e.g. a crate is a floor plate in "base" plus a crate in "objects".
    """

    number: int
    plan: str = ""
    legend: dict[str, tuple[Ref, ...]] = field(default_factory=dict)
    layers: tuple[str, ...] = ("base", "objects")
    units: tuple[Unit, ...] = ()


@dataclass(frozen=True)
class MapPlan:
    file: str
    name: str
    description: str
    gravity: float
    pressurised: bool
    tilesets: tuple[str, ...]
    levels: tuple[Level, ...]
    width: int
    height: int
    #: Digits 0..4, one a cell: the heightmap (G-3), or None for flat maps.
    heights: str | None = None
    #: The ruleset a battle on the map is fought with unless the GM chooses another.
    ruleset: str = "periferie"


def _rows(picture: str, width: int) -> list[str]:
    """A plan's lines, padded with blanks (open air) to `width`: no trailing blanks to keep."""
    lines = picture.removeprefix("\n").removesuffix("\n").split("\n")
    return [line.ljust(width) for line in lines]


def raise_walls(lower: str, upper: str, width: int) -> str:
    """Walls run floor to ceiling: above a wall (#) of `lower`, a blank of `upper` is wall.

    Doors stay open to the ceiling, so that a door below is not hidden under the storey above.
    """
    rows = []
    for low, up in zip(_rows(lower, width), _rows(upper, width), strict=True):
        rows.append(
            "".join("#" if u == " " and w == "#" else u for w, u in zip(low, up, strict=True))
        )
    return "\n".join(rows)


# --- writing TMX ---------------------------------------------------------------------------------


class Gids:
    """Global tile ids of a map's tilesets, firstgid after firstgid as Tiled assigns them."""

    def __init__(self, tilesets: Sequence[str]) -> None:
        self.firstgid: dict[str, int] = {}
        gid = 1
        for name in tilesets:
            self.firstgid[name] = gid
            gid += TILESETS.tile_count(name)

    def __call__(self, ref: Ref) -> int:
        if ref is None:
            return 0
        tileset, key = ref.split(":")
        return self.firstgid[tileset] + int(TILESETS.tile_ids(tileset)[key])


def _properties(props: Sequence[tuple[str, str, str]], indent: str) -> list[str]:
    lines = [f"{indent}<properties>"]
    for name, kind, value in props:
        type_attr = "" if kind == "string" else f' type="{kind}"'
        text = escape(value, {'"': "&quot;"})
        lines.append(f'{indent} <property name="{name}"{type_attr} value="{text}"/>')
    lines.append(f"{indent}</properties>")
    return lines


def _tile_layer(layer_id: int, name: str, gids: list[list[int]], indent: str) -> list[str]:
    """A CSV layer laid out as Tiled writes it: one row a line, rows ending in a comma."""
    height, width = len(gids), len(gids[0])
    csv = ",\n".join(",".join(str(g) for g in row) for row in gids)
    return [
        f'{indent}<layer id="{layer_id}" name="{name}" width="{width}" height="{height}">',
        *_heightmap_props(name, indent),
        f'{indent} <data encoding="csv">',
        csv,
        "</data>",
        f"{indent}</layer>",
    ]


def _heightmap_props(layer_name: str, indent: str) -> list[str]:
    if layer_name != "heightmap":
        return []
    return _properties([("heightmap", "bool", "true")], indent + " ")


def _grid(picture: str, plan: MapPlan, what: str) -> list[str]:
    rows = _rows(picture, plan.width)
    if len(rows) != plan.height or any(len(r) != plan.width for r in rows):
        raise ValueError(f"{plan.file}: {what} is not {plan.width}×{plan.height} cells")
    return rows


def _height_gids(plan: MapPlan, gids: Gids, heights: str) -> list[list[int]]:
    """Heightmap tiles, each the variant whose slopes face its lower neighbours."""
    rows = [[int(ch) for ch in row] for row in _grid(heights, plan, "the heightmap")]
    sides = (
        (TILESETS.NORTH, 0, -1),
        (TILESETS.EAST, 1, 0),
        (TILESETS.SOUTH, 0, 1),
        (TILESETS.WEST, -1, 0),
    )
    out: list[list[int]] = []
    for y, row in enumerate(rows):
        out.append([])
        for x, h in enumerate(row):
            # Beyond the map's edge the ground counts as level: no slope is drawn there.
            lower = sum(
                bit
                for bit, dx, dy in sides
                if 0 <= y + dy < plan.height
                and 0 <= x + dx < plan.width
                and rows[y + dy][x + dx] < h
            )
            out[-1].append(gids(f"surface:{TILESETS.height_key(h, lower)}") if h else 0)
    return out


def _level_gids(plan: MapPlan, level: Level, gids: Gids) -> list[list[list[int]]]:
    """One gid grid per tile layer of the level, read from its plan through its legend."""
    if not level.layers:
        return []
    grids: list[list[list[int]]] = [[] for _ in level.layers]
    for y, row in enumerate(_grid(level.plan, plan, f"level {level.number}")):
        for grid in grids:
            grid.append([])
        for x, ch in enumerate(row):
            if ch not in level.legend:
                raise ValueError(
                    f"{plan.file}: level {level.number}, cell ({x}, {y}): {ch!r} not in the legend"
                )
            for grid, ref in zip(grids, level.legend[ch], strict=True):
                grid[-1].append(gids(ref))
    return grids


def _unit_object(unit: Unit, object_id: int, indent: str) -> list[str]:
    # A point at the centre of the unit's cell: the loader maps a point to the cell it lies in.
    x, y = (unit.x + 0.5) * TILE, (unit.y + 0.5) * TILE
    return [
        f'{indent}<object id="{object_id}" name="{unit.name}" x="{x:g}" y="{y:g}">',
        *_properties(unit.properties(), indent + " "),
        f"{indent} <point/>",
        f"{indent}</object>",
    ]


def tmx_text(plan: MapPlan) -> str:
    """The .tmx text, laid out as Tiled 1.8 saves it, so a save from Tiled changes nothing."""
    gids = Gids(plan.tilesets)
    body: list[str] = []
    layer_id = 0
    object_id = 0
    for level in plan.levels:
        layer_id += 1
        body.append(f' <group id="{layer_id}" name="level {level.number}">')
        body += _properties([("level", "int", str(level.number))], "  ")
        if level.number == 0 and plan.heights is not None:
            layer_id += 1
            body += _tile_layer(layer_id, "heightmap", _height_gids(plan, gids, plan.heights), "  ")
        for name, grid in zip(level.layers, _level_gids(plan, level, gids), strict=True):
            layer_id += 1
            body += _tile_layer(layer_id, name, grid, "  ")
        layer_id += 1
        # Every level gets a units layer, empty or not, so units can be added to it in Tiled.
        if not level.units:
            body.append(f'  <objectgroup id="{layer_id}" name="units"/>')
        else:
            body.append(f'  <objectgroup id="{layer_id}" name="units">')
            for unit in level.units:
                object_id += 1
                body += _unit_object(unit, object_id, "   ")
            body.append("  </objectgroup>")
        body.append(" </group>")
    map_properties = [
        ("description", "string", plan.description),
        ("gravity", "float", f"{plan.gravity:g}"),
        ("name", "string", plan.name),
        ("pressurised", "bool", "true" if plan.pressurised else "false"),
        ("ruleset", "string", plan.ruleset),
    ]
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<map version="1.8" tiledversion="{TILESETS.TILED_VERSION}" orientation="orthogonal" '
        f'renderorder="right-down" width="{plan.width}" height="{plan.height}" '
        f'tilewidth="{TILE}" tileheight="{TILE}" infinite="0" nextlayerid="{layer_id + 1}" '
        f'nextobjectid="{object_id + 1}">',
        *_properties(map_properties, " "),
        *(
            f' <tileset firstgid="{gids.firstgid[t]}" source="{TILESET_DIR}/{t}.tsx"/>'
            for t in plan.tilesets
        ),
    ]
    return "\n".join([*head, *body, "</map>"]) + "\n"


# --- the maps ------------------------------------------------------------------------------------

STATION_LEGEND_0: dict[str, tuple[Ref, ...]] = {
    "#": ("station:wall", None),
    ".": ("station:floor", None),
    ",": ("station:floor_worn", None),
    "%": ("station:floor_hazard", None),
    "x": ("station:floor_hazard", "station:marker"),
    "c": ("station:floor", "station:crate"),
    "C": ("station:floor", "station:crate_stack"),
    "k": ("station:floor", "station:console"),
    "o": ("station:floor", "station:pillar"),
    "p": ("station:floor", "station:pipes_ew"),
    "n": ("station:stairs_n", None),
    "H": ("station:floor", "station:ladder"),
    "-": ("station:door_ew", None),
    "|": ("station:door_ns", None),
    "~": ("station:coolant", None),
}

STATION_LEGEND_1: dict[str, tuple[Ref, ...]] = {
    " ": (None, None),
    "#": ("station:wall", None),
    "=": ("station:grating", None),
    "r": ("station:grating", "station:railing_ew"),
    "R": ("station:grating", "station:railing_ns"),
    "h": ("station:hatch", None),
    ".": ("station:floor_upper", None),
    "k": ("station:floor_upper", "station:console"),
    "c": ("station:floor_upper", "station:crate"),
    "|": ("station:door_ns", None),
}

# Deck 7 of Ardea station. West: storeroom, docking bay (the raiders' airlock, hazard-striped),
# crew quarters. Centre: the double-height cargo hall, pillars, crates, stairs up to the north
# gallery. East: security office, corridor with a ladder, armoury. South: the coolant pump room.
STATION_0 = """
########################################
#CCc..cC.#C..cc....C......cC.#k.kk...k.#
#C.......#..........c.....c..#.......C.#
#c..cc...#c..................#c....c..C#
#C..cC...|...................#.........#
#C.......#cc............,....#.........#
#c......c#...nn..............#k.......k#
#.....CC.#,..................#.....c...#
#C.c.....#.........c.........#.........#
####-#####..o.....o.....o....####-######
#k......,#...................#.........#
#%%%.....#....cc.......,.....|.,......H#
#%x%.....#....cC..........c..#.........#
#%%%.....#,..................#####-#####
#%%%.....|...%%%%%.....c.....#C......CC#
#%%%.....|...%%%%%...........#c..cc...C#
#%x%.....#......,............#.........#
#%%%.....#..o.....o.....o....#C.c......#
#k.......#.c.................#CC...c..C#
#........#.....cc......c...H.#C......CC#
#####-####...................#k........#
#c.....c.###-#########-###########-#####
#C.....C.#kk.......k.....,.......k....k#
#........#o.................o..........#
#c..,....#.~~~~~.~~~~~~~~~.~~~~~~~.~~~~#
#C.......|.~~~~~.~~~~~~~~~.~~~~~~~.~~~~#
#c......c#........o...........o........#
#C..,...C#.pppppppppp....pppppppppppp..#
#c......c#......,.........k........k...#
########################################
"""

# The storey above (z = 1): the gallery along the hall's north wall (stairs arrive at its gap in
# the railing), the catwalk down the hall's east side (ladder hatch at its south end), and the
# control room over the security office (door from the gallery, ladder hatch from the corridor).
STATION_1 = raise_walls(
    STATION_0,
    """

          =================== ........k
          =================== ....cc..k
          ===================|.........
          =================== .........
          rrr==rrrrrrrrrrr=== .........
                          R== k........
                          R== .........
                          R== .........
                          R== ........k
                          R== .........
                          R== ........h
                          R==###########
                          R==
                          R==
                          R==
                          R==
                          R==
                          R==
                          Rh=
                          rrr









""",
    40,
)

STATION = MapPlan(
    file="station_interior.tmx",
    name="Ardea Station, deck 7: cargo hall",
    description=(
        "Raiders cut in through the docking bay of Ardea station and make for the cargo hall; "
        "station security holds the gallery, the catwalk and the control room above it."
    ),
    gravity=0.2,
    pressurised=True,
    tilesets=("station",),
    width=40,
    height=30,
    levels=(
        Level(
            0,
            STATION_0,
            STATION_LEGEND_0,
            units=(
                Unit("Bruno", "station_security", 15, 28, "station_guard", "prone", hidden=True),
                Unit("Ferri", "station_security", 32, 16, "station_guard", arrives_round=3),
                Unit("Lang", "station_security", 33, 18, "station_guard", arrives_round=3),
                Unit("Kask", "raiders", 11, 14, "human", weapon="shotgun"),
                Unit("Rook", "raiders", 6, 12, "human", weapon="smg"),
                Unit("Sable", "raiders", 5, 16, "human", weapon="carbine"),
                Unit("Wisp", "raiders", 3, 6, "scavenger", "crouched", hidden=True),
                Unit("Brann", "raiders", 2, 12, "human", weapon="smg", arrives_round=2),
                Unit("Tallow", "raiders", 2, 16, "human", weapon="pistol", arrives_round=2),
            ),
        ),
        Level(
            1,
            STATION_1,
            STATION_LEGEND_1,
            units=(
                Unit("Okafor", "station_security", 20, 2, "station_guard", "crouched"),
                Unit("Vidal", "station_security", 28, 9, "station_guard"),
                Unit("Marchetti", "station_security", 37, 2, "human", surprised=True),
            ),
        ),
    ),
)

SURFACE_LEGEND_0: dict[str, tuple[Ref, ...]] = {
    " ": (None, None),  # higher ground: the heightmap fills the column, its top is a level above
    ".": ("surface:bedrock", None),
    ":": ("surface:regolith", None),
    ";": ("surface:rubble", None),
    "b": ("surface:bedrock", "surface:boulder"),
    "#": ("surface:rock_wall", None),
    "~": ("surface:meltwater", None),
    "=": ("surface:pad", None),
    "C": ("surface:pad", "surface:supply_crate"),
    "_": ("surface:module_floor", None),
    "d": ("surface:module_floor", None),
    "M": ("surface:module_wall", None),
    "x": ("surface:module_floor", "surface:supply_crate"),
    "k": ("surface:module_floor", "station:console"),
    "c": ("surface:bedrock", "surface:supply_crate"),
    "s": ("surface:bedrock", "surface:barrier"),
    "m": ("surface:bedrock", "surface:mast"),
    "T": ("surface:bedrock", "surface:mast"),
    "H": ("surface:bedrock", "surface:ladder"),
    ">": ("surface:steps_e", None),
}

SURFACE_LEGEND_UP: dict[str, tuple[Ref, ...]] = {
    " ": (None, None),
    "P": ("surface:platform", None),
    "h": ("surface:platform_hatch", None),
    ">": ("surface:steps_e", None),
}

# Heights of the ground, 0..3 (G-3): the mesa in the north-east (top at z = 3), the crater rim in
# the west, a knoll in the north and the ridge in the south-west.
SURFACE_HEIGHTS = """
000000000000000000000000000000000000000000000000
000000000000000000000000000000000000000000000000
000000000000000000000000000000000001111111000000
000000000000000000001110000000000111111111110000
000000000000000000011111000000001122222222211000
000000000000000000011111000000011223333333321100
000000001111111000011111000000012233333333332100
000000011111111100001110000000012333333333333100
000000111100011110000000000000123333333333333100
000000111000001110000000000000012233333333332100
000000110000000000000000000000012223333333322100
000000110000000000000000000000011222222222221100
000000110000000000000000000000001122222222211000
000000111000001110000000000000000111111111110000
000000111100011110000000000000000001111111000000
000000011111111100000000000000000000000000000000
000000001111111000000000000000000000000000000000
000000000000000000000000000000000000000000000000
000000000000000000000000000000000000000000000000
000000000000000000000000000000000000000000000000
000000000000000000000000000000000000000000000000
000000000000000000000000000000000000000000000000
000000000000000000000000000000000000000000000000
000000000000000000000000000000000000000000000000
001110000000000000000000000000000000000000000000
011211100000000000000000000000000000000000000000
012222111000000000000000000000000000000000000000
011222221110000000000000000000000000000000000000
001112222211100000000000000000000000000000000000
000011122222111000000000000000000000000000000000
000001112222211100000000000000000000000000000000
000000011122222111000000000000000000000000000000
000000000111222221100000000000000000000000000000
000000000001112222100000000000000000000000000000
000000000000011121100000000000000000000000000000
000000000000000111000000000000000000000000000000
"""

# The ground (z = 0, blank where the heightmap raises it): loose regolith and rubble fields,
# boulders, rock outcrops, the meltwater pool in the crater; the miners' outpost in the middle
# (habitat, workshop, comms tower, sandbag lines) and the landing pad in the south-east. The
# rock-cut steps at (29, 8) start the path up the mesa.
SURFACE_0 = """
.:::........................:...................
.:::.......................:::..................
:::::.....................:::::....       ......
:::::...............   ...:::;:..           ....
::##:.....;;;......     ..::::;.             ...
:::#:...;;;.;;;....     ..:::::               ..
:::::.;;       ;;..     .::::::               ..
:::::.;         ;...   ...:::::               ..
:::::;    ...    ;........:::>                ..
:::::;   ..~..   ;........:::::               ..
::::;;  ..~~~....;;.......:::::               ..
::::;.  .~~~~~....;........:::.               ..
::::;;  ..~~~....;;.........:...             ##.
:::::b   ..~..   ;.....b...b...ss           ....
:::::;    ...    ;..............;;;       ;;;...
:::::.;         ;:::............;;;;;;;;;;;;;...
::::;.;;       ;;::::...b.....TT.MMMMMMM........
:::::##.;;;.;;;:::::..........HT.M___kxM....b...
:::::.....;;;....s.m.............d____xM........
.:::...........;.s..MMMMdMMMM....M_____M........
.:::.........;##.s..Mk_____kMc...Mx____M........
.::b..........#.;s..M_______M....MMMdMMM..;.....
..:.....b......;....M_______d.............##;...
.............b......d_______M...c........;.#....
..   ............s..M_______Mc...............m..
.      ....b.....s.cMk____xxM......===========:.
.        ........s.cMMMMMMMMM......===========::
.          ......s.............c...==CC=======::
.b           ...b............m.....==C========::
....           ......ssssss........===========::
.....           ...................=======CC==::
.......           .b......:.;......===========::
.........          ..:::::##::::...=====C=====::
.......b...        ::::::;:#::::::.===========::
.............      ::::::::::::::::.....b..:::::
...............   .:::::::::::::::..........:::.
"""

# z = 1: the comms tower's platform (ladder hatch at (30, 17)) and the second step of the path.
SURFACE_1 = """








                              >







                              PP
                              hP


















"""

# z = 2: the last step of the path; the mesa top is at z = 3.
SURFACE_2 = """








                               >



























"""

SURFACE = MapPlan(
    file="surface_outpost.tmx",
    name="Vesta-9 crater: the Ostrava claim",
    description=(
        "Claim jumpers come over the crater rim at dawn to take the Ostrava mining outpost; the "
        "miners hold the habitat, the comms tower and a lookout on the mesa."
    ),
    gravity=0.2,
    pressurised=False,
    tilesets=("surface", "station"),
    width=48,
    height=36,
    heights=SURFACE_HEIGHTS,
    levels=(
        Level(
            0,
            SURFACE_0,
            SURFACE_LEGEND_0,
            units=(
                Unit("Halvorsen", "miners", 24, 22, "human", weapon="shotgun"),
                Unit("Ossi", "miners", 18, 24, "human", "crouched", weapon="smg"),
                Unit("Kerr", "miners", 35, 19, "human", weapon="pistol", arrives_round=3),
                Unit("Dusk", "claim_jumpers", 4, 19, "scavenger"),
                Unit("Mirela", "claim_jumpers", 9, 21, "human", weapon="carbine"),
                Unit("Vance", "claim_jumpers", 6, 24, "human", weapon="smg"),
                Unit("Grist", "claim_jumpers", 1, 14, "human", weapon="shotgun", arrives_round=2),
                Unit("Pell", "claim_jumpers", 1, 16, "human", weapon="smg", arrives_round=2),
            ),
        ),
        Level(
            1,
            SURFACE_1,
            SURFACE_LEGEND_UP,
            units=(Unit("Dita", "miners", 31, 16, "human", weapon="carbine"),),
        ),
        Level(
            2,
            SURFACE_2,
            SURFACE_LEGEND_UP,
            units=(
                Unit("Sloane", "claim_jumpers", 9, 30, "human", "prone", "carbine", hidden=True),
            ),
        ),
        Level(
            3,
            layers=(),
            units=(Unit("Lupo", "miners", 38, 8, "human", "prone", "carbine", hidden=True),),
        ),
    ),
)

HULL_LEGEND_0: dict[str, tuple[Ref, ...]] = {
    "*": ("hull:void", None),
    "P": ("hull:hull", None),
    "#": ("station:wall", None),
    ".": ("station:floor", None),
    ",": ("station:floor_worn", None),
    "%": ("station:floor_hazard", None),
    "c": ("station:floor", "station:crate"),
    "C": ("station:floor", "station:crate_stack"),
    "k": ("station:floor", "station:console"),
    "o": ("station:floor", "station:pillar"),
    "H": ("station:floor_hazard", "station:ladder"),
    "-": ("station:door_ew", None),
}

HULL_LEGEND_1: dict[str, tuple[Ref, ...]] = {
    " ": (None,),
    "P": ("hull:hull",),
    "=": ("hull:hull_rib_ew",),
    "I": ("hull:hull_rib_ns",),
    "V": ("hull:hull_vent",),
    "t": ("hull:hull_torn",),
    "a": ("hull:airlock",),
}

HULL_LEGEND_OUT: dict[str, tuple[Ref, ...]] = {
    " ": (None,),
    "Q": ("hull:pod_hull",),
    "d": ("hull:debris",),
    "g": ("hull:girder",),
    "b": ("hull:girder_ew",),
    "B": ("hull:girder_ns",),
    "e": ("hull:equipment",),
    "r": ("hull:hull_rail_ew",),
    "R": ("hull:hull_rail_ns",),
    "f": ("hull:radiator_ew",),
    "F": ("hull:radiator_ns",),
    "m": ("hull:mast",),
}

# z = 0, inside the module (vented by the breach): cargo bay under the breach, control room, crew
# room, the corridor, storage, engineering and the airlock chamber (ladder up to the hatch).
HULL_0 = """
************************************
************************************
************************************
************************************
***PPPPPPPPPPPPPPPPPPPPPPPPPPPPPP***
***P.CC....CC..c...#kkkk..k#C..CP***
***P.C............c#......k#....P***
***P....cc...c..,..#.......#...cP***
***P........c.,...c#...o...#....P***
***PC..c..,........#.......#...CP***
***P#####-######-######-#####-##P***
***P...,.......,.......,......,.P***
***P............................P***
***P####-#########-########-####P***
***PC.......C#k.......k#.%%%%%.kP***
***PC.....c..#.........#.%%H%%..P***
***P...cc....#...o.o...#.%%%%%..P***
***P.........#.........#.%%%%%..P***
***PCC......C#k........#.%%%%%.CP***
***PPPPPPPPPPPPPPPPPPPPPPPPPPPPPP***
************************************
************************************
************************************
************************************
"""

# z = 1, the outer hull: plating (ribbed over the frames) over the whole module, torn open over the
# cargo bay (the breach, open cells at (14..17, 6..9)); the airlock hatch at (27, 15).
HULL_1 = """




   PPPPPIPPPPPPPPPPPPPPPPPIPPPPPP
   PPPPPIPPPPttttttPPPPPPPIPPPPPP
   PPPPPIPPPPt    tPPPPPPPIPPPVPP
   PPPPPIPPPPt    tPPPPPPPIPPPVPP
   PPPPPIPPPPt    tPPPPPPPIPPPPPP
   PPPPPIPPPPt    tPPPPPPPIPPPPPP
   PPPPPIPPPPttttttPPPPPPPIPPPPPP
   PPPPPIPPPPPPPPPPPPPPPPPIPPPPPP
   ==============================
   PPPPPIPPPPPPPPPPPPPPPPPIPPPPPP
   PPPPPIPPPPPPPPPPPPPPPPPIPPPPPP
   PPPVVIPPPPPPPPPPPPPPPPPIaPPPPP
   PPPPPIPPPPPPPPPPPPPPPPPIPPPPPP
   PPPPPIPPPPPPPPPPPPVVPPPIPPPPPP
   PPPPPIPPPPPPPPPPPPPPPPPIPPPPPP
   PPPPPIPPPPPPPPPPPPPPPPPIPPPPPP




"""

# z = 2, on the hull (magnetic boots hold on the plating below): the raiders' boarding pod, debris
# round the breach, girder uprights, sensor housings, radiator fins, the rails round the airlock.
HULL_2 = """





    m        d      g    g    e
     e   QQQQ
         QQQQ     d
         QQQQ      d
         QQQQ
             d  d d g    g
              d  d
     ffffff
                         rrrrr
                 F      R
      e          F      R
                 F   e  R
          e      F      R     m
                 F





"""

# z = 3: the pod's upper half, the truss box over the control room and the girder bridge from
# the pod across the breach; everything else is open space.
HULL_3 = """





                    gbbbbg
         QQQQ       B    B
         QQQQbbbbbbbB    B
         QQQQ       B    B
         QQQQ       B    B
                    gbbbbg






                              m






"""

HULL = MapPlan(
    file="hull_breach.tmx",
    name="Ardea Station, module C: hull breach",
    description=(
        "A raider boarding pod has burnt through the hull of module C. In microgravity and "
        "vacuum, security fights them on the plating and in the vented bay below."
    ),
    gravity=0.0,
    pressurised=False,
    tilesets=("hull", "station"),
    width=36,
    height=24,
    levels=(
        Level(
            0,
            HULL_0,
            HULL_LEGEND_0,
            units=(
                Unit("Iyer", "station_security", 12, 7, "station_guard", "crouched"),
                Unit("Conti", "station_security", 22, 7, "station_guard"),
                Unit("Sato", "station_security", 29, 7, "station_guard", hidden=True),
            ),
        ),
        Level(
            1,
            HULL_1,
            HULL_LEGEND_1,
            ("hull",),
            units=(Unit("Hale", "station_security", 27, 15, "void_marine", arrives_round=3),),
        ),
        Level(
            2,
            HULL_2,
            HULL_LEGEND_OUT,
            ("outside",),
            units=(
                Unit("Varga", "station_security", 28, 16, "void_marine", "crouched"),
                Unit("Korrin", "raiders", 12, 5, "void_marine"),
                Unit("Mags", "raiders", 13, 11, "void_marine", "crouched"),
                # On the breach's lip, ready to drop through it on thrusters (P-ZERO-2).
                Unit("Ghost", "raiders", 13, 8, "void_marine", "crouched"),
                Unit("Dray", "raiders", 8, 10, "void_marine", arrives_round=2),
                Unit("Fen", "raiders", 10, 10, "void_marine", arrives_round=2),
            ),
        ),
        Level(3, HULL_3, HULL_LEGEND_OUT, ("outside",)),
    ),
)

# --- the keep ----------------------------------------------------------------------------------

KEEP_LEGEND_0: dict[str, tuple[Ref, ...]] = {
    ",": ("keep:grass", None),
    ".": ("keep:cobbles", None),
    ";": ("keep:mud", None),
    "#": ("keep:stone_wall", None),
    "_": ("keep:planks", None),
    "^": ("keep:stairs_n", None),
    "<": ("keep:stairs_w", None),
    ">": ("keep:stairs_e", None),
    "-": ("keep:gate", None),
    "G": ("keep:gate", None),
    "w": ("keep:cobbles", "keep:well"),
    "b": ("keep:cobbles", "keep:barrel"),
    "k": ("keep:cobbles", "keep:cart"),
    "t": ("keep:grass", "keep:tree"),
    "r": ("keep:grass", "keep:rock"),
    "~": ("keep:water", None),
}
KEEP_LEGEND_UP: dict[str, tuple[Ref, ...]] = {
    " ": (None, None),
    "=": ("keep:walk", None),
    "m": ("keep:walk", "keep:battlement"),
    "#": ("keep:stone_wall", None),
    "_": ("keep:planks", None),
    "|": ("keep:door_ns", None),
    "H": ("keep:planks", "keep:ladder"),
    "h": ("keep:trapdoor", None),
}

# The ground (z = 0): a curtain wall two blocks thick round a cobbled courtyard, the gate in the
# south wall, the tower in the north-east corner (stairs inside, door to the courtyard), stone
# stairs up to the west and east walks; outside, the muddy road to the gate between trees and rocks.
KEEP_0 = """
,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,
,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,
,,############################,,
,,############################,,
,,##.b................#_____##,,
t,##.bb...............#_____##,,
,,##...........b......#_____##,,
,,##..................#_____##,,
,,##......w...........#^____##,t
,,##..................###-####,,
,,##<.......................##,,
,,##<............k..........##,,
,,##........................##,,
,,##.......kk...............##,,
,t##.......................>##,,
,,##................b......>##,,
,,##................bb......##t,
,,##........................##,,
,,#############GG#############,,
,,#############GG#############,,
,,,,,,,,,,,,,,;;;;,,,,,,,,,,,,,,
,,,,,,,r,,,,,r;;;;,r,,,,,,,,t,,,
,,,,t,,,,,,,,,;;;;,,r,,,,,,,,,,,
,,,,,,,,,,,r,,;;;;,,,,,,t,,,,,,,
~~,,,,,,,t,,,,;;;;,,,,,,,,,,,,,,
~~~,,,,,,,,,,,;;;;,,,,,,,r,,,,,,
"""

# The wall walk (z = 1) on the inner course of the curtain, battlements on the outer one, bridging
# the gate; the tower's first storey (door from the north walk, the stairwell, a ladder up).
KEEP_1 = """


  mmmmmmmmmmmmmmmmmmmm########
  m===================|_____##
  m=                  #____H##
  m=                  #_____##
  m=                  #_____##
  m=                  #_____##
  m=                  # ____##
  m=                  ########
  m=                        =m
  m=                        =m
  m=                        =m
  m=                        =m
  m=                        =m
  m=                        =m
  m=                        =m
  m=                        =m
  m==========================m
  mmmmmmmmmmmmmmmmmmmmmmmmmmmm






"""

# The tower top (z = 2): flagstones ringed by battlements, the trapdoor over the ladder.
KEEP_2 = """


                      mmmmmmmm
                      m======m
                      m====h=m
                      m======m
                      m======m
                      m======m
                      m======m
                      mmmmmmmm
















"""

KEEP = MapPlan(
    file="keep_gate.tmx",
    name="Harrowmere Keep: the gate",
    description=(
        "Besiegers come up the road to the open gate of Harrowmere; the garrison holds the "
        "courtyard, the wall walk behind its battlements and the top of the corner tower."
    ),
    gravity=1.0,
    pressurised=True,
    tilesets=("keep",),
    width=32,
    height=26,
    ruleset="fantasy",
    levels=(
        Level(
            0,
            KEEP_0,
            KEEP_LEGEND_0,
            units=(
                Unit("Dunstan", "garrison", 15, 16, "human", weapon="stun_baton"),
                Unit("Elspeth", "garrison", 18, 15, "human", weapon="combat_knife"),
                Unit("Garrick", "besiegers", 15, 23, "human", weapon="stun_baton"),
                Unit("Hild", "besiegers", 16, 23, "human", weapon="combat_knife"),
                Unit("Ivo", "besiegers", 10, 22, "human", "crouched", weapon="carbine"),
                Unit("Jorund", "besiegers", 21, 22, "human", weapon="carbine"),
                Unit("Kettil", "besiegers", 6, 22, "human", weapon="pistol"),
                Unit("Lorne", "besiegers", 26, 22, "human", weapon="combat_knife"),
                Unit("Mael", "besiegers", 15, 25, "human", weapon="stun_baton", arrives_round=2),
            ),
        ),
        Level(
            1,
            KEEP_1,
            KEEP_LEGEND_UP,
            units=(
                Unit("Aldric", "garrison", 10, 18, "human", "crouched", weapon="carbine"),
                Unit("Brenna", "garrison", 20, 18, "human", weapon="carbine"),
                Unit("Fulk", "garrison", 3, 12, "human", weapon="pistol"),
            ),
        ),
        Level(
            2,
            KEEP_2,
            KEEP_LEGEND_UP,
            units=(Unit("Corwin", "garrison", 25, 6, "human", "crouched", weapon="carbine"),),
        ),
    ),
)

MAPS: tuple[MapPlan, ...] = (STATION, SURFACE, HULL, KEEP)


def write_maps(out_dir: Path) -> list[Path]:
    """Write every map into `out_dir`; returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for plan in MAPS:
        path = out_dir / plan.file
        path.write_text(tmx_text(plan), encoding="utf-8", newline="\n")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output folder")
    args = parser.parse_args(argv)
    for path in write_maps(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
