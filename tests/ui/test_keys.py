"""The battle window's default keys: within one ruleset's turn no two commands share a key, nor
a command and a window action; a key may serve two rulesets' own commands (docs/window.md)."""

from __future__ import annotations

import pytest

from game.tactics.ruleset import battle_rules, playable_ids
from game.ui.keys import DEFAULT_KEYS

#: The reaction prompt's answers, asked only while a reaction waits (no command is given then).
PROMPT_ONLY = frozenset({"take", "let_go"})
#: Every command some ruleset's turn has; the rest of DEFAULT_KEYS are the window's own actions.
ALL_COMMANDS = frozenset(c for r in playable_ids() for c in battle_rules(r).turn_budget().commands)


@pytest.mark.parametrize("ruleset", playable_ids())
def test_no_two_things_one_rulesets_turn_offers_share_a_default_key(ruleset: str) -> None:
    own = battle_rules(ruleset).turn_budget().commands
    names = [
        n for n in DEFAULT_KEYS if n not in PROMPT_ONLY and (n in own or n not in ALL_COMMANDS)
    ]
    taken: dict[int, str] = {}
    for name in names:
        for key in DEFAULT_KEYS[name]:
            assert key not in taken, f"{ruleset}: {name} and {taken[key]} share a key"
            taken[key] = name


def test_every_command_of_every_rulesets_turn_has_a_default_key() -> None:
    # end_turn included: a table plays with keys only.
    assert sorted(c for c in ALL_COMMANDS if c not in DEFAULT_KEYS) == []
