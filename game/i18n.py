"""Translation of user-facing text through gettext (English source strings; Italian catalogue)."""

from __future__ import annotations

import gettext
import os
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "tessera"


def translator(language: str | None = None) -> gettext.NullTranslations:
    """The catalogue for `language` (default: the environment's), English when none is found."""
    languages = [language] if language else None
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=languages, fallback=True)


_ = translator(os.environ.get("TESSERA_LANG")).gettext
