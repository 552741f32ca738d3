"""The validator: every finding for a sequence of records, errors first within each record.

>>> from priffe_records import loads
>>> text = '''[Dealer "N"]
... [Deal "N:KJ.A7.AQ3.AKQJ63 A64.T9863.T8742. T9872.KQ2.KJ6.85 Q53.J54.95.T9742"]
... [Contract "Hjärter"]
... [Declarer "E"]
... [Result "NS 10 EW 3"]
... [Score "NS 90 EW 0"]
... '''
>>> findings = validate(loads(text))
>>> [(f.rule, f.severity.value) for f in findings]
[('R15', 'error'), ('R8', 'unverifiable')]
>>> print(findings[0].message)
Score says NS 90 EW 0, but the deal scores NS 80 EW 0 (NS 4 penalty tricks 80)
"""

from __future__ import annotations

from collections.abc import Iterable

from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.rules.findings import Finding, Severity
from priffe_records.rules.gcscope import batch_gc
from priffe_records.rules.partie import findings


@batch_gc
def validate(records: Iterable[Record | BadRecord], *, options: object = None,
             conventions: bool = False) -> list[Finding]:
    """Check records against RULES.md; unreadable records come back as ``PPN`` errors.

    ``options`` (a family's own rule variants) are used for records without a
    Scoring tag; ``conventions`` adds the R9 convention warnings.
    """
    return list(findings(records, options=options, conventions=conventions))


def counts(findings: Iterable[Finding]) -> dict[Severity, int]:
    """How many findings of each severity, for summary lines."""
    out = dict.fromkeys(Severity, 0)
    for f in findings:
        out[f.severity] += 1
    return out
