"""The computer player: one command at a time for any faction, from what that faction can see.

Its priorities, each a rule a GM would run an NPC by: answer a reaction when offered; give
first aid to an ally in reach that the ruleset says wants it (periferie: a dying one); reload a
weapon that needs it (fantasy's CAD); shoot the target where the ruleset expects the most harm
(its `expected_harm`: periferie's is the hit chance); otherwise close in, preferring cells with
cover and a shot; with the action spent, get into cover; then
end the turn. A unit that
sees no enemy seeks one: where enemies were last seen, then ground its side has not seen, then
a patrol; it dashes when a walk gets it no nearer, and searches for hidden enemies. A unit with
no weapon keeps to cover and hides. Every command it gives goes through the same checks as a
player's.
"""

from __future__ import annotations

import zlib
from dataclasses import replace
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from game.battle import commands as cmd
from game.battle import mounted
from game.battle.engine import Battle
from game.battle.handlers import armed_weapon, check
from game.ecs.components import Grabbed, RulesetSheet, Sheet, StandingDefence, Visibility
from game.grid.geometry import chebyshev
from game.grid.model import Cell
from game.grid.movement import MoveRequest, find_path, reachable, reachable_rows
from game.rules.ruleset_answers import RulesRefusal
from game.rules.stance import Stance
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import (
    BattleRules,
    coup_de_grace_rules,
    defence_counters,
    horse_riders,
    round_rules,
)

#: At most this many candidate cells are weighed for a move (the nearest to the goal first).
CANDIDATES = 24
#: A movement budget that reaches across any map, for finding the way to a far goal.
FAR = 10_000
#: A patrolling unit (no enemy known, no ground unseen) keeps its waypoint this many rounds.
PATROL_ROUNDS = 3


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
    rules: BattleRules, bf: Battlefield, me: EntitySheet, enemies: list[EntitySheet]
) -> tuple[Fraction, str] | None:
    """The enemy the ruleset expects the most harm to from an attack now, with that harm."""
    best: tuple[Fraction, str] | None = None
    for enemy in enemies:
        answer = rules.attack(bf, me, enemy, worded=False)
        if answer.chance is None:
            continue
        harm = rules.expected_harm(bf, me, enemy, answer)
        if best is None or (harm, enemy.id) > best:
            best = (harm, enemy.id)
    return best


#: The computer lays suppression fire only when it succeeds at least this often (a guard's
#: pistol, 2d6 + 2 - 2 >= 8: 15/36, is enough; a civilian's, 6/36, is not).
SUPPRESS_AT_LEAST = Fraction(1, 3)


def _suppression(
    rules: BattleRules, bf: Battlefield, me: EntitySheet, enemies: list[EntitySheet]
) -> str | None:
    """The enemy the ruleset's suppression fire (Cepheus, 000:l.317) most likely pins, when
    it may lay it and succeeds often enough (SUPPRESS_AT_LEAST); None otherwise."""
    if rules.can_suppress(bf, me) is not None:
        return None
    best: tuple[Fraction, str] | None = None
    for enemy in enemies:
        chance = rules.suppression(bf, me, enemy).chance
        fair = chance is not None and chance >= SUPPRESS_AT_LEAST
        if fair and chance is not None and (best is None or (chance, enemy.id) > best):
            best = (chance, enemy.id)
    return None if best is None else best[1]


def _reach(b: Battle, me: EntitySheet, *, dash: bool = False) -> dict[Cell, int]:
    """The cells this turn's movement reaches, by the ruleset's allowance."""
    request, _allow = b.ruleset.move_request(b.bf, me, _mode(b, me), dash=dash, stealth=False)
    return reachable(b.bf.grid, b.bf.occupancy, me.occupant, request)


def _moved(
    bf: Battlefield,
    me: EntitySheet,
    cell: Cell,
    walked: int = 0,
    rules: BattleRules | None = None,
) -> tuple[Battlefield, EntitySheet]:
    """The battlefield with `me` moved to `cell`, having walked `walked` cells on the way (its
    ruleset sheet counting them: Myst's run-up for a charge, 002:l.189)."""
    sheet = me.sheet
    if rules is not None:
        for _step in range(walked):
            sheet = rules.after_step(sheet)
    moved = replace(me, cell=cell, sheet=sheet)
    entities = tuple(moved if e.id == me.id else e for e in bf.entities)
    return Battlefield(bf.grid, entities, bf.rules, bf.ruleset, bf.conditions), moved


