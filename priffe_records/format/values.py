"""Tag values as real files write them: lenient import, strict export (PBN §2.1).

A value that is not in PBN form costs a located warning, never the record:
``Date "2021-04-03"`` reads as ``2021.04.03`` because its meaning
is certain; ``Date "95.06.10"`` or ``"14:12"`` stays as written. This module
is also the one home of "unspecified": PBN's ``?`` (unknown) and the empty
value.

>>> value, warning = normalise_date("20151006")
>>> value, str(warning)
('2015.10.06', "Date '20151006' is not YYYY.MM.DD; read as 2015.10.06 (PBN §3.4.3)")
>>> normalise_date("95.06.10")[0], normalise_date("3/30/2021")[0], normalise_date("3/4/2021")[0]
('95.06.10', '2021.03.30', '3/4/2021')
>>> is_unspecified(" ? "), is_unspecified("-"), is_unspecified("-", dash=True)
(True, False, True)
>>> str(normalise_date("2026.02.30")[1])
"Date '2026.02.30' is no day of the calendar; kept as written (PBN §3.4.3)"
>>> exact_date("2026-10-17"), exact_date("2026.??.??"), exact_date("2026.13.01"), exact_date("igår")
('2026.10.17', '2026.??.??', None, None)
"""

from __future__ import annotations

import re

from priffe_records.game.dates import calendar_day
from priffe_records.game.language import Message, msg

UNKNOWN = "?"  # PBN §3.4: the value is not known

_DATE_OK = re.compile(r"^(\?*|[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2})$")
_DATE_PARTS = re.compile(r"^([0-9?]{4})[.-]([0-9?]{2})[.-]([0-9?]{2})$")
_DATE_LOOSE_OK = re.compile(r"^[0-9?]{1,4}\.[0-9?]{1,2}\.[0-9?]{1,2}$")
# Certain readings only: a four-digit year first, then month and day.
_DATE_ISO = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$")
_DATE_PACKED = re.compile(r"^(\d{4})(\d{2})(\d{2})$")
# Day and month before a four-digit year: certain only when one of them is over 12.
_DATE_YEAR_LAST = re.compile(r"^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$")
_VULNERABLE = frozenset({"none", "love", "-", "ns", "ew", "all", "both"})
_BOARD = re.compile(r"^[0-9]{1,9}$")
_OPTIMUM_SCORE = re.compile(r"^(NS|EW)\s+[+-]?\d{1,9}$")


def is_unspecified(value: str | None, *, dash: bool = False) -> bool:
    """Whether a tag value says nothing: missing, empty or ``?`` (PBN §3.4).

    ``dash`` also counts ``-`` ("not relevant"), which table cells and some
    exporters use; for Vulnerable ``-`` means None, so it is not the default.
    """
    if value is None:
        return True
    v = value.strip()
    return v in ("", UNKNOWN) or (dash and v == "-")


def real_day(year: str, month: str, day: str) -> bool:
    """Whether the parts can be a day of the calendar; a part of ``?`` is unknown and fits.

    ``2026.02.30`` cannot (February has 28 days that year), ``????.02.29`` can.
    """
    def known(part: str, fits_any: str) -> str:
        return fits_any if "?" in part else part

    # An unknown part is one that fits any: a leap year, a month of 31 days, the 1st;
    # year 0000 is read as year 1, as the calendar has no year 0.
    return calendar_day(known(year, "2000").lstrip("0") or "1", known(month, "01"),
                        known(day, "01")) is not None


def exact_date(text: str) -> str | None:
    """``YYYY.MM.DD`` for a day written so (or ``YYYY-MM-DD``), ``?`` for unknown digits; else None.

    The strict reading a command option needs (``priffe new --date``): a date
    the program writes must be one it reads back without a warning.
    """
    m = _DATE_PARTS.match(text.strip())
    if not m or not real_day(*m.groups()):
        return None
    return ".".join(m.groups())


