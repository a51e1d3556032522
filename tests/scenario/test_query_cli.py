"""`tessera query` end to end: scenario files under tests/scenario/data, answers worked by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parent / "data"


def run(name: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "game", "query", str(DATA / name)],
        capture_output=True,
        text=True,
    )


def results(name: str) -> list[dict[str, Any]]:
    done = run(name)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    answers: list[dict[str, Any]] = json.loads(done.stdout)["results"]
    return answers


@pytest.fixture(scope="module")
def contract() -> list[dict[str, Any]]:
    return results("contract_example.json")


def test_p_los_1_contract_example_sees_along_the_row_past_a_half_wall(
    contract: list[dict[str, Any]],
) -> None:
    assert contract[0]["los"] is True
    assert "P-LOS-1" in contract[0]["rules"]


def test_g_4_distance_is_chebyshev_cells_and_metres(contract: list[dict[str, Any]]) -> None:
    # ada (1,3,0) to bo (9,3,0): 8 cells, 8 × 1.5 = 12 m
    assert contract[1]["cells"] == 8
    assert contract[1]["metres"] == 12.0
    assert contract[1]["rules"] == ["G-4"]


def test_p_cov_3_half_wall_next_to_the_target_gives_light_cover(
    contract: list[dict[str, Any]],
) -> None:
    # half wall (8,3,0): d(attacker, wall) = 7, ceil(7/1) − 1 = 6 ≥ d(wall, target) = 1
    assert contract[2]["cover"] == "light"
    assert contract[2]["percent"] == 25
    assert {"P-COV-2", "P-COV-3"} <= set(contract[2]["rules"])


def test_p_hit_2_contract_example_hit_chance_is_63(contract: list[dict[str, Any]]) -> None:
    # P = 70 × (100 + (3 − 0) × 5 − 0 − 25) / 100 = 63
    assert contract[3]["hit_chance"] == 63
    assert "P-HIT-2" in contract[3]["rules"]
    assert contract[3]["breakdown"]


def test_p_hit_2_an_unarmed_attacker_has_no_hit_chance_and_says_why(
    contract: list[dict[str, Any]],
) -> None:
    assert contract[4]["hit_chance"] is None
    assert contract[4]["reason"] == "no_weapon"


def test_queries_that_cannot_be_answered_answer_an_error_in_place(
    contract: list[dict[str, Any]],
) -> None:
    assert "nobody" in contract[5]["error"]
    assert "teleport" in contract[6]["error"]
    assert len(contract) == 7


def test_p_hit_2_worked_example_gives_52_with_p_hit_3_efficacy_at_8_cells() -> None:
    r = results("worked_52.json")
    # efficacy(8) = 1 − (9 − 8) × 0.3/8 = 0.9625 → armour 9.625; light cover 25
    # P = 70 × (100 + (3 − 1) × 5 − 9.625 − 25) / 100 = 52.7625 → 52
    assert r[0]["hit_chance"] == 52
    assert {"P-HIT-2", "P-HIT-3"} <= set(r[0]["rules"])


def test_p_hit_3_breakdown_numbers_are_json_numbers_even_when_not_whole() -> None:
    # These used to be the strings "52.7625", "0.9625" and "9.625": now always JSON numbers,
    # written exactly (see docs/query.md).
    done = run("worked_52.json")
    breakdown = json.loads(done.stdout)["results"][0]["breakdown"]
    assert (breakdown["raw"], breakdown["armour_efficacy"], breakdown["armour_pct"]) == (
        52.7625,
        0.9625,
        9.625,
    )
    assert '"raw": 52.7625' in done.stdout


def test_p_hit_2_breakdown_numbers_are_json_numbers_also_when_whole(
    contract: list[dict[str, Any]],
) -> None:
    # These used to be the integers 63 and 0 (efficacy the string "0.9625"): one type always.
    # ada (1,3,0) to bo (9,3,0): 8 cells, efficacy 1 − 1 × 0.3/8 = 0.9625; bo wears no armour.
    breakdown = contract[3]["breakdown"]
    assert (breakdown["raw"], breakdown["armour_efficacy"], breakdown["armour_pct"]) == (
        63,
        0.9625,
        0,
    )
    assert all(
        isinstance(breakdown[key], float) for key in ("raw", "armour_efficacy", "armour_pct")
    )


def test_p_cov_5_crouched_behind_a_half_wall_is_heavy_cover_and_35_percent() -> None:
    r = results("worked_52.json")
    assert r[1]["cover"] == "heavy"
    assert r[1]["percent"] == 50
    assert "P-COV-5" in r[1]["rules"]
    # distance 9: efficacy 1 → armour 10; P = 70 × (100 + 10 − 10 − 50) / 100 = 35
    assert r[2]["hit_chance"] == 35


def test_p_los_2_and_p_los_3_grazing_and_entities_on_the_line() -> None:
    r = results("grazing.json")
    assert r[0]["los"] is True  # wall (1,0,0) grazed on one side only; ally red2 transparent
    assert r[1]["los"] is False  # walls (4,3,0) and (3,4,0) touched on both sides at (4,4)
    assert "P-LOS-2" in r[1]["rules"]
    assert r[2]["los"] is True  # red1 sees through its ally red2
    assert r[3]["los"] is False  # for blue1, red2 is an enemy of medium size: it blocks
    assert "P-LOS-3" in r[3]["rules"]
    assert r[4]["los"] is True  # from an empty cell sight is terrain-only


def _wounds(light: int, grave: int, mortal: int) -> dict[str, int]:
    return {"light": light, "grave": grave, "mortal": mortal}


def test_p_dmg_1_and_p_vul_1_2_damage_answers_worked_from_the_human_table() -> None:
    r = results("wounds.json")
    # D = floor(12 × 80/100) − 1 = 8 → perforante 6–9: grave
    assert (r[0]["damage"], sorted(r[0]["effects"]), r[0]["wounds"]) == (
        8,
        ["grave_wound"],
        _wounds(0, 1, 0),
    )
    # 1 light carried: 8 + 1 = 9 → grave; the light stays
    assert (r[1]["damage"], r[1]["effects"], r[1]["wounds"]) == (
        8,
        ["grave_wound"],
        _wounds(1, 1, 0),
    )
    # 1 grave carried: impatto 9 + 2 = 11 → grave + stunned; 2 grave → 1 mortal
    assert sorted(r[2]["effects"]) == ["grave_wound", "stunned"]
    assert r[2]["wounds"] == _wounds(0, 0, 1)
    # floor(1 × 80/100) − 1 < 0 → 0: no effect at all
    assert (r[3]["damage"], r[3]["effects"], r[3]["wounds"]) == (0, [], _wounds(0, 0, 0))
    # elettrico 8 → shock, no wound
    assert (r[4]["effects"], r[4]["wounds"]) == (["shock"], _wounds(0, 0, 0))
    # 2 light carried: taglio 3 + 2 = 5 → light; 3 light → 1 grave
    assert (r[5]["effects"], r[5]["wounds"]) == (["light_wound"], _wounds(0, 1, 0))
    # radiazione 14 → mortal + stunned
    assert sorted(r[6]["effects"]) == ["mortal_wound", "stunned"]
    assert r[6]["wounds"] == _wounds(0, 0, 1)


def test_p_init_1_2_p_jump_1_p_thr_1_answers() -> None:
    r = results("initiative_jump_throw.json")
    # totals: b 17 + 0, a 15 + 2, c 15 + 2, all 17: higher bonus first (a, c), then the rolls' order
    assert r[0]["order"] == ["a", "c", "b"]
    # athletics 0 at 0.2 g: n_max = floor(2 × 1) = 2; height 3: DC = floor((3 × 2 + 6) × 1) = 12
    assert (r[1]["n_max"], r[1]["dc"]) == (2, 12)
    assert (r[2]["n_max"], r[2]["dc"]) == (2, None)
    # light object: medium range 4, long range 9
    assert (r[3]["band"], r[3]["automatic"], r[3]["hit_chance"]) == ("medium", True, None)
    # cell at long range: 60 × (100 + 2 × 5) / 100 = 66 (B_att = athletics 2, the better)
    assert (r[4]["band"], r[4]["automatic"], r[4]["hit_chance"]) == ("long", False, 66)
    assert (r[5]["band"], r[5]["hit_chance"]) == ("out_of_range", None)
    # entity at 3 cells: 60 × (100 + (2 − 0) × 5 − 0 − (−15)) / 100 = 75 (high exposure)
    assert (r[6]["band"], r[6]["automatic"], r[6]["hit_chance"]) == ("medium", False, 75)


def test_p_jump_1_at_one_g_nobody_jumps_without_a_check() -> None:
    r = results("low_gravity_jump.json")
    # n_max = floor((2 + 2) × 0.2 / 1) = 0; DC(1) = floor((1 × 2 + 6) × 0.2) = 1
    assert (r[0]["n_max"], r[0]["dc"]) == (0, 1)


def test_p_mov_3_and_p_mov_4_movement_answers() -> None:
    r = results("movement.json")
    # walk 1: the diagonal past the wall corner (1,0,0) is refused
    assert r[0]["reachable"] == [[0, 1, 0, 1]]
    assert r[1]["cost"] is None
    # diagonal onto rough (3,3,0): 1 + 1
    assert (r[2]["cost"], r[2]["path"]) == (2, [[4, 4, 0], [3, 3, 0]])
    # never ending in an occupied cell
    assert r[3]["cost"] is None
    # dash doubles walk 1 to 2 (P-MOV-5)
    assert sorted(map(tuple, r[4]["reachable"])) == [
        (0, 1, 0, 1),
        (0, 2, 0, 2),
        (1, 1, 0, 2),
        (1, 2, 0, 2),
    ]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("bad_outside.json", "entities[1].at: (25, 3, 0) is outside the 20x12x3 map"),
        ("bad_same_cell.json", "entities[1].at: (1, 1, 0) is already occupied by 'a'"),
        ("bad_weapon.json", "entities[0].weapon: unknown weapon id 'death-ray'"),
        ("bad_stance.json", "entities[0].stance: unknown value 'flying'"),
        ("bad_json.json", "bad JSON at line 2"),
        ("missing.json", "cannot read the file"),
        ("bad_infinite_size.json", "map.size[0]: expected a whole number, got inf"),
        ("bad_check_name.json", "entities[0].checks: unknown check 'precisone (armi a distanza)'"),
        ("bad_deep.json", "nested too deeply"),
    ],
)
def test_a_scenario_that_cannot_be_read_exits_2_with_one_line_and_no_output(
    name: str, expected: str
) -> None:
    done = run(name)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert expected in lines[0]


def test_a_scenario_read_from_standard_input() -> None:
    scenario = {
        "map": {"size": [3, 3, 1]},
        "entities": [
            {"id": "a", "faction": "x", "at": [0, 0, 0]},
            {"id": "b", "faction": "y", "at": [2, 2, 0]},
        ],
        "queries": [{"q": "distance", "from": "a", "to": "b"}],
    }
    done = subprocess.run(
        [sys.executable, "-m", "game", "query", "-"],
        input=json.dumps(scenario),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["results"][0]["cells"] == 2


def test_a_tmx_map_brings_its_units_and_leaves_reinforcements_off_the_field() -> None:
    r = results("station_tmx.json")
    # Kask (11, 14, 0) to Okafor on the gallery (20, 2, 1): max(9, 12, 1) = 12 cells, 18 m
    assert (r[0]["cells"], r[0]["metres"]) == (12, 18.0)
    # Kask is a plain human: athletics 0 at the map's 0.2 g → n_max 2, DC(3) = 12
    assert (r[1]["n_max"], r[1]["dc"]) == (2, 12)
    # Ferri arrives in round 3 (arrives_round): not an entity yet
    assert "Ferri" in r[2]["error"]


def test_a_missing_tmx_map_is_one_error_line_naming_the_file() -> None:
    done = run("bad_tmx.json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "no-such-map.tmx" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_each_unanswerable_query_answers_an_error_and_the_rest_are_still_answered() -> None:
    r = results("unanswerable.json")
    assert r[0] == {"error": "queries[0].to: (9, 9, 0) is outside the 5x5x1 map"}
    assert "thrusters" in r[1]["error"]
    assert "roll" in r[2]["error"]
    assert (r[3]["hit_chance"], r[3]["reason"]) == (None, "self_target")
    # P-VUL-3: a dead entity has no turn, so nowhere to move
    assert r[4]["reachable"] == []
    assert "P-VUL-3" in r[4]["rules"]
    assert r[5]["cells"] == 1


def test_p_jump_3_a_unit_on_a_one_level_platform_reaches_the_floor_by_dropping() -> None:
    # ada stands on a 1-high block at (2,0): stepping off either side is a 1-level drop, within
    # n_max = floor(2 × 0.2/0.2) = 2: 1 point, no check (P-JUMP-3); then 1 a cell walking. `top`
    # stands on a 3-high column at (4,0): its 3-level drop needs the check (DC 12, as the jump
    # query says for 3 cells), so `reachable`, which lists moves without a check, has nothing.
    answers = results("drops.json")
    assert answers[0]["reachable"] == [[1, 0, 0, 1], [3, 0, 0, 1], [0, 0, 0, 2]]
    assert answers[1]["cost"] == 2 and answers[1]["path"] == [[2, 0, 1], [1, 0, 0], [0, 0, 0]]
    assert "drop 1 (n_max 2)" in answers[1]["why"] and "P-JUMP-3" in answers[1]["why"]
    assert answers[2]["reachable"] == []
    assert (answers[3]["n_max"], answers[3]["dc"]) == (2, 12)