def _cover_from(
    rules: BattleRules, bf: Battlefield, me: EntitySheet, enemies: list[EntitySheet]
) -> Fraction:
    """How well `me` is covered from the enemies that see it, the worst cover counting, in the
    ruleset's own measure (its `cover_value`)."""
    return rules.cover_value(bf, me, enemies)


def _targets(b: Battle, me: EntitySheet, enemies: list[EntitySheet]) -> list[Cell]:
    """Where to look for the fight, best first: the enemies in sight, nearest first, then the
    last known cells of enemies still in the fight, nearest first."""

    def nearest(cells: list[Cell]) -> list[Cell]:
        return sorted(set(cells), key=lambda c: (chebyshev(me.cell, c), c))

    known = b.vision.factions[me.faction].last_known
    fit = [c for u, c in sorted(known.items()) if b.on_map(u) and _alive(b.sheet(u))]
    return nearest([e.cell for e in enemies]) + nearest(fit)


def _goal(b: Battle, me: EntitySheet, enemies: list[EntitySheet]) -> Cell | None:
    targets = _targets(b, me, enemies)
    return targets[0] if targets else None


def _choose_cell(
    b: Battle, me: EntitySheet, enemies: list[EntitySheet], *, want_shot: bool
) -> Cell | None:
    """A reachable cell with a better shot (when wanted: else None), or with better cover;
    nearer the goal."""
    cells = _reach(b, me)
    if not cells:
        return None
    goal = _goal(b, me, enemies)
    ranked = sorted(cells, key=lambda c: (chebyshev(c, goal) if goal else 0, cells[c], c))

    def weigh(bf: Battlefield, who: EntitySheet) -> tuple[Fraction, Fraction, int]:
        shot = _best_shot(b.ruleset, bf, who, enemies) if want_shot else None
        closeness = -chebyshev(who.cell, goal) if goal else 0
        cover = _cover_from(b.ruleset, bf, who, enemies)
        return (shot[0] if shot else Fraction(0)), cover, closeness

    here = weigh(b.bf, me)
    # The cells walked to get there are its movement points (exact on plain ground): a charge
    # after a run-up counts in the harm expected (Myst, docs/rules.md "Myst in battle").
    scored = [(weigh(*_moved(b.bf, me, c, cells[c], b.ruleset)), c) for c in ranked[:CANDIDATES]]
    if not scored:
        return None
    if want_shot:
        (shot, cover, _closeness), cell = max(scored, key=lambda sc: (sc[0], sc[1]))
        if shot > here[0] or (shot == here[0] > 0 and cover > here[1]):
            return cell
        return None  # no better shot in reach: `choose` closes in
    (_, cover, _closeness), cell = max(scored, key=lambda sc: (sc[0][1], sc[0][2], sc[1]))
    return cell if cover > here[1] else None


def _mode(b: Battle, me: EntitySheet) -> str | None:
    """In microgravity a unit with thrusters flies (P-ZERO-2); otherwise the default, walking."""
    return "thrusters" if b.grid.microgravity and me.thrusters else None


def _seek(
    b: Battle, me: EntitySheet, enemies: list[EntitySheet], *, dash: bool, patrol: bool = True
) -> Cell | None:
    """A move towards the fight: to the first place to look (`_targets`) this turn's movement
    gets nearer to; else to ground the side has not seen; else (`patrol`) on patrol."""
    way = _far_search(b, me)
    if way is None:
        return None
    for target in _targets(b, me, enemies)[:4]:
        cell = _towards(b, me, target, dash=dash, way=way)
        if cell is not None:
            return cell
    cell = _towards(b, me, None, dash=dash, way=way)
    if cell is None and patrol:
        cell = _towards(b, me, _waypoint(b, me, way[1]), dash=dash, way=way)
    return cell


