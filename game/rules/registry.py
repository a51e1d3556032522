"""The rulesets a battle may be played with: the one list the maps, scenarios and menus read."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

#: Where each ruleset's rules data (TOML) lives, one folder a ruleset.
DATA: Final = Path(__file__).resolve().parent.parent / "data"


@dataclass(frozen=True)
class Ruleset:
    #: The id maps, scenarios and journals name it by.
    id: str
    #: The seed's own title, in its own language (the menus show it as written).
    title: str
    #: The folder of its rules data.
    directory: Path


#: Every ruleset known, the default first. The other seeds join here when their rules exist.
RULESETS: Final = (
    Ruleset("periferie", "Le Periferie del Vuoto", DATA / "periferie"),
    Ruleset("cepheus", "Cepheus Engine", DATA / "cepheus"),
    Ruleset("d20", "Modificatori di combattimento (d20 3.5)", DATA / "d20"),
    Ruleset("myst", "Myst — Il Combattimento: Regole Avanzate", DATA / "myst"),
    Ruleset("fantasy", "Il Combattimento (sistema a dadi)", DATA / "fantasy"),
)
#: Their ids, in the same order.
IDS: Final = tuple(r.id for r in RULESETS)
#: The ruleset of a map, scenario or battle that names none.
DEFAULT: Final = RULESETS[0].id


class UnknownRuleset(ValueError):
    """A ruleset id that is not in RULESETS; the message lists the known ones."""


def ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset named `ruleset_id`, else UnknownRuleset."""
    for known in RULESETS:
        if known.id == ruleset_id:
            return known
    raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {', '.join(IDS)})")
