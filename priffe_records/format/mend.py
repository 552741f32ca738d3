"""A tag pair broken on its own line, read as what it plainly means.

Hand-typed and exported files break a tag pair in a few plain ways, each with one
reading: the line ends before the ``]`` (``[Site "Uppsala"``) or before the closing
quote too (``[Site "Uppsala``), the value has no quotes (``[Event Random Deal #]``, as
WBridge5 exports every deal), or its closing quote is missing before the ``]``
(``[Result "NS 10 EW 3]``). Losing the whole record for one of these made correct
deals after it look wrong (their totals went without it), so the reader, on a syntax
error, asks :func:`mend` for the line's meaning: the tag pair written whole, and a
located message. :func:`~priffe_records.format.reader.read_headers` is the reader
itself (a headers-only visitor), so the index and the reader read one syntax.

A line that ends before its ``]`` is an error (the record may have lost more than the
bracket); a missing quote before a ``]`` that is there is a warning. Anything less plain
(a quote inside an unquoted value, a backslash in a value whose quote is missing, which
may have escaped that quote, a comment after a broken pair) stays a syntax error.

>>> m = mend('[Site "Uppsala"')
>>> m.name, m.value, m.line, m.column, m.severity
('Site', 'Uppsala', '[Site "Uppsala"]', 16, 'error')
>>> m = mend('[Event Random Deal #]')
>>> m.value, m.line, m.column, m.severity
('Random Deal #', '[Event"Random Deal #"]', 8, 'warning')
>>> mend('[Event "x"]') is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from priffe_records.format.errors import Severity
from priffe_records.format.record import unescape
from priffe_records.game.language import Message, msg

__all__ = ["Mended", "mend"]

_OPEN = r'(?P<open>[ \t]*\[[ \t]*(?P<name>[A-Z][A-Za-z0-9_]*))[ \t]+'
# The line ends after the closing quote: only the ']' is missing.
_NO_BRACKET = re.compile(_OPEN + r'"(?P<value>(?:\\.|[^"\\])*)"[ \t]*')
# The line ends inside the value: its quote and the ']' are missing.
_NO_END = re.compile(_OPEN + r'(?P<quote>")(?P<value>[^"\\\]]*?)[ \t]*')
# A line that ends a value begun on a line before: that value was cut by a line end.
_GOES_ON = re.compile(r'"[ \t]*\][ \t]*$', re.M)
# The ']' ends the line, but the value's closing quote is missing before it.
_NO_QUOTE = re.compile(_OPEN + r'"(?P<value>[^"\\]*?)[ \t]*\][ \t]*')
# A value without quotes, up to the first ']' (the rest of the line is read as usual).
_BARE = re.compile(_OPEN + r'(?P<value>[^"\[\]{};\s](?:[^"\[\]\n]*[^"\[\]\s])?)[ \t]*\]')


@dataclass(frozen=True, slots=True)
class Mended:
    """What a broken tag-pair line plainly means: the tag's name and value, the line with
    the tag pair written whole (the reader parses that instead), and the message, at
    ``column`` (from 1) of the line as written."""

    name: str
    value: str
    line: str
    column: int
    message: Message
    severity: Severity


def mend(line: str, after: str = "") -> Mended | None:
    """The plain reading of a line that opens with a broken tag pair, or None when the
    line's tag pair is whole or broken in a way that has no one reading. ``after`` is the
    text of the record after the line, up to its next tag pair: a value one of its lines
    closes (``-"]``) was cut by a line end, not left open."""
    m = _NO_BRACKET.fullmatch(line)
    if m is not None:
        value = unescape(m.group("value"))
        return Mended(m.group("name"), value, line.rstrip(" \t") + "]",
                      len(line.rstrip(" \t")) + 1,
                      msg("the tag pair is not closed on this line; expected ']' (read as "
                          "[{tag} \"{value}\"])", tag=m.group("name"), value=_short(value)),
                      "error")
    m = _NO_END.fullmatch(line)
    if m is not None and _GOES_ON.search(after) is None:
        value = unescape(m.group("value"))
        return Mended(m.group("name"), value, line[:m.end("value")] + '"]',
                      m.start("quote") + 1,
                      msg("unterminated string: the value has no closing '\"' and the tag pair "
                          "no ']' on this line (read as [{tag} \"{value}\"])",
                          tag=m.group("name"), value=_short(value)), "error")
    m = _NO_QUOTE.fullmatch(line)
    if m is not None:
        value = unescape(m.group("value"))
        end = m.end("value")
        return Mended(m.group("name"), value, line[:end] + '"' + line[end:], end + 1,
                      msg("the value of [{tag}] has no closing '\"' before the ']': read as "
                          "\"{value}\" (PBN §3)", tag=m.group("name"), value=_short(value)),
                      "warning")
    m = _BARE.match(line)
    if m is not None:
        value = m.group("value")
        start, end = m.start("value"), m.end("value")
        quoted = value.replace("\\", "\\\\")
        # The quote takes the blank before the value: the value keeps its columns.
        return Mended(m.group("name"), value,
                      line[:start - 1] + '"' + quoted + '"' + line[end:], start + 1,
                      msg("the value of [{tag}] is not in quotes: read as \"{value}\", up to "
                          "the ']' (PBN §3)", tag=m.group("name"), value=_short(value)),
                      "warning")
    return None


def _short(text: str) -> str:
    """A value as quoted in a message: long text is cut, not printed whole."""
    return text if len(text) <= 40 else text[:39] + "…"
