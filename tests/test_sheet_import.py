"""priffe sheet-import and score --csv: an evening kept in a spreadsheet, and back.

tests/data/evening-sheet.csv is the evening of tests/data/evening-hand.ppn as a
Swedish club keeps it in a spreadsheet program saved as CSV (semicolons, a
title row, Swedish headings, seats as Ö and V, the declarer by name, tricks as
the declarer's side's count, a column of notes the program does not read, and
the seats changed at the second rubber).
"""

from __future__ import annotations

import csv
import re
import sys
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from click.testing import CliRunner, Result
from conftest import DATA

from priffe_records.cli import cli
from priffe_records.format.reader import read
from priffe_records.format.record import Record
from priffe_records.format.sheet_rows import rows_of_text
from priffe_records.rules.spreadsheet import import_rows

HAND = DATA / "evening-hand.ppn"
SHEET = DATA / "evening-sheet.csv"


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def bare(records: list[Record]) -> list[Record]:
    """The records without the comments before them (a sheet has no place for those)."""
    return [Record(r.tags) for r in records]


def imported(path: Path, *args: str) -> list[Record]:
    out = path.with_suffix(".ppn")
    res = invoke("sheet-import", str(path), "-o", str(out), *args)
    assert res.exit_code == 0, res.output
    return list(read(out))


def sheet_cells() -> list[list[str]]:
    return [row for _, row in rows_of_text(SHEET.read_text(encoding="utf-8"))]


def test_csv_imports_to_the_hand_typed_records(tmp_path: Path) -> None:
    sheet = tmp_path / "kväll.csv"
    sheet.write_bytes(SHEET.read_bytes())
    assert imported(sheet) == bare(list(read(HAND)))


def test_tsv_and_latin1_csv_import_the_same(tmp_path: Path) -> None:
    tsv = tmp_path / "kväll.tsv"
    tsv.write_text("\n".join("\t".join(r) for r in sheet_cells()) + "\n", encoding="utf-8")
    assert imported(tsv) == bare(list(read(HAND)))
    excel = tmp_path / "excel.csv"  # what Excel in Sweden saves as "CSV"
    excel.write_bytes(SHEET.read_text(encoding="utf-8").encode("cp1252"))
    assert imported(excel) == bare(list(read(HAND)))


def test_xlsx_imports_to_the_hand_typed_records(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    for row in sheet_cells():
        # numbers as numbers, as a person types them into a spreadsheet program
        book.active.append([int(c) if c.isdigit() else c or None for c in row])
    path = tmp_path / "kväll.xlsx"
    book.save(path)
    assert imported(path) == bare(list(read(HAND)))


def ods_cell(text: str) -> str:
    """A cell as LibreOffice Calc writes it: numbers and dates typed, runs of blanks repeated."""
    if not text:
        return "<table:table-cell/>"
    if text.isdigit():
        return (f'<table:table-cell office:value-type="float" office:value="{text}" '
                f'calcext:value-type="float"><text:p>{text}</text:p></table:table-cell>')
    if re.fullmatch(r"\d{4}\.\d\d\.\d\d", text):
        iso = text.replace(".", "-")
        return (f'<table:table-cell office:value-type="date" office:date-value="{iso}" '
                f'calcext:value-type="date"><text:p>{iso}</text:p></table:table-cell>')
    head, _, tail = text.partition(" ")  # a word in a span, as a spell-checked cell has it
    inner = f"<text:span>{escape(head)}</text:span>" + (f"<text:s/>{escape(tail)}" if tail else "")
    return (f'<table:table-cell office:value-type="string" calcext:value-type="string">'
            f"<text:p>{inner}</text:p></table:table-cell>")


def write_ods(path: Path, rows: list[list[str]]) -> None:
    """A minimal .ods in the shape of LibreOffice Calc's content.xml (one table)."""
    body = "".join("<table:table-row>" + "".join(ods_cell(c) for c in row)
                   + '<table:table-cell table:number-columns-repeated="1015"/></table:table-row>'
                   for row in rows)
    body += ('<table:table-row table:number-rows-repeated="1048555">'
             '<table:table-cell table:number-columns-repeated="1024"/></table:table-row>')
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" '
        'office:version="1.3"><office:body><office:spreadsheet>'
        '<table:table table:name="Blad1"><table:table-column table:number-columns-repeated="9"/>'
        f"{body}</table:table></office:spreadsheet></office:body></office:document-content>")
    with zipfile.ZipFile(path, "w") as book:
        book.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        book.writestr("content.xml", content)


