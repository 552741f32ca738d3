"""``priffe import``: one producer of rows, one writer, ``--jobs`` only how many run it.

The producer reads records, analyses each by its family, makes its canonical text and
hash (:func:`_analysed`), then checks them with their parties' books through the
archive's door to the engine (:class:`ImportState`, around
:class:`~priffe_records.archive.engine.StreamCheck`): each record's rows ready to insert,
with where each partie opens, its key, and where it ends. The file is cut as ``validate
--jobs`` cuts it, anywhere a record starts afresh, a file of one long partie too
(:func:`priffe_records.rules.parallel.relay`): a worker does the first half of its slice
at once, then takes the state the slice before ended with, goes on from it and hands its
own on, so the books hear every deal in file order and a partie cut anywhere comes out
as one process checks it. A file not cut (one job, a small file, one the reader must read
whole) goes through the same producer here, streaming; only here can the archive be
asked which raw texts are stored (:mod:`~priffe_records.archive.raw`), so only here is a
stored record recognised unparsed.

This process, the one SQLite writer (:class:`_Writing`), writes each partie inside the
file's one transaction as it comes. A partie whose records are all recognised and stored
is only counted. A partie with deals already stored (a correction, a file that grew, a
partie the file repeats) needs the whole-partie classification: it is read again from
where it opened and stored that way
(:func:`~priffe_records.archive.classify.store_partie`).

Memory stays flat whatever the file: a slice's rows take some 14 times its bytes, so
slices are small (:data:`~priffe_records.rules.parallel.SLICE`) and at most ``2 * jobs``
are out at a time; a file not cut is written :data:`_WINDOW` events at a time.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from typing import IO, TYPE_CHECKING, cast

from priffe_records.archive import engine
from priffe_records.archive.classify import (
    Item,
    Kind,
    PartieWriter,
    canonical_text,
    content_hash,
    count_stored,
    describe,
    item_head,
    store_partie,
)
from priffe_records.archive.identity import PartieKey, partie_key
from priffe_records.archive.raw import Known, RawReader
from priffe_records.archive.rows import Described, Ready, digest_of, ready
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.format.splitter import Chunk, Decoded, split
from priffe_records.rules.gcscope import collector_tuned
from priffe_records.rules.parallel import Channel, Piece, relay
from priffe_records.rules.partie import Step, steps

if TYPE_CHECKING:
    from priffe_records.archive.store import Store

# One record as a worker sends it: the store's view of it, its rows ready to insert
# (rows.ready: canonical text and hash included), its raw key (None: it has none).
Sent = tuple[Described, Ready, bytes | None]
# A record waiting for its facts: canonical text, hash, line, the store's view, raw key.
_Waiting = tuple[str, str, int, Described, bytes | None]
# An item as the producer's first half leaves it, with the partie it names (item_head):
# a record with its step and what its rows need, or one not to check (None, None).
Head = tuple[str | None, ...] | None
Analysed = tuple[Record | BadRecord | Known, Head, Step | None, _Waiting | None]
_WINDOW = 100  # events of a file not cut written together (each ~14 times its bytes)


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
    """The open partie ends here, after ``items`` items (one a chunk of the file)."""

    items: int


# What a worker sends back, in file order.
Event = Sent | Known | engine.RubberFacts | engine.FindingRow | Opened | Keyed | Ended


@dataclass(slots=True)
class ImportState:
    """What a slice hands the next: the open partie (as the archive groups records: the
    same Event, Site and Date), its books, and its records still waiting for them."""

    head: Head = None  # the open partie's, as item_head names it
    check: engine.StreamCheck | None = None  # the open partie's books and held items
    position: int = 0  # items of the open partie so far (the engine numbers from 1)
    keyed: bool = False  # the open partie's key was sent
    waiting: deque[_Waiting] = field(default_factory=deque)
    opened: int = 0  # where the open partie opened (its Opened.at)
    # In this process only: the writer reads the open partie again, so the rest of it
    # is read (where it ends is wanted) but not analysed nor checked.
    quiet: bool = False

    def run(self, analysed: Iterable[Analysed], *, ends: bool) -> Iterator[Event]:
        """The producer's second half: the items in order (``ends``: the file's last) fed
        from this state, what each makes final as it comes."""
        out: list[Event] = []
        for at, (item, head, step, waiting) in enumerate(analysed):
            self.feed(at, item, head, step, waiting, out)
            yield from out
            out.clear()
        if ends:
            self.end(out)
            yield from out

    def feed(self, at: int, item: Record | BadRecord | Known, head: Head, step: Step | None,
             waiting: _Waiting | None, out: list[Event]) -> None:
        """One item of the slice (its ``at``-th, naming partie ``head``, analysed as
        ``step``) into ``out``."""
        if self.check is None or (head is not None and self.head is not None
                                  and head != self.head):
            self.end(out)
            self.check, self.position, self.keyed = engine.StreamCheck(), 0, False
            self.opened = at
            out.append(Opened(at))
        if head is not None:
            self.head = head
        self.position += 1
        if isinstance(item, Known):  # counted, or its partie read again, by the writer
            out.append(item)
            return
        if step is None or waiting is None:  # its partie is read again: not checked
            return
        if not self.keyed and isinstance(item, Record):
            out.append(Keyed(partie_key(item)))
            self.keyed = True
        self.waiting.append(waiting)
        assert self.check is not None
        moved = step.moved(self.position - step.position) \
            if step.position != self.position else step
        for checked in self.check.feed(moved, item):
            self._out(checked, out)

    def end(self, out: list[Event]) -> None:
        """The open partie ends (a new one opens, or the file ends)."""
        if self.check is None:
            return
        for checked in self.check.end():
            self._out(checked, out)
        out.append(Ended(self.position))
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

    ``None``: the file was not cut (the parent runs the same producer on it, streaming),
    or a slice before failed.
    """
    if piece.whole:
        outbox.send(inbox.recv())
        return None
    with collector_tuned(), piece.open() as fh:
        analysed = list(_analysed(RawReader(_chunks(piece, fh), label, None), None))
        state: ImportState | None = inbox.recv()
        if state is None:
            outbox.send(None)
            return None
        out = list(state.run(analysed, ends=piece.end >= os.path.getsize(piece.path)))
    outbox.send(state)
    return out


