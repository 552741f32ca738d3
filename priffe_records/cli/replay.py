"""``priffe replay``: a deal trick by trick in the terminal, or as a self-contained HTML page."""

from __future__ import annotations

import io
import os
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

import click

from priffe_records.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    UserError,
    preset_option,
    quiet_stdout,
    quiet_verbose_options,
    user_errors,
)
from priffe_records.cli.inputs import display_name, is_stdin, open_input, refuse_binary
from priffe_records.format.errors import BadRecord, PPNSyntaxError
from priffe_records.format.reader import loads, read
from priffe_records.format.record import Record
from priffe_records.game.language import Message, language, msg, msg_n, number
from priffe_records.replay.model import DealReplay, build_replays
from priffe_records.replay.stepping import read_key, walk
from priffe_records.replay.wording import Words, sheet_only, where, words
from priffe_records.rules.checks import present
from priffe_records.rules.gcscope import collector_paused

# The terminal's drawing (rich) and the solver load where they are used:
# ``--html`` of a whole file needs none of them.
if TYPE_CHECKING:
    from rich.text import Text

    from priffe_records.archive.query import StoredText
    from priffe_records.dd import Progress
    from priffe_records.replay.dd import DDView

PLAIN_WIDTH = 80  # piped output has a fixed width, so files and tests do not depend on $COLUMNS


def _db_records(db: str, deal_id: int) -> tuple[list[Record | BadRecord], int]:
    """The records of the partie holding deal ``deal_id``, and that deal's 1-based position.

    Reads the canonical PPN text the archive keeps for each deal, opened
    read-only through :func:`~priffe_records.archive.schema.open_archive`
    (which refuses a database that is not a priffe archive), with the rest
    of its partie so games and rubber totals come out as on import.
    """
    # The archive (sqlite-utils) only when asked for: a file's replay starts without it.
    from priffe_records.archive.query import QueryError, partie_of_deal
    from priffe_records.archive.schema import describe_sqlite_error, open_archive

    try:  # open_archive's read-only path lets sqlite3.DatabaseError through for a file
        conn = open_archive(db, readonly=True)  # that is not SQLite at all: caught here too
        try:
            texts = partie_of_deal(conn, deal_id)
        finally:
            conn.conn.close()
    except QueryError as e:
        raise UserError(f"{db}: {e}") from None
    except sqlite3.DatabaseError as e:
        raise UserError(describe_sqlite_error(db, e)) from None
    return records_of_deal(texts, db, deal_id)


def records_of_deal(texts: Sequence[StoredText], db: str, deal_id: int
                    ) -> tuple[list[Record | BadRecord], int]:
    """The stored texts of a partie as records, and deal ``deal_id``'s 1-based position.

    Shared with the Datasette plugin, which reads the same rows.
    """
    records: list[Record | BadRecord] = []
    index = 0
    for stored in texts:
        if stored.id == deal_id:
            index = len(records) + 1
        records.extend(stored_records(stored, db))
    return records, index


def stored_records(stored: StoredText, db: str) -> list[Record | BadRecord]:
    """A stored text read as at import: an unreadable record stays one, and what is found
    in it is located in the file and at the line it was imported from."""
    name = stored.source or f"{db}#deal{stored.id}"
    return list(loads(stored.ppn, errors="collect", name=name, first_line=stored.line or 1))


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A record the reader could not read, in its place among the replays: it costs only
    itself, and says why with its file and line."""

    record: BadRecord
    index: int  # 1-based position in the records given

    @property
    def board(self) -> str | None:
        return self.record.partial.get("Board") if self.record.partial is not None else None

    @property
    def rubber(self) -> str | None:
        return self.record.partial.get("Rubber") if self.record.partial is not None else None

    @property
    def error(self) -> PPNSyntaxError:
        return self.record.errors[0]

    def text(self) -> str:
        """The reader's located error, then why there is nothing to replay."""
        return (f"{self.error}\n" + str(msg("record {record} could not be read, so it cannot "
                                            "be replayed", record=self.index)) + "\n")


