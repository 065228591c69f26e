"""What a compression codec declares (``Codec``), and the two ways a decompressor is fed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Codec:
    """A compression format the readers undo, recognised by its first bytes (a file's name is
    not trusted)."""

    name: str  # as messages name it: "gzip"
    suffix: str  # a compressed file's name ending, without its dot: "gz"
    magic: bytes  # how its data starts
    decompressor: Callable[[], Any]  # a new decompressor, for a member (a stream) of its data
    #: What decompressing one chunk of input gives, at most ``size`` bytes at a time (the
    #: decompressor's ``eof`` and ``unused_data`` tell the member's end).
    output: Callable[[Any, bytes, int], Iterator[bytes]]
    #: What the decompressor raises on corrupt data.
    corrupt: tuple[type[Exception], ...]


def needs_input_output(decompressor: Any, data: bytes, size: int) -> Iterator[bytes]:
    """``Codec.output`` for the decompressors that keep their input (bz2's, lzma's) and say
    when they need more."""
    out = decompressor.decompress(data, size)
    while True:
        if out:
            yield out
        if decompressor.eof or decompressor.needs_input:
            return
        out = decompressor.decompress(b"", size)
