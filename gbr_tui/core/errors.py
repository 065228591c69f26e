"""The one exception type of the core, and python-chess's reasons in its words."""

from __future__ import annotations


class GbrError(ValueError):
    """Bad input: a code, a FEN or a material string that cannot be read.

    ``offset`` is the 0-based index of the offending character in the input, when one
    character can be blamed.
    """

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset

    def pointer(self, text: str) -> str:
        """The input with a caret line under the bad character (or the message alone)."""
        if self.offset is None:
            return text
        return f"{text}\n{' ' * self.offset}^"


def chess_reason(error: ValueError) -> str:
    """python-chess repeats the whole FEN in its messages; keep only the reason."""
    return str(error).split(":", 1)[0]
