"""A spreadsheet's cells as text rows: CSV, TSV and ods (standard library), xlsx (openpyxl).

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
import zipfile
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

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


def rows_of_ods(path: Path) -> list[Row]:
    """The first table of an OpenDocument spreadsheet (LibreOffice's own format)."""
    try:
        with zipfile.ZipFile(path) as book, book.open("content.xml") as content:
            root = ElementTree.parse(content).getroot()
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError) as e:
        raise PriffeError(msg("{file}: not an ods spreadsheet ({reason})", file=path,
                              reason=str(e) or type(e).__name__)) from None
    try:
        return _ods_rows(next(root.iter(_TABLE + "table"), None))
    except ValueError as e:  # a repeat count that is no number
        raise PriffeError(msg("{file}: not an ods spreadsheet ({reason})", file=path,
                              reason=str(e))) from None


def _ods_rows(table: ElementTree.Element | None) -> list[Row]:
    rows: list[Row] = []
    number = 1
    for row in table.iter(_TABLE + "table-row") if table is not None else ():
        cells = list(_ods_cells(row))
        while cells and not cells[-1]:
            cells.pop()
        repeat = int(row.get(_TABLE + "number-rows-repeated", "1"))
        if cells:  # an empty row repeated to the sheet's end is not a million rows
            rows += [(number + i, list(cells)) for i in range(min(repeat, 1024))]
        number += repeat
    return rows


def read_rows(path: str | os.PathLike[str], data: bytes | None = None) -> list[Row]:
    """The rows of a spreadsheet file, by its suffix; ``data`` is standard input's text (CSV)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in XLSX:
        return rows_of_xlsx(p)
    if suffix == ".ods":
        return rows_of_ods(p)
    if suffix == ".xls":
        raise PriffeError(msg("{file}: .xls files are not read: save the sheet as .xlsx, .ods or "
                              ".csv", file=p))
    return rows_of_text(decode(data if data is not None else p.read_bytes()), suffix)