def replays_of(records: Sequence[Record | BadRecord], options: object
               ) -> list[DealReplay | Unreadable]:
    """Every record arranged for replay, each by its own family's engine; an unreadable
    one in its place, so the others' rubber totals know a deal is missing."""
    out: list[DealReplay | Unreadable] = list(build_replays(records, options))
    for i, item in enumerate(records, 1):
        if isinstance(item, BadRecord):
            out.insert(i - 1, Unreadable(item, i))
    return out


Shown = DealReplay | Unreadable


def _select(replays: Sequence[Shown], name: str, board: int | None,
            rubber: int | None) -> list[Shown]:
    chosen = list(replays)
    if rubber is not None:
        chosen = [r for r in chosen if (r.rubber or "").strip() == str(rubber)]
        if not chosen:
            have = sorted({r.rubber.strip() for r in replays if r.rubber})
            raise UserError(msg("{file}: no rubber {rubber} (rubbers: {have})", file=name,
                                rubber=rubber, have=", ".join(have)) if have else
                            msg("{file}: no rubber {rubber}", file=name, rubber=rubber))
    if board is not None:
        pool = chosen
        chosen = [r for r in pool if (r.board or str(r.index)).strip() == str(board)]
        if not chosen:
            have = [(r.board or str(r.index)).strip() for r in pool]
            raise UserError(msg("{file}: no board {board} (boards: {have})", file=name,
                                board=board, have=", ".join(have)) if have else
                            msg("{file}: no board {board}", file=name, board=board))
    return chosen


def _check_game(replays: Sequence[Shown]) -> None:
    """Records of no family cannot be replayed: when no other record can, say where and
    why (a file of other records shows each refused one with its error)."""
    refused = [r.refusal for r in replays if isinstance(r, DealReplay) and r.refusal]
    if refused and len(refused) == len(replays):
        raise UserError(where(refused[0]))


def _plain(r: DealReplay, w: Words, brief: bool = False) -> str:
    """Rendered without any escape code, trailing blanks trimmed, for pipes and files.

    A score-sheet summary stays on one line however long (soft wrap).
    """
    from rich.console import Console

    from priffe_records.replay.terminal import full_view

    buf = io.StringIO()
    console = Console(file=buf, width=PLAIN_WIDTH, color_system=None, force_terminal=False,
                      highlight=False, emoji=False, legacy_windows=False)
    console.print(full_view(r, w, brief), soft_wrap=not r.playable)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()) + "\n"


def _no_color() -> bool:
    return bool(os.environ.get("NO_COLOR"))


def _errors_only(r: DealReplay) -> DealReplay:
    """-q: the replay keeps its errors and drops warnings and unverifiable notes."""
    return replace(r, other_findings=tuple(f for f in r.other_findings if f.is_error),
                   tricks=tuple(t._replace(notes=()) for t in r.tricks))


def _passed(r: DealReplay) -> list[Text]:
    """-v: the checks this deal's record passed, as validate -v lists them."""
    from priffe_records.cli.rules import passed_lines  # the score sheet's modules: only for -v

    record = r.record
    found = [f.at_record(r.index)
             for f in (*r.findings, *r.other_findings, *([r.stop] if r.stop else []))]
    return list(passed_lines({r.index: present(record)}, found,
                              {r.index: record.get("Board")}))


ShownT = TypeVar("ShownT", DealReplay, Unreadable, Shown)  # as given


