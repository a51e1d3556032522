"""The board's right-click menu over an ally lists the medkit as the battle's ruleset gives first
aid (options.first_aid, issue 16): under Cepheus a wounded ally beside the acting unit is offered
"Medkit on …: wounded" (000:l.398, the C-5 state) and choosing it journals the first aid; under
d20, whose seed has no first aid, the entry is greyed with the reason. maps/station_interior.tmx,
seed 1, the computer plays station security (SDL dummy)."""

from __future__ import annotations

from dataclasses import replace

from game.battle import commands as cmd
from game.battle.engine import GM
from game.battle.setup import UnitSpec
from game.ecs.components import RulesetSheet
from tests.ui.conftest import MakeWindow, Window


def _raider_acts(w: Window) -> str:
    for _ in range(300):  # the computer plays station security until a raider acts
        active = w.battle.active
        if active is not None and w.battle.faction_of(active) == "raiders":
            return active
        w.frames(1)
    raise AssertionError("no raider's turn")


def _pair(make_window: MakeWindow, ruleset: str) -> Window:
    """Kask and Ada, raiders side by side; Vidal far off. Ada acts first among the raiders
    whatever the order: each raider's menu is asked over the other."""
    return make_window(
        ruleset=ruleset,
        units=[
            UnitSpec("Kask", "raiders", (11, 14, 0), template="scavenger", weapon="smg"),
            UnitSpec("Ada", "raiders", (12, 14, 0), template="scavenger", weapon="smg"),
            UnitSpec("Vidal", "station_security", (20, 14, 0), template="station_guard",
                     weapon="pistol"),
        ],
    )  # fmt: skip


def _menu_over(w: Window, unit: str) -> dict[str, tuple[str, bool, str]]:
    w.click(w.battle.sheet(unit).cell, button=3)
    menu = w.scene.orders.menu
    assert menu is not None
    return {label: (key, allowed, why) for label, key, allowed, why in menu.items}


def _end_lost(w: Window, unit: str, lost: int) -> None:
    """`lost` END points off the unit's Cepheus sheet, as a hit its armour let through; then a
    GM command that changes nothing (the battlefield's conditions as they are), so that the
    battle reads its units again."""
    sheet = w.battle.world.get(unit, RulesetSheet).sheet
    chars = {**sheet.chars, "end": sheet.chars["end"] - lost}  # type: ignore[attr-defined]
    w.battle.world.set(unit, RulesetSheet(replace(sheet, chars=chars)))  # type: ignore[type-var]
    assert w.battle.apply(cmd.ChangeField(weather="bad"), GM).refusal is None
    w.scene.refresh()


def test_000_l398_cepheus_offers_first_aid_on_a_wounded_ally_and_it_is_journaled(
    make_window: MakeWindow,
) -> None:
    w = _pair(make_window, "cepheus")
    medic = _raider_acts(w)
    patient = "Ada" if medic == "Kask" else "Kask"
    w.frames(2)
    # The uninjured ally: nothing for first aid to treat, no medkit entry.
    assert not any(k.startswith("use_object") for k, _a, _w in _menu_over(w, patient).values())
    w.scene.orders.close_menu()
    # C-5 "Wounded (END reduced)": 3 of the sample scavenger's END gone.
    _end_lost(w, patient, 3)
    items = _menu_over(w, patient)
    assert items[f"Medkit on {patient}: wounded"] == ("use_object:wounded", True, "")
    # 000:l.398: 2d6 + Medico (none on the sample: 0) >= 8; 5 + 4 = 9, Effect 1, 2 points.
    w.battle.roller.supply(5, 4)
    w.scene.orders.menu_choice("use_object:wounded")
    w.frames(5)
    aid = [e.data for e in w.battle.log if e.kind == "medkit"]
    assert [(a["result"], a["restored"]) for a in aid] == [("first_aid", 2)]


def test_d20_greys_the_medkit_on_an_ally_with_the_reason(make_window: MakeWindow) -> None:
    w = _pair(make_window, "d20")
    medic = _raider_acts(w)
    patient = "Ada" if medic == "Kask" else "Kask"
    w.frames(2)
    items = _menu_over(w, patient)
    assert items[f"Medkit on {patient}"] == (
        "use_object",
        False,
        "Not offered: this ruleset's rules have nothing for it.",
    )