def test_ods_imports_to_the_hand_typed_records(tmp_path: Path) -> None:
    path = tmp_path / "kväll.ods"
    write_ods(path, sheet_cells())
    assert imported(path) == bare(list(read(HAND)))


def test_a_file_that_is_no_ods_is_one_message(tmp_path: Path) -> None:
    path = tmp_path / "kväll.ods"
    path.write_bytes(b"not a zip")
    res = invoke("sheet-import", str(path))
    assert res.exit_code == 2
    assert "named a workbook, but it is not one" in res.stderr and "Traceback" not in res.output
    path.write_bytes(b"PK\x03\x04 and then no zip")
    res = invoke("sheet-import", str(path))
    assert res.exit_code == 2
    assert "a damaged zip file" in res.stderr and "Traceback" not in res.output


def test_xlsx_without_openpyxl_names_the_extra(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    path = tmp_path / "kväll.xlsx"
    openpyxl.Workbook().save(path)
    monkeypatch.setitem(sys.modules, "openpyxl", None)
    res = invoke("sheet-import", str(path))
    assert res.exit_code == 2
    # this clone's own command, which works here; not the package index's name
    assert f"-m pip install -e '{Path(__file__).parents[1]}[sheet]'" in res.stderr
    assert "Traceback" not in res.output


BAD = {  # (row, column) -> what goes into that cell
    (11, 2): "Hjärterr",  # a typo: did you mean
    (12, 3): "Gustav",  # nobody of that name plays
    (13, 4): "14",  # more tricks than there are
    (15, 1): "X",  # no seat
    (18, 5): "fyrtio",  # not points
}


def bad_sheet(tmp_path: Path) -> Path:
    rows = sheet_cells()
    for (row, col), text in BAD.items():
        rows[row - 1][col] = text
    path = tmp_path / "fel.csv"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, delimiter=";").writerows(rows)
    return path


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_five_bad_cells_are_five_located_errors(tmp_path: Path, lang: str) -> None:
    path = bad_sheet(tmp_path)
    out = tmp_path / "out.ppn"
    res = invoke("sheet-import", "--lang", lang, str(path), "-o", str(out))
    assert res.exit_code == 1
    errors = [line for line in res.stderr.splitlines() if (" error" in line or " fel" in line)
              and line.startswith(str(path))]
    assert [e.split(": ")[0] for e in errors] == [
        f"{path}:11:Kontrakt", f"{path}:12:Spelförare", f"{path}:13:Stick", f"{path}:15:Given",
        f"{path}:18:Poäng"], res.stderr
    said = "\n".join(errors)
    if lang == "en":
        assert "did you mean 'Hjärter'?" in said and "nor a player (Anna, Bertil" in said
        assert "nothing written" in res.stderr
    else:
        assert "menade du 'Hjärter'?" in said and "eller en spelare (Anna, Bertil" in said
        assert "inget skrevs" in res.stderr
    assert not out.exists()


def test_a_rule_broken_is_located_at_its_row_and_column(tmp_path: Path) -> None:
    rows = sheet_cells()
    rows[10][5] = "NS 40"  # row 11: Hjärter by East making 10: the 40 is EW's
    got = import_rows(list(enumerate(rows, 1)), "k.csv")
    assert not got.ok
    [problem] = [p for p in got.problems if p.is_error]
    assert (problem.row, problem.column, problem.rule) == (11, "Poäng", "R14")
    assert str(problem).startswith("k.csv:11:Poäng: error R14: Score says NS 40 EW 0")


def test_options_win_over_the_sheets_rows(tmp_path: Path) -> None:
    sheet = tmp_path / "kväll.csv"
    sheet.write_bytes(SHEET.read_bytes())
    got = imported(sheet, "--event", "Höstpartiet", "-p", "Anna", "-p", "Bertina")
    assert {r.get("Event") for r in got} == {"Höstpartiet"}
    assert got[0].get("East") == "Bertina" and got[6].get("East") == "Cecilia"


