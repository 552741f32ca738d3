"""``score --html / --csv / --xlsx``: the sheet written to files, each atomically.

Apart from ``sheet_page`` (the HTML and the rows) and ``sheet_book`` (the workbook, which
reads those rows), so that neither needs the other back.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from priffe_records.cli.sheet_page import printable_page, sheet_csv
from priffe_records.format.atomic import write_bytes_atomically, write_text_atomically
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.rules.family import Sheet


def write_sheet_files(html_path: str | None, csv_path: str | None, xlsx_path: str | None,
                      records: Sequence[Record | BadRecord], sheets: Sequence[Sheet]
                      ) -> None:
    """``score --html``, ``--csv`` and ``--xlsx``: each to its path ('-': standard output),
    atomically."""
    if html_path:
        _write(html_path, printable_page(records, sheets))
    if csv_path:
        _write(csv_path, sheet_csv(records, sheets))
    if xlsx_path:
        from priffe_records.cli.sheet_book import sheet_xlsx

        book = sheet_xlsx(records, sheets)
        if xlsx_path == "-":
            sys.stdout.buffer.write(book)
        else:
            write_bytes_atomically(xlsx_path, book)


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
    else:
        write_text_atomically(path, text)
