"""Each ruleset's headline numbers for an attack, read from the `Attack` record it answered.

The window shows them as the first line under the chance (issue 15: "the window shows each
ruleset's own numbers where it shows ours"): periferie's d100 target, Cepheus's range band, total
DM and 8+ on 2d6, the d20 face needed against the AC with its rows, Myst's two totals, the fantasy
dice against the DP. Nothing is computed here: every number is one the ruleset put in its answer
(`Attack.detail`, `Attack.modifiers`); the words are game/text/explain.headline_text's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from game.rules.cepheus.attack import Attack as CepheusAttack
from game.rules.ruleset_answers import Attack
from game.tactics.answers import HitAnswer


@dataclass(frozen=True)
class Headline:
    """The headline's kind — the form of its roll: "d100" under a chance, "band_2d6" (a range
    band, DMs and a target on 2d6), "d20_ac" (a face needed against an AC), "opposed_3d10" (two
    totals + 3d10), "dice_dp" (dice against a DP) — and its numbers."""

    kind: str
    values: Mapping[str, object] = field(default_factory=dict)


def headline(attack: Attack) -> Headline | None:
    """The headline of an attack with a chance (None: no chance, or a ruleset without one)."""
    if attack.chance is None:
        return None
    detail = attack.detail
    if isinstance(detail, HitAnswer):  # periferie: d100 <= P (P-HIT-2)
        return None if detail.hit is None else Headline("d100", {"p": detail.hit.p})
    if isinstance(detail, CepheusAttack):  # C-1/C-2: the band, the DMs' total, 8+ on 2d6
        from game.tactics.rulesets.cepheus_battle import data

        values = {
            "band": detail.band,
            "dm": detail.total_dm,
            "target": detail.target,
            "dice": data().tables.check_dice,
            # the battlefield's conditions among the DMs (000:l.213-217, issue 15)
            "field": tuple(
                (s.code, s.value)
                for s in detail.modifiers
                if s.code in ("darkness", "smoke", "weather")
            ),
        }
        return Headline("band_2d6", values)
    from game.tactics.rulesets.d20_battle import Detail as D20Detail
    from game.tactics.rulesets.fantasy_battle import FantasyAttack
    from game.tactics.rulesets.myst_battle import MystAttack

    if isinstance(detail, D20Detail):  # D-2: the natural face needed against the AC
        out = detail.answer.outcome
        values = {
            "needed": out.needed,
            "ac": out.ac,
            "ac_rows": tuple(sorted(out.ac_modifiers.items())),
            "attack_rows": tuple(sorted(out.attack_modifiers.items())),
            "concealment": out.concealment,
        }
        return None if out.needed is None else Headline("d20_ac", values)
    if isinstance(detail, MystAttack):  # M-1: attack total + 3d10 against defence + 3d10
        done = detail.exchange
        return Headline("opposed_3d10", {"attack": done.attack, "defence": done.defence})
    if isinstance(detail, FantasyAttack):  # F-2: the attack dice against the DP
        plan = detail.plan
        values = {
            "dice": plan.attack_dice,
            "modifier": plan.attack_modifier,
            "dp": plan.dp,
            "defence": plan.defence_dice,
        }
        return Headline("dice_dp", values)
    return None
