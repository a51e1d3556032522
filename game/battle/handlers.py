"""The command handlers: each checks its command against the battle, then carries it out.

A handler is a pair (`Handler`): a *check* that reads the battle (a `BattleState`) and answers
the refusal the command gets before anything is aimed at or rolled, and a *do* that carries it
out through the battle's public context (game/battle/context.py). The action bar (options.py)
calls the same checks, so the bar and the engine cannot disagree. A *do* raises Refusal (about
its targets) before it changes anything or rolls a die. `Battle.apply` runs both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from game.battle import combat, counters, mounted
from game.battle import commands as cmd
from game.battle.outcome import Refusal, no_chance
from game.ecs.components import (
    Armed,
    Controller,
    Faction,
    Grabbed,
    Motion,
    Posture,
    RulesetSheet,
    Sheet,
    StandingDefence,
    Status,
    Visibility,
    Waiting,
    Wounds,
)
from game.grid.geometry import chebyshev
from game.grid.model import Cell, Grid, Obstacle, Terrain
from game.rules.data import RulesData, RulesInputError, Weapon
from game.rules.dice import RollRecord
from game.rules.initiative import InitiativeError
from game.rules.ruleset_answers import NOT_OFFERED, RulesRefusal
from game.rules.stance import Stance
from game.rules.throw import THROW_DAMAGE_TYPE, THROW_SIZES
from game.rules.wounds import (
    Health,
    start_of_turn,
)
from game.tactics.ruleset import RoundRules, coup_de_grace_rules, defence_counters, round_rules

if TYPE_CHECKING:
    from game.battle.context import BattleContext, BattleState

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


def _move(b: BattleContext, c: cmd.Move) -> None:
    b.move(c)


def _react(b: BattleContext, c: cmd.React) -> None:
    pending = b.take_pending()
    assert pending is not None
    mover = pending.mover
    before = b.health(mover)
    if c.take:
        weapon_id = b.world.get(c.unit, Armed).weapon
        weapon = None if weapon_id is None else b.rules.weapons[weapon_id]
        if pending.kind == "opportunity" and (weapon is None or weapon.kind != "melee"):
            weapon = _improvised_weapon(b.rules)
        assert weapon is not None
        target = b.sheet(mover)
        if pending.attacked_at is not None:  # the ally's cell it was leaving (D-2)
            target = replace(target, cell=pending.attacked_at)
        try:
            b.turn(c.unit).use_reaction()
            b.resolve_attack(c.unit, target, weapon, "reaction_attack")
            _exert(b, c.unit, "opportunity_attack")
            if pending.kind == "readied":
                b.set(c.unit, replace(b.world.get(c.unit, Status), readied=None))
        except Refusal:
            # the target slipped out of reach or sight: the reaction is not spent
            b.turn(c.unit).reaction_used = False
            b.emit("reaction_lost", {"unit": c.unit, "mover": mover}, about=[c.unit, mover])
    else:
        b.emit("reaction_declined", {"unit": c.unit, "mover": mover}, about=[c.unit])
    after = b.health(mover) if b.on_map(mover) else None
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
        b.emit("turn_cut_short", {"unit": mover}, about=[mover], rules=(rule,))
        if flying:  # P-ZERO-1: hit after the leap, the flight goes on all the same
            b.fly_on(mover, pending.offered, react=False)
        b.end_turn(mover)
        return
    if pending.coup_de_grace is not None:
        # 004:l.118: the next enemy the blow provokes, or the blow (not a move to go on with)
        b.coup_de_grace(mover, pending.coup_de_grace, pending.offered)
        return
    if flying:
        b.fly_on(mover, pending.offered)
        return
    rest = cmd.Move(mover, pending.to, pending.via, pending.mode)
    if b.sheet(mover).cell == pending.to:
        return
    try:
        b.move(rest, pending.offered)
    except Refusal as refusal:
        b.emit("move_stopped", {"unit": mover, "why": refusal.code}, about=[mover])


def _spend_margin(b: BattleContext, c: cmd.SpendMargin) -> None:
    combat.spend_margin(b, c.unit, c.uses)


def _defence_plan_check(b: BattleState, c: cmd.DefencePlan) -> Refusal | None:
    counters = defence_counters(b.ruleset)
    if counters is None:
        return Refusal("not_in_ruleset", command=c.KIND)
    seen: set[str] = set()
    for move in c.moves:
        if move not in counters.defence_moves or move in seen:
            return Refusal("unknown_counter_move", move=move)
        seen.add(move)
    return None


def _defence_plan(b: BattleContext, c: cmd.DefencePlan) -> None:
    """The unit's standing counter-moves (M-1), told to its own side only: the enemy learns
    of them when a defence takes them."""
    b.set(c.unit, StandingDefence(c.moves))
    b.emit(
        "defence_plan",
        {"unit": c.unit, "moves": list(c.moves)},
        to=frozenset({b.faction_of(c.unit)}),
        rules=("M-1",),
    )


def _close_defence_check(b: BattleState, c: cmd.CloseDefence) -> Refusal | None:
    """Only where a won defence buys counter-moves (Myst, 002:l.81), and with the action it
    gives up still free (002:l.137)."""
    if defence_counters(b.ruleset) is None:
        return Refusal("not_in_ruleset", command=c.KIND)
    used = b.turn(c.unit).action
    return None if used is None else Refusal("action_used", used=used)


def _close_defence(b: BattleContext, c: cmd.CloseDefence) -> None:
    """The unit's action given up (002:l.137); its round rules close its sheet into defence
    until its next turn begins (RoundRules.after_command, game/tactics/rulesets/myst_round.py).
    Told to every side that sees it: a fighter's guard is in sight."""
    b.use_action(c.unit, c.KIND)
    b.emit("closed_defence", {"unit": c.unit}, about=[c.unit], rules=("M-1", "M-2"))


