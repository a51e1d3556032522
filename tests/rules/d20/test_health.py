"""d20 hit points (D-2), the coup de grâce's Fortitude DC (004:l.116) and the disabled creature's
assumed costs (base.toml [disabled]), worked by hand."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.rules.d20.data import DIRECTORY, load_d20
from game.rules.d20.health import (
    HpState,
    coup_de_grace_save,
    disabled_speed,
    dying_round,
    hp_state,
    strenuous_cost,
    take_damage,
)

DATA = load_d20()


@pytest.mark.parametrize(
    ("hp", "state"),
    [
        (1, HpState.OK),
        (0, HpState.DISABLED),  # D-2 "0 disabled"
        (-1, HpState.DYING),  # D-2 "-1 to -9 dying"
        (-9, HpState.DYING),
        (-10, HpState.DEAD),  # D-2 "-10 dead"
        (-14, HpState.DEAD),
    ],
)
def test_the_state_at_each_hit_point_threshold_d2(hp: int, state: HpState) -> None:
    assert hp_state(DATA, hp) is state


def test_damage_takes_hit_points_off_and_names_the_state_d2() -> None:
    # 10 - 10 = 0 disabled; 10 - 11 = -1 dying; 10 - 20 = -10 dead.
    assert take_damage(DATA, 10, 10).state is HpState.DISABLED
    assert (take_damage(DATA, 10, 11).hit_points, take_damage(DATA, 10, 11).state) == (
        -1,
        HpState.DYING,
    )
    assert take_damage(DATA, 10, 20).state is HpState.DEAD


def test_a_coup_de_grace_survivor_saves_at_dc_10_plus_the_damage_004_l116() -> None:
    # l.116 "deve superare un tiro salvezza sulla Tempra (CD 10 + danni inflitti) o morire":
    # 7 damage to 13 hit points leaves 6, DC 10 + 7 = 17.
    result = take_damage(DATA, 13, 7, coup_de_grace=True)
    assert (result.hit_points, result.fort_dc) == (6, 17)
    # "Se il difensore sopravvive ai danni": 25 damage to 13 leaves -12, dead, no save.
    assert take_damage(DATA, 13, 25, coup_de_grace=True).fort_dc is None
    # An ordinary hit asks no save.
    assert take_damage(DATA, 13, 7).fort_dc is None


def test_a_dying_creature_stabilises_on_10_percent_or_loses_1_a_round_d2() -> None:
    # D-2 "-1 a round, 10% each round to stabilise": a d100 of 10 stabilises, 11 does not.
    assert dying_round(DATA, -3, 10).stabilised
    lost = dying_round(DATA, -3, 11)
    assert (lost.hit_points, lost.stabilised, lost.state) == (-4, False, HpState.DYING)
    assert dying_round(DATA, -9, 50).state is HpState.DEAD  # -9 - 1 = -10
    assert dying_round(DATA, 4, 50).hit_points == 4  # not dying: nothing happens


def test_d2_assumed_a_disabled_creatures_attack_costs_1_hit_point_and_leaves_it_dying() -> None:
    # ASSUMED, base.toml [disabled] (the 3.5 SRD's): "performing any standard action ...
    # deals 1 point of damage after the completion of the act"; at 0 (D-2 "0 disabled") an
    # attack costs 1, and 0 - 1 = -1 is dying (D-2 "-1 to -9 dying").
    assert strenuous_cost(DATA, 0, "attack") == 1
    assert strenuous_cost(DATA, 0, "opportunity_attack") == 1
    assert (take_damage(DATA, 0, 1).hit_points, take_damage(DATA, 0, 1).state) == (
        -1,
        HpState.DYING,
    )
    # Only a disabled creature pays, and only for the strenuous acts.
    assert strenuous_cost(DATA, 1, "attack") == 0
    assert strenuous_cost(DATA, -1, "attack") == 0
    assert strenuous_cost(DATA, 0, "move") == 0


def test_d2_assumed_a_disabled_creature_moves_at_half_speed_rounded_down_at_least_1() -> None:
    # The SRD's "She moves at half speed": 6 -> 3, the void marine's 4 -> 2, 3 -> 1, 1 -> 1.
    assert [disabled_speed(DATA, s) for s in (6, 4, 3, 1, 0)] == [3, 2, 1, 1, 0]


def test_a_gm_turns_the_assumed_disabled_rules_off_in_base_toml(tmp_path: Path) -> None:
    # strenuous_damage = 0 and speed_divisor = 1: D-2's one action alone is left.
    for name in ("modifiers.toml", "base.toml", "weapons.toml", "sheets.toml"):
        text = (DIRECTORY / name).read_text(encoding="utf-8")
        if name == "base.toml":
            text = text.replace("strenuous_damage = 1", "strenuous_damage = 0")
            text = text.replace("speed_divisor = 2", "speed_divisor = 1")
        (tmp_path / name).write_text(text, encoding="utf-8")
    off = load_d20(tmp_path)
    assert strenuous_cost(off, 0, "attack") == 0
    assert disabled_speed(off, 6) == 6
    # Or only the reactions spared: the acts are a list.
    base = replace(off.base, disabled_strenuous_damage=1, disabled_strenuous=("attack",))
    some = replace(off, base=base)
    assert (strenuous_cost(some, 0, "attack"), strenuous_cost(some, 0, "opportunity_attack")) == (
        1,
        0,
    )


@pytest.mark.parametrize(
    ("natural", "fortitude", "survived"),
    [(13, 2, True), (12, 2, False), (1, 50, False), (20, -5, True)],
)
def test_004_l116_the_coup_de_grace_save_is_fortitude_against_dc_10_plus_damage(
    natural: int, fortitude: int, survived: bool
) -> None:
    # "CD 10 + danni inflitti": 5 damage, DC 15; d20 + Fortitude >= 15 (assumed, base.toml:
    # a natural 1 fails, a natural 20 succeeds). A failed save is death: D-2's -10.
    saved = coup_de_grace_save(DATA, -6, 5, fortitude, natural)
    assert (saved.dc, saved.total, saved.survived) == (15, natural + fortitude, survived)
    assert saved.hit_points == (-6 if survived else -10)


def test_the_assumed_fortitude_bonus_is_base_tomls_for_every_sheet_without_its_own() -> None:
    from game.rules.d20.sheet import bare_sheet, read_sheet

    assert DATA.base.fortitude == 2  # ASSUMED: a first-level warrior's +2 (base.toml)
    assert bare_sheet(DATA).fortitude == 2
    assert read_sheet("human", "sheet", DATA).fortitude == 2
    assert read_sheet({"fortitude": 5}, "sheet", DATA).fortitude == 5
