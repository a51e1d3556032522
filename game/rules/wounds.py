"""An entity's wounds and conditions as immutable state, and what damage does to them (P-VUL-*)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Final

from game.rules.data import CONDITIONS as CONDITIONS
from game.rules.data import RulesInputError, VulnerabilityTable, check_damage_type

# Choices where the rules are silent:
# - A mortal wound is the top of the wound ladder and absorbs the light and grave wounds beneath
#   it (an entity holds either light/grave wounds or one mortal wound), so when a natural 20 or a
#   medkit turns the mortal wound back into a grave one the entity has exactly one grave wound.
# - Light and grave wounds from the table do not add to a mortal wound; a mortal wound from the
#   table on a mortally wounded entity is a failed death save instead (P-VUL-2).
# - Damage to a stabilised entity restarts its death saves at 0/0 "as if it had just taken a
#   mortal wound" (P-DEATH-1); that damage is not also a failure, whatever the table gives.
# - A dead entity takes no further effects. `out_of_combat` lasts for the rest of the combat.
# - Blinded, like burning, ends at the end of the entity's turn ("in its next turn", seed).

#: Successes to be stabilised, failures to die (P-DEATH-1).
SAVES_TO_SETTLE: Final = 3

# The ladder in light-wound units: 3 light = 1 grave, 2 grave = 1 mortal (P-VUL-2).
_UNITS: Final = {"light_wound": 1, "grave_wound": 3, "mortal_wound": 6}
_LIGHT_PER_GRAVE: Final = 3
_MORTAL_UNITS: Final = 6


def _check_health(
    where: str,
    light: int,
    grave: int,
    mortal: int,
    conditions: Iterable[str],
    death_successes: int,
    death_failures: int,
) -> None:
    def fail(field: str, problem: str) -> RulesInputError:
        return RulesInputError(f"{where}: field {field!r}: {problem}")

    limits = {"light": (light, 2), "grave": (grave, 1), "mortal": (mortal, 1)}
    limits |= {
        "death_successes": (death_successes, SAVES_TO_SETTLE),
        "death_failures": (death_failures, SAVES_TO_SETTLE),
    }
    for field, (value, high) in limits.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
            hint = " (3 light make a grave, 2 grave a mortal: P-VUL-2)" if high < 3 else ""
            raise fail(field, f"{value!r} is not a whole number 0..{high}{hint}")
    if mortal and (light or grave):
        raise fail("mortal", "a mortal wound absorbs the light and grave wounds: give them as 0")
    for condition in conditions:
        if condition not in CONDITIONS:
            raise fail(
                "conditions", f"unknown condition {condition!r} (known: {', '.join(CONDITIONS)})"
            )
    if "stabilised" in conditions and not mortal:
        raise fail("conditions", "'stabilised' needs a mortal wound")


@dataclass(frozen=True)
class Health:
    """Wounds (P-VUL-1/2), conditions (P-VUL-3, plus `stabilised`) and death saves (P-DEATH-1)."""

    light: int = 0
    grave: int = 0
    mortal: int = 0
    conditions: frozenset[str] = frozenset()
    death_successes: int = 0
    death_failures: int = 0

    def __post_init__(self) -> None:
        _check_health(
            "Health",
            self.light,
            self.grave,
            self.mortal,
            self.conditions,
            self.death_successes,
            self.death_failures,
        )

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    def to_dict(self) -> dict[str, object]:
        return {
            "light": self.light,
            "grave": self.grave,
            "mortal": self.mortal,
            "conditions": sorted(self.conditions),
            "death_successes": self.death_successes,
            "death_failures": self.death_failures,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object], where: str = "health") -> Health:
        """The inverse of to_dict; missing keys are 0 / no conditions; errors name `where`."""
        fields = ("light", "grave", "mortal", "death_successes", "death_failures")
        for key in data:
            if key not in (*fields, "conditions"):
                raise RulesInputError(f"{where}: field {key!r}: unknown key")
        numbers: dict[str, int] = {}
        for key in fields:
            value = data.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesInputError(f"{where}: field {key!r}: {value!r} is not a whole number")
            numbers[key] = value
        raw_conditions = data.get("conditions", [])
        if not isinstance(raw_conditions, list | tuple | frozenset | set) or not all(
            isinstance(condition, str) for condition in raw_conditions
        ):
            raise RulesInputError(
                f"{where}: field 'conditions': {raw_conditions!r} is not a list of names"
            )
        conditions = frozenset(raw_conditions)
        _check_health(where, conditions=conditions, **numbers)
        return cls(conditions=conditions, **numbers)


def shift(health: Health) -> int:
    """P-VUL-1: each light wound adds 1, each grave wound 2, before the table is read."""
    return health.light + 2 * health.grave


def is_dying(health: Health) -> bool:
    """Mortally wounded and still rolling death saves: not stabilised, not dead (P-DEATH-1)."""
    return bool(health.mortal) and not health.has("stabilised") and not health.has("dead")


def _with(health: Health, add: Iterable[str] = (), remove: Iterable[str] = ()) -> Health:
    return replace(health, conditions=(health.conditions - set(remove)) | set(add))


def _wounded(health: Health, wound: str) -> Health:
    """One more wound on the ladder (P-VUL-2); a mortally wounded entity is already at the top."""
    if health.mortal:
        return health
    units = health.light + _LIGHT_PER_GRAVE * health.grave + _UNITS[wound]
    if units >= _MORTAL_UNITS:
        return replace(health, light=0, grave=0, mortal=1, death_successes=0, death_failures=0)
    return replace(health, light=units % _LIGHT_PER_GRAVE, grave=units // _LIGHT_PER_GRAVE)


def with_death_failures(health: Health, count: int) -> Health:
    """`count` more failed death saves; the third one kills (P-DEATH-1)."""
    failures = min(SAVES_TO_SETTLE, health.death_failures + count)
    after = replace(health, death_failures=failures)
    return _with(after, add=("dead",)) if failures == SAVES_TO_SETTLE else after


@dataclass(frozen=True)
class DamageOutcome:
    """What one damage did. `effects` are the table's effects as read at `read_at` (D + shift),
    even when one of them was turned into something else (a second mortal wound becomes a failed
    death save); `before` and `after` tell what actually changed."""

    effects: tuple[str, ...]
    #: D + shift (P-VUL-1); 0 when the table was not read (D = 0, or the entity is dead).
    read_at: int
    before: Health
    after: Health
    death_save_failure: bool
    rules: tuple[str, ...]


def apply_damage(
    health: Health, table: VulnerabilityTable, damage_type: str, damage: int
) -> DamageOutcome:
    """Apply a final damage D (after P-DMG-1) through the vulnerability table (P-VUL-1/2).

    Damage that is not an attack's hit (burning, P-VUL-3) goes here. It counts a failed death
    save only when the table gives a mortal wound to an entity that has one already (P-VUL-2).
    For a hit use take_hit, which adds the failure of P-DEATH-1 without counting one twice.
    """
    check_damage_type(damage_type)
    if isinstance(damage, bool) or not isinstance(damage, int) or damage < 0:
        raise RulesInputError(f"damage {damage!r} is not a whole number >= 0")
    if damage == 0 or health.has("dead"):
        # P-VUL-2: a damage of 0 has no effect, whatever wounds are carried.
        return DamageOutcome((), 0, health, health, False, ("P-VUL-2",))
    rules = ["P-VUL-1", "P-VUL-2"]
    read_at = damage + shift(health)
    effects = table.effects_at(damage_type, read_at)
    after = health
    restarted = health.has("stabilised")
    if restarted:
        # P-DEATH-1: damage to a stabilised entity restarts the saves.
        after = replace(_with(after, remove=("stabilised",)), death_successes=0, death_failures=0)
        rules.append("P-DEATH-1")
    failure = False
    for effect in effects:
        if effect == "mortal_wound" and health.mortal:
            # P-VUL-2: a failed death save instead of a second mortal wound.
            failure = not restarted
        elif effect in _UNITS:
            after = _wounded(after, effect)
        else:
            after = _with(after, add=(effect,))
    if failure:
        after = with_death_failures(after, 1)
        rules.append("P-DEATH-1")
    return DamageOutcome(effects, read_at, health, after, failure, tuple(rules))


def register_hit(health: Health) -> Health:
    """P-DEATH-1: a hit taken while dying counts as one failed death save, whatever its damage.

    Use take_hit for a hit with damage: apply_damage may already have counted that hit's failure
    (a mortal wound on a mortal wound); take_hit calls both and counts one failure per hit.
    """
    return with_death_failures(health, 1) if is_dying(health) else health


def take_hit(
    health: Health, table: VulnerabilityTable, damage_type: str, damage: int
) -> DamageOutcome:
    """A hit landed with final damage D: apply_damage, and exactly one failed save if dying.

    A hit with D = 0 on a dying entity still counts its failure (P-DEATH-1: each hit taken);
    a hit on a stabilised entity only restarts the saves (when D > 0).
    """
    outcome = apply_damage(health, table, damage_type, damage)
    if outcome.death_save_failure or not is_dying(health):
        return outcome
    after = register_hit(outcome.after)
    return replace(
        outcome,
        after=after,
        death_save_failure=after != outcome.after,
        rules=tuple(dict.fromkeys((*outcome.rules, "P-DEATH-1"))),
    )


@dataclass(frozen=True)
class TurnStart:
    """What the start of an entity's turn brings (P-VUL-3, P-DEATH-1).

    The caller then, in this order: rolls the death save if `death_save_due` (death.death_save
    on `after`); rolls 1d8 and calls apply_damage(after, table, "ustione", roll) if
    `burning_damage_due` (the roll goes to the table as rolled: no armour, no resistance); and
    ends the turn at once if `skip_turn`, or if the entity is now out of combat or dead. A skipped
    turn still ends with end_of_turn.
    """

    after: Health
    skip_turn: bool
    death_save_due: bool
    burning_damage_due: bool
    #: Conditions that ended with this start of turn (stunned, shock: their turn is now skipped).
    ended: tuple[str, ...]


def turn_lost_to(health: Health) -> str | None:
    """The condition that costs the entity its (next) turn, if any (P-VUL-3, P-DEATH-1)."""
    for condition in ("dead", "out_of_combat", "stunned", "shock"):
        if health.has(condition):
            return condition
    return None


def start_of_turn(health: Health) -> TurnStart:
    """P-VUL-3: stunned and shock skip this turn and end; out of combat skips every turn."""
    if health.has("dead"):
        return TurnStart(health, True, False, False, ())
    ended = tuple(c for c in ("stunned", "shock") if health.has(c))
    return TurnStart(
        after=_with(health, remove=ended),
        skip_turn=turn_lost_to(health) is not None,
        death_save_due=is_dying(health),
        burning_damage_due=health.has("burning"),
        ended=ended,
    )


def end_of_turn(health: Health) -> Health:
    """P-VUL-3: burning ends at the end of the entity's turn; so does blinded."""
    return _with(health, remove=("burning", "blinded"))


def can_see(health: Health) -> bool:
    """P-VUL-3: a blinded entity has no line of sight to anyone."""
    return not health.has("blinded") and not health.has("dead")


def attack_barred_by(health: Health) -> str | None:
    """The condition that forbids attacking, if any (P-VUL-3: blinded, out of combat, dead)."""
    for condition in ("dead", "out_of_combat", "blinded"):
        if health.has(condition):
            return condition
    return None


def can_attack(health: Health) -> bool:
    """P-VUL-3: no attacks while blinded, out of combat or dead."""
    return attack_barred_by(health) is None


def has_cover_denied(health: Health) -> bool:
    """P-VUL-3 / P-COV-5: an entity in shock has no cover."""
    return health.has("shock")


def has_grave_wound(health: Health) -> bool:
    """P-MOV-6: a grave wound halves every speed."""
    return health.grave > 0