def _far_search(b: Battle, me: EntitySheet) -> tuple[MoveRequest, NDArray[np.int32]] | None:
    """The unit's move request as if its budget were unlimited, and every cell it reaches so
    (rows of x, y, z, cost); None when it cannot move at all."""
    request, _allow = b.ruleset.move_request(b.bf, me, _mode(b, me), dash=False, stealth=False)
    if not request.budgets:
        return None
    far = replace(request, budgets={m: FAR for m in request.budgets})
    rows = reachable_rows(b.grid, b.bf.occupancy, me.occupant, far)
    return (far, rows) if len(rows) else None


def _waypoint(b: Battle, me: EntitySheet, rows: NDArray[np.int32]) -> Cell:
    """A patrol's waypoint, when no enemy is known and no ground is left unseen: a cell the unit
    can get to, drawn from the unit and the round (and kept PATROL_ROUNDS rounds) so that the
    battle stays the same on every replay; walking there, it looks around on the way."""
    rows = rows[np.lexsort((rows[:, 2], rows[:, 1], rows[:, 0]))]
    draw = zlib.crc32(f"{me.id}/{b.round // PATROL_ROUNDS}".encode())
    x, y, z = (int(v) for v in rows[draw % len(rows), :3])
    return x, y, z


def _towards(
    b: Battle,
    me: EntitySheet,
    goal: Cell | None,
    *,
    dash: bool = False,
    way: tuple[MoveRequest, NDArray[np.int32]] | None = None,
) -> Cell | None:
    """The furthest cell this turn's movement reaches along the cheapest way towards `goal`
    (walls make straight-line greed a trap): a search as if the budget were unlimited (`way`,
    when already made). Without a goal, towards the nearest ground the side has not seen.
    None when it gets no nearer."""
    way = way or _far_search(b, me)
    if way is None:
        return None
    far, rows = way
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
    near = _reach(b, me, dash=dash)
    on_the_way = [cell for cell in path.cells[1:] if cell in near]
    if on_the_way:
        return on_the_way[-1]
    # The first step of the way costs more than this turn gives: get nearer as the crow flies,
    # but only to a cell whose own way there is shorter (else a unit steps off and back again).
    target = (x, y, z)
    best = min(near, key=lambda c: (chebyshev(c, target), near[c], c), default=None)
    if best is None or chebyshev(best, target) >= chebyshev(me.cell, target):
        return None
    then = find_path(b.grid, b.bf.occupancy, replace(me.occupant, cell=best), far, target)
    if then.cost is not None and path.cost is not None and then.cost < path.cost:
        return best
    return None


def _treat_dying_ally(b: Battle, me: EntitySheet, can_move: bool) -> cmd.Command | None:
    """A medkit for the nearest ally the ruleset says wants first aid (`aid_wanted`; periferie:
    a dying one, P-HEAL-1): beside it, use it; else go beside it."""
    wanted = {
        a.id: wound
        for a in b.bf.entities
        if a.faction == me.faction
        and a.id != me.id
        and (wound := b.ruleset.aid_wanted(b.bf, a)) is not None
    }
    dying = [a for a in b.bf.entities if a.id in wanted]
    for ally in sorted(dying, key=lambda a: (chebyshev(a.cell, me.cell), a.id)):
        if chebyshev(ally.cell, me.cell) <= 1:
            return cmd.UseObject(me.id, ally.id, wanted[ally.id])
        if can_move:
            near = _reach(b, me)
            beside = [c for c in near if chebyshev(c, ally.cell) <= 1]
            if beside:
                return cmd.Move(me.id, min(beside, key=lambda c: (near[c], c)), mode=_mode(b, me))
    return None


def _threatened(b: Battle, enemy: EntitySheet, cell: Cell) -> bool:
    """`enemy` threatens `cell`: the ruleset's cells (d20: within the sheet's reach, D-1),
    else the 26 cells around it (G-5)."""
    said = b.ruleset.threatens(enemy, cell)
    return chebyshev(enemy.cell, cell) <= 1 if said is None else said


