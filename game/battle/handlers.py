"""The command handlers: each checks its command against the battle, then carries it out.

They are the engine's own (game/battle/engine.py calls them from `Battle.apply`) and use its
internals. A handler raises Refusal before it changes anything or rolls a die.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from game.battle import commands as cmd
from game.battle.outcome import Refusal
from game.ecs.components import (
    Armed,
    Controller,
    Faction,
    Motion,
    Posture,
    Sheet,
    Status,
    Visibility,
    Waiting,
    Wounds,
)
from game.grid.geometry import chebyshev
from game.grid.model import Cell, Grid, Obstacle, Terrain
from game.rules import checknames
from game.rules.checks import passive_perception
from game.rules.data import RulesData, RulesInputError, Weapon
from game.rules.dice import RollRecord
from game.rules.heal import check_dc, use_medkit
from game.rules.initiative import InitiativeError
from game.rules.stance import Stance
from game.rules.throw import (
    THROW_SIZES,
    ThrowBand,
    landing_cell,
    miss_deviation,
)
from game.rules.wounds import (
    CONDITIONS,
    attack_barred_by,
    start_of_turn,
)
from game.tactics import answers as tactics

if TYPE_CHECKING:
    from game.battle.engine import Battle

#: The only Ready trigger the seed spells out (P-OA-2).
READY_TRIGGERS = ("enemy_enters_sight",)
IMPROVISE_VERDICTS = ("accept", "reject", "check")


def _improvised_weapon(rules: RulesData) -> Weapon:
    """An opportunity attack with a weapon that is not for melee: the seed's improvised melee,
    a light object's medium-range throw (P-THR-1: P_weapon 60, 1d8 impatto)."""
    light = THROW_SIZES["light"]
    return Weapon(
        id="improvised",
        name="Improvised blow",
        kind="melee",
        hit=60,
        damage=light.damage,
        damage_type="impatto",
        medium_range=None,
        long_range=None,
        area=(),
        area_ignores_sight=False,
        sample=False,
    )


def _move(b: Battle, c: cmd.Move) -> None:
    b._move(c)


def _react(b: Battle, c: cmd.React) -> None:
    pending = b.pending
    assert pending is not None
    b.pending = None
    mover = pending.mover
    before = b._health(mover)
    if c.take:
        weapon_id = b.world.get(c.unit, Armed).weapon
        weapon = None if weapon_id is None else b.rules.weapons[weapon_id]
        if pending.kind == "opportunity" and (weapon is None or weapon.kind != "melee"):
            weapon = _improvised_weapon(b.rules)
        assert weapon is not None
        target = b.sheet(mover)
        try:
            b._turn(c.unit).use_reaction()
            b._resolve_attack(c.unit, target, weapon, "reaction_attack")
            if pending.kind == "readied":
                b._set(c.unit, replace(b.world.get(c.unit, Status), readied=None))
        except Refusal:
            # the target slipped out of reach or sight: the reaction is not spent
            b._turn(c.unit).reaction_used = False
            b._emit("reaction_lost", {"unit": c.unit, "mover": mover}, about=[c.unit, mover])
    else:
        b._emit("reaction_declined", {"unit": c.unit, "mover": mover}, about=[c.unit])
    after = b._health(mover) if b.on_map(mover) else None
    if after is None:
        return
    ends = (
        after.grave > before.grave
        or after.mortal > before.mortal
        or bool({"out_of_combat", "dead"} & after.conditions)
    )
    if pending.kind == "readied":
        ends = ends or bool({"stunned", "shock"} & (after.conditions - before.conditions))
    flying = b.world.get(mover, Motion).flight is not None
    if ends:
        rule = "P-OA-1" if pending.kind == "opportunity" else "P-OA-2"
        b._emit("turn_cut_short", {"unit": mover}, about=[mover], rules=(rule,))
        if flying:  # P-ZERO-1: hit after the leap, the flight goes on all the same
            b._fly_on(mover, pending.offered, react=False)
        b._end_turn(mover)
        return
    if flying:
        b._fly_on(mover, pending.offered)
        return
    rest = cmd.Move(mover, pending.to, pending.via, pending.mode)
    if b.sheet(mover).cell == pending.to:
        return
    try:
        b._move(rest, pending.offered)
    except Refusal as refusal:
        b._emit("move_stopped", {"unit": mover, "why": refusal.code}, about=[mover])


