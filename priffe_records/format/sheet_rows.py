"""A spreadsheet's cells as text rows: CSV and TSV (standard library), xlsx (openpyxl).

Only the reading lives here; what the columns mean is the rules layer's
business (:mod:`priffe_records.rules.spreadsheet`). Row numbers are the
ones the spreadsheet program shows (the first row is 1), so an error can
point at the cell the user sees.

>>> rows_of_text("Giv;Kontrakt\\n1;Hjärter\\n", ".csv")
[(1, ['Giv', 'Kontrakt']), (2, ['1', 'Hjärter'])]
"""

from __future__ import annotations

import csv
import datetime
import io
import os
from pathlib import Path

from priffe_records.format.errors import PriffeError
from priffe_records.game.language import msg

Row = tuple[int, list[str]]
TEXT_KINDS = {".csv": None, ".tsv": "\t", ".tab": "\t", ".txt": "\t"}
XLSX = (".xlsx", ".xlsm")


def decode(data: bytes) -> str:
    """UTF-8 (with or without BOM), else Windows-1252: what Excel saves as "CSV" in Sweden."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def rows_of_text(text: str, suffix: str) -> list[Row]:
    """CSV (comma or semicolon, as sniffed) or TSV text as numbered rows of cells."""
    delimiter = TEXT_KINDS.get(suffix.lower())
    if delimiter is None:
        try:
            delimiter = csv.Sniffer().sniff(text[:4096], delimiters=",;\t").delimiter
        except csv.Error:
            delimiter = ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    return [(i, [c.strip() for c in row]) for i, row in enumerate(reader, 1)]


def _cell_text(value: object) -> str:
    """A spreadsheet value as the text a person sees: 7 not 7.0, a date as YYYY.MM.DD."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime | datetime.date):
        return value.strftime("%Y.%m.%d")
    return str(value).strip()


def rows_of_xlsx(path: Path) -> list[Row]:
    """The first worksheet's rows; needs openpyxl (the ``sheet`` extra)."""
    try:
        import openpyxl
    except ImportError:
        raise PriffeError(msg("{file}: reading .xlsx needs openpyxl: pip install "
                              "'priffe-records[sheet]' (or save the sheet as CSV)",
                              file=path)) from None
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as e:  # openpyxl raises many kinds for a file that is no workbook
        raise PriffeError(msg("{file}: not an xlsx workbook ({reason})", file=path,
                              reason=str(e) or type(e).__name__)) from None
    try:
        sheet = book.worksheets[0]
        return [(i, [_cell_text(v) for v in row])
                for i, row in enumerate(sheet.iter_rows(values_only=True), 1)]
    finally:
        book.close()


def read_rows(path: str | os.PathLike[str], data: bytes | None = None) -> list[Row]:
    """The rows of a spreadsheet file, by its suffix; ``data`` is standard input's text (CSV)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in XLSX:
        return rows_of_xlsx(p)
    if suffix in (".ods", ".xls"):
        raise PriffeError(msg("{file}: {kind} files are not read: save the sheet as .xlsx or "
                              ".csv", file=p, kind=suffix))
    return rows_of_text(decode(data if data is not None else p.read_bytes()), suffix)