def _step_out_of_reach(b: Battle, me: EntitySheet, enemies: list[EntitySheet]) -> Cell | None:
    """A 5-foot step (D-2) out of the cells every enemy in sight threatens (its real reach,
    `_threatened`), which provokes no attack of opportunity where a move would: the step
    with the best cover from them, then in reading order. None when no enemy threatens the
    unit's cell or every step stays threatened."""
    if not any(_threatened(b, e, me.cell) for e in enemies):
        return None
    clear = [
        c for c in b.five_foot_step_cells(me.id) if not any(_threatened(b, e, c) for e in enemies)
    ]
    if not clear:
        return None

    def weight(c: Cell) -> tuple[Fraction, int, int, int]:
        return _cover_from(b.ruleset, *_moved(b.bf, me, c), enemies), -c[2], -c[1], -c[0]

    return max(clear, key=weight)


def _spares_itself(b: Battle, me: EntitySheet, act: str) -> bool:
    """`act` would cost the unit itself (the ruleset's `exertion`: a disabled d20 creature
    falls dying, D-2) while an ally still fights at no such cost: it does not act so. The
    last of its side fights on (hiding, it would leave the battle to the stalemate rule)."""
    if not b.ruleset.exertion(me, act):
        return False
    return any(
        a.faction == me.faction and a.id != me.id and _alive(a) and not b.ruleset.exertion(a, act)
        for a in b.bf.entities
    )


def _coup_de_grace(b: Battle, me: EntitySheet) -> tuple[Fraction, str] | None:
    """The helpless enemy (a d20 dying one, 004:l.110) the unit's side sees that a coup de
    grâce now is worth the most hit points to (GivesCoupDeGrace.coup_de_grace_harm: the
    automatic critical's mean), with them; None where the ruleset has none or the unit may not
    (it has moved, its action is spent)."""
    rules = coup_de_grace_rules(b.ruleset)
    if rules is None or check(b, me.id, "coup_de_grace") is not None:
        return None
    seen = b.vision.factions[me.faction].units
    best: tuple[Fraction, str] | None = None
    for enemy in b.bf.entities:
        if enemy.id not in seen or enemy.faction == me.faction or enemy.neutral:
            continue
        answer = rules.coup_de_grace(b.bf, me, enemy)
        if answer.chance is None:
            continue
        harm = rules.coup_de_grace_harm(answer)
        if best is None or (harm, enemy.id) > best:
            best = (harm, enemy.id)
    return best


def _offered(b: Battle, kind: str) -> bool:
    """The command exists under the battle's ruleset (its turn budget lists it)."""
    return kind in b.ruleset.turn_budget().commands


# ---------------------------------------------------------------- the round's rules (C-1, C-4)


def _round_toggle(b: Battle, unit: str) -> cmd.Command | None:
    """A standing choice the round rules would have the computer change (its fire mode, its
    reaction stance)."""
    rules = round_rules(b.ruleset)
    own = b.world.try_get(unit, RulesetSheet)
    if rules is None or own is None:
        return None
    commands = {"fire_mode": cmd.FireMode, "react_stance": cmd.ReactStance}
    for kind in rules.computer_toggles(own.sheet):
        if kind in commands and _offered(b, kind):
            return commands[kind](unit)
    return None


def _aim_first(b: Battle, unit: str, target: str) -> cmd.Command | None:
    """Before a shot from where it stands: one minor action aiming, when the turn's minor
    action is still free (it has not moved) and aiming leaves the significant action for the
    shot (C-4, 000:l.87)."""
    rules = round_rules(b.ruleset)
    own = b.world.try_get(unit, RulesetSheet)
    turn = b.turn(unit)
    if rules is None or own is None or turn.movement_spent or not _offered(b, "aim"):
        return None
    try:
        _after, spends_action = rules.aim(own.sheet, target, turn.action)
    except RulesRefusal:
        return None
    return None if spends_action else cmd.Aim(unit, target)


# ---------------------------------------------------------------- Myst's counters (002:l.85-116)


