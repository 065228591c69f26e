"""Usage mistakes on the command line: a clear message and a usage status, never a guess."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.support.process import COMMAND, run_gbr


def test_a_mistyped_command_that_names_no_file_suggests_the_command(tmp_path) -> None:
    result = run_gbr("encodee", "x")
    assert result.status == 2
    assert "did you mean `encode`?" in result.stderr


def test_a_word_close_to_a_command_that_names_a_file_is_still_a_file(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "encodee").write_text("8/8/8/8/8/8/8/8 w - - 0 1\n")
    result = run_gbr("encodee")  # no terminal: the app refuses, but it was read as a file
    assert "did you mean" not in result.stderr
    assert "terminal" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["encode", ""], "empty FEN"),
        (["encode", "--json", " "], "empty FEN"),
        (["encode", "--extended", ""], "empty FEN"),
        (["decode", ""], "empty"),
        (["decode", "--json", ""], "empty"),
    ],
)
def test_an_empty_argument_is_bad_input(args: list[str], message: str) -> None:
    result = run_gbr(*args)
    assert result.status == 1
    assert result.stderr.startswith(f"gbr-tui {args[0]}: '': {message}")


@pytest.mark.parametrize("args", [["encode"], ["encode", "--json"], ["encode", "--extended"], ["decode"]])
def test_blank_stdin_lines_are_skipped_and_counted(args: list[str]) -> None:
    good = "4k3/8/8/8/8/8/8/4K3" if args[0] == "encode" else "0000"
    result = run_gbr(*args, stdin=f"{good}\n\n   \n{good}\n")  # lines 2 and 3 are blank
    assert result.status == 0
    assert len(result.lines) == 2 or args == ["decode"]
    assert result.stderr == f"gbr-tui {args[0]}: skipped 2 blank lines\n"


@pytest.mark.parametrize("args", [["encode"], ["encode", "--json"], ["encode", "--extended"], ["decode", "--json"]])
def test_a_line_that_is_not_utf8_names_the_byte(args: list[str]) -> None:
    # b"0000\xff": the fifth character of line 2 is the byte 0xff, which no UTF-8 text holds.
    good = "4k3/8/8/8/8/8/8/4K3" if args[0] == "encode" else "0000"
    result = run_gbr(*args, stdin=f"{good}\n".encode() + b"0000\xff\n")
    assert result.status == 1
    assert result.stderr.splitlines()[0] == f"gbr-tui {args[0]}: line 2: not UTF-8: byte 0xff (at column 5)"
    if "--json" in args:
        bad = json.loads(result.lines[1])
        assert (bad["error"], bad["offset"], bad["column"]) == ("not UTF-8: byte 0xff", 4, 5)


@pytest.mark.parametrize(
    "args",
    [["encode", "4k3/8/8/8/8/8/8/4K3"], ["encode", "--json", "4k3/8/8/8/8/8/8/4K3"], ["decode", "0000"]],
)
def test_a_full_disk_is_reported_not_a_traceback(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([*COMMAND, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert done.returncode != 0
    assert done.stderr == f"gbr-tui {args[0]}: cannot write the output: No space left on device\n"


def test_classify_refuses_stdin_twice() -> None:
    result = run_gbr("classify", "-", "-", stdin="4k3/8/8/8/8/8/8/4K3 w - - 0 1\n")
    assert result.status == 2
    assert "more than once" in result.stderr


@pytest.mark.parametrize(("pattern", "caret"), [(",,", 1), ("0,0,", 3)])
def test_classify_explains_a_pattern_with_two_separators(tmp_path, pattern: str, caret: int) -> None:
    collection = tmp_path / "x.fen"
    collection.write_text("4k3/8/8/8/8/8/8/4K3 w - - 0 1\n")
    result = run_gbr("classify", "--match", pattern, str(collection))
    assert result.status == 2
    assert result.stderr.splitlines()[1:] == [f"    {pattern}", "    " + " " * caret + "^"]
