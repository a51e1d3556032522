"""d20 (seed 004, D-1..D-3) on the grid: cover by corner lines, threat, flanking and one attack's
numbers, shared by the query object (d20.py) and the battle object (d20_battle.py).

The grid decides cover by corner-to-corner lines (game/grid/corners.py, D-1, D-3), flanking by
the centre line (004:l.98), higher ground by the level (D-3) and total cover by the shared line
of sight without creatures (D-3: creatures never block sight); the pure rules of
game/rules/d20 turn those into the seed's modifiers and an exact chance.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.grid.corners import adjacent_blocked, cover_corner, flanks
from game.grid.geometry import chebyshev
from game.grid.los import LosResult, explain_line_of_sight
from game.grid.model import OBSTACLE_HALF, OBSTACLE_NONE
from game.grid.occupants import Relation, relation
from game.rules.d20 import attack as rules
from game.rules.d20.data import D20Data, Weapon, load_d20
from game.rules.d20.health import HpState, hp_state
from game.rules.d20.sheet import Sheet, bare_sheet
from game.rules.reader import as_bool, as_int, fail
from game.tactics.battlefield import Battlefield, EntitySheet


def data() -> D20Data:
    """The d20 rules data (game/data/d20), read once."""
    return load_d20()


def sheet_of(entity: EntitySheet) -> Sheet:
    """The entity's d20 sheet (the bare sheet if it was read under another ruleset)."""
    return entity.sheet if isinstance(entity.sheet, Sheet) else bare_sheet(data())


# --- geometry ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cover:
    """A cover grade (none/normal/soft/total) and how the grid found it."""

    grade: str
    rules: tuple[str, ...]
    #: The attacker's corner that sees the target whole (none when the target has cover).
    corner: tuple[int, int, int] | None = None
    #: Low obstacles that counted (D-3), and the creatures whose cells gave soft cover.
    low_obstacles: tuple[tuple[int, int, int], ...] = ()
    creatures: tuple[str, ...] = ()


