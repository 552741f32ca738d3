"""The archive: PPN files into a SQLite database and back, nothing lost, nothing twice.

Import streams each file through the reader and the rules engine one partie
at a time (memory is bounded by the largest partie, not the file), and
stores every record with its findings: historical games that break a rule
are kept and flagged, never dropped. A record is identified by the SHA-256
of its canonical PPN text, so importing it again is a no-op.

Atomicity: each file is one ``BEGIN IMMEDIATE`` transaction and each record
a savepoint inside it, so a crash, Ctrl-C or an unreadable file leaves the
database exactly as it was before that file; ``BEGIN IMMEDIATE`` plus the
busy timeout also makes a second importer wait its turn instead of failing.

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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from operator import attrgetter
from typing import IO, cast

import sqlite_utils

from priffe_records.archive import engine
from priffe_records.archive.schema import ArchiveError, describe_sqlite_error, ensure_schema
from priffe_records.format.errors import BadRecord, PriffeError
from priffe_records.format.reader import read
from priffe_records.format.record import Record
from priffe_records.format.writer import format_record

Progress = Callable[[int, int], None]  # (bytes read so far, records read so far)


class SourceError(PriffeError):
    """One input file could not be imported; nothing of it was stored."""


# ---------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class DealRow:
    """One record as stored; scores are computed by the engine, ``claimed_*`` are its tags."""

    partie_id: int | None
    rubber_id: int | None
    source: str
    line: int
    event: str | None
    site: str | None
    date: str | None
    rubber: int | None
    board: str | None
    dealer: str | None
    contract: str | None
    declarer: str | None
    declaring_side: str | None
    tricks_ns: int | None
    tricks_ew: int | None
    made: int | None
    scoring_side: str | None
    scoring_tricks: int | None
    penalty_tricks: int | None
    slam: str | None
    score_ns: int | None
    score_ew: int | None
    claimed_score_ns: int | None
    claimed_score_ew: int | None
    rubber_ns: int | None
    rubber_ew: int | None
    claimed_rubber_ns: int | None
    claimed_rubber_ew: int | None
    players: str | None
    commentary: str | None
    errors: int
    warnings: int
    unverifiable: int
    status: str  # clean | warnings | errors | unreadable
    ppn: str
    hash: str
    imported_at: str


DEAL_COLUMNS = tuple(f.name for f in fields(DealRow))
_DEAL_VALUES = attrgetter(*DEAL_COLUMNS)  # dataclasses.astuple deep-copies: slow


@dataclass(frozen=True, slots=True)
class FileSummary:
    """What one file contributed; ``records`` counts what was read, bad ones included."""

    source: str
    records: int = 0
    new: int = 0
    duplicates: int = 0
    with_errors: int = 0  # stored, flagged: a rule broken or unreadable
    unreadable: int = 0  # syntax errors: stored with their raw text
    rejected: int = 0  # not stored because of --reject-invalid


def content_hash(text: str) -> str:
    """The identity of a record: SHA-256 of its canonical text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def canonical_text(record: Record) -> str:
    """A record on its own: inherited values written out, so it reads back alone."""
    return format_record(record, resolve_inheritance=True)


# ---------------------------------------------------------------- parties


def _parties(items: Iterable[Record | BadRecord]) -> Iterator[list[Record | BadRecord]]:
    """Consecutive records with the same Event, Site and Date (FORMAT.md "Partie").

    A record that could not be read stays where it was, inside the group, so
    the file order survives in the database.
    """
    group: list[Record | BadRecord] = []
    key: tuple[str | None, ...] | None = None
    for item in items:
        if isinstance(item, Record):
            k = (item.get("Event"), item.get("Site"), item.get("Date"))
            if key is not None and k != key:
                yield group
                group = []
            key = k
        group.append(item)
    if group:
        yield group


# ---------------------------------------------------------------- storing


