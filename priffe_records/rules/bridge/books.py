"""A bridge partie's books: its deals in order. Duplicate bridge scores each deal on its
own (matchpoints and IMPs compare tables, which one file of one table does not hold),
so the books keep the deals and add nothing up.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from priffe_records.format.record import Location
from priffe_records.rules.family import KeptBooks
from priffe_records.rules.findings import Finding

from .analysis import BridgeOutcome


@dataclass(frozen=True, slots=True)
class BridgeLine:
    """One deal of the partie, as the books' ``add`` gives it."""

    outcome: BridgeOutcome


@dataclass(frozen=True, slots=True)
class BridgePartie:
    event: str | None
    site: str | None
    date: str | None
    lines: tuple[BridgeLine, ...] = ()
    findings: tuple[Finding, ...] = field(default=())

    def with_findings(self, findings: tuple[Finding, ...]) -> BridgePartie:
        return replace(self, findings=findings)


class BridgeBooks(KeptBooks):
    def __init__(self, event: str | None, site: str | None, date: str | None) -> None:
        self.lines: list[BridgeLine] = []
        self.head = (event, site, date)

    def add(self, o: BridgeOutcome) -> BridgeLine:
        line = BridgeLine(o)
        self.lines.append(line)
        return line

    def lost(self, where: Location, index: int) -> None:
        """An unreadable record changes no other deal's score: nothing to keep."""

    def close(self) -> BridgePartie:
        return BridgePartie(*self.head, tuple(self.lines))