def _step_aside(b: Battle, c: cmd.StepAside) -> None:
    """P-MOV-8: out of a shared cell, on a successful save, to a free cell of the 8 around."""
    from game.ecs.components import Crowded

    crowded = b.world.try_get(c.unit, Crowded)
    if crowded is None or not b.on_map(c.unit):
        raise Refusal("not_sharing_a_cell", unit=c.unit)
    cells = b.step_aside_cells(c.unit)
    if not cells:
        raise Refusal("cannot_step_aside", unit=c.unit)
    if c.to not in cells:
        raise Refusal("not_free_around", at=c.to)
    b._step_aside(c.unit, c.to)


def _dash(b: Battle, c: cmd.Dash) -> None:
    b._use_action(c.unit, "dash")
    b._emit("dashed", {"unit": c.unit}, about=[c.unit], rules=("P-MOV-5",))


def _weapon_of(b: Battle, unit: str) -> Weapon:
    weapon_id = b.world.get(unit, Armed).weapon
    if weapon_id is None:
        raise Refusal("no_weapon", unit=unit)
    return b.rules.weapons[weapon_id]


def _attack(b: Battle, c: cmd.Attack) -> None:
    weapon = _weapon_of(b, c.unit)
    if weapon.kind == "thrown":
        _throw(b, cmd.Throw(c.unit, c.target, c.at))
        return
    b._need_action(c.unit)
    if c.target is not None:
        target = b._visible_target(c.unit, c.target)
        answer = tactics.attack_chance(b.bf, b.sheet(c.unit), target, weapon)
        if answer.hit is None:
            raise Refusal(str(answer.reason), target=target.id, why=answer.why)
        b._use_action(c.unit, "attack")
        b._resolve_attack(c.unit, target, weapon, "attack")
        return
    if c.at is None:
        raise Refusal("no_target")
    _area_at_cell(b, c.unit, weapon, c.at)


def _area_at_cell(b: Battle, unit: str, weapon: Weapon, at: Cell) -> None:
    """An area weapon aimed at a cell: line of sight to it, then the weapon's own P against a
    cell (no defence, armour or cover: nobody is aimed at), P-AREA-1."""
    from game.rules.hit import attack_bonus, hit_chance

    if not weapon.area:
        raise Refusal("needs_target", weapon=weapon.id)
    if not b.grid.in_bounds(at):
        raise Refusal("outside_map", at=at)
    me = b.sheet(unit)
    barred = attack_barred_by(me.health)
    if barred:
        raise Refusal(barred, unit=unit)
    los = tactics.sight(b.bf, me, at)
    if not los.clear:
        raise Refusal("no_los", at=at, why=tactics.sight_why(los))
    distance = chebyshev(me.cell, at)
    if weapon.long_range is not None and distance > weapon.long_range:
        raise Refusal("out_of_range", at=at)
    b._use_action(unit, "attack")
    b_att, check = attack_bonus(weapon.kind, me.checks)
    chance = hit_chance(
        weapon.hit, b_att, 0, 0, "none", weapon.damage_type, distance, b_att_check=check
    )
    record = b.roller.d100(f"attack {unit}", b._advantage(unit, None), chance.p)
    b._spend_help(unit)
    hit = record.outcome == "hit"
    b._emit(
        "attack",
        {"unit": unit, "at": list(at), "weapon": weapon.id, "hit_chance": chance.p, "hit": hit},
        about=[unit],
        rolls=(record,),
        rules=("P-AREA-1", *chance.rules),
    )
    if hit:
        b._damage_area(unit, weapon, at, None)


def _throw_size(weapon: Weapon | None, size: str | None) -> str:
    if size is not None:
        if size not in THROW_SIZES:
            raise Refusal("unknown_size", size=size, known=tuple(THROW_SIZES))
        return size
    if weapon is not None and weapon.kind == "thrown":
        for name, ranges in THROW_SIZES.items():
            if (ranges.medium_range, ranges.long_range) == (weapon.medium_range, weapon.long_range):
                return name
    return "light"


