"""The battlefield's conditions badge on the battle screen (issue 15): every seat sees the light,
smoke and weather that are not "none" at the board's top edge, with what they do under the
battle's ruleset in its tooltip; hidden while all are "none".

Battles on maps/station_interior.tmx (no darkness, smoke or weather property).
"""

from __future__ import annotations

from game.battle import commands as cmd
from game.battle.engine import GM
from game.text.i18n import speaking
from game.ui.gm_panel import GmAct
from tests.ui.conftest import MakeWindow, Window


def _settle(w: Window) -> None:
    """Step until the command on the scene's worker thread is shown."""
    w.frames(2)
    for _ in range(2000):
        if not (w.scene.worker.busy or w.scene.animator.busy):
            break
        w.frames(1)
    w.frames(2)


def test_the_badge_is_hidden_at_the_start_on_a_map_without_conditions(
    make_window: MakeWindow,
) -> None:
    w = make_window(gm=True, ruleset="cepheus")
    assert w.scene.view.conditions.choices()[0][1] == "none"
    assert not w.scene.field_badge.visible
    assert w.scene.field_badge.text == ""


def test_the_gms_dense_smoke_and_low_light_show_on_the_gms_badge_with_the_cepheus_dms(
    make_window: MakeWindow,
) -> None:
    w = make_window(gm=True, ruleset="cepheus")
    with speaking("en"):
        w.scene.gm_button()
        assert w.take_screen() == GM
        w.frames(2)
        assert not w.scene.field_badge.visible
        # The GM's tools give the command as the battlefield window's menus do.
        w.scene.gm_act(GmAct(cmd.ChangeField(darkness="low", smoke="dense")))
        _settle(w)
        badge = w.scene.field_badge
        assert badge.visible
        assert badge.button is not None and badge.button.text == "Dense smoke · Low light"
        # 000:l.213 "Le luci basse danno un MD di -1 agli attacchi a distanza"; 000:l.215 "un
        # fumo particolarmente denso e impenetrabile dà un MD di -2": the GM's window's lines.
        assert badge.tip == (
            "Dense smoke · Low light<br>At range:<br>darkness DM -1<br>smoke DM -2"
        )
        assert badge.button.tool_tip_text == badge.tip


def test_a_players_badge_shows_the_gms_change_in_italian_and_hides_when_cleared(
    make_window: MakeWindow,
) -> None:
    w = make_window(gm=True)  # periferie: its seed has no such rule
    with speaking("it"):
        assert not w.scene.field_badge.visible
        w.session.submit(cmd.ChangeField(weather="bad", smoke="light"), GM)
        w.scene.refresh()
        w.frames(2)
        badge = w.scene.field_badge
        assert badge.visible and badge.text == "Fumo leggero · Maltempo"
        assert badge.tip == "Fumo leggero · Maltempo<br>Nessun effetto con queste regole"
        w.session.submit(cmd.ChangeField(weather="none", smoke="none"), GM)
        w.scene.refresh()
        w.frames(2)
        assert not badge.visible and badge.text == ""
