"""``priffe import --jobs N``: a file read and checked in worker processes, written here.

The file is cut as ``validate --jobs`` cuts it, anywhere a record starts afresh, a file of
one long partie too (:func:`priffe_records.rules.parallel.relay`). A worker reads its
slice and does at once what needs nothing before it: each record parsed, analysed by its
family, its canonical text and hash made. It then takes the state the slice before ended
with (:class:`ImportState`: the open partie's books through the archive's door to the
engine, :class:`~priffe_records.archive.engine.StreamCheck`, and the records still
waiting for them), goes on from it, and hands its own on. So the books hear every deal in
file order, and a partie cut anywhere comes out as one process checks it. It sends back
compact rows: each record's canonical text, hash, line, what the store needs of it and
its facts, with where each partie opens, its key, and where it ends.

This process, the one SQLite writer, writes each partie inside the file's one
transaction as it comes, exactly as one process would. A partie with deals already
stored (a correction, a file that grew, a partie the file repeats) needs the one-process
path's whole-partie classification: it is read again here from where it opened and
stored that way. A file that is not cut (small, or one the reader must read whole) is
streamed here as with one job.

Memory stays about one job's whatever the file: a slice's rows take some 14 times its
bytes, so slices are small (:data:`~priffe_records.rules.parallel.SLICE`) and at most
``2 * jobs`` are out at a time.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING, cast

from priffe_records.archive import engine
from priffe_records.archive.classify import (
    Item,
    Kind,
    PartieWriter,
    Seen,
    canonical_text,
    content_hash,
    describe,
    store_chunks,
)
from priffe_records.archive.identity import PartieKey, partie_key
from priffe_records.archive.raw import RawReader
from priffe_records.archive.rows import Described, Ready, digest_of, ready
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record, partie_head
from priffe_records.format.splitter import Chunk, Decoded, split
from priffe_records.rules.gcscope import collector_tuned
from priffe_records.rules.parallel import Channel, Piece, relay
from priffe_records.rules.partie import Step, lost_head, steps

if TYPE_CHECKING:
    from priffe_records.archive.store import Store

# One record as a worker sends it: the store's view of it, its rows ready to insert
# (rows.ready: canonical text and hash included), its raw key (None: it has none).
Sent = tuple[Described, Ready, bytes | None]
# A record waiting for its facts: canonical text, hash, line, the store's view, raw key.
_Waiting = tuple[str, str, int, Described, bytes | None]


@dataclass(frozen=True, slots=True)
class Opened:
    """A partie opens at the slice's ``at``-th item (0-based): where it is read again."""

    at: int


@dataclass(frozen=True, slots=True)
class Keyed:
    """The open partie's key, from its first readable record."""

    key: PartieKey


@dataclass(frozen=True, slots=True)
class Ended:
    """The open partie ends here."""


# What a worker sends back, in file order.
Event = Sent | engine.RubberFacts | engine.FindingRow | Opened | Keyed | Ended


@dataclass(slots=True)
class ImportState:
    """What a slice hands the next: the open partie (as the archive groups records: the
    same Event, Site and Date), its books, and its records still waiting for them."""

    head: tuple[str | None, ...] | None = None  # the open partie's, as by_partie keys it
    check: engine.StreamCheck | None = None  # the open partie's books and held items
    position: int = 0  # items of the open partie so far (the engine numbers from 1)
    keyed: bool = False  # the open partie's key was sent
    waiting: deque[_Waiting] = field(default_factory=deque)

    def feed(self, at: int, record: Record | BadRecord, step: Step, waiting: _Waiting,
             out: list[Event]) -> None:
        """One record of the slice (its ``at``-th, analysed as ``step``) into ``out``."""
        head = partie_head(record) if isinstance(record, Record) else lost_head(record)
        if self.check is None or (head is not None and self.head is not None
                                  and head != self.head):
            self.end(out)
            self.check, self.position, self.keyed = engine.StreamCheck(), 0, False
            out.append(Opened(at))
        if head is not None:
            self.head = head
        if not self.keyed and isinstance(record, Record):
            out.append(Keyed(partie_key(record)))
            self.keyed = True
        self.position += 1
        self.waiting.append(waiting)
        assert self.check is not None
        moved = step.moved(self.position - step.position) \
            if step.position != self.position else step
        for checked in self.check.feed(moved, record):
            self._out(checked, out)

    def end(self, out: list[Event]) -> None:
        """The open partie ends (a new one opens, or the file ends)."""
        if self.check is None:
            return
        for checked in self.check.end():
            self._out(checked, out)
        out.append(Ended())
        self.check = None

    def _out(self, checked: engine.Checked, out: list[Event]) -> None:
        if isinstance(checked, engine.DealFacts):
            text, digest, line, desc, raw = self.waiting.popleft()
            out.append((desc, ready(text, digest, line, desc, checked), raw))
        else:
            out.append(checked)


