"""`tessera query` under every playable ruleset on every shipped map (issue 16: each ruleset
"answered by `tessera query`" on any map): the map's own units are the entities, and for each
pair of enemies the line of sight and the ruleset's chance are asked through the CLI's entry
point in-process (`game.cli.main`), as a GM at the table would ask them.

The chance is the ruleset's own query (QUERY-FORMAT.md; RULESETS.md section 4): periferie's
`hit_chance`, an integer percentage (P-HIT-2); the others' `attack`, an exact fraction — fantasy's
`success_chance` when the attack is a contest (F-2), its `chance` otherwise. An attack that
cannot be made answers no chance and a reason code instead."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from game.cli import main
from game.grid.model import Cell
from game.maps import load_map
from game.tactics.ruleset import playable_ids

REPO = Path(__file__).resolve().parents[2]
MAPS = sorted((REPO / "maps").glob("*.tmx"))


def enemy_pairs(map_path: Path) -> list[tuple[str, str]]:
    """Every ordered pair of units of different sides present from the start, by map order."""
    units = [u for u in load_map(map_path).units if u.arrives_round is None and not u.neutral]
    return [(a.name, b.name) for a in units for b in units if a.faction != b.faction]


def ask(tmp_path: Path, scenario: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> list[Any]:
    """`tessera query` on the scenario, in-process: its answers, nothing on standard error."""
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    status = main(["query", str(path)])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    results: list[Any] = json.loads(out)["results"]
    assert len(results) == len(scenario["queries"])
    return results


def side_by_side(map_path: Path) -> tuple[Cell, Cell]:
    """The first unit's cell on the map and a free cell beside it on the same level where a
    unit can stand, a row or column away (no corner between them)."""
    loaded = load_map(map_path)
    taken = {u.cell for u in loaded.units}
    x, y, z = loaded.units[0].cell
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        cell = (x + dx, y + dy, z)
        inside = 0 <= cell[0] < loaded.grid.standable.shape[0]
        inside = inside and 0 <= cell[1] < loaded.grid.standable.shape[1]
        if inside and cell not in taken and loaded.grid.standable[cell]:
            return (x, y, z), cell
    raise AssertionError(f"{map_path.name}: no free cell beside {loaded.units[0].name}")


def chance_of(ruleset: str, answer: dict[str, Any]) -> Fraction | None:
    """The answer's chance as an exact fraction, None when there is no attack (with a reason)."""
    if ruleset == "periferie":
        shown = answer["hit_chance"]
        if shown is None:
            return None
        assert isinstance(shown, int) and 1 <= shown <= 99, answer  # P-HIT-2's clamp
        return Fraction(shown, 100)
    shown = answer.get("success_chance") if ruleset == "fantasy" else answer["chance"]
    if shown is None:
        return None
    assert isinstance(shown, str), answer
    value = Fraction(shown)
    assert 0 <= value <= 1 and shown == f"{value.numerator}/{value.denominator}", answer
    return value


@pytest.mark.parametrize("ruleset", playable_ids())
@pytest.mark.parametrize("map_path", MAPS, ids=[m.stem for m in MAPS])
def test_tessera_query_answers_line_of_sight_and_the_rulesets_chance_between_every_pair_of_enemies(
    map_path: Path, ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pairs = enemy_pairs(map_path)
    assert pairs, map_path
    chance_query = "hit_chance" if ruleset == "periferie" else "attack"
    queries: list[dict[str, Any]] = []
    for attacker, target in pairs:
        queries.append({"q": "los", "from": attacker, "to": target})
        queries.append({"q": chance_query, "attacker": attacker, "target": target})
    scenario = {"ruleset": ruleset, "map": str(map_path), "queries": queries}
    results = ask(tmp_path, scenario, capsys)
    for (attacker, target), los, attack in zip(pairs, results[::2], results[1::2], strict=True):
        where = f"{ruleset} {map_path.stem} {attacker} -> {target}"
        assert "error" not in los and "error" not in attack, (where, los, attack)
        assert isinstance(los["los"], bool) and los["rules"], (where, los)
        assert attack["rules"], (where, attack)
        chance = chance_of(ruleset, attack)
        if chance is None:
            # No attack: a fixed reason code, the same in every language (docs/query.md).
            assert isinstance(attack["reason"], str) and attack["reason"], (where, attack)


@pytest.mark.parametrize("ruleset", playable_ids())
@pytest.mark.parametrize("map_path", MAPS, ids=[m.stem for m in MAPS])
def test_tessera_query_gives_a_real_chance_to_two_enemies_side_by_side_on_the_map(
    map_path: Path, ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two fighters with the ruleset's default sheet (a melee weapon; periferie's have none,
    so a combat knife) next to each other on the map: the line is clear and the attack has a
    chance strictly between 0 and 1 in every ruleset (opposed or rolled against a target)."""
    here, beside = side_by_side(map_path)
    arms: dict[str, Any] = {"weapon": "combat_knife"} if ruleset == "periferie" else {}
    entities = [
        {"id": "ada", "faction": "red", "at": list(here), **arms},
        {"id": "bo", "faction": "blue", "at": list(beside), **arms},
    ]
    ask_for = "hit_chance" if ruleset == "periferie" else "attack"
    queries = [
        {"q": "los", "from": "ada", "to": "bo"},
        {"q": ask_for, "attacker": "ada", "target": "bo"},
    ]
    scenario = {"ruleset": ruleset, "map": str(map_path), "entities": entities, "queries": queries}
    los, attack = ask(tmp_path, scenario, capsys)
    assert los["los"] is True, los
    chance = chance_of(ruleset, attack)
    assert chance is not None and 0 < chance < 1, attack
