"""The score sheet of a partie: what a scorer writes per deal, per rubber end, at the end.

Plain frozen data, built from the same analysis the validator runs, so the
sheet and the findings never disagree. :func:`drawn` gives it as plain cells, which the CLI draws
(:mod:`priffe_records.cli.report`, :mod:`priffe_records.cli.sheet_page`).

>>> from priffe_records import loads
>>> text = '''[Event "Klubbkväll"]
... [Contract "Hjärter"]
... [Declarer "E"]
... [Result "NS 10 EW 3"]
... [Honours "NS 0 EW 0"]
... '''
>>> sheet = score_partie(loads(text))
>>> row = sheet.rows[0]
>>> row.contract.value, str(row.score), str(row.totals), str(row.games)
('Hjärter', 'NS 80 EW 0', 'NS 90 EW 0', 'NS 1 EW 0')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from priffe_records.format.errors import BadRecord, PriffeError
from priffe_records.format.record import Location, Record
from priffe_records.game.calls import Contract
from priffe_records.game.cards import Seat, Side
from priffe_records.game.language import Message, listing, msg, msg_n, msg_p, render
from priffe_records.game.words import seat_letter, side_name
from priffe_records.rules.entry import KEPT_MARK
from priffe_records.rules.family import (
    Sheet,
    SheetCell,
    SheetColumn,
    SheetDeal,
    SheetLine,
    partie_title,
)
from priffe_records.rules.findings import Finding
from priffe_records.rules.partie import errors_by_record, lost_records, parties
from priffe_records.rules.priffe.options import PRESETS, Options
from priffe_records.rules.priffe.rubber import (
    DealLine,
    PartieResult,
    format_settlement,
    settle,
)
from priffe_records.rules.priffe.scoring import SidePoints


@dataclass(frozen=True, slots=True)
class DealRow:
    """One deal's line; ``None`` where the record does not tell."""

    record: int
    board: str | None
    rubber: int
    dealer: Seat | None
    contract: Contract | None
    declarer: Seat | None
    tricks: SidePoints | None
    honours: SidePoints | None
    score: SidePoints | None
    game_points: SidePoints | None
    totals: SidePoints | None
    games: SidePoints | None
    game_made: Side | None
    bonus: SidePoints
    forfeit: SidePoints
    note_text: Message | str = ""  # slam, claim: words for the sheet's note column
    ends_rubber: bool | None = None  # R22; None when an earlier deal could not be scored
    honours_known: bool = False  # from the hands or the Honours tag, not inferred from Score
    errors: tuple[Finding, ...] = ()  # the record's errors: the row is marked with them
    unreadable: bool = False  # the record could not be read at all: only its place is known
    ruled: SidePoints | None = None  # the rules' points when ``score`` is kept as written

    @property
    def note(self) -> str:
        """The note in the active language."""
        return render(self.note_text)


@dataclass(frozen=True, slots=True)
class RubberRow:
    """A rubber's end: its totals, winner and individual settlement ``(player, seat, points)``."""

    rubber: int
    totals: SidePoints | None
    finished: bool
    winner: Side | None
    settlement: tuple[tuple[str, Seat, int], ...]
    unknown: Message | str = ""  # why the totals are unknown: a deal that could not be scored


@dataclass(frozen=True, slots=True)
class Unscored:
    """A deal of the partie that could not be scored, and why (its first error, located)."""

    record: int
    board: str | None
    location: Location | None
    reason: Message | str

    @property
    def deal(self) -> Message:
        return msg("board {board}", board=self.board) if self.board else \
            msg("record {record}", record=self.record)

    @property
    def text(self) -> Message:
        """``board 3 (file:line) could not be scored: …``, for the deal's note."""
        return msg("{deal} ({where}) could not be scored: {reason}", deal=self.deal,
                   where=str(self.location) if self.location else "?", reason=self.reason)

    @property
    def since(self) -> Message:
        """Why a rubber's totals are unknown from this deal on, for its end's note."""
        return msg("totals unknown from {deal} ({where}) on: {reason}", deal=self.deal,
                   where=str(self.location) if self.location else "?", reason=self.reason)


