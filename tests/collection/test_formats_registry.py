"""What a new collection format needs, checked: a module under ``formats/`` named by its
``Format``'s value declaring every attribute the collection layer asks of it, its line in the
registry, and every list of formats a user reads worded from the registry."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from gbr_tui.core import Rule
from gbr_tui.core.collection import Format
from gbr_tui.core.collection.codecs import CODECS, codec_by_suffix, codec_names, codec_of
from gbr_tui.core.collection.formats import FORMATS, caption_places, detect_format, format_module, format_names
from gbr_tui.core.collection.formats.base import BATCH_REQUIRED, REQUIRED
from gbr_tui.core.collection.writing import SAVED_FORMATS

FORMATS_DIR = Path(importlib.import_module("gbr_tui.core.collection.formats").__file__).parent


@pytest.mark.parametrize("format", list(Format))
def test_every_format_has_a_module_declaring_all_that_is_asked_of_it(format):
    module = importlib.import_module(f"gbr_tui.core.collection.formats.{format.value}")
    assert (FORMATS_DIR / f"{format.value}.py").is_file()
    missing = [name for name in REQUIRED + (BATCH_REQUIRED if module.BATCH else ()) if not hasattr(module, name)]
    assert missing == []
    assert module.FORMAT is format
    assert format_module(format) is module and FORMATS.count(module) == 1
    for name in ("votes", "records", "counted", "record_start", "may_start_range"):
        assert callable(getattr(module, name))
    assert module.written is None or callable(module.written)
    assert (module.SAVE_SUFFIX is None) == (module.written is None)


def test_the_registry_holds_each_format_once_with_distinct_names_and_detection_places():
    assert sorted(module.FORMAT for module in FORMATS) == sorted(Format)
    assert len({module.NAME for module in FORMATS}) == len(FORMATS)
    assert len({module.DETECTION_ORDER for module in FORMATS}) == len(FORMATS)


@pytest.mark.parametrize("module", FORMATS, ids=lambda module: module.FORMAT.value)
def test_each_format_votes_for_a_record_of_its_own(module):
    sample = {
        Format.PGN: '[Event "x"]\n',
        Format.EPD: '8/8/8/8/8/8/8/K6k w - - id "x";\n',
        Format.FEN: "8/8/8/8/8/8/8/K6k w - - 0 1\n",
        Format.CSV: "id,fen\n",
        Format.JSONL: '{"fen": "8/8/8/8/8/8/8/K6k w - - 0 1"}\n',
    }[module.FORMAT]
    assert detect_format(sample) is module.FORMAT


def test_every_codec_module_declares_its_codec_and_is_registered():
    package = importlib.import_module("gbr_tui.core.collection.codecs")
    names = [found.name for found in pkgutil.iter_modules(package.__path__) if found.name != "base"]
    codecs = [importlib.import_module(f"{package.__name__}.{name}").CODEC for name in names]
    assert sorted(codecs, key=CODECS.index) == list(CODECS)
    for codec in CODECS:
        assert codec.magic and codec.suffix and callable(codec.decompressor) and callable(codec.output)
        assert codec_of(codec.magic + b"rest") is codec and codec_by_suffix(f"games.pgn.{codec.suffix}") is codec


def test_the_list_of_formats_names_every_format_once():
    words = format_names()
    assert words == "PGN, EPD, FEN lines, CSV or JSON Lines"
    assert all(words.count(module.NAME) == 1 for module in FORMATS)


def test_the_places_of_captions_name_each_format_s_place():
    words = caption_places()
    assert words == "a PGN tag, an EPD opcode, a CSV column or a JSON field"
    assert all(module.CAPTION_IN in words for module in FORMATS if module.CAPTION_IN is not None)


def names_every_format(text: str) -> bool:
    return format_names() in " ".join(text.split())


def test_the_open_dialog_lists_every_format_and_codec():
    from gbr_tui.dialogs.open_collection import OpenCollectionDialog

    assert names_every_format(OpenCollectionDialog.HINT)
    assert codec_names() in OpenCollectionDialog.HINT and all(codec.name in codec_names() for codec in CODECS)


def test_the_palette_lists_every_format_and_every_saved_one():
    from gbr_tui.palette import GbrCommands

    app = SimpleNamespace(
        run_action=print,
        in_editor=print,
        load_example=print,
        action_toggle_rule=print,
        check_action=lambda *_: True,
        rule=Rule.COUNT,
    )
    helps = {title: help_text for title, help_text, _ in GbrCommands.commands(SimpleNamespace(app=app))}
    assert names_every_format(helps["Open a collection"])
    saved = [format_module(format).NAME for format in SAVED_FORMATS.values()]
    assert saved and " or ".join(saved) in helps["Save the position to a file"]


def test_the_editor_hand_writes_no_list_of_formats():
    """The app starts without the collection layer: the editor's key names no format (a list
    written there by hand would go stale), the open dialog lists them."""
    from gbr_tui.screens.editor import EditorScreen

    descriptions = [binding.description for binding in EditorScreen.BINDINGS if hasattr(binding, "description")]
    assert any("collection" in text for text in descriptions)
    assert not [text for text in descriptions for module in FORMATS if module.NAME.split()[0] in text.split()]


def test_the_browse_help_lists_every_format():
    from gbr_tui.commands.browse import build_parser

    assert names_every_format(build_parser().format_help())
