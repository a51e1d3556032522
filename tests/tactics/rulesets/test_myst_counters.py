"""Myst's counters on the battlefield (game/tactics/rulesets/myst_counters.py; 002:l.72-116):
the grab's bar on attacking and moving, the fall's, and where breaking off steps to."""

from __future__ import annotations

from dataclasses import replace

from game.rules.data import load_rules
from game.rules.myst.data import load
from game.rules.stance import Stance
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.rulesets import myst_counters
from game.tactics.rulesets.myst_battle import BATTLE
from tests.battle.conftest import OPEN_FIELD, ascii_grid

SOLDATO = load().samples["soldato"]
POPOLANO = load().samples["popolano"]


def _field(*entities: EntitySheet) -> Battlefield:
    return Battlefield(ascii_grid(OPEN_FIELD), entities, load_rules(), "myst")


def test_m1_nobody_in_a_grab_attacks_the_holder_nor_the_held() -> None:
    # 002:l.116: "tanto l'attaccante quanto il difensore non potranno compiere azioni".
    josh = EntitySheet("josh", "a", (2, 2, 0), sheet=SOLDATO, hold=("desmond", True))
    desmond = EntitySheet("desmond", "b", (3, 2, 0), sheet=POPOLANO, hold=("josh", False))
    bf = _field(josh, desmond)
    assert BATTLE.attack(bf, josh, desmond).reason == "holding_grab"
    assert BATTLE.attack(bf, desmond, josh).reason == "held_in_grab"
    # Anyone else may strike either of them.
    free = EntitySheet("ada", "a", (4, 2, 0), sheet=SOLDATO)
    assert BATTLE.attack(_field(josh, desmond, free), free, desmond).chance is not None


def test_m1_in_a_grab_or_on_the_ground_a_fighter_has_no_movement() -> None:
    # 002:l.116: the held one "torna libero di muoversi" only once let go; 002:l.101: on the
    # ground until it stands (docs/rules.md: no crawling in Myst's battle).
    standing = EntitySheet("desmond", "b", (3, 2, 0), sheet=POPOLANO)
    request, _allow = BATTLE.move_request(
        _field(standing), standing, None, dash=False, stealth=False
    )
    assert request.budgets["walk"] == POPOLANO.speed
    for still in (replace(standing, stance=Stance.PRONE), replace(standing, hold=("josh", False))):
        request, _allow = BATTLE.move_request(_field(still), still, None, dash=False, stealth=False)
        assert max(request.budgets.values()) == 0


def test_m1_an_attacker_on_the_ground_and_a_pushed_target_change_the_totals() -> None:
    # popolano attack 30 on the ground: 30 - 20 = 10 (assumed, counters.toml); the soldato's
    # defence 50, pushed by 12: 50 - 12 = 38 (002:l.101).
    desmond = EntitySheet("desmond", "b", (3, 2, 0), stance=Stance.PRONE, sheet=POPOLANO)
    josh = EntitySheet("josh", "a", (2, 2, 0), sheet=SOLDATO, unbalanced=12)
    done = BATTLE.attack(_field(josh, desmond), desmond, josh).detail.exchange
    assert (done.attack, done.defence) == (10, 38)


def test_m1_breaking_off_takes_the_farthest_step_out_of_reach_then_reading_order() -> None:
    data = load()
    attacker = EntitySheet("desmond", "b", (3, 2, 0), sheet=POPOLANO)
    defender = EntitySheet("josh", "a", (2, 2, 0), sheet=SOLDATO)
    steps = [(1, 3, 0), (2, 3, 0), (1, 1, 0), (2, 1, 0), (1, 2, 0)]
    # (2, y) stays next to (3, 2, 0); the x = 1 cells are 2 away: (1, 1, 0) first (y, then x).
    assert myst_counters.break_off_cell(data, steps, attacker, defender) == (1, 1, 0)
    assert myst_counters.break_off_cell(data, [(2, 3, 0), (2, 1, 0)], attacker, defender) is None
