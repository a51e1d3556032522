"""`tessera query` reads a battle journal as its battlefield: the units as they stand now."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from game.battle import commands as cmd
from game.battle.engine import GM
from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.maps import load_map

STATION = Path(__file__).resolve().parents[2] / "maps" / "station_interior.tmx"


def _query(scenario: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "game", "query", str(scenario)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_query_on_a_journal_sees_what_the_gm_did_to_a_unit(tmp_path: Path) -> None:
    # The GM blinds Kask in the battle; asked from the journal, Kask has no hit chance
    # (P-VUL-3: blinded entities do not attack) and Okafor's chance at Kask is still a number.
    journal = tmp_path / "battle.jsonl"
    session = Session.new(setup_from_map(load_map(STATION), seed=4), journal)
    assert session.submit(cmd.SetCondition("Kask", add=("blinded",)), GM).accepted
    session.close()
    scenario = tmp_path / "query.json"
    scenario.write_text(
        json.dumps(
            {
                "battle": "battle.jsonl",
                "queries": [
                    {"q": "hit_chance", "attacker": "Kask", "target": "Okafor"},
                    {"q": "distance", "from": "Kask", "to": "Okafor"},
                ],
            }
        ),
        encoding="utf-8",
    )
    blinded, distance = _query(scenario)["results"]  # type: ignore[misc]
    assert blinded["hit_chance"] is None and blinded["reason"] == "blinded"
    # Kask (11, 14, 0) and Okafor (20, 2, 1) from the map: max(9, 12, 1) = 12 cells (G-4).
    assert distance["cells"] == 12


def test_a_scenario_with_both_a_map_and_a_battle_is_refused_naming_the_field(
    tmp_path: Path,
) -> None:
    scenario = tmp_path / "query.json"
    scenario.write_text(json.dumps({"battle": "x.jsonl", "map": "y.tmx"}), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "game", "query", str(scenario)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: battle: give either a map or a battle journal")
