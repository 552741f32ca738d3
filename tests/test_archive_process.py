"""The archive across real processes: the installed command, concurrent imports, a kill mid-file."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from archive_support import big_file, consistent, count, partie_file, spawn, stalling_process

from priffe_records import read

pytestmark = [pytest.mark.slow,  # real processes, signals and waits
              pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")]


def priffe_exe() -> str:
    beside = Path(sys.executable).parent / "priffe"
    exe = str(beside) if beside.exists() else shutil.which("priffe")
    if exe is None:
        pytest.skip("the priffe command is not installed in this environment")
    return exe


def test_installed_command_import_query_stats_export(tmp_path: Path) -> None:
    """The issue's acceptance run, through the real ``priffe`` script."""
    exe = priffe_exe()
    examples = tmp_path / "examples"
    partie_file(examples / "lund.ppn", 21, rubbers=2)
    partie_file(examples / "more" / "gavle.ppn", 22, players=("Elsa", "Anna", "Karl", "Nils"),
                date="2026.12.01")
    n = sum(len(list(read(p))) for p in examples.rglob("*.ppn"))

    def priffe(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([exe, *args], capture_output=True, text=True, timeout=120,
                              cwd=tmp_path)

    first = priffe("import", "examples/")
    assert first.returncode == 0, first.stderr
    assert f"{n} records: {n} new, 0 duplicates" in first.stdout
    assert first.stderr == ""  # piped: no progress bar
    assert (tmp_path / "priffe.db").is_file() and (tmp_path / "priffe.metadata.json").is_file()
    again = priffe("import", "examples/")
    assert again.returncode == 0 and f"{n} records: 0 new, {n} duplicates" in again.stdout
    query = priffe("query", "--player", "Anna", "--format", "json")
    assert query.returncode == 0 and len(json.loads(query.stdout)) == n  # Anna plays both
    stats = priffe("stats")
    assert stats.returncode == 0 and "Anna" in stats.stdout
    out = tmp_path / "x.ppn"
    export = priffe("export", "-o", str(out))
    assert export.returncode == 0 and len(list(read(out))) == n
    # `priffe sql … | head`: a reader that stops early is no error.
    many = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 300000) " \
           "SELECT x FROM r"
    head = subprocess.Popen([exe, "sql", many, "--format", "csv"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=tmp_path)
    assert head.stdout is not None
    assert head.stdout.readline() == b"x\n"
    head.stdout.close()
    _, err = head.communicate(timeout=60)
    assert head.returncode == 0 and err == b""
    # Remove a file's deals (dry run first), then import them again.
    gone = priffe("remove", "--source", "examples/lund.ppn", "--dry-run")
    assert gone.returncode == 0 and "would remove the deal with id 1:" in gone.stdout
    gone = priffe("remove", "--source", "examples/lund.ppn")
    back = priffe("import", "examples/")
    assert back.returncode == 0 and f"{gone.stdout.count('removed the deal')} new" in back.stdout


def test_two_imports_at_once_both_land(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    a = big_file(tmp_path / "a.ppn", 12, seed=100)
    b = big_file(tmp_path / "b.ppn", 12, seed=200)
    expected = len(list(read(a))) + len(list(read(b)))
    procs = [spawn("import", str(p), "--db", str(db)) for p in (a, b)]
    results = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, results, strict=True):
        assert p.returncode == 0, err
        assert "0 duplicates" in out
    assert count(db) == expected
    consistent(db)


def _stalled(args: list[str], after: int) -> subprocess.Popen[str]:
    """An import that stops inside its transaction after ``after`` records of a file."""
    proc = spawn(*args, command=stalling_process(after))
    assert proc.stderr is not None
    line = proc.stderr.readline()  # blocks until the hook has fired
    assert "test stall" in line, line
    return proc


def test_killed_mid_file_leaves_the_database_as_before(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    first = partie_file(tmp_path / "first.ppn", 31)
    assert spawn("import", str(first), "--db", str(db)).wait(timeout=60) == 0
    before = {t: count(db, t) for t in ("deals", "calls", "tricks", "findings", "parties",
                                        "players", "rubbers", "settlements")}
    big = big_file(tmp_path / "big.ppn", 8, seed=300)
    proc = _stalled(["import", str(big), "--db", str(db)], after=25)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    # Nothing of the killed file: not half a record, not half a file.
    assert {t: count(db, t) for t in before} == before
    consistent(db)
    res = spawn("import", str(big), "--db", str(db))
    out, err = res.communicate(timeout=120)
    assert res.returncode == 0, err
    n = len(list(read(big)))
    assert f"{n} records: {n} new, 0 duplicates" in out
    assert count(db) == before["deals"] + n
    consistent(db)


def test_ctrl_c_and_a_waiting_second_import(tmp_path: Path) -> None:
    """While one import holds the write lock, a second one waits, then gives up clearly;
    Ctrl-C then rolls the first one back."""
    db = tmp_path / "c.db"
    big = big_file(tmp_path / "big.ppn", 4, seed=400)
    other = partie_file(tmp_path / "other.ppn", 41)
    holder = _stalled(["import", str(big), "--db", str(db)], after=10)
    start = time.monotonic()
    waiter = spawn("import", str(other), "--db", str(db), "--timeout", "1")
    _, err = waiter.communicate(timeout=60)
    assert waiter.returncode == 2
    assert time.monotonic() - start >= 1.0
    assert err.startswith("priffe: ") and "the database is busy" in err
    assert "Traceback" not in err
    holder.send_signal(signal.SIGINT)
    _, err = holder.communicate(timeout=120)  # generous: CI machines can be very busy
    assert holder.returncode == 130
    assert f"interrupted: {big} was rolled back" in err and "Traceback" not in err
    assert count(db) == 0
    consistent(db)


def test_two_processes_creating_one_new_database_both_succeed(tmp_path: Path) -> None:
    """SQLite does not wait on the busy timeout to switch a new file to WAL;
    before the retry this failed in 5 of 25 rounds with "database is locked"."""
    code = ("import sys\n"
            "from priffe_records.archive.schema import open_archive, ensure_schema\n"
            "db = open_archive(sys.argv[1], timeout=20)\n"
            "ensure_schema(db, 20)\n"
            "db.execute('BEGIN IMMEDIATE'); db.execute('COMMIT')\n")
    for round_ in range(8):
        db = tmp_path / f"new{round_}.db"
        procs = [subprocess.Popen([sys.executable, "-c", code, str(db)],
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
        for p in procs:
            _, err = p.communicate(timeout=60)
            assert p.returncode == 0, err
