"""Reading Tiled's files (.tmx maps, .tsx tilesets, .tx templates) into plain records, checked.

Everything a file can get wrong becomes a MapError naming the file, the place and the problem.
Tile data is decoded here (csv, base64, base64 + zlib/gzip, legacy XML) with bounded
decompression, so a hostile file cannot make us allocate more than its declared size. A map from
someone else is contained: it may only name files in its own folder tree or Tessera's assets/
(checked before the file is touched, links followed), and the map with every file it uses is held
to per-map budgets of bytes, XML elements, objects, tilesets and tileset tiles, counted while
parsing; each external tileset or template is parsed once per map however often it is named.

pytmx 3.32 is not used to read maps: it overwrites a tile property named `height` (which the
heightmap convention needs) with the tile's pixel height, refuses object properties named `name`
or `template` (unit properties), fails on class properties without a types file, on image layers
without an image and on legacy XML data, ignores object templates, decompresses without bounds,
flattens and reorders layers, and imports pygame. tests/maps/test_corpus.py checks the tile data
read here against pytmx's wherever pytmx can read a map.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import math
import os
import string
import xml.etree.ElementTree as ET
import zlib
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from game.maps.model import (
    FLIP_D,
    FLIP_H,
    FLIP_V,
    RGB,
    RGBA,
    MapError,
    PropertyValue,
    RenderObject,
    RenderTileset,
)

#: Limits checked before anything of that size is allocated (documented in docs/maps.md).
MAX_FILE_BYTES = 64 * 2**20
MAX_SIDE = 512
MAX_TILE_ENTRIES = 16 * 2**20
MAX_NESTING = 32

#: Budgets per map: the map and every file it reads, together (documented in docs/maps.md).
#: Each tileset or template file is read and parsed once however often it is named.
MAX_MAP_BYTES = 128 * 2**20
MAX_ELEMENTS = 2**20
MAX_OBJECTS = 2**16
MAX_TILESETS = 1024
MAX_TILESET_TILES = 2**20
#: Names shown to the players (layers, groups, tilesets; units and sides are checked by the
#: loader) are at most this long.
MAX_NAME_CHARS = 64
#: The place and the problem of an error message are each cut to this length (a map's text can
#: be megabytes long; a message is read by a person).
_MAX_MESSAGE_PART = 1000

#: Tessera's own assets folder: a map may use files there besides those in its own folder.
ASSETS = Path(os.path.realpath(Path(__file__).parents[2] / "assets"))

_GID_FLIP_H = 0x80000000
_GID_FLIP_V = 0x40000000
_GID_FLIP_D = 0x20000000
#: Bit 28 is Tiled's hexagonal 120° rotation; meaningless on orthogonal maps, so masked off too.
_GID_MASK = 0x0FFFFFFF
_MAX_RAW_GID = 0xFFFFFFFF

_LAYER_KINDS = {"layer": "tile", "objectgroup": "object", "imagelayer": "image", "group": "group"}
_SHAPES = ("ellipse", "point", "polygon", "polyline", "text")
_RENDER_ORDERS = ("right-down", "right-up", "left-down", "left-up")

Props = dict[str, PropertyValue]


def map_error(file: Path | str, where: str, what: str) -> MapError:
    """The one shape of every map error: `file: where: what`, the map's text in it bounded."""
    where, what = cut_middle(where, _MAX_MESSAGE_PART), cut_middle(what, _MAX_MESSAGE_PART)
    return MapError(f"{file}: {where}: {what}" if where else f"{file}: {what}")


