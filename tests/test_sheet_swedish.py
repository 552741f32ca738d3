"""sheet-import of what Swedish Excel and LibreOffice write: dates in any common spelling,
a semicolon CSV with short title rows, and a workbook whatever its name says.

The evening is tests/data/evening-sheet.csv (a Swedish club's semicolon CSV); here its
Datum cell, its title rows and its file kind are changed as the programs change them.
"""

from __future__ import annotations

import csv
import datetime
import io
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import DATA

from priffe_records.cli import cli
from priffe_records.format.reader import loads, read
from priffe_records.format.record import Record

SHEET = DATA / "evening-sheet.csv"
HAND = DATA / "evening-hand.ppn"
DATE_ROW = 4  # "Datum;2026.11.26"


def invoke(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def cells() -> list[list[str]]:
    return list(csv.reader(io.StringIO(SHEET.read_text(encoding="utf-8")), delimiter=";"))


def write_csv(path: Path, rows: list[list[str]], delimiter: str = ";") -> Path:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, delimiter=delimiter).writerows(rows)
    return path


def imported_dates(path: Path, *args: str) -> set[str | None]:
    res = invoke("sheet-import", "--lang", "sv", str(path), *args)
    assert res.exit_code == 0, res.output
    return {r.get("Date") for r in loads(res.stdout) if isinstance(r, Record)}


@pytest.mark.parametrize("written", [
    "2026-11-26", "26.11.2026", "26/11/2026", "26-11-2026", "2026/11/26", "26 nov 2026",
    "26 november 2026", "26 Nov. 2026", "den 26 november 2026", "torsdag 26 november 2026",
    "November 26, 2026", "2026-11-26 19:00", "46352", "11/26/2026"])
def test_a_date_cell_in_any_common_spelling_is_written_as_pbn(tmp_path: Path,
                                                              written: str) -> None:
    rows = cells()
    rows[DATE_ROW - 1][1] = written
    assert imported_dates(write_csv(tmp_path / "k.csv", rows)) == {"2026.11.26"}


def test_day_and_month_both_under_13_are_read_day_first_as_in_sweden(tmp_path: Path) -> None:
    rows = cells()
    rows[DATE_ROW - 1][1] = "03/04/2026"
    assert imported_dates(write_csv(tmp_path / "k.csv", rows)) == {"2026.04.03"}
    rows[DATE_ROW - 1][1] = "2026-11-26"
    assert imported_dates(write_csv(tmp_path / "k.csv", rows), "--date", "5.6.2026") == {
        "2026.06.05"}


def test_an_old_score_books_month_or_year_keeps_the_unknown_as_pbns_question_marks(
        tmp_path: Path) -> None:
    rows = cells()
    for written, day in (("mars 1952", "1952.03.??"), ("1952", "1952.??.??")):
        rows[DATE_ROW - 1][1] = written
        assert imported_dates(write_csv(tmp_path / "k.csv", rows)) == {day}


def test_an_unreadable_date_names_its_cell_in_swedish(tmp_path: Path) -> None:
    rows = cells()
    rows[DATE_ROW - 1][1] = "30.02.2026"  # no such day
    path = write_csv(tmp_path / "k.csv", rows)
    res = invoke("sheet-import", "--lang", "sv", str(path))
    assert res.exit_code == 1
    assert f"{path}:4:B: fel: '30.02.2026' är inget datum" in res.stderr
    assert "rapportera" not in res.stderr and "inget skrevs" in res.stderr
    res = invoke("sheet-import", "--lang", "sv", str(path), "--date", "igår")
    assert res.exit_code == 2 and "--date: 'igår' är inget datum" in res.stderr


def test_a_value_ppn_would_change_names_its_cell(tmp_path: Path) -> None:
    """'#' means "as the record before" in PPN: the cell is named, not 'please report'."""
    rows = cells()
    rows[1][1] = "#"  # Evenemang
    res = invoke("sheet-import", "--lang", "sv", str(write_csv(tmp_path / "k.csv", rows)))
    assert res.exit_code == 1 and ":2:B: fel: '#'" in res.stderr
    assert "rapportera" not in res.stderr