def step_aside_check(b: BattleState, unit: str) -> Refusal | None:
    """P-MOV-8: whether `unit` may step out of a cell it shares now, wherever to (the board's
    menu offers it while the unit shares a cell; the do checks the cell)."""
    from game.ecs.components import Crowded

    if b.world.try_get(unit, Crowded) is None or not b.on_map(unit):
        return Refusal("not_sharing_a_cell", unit=unit)
    if not b.step_aside_cells(unit):
        return Refusal("cannot_step_aside", unit=unit)
    return None


def _step_aside(b: BattleContext, c: cmd.StepAside) -> None:
    """P-MOV-8: out of a shared cell, on a successful save, to a free cell of the 8 around."""
    if c.to not in b.step_aside_cells(c.unit):
        raise Refusal("not_free_around", at=c.to)
    b.step_aside(c.unit, c.to)


def _five_foot_step(b: BattleContext, c: cmd.FiveFootStep) -> None:
    """D-2: one cell without attacks of opportunity, when not otherwise moving (the check)."""
    b.five_foot_step(c.unit, c.to)


def _coup_de_grace(b: BattleContext, c: cmd.CoupDeGrace) -> None:
    """004:l.114-120: the target as its side knows it, refused by the ruleset's reason (not
    helpless, out of reach, a weapon that cannot, immune to critical hits) before anything;
    then the full-round action is spent and the blow provokes, then falls (`coup_de_grace`)."""
    rules = coup_de_grace_rules(b.ruleset)
    if rules is None:
        raise Refusal("not_in_ruleset", command=c.KIND)
    target = b.visible_target(c.unit, c.target)
    answer = rules.coup_de_grace(b.bf, b.sheet(c.unit), target)
    if answer.chance is None:
        raise no_chance(answer.reason, target.id, answer.why)
    b.use_action(c.unit, c.KIND)
    b.emit(
        "coup_de_grace_begun", {"unit": c.unit, "target": target.id}, about=[c.unit, target.id],
        rules=("D-2",),
    )  # fmt: skip
    b.coup_de_grace(c.unit, target.id)


def _dash(b: BattleContext, c: cmd.Dash) -> None:
    b.use_action(c.unit, "dash")
    b.emit("dashed", {"unit": c.unit}, about=[c.unit], rules=("P-MOV-5",))


def armed_weapon(b: BattleState, unit: str) -> Weapon | None:
    """The weapon record `unit` attacks with: its periferie weapon (`Armed`); or, a unit whose
    ruleset sheet carries a weapon of its own that the map gave in no periferie terms, the
    improvised blow standing for it (that ruleset's attack reads its sheet's weapon); None."""
    weapon_id = b.world.get(unit, Armed).weapon
    if weapon_id is not None:
        return b.rules.weapons[weapon_id]
    own = b.world.try_get(unit, RulesetSheet)
    if own is not None and b.ruleset.carries_weapon(own.sheet):
        return _improvised_weapon(b.rules)
    return None


def _weapon_of(b: BattleContext, unit: str) -> Weapon:
    weapon = armed_weapon(b, unit)
    if weapon is None:
        raise Refusal("no_weapon", unit=unit)
    return weapon


def _attack(b: BattleContext, c: cmd.Attack) -> None:
    weapon = _weapon_of(b, c.unit)
    if c.suppress:
        b.need_action(c.unit)
        _suppress(b, c.unit, c.target)
        return
    if weapon.kind == "thrown" and b.ruleset.can_throw(b.bf, b.sheet(c.unit)) != NOT_OFFERED:
        _throw(b, cmd.Throw(c.unit, c.target, c.at))
        return  # without throws in the ruleset a thrown weapon attacks as its sheet says
    b.need_action(c.unit)
    if c.target is not None:
        target = b.visible_target(c.unit, c.target)
        answer = b.ruleset.attack(b.bf, b.sheet(c.unit), target, weapon)
        if answer.chance is None:
            raise no_chance(answer.reason, target.id, answer.why)
        b.use_action(c.unit, "attack")
        b.resolve_attack(c.unit, target, weapon, "attack", c.margin)
        _exert(b, c.unit, "attack")
        return
    if c.at is None:
        raise Refusal("no_target")
    _area_at_cell(b, c.unit, weapon, c.at)


def _suppress(b: BattleContext, unit: str, target_id: str | None) -> None:
    """Suppression fire (Cepheus, 000:l.317-321): the ruleset's chance, rolled as an attack
    with the significant action; a success suppresses the target (its round rules: the
    initiative change and its own -1), a failure is a plain miss. Nobody is hurt."""
    me = b.sheet(unit)
    cannot = b.ruleset.can_suppress(b.bf, me)
    if cannot is not None:
        raise Refusal(cannot, unit=unit)
    target = b.visible_target(unit, target_id)
    answer = b.ruleset.suppression(b.bf, me, target)
    if answer.chance is None:
        raise no_chance(answer.reason, target.id, answer.why)
    b.use_action(unit, "attack")
    rolled = b.ruleset.roll_attack(b.roller, answer, b.advantage(unit, None), f"suppress {unit}")
    own = b.world.try_get(unit, RulesetSheet)
    if own is not None:  # the rounds it fired (Cepheus: twice a shot's, 000:l.319)
        after = b.ruleset.after_attack(own.sheet, answer)
        if after != own.sheet:
            b.set(unit, RulesetSheet(after))
    b.reveal_to(unit, {target.faction})
    b.emit(
        "suppression_fire",
        {"unit": unit, "target": target.id, **rolled.logged, "hit": rolled.hit,
         "why": list(answer.why)},
        about=[unit, target.id],
        rolls=(rolled.record,),
        rules=answer.rules,
    )  # fmt: skip
    rules = round_rules(b.ruleset)
    theirs = b.world.try_get(target.id, RulesetSheet)
    if not rolled.hit or rules is None or theirs is None:
        return
    after, change = rules.suppressed(theirs.sheet, rolled)
    b.set(target.id, RulesetSheet(after))
    counts_in = b.initiative.adjust(target.id, change) if change else b.round
    b.emit(
        "suppressed",
        {"unit": target.id, "by": unit, "initiative": change, "round": counts_in},
        about=[target.id, unit],
        rules=("C-1",),
    )