class _Store:
    """Inserts for one file's transaction; caches ids it created (cleared with the file)."""

    def __init__(self, db: sqlite_utils.Database, source: str) -> None:
        self.db = db
        self.source = source
        self.now = datetime.now(UTC).isoformat(timespec="seconds")
        self.players: dict[str, int] = {}
        self.insert_deal_sql = (f"INSERT INTO deals ({', '.join(DEAL_COLUMNS)}) "
                                f"VALUES ({', '.join('?' * len(DEAL_COLUMNS))})")

    def exists(self, digest: str) -> bool:
        row = self.db.execute("SELECT 1 FROM deals WHERE hash = ?", [digest]).fetchone()
        return row is not None

    def partie(self, record: Record) -> int:
        key = [record.get("Event"), record.get("Site"), record.get("Date"), self.source]
        row = self.db.execute("SELECT id FROM parties WHERE event IS ? AND site IS ? "
                              "AND date IS ? AND source IS ?", key).fetchone()
        if row is not None:
            return int(row[0])
        cur = self.db.execute("INSERT INTO parties (event, site, date, source, imported_at) "
                              "VALUES (?, ?, ?, ?, ?)", [*key, self.now])
        return int(cur.lastrowid or 0)

    def rubber(self, partie_id: int, number: int) -> int:
        row = self.db.execute("SELECT id FROM rubbers WHERE partie_id = ? AND number = ?",
                              [partie_id, number]).fetchone()
        if row is not None:
            return int(row[0])
        cur = self.db.execute("INSERT INTO rubbers (partie_id, number) VALUES (?, ?)",
                              [partie_id, number])
        return int(cur.lastrowid or 0)

    def player(self, name: str) -> int:
        pid = self.players.get(name)
        if pid is None:
            self.db.execute("INSERT OR IGNORE INTO players (name, folded) VALUES (?, ?)",
                            [name, name.casefold()])
            pid = int(self.db.execute("SELECT id FROM players WHERE name = ?",
                                      [name]).fetchone()[0])
            self.players[name] = pid
        return pid

    def deal(self, row: DealRow, facts: engine.DealFacts) -> int:
        deal_id = int(self.db.execute(self.insert_deal_sql, _DEAL_VALUES(row)).lastrowid or 0)
        conn = self.db.conn
        seats = [(deal_id, seat, side, self.player(name)) for seat, side, name in facts.seats]
        if seats:
            conn.executemany("INSERT INTO seats (deal_id, seat, side, player_id) "
                             "VALUES (?, ?, ?, ?)", seats)
        if facts.calls:
            conn.executemany("INSERT INTO calls (deal_id, idx, seat, call) VALUES (?, ?, ?, ?)",
                             [(deal_id, i, seat, call)
                              for i, (seat, call) in enumerate(facts.calls, 1)])
        if facts.tricks:
            conn.executemany("INSERT INTO tricks (deal_id, number, leader, winner, card_n, "
                             "card_e, card_s, card_w) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             [(deal_id, *t.values()) for t in facts.tricks])
        self.findings(row.partie_id, deal_id, facts.findings)
        return deal_id

    def findings(self, partie_id: int | None, deal_id: int | None,
                 found: Sequence[engine.FindingRow]) -> None:
        if found:
            self.db.conn.executemany(
                "INSERT INTO findings (deal_id, partie_id, rule, severity, message, file, "
                "line, col) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(deal_id, partie_id, *f.values()) for f in found])

    def rubbers(self, partie_id: int, rubbers: Sequence[engine.RubberFacts],
                partie_findings: Sequence[engine.FindingRow], touched: set[int]) -> None:
        """Totals and settlements of the rubbers that got new deals, from the whole partie.

        A rubber whose deals were all stored before keeps its row: when a file
        repeats (and extends) a partie another file gave, its settlement must
        not be counted twice.
        """
        for r in rubbers:
            if r.number not in touched:
                continue
            rid = self.rubber(partie_id, r.number)
            self.db.execute("UPDATE rubbers SET complete = ?, winner = ?, total_ns = ?, "
                            "total_ew = ? WHERE id = ?",
                            [r.complete, r.winner, r.total_ns, r.total_ew, rid])
            self.db.execute("DELETE FROM settlements WHERE rubber_id = ?", [rid])
            self.db.conn.executemany(
                "INSERT INTO settlements (rubber_id, seat, player_id, points, claimed) "
                "VALUES (?, ?, ?, ?, ?)",
                [(rid, seat, self.player(name) if name else None, points, claimed)
                 for seat, name, points, claimed in r.settlements])
        self.db.execute("DELETE FROM findings WHERE partie_id = ? AND deal_id IS NULL",
                        [partie_id])
        self.findings(partie_id, None, partie_findings)


def _deal_row(store: _Store, item: Record | BadRecord, facts: engine.DealFacts,
              text: str, digest: str, partie_id: int | None, rubber_id: int | None) -> DealRow:
    errors = sum(f.severity == "error" for f in facts.findings)
    warnings = sum(f.severity == "warning" for f in facts.findings)
    unverifiable = sum(f.severity == "unverifiable" for f in facts.findings)
    if isinstance(item, BadRecord):
        status = "unreadable"
        event = site = date = None
    else:
        status = "errors" if errors else "warnings" if warnings else "clean"
        event, site, date = item.get("Event"), item.get("Site"), item.get("Date")
    return DealRow(
        partie_id=partie_id, rubber_id=rubber_id, source=store.source,
        line=item.location.line if item.location else 0, event=event, site=site, date=date,
        rubber=facts.rubber, board=facts.board, dealer=facts.dealer, contract=facts.contract,
        declarer=facts.declarer, declaring_side=facts.declaring_side,
        tricks_ns=facts.tricks_ns, tricks_ew=facts.tricks_ew, made=facts.made,
        scoring_side=facts.scoring_side, scoring_tricks=facts.scoring_tricks,
        penalty_tricks=facts.penalty_tricks, slam=facts.slam, score_ns=facts.score_ns,
        score_ew=facts.score_ew, claimed_score_ns=facts.claimed_score_ns,
        claimed_score_ew=facts.claimed_score_ew, rubber_ns=facts.rubber_ns,
        rubber_ew=facts.rubber_ew, claimed_rubber_ns=facts.claimed_rubber_ns,
        claimed_rubber_ew=facts.claimed_rubber_ew,
        players=", ".join(name for _, _, name in facts.seats) or None,
        commentary=facts.commentary or None, errors=errors, warnings=warnings,
        unverifiable=unverifiable, status=status, ppn=text, hash=digest,
        imported_at=store.now)


def _store_partie(store: _Store, group: list[Record | BadRecord], summary: dict[str, int],
                  reject_invalid: bool, progress: Callable[[int], None] | None) -> None:
    """Check a partie with the engine, then store its new records, one savepoint each.

    A partie whose records are all stored already skips the engine: a
    re-import costs reading and hashing only.
    """
    texts = [item.text if isinstance(item, BadRecord) else canonical_text(item)
             for item in group]
    digests = [content_hash(t) for t in texts]
    seen: set[str] = set()
    stored: list[bool] = []
    for digest in digests:
        stored.append(digest in seen or store.exists(digest))
        seen.add(digest)
    if all(stored):
        for _ in group:
            summary["records"] += 1
            summary["duplicates"] += 1
            if progress is not None:
                progress(summary["records"])
        return
    check = engine.check_partie(group)
    partie_id: int | None = None
    touched: set[int] = set()  # rubbers that got a new deal
    first = next((r for r in group if isinstance(r, Record)), None)
    for item, facts, text, digest, dup in zip(group, check.deals, texts, digests, stored,
                                              strict=True):
        summary["records"] += 1
        bad = isinstance(item, BadRecord)
        has_errors = bad or any(f.severity == "error" for f in facts.findings)
        if dup:
            summary["duplicates"] += 1
        elif reject_invalid and has_errors:
            summary["rejected"] += 1
        else:
            with store.db.atomic():  # a savepoint: a record lands whole or not at all
                if partie_id is None and first is not None:
                    partie_id = store.partie(first)
                rubber_id = None
                if partie_id is not None and facts.rubber is not None:
                    rubber_id = store.rubber(partie_id, facts.rubber)
                    touched.add(facts.rubber)
                store.deal(_deal_row(store, item, facts, text, digest, partie_id, rubber_id),
                           facts)
            summary["new"] += 1
            summary["with_errors"] += has_errors
            summary["unreadable"] += bad
        if progress is not None:
            progress(summary["records"])
    if partie_id is not None:
        with store.db.atomic():
            store.rubbers(partie_id, check.rubbers, check.findings, touched)


class _Counting(io.RawIOBase):
    """A binary file that counts the bytes read from it, for the progress bar."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.done = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.raw.read(len(b))
        b[: len(data)] = data
        self.done += len(data)
        return len(data)


def import_file(db: sqlite_utils.Database, source: str | os.PathLike[str] | IO[bytes], *,
                name: str | None = None, reject_invalid: bool = False,
                progress: Progress | None = None) -> FileSummary:
    """Import one file in one transaction; see the module docstring for the guarantees.

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
        raise SourceError(f"{label}: {e.strerror or e}; nothing of it was imported") from None
    counting = _Counting(raw)
    summary = {k: 0 for k in ("records", "new", "duplicates", "with_errors", "unreadable",
                              "rejected")}

    def tick(records: int) -> None:
        if progress is not None:
            progress(counting.done, records)

    try:
        _begin(db, label)
        try:
            store = _Store(db, label)
            items = read(cast(IO[bytes], counting), errors="collect", name=label)
            for group in _parties(items):
                _store_partie(store, group, summary, reject_invalid, tick)
            db.execute("COMMIT")
        except BaseException:
            if db.conn.in_transaction:
                db.execute("ROLLBACK")
            raise
    except OSError as e:
        raise SourceError(f"{label}: {e.strerror or e} while reading; nothing of it was "
                          "imported") from None
    except sqlite3.Error as e:
        raise ArchiveError(describe_sqlite_error(_db_name(db), e)
                           + f"; nothing of {label} was imported") from None
    finally:
        if raw is not source:
            raw.close()
    return FileSummary(label, **summary)


def _begin(db: sqlite_utils.Database, label: str) -> None:
    """Take the write lock now (waiting for another importer up to the busy timeout)."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as e:
        raise ArchiveError(describe_sqlite_error(_db_name(db), e)
                           + f"; {label} was not imported") from None


def _db_name(db: sqlite_utils.Database) -> str:
    row = db.conn.execute("PRAGMA database_list").fetchone()
    return str(row[2] or ":memory:")
