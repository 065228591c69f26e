"""The compression codecs a collection may be in, one module each: adding one is a module here
declaring its ``CODEC`` (``base.Codec``), and its line in ``CODECS``."""

from __future__ import annotations

from gbr_tui.core.collection.codecs import bz2, gzip, xz, zstd
from gbr_tui.core.collection.codecs.base import Codec

CODECS: tuple[Codec, ...] = (gzip.CODEC, bz2.CODEC, xz.CODEC, zstd.CODEC)
#: Bytes read at a file's start to tell its codec.
MAGIC_BYTES = max(len(codec.magic) for codec in CODECS)


def codec_of(start: bytes) -> Codec | None:
    """The codec whose data starts as ``start`` does, if any."""
    return next((codec for codec in CODECS if start.startswith(codec.magic)), None)


def codec_by_suffix(name: str) -> Codec | None:
    """The codec a file's name says it is in (``x.pgn.gz``), if any."""
    lowered = name.lower()
    return next((codec for codec in CODECS if lowered.endswith("." + codec.suffix)), None)


def codec_names() -> str:
    """The codecs as messages list them: "gzip, bz2, xz, zstd"."""
    return ", ".join(codec.name for codec in CODECS)


__all__ = ["CODECS", "MAGIC_BYTES", "Codec", "codec_by_suffix", "codec_names", "codec_of"]
