"""The archive commands in Swedish: errors, the import summary, remove, the tables' titles,
headings and words; JSON and CSV keep their English keys for scripts."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DATA, EXAMPLES

from priffe_records.cli import cli


def _run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, list(args), prog_name="priffe")
    return res.exit_code, res.stdout, res.stderr


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("arch") / "a.db")
    code, out, err = _run("import", "--lang", "sv", "--db", path, str(EXAMPLES))
    assert code == 0, err
    assert "givar:" in out and "nya," in out and " records" not in out
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


def test_query_table_shows_seats_as_the_sheet_does(db: str) -> None:
    """Deal 1 of Uppsala is West's: V in a Swedish table (as on the score sheet), W in
    English and in every language's CSV."""
    args = ("query", "--db", db, "--event", "Upsala", "--limit", "1")
    _, sv, _ = _run(*args[:1], "--lang", "sv", *args[1:], "--fmt", "plain")
    assert re.search(r"Spela\s+V\s+9–4", sv), sv
    _, en, _ = _run(*args[:1], "--lang", "en", *args[1:], "--fmt", "plain")
    assert re.search(r"Spela\s+W\s+9–4", en), en
    _, csv_sv, _ = _run(*args[:1], "--lang", "sv", *args[1:], "--csv")
    assert ",Spela,W," in csv_sv


def test_a_misspelt_player_is_named_not_an_empty_answer(db: str) -> None:
    """'Lindkvist' for 'Lindqvist' found no deals and said nothing more; now query says the
    name is not in the archive and which one is, and stats (an error there) says so too."""
    code, out, err = _run("query", "--lang", "sv", "--db", db, "--player", "astrid lindkvist",
                          "--json")
    assert code == 0 and json.loads(out) == []
    assert ("priffe: ingen spelare 'astrid lindkvist' i arkivet — menade du "
            "'Astrid Lindqvist'?") in err
    code, _, err = _run("stats", "--lang", "en", "--db", db, "--player", "Astrid Lindkvist")
    assert code == 2 and "did you mean 'Astrid Lindqvist'?" in err
    code, _, err = _run("query", "--db", db, "--player", "Astrid Lindqvist", "--json")
    assert code == 0 and "no player" not in err


def test_stats_titles_in_swedish_json_keys_are_words(db: str) -> None:
    _, sv, _ = _run("stats", "--lang", "sv", "--db", db, "--fmt", "simple")
    assert "Ställning (avräkning per spelare, R23/R24)" in sv and "robbertar" in sv
    assert "Standings" not in sv and "rubbers" not in sv
    _, doc, _ = _run("stats", "--lang", "sv", "--db", db, "--json")
    keys = {row["table"] for row in json.loads(doc)}
    assert {"standings", "players", "contract_success"} <= keys, "keys, not titles"
    _, csv_sv, _ = _run("stats", "--lang", "sv", "--db", db, "--csv")
    assert csv_sv.startswith("# standings\nplayer,rubbers,")


def test_stats_keeps_the_two_games_contracts_apart(db: str) -> None:
    """Priffe's Hjärter and Préférence's Hearts are both "Hjärter" in Swedish: each row of
    the contract tables says its game, and no two rows share game and contract."""
    code, out, _ = _run("stats", "--lang", "sv", "--db", db, "--json")
    assert code == 0
    rows = [r for r in json.loads(out) if r["table"] in ("contract_success",
                                                         "contracts_declared")]
    keys = [(r["table"], r.get("player"), r["game"], r["contract"]) for r in rows]
    assert len(keys) == len(set(keys))
    hearts = {r["game"] for r in rows if r["table"] == "contract_success"
              and r["contract"] in ("Hjärter", "Hearts")}
    assert hearts == {"Priffe", "Preference"}
    code, out, _ = _run("stats", "--lang", "sv", "--db", db, "--player", "Cecilia Huber")
    assert code == 0 and "│ Préférence │ Hjärter" in out and "medspelare" in out


def test_sql_keeps_the_statement_s_own_column_names(db: str) -> None:
    _, out, _ = _run("sql", "--lang", "sv", "--db", db, "--fmt", "plain",
                     "SELECT id AS board, status FROM deals LIMIT 1")
    assert out.split()[:2] == ["board", "status"] and "clean" in out


def test_remove_speaks_swedish(db: str) -> None:
    code, out, err = _run("remove", "--lang", "sv", "--db", db, "--id", "1", "--dry-run")
    assert code == 0 and out.startswith("skulle ta bort giv med id 1: ")
    assert "skulle ta bort 1 giv; 1 parti skulle räknas om" in err
    code, _, err = _run("remove", "--lang", "sv", "--db", db)
    assert code == 2 and "ange vad som ska tas bort" in err
    code, out, err = _run("remove", "--lang", "en", "--db", db, "--id", "1", "--dry-run")
    assert out.startswith("would remove the deal with id 1: ")
    assert "would remove 1 deal; 1 partie" in err