def normalise_date(value: str) -> tuple[str, Message | None]:
    """The value to keep and, when it is not PBN's ``YYYY.MM.DD`` of a real day, a warning."""
    v = value.strip()
    if v.startswith("#"):
        return value, None  # "#" or "##…": inheritance, resolved after this look
    if _DATE_OK.match(v):
        parts = v.split(".")
        if len(parts) == 3 and not real_day(*parts):
            return value, msg("Date {value!r} is no day of the calendar; kept as written "
                              "(PBN §3.4.3)", value=value)
        return value, None
    m = _DATE_ISO.match(v) or _DATE_PACKED.match(v)
    ymd: tuple[int, int, int] | None = None
    if m:
        ymd = int(m.group(1)), int(m.group(2)), int(m.group(3))
    elif m := _DATE_YEAR_LAST.match(v):
        a, b, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if (a > 12) != (b > 12):
            ymd = (year, b, a) if a > 12 else (year, a, b)
    if ymd is not None:
        year, month, day = ymd
        if year >= 1000 and real_day(str(year), str(month), str(day)):
            fixed = f"{year:04d}.{month:02d}.{day:02d}"
            return fixed, msg("Date {value!r} is not YYYY.MM.DD; read as {fixed} (PBN §3.4.3)",
                              value=value, fixed=fixed)
    if _DATE_LOOSE_OK.match(v):
        return value, msg("Date {value!r} is not YYYY.MM.DD (four-digit year, two-digit month "
                          "and day); kept as written (PBN §3.4.3)", value=value)
    return value, msg("Date {value!r} is not YYYY.MM.DD with '?' for unknown digits; kept as "
                      "written (PBN §3.4.3)", value=_short(value))


# The tags check_value has a rule for; any other tag's value passes.
CHECKED_TAGS = frozenset({"Vulnerable", "Board", "OptimumScore"})


def check_value(name: str, value: str) -> Message | None:
    """A warning for a value PBN does not allow that costs nothing of the record."""
    v = value.strip()
    if v.startswith("#") or is_unspecified(v):
        return None
    if name == "Vulnerable" and v.casefold() not in _VULNERABLE:
        return msg("Vulnerable {value!r} is not one of None, NS, EW, All (or Love, -, Both); "
                   "kept as written (PBN §3.4.10)", value=_short(value))
    if name == "Board" and (not _BOARD.match(v) or int(v) == 0):
        return msg("Board {value!r} is not a board number 1, 2, 3 … (PBN §3.4.4)",
                   value=_short(value))
    if name == "OptimumScore" and not _OPTIMUM_SCORE.match(v):
        return msg("OptimumScore {value!r} must be 'NS <score>' or 'EW <score>' (PBN §4.2)",
                   value=_short(value))
    return None


# A column name's minimum width and alignment: a backslash, then at most three digits (a
# line holds 255 characters, PBN §2.3), then 'L' or 'R' (PBN §3.2, §5.2).
_COLUMN_WIDTH = re.compile(r"\\([0-9]{1,3})([LR]?)\s*$")


def table_columns(header: str) -> list[tuple[int, str]]:
    r"""Each column of a table's tag value (PBN §5.2): its minimum width and alignment.

    Columns are the ``;``-separated names that are not blank; a name without
    ``\<width>`` has width 0, one without ``L``/``R`` alignment ``""``. The
    reader counts a row's cells by it, the writer pads them by it.

    >>> table_columns("Declarer;Denomination\\2R;Result\\2R;Names\\12L;Note\\3")
    [(0, ''), (2, 'R'), (2, 'R'), (12, 'L'), (3, '')]
    """
    out: list[tuple[int, str]] = []
    for name in header.split(";"):
        if not name.strip():
            continue
        m = _COLUMN_WIDTH.search(name)
        out.append((int(m.group(1)), m.group(2)) if m else (0, ""))
    return out


def _short(text: str) -> str:
    """A value as quoted in a message: long garbage is cut, not printed whole."""
    return text if len(text) <= 40 else text[:39] + "…"
