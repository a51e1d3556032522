"""Where an entity may end its movement this turn, by which path, leaving which reaction areas."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from itertools import pairwise
from weakref import WeakKeyDictionary

import numpy as np
from numpy.typing import NDArray

from game.grid import movement_kernels as mk
from game.grid.geometry import chebyshev, require_in_map
from game.grid.model import TERRAIN_ROUGH, TERRAIN_WATER, Cell, Grid
from game.grid.occupants import Occupancy, Occupant, Relation, relation
from game.rules.jump import drop_dc, jump_dc, max_jump_height
from game.rules.movement import MODES
from game.rules.notes import Note, Value

_MODE_IDS = {
    "walk": mk.MODE_WALK,
    "crawl": mk.MODE_CRAWL,
    "swim": mk.MODE_SWIM,
    "climb": mk.MODE_CLIMB,
    "jump": mk.MODE_JUMP,
    "thrusters": mk.MODE_THRUSTERS,
    "air": mk.MODE_AIR,  # a push on the air, adrift without thrusters: never requested
}
_MODE_NAMES = {i: name for name, i in _MODE_IDS.items()}
#: Pushing off a surface in microgravity (issues 15/16, docs/rules.md "Microgravity under each
#: ruleset"): P-ZERO-1's straight flight to a surface, for the rulesets whose seeds have no
#: jump; its budget is the ruleset's own cells a turn, and it is never a jump check.
PUSH_OFF = "push_off"
#: The modes a request may name: a sheet's speeds (P-MOV-1) and the push-off.
REQUEST_MODES = (*MODES, PUSH_OFF)

#: P-JUMP-1's n_max by (athletics, gravity): a pure function in exact fractions, which took half
#: of a search's Python-side work when worked out on every request.
_n_max = lru_cache(maxsize=256)(max_jump_height)

#: The search to run: `movement_kernel` (compiled) or `py_func(movement_kernel)` (reference).
Kernel = Callable[..., mk.KernelResult]


class MovementError(ValueError):
    """A movement request or query that cannot be answered as asked."""


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass(frozen=True)
class MoveRequest:
    """What an entity may spend this turn; the rules layer has already applied halvings and dash.

    budgets: effective movement points per mode (a missing mode is not available). mode: "walk"
    (also "swim" and "climb", which switch automatically by terrain), "crawl", "jump",
    "thrusters" or "push_off" (microgravity only). crawling: prone or crawling, +1 a cell.
    spent: points already used this turn (P-TURN-1). run_up: cells moved straight before a
    jump. velocity: carried in microgravity.
    """

    budgets: Mapping[str, int]
    mode: str = "walk"
    crawling: bool = False
    spent: int = 0
    athletics: int = 0
    run_up: int = 0
    velocity: tuple[int, int, int] = (0, 0, 0)
    has_thrusters: bool = False
    #: At most this many cells entered this turn: 1 for a blinded entity (P-VUL-3), else None.
    max_cells: int | None = None
    #: P-JUMP-1/3: jumps higher and drops deeper than n_max are searched too, each needing the
    #: `gravità muscolare (atletica)` check (the battle rolls it); False lists only moves that
    #: need no check.
    checked: bool = False
    #: P-MOV-4's +1 for passing an ally's or neutral's cell; False under a ruleset whose
    #: movement has none (d20, D-2).
    ally_cost: bool = True

    def __post_init__(self) -> None:
        for name, value in self.budgets.items():
            if name not in REQUEST_MODES:
                raise MovementError(
                    f"MoveRequest.budgets: unknown movement mode {name!r}"
                    f" (expected some of {', '.join(REQUEST_MODES)})"
                )
            if not _is_count(value):
                raise MovementError(
                    f"MoveRequest.budgets[{name!r}] must be a whole number of points >= 0,"
                    f" got {value!r}"
                )
        if self.mode not in REQUEST_MODES:
            raise MovementError(
                f"MoveRequest.mode: unknown movement mode {self.mode!r}"
                f" (expected one of {', '.join(REQUEST_MODES)})"
            )
        for name in ("spent", "run_up"):
            if not _is_count(getattr(self, name)):
                raise MovementError(
                    f"MoveRequest.{name} must be a whole number >= 0, got {getattr(self, name)!r}"
                )
        if self.max_cells not in (None, 1):
            raise MovementError(
                "MoveRequest.max_cells must be None or 1 (blinded, P-VUL-3),"
                f" got {self.max_cells!r}"
            )
        if isinstance(self.athletics, bool) or not isinstance(self.athletics, int):
            raise MovementError(f"MoveRequest.athletics must be an int, got {self.athletics!r}")
        if len(self.velocity) != 3 or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in self.velocity
        ):
            raise MovementError(
                f"MoveRequest.velocity must be three ints (cells a turn), got {self.velocity!r}"
            )


class StepKind(StrEnum):
    """How a step moves."""

    CARDINAL = "cardinal"
    DIAGONAL = "diagonal"
    DIAGONAL_3D = "3D diagonal"
    STAIRS_UP = "stairs up"
    STAIRS_DOWN = "stairs down"
    CLIMB_UP = "climb up"
    CLIMB_DOWN = "climb down"
    JUMP = "jump"
    MICROGRAVITY_JUMP = "microgravity jump"
    PUSH_OFF = "push off"  # the same straight flight, under a ruleset without jumps
    DROP = "drop"  # stepping off an edge to a standable cell below (P-JUMP-3)


class CostNote(StrEnum):
    """What a step paid beyond its base point (+1 each), and a jump's figures."""

    #: values: cell; parts: the extras of that corner cell, the costliest one (P-MOV-3).
    CORNER = "corner"
    ROUGH = "rough"  # P-MOV-2
    WATER = "water"  # P-MOV-2
    #: values: relation ("ally" or "neutral"), id: passing through its cell (P-MOV-4).
    PASS_THROUGH = "pass_through"
    CRAWLING = "crawling"  # P-MOV-2
    #: values: apex, n_max, and dc when the apex is above n_max (P-JUMP-1: a check).
    APEX = "apex"
    #: values: depth, n_max, and dc when deeper than n_max (P-JUMP-3: a drop needing a check).
    DROP = "drop"
    #: values: length, apex, run_up (P-JUMP-1: length <= apex + 2 × run_up).
    HORIZONTAL = "horizontal"
    #: values: length, the cells of a microgravity jump (P-ZERO-1).
    STRAIGHT_LINE = "straight_line"


