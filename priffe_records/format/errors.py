"""User-facing errors: always a location, the offending line and a plain message."""

from __future__ import annotations

from dataclasses import dataclass, field

from priffe_records.format.record import Location
from priffe_records.game.errors import PriffeError

__all__ = ["BadRecord", "PPNSyntaxError", "PriffeError"]


class PPNSyntaxError(PriffeError):
    """A record that cannot be read, located to file, line and column.

    >>> e = PPNSyntaxError("unterminated string", Location("a.ppn", 3, 8), '[Event "x')
    >>> print(e)
    a.ppn:3:8: unterminated string
        [Event "x
               ^
    """

    def __init__(self, message: str, location: Location, line_text: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.line_text = line_text

    def __str__(self) -> str:
        out = f"{self.location}: {self.message}"
        if self.line_text:
            # One character per column keeps the caret aligned; PBN §2.2 asks for
            # '?' where a character cannot be shown.
            shown = "".join(c if c.isprintable() else "?"
                            for c in self.line_text.rstrip("\n").expandtabs(1))
            out += f"\n    {shown}\n    {' ' * (self.location.column - 1)}^"
        return out

    def to_dict(self) -> dict[str, object]:
        return {"file": self.location.file, "line": self.location.line,
                "column": self.location.column, "message": self.message}


@dataclass(frozen=True, slots=True)
class BadRecord:
    """A record that could not be read, yielded instead of it in collecting mode.

    ``text`` is the record's source, so nothing of the file is lost.
    """

    errors: tuple[PPNSyntaxError, ...]
    location: Location
    text: str = field(repr=False)
