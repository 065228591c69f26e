"""A chess board drawn as one widget: 64 squares, coordinates on the edges, a cursor."""

from __future__ import annotations

from functools import cached_property

import chess
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

#: Outline glyphs for White, solid for Black, both in black ink as in printed diagrams: the sides
#: differ by shape (a white glyph on a light square could not be read).
UNICODE_GLYPHS = {
    "K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘", "P": "♙",
    "k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟",
}  # fmt: skip

#: Light squares, dark squares, and the ink of the men (both sides, as in printed diagrams). In
#: 16 colours (TERM=xterm) they become white, yellow and black: the squares stay apart and the
#: men dark on both. In ``GbrApp`` they are theme variables of the same names (gbr_tui.themes).
BOARD_COLOURS = {
    "board-light": "#e8d6b0",
    "board-dark": "#aa7744",
    "board-men": "#000000",
}

#: (square width, square height), largest first; the board takes the largest that fits.
CELL_SIZES = ((7, 3), (5, 2), (3, 1))
RANK_LABEL_WIDTH = 2
FILE_LABEL_HEIGHT = 1


def cell_size_for(width: int, height: int) -> tuple[int, int]:
    """The largest square size whose whole board fits in ``width`` x ``height`` cells."""
    for cell_width, cell_height in CELL_SIZES:
        if RANK_LABEL_WIDTH + 8 * cell_width <= width and 8 * cell_height + FILE_LABEL_HEIGHT <= height:
            return cell_width, cell_height
    return CELL_SIZES[-1]


