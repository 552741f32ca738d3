"""The checks the validator makes on a Priffe record, grouped as RULES.md groups its rules.

``priffe validate -v`` lists each check that passed. A check ran when the
record has the tags it needs; it passed when no finding (of any severity:
an unverifiable rule has not passed) names one of its rules.

>>> from priffe_records.format.reader import loads
>>> text = '[Dealer "N"]\\n[Auction "N"]\\nHjärter Pass Pass Pass\\n'
>>> rec = next(iter(loads(text)))
>>> [c.name for c in present(rec)]
['auction']
>>> [c.name for c in passed(present(rec), ["R11"])], [c.name for c in passed(present(rec), ["R5"])]
(['auction'], [])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from priffe_records.format.record import Record


@dataclass(frozen=True, slots=True)
class Check:
    """One group of rules, the tags that give it something to check, and a short name."""

    name: str
    first: int
    last: int
    tags: tuple[str, ...]

    @property
    def rules(self) -> str:
        return f"R{self.first}" if self.first == self.last else f"R{self.first}–R{self.last}"

    def covers(self, rule: str) -> bool:
        return rule.startswith("R") and rule[1:].isdigit() and \
            self.first <= int(rule[1:]) <= self.last


CHECKS: tuple[Check, ...] = (
    Check("deal", 1, 3, ("Deal",)),
    Check("auction", 4, 9, ("Auction",)),
    Check("play", 10, 13, ("Play",)),
    Check("score", 14, 18, ("Result", "Score", "Honours")),
    Check("rubber", 19, 22, ("ScoreRubber",)),
    Check("settlement", 23, 24, ("Settlement",)),
)


def present(record: Record) -> tuple[Check, ...]:
    """The checks this record gives material for."""
    return tuple(c for c in CHECKS if any(record.get(t) is not None for t in c.tags))


def passed(checks: Sequence[Check], rules: Iterable[str]) -> list[Check]:
    """Those of ``checks`` that none of the findings' ``rules`` belongs to."""
    named = list(rules)
    return [c for c in checks if not any(c.covers(r) for r in named)]
