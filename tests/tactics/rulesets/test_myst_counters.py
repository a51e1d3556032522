"""Myst's counters on the battlefield (game/tactics/rulesets/myst_counters.py; 002:l.72-116):
the grab's bar on attacking and moving, the fall's, where breaking off steps to, and the
computer's choice among the counters and of keeping a grab."""

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


ARCIERE = load().samples["arciere"]
BRUTO = load().samples["bruto"]


def _plan(me: EntitySheet, *enemies: EntitySheet) -> tuple[str, ...]:
    return BATTLE.computer_plan(_field(me, *enemies), me, list(enemies))


def test_the_computer_grabs_a_stronger_arm_beside_it_and_trips_a_weaker_one() -> None:
    # docs/rules.md, "Myst counters in battle". The soldato's sword (attack 45 against the
    # popolano's defence 32, 1d8, Strength 30) is worth far more than the popolano's fork
    # (30 against 50): a grab trades that attack for the popolano's own (002:l.116).
    desmond = EntitySheet("desmond", "b", (3, 2, 0), sheet=POPOLANO)
    josh = EntitySheet("josh", "a", (2, 2, 0), sheet=SOLDATO)
    assert _plan(desmond, josh) == ("grab",)
    assert _plan(josh, desmond) == ("trip",)
    # The archer's bow beside the soldato: the sword is worth more, the grab pays.
    robin = EntitySheet("robin", "b", (3, 2, 0), sheet=ARCIERE)
    assert _plan(robin, josh) == ("grab",)


def test_the_computer_trips_where_a_knock_down_is_likely_though_the_enemy_hits_harder() -> None:
    # The bruto's axe (1d10, Strength 46) outweighs the archer's bow, but the archer's Corpo a
    # Corpo 48 against the bruto's 44 knocks it down often enough (002:l.101: its next attack
    # lost, and the archer keeps its own) that the trip spares more than the grab.
    robin = EntitySheet("robin", "b", (3, 2, 0), sheet=ARCIERE)
    brute = EntitySheet("brute", "a", (2, 2, 0), sheet=BRUTO)
    assert _plan(robin, brute) == ("trip",)


def test_the_computer_trips_when_no_enemy_may_strike_it_in_melee_before_its_next_turn() -> None:
    desmond = EntitySheet("desmond", "b", (3, 2, 0), sheet=POPOLANO)
    # The soldato's 4 cells of speed and 1 of reach reach 5 cells (M-2): at 6, no threat.
    assert _plan(desmond, EntitySheet("josh", "a", (9, 2, 0), sheet=SOLDATO)) == ("trip",)
    assert _plan(desmond, EntitySheet("josh", "a", (8, 2, 0), sheet=SOLDATO)) == ("grab",)
    # An archer shoots, never strikes in melee: no counterattack against it (002:l.76-79).
    assert _plan(desmond, EntitySheet("robin", "a", (2, 2, 0), sheet=ARCIERE)) == ("trip",)
    beside = EntitySheet("josh", "a", (2, 2, 0), sheet=SOLDATO)
    # On the ground it stands with its action first (002:l.101); held, it breaks the grab.
    assert _plan(desmond, replace(beside, stance=Stance.PRONE)) == ("trip",)
    assert _plan(desmond, replace(beside, hold=("ada", False))) == ("trip",)
    # A fighter already in a grab holds one at a time: the trip.
    assert _plan(replace(desmond, hold=("ada", True)), beside) == ("trip",)


def test_the_computer_keeps_a_grab_while_the_trade_pays_and_an_ally_strikes() -> None:
    # 002:l.116: neither acts while the grab lasts; the holder lets go at any time.
    josh = EntitySheet("josh", "a", (2, 2, 0), sheet=SOLDATO, hold=("desmond", True))
    desmond = EntitySheet("desmond", "b", (3, 2, 0), sheet=POPOLANO, hold=("josh", False))
    bf = _field(josh, desmond)
    assert not BATTLE.keeps_grab(bf, josh, desmond)  # a weaker arm: let go and fight
    assert not BATTLE.keeps_grab(bf, desmond, josh)  # the grabbed one breaks it
    # Josh's ally beside Desmond, free: Josh keeps him bound for her.
    ada = EntitySheet("ada", "a", (4, 2, 0), sheet=SOLDATO)
    assert BATTLE.keeps_grab(_field(josh, desmond, ada), josh, desmond)
    for busy in (replace(ada, stance=Stance.PRONE), replace(ada, hold=("x", True))):
        assert not BATTLE.keeps_grab(_field(josh, desmond, busy), josh, desmond)
    # Desmond's ally beside Josh: Josh's sword stays bound while she strikes him.
    eve = EntitySheet("eve", "b", (1, 2, 0), sheet=POPOLANO)
    assert BATTLE.keeps_grab(_field(josh, desmond, eve), desmond, josh)
    # Desmond holding Josh keeps him: Josh's sword is worth more than his fork.
    holder = replace(desmond, hold=("josh", True))
    held = replace(josh, hold=("desmond", False))
    assert BATTLE.keeps_grab(_field(held, holder), holder, held)
