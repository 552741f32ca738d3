"""Classifying a file's records against the archive and writing a partie's deals.

The import's one writer (:mod:`priffe_records.archive.workers`) hands each partie's
rows to one :class:`PartieWriter`, which writes through the
:class:`~priffe_records.archive.store.Store`. A partie with deals already stored is
read again and classified whole (:func:`store_partie`): for each record, whether it is
new, a correction, a duplicate or already stored, and the partie checked again with
its stored deals (:func:`write_partie`), as a removal recomputes one.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from priffe_records.archive import engine
from priffe_records.archive.identity import PartieKey, deal_ident, partie_key
from priffe_records.archive.raw import Known
from priffe_records.archive.rows import DEAL_COLUMNS, Described, Ready, Value, ready
from priffe_records.archive.store import COUNTS, Store, StoredDeal, Written
from priffe_records.format.errors import BadRecord
from priffe_records.format.reader import loads
from priffe_records.format.record import Location, Record, partie_head
from priffe_records.format.writer import format_record
from priffe_records.rules.partie import lost_head

_AT = DEAL_COLUMNS.index("imported_at")


def content_hash(text: str) -> str:
    """The identity of a record: SHA-256 of its canonical text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def canonical_text(record: Record) -> str:
    """A record on its own: inherited values written out, so it reads back alone."""
    return format_record(record, resolve_inheritance=True)


# ---------------------------------------------------------------- parties


def item_head(item: Record | BadRecord | Known) -> tuple[str | None, ...] | None:
    """The partie an item names (its Event, Site and Date), or ``None``: an unreadable
    record without all three belongs to the partie around it. A record recognised by its
    raw text (:class:`raw.Known`) names the head of its stored text."""
    if isinstance(item, Record):
        return partie_head(item)
    if isinstance(item, Known):
        return None if item.bad else item.head
    return lost_head(item)  # the first record of the next partie, read with its head


# ---------------------------------------------------------------- storing


Kind = Literal["new", "update", "here", "stored", "elsewhere"]


@dataclass(slots=True)
class Item:
    """One record of a partie on its way to the database.

    ``kind``: ``new`` (insert), ``update`` (supersedes stored deal ``deal_id``),
    ``here`` (already stored in this partie as ``deal_id``: refreshed),
    ``stored`` (in the archive only, not in the file: refreshed), ``elsewhere``
    (the same text is stored in another partie, or earlier in this file).
    """

    record: Record | BadRecord | None  # None: checked in a worker, ``sent`` says the rest
    text: str
    digest: str
    line: int
    kind: Kind
    deal_id: int | None = None
    old: StoredDeal | None = None
    from_file: bool = True
    sent: Described | None = None


def described(item: Item) -> Described:
    if item.sent is None:  # asked twice a record: kept
        item.sent = describe(item.record)
    return item.sent


def describe(record: Record | BadRecord | None) -> Described:
    if not isinstance(record, Record):
        return (True, None, None, None, None)
    return (False, *partie_head(record), deal_ident(record))


def _deal_row(store: Store, item: Item, r: Ready, partie_id: int | None,
              rubber_id: int | None) -> tuple[Value, ...]:
    """The deal's row (columns as :data:`rows.DEAL_COLUMNS`): ``r`` and the store's part."""
    # A deal refreshed from the archive keeps its source and import time.
    old = item.old if item.kind == "stored" else None
    if old is not None:
        return (partie_id, rubber_id, old.source, old.imported_at, *r[0])
    return (partie_id, rubber_id, store.source, store.now, *r[0])


