"""FEN, EPD and CSV positions classified through the encoder's batch path, many at a time.

The encoder vouches for the plain lines of a batch (numpy, when the batch is big enough); every
other line is classified on its own as before (``Collection._classify_fen``, where python-chess
judges), so records, their numbers and lines, and every message are those of reading line by line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from gbr_tui.core.collection.records import Item, Record, with_caption
from gbr_tui.core.collection.source import READ_ERRORS

if TYPE_CHECKING:
    from gbr_tui.core.collection.readers import Collection
    from gbr_tui.core.collection.tally import Tally

BATCH_LINES = 1 << 14  # lines classified at once
EPD_POSITION = re.compile(r"(?m)^[ \t]*(\S+(?:[ \t]+\S+){0,3})")
EPD_ID = re.compile(r'(?<![^\s;])id\s+"([^"]*)"')

#: What ``in_batches`` classifies: a record found bad already, or (number, line, position, the
#: whole EPD line or None, the caption printed beside it (a CSV column) or None).
Entry = Item | tuple[int, int, str, str | None, str | None]


def coalesced(blocks: Iterable[tuple[int, list[str]]]) -> Iterator[tuple[int, list[str]]]:
    """A source's blocks of lines joined into blocks of at least ``BATCH_LINES`` lines (the last
    may be shorter); what was read before a read fault is handed out before the fault."""
    first, pending = 0, []
    try:
        for start, lines in blocks:
            if not pending:
                first = start
            pending += lines
            if len(pending) >= BATCH_LINES:
                yield first, pending
                pending = []
    except READ_ERRORS:
        if pending:
            yield first, pending
        raise
    if pending:
        yield first, pending


def position_entries(collection: Collection, epd: bool) -> Iterator[Entry]:
    """The non-blank lines of a FEN or EPD collection, numbered, for ``in_batches``."""
    for first, lines in collection.source.blocks():
        for offset, text in enumerate(lines):
            if text and not text.isspace():
                collection._number += 1
                if not epd:
                    yield collection._number, first + offset, text.strip(), None, None
                else:
                    found = EPD_POSITION.match(text)
                    yield collection._number, first + offset, found.group(1) if found else text, text, None


def in_batches(collection: Collection, entries: Iterable[Entry]) -> Iterator[Item]:
    """Records for the entries, in order, a batch of ``BATCH_LINES`` at a time; the records
    read before a read fault are handed out before the fault."""
    batch: list[Entry] = []
    try:
        for entry in entries:
            batch.append(entry)
            if len(batch) >= BATCH_LINES:
                yield from _classified(collection, batch)
                batch = []
    except READ_ERRORS:
        yield from _classified(collection, batch)
        raise
    yield from _classified(collection, batch)


def _classified(collection: Collection, batch: list[Entry]) -> Iterator[Item]:
    positions = [entry[2] for entry in batch if type(entry) is tuple]
    vetted = collection.encoder.vet(positions)
    rejected = set(vetted.rejected)
    index = -1
    for entry in batch:
        if type(entry) is not tuple:
            yield entry
            continue
        index += 1
        number, line, position, whole, caption = entry
        if index in rejected:
            item = (
                collection._classify_fen(number, line, position)
                if whole is None
                else collection._classify_epd(number, line, whole)
            )
        else:
            headers, printed = {}, None
            if whole is not None:
                headers, printed = collection.epd_fields(whole, whole.find(position) + len(position))
            code, material = vetted.codes[index], vetted.material(index)
            item = Record(number, line, code, material, position, headers=headers, caption=printed)
        yield with_caption(item, caption) if caption is not None and type(item) is Record else item


def tally_positions(
    collection: Collection, tally: Tally, epd: bool, on_block: Callable[[], None] | None
) -> Iterator[Item]:
    """Count the plain lines of a FEN or EPD collection in ``tally`` a batch at a time; the
    records of the other lines are handed out, to be counted or reported as bad. The codes numpy
    vouched for are handed to the tally as numbers (no call a line), counted when it is read."""
    for first, lines in coalesced(collection.source.blocks()):
        if epd:
            texts = EPD_POSITION.findall("\n".join(lines))
            kept = [index for index, text in enumerate(lines) if text and not text.isspace()]
            if len(kept) != len(texts):  # a line the pattern does not read: each on its own
                texts = [EPD_POSITION.match(lines[index]) for index in kept]
                texts = [found.group(1) if found else "" for found in texts]
        else:
            texts = lines
        vetted = collection.encoder.vet(texts)
        if len(vetted.rejected) < len(texts):  # counted below: the file is a collection
            collection._classified_any = True
        number = collection._number
        blank = 0  # FEN: blank lines so far in the batch (they are no records)
        for index in vetted.rejected:
            if epd:
                yield collection._classify_epd(number + index + 1, first + kept[index], lines[kept[index]])
                continue
            text = lines[index]
            if not text or text.isspace():
                blank += 1
                continue
            yield collection._classify_fen(number + index + 1 - blank, first + index, text.strip())
        records = len(texts) - blank if not epd else len(texts)
        collection._number = number + records
        tally.classified += len(texts) - len(vetted.rejected)
        indices = vetted.code_indices()
        if indices is not None:
            tally.add_code_numbers([indices])
        else:
            tally.codes.update(vetted.codes)
            tally.codes.pop("", None)  # the rejected lines' place
        tally.add_packed(*vetted.nine_keys())
        if on_block is not None:
            on_block()