def _counters_first(b: Battle, unit: str, me: EntitySheet) -> cmd.Command | None:
    """Myst's counters before anything else: its standing plan kept to the computer's choice
    for the situation (the ruleset's `computer_plan`, from the enemies its side sees: Myst's
    grab of an enemy whose attack is worth more than its own, else the trip), chosen again
    whenever the situation changes in its turn; in a grab, it keeps it as it is when the
    ruleset says it pays (`keeps_grab`), else the holder lets go and the grabbed one tries to
    break it with its action; on the ground, it stands with its action (002:l.101)."""
    counters = defence_counters(b.ruleset)
    if counters is None or "grab" not in counters.defence_moves:
        return None
    plan = counters.computer_plan(b.bf, me, _enemies(b, me))
    standing = b.world.try_get(unit, StandingDefence)
    if standing is None or standing.moves != plan:
        return cmd.DefencePlan(unit, plan)
    action_free = b.turn(unit).action is None
    held = b.world.try_get(unit, Grabbed)
    if held is not None:
        other = b.bf.by_id.get(held.other)
        keep = other is not None and counters.keeps_grab(b.bf, me, other)
        if held.holding:
            return cmd.EndTurn(unit) if keep else cmd.BreakGrab(unit)
        return cmd.BreakGrab(unit) if action_free and not keep else cmd.EndTurn(unit)
    if me.stance is Stance.PRONE and _offered(b, "stand"):
        return cmd.ChangeStance(unit, "standing") if action_free else cmd.EndTurn(unit)
    return None


# ---------------------------------------------------------------- Myst's riders (002:l.118-185)


def _gait_first(b: Battle, unit: str, me: EntitySheet) -> cmd.Command | None:
    """A rider's change of gait, free, before anything else in its turn: the step the ruleset
    says pays against the enemies its side sees (`computer_gait`), when the battle takes it."""
    riders = horse_riders(b.ruleset)
    if riders is None:
        return None
    gait = riders.computer_gait(b.bf, me, _enemies(b, me))
    if gait is None or mounted.gait_check(b, cmd.Gait(unit, gait)) is not None:
        return None
    return cmd.Gait(unit, gait)


def _horse_first(b: Battle, unit: str, target: str) -> cmd.Command | None:
    """Before a melee blow: whom it strikes, the rider or its horse (002:l.150), as the ruleset
    says pays (`computer_at_horse`); nothing when the standing choice already is that (the
    ruleset hands the same sheet back) or it changed it once this turn already (the best target
    may differ with the choice: no going back and forth)."""
    riders = horse_riders(b.ruleset)
    own = b.world.try_get(unit, RulesetSheet)
    if riders is None or own is None or target not in b.bf.by_id:
        return None
    on = riders.computer_at_horse(b.bf, b.sheet(unit), b.bf.by_id[target])
    if riders.strike_horse(own.sheet, on) is own.sheet:
        return None
    for event in reversed(b.log):
        if event.kind == "turn_started":
            break
        if event.kind == "strike_horse" and event.data.get("unit") == unit:
            return None
    return cmd.StrikeHorse(unit, on)