def test_without_dealer_column_the_dealer_passes_to_the_left(tmp_path: Path) -> None:
    path = tmp_path / "k.csv"
    path.write_text("Kontrakt,Spelförare,Stick\nHjärter,Ö,10\nNoll,N,3\nSpela,S,8\n",
                    encoding="utf-8")
    got = imported(path, "--dealer", "W", "--date", "2026.12.01")
    assert [r.get("Dealer") for r in got] == ["W", "N", "E"]
    assert [r.get("Board") for r in got] == ["1", "2", "3"]


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_score_csv_round_trips_through_sheet_import(tmp_path: Path, lang: str) -> None:
    out = tmp_path / "kväll.csv"
    res = invoke("score", "--lang", lang, str(HAND), "--csv", str(out))
    assert res.exit_code == 0, res.output
    heading = out.read_text(encoding="utf-8").splitlines()[9]
    assert heading.startswith("Board,Dealer" if lang == "en" else "Giv,Given")
    assert imported(out) == bare(list(read(HAND)))


def test_fill_writes_what_score_fill_writes(tmp_path: Path) -> None:
    sheet = tmp_path / "kväll.csv"
    sheet.write_bytes(SHEET.read_bytes())
    filled = tmp_path / "filled.ppn"
    filled.write_bytes(HAND.read_bytes())
    assert invoke("score", "--fill", str(filled)).exit_code == 0
    assert imported(sheet, "--fill") == bare(list(read(filled)))


PREF_HAND = DATA / "preference-evening-hand.ppn"
PREF_SHEET = """Préférence i Graz
Evenemang,Préférence i Graz
Plats,Graz
Datum,2026.11.26
Nord,Anna
Öst,Franz
Syd,Maria

Kontrakt,Spelförare,Avhopp,Stick,Betalningar
Hearts,Franz,,2 6 2,
pref,Ö,Maria,3 7,
HandClubs,S,"Anna, Franz",,
"""


def test_preference_sheet_imports_to_the_hand_typed_records(tmp_path: Path) -> None:
    """No Given and no Giv column: the dealer passes N -> E -> S, the boards count up."""
    path = tmp_path / "graz.csv"
    path.write_text(PREF_SHEET, encoding="utf-8")
    assert imported(path, "--game", "preference") == bare(list(read(PREF_HAND)))
    filled = tmp_path / "filled.ppn"
    filled.write_bytes(PREF_HAND.read_bytes())
    assert invoke("score", "--fill", str(filled)).exit_code == 0
    again = path.with_name("again.csv")
    again.write_bytes(path.read_bytes())
    assert imported(again, "--game", "preference", "--fill") == bare(list(read(filled)))


def test_preference_bad_cells_are_located(tmp_path: Path) -> None:
    path = tmp_path / "graz.csv"
    path.write_text(PREF_SHEET.replace("Hearts,Franz", "Hearts,V").replace("3 7", "3 4 3"),
                    encoding="utf-8")
    res = invoke("sheet-import", "--game", "preference", str(path))
    assert res.exit_code == 1
    errors = [line for line in res.stderr.splitlines() if ": error" in line]
    assert [e.split(": ")[0] for e in errors] == [f"{path}:10:Spelförare", f"{path}:11:Stick"]
    assert "in Préférence the seats are N, E and S" in errors[0]
    assert "give 2 numbers, the tricks of N E" in errors[1]


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_preference_score_csv_round_trips(tmp_path: Path, lang: str) -> None:
    out = tmp_path / "graz.csv"
    res = invoke("score", "--lang", lang, str(PREF_HAND), "--csv", str(out))
    assert res.exit_code == 0, res.output
    assert ("Dropout,Tricks,Payments" if lang == "en" else "Avhopp,Stick,Betalningar") \
        in out.read_text(encoding="utf-8")
    assert imported(out) == bare(list(read(PREF_HAND)))


def test_preference_first_dealer_and_players_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "graz.csv"
    path.write_text(PREF_SHEET, encoding="utf-8")
    res = invoke("sheet-import", "--game", "preference", "--dealer", "W", str(path))
    assert res.exit_code == 1 and "the first dealer W does not play in Préférence" in res.stderr
    res = invoke("sheet-import", "--game", "preference", *("-p", "A") * 4, str(path))
    assert res.exit_code == 2 and "preference has 3 players; 4 were given" in res.stderr