class _Analyses:
    """--dd: each deal's analysis within the budget, made when the deal is first shown, so
    the first deal of a file (or the first position of --step) does not wait for the
    others' searches; ``seconds`` None: no --dd.

    On a terminal (stderr) the search runs in a worker process while one line says how
    far it is; the first Ctrl-C stops it and the deal is shown with what is known, a
    later one ends the replay as without --dd. A search lost (its worker died) costs only
    its deal: ``lost`` says why, where the analysis would be, and the exit status is 1.
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self._views: dict[int, DDView | Message | None] = {}
        self.interrupted = False
        self.lost: dict[int, Message] = {}
        self.told = False  # the legend of "−1" is said

    def view(self, r: DealReplay) -> DDView | Message | None:
        """The deal's analysis, or the line that says why it has none; None when its
        search was lost (``lost`` says why)."""
        if r.index not in self._views:
            from priffe_records.dd import Budget, SearchLost
            from priffe_records.replay.dd import DDView
            from priffe_records.replay.dd import analyse as dd_analyse

            line = _ProgressLine(r.record.get("Board"), self.seconds or 0.0)
            view = None
            try:
                view = dd_analyse(r.record, Budget(seconds=self.seconds),
                                  progress=line.show if line.live else None,
                                  background=line.live,
                                  keep_on_interrupt=not self.interrupted)
            except SearchLost as e:
                self.lost[r.index] = msg("Double dummy: {reason}", reason=e.message)
            finally:
                line.clear()
            self.interrupted = self.interrupted or (isinstance(view, DDView)
                                                    and view.play.interrupted)
            self._views[r.index] = view
        return self._views[r.index]

    def marked(self, r: ShownT) -> ShownT:
        """A deal's cards marked with their cost (``♠K −1``) where tricks are drawn."""
        if self.seconds is None or isinstance(r, Unreadable):
            return r
        from priffe_records.replay.dd import DDView, annotate

        view = self.view(r)
        return replace(r, tricks=annotate(r.tricks, view)) if isinstance(view, DDView) else r

    def text(self, r: DealReplay, trick: int | None = None) -> str:
        """The lines under a deal (or, stepping, under its trick ``trick``), or why none."""
        if self.seconds is None:
            return ""
        from priffe_records.replay.dd import DDView, dd_lines

        view = self.view(r)
        if r.index in self.lost:
            return f"{self.lost[r.index]}\n"
        if not isinstance(view, DDView):
            return f"{view}\n"
        lines = list(dd_lines(view, trick, explain=not self.told))
        self.told = self.told or any(c.cost for c in view.play.cards
                                     if trick is None or c.trick == trick)
        if not view.play.interrupted and any(c.cost is None for c in view.play.cards
                                             if trick is None or c.trick == trick):
            lines.append(msg("  the search had {seconds} s (--dd-budget); a larger budget "
                             "analyses further back", seconds=number(self.seconds or 0.0)))
        return "".join(f"{line}\n" for line in lines)


NO_DD = _Analyses(None)


class _ProgressLine:
    """One line on stderr, redrawn in place while a deal is analysed, erased before the
    replay prints; only where stderr is a terminal (``live``)."""

    def __init__(self, board: str | None, budget: float) -> None:
        self.board = board or "?"
        self.budget = budget
        self.live = sys.stderr.isatty()
        self.drawn = False

    def show(self, p: Progress) -> None:
        seconds, budget = number(round(p.seconds)), number(round(self.budget))
        if p.trick is None:
            text = msg("Double dummy, board {board}: searching, {seconds} s of {budget} s",
                       board=self.board, seconds=seconds, budget=budget)
        else:  # the sweep goes backwards: the count of whole tricks known grows
            text = msg_n("Double dummy, board {board}: {n} of {tricks} tricks analysed (from "
                         "trick {trick} on), {seconds} s of {budget} s",
                         "Double dummy, board {board}: {n} of {tricks} tricks analysed (from "
                         "trick {trick} on), {seconds} s of {budget} s",
                         p.tricks - p.trick + 1, board=self.board, trick=p.trick,
                         tricks=p.tricks, seconds=seconds, budget=budget)
        sys.stderr.write(f"\r{text}{ERASE_TO_END}")
        sys.stderr.flush()
        self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            sys.stderr.write(f"\r{ERASE_TO_END}")
            sys.stderr.flush()


ERASE_TO_END = "\x1b[K"  # erase from the cursor to the line's end


def _listed(replays: Sequence[Shown]) -> list[bool]:
    """Which deals are score sheets right under another: listed one a line, no blank
    line between, and the first of the run alone says there is nothing to replay."""
    sheets = [isinstance(r, DealReplay) and sheet_only(r) for r in replays]
    return [i > 0 and sheets[i - 1] and here for i, here in enumerate(sheets)]


