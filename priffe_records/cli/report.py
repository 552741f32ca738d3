"""Rich renderings of findings and score sheets of every game, for the CLI (the engine never
imports rich): the one report module of ``validate``, ``score`` and ``add``.

Each class wraps engine data and implements ``__rich_console__``, so a
caller prints it with ``Console().print(...)``.
"""

from __future__ import annotations

import linecache
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, JustifyMethod, RenderableType, RenderResult
from rich.segment import Segment, Segments
from rich.style import Style
from rich.table import Table
from rich.text import Text

from priffe_records.format.errors import BadRecord, PPNSyntaxError
from priffe_records.format.record import Record
from priffe_records.game.cards import Seat
from priffe_records.game.language import Message, msg, msg_n, msg_p, render
from priffe_records.game.words import bid_name, seat_letter
from priffe_records.rules.family import GameFamily, families
from priffe_records.rules.findings import Finding, Severity, sort_key
from priffe_records.rules.partie import parties
from priffe_records.rules.preference.sheet import PrefRow, PrefSheet
from priffe_records.rules.preference.table import PLAYERS
from priffe_records.rules.priffe.scoring import SidePoints
from priffe_records.rules.priffe.sheet import DealRow, PartieSheet, RubberRow
from priffe_records.rules.repeats import More, counted
from priffe_records.rules.validate import counts


def partie_sheets(records: Sequence[Record | BadRecord], options: object
                  ) -> list[tuple[GameFamily[Any], Any]]:
    """Every partie's score sheet in file order, with its family, from one run of the engine
    over every game, as ``validate`` runs it: each partie the driver closes goes to the
    family whose partie it is
    (:meth:`~priffe_records.rules.family.GameFamily.partie_sheet`)."""
    out = []
    every = families()
    for partie in parties(records, options=options):
        for family in every:
            sheet = family.partie_sheet(partie, records)
            if sheet is not None:
                out.append((family, sheet))
                break
    return out


_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow",
          Severity.UNVERIFIABLE: "dim"}


def summary(findings: Sequence[Finding] | Mapping[Severity, int], files: int,
            records: int) -> str:
    """``3 errors, 1 warning, 2 unverifiable in 2 files (40 records)``; from the findings or
    from their counts by severity (a streamed run keeps only those)."""
    c = findings if isinstance(findings, Mapping) else counts(findings)
    return str(msg("{errors}, {warnings}, {unverifiable} in {files} ({records})",
                   errors=msg_n("{n} error", "{n} errors", c[Severity.ERROR]),
                   warnings=msg_n("{n} warning", "{n} warnings", c[Severity.WARNING]),
                   unverifiable=msg_n("{n} unverifiable", "{n} unverifiable",
                                      c[Severity.UNVERIFIABLE]),
                   files=msg_n("{n} file", "{n} files", files),
                   records=msg_n("{n} record", "{n} records", records)))


@dataclass(frozen=True)
class FindingsReport:
    """One file's findings grouped by record, errors first within each record; a finding
    said more than three times in the file is counted after its third (rules/repeats.py)."""

    file: str
    findings: Sequence[Finding]
    boards: dict[int, str | None]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        c = counts(self.findings)
        head = Text(self.file, style="bold")
        errors = c[Severity.ERROR]
        state = msg_n("{n} error", "{n} errors", errors) if errors else msg("ok")
        head.append(f"  {state}", style="red" if errors else "green")
        yield head
        by_record: dict[int, list[Finding | More]] = {}
        for f in counted(sorted(self.findings, key=sort_key)):
            by_record.setdefault(f.record or 0, []).append(f)
        width = max(len(str(s.word)) for s in Severity) + 1
        for rec, items in by_record.items():
            board = self.boards.get(rec)
            label = (msg("record {record} (board {board})", record=rec, board=board) if board
                     else msg("record {record}", record=rec))
            yield Text(f"  {label}", style="cyan")
            for f in items:
                line = Text("    ")
                line.append(f"{f.severity.word!s:<{width}}", style=_STYLE[f.severity])
                line.append(f"{f.rule:<8}")
                if isinstance(f, More):
                    line.append(f.message, style="dim")
                    yield line
                    continue
                if f.location is not None:
                    line.append(f"{f.location.line}:{f.location.column}  ", style="dim")
                line.append(f.message)
                yield line
                if f.rule == "PPN" and f.location is not None:
                    yield from _source_line(f)


