"""Names and messages from files made fit to draw: clipped to a length, fitted to a width, wrapped
into a few lines; a name of 200,000 characters costs no more than a short one."""

from __future__ import annotations

from game.text.bounds import ELLIPSIS, MESSAGE, NAME, clip, fit, wrap


def _ten_per_character(text: str) -> int:
    return 10 * len(text)


def test_a_short_name_is_kept_as_it_is() -> None:
    assert clip("Ardea Station, deck 7: cargo hall") == "Ardea Station, deck 7: cargo hall"
    assert clip("x" * NAME) == "x" * NAME


def test_a_long_name_is_cut_to_the_limit_with_an_ellipsis() -> None:
    clipped = clip("Ardea " + "x" * 200_000)
    assert len(clipped) == NAME and clipped.startswith("Ardea xx") and clipped.endswith(ELLIPSIS)
    assert clip("abcdef", 4) == "abc" + ELLIPSIS
    assert len(clip("m" * 1_000_000, MESSAGE)) == MESSAGE


def test_line_breaks_and_control_characters_become_spaces() -> None:
    assert clip("two\nlines\tand\x00a\x85bell\u2028") == "two lines and a bell "


def test_fit_cuts_a_text_until_it_is_as_wide_as_the_room() -> None:
    # 10 px a character: 95 px hold 9 characters, 8 of the text and the ellipsis.
    assert fit("abcdefghijklmnop", 95, _ten_per_character) == "abcdefgh" + ELLIPSIS
    assert fit("short", 95, _ten_per_character) == "short"
    assert fit("x" * 200_000, 95, _ten_per_character) == "x" * 8 + ELLIPSIS
    assert fit("abc", 5, _ten_per_character) == ELLIPSIS  # no room: the ellipsis alone


def test_wrap_breaks_at_spaces_and_cuts_the_last_line_it_may_take() -> None:
    text = "the map station.tmx cannot be loaded because its name is far too long"
    lines = wrap(text, 200, _ten_per_character, 2)  # 20 characters a line
    assert lines == ["the map station.tmx", "cannot be loaded be" + ELLIPSIS]
    assert all(_ten_per_character(line) <= 200 for line in lines)
    assert wrap("a b", 200, _ten_per_character, 3) == ["a b"]


def test_wrap_cuts_a_word_wider_than_a_line_and_a_text_longer_than_a_message() -> None:
    assert wrap("x" * 50 + " end", 100, _ten_per_character, 4) == ["x" * 9 + ELLIPSIS, "end"]
    # Only the first MESSAGE characters are looked at: the end of a huge text is not shown.
    assert wrap("x" * 200_000 + " end", 100, _ten_per_character, 4) == ["x" * 9 + ELLIPSIS]
