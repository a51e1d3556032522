"""The battlefield's light, smoke and weather (issue 15) as each ruleset reads them from
`Battlefield.conditions`, with numbers worked out by hand:

- Cepheus, 000:l.213-217: "Le luci basse danno un MD di -1 agli attacchi a distanza.
  L'oscurità completa dà un MD di -4"; "Il fumo dà un MD di -1 ...; un fumo particolarmente
  denso ... -2"; "Vento forte, pioggia, tempeste di neve ... danno un MD di -1 agli attacchi a
  distanza per la scarsa visibilità e un MD di -1 ... dovuti ai disturbi ambientali".
- d20, 004:l.80-86 and the mapping chosen in docs/rules.md: "una probabilità del 20% che
  l'attaccante la manchi", total concealment "una probabilità di fallimento del 50%", and "Il
  personaggio non può portare un attacco di opportunità contro un bersaglio sotto occultamento
  totale".
- periferie, Myst and fantasy: their seeds have no rule for them (001, 002, 003:l.8 leaves the
  light to the Master's description): the chance does not move.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from game.rules.ruleset_answers import Modifier
from game.scenario.parse import parse_scenario
from game.tactics.battlefield import Battlefield, FieldConditions
from game.tactics.headline import headline
from game.tactics.ruleset import battle_rules, field_reader
from game.tactics.rulesets.cepheus_battle import BATTLE as CEPHEUS
from game.tactics.rulesets.d20_battle import BATTLE as D20
from game.tactics.rulesets.d20_battle import field_concealment
from game.text.explain import headline_text
from game.text.i18n import speaking
from tests.tactics.rulesets.cepheus_fields import plain_field

ROOT = Path(__file__).resolve().parents[3]
#: The sample guard of tests/tactics/rulesets/test_cepheus_field_and_throws.py: armi da fuoco
#: 1, DEX DM +1, an automatic pistol: at 7 cells (Breve, Media) 2d6 + 2 >= 8.
GUARD = {
    "chars": {"str": 7, "dex": 9, "end": 8},
    "dm": {"dex": 1},
    "skills": {"armi da fuoco": 1, "mischia": 1},
    "weapon": "pistola_automatica",
}
CIVILIAN = {"chars": {"str": 7, "dex": 7, "end": 7}, "weapon": "pugni"}


def _in(bf: Battlefield, **conditions: str) -> Battlefield:
    """The same field once the GM has set `conditions` (the rest as they were)."""
    return replace(bf, field_conditions=replace(bf.conditions, **conditions))


def _cepheus(distance: int = 7, weapon: str = "pistola_automatica") -> Battlefield:
    return plain_field(
        {"id": "g", "faction": "blue", "at": [0, 0, 0], "sheet": {**GUARD, "weapon": weapon}},
        {"id": "c", "faction": "red", "at": [distance, 0, 0], "sheet": CIVILIAN},
        size=40,
    )


def _chance(rules, bf: Battlefield, a: str, t: str) -> Fraction | None:  # type: ignore[no-untyped-def]
    return rules.attack(bf, bf.entity(a), bf.entity(t)).chance


def test_000_l217_bad_weather_is_minus_1_and_minus_1_on_a_ranged_attack() -> None:
    bf = _cepheus()
    assert _chance(CEPHEUS, bf, "g", "c") == Fraction(26, 36)  # 2d6 + 2 >= 8
    stormy = CEPHEUS.attack(_in(bf, weather="bad"), bf.entity("g"), bf.entity("c"))
    assert stormy.chance == Fraction(15, 36)  # 2d6 + 0 >= 8
    assert ("dm_weather", -2) in [(m.code, m.value) for m in stormy.modifiers]


def test_000_l213_217_low_light_dense_smoke_and_bad_weather_add_up_to_minus_5() -> None:
    # 2d6 + 2 - 1 - 2 - 2 >= 8: 2d6 >= 11, 3 of 36.
    bf = _in(_cepheus(), darkness="low", smoke="dense", weather="bad")
    assert _chance(CEPHEUS, bf, "g", "c") == Fraction(3, 36)


def test_000_the_gms_conditions_replace_the_maps_own() -> None:
    # The map says total darkness (-4: 2d6 - 2 >= 8, 6 of 36); the GM brings the lights back.
    bf = _cepheus()
    dark_map = replace(bf, grid=replace(bf.grid, darkness="total"))
    assert _chance(CEPHEUS, dark_map, "g", "c") == Fraction(6, 36)
    lit = replace(dark_map, field_conditions=FieldConditions())
    assert _chance(CEPHEUS, lit, "g", "c") == Fraction(26, 36)


def test_000_l211_bad_weather_does_not_touch_a_punch() -> None:
    bf = plain_field(
        {"id": "g", "faction": "blue", "at": [0, 0, 0], "sheet": {**GUARD, "weapon": "coltello"}},
        {"id": "c", "faction": "red", "at": [1, 0, 0], "sheet": CIVILIAN},
    )
    storm = _in(bf, darkness="total", smoke="dense", weather="bad")
    assert _chance(CEPHEUS, storm, "g", "c") == _chance(CEPHEUS, bf, "g", "c")


def test_000_the_cepheus_headline_names_the_smokes_dm() -> None:
    bf = _in(_cepheus(), smoke="dense")
    found = headline(CEPHEUS.attack(bf, bf.entity("g"), bf.entity("c")))
    assert found is not None and found.values["field"] == (("smoke", -2),)
    with speaking("en"):
        # Breve, DM +2 - 2 = 0, 8+ on 2d6, and the smoke's share of it.
        assert headline_text(found.kind, found.values).endswith("(Smoke -2)")
    with speaking("it"):
        assert headline_text(found.kind, found.values).endswith("(Fumo -2)")


def test_000_what_the_conditions_do_under_cepheus_for_the_gms_tools() -> None:
    reader = field_reader(CEPHEUS)
    assert reader is not None
    assert reader.field_effects(FieldConditions("total", "dense", "bad")) == (
        Modifier("dm_darkness", -4, ("C-1",)),
        Modifier("dm_smoke", -2, ("C-1",)),
        Modifier("dm_weather", -2, ("C-1",)),
    )
    assert reader.field_effects(FieldConditions()) == ()


# ---------------------------------------------------------------- d20 (004:l.72-92, D-1)


def _d20(target_at: tuple[int, int, int] = (6, 2, 0)) -> Battlefield:
    bf, _ = parse_scenario(
        {
            "ruleset": "d20",
            "map": {"size": [12, 5, 1], "cells": []},
            "entities": [
                {"id": "g", "faction": "security", "at": [1, 2, 0], "sheet": "station_guard"},
                {"id": "s", "faction": "raiders", "at": list(target_at), "sheet": "scavenger"},
            ],
        },
        ROOT,
    )
    return bf


@pytest.mark.parametrize(
    "conditions, percent",
    [
        ({"darkness": "low"}, 20),
        ({"smoke": "light"}, 20),
        ({"darkness": "total"}, 50),
        ({"smoke": "dense"}, 50),
        ({"darkness": "low", "smoke": "dense"}, 50),  # l.80: not cumulative, the highest
        ({"weather": "bad"}, 0),  # no concealment: the seed's table has no weather
    ],
)
def test_004_l80_l84_the_conditions_become_concealment_and_cut_the_chance(
    conditions: dict[str, str], percent: int
) -> None:
    # The guard's ranged +4 against the scavenger's AC 14 needs a 10: 11/20 (D-2); after a hit
    # the miss chance: 11/20 x (100 - percent)/100.
    bf = _in(_d20(), **conditions)
    found = D20.attack(bf, bf.entity("g"), bf.entity("s"))
    assert found.chance == Fraction(11, 20) * Fraction(100 - percent, 100)
    shown = {m.code: m.value for m in found.modifiers}.get("d20_concealment", 0)
    assert shown == percent
    values = headline(found)
    assert values is not None and values.values["concealment"] == percent


def test_004_dense_smoke_next_to_the_attacker_is_only_concealment_as_3_5s_fog() -> None:
    assert field_concealment(FieldConditions(smoke="dense"), adjacent=True) == 20
    assert field_concealment(FieldConditions(smoke="dense"), adjacent=False) == 50
    assert field_concealment(FieldConditions(darkness="total"), adjacent=True) == 50
    bf = _in(_d20((2, 2, 0)), smoke="dense")
    assert D20.attack(bf, bf.entity("g"), bf.entity("s")).chance is not None
    assert headline(D20.attack(bf, bf.entity("g"), bf.entity("s"))).values["concealment"] == 20  # type: ignore[union-attr]


def test_004_l86_no_attack_of_opportunity_in_total_darkness() -> None:
    # The scavenger next to the guard steps away: it provokes (D-2) in the light, not when the
    # GM has put out the lights (total concealment, l.86).
    bf = _d20((2, 2, 0))
    mover, reactor = bf.entity("s"), bf.entity("g")
    assert D20.provokes(bf, mover, reactor, (2, 2, 0), (3, 2, 0)) is True
    dark = _in(bf, darkness="total")
    assert D20.provokes(dark, mover, reactor, (2, 2, 0), (3, 2, 0)) is False
    smoky = _in(bf, smoke="dense")  # adjacent in dense smoke: only 20 %, it still provokes
    assert D20.provokes(smoky, mover, reactor, (2, 2, 0), (3, 2, 0)) is True


def test_004_what_the_conditions_do_under_d20_for_the_gms_tools() -> None:
    reader = field_reader(D20)
    assert reader is not None
    assert reader.field_effects(FieldConditions(smoke="light")) == (
        Modifier("d20_concealment", 20, ("D-1",)),
    )
    assert reader.field_effects(FieldConditions(weather="bad")) == ()


# ---------------------------------------------------------------- the seeds without a rule


@pytest.mark.parametrize(
    "ruleset, attacker, at",
    [
        ("periferie", {"weapon": "pistol"}, [6, 2, 0]),  # a shot at 5 cells
        ("fantasy", {"sheet": "arciere"}, [6, 2, 0]),  # a bow at 5 cells
        ("myst", {}, [2, 2, 0]),  # the sample sheet's blow, side by side
    ],
)
def test_a_ruleset_whose_seed_has_no_light_or_smoke_rule_ignores_them(
    ruleset: str, attacker: dict[str, object], at: list[int]
) -> None:
    rules = battle_rules(ruleset)
    assert field_reader(rules) is None  # the GM's tools say so
    bf, _ = parse_scenario(
        {
            "ruleset": ruleset,
            "map": {"size": [12, 5, 1], "cells": []},
            "entities": [
                {"id": "a", "faction": "blue", "at": [1, 2, 0], **attacker},
                {"id": "b", "faction": "red", "at": at},
            ],
        },
        ROOT,
    )
    plain = rules.attack(bf, bf.entity("a"), bf.entity("b")).chance
    assert plain is not None and plain > 0
    dark = _in(bf, darkness="total", smoke="dense", weather="bad")
    assert rules.attack(dark, dark.entity("a"), dark.entity("b")).chance == plain