def _box(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[slice, slice, slice]:
    """The cells a corner-to-corner line between a and b can enter: their bounding box."""
    lo = [min(p, q) for p, q in zip(a, b, strict=True)]
    hi = [max(p, q) + 1 for p, q in zip(a, b, strict=True)]
    return slice(lo[0], hi[0]), slice(lo[1], hi[1]), slice(lo[2], hi[2])


def cover_between(
    bf: Battlefield,
    attacker: EntitySheet,
    target: EntitySheet,
    melee: bool,
    los: LosResult | None = None,
) -> Cover:
    """The target's cover against this attacker (004:l.52-68, D-1, D-3); `los`, the terrain's
    line of sight between them, when the caller has it (the battle object's `sight`)."""
    grid = bf.grid
    a, t = attacker.cell, target.cell
    if los is None:
        los = explain_line_of_sight(grid, a, t)  # terrain only: D-3, creatures never block
    if not los.clear:
        return Cover("total", ("D-3", *los.rules))
    if melee and chebyshev(a, t) <= 1:
        # l.54: against an adjacent target, any line through a wall, a low wall included.
        walls = (grid.obstacle != OBSTACLE_NONE).astype(np.uint8)
        grade = "normal" if adjacent_blocked(walls, a, t) else "none"
        return Cover(grade, ("D-1",))
    mask: NDArray[np.uint8] = grid.sight_block.copy()
    box = _box(a, t)
    origin = (box[0].start, box[1].start, box[2].start)
    low: list[tuple[int, int, int]] = []
    limit = data().base.low_obstacle_range
    for rel in np.argwhere(grid.obstacle[box] == OBSTACLE_HALF).tolist():
        h = (origin[0] + rel[0], origin[1] + rel[1], origin[2] + rel[2])
        # D-3 (004:l.56): only within 6 cells of the target, and not when the attacker is
        # nearer to the obstacle than the target.
        if chebyshev(h, t) <= limit and not chebyshev(a, h) < chebyshev(t, h):
            mask[h] = 1
            low.append(h)
    corner = cover_corner(mask, a, t)
    if corner < 0:
        return Cover("normal", ("D-1", "D-3") if low else ("D-1",), low_obstacles=tuple(low))
    # D-3 (l.52, l.64): the creatures in between give soft cover, even enemies; not one in
    # the target's or the attacker's own cell (an ally a mover passes, D-2), not in between.
    others = [
        e for e in bf.entities if e.id not in (attacker.id, target.id) and e.cell not in (a, t)
    ]
    for e in others:
        mask[e.cell] = 1
    soft_corner = cover_corner(mask, a, t)
    if soft_corner < 0:
        names = tuple(sorted(e.id for e in others if _in_box(e.cell, box)))
        return Cover("soft", ("D-1", "D-3"), creatures=names)
    return Cover("none", ("D-1",), corner=_corner_point(a, soft_corner))


def _in_box(cell: tuple[int, int, int], box: tuple[slice, slice, slice]) -> bool:
    return all(s.start <= c < s.stop for c, s in zip(cell, box, strict=True))


def _corner_point(cell: tuple[int, int, int], k: int) -> tuple[int, int, int]:
    return cell[0] + (k & 1), cell[1] + ((k >> 1) & 1), cell[2] + ((k >> 2) & 1)


def threatens(entity: EntitySheet, cell: tuple[int, int, int]) -> bool:
    """D-1: an entity threatens the cells within its reach; reach 0 threatens nothing (l.104),
    and a helpless, dying or dead one threatens nothing (D-2's base)."""
    sheet = sheet_of(entity)
    if sheet.reach < 1 or sheet.has("indifeso"):
        return False
    if hp_state(data(), sheet.hit_points) in (HpState.DYING, HpState.DEAD):
        return False
    return chebyshev(entity.cell, cell) <= sheet.reach


def flanking_ally(bf: Battlefield, attacker: EntitySheet, target: EntitySheet) -> str | None:
    """004:l.94-104, D-1: the ally whose centre and the attacker's are joined by a line crossing
    opposite borders of the target's cell, the ally threatening the target; None if none."""
    if sheet_of(attacker).reach < 1:
        return None  # l.104: reach 0 cannot flank
    for ally in bf.entities:
        if ally.id in (attacker.id, target.id):
            continue
        if relation(attacker.occupant, ally.occupant) is not Relation.ALLY:
            continue
        if threatens(ally, target.cell) and flanks(attacker.cell, ally.cell, target.cell):
            return ally.id
    return None


def cover_grade(found: Cover, situation: Mapping[str, object], where: str) -> str:
    """The grade the grid found, unless the GM's situation says total or improved cover."""
    if as_bool(situation.get("total_cover", False), f"{where}.situation.total_cover"):
        return "total"  # l.68, the GM's word
    if found.grade == "total":
        return "total"
    if as_bool(situation.get("improved_cover", False), f"{where}.situation.improved_cover"):
        return "improved"  # l.70, the GM's word
    return found.grade


@dataclass(frozen=True)
class AttackAnswer:
    """One attack's numbers from the pure rules, the cover found and the flanking ally."""

    outcome: rules.AttackOutcome
    cover: Cover
    flanking_ally: str | None
    weapon: Weapon


def attack_answer(
    bf: Battlefield,
    attacker: EntitySheet,
    target: EntitySheet,
    weapon: Weapon,
    situation: Mapping[str, object],
    where: str = "situation",
    los: LosResult | None = None,
) -> AttackAnswer:
    """Geometry and the GM's situation into the pure rules' attack (D-1..D-3); `los` as for
    `cover_between`."""
    a_sheet, t_sheet = sheet_of(attacker), sheet_of(target)
    melee = weapon.melee
    found = cover_between(bf, attacker, target, melee, los)
    grade = cover_grade(found, situation, where)
    concealment = as_int(situation.get("concealment", 0), f"{where}.situation.concealment")
    if concealment not in rules.CONCEALMENTS:
        # D-1: "Concealment 20% / 50% miss chance (not cumulative)": one of them, or none.
        fail(f"{where}.situation.concealment", f"{concealment} is not one of 0, 20, 50")
    if t_sheet.has("invisibile"):
        concealment = data().base.concealment_total  # l.90: invisibility is total concealment
    distance = chebyshev(attacker.cell, target.cell)
    in_reach = distance <= a_sheet.reach
    ally = flanking_ally(bf, attacker, target) if melee and in_reach else None
    sit = rules.Situation(
        weapon=weapon,
        attacker_stance=attacker.stance,
        target_stance=target.stance,
        flanking=ally is not None,
        higher_ground=attacker.cell[2] > target.cell[2],  # D-3
        cover=grade,
        in_reach=in_reach,
        adjacent=distance <= 1,
        concealment=concealment,
        opportunity=as_bool(situation.get("opportunity", False), f"{where}.situation.opportunity"),
        coup_de_grace=as_bool(
            situation.get("coup_de_grace", False), f"{where}.situation.coup_de_grace"
        ),
    )
    return AttackAnswer(rules.attack(data(), a_sheet, t_sheet, sit), found, ally, weapon)
