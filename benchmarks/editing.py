"""Editing: keys per man to enter Kubbel's study, and key press to the code pane drawing the
new code, against a bare key handler.

    uv run python benchmarks/editing.py [EDITS] [TABLEBASES]

Keys per man: Kubbel's study (spec section 4: ``6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1``, 9 men,
published ``=0323.12g3g1``) is entered from an empty editor in each way the editor offers, every
key driven through Pilot, and the board is checked against the FEN at the end. A capital
counts as one key (its shift is not counted), as does each space, ``/`` and the ``enter`` that
ends an input.

In one Pilot run per app, a key event is posted to the app (as the terminal driver posts it)
and timed until the widget that shows the result is drawn with the new value: the code pane's
Digits for the editor, a Static for the baseline, a bare app whose key handler only rewrites
that Static. (Pilot's own ``press`` waits for idle in fixed sleeps, so it cannot time this.)
Goals: the editor's median under 10 ms, and at most 4 times the bare handler's. The apps take
turns, in five rounds, so that both see the same machine load.

Key to verdict: with a directory of Syzygy tables (TABLEBASES; by default the small ones the
tests keep), the same edit on KR v KR (``1K1k4/8/8/8/8/8/r7/2R5``) puts a White pawn on e4 and
takes it off: KRP v KR (5 men, when the directory has KRPvKR) and KR v KR in turn. Timed until
the code pane shows the code, and until it shows the tablebase's verdict on the new position
(probed in a worker). Goal: the verdict within a frame (1/60 s) of the code.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from collections.abc import Callable

import chess
from textual import events
from textual.app import App
from textual.widget import Widget
from textual.widgets import Digits, Static
from usage import answer_help

from gbr_tui.app import make_app
from gbr_tui.core import board_from_fen
from gbr_tui.widgets.code_pane import CodePane
from tests.support.tablebases import SYZYGY

GOAL_MS = 10.0
GOAL_RATIO = 4.0
ROUNDS = 5

KUBBEL_FEN = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"
KUBBEL_MEN = 9
#: Kubbel's men as printed (spec section 3), White first.
KUBBEL_LIST = "Kg3 Ba2 Be1 h6 / Kg1 Ra3 Ng8 c3 c6"
KUBBEL_UNSPACED = KUBBEL_LIST.replace(" ", "")
KUBBEL_SQUARES = {
    "g3": "K", "a2": "B", "e1": "B", "h6": "P", "g1": "k", "a3": "r", "g8": "n", "c3": "p", "c6": "p",
}  # fmt: skip

#: Each way in: its name and its keys (Pilot's key names, a character for each one typed).
WAYS = (
    ("g, file, rank, man (the cursor's keys)", [key for sq, man in KUBBEL_SQUARES.items() for key in ("g", *sq, man)]),
    ("m, men typed as printed, enter", ["m", *KUBBEL_LIST, "enter"]),
    ("m, men typed unspaced, enter", ["m", *KUBBEL_UNSPACED, "enter"]),
    ("i, the piece list as printed, enter", ["i", *KUBBEL_LIST, "enter"]),
    ("i, the piece list unspaced, enter", ["i", *KUBBEL_UNSPACED, "enter"]),
)

#: On a board with both kings (as a composer edits), put a White pawn on the cursor's square
#: (e4), then empty it: the code alternates between these.
KINGS = "4k3/8/8/8/8/8/8/4K3"
EDITS = (("P", "0000.10"), ("x", "0000.00"))


class Bare(App):
    """One Static that a key handler rewrites: about the least a Textual key press costs."""

    def compose(self):
        yield Static("0")

    def on_key(self) -> None:
        self.presses = getattr(self, "presses", 0) + 1
        self.query_one(Static).update(str(self.presses))


async def time_edits(
    app: App, edits: int, find_shown: Callable[[App], Widget], shown: Callable[[Widget], str], expected
) -> list[float]:
    timings = []
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        widget = find_shown(app)
        drawn = asyncio.Event()
        render = widget.render

        def render_and_check():
            if shown(widget) == want:
                drawn.set()
            return render()

        widget.render = render_and_check
        for index in range(edits):
            key, want = EDITS[index % 2][0], expected(index)
            drawn.clear()
            start = time.perf_counter()
            app.post_message(events.Key(key, key))
            await drawn.wait()
            timings.append(time.perf_counter() - start)
            await pilot.pause()  # let the screen settle before the next key (not timed)
    return timings


async def keys_per_man() -> None:
    """Enter Kubbel each way from an empty editor; print the keys per man; fail loudly when the
    board is not Kubbel's at the end."""
    print(f"keys per man, Kubbel's study ({KUBBEL_MEN} men) from an empty editor:")
    for name, keys in WAYS:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*keys)
            placement = app.editor.setup.board.board_fen()
        if placement != KUBBEL_FEN:
            raise SystemExit(f"{name}: the board is {placement}, not Kubbel's {KUBBEL_FEN}")
        print(f"  {name:42} {len(keys):3} keys, {len(keys) / KUBBEL_MEN:.2f} per man")