def classify(store: Store, group: list[Record | BadRecord],
              stored: list[StoredDeal]) -> list[Item]:
    """What to do with each record of the file's partie (see :class:`Item`).

    First by text: a text stored in this partie is ``here``, one stored elsewhere or met
    before in the file is a duplicate. Then corrections: a new text replaces a stored deal
    of the same :func:`~priffe_records.archive.identity.deal_key` that no text of the file
    is, and that no record of this import wrote (two records of one import are both
    kept); several at one key are paired in partie order.
    """
    texts = [item.text if isinstance(item, BadRecord) else canonical_text(item)
             for item in group]
    digests = [content_hash(t) for t in texts]
    by_hash = {d.hash: d for d in stored}
    claimed: set[int] = set()
    seen: set[str] = set()
    items: list[Item] = []
    elsewhere = store.existing([d for d in digests if d not in by_hash])
    for record, text, digest in zip(group, texts, digests, strict=True):
        store.hashed(record, digest)
        line = record.location.line if record.location else 0
        item = Item(record, text, digest, line, "new")
        here = by_hash.get(digest)
        if digest in seen:
            item.kind = "elsewhere"
        elif here is not None:
            item.kind, item.deal_id, item.old = "here", here.id, here
            claimed.add(here.id)
        elif digest in elsewhere:
            item.kind = "elsewhere"
        seen.add(digest)
        items.append(item)
    free: dict[str, deque[StoredDeal]] = {}
    for d in stored:
        if d.ident is not None and d.id not in claimed and not store.mine(d):
            free.setdefault(d.ident, deque()).append(d)
    for item in items if free else ():
        ident = deal_ident(item.record) if item.kind == "new" and item.record else None
        old = free[ident].popleft() if ident is not None and free.get(ident) else None
        if old is not None:
            item.kind, item.deal_id, item.old = "update", old.id, old
            claimed.add(old.id)
    # Deals of the partie this file does not give: still part of it, read back.
    rest = [stored_item(d) for d in stored if d.id not in claimed]
    if rest:
        order = {id(i): n for n, i in enumerate(items)}
        items = sorted([*items, *rest], key=lambda i: (i.line, i.from_file is False,
                                                       order.get(id(i), 0)))
    return items


def stored_item(d: StoredDeal) -> Item:
    records = list(loads(d.ppn, errors="collect", name=d.source, header=False))
    record: Record | BadRecord = records[0] if len(records) == 1 else BadRecord(
        (), Location(d.source, d.line, 1), d.ppn)
    return Item(record, d.ppn, d.hash, d.line, "stored", d.id, d, from_file=False)


def _shifted(facts: engine.DealFacts, item: Item) -> engine.DealFacts:
    """Findings of a record read back from the archive, at its line in its source file."""
    if item.from_file or not facts.findings:
        return facts
    shift = item.line - 1
    return replace(facts, findings=tuple(
        replace(f, file=item.old.source if item.old else f.file,
                line=f.line + shift if f.line is not None else None)
        for f in facts.findings))


_WINDOW = 500  # new deals written (and freed) together


class PartieWriter:
    """Writes a partie's deals as the engine checks them, new ones a window at a time."""

    def __init__(self, store: Store, partie_id: int | None, first: PartieKey | None,
                 summary: dict[str, int], reject_invalid: bool,
                 progress: Callable[[int], None] | None,
                 written: dict[int, Written] | None = None) -> None:
        self.store, self.partie_id, self.first = store, partie_id, first
        self.written = written  # the stored deals of a partie recomputed whole
        self.summary, self.reject_invalid, self.progress = summary, reject_invalid, progress
        self.rejected: set[str] = set()  # texts rejected in the partie: a repeat is too
        self.here: set[int] = set()  # rubbers with a deal stored in this partie
        self.first_kept: Record | None = None  # the first record stored in the partie
        self.new: list[tuple[tuple[Value, ...], Ready]] = []  # inserted in one batch

    def checked(self, item: Item, facts: engine.DealFacts) -> None:
        """A record as the engine checked it here (not in a worker)."""
        facts = _shifted(facts, item)
        self.deal(item, ready(item.text, item.digest, item.line, described(item), facts))

    def deal(self, item: Item, r: Ready) -> None:
        store, summary = self.store, self.summary
        bad = described(item)[0]
        has_errors = r[7]
        number = r[6]
        if item.from_file:
            summary["records"] += 1
        kind: Kind | Literal["skip"] = item.kind
        if kind in ("new", "update") and self.reject_invalid and has_errors:
            summary["rejected"] += 1
            kind = "skip"  # a rejected correction leaves the stored version as it was
            self.rejected.add(item.digest)
        if kind in ("here", "elsewhere") and item.from_file:
            summary["duplicates"] += 1
        if kind not in ("elsewhere", "skip"):
            if self.partie_id is None and self.first is not None:
                self.partie_id = store.partie(self.first)
            if self.partie_id is not None and item.from_file:
                store.imported_into(self.partie_id)
            if self.first_kept is None and isinstance(item.record, Record):
                self.first_kept = item.record
            rubber_id = None
            if self.partie_id is not None and number is not None:
                rubber_id = store.rubber(self.partie_id, number)
                self.here.add(number)
            row = _deal_row(store, item, r, self.partie_id, rubber_id)
            if kind == "new":
                self.new.append((row, r))
                if len(self.new) >= _WINDOW:
                    self.flush()
            else:
                assert item.deal_id is not None
                if kind == "update" and item.old is not None:
                    store.replaced(item.old, item.line)
                if not self._same(item.deal_id, row, r):
                    store.replace_deal(item.deal_id, row, r)
            if kind in ("new", "update"):
                summary["new" if kind == "new" else "updated"] += 1
                summary["with_errors"] += has_errors
                summary["unreadable"] += bad
        if self.progress is not None and item.from_file:
            self.progress(summary["records"])

    def _same(self, deal_id: int, row: tuple[Value, ...], r: Ready) -> bool:
        """Whether the stored deal is already what :meth:`Store.replace_deal` would write
        (its import time aside): then it is left as it is, findings' ids included. A
        grown or corrected partie is recomputed whole; most of its deals come out as
        they were."""
        old = self.written.pop(deal_id, None) if self.written is not None else None
        if old is None or old[0][:_AT] != row[:_AT] or old[0][_AT + 1:] != row[_AT + 1:]:
            return False
        changes = dict(r[2])
        seats = sorted((seat, side, name, changes.get(seat)) for seat, side, name in r[1])
        return (sorted(old[1]) == seats
                and old[2] == list(r[3]) and old[3] == list(r[4]) and old[4] == list(r[5]))

    def flush(self) -> None:
        self.store.deals(self.new)
        self.new = []

    def rubber(self, r: engine.RubberFacts) -> None:
        """Only rubbers with a deal stored in this partie are written: when a file repeats
        a partie another file gave, the repeated rubbers stay settled there, never twice."""
        if self.partie_id is not None and r.number in self.here:
            self.store.rubber_facts(self.partie_id, r)

    def finish(self, loose: Sequence[engine.FindingRow]) -> None:
        self.flush()
        if self.partie_id is not None:
            self.store.partie_end(self.partie_id, loose)