def _throw(b: Battle, c: cmd.Throw) -> None:
    """P-THR-1/2: at an entity (always a roll) or a cell (automatic within medium range); a miss
    deviates; a thrown weapon with an area goes off where it lands (P-AREA-1)."""
    weapon_id = b.world.get(c.unit, Armed).weapon
    held = None if weapon_id is None else b.rules.weapons[weapon_id]
    weapon = held if held is not None and held.kind == "thrown" and c.size is None else None
    size = _throw_size(weapon, c.size)
    me = b.sheet(c.unit)
    b._need_action(c.unit)
    target = b._visible_target(c.unit, c.target) if c.target is not None else None
    if target is None and c.at is None:
        raise Refusal("no_target")
    aim = target.cell if target is not None else c.at
    assert aim is not None
    if not b.grid.in_bounds(aim):
        raise Refusal("outside_map", at=aim)
    answer = tactics.throw_at(b.bf, me, size, target if target is not None else aim)
    if answer.reason is not None or answer.band == "out_of_range":
        raise Refusal(str(answer.reason or "out_of_range"), why=answer.why)
    b._use_action(c.unit, "throw")
    rolls: list[RollRecord] = []
    landed = aim
    hit_target = False
    if answer.automatic:
        hit = True
    else:
        assert answer.hit_chance is not None
        record = b.roller.d100(
            f"throw {c.unit}",
            b._advantage(c.unit, None if target is None else target.id),
            answer.hit_chance,
        )
        b._spend_help(c.unit)
        rolls.append(record)
        hit = record.outcome == "hit"
        if hit:
            hit_target = target is not None
        else:
            from game.rules.hit import attack_bonus

            b_att, _check = attack_bonus("thrown", me.checks)
            band: ThrowBand = "long" if answer.band == "long" else "medium"
            cells_off = miss_deviation(band, record.kept[0], b_att)
            if cells_off:
                sides = 6 if b.grid.microgravity else 4
                direction = b.roller.die(sides, f"throw deviation {c.unit}")
                rolls.append(b.roller.log[-1])
                landed = landing_cell(me.cell, aim, cells_off, direction, b.grid.microgravity)
                landed = _clamp(landed, b.grid.shape)
    if answer.automatic and target is None:
        hit_target = False
    b._emit(
        "throw",
        {
            "unit": c.unit,
            "size": size,
            "weapon": None if weapon is None else weapon.id,
            "target": None if target is None else target.id,
            "aim": list(aim),
            "landed": list(landed),
            "hit": hit,
            "hit_chance": answer.hit_chance,
            "why": list(answer.why),
        },
        about=[c.unit] + ([target.id] if target is not None else []),
        rolls=tuple(rolls),
        rules=answer.rules + (("P-THR-2",) if landed != aim else ()),
    )
    if weapon is not None and weapon.area:
        b._damage_area(c.unit, weapon, landed, None)
    elif hit_target and target is not None:
        damage = weapon.damage if weapon is not None else THROW_SIZES[size].damage
        dtype = weapon.damage_type if weapon is not None else "impatto"
        record = b.roller.roll(damage, f"damage throw {c.unit}")
        on_hit = weapon.on_hit if weapon is not None else ()
        b._hurt(target.id, dtype, record.total, c.unit, record, on_hit)


def _clamp(cell: Cell, shape: tuple[int, int, int]) -> Cell:
    return (
        min(max(cell[0], 0), shape[0] - 1),
        min(max(cell[1], 0), shape[1] - 1),
        min(max(cell[2], 0), shape[2] - 1),
    )


def _stance(b: Battle, c: cmd.ChangeStance) -> None:
    try:
        new = Stance.from_name(c.stance)
    except ValueError:
        raise Refusal(
            "unknown_stance", stance=c.stance, known=tuple(s.value for s in Stance)
        ) from None
    current = b.world.get(c.unit, Posture).stance
    turn = b._turn(c.unit)
    if new is current:
        raise Refusal("same_stance", stance=new.value)
    if turn.interaction_used:
        raise Refusal("interaction_used")
    turn.change_stance(current, new)
    b._set(c.unit, Posture(new))
    b._emit("stance", {"unit": c.unit, "stance": new.value}, about=[c.unit], rules=("P-TURN-2",))


