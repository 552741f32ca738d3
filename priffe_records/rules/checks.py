"""The checks the validator makes on a record, grouped as each family's rules document
groups its rules (RULES.md for Priffe, PREFERENCE.md for Préférence): each family lists
its own, this module says which ran and which passed.

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
>>> pref = next(iter(loads('[Scoring "Preference"]\\n[Pot "30"]\\n')))
>>> [(c.name, c.rules) for c in present(pref)]
[('claims', 'P14')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from priffe_records.format.record import Record
from priffe_records.rules.family import Check, family_of


def present(record: Record) -> tuple[Check, ...]:
    """The checks this record gives material for (its family's)."""
    checks = family_of(record).checks
    return tuple(c for c in checks if any(record.get(t) is not None for t in c.tags))


def passed(checks: Sequence[Check], rules: Iterable[str]) -> list[Check]:
    """Those of ``checks`` that none of the findings' ``rules`` belongs to."""
    named = list(rules)
    return [c for c in checks if not any(c.covers(r) for r in named)]


