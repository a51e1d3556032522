"""Nothing branches on a ruleset's name: code asks the ruleset object (game/tactics/ruleset.py).

A comparison with a ruleset id (`== "periferie"`, `!= "d20"`, `in ("cepheus", ...)`, a `case`
on one, or `== registry.DEFAULT`) is allowed only in the one list (game/rules/registry.py) and
in each ruleset's own modules (game/rules/<id>/, game/tactics/rulesets/, game/data/<id>/).
"""

from __future__ import annotations

import re
from pathlib import Path

from game.rules import registry

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "game"
#: The ids of the registry and of the seeds still to come (RULESETS.md), so that a branch on
#: a ruleset not yet listed is caught as well.
IDS = sorted({*registry.IDS, "periferie", "cepheus", "d20", "myst", "fantasy"})
_ID = "|".join(re.escape(i) for i in IDS)
_QUOTED = rf"""['"](?:{_ID})['"]"""
BRANCH = re.compile(
    rf"(?:==|!=|\bis\b|\bin\b)\s*[\(\[\{{]?\s*{_QUOTED}"  # x == "d20", x in ("d20", ...)
    rf"|{_QUOTED}\s*(?:==|!=|\bis\b)"  # "d20" == x
    rf"|\bcase\s+{_QUOTED}"  # match ...: case "d20":
    r"|(?:==|!=)\s*registry\.DEFAULT|registry\.DEFAULT\s*(?:==|!=)"
)


def _allowed(path: Path) -> bool:
    rel = path.relative_to(GAME).as_posix()
    if rel == "rules/registry.py" or rel.startswith(("tactics/rulesets/", "data/")):
        return True
    return any(rel.startswith(f"rules/{i}/") for i in IDS)


def branches(text: str) -> list[str]:
    """The lines of `text` that compare something with a ruleset id."""
    return [line.strip() for line in text.splitlines() if BRANCH.search(line)]


def test_branches_finds_each_way_of_comparing_with_a_ruleset_id() -> None:
    planted = "\n".join(
        [
            'if bf.ruleset == "periferie":',
            "if 'd20' != setup.ruleset:",
            'if ruleset in ("cepheus", "myst"):',
            '    case "fantasy":',
            "if setup.ruleset == registry.DEFAULT:",
            'x = ruleset_for("periferie")  # naming one is fine, branching on it is not',
            'RULESETS = ("periferie",)',
        ]
    )
    assert len(branches(planted)) == 5


def test_no_game_module_branches_on_a_ruleset_id_outside_the_registry_and_its_own_modules() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {line}"
        for path in sorted(GAME.rglob("*.py"))
        if not _allowed(path)
        for line in branches(path.read_text(encoding="utf-8"))
    ]
    assert found == []
