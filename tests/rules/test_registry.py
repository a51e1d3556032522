"""The one list of rulesets (game/rules/registry.py) and the rules data each one loads."""

from __future__ import annotations

import pytest

from game.rules import registry
from game.rules.data import load_rules


def test_the_periferie_ruleset_is_known_by_its_seeds_title_and_is_the_default() -> None:
    # Seed 001 is "Le Periferie del Vuoto", its rules data in game/data/periferie.
    periferie = registry.ruleset("periferie")
    assert periferie.title == "Le Periferie del Vuoto"
    assert periferie.directory.name == "periferie"
    assert (periferie.directory / "weapons.toml").is_file()
    assert registry.DEFAULT == "periferie"
    assert tuple(r.id for r in registry.RULESETS) == registry.IDS
    assert registry.IDS[0] == "periferie" and {"myst", "fantasy"} <= set(registry.IDS)


def test_an_unknown_ruleset_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(
        registry.UnknownRuleset, match=r"unknown ruleset 'gurps' \(known: periferie, .*myst"
    ):
        registry.ruleset("gurps")
    with pytest.raises(ValueError, match="unknown ruleset 'gurps'"):
        load_rules("gurps")


def test_cepheus_is_listed_with_its_own_data_folder() -> None:
    # Seed 000: the Cepheus Engine SRD's chapter 5; its tables in game/data/cepheus.
    cepheus = registry.ruleset("cepheus")
    assert (cepheus.directory / "combat.toml").is_file()


def test_load_rules_loads_the_named_rulesets_data_once() -> None:
    assert load_rules("periferie") is load_rules() is load_rules(registry.DEFAULT)
    assert "pistol" in load_rules("periferie").weapons
