"""``priffe score --html`` and ``--csv``: the score sheet to print, and as spreadsheet rows.

The printable page shows the cells of the terminal sheets (:mod:`priffe_records.cli.report`
builds them for both games; the page reuses them, so the two never differ): one A4 page a
partie with its deals, rubber ends, standings and each rubber's settlement (Préférence: the
payments, pot and balances),
the club's name and the date. It is black on white with rules, no colour
carries meaning, and it is self-contained (no script, font or picture
fetched), so it prints the same anywhere. The CSV is what ``priffe
sheet-import`` reads back (:func:`priffe_records.rules.spreadsheet.sheet_table`).
"""

from __future__ import annotations

import csv
import html
import io
import sys
from collections.abc import Sequence
from typing import Any

from priffe_records.cli.report import (
    COLUMNS,
    PREF_COLUMNS,
    PrefSheetView,
    SheetView,
    deal_cells,
    partie_sheets,
    rubber_cells,
)
from priffe_records.cli.report import pref_row_cells as pref_cells
from priffe_records.format.atomic import write_text_atomically
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import PLAYER_TAGS, Record
from priffe_records.game.cards import SEATS
from priffe_records.game.language import Message, language, msg, msg_p, render, shown_date
from priffe_records.game.words import seat_name
from priffe_records.rules.family import GameFamily, families
from priffe_records.rules.preference.sheet import PrefSheet
from priffe_records.rules.priffe.sheet import DealRow, PartieSheet, RubberRow
from priffe_records.rules.spreadsheet import sheet_first, sheet_table

STYLE = """
@page { size: A4; margin: 10mm 10mm 12mm 10mm; }
* { box-sizing: border-box; }
body { font: 8pt/1.15 "DejaVu Sans", Arial, sans-serif; color: #000; background: #fff;
       margin: 0; }
.partie { break-after: page; page-break-after: always; max-width: 190mm; margin: 0 auto; }
.partie:last-child { break-after: auto; page-break-after: auto; }
h1 { font-size: 13pt; margin: 0 0 1mm; }
.when { margin: 0 0 1mm; font-size: 10pt; }
.players { margin: 0 0 3mm; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 0.4pt solid #000; padding: 0.2mm 1mm; vertical-align: top;
         white-space: nowrap; }
td.note { white-space: normal; width: 100%; }
th { font-weight: bold; border-bottom: 1.2pt solid #000; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.c { text-align: center; }
tr.rubber td { font-weight: bold; border-top: 1.2pt solid #000; border-bottom: 1.2pt solid #000; }
tr { break-inside: avoid; }
.after { display: flex; gap: 6mm; margin-top: 3mm; break-inside: avoid; }
.after table { width: auto; }
.after h2 { font-size: 10pt; margin: 0 0 1mm; }
@media screen { body { margin: 8mm; } .partie { margin-bottom: 12mm; } }
"""
_ALIGN = {"right": "n", "center": "c"}
Columns = Sequence[tuple[Message | str, str]]


def _cells(cells: Sequence[str], classes: Sequence[str]) -> str:
    return "".join(f'<td class="{c}">{html.escape(text)}</td>' if c else
                   f"<td>{html.escape(text)}</td>" for text, c in zip(cells, classes,
                                                                        strict=True))


def _players(first: Record) -> str:
    named = [f"{seat_name(s)}: {first.get(PLAYER_TAGS[s])}" for s in SEATS
             if first.get(PLAYER_TAGS[s])]
    return html.escape(" · ".join(named))


def _standings(standings: Sequence[tuple[str, int]], points: Message, after: str = "") -> str:
    """The standings table (and a line after it, the Préférence pot)."""
    if not standings:
        return ""
    rows = "".join(f'<tr><td>{html.escape(name)}</td><td class="n">{pts:+d}</td></tr>'
                   for name, pts in standings)
    tail = f"<p>{html.escape(after)}</p>" if after else ""
    return (f'<div><h2>{html.escape(str(msg("Standings")))}</h2><table><tr>'
            f'<th>{html.escape(str(msg("Player")))}</th><th>{html.escape(str(points))}'
            f"</th></tr>{rows}</table>{tail}</div>")


def _section(sheet: PartieSheet | PrefSheet, first: Record, columns: Columns, body: str,
             after: str) -> str:
    """One partie's page: club, date, players, the table of deals, what comes after."""
    head = "".join(f"<th>{html.escape(str(name))}</th>" for name, _ in columns)
    club = " · ".join(x for x in (sheet.event, sheet.site) if x) or str(msg("Partie"))
    return (f'<section class="partie"><h1>{html.escape(club)}</h1>'
            f'<p class="when">{html.escape(shown_date(sheet.date or ""))}</p>'
            f'<p class="players">{_players(first)}</p>'
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            f'<div class="after">{after}</div></section>')


def _classes(columns: Columns, notes: bool) -> list[str]:
    """Each column's alignment; with ``notes`` the last column takes the rest and wraps."""
    classes = [_ALIGN.get(just, "") for _, just in columns]
    if notes:
        classes[-1] = "note"
    return classes