class SearchNote(StrEnum):
    """What a query should tell about how a request is searched."""

    SPENT = "spent"  # values: points (P-TURN-1)
    VELOCITY = "velocity"  # values: velocity, points (P-ZERO-2)
    MICROGRAVITY_JUMP = "microgravity_jump"  # P-ZERO-1
    RUN_UP = "run_up"  # values: run_up (P-JUMP-1)
    JUMP = "jump"  # values: n_max, gravity (P-JUMP-1)
    THRUSTERS_UNDER_GRAVITY = "thrusters_under_gravity"
    SURFACE = "surface"  # magnetic boots in microgravity
    AIR = "air"  # adrift in pressurised space (P-ZERO-2)
    ADRIFT = "adrift"  # adrift in vacuum
    BLINDED_NO_JUMP = "blinded_no_jump"  # P-VUL-3
    BLINDED = "blinded"  # P-VUL-3
    PUSH_OFF = "push_off"  # P-ZERO-1's flight as a push-off (docs/rules.md)


@dataclass(frozen=True)
class Step:
    """One step of a path, explained: `points` it costs and the running `total`."""

    start: Cell
    end: Cell
    move: StepKind
    mode: str
    parts: tuple[Note, ...]  # CostNote: what added to the base cost, or a jump's figures
    points: int
    total: int
    rules: tuple[str, ...]


@dataclass(frozen=True)
class PathResult:
    """The cheapest way to a cell this turn: cost None and no cells when it is out of reach."""

    cost: int | None
    cells: tuple[Cell, ...]
    steps: tuple[Step, ...] = ()
    notes: tuple[Note, ...] = ()
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class MoveSummary:
    """How a request is searched: the rules that decide it and what a query should tell."""

    #: "ground", "surface", "thrusters", "air", "adrift", "jump", "microgravity jump", "push off"
    search: str
    rules: tuple[str, ...]
    notes: tuple[Note, ...]
    #: P-JUMP-1: the highest apex without a check (jumps under gravity only).
    n_max: int | None = None


@dataclass(frozen=True)
class OpportunityExit:
    """P-OA-1: the path leaves `enemy_id`'s reaction area by stepping from_cell → to_cell."""

    enemy_id: str
    from_cell: Cell
    to_cell: Cell


@dataclass(frozen=True)
class _Plan:
    start: Cell
    kind: int
    base_mode: int
    crawling: int
    spent: int  # including a cancelled velocity
    budgets: NDArray[np.int64]
    radius: int
    run_up: int
    end_rule: int
    summary: MoveSummary
    one_step: bool = False
    #: The deepest drop off an edge a ground search allows (P-JUMP-3; 0: none).
    drop_limit: int = 0
    #: P-JUMP-1 n_max under gravity (the drop and apex heights needing no check), else None.
    n_max: int | None = None
    athletics: int = 0
    gravity: float = 0.2
    #: MoveRequest.ally_cost.
    ally_cost: bool = True


@dataclass(frozen=True)
class _Found:
    origin: Cell
    shape: Cell
    info: NDArray[np.int32]
    dist: NDArray[np.int32]
    pred: NDArray[np.int32]
    via: NDArray[np.int8]
    ends: NDArray[np.int32]

    def local(self, cell: Cell) -> int | None:
        (ox, oy, oz), (wx, wy, wz) = self.origin, self.shape
        lx, ly, lz = cell[0] - ox, cell[1] - oy, cell[2] - oz
        if not (0 <= lx < wx and 0 <= ly < wy and 0 <= lz < wz):
            return None
        return (lx * wy + ly) * wz + lz

    def cell(self, i: int) -> Cell:
        (ox, oy, oz), (_, wy, wz) = self.origin, self.shape
        return ox + i // (wy * wz), oy + (i // wz) % wy, oz + i % wz


