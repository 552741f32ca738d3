"""The archive: PPN files into a SQLite database and back, nothing lost, nothing twice.

Import streams each file through the reader and the rules engine, a window
of records at a time (memory is flat in the file size, however long its
parties; a partie that already has stored deals is classified
whole), and stores every record with its findings: historical games that break a rule
are kept and flagged, never dropped. A record's text is identified by the
SHA-256 of its canonical PPN text, so importing it again is a no-op; its
place (partie, Rubber, Board and table: :mod:`priffe_records.archive.identity`)
lets a corrected text of a later import supersede the stored one, and every
change recomputes its whole partie. A partie is found by its content (Event,
Site, Date, first players and hands), never by the file's path. A file whose bytes are those
last imported under its name is recognised before it is parsed; in a changed
file, a partie whose records are all stored is recognised by their raw texts
(:mod:`priffe_records.archive.raw`) and only counted.

Atomicity: each file is one ``BEGIN IMMEDIATE`` transaction (a partie's new
deals are written in one batch inside it), so a crash, Ctrl-C or an
unreadable file leaves the database exactly as it was before that file;
``BEGIN IMMEDIATE`` plus the busy timeout also makes a second importer wait
its turn instead of failing.

>>> from priffe_records.archive.schema import open_archive
>>> db = open_archive(":memory:")
>>> text = '[Event "Klubbkväll"]\\n[North "Anna"]\\n[Contract "Spela"]\\n'
>>> import io
>>> s = import_file(db, io.BytesIO(text.encode()), name="a.ppn")
>>> s.new, s.duplicates
(1, 0)
>>> import_file(db, io.BytesIO(text.encode()), name="b.ppn").duplicates
1
"""

from __future__ import annotations

import hashlib
import io
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, TYPE_CHECKING, cast

import sqlite_utils

from priffe_records.archive.rows import DEAL_COLUMNS, Ready, Value
from priffe_records.archive.schema import ArchiveError, describe_sqlite_error, ensure_schema
from priffe_records.format.errors import PriffeError
from priffe_records.format.splitter import may_inherit
from priffe_records.game.language import msg, os_reason
from priffe_records.rules.gcscope import batch_gc

# The reader, the rules engine and the classification load only when a file has to be
# read: a file imported unchanged costs its hash and one query, not their start-up.
if TYPE_CHECKING:
    from priffe_records.archive import engine
    from priffe_records.archive.classify import StoredDeal, Written
    from priffe_records.archive.identity import PartieKey
    from priffe_records.format.errors import BadRecord
    from priffe_records.format.record import Record
    from priffe_records.format.splitter import Chunk

Progress = Callable[[int, int], None]  # (bytes read so far, records read so far)


class SourceError(PriffeError):
    """One input file could not be imported; nothing of it was stored."""


# ---------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class FileSummary:
    """What one file contributed; ``records`` counts what was read, bad ones included."""

    source: str
    records: int = 0
    new: int = 0
    duplicates: int = 0
    updated: int = 0  # a stored record superseded by its corrected text (same place)
    with_errors: int = 0  # stored, flagged: a rule broken or unreadable
    unreadable: int = 0  # syntax errors: stored with their raw text
    rejected: int = 0  # not stored because of --reject-invalid
    replaced: tuple[Replacement, ...] = ()  # which record replaced which (``updated`` of them)
    parties: tuple[int, ...] = ()  # the ids of the parties this file stored deals of


@dataclass(frozen=True, slots=True)
class Replacement:
    """A stored deal replaced by a record of this import: the same deal at the same table
    (:func:`~priffe_records.archive.identity.deal_key`). The old text is kept in
    ``deal_history`` with the same file and line."""

    deal_id: int
    old_source: str
    old_line: int
    source: str
    line: int


_COUNTS = ("records", "new", "duplicates", "updated", "with_errors", "unreadable", "rejected")


