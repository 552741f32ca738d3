"""Where a file may be cut so that each piece reads exactly as it reads inside the whole file.

The reader's splitter starts a record afresh at a line that follows a semi-empty line and
opens with a tag pair (``[Name "``), whatever came before: outside a brace comment the
blank line ends the record, inside one the stray-brace repair ends it. From
such a line on, nothing of the earlier text counts unless the file inherits values
(PBN §4.8 ``#``), so reading the bytes from there with ``first_line`` set gives the same
records, errors and locations. These functions find those lines in the bytes, without
decoding or splitting, so a parent process can cut a big file in milliseconds and leave
the reading to workers (rules.parallel).

Being stricter than the splitter is always safe (fewer cuts); being looser never is:
``tests/test_cuts.py`` checks every offset found against the reader's own records.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO

from priffe_records.format.splitter import may_inherit, wide_codec

# A semi-empty line (only " \t\f\v", PBN §3), then a line opening with a tag pair as
# splitter.starts_record sees it, in its plain spacing only (stricter, so safe).
_FRESH = re.compile(rb'\n[ \t\f\v]*\r?\n(?=[ \t\f\v]*\[[A-Z][A-Za-z0-9_]*[ \t]+")')
BLOCK = 1 << 20  # bytes read at a time (the tests make it small to cut lines across)


def sliceable(stream: IO[bytes]) -> bool:
    """Whether the file may be read in pieces cut at :func:`fresh_starts`: not UTF-16, line
    ends LF or CRLF only (a lone CR is a line end to the reader but not to a byte count),
    and no value inheriting with ``#``. Reads the stream to its end (C speed, no decoding)."""
    head = stream.read(4)
    if wide_codec(head):
        return False
    carry = head
    while True:
        block = stream.read(BLOCK)
        data = carry + block
        # Keep back what a match could still need: a CR whose LF comes next, a quote
        # followed by blanks only (the '#' may come next).
        keep = len(data) - 1 if block and data.endswith(b"\r") else len(data)
        quote = data.rfind(b'"')
        if block and quote >= 0 and not data[quote + 1:].strip():
            keep = min(keep, quote)
        body, carry = data[:keep], data[keep:]
        if body.count(b"\r") != body.count(b"\r\n") or may_inherit(body) \
                or len(carry) > BLOCK:
            return False
        if not block:
            return True


def fresh_starts(data: bytes, start: int = 0, end: int | None = None) -> Iterator[int]:
    """Offsets in ``data[start:end]`` of lines where the reader starts a record afresh.

    ``data`` must begin at a line start (the file's start, or an offset this function
    gave); a line at ``start`` itself is not reported (its line before is not seen).
    """
    stop = len(data) if end is None else end
    for m in _FRESH.finditer(data, max(start - 1, 0), stop):
        if m.end() < stop and _record_before(data, m.start()):
            yield m.end()


_BLANK_BYTES = b" \t\f\v\r"
_SEMI_BLANKS = re.compile(rb"\n[ \t\f\v]+\r?\n")  # a semi-empty line holding blanks
_RUN_TAG = re.compile(rb'[ \t\f\v]*\[[A-Z][A-Za-z0-9_]*[ \t]+"')
_LINE_BRACKET = re.compile(rb"\n[ \t\f\v]*\[")


def _record_before(data: bytes, end: int) -> bool:
    """Whether the run of lines before the semi-empty line(s) at ``end`` is surely part of a
    record: a run of comments only is joined to the record after it (splitter.attach_comments),
    so the reader may not start afresh after it. Sure when the run opens with a tag pair, or
    holds no brace and a line opening with '['; anything else is taken as comments."""
    while end > 0 and not data[data.rfind(b"\n", 0, end) + 1:end].strip(_BLANK_BYTES):
        end = data.rfind(b"\n", 0, end)  # a semi-empty line before: the run ends earlier
    if end <= 0:
        return False
    lf, crlf = data.rfind(b"\n\n", 0, end), data.rfind(b"\n\r\n", 0, end)
    # The line end of the semi-empty line before the run (-1: the run opens the data).
    start = max(lf + 1 if lf >= 0 else -1, crlf + 2 if crlf >= 0 else -1)
    for blank in _SEMI_BLANKS.finditer(data, max(start, 0), end):
        start = blank.end() - 1
    run = data[start:end] if start >= 0 else b"\n" + data[:end]
    if _RUN_TAG.match(run, 1) is not None:
        return True
    return b"{" not in run and b"}" not in run and _LINE_BRACKET.search(run) is not None
