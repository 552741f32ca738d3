"""``priffe add`` and ``priffe sheet-import``: an evening typed deal by deal, or from a sheet.

The questions and the reading of answers live here; what an answer means,
where the deal goes and what the rules say about it come from
:mod:`priffe_records.rules.entry`. Answers come from the terminal (with tab
completion) or, line by line, from standard input, so scripts and tests type
an evening the way a person does.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import NoReturn, TypeVar

import click

from priffe_records.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    FORCE_OPTION,
    UserError,
    preset_option,
    user_errors,
)
from priffe_records.cli.inputs import display_name, is_stdin, refuse_binary, stdin_bytes
from priffe_records.cli.making import GAME_OPTION, emit_records
from priffe_records.cli.report import SheetView, sheet_console
from priffe_records.cli.seat_options import SEAT_CHOICE
from priffe_records.cli.sheet_page import filled_records, scored, sheets_of
from priffe_records.format.atomic import write_text_atomically
from priffe_records.format.errors import BadRecord
from priffe_records.format.reader import read
from priffe_records.format.record import PLAYER_TAGS, Record
from priffe_records.format.sheet_dates import sheet_date
from priffe_records.format.sheet_rows import read_tables
from priffe_records.game.cards import SEATS, Seat
from priffe_records.game.language import Message, msg, msg_n
from priffe_records.game.words import seat_name
from priffe_records.rules.blank import seats as seats_of_game
from priffe_records.rules.entry import (
    EntryError,
    board_index,
    entry_form,
    entry_of,
    kept_as_written,
    next_slot,
    placed,
    record_findings,
    reseated,
    slot_record,
    verified_text,
)
from priffe_records.rules.family import Entry, EntryForm, default_family, family_named
from priffe_records.rules.findings import Finding
from priffe_records.rules.repeats import is_unchecked
from priffe_records.rules.spreadsheet import import_rows, not_a_date

T = TypeVar("T")
CORRECT = {"", "c", "correct", "r", "rätta", "ratta"}  # the default is to correct
KEEP = {"k", "keep", "b", "behåll", "behall"}


class EndOfAnswers(Exception):
    """Standard input ended (or the user pressed Ctrl-D)."""


class Asker:
    """Questions on standard output, answers from the terminal or standard input's lines."""

    def __init__(self) -> None:
        self.terminal = sys.stdin.isatty()

    def line(self, question: Message, default: str | None = None,
             completions: Iterable[str] = ()) -> str:
        """One answer, stripped; the default when the answer is empty."""
        shown = f"{question} [{default}]: " if default else f"{question}: "
        if self.terminal:
            _complete_with(completions)
            try:
                answer = input(shown)
            except EOFError:
                raise EndOfAnswers from None
        else:
            click.echo(shown, nl=False)
            got = sys.stdin.readline()
            if not got:
                click.echo()
                raise EndOfAnswers
            answer = got.rstrip("\r\n")
            click.echo(answer)
        return answer.strip() or (default or "")

    def value(self, question: Message, parse: Callable[[str], T], default: str | None = None,
              completions: Iterable[str] = ()) -> T:
        """Ask until the answer reads; each answer that does not is said at once."""
        while True:
            try:
                return parse(self.line(question, default, completions))
            except EntryError as e:
                click.echo(str(msg("  not understood: {reason}", reason=e.args[0])))

    def first(self, question: Message, default: str | None, completions: Iterable[str]
              ) -> str | None:
        """The first answer of a deal; ``None`` when the user stops (empty, or no more input)."""
        try:
            text = self.line(question, default, completions)
        except EndOfAnswers:
            return None
        return text or None

    def again(self, first: str, parse: Callable[[str], T], question: Message) -> T:
        """The first answer read, or asked again until one reads."""
        try:
            return parse(first)
        except EntryError as e:
            click.echo(str(msg("  not understood: {reason}", reason=e.args[0])))
        return self.value(question, parse)

    def say(self, text: Message) -> None:
        click.echo(str(text))


def _complete_with(words: Iterable[str]) -> None:
    """Tab completion of the words on a terminal (readline is missing on some systems)."""
    try:
        import readline
    except ImportError:  # pragma: no cover - Windows without pyreadline
        return
    choices = sorted(set(words))

    def complete(text: str, state: int) -> str | None:
        hits = [w for w in choices if w.casefold().startswith(text.casefold())]
        return hits[state] if state < len(hits) else None

    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")


