"""`tessera summary`: a map's sides, the GM's initiative order and one worked attack, as text.

Ruleset-aware: the map's ruleset (or the one `--ruleset` names) reads the units' sheets, orders
the initiative and words it (fantasy: AGI and DES dice, no roll), and answers the attack and the
move, each through its object (game/tactics/ruleset.py)."""

from __future__ import annotations

import sys
from itertools import product
from pathlib import Path

from game.grid.cover import CoverResult
from game.grid.geometry import chebyshev
from game.grid.movement import reachable
from game.maps import LoadedMap, MapError, load_map
from game.rules import registry
from game.rules.checknames import INITIATIVE, bonus
from game.rules.data import load_rules
from game.rules.dice import Roller
from game.rules.hit import NoChance
from game.rules.initiative import Combatant
from game.rules.reader import ScenarioError
from game.rules.registry import UnknownRuleset
from game.scenario.parse import entities_from_map
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import BattleRules, NotPlayable, battle_rules
from game.text import explain
from game.text.i18n import _
from game.text.names import side_name

DEMO_MAP = Path(__file__).resolve().parents[2] / "maps" / "station_interior.tmx"
DEMO_SEED = 1


def run_demo(map_path: Path = DEMO_MAP, ruleset: str | None = None) -> int:
    """Print the summary of `map_path` under `ruleset` (None: the map's own)."""
    try:
        loaded = load_map(map_path)
        chosen = ruleset or loaded.properties.ruleset
        brules = battle_rules(chosen)
        rules = load_rules()  # periferie's data: the shared base, as parse_scenario
        units = entities_from_map(loaded, rules, f"{map_path.name}: units", chosen)
        battlefield = Battlefield(loaded.grid, units, rules, chosen)
    except (MapError, ScenarioError, UnknownRuleset, NotPlayable) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for line in summary(loaded, battlefield, brules):
        print(line)
    return 0


def summary(loaded: LoadedMap, bf: Battlefield, brules: BattleRules | None = None) -> list[str]:
    """The demo's text: the map, the sides, the initiative and one worked attack, as the
    battle's ruleset (`brules`, by default the battlefield's) answers them."""
    brules = brules if brules is not None else battle_rules(bf.ruleset)
    w, h, d = bf.grid.shape
    props = loaded.properties
    heading = props.name if loaded.source.resolve() != DEMO_MAP.resolve() else None
    lines = [
        heading or _("Tessera demo battle: {name}").format(name=props.name),
        props.description,
        _("{w}×{h} cells, {d} levels, gravity {g} g").format(w=w, h=h, d=d, g=props.gravity),
        _("Ruleset: {ruleset}").format(ruleset=registry.ruleset(bf.ruleset).title),
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
        lines.append(f"{side_name(faction)}: {', '.join(marks)}")
    sheets: dict[str, list[str]] = {}
    for e in bf.entities:  # the ruleset's own sheets (periferie's are its templates: none)
        text = brules.sheet_text(e.sheet)
        if text:
            sheets.setdefault(text, []).append(e.id)
    if sheets:
        lines += ["", _("Sheets:")]
        lines += [f"  {text} — {', '.join(ids)}" for text, ids in sheets.items()]
    hidden = {u.name for u in loaded.units if u.hidden}
    surprised = {u.name for u in loaded.units if u.surprised}
    # The battle's own combatants (engine._combatant): a ruleset naming its order's bonus
    # (Myst's priority, fantasy's AGI and DES dice) is asked, the others roll P-INIT-1's check.
    bonus_of = getattr(brules, "initiative_bonus", None)
    order = brules.start_initiative(
        Roller(DEMO_SEED),
        [
            Combatant(
                e.id,
                e.faction,
                bonus_of(e) if bonus_of is not None else bonus(e.checks, INITIATIVE),
                e.id in hidden,
                e.id in surprised,
                sheet=e.sheet,
            )
            for e in bf.entities
        ],
    )
    lines += ["", _("Initiative (the GM's view, seed {seed}):").format(seed=DEMO_SEED)]
    lines += [
        f"  {brules.initiative_text(e.total):>3}  {e.entity_id}"
        for e in order.visible_order(for_gm=True)
    ]
    shown = order.visible_order(for_gm=True)
    groups = {brules.acts_with(shown, e.entity_id) for e in shown} - {()}
    for group in sorted(groups):
        lines.append(
            "  "
            + _("acting together, harm counted after all of them: {units}").format(
                units=", ".join(group)
            )
        )
    pair = _first_shot(bf, brules)
    if pair is not None:
        attacker, target = pair
        answer = brules.attack(bf, attacker, target)
        lines += [
            "",
            _("{a} aims at {t}, {n} cells away:").format(
                a=attacker.id, t=target.id, n=chebyshev(attacker.cell, target.cell)
            ),
            "  " + explain.attack_lines(answer)[0],
        ]
        cover = getattr(answer.detail, "cover", None)  # periferie's 27 samples, worded
        if isinstance(cover, CoverResult):
            lines += [f"  {line}" for line in explain.cover_lines(cover)]
        lines += [f"  {line}" for line in answer.why]
        lines.append("  " + _("rulings: {ids}").format(ids=", ".join(answer.rules)))
        request, allow = brules.move_request(bf, attacker, None, dash=False, stealth=False)
        cells = reachable(bf.grid, bf.occupancy, attacker.occupant, request)
        # A ruleset without periferie's speed steps (fantasy's 6 cells, F-3) gives budgets only.
        why = explain.allowance_lines(allow) or [
            f"{explain.mode_name(mode)} {points}" for mode, points in allow.budgets.items()
        ]
        lines += [
            "",
            _("{a} can move to {n} cells this turn ({why}).").format(
                a=attacker.id, n=len(cells), why="; ".join(why)
            ),
        ]
    return lines


def _first_shot(bf: Battlefield, brules: BattleRules) -> tuple[EntitySheet, EntitySheet] | None:
    """The closest pair of enemies that see each other and where the attacker is armed."""
    pairs = [
        (chebyshev(a.cell, b.cell), a, b)
        for a, b in product(bf.entities, repeat=2)
        if a.faction != b.faction
        and brules.sight(bf, a, b).clear
        and brules.attack(bf, a, b, worded=False).reason != NoChance.NO_WEAPON
    ]
    if not pairs:
        return None
    _distance, a, b = min(pairs, key=lambda p: (p[0], p[1].id, p[2].id))
    return a, b
