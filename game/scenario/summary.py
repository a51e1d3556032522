"""`tessera summary`: a map's sides, the GM's initiative order and one worked attack, as text."""

from __future__ import annotations

import sys
from itertools import product
from pathlib import Path

from game.grid.geometry import chebyshev
from game.maps import LoadedMap, MapError, load_map
from game.rules.checknames import INITIATIVE, bonus
from game.rules.data import load_rules
from game.rules.dice import Roller
from game.rules.initiative import Combatant, Initiative
from game.rules.reader import ScenarioError
from game.scenario.parse import entities_from_map
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield, EntitySheet
from game.text import explain
from game.text.i18n import _

DEMO_MAP = Path(__file__).resolve().parents[2] / "maps" / "station_interior.tmx"
DEMO_SEED = 1


def run_demo(map_path: Path = DEMO_MAP) -> int:
    try:
        loaded = load_map(map_path)
        rules = load_rules()  # periferie's data: the shared base, as parse_scenario
        units = entities_from_map(loaded, rules, f"{map_path.name}: units")
        battlefield = Battlefield(loaded.grid, units, rules, loaded.properties.ruleset)
    except (MapError, ScenarioError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for line in summary(loaded, battlefield):
        print(line)
    return 0


def summary(loaded: LoadedMap, bf: Battlefield) -> list[str]:
    """The demo's text: the map, the sides, the initiative and one worked attack."""
    w, h, d = bf.grid.shape
    props = loaded.properties
    lines = [
        _("Tessera demo battle: {name}").format(name=props.name),
        props.description,
        _("{w}×{h} cells, {d} levels, gravity {g} g").format(w=w, h=h, d=d, g=props.gravity),
        "",
    ]
    for faction in sorted({u.faction for u in loaded.units}):
        units = [u for u in loaded.units if u.faction == faction]
        marks = [
            u.name
            + (_(" (hidden)") if u.hidden else "")
            + (_(" (arrives round {n})").format(n=u.arrives_round) if u.arrives_round else "")
            for u in units
        ]
        lines.append(f"{faction}: {', '.join(marks)}")
    hidden = {u.name for u in loaded.units if u.hidden}
    surprised = {u.name for u in loaded.units if u.surprised}
    order = Initiative.start(
        Roller(DEMO_SEED),
        [
            Combatant(
                e.id, e.faction, bonus(e.checks, INITIATIVE), e.id in hidden, e.id in surprised
            )
            for e in bf.entities
        ],
    )
    lines += ["", _("Initiative (the GM's view, seed {seed}):").format(seed=DEMO_SEED)]
    lines += [f"  {e.total:>3}  {e.entity_id}" for e in order.visible_order(for_gm=True)]
    pair = _first_shot(bf)
    if pair is not None:
        attacker, target = pair
        answer = tactics.attack_chance(bf, attacker, target)
        lines += [
            "",
            _("{a} aims at {t}, {n} cells away:").format(
                a=attacker.id, t=target.id, n=chebyshev(attacker.cell, target.cell)
            ),
        ]
        if answer.cover is not None:
            lines += [f"  {line}" for line in explain.cover_lines(answer.cover)]
        lines += [f"  {line}" for line in answer.why]
        lines.append("  " + _("rulings: {ids}").format(ids=", ".join(answer.rules)))
        cells, allow = tactics.reachable_cells(bf, attacker)
        lines += [
            "",
            _("{a} can move to {n} cells this turn ({why}).").format(
                a=attacker.id, n=len(cells), why="; ".join(explain.allowance_lines(allow))
            ),
        ]
    return lines


def _first_shot(bf: Battlefield) -> tuple[EntitySheet, EntitySheet] | None:
    """The closest pair of enemies that see each other and where the attacker is armed."""
    pairs = [
        (chebyshev(a.cell, b.cell), a, b)
        for a, b in product(bf.entities, repeat=2)
        if a.faction != b.faction and a.weapon is not None and tactics.sight(bf, a, b).clear
    ]
    if not pairs:
        return None
    _distance, a, b = min(pairs, key=lambda p: (p[0], p[1].id, p[2].id))
    return a, b
