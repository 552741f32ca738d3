"""A spreadsheet's cells as text rows: CSV, TSV and ods (standard library), xlsx (openpyxl).

Only the reading lives here; what the columns mean is the rules layer's
business (:mod:`priffe_records.rules.spreadsheet`). Row numbers are the
ones the spreadsheet program shows (the first row is 1), so an error can
point at the cell the user sees.

>>> rows_of_text("Evenemang;Onsdagspriffe\\nGiv;Kontrakt;Stick\\n1;Hjärter;10\\n")[1:]
[(2, ['Giv', 'Kontrakt', 'Stick']), (3, ['1', 'Hjärter', '10'])]
"""

from __future__ import annotations

import csv
import datetime
import io
import os
import zipfile
from collections import Counter
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from xml.etree import ElementTree

from priffe_records.format.errors import PriffeError
from priffe_records.game.extras import extra_command
from priffe_records.game.language import msg

Row = tuple[int, list[str]]
Table = tuple[str, list[Row]]  # a worksheet's name (empty for CSV) and its rows
SHEET_EXTRA = partial(extra_command, "sheet", ("openpyxl",))  # what reads and writes .xlsx
SEPARATORS = (";", ",", "\t")  # in this order where two make the same table


def decode(data: bytes) -> str:
    """UTF-8 (with or without BOM), else Windows-1252: what Excel saves as "CSV" in Sweden."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def rows_of_text(text: str) -> list[Row]:
    """CSV (comma, semicolon or tab, as the text shows) as numbered rows of cells."""
    return max((_split(text, d) for d in SEPARATORS), key=_table_shape)


def _split(text: str, delimiter: str) -> list[Row]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    return [(i, [c.strip() for c in row]) for i, row in enumerate(reader, 1)]


def _table_shape(rows: list[Row]) -> tuple[int, int]:
    """How much of the text is one table: the rows of its commonest width (over one cell),
    then that width. The deal rows share one width whatever the title rows above them
    hold, so the right separator makes the most of them; csv's Sniffer, which wants every
    line alike, took ``Evenemang;Onsdagspriffe`` above a six-column table for no table."""
    widths = Counter(w for _, cells in rows if (w := _width(cells)) > 1)
    if not widths:
        return 0, 0
    width, count = max(widths.items(), key=lambda wc: (wc[1], wc[0]))
    return count, width


def _width(cells: list[str]) -> int:
    """The cells up to the last one written (a spreadsheet pads a row with empty ones)."""
    return next((i for i in range(len(cells), 0, -1) if cells[i - 1]), 0)


def _cell_text(value: object) -> str:
    """A spreadsheet value as the text a person sees: 7 not 7.0, a date as YYYY.MM.DD."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime | datetime.date):
        return value.strftime("%Y.%m.%d")
    return str(value).strip()


def rows_of_xlsx(path: Path, data: bytes) -> list[Table]:
    """Every worksheet's rows, by name; needs openpyxl (the ``sheet`` extra)."""
    try:
        import openpyxl
    except ImportError:
        raise PriffeError(msg("{file}: reading .xlsx needs openpyxl: {command} (or save the "
                              "sheet as CSV)", file=path, command=SHEET_EXTRA())) from None
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as e:  # openpyxl raises many kinds for a file that is no workbook
        raise PriffeError(msg("{file}: not an xlsx workbook ({reason})", file=path,
                              reason=str(e) or type(e).__name__)) from None
    try:
        return [(sheet.title, [(i, [_cell_text(v) for v in row])
                               for i, row in enumerate(sheet.iter_rows(values_only=True), 1)])
                for sheet in book.worksheets]
    finally:
        book.close()


_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_CELLS = (_TABLE + "table-cell", _TABLE + "covered-cell")


