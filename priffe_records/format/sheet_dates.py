"""A date as a person or a spreadsheet program writes it in a cell, as PBN's ``YYYY.MM.DD``.

Swedish Excel writes ``2026-11-25``, LibreOffice ``2026-11-25`` or
``25.11.2026``, a hand ``25/11/2026``, ``25 nov 2026`` or ``den 25 november
2026``; an .xlsx date cell whose format got lost is a day number (Excel's
serial, days since 1899-12-30). Each is read to ``2026.11.25``. An old score
book may give only ``mars 1952`` or ``1952``: PBN's ``1952.03.??`` and
``1952.??.??``. Day and month written before a four-digit year are read day
first, as in Sweden (and all of Europe): ``03/04/2026`` is 3 April; only
where that is no day (``11/25/2026``, as Excel in American English writes)
month first. A two-digit year is not guessed (``25-11-26`` may be either end
first), nor is a day the calendar lacks: those return ``None``, and the
caller names the cell.

>>> [sheet_date(t) for t in ("2026-11-25", "25.11.2026", "03/04/2026", "11/25/2026")]
['2026.11.25', '2026.11.25', '2026.04.03', '2026.11.25']
>>> [sheet_date(t) for t in ("den 25 november 2026", "25 Nov. 2026", "November 25, 2026")]
['2026.11.25', '2026.11.25', '2026.11.25']
>>> sheet_date("46351"), sheet_date("2026-11-25 19:30"), sheet_date("2026.??.??")
('2026.11.25', '2026.11.25', '2026.??.??')
>>> sheet_date("1952"), sheet_date("mars 1952")  # an old score book's: unknown parts '?'
('1952.??.??', '1952.03.??')
>>> sheet_date("30.02.2026"), sheet_date("25-11-26"), sheet_date("igår")
(None, None, None)
"""

from __future__ import annotations

import datetime
import re

from priffe_records.format.values import exact_date, real_day

# Month names and their common short forms, Swedish and English, case-folded.
_MONTHS = {name: n for n, names in enumerate((
    ("januari", "january", "jan"), ("februari", "february", "feb"),
    ("mars", "march", "mar"), ("april", "apr"), ("maj", "may"), ("juni", "june", "jun"),
    ("juli", "july", "jul"), ("augusti", "august", "aug"),
    ("september", "sep", "sept"), ("oktober", "october", "okt", "oct"),
    ("november", "nov"), ("december", "dec")), 1) for name in names}
# What may stand around a date and says nothing of it: a weekday, "den", a time of day.
_WEEKDAY = re.compile(r"^(?:(?:mån|tis|ons|tors|fre|lör|sön)dag|(?:mon|tues|wednes|thurs|fri|"
                      r"satur|sun)day|den|the)\b[,.]?\s*", re.IGNORECASE)
_TIME = re.compile(r"(?:[ T]\d{1,2}[:.]\d{2}(?:[:.]\d{2}(?:\.\d+)?)?)$")
_YMD = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$")
_DMY = re.compile(r"^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$")
_DAY_NAME = re.compile(r"^(\d{1,2})\.?[\s-]+([^\W\d_]+)\.?[\s-]+(\d{4})$")
_NAME_DAY = re.compile(r"^([^\W\d_]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$")
_YEAR = re.compile(r"^(\d{4})$")  # an old score book's year: PBN's 1952.??.??
_MONTH_YEAR = re.compile(r"^([^\W\d_]+)\.?\s+(\d{4})$")
_SERIAL = re.compile(r"^(\d{5})(?:\.\d+)?$")  # 10000 (1927) to 99999 (2173)
_EXCEL_EPOCH = datetime.date(1899, 12, 30)


def sheet_date(text: str) -> str | None:
    """``YYYY.MM.DD`` of a date written in any common way; ``None`` when it is not one."""
    v = text.strip()
    exact = exact_date(v)  # PBN's own form, '?' for unknown digits allowed
    if exact is not None:
        return exact
    if m := _SERIAL.match(v):
        return (_EXCEL_EPOCH + datetime.timedelta(days=int(m.group(1)))).strftime("%Y.%m.%d")
    while (w := _WEEKDAY.match(v)) and w.end():
        v = v[w.end():]
    v = _TIME.sub("", v).strip()
    if m := _YMD.match(v):
        return _day(m.group(1), m.group(2), m.group(3))
    if m := _DMY.match(v):
        first, second = m.group(1), m.group(2)
        if int(second) > 12 >= int(first):  # 11/25/2026: only month first makes a day
            first, second = second, first
        return _day(m.group(3), second, first)
    if m := _DAY_NAME.match(v):
        return _day(m.group(3), _MONTHS.get(m.group(2).casefold()), m.group(1))
    if m := _NAME_DAY.match(v):
        return _day(m.group(3), _MONTHS.get(m.group(1).casefold()), m.group(2))
    if m := _YEAR.match(v):
        return f"{m.group(1)}.??.??"
    if (m := _MONTH_YEAR.match(v)) and (month := _MONTHS.get(m.group(1).casefold())):
        return f"{m.group(2)}.{month:02d}.??"
    return None


def _day(year: str, month: str | int | None, day: str) -> str | None:
    if month is None or not real_day(year, str(month), day):
        return None
    return f"{int(year):04d}.{int(month):02d}.{int(day):02d}"
