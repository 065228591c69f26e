"""The core never imports the terminal libraries (checked in a fresh interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys


def test_importing_the_core_loads_neither_textual_nor_rich() -> None:
    probe = (
        "import json, sys, gbr_tui.core; "
        "loaded = [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')]; "
        "print(json.dumps(sorted(loaded)))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == []
    # The probe itself works: the same check sees rich once rich is imported.
    result = subprocess.run([sys.executable, "-c", "import rich; " + probe], capture_output=True, text=True, check=True)
    assert "rich" in json.loads(result.stdout)