@dataclass(frozen=True, slots=True)
class PartieSheet:
    event: str | None
    site: str | None
    date: str | None
    rows: tuple[DealRow | RubberRow, ...]
    standings: tuple[tuple[str, int], ...]
    findings: tuple[Finding, ...]
    unscored: tuple[Unscored, ...] = ()  # deals that are rows but count in no total

    @property
    def title(self) -> str:
        return partie_title(self.event, self.site, self.date)



def _deal_row(line: DealLine) -> DealRow:
    o = line.outcome
    ds = o.score
    notes: list[Message] = []
    if ds is not None and ds.slam_name:
        notes.append(ds.slam_name)
    if o.play is not None and o.play.claimed:
        notes.append(msg("claim"))
    step = line.step
    return DealRow(
        o.index, o.record.get("Board"), line.rubber, o.dealer, o.contract, o.declarer, o.tricks,
        o.honours, ds.total if ds else None, ds.game if ds else None, line.totals, line.games,
        step.game_made if step else None, step.bonus if step else SidePoints(),
        step.forfeit if step else SidePoints(), listing(notes, None) if notes else "",
        ends_rubber=step.ended if step is not None and line.totals is not None else None,
        honours_known=o.honours_known,
        ruled=ds.ruled if ds is not None and ds.written is not None else None)


def sheet_of(result: PartieResult, items: Sequence[Record | BadRecord] = ()) -> PartieSheet:
    """Lay a partie out in sheet order: deals, each rubber's end after its last deal.

    ``items`` is the input the partie came from: each of its unreadable records
    that belongs to this partie is a row too, in its place, so a deal the reader
    could not read is still on the sheet, marked with its error.
    """
    errors = errors_by_record(result.findings)
    rows: list[DealRow | RubberRow] = []
    for i, line in enumerate(result.lines):
        row = _deal_row(line)
        rows.append(replace(row, errors=tuple(errors.get(row.record, ()))))
        nxt = result.lines[i + 1].seq if i + 1 < len(result.lines) else None
        if nxt != line.seq:
            end = result.rubbers[line.seq]
            rows.append(RubberRow(end.rubber, end.totals, end.finished, end.winner,
                                  tuple((name, seat, pts) for seat, name, pts in end.settlement)))
    for lost in lost_records(result.findings, items):
        _insert(rows, DealRow(lost.record, lost.board, 0, lost.dealer, None, None, None, None,
                              None, None, None, None, None, SidePoints(), SidePoints(),
                              errors=lost.errors, unreadable=True))
    rows, unscored = _mark_unscored(rows)
    return PartieSheet(result.event, result.site, result.date, tuple(rows), result.standings,
                       result.findings, unscored)


def _insert(rows: list[DealRow | RubberRow], row: DealRow) -> None:
    """Put ``row`` before the first deal that comes after it in the input (else before the
    last rubber's end), taking that rubber's number."""
    at = next((k for k, r in enumerate(rows) if isinstance(r, DealRow) and r.record > row.record),
              len(rows) - 1 if rows and isinstance(rows[-1], RubberRow) else len(rows))
    near = rows[at] if at < len(rows) else (rows[at - 1] if at else None)
    rows.insert(at, replace(row, rubber=near.rubber) if near is not None else row)


def _mark_unscored(rows: list[DealRow | RubberRow]
                   ) -> tuple[list[DealRow | RubberRow], tuple[Unscored, ...]]:
    """Each deal that could not be scored, noted on its row; the rubber's end says from
    which deal on its totals are unknown (also after one scored with an unread section)."""
    out: list[DealRow | RubberRow] = []
    unscored: list[Unscored] = []
    since: Unscored | None = None  # the first bad deal of this rubber the totals stop at
    for row in rows:
        if isinstance(row, RubberRow):
            out.append(replace(row, unknown=since.since) if row.totals is None and since
                       else row)
            since = None
            continue
        bad = _bad(row)
        if bad is not None and row.score is None:
            unscored.append(bad)
            notes = [n for n in (row.note_text, bad.text) if n]
            row = replace(row, note_text=listing(notes, None))
        if bad is not None and row.totals is None:
            since = since or bad
        out.append(row)
    return out, tuple(unscored)


def _bad(row: DealRow) -> Unscored | None:
    """The row's first error as an :class:`Unscored`, or ``None`` for a row without one."""
    if not (row.errors or row.unreadable):
        return None
    first = row.errors[0] if row.errors else None
    return Unscored(row.record, row.board, first.location if first else None,
                    first.text if first else msg("the record could not be read"))