def write_partie(store: Store, partie_id: int | None, first: PartieKey | None,
                  items: Iterable[Item], summary: dict[str, int], reject_invalid: bool,
                  progress: Callable[[int], None] | None,
                  written: dict[int, Written] | None = None) -> Record | None:
    """Check the partie with the engine as it streams, write what changed, refresh the rest;
    the partie's first record stored (or kept) now.

    Memory: a window of new deals and one rubber's bookkeeping, plus
    whatever ``items`` holds (a partie with stored deals is classified whole).
    """
    queue: deque[Item] = deque()  # items given to the engine, facts not yet back

    def records() -> Iterator[Record | BadRecord]:
        for item in items:
            queue.append(item)
            assert item.record is not None
            yield item.record

    writer = PartieWriter(store, partie_id, first, summary, reject_invalid, progress,
                           written)
    loose: list[engine.FindingRow] = []
    for checked in engine.check_stream(records()):
        if isinstance(checked, engine.DealFacts):
            writer.checked(queue.popleft(), checked)
        elif isinstance(checked, engine.RubberFacts):
            writer.rubber(checked)
        else:
            loose.append(checked)
    writer.finish(loose)
    return writer.first_kept


def store_partie(store: Store, records: list[Record | BadRecord], summary: dict[str, int],
                 reject_invalid: bool, progress: Callable[[int], None] | None) -> None:
    """Store one partie of a file whole: new records, corrections, the partie recomputed.

    A correction needs the whole partie to know what it supersedes. When nothing in it is
    new or corrected, the engine is skipped: it is only counted.
    """
    firsts = [r for r in records if isinstance(r, Record)][:2]
    key = partie_key(firsts[0]) if firsts else None
    partie_id = store.find_partie(key, lambda: [content_hash(canonical_text(r))
                                                for r in firsts]) if key is not None else None
    stored = store.partie_deals(partie_id) if partie_id is not None else []
    items = classify(store, records, stored)
    if stored and not any(i.kind in ("new", "update") for i in items):
        count_stored(summary, sum(i.from_file for i in items), progress)
        return
    first = write_partie(store, partie_id, key, items, summary, reject_invalid, progress,
                         written=store.written(partie_id) if partie_id and stored else None)
    if partie_id is not None and stored:
        store.follow_first(partie_id, first)


def count_stored(summary: dict[str, int], n: int, progress: Callable[[int], None] | None
                 ) -> None:
    """``n`` records of the file, every one stored already: counted, nothing written."""
    for _ in range(n):
        summary["records"] += 1
        summary["duplicates"] += 1
        if progress is not None:
            progress(summary["records"])


def recompute_partie(store: Store, partie_id: int) -> None:
    """A partie from its stored records alone (after a removal); gone when none is left."""
    items = [stored_item(d) for d in store.partie_deals(partie_id)]
    if not items:
        store.drop_partie(partie_id)
        return
    first = write_partie(store, partie_id, None, items, dict.fromkeys(COUNTS, 0), False,
                          None, written=store.written(partie_id))
    store.follow_first(partie_id, first)