def _sql(db: str, lang: str, statement: str) -> list[dict[str, object]]:
    code, out, err = _run("sql", "--lang", lang, "--db", db, "--json", statement)
    assert code == 0, err
    rows: list[dict[str, object]] = json.loads(out)
    return rows


def test_stored_findings_read_in_the_reader_s_language(tmp_path: Path) -> None:
    """Imported in Swedish, stored as the message itself: English in `message`, either
    language through priffe_message()."""
    db = str(tmp_path / "f.db")
    code, _, err = _run("import", "--lang", "sv", "--db", db, str(DATA / "broken.ppn"))
    assert code == 0, err
    query = ("SELECT message, priffe_message(message_json, message) AS shown FROM findings "
             "WHERE rule = 'R11'")
    [en] = _sql(db, "en", query)
    [sv] = _sql(db, "sv", query)
    assert en["message"] == sv["message"] == en["shown"]
    assert "must follow diamonds" in str(en["shown"])
    assert "måste bekänna ruter" in str(sv["shown"])


def test_migration_to_v5_recovers_the_messages_of_old_rows(tmp_path: Path) -> None:
    """A version-4 archive imported in Swedish: its findings read in English after the
    migration; a text that no catalog entry renders keeps its words."""
    from priffe_records.archive.schema import SCHEMA_VERSION, ensure_schema, open_archive

    db_path = str(tmp_path / "old.db")
    assert _run("import", "--db", db_path, str(DATA / "broken.ppn"))[0] == 0
    conn = sqlite3.connect(db_path)
    rows = conn.execute("SELECT id, message_json FROM findings").fetchall()
    english = dict(conn.execute("SELECT id, message FROM findings").fetchall())
    assert rows and all(data for _, data in rows)
    from priffe_records.archive.stored_messages import shown
    for ident, data in rows:  # as version 4 stored it: Swedish text, no message
        conn.execute("UPDATE findings SET message = ? WHERE id = ?", [shown(data, "", "sv"), ident])
    own = rows[-1][0]  # a text the catalog cannot have made
    conn.execute("UPDATE findings SET message = 'ett eget ord' WHERE id = ?", [own])
    conn.execute("ALTER TABLE findings DROP COLUMN message_json")
    conn.execute("PRAGMA user_version = 4")
    conn.commit()
    conn.close()
    db = open_archive(db_path)
    ensure_schema(db)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    after = db.execute("SELECT id, message, message_json FROM findings").fetchall()
    db.close()
    assert [r for r in after if r[0] == own] == [(own, "ett eget ord", None)]
    recovered = [r for r in after if r[2] is not None]
    assert len(recovered) == len(after) - 1, after  # every text the catalog made
    by_id = dict(rows)
    for ident, message, data in recovered:  # read back exactly, in either language
        assert message == english[ident]
        assert shown(data, None, "sv") == shown(by_id[ident], None, "sv")
    r11 = [r for r in recovered if "must follow" in r[1]]
    assert r11 and "must follow diamonds" in r11[0][1]
    assert str(shown(r11[0][2], None, "sv")).endswith("måste bekänna ruter")


def test_datasette_shows_a_stored_finding_in_the_reader_s_language() -> None:
    pytest.importorskip("datasette")
    from priffe_records.archive.stored_messages import message_json
    from priffe_records.cli.datasette_plugin import render_cell
    from priffe_records.game.language import msg, use_language

    data = message_json(msg("{file}: no such file", file="x.ppn"))
    row = {"id": 1, "message_json": data}
    with use_language("sv"):
        cell = render_cell(row, "x.ppn: no such file", "message", "findings", "priffe", None)
    assert str(cell) == "x.ppn: filen finns inte"
    assert render_cell({"id": 1, "message_json": None}, "own words", "message", "findings",
                       "priffe", None) is None  # shown as stored


def test_operating_system_errors_in_the_reader_s_language() -> None:
    import errno

    from priffe_records.game.language import os_reason, render

    full = OSError(errno.ENOSPC, "No space left on device")
    assert render(os_reason(full), "sv") == "disken är full"
    assert render(os_reason(full), "en") == "No space left on device"  # the system's
    odd = OSError(errno.ENAMETOOLONG, "File name too long")
    assert os_reason(odd) == "File name too long"  # words we lack stay the system's