def import_piece(piece: Piece, inbox: Channel, outbox: Channel, *, label: str
                 ) -> list[Event] | None:
    """In a worker: read, analyse and hash one slice, then, from the state the slice before
    ended with, check it with its parties' books (see the module doc).

    ``None``: the file was not cut (the parent streams it), or a slice before failed.
    """
    if piece.whole:
        outbox.send(inbox.recv())
        return None
    with collector_tuned():
        reader = RawReader(_chunks(piece), label, None)
        records = list(reader.records())
        keys = reader.keys
        waiting = [_prepared(record, keys.pop(id(record), None)) for record in records]
        analysed = list(steps(records))
        state: ImportState | None = inbox.recv()
        if state is None:
            outbox.send(None)
            return None
        out: list[Event] = []
        for at, (record, step, wait) in enumerate(zip(records, analysed, waiting,
                                                      strict=True)):
            state.feed(at, record, step, wait, out)
        if piece.end >= os.path.getsize(piece.path):  # the last slice: the file ends
            state.end(out)
    outbox.send(state)
    return out


def _prepared(record: Record | BadRecord, raw: bytes | None) -> _Waiting:
    """What a record's rows need besides its facts, made beside the other slices."""
    text = canonical_text(record) if isinstance(record, Record) else record.text
    line = record.location.line if record.location else 0
    return text, content_hash(text), line, describe(record), raw


def _chunks(piece: Piece) -> Generator[Chunk, None, None]:
    """The reader's chunks of a piece, numbered as in the file, read as they are wanted."""
    if piece.whole:
        with open(piece.path, "rb") as fh:
            yield from split(Decoded(fh))
        return
    with piece.open() as fh:
        yield from split(Decoded(fh), piece.first_line)


def store_pieces(store: Store, path: str, label: str, jobs: int, summary: dict[str, int],
                 reject_invalid: bool, progress: Callable[[int, int], None] | None, *,
                 skip: bool = False) -> None:
    """Import ``path`` with ``jobs`` worker processes into the open transaction.

    ``skip``: no value of the file inherits, so a partie read here (a file not cut, or a
    partie with stored deals) may be recognised by its raw texts unparsed (:mod:`raw`).
    """
    writing = _Writing(store, label, summary, reject_invalid, progress, skip)
    for done in relay(path, partial(import_piece, label=label), ImportState(), jobs=jobs):
        if done.piece is None:
            continue  # the last slice ended the file's last partie itself
        events = cast(list[Event] | None, done.value)
        if events is None:
            writing.whole(done.piece)
        else:
            writing.slice(done.piece, events)


@dataclass(slots=True)
class _Partie:
    """A partie as this process receives it: held until it can be classified."""

    piece: Piece  # the slice it opens in
    at: int  # its first item's place in that slice
    key: PartieKey | None = None
    held: list[Event] = field(default_factory=list)  # until its writer is known
    writer: PartieWriter | None = None  # written as it comes
    again: bool = False  # has stored deals: read again here when it ends
    seen: set[str] = field(default_factory=set)  # its texts met in this slice
    loose: list[engine.FindingRow] = field(default_factory=list)


