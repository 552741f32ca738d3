"""The archive commands in Swedish: errors, the import summary, remove, the tables' titles,
headings and words; JSON and CSV keep their English keys for scripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES

from priffe_records.cli import cli


def _run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, list(args), prog_name="priffe")
    return res.exit_code, res.stdout, res.stderr


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("arch") / "a.db")
    code, out, err = _run("import", "--lang", "sv", "--db", path, str(EXAMPLES))
    assert code == 0, err
    assert "poster:" in out and "nya," in out and " records" not in out
    return path


def test_archive_errors_in_swedish_and_english(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.db")
    code, _, err = _run("query", "--lang", "sv", "--db", missing)
    assert code == 2 and "databasen finns inte (skapa en med 'priffe import')" in err
    code, _, err = _run("query", "--lang", "en", "--db", missing)
    assert code == 2 and "no such database (create one with 'priffe import')" in err
    code, _, err = _run("import", "--lang", "sv", "--db", str(tmp_path / "no" / "a.db"),
                        str(EXAMPLES))
    assert code == 2 and "a.db: mappen" in err and "finns inte" in err


def test_query_errors_in_swedish(db: str) -> None:
    code, _, err = _run("query", "--lang", "sv", "--db", db, "--date-from", "19x")
    assert code == 2 and "skriv ÅÅÅÅ.MM.DD" in err
    code, _, err = _run("sql", "--lang", "sv", "--db", db, "DELETE FROM deals")
    assert code == 2 and "priffe sql kan bara läsa" in err
    code, _, err = _run("stats", "--lang", "sv", "--db", db, "--player", "Nobody")
    assert code == 2 and "ingen spelare 'Nobody' i arkivet" in err


def test_query_table_headings_and_words_in_swedish_csv_in_english(db: str) -> None:
    _, sv, _ = _run("query", "--lang", "sv", "--db", db, "--fmt", "plain", "--limit", "1")
    assert sv.split()[:4] == ["id", "datum", "tävling", "giv"]
    assert "bet" in sv and "felfri" in sv and "defeated" not in sv and "clean" not in sv
    _, en, _ = _run("query", "--lang", "en", "--db", db, "--fmt", "plain", "--limit", "1")
    assert en.split()[:4] == ["id", "date", "event", "board"] and "clean" in en
    _, csv_sv, _ = _run("query", "--lang", "sv", "--db", db, "--csv", "--limit", "1")
    assert csv_sv.startswith("id,date,event,site,") and ",clean," in csv_sv


def test_stats_titles_in_swedish_json_keys_in_english(db: str) -> None:
    _, sv, _ = _run("stats", "--lang", "sv", "--db", db, "--fmt", "simple")
    assert "Ställning (avräkning per spelare, R23/R24)" in sv and "robbertar" in sv
    assert "Standings" not in sv and "rubbers" not in sv
    _, doc, _ = _run("stats", "--lang", "sv", "--db", db, "--json")
    assert "Standings (individual settlements, R23/R24)" in json.loads(doc)
    _, csv_sv, _ = _run("stats", "--lang", "sv", "--db", db, "--csv")
    assert csv_sv.startswith("# Standings (individual settlements, R23/R24)\nplayer,rubbers,")


def test_sql_keeps_the_statement_s_own_column_names(db: str) -> None:
    _, out, _ = _run("sql", "--lang", "sv", "--db", db, "--fmt", "plain",
                     "SELECT id AS board, status FROM deals LIMIT 1")
    assert out.split()[:2] == ["board", "status"] and "clean" in out


def test_remove_speaks_swedish(db: str) -> None:
    code, out, err = _run("remove", "--lang", "sv", "--db", db, "--id", "1", "--dry-run")
    assert code == 0 and out.startswith("skulle ta bort giv 1: ")
    assert "skulle ta bort 1 giv; 1 parti skulle räknas om" in err
    code, _, err = _run("remove", "--lang", "sv", "--db", db)
    assert code == 2 and "ange vad som ska tas bort" in err
    code, out, err = _run("remove", "--lang", "en", "--db", db, "--id", "1", "--dry-run")
    assert out.startswith("would remove deal 1: ") and "would remove 1 deal; 1 partie" in err
