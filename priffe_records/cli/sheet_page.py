"""``priffe score --html`` and ``--csv``: the score sheet to print, and as spreadsheet rows.

The printable page shows the cells the terminal sheet shows (each family draws its sheet
once, in plain cells: :class:`~priffe_records.rules.family.Sheet`), so the two never
differ: one A4 page a partie with its deals, the lines between them (a rubber's end and
its settlement), the standings, the club's name and the date. Nothing here knows a
game. It is black on white with rules, no colour carries meaning, and it is
self-contained (no script, font or picture fetched), so it prints the same anywhere.
The CSV is what ``priffe sheet-import`` reads back
(:func:`priffe_records.rules.spreadsheet.sheet_table`).
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Sequence
from typing import Any

from priffe_records.format.errors import BadRecord, PriffeError
from priffe_records.format.record import PLAYER_TAGS, Record
from priffe_records.game.cards import SEATS
from priffe_records.game.language import language, msg, shown_date
from priffe_records.game.words import seat_name
from priffe_records.rules.family import (
    GameFamily,
    Sheet,
    SheetDeal,
    SheetLine,
    families,
    family_of,
    partie_title,
)
from priffe_records.rules.findings import tag_location
from priffe_records.rules.partie import parties
from priffe_records.rules.spreadsheet import sheet_table

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


def _cells(cells: Sequence[str], classes: Sequence[str]) -> str:
    return "".join(f'<td class="{c}">{html.escape(text)}</td>' if c else
                   f"<td>{html.escape(text)}</td>" for text, c in zip(cells, classes,
                                                                        strict=True))


def _players(records: Sequence[Record], sheet: Sheet) -> str:
    """Who sat where: every seating of the partie, each after the first with the deal it
    starts at (players change places between rubbers; the sheet is one evening)."""
    lines: list[str] = []
    last: list[str] = []
    for row in sheet.rows:
        if not isinstance(row, SheetDeal):
            continue
        rec = records[row.record - 1]
        named = [f"{seat_name(s)}: {rec.get(PLAYER_TAGS[s])}" for s in SEATS
                 if rec.get(PLAYER_TAGS[s])]
        if named and named != last:
            start = "" if not lines else str(msg("from deal {board}",
                                                 board=rec.get("Board") or "?")) + ": "
            lines.append(html.escape(start + " · ".join(named)))
            last = named
    return "<br>".join(lines)


def _standings(sheet: Sheet) -> str:
    """The standings table and the line after it (nothing without standings)."""
    if not sheet.standings:
        return ""
    rows = "".join(f'<tr><td>{html.escape(name)}</td><td class="n">{pts:+d}</td></tr>'
                   for name, pts in sheet.standings)
    tail = f"<p>{html.escape(sheet.after)}</p>" if sheet.after else ""
    return (f'<div><h2>{html.escape(str(msg("Standings")))}</h2><table><tr>'
            f'<th>{html.escape(str(msg("Player")))}</th><th>{html.escape(str(sheet.points))}'
            f"</th></tr>{rows}</table>{tail}</div>")


def _line(line: SheetLine) -> str:
    """A line between deals (a rubber's end) laid out across the deal columns."""
    out = []
    for cell in line.cells:
        span = f' colspan="{cell.span}"' if cell.span > 1 else ""
        kind = "note" if cell.wrap else _ALIGN.get(cell.justify, "")
        style = f' class="{kind}"' if kind else ""
        out.append(f"<td{span}{style}>{html.escape(cell.text)}</td>")
    return f'<tr class="rubber">{"".join(out)}</tr>'


def partie_html(records: Sequence[Record], sheet: Sheet) -> str:
    """One partie's page: club, date, players, the table of deals, the standings."""
    classes = [_ALIGN.get(col.justify, "") for col in sheet.columns]
    if sheet.notes:  # the last column takes the rest and wraps
        classes[-1] = "note"
    body = "".join(f"<tr>{_cells(row.cells, classes)}</tr>" if isinstance(row, SheetDeal)
                   else _line(row) for row in sheet.rows)
    head = "".join(f"<th>{html.escape(str(col.head))}</th>" for col in sheet.columns)
    club = partie_title(sheet.event, sheet.site, None)
    return (f'<section class="partie"><h1>{html.escape(club)}</h1>'
            f'<p class="when">{html.escape(shown_date(sheet.date or ""))}</p>'
            f'<p class="players">{_players(records, sheet)}</p>'
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            f'<div class="after">{_standings(sheet)}</div></section>')


def scored(records: Sequence[Record | BadRecord], options: object = None
           ) -> list[tuple[GameFamily[Any], list[Sheet]]]:
    """Each family's score sheets of ``records``, in families() order; ``options`` for
    records without a Scoring tag (``--preset``). One run of the engine for every game,
    as validate runs it: each partie the driver closes goes to the family whose partie
    it is (:meth:`~priffe_records.rules.family.GameFamily.partie_sheet`)."""
    by_family: dict[str, list[Sheet]] = {fam.name: [] for fam in families()}
    every = families()
    for partie in parties(records, options=options):
        for fam in every:
            sheet = fam.partie_sheet(partie, records)
            if sheet is not None:
                by_family[fam.name].append(sheet)
                break
    return [(fam, by_family[fam.name]) for fam in every]


class NoSheet(PriffeError):
    """A record of a game whose family reads no spreadsheet row (``--csv``: no entry
    hooks)."""


def sheets_of(by_family: Sequence[tuple[GameFamily[Any], Sequence[Sheet]]]) -> list[Sheet]:
    return [s for _, sheets in by_family for s in sheets]


def filled_records(records: list[Record],
                   by_family: Sequence[tuple[GameFamily[Any], Sequence[Sheet]]]
                   ) -> list[Record]:
    """``records`` with each family's computed claims written in (``--fill``)."""
    for fam, sheets in by_family:
        records = fam.fill(records, [s.own for s in sheets])
    return records


def printable_page(records: Sequence[Record | BadRecord], sheets: Sequence[Sheet]) -> str:
    """The printable page: every partie with deals, in file order, one A4 page each, in the
    active language."""
    title, body = sheet_parts(records, sheets)
    return (f'<!DOCTYPE html>\n<html lang="{language()}"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
            f"<body>{body}</body></html>\n")


def sheet_parts(records: Sequence[Record | BadRecord], sheets: Sequence[Sheet]
                ) -> tuple[str, str]:
    """The page's title (plain text) and its body's HTML: the printable page and
    ``priffe serve``'s sheet page (inside Datasette's own layout) show the same."""
    good = [r if isinstance(r, Record) else Record() for r in records]
    parts = sorted((s.first, partie_html(good, s)) for s in sheets if s.rows)
    title = next((s.title for s in sheets if s.rows), str(msg("Partie")))
    return title, "".join(part for _, part in parts)


def sheet_tables(records: Sequence[Record | BadRecord], sheets: Sequence[Sheet]
                 ) -> list[tuple[Sheet, list[list[str]]]]:
    """Each partie's rows as ``sheet-import`` reads them, in file order: what ``--csv``
    and ``--xlsx`` write."""
    good = [r if isinstance(r, Record) else Record() for r in records]
    shown = [s for s in sheets if s.rows]
    for sheet in shown:
        _has_columns(good[sheet.first - 1])
    return [(sheet, sheet_table(good, sheet.own, language()))
            for sheet in sorted(shown, key=lambda s: s.first)]


def sheet_csv(records: Sequence[Record | BadRecord], sheets: Sequence[Sheet]) -> str:
    """Each partie's rows as standard CSV (RFC 4180: commas, UTF-8, no byte-order mark),
    an empty row between parties."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    for i, (_, rows) in enumerate(sheet_tables(records, sheets)):
        if i:
            out.writerow([])
        out.writerows(rows)
    return buf.getvalue()


def _has_columns(first: Record) -> None:
    """An error at the Scoring tag of a partie's first deal when its game has no entry
    hooks, whose columns a spreadsheet row takes."""
    fam = family_of(first)
    if fam.entry is None:
        raise NoSheet(msg("{where}: {game} has no spreadsheet columns (its family has no "
                          "entry hooks): write its records as PPN text",
                          where=tag_location(first, "Scoring", False) or "?", game=fam.name))
