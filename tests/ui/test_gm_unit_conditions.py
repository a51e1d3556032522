"""The GM's condition list follows the battle's ruleset (asked of it, never by its id): Myst
lists none of periferie's conditions (its sheet keeps none, 002's Status Globale) and says so,
greyed; periferie lists P-VUL-3's (SDL dummy)."""

from __future__ import annotations

from game.battle import commands as cmd
from game.battle.engine import GM
from game.rules.wounds import CONDITIONS
from game.text.i18n import speaking
from game.ui.gm_panel import GmPanel
from tests.ui.conftest import MakeWindow, Window


def _gm_at_the_screen(w: Window) -> GmPanel:
    w.scene.gm_button()
    assert w.take_screen() == GM
    w.frames(2)
    panel = w.scene.gm_panel
    assert panel is not None
    return panel


def test_myst_gm_tools_list_no_periferie_condition_and_say_so_greyed(
    make_window: MakeWindow,
) -> None:
    w = make_window(gm=True, ruleset="myst")
    with speaking("en"):
        panel = _gm_at_the_screen(w)
        assert panel.condition is None  # no "stunned" to pick
        assert panel.no_conditions.text == "no conditions to set under this ruleset"
        assert not panel.no_conditions.is_enabled
    unit = w.battle.active
    assert unit is not None
    refused = w.battle.apply(cmd.SetCondition(unit, add=("stunned",)), GM)
    assert not refused.accepted and refused.refusal is not None
    assert refused.refusal.code == "unknown_condition"


def test_periferie_gm_tools_list_p_vul_3_conditions(make_window: MakeWindow) -> None:
    w = make_window(gm=True)
    panel = _gm_at_the_screen(w)
    assert panel.condition is not None
    assert [o[1] for o in panel.condition.options_list] == list(CONDITIONS)
