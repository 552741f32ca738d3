"""Rich renderings of findings and score sheets of every game, for the CLI (the engine never
imports rich): the one report module of ``validate``, ``score`` and ``add``. A score
sheet comes as its family drew it in plain cells; nothing here knows a game.

Each class wraps engine data and implements ``__rich_console__``, so a
caller prints it with ``Console().print(...)``.
"""

from __future__ import annotations

import linecache
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, JustifyMethod, RenderableType, RenderResult
from rich.segment import Segment, Segments
from rich.style import Style
from rich.table import Table
from rich.text import Text

from priffe_records.format.errors import PPNSyntaxError
from priffe_records.game.language import msg, msg_n
from priffe_records.rules.family import Sheet, SheetDeal
from priffe_records.rules.findings import Finding, Severity, sort_key
from priffe_records.rules.repeats import More, counted
from priffe_records.rules.validate import counts

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
    boards: Mapping[int, str | None]

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
                     else msg("record {record}", record=rec) if rec
                     else msg("the file as a whole"))  # a finding of no one record
            yield Text(f"  {label}", style="cyan")
            for f in items:
                line = Text("    ")
                line.append(f"{f.severity.word!s:<{width}}", style=_STYLE[f.severity])
                rules = f.rule if isinstance(f, More) else ", ".join(f.rules)
                line.append(f"{rules:<7} ")
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


PIPED_WIDTH = 10_000  # no screen to fit: each row of a sheet one full line


def sheet_console(stderr: bool = False, piped: int = PIPED_WIDTH) -> Console:
    """Where a score sheet is printed: the terminal's width, or, piped, full lines, so a
    file or another program gets each row and settlement whole (``score`` and ``add``)."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(highlight=False, stderr=stderr, width=None if stream.isatty() else piped)


@dataclass(frozen=True)
class SheetView:
    """A partie as a score sheet: one row per deal, the lines between (a rubber's end),
    the standings, drawn from the game-neutral :class:`~priffe_records.rules.family.Sheet`.

    The deals between two lines are a table, each line is written in words on a line of
    its own, so a settlement wraps over the whole width instead of down a narrow last
    column; every table has the same column widths, the widest cell of the partie's, so
    they line up. Only the last column folds when the screen is narrower than the sheet."""

    sheet: Sheet

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        columns = self.sheet.columns
        rows = [(r, list(r.cells) if isinstance(r, SheetDeal) else []) for r in self.sheet.rows]
        widths = [max([len(str(col.head)), *(len(cells[i]) for _, cells in rows if cells)])
                  for i, col in enumerate(columns[:-1])]
        # A space more between columns when the last keeps room enough for its words.
        gap = 2 if sum(widths) + 2 * len(columns) + 30 <= options.max_width else 1
        group: list[list[str]] = []
        first = True
        for row, cells in rows:
            if isinstance(row, SheetDeal):
                group.append(cells)
                continue
            yield from self._group(console, options, group, widths, gap, first)
            group, first = [], False
            yield _line(row.words, "bold", options.max_width)
        if group:
            yield from self._group(console, options, group, widths, gap, first)
        if self.sheet.standings:
            st = Table(title=str(msg("Standings")), header_style="bold")
            st.add_column(str(msg("Player")))
            st.add_column(str(self.sheet.points), justify="right")
            for name, pts in self.sheet.standings:
                st.add_row(name, f"{pts:+d}")
            yield st
        if self.sheet.after:
            yield Text(self.sheet.after)

    @property
    def _title(self) -> str:
        game = self.sheet.game
        return f"{self.sheet.title} · {game}" if game else self.sheet.title

    def _group(self, console: Console, options: ConsoleOptions, rows: list[list[str]],
               widths: list[int], gap: int, first: bool) -> RenderResult:
        """The deals between two lines as rich would draw :meth:`_table` (a rich Table
        costs a millisecond a row: the sheet of a big file took seconds), or through
        rich's table itself when the screen is too narrow for the last column, which it
        then folds."""
        columns = self.sheet.columns
        last = max([1, _width(str(columns[-1].head)), *(_width(r[-1]) for r in rows)])
        sizes = [*widths, last]  # rich gives a column one cell at least
        pads = [gap - 1] * (len(sizes) - 1) + [0]
        full = sum(sizes) + sum(pads) + len(sizes) - 1
        if full > options.max_width:
            table = self._table(widths, gap, first, options.max_width)
            for r in rows:
                table.add_row(*r)
            yield table
            return
        if first and self._title:
            title = console.render_str(self._title, style="table.title", highlight=False)
            yield from console.render(title, options.update(width=full, justify="center"))
        justify = [col.justify for col in columns]
        if first:
            bold = console.get_style("bold")
            for i, (col, size, pad) in enumerate(zip(columns, sizes, pads, strict=True)):
                yield Segment(" " if i else "")
                yield Segment(_row([str(col.head)], [size], [0], [col.justify]), bold)
                if pad:
                    yield Segment(" " * pad, bold)
            yield Segment("\n")
            yield Segment("─" * full + "\n")
        yield Segment("".join(_row(r, sizes, pads, justify) + "\n" for r in rows))

    def _table(self, widths: list[int], gap: int, first: bool, room: int) -> Table:
        """One group's table: the title and the column heads on the first only. The
        columns before the last keep their width when they fit in ``room``."""
        table = Table(title=self._title if first else None, show_header=first,
                      header_style="bold", box=box.SIMPLE_HEAD, show_edge=False,
                      pad_edge=False, padding=(0, gap - 1, 0, 0))
        if sum(widths) + gap * len(widths) >= room:
            widths = [0] * len(widths)  # not even the first columns fit: rich folds them all
        for col, width in zip(self.sheet.columns, [*widths, None], strict=True):
            table.add_column(str(col.head), justify=col.justify, width=width or None,
                             no_wrap=bool(width), overflow="fold")
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