def _plan(grid: Grid, occupancy: Occupancy, mover: Occupant, request: MoveRequest) -> _Plan:
    start = require_in_map(grid.shape, mover.cell, f"mover {mover.id!r} cell")
    if occupancy.index.shape != grid.shape:
        raise MovementError(
            f"occupancy shape {occupancy.index.shape} does not match the map {grid.shape}"
        )
    there = occupancy.all_at(start)
    others = [o for o in there if o.id != mover.id]
    # Two may share a cell (P-MOV-8); a move through waypoints may pause on an ally's or
    # neutral's cell it passes (P-MOV-4).
    passing = all(relation(mover, o) in (Relation.ALLY, Relation.NEUTRAL) for o in others)
    if others and len(others) == len(there) and not passing:
        raise MovementError(f"mover {mover.id!r} cell {start} holds {others[0].id!r}")
    crawling = request.crawling or request.mode == "crawl"  # a prone entity crawls (P-MOV-2)
    base = mk.MODE_CRAWL if crawling else mk.MODE_WALK
    budgets = np.full(mk.MODE_COUNT, -1, dtype=np.int64)
    for name, points in request.budgets.items():
        if name != PUSH_OFF:  # searched in the jump's slot, and only when asked for
            budgets[_MODE_IDS[name]] = points
    micro = grid.microgravity
    push_off = request.mode == PUSH_OFF
    if push_off:
        if not micro:
            raise MovementError(
                f"MoveRequest.mode {PUSH_OFF!r}: pushing off a surface is a microgravity move,"
                f" this map has {grid.gravity} g"
            )
        budgets[mk.MODE_JUMP] = request.budgets.get(PUSH_OFF, -1)
    rules = ["P-MOV-1"]
    notes: list[Note] = []
    if request.spent:
        rules.append("P-TURN-1")
        notes.append(Note(SearchNote.SPENT, {"points": request.spent}))
    speed = max(abs(v) for v in request.velocity)
    if speed:
        if not grid.microgravity:
            raise MovementError(
                f"MoveRequest.velocity {request.velocity}: a carried velocity exists only in"
                f" microgravity (P-ZERO-2), this map has {grid.gravity} g"
            )
        if not request.has_thrusters:
            raise MovementError(
                f"MoveRequest.velocity {request.velocity}: only thrusters cancel a carried"
                " velocity (P-ZERO-2); a jump still in flight is not a movement request"
            )
        rules.append("P-ZERO-2")
        notes.append(Note(SearchNote.VELOCITY, {"velocity": request.velocity, "points": speed}))
    spent = request.spent + speed
    jump_left = int(budgets[mk.MODE_JUMP]) - spent  # negative: no jump this turn
    n_max = _n_max(request.athletics, grid.gravity)  # None in microgravity
    drop_limit = 0
    run_up = 0
    radius = 0
    used: tuple[int, ...] = ()  # the modes a search's steps may take (P-MOV-1)

    if push_off:
        # The ruleset's own cells a turn, 1 point a cell, no check (docs/rules.md).
        kind, end, search, radius = mk.KIND_LAUNCH, mk.END_ANY, "push off", jump_left
        rules.append("P-ZERO-1")
        notes.append(Note(SearchNote.PUSH_OFF))
    elif request.mode == "jump" and micro:
        # The rules layer has already doubled the jump budget (P-ZERO-1): 1 point a cell.
        kind, end, search, radius = mk.KIND_LAUNCH, mk.END_ANY, "microgravity jump", jump_left
        rules.append("P-ZERO-1")
        notes.append(Note(SearchNote.MICROGRAVITY_JUMP))
    elif request.mode == "jump":
        assert n_max is not None  # not microgravity
        # P-JUMP-1: higher apexes need the check; searched only when the caller will roll it.
        apex = jump_left if request.checked else min(n_max, jump_left)
        kind, end, search, radius = mk.KIND_JUMP, mk.END_ANY, "jump", apex
        run_up = request.run_up
        rules.append("P-JUMP-1")
        if run_up:
            notes.append(Note(SearchNote.RUN_UP, {"run_up": run_up}))
        notes.append(Note(SearchNote.JUMP, {"n_max": n_max, "gravity": grid.gravity}))
    elif request.mode == "thrusters":
        if not request.has_thrusters:
            raise MovementError(f"mover {mover.id!r} has no thrusters for mode 'thrusters'")
        kind, base, search = mk.KIND_FLY, mk.MODE_THRUSTERS, "thrusters"
        used = (mk.MODE_THRUSTERS,)
        end = mk.END_ANY if micro else mk.END_STAND
        rules += ["P-ZERO-2", "P-MOV-3"]
        if not micro:
            notes.append(Note(SearchNote.THRUSTERS_UNDER_GRAVITY))
    elif micro:
        if on_surface(grid, occupancy, mover):
            kind, end, search = mk.KIND_SURFACE, mk.END_SURFACE, "surface"
            used = (base, mk.MODE_SWIM)
            rules.append("P-MOV-3")
            notes.append(Note(SearchNote.SURFACE))
        elif not request.has_thrusters and grid.pressurised:
            kind, base, end, search = mk.KIND_FLY, mk.MODE_AIR, mk.END_ANY, "air"
            # 1 cell a turn, for an entity that can move at all (a mortal wound stops it).
            budgets[mk.MODE_AIR] = 1 if max(request.budgets.values(), default=0) >= 1 else -1
            used = (mk.MODE_AIR,)
            rules.append("P-ZERO-2")
            notes.append(Note(SearchNote.AIR))
        else:
            kind, end, search = mk.KIND_FLY, mk.END_ANY, "adrift"
            notes.append(Note(SearchNote.ADRIFT))
    else:
        assert n_max is not None  # not microgravity
        kind, end, search = mk.KIND_GROUND, mk.END_HOLD, "ground"
        used = (base, mk.MODE_SWIM, mk.MODE_CLIMB)
        # P-JUMP-3: stepping off an edge is a jump down, in the jump budget (P-MOV-1); deeper
        # than n_max only with the check.
        drop_limit = max(0, jump_left if request.checked else min(n_max, jump_left))
        if drop_limit:
            used = (*used, mk.MODE_JUMP)
    if used:
        radius = max(int(budgets[m]) for m in used) - spent
    one_step = request.max_cells == 1
    if one_step:
        rules.append("P-VUL-3")
        drop_limit = 0  # a drop enters two cells at least, like a jump
        if kind in (mk.KIND_JUMP, mk.KIND_LAUNCH):
            radius = 0  # a jump crosses several cells: not for one who may enter only one
            notes.append(Note(SearchNote.BLINDED_NO_JUMP))
        else:
            notes.append(Note(SearchNote.BLINDED))
    summary = MoveSummary(
        search, tuple(rules), tuple(notes), n_max if kind == mk.KIND_JUMP else None
    )
    return _Plan(
        start,
        kind,
        base,
        int(crawling),
        spent,
        budgets,
        max(0, radius),
        run_up,
        end,
        summary,
        one_step,
        drop_limit,
        n_max,
        request.athletics,
        grid.gravity,
        request.ally_cost,
    )


