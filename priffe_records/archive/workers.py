"""``priffe import --jobs N``: parties read and checked in worker processes, written here.

The file is cut into slices of whole parties by
:func:`priffe_records.rules.parallel.map_parties`; a worker reads its slice, checks
each partie through the archive's streaming door to the engine
(:func:`~priffe_records.archive.engine.check_stream`) and sends back compact rows:
each record's canonical text, hash, line, what the store needs of it, and its facts.
This process, the one SQLite writer, classifies each partie against the database
and writes it inside the file's one transaction, exactly as one process would.

A partie with deals already stored (a correction, a file that grew, a partie the
file repeats) needs the whole-partie classification of the one-process path: its
slice is read again here and stored that way. A file that is not cut (small, one
partie, or one the reader must read whole) is streamed here as with one job.

Memory stays about one job's whatever the file: a slice's rows take some 14 times its
bytes, so slices are small (:data:`SLICE`) and at most ``2 * jobs`` are out at a time;
a slice that could not be cut that small (one huge partie, or the rest of a file whose
parties the cuts kept missing) is only outlined by its worker and streamed here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from priffe_records.archive import engine
from priffe_records.archive.classify import (
    Item,
    Kind,
    PartieWriter,
    Seen,
    by_partie,
    canonical_text,
    content_hash,
    describe,
    store_group,
)
from priffe_records.archive.identity import Head, PartieKey, partie_key
from priffe_records.archive.raw import RawReader
from priffe_records.archive.rows import Described, Ready, digest_of, ready
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record, partie_head
from priffe_records.format.splitter import Chunk, Decoded, split
from priffe_records.rules.gcscope import collector_tuned
from priffe_records.rules.parallel import Piece, Sliced, map_parties

if TYPE_CHECKING:
    from priffe_records.archive.store import Store

SLICE = 1 << 19  # bytes of file per slice sent back as rows (about 7 MB of them)
ROWS_AT_MOST = 2 * SLICE  # a bigger slice is streamed by the parent, not sent as rows

# One record as a worker sends it: the store's view of it, its rows ready to insert
# (rows.ready: canonical text and hash included), its raw key (None: it has none).
Sent = tuple[Described, Ready, bytes | None]
# A partie as a worker checked it: its Event, Site and Date (where the slices join), its
# identity (where the store puts it), and what the engine gave, in order.
SentPartie = tuple[Head | None, PartieKey | None,
                   list[Sent | engine.RubberFacts | engine.FindingRow]]


def check_piece(piece: Piece, *, label: str) -> Sliced[list[SentPartie] | None]:
    """In a worker: read one slice and check each of its parties (see the module doc).

    A slice over :data:`ROWS_AT_MOST` is only outlined (its records and parties counted,
    value ``None``): the parent streams it, in the memory of one partie.
    """
    if piece.whole:
        return Sliced(None, 0, None, None)  # not cut: the parent streams the file itself
    rows = piece.end - piece.start <= ROWS_AT_MOST
    parties: list[SentPartie] = []
    count = 0
    opens = False  # the slice's first item is a record (so it opens a partie)
    reader = RawReader(_chunks(piece), label, None)
    keys = reader.keys
    with collector_tuned():
        for group in by_partie(reader.records()):
            queue: deque[tuple[str, str, int, Described, bytes | None]] = deque()
            head: list[Record] = []  # the partie's first readable record

            def fed(group: Iterator[Record | BadRecord] = group,
                    queue: deque[tuple[str, str, int, Described, bytes | None]] = queue,
                    head: list[Record] = head) -> Iterator[Record | BadRecord]:
                nonlocal count, opens
                for record in group:
                    count += 1
                    if isinstance(record, Record):
                        opens = opens or count == 1
                        if not head:
                            head.append(record)
                    raw = keys.pop(id(record), None)
                    if rows:
                        text = canonical_text(record) if isinstance(record, Record) \
                            else record.text
                        line = record.location.line if record.location else 0
                        queue.append((text, content_hash(text), line, describe(record), raw))
                    yield record

            events: list[Sent | engine.RubberFacts | engine.FindingRow] = []
            if not rows:
                deque(fed(), maxlen=0)  # outlined: its parties and records counted only
            for checked in engine.check_stream(fed()) if rows else ():
                if isinstance(checked, engine.DealFacts):
                    text, digest, line, desc, raw = queue.popleft()
                    events.append((desc, ready(text, digest, line, desc, checked), raw))
                else:
                    events.append(checked)
            parties.append((partie_head(head[0]), partie_key(head[0]), events) if head
                           else (None, None, events))
    first = parties[0][0] if parties and opens else None
    return Sliced(parties if rows else None, count, first,
                  parties[-1][0] if parties else None)


def _chunks(piece: Piece) -> Iterator[Chunk]:
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

    ``skip``: no value of the file inherits, so a partie read here (not cut, or with
    stored deals) may be recognised by its raw texts unparsed (:mod:`raw`).
    """
    written: set[PartieKey] = set()  # parties of this file stored so far
    done_bytes = 0

    def tick(records: int) -> None:
        if progress is not None:
            progress(done_bytes, records)

    for done in map_parties(path, partial(check_piece, label=label), jobs=jobs, most=SLICE):
        sent = done.value
        if sent is None or _needs_whole(store, sent, written):
            reader = RawReader(_chunks(done.piece), label, store.known if skip else None)
            store.raw_keys = reader.keys
            for group in by_partie(reader.items()):
                store_group(store, reader, group, summary, reject_invalid, tick)
        else:
            for _, key, events in sent:
                _store_sent(store, key, events, summary, reject_invalid, tick)
        written.update(key for _, key, _ in sent or () if key is not None)
        done_bytes = done.piece.end
        tick(summary["records"])


