"""Myst (seed 002, rulings M-1, M-2): its scenario sheet and its `tessera query` answers.

The pure rules are game/rules/myst/; here they meet the shared grid: the terrain line of sight
(entities never block it: people in the line of fire are M-1's friendly fire instead), the cells
the centre-to-centre line enters (game/grid/lines.py) and G-4 distances.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from game.grid.geometry import chebyshev
from game.grid.lines import cells_entered
from game.grid.los import explain_line_of_sight
from game.grid.model import CELL_METRES
from game.rules.data import RulesData
from game.rules.exact import fraction_text
from game.rules.myst import combat, mounted
from game.rules.myst import round as state
from game.rules.myst.data import MystDataError, MystRules, Sheet, Weapon, load, parse_weapon
from game.rules.reader import ScenarioError, as_bool, as_int, as_list, as_object, choice, fail
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import BattleRules, Json, Query, entity_arg
from game.tactics.rulesets.myst_battle import BATTLE

SITUATION_KEYS = (
    "mounted",
    "target_mounted",
    "gait",
    "charge",
    "run_up",
    "closed_defence",
    "counter",
    "obstruction",
    "penalty",
    "aimed",
    "shield_off_side",
    "two_handed",
    "second_defence",
)


def rules() -> MystRules:
    return load()


def sheet_of(entity: EntitySheet) -> Sheet:
    """The entity's Myst sheet (the defaults for an entity built without one)."""
    return entity.sheet if isinstance(entity.sheet, Sheet) else rules().defaults


def read_entity(
    spec: Mapping[str, object], where: str, base: EntitySheet, _rules: RulesData
) -> EntitySheet:
    data = rules()
    try:
        sheet = data.defaults
        if "sheet" in spec:
            sheet = _read_sheet(spec["sheet"], f"{where}.sheet", data)
    except MystDataError as exc:
        raise ScenarioError(str(exc)) from None
    return replace(base, sheet=sheet)


def _read_sheet(raw: object, where: str, data: MystRules) -> Sheet:
    from game.rules.myst.data import read_sheet

    return read_sheet(raw, where, data.defaults, data.weapons, data.samples)


def unit_fields(template: str | None, weapon: str | None, armour: str | None) -> dict[str, object]:
    """A map unit gets the sample sheet its periferie template maps to (sheets.toml); a unit
    whose template gives the default sheet but whose periferie weapon is listed under
    `armed_commoners` (a ranged one: the keep's bows) gets that sheet instead."""
    data = rules()
    templates = data.templates
    sheet = templates.get(template or "default", templates["default"])
    if sheet == templates["default"] and weapon is not None and weapon in data.armed_commoners:
        sheet = data.armed_commoners[weapon]
    return {"sheet": sheet}


def _weapon(spec: Mapping[str, object], where: str, sheet: Sheet) -> Weapon:
    if "weapon" not in spec:
        return sheet.weapon
    value = spec["weapon"]
    weapons = rules().weapons
    if isinstance(value, str):
        return weapons[choice(value, f"{where}.weapon", sorted(weapons))]
    try:
        return parse_weapon("inline", value, f"{where}.weapon")
    except MystDataError as exc:
        raise ScenarioError(str(exc)) from None


#: The situation keys whose default is a fact of the sheets, as the battle reads them
#: (`game.rules.myst.round.situation`): the attacker's two-handed grip, a charge after the
#: run-up walked, the target's second defence this round (docs/query.md, "Myst").
SHEET_FACTS = ("charge", "two_handed", "second_defence")


