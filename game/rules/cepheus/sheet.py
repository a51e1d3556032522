"""A Cepheus sheet (RULESETS.md section 4): characteristics, DMs, skills, weapon and armour."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from game.rules.cepheus.tempo import Tempo
from game.rules.reader import ScenarioError, as_bool, as_int, as_object, as_str, choice, fail

#: The physical characteristics, in the order damage reaches them (C-5: END first).
CHARS = ("end", "str", "dex")
#: The skills the seed's chapter names (000:l.130-134, 283, 345-349, 398); others are refused.
SKILLS = ("armi da fuoco", "atletica", "comando", "g-zero", "medico", "mischia", "tattica")
SHEET_KEYS = ("chars", "max", "dm", "skills", "weapon", "armour")
WEAPON_KEYS = (
    "type", "damage", "recoil", "laser", "name", "sample", "auto", "laser_sight", "blast",
    "magazine",
)  # fmt: skip
#: The most rounds a magazine may hold (a typing error beyond).
MAX_MAGAZINE = 500
#: The farthest a weapon's explosion reaches, in cells around where it goes off (sample data).
MAX_BLAST = 10
#: Which check a weapon kind attacks with (000:l.130-134, C-1).
KINDS = ("melee", "thrown", "firearm")
_DAMAGE = re.compile(r"^([1-9]\d?)d6(?:([+-])(\d{1,2}))?$")
#: Characteristics, skills and DMs beyond these are typing errors, not characters.
MAX_CHAR = 30
MAX_SKILL = 15
MAX_ARMOUR = 100


class MissingCharacteristic(ValueError):
    """A rule needs a characteristic the sheet does not give; the message names the key."""


@dataclass(frozen=True)
class Weapon:
    """A weapon: its type in the difficulty table (000:l.45-56) and its damage dice."""

    type: str
    kind: str
    dice: int
    bonus: int = 0
    recoil: bool = False
    laser: bool = False
    name: str = ""
    #: Automatic fire: the rounds of its burst (000:l.245-256), 0 for none.
    auto: int = 0
    #: A laser sight: +1 when aiming (000:l.144).
    laser_sight: bool = False
    #: An explosive (000:l.271-273, 353): the cells around where it goes off that it reaches
    #: (G-4), 0 for a weapon that hits only its target. The seed gives no radius: sample data.
    blast: int = 0
    #: The rounds a full magazine holds (000:l.99; the seed gives none: sample data), 0 for a
    #: weapon whose ammunition is not counted (melee, thrown).
    magazine: int = 0

    @property
    def damage(self) -> str:
        """The damage as written: "3d6", "3d6-3"."""
        return f"{self.dice}d6" + (f"{self.bonus:+d}" if self.bonus else "")

    @property
    def ranged(self) -> bool:
        return self.kind != "melee"


@dataclass(frozen=True)
class Sheet:
    """A combatant's Cepheus sheet. `chars` holds only the characteristics given (a rule that
    needs a missing one raises MissingCharacteristic); `maximum` defaults to `chars`."""

    chars: Mapping[str, int] = field(default_factory=dict)
    maximum: Mapping[str, int] = field(default_factory=dict)
    dm: Mapping[str, int] = field(default_factory=dict)
    skills: Mapping[str, int] = field(default_factory=dict)
    weapon: Weapon | None = None
    armour: int = 0
    #: Knocked out in the battle (two characteristics at 0, 000:l.357, 367): it stays
    #: unconscious whatever first aid gives back (l.398 restores points, it does not wake);
    #: only an END check after a minute wakes it (l.380), which the battle does not roll.
    unconscious: bool = False
    #: The unit's state within the battle's round (aim, reactions, hasty, fire mode: C-1, C-4).
    tempo: Tempo = field(default_factory=Tempo)
    #: Rounds fired from the weapon's magazine since it was last loaded (rules/cepheus/ammo.py).
    spent: int = 0

    def char(self, name: str) -> int:
        """A current characteristic, or MissingCharacteristic naming `sheet.chars.<name>`."""
        if name not in self.chars:
            raise MissingCharacteristic(f"sheet.chars.{name} is missing (a number is needed)")
        return self.chars[name]

    def max_of(self, name: str) -> int:
        return self.maximum.get(name, self.char(name))

    def skill(self, name: str) -> int:
        """A skill level; a skill the sheet does not list is 0 (RULESETS.md section 4)."""
        return self.skills.get(name, 0)

    def char_dm(self, name: str) -> int:
        return self.dm.get(name, 0)


def parse_damage(value: object, where: str) -> tuple[int, int]:
    """ "Nd6" or "Nd6+k" / "Nd6-k" (the seed's damage is a number of d6, 000:l.357)."""
    text = as_str(value, where).replace(" ", "").lower()
    match = _DAMAGE.match(text)
    if match is None:
        fail(where, f'expected damage dice such as "3d6" or "3d6-3", got {value!r}')
    bonus = int(match.group(3) or 0) * (-1 if match.group(2) == "-" else 1)
    return int(match.group(1)), bonus


def parse_weapon(value: object, where: str, types: Mapping[str, str]) -> Weapon:
    """An inline weapon object; `types` maps each weapon type to its kind (melee, ...)."""
    spec = as_object(value, where, WEAPON_KEYS)
    if "type" not in spec:
        fail(f"{where}.type", "missing (one of: " + ", ".join(types) + ")")
    weapon_type = choice(spec["type"], f"{where}.type", types)
    if "damage" not in spec:
        fail(f"{where}.damage", 'missing (e.g. "3d6")')
    dice, bonus = parse_damage(spec["damage"], f"{where}.damage")
    if "sample" in spec:
        as_bool(spec["sample"], f"{where}.sample")
    return Weapon(
        type=weapon_type,
        kind=types[weapon_type],
        dice=dice,
        bonus=bonus,
        recoil=as_bool(spec.get("recoil", False), f"{where}.recoil"),
        laser=as_bool(spec.get("laser", False), f"{where}.laser"),
        name=as_str(spec["name"], f"{where}.name") if "name" in spec else "",
        auto=as_int(spec.get("auto", 0), f"{where}.auto", low=0, high=100),
        laser_sight=as_bool(spec.get("laser_sight", False), f"{where}.laser_sight"),
        blast=as_int(spec.get("blast", 0), f"{where}.blast", low=0, high=MAX_BLAST),
        magazine=as_int(spec.get("magazine", 0), f"{where}.magazine", low=0, high=MAX_MAGAZINE),
    )


def weapon_ref(
    value: object, where: str, types: Mapping[str, str], library: Mapping[str, Weapon]
) -> Weapon:
    """A weapon by id from the sample weapons, or an inline object."""
    if isinstance(value, str):
        if value not in library:
            fail(where, f"unknown weapon id {value!r} (known: {', '.join(sorted(library))})")
        return library[value]
    return parse_weapon(value, where, types)


def _numbers(
    value: object, where: str, keys: tuple[str, ...], low: int, high: int
) -> dict[str, int]:
    spec = as_object(value, where, keys)
    return {k: as_int(v, f"{where}.{k}", low=low, high=high) for k, v in spec.items()}


def parse_sheet(
    value: object,
    where: str,
    types: Mapping[str, str],
    library: Mapping[str, Weapon],
    default_weapon: Weapon | None,
) -> Sheet:
    """A `sheet` object; unknown keys, skills and characteristics are refused by name."""
    spec = as_object(value, where, SHEET_KEYS)
    chars = _numbers(spec.get("chars", {}), f"{where}.chars", CHARS, 0, MAX_CHAR)
    maximum = _numbers(spec.get("max", {}), f"{where}.max", CHARS, 1, MAX_CHAR)
    for name, top in maximum.items():
        chars.setdefault(name, top)  # a maximum alone is an uninjured characteristic
    for name, now in chars.items():
        if now > maximum.setdefault(name, max(now, 1)):
            fail(f"{where}.chars.{name}", f"{now} is above its maximum {maximum[name]}")
    dm = _numbers(spec.get("dm", {}), f"{where}.dm", CHARS, -MAX_CHAR, MAX_CHAR)
    skills = _numbers(spec.get("skills", {}), f"{where}.skills", SKILLS, 0, MAX_SKILL)
    weapon = (
        weapon_ref(spec["weapon"], f"{where}.weapon", types, library)
        if "weapon" in spec
        else default_weapon
    )
    armour = as_int(spec.get("armour", 0), f"{where}.armour", low=0, high=MAX_ARMOUR)
    return Sheet(
        chars=MappingProxyType(chars),
        maximum=MappingProxyType(maximum),
        dm=MappingProxyType(dm),
        skills=MappingProxyType(skills),
        weapon=weapon,
        armour=armour,
    )


__all__ = ["ScenarioError", "Sheet", "Weapon", "parse_sheet", "parse_weapon", "weapon_ref"]
