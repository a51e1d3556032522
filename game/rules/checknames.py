"""Names of the seed-001 checks, as keys of an entity's bonus sheet (P-CHK-1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

INITIATIVE: Final = "multitasking (iniziativa)"
PERCEPTION: Final = "multitasking (percezione)"
DIVIDED_ATTENTION: Final = "multitasking (attenzione suddivisa)"
RANGED: Final = "precisione (armi a distanza)"
STEALTH: Final = "precisione (furtività)"
ATHLETICS: Final = "gravità muscolare (atletica)"
SURVIVAL: Final = "ossatura (sopravvivenza)"
RADIATION: Final = "ossatura (radiazione)"
MEDICINE: Final = "applicazione (medicina)"
ACROBATICS: Final = "acrobatica"

ALL: Final = (
    INITIATIVE,
    PERCEPTION,
    DIVIDED_ATTENTION,
    RANGED,
    STEALTH,
    ATHLETICS,
    SURVIVAL,
    RADIATION,
    MEDICINE,
    ACROBATICS,
)


def bonus(sheet: Mapping[str, int], check: str) -> int:
    """The entity's bonus for `check`; a check missing from the sheet has bonus 0 (P-CHK-1)."""
    return int(sheet.get(check, 0))
