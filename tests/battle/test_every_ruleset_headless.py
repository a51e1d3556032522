"""Every playable ruleset fought to its end headless on every shipped map (issue 16): the whole
computer battles, with the soak test's invariants after every command and the journal reopened
(replayed) to the same state hash, are test_soak.py (periferie), test_soak_cepheus.py,
test_d20_battles.py and test_ruleset_battles.py (myst, fantasy), all parametrized by
test_soak.SHIPPED; tests/ui/test_every_ruleset_to_the_end_in_window.py fights each ruleset in the
window and checks that `tessera run` writes the same journal bytes. This module keeps those lists
whole: a map added to maps/ or a ruleset made playable must be fought there too."""

from __future__ import annotations

from pathlib import Path

from game.tactics.ruleset import playable_ids
from tests.battle.test_soak import SHIPPED

MAPS = Path(__file__).resolve().parents[2] / "maps"
#: The rulesets whose whole battles the modules above play on every map in SHIPPED.
FOUGHT = ("cepheus", "d20", "fantasy", "myst", "periferie")


def test_the_whole_battle_tests_cover_every_shipped_map_and_every_playable_ruleset() -> None:
    assert sorted(SHIPPED) == sorted(p.stem for p in MAPS.glob("*.tmx"))
    assert sorted(playable_ids()) == list(FOUGHT)