def _area_at_cell(b: BattleContext, unit: str, weapon: Weapon, at: Cell) -> None:
    """An area weapon aimed at a cell: the ruleset's chance (periferie: line of sight, then the
    weapon's own P against a cell, P-AREA-1), rolled as an attack; a hit goes off at the cell."""
    me = b.sheet(unit)
    answer = b.ruleset.area_attack(b.bf, me, weapon, at)
    if answer.reason == NOT_OFFERED:  # worded with the ruleset, as the window's aim says it
        raise Refusal("area_not_offered", ruleset=b.bf.ruleset)
    if answer.chance is None:
        raise Refusal(str(answer.reason), **answer.values)
    b.use_action(unit, "attack")
    rolled = b.ruleset.roll_attack(b.roller, answer, b.advantage(unit, None), f"attack {unit}")
    b.spend_help(unit)
    b.emit(
        "attack",
        {
            "unit": unit,
            "at": list(at),
            "weapon": weapon.id,
            **combat.weapon_named(b, unit, answer),
            **rolled.logged,
            "hit": rolled.hit,
        },
        about=[unit],
        rolls=(rolled.record,),
        rules=answer.rules,
    )
    if rolled.hit:
        b.damage_area(unit, weapon, at, None)
        _out_of_the_fight(b, unit)


def _exert(b: BattleContext, unit: str, act: str) -> None:
    """What the act just done costs its doer (BattleRules.exertion: d20's disabled creature,
    1 hit point after an attack, assumed, D-2), dealt as a hit from "exertion"; an attacker
    it puts out of the fight ends its turn."""
    if not b.on_map(unit):
        return
    cost = b.ruleset.exertion(b.sheet(unit), act)
    if cost:
        b.hurt(unit, "exertion", cost, "exertion", None)
        if act == "attack":
            _out_of_the_fight(b, unit)


def _out_of_the_fight(b: BattleContext, unit: str) -> None:
    """A unit its own blast knocked out of the fight (a grenade that bounced back, C-5's
    unconscious) acts no more: its turn ends here (one that died has left the order already)."""
    if b.on_map(unit) and "out_of_combat" in b.health(unit).conditions:
        b.emit("turn_cut_short", {"unit": unit}, about=[unit])
        b.end_turn(unit)


def throw_size(weapon: Weapon | None, size: str | None) -> str:
    if size is not None:
        if size not in THROW_SIZES:
            raise Refusal("unknown_size", size=size, known=tuple(THROW_SIZES))
        return size
    if weapon is not None and weapon.kind == "thrown":
        for name, ranges in THROW_SIZES.items():
            if (ranges.medium_range, ranges.long_range) == (weapon.medium_range, weapon.long_range):
                return name
    return "light"


def _throw(b: BattleContext, c: cmd.Throw) -> None:
    """At an entity or a cell, as the ruleset answers and rolls it (periferie: P-THR-1/2, an
    automatic throw at a cell within medium range, a miss deviates); a thrown weapon with an
    area goes off where it lands (P-AREA-1), another hurts the target it hit."""
    weapon_id = b.world.get(c.unit, Armed).weapon
    held = None if weapon_id is None else b.rules.weapons[weapon_id]
    weapon = held if held is not None and held.kind == "thrown" and c.size is None else None
    size = throw_size(weapon, c.size)
    me = b.sheet(c.unit)
    b.need_action(c.unit)
    target = b.visible_target(c.unit, c.target) if c.target is not None else None
    if target is None and c.at is None:
        raise Refusal("no_target")
    aim = target.cell if target is not None else c.at
    assert aim is not None
    if not b.grid.in_bounds(aim):
        raise Refusal("outside_map", at=aim)
    answer = b.ruleset.throw(b.bf, me, target if target is not None else aim, size, weapon)
    if not answer.possible:
        raise Refusal(str(answer.reason or "out_of_range"), why=answer.why)
    b.use_action(c.unit, "throw")
    advantage = b.advantage(c.unit, None if target is None else target.id)
    rolled = b.ruleset.roll_throw(b.roller, b.bf, me, aim, answer, advantage, f"throw {c.unit}")
    if not answer.automatic:
        b.spend_help(c.unit)
    b.emit(
        "throw",
        {
            "unit": c.unit,
            "size": size,
            "weapon": None if weapon is None else weapon.id,
            **combat.weapon_named(b, c.unit),
            "target": None if target is None else target.id,
            "aim": list(aim),
            "landed": list(rolled.landed),
            "hit": rolled.hit,
            **rolled.logged,
            "why": list(answer.why),
        },
        about=[c.unit] + ([target.id] if target is not None else []),
        rolls=rolled.rolls,
        rules=answer.rules + rolled.rules,
    )
    # an explosive goes off where it landed, whatever the throw did (the ruleset's area)
    if weapon is not None and b.ruleset.area_victims(b.bf, me, weapon, rolled.landed) is not None:
        b.damage_area(c.unit, weapon, rolled.landed, None)
    elif rolled.hit and target is not None:
        damage = b.ruleset.throw_damage(b.roller, b.bf, me, weapon, size, rolled)
        dtype = weapon.damage_type if weapon is not None else THROW_DAMAGE_TYPE
        on_hit = weapon.on_hit if weapon is not None else ()
        b.hurt(target.id, dtype, damage.rolled, c.unit, damage.record, on_hit)
    _out_of_the_fight(b, c.unit)


def _stance(b: BattleContext, c: cmd.ChangeStance) -> None:
    try:
        new = Stance.from_name(c.stance)
    except ValueError:
        raise Refusal(
            "unknown_stance", stance=c.stance, known=tuple(s.value for s in Stance)
        ) from None
    current = b.world.get(c.unit, Posture).stance
    turn = b.turn(c.unit)
    if new is current:
        raise Refusal("same_stance", stance=new.value)
    kinds = {stance: kind for kind, stance in STANCES.items()}
    if b.ruleset.turn_budget().costs.get(kinds[new]) == "action":
        b.use_action(c.unit, kinds[new])  # Myst: rising costs an Action (002:l.101)
    elif turn.interaction_used:
        raise Refusal("interaction_used")
    else:
        turn.change_stance(current, new)
    b.set(c.unit, Posture(new))
    b.emit("stance", {"unit": c.unit, "stance": new.value}, about=[c.unit], rules=("P-TURN-2",))


