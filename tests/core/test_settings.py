"""The settings kept between runs: written and read back, and every kind of bad file."""

from __future__ import annotations

import json
import os

import pytest

from gbr_tui.core import Rule
from gbr_tui.core.settings import (
    MAX_SETTINGS_SIZE,
    Settings,
    read_settings,
    settings_path,
    tablebase_directories,
    write_settings,
)

KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1"


def test_the_settings_live_in_the_config_directory_platformdirs_names(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert settings_path() == tmp_path / "gbr-tui" / "settings.json"


def test_settings_written_read_back_the_same(tmp_path):
    path = tmp_path / "new" / "settings.json"  # the directory is made
    kept = Settings(theme="textual-light", rule=Rule.PROMOTED, fen=KUBBEL, stipulation="=")
    write_settings(path, kept)
    assert read_settings(path) == (kept, [])
    assert json.loads(path.read_text())["rule"] == "promoted"
    assert [entry.name for entry in path.parent.iterdir()] == ["settings.json"]  # no temporary left


def test_no_file_gives_the_defaults_silently(tmp_path):
    assert read_settings(tmp_path / "settings.json") == (Settings(), [])


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"{not json", "damaged (not JSON)"),
        (b"\xff\xfe", "damaged (not JSON)"),
        (b"[1, 2]", "damaged (not a JSON object)"),
        (b" " * (MAX_SETTINGS_SIZE + 1), "over 64 KB"),
    ],
)
def test_a_damaged_file_gives_the_defaults_and_says_why(tmp_path, content, said):
    path = tmp_path / "settings.json"
    path.write_bytes(content)
    settings, problems = read_settings(path)
    assert settings == Settings()
    assert len(problems) == 1 and said in problems[0] and "using the defaults" in problems[0]


def test_bad_values_are_each_said_and_left_at_their_defaults(tmp_path):
    path = tmp_path / "settings.json"
    values = {"theme": ["a list"], "rule": "sometimes", "fen": "8/8/8 z", "stipulation": "=", "other": 1}
    path.write_text(json.dumps(values))
    settings, problems = read_settings(path)
    # Nothing is kept: the stipulation belongs to the position, which is not restored.
    assert settings == Settings()
    assert [problem.split(": ", 1)[1].split(" ")[:3] for problem in problems] == [
        ["the", "theme", "is"],
        ["unknown", "rule", "'sometimes'"],
        ["the", "kept", "position"],
    ]


def test_an_unreadable_file_gives_the_defaults_and_says_why(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    path = tmp_path / "settings.json"
    path.write_text("{}")
    path.chmod(0)
    settings, problems = read_settings(path)
    assert settings == Settings()
    assert problems and "cannot be read (Permission denied)" in problems[0]


def test_tablebase_directories_are_kept_and_read_back(tmp_path):
    path = tmp_path / "settings.json"
    kept = Settings(tablebases=("/tables/syzygy", "/tables/gaviota"))
    write_settings(path, kept)
    assert read_settings(path) == (kept, [])
    assert json.loads(path.read_text())["tablebases"] == ["/tables/syzygy", "/tables/gaviota"]


@pytest.mark.parametrize("value", ["/tables", [1, 2], [""], ["x" * 5000], ["/t"] * 17])
def test_kept_tablebases_that_are_no_short_list_of_names_are_dropped(tmp_path, value):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"tablebases": value, "theme": "nord"}))
    settings, problems = read_settings(path)
    assert settings == Settings(theme="nord")
    assert problems == [f"{path}: the tablebases are not a list of at most 16 directory names: none kept"]


def test_the_directories_given_come_before_the_environment_and_the_settings():
    kept = Settings(tablebases=("/kept",))
    environment = {"GBR_TUI_TABLEBASES": f"/env/a{os.pathsep}/env/b"}
    assert tablebase_directories(["/given"], environment, kept) == ["/given"]
    assert tablebase_directories(None, environment, kept) == ["/env/a", "/env/b"]
    assert tablebase_directories(None, {"GBR_TUI_TABLEBASES": " "}, kept) == ["/kept"]
    assert tablebase_directories(None, {}, Settings()) == []