def _simple_action(
    kind: str, status_change: Callable[[Status], Status] | None = None
) -> Callable[[Battle, Any], None]:
    def handler(b: Battle, c: Any) -> None:
        b._use_action(c.unit, kind)
        if status_change is not None:
            b._set(c.unit, status_change(b.world.get(c.unit, Status)))
        b._emit(kind, {"unit": c.unit}, about=[c.unit], rules=("P-TURN-1",))

    return handler


def _help(b: Battle, c: cmd.Help) -> None:
    if c.ally == c.unit or c.ally not in b.world or not b.on_map(c.ally):
        raise Refusal("not_an_ally", ally=c.ally)
    if b.faction_of(c.ally) != b.faction_of(c.unit):
        raise Refusal("not_an_ally", ally=c.ally)
    if chebyshev(b.sheet(c.unit).cell, b.sheet(c.ally).cell) > 1:
        raise Refusal("not_adjacent", ally=c.ally)
    b._use_action(c.unit, "help")
    b._set(c.ally, replace(b.world.get(c.ally, Status), helped_by=c.unit))
    b._emit("help", {"unit": c.unit, "ally": c.ally}, about=[c.unit, c.ally], rules=("P-CHK-2",))


def _ready(b: Battle, c: cmd.Ready) -> None:
    if c.trigger not in READY_TRIGGERS:
        raise Refusal("unknown_trigger", trigger=c.trigger, known=READY_TRIGGERS)
    weapon = _weapon_of(b, c.unit)
    if weapon.kind == "melee":
        raise Refusal("needs_ranged_weapon", weapon=weapon.id)
    b._use_action(c.unit, "ready")
    b._set(c.unit, replace(b.world.get(c.unit, Status), readied=c.trigger))
    b._emit("ready", {"unit": c.unit, "trigger": c.trigger}, about=[c.unit], rules=("P-OA-2",))


def _hide(b: Battle, c: cmd.Hide) -> None:
    """Out of an enemy side's sight (or in cover from it, P-STL-2), a stealth check that meets
    every one of its units' passive perception hides the unit from that side."""
    b._use_action(c.unit, "hide")
    me = b.sheet(c.unit)
    bonus = checknames.bonus(me.checks, checknames.STEALTH)
    # P-CHK-4: the target logged is the highest passive perception among the enemies: the
    # total that hides the unit from every side that does not see it.
    perceptions = [
        passive_perception(e.checks)
        for e in b.bf.entities
        if e.faction != me.faction and not e.neutral
    ]
    dc = max(perceptions) if perceptions else None
    record = b.roller.d20(f"hide {c.unit}", bonus, b._advantage(c.unit, None), dc)
    b._spend_help(c.unit)
    gained = set()
    for faction in b.setup.factions:
        if faction == me.faction:
            continue
        enemies = [e for e in b.bf.entities if e.faction == faction and not e.neutral]
        if not enemies:
            continue
        seen = any(b._in_open_sight(e, c.unit) for e in enemies)
        if not seen and all(record.total >= passive_perception(e.checks) for e in enemies):
            gained.add(faction)
    vis = b.world.get(c.unit, Visibility)
    b._set(c.unit, replace(vis, hidden_from=vis.hidden_from | gained, stealth=record.total))
    b._emit(
        "hide",
        {"unit": c.unit, "success": bool(gained)},
        about=[c.unit],
        rolls=(record,),
        rules=("P-STL-1", "P-STL-2", "P-CHK-3"),
    )


def _search(b: Battle, c: cmd.Search) -> None:
    """A perception check; every unit hidden from the searcher's side that it could see and whose
    stealth the total meets is found."""
    b._use_action(c.unit, "search")
    me = b.sheet(c.unit)
    bonus = checknames.bonus(me.checks, checknames.PERCEPTION)
    record = b.roller.d20(f"search {c.unit}", bonus, b._advantage(c.unit, None))
    b._spend_help(c.unit)
    found = []
    for other in b.bf.entities:
        vis = b.world.get(other.id, Visibility)
        hidden = me.faction in vis.hidden_from
        if hidden and record.total >= vis.stealth and tactics.sight(b.bf, me, other).clear:
            found.append(other.id)
    b._emit("search", {"unit": c.unit, "found": len(found)}, about=[c.unit], rolls=(record,))
    for unit_id in found:
        b._reveal_to(unit_id, {me.faction})