def _situation(
    spec: Mapping[str, object], where: str
) -> tuple[combat.Situation, int | None, frozenset[str]]:
    """The query's situation as given (an absent flag False), its `run_up` and which of the
    SHEET_FACTS it names itself (`with_sheet_facts` fills in the others)."""
    raw = as_object(spec.get("situation", {}), f"{where}.situation", SITUATION_KEYS)
    w = f"{where}.situation"

    def flag(key: str) -> bool:
        return as_bool(raw.get(key, False), f"{w}.{key}")

    def maybe(key: str) -> bool | None:
        return None if key not in raw else as_bool(raw[key], f"{w}.{key}")

    def option(key: str, options: tuple[str, ...]) -> str | None:
        return None if key not in raw else choice(raw[key], f"{w}.{key}", options)

    run_up = as_int(raw["run_up"], f"{w}.run_up", low=0, high=1000) if "run_up" in raw else None
    situation = combat.Situation(
        mounted=maybe("mounted"),
        target_mounted=maybe("target_mounted"),
        gait=option("gait", combat.GAITS) or "still",
        charge=flag("charge"),
        closed_defence=flag("closed_defence"),
        counter=option("counter", combat.COUNTERS),
        obstruction=option("obstruction", combat.OBSTRUCTIONS) or "partial",
        penalty=as_int(raw["penalty"], f"{w}.penalty", low=0, high=100)
        if "penalty" in raw
        else None,
        aimed=option("aimed", combat.AIMS),
        shield_off_side=flag("shield_off_side"),
        two_handed=flag("two_handed"),
        second_defence=flag("second_defence"),
    )
    return situation, run_up, frozenset(k for k in (*SHEET_FACTS, "gait") if k in raw)


def sheet_facts(
    data: MystRules, attacker: Sheet, target: Sheet, run_up: int | None, mounted: bool | None
) -> combat.Situation:
    """What the battle would count from the two sheets (`game.rules.myst.round.situation`, the
    one function both use): a charge after the run-up walked (the query's `run_up` cells, else
    the sheet's own count, 0 outside a battle journal; not mounted: the query's `mounted` when
    it names it), the attacker's two-handed grip (only when `attacker.weapon` can be held so: a
    query's other weapon may not) and the target's second defence this round."""
    walked = attacker.run_up if run_up is None else run_up
    riding = attacker.mounted if mounted is None else mounted
    sheet = replace(attacker, run_up=walked, mounted=riding)
    facts = state.situation(data, sheet, target)
    if facts.two_handed and not _grippable(attacker.weapon):
        facts = replace(facts, two_handed=False)
    return facts


def sheet_gait(attacker: Sheet, target: Sheet, situation: combat.Situation) -> str:
    """The gait the battle fights an exchange at, from the sheets' `gait` (and the query's
    `mounted` / `target_mounted` when named): a rider's own, the faster of two riders', on foot
    against a rider the rider's (002:l.152, mounted.exchange_gait); nobody riding: "still"."""
    a = replace(attacker, mounted=situation.mounted) if situation.mounted is not None else attacker
    t = target
    if situation.target_mounted is not None:
        t = replace(target, mounted=situation.target_mounted)
    return mounted.exchange_gait(a, t) if a.mounted or t.mounted else "still"


def _grippable(weapon: Weapon) -> bool:
    try:
        combat.check_two_handed(weapon)
    except combat.MystInputError:
        return False
    return True


def with_sheet_facts(
    situation: combat.Situation, given: frozenset[str], facts: combat.Situation
) -> combat.Situation:
    """The query's situation with every SHEET_FACTS flag it does not name taken from `facts`:
    a flag the query names is the GM's word and wins (RULESETS.md section 4 keeps them)."""
    taken = {k: getattr(facts, k) for k in SHEET_FACTS if k not in given}
    return replace(situation, **taken)


def _no_attack(reason: str, rule_ids: list[str], why: str, **extra: object) -> Json:
    return {"chance": None, "reason": reason, **extra, "rules": rule_ids, "why": why}


def in_line(bf: Battlefield, attacker: EntitySheet, target: EntitySheet) -> list[str]:
    """M-1: every entity whose cell the centre-to-centre line enters, nearest first."""
    found: list[str] = []
    for cell in cells_entered(attacker.cell, target.cell):
        found.extend(o.id for o in bf.occupancy.all_at(cell))
    return found


