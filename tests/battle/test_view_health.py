"""Issue 16: the player's view carries a unit's health and armour as its ruleset has them
(`UnitView.health`, asked of `BattleRules.health_shown`): the numbers for the player's own units
(and the GM), only the state and the pips for a unit of another side, nothing new under periferie
(its `wounds` are the ones, its view's JSON as it was)."""

from __future__ import annotations

from dataclasses import replace

from game.battle.engine import GM, Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.battle.view import player_view, view_for
from game.ecs.components import RulesetSheet
from game.rules.data import load_rules
from game.rules.ruleset_answers import HealthShown
from tests.battle.conftest import OPEN_FIELD, ascii_grid

ADA = UnitSpec("ada", "red", (1, 1, 0), template="station_guard")
BO = UnitSpec("bo", "blue", (6, 1, 0), template="station_guard")


def _battle(made: list[Battle], ruleset: str) -> Battle:
    setup = BattleSetup(map_path="<test>", map_sha256="", seed=7, units=(ADA, BO), ruleset=ruleset)
    battle = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    made.append(battle)
    return battle


def test_a_wounded_fantasy_guard_shows_its_sections_to_its_side_and_only_its_state_to_the_other(
    made: list[Battle],
) -> None:
    b = _battle(made, "fantasy")
    # fantasy/sheets.toml: a station_guard is the guerriero (armour torso 3, head 2; DP 10).
    # A 5 on the torso (003:l.178): the torso's 3 points destroyed, 2 body points lost, Lieve
    # (2 boxes) full: penalty -1 (F-3 assumed).
    sheet = b.world.get("ada", RulesetSheet).sheet
    b.world.set("ada", RulesetSheet(replace(sheet, armour={"head": 2}, body_lost=2)))  # type: ignore[type-var]
    sections = (("lieve", 2, 2), ("serio", 0, 2), ("grave", 0, 2), ("critico", 0, 1))
    for seat in ("red", GM):
        mine = view_for(b, seat).unit("ada")
        assert mine is not None and mine.health is not None
        assert mine.health.rows == (*sections, ("mortale", 0, 1))
        assert mine.health.armour == (("head", 2), ("dp", 10))
        assert (mine.health.state, mine.health.pips, mine.health.penalty) == (
            "lieve",
            ("light",),
            -1,
        )
    theirs = view_for(b, "blue").unit("ada")
    assert theirs is not None and theirs.turn is None
    assert theirs.health == HealthShown("body", "lieve", ("light",))
    shown = {u["id"]: u for u in player_view(b, "blue")["units"]}
    assert shown["ada"]["health"] == {"kind": "body", "state": "lieve", "pips": ["light"]}


def test_every_other_ruleset_gives_the_view_its_health_and_periferie_none(
    made: list[Battle],
) -> None:
    # The station_guard sample of each: Myst's soldato (Status Globale 30, shield 10), Cepheus's
    # guardia (END 8, STR 7, DEX 9, armour 5), d20's station_guard (13 hit points of its full
    # 13, AC 15).
    expected = {
        "myst": HealthShown("status", "unhurt", (), (("status", 30, 30),), (("shield", 10),)),
        "cepheus": HealthShown(
            "characteristics",
            "uninjured",
            (),
            (("end", 8, 8), ("str", 7, 7), ("dex", 9, 9)),
            (("armour", 5),),
        ),
        "d20": HealthShown("hit_points", "ok", (), (("hp", 13, 13),), (("ac", 15),)),
    }
    for ruleset, health in expected.items():
        b = _battle(made, ruleset)
        own, other = view_for(b, "red").unit("ada"), view_for(b, "blue").unit("ada")
        assert own is not None and own.health == health
        assert other is not None and other.health == health.public()
    b = _battle(made, "periferie")
    view = view_for(b, "red").unit("ada")
    assert view is not None and view.health is None
    assert all("health" not in u for u in player_view(b, "red")["units"])
