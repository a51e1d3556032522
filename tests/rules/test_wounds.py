"""Tests of wounds, conditions and damage application (P-VUL-1, P-VUL-2, P-VUL-3, P-DEATH-1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.rules.data import (
    DAMAGE_TYPES,
    EFFECTS,
    RulesInputError,
    VulnerabilityTable,
    load_rules,
)
from game.rules.wounds import (
    CONDITIONS,
    Health,
    apply_damage,
    can_attack,
    can_see,
    end_of_turn,
    has_cover_denied,
    has_grave_wound,
    is_dying,
    register_hit,
    shift,
    start_of_turn,
    take_hit,
)

HUMAN = load_rules().vulnerabilities["human"]
DYING = Health(mortal=1)


def conditions(*names: str) -> frozenset[str]:
    return frozenset(names)


# P-VUL-1


def test_p_vul_1_shift_is_light_plus_twice_grave() -> None:
    assert shift(Health()) == 0
    assert shift(Health(light=2)) == 2
    # 1 light + 2 × 1 grave = 3
    assert shift(Health(light=1, grave=1)) == 3


def test_p_vul_1_perforante_7_on_an_unwounded_human_is_a_grave_wound() -> None:
    outcome = apply_damage(Health(), HUMAN, "perforante", 7)
    # read at 7 + 0 = 7: band 6-9 → ferita grave
    assert outcome.read_at == 7
    assert outcome.effects == ("grave_wound",)
    assert outcome.after == Health(grave=1)


def test_p_vul_1_perforante_7_with_one_light_is_read_at_8_grave() -> None:
    outcome = apply_damage(Health(light=1), HUMAN, "perforante", 7)
    # read at 7 + 1 = 8: band 6-9 → ferita grave; the light wound stays
    assert outcome.read_at == 8
    assert outcome.effects == ("grave_wound",)
    assert outcome.after == Health(light=1, grave=1)


def test_p_vul_1_light_wounds_push_perforante_5_into_the_grave_band() -> None:
    # 5 alone is a light wound (1-5); with 1 light carried, read at 6 → grave
    assert apply_damage(Health(), HUMAN, "perforante", 5).effects == ("light_wound",)
    assert apply_damage(Health(light=1), HUMAN, "perforante", 5).effects == ("grave_wound",)


def test_p_vul_1_impatto_9_with_one_grave_is_read_at_11_grave_and_stunned() -> None:
    outcome = apply_damage(Health(grave=1), HUMAN, "impatto", 9)
    # read at 9 + 2 = 11: band 10-11 → ferita grave + stordito;
    # the second grave wound makes a mortal one (P-VUL-2)
    assert outcome.read_at == 11
    assert outcome.effects == ("grave_wound", "stunned")
    assert outcome.after == Health(mortal=1, conditions=conditions("stunned"))
    assert outcome.death_save_failure is False


def test_p_vul_1_impatto_below_4_does_nothing() -> None:
    outcome = apply_damage(Health(), HUMAN, "impatto", 3)
    assert outcome.effects == ()
    assert outcome.after == Health()


def test_p_vul_1_elettrico_bands_give_stun_shock_and_out_of_combat_without_wounds() -> None:
    assert apply_damage(Health(), HUMAN, "elettrico", 5).after == Health(
        conditions=conditions("stunned")
    )
    assert apply_damage(Health(), HUMAN, "elettrico", 8).after == Health(
        conditions=conditions("shock")
    )
    # 10-13 → fuori combattimento, no wound
    assert apply_damage(Health(), HUMAN, "elettrico", 12).after == Health(
        conditions=conditions("out_of_combat")
    )


def test_p_vul_1_taglio_14_is_out_of_combat_and_mortal() -> None:
    outcome = apply_damage(Health(), HUMAN, "taglio", 14)
    assert outcome.effects == ("out_of_combat", "mortal_wound")
    assert outcome.after == Health(mortal=1, conditions=conditions("out_of_combat"))


def test_p_vul_1_radiazione_14_is_mortal_and_stunned_but_still_in_combat() -> None:
    outcome = apply_damage(Health(), HUMAN, "radiazione", 14)
    assert outcome.after == Health(mortal=1, conditions=conditions("stunned"))
    assert "out_of_combat" not in outcome.after.conditions


# P-VUL-2


def test_p_vul_2_third_light_wound_becomes_a_grave_one() -> None:
    outcome = apply_damage(Health(light=2), HUMAN, "taglio", 1)
    # read at 1 + 2 = 3: 1-5 → ferita leggera; 3 light → 1 grave
    assert outcome.read_at == 3
    assert outcome.effects == ("light_wound",)
    assert outcome.after == Health(grave=1)


def test_p_vul_2_cascade_third_light_then_second_grave_gives_mortal() -> None:
    outcome = apply_damage(Health(light=2, grave=1), HUMAN, "taglio", 1)
    # read at 1 + 2 + 2 = 5: light; 3 light → grave; 2 grave → mortal
    assert outcome.read_at == 5
    assert outcome.after == Health(mortal=1)


def test_p_vul_2_second_grave_wound_becomes_mortal() -> None:
    outcome = apply_damage(Health(grave=1), HUMAN, "perforante", 4)
    # read at 4 + 2 = 6: 6-9 → grave; 2 grave → mortal
    assert outcome.after == Health(mortal=1)


def test_p_vul_2_grave_wound_keeps_two_light_wounds_below_three() -> None:
    outcome = apply_damage(Health(light=2), HUMAN, "perforante", 6)
    # read at 6 + 2 = 8: grave; 2 light stay (not 3)
    assert outcome.after == Health(light=2, grave=1)


def test_p_vul_2_zero_damage_has_no_effect_whatever_wounds_are_carried() -> None:
    carried = Health(light=2, grave=1)
    # shift 4 would read impatto at 4 → stunned, but D = 0 has no effect at all
    outcome = apply_damage(carried, HUMAN, "impatto", 0)
    assert outcome.effects == ()
    assert outcome.after == carried
    assert outcome.read_at == 0


def test_p_vul_2_mortal_wound_on_a_mortal_wound_is_a_failed_death_save() -> None:
    outcome = apply_damage(DYING, HUMAN, "taglio", 14)
    assert outcome.effects == ("out_of_combat", "mortal_wound")
    assert outcome.death_save_failure is True
    assert outcome.after == Health(
        mortal=1, conditions=conditions("out_of_combat"), death_failures=1
    )


def test_p_vul_2_light_and_grave_wounds_do_not_add_to_a_mortal_wound() -> None:
    outcome = apply_damage(DYING, HUMAN, "perforante", 7)
    assert outcome.effects == ("grave_wound",)
    assert outcome.after == DYING
    assert outcome.death_save_failure is False


def test_p_vul_2_third_mortal_on_mortal_failure_kills() -> None:
    outcome = apply_damage(Health(mortal=1, death_failures=2), HUMAN, "ustione", 20)
    assert outcome.after.has("dead")
    assert outcome.after.death_failures == 3


def test_p_vul_2_dead_entities_take_no_further_effects() -> None:
    corpse = Health(mortal=1, conditions=conditions("dead"), death_failures=3)
    outcome = apply_damage(corpse, HUMAN, "impatto", 12)
    assert outcome.after == corpse
    assert outcome.effects == ()


# P-DEATH-1 through hits


def test_p_death_1_register_hit_counts_one_failure_on_a_dying_entity() -> None:
    assert register_hit(DYING) == Health(mortal=1, death_failures=1)
    assert register_hit(Health(mortal=1, death_failures=2)).has("dead")
    assert register_hit(Health(grave=1)) == Health(grave=1)  # not dying: nothing


def test_p_death_1_take_hit_counts_a_mortal_on_mortal_hit_once_not_twice() -> None:
    outcome = take_hit(DYING, HUMAN, "perforante", 14)
    # P-VUL-2 (mortal instead → failure) and P-DEATH-1 (each hit → failure) are the same failure
    assert outcome.after.death_failures == 1
    assert outcome.death_save_failure is True


def test_p_death_1_take_hit_with_a_lesser_effect_still_fails_a_save() -> None:
    outcome = take_hit(DYING, HUMAN, "perforante", 3)
    assert outcome.effects == ("light_wound",)
    assert outcome.after == Health(mortal=1, death_failures=1)


def test_p_death_1_take_hit_with_zero_damage_on_a_dying_entity_still_fails_a_save() -> None:
    outcome = take_hit(DYING, HUMAN, "perforante", 0)
    assert outcome.effects == ()
    assert outcome.after == Health(mortal=1, death_failures=1)


def test_p_death_1_the_hit_that_gives_the_mortal_wound_is_not_a_failure() -> None:
    outcome = take_hit(Health(grave=1), HUMAN, "perforante", 7)
    # read at 9: grave; 2 grave → mortal; saves start at 0/0
    assert outcome.after == Health(mortal=1)
    assert outcome.death_save_failure is False


def test_p_death_1_damage_to_a_stabilised_entity_restarts_the_saves() -> None:
    stable = Health(
        mortal=1, conditions=conditions("stabilised", "out_of_combat"), death_successes=3
    )
    outcome = take_hit(stable, HUMAN, "taglio", 14)
    # "as if it had just taken a mortal wound": 0/0, still out of combat, no failure counted
    assert outcome.after == Health(mortal=1, conditions=conditions("out_of_combat"))
    assert is_dying(outcome.after)
    assert "P-DEATH-1" in outcome.rules


def test_p_death_1_zero_damage_hit_leaves_a_stabilised_entity_stabilised() -> None:
    stable = Health(
        mortal=1, conditions=conditions("stabilised", "out_of_combat"), death_successes=3
    )
    assert take_hit(stable, HUMAN, "impatto", 0).after == stable


# P-VUL-3


def test_p_vul_3_stunned_skips_its_next_turn_and_then_ends() -> None:
    start = start_of_turn(Health(conditions=conditions("stunned")))
    assert start.skip_turn is True
    assert start.ended == ("stunned",)
    assert start.after == Health()
    assert start_of_turn(start.after).skip_turn is False


def test_p_vul_3_shock_skips_the_turn_and_denies_cover_until_then() -> None:
    shocked = Health(conditions=conditions("shock"))
    assert has_cover_denied(shocked)
    start = start_of_turn(shocked)
    assert start.skip_turn is True
    assert not has_cover_denied(start.after)


def test_p_vul_3_out_of_combat_skips_every_turn_and_stays() -> None:
    out = Health(grave=1, conditions=conditions("out_of_combat"))
    start = start_of_turn(out)
    assert start.skip_turn is True
    assert start.after == out
    assert not can_attack(out)


def test_p_vul_3_burning_damage_is_due_at_start_and_ends_at_end_of_turn() -> None:
    burning = Health(conditions=conditions("burning"))
    start = start_of_turn(burning)
    assert start.burning_damage_due is True
    assert start.skip_turn is False
    # the caller rolls 1d8 = 6 ustione, read at 6 → grave
    burnt = apply_damage(start.after, HUMAN, "ustione", 6).after
    assert burnt == Health(grave=1, conditions=conditions("burning"))
    assert end_of_turn(burnt) == Health(grave=1)


def test_p_vul_3_blinded_cannot_see_or_attack_and_ends_at_the_end_of_its_turn() -> None:
    # Its 1-cell movement (unless helped) is game/rules/movement.py's allowance: tested there.
    blind = Health(conditions=conditions("blinded"))
    assert not can_see(blind)
    assert not can_attack(blind)
    assert end_of_turn(blind) == Health()


def test_p_vul_3_unhurt_entity_is_unrestricted() -> None:
    assert can_see(Health()) and can_attack(Health())
    assert not has_grave_wound(Health(light=2))


def test_p_mov_6_grave_wound_is_reported() -> None:
    # P-MOV-6's halving and a mortal wound's stop are the allowance's: tests/rules/test_movement.py
    assert has_grave_wound(Health(grave=1))


def test_p_death_1_death_save_is_due_at_start_of_turn_only_while_dying() -> None:
    assert start_of_turn(DYING).death_save_due is True
    stable = Health(mortal=1, conditions=conditions("stabilised", "out_of_combat"))
    assert start_of_turn(stable).death_save_due is False
    assert start_of_turn(Health(grave=1)).death_save_due is False


def test_p_vul_3_dead_entity_skips_and_owes_nothing() -> None:
    corpse = Health(conditions=conditions("dead", "burning"))
    start = start_of_turn(corpse)
    assert (start.skip_turn, start.burning_damage_due, start.death_save_due) == (True, False, False)


# Health as data


def test_p_vul_2_health_round_trips_through_a_dict() -> None:
    health = Health(mortal=1, conditions=conditions("stunned", "out_of_combat"), death_failures=2)
    data = health.to_dict()
    assert data == {
        "light": 0,
        "grave": 0,
        "mortal": 1,
        "conditions": ["out_of_combat", "stunned"],
        "death_successes": 0,
        "death_failures": 2,
    }
    assert Health.from_dict(data) == health
    assert Health.from_dict({}) == Health()


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"light": 3}, "field 'light': 3 is not a whole number 0..2"),
        ({"grave": 2}, "field 'grave': 2"),
        ({"mortal": 1, "light": 1}, "field 'mortal': a mortal wound absorbs"),
        ({"light": "1"}, "field 'light': '1' is not a whole number"),
        ({"conditions": ["sleepy"]}, "field 'conditions': unknown condition 'sleepy'"),
        ({"conditions": "stunned"}, "field 'conditions': 'stunned' is not a list"),
        ({"conditions": ["stabilised"]}, "'stabilised' needs a mortal wound"),
        ({"bruises": 1}, "field 'bruises': unknown key"),
    ],
)
def test_p_vul_2_health_from_dict_errors_name_the_place_and_field(
    data: dict[str, object], fragment: str
) -> None:
    with pytest.raises(RulesInputError) as caught:
        Health.from_dict(data, "entities[1].wounds")
    assert str(caught.value).startswith("entities[1].wounds: ")
    assert fragment in str(caught.value)


def test_p_vul_1_bad_damage_arguments_are_clear_errors() -> None:
    with pytest.raises(RulesInputError, match="damage -1"):
        apply_damage(Health(), HUMAN, "taglio", -1)
    with pytest.raises(RulesInputError, match="unknown damage type 'acido'"):
        apply_damage(Health(), HUMAN, "acido", 3)


# Properties

healths = st.builds(
    Health,
    light=st.integers(0, 2),
    grave=st.integers(0, 1),
    conditions=st.frozensets(st.sampled_from(("stunned", "shock", "blinded", "burning"))),
) | st.builds(
    Health,
    mortal=st.just(1),
    conditions=st.frozensets(st.sampled_from(CONDITIONS)),
    death_successes=st.integers(0, 2),
    death_failures=st.integers(0, 2),
)
tables = st.sampled_from(list(load_rules().vulnerabilities.values()))


def severity(health: Health) -> int:
    return health.light + 2 * health.grave + 6 * health.mortal


@given(
    health=healths,
    table=tables,
    damage_type=st.sampled_from(DAMAGE_TYPES),
    damage=st.integers(0, 40),
)
def test_p_vul_2_property_wounds_only_climb_the_ladder_under_damage_and_hits(
    health: Health, table: VulnerabilityTable, damage_type: str, damage: int
) -> None:
    for apply in (apply_damage, take_hit):
        after = apply(health, table, damage_type, damage).after
        assert severity(after) >= severity(health)
        assert after.death_failures >= health.death_failures or health.has("stabilised")
    assert severity(register_hit(health)) == severity(health)


@given(health=healths, table=tables, damage_type=st.sampled_from(DAMAGE_TYPES))
def test_p_vul_2_property_zero_damage_never_changes_health(
    health: Health, table: VulnerabilityTable, damage_type: str
) -> None:
    outcome = apply_damage(health, table, damage_type, 0)
    assert outcome.after == health
    assert outcome.effects == ()


@given(table=tables, damage_type=st.sampled_from(DAMAGE_TYPES), value=st.integers(-5, 100))
def test_p_vul_1_property_any_type_and_value_gives_only_known_effect_names(
    table: VulnerabilityTable, damage_type: str, value: int
) -> None:
    effects = table.effects_at(damage_type, value)
    assert set(effects) <= set(EFFECTS)
    assert len(set(effects)) == len(effects)
