"""`tessera query` under the Cepheus ruleset (RULESETS.md section 4): every query through
parse_scenario and answer_all, refusals by name, and the shipped maps."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.scenario.parse import parse_scenario
from game.scenario.queries import answer_all
from game.tactics.ruleset import Json

ROOT = Path(__file__).resolve().parents[2]

ADA = {
    "id": "ada",
    "faction": "red",
    "at": [1, 3, 0],
    "sheet": {
        "chars": {"str": 7, "dex": 9, "end": 8},
        "dm": {"dex": 1},
        "skills": {"armi da fuoco": 1},
        "weapon": "pistola_automatica",
    },
}
BO = {
    "id": "bo",
    "faction": "blue",
    "at": [7, 3, 0],
    "stance": "crouched",
    "sheet": {"chars": {"str": 8, "dex": 6, "end": 7}, "armour": 3},
}
CY = {"id": "cy", "faction": "blue", "at": [7, 7, 0], "sheet": {"chars": {"dex": 6}}}
# A half wall at (6, 3, 0) before bo; a full one at (6, 6, 0) between ada and cy.
CELLS = [{"at": [6, 3, 0], "obstacle": "half"}, {"at": [6, 6, 0], "obstacle": "full"}]


def _ask(
    *queries: Json, entities: list[Json] | None = None, cells: list[Json] | None = None
) -> list[Json]:
    scenario = {
        "ruleset": "cepheus",
        "map": {"size": [20, 10, 1], "cells": CELLS if cells is None else cells},
        "entities": entities or [ADA, BO, CY],
        "queries": list(queries),
    }
    bf, parsed = parse_scenario(scenario, ROOT)
    results: list[Json] = answer_all(bf, parsed)["results"]
    return results


def test_attack_answers_band_difficulty_modifiers_and_the_exact_chance() -> None:
    # 6 cells = 9 m: Breve (C-2); pistol at Breve: Media 0 (000:l.52). Armi da Fuoco 1 + DEX DM 1
    # + aim 2 (l.87) + cover: the half wall is 1/2, crouched one row better 3/4, -2 (C-3, l.341)
    # = +2: 2d6 >= 6, 26/36 = 13/18. Dice 3 + 4 + 2 = 9: Effect 1, a hit.
    (answer,) = _ask(
        {"q": "attack", "attacker": "ada", "target": "bo", "situation": {"aim": 2}, "dice": [3, 4]}
    )
    assert answer["band"] == "breve" and answer["difficulty"] == "media"
    assert answer["modifiers"] == {
        "skill": 1, "characteristic": 1, "difficulty": 0, "aim": 2, "cover": -2,
    }  # fmt: skip
    assert (answer["total_dm"], answer["target"], answer["chance"]) == (2, 8, "13/18")
    assert answer["extra_damage"] == "0" and answer["cover"] == "3/4"
    assert answer["result"] == {"total": 9, "effect": 1, "hit": True}
    assert {"C-1", "C-2", "C-3"} <= set(answer["rules"])


def test_attack_with_a_burst_and_a_dodge_in_cover() -> None:
    # Burst 10: +2 and +2D6 (000:l.254); dodging in cover -2 (l.166): 1 + 1 + 0 - 2 - 2 + 2 = 0,
    # 2d6 >= 8: 15/36 = 5/12.
    (answer,) = _ask(
        {"q": "attack", "attacker": "ada", "target": "bo",
         "situation": {"dodge": True, "burst": 10}}
    )  # fmt: skip
    assert answer["modifiers"]["dodge"] == -2 and answer["modifiers"]["burst"] == 2
    assert (answer["chance"], answer["extra_damage"]) == ("5/12", "2d6")


def test_attack_reasons_no_los_out_of_range_and_cannot_be_hit() -> None:
    knife = {"type": "corpo_a_corpo", "damage": "2d6"}
    no_los, out, hidden = _ask(
        {"q": "attack", "attacker": "ada", "target": "cy"},
        # 000:l.49: Corpo a Corpo at Breve is "--".
        {"q": "attack", "attacker": "ada", "target": "bo", "weapon": knife},
        # 000:l.260: full cover (the GM's) and crouched: cannot be hit.
        {"q": "attack", "attacker": "ada", "target": "bo", "situation": {"cover": "full"}},
    )
    assert (no_los["chance"], no_los["reason"]) == (None, "no_los")
    assert (out["chance"], out["reason"], out["band"]) == (None, "out_of_range", "breve")
    assert (hidden["chance"], hidden["reason"]) == (None, "cannot_be_hit")


def test_attack_refuses_bad_situations_by_name() -> None:
    bad_key, ranged_parry, bad_dice = _ask(
        {"q": "attack", "attacker": "ada", "target": "bo", "situation": {"aim_twice": True}},
        {"q": "attack", "attacker": "ada", "target": "bo", "situation": {"parry": True}},
        {"q": "attack", "attacker": "ada", "target": "bo", "dice": [7, 1]},
    )
    assert bad_key["error"].startswith("queries[0].situation: unknown field 'aim_twice'")
    assert bad_key["error"].count("aim_to_kill") == 1  # the known ones are listed
    # 000:l.170: only melee attacks can be parried.
    assert ranged_parry["error"].startswith("queries[1].situation.parry")
    assert bad_dice["error"].startswith("queries[2].dice[0]: 7 is above")


def test_firing_into_melee_is_read_from_the_grid() -> None:
    # 000:l.287: an ally of ada's stands next to bo: -2.
    dee = {"id": "dee", "faction": "red", "at": [8, 4, 0]}
    (answer,) = _ask(
        {"q": "attack", "attacker": "ada", "target": "bo"}, entities=[ADA, BO, CY, dee]
    )
    assert answer["modifiers"]["into_melee"] == -2


def test_cover_answers_the_grade_and_its_dm() -> None:
    # C-3: half wall 1/2, crouched 3/4 (-2); the GM's full cover crouched: cannot be hit.
    graded, override, no_los = _ask(
        {"q": "cover", "attacker": "ada", "target": "bo"},
        {"q": "cover", "attacker": "ada", "target": "bo", "cover": "full"},
        {"q": "cover", "attacker": "ada", "target": "cy"},
    )
    assert (graded["cover"], graded["dm"]) == ("3/4", -2)
    assert (override["cover"], override["dm"], override["reason"]) == (
        "full",
        None,
        "cannot_be_hit",
    )
    assert (no_los["cover"], no_los["reason"]) == (None, "no_los")


def test_damage_goes_to_end_then_the_higher_of_str_and_dex() -> None:
    # C-5: 10 + Effect 1 - armour 3 = 8; END 7 -> 0, the last 1 to STR (8 > DEX 6) -> 7.
    (answer,) = _ask({"q": "damage", "target": "bo", "rolled": 10, "effect": 1})
    assert answer["damage"] == 8
    assert answer["chars"] == {"end": 0, "str": 7, "dex": 6}
    assert answer["applied"] == {"end": 7, "str": 1}
    assert answer["state"] == "wounded"


def test_damage_with_a_choice_and_a_bonus_and_its_refusals() -> None:
    # 4 + Effect 2 + burst 7 - 3 = 10: END 7, then 3 to DEX (chosen) -> 3.
    chosen, missing, bad_to = _ask(
        {"q": "damage", "target": "bo", "rolled": 4, "effect": 2, "bonus": 7, "to": "dex"},
        {"q": "damage", "target": "cy", "rolled": 4},
        {"q": "damage", "target": "bo", "rolled": 4, "to": "int"},
    )
    assert chosen["chars"] == {"end": 0, "str": 8, "dex": 3}
    assert "sheet.chars.end" in missing["error"] and "'cy'" in missing["error"]
    assert bad_to["error"].startswith("queries[2].to: unknown value 'int'")


def test_initiative_with_ambush_hasty_reactions_and_ties() -> None:
    # 000:l.64: ada 7 + DEX DM 1 = 8; bo 9 + 0 + hasty 2 (l.79) - 2 for a reaction (l.160) = 9;
    # cy aware in an ambush: 12 + 0 = 12.
    (answer,) = _ask(
        {"q": "initiative", "rolls": {"ada": 7, "bo": 9}, "aware": ["cy"], "hasty": ["bo"],
         "reactions": {"bo": 1}}
    )  # fmt: skip
    assert answer["order"] == ["cy", "bo", "ada"]
    assert answer["scores"] == {"ada": 8, "bo": 9, "cy": 12}
    assert answer["simultaneous"] == []


def test_initiative_ties_by_dex_then_simultaneous_and_a_missing_dex_is_named() -> None:
    # bo 8 (DEX 6) and cy 8 (DEX 6): simultaneous; ada 7 + 1 = 8 has DEX 9: first.
    tie, unknown = _ask(
        {"q": "initiative", "rolls": {"ada": 7, "bo": 8, "cy": 8}},
        {"q": "initiative", "rolls": {"zed": 7}},
    )
    assert tie["order"] == ["ada", "bo", "cy"]
    assert tie["simultaneous"] == [["bo", "cy"]]
    assert unknown["error"].startswith("queries[1].rolls: no entity 'zed'")
    nameless = {"id": "eve", "faction": "green", "at": [15, 1, 0]}
    (missing,) = _ask(
        {"q": "initiative", "rolls": {"ada": 7, "eve": 8}}, entities=[ADA, BO, CY, nameless]
    )
    assert "sheet.chars.dex" in missing["error"]


def test_reachable_gives_4_cells_a_minor_action_in_the_shared_shape() -> None:
    # C-4: 1 minor action = 4 cells. From (1, 3): x 0..5, y 0..7 -> 6 x 8 - 1 = 47 cells.
    (answer,) = _ask({"q": "reachable", "entity": "ada", "minor_actions": 1})
    assert answer["cells"] == 4
    assert len(answer["reachable"]) == 47
    assert max(row[3] for row in answer["reachable"]) == 4
    assert all(len(row) == 4 for row in answer["reachable"])


def test_reachable_halves_on_rough_ground_and_crawls_prone() -> None:
    # 000:l.103: rough ground halves: every cell of a 9x9 map rough, 4 points; a straight step
    # costs 1 + 1 (rough), a diagonal 1 + 1 + 1 for its rough corners (the shared search's
    # P-MOV-3). From (4, 4): 4 cells 1 step straight (cost 2), 4 diagonal (3), 4 two steps
    # straight (4); a knight's move costs 2 + 3 = 5: 12 cells.
    rough = [{"at": [x, y, 0], "terrain": ["rough"]} for x in range(9) for y in range(9)]
    walker = {"id": "w", "faction": "red", "at": [4, 4, 0]}
    (on_rough,) = _ask({"q": "reachable", "entity": "w"}, entities=[walker], cells=rough)
    assert sorted(row[3] for row in on_rough["reachable"]) == [2] * 4 + [3] * 4 + [4] * 4
    # Prone (C-4): 1 cell a minor action; 2 actions on open ground -> radius 2: 5 x 5 - 1 = 24.
    crawler = {"id": "w", "faction": "red", "at": [4, 4, 0], "stance": "prone"}
    (crawling,) = _ask(
        {"q": "reachable", "entity": "w", "minor_actions": 2}, entities=[crawler], cells=[]
    )
    assert crawling["cells"] == 2 and len(crawling["reachable"]) == 24


def test_reachable_for_the_seriously_wounded_is_one_cell_and_minor_actions_are_1_to_3() -> None:
    # 000:l.386: all three characteristics damaged: 1.5 m a round -> the 8 cells around.
    damaged = {"chars": {"str": 5, "dex": 5, "end": 5}, "max": {"str": 7, "dex": 7, "end": 7}}
    hurt = {"id": "h", "faction": "red", "at": [4, 4, 0], "sheet": damaged}
    slow, too_many = _ask(
        {"q": "reachable", "entity": "h", "minor_actions": 3},
        {"q": "reachable", "entity": "h", "minor_actions": 4},
        entities=[hurt],
        cells=[],
    )
    assert slow["cells"] == 1 and len(slow["reachable"]) == 8
    assert too_many["error"].startswith("queries[1].minor_actions: 4 is above the maximum 3")


def test_periferie_queries_are_not_cepheus_ones_and_chance_is_shared() -> None:
    hit, chance = _ask(
        {"q": "hit_chance", "attacker": "ada", "target": "bo"},
        {"q": "chance", "dice": "2d6+2", "at_least": 8},
    )
    assert hit["error"].startswith("queries[0].q: unknown value 'hit_chance'")
    assert chance["chance"] == "13/18"


def test_a_shipped_map_is_queried_under_cepheus() -> None:
    # maps/hull_breach.tmx: gravity 0 (zero-G, C-5). Varga (void_marine -> "marine": Armi da
    # Fuoco 2, G-Zero 2, DEX DM +1, carabina = fucile with recoil) at (28, 16, 2) and Mags
    # (human with a carbine) at (13, 11, 2): 15 cells = 22.5 m, Media; Fucile at Media: Media
    # 0 (000:l.53); 2 + 1 + 0 - 2 recoil = +1: 2d6 >= 7, 21/36 = 7/12.
    scenario = {
        "ruleset": "cepheus",
        "map": "maps/hull_breach.tmx",
        "queries": [
            {"q": "attack", "attacker": "Varga", "target": "Mags"},
            {"q": "reachable", "entity": "Varga", "minor_actions": 1},
        ],
    }
    bf, queries = parse_scenario(scenario, ROOT)
    attack, reach = answer_all(bf, queries)["results"]
    assert attack["band"] == "media" and attack["difficulty"] == "media"
    assert attack["modifiers"] == {
        "skill": 2, "characteristic": 1, "difficulty": 0, "zero_g_recoil": -2,
    }  # fmt: skip
    assert attack["chance"] == "7/12"
    assert "error" not in reach


@pytest.mark.parametrize("name", ["hull_breach", "station_interior", "surface_outpost"])
def test_every_shipped_map_reads_under_cepheus(name: str) -> None:
    bf, _ = parse_scenario({"ruleset": "cepheus", "map": f"maps/{name}.tmx"}, ROOT)
    assert bf.entities and all(e.sheet is not None for e in bf.entities)
