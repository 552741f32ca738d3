"""One set of output options for every command that prints rows, in the style of sqlite-utils.

``--table`` (the default), ``--json``, ``--nl``, ``--csv``, ``--tsv``,
``--no-headers`` and ``--fmt`` mean the same on ``query``, ``sql``,
``stats``, ``parse`` and ``validate``, because they come from this one
decorator and are printed by this one :func:`emit`: ``--json`` is one JSON
array, ``--nl`` one object a line, as in sqlite-utils. The older spelling
``--format table|json|csv`` stays as a hidden alias so scripts keep working.
"""

from __future__ import annotations

import csv
import functools
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import click

from priffe_records.cli.common import LazyChoice
from priffe_records.game.cards import SEATS
from priffe_records.game.language import Message, msg, msg_p, number, percent
from priffe_records.game.words import seat_letter

F = TypeVar("F", bound=Callable[..., Any])

def _table_styles() -> list[str]:
    import tabulate  # when --fmt is used or shown, not for every command that prints rows

    return sorted(tabulate.tabulate_formats)


TABLE_STYLES = LazyChoice(_table_styles)


# Columns whose values may be long text: they fold on a narrow screen; the rest never wrap.
_WRAPPING = frozenset({"event", "site", "players", "message", "commentary", "source", "ppn"})


# Column headings of the tables our commands print, in the reader's language. JSON, CSV
# and TSV keep the column names (scripts read one spelling); `priffe sql` shows the
# user's own names.
COLUMN_LABELS: dict[str, Message] = {
    "id": msg_p("column", "id"), "date": msg_p("column", "date"),
    "event": msg_p("column", "event"), "site": msg_p("column", "site"),
    "rubber": msg_p("column", "rubber"), "board": msg_p("column", "board"),
    "dealer": msg_p("column", "dealer"), "north": msg_p("column", "north"),
    "east": msg_p("column", "east"), "south": msg_p("column", "south"),
    "west": msg_p("column", "west"), "contract": msg_p("column", "contract"),
    "declarer": msg_p("column", "declarer"), "tricks_ns": msg_p("column", "tricks_ns"),
    "tricks_ew": msg_p("column", "tricks_ew"), "made": msg_p("column", "made"),
    "slam": msg_p("column", "slam"), "score_ns": msg_p("column", "score_ns"),
    "score_ew": msg_p("column", "score_ew"), "status": msg_p("column", "status"),
    "errors": msg_p("column", "errors"), "source": msg_p("column", "source"),
    "line": msg_p("column", "line"), "game": msg_p("column", "game"),
    "pot": msg_p("column", "pot"), "players": msg_p("column", "players"),
    "tricks": msg_p("column", "tricks"), "outcome": msg_p("column", "outcome"),
    "score": msg_p("column", "score"), "file": msg_p("column", "file"),
    "result": msg_p("column", "result"), "column": msg_p("column", "column"),
    "record": msg_p("column", "record"), "rule": msg_p("column", "rule"),
    "severity": msg_p("column", "severity"), "message": msg_p("column", "message"),
    "player": msg_p("column", "player"), "rubbers": msg_p("column", "rubbers"),
    "settlement": msg_p("column", "settlement"), "deals": msg_p("column", "deals"),
    "declared": msg_p("column", "declared"),
    "penalty_suffered": msg_p("column", "penalty_suffered"),
    "penalty_inflicted": msg_p("column", "penalty_inflicted"), "slams": msg_p("column", "slams"),
    "points": msg_p("column", "points"), "defeated": msg_p("column", "defeated"),
    "partner": msg_p("column", "partner"), "defended": msg_p("column", "defended"),
    "success_pct": msg_p("column", "success_pct"), "parties": msg_p("column", "parties"),
    "balance": msg_p("column", "balance"),
    # priffe stats' double-dummy costs: deals per role, then the cost per deal in it
    "dd_deals": msg_p("column", "analysed"), "dd_declared": msg_p("column", "declarer"),
    "dd_cost_declarer": msg_p("column", "cost decl."),
    "dd_partnered": msg_p("column", "partner"), "dd_cost_partner": msg_p("column", "cost partn."),
    "dd_defended": msg_p("column", "defender"), "dd_cost_defender": msg_p("column", "cost def."),
    "dd_forced": msg_p("column", "forced"), "dd_cost_forced": msg_p("column", "cost forced"),
    # ... and the deals of each kind, with the share played without a trick given away
    "dd_positive": msg_p("column", "positive"),
    "dd_clean_positive_pct": msg_p("column", "no loss pos."),
    "dd_misere": msg_p("column", "misère"), "dd_clean_misere_pct": msg_p("column", "no loss mis."),
}

