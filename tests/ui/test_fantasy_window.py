"""The dice-step fantasy system in the window (seed 003): the initiative tracker shows each
fighter's place as the ruleset makes it (its AGI and DES dice, F-1), not the order key, and a
crossbow being reloaded (CAD, 003:l.140) greys the attack with its reason (SDL dummy)."""

from __future__ import annotations

from pathlib import Path

from game.battle import commands as cmd
from game.battle.setup import UnitSpec
from game.maps import load_map
from tests.ui.conftest import MakeWindow

#: Wisp is the scavenger (the sample arciere: AGI d8, DES d10, a CAD 2 crossbow) on the station's
#: upper deck, in sight of Vidal (the sample bruto: AGI d4, DES d4) 14 cells away: too far for
#: the bruto's 6 cells a turn (F-3) to reach it before Wisp's second turn.
UNITS = [
    UnitSpec("Wisp", "raiders", (14, 4, 1), template="scavenger", weapon="carbine"),
    UnitSpec("Vidal", "station_security", (28, 9, 1), template="void_marine", weapon="stun_baton"),
]


def test_f1_the_tracker_shows_the_agi_and_des_dice_not_the_order_key(
    make_window: MakeWindow,
) -> None:
    w = make_window(ruleset="fantasy", units=UNITS)
    assert w.battle.active == "Wisp"
    chips = {chip.unit: chip.text for chip, _button in w.scene.tracker.chips}
    # F-1, 003:l.16: a characteristic's value is its die's maximum face; the order key inside
    # (8 x 16 + 10 = 138) is not what a player reads.
    assert chips["Wisp"] == "Wisp AGI d8 · DES d10"
    assert "138" not in " ".join(chips.values())


def test_periferie_keeps_the_rolls_total_in_the_tracker(make_window: MakeWindow) -> None:
    w = make_window()
    entries = {e.entity_id: e.total for e in w.battle.initiative.visible_order(True)}
    for chip, _button in w.scene.tracker.chips:
        if chip.text != chip.unit:
            assert chip.text == f"{chip.unit} {entries[chip.unit]}"


def test_003_l140_a_crossbow_being_reloaded_greys_the_attack_with_its_reason(
    make_window: MakeWindow,
) -> None:
    w = make_window(ruleset="fantasy", units=UNITS)
    assert w.scene.submit(cmd.Attack("Wisp", "Vidal")).accepted
    assert w.scene.submit(cmd.EndTurn("Wisp")).accepted
    for _ in range(300):  # the computer plays Vidal's turn
        if w.battle.active == "Wisp":
            break
        w.frames(1)
    assert w.battle.active == "Wisp"
    w.scene.selected = "Wisp"
    w.scene.refresh_widgets()
    w.frames(2)
    bar = {action.kind: action for action, _button in w.scene.bar.buttons}
    # CAD 2: one turn of "Preparare l'Arma" before the next shot (003:l.140).
    assert not bar["attack"].allowed and bar["attack"].why_not == "Reloading (1 turns)."
    assert bar["reload"].allowed
    assert w.scene.submit(cmd.Reload("Wisp")).accepted
    w.scene.refresh_widgets()
    bar = {action.kind: action for action, _button in w.scene.bar.buttons}
    # The reload was the turn's action: the attack waits for the next turn, for that reason.
    assert not bar["attack"].allowed and bar["attack"].why_not != "Reloading (1 turns)."


def test_f1_seven_fighters_on_keep_gate_all_fit_the_tracker_at_1280x720_words_in_the_tooltip(
    make_window: MakeWindow,
) -> None:
    # The table's complaint: "Name AGI d6 · DES d6" chips are 130 px each and only 5 of 7 fit;
    # when the whole order would not fit, each chip shows its name, its dice in the tooltip.
    keep = Path(__file__).parents[2] / "maps" / "keep_gate.tmx"
    seven = [
        UnitSpec(u.name, u.faction, u.cell, template=u.template or "human", weapon=u.weapon)
        for u in load_map(keep).units[:7]
    ]
    assert len(seven) == 7
    sides = tuple(sorted({u.faction for u in seven}))
    w = make_window(ruleset="fantasy", units=seven, map_path=keep, sides=sides, computer=())
    shown = w.scene.tracker.chips
    assert sorted(chip.unit for chip, _button in shown) == sorted(u.id for u in seven)
    for chip, button in shown:
        assert button.text == chip.unit
        assert " · " in chip.text and chip.text in button.tool_tip_text
        assert button.relative_rect.right <= 1280 - 420  # left of the turn budget


def test_the_other_rulesets_chips_keep_their_totals_on_the_chip(make_window: MakeWindow) -> None:
    w = make_window()
    for chip, button in w.scene.tracker.chips:
        assert button.text == chip.text
