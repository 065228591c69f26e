"""What the command loads for each command line, and its garbage collector at start-up."""

from __future__ import annotations

import gc
import inspect
import json
import subprocess
import sys

import pytest

from gbr_tui import startup
from gbr_tui.app import make_app
from gbr_tui.cli import COMMAND_NAMES, build_parser
from gbr_tui.commands.start import SWITCH_INTERVAL, app_starter
from tests.support.process import run_gbr


def prepared(argv: list[str], report: str) -> object:
    """What ``report`` (an expression) gives in a fresh interpreter once the command line is
    parsed and loaded, as if on a terminal."""
    code = (
        "import json, sys; import gbr_tui.terminal as terminal; terminal.not_a_terminal = lambda *streams: None; "
        f"from gbr_tui.cli import prepare; prepare(json.loads(sys.argv[1])); print(json.dumps({report}))"
    )
    done = subprocess.run([sys.executable, "-c", code, json.dumps(argv)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def modules_loaded_for(argv: list[str]) -> set[str]:
    """The modules a fresh interpreter holds once the command line is parsed and loaded."""
    return set(prepared(argv, "sorted(sys.modules)"))


def test_only_the_app_shortens_the_thread_switch_interval():
    """The app's frames are written by a thread that must not wait 5 ms for the interpreter's
    lock; a sub-command keeps Python's default (its threads, if any, switch as usual)."""
    assert prepared([], "sys.getswitchinterval()") == pytest.approx(SWITCH_INTERVAL)
    assert SWITCH_INTERVAL < 0.005
    assert prepared(["encode", "8/8/8/8/8/8/8/8"], "sys.getswitchinterval()") == pytest.approx(0.005)


def test_the_app_loads_neither_the_sub_commands_nor_the_collection_readers():
    modules = modules_loaded_for([])
    assert "gbr_tui.app" in modules
    unwanted = {f"gbr_tui.commands.{name}" for name in COMMAND_NAMES} | {
        "gbr_tui.core.collection",
        "chess.pgn",
        "rich.progress",
        "argparse",  # no arguments: nothing to parse
        "gbr_tui.core.tablebases",  # probing is loaded when tables are set
        "chess.syzygy",
        "chess.gaviota",
    }
    assert modules & unwanted == set()


def test_no_arguments_start_the_app_as_the_parser_would():
    """``prepare([])`` skips argparse: the app gets what the parser gives for no options."""
    args = build_parser(()).parse_args([])
    from_parser = {
        "served": args.served,
        "ascii_mode": args.ascii,
        "mouse": not args.no_mouse,
        "no_animation": args.no_animation,
        "tablebases": args.tablebases,
    }
    defaults = {
        name: parameter.default
        for name, parameter in inspect.signature(app_starter).parameters.items()
        if name != "files"
    }
    assert defaults == from_parser


def test_a_sub_command_loads_neither_the_app_nor_the_other_sub_commands():
    modules = modules_loaded_for(["encode", "8/8/8/8/8/8/8/8"])
    assert "gbr_tui.commands.encode" in modules
    assert not [name for name in modules if name == "textual" or name.startswith(("textual.", "gbr_tui.app"))]
    assert {f"gbr_tui.commands.{name}" for name in COMMAND_NAMES} & modules == {"gbr_tui.commands.encode"}


def test_a_plain_classify_loads_no_dask(tmp_path):
    """dask and distributed (the gbr-tui[dask] extra) are for --dask alone."""
    collection = tmp_path / "studies.fen"
    collection.write_text("6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1\n" * 3000)  # big enough for --jobs 2
    code = (
        "import json, sys; from gbr_tui.__main__ import main; sys.argv[1:] = json.loads(sys.argv[1]); main(); "
        "print(json.dumps(sorted(sys.modules)))"
    )
    for argv in (["classify", str(collection)], ["classify", "--jobs", "2", str(collection)]):
        done = subprocess.run(
            [sys.executable, "-c", code, json.dumps(argv)], capture_output=True, text=True, check=True, timeout=60
        )
        modules = json.loads(done.stdout.splitlines()[-1])
        assert "gbr_tui.core.collection.parallel" in modules  # the run went as far as choosing its workers
        assert not [name for name in modules if name.split(".")[0] in ("dask", "distributed")]


def test_without_a_terminal_the_app_says_so_instead_of_waiting_for_keys(tmp_path):
    """``gbr-tui > file``, ``ssh host gbr-tui`` without -t: stdin or stdout is not a terminal."""
    collection = tmp_path / "studies.fen"
    collection.write_text("6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1\n")
    for args in ([], ["--ascii"], [str(collection)]):
        result = run_gbr(*args)  # stdin and stdout are pipes
        assert result.status == 2
        assert result.stdout == ""  # no escape codes written into the pipe
        assert result.stderr.startswith("gbr-tui: stdin is not a terminal")


def test_the_help_still_lists_every_sub_command():
    listed = run_gbr("--help").stdout
    for name in COMMAND_NAMES:
        assert f"    {name} " in listed


def test_the_entry_point_resumes_the_collector_before_a_sub_command_runs():
    code = (
        "import gc, sys; from gbr_tui.__main__ import main; sys.argv = ['gbr-tui', 'decode', '0103']; "
        "main(); print(gc.isenabled(), gc.get_freeze_count() > 0, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "0103" in done.stdout  # the sub-command ran
    assert done.stderr.split() == ["True", "True"]  # collector on, the modules frozen out of its way


def test_a_collector_that_start_up_did_not_pause_is_left_as_it_was():
    gc.disable()
    try:
        startup.pause()
        startup.done()
        assert not gc.isenabled()
    finally:
        gc.enable()


async def test_the_app_resumes_the_collector_once_its_first_screen_is_drawn():
    startup.pause()
    try:
        assert not gc.isenabled()
        async with make_app().run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert gc.isenabled()
    finally:
        startup.done()
        gc.enable()
