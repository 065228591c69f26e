"""Usage mistakes on the command line: a clear message and a usage status, never a guess."""

from __future__ import annotations

from tests.cli.process import run_gbr


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
