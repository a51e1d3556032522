"""Cepheus's throws, explosions and battlefield conditions (game/tactics/rulesets/
cepheus_battle.py) against numbers worked out by hand from seed 000:

- "Attacco con Oggetto Lanciato = 2D6 + Atletica + MD di Destrezza" (000:l.134), the Lancio row
  "-- | Media | Difficile | Difficile | --" (000:l.51), C-2's bands and DMs;
- "Se l'attacco fallisce, il proiettile rimbalza in una direzione casuale per (6 + Effetto)
  metri" and "Il primo tipo ... somma l'Effetto ... al suo danno. Il secondo tipo no" (000:l.353);
- "Le luci basse danno un MD di -1 agli attacchi a distanza. L'oscurità completa dà un MD di -4"
  (000:l.213); "Il fumo dà un MD di -1 ...; un fumo particolarmente denso ... -2. Queste
  penalità sono raddoppiate per le armi laser" (000:l.215).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from game.rules.dice import Advantage, Roller
from game.rules.ruleset_answers import NOT_OFFERED
from game.tactics.battlefield import Battlefield
from game.tactics.ruleset import battle_rules
from game.tactics.rulesets.cepheus_battle import BATTLE, NO_THROWN_WEAPON, state_of
from tests.tactics.rulesets.cepheus_fields import plain_field

ROOT = Path(__file__).resolve().parents[3]
#: Atletica 1, DEX DM +1 (the sample scavenger's), holding the sample frag grenade (blast 1).
THROWER = {
    "chars": {"str": 7, "dex": 10, "end": 8},
    "dm": {"dex": 1},
    "skills": {"atletica": 1, "mischia": 1},
    "weapon": "granata_a_frammentazione",
}
GUARD = {
    "chars": {"str": 7, "dex": 9, "end": 8},
    "dm": {"dex": 1},
    "skills": {"armi da fuoco": 1},
    "weapon": "pistola_automatica",
}
CIVILIAN = {"chars": {"str": 7, "dex": 7, "end": 7}, "weapon": "pugni"}


def _field(*entities: dict[str, object], cells: list[object] | None = None) -> Battlefield:
    return plain_field(*entities, size=40, cells=cells)


def _thrower_field(sheet: dict[str, object] = THROWER, **more: object) -> Battlefield:
    return _field(
        {"id": "t", "faction": "blue", "at": [0, 0, 0], "sheet": sheet},
        {"id": "c", "faction": "red", "at": [5, 0, 0], "sheet": CIVILIAN},
        **more,  # type: ignore[arg-type]
    )


def _in(bf: Battlefield, darkness: str = "none", smoke: str = "none") -> Battlefield:
    """The same field under the map's `darkness` and `smoke` (kept on the grid)."""
    return replace(bf, grid=replace(bf.grid, darkness=darkness, smoke=smoke))


def test_000_l134_a_throw_at_a_cell_is_2d6_plus_atletica_plus_dex_dm_at_the_lancio_row() -> None:
    bf = _thrower_field()
    t = bf.entity("t")
    # 5 cells = 7.5 m: Breve, Lancio Difficile (-2): 2d6 + 1 + 1 - 2 >= 8, 15 of 36.
    breve = BATTLE.throw(bf, t, (5, 3, 0), "light", None)
    assert breve.chance == Fraction(15, 36) and breve.band == "breve" and not breve.automatic
    # 2 cells = 3 m: Ravvicinata, Media (0): 2d6 + 2 >= 8, i.e. 2d6 >= 6, 26 of 36.
    assert BATTLE.throw(bf, t, (2, 1, 0), "light", None).chance == Fraction(26, 36)
    # 9 cells = 13.5 m: Media band, Lancio Difficile again.
    assert BATTLE.throw(bf, t, (9, 3, 0), "light", None).chance == Fraction(15, 36)
    # 1 cell is Personale and 34 cells (51 m) Lunga: "--", no throw (C-2).
    for cell in ((1, 1, 0), (34, 0, 0)):
        refused = BATTLE.throw(bf, t, cell, "light", None)
        assert refused.chance is None and refused.reason == "out_of_band"
        assert not refused.possible


