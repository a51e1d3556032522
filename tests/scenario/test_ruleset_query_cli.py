"""`tessera query` end to end under the myst and fantasy rulesets, answers worked by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"


def results(name: str) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "game", "query", str(DATA / name)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    answers: list[dict[str, Any]] = json.loads(done.stdout)["results"]
    return answers


def test_m1_myst_worked_example_end_to_end() -> None:
    # 002:l.46, 58: 50 + 12 = 62 against 40 + 6 = 46, margin 16; 1 unit on Strength (35: cap +1)
    # and 2 on the minimum: a rolled 1 deals 3; Status Globale 30 - 3 = 27 (M-2). The archer's
    # line enters pal's cell; attack 0 - 10 never beats 100: pal is hit at 33/100, nobody at
    # 67/100. Priority 10 + 7 = 17, 10 + 9 = 19.
    attack, damage, fire, init = results("myst_worked_62.json")
    assert attack["result"]["attack_total"] == 62 and attack["result"]["defence_total"] == 46
    assert attack["result"]["margin"] == 16
    assert (damage["strength_bonus"], damage["die"], damage["damage"], damage["status"]) == (
        1,
        2,
        3,
        27,
    )
    assert fire["in_line"] == ["pal"] and fire["stray"] == {"pal": "33/100"}
    assert fire["stray_none"] == "67/100"
    assert init["order"] == ["desmond", "josh"]


def test_f2_fantasy_contest_end_to_end() -> None:
    # 003:l.88-103, 192-193: 4+4+1 = 9 against 3 over DP 2: hit, critical (9 >= 4), location 25
    # torso, critical table 52; P(d6!+d6! >= 9) = 41/108 (by hand in the rules tests).
    attack, chance = results("fantasy_contest.json")
    assert attack["success_chance"] == "27/80"
    assert attack["result"]["outcome"] == "hit" and attack["result"]["critical_roll"] == 52
    assert chance["chance"] == "41/108"
