"""Importing a file: PPN records into the archive, nothing lost, nothing twice.

Import streams each file through the reader and the rules engine, a window
of records at a time, by one path whatever ``--jobs`` says
(:mod:`priffe_records.archive.workers`: memory is flat in the file size, however
long its parties; a partie that already has stored deals is classified whole; a
stream is first copied to a temporary file, so it is read as any file is), and
stores every record with its findings: historical games that break a rule
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
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO

import sqlite_utils

from priffe_records.archive.schema import ArchiveError, describe_sqlite_error, ensure_schema
from priffe_records.archive.store import COUNTS, FileSummary, Store
from priffe_records.format.errors import PriffeError
from priffe_records.format.splitter import may_inherit
from priffe_records.game.language import msg, os_reason
from priffe_records.rules.gcscope import batch_gc

# The reader, the rules engine and the classification load only when a file has to be
# read: a file imported unchanged costs its hash and one query, not their start-up.
Progress = Callable[[int, int], None]  # (bytes read so far, records read so far)


class SourceError(PriffeError):
    """One input file could not be imported; nothing of it was stored."""


@batch_gc  # the collector tuned for the batch, and put back as it was
def import_file(db: sqlite_utils.Database, source: str | os.PathLike[str] | IO[bytes], *,
                name: str | None = None, reject_invalid: bool = False,
                progress: Progress | None = None, jobs: int | None = 1,
                as_new: bool = False) -> FileSummary:
    """Import one file in one transaction; see the module docstring for the guarantees.

    ``jobs``: how many worker processes read and check the file
    (:mod:`priffe_records.archive.workers`); what is stored is the same for any number.
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
    summary = dict.fromkeys(COUNTS, 0)
    try:
        with _on_disk(raw, source) as path:
            digest, inherits = _file_digest(path)
            _begin(db, label)
            try:
                unchanged = _unchanged(db, label, digest, reject_invalid)
                if unchanged is not None:
                    db.execute("COMMIT")
                    return unchanged
                from priffe_records.archive.workers import store_pieces

                if jobs is None:
                    from priffe_records.rules.parallel import default_jobs

                    jobs = default_jobs(path)
                store = Store(db, label, as_new=as_new)
                with _page_cache(db):
                    store_pieces(store, path, label, jobs, summary, reject_invalid, progress,
                                 skip=not inherits)
                    store.flush_raws()
                    db.execute("INSERT OR REPLACE INTO sources (source, sha256, size, records, "
                               "rejected, reject_invalid, imported_at) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?)",
                               [label, digest, os.path.getsize(path), summary["records"],
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


@contextmanager
def _on_disk(raw: IO[bytes], source: str | os.PathLike[str] | IO[bytes]) -> Iterator[str]:
    """The path of a regular file with the rest of ``raw``'s bytes: the file itself, or a
    temporary copy of a stream (standard input, a pipe, bytes in memory), so that every
    file is read the one way, by path: cut for the workers, and a partie read again."""
    if isinstance(source, str | os.PathLike) and raw.seekable() and os.path.isfile(source):
        yield os.fspath(source)
        return
    with tempfile.TemporaryDirectory(prefix="priffe-import-") as tmp:
        path = os.path.join(tmp, "stream.ppn")
        with open(path, "wb") as copy:
            shutil.copyfileobj(raw, copy, 1 << 20)
        yield path


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


def _file_digest(path: str) -> tuple[str, bool]:
    """SHA-256 of the file, and whether a value in it may inherit (PBN §4.8 ``#``: then no
    record is skipped unread)."""
    inherits = False
    carry = b""  # a quote followed by blanks only at a block's end: the '#' may come next
    sha = hashlib.sha256()
    with open(path, "rb") as raw:
        while chunk := raw.read(1 << 20):
            sha.update(chunk)
            if not inherits:
                data = carry + chunk
                inherits = may_inherit(data)
                quote = data.rfind(b'"')
                carry = data[quote:] if quote >= 0 and not data[quote + 1:].strip() else b""
    return sha.hexdigest(), inherits


def _unchanged(db: sqlite_utils.Database, label: str, digest: str,
               reject_invalid: bool) -> FileSummary | None:
    """What importing ``label`` again would report, when its bytes are those last imported.

    A removal clears ``sources``, so a file whose records went is read again.
    """
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
