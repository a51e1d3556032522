"""Answers to `tessera query` questions (QUERY-FORMAT.md), each with the rulings that decided it."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from game.grid.geometry import chebyshev
from game.grid.model import CELL_METRES
from game.rules import exact
from game.rules.reader import as_int, as_object, as_str, choice, fail
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import Json, Query, point_arg, ruleset_for


def answer_all(bf: Battlefield, queries: list[object]) -> Json:
    """One answer per query, in order; a query that cannot be answered answers an error."""
    results: list[Json] = []
    for i, raw in enumerate(queries):
        try:
            results.append(answer(bf, raw, f"queries[{i}]"))
        except ValueError as exc:  # ScenarioError, and the rules' and grid's refusals
            message = str(exc)
            prefix = f"queries[{i}]"
            results.append(
                {"error": message if message.startswith(prefix) else f"{prefix}: {message}"}
            )
    return {"results": results}


def answer(bf: Battlefield, raw: object, where: str) -> Json:
    spec = as_object(raw, where)
    # The shared questions, then the ruleset's own (RULESETS.md section 4).
    handlers = {**SHARED, **ruleset_for(bf.ruleset).queries}
    if "q" not in spec:
        fail(f"{where}.q", "missing (one of: " + ", ".join(handlers) + ")")
    kind = choice(spec["q"], f"{where}.q", handlers)
    query = handlers[kind]
    as_object(spec, where, ("q", *query.fields))
    return query.handler(bf, spec, where)


def _los(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    """The line of sight the ruleset's battle draws (its `sight`: who blocks it is the
    ruleset's, Myst's M-1 and d20's D-3 terrain only), so the query, the window and the
    attacks agree; periferie's and a ruleset without a battle side: P-LOS-1..3."""
    frm, to = point_arg(bf, spec, "from", where), point_arg(bf, spec, "to", where)
    battle = ruleset_for(bf.ruleset).battle
    result = tactics.sight(bf, frm, to) if battle is None else battle.sight(bf, frm, to)
    out: Json = {"los": result.clear, "rules": list(result.rules)}
    why = tactics.sight_why(result)
    if why:
        out["why"] = "; ".join(why)
    return out


def _distance(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    a = point_arg(bf, spec, "from", where)
    b = point_arg(bf, spec, "to", where)
    cells = chebyshev(
        a.cell if isinstance(a, EntitySheet) else a, b.cell if isinstance(b, EntitySheet) else b
    )
    return {"cells": cells, "metres": cells * CELL_METRES, "rules": ["G-4"]}


def _chance(bf: Battlefield, spec: Mapping[str, object], where: str) -> Json:
    """The exact chance that a dice expression reaches a number, in every ruleset."""
    if "dice" not in spec:
        fail(f"{where}.dice", 'missing (e.g. "2d6+1", "d8!+d6!", "3d10-3d10")')
    if "at_least" not in spec:
        fail(f"{where}.at_least", "missing (the number to reach)")
    expression = as_str(spec["dice"], f"{where}.dice")
    target = as_int(spec["at_least"], f"{where}.at_least", low=-10_000, high=10_000)
    try:
        p = exact.chance_at_least(expression, target)
    except exact.DiceError as exc:
        fail(f"{where}.dice", str(exc))
    return {"chance": exact.fraction_text(p), "rules": []}


SHARED: Mapping[str, Query] = MappingProxyType(
    {
        "los": Query(_los, ("from", "to")),
        "distance": Query(_distance, ("from", "to")),
        "chance": Query(_chance, ("dice", "at_least")),
    }
)