def test_000_l134_a_throw_at_an_entity_is_the_attack_with_the_thrown_weapon() -> None:
    bf = _thrower_field()
    at_entity = BATTLE.throw(bf, bf.entity("t"), bf.entity("c"), "light", None)
    assert at_entity.chance == Fraction(15, 36)
    assert at_entity.chance == BATTLE.attack(bf, bf.entity("t"), bf.entity("c")).chance


def test_a_cepheus_unit_without_a_thrown_weapon_cannot_throw_and_others_do_not_offer_it() -> None:
    bf = _field({"id": "g", "faction": "blue", "at": [0, 0, 0], "sheet": GUARD})
    assert BATTLE.can_throw(bf, bf.entity("g")) == NO_THROWN_WEAPON
    assert BATTLE.throw(bf, bf.entity("g"), (3, 0, 0), "light", None).reason == NO_THROWN_WEAPON
    assert BATTLE.can_throw(_thrower_field(), _thrower_field().entity("t")) is None
    for other in ("d20", "myst", "fantasy"):
        rules = battle_rules(other)
        assert rules.can_throw(bf, bf.entity("g")) == NOT_OFFERED
        assert rules.throw(bf, bf.entity("g"), (3, 0, 0), "light", None).reason == NOT_OFFERED


def test_000_l353_a_missed_throw_bounces_six_plus_effect_metres_in_a_d8_direction() -> None:
    bf = _thrower_field()
    t = bf.entity("t")
    answer = BATTLE.throw(bf, t, (5, 3, 0), "light", None)
    roller = Roller(1)
    roller.supply(2, 3, 5)  # 5 + 0 = 5: Effect -3, 3 m = 2 cells; d8 5 = south (+y)
    rolled = BATTLE.roll_throw(roller, bf, t, (5, 3, 0), answer, Advantage.NONE, "throw t")
    assert not rolled.hit and rolled.landed == (5, 5, 0)
    assert [r.dice for r in rolled.rolls] == [(2, 3), (5,)]
    assert rolled.logged == {"chance": "5/12", "total": 5, "effect": -3}
    roller.supply(1, 1)  # 2: Effect -6, 0 m: it stays where aimed, no direction rolled
    short = BATTLE.roll_throw(roller, bf, t, (5, 3, 0), answer, Advantage.NONE, "throw t")
    assert short.landed == (5, 3, 0) and len(short.rolls) == 1
    roller.supply(4, 4)  # 8: Effect 0, a hit lands where aimed
    hit = BATTLE.roll_throw(roller, bf, t, (5, 3, 0), answer, Advantage.NONE, "throw t")
    assert hit.hit and hit.landed == (5, 3, 0)


def test_a_bounce_stops_before_a_wall() -> None:
    bf = _thrower_field(cells=[{"at": [6, 3, 0], "obstacle": "full"}])
    t = bf.entity("t")
    answer = BATTLE.throw(bf, t, (5, 3, 0), "light", None)
    roller = Roller(1)
    roller.supply(1, 2)  # 3: Effect -5, 1 m = 0 cells: where aimed
    short = BATTLE.roll_throw(roller, bf, t, (5, 3, 0), answer, Advantage.NONE, "x")
    assert short.landed == (5, 3, 0) and len(short.rolls) == 1
    roller.supply(3, 3, 3)  # 6: Effect -2, 4 m = 2 cells east, but (6, 3, 0) is a wall
    rolled = BATTLE.roll_throw(roller, bf, t, (5, 3, 0), answer, Advantage.NONE, "x")
    assert rolled.landed == (5, 3, 0) and len(rolled.rolls) == 2


