"""priffe-records: read, validate, archive and replay records of the card game Priffe.

The record format is PPN, a profile of PBN 2.1; see ``docs/format.md``.

>>> from priffe_records import loads, dumps
>>> recs = list(loads('[Event "Klubbkväll"]\\n[Contract "spelut"]\\n'))
>>> recs[0].get("Contract")
'Spela'
>>> list(loads(dumps(recs))) == recs
True
"""

from __future__ import annotations

from .errors import BadRecord, PPNSyntaxError, PriffeError
from .reader import loads, read
from .record import Record, Tag
from .writer import dumps, format_record, write

__version__ = "0.1.0"

__all__ = [
    "BadRecord",
    "PPNSyntaxError",
    "PriffeError",
    "Record",
    "Tag",
    "__version__",
    "dumps",
    "format_record",
    "loads",
    "read",
    "write",
]
