"""The archive through its commands (CliRunner): import, query, sql, stats, export, metadata."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from archive_support import MESSY, by_table, consistent, count, partie_file, run

from priffe_records import dumps, loads, read, write
from priffe_records.archive import players as player_search
from priffe_records.archive import stored_messages
from priffe_records.archive.classify import content_hash
from priffe_records.archive.metadata import METADATA_NAME
from priffe_records.archive.schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    ensure_schema,
    open_archive,
)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """Three files: the messy hand-written one and two generated parties."""
    messy = tmp_path / "in" / "messy.ppn"
    messy.parent.mkdir()
    messy.write_text(MESSY, encoding="utf-8")
    lund = partie_file(tmp_path / "in" / "sub" / "lund.ppn", 11, rubbers=2)
    gavle = partie_file(tmp_path / "in" / "gavle.pbn", 12, event="Nationskväll", site="Gävle",
                        players=("Elsa", "Gustav", "Anna", "Karl"), date="2026.12.24")
    return {"messy": messy, "lund": lund, "gavle": gavle}


@pytest.fixture
def archive(tmp_path: Path, files: dict[str, Path]) -> Path:
    db = tmp_path / "priffe.db"
    res = run("import", str(files["messy"].parent), "--db", str(db))
    assert res.exit_code == 0, res.stdout
    return db


def records_in(path: Path) -> int:
    return len(list(read(path, errors="collect")))


# ---------------------------------------------------------------- schema


def test_schema_is_versioned_idempotent_and_indexed(tmp_path: Path) -> None:
    db = open_archive(tmp_path / "a.db")
    ensure_schema(db)
    ensure_schema(db)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    for name in ("parties", "rubbers", "deals", "seats", "players", "calls", "tricks",
                 "findings", "settlements", "deals_fts"):
        assert name in db.table_names()
    for view in ("player_deals", "player_results", "player_standings", "contract_success",
                 "slams"):
        assert view in db.view_names()
    # Every foreign key is declared and has an index that starts with its column.
    fks = 0
    for table in db.tables:
        firsts = {ix.columns[0] for ix in table.indexes}
        for fk in table.foreign_keys:
            fks += 1
            assert fk.column in firsts, f"{table.name}.{fk.column} has no index"
    assert fks == 12  # partie_sources.partie_id since version 8


def test_import_stores_every_record_and_reimport_is_a_noop(
        tmp_path: Path, files: dict[str, Path]) -> None:
    db = tmp_path / "priffe.db"
    total = sum(records_in(p) for p in files.values())
    res = run("import", str(files["messy"].parent), "--db", str(db))
    assert res.exit_code == 0, res.stdout
    assert f"3 files, {total} records: {total} new, 0 duplicates, 2 with errors " \
           "(1 unreadable)" in res.stdout
    assert "messy.ppn: 3 records: 3 new, 0 duplicates, 2 with errors" in res.stdout
    assert count(db) == total
    assert (tmp_path / METADATA_NAME).is_file()
    consistent(db)
    before = {t: count(db, t) for t in ("deals", "calls", "tricks", "seats", "findings",
                                        "rubbers", "settlements", "players", "parties")}
    again = run("import", str(files["messy"].parent), "--db", str(db))
    assert again.exit_code == 0
    assert f"{total} records: 0 new, {total} duplicates, 0 with errors" in again.stdout
    assert {t: count(db, t) for t in before} == before
    # The hash is that of the canonical text: a re-formatted copy is a duplicate too.
    copy = tmp_path / "copy.ppn"
    copy.write_text(files["lund"].read_text("utf-8").replace("\n[", "\n  ["), "utf-8")
    res = run("import", str(copy), "--db", str(db))
    assert "0 new" in res.stdout and count(db) == total


def test_stored_facts_follow_the_engine(archive: Path) -> None:
    conn = sqlite3.connect(archive)
    row = conn.execute("SELECT contract, declarer, declaring_side, tricks_ns, tricks_ew, made, "
                       "scoring_side, scoring_tricks, penalty_tricks, score_ns, score_ew, "
                       "rubber_ns, rubber_ew, status, players, commentary FROM deals "
                       "WHERE site = 'Västerås' AND board = '1'").fetchone()
    assert row == ("Hjärter", "E", "EW", 10, 3, 0, "NS", 4, 4, 80, 0, 90, 0, "clean",
                   "Åsa, Bertil, Cecilia, David",
                   "Klubbens första kväll ett djärvt bud North takes the first trick")
    deal_id = conn.execute("SELECT id FROM deals WHERE site = 'Västerås' AND board = '1'"
                           ).fetchone()[0]
    assert conn.execute("SELECT seat, call FROM calls WHERE deal_id = ? ORDER BY idx",
                        [deal_id]).fetchall() == [("E", "Hjärter"), ("S", "Pass"),
                                                  ("W", "Pass"), ("N", "Pass")]
    tricks = conn.execute("SELECT number, leader, winner, card_n, card_e, card_s, card_w "
                          "FROM tricks WHERE deal_id = ? ORDER BY number", [deal_id]).fetchall()
    assert len(tricks) == 13
    assert tricks[:2] == [(1, "E", "N", "HA", "H9", "H2", "H4"),
                          (2, "N", "S", "H7", "H3", "HQ", "HJ")]
    # The slam board: claimed score kept beside the computed one, and an R15 finding.
    slam = conn.execute("SELECT slam, score_ns, claimed_score_ns, status, errors FROM deals "
                        "WHERE site = 'Västerås' AND board = '2'").fetchone()
    assert slam == ("grand", 90, 80, "errors", 1)
    assert conn.execute("SELECT rule, severity, f.line FROM findings f JOIN deals d "
                        "ON d.id = f.deal_id WHERE d.board = '2' AND d.site = 'Västerås' "
                        "AND f.severity = 'error'").fetchall() == [("R15", "error", 51)]
    # The unreadable record: flagged, raw text kept, located finding.
    bad = conn.execute("SELECT status, ppn, partie_id IS NOT NULL, line FROM deals "
                       "WHERE status = 'unreadable'").fetchone()
    assert bad[0] == "unreadable" and "Hjärterr Pass" in bad[1] and bad[2] and bad[3] == 54
    assert conn.execute("SELECT rule, line, col FROM findings WHERE rule = 'PPN'").fetchall() \
        == [("PPN", 57, 12), ("PPN", 59, 1)]
    # Rubbers and settlements of the generated partie (zero-sum, R23).
    assert conn.execute("SELECT sum(points) FROM settlements").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM rubbers WHERE complete = 1").fetchone()[0] >= 3
    conn.close()


def test_a_partie_split_over_two_files_is_settled_once(tmp_path: Path) -> None:
    """File B repeats file A's deals and goes on: B's new deals land, no rubber twice."""
    whole = list(read(partie_file(tmp_path / "whole.ppn", 5, rubbers=3)))
    cut = next(i for i, r in enumerate(whole) if r.get("Rubber") == "2") + 2
    write(whole[:cut], tmp_path / "a.ppn")
    write(whole, tmp_path / "b.ppn")
    standings = "SELECT player, settlement FROM player_standings ORDER BY player"
    split, alone = tmp_path / "split.db", tmp_path / "alone.db"
    run("import", str(tmp_path / "a.ppn"), str(tmp_path / "b.ppn"), "--db", str(split))
    run("import", str(tmp_path / "b.ppn"), "--db", str(alone))
    assert count(split) == count(alone) == len(whole)
    with sqlite3.connect(split) as a, sqlite3.connect(alone) as b:
        assert a.execute(standings).fetchall() == b.execute(standings).fetchall()
        assert a.execute("SELECT count(*) FROM settlements").fetchone()[0] == 12
    a.close()
    b.close()


def test_a_sheet_without_names_invents_no_players(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.ppn"
    deal = '[Event "Protokoll"]\n[Board "{}"]\n[Declarer "N"]\n[Contract "Spela"]\n' \
           '[Result "NS 13 EW 0"]\n[Honours "NS 0 EW 0"]\n'
    sheet.write_text(deal.format(1) + "\n" + deal.format(2), "utf-8")
    db = tmp_path / "s.db"
    assert run("import", str(sheet), "--db", str(db)).exit_code == 0
    assert count(db, "players") == 0
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seat, player_id, points FROM settlements ORDER BY seat")
        assert rows.fetchall() == [("E", None, -21), ("N", None, 21), ("S", None, 21),
                                   ("W", None, -21)]
    conn.close()


def test_reject_invalid_skips_records_with_errors(tmp_path: Path,
                                                  files: dict[str, Path]) -> None:
    db = tmp_path / "strict.db"
    res = run("import", str(files["messy"]), "--db", str(db), "--reject-invalid")
    assert res.exit_code == 0
    assert "3 records: 1 new, 0 duplicates, 0 with errors, 2 rejected" in res.stdout
    assert count(db) == 1
    # Without the flag the rejected ones come in later; the stored one is a duplicate.
    res = run("import", str(files["messy"]), "--db", str(db))
    assert "3 records: 2 new, 1 duplicate, 2 with errors" in res.stdout


def test_bridge_corpus_is_kept_whole(tmp_path: Path, corpus_files: list[Path]) -> None:
    """PBN files of another game: every record stored (flagged), and exported back unchanged.
    Files that hold the same deal at the same table (the corpus's comment tests) are a
    correction of it: the import says "updated", and the replaced text stays in
    ``deal_history``, so no record is lost."""
    db = tmp_path / "bridge.db"
    files = corpus_files
    res = run("import", *map(str, files), "--db", str(db))
    assert res.exit_code == 0, res.stdout
    originals = [r for f in files for r in read(f, errors="collect")]
    total = res.stdout.strip().splitlines()[-1]  # "17 files, 229 records: 225 new, 4 updated, …"
    said = re.search(r"(\d+) updated", total)
    updated = int(said.group(1)) if said else 0
    assert count(db, "deal_history") >= updated
    assert count(db) + updated == len({content_hash(dumps([r], header=False,
                                                          resolve_inheritance=True))
                                       for r in originals})
    out = tmp_path / "back.pbn"
    assert run("export", "--db", str(db), "-o", str(out)).exit_code == 0
    assert len(list(read(out, errors="collect"))) == count(db)
    consistent(db)


# ---------------------------------------------------------------- query


def ids(res_stdout: str) -> list[int]:
    return [row["id"] for row in json.loads(res_stdout)]


def q(db: Path, *args: str) -> list[int]:
    res = run("query", "--db", str(db), "--format", "json", *args)
    assert res.exit_code == 0, res.stdout
    return ids(res.stdout)


def test_query_filters(archive: Path) -> None:
    conn = sqlite3.connect(archive)

    def sql(where: str, *params: object) -> list[int]:
        return [r[0] for r in conn.execute(f"SELECT d.id FROM deals d WHERE {where} "
                                           "ORDER BY d.id", params)]

    everyone = sql("1")
    assert q(archive) == everyone
    anna = sql("id IN (SELECT deal_id FROM seats s JOIN players p ON p.id = s.player_id "
               "WHERE p.name = 'Anna')")
    assert q(archive, "--player", "anna") == anna and 0 < len(anna) < len(everyone)
    with_elsa = sql("id IN (SELECT a.deal_id FROM seats a JOIN seats b ON a.deal_id = b.deal_id "
                    "JOIN players pa ON pa.id = a.player_id JOIN players pb ON pb.id = b.player_id "
                    "WHERE pa.name = 'Anna' AND pb.name = 'Elsa' AND a.side = b.side)")
    assert q(archive, "--player", "Anna", "--partner", "Elsa") == with_elsa
    against = sql("id IN (SELECT a.deal_id FROM seats a JOIN seats b ON a.deal_id = b.deal_id "
                  "JOIN players pa ON pa.id = a.player_id JOIN players pb ON pb.id = b.player_id "
                  "WHERE pa.name = 'Anna' AND pb.name = 'Bertil' AND a.side <> b.side)")
    assert q(archive, "--player", "Anna", "--opponent", "Bertil") == against
    assert against and with_elsa
    assert q(archive, "--event", "nations") == sql("event = 'Nationskväll'")
    assert q(archive, "--site", "Västerås") == sql("site = 'Västerås'")
    assert q(archive, "--player", "ÅSA") == sql("site = 'Västerås' AND status <> 'unreadable'")
    assert q(archive, "--date-from", "2026-11-01", "--date-to", "2026.11.30") == \
        sql("date BETWEEN '2026.11.01' AND '2026.11.30'")
    assert q(archive, "--date-to", "2026.10") == sql("date <= '2026.10.99'")
    assert q(archive, "--contract", "hjarter") == sql("contract = 'Hjärter'")
    assert q(archive, "--declarer-side", "ew") == sql("declaring_side = 'EW'")
    assert q(archive, "--declarer-side", "öv") == sql("declaring_side = 'EW'")  # Swedish ÖV
    assert q(archive, "--made") == sql("made = 1")
    assert q(archive, "--defeated") == sql("made = 0")
    assert q(archive, "--slam") == sql("slam IS NOT NULL")
    assert q(archive, "--errors") == sql("errors > 0")
    assert q(archive, "--clean") == sql("errors = 0")
    assert len(q(archive, "--errors")) == 2
    # Combined filters are an AND.
    assert q(archive, "--player", "Anna", "--made", "--contract", "Spela") == \
        sorted(set(anna) & set(sql("made = 1")) & set(sql("contract = 'Spela'")))
    conn.close()


def test_full_text_search(archive: Path) -> None:
    # Event, site, names and commentary; diacritics fold ("Vasteras" finds "Västerås").
    vasteras = q(archive, "--text", "Vasteras")
    assert len(vasteras) == 2  # the unreadable record has no site to search
    assert q(archive, "--text", "djärvt bud") == vasteras[:1]
    assert q(archive, "--text", "Åsa") == vasteras
    assert len(q(archive, "--text", "Gustav")) > 0
    # FTS syntax in the words is plain text, not an error or an injection.
    assert q(archive, "--text", 'NOT "OR') == []
    assert q(archive, "--text", "x'); DROP TABLE deals; --") == []
    assert count(archive) > 0


def test_query_output_formats(tmp_path: Path, archive: Path) -> None:
    table = run("query", "--db", str(archive), "--site", "Västerås")
    assert table.exit_code == 0 and "Hjärter" in table.stdout and "Åsa" in table.stdout
    assert "━" in table.stdout  # a rich table
    assert "2 deals" in table.stderr
    raw = run("query", "--db", str(archive), "--site", "Västerås", "--format", "csv").stdout
    rows = list(csv.DictReader(io.StringIO(raw)))
    assert [r["board"] for r in rows] == ["1", "2"] and rows[0]["north"] == "Åsa"
    ppn = run("query", "--db", str(archive), "--site", "Västerås", "--format", "ppn")
    assert ppn.exit_code == 0 and ppn.stdout.startswith("% PPN 1.0\n% EXPORT\n")
    assert [r.get("Board") for r in loads(ppn.stdout)] == ["1", "2"]
    out = tmp_path / "sel.ppn"
    res = run("query", "--db", str(archive), "--errors", "--format", "ppn", "-o", str(out))
    assert res.exit_code == 0 and len(list(loads(out.read_text("utf-8"),
                                                 errors="collect"))) == 2
    limited = run("query", "--db", str(archive), "--format", "json", "--limit", "3")
    assert len(json.loads(limited.stdout)) == 3
    limited = run("query", "--db", str(archive), "--format", "ppn", "--limit", "2")
    assert len(list(loads(limited.stdout))) == 2


def test_query_errors_are_one_line(tmp_path: Path, archive: Path) -> None:
    cases = [
        (["--partner", "Anna"], "--partner and --opponent need --player"),
        (["--contract", "Spelaa"], "did you mean 'Spela'"),
        (["--date-from", "29/11/2026"], "date '29/11/2026': write YYYY.MM.DD"),
    ]
    for args, message in cases:
        res = run("query", "--db", str(archive), *args)
        assert res.exit_code == 2 and message in res.stderr, (args, res.stderr)
        assert res.stderr.startswith("priffe: ") and "Traceback" not in res.stderr
    res = run("query", "--db", str(tmp_path / "none.db"))
    assert res.exit_code == 2 and "no such database" in res.stderr


# ---------------------------------------------------------------- sql, stats, export


def test_sql_is_read_only(archive: Path) -> None:
    res = run("sql", "SELECT contract, count(*) AS n FROM deals GROUP BY contract "
              "ORDER BY contract", "--db", str(archive), "--format", "json")
    assert res.exit_code == 0
    assert sum(r["n"] for r in json.loads(res.stdout)) == count(archive)
    before = count(archive)
    for statement in ("DELETE FROM deals", "INSERT INTO players (name) VALUES ('x')",
                      "DROP TABLE deals", "PRAGMA user_version = 99",
                      "ATTACH DATABASE 'other.db' AS o", "VACUUM INTO 'copy.db'"):
        res = run("sql", statement, "--db", str(archive))
        assert res.exit_code == 2, statement
        assert "priffe sql is read-only" in res.stderr, (statement, res.stderr)
    assert count(archive) == before
    assert not Path("other.db").exists() and not Path("copy.db").exists()
    res = run("sql", "SELECT 1; SELECT 2", "--db", str(archive))
    assert res.exit_code == 2 and "one statement at a time" in res.stderr
    res = run("sql", "SELECT nope FROM deals", "--db", str(archive))
    assert res.exit_code == 2 and "no such column: nope" in res.stderr
    blob = run("sql", "SELECT x'00ff' AS b", "--db", str(archive), "--format", "json")
    assert json.loads(blob.stdout) == [{"b": "00ff"}]
    ppn = run("sql", "SELECT ppn FROM deals WHERE board = '1' AND site = 'Västerås'",
              "--db", str(archive), "--format", "ppn")
    assert [r.get("North") for r in loads(ppn.stdout)] == ["Åsa"]


def test_stats(archive: Path) -> None:
    res = run("stats", "--db", str(archive), "--format", "json")
    assert res.exit_code == 0, res.stdout
    doc: Any = by_table(res.stdout)
    standings = doc["standings"]
    assert sum(r["settlement"] for r in standings) == 0  # R23 is zero-sum
    players = {r["player"]: r for r in doc["players"]}
    conn = sqlite3.connect(archive)
    anna_deals = conn.execute("SELECT count(*) FROM seats s JOIN players p ON p.id = "
                              "s.player_id WHERE p.name = 'Anna'").fetchone()[0]
    assert players["Anna"]["deals"] == anna_deals
    declared = conn.execute("SELECT count(*), sum(made) FROM deals d JOIN seats s ON "
                            "s.deal_id = d.id AND s.seat = d.declarer JOIN players p ON "
                            "p.id = s.player_id WHERE p.name = 'Anna'").fetchone()
    assert (players["Anna"]["declared"], players["Anna"]["made"]) == declared
    # Penalty tricks: what declarers suffer, defenders inflict.
    assert sum(p["penalty_suffered"] for p in players.values()) == \
        sum(p["penalty_inflicted"] for p in players.values())
    rates = {r["contract"]: r for r in doc["contract_success"]}
    assert rates["Hjärter"]["declared"] == rates["Hjärter"]["made"] + \
        rates["Hjärter"]["defeated"]
    one: Any = by_table(run("stats", "--db", str(archive), "--player", "åSA", "--format",
                            "json").stdout)  # Unicode case folding, not SQLite's ASCII NOCASE
    assert [r["player"] for r in one["players"]] == ["Åsa"]
    assert "contracts_played" in one
    table = run("stats", "--db", str(archive))
    assert "Standings" in table.stdout and "Contract success rates" in table.stdout
    res = run("stats", "--db", str(archive), "--player", "Nobody")
    assert res.exit_code == 2 and "no player 'Nobody'" in res.stderr
    conn.close()


def test_export_round_trip_keeps_comments(tmp_path: Path, files: dict[str, Path],
                                          archive: Path) -> None:
    out = tmp_path / "out" / "all.ppn"
    out.parent.mkdir()
    res = run("export", "--db", str(archive), "-o", str(out))
    assert res.exit_code == 0 and f"{count(archive)} records written" in res.stderr
    # In import order: the files (sorted), each in file order; text = fmt of the originals.
    order = sorted(files.values())
    expected = dumps([r for f in order for r in read(f, errors="collect")],
                     resolve_inheritance=True)
    assert out.read_text("utf-8") == expected
    assert "{North takes the first trick}" in expected and "; storslam?" in expected
    # An existing file is kept unless --force; then replaced atomically (no temp files left).
    res = run("export", "--db", str(archive), "--player", "Åsa", "-o", str(out))
    assert res.exit_code == 2 and "the file exists; nothing written" in res.stderr
    assert out.read_text("utf-8") == expected
    # Filters work as in query.
    res = run("export", "--db", str(archive), "--player", "Åsa", "-o", str(out), "--force")
    assert res.exit_code == 0
    assert [r.get("Board") for r in read(out)] == ["1", "2"]
    assert sorted(p.name for p in out.parent.iterdir()) == ["all.ppn"]
    res = run("export", "--db", str(archive), "--site", "Lund", "-o", "-")
    assert res.stdout.startswith("% PPN 1.0") and "Västerås" not in res.stdout


def test_inherited_values_are_written_out(tmp_path: Path) -> None:
    src = tmp_path / "inherit.ppn"
    src.write_text('[Event "##Vårträff"]\n[Site "Lund"]\n[Contract "Spela"]\n'
                   '[Declarer "N"]\n[Result "NS 8 EW 5"]\n\n'
                   '[Site "Lund"]\n[Contract "Noll"]\n[Declarer "E"]\n[Result "NS 9 EW 4"]\n',
                   "utf-8")
    db = tmp_path / "i.db"
    assert run("import", str(src), "--db", str(db)).exit_code == 0
    out = tmp_path / "o.ppn"
    run("export", "--db", str(db), "-o", str(out))
    back = list(read(out))
    assert [r.get("Event") for r in back] == ["Vårträff", "Vårträff"]
    assert back == list(loads(dumps(read(src), resolve_inheritance=True)))


def test_metadata_for_datasette(tmp_path: Path, archive: Path) -> None:
    meta = json.loads((archive.parent / METADATA_NAME).read_text("utf-8"))
    db = meta["databases"]["priffe"]
    assert db["tables"]["deals"]["fts_table"] == "deals_fts"
    assert "contract" in db["tables"]["deals"]["facets"]
    conn = sqlite3.connect(archive)
    stored_messages.register(conn)  # as the Datasette plugin does (prepare_connection)
    player_search.register(conn)  # priffe_players(text): deals_of_player finds by a part
    try:  # Datasette's own function, which it adds to every connection (search)
        from datasette.utils import escape_fts
    except ImportError:  # without the serve extra: the words quoted, near enough
        def escape_fts(q: str) -> str:
            return " ".join(f'"{w}"' for w in q.replace('"', "").split())
    conn.create_function("escape_fts", 1, escape_fts)
    for name, query in db["queries"].items():  # every canned query runs on the schema
        params = {"player": "Anna", "words": "Lund"}
        conn.execute(query["sql"], params).fetchall()
        assert name
    conn.close()
    out = tmp_path / "custom.json"
    res = run("metadata", "--db", str(archive), "-o", str(out))
    assert res.exit_code == 0 and json.loads(out.read_text("utf-8")) == meta


# A score sheet whose claims hold numbers from the wild, each on its own line.
HUGE = """\
[Event "Klubbkväll"]
[Site "Västerås"]
[Date "1952.03.14"]
[Rubber "1"]
[Board "2"]
[North "Ingeborg"]
[Score "NS {score} EW 0"]
[ScoreRubber "NS {total} EW 0"]
[Settlement "N {settled};S 1;E 1;W 1"]
"""


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_number_too_large_for_sqlite_is_a_located_finding(tmp_path: Path, jobs: int) -> None:
    """Claims beyond 2**63 cannot go to an integer column: the record is stored and each
    such claim is a warning at its tag (its rule named), never a silently empty column;
    2**63 - 1 still fits and is stored."""
    path = tmp_path / "stora.ppn"
    big, fits = str(2**64), str(2**63 - 1)
    path.write_text(HUGE.format(score=big, total=str(2**63), settled="9" * 20) + "\n"
                    + HUGE.format(score=fits, total=fits, settled=fits).replace('[Board "2"]',
                                                                                '[Board "3"]'),
                    "utf-8")
    db = tmp_path / "a.db"
    res = run("import", str(path), "--db", str(db), "--jobs", str(jobs))
    assert res.exit_code == 0 and "2 new" in res.stdout, res.output
    with sqlite3.connect(db) as conn:
        found = conn.execute("SELECT f.rule, f.line, f.col, f.message FROM findings f "
                             "WHERE f.message LIKE '%beyond 2**63%' ORDER BY f.line").fetchall()
        stored = conn.execute("SELECT claimed_score_ns, claimed_rubber_ns FROM deals "
                              "ORDER BY line").fetchall()
    conn.close()
    assert [(rule, line) for rule, line, _, _ in found] == [("R15", 7), ("R23", 8), ("R23", 9)]
    assert all(col and f"({rule})" not in text for rule, _, col, text in found)  # named once
    assert big in found[0][3] and "9" * 20 in found[2][3]
    assert stored == [(None, None), (2**63 - 1, 2**63 - 1)]
