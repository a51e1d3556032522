"""Compile (or load from numba's cache) every grid kernel a battle uses, on a tiny battle.

The first start after an install spends several seconds compiling; the window runs this in a
worker thread behind its progress screen, so that it never sits frozen or silent.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from game.grid.model import OBSTACLE_FULL, OBSTACLE_HALF, Grid

#: (what is being prepared, for the progress screen) in the order the steps run.
STEPS = ("sight", "cover", "movement", "battle")


def warm_kernels(progress: Callable[[str, float], None] | None = None) -> None:
    """Run each kernel family once; `progress(step, fraction done)` after each."""
    from game.battle import preview
    from game.battle.engine import GM, Battle
    from game.battle.setup import BattleSetup, UnitSpec
    from game.rules.data import load_rules

    def step(name: str, done: int) -> None:
        if progress is not None:
            progress(name, done / len(STEPS))

    obstacle = np.zeros((8, 6, 2), dtype=np.uint8)
    obstacle[3, 1:5, 0] = OBSTACLE_FULL
    obstacle[5, 2, 0] = OBSTACLE_HALF
    grid = Grid.build(obstacle)
    units = (
        UnitSpec("a", "one", (0, 0, 0), weapon="pistol"),
        UnitSpec("b", "two", (7, 5, 0), weapon="pistol"),
        UnitSpec("c", "two", (6, 0, 0)),
    )
    setup = BattleSetup(map_path="<warm-up>", map_sha256="", seed=1, units=units)
    step("sight", 0)
    battle = Battle(setup, grid, load_rules())  # fog: cells in view, visibility matrix
    try:
        step("cover", 1)
        for attacker, target in (("a", "b"), ("b", "a"), ("a", "c")):
            preview.attack(battle, GM, attacker, target)
        step("movement", 2)
        for unit in ("a", "b"):
            preview.reach(battle, GM, unit)
            preview.path(battle, GM, unit, (4, 5, 0))
        step("battle", 3)
        active = battle.active
        if active is not None:
            from game.battle.ai import choose

            choose(battle, active)
    finally:
        battle.close()
    step("battle", 4)
