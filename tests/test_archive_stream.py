"""The archive's streaming import (issue 9 point 4): the engine's facts, through its one door.

``engine.check_stream`` must give one deal's facts per item, in order, each rubber after
its deals, and every finding the validator gives (the same rules engine, read as the
archive stores it) on damaged generated parties with odd items between them and on every
example, test file and corpus file; the store built on it must store the same whatever
its window.
"""

from __future__ import annotations

import io
import json
import random
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from archive_support import consistent, count, run
from hypothesis import given
from hypothesis import strategies as st
from test_archive_truth import snapshot
from test_engine_equivalence import SEEDS, SETTINGS, _files, several_parties

from priffe_records import loads, read
from priffe_records.archive import classify, engine, workers
from priffe_records.archive.importing import import_file
from priffe_records.archive.schema import open_archive
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.format.splitter import Decoded
from priffe_records.rules.validate import validate


def assert_stream_holds_the_validators_findings(group: list[Record | BadRecord]) -> None:
    out = list(engine.check_stream(group))
    deals = [x for x in out if isinstance(x, engine.DealFacts)]
    assert len(deals) == len(group)
    rubbers = [x.number for x in out if isinstance(x, engine.RubberFacts)]
    assert set(rubbers) <= {d.rubber for d in deals}
    stored = Counter(r for x in out for r in (
        x.findings if isinstance(x, engine.DealFacts) else (x,) if isinstance(
            x, engine.FindingRow) else ()))
    checked = Counter(engine.FindingRow.at(f.rule, f.severity.value, f.text, f.location)
                      for f in validate(group))
    assert not checked - stored, sorted(map(repr, checked - stored))


def test_a_rubber_comes_after_its_deals() -> None:
    text = several_parties(3, random.Random(1), parties=1, rubbers=3, damage=0, odd=0)
    seen = 0
    for x in engine.check_stream(list(loads(text, errors="collect"))):
        if isinstance(x, engine.DealFacts) and x.rubber is not None:
            seen = max(seen, x.rubber)
        elif isinstance(x, engine.RubberFacts):
            assert x.number <= seen
    assert seen == 3


@SETTINGS
@given(SEEDS, st.integers(0, 10_000))
def test_damaged_parties_with_odd_items_give_every_finding(seed: int, pick: int) -> None:
    text = several_parties(seed, random.Random(pick), rubbers=2)
    assert_stream_holds_the_validators_findings(list(loads(text, errors="collect")))


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name[:40])
def test_real_files_give_every_finding(path: Path) -> None:
    assert_stream_holds_the_validators_findings(list(read(path, errors="collect")))


# ---------------------------------------------------------------- the store on the stream


