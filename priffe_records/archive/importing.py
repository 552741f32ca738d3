"""Importing a file: PPN records into the archive, nothing lost, nothing twice.

Import streams each file through the reader and the rules engine, a window
of records at a time (memory is flat in the file size, however long its
parties; a partie that already has stored deals is classified
whole), and stores every record with its findings: historical games that break a rule
are kept and flagged, never dropped. Importing a text again is a no-op, a corrected
text supersedes the stored one, and every change recomputes its whole partie
(:mod:`priffe_records.archive.store`). A file whose bytes are those
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, cast

import sqlite_utils

from priffe_records.archive.schema import ArchiveError, describe_sqlite_error, ensure_schema
from priffe_records.archive.store import COUNTS, FileSummary, Store
from priffe_records.format.errors import PriffeError
from priffe_records.format.splitter import may_inherit
from priffe_records.game.language import msg, os_reason
from priffe_records.rules.gcscope import batch_gc

# The reader, the rules engine and the classification load only when a file has to be
# read: a file imported unchanged costs its hash and one query, not their start-up.
if TYPE_CHECKING:
    from priffe_records.format.splitter import Chunk

Progress = Callable[[int, int], None]  # (bytes read so far, records read so far)


class SourceError(PriffeError):
    """One input file could not be imported; nothing of it was stored."""


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
    summary = dict.fromkeys(COUNTS, 0)

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
            from priffe_records.archive.classify import store_chunks

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
                    store_chunks(store, read_chunks(cast(IO[bytes], counting), name=label),
                                 label, summary, reject_invalid, tick,
                                 skip=digest is not None and not inherits)
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
