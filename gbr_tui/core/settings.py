"""What the app keeps between runs: the theme, the rule, the position left on the board, the
tablebase directories.

One small JSON file in the user's config directory (``platformdirs``). The app never keeps
anything when served. Everything read back is checked: a file that is too large, damaged or
holds values that make no sense gives the defaults and says why, never a traceback.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from gbr_tui.core.code import Rule
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import board_from_fen
from gbr_tui.core.text import printable

#: The file's name in the config directory.
SETTINGS_NAME = "settings.json"
#: A settings file is a few hundred bytes: a larger one is not read.
MAX_SETTINGS_SIZE = 64 * 1024
#: How long a kept value may be (a theme name, a FEN).
MAX_VALUE_LENGTH = 200
#: How many tablebase directories are kept, and how long a directory's name may be.
MAX_TABLEBASE_DIRECTORIES = 16
MAX_DIRECTORY_LENGTH = 4096
#: The environment variable naming tablebase directories (parted as PATH is: ``:`` on Unix).
TABLEBASES_VARIABLE = "GBR_TUI_TABLEBASES"


def settings_path() -> Path:
    """Where the settings live: ``settings.json`` in the user config directory (on Linux
    ``$XDG_CONFIG_HOME/gbr-tui``, by default ``~/.config/gbr-tui``)."""
    from platformdirs import user_config_path

    return user_config_path("gbr-tui") / SETTINGS_NAME


@dataclass(frozen=True)
class Settings:
    """What is kept; None where nothing is (the app's default then)."""

    theme: str | None = None
    rule: Rule | None = None
    #: The position left on the board: its full FEN and stipulation.
    fen: str | None = None
    stipulation: str | None = None
    #: Directories of endgame tablebases (Syzygy, Gaviota).
    tablebases: tuple[str, ...] | None = None


def read_settings(path: Path) -> tuple[Settings, list[str]]:
    """The settings kept at ``path`` (the defaults when there is no file), and what was wrong
    with the file: each problem worded, the values at fault left at their defaults."""
    shown = printable(str(path), MAX_VALUE_LENGTH)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_SETTINGS_SIZE + 1)
    except FileNotFoundError:
        return Settings(), []
    except OSError as error:
        return Settings(), [f"{shown} cannot be read ({printable(error.strerror or str(error))}): using the defaults"]
    if len(data) > MAX_SETTINGS_SIZE:
        return Settings(), [f"{shown} is over {MAX_SETTINGS_SIZE // 1024} KB, not a settings file: using the defaults"]
    try:
        values = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return Settings(), [f"{shown} is damaged (not JSON): using the defaults"]
    if not isinstance(values, dict):
        return Settings(), [f"{shown} is damaged (not a JSON object): using the defaults"]
    problems: list[str] = []
    kept = {name: _checked(name, values.get(name), problems) for name in ("theme", "rule", "fen", "stipulation")}
    settings = Settings(
        theme=kept["theme"],
        rule=None if kept["rule"] is None else Rule(kept["rule"]),
        fen=kept["fen"],
        stipulation=None if kept["fen"] is None else kept["stipulation"],
        tablebases=_checked_directories(values.get("tablebases"), problems),
    )
    return settings, [f"{shown}: {problem}" for problem in problems]


def _checked(name: str, value: object, problems: list[str]) -> str | None:
    """``value`` if it makes sense for the setting ``name``, else None with the problem said."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_VALUE_LENGTH:
        problems.append(f"the {name} is not a short text: left at its default")
        return None
    if name == "rule":
        try:
            Rule(value)
        except ValueError:
            problems.append(f"unknown rule {printable(value)!r} (count or promoted): left at its default")
            return None
    if name == "fen":
        try:
            board_from_fen(value)
        except GbrError as error:
            problems.append(f"the kept position is not a FEN ({error.message}): not restored")
            return None
    if name == "stipulation" and value not in ("+", "="):
        problems.append(f"the stipulation {printable(value)!r} is not + or =: none kept")
        return None
    return value


def _checked_directories(value: object, problems: list[str]) -> tuple[str, ...] | None:
    """The kept tablebase directories, when they are a short list of directory names."""
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) > MAX_TABLEBASE_DIRECTORIES
        or not all(isinstance(name, str) and 0 < len(name) <= MAX_DIRECTORY_LENGTH for name in value)
    ):
        problems.append(
            f"the tablebases are not a list of at most {MAX_TABLEBASE_DIRECTORIES} directory names: none kept"
        )
        return None
    return tuple(value)


def tablebase_directories(given: list[str] | None, environment: Mapping[str, str], kept: Settings) -> list[str]:
    """Where the tables are: the directories given (``--tablebases``), else those of
    GBR_TUI_TABLEBASES, else those kept in the settings; none when nothing names any."""
    if given:
        return list(given)
    named = environment.get(TABLEBASES_VARIABLE, "")
    if named.strip():
        return [part for part in named.split(os.pathsep) if part][:MAX_TABLEBASE_DIRECTORIES]
    return list(kept.tablebases or ())


def write_settings(path: Path, settings: Settings) -> None:
    """Write the settings at ``path`` (its directory made when missing), whole or not at all:
    a new file takes the old one's place. OSError when it cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    values = {name: value for name, value in asdict(settings).items() if value is not None}
    text = json.dumps(values, indent=1, sort_keys=True) + "\n"
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
