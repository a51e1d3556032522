"""The computer player: one command at a time for any faction, from what that faction can see.

Its priorities, each a rule a GM would run an NPC by: answer a reaction when offered; treat a
dying ally in reach; shoot the best target by hit chance; otherwise close in, preferring cells
with cover and a shot; with the action spent, get into cover; then end the turn. Every command
it gives goes through the same checks as a player's.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from game import tactics
from game.battle import commands as cmd
from game.battle.engine import Battle
from game.battlefield import Battlefield, EntitySheet
from game.ecs.components import Armed, Sheet
from game.grid.geometry import chebyshev
from game.grid.model import Cell
from game.grid.movement import find_path, reachable_rows
from game.rules.wounds import is_dying

#: At most this many candidate cells are weighed for a move (the nearest to the goal first).
CANDIDATES = 24
#: A movement budget that reaches across any map, for finding the way to a far goal.
FAR = 10_000
_COVER_SCORE = {"heavy": 3, "light": 2, "none": 0, "high_exposure": -1}


def _alive(e: EntitySheet) -> bool:
    return not ({"dead", "out_of_combat"} & e.health.conditions)


def _enemies(b: Battle, me: EntitySheet) -> list[EntitySheet]:
    """The enemies this unit's side sees now, still in the fight."""
    seen = b.vision.factions[me.faction].units
    return [
        e
        for e in b.bf.entities
        if e.id in seen and e.faction != me.faction and not e.neutral and _alive(e)
    ]


def _best_shot(
    bf: Battlefield, me: EntitySheet, enemies: list[EntitySheet]
) -> tuple[int, str] | None:
    best: tuple[int, str] | None = None
    for enemy in enemies:
        answer = tactics.attack_chance(bf, me, enemy, worded=False)
        if answer.hit is not None and (best is None or (answer.hit.p, enemy.id) > best):
            best = (answer.hit.p, enemy.id)
    return best


def _moved(bf: Battlefield, me: EntitySheet, cell: Cell) -> tuple[Battlefield, EntitySheet]:
    moved = replace(me, cell=cell)
    entities = tuple(moved if e.id == me.id else e for e in bf.entities)
    return Battlefield(bf.grid, entities, bf.rules, bf.ruleset), moved


def _cover_from(bf: Battlefield, me: EntitySheet, enemies: list[EntitySheet]) -> int:
    """How well `me` is covered from the enemies that see it: the worst cover counts."""
    worst = 3
    for enemy in enemies:
        if tactics.sight(bf, enemy, me).clear:
            worst = min(worst, _COVER_SCORE[tactics.target_cover(bf, enemy, me).grade])
    return worst


def _goal(b: Battle, me: EntitySheet, enemies: list[EntitySheet]) -> Cell | None:
    if enemies:
        return min(enemies, key=lambda e: (chebyshev(me.cell, e.cell), e.id)).cell
    known = b.vision.factions[me.faction].last_known
    cells = [c for u, c in sorted(known.items()) if b.on_map(u) and _alive(b.sheet(u))]
    return min(cells, key=lambda c: (chebyshev(me.cell, c), c)) if cells else None


def _choose_cell(
    b: Battle, me: EntitySheet, enemies: list[EntitySheet], *, want_shot: bool
) -> Cell | None:
    """A reachable cell: with a shot (when wanted) and cover, nearer the goal."""
    cells, _allow = tactics.reachable_cells(b.bf, me, _mode(b, me))
    if not cells:
        return None
    goal = _goal(b, me, enemies)
    ranked = sorted(cells, key=lambda c: (chebyshev(c, goal) if goal else 0, cells[c], c))

    def weigh(bf: Battlefield, who: EntitySheet) -> tuple[int, int, int]:
        shot = _best_shot(bf, who, enemies) if want_shot else None
        closeness = -chebyshev(who.cell, goal) if goal else 0
        return (shot[0] if shot else 0), _cover_from(bf, who, enemies), closeness

    here = weigh(b.bf, me)
    scored = [(weigh(*_moved(b.bf, me, c)), c) for c in ranked[:CANDIDATES]]
    if not scored:
        return None
    if want_shot:
        (shot, cover, _closeness), cell = max(scored, key=lambda sc: (sc[0], sc[1]))
        if shot > here[0] or (shot == here[0] > 0 and cover > here[1]):
            return cell
        # No better shot in reach: close in along the way there.
        return _towards(b, me, goal)
    (_, cover, _closeness), cell = max(scored, key=lambda sc: (sc[0][1], sc[0][2], sc[1]))
    return cell if cover > here[1] else None


