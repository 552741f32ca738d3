"""The Préférence partie sheet: one row per deal (who dealt, bid, played, paid) and standings.

Plain data from the same books the validator keeps, so the sheet and the
findings never disagree. Rendering lives in the CLI.

>>> from priffe_records import loads
>>> from pathlib import Path
>>> text = Path(__file__).parents[3].joinpath("tests/data/preference-graz.ppn").read_text()
>>> [sheet] = score_preference(loads(text))
>>> [(r.board, r.pot) for r in sheet.rows], sheet.standings[0]
([('1', 60), ('2', 50), ('3', 50)], ('Anna', -6))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.game.cards import Seat
from priffe_records.game.language import shown_date
from priffe_records.game.preference import Bid, format_seat_numbers
from priffe_records.rules.findings import Finding
from priffe_records.rules.partie import errors_by_record, lost_records, parties

from .books import PrefLine, PrefPartie
from .table import PLAYERS


@dataclass(frozen=True, slots=True)
class PrefRow:
    """One deal's line; ``None`` where the record and the books do not tell."""

    record: int
    board: str | None
    dealer: Seat | None
    declarer: Seat | None
    bid: Bid | None
    contract: Bid | None
    dropouts: tuple[Seat, ...]
    gave_up: bool
    tricks: dict[Seat, int] | None
    ante: int
    score: dict[Seat, int] | None
    pot: int | None
    balances: dict[Seat, int] | None  # by seat for this deal's seating
    errors: tuple[Finding, ...] = ()  # the record's errors: the row is marked with them
    unreadable: bool = False  # the record could not be read at all: only its place is known

    def values(self) -> dict[str, str]:
        """The Score, Pot and Balance tags this row fills in (``--fill``)."""
        out: dict[str, str] = {}
        if self.score is not None:
            out["Score"] = format_seat_numbers({s.value: v for s, v in self.score.items()},
                                               scores=True)
        if self.pot is not None:
            out["Pot"] = str(self.pot)
        if self.balances is not None:
            out["Balance"] = format_seat_numbers({s.value: v for s, v in self.balances.items()},
                                                 scores=True)
        return out


@dataclass(frozen=True, slots=True)
class PrefSheet:
    event: str | None
    site: str | None
    date: str | None
    rows: tuple[PrefRow, ...]
    standings: tuple[tuple[str, int], ...]
    pot: int | None
    findings: tuple[Finding, ...]

    @property
    def title(self) -> str:
        date = shown_date(self.date) if self.date else None  # the reader's way, not PBN's
        return " · ".join(x for x in (self.event, self.site, date) if x) or "Partie"

    @property
    def unreadable(self) -> tuple[PrefRow, ...]:
        """The rows of records that could not be read: the pot and balances after each are
        taken from the next claims (P14), not computed."""
        return tuple(r for r in self.rows if r.unreadable)


def _row(line: PrefLine) -> PrefRow:
    o = line.outcome
    balances = None
    if line.balances is not None:
        names = {s: o.player(s) or s.value for s in PLAYERS}
        if all(n in line.balances for n in names.values()):
            balances = {s: line.balances[names[s]] for s in PLAYERS}
    return PrefRow(o.index, o.record.get("Board"), o.dealer, o.declarer,
                   o.auction.final if o.auction else None, o.contract, o.dropouts, o.gave_up,
                   o.tricks, line.ante, line.score, line.pot, balances)


def sheet_of(p: PrefPartie, items: Sequence[Record | BadRecord] = ()) -> PrefSheet:
    """The partie's rows in input order, each with its errors; an unreadable record of
    the partie (among ``items``, the input) is a row too, in its place."""
    errors = errors_by_record(p.findings)
    rows = [_row(line) for line in p.lines]
    rows = [replace(r, errors=tuple(errors.get(r.record, ()))) for r in rows]
    for lost in lost_records(p.findings, items):
        rows.append(PrefRow(lost.record, lost.board, lost.dealer, None, None, None, (), False,
                            None, 0, None, None, None, errors=lost.errors, unreadable=True))
    rows.sort(key=lambda r: r.record)
    return PrefSheet(p.event, p.site, p.date, tuple(rows), p.standings, p.pot, p.findings)


def score_preference(records: Iterable[Record | BadRecord]) -> list[PrefSheet]:
    """One sheet per Préférence partie of ``records`` (Priffe parties are left out)."""
    items = list(records)
    return [sheet_of(p, items) for p in parties(items) if isinstance(p, PrefPartie)]


def fill_preference(records: list[Record], sheets: list[PrefSheet]) -> list[Record]:
    """Records with the computed Score, Pot and Balance set (``score --fill``);
    what the books do not know is left as it is."""
    values = {row.record: row.values() for sheet in sheets for row in sheet.rows}
    out: list[Record] = []
    for i, rec in enumerate(records, 1):
        for name, value in values.get(i, {}).items():
            if rec.get(name) != value:
                rec = rec.replace_tag(name, value)
        out.append(rec)
    return out