def cut_middle(text: str, limit: int) -> str:
    """`text` if at most `limit` characters, else its start and end around a "…"."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return text[:head] + "…" + text[len(text) - (limit - 1 - head) :]


def shown(name: str) -> str:
    """A name from a map as shown to people: at most MAX_NAME_CHARS characters."""
    if len(name) <= MAX_NAME_CHARS:
        return name
    return name[: MAX_NAME_CHARS - 1] + "…"


def parse_bool(raw: str) -> bool:
    """Tiled writes true/false; 1/0 are accepted too, as pytmx and hand-edited files use them."""
    value = raw.strip().lower()
    if value in ("true", "1"):
        return True
    if value in ("false", "0"):
        return False
    raise ValueError(raw)


def _finite_float(raw: str) -> float:
    value = float(raw)
    if not math.isfinite(value):
        raise ValueError(raw)
    return value


def _resolve(base: Path, written: str) -> Path:
    # abspath, not resolve(): it normalises "a/../b" without following (maybe looping) links.
    return Path(os.path.abspath(base / written))


@dataclass
class TmxTileset:
    render: RenderTileset
    where: str
    #: Local tile id -> custom properties (tiles without properties are absent).
    tile_properties: dict[int, Props]
    #: Image-collection tilesets: their tile ids; None: every id below render.tile_count.
    ids: frozenset[int] | None

    def has(self, local: int) -> bool:
        if self.ids is not None:
            return local in self.ids
        return 0 <= local < self.render.tile_count


@dataclass
class TmxLayer:
    """A layer or group, with the values inherited from its enclosing groups already applied."""

    kind: str
    id: int
    name: str
    cls: str
    properties: Props
    effective_properties: Props
    visible: bool
    effective_visible: bool
    opacity: float
    offset: tuple[float, float]
    parallax: tuple[float, float]
    tint: RGBA | None
    children: list[TmxLayer] = field(default_factory=list)
    #: Tile layers: raw gids with flip bits, [x, y].
    data: NDArray[np.uint32] | None = None
    image: Path | None = None
    transparent: RGB | None = None
    repeat: tuple[bool, bool] = (False, False)
    objects: list[RenderObject] = field(default_factory=list)
    draw_order: str = "topdown"

    @property
    def where(self) -> str:
        return _layer_where(self.kind, self.name, self.id)

    def walk(self) -> Iterator[TmxLayer]:
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass
class TmxMap:
    path: Path
    width: int
    height: int
    tile_width: int
    tile_height: int
    background: RGBA | None
    render_order: str
    properties: Props
    #: Sorted by first gid.
    tilesets: list[TmxTileset]
    layers: list[TmxLayer]
    notices: list[str]

    def __post_init__(self) -> None:
        self._first_gids = [t.render.first_gid for t in self.tilesets]

    def all_layers(self) -> Iterator[TmxLayer]:
        for layer in self.layers:
            yield from layer.walk()

    def tile(self, gid: int) -> tuple[TmxTileset, int] | None:
        """The tileset owning `gid` (flip bits removed) and the local tile id, or None."""
        i = bisect_right(self._first_gids, gid) - 1
        if i < 0:
            return None
        tileset = self.tilesets[i]
        local = gid - tileset.render.first_gid
        return (tileset, local) if tileset.has(local) else None

    def tile_properties(self, gid: int) -> Props:
        found = self.tile(gid)
        return {} if found is None else found[0].tile_properties.get(found[1], {})


def split_gids(raw: NDArray[np.uint32]) -> tuple[NDArray[np.uint32], NDArray[np.uint8]]:
    """Raw Tiled gids -> (gids without flip bits, FLIP_* flags)."""
    gids = (raw & _GID_MASK).astype(np.uint32)
    flags = (
        np.where(raw & _GID_FLIP_H, FLIP_H, 0)
        | np.where(raw & _GID_FLIP_V, FLIP_V, 0)
        | np.where(raw & _GID_FLIP_D, FLIP_D, 0)
    ).astype(np.uint8)
    return gids, flags


@dataclass
class _Template:
    attrs: dict[str, str]
    properties: Props
    element: ET.Element


@dataclass
class _Budget:
    """What one map has used so far of the per-map budgets."""

    bytes: int = 0
    elements: int = 0
    objects: int = 0
    tileset_tiles: int = 0


class _OverBudget(Exception):
    """Raised from inside the XML parser when a file takes the map over a budget."""


class _CountingBuilder(ET.TreeBuilder):
    """Builds the tree and stops the parse as soon as the map's element or object budget is
    spent, so a file of millions of objects is refused before they are all in memory."""

    def __init__(self, budget: _Budget) -> None:
        super().__init__()
        self.budget = budget

    def start(self, tag: str, attrs: dict[str, str]) -> ET.Element:
        budget = self.budget
        budget.elements += 1
        if tag == "object":
            budget.objects += 1
            if budget.objects > MAX_OBJECTS:
                raise _OverBudget(
                    f"the map and the files it uses hold more than {MAX_OBJECTS} objects; "
                    f"at most {MAX_OBJECTS} are read"
                )
        if budget.elements > MAX_ELEMENTS:
            raise _OverBudget(
                f"the map and the files it uses hold more than {MAX_ELEMENTS} XML elements; "
                f"at most {MAX_ELEMENTS} are read (save tile layers as CSV or Base64, not XML)"
            )
        return super().start(tag, attrs)


@dataclass(frozen=True)
class _TilesetBody:
    """An external tileset as parsed once, shared by every reference to it."""

    render: RenderTileset
    tile_properties: dict[int, Props]
    ids: frozenset[int] | None


def _inside(path: str, root: str) -> bool:
    path, root = os.path.normcase(path), os.path.normcase(root)
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


class _Reader:
    """Reads one map and the files it refers to; `file` is the map path as the user gave it."""

    def __init__(self, file: Path | str, path: Path) -> None:
        self.file = file
        self.dir = path.parent
        self.notices: list[str] = []
        self.tilesets: list[TmxTileset] = []
        self.budget = _Budget()
        self._templates: dict[Path, _Template] = {}
        self._tileset_bodies: dict[str, _TilesetBody] = {}
        # The map's own folder tree (as named and, if the map is a link, where it really is)
        # and Tessera's assets: the only places a map may read from.
        self.roots = sorted(
            {
                os.path.realpath(self.dir),
                os.path.realpath(os.path.dirname(os.path.realpath(path))),
                str(ASSETS),
            }
        )

    def fail(self, where: str, what: str) -> MapError:
        return map_error(self.file, where, what)

    # --- files -------------------------------------------------------------------------------

    def reference(self, base: Path, written: str, where: str, what: str) -> Path:
        """The file a map names (relative to `base`, as Tiled does), refused without being
        touched when it lies outside the map's folder tree and Tessera's assets folder, links
        followed: a map from someone else must not read other files of this machine."""
        path = _resolve(base, written)
        try:
            real = os.path.realpath(path)
        except (OSError, ValueError):
            real = str(path)
        if not any(_inside(real, root) for root in self.roots):
            leads = "" if real == written else f" (it resolves to {real})"
            raise self.fail(
                where,
                f"{what} '{written}'{leads} lies outside the map's folder {self.dir}; a map "
                "may only use files in its own folder, the folders inside it, and Tessera's "
                f"assets folder {ASSETS}",
            )
        return path

    def read_xml(self, path: Path, written: str | None, where: str) -> ET.Element:
        """Parse one XML file; `written` is how the map refers to it (None for the map itself)."""
        try:
            size = path.stat().st_size
            found = path.is_file()
        except (OSError, ValueError):
            found = False
        if not found:
            if written is None:
                raise self.fail(where, f"file not found (looked for {path})")
            raise self.fail(where, f"file '{written}' not found (looked for {path})")
        if size > MAX_FILE_BYTES:
            raise self.fail(
                where, f"{path} is {size} bytes; files of at most {MAX_FILE_BYTES} bytes are read"
            )
        if self.budget.bytes + size > MAX_MAP_BYTES:
            raise self.fail(
                where,
                f"the map and the files it uses are more than {MAX_MAP_BYTES} bytes together; "
                f"at most {MAX_MAP_BYTES} are read",
            )
        try:
            with path.open("rb") as f:
                # At most one byte more than the limits allow: a file growing meanwhile is
                # refused all the same.
                data = f.read(min(MAX_FILE_BYTES, MAX_MAP_BYTES - self.budget.bytes) + 1)
        except OSError as e:
            raise self.fail(where, f"cannot read {path}: {e.strerror}") from None
        self.budget.bytes += len(data)
        if len(data) > MAX_FILE_BYTES or self.budget.bytes > MAX_MAP_BYTES:
            raise self.fail(where, f"{path} grew while it was read")
        name = "" if written is None else f"{path}: "
        try:
            parser = ET.XMLParser(target=_CountingBuilder(self.budget))
            parser.feed(data)
            root: ET.Element = parser.close()
            return root
        except _OverBudget as e:
            raise self.fail(where, str(e)) from None
        except ET.ParseError as e:
            if data.lstrip().startswith(b"{"):
                raise self.fail(
                    where,
                    f"{name}this is a JSON file; Tessera reads Tiled's XML formats "
                    "(.tmx maps, .tsx tilesets): save it as one of those",
                ) from None
            line, column = e.position
            reason = str(e).rsplit(": line", 1)[0]
            raise self.fail(
                where, f"{name}not well-formed XML at line {line}, column {column + 1}: {reason}"
            ) from None
        except (LookupError, ValueError) as e:
            # An XML declaration naming an encoding Python does not know.
            raise self.fail(where, f"{name}cannot be read as XML: {e}") from None

    def existing_file(self, base: Path, written: str, where: str, what: str) -> Path:
        path = self.reference(base, written, where, what)
        try:
            found = path.is_file()
        except (OSError, ValueError):
            found = False
        if not found:
            raise self.fail(where, f"{what} '{written}' not found (looked for {path})")
        return path

    # --- attributes and properties -----------------------------------------------------------

    def int_attr(
        self,
        elem: ET.Element,
        name: str,
        where: str,
        default: int | None = None,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> int:
        raw = elem.get(name)
        if raw is None:
            if default is None:
                raise self.fail(where, f"attribute {name} is missing")
            return default
        try:
            value = int(raw.strip())
        except ValueError:
            raise self.fail(where, f"attribute {name}={raw!r} is not a whole number") from None
        if minimum is not None and value < minimum:
            raise self.fail(where, f"attribute {name}={value} must be at least {minimum}")
        if maximum is not None and value > maximum:
            raise self.fail(where, f"attribute {name}={value} must be at most {maximum}")
        return value

    def float_attr(self, elem: ET.Element, name: str, where: str, default: float) -> float:
        raw = elem.get(name)
        if raw is None:
            return default
        try:
            return _finite_float(raw)
        except ValueError:
            raise self.fail(where, f"attribute {name}={raw!r} is not a number") from None

    def bool_attr(self, elem: ET.Element, name: str, where: str, default: bool) -> bool:
        raw = elem.get(name)
        if raw is None:
            return default
        try:
            return parse_bool(raw)
        except ValueError:
            raise self.fail(where, f"attribute {name}={raw!r} is not 0 or 1") from None

    def color_attr(self, elem: ET.Element, name: str, where: str) -> RGBA | None:
        raw = elem.get(name)
        if raw is None or not raw.strip():
            return None
        digits = raw.strip().removeprefix("#")
        if len(digits) == 6:
            digits = "ff" + digits
        if len(digits) != 8 or any(c not in string.hexdigits for c in digits):
            raise self.fail(
                where, f"attribute {name}={raw!r} is not a colour (#RRGGBB or #AARRGGBB)"
            )
        a, r, g, b = (int(digits[i : i + 2], 16) for i in (0, 2, 4, 6))
        return r, g, b, a

    def rgb_attr(self, elem: ET.Element, name: str, where: str) -> RGB | None:
        color = self.color_attr(elem, name, where)
        return None if color is None else color[:3]

    def properties(self, elem: ET.Element, where: str, depth: int = 0) -> Props:
        props: Props = {}
        for node in elem.findall("properties"):
            for prop in node.findall("property"):
                name = prop.get("name")
                if name is None:
                    raise self.fail(where, "a property has no name")
                props[name] = self._property(prop, f"{where}, property '{shown(name)}'", depth)
        return props

    def _property(self, prop: ET.Element, where: str, depth: int) -> PropertyValue:
        kind = prop.get("type", "string")
        if kind == "class":
            # Read without a types file: the members written in the map, as a nested mapping.
            if depth >= MAX_NESTING:
                raise self.fail(where, f"class properties nested more than {MAX_NESTING} deep")
            return self.properties(prop, where, depth + 1)
        raw = prop.get("value")
        if raw is None:
            raw = prop.text or ""
        try:
            if kind in ("int", "object"):
                return int(raw.strip())
            if kind == "float":
                return _finite_float(raw)
            if kind == "bool":
                return parse_bool(raw)
        except ValueError:
            expected = {"bool": "true or false", "float": "a number"}.get(kind, "a whole number")
            raise self.fail(where, f"{raw!r} is not {expected} (type {kind})") from None
        # string, file, color and types newer than this reader: kept as written.
        return raw

    # --- tilesets and templates ---------------------------------------------------------------

    def tileset(self, ref: ET.Element, base: Path, first_gid: int | None = None) -> TmxTileset:
        """A <tileset> reference (external or embedded) read relative to `base`; an external
        tileset is read and parsed once per map however many references name it."""
        source = ref.get("source")
        where = f"tileset '{shown(source if source is not None else ref.get('name', ''))}'"
        if first_gid is None:
            first_gid = self.int_attr(ref, "firstgid", where, minimum=1, maximum=_GID_MASK)
        if len(self.tilesets) >= MAX_TILESETS:
            raise self.fail(
                where, f"the map uses more than {MAX_TILESETS} tilesets; at most {MAX_TILESETS}"
            )
        if source is None:
            body = self._tileset_body(ref, base, where, None)
        else:
            tsx = self.reference(base, source, where, "file")
            key = os.path.realpath(tsx)
            cached = self._tileset_bodies.get(key)
            if cached is None:
                elem = self.read_xml(tsx, source, where)
                if elem.tag != "tileset":
                    raise self.fail(
                        where, f"{tsx} is not a Tiled tileset: its root is <{elem.tag}>"
                    )
                cached = self._tileset_body(elem, tsx.parent, where, tsx)
                self._tileset_bodies[key] = cached
            body = cached
        self.budget.tileset_tiles += body.render.tile_count
        if self.budget.tileset_tiles > MAX_TILESET_TILES:
            raise self.fail(
                where,
                f"the map's tilesets hold more than {MAX_TILESET_TILES} tiles together (each "
                f"reference to a tileset counting its tiles); at most {MAX_TILESET_TILES}",
            )
        render = body.render
        if source is not None and render.source != _resolve(base, source):
            # The same file named another way (a link, ./x.tsx): keep the path as named here.
            render = replace(render, source=_resolve(base, source))
        tileset = TmxTileset(
            replace(render, first_gid=first_gid), where, body.tile_properties, body.ids
        )
        self.tilesets.append(tileset)
        return tileset

    def _tileset_body(
        self, elem: ET.Element, base: Path, where: str, tsx: Path | None
    ) -> _TilesetBody:
        """A <tileset> element's content, independent of the gids a reference gives it."""
        tile_w = self.int_attr(elem, "tilewidth", where, minimum=1)
        tile_h = self.int_attr(elem, "tileheight", where, minimum=1)
        margin = self.int_attr(elem, "margin", where, default=0, minimum=0)
        spacing = self.int_attr(elem, "spacing", where, default=0, minimum=0)
        offset_elem = elem.find("tileoffset")
        offset = (0, 0)
        if offset_elem is not None:
            offset = (
                self.int_attr(offset_elem, "x", where, default=0),
                self.int_attr(offset_elem, "y", where, default=0),
            )
        image_elem = elem.find("image")
        props: dict[int, Props] = {}
        tile_images: dict[int, Path] = {}
        animations: dict[int, tuple[tuple[int, int], ...]] = {}
        for tile in elem.findall("tile"):
            tile_id = self.int_attr(tile, "id", where, minimum=0, maximum=_GID_MASK)
            tile_where = f"{where}, tile {tile_id}"
            tile_props = self.properties(tile, tile_where)
            if tile_props:
                props[tile_id] = tile_props
            tile_image = tile.find("image")
            if image_elem is None and tile_image is not None:
                tile_images[tile_id] = self.image(tile_image, base, tile_where)
            anim = tile.find("animation")
            if anim is not None:
                frames = tuple(
                    (
                        self.int_attr(f, "tileid", tile_where, minimum=0),
                        self.int_attr(f, "duration", tile_where, default=0, minimum=0),
                    )
                    for f in anim.findall("frame")
                )
                if frames:
                    animations[tile_id] = frames
        image: Path | None = None
        image_size: tuple[int, int] | None = None
        transparent: RGB | None = None
        ids: frozenset[int] | None = None
        if image_elem is not None:
            image = self.image(image_elem, base, where)
            transparent = self.rgb_attr(image_elem, "trans", where)
            if image_elem.get("width") is not None and image_elem.get("height") is not None:
                image_size = (
                    self.int_attr(image_elem, "width", where, minimum=1),
                    self.int_attr(image_elem, "height", where, minimum=1),
                )
            columns, tile_count = self._grid_of(
                elem, where, image_size, (tile_w, tile_h), margin, spacing
            )
        else:
            ids = frozenset(tile_images)
            columns = self.int_attr(elem, "columns", where, default=0, minimum=0)
            tile_count = max(ids) + 1 if ids else 0
        return _TilesetBody(
            RenderTileset(
                name=shown(elem.get("name", "")),
                first_gid=0,
                tile_count=tile_count,
                tile_size=(tile_w, tile_h),
                image=image,
                image_size=image_size,
                margin=margin,
                spacing=spacing,
                columns=columns,
                transparent=transparent,
                tile_offset=offset,
                tile_images=tile_images,
                animations=animations,
                source=tsx,
            ),
            props,
            ids,
        )

    def _grid_of(
        self,
        elem: ET.Element,
        where: str,
        image_size: tuple[int, int] | None,
        tile_size: tuple[int, int],
        margin: int,
        spacing: int,
    ) -> tuple[int, int]:
        """Columns and tile count: as written, else from the image size as Tiled computes them."""
        tile_w, tile_h = tile_size
        fitted: tuple[int, int] | None = None
        if image_size is not None:
            columns = max(0, (image_size[0] - 2 * margin + spacing) // (tile_w + spacing))
            rows = max(0, (image_size[1] - 2 * margin + spacing) // (tile_h + spacing))
            fitted = (columns, columns * rows)
        if fitted is None and (elem.get("columns") is None or elem.get("tilecount") is None):
            raise self.fail(
                where,
                "its image has no width/height and it has no columns/tilecount; "
                "open and save it again in Tiled",
            )
        columns = self.int_attr(elem, "columns", where, default=fitted[0] if fitted else 0)
        count = self.int_attr(elem, "tilecount", where, default=fitted[1] if fitted else 0)
        if columns < 0 or count < 0:
            raise self.fail(where, "columns and tilecount must not be negative")
        return columns, count

    def image(self, elem: ET.Element, base: Path, where: str) -> Path:
        source = elem.get("source")
        if not source:
            raise self.fail(where, "an image has no source file (embedded images are not read)")
        return self.existing_file(base, source, where, "image")

    def template(self, written: str, where: str) -> _Template:
        path = _resolve(self.dir, written)
        cached = self._templates.get(path)
        if cached is not None:
            return cached
        where = f"{where}, template '{shown(written)}'"
        path = self.reference(self.dir, written, where, "file")
        root = self.read_xml(path, written, where)
        obj = root.find("object")
        if root.tag != "template" or obj is None:
            raise self.fail(where, f"{path} is not a Tiled object template (.tx)")
        attrs = dict(obj.attrib)
        if "gid" in attrs:
            attrs["gid"] = str(self._template_gid(root, path.parent, obj, where))
        template = _Template(attrs, self.properties(obj, where), obj)
        self._templates[path] = template
        return template

    def _template_gid(self, root: ET.Element, base: Path, obj: ET.Element, where: str) -> int:
        """A template's gid counts in the template's own tileset; move it into the map's gids."""
        raw = self.int_attr(obj, "gid", where, minimum=0, maximum=_MAX_RAW_GID)
        ref = root.find("tileset")
        if ref is None or ref.get("source") is None:
            raise self.fail(where, "a tile template needs its tileset as a .tsx file")
        first = self.int_attr(ref, "firstgid", where, minimum=1)
        tsx = _resolve(base, ref.get("source", ""))
        known = [t for t in self.tilesets if t.render.source == tsx]
        if known:
            tileset = known[0]
        else:
            # Tiled adds a template's tileset to the map when it is not there yet: so do we.
            free = max((t.render.first_gid + t.render.tile_count for t in self.tilesets), default=1)
            tileset = self.tileset(ref, base, first_gid=free)
        local = (raw & _GID_MASK) - first
        if not tileset.has(local):
            raise self.fail(where, f"gid {raw & _GID_MASK} is not a tile of {tileset.where}")
        return (raw & ~_GID_MASK & _MAX_RAW_GID) | (tileset.render.first_gid + local)

    # --- layers ------------------------------------------------------------------------------

    def layer_ids(self, root: ET.Element, next_id: int) -> dict[int, int]:
        """Python id(element) -> layer id; layers without one (Tiled < 1.2) get fresh ids."""
        elems = list(_layer_elements(root, 0, self))
        ids: dict[int, int] = {}
        seen: dict[int, str] = {}
        missing = []
        for elem in elems:
            if elem.get("id") is None:
                missing.append(elem)
                continue
            where = f"layer '{shown(elem.get('name', ''))}'"
            layer_id = self.int_attr(elem, "id", where, minimum=0)
            if layer_id in seen:
                raise self.fail(where, f"id {layer_id} is also the id of layer '{seen[layer_id]}'")
            seen[layer_id] = shown(elem.get("name", ""))
            ids[id(elem)] = layer_id
        fresh = max([next_id, *(i + 1 for i in seen)])
        for elem in missing:
            ids[id(elem)] = fresh
            fresh += 1
        if missing:
            self.notices.append(
                f"{len(missing)} layer(s) have no id (saved by Tiled before 1.2); "
                "numbered in file order after the others"
            )
        return ids

    def layer(
        self, elem: ET.Element, parent: TmxLayer | None, ids: dict[int, int], size: tuple[int, int]
    ) -> TmxLayer:
        kind = _LAYER_KINDS[elem.tag]
        layer_id = ids[id(elem)]
        # Layer and group names are only shown (a level's name is its group's): cut, not refused.
        name = shown(elem.get("name", ""))
        where = _layer_where(kind, name, layer_id)
        props = self.properties(elem, where)
        visible = self.bool_attr(elem, "visible", where, True)
        opacity = self.float_attr(elem, "opacity", where, 1.0)
        if not 0.0 <= opacity <= 1.0:
            raise self.fail(where, f"attribute opacity={opacity} must be between 0 and 1")
        offset = (
            self.float_attr(elem, "offsetx", where, 0.0),
            self.float_attr(elem, "offsety", where, 0.0),
        )
        parallax = (
            self.float_attr(elem, "parallaxx", where, 1.0),
            self.float_attr(elem, "parallaxy", where, 1.0),
        )
        tint = self.color_attr(elem, "tintcolor", where)
        if parent is not None:
            # Tiled's effective values: visibility and opacity multiply down the tree, offsets
            # add up, parallax factors multiply, tints multiply channel by channel.
            props_eff = {**parent.effective_properties, **props}
            visible_eff = parent.effective_visible and visible
            opacity *= parent.opacity
            offset = (offset[0] + parent.offset[0], offset[1] + parent.offset[1])
            parallax = (parallax[0] * parent.parallax[0], parallax[1] * parent.parallax[1])
            tint = _multiply_tints(parent.tint, tint)
        else:
            props_eff, visible_eff = dict(props), visible
        layer = TmxLayer(
            kind,
            layer_id,
            name,
            elem.get("class", elem.get("type", "")),
            props,
            props_eff,
            visible,
            visible_eff,
            opacity,
            offset,
            parallax,
            tint,
        )
        if kind == "group":
            layer.children = [
                self.layer(child, layer, ids, size) for child in elem if child.tag in _LAYER_KINDS
            ]
        elif kind == "tile":
            for attr, expected in zip(("width", "height"), size, strict=True):
                value = self.int_attr(elem, attr, where, default=expected)
                if value != expected:
                    raise self.fail(
                        where, f"attribute {attr}={value} differs from the map's {expected}"
                    )
            layer.data = self.tile_data(elem, size, where)
        elif kind == "image":
            image_elem = elem.find("image")
            if image_elem is not None and image_elem.get("source"):
                layer.image = self.image(image_elem, self.dir, where)
                layer.transparent = self.rgb_attr(image_elem, "trans", where)
            layer.repeat = (
                self.bool_attr(elem, "repeatx", where, False),
                self.bool_attr(elem, "repeaty", where, False),
            )
        else:
            layer.draw_order = elem.get("draworder", "topdown")
            layer.objects = [self.object(obj, where) for obj in elem.findall("object")]
        return layer

    def tile_data(self, elem: ET.Element, size: tuple[int, int], where: str) -> NDArray[np.uint32]:
        width, height = size
        data = elem.find("data")
        if data is None:
            raise self.fail(where, "the layer has no <data> element")
        if data.find("chunk") is not None:
            raise self.fail(
                where,
                "its tiles are stored in chunks, as in infinite maps, which are not supported",
            )
        encoding = data.get("encoding")
        compression = data.get("compression") or None
        if compression is not None and encoding != "base64":
            raise self.fail(where, f"compression {compression!r} needs base64 encoding")
        values: NDArray[np.int64] | NDArray[np.uint32]
        if encoding is None:
            tiles = data.findall("tile")
            self._check_count(len(tiles), size, where)
            values = np.array(
                [self.int_attr(t, "gid", where, 0, 0, _MAX_RAW_GID) for t in tiles],
                dtype=np.int64,
            )
        elif encoding == "csv":
            values = self._csv(data.text or "", size, where)
        elif encoding == "base64":
            raw = self._base64(data.text or "", compression, size, where)
            self._check_count(len(raw) / 4, size, where)
            values = np.frombuffer(raw, dtype="<u4")
        else:
            raise self.fail(
                where, f"unknown tile data encoding {encoding!r} (expected csv or base64)"
            )
        return np.ascontiguousarray(values.astype(np.uint32).reshape(height, width).T)

    def _check_count(self, found: float, size: tuple[int, int], where: str) -> None:
        width, height = size
        if found != width * height:
            shown = int(found) if float(found).is_integer() else found
            raise self.fail(
                where,
                f"its data holds {shown} tiles, expected {width}×{height} = {width * height}",
            )

    def _csv(self, text: str, size: tuple[int, int], where: str) -> NDArray[np.int64]:
        tokens = text.split(",")
        self._check_count(len(tokens), size, where)
        values = []
        for i, token in enumerate(tokens):
            try:
                value = int(token)
            except ValueError:
                value = -1
            if not 0 <= value <= _MAX_RAW_GID:
                x, y = i % size[0], i // size[0]
                raise self.fail(where, f"tile at x={x}, y={y} is {token.strip()!r}, not a gid")
            values.append(value)
        return np.array(values, dtype=np.int64)

    def _base64(
        self, text: str, compression: str | None, size: tuple[int, int], where: str
    ) -> bytes:
        try:
            raw = base64.b64decode("".join(text.split()), validate=True)
        except (binascii.Error, ValueError):
            raise self.fail(where, "its tile data is not valid base64") from None
        if compression is None:
            return raw
        if compression == "zstd":
            raise self.fail(
                where,
                "its tile data is compressed with zstd, which Tessera cannot read; in "
                "Tiled set Map > Map Properties > Tile Layer Format to CSV or Base64 (zlib) "
                "and save again",
            )
        if compression not in ("zlib", "gzip"):
            raise self.fail(
                where, f"unknown tile data compression {compression!r} (expected zlib or gzip)"
            )
        # wbits 32+ accepts both zlib and gzip headers; max_length bounds the output.
        expected = 4 * size[0] * size[1]
        inflater = zlib.decompressobj(32 + zlib.MAX_WBITS)
        try:
            out = inflater.decompress(raw, expected + 1)
        except zlib.error as e:
            raise self.fail(where, f"its {compression} tile data is corrupt ({e})") from None
        if len(out) > expected:
            raise self.fail(
                where, f"its data holds more than {size[0]}×{size[1]} = {expected // 4} tiles"
            )
        if not inflater.eof:
            raise self.fail(where, f"its {compression} tile data is cut short")
        return out

    def object(self, elem: ET.Element, layer_where: str) -> RenderObject:
        object_id = self.int_attr(elem, "id", layer_where, default=0, minimum=0)
        where = f"object '{shown(elem.get('name', ''))}' (id {object_id}) in {layer_where}"
        attrs = dict(elem.attrib)
        props: Props = {}
        shape_elem = elem
        written = attrs.get("template")
        if written:
            template = self.template(written, where)
            attrs = {**template.attrs, **attrs}
            props = dict(template.properties)
            if not any(elem.find(tag) is not None for tag in _SHAPES):
                shape_elem = template.element
        props.update(self.properties(elem, where))
        merged = ET.Element("object", attrs)
        raw_gid = self.int_attr(merged, "gid", where, default=0, minimum=0, maximum=_MAX_RAW_GID)
        gid = raw_gid & _GID_MASK
        flags = int(split_gids(np.array([raw_gid], dtype=np.uint32))[1][0])
        shape = next((tag for tag in _SHAPES if shape_elem.find(tag) is not None), "rectangle")
        if gid:
            shape = "tile"
        points: tuple[tuple[float, float], ...] = ()
        if shape in ("polygon", "polyline"):
            points = self._points(shape_elem.find(shape), where)
        text_elem = shape_elem.find("text")
        return RenderObject(
            id=object_id,
            name=attrs.get("name", ""),
            cls=attrs.get("class", attrs.get("type", "")),
            shape=shape,
            x=self.float_attr(merged, "x", where, 0.0),
            y=self.float_attr(merged, "y", where, 0.0),
            width=self.float_attr(merged, "width", where, 0.0),
            height=self.float_attr(merged, "height", where, 0.0),
            rotation=self.float_attr(merged, "rotation", where, 0.0),
            visible=self.bool_attr(merged, "visible", where, True),
            gid=gid,
            flags=flags,
            points=points,
            text=(text_elem.text or "") if text_elem is not None else "",
            properties=props,
        )

    def _points(self, elem: ET.Element | None, where: str) -> tuple[tuple[float, float], ...]:
        raw = "" if elem is None else elem.get("points", "")
        try:
            pairs = [pair.split(",") for pair in raw.split()]
            return tuple((_finite_float(x), _finite_float(y)) for x, y in pairs)
        except ValueError:
            raise self.fail(where, f"points {raw!r} are not 'x,y x,y …'") from None


def _layer_where(kind: str, name: str, layer_id: int) -> str:
    return f"{'group' if kind == 'group' else 'layer'} '{name}' (id {layer_id})"


def _layer_elements(elem: ET.Element, depth: int, reader: _Reader) -> Iterator[ET.Element]:
    """The layer elements under `elem`, in file order, not entering tilesets."""
    for child in elem:
        if child.tag not in _LAYER_KINDS:
            continue
        yield child
        if child.tag == "group":
            if depth + 1 >= MAX_NESTING:
                raise reader.fail(
                    f"group '{shown(child.get('name', ''))}'",
                    f"groups nested more than {MAX_NESTING} deep",
                )
            yield from _layer_elements(child, depth + 1, reader)


def _multiply_tints(a: RGBA | None, b: RGBA | None) -> RGBA | None:
    if a is None or b is None:
        return a or b
    r, g, bl, al = (round(x * y / 255) for x, y in zip(a, b, strict=True))
    return r, g, bl, al


def read_tmx(file: Path | str) -> TmxMap:
    """Read and check a .tmx map and everything it refers to."""
    path = Path(os.path.abspath(file))
    reader = _Reader(file, path)
    root = reader.read_xml(path, None, "")
    if root.tag != "map":
        if root.tag == "tileset":
            raise reader.fail("", "this is a tileset (.tsx), not a map (.tmx)")
        raise reader.fail("", f"not a Tiled map: the root element is <{root.tag}>, not <map>")
    orientation = root.get("orientation", "orthogonal")
    if orientation != "orthogonal":
        raise reader.fail("", f"only orthogonal maps are supported; this map is {orientation}")
    if root.get("infinite", "0").strip() not in ("0", "false"):
        raise reader.fail(
            "",
            "infinite maps are not supported; in Tiled untick Map > Map Properties > "
            "Infinite, then save",
        )
    where = "map"
    width = reader.int_attr(root, "width", where, minimum=1)
    height = reader.int_attr(root, "height", where, minimum=1)
    if width > MAX_SIDE or height > MAX_SIDE:
        raise reader.fail(
            "", f"the map is {width}×{height} cells; at most {MAX_SIDE}×{MAX_SIDE} are supported"
        )
    tile_w = reader.int_attr(root, "tilewidth", where, minimum=1)
    tile_h = reader.int_attr(root, "tileheight", where, minimum=1)
    render_order = root.get("renderorder", "right-down")
    if render_order not in _RENDER_ORDERS:
        raise reader.fail(
            where,
            f"attribute renderorder={render_order!r} is not one of {', '.join(_RENDER_ORDERS)}",
        )
    background = reader.color_attr(root, "backgroundcolor", where)
    properties = reader.properties(root, where)
    for ref in root.findall("tileset"):
        reader.tileset(ref, path.parent)
    ids = reader.layer_ids(root, reader.int_attr(root, "nextlayerid", where, default=1))
    tile_layers = sum(1 for e in _layer_elements(root, 0, reader) if e.tag == "layer")
    if tile_layers * width * height > MAX_TILE_ENTRIES:
        raise reader.fail(
            "",
            f"{tile_layers} tile layers of {width}×{height} cells hold "
            f"{tile_layers * width * height} tiles; at most {MAX_TILE_ENTRIES} are supported",
        )
    layers = [
        reader.layer(elem, None, ids, (width, height)) for elem in root if elem.tag in _LAYER_KINDS
    ]
    tilesets = sorted(reader.tilesets, key=lambda t: t.render.first_gid)
    for a, b in itertools.pairwise(tilesets):
        if a.render.first_gid == b.render.first_gid:
            raise reader.fail(
                where, f"{a.where} and {b.where} both start at gid {a.render.first_gid}"
            )
    tmx = TmxMap(
        path,
        width,
        height,
        tile_w,
        tile_h,
        background,
        render_order,
        properties,
        tilesets,
        layers,
        reader.notices,
    )
    _check_gids(tmx, reader)
    return tmx


def _check_gids(tmx: TmxMap, reader: _Reader) -> None:
    """Every gid used by a tile layer or a tile object must be a tile of some tileset."""
    covered = (
        ", ".join(
            f"{t.render.first_gid}–{t.render.first_gid + t.render.tile_count - 1}"
            for t in tmx.tilesets
        )
        or "none"
    )
    for layer in tmx.all_layers():
        if layer.data is not None:
            gids = layer.data & _GID_MASK
            for gid in np.unique(gids):
                if gid and tmx.tile(int(gid)) is None:
                    ys, xs = np.nonzero(gid == gids.T)
                    raise reader.fail(
                        layer.where,
                        f"the tile at x={xs[0]}, y={ys[0]} has gid {gid}, which no tileset "
                        f"holds (the tilesets hold gids {covered})",
                    )
        for obj in layer.objects:
            if obj.gid and tmx.tile(obj.gid) is None:
                raise reader.fail(
                    f"object '{shown(obj.name)}' (id {obj.id}) in {layer.where}",
                    f"gid {obj.gid} is in no tileset (the tilesets hold gids {covered})",
                )