def _show_all(replays: Sequence[Shown], w: Words, interactive: bool,
              verbose: bool = False, notes: _Analyses = NO_DD) -> None:
    out = sys.stdout
    listed = _listed(replays)
    if not interactive:
        for i, given in enumerate(replays):
            r = notes.marked(given)
            if isinstance(r, Unreadable):
                out.write(("\n" if i else "") + r.text())
                continue
            gap = "\n" if i and not listed[i] else ""
            out.write(gap + _plain(r, w, listed[i]) + ("" if listed[i] else notes.text(r)))
            for line in _passed(r) if verbose else ():
                out.write(line.plain + "\n")
        return
    from rich.console import Console
    from rich.text import Text

    from priffe_records.replay.terminal import full_view

    console = Console(file=out, highlight=False)
    for i, given in enumerate(replays):
        r = notes.marked(given)
        if i and not listed[i]:
            console.print()
        if isinstance(r, Unreadable):
            console.print(Text(r.text().rstrip("\n"), style="red"))
            continue
        console.print(full_view(r, w, listed[i]), soft_wrap=not r.playable)
        if notes.seconds is not None and not listed[i]:
            console.print(Text(notes.text(r).rstrip("\n")))
        for line in _passed(r) if verbose else ():
            console.print(line)


def _step(replays: Sequence[DealReplay], w: Words, notes: _Analyses = NO_DD) -> None:
    """Walk every selected deal, position by position, one key press at a time."""
    from rich.console import Console
    from rich.text import Text

    from priffe_records.replay.terminal import step_count, step_view

    positions = [(r, k) for r in replays for k in range(step_count(r))]
    colour = not _no_color()
    console = Console(file=sys.stdout, highlight=False,
                      color_system="auto" if colour else None)

    def show(pos: int) -> None:
        given, k = positions[pos]
        r = notes.marked(given)
        assert not isinstance(r, Unreadable)
        if colour:
            console.clear()
        else:
            console.rule()
        console.print(step_view(r, w, k))
        if notes.seconds is not None:  # the trick just played, or the value at the deal
            console.print(Text(notes.text(r, k).rstrip("\n")))

    try:
        walk(len(positions), show, _step_key)
    finally:  # q, the last Next, Ctrl-C: the key help is no use any more
        console.file.write(CLEAR_LAST_LINE)
        console.file.flush()


# Cursor up one line, erase it: the step view ends with the key help and a newline.
CLEAR_LAST_LINE = "\x1b[1A\x1b[2K"
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C


def _step_key() -> str:
    """The next key; Ctrl-C (read as a key in raw mode) interrupts, as it does elsewhere."""
    key = read_key()
    if key == "ctrl-c":
        raise KeyboardInterrupt
    return key


def _on_terminal() -> bool:
    """--step needs a keyboard and a screen; a pipe gets every position at once."""
    return sys.stdout.isatty() and sys.stdin.isatty()


def _records(file: str | None, db: str | None, deal_id: int | None
             ) -> tuple[list[Record | BadRecord], int, str]:
    """The records to replay, the 1-based position of the one asked for by ``--id`` (0:
    all), and the input's name for messages."""
    if db is not None or deal_id is not None:
        if file is not None or db is None or deal_id is None:
            raise UserError(msg("use either FILE or --db FILE --id N"))
        records, index = _db_records(db, deal_id)
        name = db
    elif file is None:
        raise UserError(msg("name a FILE to replay (or --db FILE --id N)"))
    else:
        name = display_name(file)
        if not is_stdin(file):
            refuse_binary(file)
        with open_input(file) as stream, collector_paused():  # kept to the end
            records, index = list(read(stream, errors="collect", name=name)), 0
    if not records:
        raise UserError(msg("{file}: no records", file=name))
    return records, index, name


@click.command("replay")
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--board", type=int, metavar="N", help="Only the deal with this Board number.")
@click.option("--rubber", type=int, metavar="R", help="Only deals of this rubber.")
@click.option("--db", "db", type=click.Path(dir_okay=False), metavar="FILE",
              help="Read the deal from this archive database (with --id).")
@click.option("--id", "deal_id", type=int, metavar="N", help="The deal's id in the archive.")
@preset_option
@click.option("--step", is_flag=True,
              help="On a terminal, wait for a key between tricks (Enter/space/→ next, ← or b "
                   "back, q quit).")