def _simple_action(
    kind: str, status_change: Callable[[Status], Status] | None = None
) -> Callable[[BattleContext, Any], None]:
    def handler(b: BattleContext, c: Any) -> None:
        b.use_action(c.unit, kind)
        if status_change is not None:
            b.set(c.unit, status_change(b.world.get(c.unit, Status)))
        b.emit(kind, {"unit": c.unit}, about=[c.unit], rules=("P-TURN-1",))

    return handler


def _help(b: BattleContext, c: cmd.Help) -> None:
    if c.ally == c.unit or c.ally not in b.world or not b.on_map(c.ally):
        raise Refusal("not_an_ally", ally=c.ally)
    if b.faction_of(c.ally) != b.faction_of(c.unit):
        raise Refusal("not_an_ally", ally=c.ally)
    if chebyshev(b.sheet(c.unit).cell, b.sheet(c.ally).cell) > 1:
        raise Refusal("not_adjacent", ally=c.ally)
    b.use_action(c.unit, "help")
    b.set(c.ally, replace(b.world.get(c.ally, Status), helped_by=c.unit))
    b.emit("help", {"unit": c.unit, "ally": c.ally}, about=[c.unit, c.ally], rules=("P-CHK-2",))


def _ready(b: BattleContext, c: cmd.Ready) -> None:
    if c.trigger not in READY_TRIGGERS:
        raise Refusal("unknown_trigger", trigger=c.trigger, known=READY_TRIGGERS)
    weapon = _weapon_of(b, c.unit)
    if weapon.kind == "melee":
        raise Refusal("needs_ranged_weapon", weapon=weapon.id)
    b.use_action(c.unit, "ready")
    b.set(c.unit, replace(b.world.get(c.unit, Status), readied=c.trigger))
    b.emit("ready", {"unit": c.unit, "trigger": c.trigger}, about=[c.unit], rules=("P-OA-2",))


def _hide(b: BattleContext, c: cmd.Hide) -> None:
    """Out of an enemy side's sight (or in cover from it, P-STL-2), a stealth check that meets
    every one of its units' passive perception hides the unit from that side."""
    b.use_action(c.unit, "hide")
    me = b.sheet(c.unit)
    # P-CHK-4: the target logged is the highest perception DC among the enemies (periferie:
    # passive perception): the total that hides the unit from every side that does not see it.
    dcs = {
        e.id: b.ruleset.perception_dc(b.bf, e)
        for e in b.bf.entities
        if e.faction != me.faction and not e.neutral
    }
    dc = max(dcs.values()) if dcs else None
    record = b.ruleset.stealth_roll(
        b.roller, b.bf, me, b.advantage(c.unit, None), dc, f"hide {c.unit}"
    )
    b.spend_help(c.unit)
    gained = set()
    for faction in b.setup.factions:
        if faction == me.faction:
            continue
        enemies = [e for e in b.bf.entities if e.faction == faction and not e.neutral]
        if not enemies:
            continue
        seen = any(b.in_open_sight(e, c.unit) for e in enemies)
        if not seen and all(record.total >= dcs[e.id] for e in enemies):
            gained.add(faction)
    vis = b.world.get(c.unit, Visibility)
    b.set(c.unit, replace(vis, hidden_from=vis.hidden_from | gained, stealth=record.total))
    b.emit(
        "hide",
        {"unit": c.unit, "success": bool(gained)},
        about=[c.unit],
        rolls=(record,),
        rules=("P-STL-1", "P-STL-2", "P-CHK-3"),
    )


def _search(b: BattleContext, c: cmd.Search) -> None:
    """A perception check; every unit hidden from the searcher's side that it could see and whose
    stealth the total meets is found."""
    b.use_action(c.unit, "search")
    me = b.sheet(c.unit)
    record = b.ruleset.search_roll(
        b.roller, b.bf, me, b.advantage(c.unit, None), f"search {c.unit}"
    )
    b.spend_help(c.unit)
    found = []
    for other in b.bf.entities:
        vis = b.world.get(other.id, Visibility)
        hidden = me.faction in vis.hidden_from
        if hidden and record.total >= vis.stealth and b.ruleset.sight(b.bf, me, other).clear:
            found.append(other.id)
    b.emit("search", {"unit": c.unit, "found": len(found)}, about=[c.unit], rolls=(record,))
    for unit_id in found:
        b.reveal_to(unit_id, {me.faction})


def _use_object(b: BattleContext, c: cmd.UseObject) -> None:
    if c.object != "medkit":
        raise Refusal("unknown_object", object=c.object, known=("medkit",))
    sheet = b.world.get(c.unit, Sheet)
    if sheet.medkits <= 0:
        raise Refusal("no_medkit")
    if c.target not in b.world or not b.on_map(c.target):
        raise Refusal("unknown_target", target=c.target)
    if b.faction_of(c.target) != b.faction_of(c.unit):
        raise Refusal("not_an_ally", ally=c.target)
    b.need_action(c.unit)
    me, target = b.sheet(c.unit), b.sheet(c.target)
    refused = b.ruleset.medkit_refusal(b.bf, me, target, c.wound)  # periferie: P-HEAL-1
    if refused is not None:
        raise Refusal(refused[0], **refused[1])
    b.use_action(c.unit, "use_object")
    aid = b.ruleset.use_medkit(b.roller, b.bf, me, target, c.wound, b.advantage(c.unit, None))
    if aid.rolls:
        b.spend_help(c.unit)
    b.set(c.unit, replace(sheet, medkits=sheet.medkits - 1))
    if b.world.has(c.target, RulesetSheet):
        # A ruleset's own health lives in its sheet; the shared Wounds keeps the battle's facts,
        # which first aid does not take back during the battle (as combat.hurt sets them).
        b.set(c.target, RulesetSheet(aid.after))
        effects = b.ruleset.condition_effects(aid.after)
        facts = {"dead": effects.dead, "out_of_combat": effects.out_of_combat}
        kept = b.health(c.target).conditions
        after = Health(conditions=kept | frozenset(n for n, held in facts.items() if held))
    else:
        after = aid.after  # periferie's wound ladder
    b.set(c.target, Wounds(after))
    b.emit(
        "medkit",
        {
            "unit": c.unit,
            "target": c.target,
            "wound": c.wound,
            "result": aid.result,
            "wounds": after.to_dict(),
            **aid.logged,
        },
        about=[c.unit, c.target],
        rolls=aid.rolls,
        rules=aid.rules,
    )


