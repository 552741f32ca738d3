"""``priffe import --jobs N`` (issue 9 point 7): the same database and output as one job.

Slices are made small here so that small files are cut into many pieces; the
workers are forked, so they see the same settings.
"""

from __future__ import annotations

import random
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from archive_support import big_file, consistent, count, partie_file, run, spawn
from test_archive_process import _stalled
from test_archive_stream import Pipe, _file_with_repeats, _tables
from test_engine_equivalence import several_parties
from test_parallel import cut_before, parties_file

from priffe_records import dumps
from priffe_records.archive import workers
from priffe_records.archive.importing import import_file
from priffe_records.archive.schema import open_archive
from priffe_records.archive.store import FileSummary, Store
from priffe_records.rules import parallel
from priffe_records.rules.preference.generate import generate_partie as pref_partie

pytestmark = pytest.mark.slow  # worker processes in every test


@pytest.fixture
def pieces(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Small slices; the list gets the number of pieces of each import with jobs."""
    monkeypatch.setattr(parallel, "_MIN_SLICE", 1 << 11)
    counted: list[int] = []
    real = workers.relay

    def counting(*args: Any, **kw: Any) -> Iterator[Any]:
        counted.append(0)
        for done in real(*args, **kw):
            counted[-1] += done.piece is not None
            yield done

    monkeypatch.setattr(workers, "relay", counting)
    return counted


def _file(path: Path, seed: int) -> Path:
    """Parties with odd items between them, one partie given twice (A B A: its second
    run supersedes nothing but finds deals stored), duplicates and unreadable records."""
    rng = random.Random(seed)
    text = several_parties(seed, rng, parties=5, rubbers=2, damage=0.2, odd=4)
    again = several_parties(seed, random.Random(seed), parties=1, rubbers=1, damage=0, odd=0)
    rest = _file_with_repeats(path).read_text("utf-8")
    path.write_text("\n\n".join([again, text, again.replace("Board \"1\"", "Board \"91\""),
                                 rest]), "utf-8")
    return path


def _import(src: Path, db_path: Path, jobs: int, **kw: Any) -> FileSummary:
    db = open_archive(db_path)
    try:
        return import_file(db, src, jobs=jobs, **kw)
    finally:
        db.close()


@pytest.mark.parametrize("reject", [False, True])
def test_jobs_store_what_one_job_stores(tmp_path: Path, pieces: list[int], reject: bool) -> None:
    src = _file(tmp_path / "in" / "fil.ppn", 7)
    one = _import(src, tmp_path / "one.db", 1, reject_invalid=reject)
    two = _import(src, tmp_path / "two.db", 2, reject_invalid=reject)
    assert pieces[-1] > 3, "the file must be cut for this test to mean anything"
    assert two == one and one.duplicates > 0 and one.records > 60
    assert _tables(tmp_path / "two.db") == _tables(tmp_path / "one.db")
    consistent(tmp_path / "two.db")


def test_a_stream_stores_what_workers_store(tmp_path: Path, pieces: list[int]) -> None:
    """A stream (read here, as one job reads) and the same bytes cut for two workers."""
    src = _file(tmp_path / "in" / "fil.ppn", 10)
    db = open_archive(tmp_path / "one.db")
    one = import_file(db, Pipe(src.read_bytes()), name=str(src))
    db.close()
    two = _import(src, tmp_path / "two.db", 2)
    assert pieces[-1] > 3, "the file must be cut for this test to mean anything"
    assert two == one and one.duplicates > 0
    assert _tables(tmp_path / "two.db") == _tables(tmp_path / "one.db")


def test_jobs_on_a_grown_file_and_a_correction(tmp_path: Path, pieces: list[int]) -> None:
    """Parties with stored deals take the one-process path: the same result."""
    src = _file(tmp_path / "in" / "fil.ppn", 8)
    full = src.read_text("utf-8")
    cut = full.index("\n\n", len(full) // 2)
    results = []
    for jobs in (1, 2):
        src.write_text(full[:cut], "utf-8")
        db = tmp_path / f"j{jobs}.db"
        first = _import(src, db, jobs)
        src.write_text(full.replace('[Result "NS 3 EW 10"]', '[Result "NS 4 EW 9"]'), "utf-8")
        second = _import(src, db, jobs)
        assert second.new > 0
        results.append((first, second, _tables(db)))
    assert results[1] == results[0]


def test_the_cli_prints_the_same_for_any_jobs(tmp_path: Path, pieces: list[int]) -> None:
    src = _file(tmp_path / "fil.ppn", 9)
    out = []
    for jobs in ("1", "2"):
        db = tmp_path / f"c{jobs}.db"
        res = run("import", str(src), "--db", str(db), "--jobs", jobs)
        assert res.exit_code in (0, 1), res.output
        out.append((res.exit_code, res.stdout, res.stderr, _tables(db)))
    assert out[1] == out[0]
    assert pieces[0] == 1 and pieces[1] > 3  # one job: the whole file, here


def test_ctrl_c_with_jobs_rolls_the_file_back(tmp_path: Path) -> None:
    """A real ``priffe import --jobs 2`` (a file big enough to be cut) stopped by SIGINT
    inside its transaction: exit 130, the database as before, no traceback."""
    db = tmp_path / "c.db"
    first = partie_file(tmp_path / "first.ppn", 31)
    assert spawn("import", str(first), "--db", str(db)).wait(timeout=60) == 0
    before = {t: count(db, t) for t in ("deals", "tricks", "findings", "parties", "rubbers")}
    big = big_file(tmp_path / "big.ppn", 48, seed=400)
    text = big.read_text("utf-8")  # four times over, as four other events
    big.write_text("\n".join(text.replace("Höstpartiet", f"Höstpartiet {n}") for n in range(4)),
                   "utf-8")
    assert big.stat().st_size > 2 * parallel._MIN_SLICE  # cut into pieces
    proc = _stalled(["import", str(big), "--db", str(db), "--jobs", "2"], after=30)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert f"interrupted: {big} was rolled back" in err and "Traceback" not in err
    assert {t: count(db, t) for t in before} == before
    consistent(db)


def _noting_pieces(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """Each piece's size in bytes, and whether its worker sent it back as rows."""
    seen: list[tuple[int, bool]] = []
    real = workers.relay

    def noting(*args: Any, **kw: Any) -> Iterator[Any]:
        for done in real(*args, **kw):
            if done.piece is not None:
                seen.append((done.piece.end - done.piece.start, done.value is not None))
            yield done

    monkeypatch.setattr(workers, "relay", noting)
    return seen


def test_jobs_cut_a_long_partie_into_small_slices(
        tmp_path: Path, pieces: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory with --jobs stays about one job's: a worker sends rows (some 14 times the
    bytes) for a slice of about SLICE bytes whatever the file's size, a long partie cut
    like any other (its books handed on from slice to slice). The database and the
    output are one job's."""
    monkeypatch.setattr(parallel, "SLICE", 1 << 12)
    seen = _noting_pieces(monkeypatch)
    small = big_file(tmp_path / "small.ppn", 16, seed=500).read_text("utf-8")
    huge = partie_file(tmp_path / "huge.ppn", 501, rubbers=6, event="Maraton").read_text("utf-8")
    huge = huge.replace("% PPN 1.0\n% EXPORT\n", "")  # one file header, at the top
    assert len(huge.encode()) > 1 << 14
    src = tmp_path / "in.ppn"
    src.write_text("\n".join([small, huge, small.replace("Höstpartiet", "Vårpartiet")
                              .replace("% PPN 1.0\n% EXPORT\n", "")]), "utf-8")
    out = []
    for jobs in ("1", "2"):
        db = tmp_path / f"m{jobs}.db"
        seen.clear()
        res = run("import", str(src), "--db", str(db), "--jobs", jobs)
        out.append((res.exit_code, res.stdout, _tables(db)))
    assert out[1] == out[0] and out[0][0] == 0
    assert len(seen) > 8 and all(rows for _, rows in seen)  # the pieces of --jobs 2
    assert all(size <= 2 * parallel.SLICE for size, _ in seen)


def _one_partie(path: Path, *, bad: bool) -> Path:
    """One long partie; when ``bad``, an unreadable record and a bad card inside it, and a
    long Préférence partie after it (its books settle at its end: all its rows wait)."""
    text = partie_file(path, 502, rubbers=8, event="Maraton").read_text("utf-8")
    if bad:
        at = text.index("[Event", len(text) // 2)
        text = text[:at] + '[Event "Maraton" x\n[Deal "N:"]\n\n' + text[at:]
        text = text.replace(" HA ", " HX ", 1)
        text += "\n" + dumps(pref_partie(3, deals=60))  # books that settle at the end
    path.write_text(text, "utf-8")
    return path


@pytest.mark.parametrize("bad", [False, True])
def test_jobs_share_a_one_partie_file(tmp_path: Path, pieces: list[int], bad: bool,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of one partie is cut and read by both workers, the books handed on; the
    archive is one job's row for row, with an unreadable record and a bad card in it."""
    monkeypatch.setattr(parallel, "SLICE", 1 << 13)
    src = _one_partie(tmp_path / "one.ppn", bad=bad)
    one = _import(src, tmp_path / "one.db", 1)
    two = _import(src, tmp_path / "two.db", 2)
    assert pieces[-1] > 3, "the file must be cut for this test to mean anything"
    assert two == one and (one.unreadable > 0) == bad
    assert _tables(tmp_path / "two.db") == _tables(tmp_path / "one.db")
    consistent(tmp_path / "two.db")


@pytest.mark.parametrize("reject", [False, True])
def test_jobs_hold_a_slice_of_texts_not_the_partie_s(
        tmp_path: Path, pieces: list[int], monkeypatch: pytest.MonkeyPatch,
        reject: bool) -> None:
    """The writer's set of a partie's texts met (a repeat is a duplicate) holds only the
    slice's: the slices before are in the database when the next one comes, so asking it
    finds them. Held for the whole partie it grew with the file. A deal repeated slices
    later, one with a bad card too (rejected with --reject-invalid), still counts as a
    duplicate, as one job counts it."""
    monkeypatch.setattr(parallel, "SLICE", 1 << 13)
    text = partie_file(tmp_path / "p.ppn", 503, rubbers=10, event="Maraton").read_text("utf-8")
    blocks = text.split("\n\n")
    deals = [i for i, b in enumerate(blocks) if b.startswith("[Event")]
    head, play = blocks[deals[2]].split("[Play ", 1)
    line, cards = play.split("\n", 1)
    bad = f"{head}[Play {line}\nHX{cards[2:]}"  # its first card no card: an error
    blocks[deals[2]] = bad
    blocks[deals[-1]:deals[-1]] = [blocks[deals[1]], bad]  # again, near the partie's end
    src = tmp_path / "in.ppn"
    src.write_text("\n\n".join(blocks), "utf-8")
    largest = [0, 0]
    real = workers._Writing._write

    def noting(self: Any, partie: Any, event: Any) -> None:
        real(self, partie, event)
        largest[-1] = max(largest[-1], len(partie.seen))

    monkeypatch.setattr(workers._Writing, "_write", noting)
    monkeypatch.setattr(workers, "_WINDOW", 16)  # one job: a window of events, not a slice
    one = _import(src, tmp_path / "one.db", 1, reject_invalid=reject)
    largest.append(0)
    two = _import(src, tmp_path / "two.db", 2, reject_invalid=reject)
    assert pieces[-1] > 4, "the file must be cut for this test to mean anything"
    assert two == one and one.duplicates == 2 and (one.rejected > 0) == reject
    assert _tables(tmp_path / "two.db") == _tables(tmp_path / "one.db")
    per_slice = max(1, one.records * parallel.SLICE // src.stat().st_size)
    assert 0 < largest[2] <= 2 * per_slice, (largest, per_slice, one.records)
    assert 0 < largest[1] <= 16, largest


@pytest.mark.parametrize(("seed", "twice"), [(1, False), (2, False), (3, True)])
def test_jobs_cut_anywhere_store_what_one_job_stores(
        tmp_path: Path, pieces: list[int], monkeypatch: pytest.MonkeyPatch, seed: int,
        twice: bool) -> None:
    """Cuts at random fresh records: inside parties and rubbers, before an unreadable
    record, a diagram or a bridge record; ``twice``: the file given twice over, so every
    partie of its second half finds its deals stored and is read again here."""
    path = parties_file(tmp_path / "p.ppn", seed)
    if twice:
        path.write_text(path.read_text("utf-8") * 2, "utf-8")
    one = _import(path, tmp_path / "one.db", 1)
    rng = random.Random(seed)
    cut_before(monkeypatch, path, sorted(rng.sample(range(2, one.records + 1), 8)))
    two = _import(path, tmp_path / "two.db", 2)
    assert pieces[-1] == 9, "cut where asked"
    assert two == one
    assert _tables(tmp_path / "two.db") == _tables(tmp_path / "one.db")
    consistent(tmp_path / "two.db")


def test_jobs_write_raw_texts_500_at_a_time(tmp_path: Path, pieces: list[int],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The raw texts of the rows workers send are written as they come, as one job writes
    them, not all kept until the end of the file."""
    held: list[int] = []
    real = Store.flush_raws

    def noting(self: Store) -> None:
        held.append(len(self.raws))
        real(self)

    monkeypatch.setattr(Store, "flush_raws", noting)
    src = big_file(tmp_path / "many.ppn", 140, seed=520)  # 626 records: more than 500
    two = _import(src, tmp_path / "two.db", 2)
    assert two.records > 600 and pieces[-1] > 3
    assert 0 < max(held) <= 500
    assert count(tmp_path / "two.db", "raw_texts") == two.records