def _use_object(b: Battle, c: cmd.UseObject) -> None:
    if c.object != "medkit":
        raise Refusal("unknown_object", object=c.object, known=("medkit",))
    sheet = b.world.get(c.unit, Sheet)
    if sheet.medkits <= 0:
        raise Refusal("no_medkit")
    if c.target not in b.world or not b.on_map(c.target):
        raise Refusal("unknown_target", target=c.target)
    if b.faction_of(c.target) != b.faction_of(c.unit):
        raise Refusal("not_an_ally", ally=c.target)
    b._need_action(c.unit)
    me, target = b.sheet(c.unit), b.sheet(c.target)
    kwargs = {
        "self_target": c.unit == c.target,
        "adjacent": chebyshev(me.cell, target.cell) <= 1,
    }
    try:
        trial = use_medkit(target.health, c.wound, 0, **kwargs)
    except RulesInputError:
        raise Refusal("unknown_wound", wound=c.wound) from None
    if not trial.kit_spent:
        raise Refusal(trial.reason, target=c.target)
    b._use_action(c.unit, "use_object")
    rolls: tuple[RollRecord, ...] = ()
    total = None
    dc = check_dc(c.wound)
    if dc is not None:
        # P-CHK-4: the roll is logged with its target, the DC of the wound treated.
        record = b.roller.d20(
            f"medicine {c.unit}",
            checknames.bonus(me.checks, checknames.MEDICINE),
            b._advantage(c.unit, None),
            dc,
        )
        b._spend_help(c.unit)
        rolls, total = (record,), record.total
    outcome = use_medkit(target.health, c.wound, total, **kwargs)
    b._set(c.unit, replace(sheet, medkits=sheet.medkits - 1))
    b._set(c.target, Wounds(outcome.after))
    b._emit(
        "medkit",
        {
            "unit": c.unit,
            "target": c.target,
            "wound": c.wound,
            "result": outcome.reason,
            "wounds": outcome.after.to_dict(),
        },
        about=[c.unit, c.target],
        rolls=rolls,
        rules=outcome.rules,
    )


def _improvise(b: Battle, c: cmd.Improvise) -> None:
    b._use_action(c.unit, "improvise")
    b.improvising.append((c.unit, c.text))
    b._emit("improvise", {"unit": c.unit, "text": c.text}, about=[c.unit])


def _end_turn_cmd(b: Battle, c: cmd.EndTurn) -> None:
    b._end_turn(c.unit)


# ---------------------------------------------------------------- the GM's handlers


def _unit(b: Battle, unit: str) -> str:
    if unit not in b.world:
        raise Refusal("unknown_unit", unit=unit)
    return unit


def _factions(b: Battle, unit: str, named: Sequence[str]) -> set[str]:
    unknown = [f for f in named if f not in b.setup.factions]
    if unknown:
        raise Refusal("unknown_faction", factions=tuple(unknown))
    own = b.faction_of(unit)
    return set(named) if named else {f for f in b.setup.factions if f != own}


def _reveal(b: Battle, c: cmd.Reveal) -> None:
    b._reveal_to(_unit(b, c.unit), _factions(b, c.unit, c.factions))


def _conceal(b: Battle, c: cmd.Conceal) -> None:
    vis = b.world.get(_unit(b, c.unit), Visibility)
    factions = _factions(b, c.unit, c.factions) - {b.faction_of(c.unit)}
    b._set(c.unit, replace(vis, hidden_from=vis.hidden_from | factions))
    b._emit("concealed", {"unit": c.unit, "from": sorted(factions)}, gm_only=True)