def _improvise(b: BattleContext, c: cmd.Improvise) -> None:
    b.use_action(c.unit, "improvise")
    b.improvising.append((c.unit, c.text))
    b.emit("improvise", {"unit": c.unit, "text": c.text}, about=[c.unit])


def _break_grab(b: BattleContext, c: cmd.BreakGrab) -> None:
    counters.break_grab(b, c.unit)


def _end_turn_cmd(b: BattleContext, c: cmd.EndTurn) -> None:
    b.end_turn(c.unit)


def _reload(b: BattleContext, c: cmd.Reload) -> None:
    """003:l.140: one turn of "Preparare l'Arma" towards firing the CAD weapon again; where the
    turn budget gives reloading no slot, a minor action the round rules count (Cepheus's
    magazine, 000:l.99)."""
    own = b.world.get(c.unit, RulesetSheet)
    sheet = own.sheet
    if b.ruleset.turn_budget().costs.get("reload") == "":
        rules, sheet = _round_rules(b, "reload", c.unit)
        turn = b.turn(c.unit)
        try:
            sheet, spends_action = rules.minor_action(sheet, "reload", turn.action)
        except RulesRefusal as refused:
            raise Refusal(refused.code, **refused.values) from None
        if spends_action and turn.action is None:
            b.use_action(c.unit, "reload")
    else:
        b.use_action(c.unit, "reload")
    after = b.ruleset.reload(sheet)
    b.set(c.unit, RulesetSheet(after))
    left = b.ruleset.reloading(after)
    rules_cited = b.ruleset.reload_rules()
    b.emit("reloaded", {"unit": c.unit, "left": left}, about=[c.unit], rules=rules_cited)


# ---------------------------------------------------------------- the round (Cepheus C-1/C-4)


def _round_rules(b: BattleContext, kind: str, unit: str) -> tuple[RoundRules, object]:
    """The ruleset's round rules and the unit's own sheet they read (the budget has already
    refused the command under a ruleset without them)."""
    found = round_rules(b.ruleset)
    own = b.world.try_get(unit, RulesetSheet)
    if found is None or own is None:
        raise Refusal("not_in_ruleset", command=kind)
    return found, own.sheet


def _aim(b: BattleContext, c: cmd.Aim) -> None:
    """000:l.87: a minor action aiming at a target it could attack now (C-4's budget is the
    round rules')."""
    rules, sheet = _round_rules(b, "aim", c.unit)
    target = b.visible_target(c.unit, c.target)
    answer = b.ruleset.attack(b.bf, b.sheet(c.unit), target, worded=False)
    if answer.chance is None:
        raise no_chance(answer.reason, target.id, answer.why)
    turn = b.turn(c.unit)
    try:
        after, spends_action = rules.aim(sheet, target.id, turn.action, kill=c.kill)
    except RulesRefusal as refused:
        raise Refusal(refused.code, **refused.values) from None
    if spends_action and turn.action is None:
        b.use_action(c.unit, "aim")
    b.set(c.unit, RulesetSheet(after))
    kill = {"kill": True} if c.kill else {}  # 000:l.91, C-5
    rules_cited = ("C-1", "C-4", "C-5") if c.kill else ("C-1", "C-4")
    b.emit(
        "aimed", {"unit": c.unit, "target": target.id, **kill}, about=[c.unit], rules=rules_cited
    )


def _hasty(b: BattleContext, c: cmd.Hasty) -> None:
    """000:l.79: +2 initiative and -1 to every action, from the next round (C-1)."""
    rules, sheet = _round_rules(b, "hasty", c.unit)
    try:
        after, change = rules.declare_hasty(sheet)
    except RulesRefusal as refused:
        raise Refusal(refused.code, **refused.values) from None
    b.set(c.unit, RulesetSheet(after))
    counts_in = b.initiative.adjust(c.unit, change)
    b.emit("hasty", {"unit": c.unit, "round": counts_in}, about=[c.unit], rules=("C-1",))


def _delay(b: BattleContext, c: cmd.Delay) -> None:
    """000:l.186: act later this round, or first next round (C-1), before doing anything."""
    _round_rules(b, "delay", c.unit)  # the check has refused a turn already begun
    b.delay_turn(c.unit)


def _toggle(kind: str) -> Callable[[BattleContext, Any], None]:
    def handler(b: BattleContext, c: Any) -> None:
        rules, sheet = _round_rules(b, kind, c.unit)
        try:
            after, now = rules.toggle(sheet, kind)
        except RulesRefusal as refused:
            raise Refusal(refused.code, **refused.values) from None
        b.set(c.unit, RulesetSheet(after))
        b.emit(kind, {"unit": c.unit, "now": now}, about=[c.unit], rules=("C-1", "C-4"))

    return handler


# ---------------------------------------------------------------- the GM's handlers


def _unit(b: BattleContext, unit: str) -> str:
    if unit not in b.world:
        raise Refusal("unknown_unit", unit=unit)
    return unit


def _factions(b: BattleContext, unit: str, named: Sequence[str]) -> set[str]:
    unknown = [f for f in named if f not in b.setup.factions]
    if unknown:
        raise Refusal("unknown_faction", factions=tuple(unknown))
    own = b.faction_of(unit)
    return set(named) if named else {f for f in b.setup.factions if f != own}


def _reveal(b: BattleContext, c: cmd.Reveal) -> None:
    b.reveal_to(_unit(b, c.unit), _factions(b, c.unit, c.factions))