#: _plan's answers by occupancy, then (grid, mover, request): a pure function of them, whose
#: Python work (checks, notes, budgets) was a fifth of a whole walking search.
_PLANS: WeakKeyDictionary[Occupancy, dict[tuple[object, ...], _Plan]] = WeakKeyDictionary()


def _planned(grid: Grid, occupancy: Occupancy, mover: Occupant, request: MoveRequest) -> _Plan:
    r = request
    key = (
        grid, mover, tuple(r.budgets.items()), r.mode, r.crawling, r.spent, r.athletics,
        r.run_up, r.velocity, r.has_thrusters, r.max_cells, r.checked, r.ally_cost,
    )  # fmt: skip
    plans = _PLANS.setdefault(occupancy, {})
    plan = plans.get(key)
    if plan is None:
        plan = _plan(grid, occupancy, mover, request)
        if len(plans) >= 64:  # a few movers and requests a turn; keep it small
            plans.clear()
        plans[key] = plan
    return plan


#: Occupancy.move_codes by occupancy and mover: an Occupancy does not change once built, and
#: building the codes in Python took a good part of a whole search.
_CODES: WeakKeyDictionary[Occupancy, dict[object, NDArray[np.uint8]]] = WeakKeyDictionary()


def _move_codes(occupancy: Occupancy, mover: Occupant, ally_cost: bool = True) -> NDArray[np.uint8]:
    by_mover = _CODES.setdefault(occupancy, {})
    key = mover if ally_cost else (mover, False)
    codes = by_mover.get(key)
    if codes is None:
        codes = occupancy.move_codes(mover, ally_cost)
        codes.setflags(write=False)
        by_mover[key] = codes
    return codes


def on_surface(grid: Grid, occupancy: Occupancy, entity: Occupant) -> bool:
    """P-ZERO: the entity stands on something — a standable cell (G-3), or a free cell with a
    face against a full obstacle, where magnetic boots hold; otherwise it floats."""
    return bool(mk.cell_facts(_arrays(grid, occupancy, entity), *entity.cell) & mk.F_SURFACE)


def _arrays(
    grid: Grid, occupancy: Occupancy, mover: Occupant, ally_cost: bool = True
) -> mk.GridArrays:
    return (
        grid.obstacle, grid.terrain, grid.floor, grid.standable, occupancy.index,
        _move_codes(occupancy, mover, ally_cost),
    )  # fmt: skip


#: Each grid's facts that no occupant changes, worked out cell by cell as searches first need
#: them (-1: not yet; `movement_kernels.fill_cached`). A Grid never changes once built.
_STATIC: WeakKeyDictionary[Grid, NDArray[np.int32]] = WeakKeyDictionary()


def _static(grid: Grid) -> NDArray[np.int32]:
    static = _STATIC.get(grid)
    if static is None:
        static = _STATIC[grid] = np.full(grid.shape, -1, dtype=np.int32)
    return static


#: Each grid's flight steps that its obstacles and floors allow, per cell (flat, -1: not yet;
#: `movement_kernels.static_steps`), kept as `_STATIC` is.
_STEPS: WeakKeyDictionary[Grid, NDArray[np.int32]] = WeakKeyDictionary()


def _steps(grid: Grid) -> NDArray[np.int32]:
    steps = _STEPS.get(grid)
    if steps is None:
        steps = _STEPS[grid] = np.full(grid.obstacle.size, -1, dtype=np.int32)
    return steps


def _search(
    grid: Grid, occupancy: Occupancy, mover: Occupant, plan: _Plan, kernel: Kernel
) -> _Found:
    ox, oy, oz, wx, wy, wz, info, dist, pred, via, ends = kernel(
        *_arrays(grid, occupancy, mover, plan.ally_cost), _static(grid), _steps(grid),
        *plan.start, plan.kind,
        plan.base_mode, plan.crawling, plan.spent, plan.budgets, plan.radius, plan.run_up,
        plan.end_rule, plan.one_step, plan.drop_limit,
    )  # fmt: skip
    return _Found((ox, oy, oz), (wx, wy, wz), info, dist, pred, via, ends)