def _source_line(f: Finding) -> Iterator[Text]:
    """The offending line and a caret under the column, like ``priffe parse`` shows."""
    assert f.location is not None
    text = linecache.getline(f.location.file, f.location.line)
    if not text.strip():
        return
    shown, caret = PPNSyntaxError(f.message, f.location, text).snippet()
    yield Text("   │ " + shown, style="dim")
    yield Text("   │ " + caret, style="red")


# Column heads of the score sheet, as a scorer abbreviates them.
COLUMNS: tuple[tuple[Message | str, JustifyMethod], ...] = (
    (msg_p("sheet column", "Board"), "right"), (msg_p("sheet column", "Dlr"), "center"),
    (msg_p("sheet column", "Contract"), "left"), (msg_p("sheet column", "Decl"), "center"),
    (msg_p("sheet column", "Tricks"), "center"), (msg_p("sheet column", "Honours"), "left"),
    ("NS", "right"), ("EW", "right"), ("Σ NS", "right"), ("Σ EW", "right"),
    (msg_p("sheet column", "Games"), "center"), ("", "left"))


def _pts(p: SidePoints | None, side: str) -> str:
    if p is None:
        return "?"
    v = p.ns if side == "NS" else p.ew
    return str(v) if v else ""


PIPED_WIDTH = 10_000  # no screen to fit: each row of a sheet one full line


def sheet_console(stderr: bool = False) -> Console:
    """Where a score sheet is printed: the terminal's width, or, piped, full lines, so a
    file or another program gets each row and settlement whole (``score`` and ``add``)."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(highlight=False, stderr=stderr,
                   width=None if stream.isatty() else PIPED_WIDTH)


@dataclass(frozen=True)
class SheetView:
    """A partie as a score sheet: one row per deal, a line per rubber end, the standings.

    Each rubber is a table of its deals followed by its end in words on a line of its own,
    so the settlement wraps over the whole width instead of down a narrow notes column;
    every table has the same column widths, the widest cell of the partie's, so the
    rubbers line up. Only the notes fold when the screen is narrower than the sheet."""

    sheet: PartieSheet

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        rows: list[tuple[DealRow | RubberRow, list[str]]] = [
            (r, deal_cells(r) if isinstance(r, DealRow) else []) for r in self.sheet.rows]
        widths = [max([len(str(head)), *(len(cells[i]) for _, cells in rows if cells)])
                  for i, (head, _) in enumerate(COLUMNS[:-1])]
        # A space more between columns when the notes keep room enough for their words.
        gap = 2 if sum(widths) + 2 * len(COLUMNS) + 30 <= options.max_width else 1
        rubber: list[list[str]] = []
        first = True
        for row, cells in rows:
            if isinstance(row, DealRow):
                rubber.append(cells)
                continue
            yield from self._rubber(console, options, rubber, widths, gap, first)
            rubber, first = [], False
            yield _line(str(msg("{end}: {totals} · {outcome}",
                                end=msg("end of rubber {n}", n=row.rubber),
                                totals=_totals(row), outcome=_rubber_text(row))),
                        "bold", options.max_width)
        if rubber:
            yield from self._rubber(console, options, rubber, widths, gap, first)
        if self.sheet.standings:
            st = Table(title=str(msg("Standings")), header_style="bold")
            st.add_column(str(msg("Player")))
            st.add_column(str(msg("Points")), justify="right")
            for name, pts in self.sheet.standings:
                st.add_row(name, f"{pts:+d}")
            yield st
        if self.sheet.standings_note:
            yield Text(render(self.sheet.standings_note))

    def _rubber(self, console: Console, options: ConsoleOptions, rows: list[list[str]],
                widths: list[int], gap: int, first: bool) -> RenderResult:
        """One rubber's deals as rich would draw :meth:`_table` (a rich Table costs a
        millisecond a row: the sheet of a big file took seconds), or through rich's table
        itself when the screen is too narrow for the notes, which it then folds."""
        notes = max([1, *(_width(r[-1]) for r in rows)])  # rich gives a column one cell at least
        sizes = [*widths, notes]
        pads = [gap - 1] * (len(sizes) - 1) + [0]
        full = sum(sizes) + sum(pads) + len(sizes) - 1
        if full > options.max_width:
            table = self._table(widths, gap, first)
            for r in rows:
                table.add_row(*r)
            yield table
            return
        if first and self.sheet.title:
            title = console.render_str(self.sheet.title, style="table.title", highlight=False)
            yield from console.render(title, options.update(width=full, justify="center"))
        justify = [just for _, just in COLUMNS]
        if first:
            bold = console.get_style("bold")
            for i, ((name, just), size, pad) in enumerate(zip(COLUMNS, sizes, pads, strict=True)):
                yield Segment(" " if i else "")
                yield Segment(_row([str(name)], [size], [0], [just]), bold)
                if pad:
                    yield Segment(" " * pad, bold)
            yield Segment("\n")
            yield Segment("─" * full + "\n")
        yield Segment("".join(_row(r, sizes, pads, justify) + "\n" for r in rows))

    def _table(self, widths: list[int], gap: int, first: bool) -> Table:
        """One rubber's table: the title and the column heads on the first only."""
        table = Table(title=self.sheet.title if first else None, show_header=first,
                      header_style="bold", box=box.SIMPLE_HEAD, show_edge=False,
                      pad_edge=False, padding=(0, gap - 1, 0, 0))
        for (name, just), width in zip(COLUMNS, [*widths, None], strict=True):
            table.add_column(str(name), justify=just, width=width,
                             no_wrap=width is not None, overflow="fold")
        return table