class _Writing:
    """The parent's side: each partie's rows written as the slices come, in file order."""

    def __init__(self, store: Store, label: str, summary: dict[str, int],
                 reject_invalid: bool, progress: Callable[[int, int], None] | None,
                 skip: bool) -> None:
        self.store, self.label, self.skip = store, label, skip
        self.summary, self.reject_invalid, self.progress = summary, reject_invalid, progress
        self.written: set[PartieKey] = set()  # parties of this file stored so far
        self.partie: _Partie | None = None
        self.stored: set[str] = set()  # texts stored before the slice being written
        self.done_bytes = 0

    def tick(self, records: int) -> None:
        if self.progress is not None:
            self.progress(self.done_bytes, records)

    def whole(self, piece: Piece) -> None:
        """A file not cut: streamed here, as with one job."""
        self._read_here(piece, 0, every=True)
        self.done_bytes = piece.end
        self.tick(self.summary["records"])

    def slice(self, piece: Piece, events: list[Event]) -> None:
        open_partie = self.partie
        if open_partie is not None and open_partie.writer is not None:
            # The slices before are in the database now, so the question below finds
            # their texts: the open partie's own set need hold only this slice's (held
            # for a whole partie it grew with the file, ~150 bytes a deal).
            open_partie.writer.flush()
            open_partie.seen.clear()
        # Which of the slice's texts are stored: one question, asked again after each
        # partie is written (its texts are stored then), not one a record.
        digests = [digest_of(e[1]) for e in events if isinstance(e, tuple)]
        self.stored = self.store.existing(digests)
        sent = 0  # records of the slice met so far
        for event in events:
            if isinstance(event, Opened):
                self.partie = _Partie(piece, event.at)
                continue
            partie = self.partie
            assert partie is not None  # every slice's events follow an Opened
            if isinstance(event, Ended):
                self._ended(partie)
                self.partie = None
                self.stored = self.store.existing(digests[sent:])
                continue
            if isinstance(event, Keyed):
                partie.key = event.key
            elif partie.again:
                pass  # read again here when it ends
            elif partie.writer is not None:
                self._write(partie, event)
            else:
                partie.held.append(event)
            sent += isinstance(event, tuple)
            self._decide(partie)
        self.done_bytes = piece.end
        self.tick(self.summary["records"])

    def _decide(self, partie: _Partie, ended: bool = False) -> None:
        """Once its key and first two readable texts are known (or it ended): write the
        partie as it comes, or, if it has deals stored, read it again when it ends."""
        if partie.writer is not None or partie.again:
            return
        firsts = [digest_of(e[1]) for e in partie.held
                  if isinstance(e, tuple) and not e[0][0]][:2]
        if not ended and (partie.key is None or len(firsts) < 2):
            return
        store, key = self.store, partie.key
        if key is not None and (key in self.written or self._has_deals(key, firsts)):
            partie.again, partie.held = True, []
            return
        partie_id = store.find_partie(key) if key is not None else None
        partie.writer = PartieWriter(store, partie_id, key, self.summary, self.reject_invalid,
                                     self.tick, Seen())
        held, partie.held = partie.held, []
        self.stored |= store.existing([digest_of(e[1]) for e in held if isinstance(e, tuple)])
        for event in held:
            self._write(partie, event)

    def _has_deals(self, key: PartieKey, firsts: list[str]) -> bool:
        """Whether the stored partie this one is (by key, or by its first texts) has deals:
        then the one-process path decides what supersedes what."""
        partie_id = self.store.find_partie(key, lambda: firsts)
        return partie_id is not None and self.store.db.execute(
            "SELECT 1 FROM deals WHERE partie_id = ? LIMIT 1", [partie_id]).fetchone() is not None

    def _write(self, partie: _Partie, event: Event) -> None:
        """One event of a partie with no stored deals, written as the one-process path
        writes it (a text met before in the partie or stored anywhere is a duplicate)."""
        writer, store = partie.writer, self.store
        assert writer is not None
        if isinstance(event, tuple):
            desc, r, raw = event
            digest = digest_of(r)
            store.met.add(digest[:16])
            if raw is not None:
                store.remember_raw(raw, digest)
            kind: Kind = "elsewhere" if digest in partie.seen or digest in self.stored \
                or digest in writer.seen.rejected else "new"
            partie.seen.add(digest)
            writer.deal(Item(None, "", digest, 0, kind, sent=desc), r)
        elif isinstance(event, engine.RubberFacts):
            writer.rubber(event)
        elif isinstance(event, engine.FindingRow):
            partie.loose.append(event)

    def _ended(self, partie: _Partie) -> None:
        self._decide(partie, ended=True)
        if partie.again:
            self._read_here(partie.piece, partie.at, every=False)
        elif partie.writer is not None:
            partie.writer.finish(partie.loose)
        if partie.key is not None:
            self.written.add(partie.key)

    def _read_here(self, piece: Piece, at: int, *, every: bool) -> None:
        """The one-process path from the slice's ``at``-th item: every partie to the end of
        the piece (``every``), or only the partie that opens there."""
        chunks = _chunks(piece if every else Piece(
            piece.path, piece.start, os.path.getsize(piece.path), piece.first_line,
            piece.index))
        try:
            store_chunks(self.store, islice(chunks, at, None), self.label, self.summary,
                         self.reject_invalid, self.tick, skip=self.skip, only_first=not every)
        finally:
            chunks.close()  # the file, when only a partie of it was wanted
