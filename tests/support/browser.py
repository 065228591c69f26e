"""The collection browser in tests: open it on files, wait for its classes, read its table and
status; and a small PGN of studies whose classes are worked out by hand."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from gbr_tui.app import make_app
from gbr_tui.core.collection import CollectionRequest
from gbr_tui.screens.collection import CollectionScreen
from gbr_tui.widgets.collection_lists import ClassTable
from gbr_tui.widgets.record_list import RecordList
from tests.support.tui import listed_rows

# Five games. Lines: game 1 is lines 1-10 (8 tags, a blank, "*"), game 2 starts at 12, game 3
# (6 tags) at 23, game 4 at 32 with its bad FEN tag on line 38, game 5 at 43.
STUDIES_PGN = """\
[Event "Shakhmaty"]
[Site "Moscow"]
[Date "1925.??.??"]
[White "Kubbel, Leonid"]
[Black "Draw"]
[SetUp "1"]
[FEN "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1"]
[Result "1/2-1/2"]

*

[Event "Rook ending"]
[Site "Riga"]
[Date "1930.01.01"]
[White "A"]
[Black "B"]
[SetUp "1"]
[FEN "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"]
[Result "1-0"]

1. Ra5+ Kd4 *

[Event "A game"]
[Site "Paris"]
[Date "1950.02.02"]
[White "C"]
[Black "D"]
[Result "*"]

1. e4 e5 *

[Event "Broken"]
[Site "Nowhere"]
[Date "1960.03.03"]
[White "E"]
[Black "F"]
[SetUp "1"]
[FEN "8/8/4k3/8/8/8/R3K3 w - - 0 1"]
[Result "*"]

1. Qh5 *

[Event "Rook ending again"]
[Site "Riga"]
[Date "1931.01.01"]
[White "G"]
[Black "H"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/R3K3 b - - 0 1"]
[Result "1-0"]

*
"""
# Start positions: game 1 is Kubbel's study, published as 0323.12 (spec section 3). Games 2 and
# 5 are KR v K: one White rook, 0100.00. Game 3 starts from the array: Q 1+3x1 = 4, R, B and N
# 2+3x2 = 8, eight pawns a side: 4888.88. Game 4's FEN has seven ranks: bad, line 38 (its
# start is needed in every mode). Results: both KR v K games 1-0 (White's score 100%), Kubbel's
# study 1/2-1/2 (50%), game 3 "*" (unknown: no score).
STUDIES_CLASSES = [
    ("0100.00", "2", "50.0%", "100.0%", "2/0/0/0", "KR v K"),
    ("0323.12", "1", "25.0%", "50.0%", "0/1/0/0", "KBBP v KRNPP"),
    ("4888.88", "1", "25.0%", "-", "0/0/0/1", "KQRRBBNNPPPPPPPP v KQRRBBNNPPPPPPPP"),
]


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text)
    return path


def browser(*paths: Path, **options) -> object:
    return make_app(files=CollectionRequest(tuple(map(str, paths)), **options))


async def loaded(pilot, before: CollectionScreen | None = None) -> CollectionScreen:
    """The browser (another than ``before``) once its classes are listed."""
    for _ in range(1000):
        screen = pilot.app.screen
        if isinstance(screen, CollectionScreen) and screen is not before and screen.listed:
            await pilot.pause()
            return screen
        await pilot.pause(0.02)
    raise AssertionError("the collection did not load")


def shown_classes(screen: CollectionScreen) -> list[tuple[str, ...]]:
    return listed_rows(screen.query_one(ClassTable))


def shown_lines(records: RecordList) -> list[str]:
    """The list's lines as drawn on screen, heading first."""
    return ["".join(segment.text for segment in records.render_line(y)).rstrip() for y in range(records.size.height)]


def status(screen: CollectionScreen) -> str:
    return str(screen.query_one("#collection-status", Static).content)


def kr_v_k_lines(count: int) -> str:
    """``count`` KR v K positions (0100.00): White's king on a8, Black's on h8, and the rook on
    a1, b1 ... h1, a2 ... h4, then a1 again."""
    squares = [f"{file}{rank}" for rank in "1234" for file in "abcdefgh"]
    lines = []
    for number in range(count):
        square = squares[number % len(squares)]
        rank_rows = ["8"] * 8
        rank_rows[0] = "K6k"
        file, rank = "abcdefgh".index(square[0]), int(square[1])
        rank_rows[8 - rank] = (str(file) if file else "") + "R" + (str(7 - file) if file < 7 else "")
        lines.append("/".join(rank_rows) + " w - - 0 1\n")
    return "".join(lines)