def _needs_whole(store: Store, sent: list[SentPartie], written: set[PartieKey]) -> bool:
    """Whether a partie of the slice has deals stored already (then the one-process path
    decides what supersedes what)."""
    keys: set[PartieKey] = set()
    for _, key, events in sent:
        if key is None:
            continue
        if key in written or key in keys:
            return True
        keys.add(key)
        partie_id = store.find_partie(key, partial(_firsts, events))
        if partie_id is not None and store.db.execute(
                "SELECT 1 FROM deals WHERE partie_id = ? LIMIT 1", [partie_id]).fetchone():
            return True
    return False


def _firsts(events: list[Sent | engine.RubberFacts | engine.FindingRow]) -> list[str]:
    """The hashes of a sent partie's first two readable records (Store.find_partie)."""
    return [digest_of(e[1]) for e in events if isinstance(e, tuple) and not e[0][0]][:2]


def _store_sent(store: Store, key: PartieKey | None,
                events: list[Sent | engine.RubberFacts | engine.FindingRow],
                summary: dict[str, int], reject_invalid: bool,
                progress: Callable[[int], None]) -> None:
    """A partie with no stored deals, as a worker checked it: written as the one-process
    path writes it (a text met before in the partie or stored anywhere is a duplicate)."""
    partie_id = store.find_partie(key) if key is not None else None
    stored = store.existing([digest_of(e[1]) for e in events if isinstance(e, tuple)])
    seen: set[str] = set()
    writer = PartieWriter(store, partie_id, key, summary, reject_invalid, progress, Seen())
    loose: list[engine.FindingRow] = []
    for event in events:
        if isinstance(event, tuple):
            desc, r, raw = event
            digest = digest_of(r)
            store.met.add(digest[:16])
            if raw is not None:
                store.remember_raw(raw, digest)
            kind: Kind = "elsewhere" if digest in seen or digest in stored else "new"
            seen.add(digest)
            writer.deal(Item(None, "", digest, 0, kind, sent=desc), r)
        elif isinstance(event, engine.RubberFacts):
            writer.rubber(event)
        else:
            loose.append(event)
    writer.finish(loose)