def test_000_l353_an_impact_throw_adds_its_effect_to_the_damage_a_grenade_does_not() -> None:
    knife = {**THROWER, "weapon": "granata"}  # the sample impact grenade: 3d6, no blast
    bf = _thrower_field(knife)
    t = bf.entity("t")
    answer = BATTLE.throw(bf, t, bf.entity("c"), "light", None)
    roller = Roller(1)
    roller.supply(6, 5, 1, 2, 3)  # 11: Effect 3, a hit; damage 1 + 2 + 3 = 6, + 3 = 9
    rolled = BATTLE.roll_throw(roller, bf, t, (5, 0, 0), answer, Advantage.NONE, "throw t")
    damage = BATTLE.throw_damage(roller, bf, t, None, "light", rolled)
    assert rolled.hit and damage.rolled == 9 and damage.record.dice == (1, 2, 3)
    # The frag grenade has a blast: its damage is the dice alone, whatever the Effect.
    grenade_field = _thrower_field()
    grenade = grenade_field.rules.weapons["frag_grenade"]
    roller.supply(1, 2, 3)
    boom = BATTLE.roll_damage(roller, grenade_field, grenade_field.entity("t"), grenade, None, None)
    assert boom.rolled == 6


def test_000_l273_an_explosion_reaches_everyone_within_its_blast_by_a_clear_line() -> None:
    bf = _field(
        {"id": "t", "faction": "blue", "at": [0, 0, 0], "sheet": THROWER},
        {"id": "a", "faction": "red", "at": [5, 3, 0], "sheet": CIVILIAN},
        {"id": "b", "faction": "red", "at": [6, 4, 0], "sheet": CIVILIAN},
        {"id": "far", "faction": "red", "at": [7, 3, 0], "sheet": CIVILIAN},
        {"id": "walled", "faction": "red", "at": [4, 2, 0], "sheet": CIVILIAN},
        cells=[{"at": [4, 3, 0], "obstacle": "full"}, {"at": [5, 2, 0], "obstacle": "full"}],
    )
    weapon = bf.rules.weapons["frag_grenade"]
    victims = BATTLE.area_victims(bf, bf.entity("t"), weapon, (5, 3, 0))
    # blast 1 (the sample grenade): the 3x3 around (5, 3, 0); (4, 2, 0) is behind the corner.
    assert victims == ("a", "b")
    # A weapon without a blast hurts only the one it hits.
    guard = _field({"id": "g", "faction": "blue", "at": [0, 0, 0], "sheet": GUARD})
    assert BATTLE.area_victims(guard, guard.entity("g"), weapon, (5, 3, 0)) is None


def test_000_l213_darkness_is_minus_1_low_and_minus_4_total_on_ranged_attacks() -> None:
    bf = _field(
        {"id": "g", "faction": "blue", "at": [0, 0, 0], "sheet": GUARD},
        {"id": "c", "faction": "red", "at": [7, 0, 0], "sheet": CIVILIAN},
    )

    def chance(field: Battlefield) -> Fraction | None:
        return BATTLE.attack(field, field.entity("g"), field.entity("c")).chance

    # 7 cells Breve, pistol Media: 2d6 + 2 >= 8 is 26/36 in the light.
    assert chance(bf) == Fraction(26, 36)
    low = BATTLE.attack(_in(bf, darkness="low"), bf.entity("g"), bf.entity("c"))
    assert low.chance == Fraction(21, 36)  # 2d6 + 1 >= 8
    assert ("dm_darkness", -1) in [(m.code, m.value) for m in low.modifiers]
    assert chance(_in(bf, darkness="total")) == Fraction(6, 36)  # 2d6 - 2 >= 8


def test_000_l215_smoke_is_minus_1_or_minus_2_and_doubled_for_a_laser() -> None:
    def field(weapon: str) -> Battlefield:
        return _field(
            {"id": "g", "faction": "blue", "at": [0, 0, 0], "sheet": {**GUARD, "weapon": weapon}},
            {"id": "c", "faction": "red", "at": [7, 0, 0], "sheet": CIVILIAN},
        )

    def chance(bf: Battlefield) -> Fraction | None:
        return BATTLE.attack(bf, bf.entity("g"), bf.entity("c")).chance

    slug = field("pistola_automatica")
    assert chance(_in(slug, smoke="light")) == Fraction(21, 36)  # 2d6 + 1 >= 8
    assert chance(_in(slug, smoke="dense")) == Fraction(15, 36)  # 2d6 + 0 >= 8
    laser = field("pistola_laser")  # a laser pistol: the smoke's DM doubled
    light = BATTLE.attack(_in(laser, smoke="light"), laser.entity("g"), laser.entity("c"))
    assert light.chance == Fraction(15, 36)  # 2d6 + 2 - 2 >= 8
    assert ("dm_smoke", -2) in [(m.code, m.value) for m in light.modifiers]
    assert chance(_in(laser, smoke="dense")) == Fraction(6, 36)  # 2d6 + 2 - 4 >= 8