def score_parties(records: Iterable[Record | BadRecord], *, options: Options = PRESETS["sv"]
                  ) -> list[PartieSheet]:
    """One sheet per partie (consecutive records with the same Event, Site and Date).

    A deal that could not be scored (an unreadable record or contract) is a row
    marked with its error, and the sheet's ``unscored`` names it.
    """
    items = list(records)
    return [sheet_of(p, items) for p in parties(items, options=options)
            if isinstance(p, PartieResult) and (p.lines or p.findings)]


def score_partie(records: Iterable[Record | BadRecord], *, options: Options = PRESETS["sv"]
                 ) -> PartieSheet:
    """The sheet of a single partie; records of several parties are a :class:`PriffeError`."""
    sheets = score_parties(records, options=options)
    if len(sheets) != 1:
        raise PriffeError(msg("the records hold {count} parties, not one: use score_parties",
                              count=len(sheets)))
    return sheets[0]


def fill_records(records: list[Record], sheets: list[PartieSheet]) -> list[Record]:
    """Records with the computed Score, Honours, ScoreRubber and Settlement tags set.

    Only what the engine knows is written: Honours when the hands or the
    record tell them (an inferred ``NS 0 EW 0`` would be a claim the sheet
    never made), a Settlement only on the deal that ends its rubber (R22) —
    one on another deal goes. Values the engine cannot compute stay as they are.
    """
    by_index: dict[int, dict[str, str | None]] = {}
    for sheet in sheets:
        for row in sheet.rows:
            if not isinstance(row, DealRow):
                continue
            values: dict[str, str | None] = {}
            if row.score is not None:
                values["Score"] = str(row.score)
            if row.honours is not None and row.honours_known:
                values["Honours"] = str(row.honours)
            if row.totals is not None:
                values["ScoreRubber"] = str(row.totals)
            if row.ends_rubber and row.totals is not None:
                values["Settlement"] = format_settlement(settle(row.totals))
            elif row.ends_rubber is False:
                values["Settlement"] = None
            by_index[row.record] = values
    out: list[Record] = []
    for i, rec in enumerate(records, 1):
        for name, value in by_index.get(i, {}).items():
            if value is None:
                if rec.get(name) is not None:
                    rec = rec.without_tag(name)
            elif rec.get(name) != value:
                rec = rec.replace_tag(name, value)
        out.append(rec)
    return out


# ------------------------------------------------------------------ the sheet drawn
# The sheet as plain cells (rules/family.py's Sheet): the terminal, the printable page
# and the Datasette page draw these, knowing no game.

# A side's running total, Σ NS and Σ ÖV in Swedish (the field is the side's name).
_SUM = {s: Message("Σ {side}", {"side": side_name(s)}) for s in Side}
# Column heads of the score sheet, as a scorer abbreviates them.
COLUMNS = (
    SheetColumn(msg_p("sheet column", "Board"), "right"),
    SheetColumn(msg_p("sheet column", "Dlr"), "center"),
    SheetColumn(msg_p("sheet column", "Contract")),
    SheetColumn(msg_p("sheet column", "Decl"), "center"),
    SheetColumn(msg_p("sheet column", "Tricks"), "center"),
    SheetColumn(msg_p("sheet column", "Honours")),
    SheetColumn(side_name(Side.NS), "right"), SheetColumn(side_name(Side.EW), "right"),
    SheetColumn(_SUM[Side.NS], "right"), SheetColumn(_SUM[Side.EW], "right"),
    SheetColumn(msg_p("sheet column", "Games"), "center"),
    SheetColumn(""))


def drawn(sheet: PartieSheet) -> Sheet:
    """The partie's sheet as plain cells: a row per deal, a line per rubber end, the
    standings in points and, under them, how many deals could not be scored."""
    rows = tuple(SheetDeal(r.record, tuple(deal_cells(r))) if isinstance(r, DealRow)
                 else _end_line(r) for r in sheet.rows)
    deals = [r for r in sheet.rows if isinstance(r, DealRow)]
    first = next((r.record for r in deals if not r.unreadable),
                 deals[0].record if deals else 0)
    n = len(sheet.unscored)
    note = msg_n("{n} deal could not be scored: the standings count only the rubbers "
                 "whose totals are known", "{n} deals could not be scored: the standings "
                 "count only the rubbers whose totals are known", n) if n else ""
    return Sheet(sheet.title, sheet.event, sheet.site, sheet.date, COLUMNS, rows, first,
                 sheet.standings, msg("Points"), render(note), notes=True,
                 findings=sheet.findings, own=sheet)


