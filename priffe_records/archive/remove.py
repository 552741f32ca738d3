"""Removing records from the archive, and recomputing the parties they leave behind.

A removed record's text is kept in ``deal_history`` (action ``removed``),
so a removal can be looked up and undone by importing the text again. The
parties that lose deals are recomputed from the records they keep: their
rubbers, settlements and findings are as a fresh import of those records
would make them. One transaction: all of it happens, or none. A kept deal
whose written claims no longer hold (its ScoreRubber counted the removed deal)
gets its finding, and the removal lists those new findings, a dry run too (it
recomputes, then rolls back).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from priffe_records.archive.classify import recompute_partie
from priffe_records.archive.schema import ArchiveError, describe_sqlite_error, ensure_schema
from priffe_records.archive.store import Store, StoredDeal
from priffe_records.game.errors import PriffeError
from priffe_records.game.language import msg


class RemoveError(PriffeError):
    """A removal that names nothing to remove, or names it in a way we cannot use."""


@dataclass(frozen=True, slots=True)
class Selection:
    """Which records to remove; several criteria must all hold (an id list is any-of)."""

    deal_ids: tuple[int, ...] = ()
    partie_ids: tuple[int, ...] = ()
    event: str | None = None
    source: str | None = None

    def where(self) -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        for column, ids in (("id", self.deal_ids), ("partie_id", self.partie_ids)):
            if ids:
                clauses.append(f"{column} IN ({', '.join('?' * len(ids))})")
                params += list(ids)
        for column, value in (("event", self.event), ("source", self.source)):
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        if not clauses:
            raise RemoveError(msg("name what to remove: --id, --partie, --event or --source"))
        return " AND ".join(clauses), params


@dataclass(frozen=True, slots=True)
class Removal:
    """What a removal took (or, with ``dry_run``, would take)."""

    # (id, event, board, date, source) of each deal
    deals: tuple[tuple[int, str | None, str | None, str | None, str], ...]
    parties: tuple[int, ...]  # the parties recomputed (or emptied and removed)
    dry_run: bool
    # Findings the recomputation gave kept deals: (deal id, board, rule, message, message_json)
    new_findings: tuple[tuple[int, str | None, str, str, str | None], ...] = ()


def remove(db: sqlite_utils.Database, selection: Selection, *, dry_run: bool = False,
           by: str = "priffe remove") -> Removal:
    """Remove the selected deals and recompute their parties, in one transaction."""
    ensure_schema(db)
    where, params = selection.where()
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            rows = db.execute(f"SELECT id, partie_id, event, board, date, source, hash, ident, "
                              f"line, ppn, imported_at FROM deals WHERE {where} ORDER BY id",
                              params).fetchall()
            parties = tuple(sorted({int(r[1]) for r in rows if r[1] is not None}))
            if not rows:
                db.execute("ROLLBACK")
                return Removal((), parties, dry_run)
            before = _findings(db, parties)
            store = Store(db, by)
            _delete(store, [StoredDeal(int(r[0]), r[6], r[7], int(r[8] or 0), r[5], r[9],
                                       r[10]) for r in rows])
            for partie_id in parties:
                recompute_partie(store, partie_id)
            new = tuple(f for f in _findings(db, parties) if f not in before)
            result = Removal(tuple((int(r[0]), r[2], r[3], r[4], r[5]) for r in rows),
                             parties, dry_run, new)
            if dry_run:
                db.execute("ROLLBACK")
                return result
            # Files whose records went must be read in full when imported again.
            db.execute("DELETE FROM sources")
            db.execute("COMMIT")
            return result
        except BaseException:
            if db.conn.in_transaction:
                db.execute("ROLLBACK")
            raise
    except sqlite3.Error as e:
        row = db.conn.execute("PRAGMA database_list").fetchone()
        raise ArchiveError(msg("{error}; nothing was removed",
                               error=describe_sqlite_error(str(row[2] or ":memory:"), e))
                           ) from None


def _findings(db: sqlite_utils.Database, parties: Sequence[int]
              ) -> list[tuple[int, str | None, str, str, str | None]]:
    """The error findings of the deals of ``parties``, in deal order."""
    marks = ", ".join("?" * len(parties))
    return [(int(r[0]), r[1], r[2], r[3], r[4]) for r in db.execute(
        "SELECT d.id, d.board, f.rule, f.message, f.message_json FROM findings f "
        f"JOIN deals d ON d.id = f.deal_id WHERE d.partie_id IN ({marks}) "
        "AND f.severity = 'error' ORDER BY d.id, f.id", list(parties)).fetchall()]


def _delete(store: Store, deals: Sequence[StoredDeal]) -> None:
    ids = [(d.id,) for d in deals]
    for d in deals:
        store.history(d, "removed")
    conn = store.db.conn
    for table in ("seats", "calls", "tricks", "findings"):
        conn.executemany(f"DELETE FROM {table} WHERE deal_id = ?", ids)
    conn.executemany("DELETE FROM deals WHERE id = ?", ids)
