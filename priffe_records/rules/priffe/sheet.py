"""The score sheet of a partie: what a scorer writes per deal, per rubber end, at the end.

Plain frozen data, built from the same analysis the validator runs, so the
sheet and the findings never disagree. Rendering lives elsewhere
(:mod:`priffe_records.cli.report`).

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

from collections.abc import Iterable
from dataclasses import dataclass

from priffe_records.format.errors import BadRecord, PriffeError
from priffe_records.format.record import Record
from priffe_records.game.calls import Contract
from priffe_records.game.cards import Seat, Side
from priffe_records.game.language import Message, listing, msg, render
from priffe_records.rules.findings import Finding
from priffe_records.rules.partie import parties
from priffe_records.rules.priffe.options import PRESETS, Options
from priffe_records.rules.priffe.rubber import (
    DealLine,
    PartieResult,
    RubberEnd,
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


@dataclass(frozen=True, slots=True)
class PartieSheet:
    event: str | None
    site: str | None
    date: str | None
    rows: tuple[DealRow | RubberRow, ...]
    standings: tuple[tuple[str, int], ...]
    findings: tuple[Finding, ...]

    @property
    def title(self) -> str:
        return " · ".join(x for x in (self.event, self.site, self.date) if x) or "Partie"


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
        honours_known=o.honours_known)


def _rubber_row(end: RubberEnd) -> RubberRow:
    return RubberRow(end.rubber, end.totals, end.finished, end.winner,
                     tuple((name, seat, pts) for seat, name, pts in end.settlement))


def sheet_of(result: PartieResult) -> PartieSheet:
    """Lay a partie out in sheet order: deals, each rubber's end after its last deal."""
    rows: list[DealRow | RubberRow] = []
    for i, line in enumerate(result.lines):
        rows.append(_deal_row(line))
        nxt = result.lines[i + 1].seq if i + 1 < len(result.lines) else None
        if nxt != line.seq:
            rows.append(_rubber_row(result.rubbers[line.seq]))
    return PartieSheet(result.event, result.site, result.date, tuple(rows), result.standings,
                       result.findings)


def score_parties(records: Iterable[Record | BadRecord], *, options: Options = PRESETS["sv"]
                  ) -> list[PartieSheet]:
    """One sheet per partie (consecutive records with the same Event, Site and Date)."""
    return [sheet_of(p) for p in parties(records, options=options)
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
