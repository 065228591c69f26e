"""Running `gbr-tui` the way a user does: a separate process, bytes in, bytes out."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

SCRIPT = Path(sys.executable).with_name("gbr-tui")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "gbr_tui"]


@dataclass
class Result:
    status: int
    stdout: str
    stderr: str

    @property
    def lines(self) -> list[str]:
        return self.stdout.splitlines()


def run_gbr(*args: str, stdin: bytes | str = b"") -> Result:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "100"}
    done = subprocess.run([*COMMAND, *args], input=data, capture_output=True, env=env, timeout=60)
    result = Result(done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8", "replace"))
    assert "Traceback" not in result.stderr, result.stderr
    return result