def _mode(b: Battle, me: EntitySheet) -> str | None:
    """In microgravity a unit with thrusters flies (P-ZERO-2); otherwise the default, walking."""
    return "thrusters" if b.grid.microgravity and me.thrusters else None


def _towards(b: Battle, me: EntitySheet, goal: Cell | None) -> Cell | None:
    """The furthest cell this turn's movement reaches along the cheapest way towards `goal`
    (walls make straight-line greed a trap): a search as if the budget were unlimited."""
    mode = _mode(b, me)
    request, _allow = tactics.move_request(b.bf, me, mode, dash=False, stealth=False)
    if not request.budgets:
        return None
    far = replace(request, budgets={m: FAR for m in request.budgets})
    rows = reachable_rows(b.grid, b.bf.occupancy, me.occupant, far)
    if not len(rows):
        return None
    if goal is None:
        # Nobody in sight or remembered: explore, to the nearest ground the side has not seen.
        remembered = b.vision.factions[me.faction].remembered
        unseen = ~remembered[rows[:, 0], rows[:, 1], rows[:, 2]]
        if not unseen.any():
            return None
        distance = np.where(unseen, 0, 1)
    else:
        distance = np.abs(rows[:, :3] - np.array(goal)).max(axis=1)
    order = np.lexsort((rows[:, 3], distance))
    x, y, z = (int(v) for v in rows[order[0], :3])
    if goal is not None and chebyshev((x, y, z), goal) >= chebyshev(me.cell, goal):
        return None
    path = find_path(b.grid, b.bf.occupancy, me.occupant, far, (x, y, z))
    near, _allow = tactics.reachable_cells(b.bf, me, mode)
    on_the_way = [cell for cell in path.cells[1:] if cell in near]
    if on_the_way:
        return on_the_way[-1]
    # The first step of the way costs more than this turn gives: get nearer as the crow flies.
    target = (x, y, z)
    best = min(near, key=lambda c: (chebyshev(c, target), near[c], c), default=None)
    if best is not None and chebyshev(best, target) < chebyshev(me.cell, target):
        return best
    return None


def _treat_dying_ally(b: Battle, me: EntitySheet, can_move: bool) -> cmd.Command | None:
    """A medkit for the nearest dying ally (P-HEAL-1): beside it, use it; else go beside it."""
    dying = [
        a for a in b.bf.entities if a.faction == me.faction and a.id != me.id and is_dying(a.health)
    ]
    for ally in sorted(dying, key=lambda a: (chebyshev(a.cell, me.cell), a.id)):
        if chebyshev(ally.cell, me.cell) <= 1:
            return cmd.UseObject(me.id, ally.id, "mortal")
        if can_move:
            near, _allow = tactics.reachable_cells(b.bf, me, _mode(b, me))
            beside = [c for c in near if chebyshev(c, ally.cell) <= 1]
            if beside:
                return cmd.Move(me.id, min(beside, key=lambda c: (near[c], c)), mode=_mode(b, me))
    return None


def choose(b: Battle, unit: str) -> cmd.Command:
    """The computer's next command for `unit` (the acting unit, or one offered a reaction)."""
    if b.pending is not None and b.pending.reactor == unit:
        return cmd.React(unit, take=True)
    me = b.sheet(unit)
    turn = b._turn(unit)
    enemies = _enemies(b, me)
    action_free = turn.action is None
    # A jump still in flight without thrusters goes where it goes until it lands (P-ZERO-1).
    steers = me.thrusters or not (me.in_flight or any(me.velocity))
    if action_free and b.world.get(unit, Sheet).medkits > 0:
        treat = _treat_dying_ally(b, me, turn.movement_spent == 0 and steers)
        if treat is not None:
            return treat
    armed = b.world.get(unit, Armed).weapon is not None
    if action_free and armed:
        shot = _best_shot(b.bf, me, enemies)
        if shot is not None and shot[0] >= 10:
            return cmd.Attack(unit, shot[1])
    can_move = turn.movement_spent == 0 and not me.health.mortal and steers
    if can_move:
        cell = _choose_cell(b, me, enemies, want_shot=action_free and armed)
        if cell is not None:
            return cmd.Move(unit, cell, mode=_mode(b, me))
    if action_free and armed:
        shot = _best_shot(b.bf, me, enemies)
        if shot is not None:
            return cmd.Attack(unit, shot[1])
    if action_free and enemies:
        return cmd.Dodge(unit)
    return cmd.EndTurn(unit)
