"""numpy is for batch work and dask for `classify --dask`: the app's first frame never waits for
their import."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import asyncio, sys
from gbr_tui.app import make_app

async def first_frame():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        print(sorted(name for name in sys.modules if name.split(".")[0] in ("numpy", "dask", "distributed")))

asyncio.run(first_frame())
"""


def test_the_first_frame_is_drawn_without_numpy_or_dask() -> None:
    # A fresh interpreter: this test process may have imported numpy for other tests.
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
