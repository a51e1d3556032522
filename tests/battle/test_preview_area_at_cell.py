"""Issue 16: the area a unit would hit aiming at a CELL is the battle's ruleset's, not the map's
periferie weapon's (game/battle/preview.py `area`, BattleRules.area_cells): periferie draws the
map weapon's pattern (P-AREA-1), Cepheus its sheet weapon's blast (000:l.273), and Myst,
fantasy and d20 (no area attack at a cell in their seeds: `area_attack` NOT_OFFERED) draw no
area and say "not offered under <ruleset>", as the battle refuses the shot."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.preview import area
from game.battle.setup import UnitSpec
from game.text.explain_battle import refusal_text
from game.text.i18n import speaking
from tests.battle.conftest import MakeBattle

#: An empty cell 3 cells from ada, on the 20 x 12 open field of one level.
AIM = (8, 2, 0)
#: periferie's flamethrower pattern (weapons.toml: the aim and its four side neighbours, through
#: obstacles) from AIM: (8,2), (9,2), (7,2), (8,3), (8,1), in the pattern's order.
FLAME = ((8, 2, 0), (9, 2, 0), (7, 2, 0), (8, 3, 0), (8, 1, 0))


def _battle(make_battle: MakeBattle, ruleset: str, weapon: str = "flamethrower") -> Battle:
    ada = UnitSpec("ada", "blue", (5, 2, 0), template="scavenger", weapon=weapon)
    foe = UnitSpec("foe", "red", (15, 8, 0), weapon="pistol")
    plain = make_battle([ada, foe])
    return Battle(replace(plain.setup, ruleset=ruleset), plain.grid, plain.rules)


def test_p_area_1_periferie_draws_the_map_weapons_pattern(make_battle: MakeBattle) -> None:
    battle = _battle(make_battle, "periferie")
    aimed = area(battle, GM, "ada", AIM)
    assert aimed is not None and aimed.refusal is None
    assert aimed.cells == FLAME


def test_cepheus_draws_the_sheet_weapons_blast_not_the_maps_flamethrower(
    make_battle: MakeBattle,
) -> None:
    # The map's flamethrower is the sample "doppietta" under Cepheus (sheets.toml
    # from_periferie): no blast, so no area at a cell (a one-target weapon: None), where the
    # map weapon's pattern was drawn before.
    battle = _battle(make_battle, "cepheus")
    aimed = area(battle, GM, "ada", AIM)
    assert aimed is not None and aimed.refusal is None and aimed.cells is None
    # The map's frag_grenade is the sample "granata_a_frammentazione" of blast 1 (G-4 cells,
    # sheets.toml): the 3 x 3 square around AIM on this one-level map (z -1 and +1 are off it),
    # x 7..9, y 1..3, where periferie draws the grenade's own pattern.
    armed = _battle(make_battle, "cepheus", "frag_grenade")
    aimed = area(armed, GM, "ada", AIM)
    assert aimed is not None and aimed.refusal is None and aimed.cells is not None
    assert sorted(aimed.cells) == [(x, y, 0) for x in (7, 8, 9) for y in (1, 2, 3)]


@pytest.mark.parametrize(
    ("ruleset", "weapon", "title"),
    [
        ("myst", "flamethrower", "Myst — Il Combattimento: Regole Avanzate"),
        ("fantasy", "flamethrower", "Il Combattimento (sistema a dadi)"),
        # d20's weapons have no flamethrower (a map cannot give one): its pistol, as any weapon
        ("d20", "pistol", "Modificatori di combattimento (d20 3.5)"),
    ],
)
def test_a_ruleset_without_area_attacks_at_a_cell_draws_none_and_says_why(
    make_battle: MakeBattle, ruleset: str, weapon: str, title: str
) -> None:
    battle = _battle(make_battle, ruleset, weapon)
    aimed = area(battle, GM, "ada", AIM)
    assert aimed is not None and aimed.cells is None and aimed.refusal is not None
    assert aimed.refusal.code == "area_not_offered"
    with speaking("en"):
        assert refusal_text(aimed.refusal) == (
            f"Not offered under {title}: its rules have no area attack at a cell."
        )
    with speaking("it"):
        assert refusal_text(aimed.refusal).startswith(f"Non previsto in {title}: ")
    # The battle refuses the shot with the same reason.
    for _ in range(4):
        if battle.active == "ada":
            break
        assert battle.active is not None
        assert battle.apply(cmd.EndTurn(battle.active), GM).refusal is None
    refused = battle.apply(cmd.Attack("ada", at=AIM), GM).refusal
    assert refused is not None and refused.code == aimed.refusal.code
    assert dict(refused.values) == dict(aimed.refusal.values) == {"ruleset": ruleset}


def test_nothing_is_previewed_off_the_map_or_for_a_unit_the_player_does_not_know(
    make_battle: MakeBattle,
) -> None:
    battle = _battle(make_battle, "periferie")
    assert area(battle, GM, "ada", (25, 2, 0)) is None
    assert area(battle, GM, "nobody", AIM) is None
