"""The fantasy system's data (seed 003 numbers, F-3's assumed tables) and sheets, validated."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Final

from game.rules import exact, registry
from game.rules.fantasy.dice import LADDER

DIRECTORY: Final = registry.DATA / "fantasy"
WEAPON_KINDS: Final = ("melee", "ranged")
DEFENCE_CHARACTERISTICS: Final = ("agi", "des")  # 003:l.75 "AGI o DES"
#: The scenario `sheet` keys (RULESETS.md section 4, plus `sample` and `movement`).
SHEET_KEYS: Final = (
    "sample",
    "agi",
    "des",
    "pot",
    "pre",
    "skills",
    "defences",
    "weapon",
    "vpb",
    "shield",
    "armour",
    "body",
    "body_lost",
    "movement",
)
WEAPON_KEYS: Final = ("name", "kind", "skill", "damage", "cad")


class FantasyDataError(ValueError):
    """Bad fantasy data or sheet; the message names the file or place and the field."""


def _fail(where: str, problem: str) -> FantasyDataError:
    return FantasyDataError(f"{where}: {problem}")


def _known(raw: object, where: str, keys: tuple[str, ...] | None = None) -> Mapping[str, object]:
    if not isinstance(raw, dict):
        raise _fail(where, f"expected an object, got {type(raw).__name__}")
    for key in raw if keys is not None else ():
        if key not in keys:  # type: ignore[operator]
            raise _fail(where, f"unknown field {key!r} (known: {', '.join(sorted(keys))})")  # type: ignore[arg-type]
    return raw


def _int(value: object, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(where, f"expected a whole number, got {value!r}")
    if not low <= value <= high:
        raise _fail(where, f"{value} is outside {low}..{high}")
    return value


def _str(value: object, where: str, options: tuple[str, ...] = ()) -> str:
    if not isinstance(value, str) or not value:
        raise _fail(where, f"expected a non-empty string, got {value!r}")
    if options and value not in options:
        raise _fail(where, f"unknown value {value!r} (expected one of: {', '.join(options)})")
    return value


def die(value: object, where: str) -> str:
    """A die of the ladder (F-1): "none", "d4" .. "d12"."""
    return _str(value, where, LADDER)


@dataclass(frozen=True)
class Weapon:
    name: str
    kind: str = "melee"
    #: The combat skill it uses (003:l.75); None or a skill the sheet lacks: the
    #: characteristic alone (003:l.79, 84).
    skill: str | None = None
    damage: str = "1d3"
    #: Cadenza di tiro: turns to reload and shoot again (003:l.140).
    cad: int = 1
    #: The data id of a sample weapon (the `id` of its table in sheets.toml, rules.toml's
    #: [defaults]): game/text/names.py gives its display name; "" for a scenario's own weapon,
    #: named by `name`.
    id: str = ""

    @property
    def melee(self) -> bool:
        return self.kind == "melee"


def parse_weapon(raw: object, where: str) -> Weapon:
    spec = _known(raw, where, WEAPON_KEYS)
    damage = _str(spec.get("damage", "1d3"), f"{where}.damage")
    try:
        exact.distribution(exact.parse(damage))
    except exact.DiceError as exc:
        raise _fail(f"{where}.damage", str(exc)) from None
    return Weapon(
        name=_str(spec.get("name", "weapon"), f"{where}.name"),
        kind=_str(spec.get("kind", "melee"), f"{where}.kind", WEAPON_KINDS),
        skill=_str(spec["skill"], f"{where}.skill") if "skill" in spec else None,
        damage=damage,
        cad=_int(spec.get("cad", 1), f"{where}.cad", 1, 10),
    )


@dataclass(frozen=True)
class Sheet:
    """One fighter (003): characteristic and skill dice, defences, weapon, protection, body."""

    agi: str
    des: str
    pot: str
    pre: str
    weapon: Weapon
    skills: Mapping[str, str] = field(default_factory=dict)
    defences: tuple[tuple[str, str], ...] = ()
    vpb: int = 8
    shield: int = 0
    armour: Mapping[str, int] = field(default_factory=dict)
    body: Mapping[str, int] = field(default_factory=dict)
    body_lost: int = 0
    movement: int = 6
    sample: str | None = None
    #: Turns of "Preparare l'Arma" the weapon still needs before it fires again: a CAD n
    #: weapon just fired needs n - 1 (003:l.140); the battle's state, not a sheet key.
    reload: int = 0
    #: Attacks defended since its own turn last began, melee (003:l.160-164: the next one is
    #: defended with the next defence skill, then AGI one die lower per attacker beyond the
    #: first) and whether a ranged one was (003:l.165: only one a turn); the battle's state.
    defended: int = 0
    ranged_defended: bool = False

    @property
    def dp(self) -> int:
        """003:l.76: Difficoltà di Protezione = VPB + the protections' VP (the shield)."""
        return self.vpb + self.shield

    @property
    def body_total(self) -> int:
        return sum(self.body.values())

    @property
    def dead(self) -> bool:
        """003:l.184: all body points lost."""
        return self.body_lost >= self.body_total


