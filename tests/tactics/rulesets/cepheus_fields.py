"""Cepheus battlefields for the tests of its battle object: the plain attack of C-1..C-3, every
entity with the standing reaction choice "never" (the dodge and parry they would take are
tests/battle/test_cepheus_round.py's)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from game.rules.cepheus.tempo import Tempo
from game.scenario.parse import parse_scenario
from game.tactics.battlefield import Battlefield
from game.tactics.rulesets.cepheus_battle import sheet_of

ROOT = Path(__file__).resolve().parents[3]


def plain_field(
    *entities: dict[str, object], size: int = 20, cells: list[object] | None = None
) -> Battlefield:
    """A `size` x 10 x 1 Cepheus scenario field of `entities` (and `cells`), none of which
    reacts to an attack."""
    scenario = {
        "ruleset": "cepheus",
        "map": {"size": [size, 10, 1], "cells": cells or []},
        "entities": list(entities),
    }
    bf = parse_scenario(scenario, ROOT)[0]
    plain = tuple(
        replace(e, sheet=replace(sheet_of(e), tempo=Tempo(react="never"))) for e in bf.entities
    )
    return Battlefield(bf.grid, plain, bf.rules, bf.ruleset)