class Store:
    """Writes for one transaction; caches ids it created (cleared with the transaction)."""

    def __init__(self, db: sqlite_utils.Database, source: str, *, as_new: bool = False) -> None:
        self.db = db
        self.source = source
        self.now = datetime.now(UTC).isoformat(timespec="seconds")
        # --as-new: no partie stored before this import is matched, only those it made.
        self.as_new = as_new
        self.created: dict[PartieKey, int] = {}
        self.touched: set[int] = set()  # parties with a partie_sources row of this import
        # Two records of one import never replace each other: deals it inserted (ids past
        # the largest at its start) and texts it met (the first 16 hex digits of each hash,
        # about 60 bytes a record) are its own.
        self.first_new = int(db.execute("SELECT coalesce(max(id), 0) FROM deals")
                             .fetchone()[0]) + 1
        self.met: set[str] = set()
        self.first_partie = int(db.execute("SELECT coalesce(max(id), 0) FROM parties")
                                .fetchone()[0]) + 1  # parties from here on: this import's
        self.replacements: list[Replacement] = []
        self.players: dict[str, int] = {}
        self._rubber: tuple[int, int, int] | None = None  # (partie, number, id) last asked for
        self.unsettled: set[int] = set()  # rubbers made in this transaction, no settlements yet
        # Raw keys of records read but not hashed yet (``id(record)``: raw.RawReader), and
        # (raw key, canonical hash) rows not written yet (schema v7).
        self.raw_keys: dict[int, bytes] = {}
        self.raws: list[tuple[bytes, str]] = []
        self.insert_deal_sql = (f"INSERT INTO deals (id, {', '.join(DEAL_COLUMNS)}) "
                                f"VALUES (?, {', '.join('?' * len(DEAL_COLUMNS))})")
        self.update_deal_sql = (f"UPDATE deals SET {', '.join(c + ' = ?' for c in DEAL_COLUMNS)}"
                                " WHERE id = ?")

    def existing(self, digests: Sequence[str]) -> set[str]:
        """Which of these texts are stored (anywhere): one query per 500, not one each."""
        found: set[str] = set()
        for i in range(0, len(digests), 500):
            chunk = list(digests[i:i + 500])
            found.update(h for (h,) in self.db.execute(
                f"SELECT hash FROM deals WHERE hash IN ({', '.join('?' * len(chunk))})", chunk))
        return found

    def known(self, raws: list[bytes]) -> dict[bytes, tuple[str, bool, str | None, str | None,
                                                             str | None]]:
        """Which raw texts name a text stored now: its hash, unreadable?, Event, Site, Date."""
        found = {}
        for i in range(0, len(raws), 500):
            chunk = raws[i:i + 500]
            for raw, digest, bad, event, site, date in self.db.execute(
                    "SELECT r.raw, d.hash, d.status = 'unreadable', d.event, d.site, d.date "
                    "FROM raw_texts r JOIN deals d ON d.hash = r.hash "
                    f"WHERE r.raw IN ({', '.join('?' * len(chunk))})", chunk):
                found[raw] = (digest, bool(bad), event, site, date)
        return found

    def hashed(self, record: Record | BadRecord | None, digest: str) -> None:
        """A record's canonical hash is known: remember its raw text's (when it has one),
        and that this import met it."""
        self.met.add(digest[:16])
        raw = self.raw_keys.pop(id(record), None)
        if raw is not None:
            self.remember_raw(raw, digest)

    def remember_raw(self, raw: bytes, digest: str) -> None:
        """Note a raw text's canonical hash; written 500 at a time (memory stays flat)."""
        self.raws.append((raw, digest))
        if len(self.raws) >= 500:
            self.flush_raws()

    def flush_raws(self) -> None:
        if self.raws:
            self.db.conn.executemany("INSERT OR IGNORE INTO raw_texts (raw, hash) VALUES (?, ?)",
                                     self.raws)
            self.raws = []

    def mine(self, deal: StoredDeal) -> bool:
        """Whether the deal is a record of this import (then no other record of it may
        replace it): inserted by it, or its text met in it, in any run of any partie."""
        return deal.id >= self.first_new or deal.hash[:16] in self.met

    def find_partie(self, key: PartieKey,
                    firsts: Callable[[], Sequence[str]] | None = None) -> int | None:
        """The stored partie with this identity (the oldest, when several share it), by
        content whatever the file is called (:func:`~priffe_records.archive.identity.
        partie_key`); with ``--as-new`` only one this import made.

        ``firsts`` gives the hashes of the run's first two readable records: when no
        partie has the key but one with the same Event, Site and Date holds one of those
        texts, it is that partie with its first deal corrected (its players or hands).
        Only parties of earlier imports are looked at: this import's texts are its own.
        """
        if self.as_new or key in self.created:
            return self.created.get(key)
        row = self.db.execute("SELECT id FROM parties WHERE identity = ? ORDER BY id LIMIT 1",
                              [key.text()]).fetchone()
        if row is None and firsts is not None and self.db.execute(
                "SELECT 1 FROM parties WHERE event IS ? AND site IS ? AND date IS ? "
                "AND id < ? LIMIT 1", [*key.head, self.first_partie]).fetchone() is not None:
            texts = list(firsts())
            row = self.db.execute(
                "SELECT d.partie_id FROM deals d JOIN parties p ON p.id = d.partie_id "
                f"WHERE d.hash IN ({', '.join('?' * len(texts))}) AND p.event IS ? "
                "AND p.site IS ? AND p.date IS ? ORDER BY d.partie_id LIMIT 1",
                [*texts, *key.head]).fetchone() if texts else None
        return int(row[0]) if row is not None else None

    def follow_first(self, partie_id: int, first: Record | None) -> None:
        """A recomputed partie is known by its first deal as it is now (corrected, or the
        one after a removed first deal), as a fresh import of its records would know it."""
        from priffe_records.archive.identity import partie_key

        if first is not None:
            self.db.execute("UPDATE parties SET identity = ? WHERE id = ? AND identity IS NOT ?",
                            [partie_key(first).text(), partie_id, partie_key(first).text()])

    def partie(self, key: PartieKey) -> int:
        found = self.find_partie(key)
        if found is not None:
            return found
        cur = self.db.execute("INSERT INTO parties (event, site, date, source, imported_at, "
                              "identity) VALUES (?, ?, ?, ?, ?, ?)",
                              [*key.head, self.source, self.now, key.text()])
        partie_id = int(cur.lastrowid or 0)
        self.created[key] = partie_id
        return partie_id

    def imported_into(self, partie_id: int) -> None:
        """This file stores deals of the partie: one row of its history of sources."""
        if partie_id not in self.touched:
            self.touched.add(partie_id)
            self.db.execute("INSERT INTO partie_sources (partie_id, source, imported_at) "
                            "VALUES (?, ?, ?)", [partie_id, self.source, self.now])

    def partie_deals(self, partie_id: int) -> list[StoredDeal]:
        """The partie's stored deals in partie order (file line, then import order)."""
        from priffe_records.archive.classify import StoredDeal

        rows = self.db.execute("SELECT id, hash, ident, line, source, ppn, imported_at "
                               "FROM deals WHERE partie_id = ? ORDER BY line, id", [partie_id])
        return [StoredDeal(int(r[0]), r[1], r[2], int(r[3] or 0), r[4], r[5], r[6])
                for r in rows]

    def written(self, partie_id: int) -> dict[int, Written]:
        """What is stored of each deal of the partie, as :meth:`replace_deal` writes it."""
        conn = self.db.conn
        out: dict[int, Written] = {
            int(r[0]): (tuple(r[1:]), [], [], [], [])
            for r in conn.execute(f"SELECT id, {', '.join(DEAL_COLUMNS)} FROM deals "
                                  "WHERE partie_id = ?", [partie_id])}
        mine = "SELECT id FROM deals WHERE partie_id = ?"
        for i, sql in enumerate((
                "SELECT s.deal_id, s.seat, s.side, p.name, s.balance_change FROM seats s "
                f"LEFT JOIN players p ON p.id = s.player_id WHERE s.deal_id IN ({mine}) "
                "ORDER BY s.deal_id, s.seat",
                f"SELECT deal_id, idx, seat, call FROM calls WHERE deal_id IN ({mine}) "
                "ORDER BY deal_id, idx",
                "SELECT deal_id, number, leader, winner, card_n, card_e, card_s, card_w "
                f"FROM tricks WHERE deal_id IN ({mine}) ORDER BY deal_id, number",
                "SELECT deal_id, rule, severity, message, file, line, col, message_json "
                f"FROM findings WHERE deal_id IN ({mine}) ORDER BY id"), 1):
            for r in conn.execute(sql, [partie_id]):
                got = out.get(int(r[0]))
                if got is not None:
                    cast(list[tuple[Value, ...]], got[i]).append(tuple(r[1:]))
        return out

    def rubber(self, partie_id: int, number: int) -> int:
        """The id of the partie's rubber ``number``, made when new (the last one is cached:
        a rubber's deals come together)."""
        if self._rubber is not None and self._rubber[:2] == (partie_id, number):
            return self._rubber[2]
        rid = self._rubber_id(partie_id, number)
        self._rubber = (partie_id, number, rid)
        return rid

    def _rubber_id(self, partie_id: int, number: int) -> int:
        row = self.db.execute("SELECT id FROM rubbers WHERE partie_id = ? AND number = ?",
                              [partie_id, number]).fetchone()
        if row is not None:
            return int(row[0])
        cur = self.db.execute("INSERT INTO rubbers (partie_id, number) VALUES (?, ?)",
                              [partie_id, number])
        rid = int(cur.lastrowid or 0)
        self.unsettled.add(rid)
        return rid

    def player(self, name: str) -> int:
        pid = self.players.get(name)
        if pid is None:
            self.db.execute("INSERT OR IGNORE INTO players (name, folded) VALUES (?, ?)",
                            [name, name.casefold()])
            pid = int(self.db.execute("SELECT id FROM players WHERE name = ?",
                                      [name]).fetchone()[0])
            self.players[name] = pid
        return pid

    def deals(self, new: Sequence[tuple[tuple[Value, ...], Ready]]) -> None:
        """Insert a batch of deals and what hangs off them, one executemany per table.

        Ids are given here (after the largest, as SQLite would), so the
        children need no round trip per deal; the write lock is ours.
        """
        if not new:
            return
        first = int(self.db.execute("SELECT coalesce(max(id), 0) FROM deals").fetchone()[0]) + 1
        conn = self.db.conn
        conn.executemany(self.insert_deal_sql, [(first + i, *row)
                                                for i, (row, _) in enumerate(new)])
        # The search index, for the batch at once (schema v5: no insert trigger).
        conn.execute("INSERT INTO deals_fts (rowid, event, site, players, commentary) "
                     "SELECT id, event, site, players, commentary FROM deals "
                     "WHERE id >= ? AND id < ?", [first, first + len(new)])
        self._children([(first + i, cast(int | None, row[0]), r)
                        for i, (row, r) in enumerate(new)])

    def replace_deal(self, deal_id: int, row: tuple[Value, ...], r: Ready) -> None:
        """The stored deal ``deal_id`` becomes ``row``: same id, so its place in order stays."""
        for table in ("seats", "calls", "tricks", "findings"):
            self.db.execute(f"DELETE FROM {table} WHERE deal_id = ?", [deal_id])
        self.db.execute(self.update_deal_sql, [*row, deal_id])
        self._children([(deal_id, cast(int | None, row[0]), r)])

    def history(self, old: StoredDeal, action: str, line: int | None = None) -> None:
        """Keep a superseded or removed record's text, when and by what (file, and the
        line of the record that replaced it) it went."""
        self.db.execute("INSERT INTO deal_history (deal_id, action, hash, ppn, source, line, "
                        "imported_at, changed_at, changed_by, changed_line) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [old.id, action, old.hash, old.ppn, old.source, old.line,
                         old.imported_at, self.now, self.source, line])

    def replaced(self, old: StoredDeal, line: int) -> None:
        """A record of this import (at ``line``) replaces the stored deal ``old``."""
        self.history(old, "replaced", line)
        self.replacements.append(Replacement(old.id, old.source, old.line, self.source, line))

    def _children(self, deals: Sequence[tuple[int, int | None, Ready]]) -> None:
        """Seats, calls, tricks and findings of ``(deal id, partie id, rows)``."""
        conn = self.db.conn
        players, player = self.players, self.player
        seats = [(deal_id, seat, side, players.get(name) or player(name))
                 for deal_id, _, r in deals for seat, side, name in r[1]]
        if seats:
            conn.executemany("INSERT INTO seats (deal_id, seat, side, player_id) "
                             "VALUES (?, ?, ?, ?)", seats)
        changes = [(v, deal_id, seat) for deal_id, _, r in deals for seat, v in r[2]]
        if changes:  # Préférence: the books' change per seat (schema v3)
            conn.executemany("UPDATE seats SET balance_change = ? WHERE deal_id = ? AND seat = ?",
                             changes)
        calls = [(deal_id, *c) for deal_id, _, r in deals for c in r[3]]
        if calls:
            conn.executemany("INSERT INTO calls (deal_id, idx, seat, call) VALUES (?, ?, ?, ?)",
                             calls)
        tricks = [(deal_id, *t) for deal_id, _, r in deals for t in r[4]]
        if tricks:
            conn.executemany("INSERT INTO tricks (deal_id, number, leader, winner, card_n, "
                             "card_e, card_s, card_w) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", tricks)
        found = [(deal_id, partie_id, *f) for deal_id, partie_id, r in deals for f in r[5]]
        if found:
            conn.executemany("INSERT INTO findings (deal_id, partie_id, rule, severity, "
                             "message, file, line, col, message_json) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", found)

    def findings(self, partie_id: int | None, deal_id: int | None,
                 found: Sequence[engine.FindingRow]) -> None:
        if found:
            self.db.conn.executemany(
                "INSERT INTO findings (deal_id, partie_id, rule, severity, message, file, "
                "line, col, message_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(deal_id, partie_id, *f.values()) for f in found])

    def rubber_facts(self, partie_id: int, r: engine.RubberFacts) -> None:
        """Totals and settlements of one of the partie's rubbers, once it has ended."""
        rid = self.rubber(partie_id, r.number)
        conn = self.db.conn
        conn.execute("UPDATE rubbers SET complete = ?, winner = ?, total_ns = ?, "
                     "total_ew = ? WHERE id = ?",
                     [r.complete, r.winner, r.total_ns, r.total_ew, rid])
        if rid in self.unsettled:  # made now: nothing to delete (settled twice: R22)
            self.unsettled.discard(rid)
        else:
            conn.execute("DELETE FROM settlements WHERE rubber_id = ?", [rid])
        conn.executemany(
            "INSERT INTO settlements (rubber_id, seat, player_id, points, claimed) "
            "VALUES (?, ?, ?, ?, ?)",
            [(rid, seat, self.player(name) if name else None, points, claimed)
             for seat, name, points, claimed in r.settlements])

    def partie_end(self, partie_id: int, partie_findings: Sequence[engine.FindingRow]) -> None:
        """Rubbers left without deals go; the findings of no one record are the new ones."""
        gone = "SELECT id FROM rubbers WHERE partie_id = ? AND id NOT IN " \
               "(SELECT rubber_id FROM deals WHERE partie_id = ? AND rubber_id IS NOT NULL)"
        self.db.execute(f"DELETE FROM settlements WHERE rubber_id IN ({gone})",
                        [partie_id, partie_id])
        self.db.execute(f"DELETE FROM rubbers WHERE id IN ({gone})", [partie_id, partie_id])
        self._rubber = None
        self.db.execute("DELETE FROM findings WHERE partie_id = ? AND deal_id IS NULL",
                        [partie_id])
        self.findings(partie_id, None, partie_findings)


def recompute_partie(store: Store, partie_id: int) -> None:
    """A partie from its stored records alone (after a removal); gone when none is left."""
    from priffe_records.archive.classify import stored_item, write_partie

    items = [stored_item(d) for d in store.partie_deals(partie_id)]
    if not items:
        for sql in ("DELETE FROM settlements WHERE rubber_id IN "
                    "(SELECT id FROM rubbers WHERE partie_id = ?)",
                    "DELETE FROM rubbers WHERE partie_id = ?",
                    "DELETE FROM findings WHERE partie_id = ?",
                    "DELETE FROM partie_sources WHERE partie_id = ?",
                    "DELETE FROM parties WHERE id = ?"):
            store.db.execute(sql, [partie_id])
        store._rubber = None
        return
    first = write_partie(store, partie_id, None, items, dict.fromkeys(_COUNTS, 0), False,
                          None, written=store.written(partie_id))
    store.follow_first(partie_id, first)


class _Counting(io.RawIOBase):
    """A binary file that counts (for the progress bar) and hashes the bytes read from it."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.done = 0
        self.sha = hashlib.sha256()

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.raw.read(len(b))
        b[: len(data)] = data
        self.done += len(data)
        self.sha.update(data)
        return len(data)


@batch_gc  # the collector tuned for the batch, and put back as it was
def import_file(db: sqlite_utils.Database, source: str | os.PathLike[str] | IO[bytes], *,
                name: str | None = None, reject_invalid: bool = False,
                progress: Progress | None = None, jobs: int | None = 1,
                as_new: bool = False) -> FileSummary:
    """Import one file in one transaction; see the module docstring for the guarantees.

    ``jobs`` > 1: a file given by its path is read and checked in that many worker
    processes (:mod:`priffe_records.archive.workers`); what is stored is the same.
    ``None``: as many as suit the file's size and the machine's load
    (:func:`~priffe_records.rules.parallel.default_jobs`), decided once the file is
    known to have changed.
    ``as_new``: the file's parties are new ones even where a stored partie has the same
    identity (another evening with the same Event, Site, Date and players).

    Raises :class:`SourceError` when the file cannot be read (nothing of it is
    stored) and :class:`~priffe_records.archive.schema.ArchiveError` when the
    database cannot be written.
    """
    ensure_schema(db)
    label = name or (os.fspath(source) if isinstance(source, str | os.PathLike)
                     else str(getattr(source, "name", "<stream>")))
    try:
        raw: IO[bytes] = (open(source, "rb") if isinstance(source, str | os.PathLike)  # noqa: SIM115
                          else source)
    except OSError as e:
        raise SourceError(msg("{file}: {error}; nothing of it was imported", file=label,
                              error=os_reason(e))) from None
    counting = _Counting(raw)
    summary = dict.fromkeys(_COUNTS, 0)

    def tick(records: int) -> None:
        if progress is not None:
            progress(counting.done, records)

    try:
        digest, inherits = _file_digest(raw)
        _begin(db, label)
        try:
            unchanged = _unchanged(db, label, digest, reject_invalid)
            if unchanged is not None:
                db.execute("COMMIT")
                return unchanged
            from priffe_records.archive.classify import by_partie, store_group
            from priffe_records.archive.raw import RawReader

            if jobs is None:
                from priffe_records.rules.parallel import default_jobs

                jobs = default_jobs(source) if isinstance(source, str | os.PathLike) else 1
            store = Store(db, label, as_new=as_new)
            with _page_cache(db):
                if jobs > 1 and digest is not None and isinstance(source, str | os.PathLike):
                    from priffe_records.archive.workers import store_pieces

                    store_pieces(store, os.fspath(source), label, jobs, summary, reject_invalid,
                                 progress, skip=not inherits)
                    sha, size = digest, os.path.getsize(source)
                else:
                    reader = RawReader(read_chunks(cast(IO[bytes], counting), name=label), label,
                                       store.known if digest is not None and not inherits else None)
                    store.raw_keys = reader.keys
                    for group in by_partie(reader.items()):
                        store_group(store, reader, group, summary, reject_invalid, tick)
                    sha, size = counting.sha.hexdigest(), counting.done
                store.flush_raws()
                db.execute("INSERT OR REPLACE INTO sources (source, sha256, size, records, "
                           "rejected, reject_invalid, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           [label, sha, size, summary["records"],
                            summary["rejected"], int(reject_invalid), store.now])
                db.execute("COMMIT")
        except BaseException:
            if db.conn.in_transaction:
                db.execute("ROLLBACK")
            raise
    except OSError as e:
        raise SourceError(msg("{file}: {error} while reading; nothing of it was imported",
                              file=label, error=os_reason(e))) from None
    except sqlite3.Error as e:
        raise ArchiveError(msg("{error}; nothing of {file} was imported", file=label,
                               error=describe_sqlite_error(_db_name(db), e))) from None
    finally:
        if raw is not source:
            raw.close()
    return FileSummary(label, **summary, replaced=tuple(store.replacements),
                       parties=tuple(sorted(store.touched)))


# Bytes of SQLite page cache for one file's batch. The cache fills with what the batch
# touches, so it grows with the file until it is full: an import's peak grows with the
# file by as much as the cache holds. 10,000 deals (22 MB of archive) fill 8 MiB, so from
# there memory stays flat; 32 MiB grew import's peak from 77 to 97 MiB between 10,000
# and 50,000 deals. The CPU of 50,000 deals was the same within the noise of a loaded
# machine (8 MiB 32-40 s, 32 MiB 32-37 s).
PAGE_CACHE = 16 << 20


@contextmanager
def _page_cache(db: sqlite_utils.Database) -> Iterator[None]:
    """A bigger page cache for one file's batch (:data:`PAGE_CACHE`), put back after: the
    indexes (hash, ids) are written at random places."""
    cache = db.conn.execute("PRAGMA cache_size").fetchone()[0]
    db.conn.execute(f"PRAGMA cache_size = -{PAGE_CACHE // 1024}")
    try:
        yield
    finally:
        db.conn.execute(f"PRAGMA cache_size = {int(cache)}")


def read_chunks(source: IO[bytes], *, name: str) -> Iterator[Chunk]:
    """The reader's chunks of lines of ``source`` (``name`` labels it): the import's one
    pass over the file's text; the chunks are parsed, or recognised, by a RawReader."""
    from priffe_records.format.splitter import Decoded, split

    return split(Decoded(source))


def _file_digest(raw: IO[bytes]) -> tuple[str | None, bool]:
    """SHA-256 of the rest of a seekable file, which is then read from where it was, and
    whether a value in it may inherit (PBN §4.8 ``#``: then no record is skipped unread).

    A pipe cannot be read twice: ``None``, and it is imported in full.
    """
    inherits = False
    carry = b""  # a quote followed by blanks only at a block's end: the '#' may come next
    try:
        if not raw.seekable():
            return None, True
        start = raw.tell()
        sha = hashlib.sha256()
        while chunk := raw.read(1 << 20):
            sha.update(chunk)
            if not inherits:
                data = carry + chunk
                inherits = may_inherit(data)
                quote = data.rfind(b'"')
                carry = data[quote:] if quote >= 0 and not data[quote + 1:].strip() else b""
        raw.seek(start)
    except (OSError, ValueError):
        return None, True
    return sha.hexdigest(), inherits


def _unchanged(db: sqlite_utils.Database, label: str, digest: str | None,
               reject_invalid: bool) -> FileSummary | None:
    """What importing ``label`` again would report, when its bytes are those last imported.

    A removal clears ``sources``, so a file whose records went is read again.
    """
    if digest is None:
        return None
    row = db.execute("SELECT records, rejected FROM sources WHERE source = ? AND sha256 = ? "
                     "AND reject_invalid = ?", [label, digest, int(reject_invalid)]).fetchone()
    if row is None:
        return None
    records, rejected = int(row[0]), int(row[1])
    return FileSummary(label, records=records, duplicates=records - rejected,
                       rejected=rejected)


def _begin(db: sqlite_utils.Database, label: str) -> None:
    """Take the write lock now (waiting for another importer up to the busy timeout)."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as e:
        raise ArchiveError(msg("{error}; {file} was not imported", file=label,
                               error=describe_sqlite_error(_db_name(db), e))) from None


def _db_name(db: sqlite_utils.Database) -> str:
    row = db.conn.execute("PRAGMA database_list").fetchone()
    return str(row[2] or ":memory:")