def _introduce(record: Record) -> None:
    """Which deal comes, and who deals it (the rotation knows)."""
    dealer = record.get("Dealer")
    board = record.get("Board") or "?"
    if dealer in {s.value for s in SEATS}:
        seat = Seat(dealer)
        click.echo(str(msg("Board {board}: {seat} deals ({player})", board=board,
                           seat=seat_name(seat), player=record.get(PLAYER_TAGS[seat]) or "?")))
    else:
        click.echo(str(msg("Board {board}", board=board)))


class _Say:
    """Says each typed deal's findings; the "not checked" note (a deal typed from the
    paper has no hands or play: what is taken as written) once a session, dimmed: it is
    true of every deal, as the validate report counts it once a file."""

    def __init__(self) -> None:
        self.unchecked_said = False

    def __call__(self, findings: Sequence[Finding]) -> None:
        for f in findings:
            if not is_unchecked(f):
                click.echo("  " + str(f))
            elif not self.unchecked_said:
                self.unchecked_said = True
                click.echo(click.style("  " + str(f), dim=True))


def _keep_anyway(ask: Asker) -> bool:
    """After an error: correct the deal (the default) or keep it as written."""
    while True:
        answer = ask.line(msg("Correct the deal (c) or keep it as written (k)?")).casefold()
        if answer in CORRECT:
            return False
        if answer in KEEP:
            return True


def _running_sheet(records: list[Record], index: int, options: object
                   ) -> SheetView | None:
    """The running sheet of the partie the deal at ``index`` belongs to."""
    for sheet in sheets_of(scored(records, options)):
        if sheet.holds(index + 1):
            return SheetView(sheet)
    return None


def _read(path: Path) -> list[Record]:
    if not path.exists():
        raise UserError(msg("{file}: no such file: lay the evening out first with "
                            "'priffe new -o {file}'", file=path))
    refuse_binary(path)
    got = list(read(path, errors="collect"))
    bad = [r for r in got if isinstance(r, BadRecord)]
    if bad:
        for b in bad:
            for e in b.errors:
                click.echo(str(e), err=True)
        raise UserError(msg_n("{file}: {n} record could not be read: correct it first",
                              "{file}: {n} records could not be read: correct them first",
                              len(bad), file=path))
    return [r for r in got if isinstance(r, Record)]


def _form(record: Record, name: str) -> EntryForm:
    """The entry hooks of the deal's game; a located error when its deals cannot be typed."""
    try:
        return entry_form(record.get("Scoring"))
    except EntryError as e:
        tag = record.tag("Scoring")
        where = tag.location if tag is not None and tag.location is not None else None
        raise UserError(msg("{file}: {reason}", file=where or name, reason=e.args[0])
                        ) from None


def _one_deal(ask: Asker, records: list[Record], name: str, options: object, say: _Say,
              board: str | None = None) -> tuple[list[Record], int] | None:
    """Ask for the next deal (or correct the saved deal ``board``) until it is right or
    kept; the new records, or ``None``."""
    before: Entry | None = None
    if board is not None:  # a saved deal: its values are the answers offered
        index = board_index(records, board)
        form = _form(records[index], name)
        before = entry_of(records[index], form)
    else:
        index = next_slot(records)
        if index == len(records):  # a deal after the last: laid out here, written when typed
            records = [*records, slot_record(records, index)]
        form = _form(records[index], name)
        try:
            seats = form.new_seats(ask, records, index, options)
        except EndOfAnswers:
            return None
        if seats is not None:
            records = reseated(records, index, seats)
    record = records[index]
    _introduce(record)
    while True:
        entry = form.ask(ask, record, before)
        if entry is None:
            return None
        new = placed(records, index, entry)
        text, again = verified_text(new, name)
        findings = record_findings(again, index, options=options)
        say(findings)
        if any(f.is_error for f in findings):
            if not _keep_anyway(ask):
                before = entry
                continue
            # Kept as the paper has it: marked, so the sheet, --fill and the archive show it.
            text, again = verified_text(kept_as_written(again, index, findings, form.keepable),
                                        name)
        write_text_atomically(name, text)
        return again, index


@click.command("add")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--board", metavar="N",
              help="Correct the saved deal N instead (its answers are offered), then stop.")