def summarize(
    grid: Grid, occupancy: Occupancy, mover: Occupant, request: MoveRequest
) -> MoveSummary:
    """Which search a request runs, with its rules and notes (for a query's "rules"/"why")."""
    return _planned(grid, occupancy, mover, request).summary


def reachable_rows(
    grid: Grid,
    occupancy: Occupancy,
    mover: Occupant,
    request: MoveRequest,
    *,
    kernel: Kernel = mk.movement_kernel,
) -> NDArray[np.int32]:
    """`reachable` as an int32 array of rows (x, y, z, points), for callers that paint or
    filter many cells and need no Python dict."""
    plan = _planned(grid, occupancy, mover, request)
    return _search(grid, occupancy, mover, plan, kernel).ends


def reachable(
    grid: Grid,
    occupancy: Occupancy,
    mover: Occupant,
    request: MoveRequest,
    *,
    kernel: Kernel = mk.movement_kernel,
) -> dict[Cell, int]:
    """Every cell the mover may END its movement in this turn, with the least total movement
    points (`spent` included); its own cell and occupied cells are never listed (P-MOV-4)."""
    rows = reachable_rows(grid, occupancy, mover, request, kernel=kernel)
    xs, ys, zs, costs = rows.T.tolist()
    return dict(zip(zip(xs, ys, zs, strict=True), costs, strict=True))


def find_path(
    grid: Grid,
    occupancy: Occupancy,
    mover: Occupant,
    request: MoveRequest,
    to: Cell,
    *,
    kernel: Kernel = mk.movement_kernel,
    waypoint: bool = False,
) -> PathResult:
    """The cheapest path start → `to` (both included), explained step by step; its cost is the
    one `reachable` lists for `to`, from the same search.

    A `waypoint` is a cell the move passes on its way, not where it ends: it may be an ally's
    or a neutral's cell (P-MOV-4 forbids only ending there). Flights (thrusters) take, among
    the cheapest paths, the one nearest the straight line to `to`, so that the run the dampers
    keep is the one the player aimed (P-ZERO-2)."""
    target = require_in_map(grid.shape, to, "path target")
    plan = _planned(grid, occupancy, mover, request)
    found = _search(grid, occupancy, mover, plan, kernel)
    info = plan.summary
    j = found.local(target)
    if j is None or target == plan.start or not _ends_at(found, plan, j, waypoint=waypoint):
        return PathResult(None, (), notes=info.notes, rules=info.rules)
    cost = int(found.dist[j])
    if plan.kind in (mk.KIND_JUMP, mk.KIND_LAUNCH):
        cells, step = _explain_jump(plan, plan.start, target, cost)
        steps: tuple[Step, ...] = (step,)
    else:
        chain = _straightest(found, plan, j) if plan.kind == mk.KIND_FLY else _chain(found, j)
        cells = tuple(found.cell(i) for i in reversed(chain))
        steps = _explain_walk(grid, occupancy, mover, plan, found, cells)
        cells = _passed(plan.start, steps)
    rules = tuple(dict.fromkeys([*info.rules, *(r for s in steps for r in s.rules)]))
    return PathResult(cost, cells, steps, info.notes, rules)


def _passed(start: Cell, steps: Sequence[Step]) -> tuple[Cell, ...]:
    """Every cell a walking path passes, each adjacent to the one before (G-4): the steps' ends,
    and before a drop's landing each level of its fall (P-JUMP-3). The search records a drop as
    one hop, edge to landing, which skips the levels between when it is 2 or more deep."""
    cells = [start]
    for step in steps:
        if step.move is StepKind.DROP:
            x, y, _ = step.end
            cells += [(x, y, z) for z in range(step.start[2] - 1, step.end[2], -1)]
        cells.append(step.end)
    return tuple(cells)


def _ends_at(found: _Found, plan: _Plan, j: int, *, waypoint: bool = False) -> bool:
    facts = int(found.info[j])
    if waypoint and not facts & mk.F_BLOCK:
        facts &= ~mk.F_OCC  # an ally's or neutral's cell on the way (P-MOV-4)
    return bool(found.dist[j] >= 0 and mk.can_end(facts, plan.end_rule))


def _chain(found: _Found, j: int) -> list[int]:
    """Window cells from j back to the start, as the search recorded them."""
    chain = [j]
    while found.pred[chain[-1]] >= 0:
        chain.append(int(found.pred[chain[-1]]))
    return chain