def test_000_l211_darkness_and_smoke_touch_throws_but_not_melee() -> None:
    bf = _thrower_field()
    dark = _in(bf, darkness="low")
    # The throw at 5 cells: 0 DM in the light, -1 in low light: 2d6 >= 9, 10 of 36.
    assert BATTLE.throw(dark, bf.entity("t"), (5, 3, 0), "light", None).chance == Fraction(10, 36)
    knifer = _field(
        {"id": "k", "faction": "blue", "at": [0, 0, 0], "sheet": {**THROWER, "weapon": "coltello"}},
        {"id": "c", "faction": "red", "at": [1, 0, 0], "sheet": CIVILIAN},
    )
    # Personale, Corpo a corpo Media: Mischia 1 + DEX DM +1 = 2d6 + 2 >= 8, dark or not.
    for field in (knifer, _in(knifer, darkness="total", smoke="dense")):
        assert BATTLE.attack(field, field.entity("k"), field.entity("c")).chance == Fraction(26, 36)


# ---------------------------------------------------------------- first aid (000:l.398)
#: "Prestare pronto soccorso fa recuperare un numero di punti caratteristica pari al doppio
#: dell'Effetto della prova di Medico ... Prestare pronto soccorso a se stessi è un compito
#: Difficile (-2)." (000:l.398)
MEDIC = {**CIVILIAN, "skills": {"medico": 1}}


def _patient(chars: dict[str, int], at: list[int] | None = None) -> Battlefield:
    return _field(
        {"id": "m", "faction": "blue", "at": [0, 0, 0], "sheet": MEDIC},
        {
            "id": "p",
            "faction": "blue",
            "at": at or [1, 0, 0],
            "sheet": {**CIVILIAN, "chars": chars, "max": {"end": 7, "str": 7, "dex": 7}},
        },
    )


def test_000_l398_first_aid_gives_back_twice_the_effect_of_a_medico_check() -> None:
    bf = _patient({"end": 2, "str": 7, "dex": 7})
    assert BATTLE.medkit_refusal(bf, bf.entity("m"), bf.entity("p"), "light") is None
    roller = Roller(1)
    roller.supply(5, 4)  # 9 + Medico 1 = 10: Effect 2, 4 points back, all to END
    aid = BATTLE.use_medkit(roller, bf, bf.entity("m"), bf.entity("p"), "light", Advantage.NONE)
    assert aid.result == "first_aid" and dict(aid.after.chars) == {"end": 6, "str": 7, "dex": 7}
    assert aid.logged == {"chance": "7/12", "total": 10, "effect": 2, "restored": 4}
    roller.supply(2, 3)  # 5 + 1 = 6: Effect -2, a failure: nothing back
    failed = BATTLE.use_medkit(roller, bf, bf.entity("m"), bf.entity("p"), "x", Advantage.NONE)
    assert failed.result == "check_failed" and failed.after.chars["end"] == 2


def test_000_l398_first_aid_on_oneself_is_difficile_minus_2() -> None:
    bf = _field(
        {
            "id": "m",
            "faction": "blue",
            "at": [0, 0, 0],
            "sheet": {**MEDIC, "chars": {"end": 1, "str": 7, "dex": 7}, "max": {"end": 7}},
        }
    )
    roller = Roller(1)
    roller.supply(6, 5)  # 11 + 1 - 2 = 10: Effect 2, 4 points
    aid = BATTLE.use_medkit(roller, bf, bf.entity("m"), bf.entity("m"), "x", Advantage.NONE)
    assert aid.logged["chance"] == "5/18"  # 2d6 - 1 >= 8, i.e. 2d6 >= 9: 10 of 36
    assert aid.after.chars["end"] == 5


