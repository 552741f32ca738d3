"""Writer: records → canonical PPN export format (FORMAT.md, PBN §2.1 export rules).

One record's text is :func:`~priffe_records.format.record.format_record`, beside the
model it writes (``str(record)`` is that text); this module writes files of them.
That text is the single definition of "canonical": tags in export order,
one per line, calls and cards in canonical spelling, four slots a line,
suffixes as NAGs, every comment after what it followed. Because the reader
normalises values the same way, ``loads(dumps(records))`` gives equal
records and ``dumps`` of those is byte-for-byte the same text.

>>> from priffe_records.format.reader import loads
>>> text = '[Contract "hjarter"] {bud}\\n[Event "Klubbkväll"]\\n'
>>> print(dumps(loads(text)), end="")
% PPN 1.0
% EXPORT
[Event "Klubbkväll"]
[Contract "Hjärter"]
{bud}
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable
from typing import IO

from priffe_records.format.atomic import atomic_text
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record, format_record

__all__ = ["HEADER", "dumps", "format_record", "write"]

HEADER = "% PPN 1.0\n% EXPORT\n"


def dumps(records: Iterable[Record | BadRecord], *, header: bool = True,
          resolve_inheritance: bool = False) -> str:
    """The whole file as a string (see :func:`write`)."""
    buf = io.StringIO()
    _write_stream(records, buf, header=header, resolve_inheritance=resolve_inheritance)
    return buf.getvalue()


def _write_stream(records: Iterable[Record | BadRecord], out: IO[str], *, header: bool,
                  resolve_inheritance: bool) -> int:
    if header:
        out.write(HEADER)
    n = 0
    for rec in records:
        if n:
            out.write("\n")
        if isinstance(rec, BadRecord):
            # Keep what could not be read, as it was: nothing of the user's is lost.
            out.write(rec.text)
        else:
            out.write(format_record(rec, resolve_inheritance=resolve_inheritance))
        n += 1
    return n


def write(records: Iterable[Record | BadRecord], file: str | os.PathLike[str] | IO[str], *,
          header: bool = True, resolve_inheritance: bool = False) -> int:
    """Write records in export format; returns how many were written.

    A path is written atomically (a temporary file in the same folder, then
    renamed over the target), so an error or Ctrl-C half way never leaves a
    half-written file where the user's file was.
    """
    if not isinstance(file, str | os.PathLike):
        return _write_stream(records, file, header=header,
                             resolve_inheritance=resolve_inheritance)
    with atomic_text(file) as fh:
        n = _write_stream(records, fh, header=header, resolve_inheritance=resolve_inheritance)
    return n