# Words stored as values that a table shows in the reader's language (column, value).
CELL_LABELS: dict[tuple[str, str], Message] = {
    ("outcome", "made"): msg_p("outcome", "made"),
    ("outcome", "defeated"): msg_p("outcome", "defeated"),
    ("status", "clean"): msg_p("status", "clean"),
    ("status", "warnings"): msg_p("status", "warnings"),
    ("status", "errors"): msg_p("status", "errors"),
    ("status", "unreadable"): msg_p("status", "unreadable"),
    ("severity", "error"): msg_p("severity", "error"),
    ("severity", "warning"): msg_p("severity", "warning"),
    ("severity", "unverifiable"): msg_p("severity", "unverifiable"),
    # Seats are stored as the file writes them (N E S W); a table shows N Ö S V in Swedish.
    **{(column, seat.value): seat_letter(seat) for column in ("dealer", "declarer")
       for seat in SEATS},
}


@functools.cache
def _family_labels() -> dict[tuple[str, str], Message]:
    from priffe_records.format.vocabulary import vocabularies  # not for a command's start

    return {key: label for words in vocabularies() for key, label in words.labels.items()}


def cell_label(column: str, value: str) -> Message | None:
    """How a table shows a stored word in the reader's language: the shared ones above,
    and each family's own (its name; its contracts stored as the file's words, HandClubs)."""
    return CELL_LABELS.get((column, value)) or _family_labels().get((column, value))


def heading(column: str) -> str:
    """A column's heading in the active language (its own name when we have no label)."""
    label = COLUMN_LABELS.get(column)
    return column if label is None else label.render()


@dataclass(frozen=True, slots=True)
class Output:
    """How rows are printed: the style, whether a header row is wanted, the table style."""

    style: str = "table"
    headers: bool = True
    fmt: str | None = None
    chosen: bool = False  # the user named the style (rather than taking the default)

    @property
    def is_json(self) -> bool:
        return self.style in ("json", "nl")


def output_options(*, extra_formats: Sequence[str] = ()) -> Callable[[F], F]:
    """Add the output options to a command; the command receives ``out: Output``.

    ``extra_formats``: further values of the hidden ``--format`` alias (``ppn``),
    passed through as ``Output.style``.
    """
    options = [
        click.option("--table", "as_table", is_flag=True,
                     help="Output a table (the default)."),
        click.option("--json", "as_json", is_flag=True, help="Output JSON: a list of objects."),
        click.option("--nl", "as_nl", is_flag=True,
                     help="Output newline-delimited JSON: one object per line."),
        click.option("--csv", "as_csv", is_flag=True, help="Output CSV."),
        click.option("--tsv", "as_tsv", is_flag=True, help="Output TSV (tab-separated)."),
        click.option("--no-headers", is_flag=True,
                     help="Leave out the header row (--table, --csv, --tsv)."),
        click.option("--fmt", type=TABLE_STYLES, metavar="STYLE",
                     help="Table style, as in sqlite-utils: plain, simple, github, grid, "
                          "pipe, rst, latex, … (implies --table)."),
        click.option("--format", "legacy_format",
                     type=click.Choice(["table", "json", "csv", *extra_formats]),
                     hidden=not extra_formats,
                     help="table, json or csv (the older spelling of --table, --json, "
                          "--csv), or ppn: the records themselves as a PPN file."),
    ]

    def decorate(f: F) -> F:
        @functools.wraps(f)
        def wrapper(*args: Any, as_table: bool, as_json: bool, as_nl: bool, as_csv: bool,
                    as_tsv: bool, no_headers: bool, fmt: str | None,
                    legacy_format: str | None, **kwargs: Any) -> Any:
            named = [style for style, on in (("table", as_table or fmt is not None),
                                             ("json", as_json), ("nl", as_nl),
                                             ("csv", as_csv), ("tsv", as_tsv)) if on]
            if legacy_format is not None:
                named.append(legacy_format)
            if len(set(named)) > 1:
                raise click.UsageError(
                    str(msg("Choose one output style: --table, --json, --nl, --csv or --tsv.")))
            style = named[0] if named else "table"
            kwargs["out"] = Output(style=style, headers=not no_headers, fmt=fmt,
                                      chosen=bool(named))
            return f(*args, **kwargs)

        decorated: Callable[..., Any] = wrapper
        for option in reversed(options):
            decorated = option(decorated)
        return decorated  # type: ignore[return-value]

    return decorate


