"""Issue 16, words: a throw and a shot at a cell (game/battle/handlers.py, through
combat.weapon_named) name the weapon the unit fights with under the battle's ruleset — the
Cepheus sheet's, by its sample id and its data name — not the map's periferie weapon, and the
log words it in the interface's language (names.weapon_name). Periferie's events keep their
fields."""

from __future__ import annotations

from dataclasses import replace

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.setup import UnitSpec
from game.ecs.components import RulesetSheet
from game.rules.cepheus.data import default_data
from game.text.explain_battle import event_text
from game.text.i18n import speaking
from tests.battle.conftest import MakeBattle


def _battle(make_battle: MakeBattle, weapon: str, ruleset: str = "cepheus") -> Battle:
    ada = UnitSpec("ada", "blue", (5, 5, 0), template="scavenger", weapon=weapon)
    foe = UnitSpec("foe", "red", (15, 5, 0), weapon="pistol")
    plain = make_battle([ada, foe])
    return Battle(replace(plain.setup, ruleset=ruleset), plain.grid, plain.rules)


def _turn_of(battle: Battle, unit: str) -> None:
    for _ in range(4):
        if battle.active == unit:
            return
        assert battle.active is not None
        assert battle.apply(cmd.EndTurn(battle.active), GM).refusal is None
    raise AssertionError(f"{unit} never acts")


def test_a_cepheus_throw_at_a_cell_names_the_sheets_grenade_not_the_maps_incendiary(
    make_battle: MakeBattle,
) -> None:
    # sheets.toml's from_periferie: the map's incendiary_grenade is the sample "granata" (an
    # impact grenade without a blast) under Cepheus. Thrown at a cell 4 cells (6 m, Breve)
    # away: 6 + 6 on 2d6 is a hit whatever the DMs (000:l.134), landing where aimed.
    battle = _battle(make_battle, "incendiary_grenade")
    try:
        _turn_of(battle, "ada")
        battle.roller.supply(6, 6)
        assert battle.apply(cmd.Throw("ada", at=(9, 5, 0)), GM).refusal is None
        throw = next(e for e in battle.log if e.kind == "throw")
        assert throw.data["weapon"] == "incendiary_grenade"  # the map's, kept as before
        assert throw.data["sheet_weapon"] == "granata"
        assert throw.data["weapon_name"] == "Granata (a impatto, senza area)"
        with speaking("en"):
            english = event_text(throw)
            plain = event_text(throw, details=False)
        assert english.startswith("ada throws Grenade (impact, no blast) at ")
        assert plain.startswith("ada throws Grenade (impact, no blast)")
        assert "Incendiary" not in english + plain
        with speaking("it"):
            italian = event_text(throw)
        assert italian.startswith("ada lancia Granata (a impatto, senza area) ")
        assert "incendiaria" not in italian
    finally:
        battle.close()


def test_a_cepheus_shot_at_a_cell_names_the_sheets_rocket_launcher_not_the_maps_pistol(
    make_battle: MakeBattle,
) -> None:
    # A Cepheus sheet armed with an explosive (the sample lanciarazzi given a 1-cell blast, G-4)
    # fires it at an empty cell 4 cells away (Breve, razzo: Difficile -2, 000:l.56): 6 + 6 on
    # 2d6 hits whatever the DMs. The map gave the unit periferie's pistol.
    battle = _battle(make_battle, "pistol")
    try:
        sheet = battle.world.get("ada", RulesetSheet).sheet
        rocket = replace(default_data().samples.weapons["lanciarazzi"], blast=1)
        battle.world.set("ada", RulesetSheet(replace(sheet, weapon=rocket)))  # type: ignore[type-var]
        _turn_of(battle, "ada")
        battle.roller.supply(6, 6)
        assert battle.apply(cmd.Attack("ada", at=(9, 5, 0)), GM).refusal is None
        shot = next(e for e in battle.log if e.kind == "attack")
        assert shot.data["weapon"] == "pistol"
        assert (shot.data["sheet_weapon"], shot.data["weapon_name"]) == (
            "lanciarazzi",
            "Lanciarazzi",
        )
        with speaking("en"):
            english = event_text(shot)
            plain = event_text(shot, details=False)
        assert english.startswith("ada fires Rocket launcher at ")
        assert plain.startswith("ada fires Rocket launcher at a cell: ")
        assert "pistol" not in (english + plain).lower()
        with speaking("it"):
            assert "Lanciarazzi" in event_text(shot)
    finally:
        battle.close()


def test_a_periferie_throw_keeps_its_fields_and_names_the_maps_weapon(
    make_battle: MakeBattle,
) -> None:
    # Periferie's sheet is its components: no ruleset weapon to name (the journal's bytes).
    battle = _battle(make_battle, "frag_grenade", ruleset="periferie")
    try:
        _turn_of(battle, "ada")
        assert battle.apply(cmd.Throw("ada", at=(7, 5, 0)), GM).refusal is None
        throw = next(e for e in battle.log if e.kind == "throw")
        assert "sheet_weapon" not in throw.data and "weapon_name" not in throw.data
        with speaking("en"):
            assert event_text(throw).startswith("ada throws Frag grenade at ")
    finally:
        battle.close()
