"""bzip2."""

from __future__ import annotations

import bz2

from gbr_tui.core.collection.codecs.base import Codec, needs_input_output

CODEC = Codec("bz2", "bz2", b"BZh", bz2.BZ2Decompressor, needs_input_output, (OSError,))