def _conceal(b: BattleContext, c: cmd.Conceal) -> None:
    vis = b.world.get(_unit(b, c.unit), Visibility)
    factions = _factions(b, c.unit, c.factions) - {b.faction_of(c.unit)}
    b.set(c.unit, replace(vis, hidden_from=vis.hidden_from | factions))
    b.emit("concealed", {"unit": c.unit, "from": sorted(factions)}, gm_only=True)


def _place_reinforcement(b: BattleContext, c: cmd.PlaceReinforcement) -> None:
    waiting = b.world.try_get(_unit(b, c.unit), Waiting)
    if waiting is None:
        raise Refusal("not_waiting", unit=c.unit)
    cell = c.at or waiting.cell
    if not b.grid.in_bounds(cell) or not b.grid.standable[cell]:
        raise Refusal("cannot_stand", at=cell)
    b.set(c.unit, replace(waiting, round=b.round + 1, cell=cell))
    b.emit(
        "reinforcement_called",
        {"unit": c.unit, "round": b.round + 1},
        gm_only=True,
        rules=("P-INIT-6",),
    )


def _surprise(b: BattleContext, c: cmd.MarkSurprised) -> None:
    _unit(b, c.unit)
    try:
        b.initiative.surprise(c.unit)
    except InitiativeError as exc:
        raise Refusal("not_in_order", unit=c.unit, why=str(exc)) from None
    b.emit("surprised", {"unit": c.unit}, about=[c.unit], rules=("P-INIT-5",))
    if b.initiative.active == c.unit:
        b.emit(
            "turn_skipped",
            {"unit": c.unit, "because": "surprised"},
            about=[c.unit],
            rules=("P-INIT-5",),
        )
        b.end_turn(c.unit)


def _order_tie(b: BattleContext, c: cmd.OrderTie) -> None:
    """P-INIT-2. The unit whose turn has just begun may be moved back within its tie while it
    has done nothing and its turn's start brought nothing (no death save, no burn)."""
    active = b.initiative.active
    if active in c.order:
        turn = b.turn(active)
        begun = turn.movement_spent or turn.action or turn.interaction_used or turn.bonus_used
        opening = start_of_turn(b.health(active))
        if begun or opening.death_save_due or opening.burning_damage_due:
            raise Refusal("turn_begun", unit=active)
    try:
        new_active = b.initiative.reorder_tied(list(c.order))
    except InitiativeError as exc:
        raise Refusal("bad_tie_order", why=str(exc)) from None
    b.emit(
        "initiative_reordered", {"order": list(c.order)}, about=list(c.order), rules=("P-INIT-2",)
    )
    if new_active is not None and active is not None:
        b.turn(active).end_turn()
        b.emit("turn_passed", {"unit": active, "to": new_active}, about=[active, new_active])
        if not b.start_turn(new_active):
            b.next_turn()


def _enter_roll(b: BattleContext, c: cmd.EnterRoll) -> None:
    if not c.faces:
        raise Refusal("no_faces")
    b.roller.supply(*c.faces)
    b.emit("dice_entered", {"faces": list(c.faces)}, gm_only=True, rules=("P-CHK-4",))


def _condition(b: BattleContext, c: cmd.SetCondition) -> None:
    known = b.ruleset.gm_conditions()  # the ruleset's own, none under some (Myst, fantasy)
    unknown = [n for n in (*c.add, *c.remove) if n not in known]
    if unknown:
        raise Refusal("unknown_condition", names=tuple(unknown), known=known)
    if not b.on_map(_unit(b, c.unit)):
        raise Refusal("not_on_map", unit=c.unit)
    health = b.health(c.unit)
    try:
        after = replace(health, conditions=(health.conditions - set(c.remove)) | set(c.add))
    except RulesInputError as exc:
        raise Refusal("bad_condition", why=str(exc)) from None
    b.set(c.unit, Wounds(after))
    b.emit(
        "condition",
        {"unit": c.unit, "add": list(c.add), "remove": list(c.remove), "by": "gm"},
        about=[c.unit],
    )
    if after.has("dead"):
        b.fall(c.unit)


def _edit_cell(b: BattleContext, c: cmd.EditCell) -> None:
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
        if code and b.in_cell(c.at) is not None:
            raise Refusal("cell_occupied", at=c.at)
        obstacle[c.at] = code
    if c.terrain is not None:
        try:
            terrain[c.at] = int(Terrain.from_names(list(c.terrain)))
        except ValueError:
            raise Refusal("unknown_terrain", terrain=c.terrain) from None
    if c.floor is not None:
        floor[c.at] = c.floor
    b.replace_grid(
        Grid.build(
            obstacle,
            terrain,
            floor,
            gravity=b.grid.gravity,
            pressurised=b.grid.pressurised,
            darkness=b.grid.darkness,
            smoke=b.grid.smoke,
            weather=b.grid.weather,
        )
    )
    b.emit(
        "cell_edited",
        {"at": list(c.at), "obstacle": c.obstacle, "terrain": c.terrain, "floor": c.floor},
    )


def _field_conditions(b: BattleContext, c: cmd.ChangeField) -> None:
    """Issue 15: the GM's light, smoke and weather over the whole battlefield, told to all."""
    now = b.bf.conditions
    after = replace(
        now,
        **{k: v for k, v in (("darkness", c.darkness), ("smoke", c.smoke), ("weather", c.weather))
           if v is not None},
    )  # fmt: skip
    if after == now:
        raise Refusal("field_unchanged", **now.to_json())
    changed = [name for name, value, _known in after.choices() if value != getattr(now, name)]
    b.set_conditions(after)
    b.emit("field_conditions", {**after.to_json(), "changed": changed})


def _restart(b: BattleContext, c: cmd.RestartInitiative) -> None:
    active = b.initiative.active
    if active is not None:
        b.turn(active).end_turn()
    b.initiative.restart(b.roller)
    b.emit("initiative_restarted", {"round": b.round}, rules=("P-INIT-3",))
    for entry in b.initiative.visible_order(True):
        b.announce_initiative(entry.entity_id)
    b.next_turn()


def _end_combat_cmd(b: BattleContext, c: cmd.EndCombat) -> None:
    if b.over:
        raise Refusal("combat_over")
    b.end_combat(None)


