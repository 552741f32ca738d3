"""The Préférence partie sheet: one row per deal (who dealt, bid, played, paid) and standings.

Plain data from the same books the validator keeps, so the sheet and the
findings never disagree. :func:`drawn` gives it as plain cells, which the CLI draws.

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
from priffe_records.game.language import msg, msg_p
from priffe_records.game.words import seat_letter
from priffe_records.rules.family import Sheet, SheetColumn, SheetDeal, partie_title
from priffe_records.rules.findings import Finding
from priffe_records.rules.partie import errors_by_record, lost_records, parties
from priffe_records.rules.preference.bids import Bid, format_seat_numbers
from priffe_records.rules.preference.words import BID_NAMES

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
        return partie_title(self.event, self.site, self.date)

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


# ------------------------------------------------------------------ the sheet drawn
# The sheet as plain cells (rules/family.py's Sheet): the terminal, the printable page
# and the Datasette page draw these, knowing no game.

# Column heads are short words: the "pref sheet" context keeps them apart.
COLUMNS = (
    SheetColumn(msg_p("pref sheet", "Deal"), "right"),
    SheetColumn(msg_p("pref sheet", "Dealer"), "center"),
    SheetColumn(msg_p("pref sheet", "Decl."), "center"),
    SheetColumn(msg_p("pref sheet", "Bid")), SheetColumn(msg_p("pref sheet", "Contract")),
    SheetColumn(msg_p("pref sheet", "Out")), SheetColumn(msg_p("pref sheet", "Tricks")),
    SheetColumn(msg_p("pref sheet", "Ante"), "right"),
    SheetColumn(msg_p("pref sheet", "Payments")),
    SheetColumn(msg_p("pref sheet", "Pot"), "right"),
    SheetColumn(msg_p("pref sheet", "Balances")))


def drawn(sheet: PrefSheet) -> Sheet:
    """The partie's sheet as plain cells: a row per deal with payments, pot and
    balances, the standings in balance and the pot at the end under them."""
    rows = tuple(SheetDeal(r.record, tuple(row_cells(r))) for r in sheet.rows)
    first = next((r.record for r in sheet.rows if not r.unreadable),
                 sheet.rows[0].record if sheet.rows else 0)
    pot = str(msg("Pot at the end: {pot}", pot=sheet.pot)) if sheet.pot is not None else ""
    return Sheet(sheet.title, sheet.event, sheet.site, sheet.date, COLUMNS, rows, first,
                 sheet.standings, msg_p("pref sheet", "Balance"), pot, game="Préférence",
                 findings=sheet.findings, own=sheet)


def _seats(values: dict[Seat, int] | None, signed: bool = True) -> str:
    if values is None:
        return "?"
    return " ".join(f"{seat_letter(s)} {values[s]:+d}" if signed
                    else f"{seat_letter(s)} {values[s]}" for s in PLAYERS if s in values)


def row_cells(r: PrefRow) -> list[str]:
    """A deal's row of the sheet as text cells, one per column of :data:`COLUMNS`."""
    out = " ".join(str(seat_letter(s)) for s in r.dropouts)
    if r.gave_up:
        out += str(msg(" (gave up)"))
    return [r.board or str(r.record), str(seat_letter(r.dealer)) if r.dealer else "",
            str(seat_letter(r.declarer)) if r.declarer else "",
            BID_NAMES[r.bid].render() if r.bid else "",
            BID_NAMES[r.contract].render() if r.contract else "?", out,
            _seats(r.tricks, signed=False) if r.tricks is not None else
            (str(msg("no play")) if r.gave_up or len(r.dropouts) == 2 else "?"),
            str(r.ante) if r.ante else "", _seats(r.score),
            "?" if r.pot is None else str(r.pot), _seats(r.balances)]