def test_first_aid_points_go_one_at_a_time_to_the_lowest_characteristic() -> None:
    # END 0 and STR 0 (unconscious, C-5), DEX 5: ten points one at a time to the lowest,
    # END first on a tie: END 1, STR 1, END 2, STR 2, ... END 5, STR 5, level with DEX.
    bf = _patient({"end": 0, "str": 0, "dex": 5})
    roller = Roller(1)
    roller.supply(6, 6)  # 12 + 1 = 13: Effect 5, 10 points
    aid = BATTLE.use_medkit(roller, bf, bf.entity("m"), bf.entity("p"), "x", Advantage.NONE)
    assert dict(aid.after.chars) == {"end": 5, "str": 5, "dex": 5}
    assert aid.logged["restored"] == 10


def test_000_l380_first_aid_gives_an_unconscious_patient_points_but_does_not_wake_it() -> None:
    # END 0, STR 0 (unconscious, 000:l.367): 12 + 1 = 13, Effect 5, 10 points -> 5/5/5, which
    # alone would leave it merely seriously wounded; but only "una Prova di Resistenza dopo
    # ogni minuto di incoscienza" wakes it (l.380): it stays unconscious, out of the fight.
    bf = _patient({"end": 0, "str": 0, "dex": 5})
    roller = Roller(1)
    roller.supply(6, 6)
    aid = BATTLE.use_medkit(roller, bf, bf.entity("m"), bf.entity("p"), "x", Advantage.NONE)
    assert aid.after.unconscious and state_of(aid.after) == "unconscious"
    assert BATTLE.condition_effects(aid.after).out_of_combat
    # A seriously wounded patient (l.366) is not marked: its 10 points (END 1 -> 5, then one
    # each in turn) bring it back to 7/7/7, uninjured.
    hurt = _patient({"end": 1, "str": 5, "dex": 5})
    roller.supply(6, 6)
    aid = BATTLE.use_medkit(roller, hurt, hurt.entity("m"), hurt.entity("p"), "x", Advantage.NONE)
    assert not aid.after.unconscious and state_of(aid.after) == "uninjured"


def test_first_aid_needs_the_patient_beside_alive_and_hurt_else_the_kit_is_kept() -> None:
    far = _patient({"end": 2, "str": 7, "dex": 7}, at=[3, 0, 0])
    assert BATTLE.medkit_refusal(far, far.entity("m"), far.entity("p"), "x") == (
        "not_adjacent",
        {"target": "p"},
    )
    dead = _patient({"end": 0, "str": 0, "dex": 0})
    refused = BATTLE.medkit_refusal(dead, dead.entity("m"), dead.entity("p"), "x")
    assert refused is not None and refused[0] == "target_dead"
    fine = _patient({"end": 7, "str": 7, "dex": 7})
    refused = BATTLE.medkit_refusal(fine, fine.entity("m"), fine.entity("p"), "x")
    assert refused is not None and refused[0] == "no_such_wound"


def test_c3_a_crouched_unit_behind_a_low_wall_has_cover_to_hide_in_the_open_none() -> None:
    bf = _field(
        {"id": "ada", "faction": "red", "at": [1, 3, 0], "sheet": GUARD},
        {"id": "bo", "faction": "blue", "at": [7, 3, 0], "stance": "crouched", "sheet": CIVILIAN},
        cells=[{"at": [6, 3, 0], "obstacle": "half"}],
    )
    assert BATTLE.hides_behind(bf, bf.entity("ada"), bf.entity("bo"))  # 1/2, 3/4 crouched
    open_field = _field(
        {"id": "ada", "faction": "red", "at": [1, 3, 0], "sheet": GUARD},
        {"id": "bo", "faction": "blue", "at": [7, 3, 0], "stance": "crouched", "sheet": CIVILIAN},
    )
    assert not BATTLE.hides_behind(open_field, open_field.entity("ada"), open_field.entity("bo"))
    assert BATTLE.perception_dc(bf, bf.entity("ada")) == 8  # C-1's 8+
    roller = Roller(1)
    roller.supply(3, 4)
    record = BATTLE.stealth_roll(roller, bf, bf.entity("ada"), Advantage.NONE, 8, "hide ada")
    assert record.total == 8  # 7 + DEX DM +1