def _rule_improvise(b: BattleContext, c: cmd.RuleImprovise) -> None:
    waiting = [i for i, (u, _t) in enumerate(b.improvising) if u == c.unit]
    if not waiting:
        raise Refusal("nothing_to_rule", unit=c.unit)
    if c.verdict not in IMPROVISE_VERDICTS:
        raise Refusal("unknown_verdict", verdict=c.verdict, known=IMPROVISE_VERDICTS)
    rolls: tuple[RollRecord, ...] = ()
    success = c.verdict == "accept"
    if c.verdict == "check":
        known = b.ruleset.improvised_checks()  # periferie: P-CHK-1's d20 checks
        if c.check not in known or c.dc is None:
            raise Refusal("needs_check_and_dc", known=known)
        if not b.on_map(c.unit):
            raise Refusal("not_on_map", unit=c.unit)
        record = b.ruleset.roll_improvised(
            b.roller, b.bf, b.sheet(c.unit), c.check, c.dc, f"improvise {c.unit}"
        )
        rolls, success = (record,), record.outcome == "success"
    unit, text = b.improvising.pop(waiting[0])
    b.emit(
        "improvise_ruled",
        {"unit": unit, "text": text, "verdict": c.verdict, "success": success, "by": "gm"},
        about=[unit],
        rolls=rolls,
        rules=("P-CHK-1",) if rolls else (),
    )


def _controller(b: BattleContext, c: cmd.SetController) -> None:
    if c.faction not in b.setup.factions:
        raise Refusal("unknown_faction", factions=(c.faction,))
    new = (
        Controller("computer") if c.controller == "computer" else Controller("player", c.controller)
    )
    for unit in b.world.units_with(Faction):
        if b.faction_of(unit) == c.faction:
            b.set(unit, new)
    b.emit("controller", {"faction": c.faction, "controller": c.controller})


# ---------------------------------------------------------------- the checks


#: The stance commands the action bar lists, and the stance each asks for.
STANCES = {"crouch": Stance.CROUCHED, "prone": Stance.PRONE, "stand": Stance.STANDING}


def check(b: BattleState, unit: str, kind: str) -> Refusal | None:
    """The refusal a player command of `kind` (an action bar kind: "attack", "crouch"...) for
    `unit` gets whatever it is then aimed at: the action or interaction used (P-TURN-1), no
    weapon, a wound that bars attacks, no medkit, the stance it already has. The engine runs it
    before the command's *do*; the action bar shows it. Who may give the command is
    `Battle.authorise`'s, and what it is aimed at is the *do*'s."""
    budget = b.ruleset.turn_budget()
    if kind not in budget.commands:
        return Refusal("not_in_ruleset", command=kind)
    if kind == "help" and b.on_map(unit):
        cannot_help = b.ruleset.can_help(b.bf, b.sheet(unit))  # NOT_OFFERED: no help at all
        if cannot_help is not None:
            return Refusal(cannot_help, unit=unit)
    turn = b.turn(unit)
    if kind in budget.spending("action") and turn.action is not None:
        return Refusal("action_used", used=turn.action)
    # D-2: a 5-foot step only when not otherwise moving (a dash is a double move), and no
    # other movement after it.
    if kind in ("move", "dash", "five_foot_step") and turn.stepped:
        return Refusal("stepped", unit=unit)
    if kind in ("move", "dash", "five_foot_step") and b.world.has(unit, Grabbed):
        return Refusal("in_a_grab", unit=unit)  # Myst, 002:l.116
    if kind == "break_grab":
        held = b.world.try_get(unit, Grabbed)
        if held is None:
            return Refusal("not_in_grab", unit=unit)
        if not held.holding and turn.action is not None:  # breaking is its action (002:l.109)
            return Refusal("action_used", used=turn.action)
    if kind == "five_foot_step" and (turn.movement_spent or turn.dashed):
        return Refusal("already_moved", unit=unit)
    # 004:l.114: a coup de grâce is a full-round action: not after moving (a 5-foot step may
    # go with it, D-2), and no move after it.
    if kind == "coup_de_grace" and (turn.dashed or (turn.movement_spent and not turn.stepped)):
        return Refusal("moved_no_full_round", unit=unit)
    if kind in ("move", "dash") and turn.action == "coup_de_grace":
        return Refusal("full_round_taken", unit=unit)
    if b.condition_effects(unit).one_action and (
        kind == "dash"
        or (kind == "move" and turn.action is not None)
        or (kind in budget.spending("action") and turn.movement_spent and not turn.stepped)
    ):
        # D-2: a disabled creature's one action, a move or a standard one (no double move);
        # a 5-foot step may still go with the standard action.
        return Refusal("one_action", unit=unit)
    weapon = armed_weapon(b, unit)
    if kind in ("attack", "coup_de_grace") and weapon is None:
        return Refusal("no_weapon", unit=unit)
    if kind in ("attack", "throw", "coup_de_grace"):
        barred = b.condition_effects(unit).attack_barred
        if barred:
            return Refusal(barred, unit=unit)
    if kind in ("attack", "reload"):
        own = b.world.try_get(unit, RulesetSheet)
        left = 0 if own is None else b.ruleset.reloading(own.sheet)
        if kind == "attack" and left:
            return Refusal("reloading", turns=left)  # fantasy's CAD (003:l.140)
        empty = None if own is None else b.ruleset.out_of_ammunition(own.sheet)
        if kind == "attack" and empty is not None:
            return Refusal("out_of_ammo", **empty)  # Cepheus's magazine (000:l.99)
        short = None if own is None else b.ruleset.can_reload(own.sheet)
        if kind == "reload" and not (left if short is None else short):
            return Refusal("nothing_to_reload", unit=unit)
        if kind == "reload" and own is not None and budget.costs.get("reload") == "":
            found = round_rules(b.ruleset)  # a minor action left (C-4)
            try:
                if found is not None:
                    found.minor_action(own.sheet, "reload", turn.action)
            except RulesRefusal as no_minor:
                return Refusal(no_minor.code, **no_minor.values)
    if kind == "throw" and b.on_map(unit):
        cannot = b.ruleset.can_throw(b.bf, b.sheet(unit))  # NOT_OFFERED: no throws at all
        if cannot is not None:
            return Refusal(cannot, unit=unit)
    if kind == "ready" and weapon is None:
        return Refusal("no_weapon", unit=unit)
    if kind == "ready" and weapon is not None and weapon.kind == "melee":
        return Refusal("needs_ranged_weapon", weapon=weapon.id)
    if kind == "use_object" and b.world.get(unit, Sheet).medkits <= 0:
        return Refusal("no_medkit")
    if kind in ROUND_KINDS:
        refused = _round_check(b, unit, kind)
        if refused is not None:
            return refused
    if kind in STANCES:
        if b.world.get(unit, Posture).stance is STANCES[kind]:
            return Refusal("same_stance", stance=STANCES[kind].value)
        if budget.costs[kind] == "interaction" and turn.interaction_used:
            return Refusal("interaction_used")
    return None


