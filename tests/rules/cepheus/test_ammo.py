"""Ammunition (game/rules/cepheus/ammo.py), worked out by hand: 000:l.99 reloading, l.245-256
a burst's rounds, l.319 suppression "fino al doppio della normale quantità di munizioni"."""

from __future__ import annotations

from dataclasses import replace

from game.rules.cepheus import ammo
from game.rules.cepheus.sheet import Sheet, Weapon
from game.rules.cepheus.tempo import Tempo

SMG = Weapon(type="arma_d_assalto", kind="firearm", dice=3, auto=4, magazine=30)
KNIFE = Weapon(type="corpo_a_corpo", kind="melee", dice=2)


def test_a_weapon_without_a_magazine_is_not_counted() -> None:
    sheet = Sheet(weapon=KNIFE)
    assert ammo.rounds_left(sheet) is None and ammo.short_of(sheet) is None
    assert ammo.fired(sheet, 4) is sheet and not ammo.not_full(sheet)


def test_a_burst_needs_its_rounds_a_single_shot_one() -> None:
    sheet = Sheet(weapon=SMG, spent=27)  # 3 left
    assert ammo.rounds_needed(sheet) == 1 and ammo.short_of(sheet) is None
    bursts = replace(sheet, tempo=Tempo(burst=True))
    assert ammo.rounds_needed(bursts) == 4 and ammo.short_of(bursts) == (3, 4)


def test_suppression_spends_twice_or_what_is_left() -> None:
    sheet = Sheet(weapon=SMG, spent=20)  # 10 left
    assert ammo.fired(sheet, 4, suppression=True).spent == 28  # 8 rounds
    assert ammo.fired(replace(sheet, spent=25), 4, suppression=True).spent == 30  # the 5 left
    assert ammo.fired(sheet, 4).spent == 24


def test_a_reload_fills_the_magazine() -> None:
    sheet = Sheet(weapon=SMG, spent=30)
    assert ammo.not_full(sheet) and ammo.rounds_left(sheet) == 0
    assert ammo.reloaded(sheet).spent == 0 and not ammo.not_full(ammo.reloaded(sheet))