def _rubber_row(row: RubberRow) -> str:
    """A rubber's end across the deal columns: its number, the totals, who won and the settlement.

    The terminal's cells, laid out wider: the label over the deal columns, the
    settlement over the last two.
    """
    cells = [html.escape(c) for c in rubber_cells(row)]
    return (f'<tr class="rubber"><td class="n">{cells[0]}</td><td colspan="7">{cells[2]}</td>'
            f'<td class="n">{cells[8]}</td><td class="n">{cells[9]}</td>'
            f'<td colspan="2" class="note">{cells[11]}</td></tr>')


def partie_html(records: Sequence[Record], sheet: PartieSheet) -> str:
    """A Priffe partie: deals, rubber ends with their settlement, the standings."""
    classes = _classes(COLUMNS, notes=True)
    body = "".join(f"<tr>{_cells(deal_cells(row), classes)}</tr>" if isinstance(row, DealRow)
                   else _rubber_row(row) for row in sheet.rows)
    return _section(sheet, records[sheet_first(sheet) - 1], COLUMNS, body,
                    _standings(sheet.standings, msg("Points"), render(sheet.standings_note)))


def pref_html(records: Sequence[Record], sheet: PrefSheet) -> str:
    """A Préférence partie: deals with payments, pot and balances, the standings and the pot."""
    classes = _classes(PREF_COLUMNS, notes=False)
    body = "".join(f"<tr>{_cells(pref_cells(row), classes)}</tr>" for row in sheet.rows)
    pot = str(msg("Pot at the end: {pot}", pot=sheet.pot)) if sheet.pot is not None else ""
    return _section(sheet, records[sheet_first(sheet) - 1], PREF_COLUMNS, body,
                    _standings(sheet.standings, msg_p("pref sheet", "Balance"), pot))


# A family's score sheet: the views below know each built-in family's (the one place in
# the CLI that does; the engine's families make them through the score_sheets hook).
AnySheet = PartieSheet | PrefSheet


def scored(records: Sequence[Record | BadRecord], options: object = None
           ) -> list[tuple[GameFamily[Any], list[AnySheet]]]:
    """Each family's score sheets of ``records``, in registry order; ``options`` for
    records without a Scoring tag (``--preset``). One run of the engine for every game
    (:func:`~priffe_records.cli.report.partie_sheets`), as validate runs it."""
    by_family: dict[str, list[AnySheet]] = {fam.name: [] for fam in families()}
    for fam, sheet in partie_sheets(records, options):
        by_family[fam.name].append(sheet)
    return [(fam, by_family[fam.name]) for fam in families()]


def sheets_of(by_family: Sequence[tuple[GameFamily[Any], Sequence[AnySheet]]]
              ) -> list[AnySheet]:
    return [s for _, sheets in by_family for s in sheets]


def filled_records(records: list[Record], by_family: Sequence[tuple[GameFamily[Any],
                                                             Sequence[AnySheet]]]
           ) -> list[Record]:
    """``records`` with each family's computed claims written in (``--fill``)."""
    for fam, sheets in by_family:
        records = fam.fill(records, sheets)
    return records


def sheet_view(sheet: AnySheet) -> SheetView | PrefSheetView:
    """The terminal view of a family's sheet."""
    return PrefSheetView(sheet) if isinstance(sheet, PrefSheet) else SheetView(sheet)


def _html(records: Sequence[Record], sheet: AnySheet) -> str:
    return pref_html(records, sheet) if isinstance(sheet, PrefSheet) \
        else partie_html(records, sheet)


def printable_page(records: Sequence[Record | BadRecord], sheets: Sequence[AnySheet]) -> str:
    """The printable page: every partie with deals, in file order, one A4 page each, in the
    active language."""
    title, body = sheet_parts(records, sheets)
    return (f'<!DOCTYPE html>\n<html lang="{language()}"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
            f"<body>{body}</body></html>\n")


def sheet_parts(records: Sequence[Record | BadRecord], sheets: Sequence[AnySheet]
                ) -> tuple[str, str]:
    """The page's title (plain text) and its body's HTML: the printable page and
    ``priffe serve``'s sheet page (inside Datasette's own layout) show the same."""
    good = [r if isinstance(r, Record) else Record() for r in records]
    parts = sorted((sheet_first(s), _html(good, s)) for s in sheets if s.rows)
    title = next((s.title for s in sheets if s.rows), str(msg("Partie")))
    return title, "".join(part for _, part in parts)


def write_sheet_files(html_path: str | None, csv_path: str | None,
                      records: Sequence[Record | BadRecord], sheets: Sequence[AnySheet]
                      ) -> None:
    """``score --html`` and ``--csv``: each to its path ('-': standard output), atomically."""
    if html_path:
        _write(html_path, printable_page(records, sheets))
    if csv_path:
        _write(csv_path, sheet_csv(records, sheets))


def sheet_csv(records: Sequence[Record | BadRecord], sheets: Sequence[AnySheet]) -> str:
    """Each partie's rows as ``sheet-import`` reads them, in file order, an empty row
    between parties."""
    good = [r if isinstance(r, Record) else Record() for r in records]
    shown = [s for s in sheets if s.rows]
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    for i, sheet in enumerate(sorted(shown, key=sheet_first)):
        if i:
            out.writerow([])
        out.writerows(sheet_table(good, sheet, language()))
    return buf.getvalue()


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
    else:
        write_text_atomically(path, text)