def json_value(v: object) -> str:
    """What JSON has no type for (a BLOB from priffe sql): hex for bytes, else text."""
    return v.hex() if isinstance(v, bytes) else str(v)


@contextmanager
def json_objects(output: Output) -> Iterator[Callable[[object], None]]:
    """Write objects to stdout as they come: one array (``--json``) or one a line (``--nl``).

    Streamed, so a large result is never held whole; the array is closed
    even when no object came (``[]``) or an error ended the command early.
    """
    out = sys.stdout
    lines = output.style == "nl"
    count = 0

    def put(obj: object) -> None:
        nonlocal count
        text = json.dumps(obj, ensure_ascii=False, default=json_value)
        out.write(text + "\n" if lines else ("," if count else "[") + "\n  " + text)
        count += 1

    try:
        yield put
    finally:  # closed also when an error stops the command: what came still parses
        if not lines:
            out.write("\n]\n" if count else "[]\n")


# Columns of points won or lost: a table shows their sign, as the score sheet does (+40, -10).
SIGNED_COLUMNS = frozenset({"settlement", "balance"})


def _cell(v: object, column: str = "", labels: bool = False) -> str:
    if v is None:
        return ""
    if labels and column in SIGNED_COLUMNS and isinstance(v, int) and not isinstance(v, bool):
        return f"{v:+d}"
    if labels and isinstance(v, float):  # a table speaks the reader's language: 62,5 %
        return percent(v) if column.endswith("_pct") else number(v)
    label = cell_label(column, v) if labels and isinstance(v, str) else None
    return str(v) if label is None else label.render()


def emit(columns: Sequence[str], rows: Iterable[Sequence[Any]], output: Output,
         title: Message | str | None = None, labels: bool = True) -> int:
    """Print ``rows`` on stdout in the chosen style; returns how many were printed.

    A table shows the title and (``labels``) the headings in the reader's language.
    """
    shown = [heading(c) if labels else c for c in columns]
    title = None if title is None else str(title)
    out = sys.stdout
    n = 0
    if output.is_json:
        with json_objects(output) as put:
            for row in rows:
                put(dict(zip(columns, row, strict=True)))
                n += 1
    elif output.style in ("csv", "tsv"):
        w = csv.writer(out, lineterminator="\n",
                       delimiter="\t" if output.style == "tsv" else ",")
        if output.headers:
            w.writerow(columns)
        for row in rows:
            w.writerow(row)
            n += 1
    elif output.fmt is not None:
        import tabulate  # only to print a table

        body = [[_cell(v, c, labels) for c, v in zip(columns, row, strict=True)]
                for row in rows]
        n = len(body)
        if title:
            out.write(title + "\n")
        out.write(tabulate.tabulate(body, headers=shown if output.headers else (),
                                    tablefmt=output.fmt) + "\n")
    else:
        from rich.console import Console  # only to print a table
        from rich.table import Table

        table = Table(title=title, show_header=output.headers)
        rows = list(rows)  # a column of numbers is right-aligned, as on the score sheet
        for i, (c, h) in enumerate(zip(columns, shown, strict=True)):
            numbers = [r[i] for r in rows if r[i] is not None]
            right = bool(numbers) and all(isinstance(v, int | float) for v in numbers)
            table.add_column(h, overflow="fold", no_wrap=c not in _WRAPPING,
                             justify="right" if right else "left")
        for row in rows:
            table.add_row(*(_cell(v, c, labels) for c, v in zip(columns, row, strict=True)))
            n += 1
        console = Console()
        if not console.is_terminal:  # piped: no screen to fit, keep rows on one line
            console = Console(width=max(console.width, 200))
        console.print(table)
    return n
