"""What the rules engine reports: one :class:`Finding` per broken or uncheckable rule.

Findings are plain frozen data so the validator, the score sheet, the CLI
report and a replay UI can all show them without knowing the engine.

>>> f = Finding("R11", Severity.ERROR,
...             "trick 7: South plays ♦3 while holding ♥K — must follow hearts (R11)",
...             Location("a.ppn", 30, 5))
>>> print(f)
a.ppn:30:5: error R11: trick 7: South plays ♦3 while holding ♥K — must follow hearts (R11)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from priffe_records.format.record import Location, Record, Tag


class Severity(enum.Enum):
    """``error`` breaks a rule; ``warning`` is a doubtful but legal record; ``unverifiable``
    says honestly what the record does not let us check."""

    ERROR = "error"
    WARNING = "warning"
    UNVERIFIABLE = "unverifiable"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.UNVERIFIABLE: 2}


@dataclass(frozen=True, slots=True)
class Finding:
    """One message for a player.

    ``rule`` is a RULES.md ID (``R11``), ``Presets`` for the Scoring tag, or
    ``PPN`` for a record the reader could not read. ``record`` is the 1-based
    position of the record in the validated sequence.
    """

    rule: str
    severity: Severity
    message: str
    location: Location | None = None
    record: int | None = None

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location is not None else ""
        return f"{where}{self.severity.value} {self.rule}: {self.message}"

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def at_record(self, record: int) -> Finding:
        return replace(self, record=record)

    def to_dict(self) -> dict[str, object]:
        loc = self.location
        return {"file": loc.file if loc else None, "line": loc.line if loc else None,
                "column": loc.column if loc else None, "record": self.record,
                "rule": self.rule, "severity": self.severity.value, "message": self.message}


def error(rule: str, message: str, location: Location | None = None) -> Finding:
    return Finding(rule, Severity.ERROR, message, location)


def warning(rule: str, message: str, location: Location | None = None) -> Finding:
    return Finding(rule, Severity.WARNING, message, location)


def unverifiable(rule: str, message: str, location: Location | None = None) -> Finding:
    return Finding(rule, Severity.UNVERIFIABLE, message, location)


def tag_location(record: Record, name: str, value: bool = True) -> Location | None:
    """Where to point for a tag: its value if known, else the tag, else the record."""
    tag: Tag | None = record.tag(name)
    if tag is not None:
        loc = tag.value_location if value else None
        return loc or tag.location or record.location
    return record.location


def sort_key(f: Finding) -> tuple[int, int, int, int]:
    """Errors first, then by position in the file."""
    loc = f.location
    return (f.record or 0, f.severity.rank, loc.line if loc else 0, loc.column if loc else 0)
