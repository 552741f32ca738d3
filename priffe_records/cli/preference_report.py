"""The Préférence partie sheet on the terminal: one row per deal, then the standings."""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table

from priffe_records.game.cards import Seat
from priffe_records.game.language import msg, msg_p
from priffe_records.game.words import bid_name
from priffe_records.rules.preference.sheet import PrefRow, PrefSheet
from priffe_records.rules.preference.table import PLAYERS

# Column heads are short words: the "pref sheet" context keeps them apart.
COLUMNS = ((msg_p("pref sheet", "Deal"), "right"), (msg_p("pref sheet", "Dealer"), "center"),
           (msg_p("pref sheet", "Decl."), "center"), (msg_p("pref sheet", "Bid"), "left"),
           (msg_p("pref sheet", "Contract"), "left"), (msg_p("pref sheet", "Out"), "left"),
           (msg_p("pref sheet", "Tricks"), "left"), (msg_p("pref sheet", "Ante"), "right"),
           (msg_p("pref sheet", "Payments"), "left"), (msg_p("pref sheet", "Pot"), "right"),
           (msg_p("pref sheet", "Balances"), "left"))


def _seats(values: dict[Seat, int] | None, signed: bool = True) -> str:
    if values is None:
        return "?"
    return " ".join(f"{s.value} {values[s]:+d}" if signed else f"{s.value} {values[s]}"
                    for s in PLAYERS if s in values)


def row_cells(r: PrefRow) -> list[str]:
    """A deal's row of the sheet as text cells, one per column of :data:`COLUMNS`: the
    terminal and the printable page (cli/sheet_page.py) print the same cells."""
    out = " ".join(s.value for s in r.dropouts)
    if r.gave_up:
        out += str(msg(" (gave up)"))
    return [r.board or str(r.record), r.dealer.value if r.dealer else "",
            r.declarer.value if r.declarer else "", bid_name(r.bid).render() if r.bid else "",
            bid_name(r.contract).render() if r.contract else "?", out,
            _seats(r.tricks, signed=False) if r.tricks is not None else
            (str(msg("no play")) if r.gave_up or len(r.dropouts) == 2 else "?"),
            str(r.ante) if r.ante else "", _seats(r.score),
            "?" if r.pot is None else str(r.pot), _seats(r.balances)]


@dataclass(frozen=True, slots=True)
class PrefSheetView:
    sheet: PrefSheet

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = Table(title=self.sheet.title + " · Préférence", header_style="bold")
        for head, just in COLUMNS:
            table.add_column(str(head), justify=just)  # type: ignore[arg-type]
        for row in self.sheet.rows:
            table.add_row(*row_cells(row))
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