def _analysed(reader: RawReader, state: ImportState | None) -> Iterator[Analysed]:
    """The producer's first half: each item of the file in order, a record with its step
    and what its rows need besides its facts (made beside the other slices, in a worker).

    In this process (``state``: the producer's, which the writer may make quiet) a record
    ``reader`` recognises by its raw text (:class:`Known`) stays unparsed while no record
    of its partie is parsed, or once the writer will read the partie again: the writer
    counts a partie of them, or reads it again. Else, after a parsed record, the rest of
    its partie is parsed: the books hear every deal of a partie checked.
    """
    fed: deque[Record | BadRecord] = deque()
    analysis = steps(iter(fed.popleft, None))  # one step for each record fed
    head: Head = None
    mixed = False  # a record of the open partie was parsed
    for item in reader.items():
        h = item_head(item)  # a recognised record: its stored text's
        if h is not None and h != head:
            head, mixed = h, False
            if state is not None:
                state.quiet = False
        quiet = state is not None and state.quiet
        if isinstance(item, Known) and (quiet or not mixed):
            yield item, h, None, None
            continue
        mixed = True
        record = reader.record(item)
        if record is not item:
            h = item_head(record)
        raw = reader.keys.pop(id(record), None)
        if quiet:  # parsed for where the partie ends, no more
            yield record, h, None, None
            continue
        fed.append(record)
        yield record, h, next(analysis), _prepared(record, raw)


def _prepared(record: Record | BadRecord, raw: bytes | None) -> _Waiting:
    """What a record's rows need besides its facts."""
    text = canonical_text(record) if isinstance(record, Record) else record.text
    line = record.location.line if record.location else 0
    return text, content_hash(text), line, describe(record), raw


def _chunks(piece: Piece, fh: IO[bytes]) -> Iterator[Chunk]:
    """The reader's chunks of ``fh``, open at the piece's start, numbered as in the file."""
    return split(Decoded(fh), piece.first_line)


