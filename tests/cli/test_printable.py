"""What reaches stderr from file names and records is printed as it is: no emoji codes, no
control characters."""

from __future__ import annotations

from tests.support.process import run_gbr

GOOD = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


def test_emoji_codes_in_a_file_name_stay_as_typed(tmp_path) -> None:
    name = str(tmp_path / "a:smile:b.fen")
    result = run_gbr("classify", name)
    assert result.status == 2
    assert f"{name}: no such file" in result.stderr


def test_a_line_number_between_colons_stays_a_number(tmp_path) -> None:
    collection = tmp_path / "x.fen"
    collection.write_text(f"{GOOD}\n" * 99 + "not a fen\n")  # line 100 is bad
    result = run_gbr("classify", str(collection))
    assert result.status == 1
    assert f"{collection}:100: record 100: " in result.stderr


def test_control_characters_in_a_file_name_are_escaped(tmp_path) -> None:
    name = str(tmp_path / "evil\x1b]2;title\x07.fen")
    for args in (["classify", name], [name]):
        result = run_gbr(*args)
        assert result.status == 2
        assert "\x1b" not in result.stderr and "\x07" not in result.stderr
        assert "evil\\x1b]2;title\\x07.fen" in result.stderr