def _pts(p: SidePoints | None, side: str) -> str:
    if p is None:
        return "?"
    v = p.ns if side == "NS" else p.ew
    return str(v) if v else ""


def _points(r: DealRow) -> tuple[str, str]:
    """The deal's NS and EW points; kept as written, each with the mark (a 0 too)."""
    if r.ruled is None or r.score is None:
        return _pts(r.score, "NS"), _pts(r.score, "EW")
    return f"{r.score.ns}{KEPT_MARK}", f"{r.score.ew}{KEPT_MARK}"


def deal_cells(r: DealRow) -> list[str]:
    """A deal's row of the sheet as text cells, one per column of :data:`COLUMNS`."""
    tricks = f"{r.tricks.ns}–{r.tricks.ew}" if r.tricks else "?"
    # NS first, as the tricks: "20–0" reads back (Honours) and keeps the column narrow
    hon = "" if r.honours is None or r.honours == SidePoints() else \
        f"{r.honours.ns}–{r.honours.ew}"
    games = f"{r.games.ns}–{r.games.ew}" if r.games else "?"
    notes = [r.note] if r.note else []
    if r.ruled is not None:
        notes.append(str(msg("{mark} as written on the paper; the rules give {points}",
                             mark=KEPT_MARK, points=r.ruled)))
    if r.game_made is not None:
        notes.append(str(msg("game {side} +{bonus}", side=side_name(r.game_made),
                             bonus=r.bonus[r.game_made])))
    if r.forfeit != SidePoints():
        lost = r.game_made.other if r.game_made else None
        if lost is not None:
            notes.append(str(msg("{side} forfeits {points}", side=side_name(lost),
                                 points=r.forfeit[lost])))
    return [r.board or str(r.record), str(seat_letter(r.dealer)) if r.dealer else "",
            r.contract.value if r.contract else "?",
            str(seat_letter(r.declarer)) if r.declarer else "",
            tricks, hon, *_points(r), _pts(r.totals, "NS"),
            _pts(r.totals, "EW"), games, ", ".join(notes)]


def _rubber_text(r: RubberRow) -> str:
    """Who won the rubber and each player's settlement (R23), or why there is none."""
    if not r.finished and r.unknown:
        return render(r.unknown)  # a deal could not be scored: the totals are unknown
    if not r.finished:
        return str(msg("not finished: no settlement"))
    if r.winner is None:
        return str(msg("tie: settles 0"))
    return str(msg("{side} win; {settlement}", side=side_name(r.winner),
                   settlement=", ".join(f"{name} {pts:+d}" for name, _, pts in r.settlement)))


def _end_line(r: RubberRow) -> SheetLine:
    """A rubber's end: on the terminal a line in words; on the page its number's label
    over the deal columns, the totals under theirs, the settlement over the last two
    (labelled in words: ``R1`` would read as a rule ID)."""
    end = (msg("end of rubber {n}", n=r.rubber) if r.finished  # "end" of an open one misleads
           else msg("rubber {n} so far", n=r.rubber))
    totals = Message("{ns_sum} {ns}, {ew_sum} {ew}", {
        "ns_sum": _SUM[Side.NS], "ns": r.totals.ns, "ew_sum": _SUM[Side.EW], "ew": r.totals.ew,
    }) if r.totals else "Σ ?"
    outcome = _rubber_text(r)
    words = str(msg("{end}: {totals} · {outcome}", end=end, totals=totals, outcome=outcome))
    ns, ew = (str(r.totals.ns), str(r.totals.ew)) if r.totals else ("?", "?")
    return SheetLine(words, (SheetCell("", justify="right"), SheetCell(str(end), 7),
                             SheetCell(ns, justify="right"), SheetCell(ew, justify="right"),
                             SheetCell(outcome, 2, wrap=True)))
