"""Translation of user-facing text through gettext (English source strings; Italian catalogue)."""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "tessera"


def translator(language: str | None = None) -> gettext.NullTranslations:
    """The catalogue for `language` (default: the environment's), English when none is found."""
    languages = [language] if language else None
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=languages, fallback=True)


_current = translator(os.environ.get("TESSERA_LANG"))


def set_language(language: str | None) -> None:
    """Speak `language` from now on ("en", "it"); None goes back to TESSERA_LANG's choice."""
    global _current
    _current = translator(language or os.environ.get("TESSERA_LANG"))


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Within the block `_` answers in `language`; then the language in use before comes back."""
    global _current
    before = _current
    _current = translator(language)
    try:
        yield
    finally:
        _current = before


def language() -> str:
    """The language spoken now: "it" when the Italian catalogue answers, else "en"."""
    return "it" if _current.info().get("language", "").startswith("it") else "en"


def _(message: str) -> str:
    """`message` in the language in use now, so a language switch needs no re-import."""
    return _current.gettext(message)
