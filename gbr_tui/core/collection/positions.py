"""FEN, EPD and CSV positions classified through the encoder's batch path, many at a time.

The encoder vouches for the plain lines of a batch (numpy, when the batch is big enough); every
other line is classified on its own as before (``Reading.classify_fen``, where python-chess
judges), so records, their numbers and lines, and every message are those of reading line by line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from gbr_tui.core.collection.reading import EPD_POSITION, Reading
from gbr_tui.core.collection.records import Item, Record, with_caption
from gbr_tui.core.collection.source import READ_ERRORS, lines_of
from gbr_tui.core.collection.tally import Tally

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from gbr_tui.core.fast import VettedBlock

BATCH_LINES = 1 << 14  # lines classified at once

#: What ``in_batches`` classifies: a record found bad already, or (number, line, position, the
#: whole EPD line or None, the caption printed beside it (a CSV column) or None).
Entry = Item | tuple[int, int, str, str | None, str | None]


def coalesced(blocks: Iterable[tuple[int, str, int]]) -> Iterator[tuple[int, str, int]]:
    """A source's text blocks (``Source.text_blocks``) joined into blocks of at least
    ``BATCH_LINES`` lines (the last may be shorter); what was read before a read fault is handed
    out before the fault."""
    first, count = 0, 0
    pending: list[str] = []
    try:
        for start, text, lines in blocks:
            if not pending:
                first = start
            pending.append(text)
            count += lines
            if count >= BATCH_LINES:
                yield first, "".join(pending), count
                pending, count = [], 0
    except READ_ERRORS:
        if pending:
            yield first, "".join(pending), count
        raise
    if pending:
        yield first, "".join(pending), count


def position_entries(reading: Reading, epd: bool) -> Iterator[Entry]:
    """The non-blank lines of a FEN or EPD collection, numbered, for ``in_batches``."""
    for first, lines in reading.source.blocks():
        for offset, text in enumerate(lines):
            if text and not text.isspace():
                reading.records_read += 1
                if not epd:
                    yield reading.records_read, first + offset, text.strip(), None, None
                else:
                    found = EPD_POSITION.match(text)
                    yield reading.records_read, first + offset, found.group(1) if found else text, text, None


def in_batches(reading: Reading, entries: Iterable[Entry]) -> Iterator[Item]:
    """Records for the entries, in order, a batch of ``BATCH_LINES`` at a time; the records
    read before a read fault are handed out before the fault."""
    batch: list[Entry] = []
    try:
        for entry in entries:
            batch.append(entry)
            if len(batch) >= BATCH_LINES:
                yield from _classified(reading, batch)
                batch = []
    except READ_ERRORS:
        yield from _classified(reading, batch)
        raise
    yield from _classified(reading, batch)


def _classified(reading: Reading, batch: list[Entry]) -> Iterator[Item]:
    positions = [entry[2] for entry in batch if type(entry) is tuple]
    vetted = reading.encoder.vet(positions)
    rejected = set(vetted.rejected)
    index = -1
    for entry in batch:
        if not isinstance(entry, tuple):
            yield entry
            continue
        index += 1
        number, line, position, whole, caption = entry
        if index in rejected:
            item = (
                reading.classify_fen(number, line, position)
                if whole is None
                else reading.classify_epd(number, line, whole)
            )
        else:
            headers: Mapping[str, str] = {}
            printed: str | None = None
            if whole is not None:
                headers, printed = reading.epd_fields(whole, whole.find(position) + len(position))
            code, material = vetted.codes[index], vetted.material(index)
            item = Record(number, line, code, material, position, headers=headers, caption=printed)
        yield with_caption(item, caption) if caption is not None and type(item) is Record else item


def tally_positions(reading: Reading, tally: Tally, epd: bool, on_block: Callable[[], None] | None) -> Iterator[Item]:
    """Count the plain lines of a FEN or EPD collection in ``tally`` a batch at a time; the
    records of the other lines are handed out, to be counted or reported as bad. The codes numpy
    vouched for are handed to the tally as numbers (no call a line), counted when it is read."""
    for first, text, count in coalesced(reading.source.text_blocks()):
        number = reading.records_read
        lines: list[str] | TextLines
        if epd:
            lines = lines_of(text)
            texts = EPD_POSITION.findall(text)
            kept = [index for index, line in enumerate(lines) if line and not line.isspace()]
            if len(kept) != len(texts):  # a line the pattern does not read: each on its own
                texts = [EPD_POSITION.match(lines[index]) for index in kept]
                texts = [found.group(1) if found else "" for found in texts]
            vetted = reading.encoder.vet(texts)
            vouched = len(texts) - len(vetted.rejected)
            if vouched:  # the file is a collection: its bad records may go out
                reading.classified_any = True
            for index in vetted.rejected:
                yield reading.classify_epd(number + index + 1, first + kept[index], lines[kept[index]])
            records = len(texts)
        else:  # the text vetted whole: only the lines it rejects are made strings
            vetted = reading.encoder.vet_text(text, count)
            vouched = count - len(vetted.rejected)
            if vouched:
                reading.classified_any = True
            lines = TextLines(text, vetted.line_ends)
            blank = 0  # blank lines so far in the batch (they are no records)
            for index in vetted.rejected:
                fen = lines[index]
                if not fen or fen.isspace():
                    blank += 1
                    continue
                yield reading.classify_fen(number + index + 1 - blank, first + index, fen.strip())
            records = count - blank
        reading.records_read = number + records
        tally.classified += vouched
        indices = vetted.code_indices()
        if indices is not None:
            tally.add_code_numbers([indices])
        else:
            tally.codes.update(vetted.codes)
            tally.codes.pop("", None)  # the rejected lines' place
        tally.add_packed(*vetted.nine_keys())
        if on_block is not None:
            on_block()


class TextLines:
    """The lines of a text with a line end after each, each cut out when asked: at ``ends``
    (where each ends, as numpy found them) when they are known, else all split when first asked."""

    def __init__(self, text: str, ends: NDArray[np.intp] | None) -> None:
        self._text, self._ends = text, ends
        self._lines: list[str] | None = None

    def __getitem__(self, index: int) -> str:
        if self._ends is not None:
            return self._text[int(self._ends[index - 1]) + 1 if index else 0 : int(self._ends[index])]
        if self._lines is None:
            self._lines = lines_of(self._text)
        return self._lines[index]

    @property
    def newline_text(self) -> str | None:
        """The whole text when each of its lines ends with a newline where numpy found it (the
        lines are then the text split at newlines), else None."""
        return self._text if self._ends is not None else None


@dataclass(frozen=True)
class VouchedLines:
    """A run of lines the batch path vouched for, with nothing else on them (no EPD fields), as
    records: their numbers, lines, men packed (``fast.VettedBlock.keys``) and codes as numbers
    (``fast.code_indices``); the first run of a block also has the block's codes with a 9 with
    their keys (``Tally.add_packed``); and where they are in ``texts``, the block's texts (as
    ``texts[i]``)."""

    numbers: Any  # numpy arrays, one entry a record
    lines: Any
    keys: Any
    code_indices: Any
    nine_codes: Any  # an entry a record of the block whose code has a 9
    nine_keys: Any
    indices: Any
    texts: list[str] | TextLines


def vouched_positions(reading: Reading, epd: bool) -> Iterator[Item | VouchedLines]:
    """Every record of a FEN or EPD collection in file order: the records of the lines the batch
    path does not vouch for (bad ones too) one at a time, between runs of the lines it vouches
    for (``VouchedLines``). An EPD line with more than its position is read on its own, for its
    fields and caption."""
    import numpy as np  # the batch path has imported it for blocks it vouches for

    for first, text, count in coalesced(reading.source.text_blocks()):
        lines: list[str] | TextLines
        texts: list[str] | TextLines
        if epd:
            lines = lines_of(text)
            kept = [index for index, text in enumerate(lines) if text and not text.isspace()]
            found = [EPD_POSITION.match(lines[index]) for index in kept]
            texts = [
                match.group(1) if match and match.end() == len(lines[index].rstrip()) else ""
                for index, match in zip(kept, found)
            ]
            vetted = reading.encoder.vet(texts)
            count = len(texts)
        else:  # the text vetted whole: only the lines it rejects are made strings
            vetted = reading.encoder.vet_text(text, count)
            lines = texts = TextLines(text, vetted.line_ends)
        rejected = vetted.rejected
        if len(rejected) == count:  # none vouched for (a small block): each on its own
            yield from _rejected_records(reading, first, lines, kept if epd else None, rejected)
            continue
        reading.classified_any = True
        # Some lines were vouched for: numpy vetted the block (the plain ``Vetted`` rejects all).
        block = cast("VettedBlock", vetted)
        ok = np.ones(count, dtype=bool)
        ok[rejected] = False
        if epd:
            numbers = reading.records_read + 1 + np.arange(count)
            line_numbers = first + np.array(kept)
        else:
            blank = np.zeros(count, dtype=bool)
            blank[[index for index in rejected if not lines[index] or lines[index].isspace()]] = True
            numbers = reading.records_read + np.cumsum(~blank)
            line_numbers = first + np.arange(count)
        vouched = np.flatnonzero(ok)
        codes = block.code_indices()
        nines = block.nine_keys()  # the block's, handed out with its first run
        start = 0  # of the vouched lines not handed out yet, in ``vouched``
        for stop, index in [*zip(np.searchsorted(vouched, rejected).tolist(), rejected), (len(vouched), None)]:
            if stop > start:
                run = vouched[start:stop]
                yield VouchedLines(
                    numbers[run], line_numbers[run], block.keys[run], codes[start:stop], *nines, run, texts
                )
                nines = nines[0][:0], nines[1][:0]
                start = stop
            if index is not None:
                yield from _rejected_records(reading, first, lines, kept if epd else None, [index], int(numbers[index]))
        reading.records_read = int(numbers[-1]) if len(numbers) else reading.records_read


def _rejected_records(
    reading: Reading,
    first: int,
    lines: list[str] | TextLines,
    kept: list[int] | None,
    rejected: Iterable[int],
    number: int | None = None,
) -> Iterator[Item]:
    """The records of lines the batch path left to python-chess (``kept``: an EPD block's
    non-blank lines); ``number``: the record's, for a single line (else counted here)."""
    for index in rejected:
        if kept is not None:
            if number is None:
                reading.records_read += 1
            yield reading.classify_epd(number or reading.records_read, first + kept[index], lines[kept[index]])
            continue
        text = lines[index]
        if not text or text.isspace():
            continue
        if number is None:
            reading.records_read += 1
        yield reading.classify_fen(number or reading.records_read, first + index, text.strip())
