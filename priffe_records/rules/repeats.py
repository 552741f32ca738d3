"""Findings that say the same thing again, counted instead of repeated.

A few bytes can break one rule thousands of times in the same words (a Deal of 9,000
aces gives "♠A is dealt twice to North (R2)" for each), and a report that prints them
all buries everything else. A reader wants the first few, with their places, and how
many more there are; machines (``--json``, ``--nl``) keep getting every finding.

>>> from priffe_records.format.record import Location
>>> same = [Finding("R2", Severity.ERROR, "♠A is dealt twice to North (R2)",
...                 Location("a.ppn", 3, 8), 1)] * 5
>>> [str(x) if isinstance(x, Finding) else x.message for x in counted(same)][2:]
['a.ppn:3:8: error R2: ♠A is dealt twice to North (R2)', '… and 2 more like this (R2)']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from priffe_records.game.language import Message, msg_n, render
from priffe_records.rules.findings import Finding, Severity

SHOWN = 3  # findings of one kind shown before the rest are counted


@dataclass(frozen=True, slots=True)
class More:
    """Stands after the last shown finding of a kind: how many more say the same."""

    rule: str
    severity: Severity
    count: int
    record: int | None  # the record of the last one shown (where a report puts this line)

    @property
    def text(self) -> Message:
        return msg_n("… and {n} more like this ({rule})", "… and {n} more like this ({rule})",
                     self.count, rule=self.rule)

    @property
    def message(self) -> str:
        """The text in the active language."""
        return render(self.text)


def counted(findings: Iterable[Finding], shown: int = SHOWN) -> list[Finding | More]:
    """The findings in their order, each kind (rule, severity and words: all but the
    place) at most ``shown`` times, a :class:`More` after the last one shown. A kind
    with only one more than ``shown`` is shown whole: its count would take a line too."""
    items = list(findings)
    kinds = [(f.rule, f.severity, render(f.text)) for f in items]
    totals = Counter(kinds)
    seen: Counter[tuple[str, Severity, str]] = Counter()
    out: list[Finding | More] = []
    for f, kind in zip(items, kinds, strict=True):
        seen[kind] += 1
        total = totals[kind]
        if total <= shown + 1 or seen[kind] <= shown:
            out.append(f)
        if seen[kind] == shown and total > shown + 1:
            out.append(More(f.rule, f.severity, total - shown, f.record))
    return out