def _row(cells: Sequence[str], sizes: Sequence[int], pads: Sequence[int],
         justify: Sequence[JustifyMethod]) -> str:
    """One row of a table drawn as rich draws a borderless one: each cell justified in
    its column, padded on the right, the columns one space apart."""
    out = []
    for text, size, pad, just in zip(cells, sizes, pads, justify, strict=True):
        room = size - _width(text)
        if just == "right":
            text = " " * room + text
        elif just == "center":
            text = " " * (room // 2) + text + " " * (room - room // 2)
        else:
            text += " " * room
        out.append(text + " " * pad)
    return " ".join(out)


def _width(text: str) -> int:
    """The cells ``text`` takes on a screen: its length, unless a wide character (from
    U+1100 on, as CJK) is in it; the common case without asking rich, which is slower."""
    return len(text) if not text or max(text) < "\u1100" else cell_len(text)


def _line(text: str, style: str, width: int) -> RenderableType:
    """A line of text in ``style``: as it is when it fits the width, else wrapped by rich."""
    if _width(text) > width or "\n" in text:
        return Text(text, style=style)
    return Segments([Segment(text, Style.parse(style)), Segment("\n")])


def deal_cells(r: DealRow) -> list[str]:
    """A deal's row of the sheet as text cells, one per column of :data:`COLUMNS`: the
    terminal and the printable page (cli/sheet_page.py) print the same cells."""
    tricks = f"{r.tricks.ns}–{r.tricks.ew}" if r.tricks else "?"
    # NS first, as the tricks: "20–0" reads back (Honours) and keeps the column narrow
    hon = "" if r.honours is None or r.honours == SidePoints() else \
        f"{r.honours.ns}–{r.honours.ew}"
    games = f"{r.games.ns}–{r.games.ew}" if r.games else "?"
    notes = [r.note] if r.note else []
    if r.game_made is not None:
        notes.append(str(msg("game {side} +{bonus}", side=r.game_made.value,
                             bonus=r.bonus[r.game_made])))
    if r.forfeit != SidePoints():
        lost = r.game_made.other if r.game_made else None
        if lost is not None:
            notes.append(str(msg("{side} forfeits {points}", side=lost.value,
                                 points=r.forfeit[lost])))
    return [r.board or str(r.record), str(seat_letter(r.dealer)) if r.dealer else "",
            r.contract.value if r.contract else "?",
            str(seat_letter(r.declarer)) if r.declarer else "",
            tricks, hon, _pts(r.score, "NS"), _pts(r.score, "EW"), _pts(r.totals, "NS"),
            _pts(r.totals, "EW"), games, ", ".join(notes)]


def _rubber_text(r: RubberRow) -> str:
    """Who won the rubber and each player's settlement (R23), or why there is none."""
    if not r.finished and r.unknown:
        return render(r.unknown)  # a deal could not be scored: the totals are unknown
    if not r.finished:
        return str(msg("not finished: no settlement"))
    if r.winner is None:
        return str(msg("tie: settles 0"))
    return str(msg("{side} win; {settlement}", side=r.winner.value,
                   settlement=", ".join(f"{name} {pts:+d}" for name, _, pts in r.settlement)))


def _totals(r: RubberRow) -> str:
    return f"Σ NS {r.totals.ns}, Σ EW {r.totals.ew}" if r.totals else "Σ ?"


def rubber_cells(r: RubberRow) -> list[str]:
    """A rubber's end as a row of the printable sheet, labelled in words (``R1`` would read
    as a rule ID)."""
    total_ns = str(r.totals.ns) if r.totals else "?"
    total_ew = str(r.totals.ew) if r.totals else "?"
    return ["", "", str(msg("end of rubber {n}", n=r.rubber)), "", "", "", "", "", total_ns,
            total_ew, "", _rubber_text(r)]


# ------------------------------------------------------------------ Préférence
# The Préférence partie sheet on the terminal: one row per deal, then the standings.

# Column heads are short words: the "pref sheet" context keeps them apart.
PREF_COLUMNS = (
    (msg_p("pref sheet", "Deal"), "right"), (msg_p("pref sheet", "Dealer"), "center"),
    (msg_p("pref sheet", "Decl."), "center"), (msg_p("pref sheet", "Bid"), "left"),
    (msg_p("pref sheet", "Contract"), "left"), (msg_p("pref sheet", "Out"), "left"),
    (msg_p("pref sheet", "Tricks"), "left"), (msg_p("pref sheet", "Ante"), "right"),
    (msg_p("pref sheet", "Payments"), "left"), (msg_p("pref sheet", "Pot"), "right"),
    (msg_p("pref sheet", "Balances"), "left"))


def _pref_seats(values: dict[Seat, int] | None, signed: bool = True) -> str:
    if values is None:
        return "?"
    return " ".join(f"{s.value} {values[s]:+d}" if signed else f"{s.value} {values[s]}"
                    for s in PLAYERS if s in values)


def pref_row_cells(r: PrefRow) -> list[str]:
    """A deal's row of the sheet as text cells, one per column of :data:`PREF_COLUMNS`: the
    terminal and the printable page (cli/sheet_page.py) print the same cells."""
    out = " ".join(s.value for s in r.dropouts)
    if r.gave_up:
        out += str(msg(" (gave up)"))
    return [r.board or str(r.record), r.dealer.value if r.dealer else "",
            r.declarer.value if r.declarer else "", bid_name(r.bid).render() if r.bid else "",
            bid_name(r.contract).render() if r.contract else "?", out,
            _pref_seats(r.tricks, signed=False) if r.tricks is not None else
            (str(msg("no play")) if r.gave_up or len(r.dropouts) == 2 else "?"),
            str(r.ante) if r.ante else "", _pref_seats(r.score),
            "?" if r.pot is None else str(r.pot), _pref_seats(r.balances)]


@dataclass(frozen=True, slots=True)
class PrefSheetView:
    sheet: PrefSheet

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = Table(title=self.sheet.title + " · Préférence", header_style="bold")
        for head, just in PREF_COLUMNS:
            table.add_column(str(head), justify=just)  # type: ignore[arg-type]
        for row in self.sheet.rows:
            table.add_row(*pref_row_cells(row))
        yield table
        if self.sheet.standings:
            st = Table(title=str(msg("Standings")), header_style="bold")
            st.add_column(str(msg("Player")))
            st.add_column(str(msg_p("pref sheet", "Balance")), justify="right")
            for name, pts in self.sheet.standings:
                st.add_row(name, f"{pts:+d}")
            yield st
        if self.sheet.pot is not None:
            yield str(msg("Pot at the end: {pot}", pot=self.sheet.pot))
