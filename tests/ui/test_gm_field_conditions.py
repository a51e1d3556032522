"""The GM's battlefield conditions at the window (issue 15): the GM's tools show the light,
smoke and weather now, picking another by clicks gives the GM's command, and the log says so.

Battles on maps/station_interior.tmx (no darkness or smoke property), the GM at the screen.
"""

from __future__ import annotations

from pygame_gui.elements import UIDropDownMenu, UILabel

from game.battle.engine import GM
from game.tactics.battlefield import FieldConditions
from game.text.i18n import speaking
from game.ui.app import post_click
from game.ui.gm_panel import GmPanel, field_effects_lines
from tests.ui.conftest import MakeWindow, Window


def _gm_at_the_screen(w: Window) -> GmPanel:
    w.scene.gm_button()
    assert w.take_screen() == GM
    w.frames(2)
    panel = w.scene.gm_panel
    assert panel is not None
    return panel


def _choose(w: Window, menu: UIDropDownMenu, text: str) -> None:
    """Open a drop-down of the GM's tools and click the option that reads `text`."""
    post_click(menu.get_abs_rect().center)
    w.frames(3)
    listing = menu.current_state.options_selection_list
    assert listing is not None, "the drop-down did not open"
    item = next(i for i in listing.item_list if i["text"] == text)
    assert item["button_element"] is not None, f"{text!r} is out of sight"
    post_click(item["button_element"].get_abs_rect().center)
    w.frames(3)
    for _ in range(2000):  # the command runs on the scene's worker thread
        if not (w.scene.worker.busy or w.scene.animator.busy):
            break
        w.frames(1)
    w.frames(2)


def _shown(panel: GmPanel) -> tuple[str, ...]:
    return tuple(str(panel.field[n].selected_option[0]) for n in ("darkness", "smoke", "weather"))


def _texts(panel: GmPanel) -> list[str]:
    """The lines of the battlefield's window below its menus."""
    assert panel.field_window is not None
    return [
        str(e.text)
        for e in panel.field_window.get_container().elements
        if isinstance(e, UILabel) and e.rect.y > panel.field["weather"].rect.y
    ]


def _open_field(w: Window, panel: GmPanel) -> None:
    post_click(panel.field_button.get_abs_rect().center)
    w.frames(3)
    assert panel.field_window is not None and panel.field_window.alive()


def test_the_gm_picks_dense_smoke_by_clicks_under_cepheus_and_the_tools_and_log_show_it(
    make_window: MakeWindow,
) -> None:
    w = make_window(gm=True, ruleset="cepheus")
    with speaking("en"):
        panel = _gm_at_the_screen(w)
        assert panel.field_button.text == "Battlefield: clear"
        _open_field(w, panel)
        assert _shown(panel) == ("full light", "no smoke", "fair weather")
        assert _texts(panel) == ["No effect on attacks"]
        _choose(w, panel.field["smoke"], "dense smoke")
        assert w.battle.bf.conditions == FieldConditions(smoke="dense")
        given = w.session.history[-1]
        assert given.by == GM
        assert given.command.to_json() == {"cmd": "field_conditions", "smoke": "dense"}
        assert "GM: dense smoke." in w.scene.log_text()
        assert panel.field_window is not None and not panel.field_window.alive()
        panel = w.scene.gm_panel  # the tools are drawn again with the new conditions
        assert panel is not None
        assert panel.field_button.text == "Battlefield: dense smoke"
        _open_field(w, panel)
        assert _shown(panel) == ("full light", "dense smoke", "fair weather")
        # 000:l.215: "un fumo particolarmente denso e impenetrabile dà un MD di -2".
        assert _texts(panel) == ["At range:", "smoke DM -2"]


def test_under_periferie_the_tools_say_the_conditions_change_nothing(
    make_window: MakeWindow,
) -> None:
    w = make_window(gm=True)
    with speaking("it"):
        panel = _gm_at_the_screen(w)
        _open_field(w, panel)
        assert _texts(panel) == ["Nessun effetto con queste regole"]
        _choose(w, panel.field["weather"], "maltempo")
        assert w.battle.bf.conditions.weather == "bad"
        assert "Master: maltempo." in w.scene.log_text()
        panel = w.scene.gm_panel
        assert panel is not None and panel.field_button.text == "Campo: maltempo"


def test_the_d20_concealment_of_total_darkness_is_said_in_the_battlefields_window() -> None:
    from game.tactics.rulesets.d20_battle import BATTLE as D20

    with speaking("en"):
        # 004:l.84: total concealment, 50 % (darkness as concealment is a choice: docs/rules.md).
        effects = D20.field_effects(FieldConditions(darkness="total"))
        assert field_effects_lines(effects) == ["At range:", "concealment: 50% miss chance"]