@dataclass(frozen=True)
class FantasyRules:
    vpb_human: int
    critical_multiple: int
    critical_failure_divisor: int
    movement: int
    #: (location, highest d100) in table order (F-3, assumed).
    locations: tuple[tuple[str, int], ...]
    sections: tuple[str, ...]
    penalties: Mapping[str, int]
    boxes: Mapping[str, int]
    cover_dp: Mapping[str, int]
    ranged_defence_skills: tuple[str, ...]
    ambidextrous: str
    defaults: Sheet
    samples: Mapping[str, Sheet]
    templates: Mapping[str, str]

    def location(self, roll: int) -> str:
        """The body part a d100 result hits (F-3's assumed table)."""
        if not 1 <= roll <= 100:
            raise ValueError(f"location roll {roll} is not a d100 result 1..100")
        return next(name for name, top in self.locations if roll <= top)


def read_sheet(raw: object, where: str, rules: FantasyRules, base: Sheet | None = None) -> Sheet:
    """A sheet over `base` (the defaults); a string names a sample. Unknown keys refused."""
    if isinstance(raw, str):
        raw = {"sample": raw}
    spec = _known(raw, where, SHEET_KEYS)
    sheet = rules.defaults if base is None else base
    if "sample" in spec:
        name = _str(spec["sample"], f"{where}.sample", tuple(sorted(rules.samples)))
        sheet = rules.samples[name]
    changes: dict[str, object] = {}
    for key in ("agi", "des", "pot", "pre"):
        if key in spec:
            changes[key] = die(spec[key], f"{where}.{key}")
    if "skills" in spec:
        skills = _known(spec["skills"], f"{where}.skills")
        changes["skills"] = MappingProxyType(
            {name: die(d, f"{where}.skills[{name!r}]") for name, d in skills.items()}
        )
    skill_names = changes.get("skills", sheet.skills)
    assert isinstance(skill_names, Mapping)
    if "defences" in spec:
        value = spec["defences"]
        if not isinstance(value, list):
            raise _fail(f"{where}.defences", 'expected a list of [skill, "agi" | "des"]')
        pairs: list[tuple[str, str]] = []
        for i, pair in enumerate(value):
            w = f"{where}.defences[{i}]"
            if not isinstance(pair, list) or len(pair) != 2:
                raise _fail(w, 'expected [skill, "agi" | "des"]')
            skill = _str(pair[0], f"{w}[0]")
            if skill not in skill_names:
                raise _fail(
                    f"{w}[0]",
                    f"{skill!r} is not one of the sheet's skills "
                    f"({', '.join(skill_names) or 'none'})",
                )
            pairs.append((skill, _str(pair[1], f"{w}[1]", DEFENCE_CHARACTERISTICS)))
        changes["defences"] = tuple(pairs)
    if "weapon" in spec:
        changes["weapon"] = parse_weapon(spec["weapon"], f"{where}.weapon")
    if "vpb" in spec:
        changes["vpb"] = _int(spec["vpb"], f"{where}.vpb", 1, 100)
    if "shield" in spec:
        changes["shield"] = _int(spec["shield"], f"{where}.shield", 0, 100)
    if "movement" in spec:
        changes["movement"] = _int(spec["movement"], f"{where}.movement", 0, 100)
    places = tuple(name for name, _ in rules.locations)
    if "armour" in spec:
        armour = _known(spec["armour"], f"{where}.armour", places)
        changes["armour"] = MappingProxyType(
            {p: _int(v, f"{where}.armour.{p}", 0, 100) for p, v in armour.items()}
        )
    if "body" in spec:
        body = _known(spec["body"], f"{where}.body", rules.sections)
        full = dict(rules.boxes)
        full.update({s: _int(v, f"{where}.body.{s}", 0, 100) for s, v in body.items()})
        changes["body"] = MappingProxyType({s: full[s] for s in rules.sections})
    if "body_lost" in spec:
        changes["body_lost"] = _int(spec["body_lost"], f"{where}.body_lost", 0, 1000)
    sheet = replace(sheet, **changes)  # type: ignore[arg-type]
    if sheet.body_lost > sheet.body_total:
        raise _fail(
            f"{where}.body_lost",
            f"{sheet.body_lost} is more than the {sheet.body_total} body points",
        )
    return sheet


