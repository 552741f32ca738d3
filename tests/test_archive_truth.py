"""Keeping the archive true (issue 11, points 6 and 7): corrections, removals, extensions.

Each test compares an archive that went through a change with a fresh import
of the file as it is now: after any sequence of imports and removals the
stored facts must be what importing the final text once would store.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from archive_support import by_table, consistent, count, partie_file, run
from conftest import EXAMPLES

from priffe_records import dumps, read, write
from priffe_records import loads as read_text
from priffe_records.archive.classify import content_hash
from priffe_records.archive.query import partie_of_deal
from priffe_records.archive.schema import open_archive

PROTOKOLL = EXAMPLES / "protokoll-1952.ppn"


def snapshot(db: Path) -> dict[str, Any]:
    """Everything an import computes, without ids and import times (they differ by design)."""
    conn = sqlite3.connect(db)
    try:
        deals = conn.execute(
            "SELECT event, site, date, rubber, board, contract, declarer, tricks_ns, "
            "tricks_ew, made, score_ns, score_ew, claimed_score_ns, claimed_score_ew, "
            "rubber_ns, rubber_ew, players, errors, warnings, unverifiable, status, hash, ppn "
            "FROM deals ORDER BY line, hash").fetchall()
        findings = conn.execute(
            "SELECT d.board, f.rule, f.severity, f.message, f.line, f.col FROM findings f "
            "LEFT JOIN deals d ON d.id = f.deal_id ORDER BY 1, 2, 3, 4, 5").fetchall()
        rubbers = conn.execute(
            "SELECT r.number, r.complete, r.winner, r.total_ns, r.total_ew, st.seat, p.name, "
            "st.points, st.claimed FROM rubbers r LEFT JOIN settlements st ON "
            "st.rubber_id = r.id LEFT JOIN players p ON p.id = st.player_id "
            "ORDER BY 1, 6").fetchall()
        return {"deals": deals, "findings": findings, "rubbers": rubbers}
    finally:
        conn.close()


def stats(db: Path) -> Any:
    res = run("stats", "--db", str(db), "--format", "json")
    assert res.exit_code == 0, res.output
    return by_table(res.stdout)


def fresh(tmp_path: Path, source: Path) -> Path:
    """A new archive with ``source`` imported once, under the same name."""
    db = tmp_path / f"fresh-{source.stem}.db"
    assert run("import", str(source), "--db", str(db)).exit_code == 0
    return db


def correct(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert text.count(old) >= 1
    path.write_text(text.replace(old, new, 1), "utf-8")


# ---------------------------------------------------------------- point 6


def test_a_corrected_record_supersedes_the_stored_one(tmp_path: Path) -> None:
    sheet = tmp_path / "in" / "protokoll.ppn"
    sheet.parent.mkdir()
    sheet.write_text(PROTOKOLL.read_text("utf-8"), "utf-8")
    db = tmp_path / "a.db"
    assert run("import", str(sheet), "--db", str(db)).exit_code == 0
    before = count(db)
    # Board 2 corrected: one trick more for NS, so its score and the totals change.
    correct(sheet, '[Result "NS 3 EW 10"]\n[Score "NS 0 EW 80"]',
            '[Result "NS 4 EW 9"]\n[Score "NS 0 EW 60"]')
    res = run("import", str(sheet), "--db", str(db))
    assert "0 new, 1 updated, 13 duplicates" in res.stdout, res.stdout
    assert count(db) == before
    again = fresh(tmp_path / "in", sheet)
    assert stats(db) == stats(again)
    assert snapshot(db) == snapshot(again)
    consistent(db)
    with sqlite3.connect(db) as conn:
        (action, ppn, by), = conn.execute(
            "SELECT action, ppn, changed_by FROM deal_history").fetchall()
        # Each rubber is settled once: four seats each.
        per_rubber = conn.execute("SELECT count(*) FROM settlements GROUP BY rubber_id")
        assert {n for (n,) in per_rubber} == {4}
    conn.close()
    assert action == "replaced" and '[Result "NS 3 EW 10"]' in ppn and by == str(sheet)
    # The same corrected file once more: nothing changes.
    res = run("import", str(sheet), "--db", str(db))
    assert "0 new, 14 duplicates" in res.stdout
    assert snapshot(db) == snapshot(again)


def test_a_correction_in_another_file_corrects_the_same_partie(tmp_path: Path) -> None:
    """Identity is the partie's content, not its path (schema v8): a corrected copy under
    another name replaces the record it corrects, and says which by file and line."""
    copy = tmp_path / "kopia.ppn"
    copy.write_text(PROTOKOLL.read_text("utf-8"), "utf-8")
    correct(copy, '[Result "NS 3 EW 10"]\n[Score "NS 0 EW 80"]',
            '[Result "NS 4 EW 9"]\n[Score "NS 0 EW 60"]')
    db = tmp_path / "a.db"
    run("import", str(PROTOKOLL), "--db", str(db))
    res = run("import", str(copy), "--db", str(db))
    assert "0 new, 1 updated, 13 duplicates" in res.stdout
    with sqlite3.connect(db) as conn:
        (source, line, by, at), = conn.execute(
            "SELECT source, line, changed_by, changed_line FROM deal_history").fetchall()
    conn.close()
    assert (source, by) == (str(PROTOKOLL), str(copy)) and line == at
    assert f"{copy}:{at}: replaces deal 2, stored from {PROTOKOLL}:{line}" in res.stdout
    assert stats(db) == stats(fresh(tmp_path, copy))


def test_two_records_at_one_place_in_one_file_are_both_kept(tmp_path: Path) -> None:
    """A board written twice in one file is not a correction: nothing is dropped."""
    records = list(read(PROTOKOLL))
    twin = records[1].replace_tag("Result", "NS 4 EW 9").replace_tag("Score", "NS 0 EW 60")
    path = tmp_path / "twice.ppn"
    write([*records[:2], twin, *records[2:]], path)
    db = tmp_path / "a.db"
    res = run("import", str(path), "--db", str(db))
    assert f"{len(records) + 1} new" in res.stdout
    assert count(db) == len(records) + 1


# ---------------------------------------------------------------- point 7


def test_remove_dry_run_then_remove_recomputes_the_partie(tmp_path: Path) -> None:
    whole = list(read(partie_file(tmp_path / "gen.ppn", 3, rubbers=2)))
    src = tmp_path / "lund.ppn"
    write(whole, src)
    db = tmp_path / "a.db"
    run("import", str(src), "--db", str(db))
    first = snapshot(db)
    last_of_rubber_1 = max(i for i, r in enumerate(whole) if r.get("Rubber") == "1")
    with sqlite3.connect(db) as conn:
        deal_id = conn.execute("SELECT id FROM deals WHERE line = ?",
                               [whole[last_of_rubber_1].location.line]).fetchone()[0]
    conn.close()
    res = run("remove", "--db", str(db), "--id", str(deal_id), "--dry-run")
    assert res.exit_code == 0 and f"would remove the deal with id {deal_id}" in res.stdout
    assert snapshot(db) == first
    res = run("remove", "--db", str(db), "--id", str(deal_id))
    assert res.exit_code == 0 and f"removed the deal with id {deal_id}" in res.stdout
    # As if the file had never held that record.
    rest = tmp_path / "rest" / "lund.ppn"
    rest.parent.mkdir()
    write(whole[:last_of_rubber_1] + whole[last_of_rubber_1 + 1:], rest)
    assert snapshot(db)["rubbers"] != first["rubbers"]  # rubber 1 lost its last deal
    assert stats(db) == stats(fresh(tmp_path / "rest", rest))
    consistent(db)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT action FROM deal_history").fetchall() == [("removed",)]
        assert conn.execute("SELECT count(*) FROM settlements st JOIN rubbers r ON "
                            "r.id = st.rubber_id WHERE r.number = 1").fetchone()[0] == 0
    conn.close()
    # Importing the file again brings the record back, and the partie is whole again.
    res = run("import", str(src), "--db", str(db))
    assert "1 new" in res.stdout
    assert snapshot(db)["rubbers"] == first["rubbers"]
    assert stats(db) == stats(fresh(tmp_path, src))


def test_remove_by_source_event_and_partie(tmp_path: Path) -> None:
    a = partie_file(tmp_path / "a.ppn", 1)
    b = partie_file(tmp_path / "b.ppn", 2, event="Nationskväll", date="2026.12.24")
    db = tmp_path / "a.db"
    run("import", str(a), str(b), "--db", str(db))
    n_a, n_b = len(list(read(a))), len(list(read(b)))
    res = run("remove", "--db", str(db), "--event", "Nationskväll", "--dry-run")
    assert res.stdout.count("would remove the deal") == n_b and count(db) == n_a + n_b
    assert run("remove", "--db", str(db), "--source", str(b)).exit_code == 0
    assert count(db) == n_a and count(db, "parties") == 1
    consistent(db)
    with sqlite3.connect(db) as conn:
        (partie,), = conn.execute("SELECT id FROM parties").fetchall()
    conn.close()
    assert run("remove", "--db", str(db), "--partie", str(partie)).exit_code == 0
    for table in ("deals", "parties", "rubbers", "settlements", "findings", "seats"):
        assert count(db, table) == 0, table
    assert count(db, "deal_history") == n_a + n_b
    # Nothing matched: exit 1 and a plain message; no option at all: exit 2.
    res = run("remove", "--db", str(db), "--event", "Nationskväll")
    assert res.exit_code == 1 and "removed 0 deals" in res.stderr
    res = run("remove", "--db", str(db))
    assert res.exit_code == 2 and "name what to remove" in res.stderr


def test_import_of_a_missing_path_imports_the_others(tmp_path: Path) -> None:
    a = partie_file(tmp_path / "a.ppn", 1)
    c = partie_file(tmp_path / "c.ppn", 2, event="Nationskväll")
    db = tmp_path / "a.db"
    res = run("import", str(a), str(tmp_path / "saknas.ppn"), str(c), "--db", str(db))
    assert res.exit_code == 2
    assert "saknas.ppn: no such file; not imported" in res.stderr
    assert count(db) == len(list(read(a))) + len(list(read(c)))
    assert "1 file not imported" in res.stdout


def test_a_later_file_extending_a_partie_recomputes_it(tmp_path: Path) -> None:
    whole = list(read(partie_file(tmp_path / "gen.ppn", 5, rubbers=2)))
    path = tmp_path / "now" / "kvall.ppn"
    path.parent.mkdir()
    cut = next(i for i, r in enumerate(whole) if r.get("Rubber") == "2") + 1
    # The first transcript forgot board 2, and the evening went on after it.
    write([whole[0], *whole[2:cut]], path)
    db = tmp_path / "a.db"
    run("import", str(path), "--db", str(db))
    write(whole, path)
    res = run("import", str(path), "--db", str(db))
    assert f"{len(whole) - cut + 1} new, {cut - 1} duplicates" in res.stdout
    # The deals after board 2 now carry its points in their running totals.
    assert snapshot(db) == snapshot(fresh(tmp_path / "now", path))
    # The replay reads the partie in file order: board 2 (stored last) comes second.
    archive = open_archive(db, readonly=True)
    boards = [next(read_text(text)).get("Board") for _, text, *_ in partie_of_deal(archive, 1)]
    archive.close()
    assert boards == [r.get("Board") for r in whole]


# ---------------------------------------------------------------- issue 9, point 6


def test_an_unchanged_file_is_recognised_before_it_is_read(tmp_path: Path,
                                                          monkeypatch: Any) -> None:
    from priffe_records.archive import workers

    src = partie_file(tmp_path / "lund.ppn", 4)
    n = len(list(read(src)))
    db = tmp_path / "a.db"
    first = run("import", str(src), "--db", str(db)).stdout
    assert f"{n} records: {n} new" in first

    def unread(*args: object, **kw: object) -> None:
        raise AssertionError("an unchanged file was parsed")

    with monkeypatch.context() as m:
        m.setattr(workers, "_chunks", unread)
        res = run("import", str(src), "--db", str(db))
    assert res.exit_code == 0 and f"{n} records: 0 new, {n} duplicates" in res.stdout
    # With --reject-invalid the same bytes are another question: read again.
    res = run("import", str(src), "--db", str(db), "--reject-invalid")
    assert f"{n} records: 0 new, {n} duplicates" in res.stdout
    # A removal makes the file's records come back on the next import.
    run("remove", "--db", str(db), "--id", "1")
    res = run("import", str(src), "--db", str(db))
    assert f"{n} records: 1 new, {n - 1} duplicates" in res.stdout
    # One byte changed (a comment): read in full, the record superseded.
    text = src.read_text("utf-8")
    src.write_text(text.replace('[Board "1"]', '[Board "1"] {rättad}', 1), "utf-8")
    res = run("import", str(src), "--db", str(db))
    assert "1 updated" in res.stdout, res.stdout
    assert snapshot(db) == snapshot(fresh(tmp_path, src))


def test_a_correction_in_a_preference_partie(tmp_path: Path) -> None:
    """The other family too: pot and balances after a correction as after a fresh import."""
    sheet = tmp_path / "in" / "graz.ppn"
    sheet.parent.mkdir()
    sheet.write_text((EXAMPLES / "preference-graz.ppn").read_text("utf-8"), "utf-8")
    db = tmp_path / "a.db"
    run("import", str(sheet), "--db", str(db))
    correct(sheet, '[Board "2"]', '[Board "2"] {rättad}')
    assert "1 updated" in run("import", str(sheet), "--db", str(db)).stdout
    again = fresh(tmp_path / "in", sheet)
    assert stats(db) == stats(again) and snapshot(db) == snapshot(again)
    balances = ("SELECT d.board, s.seat, s.balance_change, d.pot FROM seats s JOIN deals d "
                "ON d.id = s.deal_id ORDER BY d.line, s.seat")
    with sqlite3.connect(db) as a, sqlite3.connect(again) as b:
        assert a.execute(balances).fetchall() == b.execute(balances).fetchall()
    a.close()
    b.close()


def test_a_version_1_archive_migrates_and_its_deals_can_be_corrected(tmp_path: Path) -> None:
    """An archive written before identities existed: version 2 fills deals.ident from
    its rubber and board, so a correction imported after the upgrade still supersedes."""
    from priffe_records.archive import schema

    sheet = tmp_path / "protokoll.ppn"
    sheet.write_text(PROTOKOLL.read_text("utf-8"), "utf-8")
    path = tmp_path / "old.db"
    old = open_archive(path)
    old.execute("BEGIN IMMEDIATE")
    schema.MIGRATIONS[0](old)
    old.execute("PRAGMA user_version = 1")
    old.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    old.execute("COMMIT")
    records = list(read(sheet))
    head = [records[0].get(t) for t in ("Event", "Site", "Date")]
    partie = old.execute("INSERT INTO parties (event, site, date, source) VALUES (?, ?, ?, ?)",
                         [*head, str(sheet)]).lastrowid
    texts = [dumps([r], header=False, resolve_inheritance=True) for r in records]
    for rec, text in zip(records, texts, strict=True):
        old.execute("INSERT INTO deals (partie_id, source, line, event, site, date, rubber, "
                    "board, status, ppn, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'clean', ?, ?)",
                    [partie, str(sheet), rec.location.line if rec.location else 0, *head,
                     int(rec.get("Rubber") or 0), rec.get("Board"), text, content_hash(text)])
    old.close()
    db = open_archive(path)
    schema.ensure_schema(db)
    assert schema.schema_version(db) == schema.SCHEMA_VERSION
    assert db.execute("SELECT count(*) FROM deals WHERE ident IS NULL").fetchone()[0] == 0
    db.close()
    correct(sheet, '[Result "NS 3 EW 10"]\n[Score "NS 0 EW 80"]',
            '[Result "NS 4 EW 9"]\n[Score "NS 0 EW 60"]')
    res = run("import", str(sheet), "--db", str(path))
    assert res.exit_code == 0 and "0 new, 1 updated" in res.stdout, res.output
    assert count(path) == len(texts)
    assert stats(path) == stats(fresh(tmp_path, sheet))
    consistent(path)
