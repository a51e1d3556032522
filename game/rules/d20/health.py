"""d20 hit points (D-2): 0 disabled, -1..-9 dying (-1 a round, 10 % to stabilise), -10 dead; the
coup de grâce's Fortitude DC (004:l.116); what a disabled creature's acts cost it (assumed, the
3.5 SRD's, base.toml [disabled])."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from game.rules.d20.data import D20Data


class HpState(StrEnum):
    OK = "ok"
    DISABLED = "disabled"  # D-2: 0, one action a turn
    DYING = "dying"  # D-2: -1..-9
    DEAD = "dead"  # D-2: -10 or lower


def hp_state(data: D20Data, hit_points: int) -> HpState:
    """The state at `hit_points` (D-2)."""
    base = data.base
    if hit_points <= base.hp_dead:
        return HpState.DEAD
    if hit_points < base.hp_disabled:
        return HpState.DYING
    if hit_points == base.hp_disabled:
        return HpState.DISABLED
    return HpState.OK


@dataclass(frozen=True)
class DamageResult:
    """Hit points after damage, their state, and a coup de grâce's save (None when none is due)."""

    damage: int
    hit_points: int
    state: HpState
    fort_dc: int | None


def take_damage(
    data: D20Data, hit_points: int, damage: int, *, coup_de_grace: bool = False
) -> DamageResult:
    """`damage` off `hit_points`. After a coup de grâce a defender that survives must save on
    Fortitude at DC 10 + the damage dealt or die (004:l.116); a dead one saves nothing."""
    if damage < 0:
        raise ValueError(f"damage must be 0 or more, got {damage}")
    after = hit_points - damage
    state = hp_state(data, after)
    fort_dc = None
    if coup_de_grace and state is not HpState.DEAD:
        fort_dc = data.base.coup_de_grace_dc + damage
    return DamageResult(damage, after, state, fort_dc)


@dataclass(frozen=True)
class DyingRound:
    hit_points: int
    stabilised: bool
    state: HpState


def dying_round(data: D20Data, hit_points: int, percentile: int) -> DyingRound:
    """One round of a dying creature (D-2): a d100 face at or below 10 stabilises it, otherwise
    it loses 1 hit point. A creature that is not dying is left as it is."""
    if not 1 <= percentile <= 100:
        raise ValueError(f"a d100 face must be 1..100, got {percentile}")
    if hp_state(data, hit_points) is not HpState.DYING:
        return DyingRound(hit_points, False, hp_state(data, hit_points))
    if percentile <= data.base.stabilise_percent:
        return DyingRound(hit_points, True, HpState.DYING)
    after = hit_points - data.base.dying_loss
    return DyingRound(after, False, hp_state(data, after))


def strenuous_cost(data: D20Data, hit_points: int, act: str) -> int:
    """The hit points `act` ("attack", "opportunity_attack") costs a creature at `hit_points`
    once done: base.toml's strenuous_damage when it is disabled (D-2's 0) and the act is one
    of its strenuous acts, else 0. ASSUMED, the 3.5 SRD's: a disabled creature that attacks
    takes 1 point of damage after the act, and at -1 it is dying."""
    base = data.base
    if hp_state(data, hit_points) is not HpState.DISABLED or act not in base.disabled_strenuous:
        return 0
    return base.disabled_strenuous_damage


def disabled_speed(data: D20Data, speed: int) -> int:
    """A disabled creature's speed in cells: the sheet's divided by base.toml's speed_divisor,
    rounded down, at least 1 cell unless the sheet says 0 (ASSUMED, the 3.5 SRD's half
    speed)."""
    if speed <= 0:
        return 0
    return max(1, speed // data.base.disabled_speed_divisor)


@dataclass(frozen=True)
class FortitudeSave:
    """A coup de grâce's Fortitude save (004:l.116) from a d20 face: survived or dead."""

    natural: int
    total: int
    dc: int
    survived: bool
    #: The hit points after it: unchanged on a success, base.toml's dead threshold otherwise.
    hit_points: int


def coup_de_grace_save(
    data: D20Data, hit_points: int, damage: int, fortitude: int, natural: int
) -> FortitudeSave:
    """004:l.116: a defender that survives the coup de grâce's damage saves on Fortitude at DC
    10 + the damage dealt or dies. ASSUMED (base.toml [coup_de_grace], the 3.5 SRD's saving
    throw): d20 + `fortitude` >= DC, a natural 1 fails and a natural 20 succeeds. A failed save
    leaves it at D-2's dead threshold (-10), or lower hit points if it had them."""
    base = data.base
    if not 1 <= natural <= base.natural_hit:
        raise ValueError(f"a d20 face must be 1..{base.natural_hit}, got {natural}")
    dc = base.coup_de_grace_dc + damage
    total = natural + fortitude
    survived = natural != base.natural_miss and (natural == base.natural_hit or total >= dc)
    after = hit_points if survived else min(hit_points, base.hp_dead)
    return FortitudeSave(natural, total, dc, survived, after)
