"""The archive's writes for one import: parties, deals, rubbers and findings as rows.

A record's text is identified by the SHA-256 of its canonical PPN text, so storing it
again is a no-op; its place (partie, Rubber, Board and table:
:mod:`priffe_records.archive.identity`) lets a corrected text of a later import
supersede the stored one. A partie is found by its content (Event, Site, Date, first
players and hands), never by the file's path. What is read, and when, is
:mod:`priffe_records.archive.importing`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, cast

import sqlite_utils

from priffe_records.archive.rows import DEAL_COLUMNS, Ready, Value

# The reader, the rules engine and the classification load only when a file has to be
# read: a file imported unchanged costs its hash and one query, not their start-up.
if TYPE_CHECKING:
    from priffe_records.archive import engine
    from priffe_records.archive.identity import PartieKey
    from priffe_records.format.errors import BadRecord
    from priffe_records.format.record import Record

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


@dataclass(frozen=True, slots=True)
class StoredDeal:
    """What the store needs to know of a deal already in a partie."""

    id: int
    hash: str
    ident: str | None
    line: int
    source: str
    ppn: str
    imported_at: str


# A stored deal as replace_deal writes it: row, seats (with names and balance changes),
# calls, tricks, findings (Store.written).
Written = tuple[tuple[Value, ...], list[tuple[Value, ...]], list[tuple[Value, ...]],
                list[tuple[Value, ...]], list[tuple[Value, ...]]]
COUNTS = ("records", "new", "duplicates", "updated", "with_errors", "unreadable", "rejected")


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

    def drop_partie(self, partie_id: int) -> None:
        """A partie with no deal left (after a removal): gone, with all that hung on it."""
        for sql in ("DELETE FROM settlements WHERE rubber_id IN "
                    "(SELECT id FROM rubbers WHERE partie_id = ?)",
                    "DELETE FROM rubbers WHERE partie_id = ?",
                    "DELETE FROM findings WHERE partie_id = ?",
                    "DELETE FROM partie_sources WHERE partie_id = ?",
                    "DELETE FROM parties WHERE id = ?"):
            self.db.execute(sql, [partie_id])
        self._rubber = None
