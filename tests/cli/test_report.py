"""`gbr-tui report`: 400 studies indexed by class in GBR order (the page parsed), viewed in
headless Chromium; Markdown with its diagrams beside it; bad input named."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import chess
import pytest

from gbr_tui.core.publish.report import html_report, sections
from gbr_tui.core.publish.studies import Study
from tests.support.browser import STUDIES_PGN
from tests.support.process import run_gbr

KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1"  # spec section 3: =0323.12g3g1
ARVES = "8/K7/2nn4/8/8/1B1k4/1R6/8 w - - 0 1"  # spec section 4: a7d3 0116.00 b2b3c6d6 3/3+
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
MEN = "QRBNPqrbnp"


def random_study(rng: random.Random) -> chess.Board:
    """A legal position of two kings and one to three other men (a pawn drawn on the first or last
    rank stands there as a knight)."""
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 7)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square in squares[2 : 3 + rng.randint(0, 2)]:
            piece = chess.Piece.from_symbol(rng.choice(MEN))
            if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                piece = chess.Piece(chess.KNIGHT, piece.color)
            board.set_piece_at(square, piece)
        if board.is_valid():
            return board


def studies_pgn(count: int) -> str:
    """``count`` studies: Kubbel's and the ARVES vector first, then random ones."""
    rng = random.Random(29)
    fens = [KUBBEL, ARVES] + [random_study(rng).fen() for _ in range(count - 2)]
    games = []
    for number, fen in enumerate(fens, 1):
        result = "1/2-1/2" if number % 2 else "1-0"
        tags = {"Event": f"Source {number}", "Date": "1925.??.??", "White": f"Composer {number}"}
        tags |= {"Result": result, "SetUp": "1", "FEN": fen}
        games.append("".join(f'[{name} "{value}"]\n' for name, value in tags.items()) + f"\n{result}\n")
    return "\n".join(games)


class Index(HTMLParser):
    """What the page says: the summary's classes and counts, each section's code and the FEN of
    each study in it."""

    def __init__(self) -> None:
        super().__init__()
        self.summary: list[tuple[str, int]] = []
        self.sections: list[tuple[str, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "section":
            self.sections.append((found["data-code"] or "", []))
        elif tag == "figure":
            self.sections[-1][1].append(found["data-fen"] or "")
        elif tag == "li" and "data-code" in found:
            self.summary.append((found["data-code"] or "", int(found["data-count"] or "")))


@pytest.fixture(scope="module")
def report_400(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    (folder / "studies.pgn").write_text(studies_pgn(400))
    done = run_gbr("report", str(folder / "studies.pgn"), "-o", str(folder / "index.html"))
    assert done.status == 0, done.stderr
    return folder / "index.html"


def test_400_studies_are_indexed_in_gbr_order(report_400):
    page = Index()
    page.feed(report_400.read_text())
    codes = [code for code, _ in page.sections]
    assert codes == sorted(codes) and len(set(codes)) == len(codes)  # GBR order, each class once
    assert [code for code, _ in page.summary] == codes
    assert [count for _, count in page.summary] == [len(fens) for _, fens in page.sections]
    fens = [fen for _, section in page.sections for fen in section]
    assert len(fens) == 400
    where = {fen: code for code, section in page.sections for fen in section}
    assert where[KUBBEL] == "0323.12" and where[ARVES] == "0116.00"  # the published classes
    # A code without a 9 says both sides' men exactly (spec section 1): the studies of such a
    # class have the same men.
    for code, section in page.sections:
        men = {"".join(sorted(char for char in fen.split()[0] if char.isalpha())) for fen in section}
        assert "9" in code or len(men) == 1, (code, men)


def test_the_page_needs_no_network(report_400):
    text = report_400.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text, re.IGNORECASE)
    assert "<script" not in text and "@import" not in text and "url(" not in text


@pytest.mark.slow  # Chromium takes seconds of CPU to start
@pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("GBR_TUI_REQUIRE_BROWSER"), reason="needs Chromium (.ci/run installs it)"
)
def test_the_page_in_headless_chromium(report_400, tmp_path):
    """Chromium lays the page out offline: its DOM keeps every section, and a screenshot is
    taken (GBR_TUI_REPORT_SCREENSHOT=PATH keeps it: the docs' report.png)."""
    assert CHROMIUM is not None
    base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'profile'}"]
    base.append("--host-resolver-rules=MAP * ~NOTFOUND")  # no network, should the page ask for it
    dom = subprocess.run([*base, "--dump-dom", report_400.as_uri()], capture_output=True, text=True, timeout=120)
    page = Index()
    page.feed(dom.stdout)
    assert len(page.sections) == len(page.summary) > 10
    assert sum(len(fens) for _, fens in page.sections) == 400
    shot = Path(os.environ.get("GBR_TUI_REPORT_SCREENSHOT") or tmp_path / "report.png")
    subprocess.run(
        [*base, f"--screenshot={shot}", "--window-size=1200,1600", "--hide-scrollbars", report_400.as_uri()],
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert shot.read_bytes().startswith(b"\x89PNG")


def test_untrusted_tags_are_escaped_and_made_printable():
    study = Study(
        "x.pgn", 1, 1, "0000.00", chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), None, "<script>\x1b[31m", "A & B", None
    )
    page = html_report("<b>title</b>", sections([study]))
    assert "<script>" not in page and "&lt;script&gt;\\x1b[31m" in page and "A &amp; B" in page
    assert "<title>&lt;b&gt;title&lt;/b&gt;</title>" in page


def test_markdown_links_its_diagrams_and_bad_records_are_named(tmp_path):
    source = tmp_path / "studies.pgn"
    source.write_text(STUDIES_PGN)
    done = run_gbr("report", str(source), "-o", str(tmp_path / "index.md"))
    # Game 4's FEN has seven ranks (line 38, tests/support/browser.py): named, left out.
    assert done.status == 1 and f"{source}:38: record 4:" in done.stderr
    page = (tmp_path / "index.md").read_text()
    headings = re.findall(r"^## (\S+)", page, re.MULTILINE)
    assert headings == ["0100.00", "0323.12", "4888.88"]  # spec: KR v K, Kubbel's, the array
    links = re.findall(r"!\[[^]]*\]\(([^)]+)\)", page)
    assert len(links) == 4 and all((tmp_path / link).read_text().startswith("<svg") for link in links)
    # Kubbel's study: result 1/2-1/2 is a draw; composer and source from its tags.
    assert "`=0323.12g3g1a3a2e1g8h6c3c6` Kubbel, Leonid · Shakhmaty 1925" in page
    bad = run_gbr("report", str(source), "-o", str(tmp_path / "missing" / "index.html"))
    assert bad.status == 1 and "missing/index.html: cannot write" in bad.stderr
    assert run_gbr("report", str(source), "-o", str(tmp_path / "index.txt")).status == 2
