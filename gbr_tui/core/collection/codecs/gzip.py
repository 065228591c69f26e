"""gzip (zlib's decompressor, which hands back the input it has not read yet)."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Any

from gbr_tui.core.collection.codecs.base import Codec


def _output(decompressor: Any, data: bytes, size: int) -> Iterator[bytes]:
    while data:
        out = decompressor.decompress(data, size)
        if out:
            yield out
        if decompressor.eof:
            return
        data = decompressor.unconsumed_tail


CODEC = Codec("gzip", "gz", b"\x1f\x8b", lambda: zlib.decompressobj(31), _output, (zlib.error,))
