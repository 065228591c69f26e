"""`gbr-tui diagram`: the SVG's men are the position's and its caption the form chosen; PNG and
PDF through rsvg-convert; bad input named."""

from __future__ import annotations

import os
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import chess
import pytest

from gbr_tui.core.errors import GbrError
from gbr_tui.core.publish.diagram import DiagramStyle, diagram_svg
from gbr_tui.core.publish.rendering import RENDERER, write_diagram
from tests.support.browser import STUDIES_PGN
from tests.support.process import run_gbr

SVG = "{http://www.w3.org/2000/svg}"
KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"  # spec section 3: =0323.12g3g1
START = chess.STARTING_BOARD_FEN
#: The German Wikipedia's start position (spec section 3).
START_GERMAN = "4888.88.e1e8d1d8a1h1a8h8c1f1c8f8b1g1b8g8.a2b2c2d2e2f2g2h2a7b7c7d7e7f7g7h7"
needs_renderer = pytest.mark.skipif(
    shutil.which(RENDERER) is None and not os.environ.get("GBR_TUI_REQUIRE_BROWSER"),
    reason="needs rsvg-convert (.ci/run installs librsvg2-bin)",
)
SQUARE = 45  # chess.svg's square, in its own units; the margin with coordinates is 15


def drawn_men(svg_text: str, flipped: bool = False) -> dict[str, str]:
    """Which man each square shows, read from the SVG: chess.svg places a ``<use>`` of the
    man's drawing (``#white-knight``) translated to its square's top-left corner."""
    root = ET.fromstring(svg_text)
    width = int(root.get("viewBox", "").split()[2])
    margin = (width - 8 * SQUARE) // 2
    men = {}
    for use in root.iter(f"{SVG}use"):
        color, kind = use.get("href", "").lstrip("#").split("-")
        x, y = map(float, re.fullmatch(r"translate\((\S+), (\S+)\)", use.get("transform", "")).groups())
        column, row = int((x - margin) // SQUARE), int((y - margin) // SQUARE)
        file, rank = (7 - column, row) if flipped else (column, 7 - row)
        letter = chess.PIECE_SYMBOLS[chess.PIECE_NAMES.index(kind)]
        men[chess.square_name(chess.square(file, rank))] = letter.upper() if color == "white" else letter
    return men


def expected_men(placement: str) -> dict[str, str]:
    board = chess.BaseBoard(placement)
    return {chess.square_name(square): piece.symbol() for square, piece in board.piece_map().items()}


def caption_of(svg_text: str) -> str | None:
    texts = [node.text for node in ET.fromstring(svg_text).iter(f"{SVG}text") if node.get("class") == "caption"]
    assert len(texts) <= 1
    return texts[0] if texts else None


# (arguments, published caption): each form of Kubbel's study as the spec prints it (the EG full
# position of section 3; the compact form with every man), and the German Wikipedia's start.
CAPTIONS = [
    ((KUBBEL, "--caption", "eg", "--stipulation", "="), "g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw"),
    ((KUBBEL, "--stipulation", "="), "=0323.12g3g1a3a2e1g8h6c3c6"),
    ((KUBBEL, "--caption", "eg", "--result", "Draw?"), "g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw?"),
    (("8/K7/2nn4/8/8/1B1k4/1R6/8", "--caption", "arves", "--stipulation", "+"), "a7d3 0116.00 b2b3c6d6 3/3+"),
    ((START, "--caption", "german"), START_GERMAN),
]


@pytest.mark.parametrize(("arguments", "published"), CAPTIONS)
def test_the_svg_shows_the_positions_men_and_the_chosen_caption(tmp_path, arguments, published):
    target = tmp_path / "study.svg"
    assert run_gbr("diagram", *arguments, "-o", str(target)).status == 0
    svg = target.read_text()
    assert drawn_men(svg) == expected_men(arguments[0])
    assert caption_of(svg) == published


def test_flipped_without_coordinates_at_a_size():
    svg = diagram_svg(chess.Board(f"{KUBBEL} w - - 0 1"), None, DiagramStyle(flipped=True, coordinates=False, size=200))
    root = ET.fromstring(svg)
    assert root.get("viewBox") == "0 0 360 360" and root.get("width") == "200"  # no margin for coordinates
    assert drawn_men(svg, flipped=True) == expected_men(KUBBEL)
    # Flipped, Black's king on g1 is drawn in the top row, second column from the left.
    assert drawn_men(svg) != expected_men(KUBBEL)
    assert caption_of(svg) is None


def test_a_caption_is_made_printable_and_bounded():
    svg = diagram_svg(chess.Board(), "0000.00\x1b[31m <b>" + "x" * 500)
    caption = caption_of(svg)  # parsed as XML: the < was escaped
    assert caption.startswith("0000.00\\x1b[31m <b>") and len(caption) <= 120


@needs_renderer
@pytest.mark.parametrize(("suffix", "magic"), [(".png", b"\x89PNG"), (".pdf", b"%PDF")])
def test_png_and_pdf_are_rendered(tmp_path, suffix, magic):
    target = tmp_path / f"kubbel{suffix}"
    write_diagram(diagram_svg(chess.Board(KUBBEL), "=0323.12g3g1"), target)
    assert target.read_bytes().startswith(magic)


def test_a_missing_renderer_says_how_to_get_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(GbrError, match="install librsvg2-bin"):
        write_diagram(diagram_svg(chess.Board()), tmp_path / "start.png")
    write_diagram(diagram_svg(chess.Board()), tmp_path / "start.svg")  # SVG needs none
    assert (tmp_path / "start.svg").exists()


def test_bad_input_is_named(tmp_path):
    # Seven ranks: python-chess's reason, the input and the spot.
    bad = run_gbr("diagram", "6n1/8/2p4P/8/8/r1p3K1/B7", "-o", str(tmp_path / "a.svg"))
    assert bad.status == 1 and "'6n1/8/2p4P/8/8/r1p3K1/B7': not a valid FEN" in bad.stderr
    unwritable = tmp_path / "missing" / "a.svg"
    bad = run_gbr("diagram", KUBBEL, "-o", str(unwritable))
    assert bad.status == 1 and f"{unwritable}: cannot write" in bad.stderr
    bad = run_gbr("diagram", KUBBEL, "-o", str(tmp_path / "a.gif"))
    assert bad.status == 2 and "write .svg, .png or .pdf" in bad.stderr
    # No king: the position is drawn only without a caption, which needs the kings' squares.
    assert run_gbr("diagram", "8/8/8/8/8/8/8/8", "-o", str(tmp_path / "a.svg")).status == 1
    assert run_gbr("diagram", "8/8/8/8/8/8/8/8", "--caption", "none", "-o", str(tmp_path / "a.svg")).status == 0


def test_each_record_gets_its_diagram_named_by_record(tmp_path):
    source = tmp_path / "studies.pgn"
    source.write_text(STUDIES_PGN)
    done = run_gbr("diagram", "--each", "svg", "--caption", "eg", str(source), "-o", str(tmp_path / "out"))
    # Game 4 has a seven-rank FEN (line 38): reported, the others drawn (tests/support/browser.py).
    assert done.status == 1 and f"{source}:38: record 4:" in done.stderr
    names = sorted(path.name for path in Path(tmp_path / "out").iterdir())
    assert names == ["0001-0323.12.svg", "0002-0100.00.svg", "0003-4888.88.svg", "0005-0100.00.svg"]
    kubbel = (tmp_path / "out" / "0001-0323.12.svg").read_text()
    assert drawn_men(kubbel) == expected_men(KUBBEL)
    # Its result 1/2-1/2 stipulates a draw: EG prints it as a word.
    assert caption_of(kubbel) == "g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw"