async def main(edits: int) -> None:
    await keys_per_man()
    editor: list[float] = []
    bare: list[float] = []
    # In rounds, each app in turn, so that both see the same machine load.
    for _ in range(ROUNDS):
        editor += await time_edits(
            make_app(board_from_fen(KINGS)),
            edits // ROUNDS,
            lambda app: app.screen.query_one(Digits),
            lambda digits: digits.value,
            lambda i: EDITS[i % 2][1],
        )
        bare += await time_edits(
            Bare(),
            edits // ROUNDS,
            lambda app: app.query_one(Static),
            lambda static: str(static.content),
            lambda i: str(i + 1),
        )
    editor_ms, bare_ms = statistics.median(editor) * 1000, statistics.median(bare) * 1000
    print(
        f"editor: median {editor_ms:6.2f} ms, 90th percentile {quantile(editor, 0.9) * 1000:6.2f} ms ({len(editor)} edits)"
    )
    print(f"bare:   median {bare_ms:6.2f} ms, 90th percentile {quantile(bare, 0.9) * 1000:6.2f} ms ({len(bare)} keys)")
    ratio = editor_ms / bare_ms
    print(f"goal < {GOAL_MS:.0f} ms: {'met' if editor_ms < GOAL_MS else 'NOT met'}")
    print(
        f"ratio editor / bare: {ratio:.2f}x; goal <= {GOAL_RATIO:.0f}x: {'met' if ratio <= GOAL_RATIO else 'NOT met'}"
    )


#: KR v KR, with the cursor's square (e4) empty: a White pawn there makes KRP v KR.
ROOKS = "1K1k4/8/8/8/8/8/r7/2R5"
FRAME_MS = 1000 / 60


def verdict_shown(pane: CodePane) -> str:
    """The position whose verdict the pane shows (its FEN), or nothing."""
    body = pane.query_one("#code-body", Static)
    verdict = pane.verdict
    return verdict.fen if verdict is not None and "table " in str(body.content) else ""


async def key_to_verdict(edits: int, tables: str) -> None:
    with_pawn = board_from_fen(ROOKS)
    with_pawn.set_piece_at(chess.E4, chess.Piece(chess.PAWN, chess.WHITE))
    fens = [with_pawn.fen(), board_from_fen(ROOKS).fen()]  # the pawn put, then taken off
    codes: list[float] = []
    verdicts: list[float] = []
    for _ in range(ROUNDS):
        codes += await time_edits(
            make_app(board_from_fen(ROOKS), tablebases=[tables]),
            edits // ROUNDS,
            lambda app: app.screen.query_one(Digits),
            lambda digits: digits.value,
            lambda i: ("0400.10", "0400.00")[i % 2],
        )
        verdicts += await time_edits(
            make_app(board_from_fen(ROOKS), tablebases=[tables]),
            edits // ROUNDS,
            lambda app: app.screen.query_one("#code-body", Static),
            lambda body: verdict_shown(body.screen.query_one(CodePane)),
            lambda i: fens[i % 2],
        )
    code_ms, verdict_ms = statistics.median(codes) * 1000, statistics.median(verdicts) * 1000
    print(f"KRP v KR and KR v KR in turn, tables in {tables}:")
    print(f"key to code:    median {code_ms:6.2f} ms, 90th percentile {quantile(codes, 0.9) * 1000:6.2f} ms")
    print(f"key to verdict: median {verdict_ms:6.2f} ms, 90th percentile {quantile(verdicts, 0.9) * 1000:6.2f} ms")
    late = verdict_ms - code_ms
    print(
        f"verdict after code: {late:.2f} ms; goal <= one frame ({FRAME_MS:.1f} ms): {'met' if late <= FRAME_MS else 'NOT met'}"
    )


def quantile(values: list[float], fraction: float) -> float:
    return sorted(values)[int(fraction * (len(values) - 1))]


if __name__ == "__main__":
    answer_help(__doc__)
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    asyncio.run(main(count))
    asyncio.run(key_to_verdict(count, sys.argv[2] if len(sys.argv) > 2 else str(SYZYGY)))
