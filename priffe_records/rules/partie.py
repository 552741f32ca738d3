"""The driver: records in, parties out, each with its deals, rubbers, standings and findings.

A partie is a run of consecutive records with the same Event, Site and Date
(FORMAT.md). Unreadable records (:class:`~priffe_records.format.errors.BadRecord`)
and records of another game stay in the stream as findings, so nothing the
user gave is silently dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.rules.family import PartieBooks, family_for
from priffe_records.rules.findings import Finding, Severity, sort_key
from priffe_records.rules.priffe.options import PRESETS, Options
from priffe_records.rules.priffe.rubber import PartieResult


def _key(record: Record) -> tuple[str | None, str | None, str | None]:
    return (record.get("Event"), record.get("Site"), record.get("Date"))


def parties(records: Iterable[Record | BadRecord], *, options: Options = PRESETS["sv"],
            conventions: bool = False) -> Iterator[PartieResult]:
    """Analyse records in order and yield each partie when it ends.

    ``options`` apply to records without a Scoring tag; ``conventions``
    turns on the R9 warnings.
    """
    books: PartieBooks | None = None
    key: tuple[str | None, str | None, str | None] | None = None
    found: list[Finding] = []

    def flush() -> Iterator[PartieResult]:
        if books is not None:
            res = books.close()
            yield replace(res, findings=tuple(sorted([*found, *res.findings], key=sort_key)))
        elif found:
            yield PartieResult(None, None, None, findings=tuple(sorted(found, key=sort_key)))

    for i, item in enumerate(records, 1):
        if isinstance(item, BadRecord):
            found.extend(Finding("PPN", Severity.ERROR, e.message, e.location, i)
                         for e in item.errors)
            if books is not None:
                books.lost(item.location, i)
            continue
        family = family_for(item.get("Scoring"))
        o = family.analyse(item, options, conventions)
        o = replace(o, index=i, findings=tuple(f.at_record(i) for f in o.findings))
        if o.priffe and o.contract is None and o.auction is None:
            found.extend(o.findings)  # a deal diagram, not a deal of the partie
            continue
        if o.priffe and (books is None or _key(item) != key):
            if books is not None:
                yield from flush()
                found = []
            key = _key(item)
            books = family.books(*key)
        found.extend(o.findings)
        if o.priffe and books is not None:
            books.add(o)
    yield from flush()
