"""A Score the secretary kept as written on the paper (``Kept "Score"``, priffe add's 'b').

The engine counts the paper's points, so the sheet, ``score --fill`` and the archive all
show them, marked; validate warns (R15) instead of failing. docs/rules-decisions.md, "Kept".
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from rules_support import FORMAT_EXAMPLE, set_tag

from priffe_records import loads
from priffe_records.cli import cli
from priffe_records.rules.findings import Severity
from priffe_records.rules.validate import validate

# FORMAT.md's example deal scores NS 80 EW 0; the paper said NS 60 (and no running total).
WRONG = set_tag(FORMAT_EXAMPLE.replace('[ScoreRubber "NS 90 EW 0"]\n', ""), "Score",
                "NS 60 EW 0")
KEPT = set_tag(WRONG, "Kept", "Score")


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_a_kept_score_is_a_warning_not_an_error() -> None:
    kept = [f for f in validate(loads(KEPT)) if f.rule == "R15"]
    assert [f.severity for f in kept] == [Severity.WARNING]
    assert "kept as written on the paper; the rules give NS 80 EW 0" in str(kept[0])
    assert [f.severity for f in validate(loads(WRONG)) if f.rule == "R15"] == [Severity.ERROR]


def test_kept_without_a_difference_says_nothing() -> None:
    assert not [f for f in validate(loads(set_tag(FORMAT_EXAMPLE, "Kept", "Score")))
                if f.rule == "R15"]


def test_the_sheet_shows_the_kept_points_marked(tmp_path: Path) -> None:
    f = tmp_path / "k.ppn"
    f.write_text(KEPT, encoding="utf-8")
    code, out, _ = run("score", str(f), "--lang", "sv")
    assert code == 0
    row = next(line for line in out.splitlines() if "Hjärter" in line)
    assert "60*" in row and "80" not in row.split("60*")[0]
    assert "* som på papperet; reglerna ger NS 80" in row
    assert "Σ NS 70" in out  # the kept 60 and the first game's 10 count (R20)


def test_score_fill_keeps_the_kept_points(tmp_path: Path) -> None:
    f = tmp_path / "k.ppn"
    f.write_text(KEPT, encoding="utf-8")
    for force in ((), ("--force",)):
        assert run("score", "--fill", *force, str(f))[0] == 0
        text = f.read_text(encoding="utf-8")
        assert '[Score "NS 60 EW 0"]' in text and '[Kept "Score"]' in text
        assert '[ScoreRubber "NS 70 EW 0"]' in text  # the kept 60, and 10 for the game


def test_the_archive_stores_the_kept_points_and_why(tmp_path: Path) -> None:
    f, db = tmp_path / "k.ppn", tmp_path / "a.db"
    f.write_text(KEPT, encoding="utf-8")
    code, _, err = run("import", "--db", str(db), str(f))
    assert code == 0, err
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT score_ns, score_ew, claimed_score_ns FROM deals"
                           ).fetchall() == [(60, 0, 60)]
        found = con.execute("SELECT severity, message FROM findings WHERE rule = 'R15'"
                            ).fetchall()
    assert len(found) == 1 and found[0][0].startswith("warn") and "kept as written" in found[0][1]


def test_a_kept_score_goes_through_a_spreadsheet_and_back(tmp_path: Path) -> None:
    """score --csv marks the kept cell (ÖV 0* in Swedish); sheet-import reads it as Kept."""
    f, sheet, back = tmp_path / "k.ppn", tmp_path / "k.csv", tmp_path / "back.ppn"
    f.write_text(KEPT, encoding="utf-8")
    assert run("score", str(f), "--csv", str(sheet), "--lang", "sv")[0] == 0
    assert ",NS 60 ÖV 0*," in sheet.read_text(encoding="utf-8")
    code, _, err = run("sheet-import", str(sheet), "-o", str(back), "--lang", "sv")
    assert code == 0, err
    [got] = loads(back.read_text(encoding="utf-8"))
    assert (got.get("Score"), got.get("Kept")) == ("NS 60 EW 0", "Score")


@pytest.mark.parametrize("word", ["Spader", "klover", "KL", "Clubs"])
def test_a_file_writing_the_final_bid_as_its_contract_reads_as_tvangsnoll(word: str) -> None:
    """R8 in a file: the same table as add's words; an error says so, the deal is scored."""
    text = ('[Dealer "N"]\n[Declarer ""]\n'
            f'[Contract "{word}"]\n[Result "NS 6 EW 7"]\n[Score "NS 10 EW 0"]\n')
    found = [f for f in validate(loads(text)) if f.is_error]
    assert [f.rule for f in found] == ["R8"] and "is a final bid" in str(found[0])
