"""Issue 16: the aim overlay at a CELL (game/ui/aim.py `Aim.at_cell`) draws the area of the
ruleset's weapon, and under a ruleset without area attacks at a cell draws none and says
"not offered under <ruleset>" in red (no window opened: the Aim is asked directly)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.battle.engine import GM, Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.battle.view import view_for
from game.rules.data import load_rules
from game.text.i18n import speaking
from game.ui.aim import Aim
from tests.battle.conftest import OPEN_FIELD, ascii_grid

AIM = (8, 2, 0)


@pytest.fixture
def battles() -> Iterator[list[Battle]]:
    made: list[Battle] = []
    yield made
    for battle in made:
        battle.close()


def _aim(battles: list[Battle], ruleset: str, weapon: str) -> Aim:
    units = (
        UnitSpec("ada", "blue", (5, 2, 0), template="scavenger", weapon=weapon),
        UnitSpec("foe", "red", (15, 8, 0), weapon="pistol"),
    )
    setup = BattleSetup(map_path="<test>", map_sha256="", seed=7, units=units, ruleset=ruleset)
    battle = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    battles.append(battle)
    return Aim(battle, GM, view_for(battle, GM), battle.rules, {})


def test_p_area_1_periferie_fires_at_the_cell_over_the_flamethrowers_pattern(
    battles: list[Battle],
) -> None:
    # The flamethrower's pattern (weapons.toml): the aim and its four side neighbours.
    with speaking("en"):
        shown = _aim(battles, "periferie", "flamethrower").at_cell("ada", AIM, "attack")
    assert sorted(shown.overlay.area) == [(7, 2, 0), (8, 1, 0), (8, 2, 0), (8, 3, 0), (9, 2, 0)]
    assert shown.lines == ["Fire at this cell"]


def test_cepheus_draws_its_sheet_grenades_blast_for_a_throw_at_the_cell(
    battles: list[Battle],
) -> None:
    # frag_grenade -> granata_a_frammentazione, blast 1 (G-4): the 3 x 3 square around AIM.
    shown = _aim(battles, "cepheus", "frag_grenade").at_cell("ada", AIM, "throw")
    assert sorted(shown.overlay.area) == [(x, y, 0) for x in (7, 8, 9) for y in (1, 2, 3)]


@pytest.mark.parametrize("ruleset", ["myst", "fantasy"])
def test_no_area_overlay_under_a_ruleset_without_area_attacks_and_the_reason_in_red(
    battles: list[Battle], ruleset: str
) -> None:
    with speaking("en"):
        shown = _aim(battles, ruleset, "flamethrower").at_cell("ada", AIM, "attack")
    assert not shown.overlay.area  # the map's flamethrower drew its pattern here before
    assert shown.overlay.sight is None
    (line,) = shown.lines
    assert "Not offered under " in line and "no area attack at a cell" in line
    assert line.startswith("<font color=")
