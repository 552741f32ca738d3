"""The driver: records in, parties out, each with its deals, rubbers, standings and findings.

A partie is a run of consecutive records with the same Event, Site and Date
(FORMAT.md). Unreadable records (:class:`~priffe_records.format.errors.BadRecord`)
and records of another game stay in the stream as findings, so nothing the
user gave is silently dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from priffe_records.format.errors import BadRecord, PPNSyntaxError
from priffe_records.format.record import Record
from priffe_records.rules.family import PartieBooks, PartieOutcome, family_for
from priffe_records.rules.findings import Finding, Severity, sort_key
from priffe_records.rules.priffe.options import PRESETS, Options
from priffe_records.rules.priffe.rubber import PartieResult


def _key(record: Record) -> tuple[str | None, str | None, str | None]:
    return (record.get("Event"), record.get("Site"), record.get("Date"))


def _read_findings(errors: tuple[PPNSyntaxError, ...], index: int) -> list[Finding]:
    """What the reader found in a record's text, as ``PPN`` findings of the same severity."""
    return [Finding("PPN", Severity.WARNING if e.is_warning else Severity.ERROR, e.text,
                    e.location, index) for e in errors]


def parties(records: Iterable[Record | BadRecord], *, options: Options = PRESETS["sv"],
            conventions: bool = False) -> Iterator[PartieOutcome]:
    """Analyse records in order and yield each partie when it ends.

    Each record is checked by the family its Scoring tag selects; a change
    of family starts a new partie. ``options`` apply to records without a
    Scoring tag; ``conventions`` turns on the R9 warnings. Priffe parties
    are :class:`~priffe_records.rules.priffe.rubber.PartieResult`, Préférence
    ones :class:`~priffe_records.rules.preference.books.PrefPartie`.
    """
    books: PartieBooks[Any] | None = None
    key: tuple[str, str | None, str | None, str | None] | None = None
    found: list[Finding] = []

    def flush() -> Iterator[PartieOutcome]:
        if books is not None:
            res = books.close()
            yield res.with_findings(tuple(sorted([*found, *res.findings], key=sort_key)))
        elif found:
            yield PartieResult(None, None, None, findings=tuple(sorted(found, key=sort_key)))

    for i, item in enumerate(records, 1):
        if isinstance(item, BadRecord):
            found.extend(_read_findings(item.errors, i))
            if books is not None:
                books.lost(item.location, i)
            continue
        family = family_for(item.get("Scoring"))
        o = family.analyse(item, options, conventions).placed(i)
        if o.in_family and o.is_diagram:
            found.extend(_read_findings(item.errors, i))
            found.extend(o.findings)  # a deal diagram, not a deal of the partie
            continue
        if o.in_family and (books is None or (family.name, *_key(item)) != key):
            if books is not None:
                yield from flush()
                found = []
            key = (family.name, *_key(item))
            books = family.books(*_key(item))
        found.extend(_read_findings(item.errors, i))
        found.extend(o.findings)
        if o.in_family and books is not None:
            books.add(o)
    yield from flush()