class BoardView(Widget, can_focus=True):
    """Renders a ``chess.Board``; call ``redraw()`` after changing the board in place."""

    COMPONENT_CLASSES = {
        "board--light",
        "board--dark",
        "board--white",
        "board--black",
        "board--cursor",
        "board--coordinate",
    }

    DEFAULT_CSS = f"""
    BoardView {{
        width: auto;
        height: auto;
    }}
    BoardView > .board--light {{ background: {BOARD_COLOURS["board-light"]}; }}
    BoardView > .board--dark {{ background: {BOARD_COLOURS["board-dark"]}; }}
    BoardView > .board--white {{ color: {BOARD_COLOURS["board-men"]}; text-style: bold; }}
    BoardView > .board--black {{ color: {BOARD_COLOURS["board-men"]}; text-style: bold; }}
    BoardView > .board--cursor {{ text-style: reverse bold; }}
    BoardView > .board--coordinate {{ color: $text-muted; }}
    """

    cursor: reactive[chess.Square] = reactive(chess.E4, repaint=False)  # see watch_cursor
    flipped: reactive[bool] = reactive(False)
    ascii_mode: reactive[bool] = reactive(False)
    show_cursor: reactive[bool] = reactive(True)

    def __init__(self, board: chess.Board | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.board = board if board is not None else chess.Board(None)

    def set_board(self, board: chess.Board) -> None:
        self.board = board
        self.redraw()

    def get_content_width(self, container: Size, viewport: Size) -> int:
        cell_width, _ = cell_size_for(*self._room(container, viewport))
        return RANK_LABEL_WIDTH + 8 * cell_width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        _, cell_height = cell_size_for(*self._room(container, viewport))
        return 8 * cell_height + FILE_LABEL_HEIGHT

    def _room(self, container: Size, viewport: Size) -> tuple[int, int]:
        """The space to fit the board in: its container, or its max-width / max-height when set.

        A parent sized by its content (``auto``) offers only the board's last size, so the board
        would never grow; there, bound it with max-width / max-height (``vw``, ``vh``) instead.
        """
        width, height = container
        gutter_width, gutter_height = self.styles.gutter.totals
        if self.styles.max_width is not None:
            width = int(self.styles.max_width.resolve(container, viewport)) - gutter_width
        if self.styles.max_height is not None:
            height = int(self.styles.max_height.resolve(container, viewport)) - gutter_height
        return width, height

    def ranks_top_down(self) -> list[int]:
        return list(range(8)) if self.flipped else list(range(7, -1, -1))

    def files_left_right(self) -> list[int]:
        return list(range(7, -1, -1)) if self.flipped else list(range(8))

    def square_at(self, x: int, y: int) -> chess.Square | None:
        """The square under a point of the widget, or None on the coordinates."""
        cell_width, cell_height = cell_size_for(self.size.width, self.size.height)
        column, row = (x - RANK_LABEL_WIDTH) // cell_width, y // cell_height
        if x < RANK_LABEL_WIDTH or not (0 <= column < 8 and 0 <= row < 8):
            return None
        return chess.square(self.files_left_right()[column], self.ranks_top_down()[row])

    @cached_property
    def _no_color(self) -> bool:
        return self.app.no_color  # set once, at the app's start

    def dark_marker(self, square: chess.Square) -> str | None:
        """Where colours do not show the squares (ASCII mode, NO_COLOR), a dark square is marked
        with a dot, beside its man when it has one; None where colours show them."""
        dark = (chess.square_file(square) + chess.square_rank(square)) % 2 == 0
        if dark and (self.ascii_mode or self._no_color):
            return "." if self.ascii_mode else "·"
        return None

    def glyph(self, piece: chess.Piece | None, square: chess.Square) -> str:
        if piece is not None:
            return piece.symbol() if self.ascii_mode else UNICODE_GLYPHS[piece.symbol()]
        return self.dark_marker(square) or " "

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()
        self._part_styles.clear()

    def redraw(self) -> None:
        """Repaint the lines whose rank changed, after the board changed in place or the cursor
        moved: Textual then redraws those lines, not the whole board."""
        if not self._lines:
            self.refresh()
            return
        width = self.size.width
        changed = [Region(0, y, width, 1) for y, (key, _) in self._lines.items() if key != self._line_key(y)]
        if changed:
            self.refresh(*changed)

    def watch_cursor(self) -> None:
        self.redraw()

    def render_line(self, y: int) -> Strip:
        """One line of the board (Textual's line API), drawn anew only when its rank's men, the
        cursor on it, the view or the styles changed."""
        width = self.size.width
        cell_width, cell_height = cell_size_for(width, self.size.height)
        if y > 8 * cell_height:
            return Strip.blank(width, self._styles()["board"])
        key = self._line_key(y)
        cached = self._lines.get(y)
        if cached is not None and cached[0] == key:
            return cached[1]
        rank = self.ranks_top_down()[y // cell_height] if y < 8 * cell_height else None
        line = self._draw_line(rank, y % cell_height == cell_height // 2, cell_width)
        strip = line.adjust_cell_length(width, self._styles()["board"]).apply_offsets(0, y)
        self._lines[y] = (key, strip)
        return strip

    def _line_key(self, y: int) -> tuple:
        """What line ``y`` is drawn from: the view, and the men and the cursor on its rank."""
        width = self.size.width
        cell_width, cell_height = cell_size_for(width, self.size.height)
        rank = self.ranks_top_down()[y // cell_height] if y < 8 * cell_height else None
        return (width, cell_width, cell_height, self.flipped, self.ascii_mode, self._rank_state(rank))

    def _rank_state(self, rank: int | None) -> tuple[int, ...] | None:
        """What a rank's lines are drawn from: its men (as bitboards) and the cursor when on it."""
        if rank is None:
            return None
        board, mask = self.board, chess.BB_RANKS[rank]
        on_rank = self.show_cursor and chess.square_rank(self.cursor) == rank
        men = (board.occupied_co[chess.WHITE], board.pawns, board.knights, board.bishops, board.rooks, board.queens)
        return (*(bitboard & mask for bitboard in men), board.kings & mask, self.cursor if on_rank else -1)

    @cached_property
    def _lines(self) -> dict[int, tuple[tuple, Strip]]:
        """Each line's strip with what it was drawn from; emptied when the styles change."""
        return {}

    @cached_property
    def _part_styles(self) -> dict[str, Style]:
        """The styles of the board's parts, by component class, and the widget's own ("board");
        emptied when the styles change."""
        return {}

    def _styles(self) -> dict[str, Style]:
        if self._part_styles:
            return self._part_styles
        # The squares over the widget's own style; the men and the cursor partial on them: they
        # must not repaint the square's background. The coordinates stand on the widget's
        # background: full style, so that a translucent colour ($text-muted) is blended.
        # The widget's own style is read once, not a line at a time (it walks the ancestors).
        styles = {name: self.get_component_rich_style(name, partial=True) for name in self.COMPONENT_CLASSES}
        styles["board"] = self.rich_style
        for square in ("board--light", "board--dark"):
            styles[square] = styles["board"] + styles[square]
        styles["board--coordinate"] = self.get_component_rich_style("board--coordinate")
        self._part_styles.update(styles)
        return self._part_styles

    def _draw_line(self, rank: int | None, middle: bool, cell_width: int) -> Strip:
        """The file letters when ``rank`` is None, else one line of the rank's squares (the
        middle one carries the men), with the rank's number on the middle line."""
        styles = self._styles()
        coordinate = styles["board--coordinate"]
        if rank is None:
            files = "".join(chess.FILE_NAMES[f].center(cell_width) for f in self.files_left_right())
            return Strip([Segment(" " * RANK_LABEL_WIDTH + files, coordinate)])
        label = str(rank + 1) if middle else " "
        segments = [Segment(label.ljust(RANK_LABEL_WIDTH), coordinate)]
        for file in self.files_left_right():
            segments.append(Segment(*self._cell(chess.square(file, rank), middle, cell_width, styles)))
        return Strip(segments, RANK_LABEL_WIDTH + 8 * cell_width)

    def _cell(self, square: chess.Square, middle: bool, width: int, styles: dict[str, Style]) -> tuple[str, Style]:
        dark = (chess.square_file(square) + chess.square_rank(square)) % 2 == 0
        style = styles["board--dark" if dark else "board--light"]
        piece = self.board.piece_at(square)
        if piece is not None:
            style += styles["board--white" if piece.color == chess.WHITE else "board--black"]
        at_cursor = self.show_cursor and square == self.cursor
        if at_cursor:
            style += styles["board--cursor"]
        if not middle:
            return " " * width, style
        glyph = self.glyph(piece, square)
        body = f"[{glyph}]" if at_cursor else f" {glyph} "
        marker = self.dark_marker(square) if piece is not None else None
        if marker is not None:
            # The man keeps the square's dot beside it; the cursor's brackets take the sides of
            # the narrowest squares, so there the dots go around them only when they fit.
            body = f"{marker}{glyph}{marker}" if not at_cursor else body
            if at_cursor and width >= len(body) + 2:
                body = f"{marker}{body}{marker}"
        return body.center(width), style
