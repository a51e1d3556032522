"""The numbers a player sees before committing: reach, paths and their dangers, attack chances.

The window asks these questions while the mouse moves; the answers come from the same code the
commands run (tactics, the battle's own path planning), from what the player's sides know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise

from game.battle.engine import GM, Battle, LeapCheck, Refusal
from game.ecs.components import Motion, Status
from game.grid.los import LosResult
from game.grid.model import Cell
from game.grid.movement import reachable
from game.rules.movement import MoveAllowance
from game.rules.ruleset_answers import NOT_OFFERED, Attack, Throw
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import coup_de_grace_rules


@dataclass(frozen=True)
class ReachPreview:
    """Cells the unit may end its move in now, with the turn's running total of points, and
    those only a Dash would reach (P-MOV-5)."""

    cells: Mapping[Cell, int]
    dash_cells: Mapping[Cell, int]
    allowance: MoveAllowance
    #: Cells reached only by a jump higher or a drop deeper than n_max, each with the
    #: `gravità muscolare (atletica)` check a Move there rolls (P-JUMP-1/3), and their totals.
    check_cells: Mapping[Cell, int] = field(default_factory=dict)


@dataclass(frozen=True)
class PathWarning:
    """On this path, at `cell`, `enemy` may react: "opportunity" (P-OA-1) or "readied" (P-OA-2)."""

    cell: Cell
    kind: str
    enemy: str


@dataclass(frozen=True)
class PathPreview:
    cells: tuple[Cell, ...] = ()
    #: Points this move costs (the turn's running total is `total`).
    cost: int | None = None
    total: int | None = None
    warnings: tuple[PathWarning, ...] = ()
    #: Enemies the player knows of that would see the unit at the destination.
    seen_by: tuple[str, ...] = ()
    refusal: Refusal | None = None
    #: The checks the move rolls on the way: a jump above or a drop below n_max (P-JUMP-1/3);
    #: each `land` indexes `cells`.
    checks: tuple[LeapCheck, ...] = ()
    #: A thrusters move with the dampers off: the velocity the unit keeps into its next turn,
    #: its last straight run (P-ZERO-2); None otherwise.
    velocity: Cell | None = None


@dataclass(frozen=True)
class AttackPreview:
    target: str
    los: LosResult
    #: The ruleset's own answer (periferie: tactics.HitAnswer), which the window's tooltip
    #: reads today; `attack` is what every ruleset answers.
    answer: tactics.HitAnswer
    attack: Attack


def _factions(battle: Battle, player: str) -> frozenset[str] | None:
    return None if player == GM else battle.factions_of(player)


def _knows(battle: Battle, player: str, unit: str) -> bool:
    return _known_to(battle, _factions(battle, player), unit)


def _known_to(battle: Battle, factions: frozenset[str] | None, unit: str) -> bool:
    """Whether a unit is on the map and seen by one of `factions` (None: the GM's, all)."""
    if unit not in battle.world or not battle.on_map(unit):
        return False
    if factions is None:
        return True
    return any(unit in battle.vision.factions[f].units for f in factions)


def reach(
    battle: Battle,
    player: str,
    unit: str,
    mode: str | None = None,
    *,
    stealth: bool = False,
    dampers: bool = True,
) -> ReachPreview | None:
    """Where `unit` can go this turn, as its player knows the field (None: not theirs to ask).
    A carried velocity is cancelled first unless a thrusters move keeps the dampers off
    (P-ZERO-2); a jump in flight without thrusters goes nowhere until it lands (P-ZERO-1)."""
    if not _knows(battle, player, unit):
        return None
    sheet = battle.sheet(unit)
    known = battle.known_field(sheet.faction)
    state = battle.turn(unit)
    helped = battle.world.get(unit, Status).helped_by is not None
    keep = not dampers and mode == "thrusters"
    mover = replace(sheet, velocity=(0, 0, 0)) if keep else sheet
    adrift = (sheet.in_flight or any(sheet.velocity)) and not sheet.thrusters
    # D-2: a disabled d20 creature's one action: no move after its standard one, no dash.
    one_action = battle.condition_effects(unit).one_action is not None
    spent = one_action and state.action is not None

    def search(dash: bool, checked: bool = False) -> tuple[dict[Cell, int], MoveAllowance]:
        request, allow = battle.ruleset.move_request(
            known, mover, mode, dash=dash, stealth=stealth or _stealthy(battle, unit), helped=helped
        )
        if adrift or state.stepped or spent or (not dampers and mode != "thrusters"):
            return {}, allow  # (after a d20 5-foot step no other movement, D-2)
        request = replace(request, spent=state.movement_spent, checked=checked)
        return reachable(battle.grid, known.occupancy, sheet.occupant, request), allow

    cells, allow = search(state.dashed)
    dash_cells: dict[Cell, int] = {}
    if state.action is None and not one_action:
        dashed, _ = search(True)
        dash_cells = {c: cost for c, cost in dashed.items() if c not in cells}
    check_cells: dict[Cell, int] = {}
    ground = mode in (None, "walk", "swim", "climb", "jump")
    if ground and not battle.grid.microgravity:  # P-JUMP-1/3: past n_max, with the check
        checked, _ = search(state.dashed, True)
        check_cells = {c: cost for c, cost in checked.items() if c not in cells}
    return ReachPreview(cells, dash_cells, allow, check_cells)


def _stealthy(battle: Battle, unit: str) -> bool:
    return battle.world.get(unit, Motion).stealthy


def path(
    battle: Battle,
    player: str,
    unit: str,
    to: Cell,
    via: tuple[Cell, ...] = (),
    mode: str | None = None,
    *,
    stealth: bool = False,
    dampers: bool = True,
) -> PathPreview | None:
    """The path a Move would take, what it costs, and where known enemies may react; for a
    microgravity jump beyond this turn's reach, the cells flown this turn (P-ZERO-1)."""
    if not _knows(battle, player, unit):
        return None
    try:
        plan = battle.plan_path(unit, to, via, mode, stealth or _stealthy(battle, unit), dampers)
    except Refusal as refusal:
        return PathPreview(refusal=refusal)
    cells, totals = plan.cells, plan.totals
    me = battle.sheet(unit)
    known = battle.known_field(me.faction)
    enemies = [e for e in known.entities if e.faction != me.faction and not e.neutral]
    warnings: list[PathWarning] = []
    turn = battle.turn(unit)
    covered = battle.disengage_covers(unit)  # P-OA-3: the first step out of any area
    for k in range(1, len(cells)):
        exits = battle.provoked_by(known, me, cells[k - 1], cells[k])
        if exits and covered:
            covered = False
            continue
        for enemy_id in exits:
            if battle.can_react(enemy_id, melee=True):
                warnings.append(PathWarning(cells[k - 1], "opportunity", enemy_id))
    for enemy in enemies:
        if not battle.world.get(enemy.id, Status).readied:
            continue
        if not battle.can_react(enemy.id, melee=False):
            continue
        for cell in cells[1:]:
            if battle.ruleset.sight(known, enemy, cell).clear:
                warnings.append(PathWarning(cell, "readied", enemy.id))
                break
    # Who would see the unit where it stops: sight to it standing there, not where it stands now.
    arrived = replace(me, cell=cells[-1])
    there = Battlefield(
        battle.grid,
        tuple(arrived if e.id == unit else e for e in known.entities),
        battle.rules,
        battle.setup.ruleset,
        known.conditions,
    )
    seen_by = tuple(e.id for e in enemies if battle.ruleset.sight(there, e, arrived).clear)
    cost = totals[-1] - turn.movement_spent
    velocity = None
    if not dampers and mode == "thrusters":
        velocity = carried_run(battle.world.get(unit, Motion).run, cells)
    checks = tuple(plan.checks[k] for k in sorted(plan.checks))
    return PathPreview(
        tuple(cells), cost, totals[-1], tuple(warnings), seen_by, None, checks, velocity
    )


def carried_run(run: Cell, cells: Sequence[Cell]) -> Cell:
    """The turn's last straight run after moving along `cells`, from the run so far: what the
    dampers off keep as the velocity (P-ZERO-2), as the battle counts it step by step."""
    for a, b in pairwise(cells):
        step = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
        length = max(abs(v) for v in run)
        same = length > 0 and all(r == d * length for r, d in zip(run, step, strict=True))
        run = (run[0] + step[0], run[1] + step[1], run[2] + step[2]) if same else step
    return run


def attack(battle: Battle, player: str, unit: str, target: str) -> AttackPreview | None:
    """Line of sight, cover and hit chance of `unit` at `target`. The chance's breakdown in
    words is left to the caller (explain.hit_lines(answer.hit)): it is asked for on every
    hover, and read only when the player holds Alt."""
    factions = _factions(battle, player)
    if not _known_to(battle, factions, unit) or not _known_to(battle, factions, target):
        return None
    me = battle.sheet(unit)
    known = battle.bf if player == GM else battle.known_field(me.faction)
    other = known.by_id.get(target)
    if other is None:
        return None
    los = battle.ruleset.sight(known, me, other)
    attack = battle.ruleset.attack(known, me, other, los=los, worded=False)
    return AttackPreview(target, los, attack.detail, attack)


def coup_de_grace(battle: Battle, player: str, unit: str, target: str) -> Attack | None:
    """A coup de grâce of `unit` at `target` as the player's side knows the field (d20,
    004:l.114): the ruleset's answer, worded, or None where the ruleset has none or the
    player knows neither unit."""
    rules = coup_de_grace_rules(battle.ruleset)
    if rules is None or not _knows(battle, player, unit) or not _knows(battle, player, target):
        return None
    me = battle.sheet(unit)
    known = battle.bf if player == GM else battle.known_field(me.faction)
    if target not in known.by_id:
        return None
    return rules.coup_de_grace(known, me, known.entity(target))


def throw(
    battle: Battle, player: str, unit: str, target: str | Cell, size: str | None = None
) -> Throw | None:
    """A throw's band and chance at a unit the player knows of, or at a cell, as the battle's
    ruleset answers it (periferie, P-THR-1: the object of `size`, or the thrown weapon in
    hand, else a light object)."""
    if not _knows(battle, player, unit):
        return None
    me = battle.sheet(unit)
    known = battle.bf if player == GM else battle.known_field(me.faction)
    if isinstance(target, str):
        if not _knows(battle, player, target) or target not in known.by_id:
            return None
        aim: Cell | EntitySheet = known.entity(target)
    else:
        if not battle.grid.in_bounds(target):
            return None
        aim = target
    from game.ecs.components import Armed

    weapon_id = battle.world.get(unit, Armed).weapon
    held = None if weapon_id is None else battle.rules.weapons[weapon_id]
    weapon = held if held is not None and held.kind == "thrown" and size is None else None
    return battle.ruleset.throw(known, me, aim, throw_size(battle, unit, size), weapon)


def throw_size(battle: Battle, unit: str, size: str | None = None) -> str:
    """The size a throw by `unit` is of: as asked, or its thrown weapon's, or light."""
    from game.battle.handlers import throw_size
    from game.ecs.components import Armed

    weapon_id = battle.world.get(unit, Armed).weapon
    weapon = None if weapon_id is None else battle.rules.weapons[weapon_id]
    held = weapon if weapon is not None and weapon.kind == "thrown" else None
    return throw_size(held, size)


@dataclass(frozen=True)
class AreaAim:
    """An area attack aimed at a cell as the battle's ruleset has it: the cells a hit would
    cover, or why the ruleset offers no area attack at a cell at all (`refusal`)."""

    #: None: the weapon is a one-target one under the ruleset (no area to aim at a cell).
    cells: tuple[Cell, ...] | None = None
    #: `area_not_offered` with the ruleset's id (`ruleset`): its answer is NOT_OFFERED (Myst,
    #: fantasy, d20 have no area attack at a cell), worded "not offered under <ruleset>".
    refusal: Refusal | None = None


def area(battle: Battle, player: str, unit: str, at: Cell) -> AreaAim | None:
    """The cells the weapon `unit` fights with would cover from `at` under the battle's
    ruleset (`area_cells`: periferie's map weapon pattern, P-AREA-1; Cepheus's sheet weapon's
    blast), None for a one-target weapon; under a ruleset whose `area_attack` is not offered,
    no cells and the refusal. None when the player does not know the unit or `at` is off the
    map."""
    from game.battle.handlers import armed_weapon

    if not _knows(battle, player, unit) or not battle.grid.in_bounds(at):
        return None
    weapon = armed_weapon(battle, unit)
    if weapon is None:
        return AreaAim()
    me = battle.sheet(unit)
    known = battle.bf if player == GM else battle.known_field(me.faction)
    # The battle's own answer decides whether there is such an attack (the handler's refusal).
    answer = battle.ruleset.area_attack(known, me, weapon, at)
    if answer.reason == NOT_OFFERED:
        return AreaAim(None, Refusal("area_not_offered", ruleset=known.ruleset))
    return AreaAim(battle.ruleset.area_cells(known, me, weapon, at))
