"""The computer's cover score asked of each ruleset (BattleRules.cover_value, issue 15): the
worst cover from the threats that see the unit, in the ruleset's own measure, the best when none
does. A shooter at (11, 1) looks down a 12x5 room with a half-height obstacle at (4, 1) and, in
some tests, a wall column at x = 8 for y >= 3."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from game.scenario.parse import parse_scenario
from game.tactics.battlefield import Battlefield
from game.tactics.ruleset import battle_rules

ROOT = Path(__file__).resolve().parents[3]
CEPHEUS_GUARD = {
    "chars": {"str": 7, "dex": 9, "end": 8},
    "dm": {"dex": 1},
    "skills": {"armi da fuoco": 1},
    "weapon": "pistola_automatica",
}
HALF = {"at": [4, 1, 0], "obstacle": "half"}
WALL = [{"at": [8, y, 0], "obstacle": "full"} for y in range(3, 5)]


def field(ruleset: str, sheet: object, at: tuple[int, int, int], **more: object) -> Battlefield:
    # No sheet: the ruleset's defaults.
    given = {} if sheet is None else {"sheet": sheet}
    bf, _ = parse_scenario(
        {
            "ruleset": ruleset,
            "map": {"size": [12, 5, 1], "cells": [HALF, *WALL]},
            "entities": [
                {"id": "shooter", "faction": "red", "at": [11, 1, 0], **given},
                {"id": "me", "faction": "blue", "at": list(at), **given, **more},
            ],
        },
        ROOT,
    )
    return bf


def value(ruleset: str, sheet: object, at: tuple[int, int, int], **more: object) -> Fraction:
    bf = field(ruleset, sheet, at, **more)
    return battle_rules(ruleset).cover_value(bf, bf.by_id["me"], [bf.by_id["shooter"]])


def test_cepheus_scores_the_c3_cover_dm_as_a_bonus_a_low_stance_one_row_better() -> None:
    # combat.toml (000:l.264-269): none 0, 1/2 ("muro basso") DM -1, 3/4 DM -2, full DM -4.
    # C-3: a half obstacle hiding the target is 1/2 cover; crouched moves one row down: 3/4.
    assert value("cepheus", CEPHEUS_GUARD, (3, 3, 0)) == 0
    assert value("cepheus", CEPHEUS_GUARD, (3, 1, 0)) == 1
    assert value("cepheus", CEPHEUS_GUARD, (3, 1, 0), stance="crouched") == 2
    # Behind the wall column nobody sees it: the best row, full cover's 4.
    assert value("cepheus", CEPHEUS_GUARD, (6, 4, 0)) == 4


def test_d20_scores_the_ac_bonus_of_corner_line_cover_d1_d3() -> None:
    # 004:l.36, D-3: the low obstacle within 6 cells of the target, the attacker farther from
    # it than the target, blocks every corner line: cover, +4 AC. In the open, +0. Unseen:
    # improved cover's +8 (004:l.70), the best the seed gives.
    assert value("d20", "station_guard", (3, 1, 0)) == 4
    assert value("d20", "station_guard", (3, 3, 0)) == 0
    assert value("d20", "station_guard", (6, 4, 0)) == 8


def test_a_unit_no_threat_sees_scores_its_rulesets_best_cover_and_no_threats_too() -> None:
    bf = field("d20", "station_guard", (3, 3, 0))
    assert battle_rules("d20").cover_value(bf, bf.by_id["me"], []) == 8
    assert battle_rules("periferie").cover_value(bf, bf.by_id["me"], []) == 3  # heavy


def test_myst_and_fantasy_score_no_cell_better_than_another_against_melee_threats_alone() -> None:
    # M-1's obstruction and F-3's cover DP apply to ranged attacks only: a fighter with a sword
    # gains nothing by hiding from swords (the computer would otherwise run from the melee).
    # The default sheets of both carry a melee weapon.
    for ruleset in ("myst", "fantasy"):
        bf = field(ruleset, None, (3, 1, 0))
        assert battle_rules(ruleset).attack(bf, bf.by_id["shooter"], bf.by_id["me"]).chance is None
        assert value(ruleset, None, (3, 1, 0)) == 0
        assert value(ruleset, None, (6, 4, 0)) == 0
