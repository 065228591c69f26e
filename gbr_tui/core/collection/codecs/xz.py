"""xz (lzma)."""

from __future__ import annotations

import lzma

from gbr_tui.core.collection.codecs.base import Codec, needs_input_output

CODEC = Codec("xz", "xz", b"\xfd7zXZ\x00", lzma.LZMADecompressor, needs_input_output, (lzma.LZMAError,))
