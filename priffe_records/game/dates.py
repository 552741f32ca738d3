"""A date's parts as a day of the calendar: the one checked conversion every date goes through.

A file's ``Date`` may hold any digits (``2026.11.99999999999999999999``), and Python's
``datetime.date`` raises ``OverflowError`` for a number too big for C, ``ValueError`` for
a day that is not one. Every place that turns a date's parts into a day (the reader's
check, the date shown on a sheet or a replay, a spreadsheet's date cell) asks here, and
gets ``None`` for anything that is not a day, never an exception.

>>> calendar_day("2026", "11", "29"), calendar_day(2026, 2, 30), calendar_day("9" * 30, 1, 1)
(datetime.date(2026, 11, 29), None, None)
>>> pbn_day("2026.11.29"), pbn_day("2026.??.29"), pbn_day("2026.11.99999999999999999999")
(datetime.date(2026, 11, 29), None, None)
"""

from __future__ import annotations

import datetime


def calendar_day(year: int | str, month: int | str, day: int | str) -> datetime.date | None:
    """The day of these parts (numbers, or strings of ASCII digits), or ``None``."""
    try:
        y, m, d = (p if isinstance(p, int) else int(p) if p.isascii() and p.isdigit() else -1
                   for p in (year, month, day))
        return datetime.date(y, m, d)
    except (ValueError, OverflowError):
        return None


def pbn_day(value: str) -> datetime.date | None:
    """The day a PBN date ``YYYY.MM.DD`` names, or ``None`` (unknown parts ``?``, another form,
    a number that is no year, month or day)."""
    parts = value.strip().split(".")
    return calendar_day(*parts) if len(parts) == 3 else None