def choose(b: Battle, unit: str) -> cmd.Command:
    """The computer's next command for `unit` (the acting unit, or one offered a reaction)."""
    if b.pending is not None and b.pending.reactor == unit:
        return cmd.React(unit, take=not _spares_itself(b, b.sheet(unit), "opportunity_attack"))
    choice = b.damage_choice(unit)
    if choice is not None:  # a hit's margin waits (M-1): the most damage
        return cmd.SpendMargin(unit, **dict(choice.plans[0].uses))
    me = b.sheet(unit)
    countered = _counters_first(b, unit, me)
    if countered is not None:
        return countered
    ridden = _gait_first(b, unit, me)
    if ridden is not None:
        return ridden
    turn = b.turn(unit)
    enemies = _enemies(b, me)
    # D-2: a disabled d20 creature's one action, a move or a standard one.
    one_action = b.condition_effects(unit).one_action is not None
    action_free = turn.action is None and not (
        one_action and turn.movement_spent and not turn.stepped
    )
    # A jump still in flight without thrusters goes where it goes until it lands (P-ZERO-1).
    steers = me.thrusters or not (me.in_flight or any(me.velocity))
    if action_free and b.world.get(unit, Sheet).medkits > 0 and _offered(b, "use_object"):
        treat = _treat_dying_ally(b, me, turn.movement_spent == 0 and steers)
        if treat is not None:
            return treat
    # Sparing itself an attack that would cost it (`_spares_itself`), it fights as one
    # without a weapon: into cover.
    armed = armed_weapon(b, unit) is not None and not _spares_itself(b, me, "attack")
    toggle = _round_toggle(b, unit)
    if toggle is not None:
        return toggle
    if action_free and armed:
        shot = _best_shot(b.ruleset, b.bf, me, enemies)
        # d20's coup de grâce (004:l.114-116) when it is worth more than the best attack
        blow = _coup_de_grace(b, me)
        if blow is not None and (shot is None or blow[0] >= shot[0]):
            return cmd.CoupDeGrace(unit, blow[1])
        if shot is not None and shot[0] >= b.ruleset.worth_attacking:
            aimed = _aim_first(b, unit, shot[1]) or _horse_first(b, unit, shot[1])
            return aimed or cmd.Attack(unit, shot[1])
    # A weapon that cannot fire until reloaded: a CAD (003:l.140), an empty magazine (000:l.99).
    cannot_fire = check(b, unit, "attack") is not None
    if action_free and _offered(b, "reload") and cannot_fire and check(b, unit, "reload") is None:
        return cmd.Reload(unit)
    can_move = turn.movement_spent == 0 and not me.health.mortal and steers
    can_move = can_move and not (one_action and turn.action is not None)
    can_move = can_move and turn.action != "coup_de_grace"  # a full-round action (004:l.114)
    # The action spent (or no weapon): out of an enemy's reach by a 5-foot step, where the
    # ruleset's turn has one, rather than a move that would provoke (D-2).
    stepping = can_move and not turn.dashed and not turn.stepped
    if stepping and (not action_free or not armed) and _offered(b, "five_foot_step"):
        step = _step_out_of_reach(b, me, enemies)
        if step is not None:
            return cmd.FiveFootStep(unit, step)
    if can_move and turn.dashed:  # it ran to get on: along the way to the fight
        cell = _seek(b, me, enemies, dash=True)
        if cell is not None:
            return cmd.Move(unit, cell, mode=_mode(b, me))
    elif can_move and action_free and armed:
        cell = _choose_cell(b, me, enemies, want_shot=True)
        if cell is not None:
            return cmd.Move(unit, cell, mode=_mode(b, me))
    if action_free and armed:
        shot = _best_shot(b.ruleset, b.bf, me, enemies)
        poor = shot is None or shot[0] < b.ruleset.worth_attacking
        pin = _suppression(b.ruleset, b.bf, me, enemies) if poor else None
        if pin is not None:  # no shot worth it: freeze the likeliest one (000:l.319)
            return cmd.Attack(unit, pin, suppress=True)
        if shot is not None:
            return _horse_first(b, unit, shot[1]) or cmd.Attack(unit, shot[1])
    if can_move and action_free and armed:
        # No shot: close in, running when it knows where to (an enemy, unseen ground); what a
        # run cannot get nearer, a walk cannot either. Patrolling, it walks and looks.
        if _offered(b, "dash") and _seek(b, me, enemies, dash=True, patrol=False) is not None:
            return cmd.Dash(unit)
        cell = _seek(b, me, enemies, dash=False)
        if cell is not None:
            return cmd.Move(unit, cell, mode=_mode(b, me))
    elif can_move and not turn.dashed:
        # The action spent, or no weapon (no fight to seek): into better cover from the enemies.
        cell = _choose_cell(b, me, enemies, want_shot=False)
        if cell is not None:
            return cmd.Move(unit, cell, mode=_mode(b, me))
    if action_free and enemies and defence_counters(b.ruleset) is not None:
        # Myst's closed defence (002:l.81, 137) pays here: the turn ends with no attack made,
        # so the action it gives up costs nothing, and its defences until its next turn are
        # raised (docs/rules.md, "Myst in battle").
        return cmd.CloseDefence(unit)
    if action_free and enemies and _offered(b, "dodge"):
        return cmd.Dodge(unit)
    if action_free and not armed and _offered(b, "hide"):
        others = {f for f in b.setup.factions if f != me.faction}
        if not others <= b.world.get(unit, Visibility).hidden_from:
            return cmd.Hide(unit)
    if action_free and armed and not _targets(b, me, enemies) and _offered(b, "search"):
        return cmd.Search(unit)  # no enemy known: one may be hiding in sight
    return cmd.EndTurn(unit)
