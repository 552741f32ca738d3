"""A record that could not be read, a file that holds none; the error names callers import.

A located problem (:class:`~priffe_records.format.record.PPNSyntaxError`) rides on the
record that holds it, so it is written beside the record model; here are the record
that could not be read and the file that holds none, and the names callers import.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from priffe_records.format.record import Location, PPNSyntaxError, Record, Severity
from priffe_records.game.errors import PriffeError
from priffe_records.game.language import msg

__all__ = ["BadRecord", "PPNSyntaxError", "PriffeError", "Severity", "no_records"]


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