def _straightest(found: _Found, plan: _Plan, j: int) -> list[int]:
    """Like `_chain`, but each step back goes to the neighbour, among those on a cheapest path,
    nearest the straight line from the start to j (then the one keeping the step's direction):
    a tie-break among paths of equal cost (P-ZERO-2)."""
    (_, wy, wz) = found.shape
    sy = wz
    sx = wy * sy
    checks = mk.step_checks(plan.kind, sx, sy)
    start = found.local(plan.start)
    assert start is not None
    a = found.cell(start)
    end = found.cell(j)
    line = (end[0] - a[0], end[1] - a[1], end[2] - a[2])
    chain = [j]
    after: tuple[int, int, int] | None = None
    while chain[-1] != start:
        here = chain[-1]
        cell = found.cell(here)
        best: tuple[int, int, int] | None = None
        best_key: tuple[int, int] | None = None
        for dx, dy, dz in mk.STEPS.tolist():
            p = here - (dx * sx + dy * sy + dz)
            if not 0 <= p < found.dist.size or found.dist[p] < 0:
                continue
            if plan.one_step and p != start:
                continue
            points, mode = mk.step_rule(
                plan.kind, plan.base_mode, plan.crawling, int(found.info[p]),
                int(found.info[here]), dx, dy, dz,
            )  # fmt: skip
            corner = mk.step_corner(found.info, checks, p, mk.direction_index(dx, dy, dz))
            if points < 0 or corner < 0:
                continue
            if int(found.dist[p]) + points + corner != int(found.dist[here]):
                continue
            if mode != int(found.via[here]):
                continue
            off = (cell[0] - dx - a[0], cell[1] - dy - a[1], cell[2] - dz - a[2])
            key = (_off_line(off, line), 0 if (dx, dy, dz) == after else 1)
            if best_key is None or key < best_key:
                best, best_key = (dx, dy, dz), key
        if best is None:  # cannot happen on a settled path; keep the search's own
            return [*chain[:-1], *_chain(found, here)]
        after = best
        chain.append(here - (best[0] * sx + best[1] * sy + best[2]))
    return chain


def _line(a: Cell, d: Cell, length: int) -> list[Cell]:
    """The cells after `a` of a straight flight by `d`, as the kernel checks them."""
    return [
        (
            a[0] + mk.round_ratio(k * d[0], length),
            a[1] + mk.round_ratio(k * d[1], length),
            a[2] + mk.round_ratio(k * d[2], length),
        )
        for k in range(1, length + 1)
    ]


def _off_line(p: Cell, d: Cell) -> int:
    """|p × d|²: how far p lies from the line through the origin along d (scaled by |d|²)."""
    cx = p[1] * d[2] - p[2] * d[1]
    cy = p[2] * d[0] - p[0] * d[2]
    cz = p[0] * d[1] - p[1] * d[0]
    return cx * cx + cy * cy + cz * cz


def _explain_jump(plan: _Plan, a: Cell, b: Cell, cost: int) -> tuple[tuple[Cell, ...], Step]:
    points = cost - plan.spent
    if plan.kind == mk.KIND_LAUNCH:
        d = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
        length = chebyshev(a, b)
        cells = (a, *_line(a, d, length))
        flight = (Note(CostNote.STRAIGHT_LINE, {"length": length}),)
        if plan.summary.search == "push off":
            kind, mode = StepKind.PUSH_OFF, PUSH_OFF
        else:
            kind, mode = StepKind.MICROGRAVITY_JUMP, "jump"
        step = Step(a, b, kind, mode, flight, points, cost, ("P-ZERO-1",))
        return cells, step
    apex = (a[0], a[1], a[2] + points)  # P-JUMP-1: a jump costs its apex height only
    up = [(a[0], a[1], a[2] + k) for k in range(1, points + 1)]
    length = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
    across = _line(apex, (b[0] - a[0], b[1] - a[1], 0), length)
    down = [(b[0], b[1], z) for z in range(apex[2] - 1, b[2] - 1, -1)]
    n_max = plan.summary.n_max
    assert n_max is not None  # a jump under gravity
    apex_values: dict[str, Value] = {"apex": points, "n_max": n_max}
    dc = jump_dc(points, plan.athletics, plan.gravity)
    if dc is not None:
        apex_values["dc"] = dc
    parts = (
        Note(CostNote.APEX, apex_values),
        Note(CostNote.HORIZONTAL, {"length": length, "apex": points, "run_up": plan.run_up}),
    )
    step = Step(a, b, StepKind.JUMP, "jump", parts, points, cost, ("P-JUMP-1",))
    return (a, *up, *across, *down), step


def _explain_drop(plan: _Plan, a: Cell, b: Cell, points: int, total: int) -> Step:
    """P-JUMP-3: a step off an edge down to b, costing its vertical cells only."""
    depth = a[2] - b[2]
    assert plan.n_max is not None  # drops happen under gravity
    values: dict[str, Value] = {"depth": depth, "n_max": plan.n_max}
    dc = drop_dc(depth, plan.athletics, plan.gravity)
    if dc is not None:
        values["dc"] = dc
    parts = (Note(CostNote.DROP, values),)
    return Step(a, b, StepKind.DROP, "jump", parts, points, total, ("P-JUMP-3", "P-MOV-1"))


def _cell_parts(
    grid: Grid, occupancy: Occupancy, mover: Occupant, cell: Cell, ally_cost: bool = True
) -> list[tuple[Note, str]]:
    """A cell's own extra costs, +1 each, with the ruling that adds it (an ally's or
    neutral's cell only with P-MOV-4's cost, `MoveRequest.ally_cost`)."""
    parts = []
    terrain = int(grid.terrain[cell])
    if terrain & TERRAIN_ROUGH:
        parts.append((Note(CostNote.ROUGH), "P-MOV-2"))
    if terrain & TERRAIN_WATER:
        parts.append((Note(CostNote.WATER), "P-MOV-2"))
    other = occupancy.at(cell)
    passing = other is not None and relation(mover, other) in (Relation.ALLY, Relation.NEUTRAL)
    if passing and ally_cost:
        assert other is not None
        values = {"relation": relation(mover, other).value, "id": other.id}
        parts.append((Note(CostNote.PASS_THROUGH, values), "P-MOV-4"))
    return parts


