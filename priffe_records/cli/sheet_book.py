"""``priffe score --xlsx``: the sheet as an Excel workbook, one worksheet a partie.

``--csv`` is standard CSV (commas, UTF-8 without a byte-order mark), which
Swedish Excel opens as one column with broken å, ä, ö: Excel in Sweden
expects semicolons and Windows-1252 from a CSV file. A workbook has neither
problem. Its cells are what ``--csv`` writes (the rows ``sheet-import``
reads back, :func:`~priffe_records.cli.sheet_page.sheet_tables`), but
numbers are numbers and the date is a date, so the secretary can sum and
sort them. Writing needs openpyxl, the ``sheet`` extra, as reading does.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

from priffe_records.cli.common import EXIT_UNUSABLE, UserError
from priffe_records.cli.sheet_page import sheet_tables
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.format.sheet_rows import SHEET_EXTRA
from priffe_records.format.values import is_unspecified
from priffe_records.game.dates import calendar_day
from priffe_records.game.language import msg
from priffe_records.rules.family import Sheet

_NUMBER = re.compile(r"^-?(0|[1-9][0-9]{0,14})$")
_DAY = re.compile(r"^([0-9]{4})\.([0-9]{2})\.([0-9]{2})$")
_NOT_IN_NAME = re.compile(r"[\[\]:*?/\\]")  # what Excel refuses in a worksheet's name
_NAME_LENGTH = 31  # Excel's longest worksheet name


def sheet_xlsx(records: Sequence[Record | BadRecord], sheets: Sequence[Sheet]) -> bytes:
    """The workbook: a worksheet a partie, named by its Event (else its title), in file
    order."""
    try:
        import openpyxl
        from openpyxl.styles import Font
    except ImportError:
        raise UserError(msg("writing .xlsx needs openpyxl: {command} (or write --csv)",
                            command=SHEET_EXTRA()), EXIT_UNUSABLE) from None
    book = openpyxl.Workbook()
    tables = sheet_tables(records, sheets)
    if tables:  # else the one empty worksheet a workbook needs: no deals, as --csv
        book.remove(book.active)
    names: set[str] = set()
    for sheet, rows in tables:
        title = sheet.title if is_unspecified(sheet.event) else str(sheet.event)
        page = book.create_sheet(_name(title, len(names) + 1, names))
        for row in rows:
            page.append([_value(c) for c in row])
        heading = rows.index([]) + 1  # the partie's own rows, an empty one, the headings
        for cell in page[heading + 1]:
            cell.font = Font(bold=True)
        page.freeze_panes = page.cell(heading + 2, 1)
        _widths(page, rows[heading:])
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _value(text: str) -> object:
    """A number as a number, a day as a date; any other cell stays text."""
    if _NUMBER.match(text):
        return int(text)
    if (m := _DAY.match(text)) and (day := calendar_day(*m.groups())) is not None:
        return day
    return text


def _name(title: str, number: int, taken: set[str]) -> str:
    """A worksheet name Excel takes: no ``[]:*?/\\``, at most 31 characters, unique."""
    name = _NOT_IN_NAME.sub(" ", title).strip(" '")[:_NAME_LENGTH] or f"{number}"
    while name.casefold() in taken:
        tail = f" ({number})"
        name = name[:_NAME_LENGTH - len(tail)] + tail
        number += 1
    taken.add(name.casefold())
    return name


def _widths(page: Any, table: Sequence[Sequence[str]]) -> None:
    """Each column as wide as its widest cell in the deals' table (6 to 40 characters)."""
    from openpyxl.utils import get_column_letter

    for i in range(max(len(r) for r in table)):
        widest = max(len(r[i]) for r in table if i < len(r))
        page.column_dimensions[get_column_letter(i + 1)].width = min(max(widest, 6) + 2, 40)
