"""game/text/names.py: sides, kit, damage types and checks by display name in both languages."""

from __future__ import annotations

import re
from pathlib import Path

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


def _ruleset_weapons() -> dict[str, dict[str, str]]:
    """Every weapon of every ruleset's TOML by its data id, with the data's own name."""
    from game.rules.cepheus.data import default_data
    from game.rules.d20.data import load_d20
    from game.rules.fantasy.data import load as load_fantasy
    from game.rules.myst.data import load as load_myst

    fantasy = load_fantasy()
    fantasy_arms = [fantasy.defaults.weapon, *(s.weapon for s in fantasy.samples.values())]
    return {
        "periferie": {w.id: w.name for w in load_rules("periferie").weapons.values()},
        "myst": {w.id: w.name for w in load_myst().weapons.values()},
        "fantasy": {w.id: w.name for w in fantasy_arms},
        "cepheus": {k: w.name for k, w in default_data().samples.weapons.items()},
        "d20": {w.id: w.name for w in load_d20().weapons.values()},
    }


def _italian_catalogue() -> dict[str, str]:
    po = Path(__file__).resolve().parents[2] / "game/text/locale/it/LC_MESSAGES/tessera.po"
    return dict(re.findall(r'^msgid "(.+)"\nmsgstr "(.*)"$', po.read_text("utf-8"), re.M))


def test_every_weapon_id_of_every_rulesets_toml_has_an_english_name_and_its_italian() -> None:
    # Issue 16: the data keeps its id (and its own, often Italian, name); players read a
    # gettext name, never the data's "Spada" in the English interface. A fantasy sample
    # weapon's id is its table's `id` (game/data/fantasy/sheets.toml, rules.toml [defaults]).
    catalogue = _italian_catalogue()
    unnamed, untranslated = [], []
    for ruleset, weapons in _ruleset_weapons().items():
        assert weapons and "" not in weapons, ruleset
        for wid in weapons:
            with speaking("en"):
                english = names.weapon_name(wid, "\0")
            if english == "\0":
                unnamed.append(f"{ruleset}: {wid}")
            elif not catalogue.get(english):
                untranslated.append(f"{ruleset}: {wid} ({english!r})")
    assert unnamed == [] and untranslated == []


def test_the_italian_data_names_read_in_italian_and_english_in_english() -> None:
    # Myst's and Cepheus's TOML name their weapons in Italian (the seeds' words), d20's in
    # English: each reads its own data name in its language, and the other language's word
    # in the other (the English interface never shows "Spada" or "Carabina").
    weapons = _ruleset_weapons()
    italian_data = {**weapons["myst"], **weapons["cepheus"]}
    for wid, name in weapons["fantasy"].items():
        if wid != "pugno":  # fantasy's bare "Pugno" is Myst's "pugno o calcio" (002:l.91)
            italian_data[wid] = name
    with speaking("it"):
        assert {w: names.weapon_name(w).lower() for w in italian_data} == {
            w: n.lower() for w, n in italian_data.items()
        }
    with speaking("en"):
        english = {w: names.weapon_name(w) for w in italian_data}
        assert english["spada"] == "Sword" and english["balestra"] == "Crossbow"
        assert english["carabina"] == "Carbine" and english["fucile_d_assalto"] == "Assault rifle"
        assert not {w for w, n in english.items() if n == italian_data[w]}
        assert {w: names.weapon_name(w) for w in weapons["d20"]} == weapons["d20"]


def test_a_weapon_id_no_catalogue_names_reads_its_data_name() -> None:
    # A scenario's inline weapon (Myst's id "inline", a d20 object's name as its id) is named
    # by the name it was given.
    with speaking("en"):
        assert names.weapon_name("inline", "Ascia del nonno") == "Ascia del nonno"
        assert names.weapon_name("", "Mio") == "Mio"
