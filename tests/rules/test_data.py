"""Tests of the rules data records and of the shipped TOML files (P-VUL-1, P-DMG-1, P-HIT-2)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from game.rules.data import (
    DAMAGE_TYPES,
    DEFAULT_DIRECTORY,
    EFFECTS,
    RulesDataError,
    VulnerabilityBand,
    load_rules,
    parse_armour,
    parse_weapon,
)

# The seed's human table, typed by hand from "Applicazione del danno e vulnerabilità".
SEED_HUMAN = {
    "taglio": [
        (1, 5, ("light_wound",)),
        (6, 9, ("grave_wound",)),
        (10, 13, ("out_of_combat", "grave_wound")),
        (14, None, ("out_of_combat", "mortal_wound")),
    ],
    "perforante": [
        (1, 5, ("light_wound",)),
        (6, 9, ("grave_wound",)),
        (10, 13, ("out_of_combat", "grave_wound")),
        (14, None, ("out_of_combat", "mortal_wound")),
    ],
    "impatto": [
        (4, 7, ("stunned",)),
        (8, 9, ("light_wound", "stunned")),
        (10, 11, ("grave_wound", "stunned")),
        (12, 15, ("out_of_combat", "grave_wound")),
        (16, None, ("out_of_combat", "mortal_wound")),
    ],
    "elettrico": [
        (4, 7, ("stunned",)),
        (8, 9, ("shock",)),
        (10, 13, ("out_of_combat",)),
        (14, None, ("out_of_combat", "mortal_wound")),
    ],
    "ustione": [
        (1, 5, ("light_wound",)),
        (6, 9, ("grave_wound",)),
        (10, 13, ("out_of_combat", "grave_wound")),
        (14, None, ("out_of_combat", "mortal_wound")),
    ],
    "radiazione": [
        (1, 5, ("light_wound",)),
        (6, 13, ("grave_wound", "stunned")),
        (14, None, ("mortal_wound", "stunned")),
    ],
}

# A complete, valid vulnerability table to append under a new id, broken in one place by a test.
VALID_TABLE_BODY = """
taglio = [{ low = 1, effects = ["light_wound"] }]
perforante = [{ low = 1, effects = ["light_wound"] }]
impatto = [{ low = 1, effects = ["light_wound"] }]
elettrico = [{ low = 1, effects = ["light_wound"] }]
ustione = [{ low = 1, effects = ["light_wound"] }]
radiazione = []
"""


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """A copy of the shipped data directory that a test may break."""
    target = tmp_path / "periferie"
    shutil.copytree(DEFAULT_DIRECTORY, target)
    return target


def append(directory: Path, filename: str, text: str) -> None:
    with (directory / filename).open("a", encoding="utf-8") as handle:
        handle.write("\n" + text + "\n")


def load_error(directory: Path) -> str:
    with pytest.raises(RulesDataError) as caught:
        load_rules(directory=directory)
    return str(caught.value)


def test_p_vul_1_shipped_human_table_is_the_seed_table_exactly() -> None:
    human = load_rules().vulnerabilities["human"]
    assert set(human.bands) == set(DAMAGE_TYPES)
    for damage_type, bands in SEED_HUMAN.items():
        expected = tuple(VulnerabilityBand(low, high, effects) for low, high, effects in bands)
        assert human.bands[damage_type] == expected, damage_type


def test_p_vul_1_effects_at_reads_bands_and_gives_nothing_below_the_first() -> None:
    human = load_rules().vulnerabilities["human"]
    assert human.effects_at("impatto", 3) == ()  # impatto starts at 4
    assert human.effects_at("impatto", 4) == ("stunned",)
    assert human.effects_at("impatto", 11) == ("grave_wound", "stunned")
    assert human.effects_at("perforante", 0) == ()
    assert human.effects_at("perforante", 99) == ("out_of_combat", "mortal_wound")  # 14 or more
    assert human.effects_at("radiazione", 13) == ("grave_wound", "stunned")


def test_p_vul_1_a_damage_type_with_no_bands_is_immune() -> None:
    drone = load_rules().vulnerabilities["drone"]
    assert drone.effects_at("radiazione", 50) == ()


def test_p_dmg_1_shipped_data_loads_with_all_damage_types_and_english_names() -> None:
    rules = load_rules()
    assert tuple(rules.damage_types) == DAMAGE_TYPES
    assert rules.damage_types["perforante"].name == "piercing"


def test_p_vul_1_shipped_effect_names_are_all_from_the_query_contract() -> None:
    for table in load_rules().vulnerabilities.values():
        for bands in table.bands.values():
            for band in bands:
                assert set(band.effects) <= set(EFFECTS)


def test_p_mov_2_shipped_human_template_is_a_medium_human_with_human_speeds() -> None:
    human = load_rules().templates["human"]
    assert human.size == "medium"
    assert dict(human.checks) == {}
    assert dict(human.speeds) == {"walk": 5, "crawl": 5, "swim": 5, "climb": 5, "jump": 4}
    assert human.thrusters is False
    assert human.vulnerability == "human"
    assert (human.weapon, human.armour) == (None, None)


def test_p_vul_1_shipped_templates_reference_existing_tables_weapons_armour() -> None:
    rules = load_rules()
    assert len(rules.templates) >= 4
    for template in rules.templates.values():
        assert template.vulnerability in rules.vulnerabilities
        assert template.weapon is None or template.weapon in rules.weapons
        assert template.armour is None or template.armour in rules.armour
        assert ("thrusters" in template.speeds) == template.thrusters


def test_p_hit_4_shipped_weapons_are_marked_samples_and_cover_the_setting() -> None:
    weapons = load_rules().weapons
    assert all(weapon.sample for weapon in weapons.values())
    assert weapons["stun_baton"].kind == "melee"
    assert weapons["stun_baton"].damage_type == "elettrico"
    assert weapons["combat_knife"].damage_type == "taglio"
    assert weapons["flamethrower"].damage_type == "ustione"
    assert weapons["rad_emitter"].damage_type == "radiazione"


def test_p_thr_1_frag_grenade_is_a_light_object_with_an_area() -> None:
    grenade = load_rules().weapons["frag_grenade"]
    assert grenade.kind == "thrown"
    assert (grenade.medium_range, grenade.long_range) == (4, 9)
    # P-AREA-1: every cell within 1 of the origin, 3 × 3 × 3 = 27 offsets.
    assert len(grenade.area) == 27
    assert (0, 0, 0) in grenade.area
    assert grenade.area_ignores_sight is False


def test_p_vul_3_incendiary_grenade_sets_its_target_burning_on_a_hit() -> None:
    grenade = load_rules().weapons["incendiary_grenade"]
    assert (grenade.kind, grenade.damage_type, grenade.damage) == ("thrown", "ustione", "1d8")
    assert (grenade.medium_range, grenade.long_range) == (4, 9)  # P-THR-1: a light object
    assert len(grenade.area) == 9  # the aimed cell and the 8 around it at its level
    assert grenade.on_hit == ("burning",)


def test_p_vul_3_flash_grenade_blinds_its_target_and_barely_hurts() -> None:
    grenade = load_rules().weapons["flash_grenade"]
    assert grenade.kind == "thrown"
    assert grenade.damage == "1d2-1"  # 0 or 1 impatto: below the human table's first band (4)
    assert grenade.on_hit == ("blinded",)


def test_p_vul_3_weapons_without_on_hit_give_no_condition() -> None:
    weapons = load_rules().weapons
    assert weapons["pistol"].on_hit == ()
    assert weapons["frag_grenade"].on_hit == ()


def test_p_vul_3_inline_weapon_reads_on_hit_conditions_in_order() -> None:
    weapon = parse_weapon(
        "taser",
        {"hit": 70, "damage": "1d4", "type": "elettrico", "on_hit": ["stunned", "blinded"]},
        "entities[0].weapon",
    )
    assert weapon.on_hit == ("stunned", "blinded")


def test_p_area_1_flamethrower_area_ignores_line_of_sight() -> None:
    flamer = load_rules().weapons["flamethrower"]
    assert flamer.area
    assert flamer.area_ignores_sight is True


def test_p_dmg_1_shipped_armour_fills_missing_damage_types_with_zero() -> None:
    vest = load_rules().armour["padded_vest"]
    assert vest.damage["perforante"] == 20
    assert vest.damage["radiazione"] == 0  # not listed in armour.toml
    assert set(vest.hit) == set(DAMAGE_TYPES)


def test_p_vul_1_rules_records_are_immutable() -> None:
    rules = load_rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.weapons["pistol"].hit = 99  # type: ignore[misc]
    with pytest.raises(TypeError):
        rules.armour["padded_vest"].damage["taglio"] = 99  # type: ignore[index]
    with pytest.raises(TypeError):
        rules.weapons["new"] = rules.weapons["pistol"]  # type: ignore[index]
    assert isinstance(rules.vulnerabilities["human"].bands["taglio"], tuple)


def test_p_vul_1_default_rules_are_loaded_once_and_cached() -> None:
    assert load_rules() is load_rules()


def test_p_hit_4_inline_weapon_of_the_query_format_parses_as_a_firearm() -> None:
    weapon = parse_weapon(
        "ada.weapon",
        {"hit": 70, "damage": "2d6", "type": "perforante", "kind": "firearm"},
        "entities[0].weapon",
    )
    assert (weapon.hit, weapon.damage, weapon.damage_type, weapon.kind) == (
        70,
        "2d6",
        "perforante",
        "firearm",
    )
    assert weapon.area == ()
    default_kind = parse_weapon("w", {"hit": 50, "damage": "1d8", "type": "impatto"}, "here")
    assert default_kind.kind == "firearm"


def test_p_dmg_1_inline_armour_of_the_query_format_parses_with_zeros_elsewhere() -> None:
    armour = parse_armour(
        "ada.armour", {"hit": {"perforante": 10}, "damage": {"perforante": 20}}, "entities[0]"
    )
    assert armour.hit["perforante"] == 10
    assert armour.damage["perforante"] == 20
    assert armour.damage["taglio"] == 0
    assert armour.hit["ustione"] == 0


@pytest.mark.parametrize(
    ("mapping", "field", "fragment"),
    [
        ({"hit": 130, "damage": "2d6", "type": "perforante"}, "hit", "130 is not a percentage"),
        ({"hit": 0, "damage": "2d6", "type": "perforante"}, "hit", "1..100"),
        ({"hit": True, "damage": "2d6", "type": "perforante"}, "hit", "is not a percentage"),
        ({"damage": "2d6", "type": "perforante"}, "hit", "missing"),
        ({"hit": 50, "damage": "2x6", "type": "perforante"}, "damage", "not a dice expression"),
        ({"hit": 50, "damage": "1d4-2", "type": "impatto"}, "damage", "below 0"),
        ({"hit": 50, "damage": "2d6", "type": "fuoco"}, "type", "'fuoco' is not one of"),
        ({"hit": 50, "damage": "2d6", "type": "taglio", "kind": "laser"}, "kind", "laser"),
        ({"hit": 50, "damage": "2d6", "type": "taglio", "colour": "red"}, "colour", "unknown"),
        (
            {"hit": 50, "damage": "1d6", "type": "taglio", "kind": "melee", "long_range": 3},
            "long_range",
            "melee",
        ),
        (
            {"hit": 60, "damage": "1d8", "type": "impatto", "kind": "thrown"},
            "medium_range",
            "missing",
        ),
        (
            {"hit": 50, "damage": "2d6", "type": "taglio", "medium_range": 9, "long_range": 4},
            "long_range",
            "4 is not cells >= 9",
        ),
        (
            {"hit": 50, "damage": "2d6", "type": "taglio", "area": [[0, 0]]},
            "area[0]",
            "3 whole numbers",
        ),
        (
            {"hit": 50, "damage": "2d6", "type": "taglio", "area_ignores_sight": True},
            "area_ignores_sight",
            "without an area",
        ),
        (
            {"hit": 50, "damage": "2d6", "type": "ustione", "on_hit": "burning"},
            "on_hit",
            "'burning' is not a list of condition names",
        ),
        (
            {"hit": 50, "damage": "2d6", "type": "ustione", "on_hit": ["burning", "on_fire"]},
            "on_hit[1]",
            "unknown condition 'on_fire'",
        ),
        (
            {"hit": 50, "damage": "2d6", "type": "ustione", "on_hit": ["dead"]},
            "on_hit[0]",
            "unknown condition 'dead'",
        ),
        (
            {"hit": 50, "damage": "2d6", "type": "ustione", "on_hit": ["burning", "burning"]},
            "on_hit",
            "listed twice",
        ),
    ],
)
def test_p_hit_2_inline_weapon_errors_name_the_place_the_entry_and_the_field(
    mapping: dict[str, object], field: str, fragment: str
) -> None:
    with pytest.raises(RulesDataError) as caught:
        parse_weapon("gun", mapping, "entities[2].weapon")
    message = str(caught.value)
    assert message.startswith(f"entities[2].weapon: weapon 'gun': field '{field}': ")
    assert fragment in message


def test_p_dmg_1_inline_armour_errors_name_the_damage_type_field() -> None:
    with pytest.raises(RulesDataError, match=r"armour 'a': field 'damage\.fuoco': unknown"):
        parse_armour("a", {"damage": {"fuoco": 10}}, "entities[0].armour")
    with pytest.raises(RulesDataError, match=r"field 'hit\.taglio': 101 is not a percentage"):
        parse_armour("a", {"hit": {"taglio": 101}}, "entities[0].armour")


def test_p_hit_2_broken_copy_bad_percentage_names_file_entry_and_field(data_copy: Path) -> None:
    append(data_copy, "weapons.toml", '[pistola]\nhit = 130\ndamage = "2d6"\ntype = "perforante"')
    assert load_error(data_copy) == (
        "weapons.toml: weapon 'pistola': field 'hit': 130 is not a percentage 1..100"
    )


def test_p_dmg_1_broken_copy_bad_armour_percentage_names_file_entry_and_field(
    data_copy: Path,
) -> None:
    append(data_copy, "armour.toml", "[tin_can]\ndamage = { impatto = 120 }")
    message = load_error(data_copy)
    assert message.startswith("armour.toml: armour 'tin_can': field 'damage.impatto': 120")


def test_p_vul_1_broken_copy_unknown_effect_names_file_entry_and_field(data_copy: Path) -> None:
    body = VALID_TABLE_BODY.replace('"light_wound"]', '"sneezing"]', 1)
    append(data_copy, "vulnerabilities.toml", "[odd]" + body)
    message = load_error(data_copy)
    assert message.startswith("vulnerabilities.toml: table 'odd': field 'taglio[0].effects': ")
    assert "'sneezing'" in message


def test_p_vul_1_broken_copy_overlapping_bands_name_file_entry_and_field(data_copy: Path) -> None:
    body = VALID_TABLE_BODY.replace(
        'taglio = [{ low = 1, effects = ["light_wound"] }]',
        'taglio = [{ low = 1, high = 6, effects = ["light_wound"] },'
        ' { low = 5, effects = ["grave_wound"] }]',
    )
    append(data_copy, "vulnerabilities.toml", "[odd]" + body)
    message = load_error(data_copy)
    assert message.startswith("vulnerabilities.toml: table 'odd': field 'taglio[1].low': 5 ")
    assert "overlaps" in message


def test_p_vul_1_broken_copy_gap_between_bands_is_an_error(data_copy: Path) -> None:
    body = VALID_TABLE_BODY.replace(
        'impatto = [{ low = 1, effects = ["light_wound"] }]',
        'impatto = [{ low = 1, high = 3, effects = ["light_wound"] },'
        ' { low = 6, effects = ["grave_wound"] }]',
    )
    append(data_copy, "vulnerabilities.toml", "[odd]" + body)
    assert "table 'odd': field 'impatto[1].low': 6 leaves a gap" in load_error(data_copy)


def test_p_vul_1_broken_copy_closed_last_band_is_an_error(data_copy: Path) -> None:
    body = VALID_TABLE_BODY.replace(
        'ustione = [{ low = 1, effects = ["light_wound"] }]',
        'ustione = [{ low = 1, high = 9, effects = ["light_wound"] }]',
    )
    append(data_copy, "vulnerabilities.toml", "[odd]" + body)
    assert "table 'odd': field 'ustione[0].high': the last band" in load_error(data_copy)


def test_p_vul_1_broken_copy_missing_damage_type_in_a_table_is_an_error(data_copy: Path) -> None:
    body = VALID_TABLE_BODY.replace("radiazione = []", "")
    append(data_copy, "vulnerabilities.toml", "[odd]" + body)
    assert load_error(data_copy) == (
        "vulnerabilities.toml: table 'odd': field 'radiazione': missing"
    )


def test_p_hit_4_broken_copy_unknown_weapon_in_template_names_file_entry_and_field(
    data_copy: Path,
) -> None:
    append(data_copy, "templates.toml", '[pirate]\nweapon = "cutlass"')
    message = load_error(data_copy)
    assert message.startswith(
        "templates.toml: template 'pirate': field 'weapon': unknown weapon 'cutlass'"
    )


def test_p_vul_1_broken_copy_unknown_vulnerability_in_template_is_an_error(data_copy: Path) -> None:
    append(data_copy, "templates.toml", '[ghost]\nvulnerability = "ectoplasm"')
    assert "template 'ghost': field 'vulnerability': unknown table 'ectoplasm'" in load_error(
        data_copy
    )


def test_p_dmg_1_broken_copy_bad_dice_text_names_file_entry_and_field(data_copy: Path) -> None:
    append(data_copy, "weapons.toml", '[blaster]\nhit = 50\ndamage = "two d six"\ntype = "ustione"')
    assert load_error(data_copy) == (
        "weapons.toml: weapon 'blaster': field 'damage': "
        "'two d six' is not a dice expression like '2d6+1'"
    )


def test_p_vul_3_broken_copy_unknown_on_hit_condition_names_file_entry_and_field(
    data_copy: Path,
) -> None:
    append(
        data_copy,
        "weapons.toml",
        '[napalm]\nhit = 50\ndamage = "1d8"\ntype = "ustione"\non_hit = ["ablaze"]',
    )
    assert load_error(data_copy) == (
        "weapons.toml: weapon 'napalm': field 'on_hit[0]': unknown condition 'ablaze' "
        "(known: stunned, shock, blinded, burning, out_of_combat)"
    )


def test_p_dmg_1_broken_copy_unknown_key_names_file_entry_and_key(data_copy: Path) -> None:
    append(data_copy, "armour.toml", '[cape]\ncolour = "red"')
    message = load_error(data_copy)
    assert message.startswith("armour.toml: armour 'cape': field 'colour': unknown key")


def test_p_chk_1_broken_copy_unknown_check_name_in_template_is_an_error(data_copy: Path) -> None:
    append(data_copy, "templates.toml", '[typo]\nchecks = { "precisione (arni a distanza)" = 2 }')
    assert "template 'typo': field 'checks.precisione (arni a distanza)': unknown check" in (
        load_error(data_copy)
    )


def test_p_mov_2_broken_copy_thrusters_speed_without_thrusters_is_an_error(data_copy: Path) -> None:
    append(data_copy, "templates.toml", "[walker]\nspeeds = { thrusters = 5 }")
    assert "template 'walker': field 'speeds.thrusters': given, but thrusters = false" in (
        load_error(data_copy)
    )


def test_p_mov_2_template_with_thrusters_gets_default_thruster_speed(data_copy: Path) -> None:
    append(data_copy, "templates.toml", "[jumper]\nthrusters = true\nspeeds = { walk = 4 }")
    jumper = load_rules(directory=data_copy).templates["jumper"]
    # P-MOV-2: thrusters 5 if fitted; walk as given; the rest are the human defaults.
    assert dict(jumper.speeds) == {
        "walk": 4,
        "crawl": 5,
        "swim": 5,
        "climb": 5,
        "jump": 4,
        "thrusters": 5,
    }


def test_p_vul_1_broken_copy_invalid_toml_names_the_file(data_copy: Path) -> None:
    append(data_copy, "weapons.toml", "[broken\nhit = 1")
    assert load_error(data_copy).startswith("weapons.toml: not valid TOML: ")


def test_p_dmg_1_broken_copy_missing_file_names_the_file(data_copy: Path) -> None:
    (data_copy / "armour.toml").unlink()
    assert load_error(data_copy).startswith("armour.toml: missing from ")


def test_p_dmg_1_broken_copy_missing_damage_type_names_it(data_copy: Path) -> None:
    text = (data_copy / "damage_types.toml").read_text(encoding="utf-8")
    (data_copy / "damage_types.toml").write_text(
        text.replace('[ustione]\nname = "burn"', ""), encoding="utf-8"
    )
    assert load_error(data_copy) == "damage_types.toml: damage type 'ustione': missing"


def test_p_vul_1_copy_of_shipped_data_loads_and_equals_the_default(data_copy: Path) -> None:
    assert load_rules(directory=data_copy) == load_rules()