def _place_reinforcement(b: Battle, c: cmd.PlaceReinforcement) -> None:
    waiting = b.world.try_get(_unit(b, c.unit), Waiting)
    if waiting is None:
        raise Refusal("not_waiting", unit=c.unit)
    cell = c.at or waiting.cell
    if not b.grid.in_bounds(cell) or not b.grid.standable[cell]:
        raise Refusal("cannot_stand", at=cell)
    b._set(c.unit, replace(waiting, round=b.round + 1, cell=cell))
    b._emit(
        "reinforcement_called",
        {"unit": c.unit, "round": b.round + 1},
        gm_only=True,
        rules=("P-INIT-6",),
    )


def _surprise(b: Battle, c: cmd.MarkSurprised) -> None:
    _unit(b, c.unit)
    try:
        b.initiative.surprise(c.unit)
    except InitiativeError as exc:
        raise Refusal("not_in_order", unit=c.unit, why=str(exc)) from None
    b._emit("surprised", {"unit": c.unit}, about=[c.unit], rules=("P-INIT-5",))
    if b.initiative.active == c.unit:
        b._emit(
            "turn_skipped",
            {"unit": c.unit, "because": "surprised"},
            about=[c.unit],
            rules=("P-INIT-5",),
        )
        b._end_turn(c.unit)


def _order_tie(b: Battle, c: cmd.OrderTie) -> None:
    """P-INIT-2. The unit whose turn has just begun may be moved back within its tie while it
    has done nothing and its turn's start brought nothing (no death save, no burn)."""
    active = b.initiative.active
    if active in c.order:
        turn = b._turn(active)
        begun = turn.movement_spent or turn.action or turn.interaction_used or turn.bonus_used
        opening = start_of_turn(b._health(active))
        if begun or opening.death_save_due or opening.burning_damage_due:
            raise Refusal("turn_begun", unit=active)
    try:
        new_active = b.initiative.reorder_tied(list(c.order))
    except InitiativeError as exc:
        raise Refusal("bad_tie_order", why=str(exc)) from None
    b._emit(
        "initiative_reordered", {"order": list(c.order)}, about=list(c.order), rules=("P-INIT-2",)
    )
    if new_active is not None and active is not None:
        b._turn(active).end_turn()
        b._emit("turn_passed", {"unit": active, "to": new_active}, about=[active, new_active])
        if not b._start_turn(new_active):
            b._next_turn()


def _enter_roll(b: Battle, c: cmd.EnterRoll) -> None:
    if not c.faces:
        raise Refusal("no_faces")
    b.roller.supply(*c.faces)
    b._emit("dice_entered", {"faces": list(c.faces)}, gm_only=True, rules=("P-CHK-4",))


def _condition(b: Battle, c: cmd.SetCondition) -> None:
    unknown = [n for n in (*c.add, *c.remove) if n not in CONDITIONS]
    if unknown:
        raise Refusal("unknown_condition", names=tuple(unknown), known=CONDITIONS)
    if not b.on_map(_unit(b, c.unit)):
        raise Refusal("not_on_map", unit=c.unit)
    health = b._health(c.unit)
    try:
        after = replace(health, conditions=(health.conditions - set(c.remove)) | set(c.add))
    except RulesInputError as exc:
        raise Refusal("bad_condition", why=str(exc)) from None
    b._set(c.unit, Wounds(after))
    b._emit(
        "condition",
        {"unit": c.unit, "add": list(c.add), "remove": list(c.remove), "by": "gm"},
        about=[c.unit],
    )
    if after.has("dead"):
        b._fall(c.unit)


def _edit_cell(b: Battle, c: cmd.EditCell) -> None:
    if not b.grid.in_bounds(c.at):
        raise Refusal("outside_map", at=c.at)
    obstacle = b.grid.obstacle.copy()
    terrain = b.grid.terrain.copy()
    floor = b.grid.floor.copy()
    if c.obstacle is not None:
        try:
            code = Obstacle.from_name(c.obstacle)
        except ValueError:
            raise Refusal("unknown_obstacle", obstacle=c.obstacle) from None
        if code and b._in_cell(c.at) is not None:
            raise Refusal("cell_occupied", at=c.at)
        obstacle[c.at] = code
    if c.terrain is not None:
        try:
            terrain[c.at] = int(Terrain.from_names(list(c.terrain)))
        except ValueError:
            raise Refusal("unknown_terrain", terrain=c.terrain) from None
    if c.floor is not None:
        floor[c.at] = c.floor
    b.grid = Grid.build(
        obstacle, terrain, floor, gravity=b.grid.gravity, pressurised=b.grid.pressurised
    )
    b.grid_version += 1
    b._bf = None
    b._emit(
        "cell_edited",
        {"at": list(c.at), "obstacle": c.obstacle, "terrain": c.terrain, "floor": c.floor},
    )


