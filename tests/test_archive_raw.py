"""Re-import by raw text (issue 9 point 6): stored records recognised before parsing.

The proof is a twin: every sequence of imports is run twice, once as it is and
once with the raw-text lookup switched off (every record parsed and classified
as before schema v7); the archives must be equal in every table, ids and findings
and search included, and so must the summaries. Grown, corrected, reordered and
repeated files, generated and real ones (examples, tests, golden, corpus), with
and without ``--reject-invalid`` and ``--jobs``; a grown file also equals a
from-scratch import of it. Counting parses shows the skipping is real.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from archive_support import consistent
from test_archive_jobs import pieces  # noqa: F401  (a fixture)
from test_archive_stream import _tables
from test_archive_truth import snapshot
from test_engine_equivalence import _files, several_parties

from priffe_records.archive import classify, raw, store, workers
from priffe_records.archive.importing import import_file
from priffe_records.archive.schema import open_archive
from priffe_records.archive.store import FileSummary


def _parsed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter of the chunks the import parses."""
    calls = [0]
    real = raw.RawReader.parse

    def counted(self: raw.RawReader, *args: Any) -> Any:
        calls[0] += 1
        return real(self, *args)

    monkeypatch.setattr(raw.RawReader, "parse", counted)
    return calls


def _run(tmp: Path, name: str, versions: list[str], *, jobs: int = 1,
         reject: bool = False) -> tuple[list[FileSummary], dict[str, Any]]:
    """Import each version of one file in turn into a new archive ``name``."""
    src = tmp / "in" / "fil.ppn"
    src.parent.mkdir(parents=True, exist_ok=True)
    db_path = tmp / f"{name}.db"
    db = open_archive(db_path)
    out = []
    try:
        for text in versions:
            src.write_bytes(text.encode("utf-8"))
            out.append(import_file(db, src, jobs=jobs, reject_invalid=reject))
    finally:
        db.close()
    consistent(db_path)
    tables = _tables(db_path)
    with sqlite3.connect(db_path) as conn:
        tables["raw_texts"] = conn.execute("SELECT * FROM raw_texts ORDER BY raw").fetchall()
    conn.close()
    return out, tables


def assert_as_full(tmp: Path, monkeypatch: pytest.MonkeyPatch, versions: list[str],
                   **kw: Any) -> tuple[list[FileSummary], dict[str, Any]]:
    """The import of ``versions`` equals the one that parses every record."""
    skipped = _run(tmp, "skip", versions, **kw)
    with monkeypatch.context() as m:
        m.setattr(store.Store, "known", lambda self, raws: {})
        full = _run(tmp, "full", versions, **kw)
    assert skipped[0] == full[0]
    assert skipped[1] == full[1]
    return skipped


def _records(text: str) -> list[str]:
    return text.split("\n\n")


