"""Findings that say the same thing again, counted instead of repeated.

A few bytes can break one rule thousands of times in the same words (a Deal of 9,000
aces gives "♠A is dealt twice to North" for each), and a report that prints them
all buries everything else. A reader wants the first few, with their places, and how
many more there are; machines (``--json``, ``--nl``) keep getting every finding.

>>> from priffe_records.format.record import Location
>>> same = [Finding("R2", Severity.ERROR, "♠A is dealt twice to North",
...                 Location("a.ppn", 3, 8), 1)] * 5
>>> [str(x) for x in counted(same)][2:]
['a.ppn:3:8: error R2: ♠A is dealt twice to North', 'error R2: … and 2 more like this']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from priffe_records.game.language import Message, msg_n, render
from priffe_records.rules.findings import Finding, Severity

SHOWN = 3  # findings of one kind shown before the rest are counted

T = TypeVar("T")
Kind = tuple[str, Severity, str]  # rule, severity, words: what "the same" means


@dataclass(frozen=True, slots=True)
class More:
    """Stands after the last shown finding of a kind: how many more say the same."""

    rule: str
    severity: Severity
    count: int
    record: int | None  # the record of the last one shown (where a report puts this line)

    @property
    def text(self) -> Message:
        return msg_n("… and {n} more like this", "… and {n} more like this", self.count)

    @property
    def message(self) -> str:
        """The text in the active language."""
        return render(self.text)

    def render(self, lang: str | None = None) -> str:
        """The whole line, as :meth:`Finding.render` writes one: the rule named once."""
        return f"{self.severity.word.render(lang)} {self.rule}: {render(self.text, lang)}"

    def __str__(self) -> str:
        return self.render()


# The note that a record without hands is taken as written ("not checked (no Auction,
# Play or Deal): …"): true of every deal of a plain score sheet, so a report says it
# once, whatever parts each deal lacks, and counts the others.
_UNCHECKED: Kind = ("", Severity.UNVERIFIABLE, "not checked")


def is_unchecked(f: Finding) -> bool:
    """Whether ``f`` is the note that a record lacking a part is taken as written (said
    once a file: by the report here, by ``priffe add`` once a session)."""
    return f.severity is Severity.UNVERIFIABLE and \
        getattr(f.text, "id", "").startswith("not checked (")


def _kind(f: Finding) -> Kind:
    if is_unchecked(f):
        return (f.rule, *_UNCHECKED[1:])
    return (f.rule, f.severity, render(f.text))


def counted(findings: Iterable[Finding], shown: int = SHOWN) -> list[Finding | More]:
    """The findings in their order, each kind (rule, severity and words: all but the
    place) at most ``shown`` times, a :class:`More` after the last one shown. A kind
    with only one more than ``shown`` is shown whole: its count would take a line too.
    The "not checked" note of a record without hands is one kind, shown once."""
    return counted_by(findings, _kind, shown,
                      once=lambda k: k[1:] == _UNCHECKED[1:])


def counted_by(items: Iterable[T], kind: Callable[[T], Kind], shown: int = SHOWN, *,
               once: Callable[[Kind], bool] | None = None) -> list[T | More]:
    """:func:`counted` for anything ``kind`` tells the rule, severity and words of (the
    reader's errors, say); a kind ``once`` picks is shown once, then counted."""
    listed = list(items)
    kinds = [kind(item) for item in listed]
    totals = Counter(kinds)
    seen: Counter[Kind] = Counter()
    out: list[T | More] = []
    for item, k in zip(listed, kinds, strict=True):
        seen[k] += 1
        total = totals[k]
        limit = 1 if once is not None and once(k) else shown
        if total <= limit + 1 or seen[k] <= limit:
            out.append(item)
        if seen[k] == limit and total > limit + 1:
            out.append(More(k[0], k[1], total - limit, getattr(item, "record", None)))
    return out
