"""Stored records recognised by their raw text, before they are parsed.

The reader cuts a file into chunks of lines and parses each chunk on its own; the
only thing that carries from one record to the next is PBN §4.8 inheritance
(``#``/``##`` values). So in a file, or the part of it before its first value that
may inherit, a chunk without cutting notes reads as the same record wherever it
stands, only its locations move: the SHA-256 of its lines (its *raw key*) names its
canonical text. Every import stores ``raw key → canonical hash`` in ``raw_texts``.

A re-import then asks, a window of chunks at a time, which raw keys name a text
stored now; such a chunk becomes a :class:`Known` item, not parsed. A partie of the
file whose every item is known and stored is one a full import would only count
("N duplicates"), so it is counted and nothing else; a partie with one unknown
record (new, corrected, grown) is parsed whole and stored the one-process way, as
before. Skipping needs the whole file free of inheritance (a skipped record would
be missing from the reader's memory); filling does not (keys stop at the first
chunk that may inherit).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

from priffe_records.format.errors import BadRecord
from priffe_records.format.reader import ChunkReader
from priffe_records.format.record import Record
from priffe_records.format.splitter import Chunk, may_inherit

_WINDOW = 500  # chunks looked up together


@dataclass(frozen=True, slots=True)
class Known:
    """A chunk whose raw text names a record stored now: what grouping and counting need."""

    chunk: Chunk
    raw: bytes
    digest: str  # the canonical text's hash
    bad: bool  # stored as unreadable: belongs to the partie around it
    head: tuple[str | None, str | None, str | None]  # Event, Site, Date


Item = Record | BadRecord | Known
Lookup = Callable[[list[bytes]], dict[bytes, tuple[str, bool, str | None, str | None,
                                                   str | None]]]


def raw_key(chunk: Chunk) -> bytes | None:
    """SHA-256 of the chunk's text (its lines, each ended by a line feed); None when the
    splitter left notes on it (a note depends on the chunk's neighbours: the record would
    not read the same elsewhere)."""
    if chunk.notes:
        return None
    return hashlib.sha256(chunk.text.encode("utf-8", "surrogatepass")).digest()


class RawReader:
    """The reader's records of a file's chunks, each parsed at most once and on demand.

    ``keys`` maps ``id(record)`` to the raw key of every record this reader parsed
    (the store takes it when it hashes the record). ``lookup`` (None: parse every
    chunk) says which raw keys name a stored text.
    """

    def __init__(self, chunks: Iterable[Chunk], name: str, lookup: Lookup | None) -> None:
        self.chunks = iter(chunks)
        self.lookup = lookup
        self.keys: dict[int, bytes] = {}
        self.inherits = False  # a chunk met so far may inherit: no keys from it on
        self.reader = ChunkReader(name)

    def parse(self, chunk: Chunk, raw: bytes | None) -> Record | BadRecord:
        """The chunk's record, its raw key remembered for the store."""
        record = self.reader.read(chunk)
        if raw is not None:
            self.keys[id(record)] = raw
        return record

    def items(self) -> Iterator[Item]:
        """Every chunk in file order, as a record or (looked up and stored) a Known."""
        while window := list(islice(self.chunks, _WINDOW)):
            keys: list[bytes | None] = []
            for chunk in window:
                if not self.inherits:
                    # A record cut whole keeps its text: no list of lines made.
                    self.inherits = may_inherit(chunk.text)
                keys.append(None if self.inherits else raw_key(chunk))
            found = self.lookup([k for k in keys if k is not None]) \
                if self.lookup is not None else {}
            for chunk, raw in zip(window, keys, strict=True):
                hit = found.get(raw) if raw is not None else None
                if hit is not None and raw is not None:
                    digest, bad, *head = hit
                    self.reader.skip(chunk)
                    yield Known(chunk, raw, digest, bad, (head[0], head[1], head[2]))
                else:
                    yield self.parse(chunk, raw)

    def records(self) -> Iterator[Record | BadRecord]:
        """Every chunk parsed, in file order."""
        for item in self.items():
            yield self.record(item)

    def record(self, item: Item) -> Record | BadRecord:
        """The record of an item: a Known one is parsed now."""
        if isinstance(item, Known):
            return self.parse(item.chunk, item.raw)
        return item