def _explain_walk(
    grid: Grid,
    occupancy: Occupancy,
    mover: Occupant,
    plan: _Plan,
    found: _Found,
    cells: tuple[Cell, ...],
) -> tuple[Step, ...]:
    """Each step's points and mode as the kernel recorded them, and what they paid for."""
    steps = []
    total = plan.spent
    for a, b in pairwise(cells):
        dx, dy, dz = b[0] - a[0], b[1] - a[1], b[2] - a[2]
        j = found.local(b)
        assert j is not None  # the path comes from the window
        points, total = int(found.dist[j]) - total, int(found.dist[j])
        mode = int(found.via[j])
        rules: list[str] = []
        if plan.kind == mk.KIND_GROUND and mode == mk.MODE_JUMP:
            steps.append(_explain_drop(plan, a, b, points, total))
            continue
        if plan.kind == mk.KIND_GROUND and dz != 0:
            climb = dx == dy == 0
            if climb:
                move = StepKind.CLIMB_UP if dz > 0 else StepKind.CLIMB_DOWN
            else:
                move = StepKind.STAIRS_UP if dz > 0 else StepKind.STAIRS_DOWN
            rules.append("G-3b" if climb else "G-3a")
        else:
            axes = sum(1 for v in (dx, dy, dz) if v)
            move = {1: StepKind.CARDINAL, 2: StepKind.DIAGONAL, 3: StepKind.DIAGONAL_3D}[axes]
        shift, cdz = mk.corner_frame(plan.kind, dz)
        d = mk.direction_index(dx, dy, cdz)
        corners = [
            (
                a[0] + int(mk.CORNERS[d, k, 0]),
                a[1] + int(mk.CORNERS[d, k, 1]),
                a[2] + shift + int(mk.CORNERS[d, k, 2]),
            )
            for k in range(int(mk.CORNER_COUNT[d]))
        ]
        if corners:
            rules.append("P-MOV-3")
        parts: list[Note] = []
        # P-MOV-3: only the costliest corner counts.
        worst = max(
            ((c, _cell_parts(grid, occupancy, mover, c, plan.ally_cost)) for c in corners),
            key=lambda cp: len(cp[1]),
            default=None,
        )
        if worst is not None and worst[1]:
            extras = tuple(note for note, _ in worst[1])
            parts.append(Note(CostNote.CORNER, {"cell": worst[0]}, extras))
            rules += [rule for _, rule in worst[1]]
        for note, rule in _cell_parts(grid, occupancy, mover, b, plan.ally_cost):
            parts.append(note)
            rules.append(rule)
        if plan.crawling:
            parts.append(Note(CostNote.CRAWLING))
            rules.append("P-MOV-2")
        if mode != plan.base_mode:
            rules.append("P-MOV-1")
        if mode in (mk.MODE_THRUSTERS, mk.MODE_AIR):
            rules.append("P-ZERO-2")
        steps.append(
            Step(a, b, move, _MODE_NAMES[mode], tuple(parts), points, total,
                 tuple(dict.fromkeys(rules)))
        )  # fmt: skip
    return tuple(steps)


def reaction_exits(
    grid: Grid, occupancy: Occupancy, mover: Occupant, path: Sequence[Cell]
) -> list[OpportunityExit]:
    """P-OA-1: every step of `path` that leaves an enemy's reaction area (the 26 cells around
    it, G-5), unless the cell being left holds an ally of the mover, who covers the retreat.

    A Disengage action makes the caller ignore the list; one reaction a round is its business.
    """
    cells = [require_in_map(grid.shape, c, f"path[{k}]") for k, c in enumerate(path)]
    enemies = [o for o in occupancy.occupants if relation(mover, o) is Relation.ENEMY]
    exits = []
    for a, b in pairwise(cells):
        if any(relation(mover, o) is Relation.ALLY for o in occupancy.all_at(a)):
            continue  # P-OA-1: the ally in the cell being left covers the retreat
        for enemy in enemies:
            if chebyshev(a, enemy.cell) <= 1 < chebyshev(b, enemy.cell):
                exits.append(OpportunityExit(enemy.id, a, b))
    return exits


@dataclass(frozen=True)
class Flight:
    """A straight flight in microgravity (P-ZERO-1/2): the cells flown after the start, in
    order, and the first cell of the line it could not enter (None: it flew the whole way)."""

    cells: tuple[Cell, ...]
    stopped_at: Cell | None = None


