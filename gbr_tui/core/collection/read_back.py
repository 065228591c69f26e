"""A record read back from its file at its byte offset, for the browser: what an index (in
memory or on disk) keeps instead of the record's text.

The record is read again the way its file was read (its format, its options), checked against
the men counted when it was first read, and refused when the file has changed since.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from gbr_tui.core.code import Rule
from gbr_tui.core.collection.formats import format_module
from gbr_tui.core.collection.readers import CollectionRequest
from gbr_tui.core.collection.records import BadRecord, CollectionError, Format, GamePositions, Record
from gbr_tui.core.collection.source import MAX_LINE
from gbr_tui.core.material import Material

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

#: A record read back from its source is read within this many bytes of its offset (a longer
#: game is told as not readable, not read on without end).
RECORD_BYTES = 16 * MAX_LINE
_CHUNK = 1 << 20  # bytes looked at a time for line ends


@dataclass(frozen=True)
class SourceFile:
    """A file as it was read: its name as shown, where it is, its size and modification time
    then; how to read one of its records alone (its format, not detected again); and, for CSV,
    the lines before its first record (its header), read before a record."""

    name: str
    path: str
    size: int
    mtime_ns: int
    request: CollectionRequest
    prefix: bytes = b""


def source_file(name: str, path: str, request: CollectionRequest, form: Format, position: GamePositions) -> SourceFile:
    """The file at ``path`` as it is now, to read records back from."""
    status = os.stat(path)
    wanted = CollectionRequest(
        (path,),
        format=form,
        game_positions=position,
        fen_column=request.fen_column,
        caption=request.caption,
        code_column=request.code_column,
    )
    return SourceFile(name, path, status.st_size, status.st_mtime_ns, wanted)


def csv_prefix(path: str, first_offset: int) -> bytes:
    """A CSV file's lines before its first record (its header), at most a line of MAX_LINE."""
    with open(path, "rb") as file:
        return file.read(first_offset) if first_offset <= MAX_LINE else file.readline(MAX_LINE)


def changed(source: SourceFile) -> bool:
    """Whether the file is not the one read (gone, or another size or modification time)."""
    try:
        status = os.stat(source.path)
    except OSError:
        return True
    return (status.st_size, status.st_mtime_ns) != (source.size, source.mtime_ns)


def read_back(
    source: SourceFile,
    number: int,
    line: int,
    offset: int,
    end: int,
    ply: int | None,
    material: Material,
    again: str,
) -> Record:
    """The record as it is read at its offset (up to ``end``, the next record's; within the
    file as it was read: the caller has checked it is unchanged); a game of every class is
    replayed to its ``ply``. CollectionError when it cannot be read, or is not the record
    counted (its men differ): ``again`` says what to do."""
    try:
        with open(source.path, "rb") as file:
            file.seek(offset)
            data = source.prefix + file.read(min(end - offset, RECORD_BYTES))
    except OSError as error:
        raise CollectionError(f"{source.name}: cannot be read ({error.strerror or error})") from None
    request = source.request
    # A file is read back as the format it was read as: its request names it (``source_file``).
    games = format_module(cast(Format, request.format)).HOLDS_GAMES and request.game_positions == GamePositions.ALL
    why = "it is not there"
    # The men are the same under either rule.
    with source.request.open(io.BytesIO(data), Rule.COUNT, name=source.name) as collection:
        for item in collection.records():
            if isinstance(item, BadRecord):
                why = item.reason
                continue
            if games and item.number != 1:  # its game is the range's first
                break
            if games and item.ply != ply:
                continue
            if item.material == material:
                return item
            why = "its men differ from those counted"
            break
    raise CollectionError(
        f"{source.name}:{line}: record {number} cannot be read back at its place in the file ({why}); {again}"
    )


def line_offsets(path: str, lines: ArrayLike) -> NDArray[np.int64]:
    """The byte offset where each of ``lines`` (1-based, in order, a line as often as it comes)
    starts, as a numpy array; line ends as the readers take them (LF, CR LF or CR). A line past
    the file's end has none (-1)."""
    import numpy as np

    wanted = np.asarray(lines, dtype=np.int64)
    offsets = np.full(len(wanted), -1, dtype=np.int64)
    starts_before = 1  # lines started before this chunk (line 1 starts at 0)
    base = 0
    given = np.searchsorted(wanted, 1, side="right")  # line 1 is at 0
    offsets[:given] = 0
    with open(path, "rb") as file:
        while given < len(wanted) and (chunk := file.read(_CHUNK)):
            if chunk.endswith(b"\r"):  # never cut a CR LF in two
                chunk += file.read(1)
            data = np.frombuffer(chunk, dtype=np.uint8)
            feeds = data == 10
            ends = np.flatnonzero(feeds | (data == 13))
            lone = ends[data[ends] == 13]
            followed = lone + 1 < len(data)
            crlf = lone[followed][feeds[lone[followed] + 1]]  # a CR before an LF ends no line
            if len(crlf):
                ends = np.setdiff1d(ends, crlf, assume_unique=True)
            # Line starts_before + k + 1 starts after the k-th line end of the chunk.
            last = starts_before + len(ends)
            stop = np.searchsorted(wanted, last, side="right")
            if stop > given:
                offsets[given:stop] = base + ends[wanted[given:stop] - starts_before - 1] + 1
                given = stop
            starts_before, base = last, base + len(chunk)
    return offsets
