"""Bad input for the archive: each case is one ``priffe: …`` line, exit 2, and data intact."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlite_utils
from archive_support import MESSY, consistent, count, partie_file, run

import priffe_records.archive.schema as schema_module
from priffe_records import read
from priffe_records.archive import workers
from priffe_records.archive.schema import SCHEMA_VERSION, ensure_schema, open_archive


@pytest.fixture
def stored(tmp_path: Path) -> Path:
    """An archive holding one partie."""
    db = tmp_path / "priffe.db"
    src = partie_file(tmp_path / "first.ppn", 3)
    assert run("import", str(src), "--db", str(db)).exit_code == 0
    return db


def one_line_error(res: Any, *needles: str) -> None:
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("priffe: ") and "Traceback" not in res.output
    for n in needles:
        assert n in res.stderr, res.stderr


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    junk = tmp_path / "priffe.db"
    junk.write_bytes(b"these are my notes, not a database\n" * 100)
    before = junk.read_bytes()
    src = partie_file(tmp_path / "a.ppn", 1)
    for args in (["import", str(src)], ["query"], ["stats"], ["sql", "SELECT 1"],
                 ["export", "-o", str(tmp_path / "x.ppn")], ["metadata"]):
        res = run(*args, "--db", str(junk))
        one_line_error(res, f"{junk}: not a SQLite database")
    assert junk.read_bytes() == before
    assert not (tmp_path / "x.ppn").exists()


def test_a_database_of_a_newer_schema(tmp_path: Path, stored: Path) -> None:
    with sqlite3.connect(stored) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    n = count(stored)
    src = partie_file(tmp_path / "b.ppn", 2)
    for args in (["import", str(src)], ["query"], ["stats"]):
        one_line_error(run(*args, "--db", str(stored)),
                       f"archive schema version {SCHEMA_VERSION + 1}", "upgrade priffe-records")
    assert count(stored) == n


def test_a_database_of_another_program(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.close()
    src = partie_file(tmp_path / "c.ppn", 3)
    one_line_error(run("import", str(src), "--db", str(other)),
                   "a SQLite database of another program")
    with sqlite3.connect(other) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["invoices"]
    conn.close()


def test_a_new_archive_created_by_another_import_meanwhile_is_ours(tmp_path: Path) -> None:
    """Two imports start on one new file: the second reads the schema the first commits.

    Its check read application_id, user_version and the table list one statement at a
    time; when the first import committed between them, a brand-new priffe archive
    looked like "a database of another program" (seen once in a full test run).
    """
    path = tmp_path / "new.db"
    first = open_archive(path)  # an empty file, in WAL like every writable archive
    first.execute("PRAGMA journal_mode = WAL")
    second = sqlite3.connect(path, isolation_level=None)
    committed: list[bool] = []

    def meanwhile(statement: str) -> None:
        # The moment the second process lists the tables, the first commits its schema.
        if "sqlite_master" in statement and not committed:
            committed.append(True)
            ensure_schema(first)

    second.set_trace_callback(meanwhile)
    try:
        schema_module._check_ours(sqlite_utils.Database(second), str(path))
    finally:
        second.set_trace_callback(None)
        second.close()
        first.conn.close()
    assert committed, "the test never reached the moment it is about"


def test_a_locked_database_waits_then_says_so(tmp_path: Path, stored: Path) -> None:
    n = count(stored)
    blocker = sqlite3.connect(stored, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another import is writing
    try:
        src = partie_file(tmp_path / "d.ppn", 4)
        res = run("import", str(src), "--db", str(stored), "--timeout", "0.3")
        one_line_error(res, "the database is busy", "raise --timeout", "d.ppn was not imported")
        # Readers are not blocked by a writer (WAL).
        assert run("query", "--db", str(stored), "--format", "csv").exit_code == 0
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert count(stored) == n
    res = run("import", str(src), "--db", str(stored))
    assert res.exit_code == 0 and count(stored) > n


def test_a_place_that_cannot_be_written(tmp_path: Path) -> None:
    src = partie_file(tmp_path / "e.ppn", 5)
    if os.geteuid() == 0:  # root ignores file modes: use a file system that refuses files
        target = Path("/proc/priffe-test.db")
    else:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        target = ro / "priffe.db"
    one_line_error(run("import", str(src), "--db", str(target)), str(target))
    assert not target.exists()
    one_line_error(run("import", str(src), "--db", str(tmp_path / "no" / "such" / "x.db")),
                   "does not exist")
    res = run("import", str(src), "--db", str(tmp_path))  # click checks this one
    assert res.exit_code == 2 and "is a directory" in res.stderr and "Traceback" not in res.output


def test_a_file_that_vanishes_mid_import(tmp_path: Path, stored: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """An I/O error half-way: that file is rolled back whole, the next file still lands."""
    n = count(stored)
    going = partie_file(tmp_path / "going.ppn", 6)
    staying = partie_file(tmp_path / "staying.ppn", 7)
    real_read = workers._chunks

    def flaky(piece: Any, fh: Any) -> Iterator[Any]:
        for i, rec in enumerate(real_read(piece, fh)):
            if i == 5 and "going" in piece.path:
                raise FileNotFoundError(2, "No such file or directory")
            yield rec

    monkeypatch.setattr(workers, "_chunks", flaky)
    res = run("import", str(going), str(staying), "--db", str(stored))
    assert res.exit_code == 2
    assert f"priffe: {going}: No such file or directory while reading; nothing of it was " \
           "imported" in res.stderr
    assert "staying.ppn" in res.stdout and "1 file not imported" in res.stdout
    with sqlite3.connect(stored) as conn:
        sources = {r[0] for r in conn.execute("SELECT DISTINCT source FROM deals")}
    conn.close()
    assert str(going) not in sources and str(staying) in sources
    consistent(stored)
    assert count(stored) > n
    one_line_error(run("import", str(tmp_path / "gone.ppn"), "--db", str(stored)),
                   "gone.ppn: no such file")


def test_ctrl_c_rolls_back_the_current_file_only(tmp_path: Path, stored: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    n = count(stored)
    first = partie_file(tmp_path / "a1.ppn", 8)
    second = partie_file(tmp_path / "a2.ppn", 9)
    real_read = workers._chunks

    def interrupted(piece: Any, fh: Any) -> Iterator[Any]:
        for i, rec in enumerate(real_read(piece, fh)):
            if i == 3 and "a2" in piece.path:
                raise KeyboardInterrupt
            yield rec

    monkeypatch.setattr(workers, "_chunks", interrupted)
    res = run("import", str(first), str(second), "--db", str(stored))
    assert res.exit_code == 130
    assert f"priffe: interrupted: {second} was rolled back; the files before it are stored" \
        in res.stderr
    added = count(stored) - n
    assert added == len(list(read(first)))
    consistent(stored)


def test_unreadable_records_are_reported_with_their_location(tmp_path: Path) -> None:
    src = tmp_path / "messy.ppn"
    src.write_text(MESSY, "utf-8")
    db = tmp_path / "m.db"
    assert run("import", str(src), "--db", str(db)).exit_code == 0
    res = run("sql", "SELECT file || ':' || line || ':' || col AS at, message FROM findings "
              "WHERE rule = 'PPN'", "--db", str(db), "--format", "csv")
    assert f"{src}:59:1,unknown call 'Hjärterr'" in res.stdout