def straight_flight(
    grid: Grid,
    occupancy: Occupancy,
    mover: Occupant,
    toward: Cell,
    limit: int | None = None,
    *,
    any_unit_stops: bool = False,
) -> Flight:
    """The straight line from the mover's cell towards `toward` (which may lie off the map), as
    far as `limit` cells or the line's end, flown as a microgravity jump flies it (the cells of
    `_line`, each step passing P-MOV-3's corners and no floor).

    It stops before the map's edge, an obstacle, an enemy (P-MOV-4) and, with `any_unit_stops`
    (a drift, which nobody steers), before any unit at all. A jump's search lists only the
    surfaces reached this turn; this follows one line beyond that (a jump still in flight next
    turn, a carried velocity).
    """
    a = require_in_map(grid.shape, mover.cell, f"mover {mover.id!r} cell")
    d = (toward[0] - a[0], toward[1] - a[1], toward[2] - a[2])
    length = chebyshev(a, toward)
    steps = length if limit is None else min(max(limit, 0), length)
    if steps == 0:
        return Flight(())
    line = _line(a, d, length)[:steps]
    # The window: the box from the start to the last cell asked for, inside the map; the
    # padding around it reads as blocked, like the map's edge.
    lo = [max(0, min(a[i], line[-1][i])) for i in range(3)]
    hi = [min(grid.shape[i] - 1, max(a[i], line[-1][i])) for i in range(3)]
    wx, wy, wz = (hi[i] - lo[i] + 1 for i in range(3))
    info = np.full((wx + 2) * (wy + 2) * (wz + 2), mk.F_BLOCK, dtype=np.int32)
    arrays = _arrays(grid, occupancy, mover)
    for lz in range(wz):
        mk.fill_level(info, arrays, lo[0], lo[1], lo[2], wx, wy, wz, lz, True)
    sy = wz + 2
    sx = (wy + 2) * sy
    checks = mk.step_checks(mk.KIND_FLY, sx, sy)
    stop = mk.F_BLOCK | (mk.F_OCC if any_unit_stops else 0)
    flown: list[Cell] = []
    here = a
    for cell in line:
        if not grid.in_bounds(cell):
            return Flight(tuple(flown), cell)
        i = mk.window_index(wy, wz, cell[0] - lo[0], cell[1] - lo[1], cell[2] - lo[2])
        j = mk.window_index(wy, wz, here[0] - lo[0], here[1] - lo[1], here[2] - lo[2])
        step = mk.direction_index(cell[0] - here[0], cell[1] - here[1], cell[2] - here[2])
        if info[i] & stop or mk.step_corner(info, checks, j, step) < 0:
            return Flight(tuple(flown), cell)
        flown.append(cell)
        here = cell
    return Flight(tuple(flown))


@dataclass(frozen=True)
class ShortJump:
    """A jump made lower than aimed (P-JUMP-1: a failed check jumps n_max high): the cells
    flown after the start, the landing last, and the apex reached, which is what it costs."""

    cells: tuple[Cell, ...]
    apex: int


def short_jump(
    grid: Grid, occupancy: Occupancy, mover: Occupant, toward: Cell, height: int, run_up: int = 0
) -> ShortJump:
    """P-JUMP-1: the jump toward `toward` made only `height` high. It rises up the start's column
    as far as the air is clear, flies straight at that apex toward `toward` as far as
    apex + 2 × run-up reaches (stopping before an obstacle, an enemy or a P-MOV-3 corner), and
    comes down its column to the first free standable cell; a column with nowhere to land
    sends it back along its line, to the start's own column at worst."""
    a = require_in_map(grid.shape, mover.cell, f"mover {mover.id!r} cell")
    top = grid.shape[2]
    apex = 0
    for k in range(1, max(height, 0) + 1):
        cell = (a[0], a[1], a[2] + k)
        if cell[2] < top and (
            grid.obstacle[cell] or grid.floor[cell] or _enemy(occupancy, mover, cell)
        ):
            break
        apex = k
    up = [(a[0], a[1], a[2] + k) for k in range(1, apex + 1)]
    high = (a[0], a[1], a[2] + apex)
    d = (toward[0] - a[0], toward[1] - a[1], 0)
    length = max(abs(d[0]), abs(d[1]))
    reach = min(length, apex + 2 * run_up)
    if reach == 0:
        across: list[Cell] = []
    elif high[2] >= top:  # above the map's top level: open air (as the search reads it)
        across = _line(high, d, length)[:reach]
    else:
        flight = straight_flight(
            grid,
            occupancy,
            replace(mover, cell=high),
            (high[0] + d[0], high[1] + d[1], high[2]),
            reach,
        )
        across = list(flight.cells)
    columns = [high, *across]
    while columns:
        x, y, z = columns[-1]
        landing = _landing(grid, occupancy, mover, (x, y, min(z, top - 1)))
        if landing is not None:
            down = [(x, y, h) for h in range(z - 1, landing[2] - 1, -1)]
            return ShortJump((*up, *across[: len(columns) - 1], *down), apex)
        columns.pop()
    return ShortJump((), 0)


def _enemy(occupancy: Occupancy, mover: Occupant, cell: Cell) -> bool:
    other = occupancy.at(cell)
    return other is not None and relation(mover, other) is Relation.ENEMY


def _landing(grid: Grid, occupancy: Occupancy, mover: Occupant, cell: Cell) -> Cell | None:
    """The first standable cell down from `cell` (itself included), if it is free (the mover's
    own cell is), before anything blocks the fall; else None."""
    x, y, z = cell
    for h in range(z, -1, -1):
        here = (x, y, h)
        if grid.obstacle[here] or _enemy(occupancy, mover, here):
            return None
        if grid.standable[here]:
            other = occupancy.at(here)
            return here if other is None or other.id == mover.id else None
    return None


__all__ = [
    "CostNote",
    "Flight",
    "Kernel",
    "MoveRequest",
    "MoveSummary",
    "MovementError",
    "OpportunityExit",
    "PathResult",
    "SearchNote",
    "ShortJump",
    "Step",
    "StepKind",
    "find_path",
    "reachable",
    "reachable_rows",
    "reaction_exits",
    "short_jump",
    "straight_flight",
    "summarize",
]
