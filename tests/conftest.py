"""Defaults for the whole test run: parallel workers, byte code kept, and the slow tests left to
`-m slow`.

``uv run pytest`` runs on pytest-xdist workers (see WORKERS). ``-n 0``, ``-n N`` or
``-p no:xdist`` on the command line take over, and so does ``--pdb`` (one process).
"""

from __future__ import annotations

import os
import sys

import pytest

#: Many tests wait on a subprocess, a pseudo-terminal, a socket or a Textual timer rather than
#: compute, so more workers than cores pay: on two otherwise idle cores the default run took
#: about 140 s on 2 workers, 110 s on 3, 100 s on 4 and 95-100 s on 5 or 6, which spend more CPU.
WORKERS = 4


@pytest.hookimpl(trylast=True)  # after the cache provider's, which makes config.cache
def pytest_configure(config: pytest.Config) -> None:
    """Every Python process of the run (this one, the xdist workers, each gbr-tui a test starts)
    keeps the byte code it compiles in pytest's cache directory, also where the environment turns
    byte code writing off (PYTHONDONTWRITEBYTECODE, set to keep ``__pycache__`` out of trees):
    compiling textual, rich and python-chess afresh in each of hundreds of processes cost minutes
    of CPU. Runs before xdist starts its workers, which inherit the environment."""
    cache = getattr(config, "cache", None)  # None with -p no:cacheprovider: left as it is
    if cache is None:
        return
    prefix = os.environ.get("PYTHONPYCACHEPREFIX") or str(cache.mkdir("byte-code"))
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.dont_write_bytecode = False
    sys.pycache_prefix = prefix


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Give xdist a worker count when the command line gave none (runs before xdist's own hook,
    which turns the count into workers). Not written as ``addopts = "-n 3"`` in pyproject.toml:
    that would make ``-p no:xdist`` an error."""
    if not config.pluginmanager.hasplugin("xdist") or "PYTEST_XDIST_WORKER" in os.environ:
        return
    if config.option.numprocesses is None and not config.option.usepdb and not config.option.collectonly:
        config.option.numprocesses = WORKERS


@pytest.fixture(autouse=True)
def _config_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test, and every gbr-tui it starts, keeps its settings in a fresh directory, never
    in the user's own config directory (platformdirs reads XDG_CONFIG_HOME on Linux). The
    directory holds settings with nothing kept: the app starts as for a returning user, on an
    empty board (a first start opens on a study, under a welcome; its tests make their own)."""
    from gbr_tui.core.settings import Settings, settings_path, write_settings

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    write_settings(settings_path(), Settings())