def test_xlsx_date_cells_and_serials_are_days(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    for value in (datetime.datetime(2026, 11, 26), 46352):
        book = openpyxl.Workbook()
        for row in cells():
            book.active.append([int(c) if c.isdigit() else c or None for c in row])
        book.active.cell(DATE_ROW, 2).value = value
        path = tmp_path / "k.xlsx"
        book.save(path)
        assert imported_dates(path) == {"2026.11.26"}


@pytest.mark.parametrize("delimiter", [";", ",", "\t"])
def test_title_rows_shorter_than_the_table_do_not_hide_the_separator(
        tmp_path: Path, delimiter: str) -> None:
    """As a spreadsheet program saves a sheet whose title rows fill two cells: each row
    only as long as its cells (csv's Sniffer took this for no table at all)."""
    rows = [row[:max((i + 1 for i, c in enumerate(row) if c), default=0)] for row in cells()]
    rows[0] = ["Evenemang", "Onsdagspriffe"]
    del rows[1]
    path = tmp_path / "k.csv"
    path.write_text("\n".join(delimiter.join(r) for r in rows) + "\n", encoding="utf-8")
    res = invoke("sheet-import", "--lang", "sv", str(path))
    assert res.exit_code == 0, res.output
    got = [r for r in loads(res.stdout) if isinstance(r, Record)]
    assert len(got) == len(list(read(HAND)))
    assert {r.get("Event") for r in got} == {"Onsdagspriffe"}


def test_a_workbook_is_read_by_its_content_whatever_its_name(tmp_path: Path) -> None:
    """An .xlsx saved as kväll.ppn (validate says it is a spreadsheet), or piped in."""
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    for row in cells():
        book.active.append([c or None for c in row])
    buf = io.BytesIO()
    book.save(buf)
    path = tmp_path / "kväll.ppn"
    path.write_bytes(buf.getvalue())
    said = invoke("validate", "--lang", "sv", str(path)).stderr
    assert "sheet-import" in said
    by_name = invoke("sheet-import", "--lang", "sv", str(path))
    piped = invoke("sheet-import", "--lang", "sv", "-", stdin=buf.getvalue())
    assert by_name.exit_code == piped.exit_code == 0, by_name.output + piped.output
    expected = [Record(r.tags) for r in read(HAND)]
    assert list(loads(by_name.stdout)) == list(loads(piped.stdout)) \
        == expected


# score --xlsx ----------------------------------------------------------------------------------

TWO_PARTIES = ("examples/partie-uppsala.ppn", "examples/preference-graz.ppn")


def test_score_xlsx_is_a_workbook_a_sheet_a_partie_with_numbers_as_numbers(
        tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    both = tmp_path / "två.ppn"
    root = Path(__file__).parents[1]
    both.write_text("\n".join((root / f).read_text(encoding="utf-8") for f in TWO_PARTIES),
                    encoding="utf-8")
    book_path, csv_path = tmp_path / "kväll.xlsx", tmp_path / "kväll.csv"
    res = invoke("score", "--lang", "sv", str(both), "--xlsx", str(book_path),
                 "--csv", str(csv_path))
    assert res.exit_code == 0, res.output
    book = openpyxl.load_workbook(book_path)
    assert book.sheetnames == ["Upsala Priffeklubb, höstpartiet", "Préférence i Graz"]
    rows = [list(r) for r in book.worksheets[0].iter_rows(values_only=True)]
    heading = next(i for i, r in enumerate(rows) if r[0] == "Giv")
    deals = rows[heading + 1:]
    assert [r[0] for r in deals] == list(range(1, len(deals) + 1))  # boards: numbers
    assert all(isinstance(r[-1], int) and isinstance(r[-2], int) for r in deals)  # Σ NS, Σ EW
    assert rows[2][:2] == ["Datum", datetime.datetime(2026, 10, 17)]  # a date cell
    # the same rows as --csv writes for that partie, cell for cell
    written = list(csv.reader(io.StringIO(csv_path.read_text(encoding="utf-8"))))
    first = written[:written.index([], heading)] if [] in written[heading:] else written
    assert [[("" if c is None else str(c)) for c in r] for r in rows[heading:]] == [
        r + [""] * (len(rows[heading]) - len(r)) for r in first[heading:]]
    # and sheet-import reads every worksheet back, each to what it reads from the partie's CSV
    from_csv = []
    for i, partie in enumerate(TWO_PARTIES):
        one = tmp_path / f"partie{i}.csv"
        assert invoke("score", str(root / partie), "--csv", str(one)).exit_code == 0
        from_csv.append(invoke("sheet-import", str(one)))
    from_book = invoke("sheet-import", str(book_path))
    assert from_book.exit_code == 0 and all(r.exit_code == 0 for r in from_csv), from_book.output
    records = [str(r) for r in loads(from_book.stdout)]
    assert records == [str(r) for one in from_csv for r in loads(one.stdout)]
    assert len(records) == 11 + 12
    # a bad cell on the second worksheet is located there, by the worksheet's name
    book = openpyxl.load_workbook(book_path)
    sheet = book.worksheets[1]
    head = next(r for r in sheet.iter_rows() if r[0].value == "Giv")
    column = next(c.column for c in head if c.value == "Kontrakt")
    sheet.cell(head[0].row + 2, column).value = "Zork"
    book.save(book_path)
    bad = invoke("--lang", "en", "sheet-import", str(book_path))
    assert bad.exit_code == 1 and bad.stdout == ""
    assert f"{book_path} [Préférence i Graz]:{head[0].row + 2}:Kontrakt: error: unknown" \
        in bad.stderr, bad.stderr


def test_score_help_says_csv_is_standard_and_points_excel_to_xlsx() -> None:
    said = " ".join(invoke("score", "--lang", "sv", "--help").stdout.split())
    assert "standard-CSV" in said and "använd --xlsx" in said


def test_score_xlsx_without_openpyxl_names_this_clones_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openpyxl", None)
    res = invoke("score", "--lang", "sv", str(HAND), "--xlsx", str(tmp_path / "k.xlsx"))
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert f"-m pip install -e '{Path(__file__).parents[1]}[sheet]'" in res.stderr
    assert not (tmp_path / "k.xlsx").exists()


def test_score_xlsx_of_a_partie_not_played_yet_is_an_empty_workbook(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    blank, book = tmp_path / "kväll.ppn", tmp_path / "kväll.xlsx"
    names = [a for name in ("Anna", "Bertil", "Cecilia", "David") for a in ("-p", name)]
    assert invoke("new", *names, "-o", str(blank)).exit_code == 0
    res = invoke("score", "--lang", "sv", str(blank), "--xlsx", str(book))
    assert res.exit_code == 0 and "inga givar att räkna" in res.stderr, res.output
    assert [list(s.iter_rows(values_only=True)) for s in openpyxl.load_workbook(book)] == [[]]
