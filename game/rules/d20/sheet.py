"""A d20 entity's sheet (RULESETS.md section 4 keys, D-2's base), from a scenario or a sample."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Final

from game.rules.d20.data import WEAPON_KINDS, D20Data, Weapon
from game.rules.exact import DiceError, parse
from game.rules.reader import as_bool, as_int, as_list, as_object, as_str, choice, fail

#: The seed's conditions by the section-4 Italian names, attacker's (004:l.9-17) then
#: defender's (l.27-40); "spaventato" shares the row "Scosso o spaventato" (l.17). Prone and
#: kneeling are stances (the shared `stance` field, D-3: crouched = kneeling); flanking, higher
#: ground and cover come from the grid.
CONDITIONS: Final = (
    "abbagliato",
    "intralciato",
    "invisibile",
    "ristretto",
    "scosso",
    "spaventato",
    "accecato",
    "colto_alla_sprovvista",
    "immobilizzato",
    "in_lotta",
    "indifeso",
    "stordito",
    "tremante",
)

#: The weapon of a sheet that names none (RULESETS.md section 4: "weapon melee").
BARE_HANDED: Final = Weapon("melee", "melee", "melee")

#: The keys of a scenario's `sheet` object; every one is optional.
SHEET_FIELDS: Final = (
    "template",
    "attack",
    "ac",
    "dex_ac",
    "dex",
    "reach",
    "hit_points",
    "max_hit_points",
    "speed",
    "weapon",
    "conditions",
    "crit_immune",
    "fortitude",
)


@dataclass(frozen=True)
class Sheet:
    """What the d20 rules read of one entity (D-2: all of it is sheet data)."""

    attack_melee: int = 0
    attack_ranged: int = 0
    #: The whole Armour Class, the Dex bonus `dex_ac` included.
    ac: int = 10
    dex_ac: int = 0
    #: The Dex modifier (initiative, D-2).
    dex: int = 0
    reach: int = 1
    hit_points: int = 10
    speed: int = 6
    weapon: Weapon = BARE_HANDED
    conditions: frozenset[str] = frozenset()
    #: Immune to critical hits: no coup de grâce (004:l.120).
    crit_immune: bool = False
    #: The sample sheet it started from, if any.
    template: str | None = None
    #: Dying but stable (D-2: the 10 % a round came up): it loses no more hit points until
    #: it is hurt again.
    stable: bool = False
    #: In a battle, before the unit's first turn: flat-footed (004:l.29, the 3.5 SRD's "before
    #: your first regular turn in the initiative order", assumed in D-2's base); the battle
    #: sets it as the unit joins and its first turn clears it. Never set by a scenario.
    before_first_turn: bool = False
    #: The Fortitude save bonus (the coup de grâce's save, 004:l.116); the seed and D-2 give
    #: none: ASSUMED sheet data, base.toml's [coup_de_grace] fortitude when a sheet has none.
    fortitude: int = 0
    # ---- added later: written in a battle's state only when not at its default (game/ecs/
    # components.py OMIT_DEFAULT), so that older d20 journals keep their state hashes.
    #: The full hit points when they are not those of its start (`max_hit_points`): stated by
    #: the scenario (`max_hit_points`), or a scenario's `hit_points` over a sample's or the
    #: bare sheet's; None: the sample's (or the bare sheet's) own.
    hit_points_max: int | None = field(default=None, metadata={"omit_default": True})

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    def attack_bonus(self, melee: bool) -> int:
        return self.attack_melee if melee else self.attack_ranged


def bare_sheet(data: D20Data) -> Sheet:
    """The sheet of an entity that gives no key: base.toml's AC and hit points, no bonuses."""
    base = data.base
    return Sheet(
        ac=base.sheet_ac,
        hit_points=base.sheet_hit_points,
        speed=base.speed,
        reach=base.reach,
        fortitude=base.fortitude,
    )


def sample_sheet(data: D20Data, template: str, where: str) -> Sheet:
    """The sample sheet `template` of sheets.toml, or a ScenarioError listing the known ones."""
    if template not in data.sheets:
        fail(where, f"unknown d20 sample sheet {template!r} (known: {', '.join(data.sheets)})")
    s = data.sheets[template]
    return Sheet(
        attack_melee=s.attack_melee,
        attack_ranged=s.attack_ranged,
        ac=s.ac,
        dex_ac=s.dex_ac,
        dex=s.dex,
        reach=s.reach,
        hit_points=s.hit_points,
        speed=s.speed,
        weapon=data.weapons[s.weapon],
        template=template,
        fortitude=data.base.fortitude,
    )


