"""game/text/names.py: sides, kit, damage types and checks by display name in both languages."""

from __future__ import annotations

from game.rules.checknames import ALL as CHECKS
from game.rules.data import DAMAGE_TYPES, load_rules
from game.text import names
from game.text.i18n import speaking


def test_every_weapon_armour_and_template_of_periferie_has_a_name_in_both_languages() -> None:
    rules = load_rules("periferie")
    with speaking("en"):
        english = {w: names.weapon_name(w, rules.weapons[w].name) for w in rules.weapons}
        assert english == {w: rules.weapons[w].name for w in rules.weapons}
    with speaking("it"):
        for weapon in rules.weapons.values():
            assert names.weapon_name(weapon.id, weapon.name) != weapon.name, weapon.id
        for armour in rules.armour.values():
            assert names.armour_name(armour.id, armour.name) != armour.name, armour.id
        for template in rules.templates.values():
            assert names.template_name(template.id, template.name) != template.name


def test_damage_types_and_checks_read_english_in_english_and_the_seeds_italian_in_italian() -> None:
    with speaking("en"):
        english = [names.damage_type_name(t) for t in DAMAGE_TYPES]
        checks = [names.check_name(c) for c in CHECKS]
    assert english == ["cutting", "piercing", "impact", "electric", "burn", "radiation"]
    assert not set(checks) & set(CHECKS)
    with speaking("it"):
        assert [names.damage_type_name(t) for t in DAMAGE_TYPES] == list(DAMAGE_TYPES)
        assert [names.check_name(c) for c in CHECKS] == list(CHECKS)


def test_a_side_the_catalogue_does_not_know_is_humanised_never_shown_raw() -> None:
    with speaking("en"):
        assert names.side_name("station_security") == "Station security"
        assert names.side_name("red_team") == "Red team"
    with speaking("it"):
        assert names.side_name("raiders") == "Predoni"


def test_levels_are_counted_from_one() -> None:
    with speaking("en"):
        assert names.level_name(0, 2) == "Level 1 of 2"


def test_a_rolls_purpose_names_its_weapon_and_an_unseen_unit_in_words() -> None:
    with speaking("it"):
        assert names.purpose_text("damage combat_knife") == "danni Coltello da combattimento"
        assert names.purpose_text("death save bo") == "tiro salvezza contro la morte bo"
    with speaking("en"):
        assert names.purpose_text("attack ?") == "attack someone unseen"