def _restart(b: Battle, c: cmd.RestartInitiative) -> None:
    active = b.initiative.active
    if active is not None:
        b._turn(active).end_turn()
    b.initiative.restart(b.roller)
    b._emit("initiative_restarted", {"round": b.round}, rules=("P-INIT-3",))
    for entry in b.initiative.visible_order(True):
        b._initiative_event(entry.entity_id)
    b._next_turn()


def _end_combat_cmd(b: Battle, c: cmd.EndCombat) -> None:
    if b.over:
        raise Refusal("combat_over")
    b._end_combat(None)


def _rule_improvise(b: Battle, c: cmd.RuleImprovise) -> None:
    waiting = [i for i, (u, _t) in enumerate(b.improvising) if u == c.unit]
    if not waiting:
        raise Refusal("nothing_to_rule", unit=c.unit)
    if c.verdict not in IMPROVISE_VERDICTS:
        raise Refusal("unknown_verdict", verdict=c.verdict, known=IMPROVISE_VERDICTS)
    rolls: tuple[RollRecord, ...] = ()
    success = c.verdict == "accept"
    if c.verdict == "check":
        if c.check not in checknames.ALL or c.dc is None:
            raise Refusal("needs_check_and_dc", known=checknames.ALL)
        record = b.roller.d20(
            f"improvise {c.unit}",
            checknames.bonus(b.world.get(c.unit, Sheet).checks, c.check),
            dc=c.dc,
        )
        rolls, success = (record,), record.outcome == "success"
    unit, text = b.improvising.pop(waiting[0])
    b._emit(
        "improvise_ruled",
        {"unit": unit, "text": text, "verdict": c.verdict, "success": success, "by": "gm"},
        about=[unit],
        rolls=rolls,
        rules=("P-CHK-1",) if rolls else (),
    )


def _controller(b: Battle, c: cmd.SetController) -> None:
    if c.faction not in b.setup.factions:
        raise Refusal("unknown_faction", factions=(c.faction,))
    new = (
        Controller("computer") if c.controller == "computer" else Controller("player", c.controller)
    )
    for unit in b.world.units_with(Faction):
        if b.faction_of(unit) == c.faction:
            b._set(unit, new)
    b._emit("controller", {"faction": c.faction, "controller": c.controller})


HANDLERS: dict[type[cmd.Command], Callable[[Battle, Any], None]] = {
    cmd.Move: _move,
    cmd.React: _react,
    cmd.StepAside: _step_aside,
    cmd.Dash: _dash,
    cmd.Attack: _attack,
    cmd.Throw: _throw,
    cmd.ChangeStance: _stance,
    cmd.Dodge: _simple_action("dodge", lambda s: replace(s, dodging=True)),
    cmd.Disengage: _simple_action("disengage"),
    cmd.Help: _help,
    cmd.Ready: _ready,
    cmd.Hide: _hide,
    cmd.Search: _search,
    cmd.UseObject: _use_object,
    cmd.Improvise: _improvise,
    cmd.EndTurn: _end_turn_cmd,
    cmd.Reveal: _reveal,
    cmd.Conceal: _conceal,
    cmd.PlaceReinforcement: _place_reinforcement,
    cmd.MarkSurprised: _surprise,
    cmd.OrderTie: _order_tie,
    cmd.EnterRoll: _enter_roll,
    cmd.SetCondition: _condition,
    cmd.EditCell: _edit_cell,
    cmd.RestartInitiative: _restart,
    cmd.EndCombat: _end_combat_cmd,
    cmd.RuleImprovise: _rule_improvise,
    cmd.SetController: _controller,
}
