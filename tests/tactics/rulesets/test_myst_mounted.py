"""Issue 16: the Myst computer's riding, asked of the ruleset (game/tactics/rulesets/
myst_mounted.py; docs/rules.md "Myst mounted in battle"): the gait step a computer rider
declares (002:l.137-145, 153) and whether its melee blow aims at a rider's horse (002:l.149-150).
The sheets are the samples: the cavaliere (attack 50, defence 52 with a shield of 12, Cavalcare
46, Strength 38, a lancia 1d6, speed 8, Status Globale 34, its horse the assumed 40), the soldato
(attack 45, defence 50, a spada 1d8, speed 4, Status Globale 30)."""

from __future__ import annotations

from dataclasses import replace

from game.rules.data import load_rules
from game.rules.myst.data import load
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.rulesets.myst_battle import BATTLE
from tests.battle.conftest import OPEN_FIELD, ascii_grid

CAVALIERE = load().samples["cavaliere"]
SOLDATO = load().samples["soldato"]


def _field(*entities: EntitySheet) -> Battlefield:
    return Battlefield(ascii_grid(OPEN_FIELD), entities, load_rules(), "myst")


def _gait(knight: EntitySheet, *enemies: EntitySheet) -> str | None:
    return BATTLE.computer_gait(_field(knight, *enemies), knight, list(enemies))


def _knight(gait: str = "walk", **changes: object) -> EntitySheet:
    return EntitySheet("osric", "a", (0, 5, 0), sheet=replace(CAVALIERE, gait=gait, **changes))


def test_002_l142_l153_a_knight_far_from_every_enemy_steps_up_to_the_gallop() -> None:
    # The soldato 12 cells away (Chebyshev, G-4) is farther than the knight's 8-cell ride:
    # worth the gallop's +3 Strength cap (002:l.142), reached one step at a time (l.153).
    far = EntitySheet("josh", "b", (12, 5, 0), sheet=SOLDATO)
    assert _gait(_knight("walk"), far) == "canter"
    assert _gait(_knight("canter"), far) == "gallop"
    assert _gait(_knight("gallop"), far) is None
    # A change already declared waits for its turn: nothing more declared (002:l.153).
    assert _gait(_knight("walk", gait_next="canter"), far) is None


def test_002_l137_a_knight_in_reach_keeps_its_gait_and_slows_among_two_enemies() -> None:
    near = EntitySheet("josh", "b", (8, 5, 0), sheet=SOLDATO)  # 8 cells: one turn's ride
    assert _gait(_knight("walk"), near) is None
    assert _gait(_knight("gallop"), near) is None
    # Two enemies beside it (the 26 adjacent cells, M-2): back towards the walk, one step.
    beside = [
        EntitySheet("josh", "b", (1, 5, 0), sheet=SOLDATO),
        EntitySheet("desmond", "b", (0, 6, 0), sheet=SOLDATO),
    ]
    assert _gait(_knight("gallop"), *beside) == "canter"
    assert _gait(_knight("canter"), *beside) == "walk"
    assert _gait(_knight("walk"), *beside) is None
    # A fighter on foot has no gait to change.
    on_foot = EntitySheet("robin", "a", (0, 5, 0), sheet=SOLDATO)
    assert BATTLE.computer_gait(_field(on_foot, *beside), on_foot, beside) is None


def _at_horse(attacker: EntitySheet, rider: EntitySheet) -> bool:
    return BATTLE.computer_at_horse(_field(attacker, rider), attacker, rider)


def test_002_l149_on_foot_the_computer_strikes_the_horse_defended_without_the_shield() -> None:
    # From the ground the horse is defended with the lower of skill (52 - 12 = 40) and
    # Cavalcare (46) and without the shield (002:l.149): 40 against the rider's 52. The soldato's
    # 45 + 3d10 beats 40 + 3d10 far more often than 52 + 3d10, so the blow takes a far larger
    # share of the horse's 40 than of the rider's 34: the horse.
    josh = EntitySheet("josh", "b", (1, 5, 0), sheet=SOLDATO)
    assert _at_horse(josh, _knight())


def test_002_l150_a_rider_strikes_the_rider_unless_the_other_horse_is_nearly_dead() -> None:
    # Knight against knight: the attacker rides, so the horse keeps the shield (002:l.149 only
    # against one on foot), and Cavalcare 46 is above the skill 40: the same defence 52 either
    # way, the same expected harm; a share of 34 is more than a share of 40: the rider.
    other = EntitySheet("garrick", "b", (1, 5, 0), sheet=CAVALIERE)
    assert not _at_horse(_knight(), other)
    # Its horse down to 2 of 40: the same harm is a far larger share of 2 than of 34.
    hurt = replace(other, sheet=replace(CAVALIERE, horse=2))
    assert _at_horse(_knight(), hurt)
    # A target on foot has no horse to strike.
    assert not _at_horse(_knight(), EntitySheet("josh", "b", (1, 5, 0), sheet=SOLDATO))