def max_hit_points(data: D20Data, sheet: Sheet) -> int:
    """The sheet's full hit points (issue 16, the unit card's "8 of 12"; a heal never goes
    above them, the 3.5 SRD's): the ones it states, else its sample's, else the bare sheet's."""
    if sheet.hit_points_max is not None:
        return sheet.hit_points_max
    return _natural_max(data, sheet.template)


def _natural_max(data: D20Data, template: str | None) -> int:
    """The full hit points a sheet has without stating them: its sample's, or base.toml's."""
    if template is not None and template in data.sheets:
        return data.sheets[template].hit_points
    return data.base.sheet_hit_points


def read_weapon(value: object, where: str, data: D20Data) -> Weapon:
    """A weapon as a sheet or a query gives it: a kind ("melee", "ranged", "crossbow", ...), an
    id of weapons.toml, or an object {"kind", "damage"?, "name"?}."""
    if isinstance(value, str):
        if value in WEAPON_KINDS:
            return Weapon(value, value, value)
        if value in data.weapons:
            return data.weapons[value]
        fail(
            where,
            f"unknown weapon {value!r} (a kind: {', '.join(WEAPON_KINDS)}; "
            f"or an id: {', '.join(data.weapons)})",
        )
    spec = as_object(value, where, ("kind", "damage", "name"))
    if "kind" not in spec:
        fail(f"{where}.kind", f"missing ({', '.join(WEAPON_KINDS)})")
    kind = choice(spec["kind"], f"{where}.kind", WEAPON_KINDS)
    damage = None
    if "damage" in spec:
        damage = as_str(spec["damage"], f"{where}.damage")
        try:
            parse(damage)
        except DiceError as exc:
            fail(f"{where}.damage", str(exc))
    name = as_str(spec["name"], f"{where}.name") if "name" in spec else kind
    return Weapon(name, name, kind, damage)


def read_sheet(value: object, where: str, data: D20Data) -> Sheet:
    """A scenario's `sheet`: a sample sheet id, or an object of SHEET_FIELDS (over the sample
    named by `template`, else over the bare sheet); unknown keys are refused by name."""
    if isinstance(value, str):
        return sample_sheet(data, value, where)
    spec: Mapping[str, object] = as_object(value, where, SHEET_FIELDS)
    sheet = (
        sample_sheet(data, as_str(spec["template"], f"{where}.template"), f"{where}.template")
        if "template" in spec
        else bare_sheet(data)
    )
    changes: dict[str, object] = {}
    if "attack" in spec:
        attack = as_object(spec["attack"], f"{where}.attack", ("melee", "ranged"))
        if "melee" in attack:
            changes["attack_melee"] = as_int(attack["melee"], f"{where}.attack.melee", -50, 100)
        if "ranged" in attack:
            changes["attack_ranged"] = as_int(attack["ranged"], f"{where}.attack.ranged", -50, 100)
    for key, low, high in (
        ("ac", -50, 200),
        ("dex_ac", -5, 50),
        ("dex", -5, 50),
        ("reach", 0, 20),
        ("hit_points", -10, 10_000),
        ("speed", 0, 100),
        ("fortitude", -20, 100),
    ):
        if key in spec:
            changes[key] = as_int(spec[key], f"{where}.{key}", low, high)
    if "dex_ac" in changes and "dex" not in changes and "template" not in spec:
        changes["dex"] = changes["dex_ac"]  # the Dex modifier is the Dex bonus unless told
    if "weapon" in spec:
        changes["weapon"] = read_weapon(spec["weapon"], f"{where}.weapon", data)
    if "conditions" in spec:
        names = as_list(spec["conditions"], f"{where}.conditions")
        changes["conditions"] = frozenset(
            choice(c, f"{where}.conditions[{i}]", CONDITIONS) for i, c in enumerate(names)
        )
    if "crit_immune" in spec:
        changes["crit_immune"] = as_bool(spec["crit_immune"], f"{where}.crit_immune")
    read = replace(sheet, **changes)  # type: ignore[arg-type]
    # The full hit points: stated, else the hit points it starts with (a wounded start says
    # both), else, starting at 0 or below, its sample's; kept on the sheet only when they are
    # not its sample's (or the bare sheet's), so a sample's journal keeps its state hash.
    natural = _natural_max(data, read.template)
    most = read.hit_points if read.hit_points >= 1 else natural
    if "max_hit_points" in spec:
        most = as_int(spec["max_hit_points"], f"{where}.max_hit_points", 1, 10_000)
        if read.hit_points > most:
            fail(
                f"{where}.hit_points",
                f"{read.hit_points} hit points are more than max_hit_points {most}",
            )
    if most != natural:
        read = replace(read, hit_points_max=most)
    return read
