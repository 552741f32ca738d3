"""User-facing errors: always a location, the offending line and a plain message."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from priffe_records.format.record import Location, Record
from priffe_records.game.errors import PriffeError
from priffe_records.game.language import Message, msg, msg_p, render

__all__ = ["BadRecord", "PPNSyntaxError", "PriffeError", "no_records"]


Severity = Literal["error", "warning"]

# How much of a long line an error shows around its caret: a 1 MB line must not
# print 1 MB per error.
WINDOW = 72


class PPNSyntaxError(PriffeError):
    """A problem in a record's text, located to file, line and column.

    ``severity`` is ``"error"`` when the record cannot mean what it says and
    ``"warning"`` when it reads fine but is not what PBN asks for (a Date
    written ``2021-04-03``): python-chess style, both ride on the record.

    >>> e = PPNSyntaxError("unterminated string", Location("a.ppn", 3, 8), '[Event "x')
    >>> print(e)
    a.ppn:3:8: unterminated string
        [Event "x
               ^
    >>> shown, caret = PPNSyntaxError("odd", Location("a", 1, 500), "x" * 999 + "!").snippet()
    >>> len(shown), shown[caret.index("^")]
    (74, 'x')
    """

    def __init__(self, message: Message | str, location: Location, line_text: str = "",
                 severity: Severity = "error") -> None:
        super().__init__(message)
        self.text = message  # a Message renders in the active language
        self.location = location
        self.line_text = line_text
        self.severity: Severity = severity

    def __reduce__(self) -> tuple[type[PPNSyntaxError], tuple[object, ...]]:
        """Pickled with its arguments (a partie's books travel between processes with
        the records they keep, and an exception's default pickling drops them)."""
        return type(self), (self.text, self.location, self.line_text, self.severity)

    @property
    def message(self) -> str:
        return render(self.text)

    @property
    def is_warning(self) -> bool:
        return self.severity == "warning"

    def snippet(self) -> tuple[str, str]:
        """The line as shown (a window around the caret on a long line) and the caret line."""
        # One character per column keeps the caret aligned; PBN §2.2 asks for
        # '?' where a character cannot be shown.
        text = self.line_text.rstrip("\n")
        col = max(self.location.column, 1) - 1
        start = 0
        if len(text) > WINDOW:
            start = max(0, min(col - WINDOW // 2, len(text) - WINDOW))
            text = text[start:start + WINDOW]
        shown = "".join(c if c.isprintable() else "?" for c in text.expandtabs(1))
        prefix, suffix = ("…" if start else ""), ("…" if start + WINDOW < len(
            self.line_text.rstrip("\n")) else "")
        return (prefix + shown + suffix, " " * (col - start + len(prefix)) + "^")

    def __str__(self) -> str:
        kind = f"{msg_p('severity', 'warning')}: " if self.is_warning else ""
        out = f"{self.location}: {kind}{self.message}"
        if self.line_text:
            shown, caret = self.snippet()
            out += f"\n    {shown}\n    {caret}"
        return out

    def to_dict(self) -> dict[str, object]:
        return {"file": self.location.file, "line": self.location.line,
                "column": self.location.column, "severity": self.severity,
                "message": self.message}


def no_records(file: str) -> PPNSyntaxError:
    """The warning for a file that holds no record (empty, blank lines, a header only):
    commands say so instead of "0 records" and leave such a file as it is."""
    return PPNSyntaxError(msg("the file holds no records"), Location(file, 1, 1),
                          severity="warning")


@dataclass(frozen=True, slots=True)
class BadRecord:
    """A record whose text the grammar could not read, yielded instead of it in collecting mode.

    Only where no one tag's section can hold the error (a syntax error in a section
    costs that section alone: see :class:`~priffe_records.format.record.DamagedSection`).
    ``text`` is the record's source, so nothing of the file is lost, and
    ``errors`` holds every syntax error found in it (reading resumes at the
    next line or tag after each). ``partial`` is what could be read, for a
    caller that wants it; writers keep ``text``, since writing ``partial``
    would lose what the parser skipped.
    """

    errors: tuple[PPNSyntaxError, ...]
    location: Location
    text: str = field(repr=False)
    partial: Record | None = field(default=None, repr=False, compare=False)
