"""Names and messages from files (maps, saves) made fit to draw: one line, bounded in length."""

from __future__ import annotations

from collections.abc import Callable

#: Characters a name from a map or a save is drawn with at most (a map, a side, a unit, a
#: player); a longer one is cut, an ellipsis marking the cut.
NAME = 60
#: Characters of a message drawn on one screen at most (an error, a notice).
MESSAGE = 600
ELLIPSIS = "…"


def clip(text: str, limit: int = NAME) -> str:
    """`text` on one line (line breaks and other control characters become spaces) and at most
    `limit` characters long, an ellipsis ending it when it was cut. Only the part kept is looked
    at, so a name of a million characters costs no more than a short one."""
    limit = max(1, limit)
    cut = len(text) > limit
    kept = text[: limit - 1] if cut else text
    kept = "".join(
        " " if c < " " or "\x7f" <= c <= "\x9f" or c in "\u2028\u2029" else c for c in kept
    )
    return kept + ELLIPSIS if cut else kept


def fit(text: str, width: int, measure: Callable[[str], int], limit: int = MESSAGE) -> str:
    """`text` clipped (`clip`) and cut further, an ellipsis ending it, until `measure` (a font's
    width in pixels) gives at most `width`; at least the ellipsis is kept."""
    text = clip(text, limit)
    if measure(text) <= width:
        return text
    body = text.removesuffix(ELLIPSIS)
    low, high = 0, len(body)  # the longest cut that fits: measured log2(len) times, not len
    while low < high:
        middle = (low + high + 1) // 2
        if measure(body[:middle].rstrip() + ELLIPSIS) <= width:
            low = middle
        else:
            high = middle - 1
    return body[:low].rstrip() + ELLIPSIS


def wrap(
    text: str, width: int, measure: Callable[[str], int], lines: int, limit: int = MESSAGE
) -> list[str]:
    """`text` broken into at most `lines` lines of at most `width` (by `measure`) at spaces,
    the last one cut with an ellipsis when the text does not end there."""
    words = clip(text, limit).split(" ")
    out: list[str] = []
    current = ""
    for index, word in enumerate(words):
        candidate = f"{current} {word}" if current else word
        if measure(candidate) <= width or not current:
            current = candidate
            continue
        out.append(fit(current, width, measure))
        current = word
        if len(out) == lines - 1:
            current = " ".join([word, *words[index + 1 :]])
            break
    if current:
        out.append(fit(current, width, measure))
    return out[:lines]


__all__ = ["ELLIPSIS", "MESSAGE", "NAME", "clip", "fit", "wrap"]