def _data_sheet(raw: object, where: str, rules: FantasyRules) -> Sheet:
    """A sheet of the data files: its weapon table may carry the weapon's data `id` (which a
    scenario's weapon does not: it is named by its `name`)."""
    spec = dict(_known(raw, where))
    weapon = spec.get("weapon")
    if not isinstance(weapon, dict) or "id" not in weapon:
        return read_sheet(spec, where, rules)
    weapon = dict(weapon)
    wid = _str(weapon.pop("id"), f"{where}.weapon.id")
    spec["weapon"] = weapon
    sheet = read_sheet(spec, where, rules)
    return replace(sheet, weapon=replace(sheet.weapon, id=wid))


def _table(path: Path) -> Mapping[str, object]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise FantasyDataError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise FantasyDataError(f"{path}: {exc}") from None


def _section(data: Mapping[str, object], key: str, where: str) -> Mapping[str, object]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise _fail(f"{where} [{key}]", "missing table")
    return value


@functools.cache
def load(directory: Path = DIRECTORY) -> FantasyRules:
    """The fantasy rules data in `directory` (rules.toml, sheets.toml)."""
    rules_path, sheets_path = directory / "rules.toml", directory / "sheets.toml"
    data = _table(rules_path)
    w = str(rules_path)
    protection = _section(data, "protection", w)
    location = dict(_section(data, "location", w))
    location.pop("assumed", None)
    tops = [(name, _int(v, f"{w} [location].{name}", 1, 100)) for name, v in location.items()]
    if not tops or [t for _, t in tops] != sorted({t for _, t in tops}) or tops[-1][1] != 100:
        raise _fail(f"{w} [location]", "the highest rolls must rise and end at 100")
    sections_raw = _section(data, "sections", w)
    order = sections_raw.get("order")
    if not isinstance(order, list) or not order:
        raise _fail(f"{w} [sections].order", "missing list")
    sections = tuple(_str(s, f"{w} [sections].order") for s in order)
    penalty = _known(sections_raw.get("penalty"), f"{w} [sections].penalty", sections)
    boxes = _known(sections_raw.get("boxes"), f"{w} [sections].boxes", sections)
    ranged = _section(data, "ranged", w)
    cover = _known(ranged.get("cover_dp"), f"{w} [ranged].cover_dp")
    skills_raw = ranged.get("defence_skills")
    if not isinstance(skills_raw, list):
        raise _fail(f"{w} [ranged].defence_skills", "missing list")
    base = Sheet(agi="d6", des="d6", pot="d6", pre="d6", weapon=Weapon("Pugno", id="pugno"))
    partial = FantasyRules(
        vpb_human=_int(protection.get("vpb_human"), f"{w} [protection].vpb_human", 1, 100),
        critical_multiple=_int(
            protection.get("critical_multiple"), f"{w} critical_multiple", 1, 10
        ),
        critical_failure_divisor=_int(
            protection.get("critical_failure_divisor"), f"{w} critical_failure_divisor", 1, 100
        ),
        movement=_int(_section(data, "movement", w).get("cells"), f"{w} [movement].cells", 0, 100),
        locations=tuple(tops),
        sections=sections,
        penalties=MappingProxyType(
            {s: _int(penalty.get(s), f"{w} penalty.{s}", -100, 100) for s in sections}
        ),
        boxes=MappingProxyType({s: _int(boxes.get(s), f"{w} boxes.{s}", 0, 100) for s in sections}),
        cover_dp=MappingProxyType(
            {k: _int(v, f"{w} cover_dp.{k}", -100, 100) for k, v in cover.items()}
        ),
        ranged_defence_skills=tuple(_str(s, f"{w} defence_skills") for s in skills_raw),
        ambidextrous=_str(_section(data, "skills", w).get("ambidextrous"), f"{w} ambidextrous"),
        defaults=base,
        samples=MappingProxyType({}),
        templates=MappingProxyType({}),
    )
    base = replace(base, vpb=partial.vpb_human, movement=partial.movement, body=partial.boxes)
    defaults_raw = dict(_section(data, "defaults", w))
    defaults_raw.pop("assumed", None)
    defaults = _data_sheet(defaults_raw, f"{w} [defaults]", replace(partial, defaults=base))
    partial = replace(partial, defaults=defaults)
    sheets = _table(sheets_path)
    sw = str(sheets_path)
    samples = {
        name: replace(_data_sheet(raw, f"{sw} [sheets.{name}]", partial), sample=name)
        for name, raw in sorted(_section(sheets, "sheets", sw).items())
    }
    templates_raw = _section(sheets, "templates", sw)
    templates = {
        t: _str(templates_raw[t], f"{sw} [templates].{t}", tuple(sorted(samples)))
        for t in sorted(templates_raw)
    }
    if "default" not in templates:
        raise _fail(f"{sw} [templates].default", "missing")
    return replace(
        partial, samples=MappingProxyType(samples), templates=MappingProxyType(templates)
    )
