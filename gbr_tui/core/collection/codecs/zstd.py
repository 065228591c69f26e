"""Zstandard (Lichess's monthly databases are ``.pgn.zst``): the standard library's
``compression.zstd`` where Python has it (3.14), else the ``zstandard`` binding. Either is
imported when zstd data is first met (``zstandard`` takes 30 ms to import)."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator
from typing import Any

from gbr_tui.core.collection.codecs.base import Codec, needs_input_output

MAGIC = b"\x28\xb5\x2f\xfd"
#: Input handed to ``zstandard``'s decompressor at a time: it has no output limit, and a block
#: of zstd data may stand for 32,768 times its size, so this bounds what one call makes (32 MiB).
_FEED = 1 << 10


class ZstdDataError(Exception):
    """Corrupt zstd data (what either binding raised, said in its words)."""


class _Frame:
    """A decompressor for one frame of zstd data, with ``eof`` and ``unused_data`` as the
    standard library's decompressors have them; ``zstandard``'s is fed a little input at a time."""

    def __init__(self) -> None:
        import zstandard

        self._error = zstandard.ZstdError
        self._decompressor = zstandard.ZstdDecompressor().decompressobj()
        self.eof = False
        self.unused_data = b""

    def output(self, data: bytes, size: int) -> Iterator[bytes]:
        view = memoryview(data)
        for start in range(0, len(view), _FEED):
            try:
                out = self._decompressor.decompress(view[start : start + _FEED])
            except self._error as error:
                raise ZstdDataError(str(error)) from None
            if out:
                yield out
            if self._decompressor.eof:
                self.eof = True
                self.unused_data = self._decompressor.unused_data + bytes(view[start + _FEED :])
                return


class _StandardFrame:
    """The standard library's decompressor (Python 3.14), its errors said as ``ZstdDataError``."""

    def __init__(self) -> None:
        self._module = importlib.import_module("compression.zstd")
        self._decompressor = self._module.ZstdDecompressor()

    @property
    def eof(self) -> bool:
        return bool(self._decompressor.eof)

    @property
    def unused_data(self) -> bytes:
        return bytes(self._decompressor.unused_data)

    def output(self, data: bytes, size: int) -> Iterator[bytes]:
        try:
            yield from needs_input_output(self._decompressor, data, size)
        except self._module.ZstdError as error:
            raise ZstdDataError(str(error)) from None


def _has_standard_zstd() -> bool:
    try:
        return importlib.util.find_spec("compression.zstd") is not None
    except ModuleNotFoundError:  # no ``compression`` package before Python 3.14
        return False


def _output(frame: Any, data: bytes, size: int) -> Iterator[bytes]:
    return frame.output(data, size)  # type: ignore[no-any-return]


CODEC = Codec("zstd", "zst", MAGIC, _StandardFrame if _has_standard_zstd() else _Frame, _output, (ZstdDataError,))
