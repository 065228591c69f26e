"""Text from outside made printable: every control shown as its escape, long text cut."""

from __future__ import annotations

from gbr_tui.core.text import printable


def test_controls_are_written_as_their_escapes() -> None:
    assert printable("\x1b]2;title\x07") == "\\x1b]2;title\\x07"
    assert printable("a\nb\tc\x7f") == "a\\nb\\tc\\x7f"
    assert printable("\u202eabc") == "\\u202eabc"
    assert printable("Kubbel, Leonid ♔") == "Kubbel, Leonid ♔"


def test_long_text_is_cut_and_says_how_much_is_left_out() -> None:
    shown = printable("x" * 1000, 50)
    # "… (962 more)" is 12 characters, leaving 38 of the 1000 shown.
    assert shown == "x" * 38 + "… (962 more)"
    assert printable("x" * 50, 50) == "x" * 50