@click.option("--html", "html", type=click.Path(dir_okay=False), metavar="OUT.html",
              help="Write a self-contained HTML hand viewer instead (all deals, with a deal "
                   "selector, unless --board is given).")
@click.option("--dd", is_flag=True,
              help="Also each card's double-dummy cost against the best card (♠K −1: ♠K gave "
                   "away one trick against best play with all hands known), the best cards "
                   "where it cost a trick, and the deal's value at the start.")
@click.option("--dd-budget", type=click.FloatRange(min=0, min_open=True), default=60.0,
              show_default=True, metavar="SECONDS",
              help="Seconds of wall time the --dd search may take per deal (on a terminal "
                   "one line shows how far it is; Ctrl-C stops it). It goes from the last "
                   "card back: the cards it does not reach, the first tricks of a misère, are "
                   "shown with ? as not analysed yet.")
@quiet_verbose_options(quiet="Errors only: no warnings or unverifiable rules in the checks.",
                       verbose="Also list each check that passed, after each deal.")
def replay_command(file: str | None, board: int | None, rubber: int | None, db: str | None,
                   deal_id: int | None, options: object, step: bool,
                   html: str | None, dd: bool, dd_budget: float, quiet: bool,
                   verbose: bool) -> None:
    """Replay deals of FILE trick by trick: hands, auction, every trick, the score.

    Each trick shows its cards in the order played, who led and who won (as
    the validator replays them), and the tricks per side so far; the score
    breakdown names its rules (R15–R21). An illegal move is shown where it
    happens, with the validator's message, and the replay stops there
    (exit status 1). Piped output is plain text, as is NO_COLOR.
    """
    w = words(language())  # --lang, PRIFFE_LANG or the locale (cli/common.py)
    with user_errors():
        records, index, name = _records(file, db, deal_id)
        with collector_paused():  # every deal is kept to the end: nothing to collect
            replays = replays_of(records, options)
        if index:
            replays = [replays[index - 1]]
        shown = _select(replays, name, board, rubber)
        _check_game(shown)
        chosen = [r if isinstance(r, Unreadable) or not quiet else _errors_only(r)
                  for r in shown]
        notes = _Analyses(dd_budget if dd else None)
        if html is not None:
            pages = [notes.marked(r) for r in chosen if not isinstance(r, Unreadable)]
            for r in chosen:
                if isinstance(r, Unreadable):  # the others are on the page; it says why not
                    click.echo(r.text().rstrip("\n"), err=True)
            if pages or not chosen:
                from priffe_records.replay.html import write_page

                with collector_paused():
                    write_page(html, pages, w)
                for i, why in notes.lost.items():  # the page has the deal, unmarked
                    click.echo(str(msg("record {record}: {why}", record=i, why=why)), err=True)
                click.echo(str(msg_n("wrote {file} ({n} deal)", "wrote {file} ({n} deals)",
                                     len(pages), file=html)), err=True)
        else:
            try:
                if step and _on_terminal():
                    _step([r for r in chosen if not isinstance(r, Unreadable)], w, notes)
                else:
                    _show_all(chosen, w, sys.stdout.isatty() and not _no_color(), verbose,
                              notes)
            except BrokenPipeError:
                quiet_stdout()  # `priffe replay … | head`: the reader has all it wants
            except KeyboardInterrupt:
                sys.exit(EXIT_INTERRUPTED)
    stopped = bool(notes.lost) or any(isinstance(r, Unreadable) or r.stop is not None
                                      for r in chosen)
    sys.exit(EXIT_FINDINGS if stopped or _not_replayed(chosen, board is not None or bool(index))
             else EXIT_OK)


def _not_replayed(chosen: Sequence[Shown], singled_out: bool) -> bool:
    """Exit 1 when a deal is shown with an error (a card dealt twice, a misspelt call, a
    wrong claim: whatever the error, as validate's exit status), or when the one deal
    asked for (``--board``, ``--id``) has nothing to replay."""
    deals = [r for r in chosen if isinstance(r, DealReplay)]
    return any(r.shows_error for r in deals) or (
        singled_out and len(chosen) == 1 and bool(deals) and not deals[0].playable)


COMMANDS: list[click.Command] = [replay_command]
