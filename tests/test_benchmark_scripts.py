"""Every benchmark script answers ``--help`` with its docstring (it used to read the option as
its first number and stop with a traceback)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"
SCRIPTS = sorted(path for path in BENCHMARKS.glob("*.py") if path.name != "usage.py")


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS, ids=[path.stem for path in SCRIPTS])
def test_a_benchmark_answers_help_with_its_docstring(script: Path) -> None:
    doc = ast.get_docstring(ast.parse(script.read_text()))
    assert doc, f"{script.name} has no docstring to show"
    result = subprocess.run(
        [sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[0] == doc.splitlines()[0]