def _inline(element: ElementTree.Element) -> str:
    """A paragraph's text with its spans, ``text:s`` as spaces."""
    parts = [element.text or ""]
    for child in element:
        if child.tag == _TEXT + "s":
            parts.append(" " * int(child.get(_TEXT + "c", "1")))
        else:
            parts.append(_inline(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _ods_text(cell: ElementTree.Element) -> str:
    """A cell as shown: its paragraphs' text, a date as YYYY.MM.DD."""
    date = cell.get(_OFFICE + "date-value")
    if date:
        return date[:10].replace("-", ".")
    return " ".join(_inline(p) for p in cell.iter(_TEXT + "p")).strip()


def _ods_cells(row: ElementTree.Element) -> Iterator[str]:
    for cell in row:
        if cell.tag in _CELLS:
            # LibreOffice pads a row to the sheet's width with one empty repeated
            # cell: capped here, and trimmed with the row's other trailing blanks.
            repeat = int(cell.get(_TABLE + "number-columns-repeated", "1"))
            yield from [_ods_text(cell)] * min(repeat, 1024)


def rows_of_ods(path: Path, data: bytes) -> list[Table]:
    """Every table of an OpenDocument spreadsheet (LibreOffice's own format), by name."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as book, book.open("content.xml") as content:
            root = ElementTree.parse(content).getroot()
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError) as e:
        raise PriffeError(msg("{file}: not an ods spreadsheet ({reason})", file=path,
                              reason=str(e) or type(e).__name__)) from None
    try:
        return [(table.get(_TABLE + "name", ""), _ods_rows(table))
                for table in root.iter(_TABLE + "table")]
    except ValueError as e:  # a repeat count that is no number
        raise PriffeError(msg("{file}: not an ods spreadsheet ({reason})", file=path,
                              reason=str(e))) from None


def _ods_rows(table: ElementTree.Element) -> list[Row]:
    rows: list[Row] = []
    number = 1
    for row in table.iter(_TABLE + "table-row"):
        cells = list(_ods_cells(row))
        while cells and not cells[-1]:
            cells.pop()
        repeat = int(row.get(_TABLE + "number-rows-repeated", "1"))
        if cells:  # an empty row repeated to the sheet's end is not a million rows
            rows += [(number + i, list(cells)) for i in range(min(repeat, 1024))]
        number += repeat
    return rows


_ZIP = b"PK\x03\x04"
_WORKBOOKS = (".xlsx", ".xlsm", ".ods")
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an old .xls (and every Office 97 file)


def read_tables(path: str | os.PathLike[str], data: bytes | None = None) -> list[Table]:
    """The tables of a spreadsheet, one a worksheet that holds any row (at least one, so an
    empty file is one empty table), by what it holds, not by its name: a zip is an xlsx or
    an ods workbook (by the parts inside), anything else is CSV text. A workbook saved
    as ``kväll.ppn`` or piped in reads as well as one named right. ``data``: the
    file's bytes when they come from standard input."""
    p = Path(path)
    raw = data if data is not None else p.read_bytes()
    if raw.startswith(_OLE):
        raise PriffeError(msg("{file}: .xls files are not read: save the sheet as .xlsx, .ods or "
                              ".csv", file=p))
    if not raw.startswith(_ZIP):
        if p.suffix.lower() in _WORKBOOKS:  # named a workbook, yet no zip: damaged
            raise PriffeError(msg("{file}: named a workbook, but it is not one (an .xlsx or "
                                  ".ods file is a zip file): damaged?", file=p))
        return [("", rows_of_text(decode(raw)))]
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as book:
            names = set(book.namelist())
    except zipfile.BadZipFile as e:
        raise PriffeError(msg("{file}: a damaged zip file, neither an xlsx nor an ods "
                              "workbook ({reason})", file=p, reason=str(e))) from None
    if "xl/workbook.xml" in names or "content.xml" in names:
        tables = rows_of_xlsx(p, raw) if "xl/workbook.xml" in names else rows_of_ods(p, raw)
        return [t for t in tables if t[1]] or tables[:1] or [("", [])]
    raise PriffeError(msg("{file}: a zip file, but neither an xlsx nor an ods workbook",
                          file=p))
