"""``python -m gbr_tui``: the same as the ``gbr-tui`` command."""

import sys

from gbr_tui.cli import main

sys.exit(main())