def store_pieces(store: Store, path: str, label: str, jobs: int, summary: dict[str, int],
                 reject_invalid: bool, progress: Callable[[int, int], None] | None, *,
                 skip: bool = False) -> None:
    """Import ``path`` into the open transaction, its slices produced by ``jobs`` worker
    processes, or the whole file here, streaming (one job, or a file not cut).

    ``skip``: no value of the file inherits, so a record read here may be recognised by
    its raw text unparsed (:mod:`raw`), and a partie read again from where it opens.
    """
    writing = _Writing(store, label, summary, reject_invalid, progress, skip)
    try:
        for done in relay(path, partial(import_piece, label=label), ImportState(), jobs=jobs):
            if done.piece is None:
                continue  # the last slice ended the file's last partie itself
            if done.value is not None:
                writing.slice(done.piece, cast(list[Event], done.value), done.piece.end)
                continue
            with open(done.piece.path, "rb") as fh:  # not cut: the same producer, here
                reader = RawReader(_chunks(done.piece, fh), label,
                                   store.known if skip else None)
                writing.producer = ImportState()
                events = writing.producer.run(_analysed(reader, writing.producer), ends=True)
                while window := list(islice(events, _WINDOW)):
                    writing.slice(done.piece, window, fh.tell())
    finally:
        if writing.again is not None:
            writing.again.close()


class _Again:
    """Parties with stored deals read again, forward from a piece's start, by one reader:
    the file is cut once more for all of them, not once for each, and a value inherited
    from a record before is remembered (the reader then reads the records between)."""

    def __init__(self, piece: Piece, label: str, *, inherits: bool) -> None:
        self.piece, self.inherits, self.at = piece, inherits, 0
        self.file = open(piece.path, "rb")  # noqa: SIM115 - closed by close()
        self.file.seek(piece.start)
        self.chunks = _chunks(piece, self.file)
        self.reader = RawReader((), label, None)

    def records(self, at: int, n: int) -> list[Record | BadRecord]:
        """The ``n`` records from the piece's ``at``-th item on."""
        skipped = islice(self.chunks, at - self.at)
        if self.inherits:
            self.reader.chunks = skipped
            for _ in self.reader.records():
                pass
            self.reader.keys.clear()
        else:
            for _ in skipped:
                pass
        self.reader.chunks = islice(self.chunks, n)
        self.at = at + n
        return list(self.reader.records())

    def close(self) -> None:
        self.file.close()


@dataclass(slots=True)
class _Partie:
    """A partie as this process receives it: held until it can be classified."""

    piece: Piece  # the slice it opens in
    at: int  # its first item's place in that slice
    key: PartieKey | None = None
    held: list[Event] = field(default_factory=list)  # until its writer is known
    writer: PartieWriter | None = None  # written as it comes
    again: bool = False  # has stored deals: read again here when it ends
    counted: bool = False  # every record recognised and stored: only counted
    known: list[str] = field(default_factory=list)  # texts recognised by their raw texts
    seen: set[str] = field(default_factory=set)  # its texts met in this slice
    loose: list[engine.FindingRow] = field(default_factory=list)


