"""The one exception type of the core."""

from __future__ import annotations


class GbrError(ValueError):
    """Bad input: a code, a FEN or a material string that cannot be read.

    ``position`` is the 0-based index of the offending character in the input, when one
    character can be blamed.
    """

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position

    def pointer(self, text: str) -> str:
        """The input with a caret line under the bad character (or the message alone)."""
        if self.position is None:
            return text
        return f"{text}\n{' ' * self.position}^"