#: The round's own commands (RoundRules): their check asks the round rules.
ROUND_KINDS = ("aim", "hasty", "delay", "react_stance", "fire_mode")


def _round_check(b: BattleState, unit: str, kind: str) -> Refusal | None:
    """A round command's refusal whatever it is aimed at: the round rules tried on the unit's
    sheet (they change nothing: the sheet is a frozen value)."""
    found = round_rules(b.ruleset)
    own = b.world.try_get(unit, RulesetSheet)
    if found is None or own is None:
        return Refusal("not_in_ruleset", command=kind)
    turn = b.turn(unit)
    try:
        if kind == "aim":
            found.aim(own.sheet, "", turn.action)  # a minor action left, whatever the target
        elif kind == "hasty":
            found.declare_hasty(own.sheet)
        elif kind == "fire_mode":
            found.toggle(own.sheet, kind)
    except RulesRefusal as refused:
        return Refusal(refused.code, **refused.values)
    begun = turn.action is not None or turn.movement_spent or turn.interaction_used
    if kind == "delay" and (begun or found.turn_begun(own.sheet)):
        return Refusal("turn_begun", unit=unit)
    return None


def _checked(kind: str) -> Callable[[BattleState, Any], Refusal | None]:
    def checker(b: BattleState, c: Any) -> Refusal | None:
        return check(b, c.unit, kind)

    return checker


def _stance_check(b: BattleState, c: cmd.ChangeStance) -> Refusal | None:
    kinds = {stance.value: kind for kind, stance in STANCES.items()}
    kind = kinds.get(c.stance)
    return None if kind is None else check(b, c.unit, kind)


def _no_check(b: BattleState, c: Any) -> Refusal | None:
    return None


@dataclass(frozen=True)
class Handler:
    """One command kind: `check` reads the battle and answers the refusal that does not depend
    on the command's target (None: go on); `do` carries the command out, refusing what it is
    aimed at before it changes anything."""

    do: Callable[[BattleContext, Any], None]
    check: Callable[[BattleState, Any], Refusal | None] = _no_check


HANDLERS: dict[type[cmd.Command], Handler] = {
    cmd.Move: Handler(_move, _checked("move")),
    cmd.React: Handler(_react),
    cmd.SpendMargin: Handler(_spend_margin),
    cmd.DefencePlan: Handler(_defence_plan, _defence_plan_check),
    cmd.CloseDefence: Handler(_close_defence, _close_defence_check),
    cmd.StepAside: Handler(_step_aside, lambda b, c: step_aside_check(b, c.unit)),
    cmd.Dash: Handler(_dash, _checked("dash")),
    cmd.FiveFootStep: Handler(_five_foot_step, _checked("five_foot_step")),
    cmd.Attack: Handler(_attack, _checked("attack")),
    cmd.Throw: Handler(_throw, _checked("throw")),
    cmd.ChangeStance: Handler(_stance, _stance_check),
    cmd.Dodge: Handler(
        _simple_action("dodge", lambda s: replace(s, dodging=True)), _checked("dodge")
    ),
    cmd.Disengage: Handler(_simple_action("disengage"), _checked("disengage")),
    cmd.Help: Handler(_help, _checked("help")),
    cmd.Ready: Handler(_ready, _checked("ready")),
    cmd.Hide: Handler(_hide, _checked("hide")),
    cmd.Search: Handler(_search, _checked("search")),
    cmd.UseObject: Handler(_use_object, _checked("use_object")),
    cmd.Improvise: Handler(_improvise, _checked("improvise")),
    cmd.EndTurn: Handler(_end_turn_cmd),
    cmd.BreakGrab: Handler(_break_grab, _checked("break_grab")),
    cmd.Reload: Handler(_reload, _checked("reload")),
    cmd.Aim: Handler(_aim, _checked("aim")),
    cmd.Hasty: Handler(_hasty, _checked("hasty")),
    cmd.Delay: Handler(_delay, _checked("delay")),
    cmd.ReactStance: Handler(_toggle("react_stance"), _checked("react_stance")),
    cmd.FireMode: Handler(_toggle("fire_mode"), _checked("fire_mode")),
    cmd.Reveal: Handler(_reveal),
    cmd.Conceal: Handler(_conceal),
    cmd.PlaceReinforcement: Handler(_place_reinforcement),
    cmd.MarkSurprised: Handler(_surprise),
    cmd.OrderTie: Handler(_order_tie),
    cmd.EnterRoll: Handler(_enter_roll),
    cmd.SetCondition: Handler(_condition),
    cmd.EditCell: Handler(_edit_cell),
    cmd.RestartInitiative: Handler(_restart),
    cmd.EndCombat: Handler(_end_combat_cmd),
    cmd.RuleImprovise: Handler(_rule_improvise),
    cmd.SetController: Handler(_controller),
    cmd.ChangeField: Handler(_field_conditions),
    cmd.CoupDeGrace: Handler(_coup_de_grace, _checked("coup_de_grace")),
    cmd.Gait: Handler(mounted.gait, mounted.gait_check),
    cmd.StrikeHorse: Handler(mounted.strike_horse),
}