def _tables(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table an import writes, ids included, import times left out."""
    conn = sqlite3.connect(db)
    try:
        out = {}
        for table, order in (("parties", "id"), ("players", "id"), ("rubbers", "id"),
                             ("deals", "id"), ("seats", "deal_id, seat"),
                             ("calls", "deal_id, idx"), ("tricks", "deal_id, number"),
                             ("findings", "id"), ("settlements", "rubber_id, seat"),
                             ("deal_history", "id"), ("partie_sources", "id")):
            cols = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")
                    if r[1] not in ("imported_at", "changed_at")]
            out[table] = conn.execute(
                f"SELECT {', '.join(cols)} FROM {table} ORDER BY {order}").fetchall()
        out["search"] = conn.execute(
            "SELECT rowid FROM deals_fts WHERE deals_fts MATCH 'Anna' ORDER BY rowid").fetchall()
        return out
    finally:
        conn.close()


def _file_with_repeats(path: Path) -> Path:
    """A long partie and another; in the first, a record repeated a few records on, a
    damaged one repeated and an unreadable one repeated: 3 duplicates whose first copy
    falls in another window (and, with --reject-invalid, two of them rejected)."""
    rng = random.Random(5)
    chunks = several_parties(11, rng, parties=1, rubbers=5, damage=0.3, odd=0).split("\n\n")
    assert len(chunks) >= 20
    chunks.insert(9, chunks[2])
    bad = next(c for c in chunks[3:] if '[Result "' in c)
    chunks.insert(11, bad.replace('[Result "', '[Result "1'))  # an R12 error
    chunks.insert(16, chunks[11])
    chunks.insert(6, '[Event "Torsdag" x\n[Contract "Spela"]')  # unreadable
    chunks.insert(13, chunks[6])
    chunks += several_parties(12, rng, parties=1, rubbers=1, damage=0.3, odd=0).split("\n\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n\n".join(chunks), "utf-8")
    return path


@pytest.mark.parametrize("reject", [False, True])
def test_windows_store_what_one_window_stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              reject: bool) -> None:
    src = _file_with_repeats(tmp_path / "lång.ppn")
    flag = ["--reject-invalid"] if reject else []
    results = []
    for window in (10**6, 3, 1):
        monkeypatch.setattr(classify, "_WINDOW", window)  # new deals written together
        monkeypatch.setattr(workers, "_WINDOW", window)  # the writer's events of a file
        db = tmp_path / f"w{window}.db"
        res = run("import", str(src), "--db", str(db), *flag)
        assert res.exit_code in (0, 1), res.output
        consistent(db)
        results.append((res.stdout.replace(str(db), "DB"), _tables(db)))
    assert (", 3 duplicates" if not reject else ", 3 duplicates, 0 with errors, ") \
        in results[0][0], results[0][0]
    assert results[1] == results[0] and results[2] == results[0]


def test_a_grown_partie_recomputed_equals_a_fresh_import(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The stored path (a partie with stored deals) on the same stream as the fresh one."""
    monkeypatch.setattr(classify, "_WINDOW", 2)
    src = _file_with_repeats(tmp_path / "in" / "lång.ppn")
    full = src.read_text("utf-8")
    cut = full.index("\n\n", len(full) // 2)
    src.write_text(full[:cut], "utf-8")
    db = tmp_path / "grown.db"
    assert run("import", str(src), "--db", str(db)).exit_code in (0, 1)
    src.write_text(full, "utf-8")
    assert run("import", str(src), "--db", str(db)).exit_code in (0, 1)
    fresh = tmp_path / "in" / "fresh.db"
    assert run("import", str(src), "--db", str(fresh)).exit_code in (0, 1)
    grown, once = _tables(db), _tables(fresh)
    for table in ("deals", "findings", "settlements"):
        assert len(grown[table]) == len(once[table])
    assert snapshot(db) == snapshot(fresh)


class Pipe(io.RawIOBase):
    """Bytes that can be read once and not sought, as standard input from a pipe."""

    def __init__(self, data: bytes) -> None:
        self.data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        return self.data.readinto(b)


def test_a_pipe_given_again_unchanged_is_recognised_before_it_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream is copied to a file first, so it is hashed as a file is: the same bytes
    piped again are not read (they were read in full when a pipe could not be sought)."""
    data = _file_with_repeats(tmp_path / "lång.ppn").read_bytes()
    db = open_archive(tmp_path / "a.db")
    first = import_file(db, Pipe(data), name="-")

    def unread(*args: object) -> None:
        raise AssertionError("an unchanged stream was read")

    monkeypatch.setattr(Decoded, "__init__", unread)
    again = import_file(db, Pipe(data), name="-")
    db.close()
    assert first.new > 0 and again.records == first.records
    assert (again.new, again.duplicates) == (0, first.records - first.rejected)


# ---------------------------------------------------------------- schema v5: search per batch


def test_a_version_4_archive_migrates_to_search_rows_per_batch(tmp_path: Path) -> None:
    """v5 drops the per-row insert trigger; deals found before stay found, new ones are
    indexed per batch, and a correction and a removal keep the index in step."""
    from priffe_records.archive import schema

    path = tmp_path / "v4.db"
    old = schema.open_archive(path)
    old.execute("BEGIN IMMEDIATE")
    for step in schema.MIGRATIONS[:4]:
        step(old)
    old.execute("PRAGMA user_version = 4")
    old.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    old.execute("COMMIT")
    old.execute("INSERT INTO deals (source, line, event, players, status, ppn, hash) "
                "VALUES ('gammal.ppn', 1, 'Gammal', 'Örjan', 'clean', '[Event \"Gammal\"]', 'h')")
    triggers = {r[0] for r in old.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    assert "deals_ai" in triggers
    old.close()
    db = schema.open_archive(path)
    schema.ensure_schema(db)
    assert schema.schema_version(db) == schema.SCHEMA_VERSION >= 6
    triggers = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    assert "deals_ai" not in triggers and {"deals_ad", "deals_au"} <= triggers
    db.close()
    src = _file_with_repeats(tmp_path / "lång.ppn")
    assert run("import", str(src), "--db", str(path)).exit_code in (0, 1)
    consistent(path)

    def found(text: str) -> int:
        res = run("query", "--db", str(path), "--text", text, "--format", "json")
        assert res.exit_code == 0, res.output
        return len(json.loads(res.stdout))

    assert found("Örjan") == 1
    anna = found("Anna")
    with sqlite3.connect(path) as conn:
        named = conn.execute("SELECT count(*) FROM deals WHERE players LIKE '%Anna%'")
        assert anna == named.fetchone()[0] > count(path) // 2
    conn.close()
    assert run("remove", "--db", str(path), "--event", "Gammal").exit_code == 0
    assert found("Örjan") == 0 and found("Anna") == anna
    consistent(path)