def _attack(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    data = rules()
    attacker = entity_arg(bf, spec, "attacker", where)
    target = entity_arg(bf, spec, "target", where)
    a_sheet, t_sheet = sheet_of(attacker), sheet_of(target)
    weapon = _weapon(spec, where, a_sheet)
    a_sheet = replace(a_sheet, weapon=weapon)
    situation, run_up, given = _situation(spec, where)
    if situation.two_handed:
        try:
            combat.check_two_handed(weapon)
        except combat.MystInputError as exc:
            fail(f"{where}.situation.two_handed", str(exc))
    if situation.counter is None:  # a counter-move is a brawl: no grip, no charge (l.91-109)
        facts = sheet_facts(data, a_sheet, t_sheet, run_up, situation.mounted)
        situation = with_sheet_facts(situation, given, facts)
    if "gait" not in given:
        situation = replace(situation, gait=sheet_gait(a_sheet, t_sheet, situation))
    if attacker.id == target.id:
        return _no_attack("self_target", [], "nobody attacks itself")
    if a_sheet.out:
        return _no_attack("out_of_fight", ["M-2"], f"{attacker.id} has no Status Globale left")
    distance = chebyshev(attacker.cell, target.cell)
    melee = weapon.melee or situation.counter is not None
    if melee and distance > data.melee_cells:
        return _no_attack(
            "out_of_reach",
            ["M-2", "G-4"],
            f"a melee attack reaches {data.melee_cells} cell(s); {target.id} is {distance} away",
        )
    if (
        situation.charge
        and run_up is not None
        and not combat.charge_run_up_ok(data, run_up, CELL_METRES)
    ):
        return _no_attack(
            "short_run_up",
            ["M-1"],
            f"a charge needs a run-up of {data.run_up_metres} m; {run_up} cells is "
            f"{run_up * CELL_METRES:g} m",
        )
    los = explain_line_of_sight(bf.grid, attacker.cell, target.cell)
    if not los.clear:
        return _no_attack("no_los", list(los.rules), f"terrain blocks the line at {los.blocked_by}")
    line = [] if melee else in_line(bf, attacker, target)
    if line and situation.obstruction == "total":
        return _no_attack(
            "line_blocked",
            ["M-1"],
            "the GM rules the line of fire totally obstructed by " + ", ".join(line),
            in_line=line,
        )
    result = combat.exchange(data, a_sheet, t_sheet, situation, in_line=len(line))
    strays = combat.strays(data, situation.obstruction, result.chance, len(line))
    rule_ids = list(dict.fromkeys([*result.rules, *los.rules, *(["M-1"] if line else [])]))
    out: Json = {
        "attack": result.attack,
        "defence": result.defence,
        "modifiers": {m.code: m.value for m in result.modifiers},
        "chance": fraction_text(result.chance),
        "chance_defence": fraction_text(result.chance_defence),
        "in_line": line,
        "stray": {name: fraction_text(p) for name, p in zip(line, strays.each, strict=True)},
        "stray_none": fraction_text(strays.none),
        "obstruction": situation.obstruction if line else "none",
        "situation": {k: getattr(situation, k) for k in SHEET_FACTS},
        "rules": rule_ids,
        "why": _attack_why(data, result, line, situation, given),
    }
    if "dice" in spec:
        out["result"] = _result(spec, where, data, result, situation, melee, line)
    return out


def _attack_why(
    data: MystRules,
    result: combat.Exchange,
    line: list[str],
    situation: combat.Situation,
    given: frozenset[str],
) -> str:
    parts = [f"attack {result.attack} + 3d10 against defence {result.defence} + 3d10 (M-1)"]
    parts += [f"{m.code} {m.value:+d}" for m in result.modifiers]
    source = {k: "as asked" if k in given else "from the sheets" for k in SHEET_FACTS}
    if situation.charge:
        parts.append(
            f"charge ({source['charge']}): Strength cap +{data.cap_charge}, a won defence "
            f"+{data.charge_defence_bonus} margin (002:l.193)"
        )
    if situation.two_handed:
        parts.append(
            f"two-handed grip ({source['two_handed']}): Strength cap +{data.cap_two_handed} "
            "(002:l.234)"
        )
    if situation.gait in ("canter", "gallop"):
        said = "as asked" if "gait" in given else "from the sheets"
        parts.append(
            f"at a {situation.gait} ({said}): a rider fights with the lower of its skill and "
            "Cavalcare (002:l.136, 143, 152)"
        )
    if line:
        parts.append(
            f"in the line of fire, nearest first: {', '.join(line)} "
            f"({situation.obstruction} obstruction; 33/100 each when the shot strays)"
        )
    return "; ".join(parts)


def _faces(value: object, where: str) -> list[int]:
    items = enumerate(as_list(value, where))
    return [as_int(v, f"{where}[{i}]", low=1, high=100) for i, v in items]


def _result(
    spec: Mapping[str, object],
    where: str,
    data: MystRules,
    result: combat.Exchange,
    situation: combat.Situation,
    melee: bool,
    line: list[str],
) -> Json:
    dice = as_object(spec["dice"], f"{where}.dice", ("attack", "defence", "stray"))
    for key in ("attack", "defence"):
        if key not in dice:
            fail(f"{where}.dice.{key}", "missing (three d10 faces)")
    try:
        done = combat.resolve(
            data,
            result.attack,
            result.defence,
            _faces(dice["attack"], f"{where}.dice.attack"),
            _faces(dice["defence"], f"{where}.dice.defence"),
            situation,
            melee=melee,
        )
    except combat.MystInputError as exc:
        fail(f"{where}.dice", str(exc))
    out: Json = {
        "attack_total": done.attack_total,
        "defence_total": done.defence_total,
        "winner": done.winner,
        "margin": done.margin,
        "defence_options": list(done.defence_options),
        "defence_units": done.defence_units,
        "penalty": done.penalty,
        "knocked_down": done.knocked_down,
        "double_one": done.double_one,
    }
    if line and "stray" in dice:
        strays = situation.obstruction == "partial" and done.winner != "attack"
        strays = strays or (situation.obstruction == "slight" and done.double_one)
        victim = None
        if strays:
            try:
                index = combat.stray_victim(
                    data, _faces(dice["stray"], f"{where}.dice.stray"), len(line)
                )
            except combat.MystInputError as exc:
                fail(f"{where}.dice.stray", str(exc))
            victim = None if index is None else line[index]
        out["stray_hit"] = victim
    return out


def _damage(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    data = rules()
    attacker = entity_arg(bf, spec, "attacker", where)
    a_sheet = sheet_of(attacker)
    weapon = _weapon(spec, where, a_sheet)
    for key in ("margin", "rolled"):
        if key not in spec:
            fail(f"{where}.{key}", "missing")
    margin = as_int(spec["margin"], f"{where}.margin", low=0, high=1000)
    rolled = as_int(spec["rolled"], f"{where}.rolled", low=0, high=1000)
    spend_keys = ("strength", "minimum", "reduce")
    raw_spend = as_object(spec.get("spend", {}), f"{where}.spend", spend_keys)
    spend = combat.Spend(
        **{k: as_int(v, f"{where}.spend.{k}", low=0, high=200) for k, v in raw_spend.items()}
    )
    sit = as_object(
        spec.get("situation", {}),
        f"{where}.situation",
        ("two_handed", "charge", "run_up", "gallop", "stray", "counter"),
    )
    flags = {
        k: as_bool(sit.get(k, False), f"{where}.situation.{k}")
        for k in ("two_handed", "charge", "gallop", "stray")
    }
    w = f"{where}.situation.run_up"
    run_up = as_int(sit["run_up"], w, low=0, high=1000) if "run_up" in sit else None
    if "counter" in sit:
        # 002:l.91: a punch or kick does 1, plus Strength by the normal rules.
        choice(sit["counter"], f"{where}.situation.counter", ("punch",))
        weapon = data.weapons["pugno"]
    elif not flags["stray"]:
        # The grip and the charge the battle would count (the attack query's defaults), unless
        # the query names them; a stray hit spends no margin, so nothing raises its cap.
        # (The target's sheet decides only a second defence, which damage does not read.)
        # A gallop is a rider's charge (002:l.140-145): no charge on foot on top of it.
        if "gallop" not in sit:  # the sheet's gallop, as the battle's cap (002:l.142)
            flags["gallop"] = mounted.gallop_cap(a_sheet, melee=weapon.melee)
        riding = True if flags["gallop"] else None
        facts = sheet_facts(data, replace(a_sheet, weapon=weapon), a_sheet, run_up, riding)
        for key in ("two_handed", "charge"):
            if key not in sit:
                flags[key] = getattr(facts, key)
    try:
        done = combat.spend_margin(data, margin, rolled, spend, a_sheet.strength, weapon, **flags)
    except combat.MystInputError as exc:
        return {"error": f"{where}: {exc}"}
    out: Json = {
        "units": done.units,
        "strength_cap": done.strength_cap,
        "strength_bonus": done.strength_bonus,
        "minimum": done.minimum,
        "die": done.die,
        "damage": done.damage,
        # What makes the cap (the table's bonus, +1 two-handed, +2 charge, +3 gallop, M-1).
        "cap_parts": {n.code: n.value for n in done.notes},
    }
    if "target" in spec:
        target = entity_arg(bf, spec, "target", where)
        left, out_now = combat.apply_damage(sheet_of(target).status, done.damage)
        out["status"] = left
        out["out"] = out_now
    out["rules"] = ["M-1", "M-2"] if "target" in spec else ["M-1"]
    out["why"] = (
        f"margin {margin}: {done.units} unit(s) of {data.margin_unit}; Strength cap "
        f"{done.strength_cap}, bonus {done.strength_bonus:+d}; die {rolled} -> {done.die} "
        f"(minimum {done.minimum}, reduced {spend.reduce}); damage {done.damage}"
    )
    return out


def _initiative(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    data = rules()
    if "rolls" not in spec:
        fail(f"{where}.rolls", "missing ({entity id: 1d10 result})")
    rolls: dict[str, int] = {}
    for entity_id, value in as_object(spec["rolls"], f"{where}.rolls").items():
        if entity_id not in bf.by_id:
            fail(f"{where}.rolls", f"no entity {entity_id!r} (known: {', '.join(bf.by_id)})")
        rolls[entity_id] = as_int(
            value, f"{where}.rolls[{entity_id!r}]", low=1, high=data.priority_die
        )
    priorities = {e: sheet_of(bf.by_id[e]).priority for e in rolls}
    done = combat.priority_order(priorities, rolls, data.priority_die)
    return {
        "order": list(done.order),
        "scores": dict(done.scores),
        "simultaneous": [list(g) for g in done.simultaneous],
        "rules": ["M-2"],
        "why": "; ".join(
            f"{e}: priority {priorities[e]} + 1d10 {rolls[e]} = {done.scores[e]}"
            for e in done.order
        ),
    }


QUERIES: Mapping[str, Query] = MappingProxyType(
    {
        "attack": Query(_attack, ("attacker", "target", "weapon", "situation", "dice")),
        "damage": Query(
            _damage, ("attacker", "margin", "rolled", "spend", "situation", "target", "weapon")
        ),
        "initiative": Query(_initiative, ("rolls",)),
    }
)


class Myst:
    """The ruleset object of seed 002."""

    id = "myst"
    entity_fields = ("sheet",)
    queries = QUERIES
    battle: BattleRules | None = BATTLE

    def read_entity(
        self, spec: Mapping[str, object], where: str, base: EntitySheet, rules: RulesData
    ) -> EntitySheet:
        return read_entity(spec, where, base, rules)

    def unit_fields(
        self, template: str | None, weapon: str | None, armour: str | None
    ) -> dict[str, object]:
        return unit_fields(template, weapon, armour)


RULESET = Myst()
