"""Running `gbr-tui` the way a user does: a separate process, bytes in, bytes out."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

SCRIPT = Path(sys.executable).with_name("gbr-tui")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "gbr_tui"]
#: The last line `classify` writes to stderr.
FINAL = re.compile(r"read ([\d,]+) = classified ([\d,]+) \+ bad ([\d,]+)")


@dataclass
class Result:
    status: int
    stdout: str
    stderr: str

    @property
    def lines(self) -> list[str]:
        return self.stdout.splitlines()


def run_gbr(*args: str, stdin: bytes | str = b"", cwd: Path | None = None) -> Result:
    """``gbr-tui ARGS`` with ``stdin`` on its standard input, no colour, 100 columns; it must
    not end in a traceback."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "100"}
    done = subprocess.run([*COMMAND, *args], input=data, capture_output=True, env=env, timeout=60, cwd=cwd)
    result = Result(done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8", "replace"))
    assert "Traceback" not in result.stderr, result.stderr
    return result


def final_line(result: Result) -> tuple[int, int, int]:
    """(read, classified, bad) from the last line of `classify`, which must add up."""
    last = result.stderr.strip().splitlines()[-1]
    read, classified, bad = (int(number.replace(",", "")) for number in FINAL.fullmatch(last).groups())
    assert read == classified + bad
    return read, classified, bad