class _Writing:
    """The one writer: each partie's rows written as they come, in file order."""

    def __init__(self, store: Store, label: str, summary: dict[str, int],
                 reject_invalid: bool, progress: Callable[[int, int], None] | None,
                 skip: bool) -> None:
        self.store, self.label, self.skip = store, label, skip
        self.summary, self.reject_invalid, self.progress = summary, reject_invalid, progress
        self.written: set[PartieKey] = set()  # parties of this file stored so far
        self.partie: _Partie | None = None
        self.stored: set[str] = set()  # texts stored before the slice being written
        self.done_bytes = 0
        self.again: _Again | None = None  # where parties with stored deals are read again
        self.producer: ImportState | None = None  # the producer, when it runs here

    def tick(self, records: int) -> None:
        if self.progress is not None:
            self.progress(self.done_bytes, records)

    def slice(self, piece: Piece, events: list[Event], done_bytes: int) -> None:
        """The events of a slice (or of a window of a file not cut), read to ``done_bytes``."""
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
                self._ended(partie, event.items)
                self.partie = None
                self.stored = self.store.existing(digests[sent:])
                continue
            if isinstance(event, Keyed):
                partie.key = event.key
            elif partie.again or partie.counted:
                pass  # read again here when it ends
            elif partie.writer is not None:
                self._write(partie, event)
            elif isinstance(event, Known):
                partie.known.append(event.digest)
            else:
                partie.held.append(event)
            sent += isinstance(event, tuple)
            self._decide(partie)
        self.done_bytes = done_bytes
        self.tick(self.summary["records"])

    def _decide(self, partie: _Partie, ended: bool = False) -> None:
        """Once its key and first two readable texts are known (or it ended): write the
        partie as it comes, or, if it has deals stored, read it again when it ends. A
        partie that opens with records recognised by their raw texts is counted when all
        are stored, else read again."""
        if partie.writer is not None or partie.again or partie.counted:
            return
        if partie.known:
            # Counted when every text is stored now (an earlier correction in the file
            # may have replaced one since it was looked up): nothing new, nothing corrected.
            if partie.held or (ended and len(self.store.existing(partie.known))
                               < len(set(partie.known))):
                self._again(partie)
            elif ended:
                self._count(partie.known)
                partie.counted = True
            return
        firsts = [digest_of(e[1]) for e in partie.held
                  if isinstance(e, tuple) and not e[0][0]][:2]
        if not ended and (partie.key is None or len(firsts) < 2):
            return
        store, key = self.store, partie.key
        if key is not None and (key in self.written or self._has_deals(key, firsts)):
            self._again(partie)
            return
        partie_id = store.find_partie(key) if key is not None else None
        partie.writer = PartieWriter(store, partie_id, key, self.summary, self.reject_invalid,
                                     self.tick)
        held, partie.held = partie.held, []
        self.stored |= store.existing([digest_of(e[1]) for e in held if isinstance(e, tuple)])
        for event in held:
            self._write(partie, event)

    def _again(self, partie: _Partie) -> None:
        """The partie is read again when it ends: what is held of it now goes, and the
        producer, when it runs here and is still in it, stops checking the rest."""
        partie.again, partie.held, partie.known = True, [], []
        if self.producer is not None and self.producer.opened == partie.at \
                and self.producer.check is not None:
            self.producer.quiet = True

    def _count(self, known: list[str]) -> None:
        """A partie whose every record is stored: what a full import would do, count them."""
        self.store.met.update(d[:16] for d in known)
        count_stored(self.summary, len(known), self.tick)

    def _has_deals(self, key: PartieKey, firsts: list[str]) -> bool:
        """Whether the stored partie this one is (by key, or by its first texts) has deals:
        then the whole partie decides what supersedes what."""
        partie_id = self.store.find_partie(key, lambda: firsts)
        return partie_id is not None and self.store.db.execute(
            "SELECT 1 FROM deals WHERE partie_id = ? LIMIT 1", [partie_id]).fetchone() is not None

    def _write(self, partie: _Partie, event: Event) -> None:
        """One event of a partie with no stored deals (a text met before in the partie or
        stored anywhere is a duplicate)."""
        writer, store = partie.writer, self.store
        assert writer is not None
        if isinstance(event, tuple):
            desc, r, raw = event
            digest = digest_of(r)
            store.met.add(digest[:16])
            if raw is not None:
                store.remember_raw(raw, digest)
            kind: Kind = "elsewhere" if digest in partie.seen or digest in self.stored \
                or digest in writer.rejected else "new"
            partie.seen.add(digest)
            writer.deal(Item(None, "", digest, 0, kind, sent=desc), r)
        elif isinstance(event, engine.RubberFacts):
            writer.rubber(event)
        elif isinstance(event, engine.FindingRow):
            partie.loose.append(event)

    def _ended(self, partie: _Partie, items: int) -> None:
        self._decide(partie, ended=True)
        if partie.again:
            again = self.again
            if again is None or again.piece != partie.piece or again.at > partie.at:
                if again is not None:
                    again.close()
                again = self.again = _Again(partie.piece, self.label, inherits=not self.skip)
            self.store.raw_keys = again.reader.keys
            store_partie(self.store, again.records(partie.at, items), self.summary,
                         self.reject_invalid, self.tick)
        elif partie.writer is not None:
            partie.writer.finish(partie.loose)
        if partie.key is not None:
            self.written.add(partie.key)
