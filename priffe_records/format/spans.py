"""Where each record of a file starts, in lines and bytes, without parsing it.

For work split over processes (``validate --jobs``): the parent finds safe cut
points with :func:`record_spans`, a worker reads the bytes from one cut to the
next with ``read(…, first_line=span.first_line)`` and gets the same records and
locations as a reader of the whole file. The records are found by the reader's
own splitter, so the spans are the reader's records, one for one.
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO

from priffe_records.format.splitter import Decoded, split

# A record that opens with a tag pair: the reader starts a record there whatever
# came before, when a semi-empty line precedes it.
_TAG_START = re.compile(r'^\s*\[[A-Z][A-Za-z0-9_]*\s+"')
_ONE_TAG = re.compile(r'^\s*\[([A-Z][A-Za-z0-9_]*)\s+"((?:\\.|[^"\\])*)"')
_LINE_END = re.compile(rb"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class RecordSpan:
    """One record as the reader cuts it: lines, byte offset and what a cutter needs."""

    index: int  # records of the file before this one
    first_line: int  # as the record's Location.line
    last_line: int  # its last line that is not blank
    offset: int | None  # byte offset of first_line in the file; None for UTF-16
    fresh: bool  # a semi-empty line precedes it and it opens with '[Name "': a safe cut
    inherits: bool  # a value starts with '#' (PBN §4.8): it needs the records before
    tags: dict[str, str]  # raw values of the asked-for tags written on one line


def record_spans(source: str | os.PathLike[str] | IO[bytes], *,
                 tags: Iterable[str] = ("Event", "Site", "Date")) -> Iterator[RecordSpan]:
    """The reader's records of a file, in order, each with its first line's byte offset.

    ``source`` is a path (streamed) or a seekable binary file open at its start (its
    spans are gathered, then it is read again for the offsets). Offsets follow the
    reader's line ends (LF, CRLF and a lone CR), so the bytes from one span's offset
    to a later one's are exactly those lines of the file.
    """
    if isinstance(source, str | os.PathLike):
        with open(source, "rb") as fh, open(source, "rb") as again:
            yield from _spans(fh, again, tags)
        return
    start = source.tell()
    spans = list(_spans(source, None, tags))
    source.seek(start)
    if spans and spans[0].offset is None and not _wide(source):
        starts = _line_starts(source)
        for span in spans:
            yield _placed(span, starts)
        return
    yield from spans


def _wide(source: IO[bytes]) -> bool:
    start = source.tell()
    head = source.read(4)
    source.seek(start)
    return head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))


def _spans(source: IO[bytes], again: IO[bytes] | None,
           tags: Iterable[str]) -> Iterator[RecordSpan]:
    """Spans of ``source``; with ``again`` (the same file, at the same start) placed in bytes."""
    wanted = frozenset(tags)
    starts = _line_starts(again) if again is not None and not _wide(source) else None
    end = 0  # the last line of the record before
    for index, chunk in enumerate(split(Decoded(source))):
        found: dict[str, str] = {}
        inherits = False
        for line in chunk.lines:
            if '"#' in line:
                inherits = True
            m = _ONE_TAG.match(line)
            if m and m.group(1) in wanted and m.group(1) not in found:
                found[m.group(1)] = m.group(2)
        fresh = (bool(chunk.lines) and _TAG_START.match(chunk.lines[0]) is not None
                 and chunk.first_line > end + 1)
        last = chunk.first_line + len(chunk.lines) - 1
        end = last
        span = RecordSpan(index, chunk.first_line, last, None, fresh, inherits, found)
        yield span if starts is None else _placed(span, starts)


class _LineStarts:
    """Byte offsets of line starts, read forward once: the spans come in line order."""

    def __init__(self, source: IO[bytes]) -> None:
        self.source = source
        self.line = 1
        self.offset = source.tell()  # where self.line starts
        self.ends: Iterator[re.Match[bytes]] = iter(())  # line ends in self.data
        self.data = b""
        self.base = self.offset
        self.done = False

    def at(self, line: int) -> int:
        while self.line < line:
            found = next(self.ends, None)
            if found is None:
                if not self._refill():
                    break
                continue
            self.line += 1
            self.offset = self.base + found.end()
        return self.offset

    def _refill(self) -> bool:
        if self.done:
            return False
        more = self.source.read(1 << 16)
        # Bytes after the last counted line end stay; a CR at the end waits for an LF.
        rest = self.data[self.offset - self.base:]
        self.base = self.offset
        self.data = rest + more
        if not more:
            self.done = True
            self.ends = iter(())
            return False
        limit = len(self.data) - 1 if self.data.endswith(b"\r") else len(self.data)
        self.ends = _LINE_END.finditer(self.data, 0, limit)
        return True


def _line_starts(source: IO[bytes]) -> _LineStarts:
    return _LineStarts(source)


def _placed(span: RecordSpan, starts: _LineStarts) -> RecordSpan:
    return RecordSpan(span.index, span.first_line, span.last_line, starts.at(span.first_line),
                      span.fresh, span.inherits, span.tags)