@preset_option
def add_command(file: str, board: str | None, options: object) -> None:
    """Type the next deals of the evening in FILE, each checked by the rules before it is saved.

    Asks for the contract, the declarer (a seat or a player's name), the
    tricks and, if written on the paper, the score. The dealer comes from
    the rotation, and after a rubber the new seats are proposed (R24). An
    error is said at once: correct the deal, or keep it as written. Each
    deal fills the next empty deal 'priffe new' laid out (or
    is added at the end), and the file is rewritten in export format only
    when it reads back to the same records. An empty contract stops.
    Answers may come from standard input, one a line. In a Préférence
    partie it asks for the drop-outs and the tricks of those who played.
    """
    path = Path(file)
    console = sheet_console()
    ask = Asker()
    say = _Say()
    saved = 0
    with user_errors():
        records = _read(path)
        while True:
            try:
                done = _one_deal(ask, records, file, options, say, board)
            except EntryError as e:
                raise UserError(msg("{file}: {reason}", file=file, reason=e.args[0])) from None
            except EndOfAnswers:
                raise UserError(msg("standard input ended in the middle of a deal; that deal "
                                    "was not saved ({n} saved before it)", n=saved),
                                EXIT_FINDINGS) from None
            if done is None:
                break
            records, index = done
            saved += 1
            sheet = _running_sheet(records, index, options)
            if sheet is not None:
                console.print(sheet)
            if board is not None:
                break
    click.echo(str(msg_n("saved {n} deal in {file}", "saved {n} deals in {file}", saved,
                         file=file)), err=True)
    sys.exit(EXIT_OK)


@click.command("sheet-import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the PPN records to this new file instead of standard output.")
@FORCE_OPTION
@click.option("--event", help="The Event tag (else the sheet's Event row, else '?').")
@click.option("--site", help="The Site tag (else the sheet's Site row).")
@click.option("--date", metavar="DATE",
              help="The Date tag (else the sheet's Date row): 2026-11-25, 25.11.2026 or 25 nov "
                   "2026, written as 2026.11.25.")
@click.option("-p", "--player", "players", multiple=True, metavar="NAME",
              help="A player, in seat order N, E, S, W (else the sheet's North … West rows).")
@click.option("--dealer", type=SEAT_CHOICE,
              default="N", show_default=True,
              help="The first dealer, when the sheet has no Dealer column.")
@click.option("--fill", is_flag=True,
              help="Also write the computed totals (as score --fill does).")
@GAME_OPTION
@preset_option
def sheet_import_command(file: str, output: str | None, force: bool, event: str | None,
                         site: str | None, date: str | None, players: tuple[str, ...],
                         dealer: str, fill: bool, game: str, options: object) -> None:
    """Turn a spreadsheet (CSV, TSV, ods, xlsx) into PPN: one row a deal, one worksheet a
    partie.

    Columns are found by their headings, Swedish or English: Board/Giv,
    Dealer/Given, Contract/Kontrakt, Declarer/Spelförare, Tricks/Stick, and
    optionally Score/Poäng and Honours/Honnörer. Rows above the headings may
    name the partie: Event, Site, Date and the players (Nord, Öst …). Every
    bad cell is an error with its row and column, and the deals are checked
    by the rules; on any error nothing is written (exit 1). '-' reads CSV
    from standard input; .xlsx needs the 'sheet' extra (openpyxl). A
    Préférence partie (--game preference, or a Scoring row) has the columns
    Dropout/Avhopp and Payments/Betalningar instead of Honours.
    """
    name = display_name(file)
    table = seats_of_game(game)
    if len(players) > len(table):
        raise UserError(msg("{game} has {count} players; {given} were given", game=game,
                            count=len(table), given=len(players)))
    given = {k: v for k, v in (("Event", event), ("Site", site)) if v}
    if date:
        given["Date"] = sheet_date(date) or _refused_date(date)
    given |= {PLAYER_TAGS[s]: n for s, n in zip(table, players, strict=False)}
    family = family_named(game)
    if family is not default_family():  # a sheet without a Scoring row plays the default
        given["Scoring"] = family.scoring_tag()
    with user_errors():
        data = stdin_bytes().read() if is_stdin(file) else None
        tables = read_tables(file, data)
    records: list[Record] = []
    problems = []
    for title, rows in tables:  # a partie a worksheet, as score --xlsx writes them
        got = import_rows(rows, f"{name} [{title}]" if len(tables) > 1 else name, given=given,
                          first_dealer=Seat(dealer.upper()), options=options)
        records += got.records
        problems += got.problems
    for problem in problems:
        click.echo(str(problem), err=True)
    errors = sum(p.is_error for p in problems)
    if errors:
        raise UserError(msg_n("{file}: {n} error; nothing written",
                              "{file}: {n} errors; nothing written", errors, file=name),
                        EXIT_FINDINGS)
    if fill:
        records = filled_records(records, scored(records, options))
    emit_records(records, output, force)
    sys.exit(EXIT_OK)


def _refused_date(date: str) -> NoReturn:
    raise UserError(msg("--date: {reason}", reason=not_a_date(date)))


COMMANDS: list[click.Command] = [add_command, sheet_import_command]