def _versions(text: str, rng: random.Random) -> dict[str, list[str]]:
    """Changed versions of a file after its first import (each a list of imports)."""
    recs = _records(text)
    half = "\n\n".join(recs[: max(1, len(recs) // 2)])
    k = rng.randrange(len(recs))
    corrected = [*recs[:k], recs[k].replace("]", "] {rättad}", 1), *recs[k + 1:]]
    swapped = recs[len(recs) // 2:] + recs[: len(recs) // 2]
    return {
        "grown": [half, text],
        "corrected": [text, "\n\n".join(corrected)],
        "reordered": [text, "\n\n".join(swapped)],
        "shrunk and grown": [text, half, text],
    }


CASES = ["grown", "corrected", "reordered", "shrunk and grown"]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.slow  # long: many imports twice over
def test_generated_files_store_what_a_full_import_stores(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         case: str, seed: int) -> None:
    text = several_parties(seed, random.Random(seed), parties=4, rubbers=2, damage=0.3, odd=4)
    versions = _versions(text, random.Random(seed))[case]
    summaries, _ = assert_as_full(tmp_path, monkeypatch, versions)
    assert summaries[-1].duplicates > 0


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name[:40])
@pytest.mark.slow  # long: many imports twice over
def test_real_files_store_what_a_full_import_stores(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    path: Path) -> None:
    text = path.read_bytes().decode("utf-8", "replace").replace("\r\n", "\n")
    for case, versions in _versions(text, random.Random(len(text))).items():
        assert_as_full(tmp_path / case.replace(" ", "-"), monkeypatch,
                       [*versions, versions[-1] + "\n"])  # + the same again, bytes changed


def test_reject_invalid_and_a_text_corrected_earlier_in_the_same_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Partie B repeats a record of partie A. Correcting it in A (same place, new text)
    takes its text out of the archive, so B's copy, recognised by its raw text when
    the file was looked up, is new again: B must not be skipped."""
    a = several_parties(3, random.Random(3), parties=1, rubbers=2, damage=0, odd=0)
    b = several_parties(4, random.Random(4), parties=1, rubbers=1, damage=0.3, odd=0).replace(
        "2026.01.01", "2026.02.02")
    recs = _records(a)
    copy = recs[3]
    first = "\n\n".join([a, b, copy])
    second = "\n\n".join([*recs[:3], copy.replace("]", "] {rättad}", 1), *recs[4:], b, copy])
    for reject in (False, True):
        summaries, _ = assert_as_full(tmp_path / str(reject), monkeypatch, [first, second],
                                      reject=reject)
        # The copy at the end is another record of the same import: kept beside the
        # correction, never replacing it back (schema v8).
        assert reject or (summaries[1].updated, summaries[1].new) == (1, 1), summaries


def test_a_file_that_inherits_is_parsed_and_stored_alike(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    text = several_parties(5, random.Random(5), parties=2, rubbers=1, damage=0, odd=0)
    recs = _records(text)
    recs[4] = recs[4].replace('[Event "Klubbkväll"]', '[Event "#"]').replace(
        '[Event "Torsdag"]', '[Event "#"]')
    assert '"#"' in recs[4]
    versions = ["\n\n".join(recs[:6]), "\n\n".join(recs)]
    calls = _parsed(monkeypatch)
    asked: list[list[bytes]] = []
    real = store.Store.known
    monkeypatch.setattr(store.Store, "known", lambda self, raws: asked.append(raws) or
                        real(self, raws))
    assert_as_full(tmp_path, monkeypatch, versions)
    assert not asked  # nothing recognised unparsed: the reader must remember every value
    assert calls[0] >= 2 * (6 + len(recs))  # every chunk parsed each time


def test_parties_read_again_cut_the_file_once_more(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Each partie of a file corrected in one record is read again, whole: the chunks
    are cut from the file once more for all of them, not once from the top for each."""
    text = several_parties(9, random.Random(9), parties=6, rubbers=1, damage=0, odd=0)
    recs = _records(text)
    heads = [i for i, r in enumerate(recs) if '[Board "1"]' in r]
    assert len(heads) == 6
    corrected = [r.replace('[Board "1"]', '[Board "1"] {rättad}') for r in recs]
    cut = [0]
    real = workers._chunks

    def counted(piece: Any, fh: Any) -> Any:
        for chunk in real(piece, fh):
            cut[0] += 1
            yield chunk

    monkeypatch.setattr(workers, "_chunks", counted)
    summaries, _ = _run(tmp_path, "a", [text, "\n\n".join(corrected)])
    assert summaries[1].updated == 6
    assert cut[0] <= 3 * len(recs) + 3, (cut[0], len(recs))  # read, read, read again


def test_a_partie_read_again_is_checked_once(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """In one process the writer tells the producer when it will read the open partie
    again: the rest of it is read (where it ends is wanted), not analysed nor checked
    twice. What is stored is what the writer stores when it learns it too late."""
    text = several_parties(10, random.Random(10), parties=1, rubbers=4, damage=0.2, odd=0)
    recs = _records(text)
    at = next(i for i, r in enumerate(recs) if '[Board "2"]' in r)
    corrected = [*recs[:at], recs[at].replace("]", "] {rättad}", 1), *recs[at + 1:]]
    versions = [text, "\n\n".join(corrected)]
    prepared = [0]
    real = workers._prepared

    def counted(*args: Any) -> Any:
        prepared[0] += 1
        return real(*args)

    monkeypatch.setattr(workers, "_prepared", counted)
    results, counts = [], []
    for window in (4, 10**6):  # told in time; told after the file's end
        monkeypatch.setattr(workers, "_WINDOW", window)
        prepared[0] = 0
        results.append(_run(tmp_path, f"w{window}", versions))
        counts.append(prepared[0] - len(recs))  # the second import's
        assert results[-1][0][1].updated == 1
    assert results[0] == results[1]
    assert counts[1] == len(recs) - at  # too late: every record from the changed one
    assert counts[0] <= 4 + 2 < counts[1], counts  # in time: a window and the first two


def test_stored_parties_are_not_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Unchanged: nothing parsed; a partie added at the end: only its records."""
    text = several_parties(6, random.Random(6), parties=3, rubbers=1, damage=0.2, odd=2)
    more = several_parties(16, random.Random(16), parties=1, rubbers=1, damage=0, odd=0)
    more = more.replace("2026.01.01", "2027.01.01")
    calls = _parsed(monkeypatch)
    summaries, _ = _run(tmp_path, "a", [text, text + "\n", text + "\n\n" + more])
    n, m = len(_records(text)), len(_records(more))
    assert calls[0] == n + 0 + m
    assert summaries[1].duplicates == summaries[0].records
    assert summaries[2].new == m
    _run(tmp_path, "b", [text + "\n\n" + more])
    assert snapshot(tmp_path / "a.db") == snapshot(tmp_path / "b.db")


def test_a_grown_partie_equals_a_from_scratch_import(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    text = several_parties(7, random.Random(7), parties=2, rubbers=3, damage=0.2, odd=3)
    recs = _records(text)
    grown = assert_as_full(tmp_path, monkeypatch, ["\n\n".join(recs[:-3]), text])[1]
    once = _run(tmp_path, "once", [text])[1]
    # Appended: the ids are those of one import too, but for the findings' own (the
    # grown partie's findings were written again) and the raw texts of the shorter file.
    for tables in (grown, once):
        tables["findings"] = sorted(row[1:] for row in tables["findings"])
    assert set(once.pop("raw_texts")) <= set(grown.pop("raw_texts"))
    # A history: the import that grew a partie adds its row (schema v8).
    assert set(once.pop("partie_sources")) < set(grown.pop("partie_sources"))
    assert grown == once
    assert snapshot(tmp_path / "skip.db") == snapshot(tmp_path / "once.db")


@pytest.mark.slow  # long: many imports twice over
def test_jobs_store_what_a_full_import_stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              pieces: list[int]) -> None:  # noqa: F811
    text = several_parties(8, random.Random(8), parties=6, rubbers=2, damage=0.3, odd=4)
    recs = _records(text)
    versions = ["\n\n".join(recs[: len(recs) * 2 // 3]), text,
                text.replace('[Result "', '[Result "1', 1)]
    two = assert_as_full(tmp_path / "two", monkeypatch, versions, jobs=2)
    assert len(pieces) > 1 and max(pieces) > 3
    one = _run(tmp_path / "two", "one", versions)
    assert two == one


# ---------------------------------------------------------------- unchanged deals left alone


def assert_as_rewritten(tmp: Path, monkeypatch: pytest.MonkeyPatch, versions: list[str],
                        **kw: Any) -> None:
    """A recomputed partie leaves a deal that comes out as stored untouched: the archive
    equals the one where every deal is written again, but for the findings' own ids."""
    left = _run(tmp, "left", versions, **kw)
    with monkeypatch.context() as m:
        m.setattr(classify.PartieWriter, "_same", lambda self, *a: False)
        again = _run(tmp, "again", versions, **kw)
    assert left[0] == again[0]
    for tables in (left[1], again[1]):
        tables["findings"] = sorted(row[1:] for row in tables["findings"])
    assert left[1] == again[1]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.slow  # long: many imports twice over
def test_deals_that_come_out_as_stored_are_left_alone(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      case: str) -> None:
    text = several_parties(9, random.Random(9), parties=2, rubbers=3, damage=0.4, odd=3)
    recs = _records(text)
    versions = _versions(text, random.Random(9))[case]
    versions.append(text.replace(recs[1], recs[1].replace('[Result "', '[Result "1', 1)))
    assert_as_rewritten(tmp_path, monkeypatch, versions)
    assert_as_rewritten(tmp_path / "r", monkeypatch, versions, reject=True)


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name[:40])
@pytest.mark.slow  # long: many imports twice over
def test_real_deals_that_come_out_as_stored_are_left_alone(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           path: Path) -> None:
    text = path.read_bytes().decode("utf-8", "replace").replace("\r\n", "\n")
    versions = _versions(text, random.Random(len(text)))
    assert_as_rewritten(tmp_path, monkeypatch,
                        [*versions["grown"], *versions["corrected"][1:],
                         *versions["reordered"][1:]])
