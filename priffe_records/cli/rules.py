"""``priffe validate`` and ``priffe score``: the rules engine on the command line.

The commands only read files, call :func:`priffe_records.rules.validate.validate`
or each family's ``partie_sheet`` hook (through :mod:`priffe_records.cli.sheet_page`), and
render the result; every
rule lives in the library.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from typing import IO

import click
import rich.progress
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.text import Text

from priffe_records.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_UNUSABLE,
    JOBS_OPTION,
    UserError,
    preset_option,
    quiet_verbose_options,
    user_errors,
)
from priffe_records.cli.inputs import (
    display_name,
    expand_paths,
    is_stdin,
    open_input,
    refuse_binary,
)
from priffe_records.cli.output import Output, emit, output_options
from priffe_records.cli.report import FindingsReport, SheetView, sheet_console, summary
from priffe_records.cli.sheet_page import (
    filled_records,
    printable_page,
    scored,
    sheet_csv,
    sheets_of,
)
from priffe_records.format.atomic import write_bytes_atomically, write_text_atomically
from priffe_records.format.errors import BadRecord, PPNSyntaxError, no_records
from priffe_records.format.reader import read
from priffe_records.format.record import Record
from priffe_records.format.splitter import Decoded, TextFacts
from priffe_records.format.writer import dumps, write
from priffe_records.game.language import msg, msg_n, msg_p
from priffe_records.rules.checks import passed, present
from priffe_records.rules.family import Check, Sheet
from priffe_records.rules.findings import Finding, Severity
from priffe_records.rules.parallel import checked, default_jobs
from priffe_records.rules.partie import findings
from priffe_records.rules.repeats import Kind, counted, counted_by, is_unchecked


@contextmanager
def _no_traceback(path: Path | str) -> Iterator[None]:
    """Library and OS errors as one line; anything else is our bug, still without a traceback."""
    try:
        with user_errors():
            yield
    except (UserError, click.exceptions.Exit, SystemExit):
        raise
    except Exception as e:  # a bug must not show the user a traceback
        raise UserError(msg("{file}: internal error ({error}); please report it with this file",
                            file=path, error=type(e).__name__ + ": " + str(e))) from None


@contextmanager
def _opened(path: Path) -> Iterator[IO[bytes]]:
    """The file as bytes; with a progress bar on a terminal when it takes a while to read."""
    if is_stdin(path):
        with open_input(path) as fh:
            yield fh
    elif _stderr_is_terminal() and path.stat().st_size > PROGRESS_BYTES:
        with rich.progress.open(path, "rb", description=str(msg("checking {file}",
                                                                 file=path.name)),
                                transient=True, console=Console(stderr=True)) as fh:
            yield fh
    else:
        with open(path, "rb") as fh:
            yield fh


PROGRESS_BYTES = 2_000_000  # about 3,000 deals: a second or more of work


def _stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


class Boards(Mapping[int, "str | None"]):
    """Each record's Board by record number, 8 bytes a record: a plain number is kept as
    an int in an array, anything else (rare) in a dict. A dict of strings cost ~100 bytes
    a record, the largest share of what a long file's grouped report held."""

    _NONE, _OTHER = -1, -2

    def __init__(self) -> None:
        self._numbers = array("q")
        self._other: dict[int, str] = {}

    def append(self, board: str | None) -> None:
        """The next record's Board (record numbers count from 1, as the reader's)."""
        if board is None:
            self._numbers.append(self._NONE)
        elif board.isascii() and board.isdigit() and str(int(board)) == board \
                and len(board) < 18:
            self._numbers.append(int(board))
        else:
            self._other[len(self._numbers) + 1] = board
            self._numbers.append(self._OTHER)

    def __getitem__(self, record: int) -> str | None:
        if not 1 <= record <= len(self._numbers):
            raise KeyError(record)
        n = self._numbers[record - 1]
        return None if n == self._NONE else self._other[record] if n == self._OTHER \
            else str(n)

    def __iter__(self) -> Iterator[int]:
        return iter(range(1, len(self._numbers) + 1))

    def __len__(self) -> int:
        return len(self._numbers)


FINDING_COLUMNS = ("file", "line", "column", "record", "rule", "severity", "message")


def _finding_row(f: Finding) -> tuple[object, ...]:
    d = f.to_dict()
    return tuple(d[c] for c in FINDING_COLUMNS)


def passed_lines(checks: dict[int, tuple[Check, ...]], findings: Sequence[Finding],
                  boards: Mapping[int, str | None]) -> Iterator[Text]:
    """-v: each check that passed, record by record."""
    rules: dict[int, list[str]] = {}
    for f in findings:
        rules.setdefault(f.record or 0, []).extend(f.rules)
    for rec, present_checks in checks.items():
        ok = passed(present_checks, rules.get(rec, []))
        if not ok:
            continue
        board = boards.get(rec)
        label = (msg("record {record} (board {board})", record=rec, board=board) if board
                 else msg("record {record}", record=rec))
        yield Text(f"  {label}", style="cyan")
        word = str(msg_p("check", "passed"))
        for c in ok:
            line = Text("    ")
            line.append(f"{word:<13}", style="green")
            line.append(f"{c.rules:<8} ")
            line.append(str(c.word))
            yield line


def _reader_kind(e: PPNSyntaxError) -> Kind:
    """A reader's error as the PPN findings it becomes: counted alike when repeated."""
    return ("PPN", Severity.WARNING if e.is_warning else Severity.ERROR, e.message)


@click.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@output_options()
@click.option("--conventions", is_flag=True,
              help="Also warn about opening bids the conventions do not allow (R9).")
@quiet_verbose_options()
@JOBS_OPTION
@preset_option
def validate_command(files: tuple[str, ...], out: Output, conventions: bool, quiet: bool,
                     verbose: bool, options: object, jobs: int | None) -> None:
    """Check FILES against the Priffe rules (RULES.md R1–R24) and their claimed scores.

    Exit status: 0 no errors, 1 errors found, 2 unusable input. FILES may be
    folders (every .ppn/.pbn file below them); '-' reads standard input.
    Without an output option the findings are grouped by record; --table,
    --csv, --tsv, --json/--nl give one row per finding.
    """
    console = sheet_console(piped=120)  # the findings report: 120 columns when piped
    run = _Run(options, conventions, jobs)
    paths: list[Path] = []
    for given in files:  # one bad path or file never hides the others
        try:
            with user_errors():
                paths += expand_paths((given,))
        except UserError as e:
            e.show()
            run.unusable.append(e)
    run.files = len(paths)  # the summary counts the files that were checked
    if out.chosen:  # a row per finding, printed as its partie ends: memory stays flat
        emit(FINDING_COLUMNS, (_finding_row(f) for path in paths
                               for f in run.findings(path, None, None)
                               if f.is_error or not quiet), out)
    for path in paths if not out.chosen else ():
        # Grouped by record, with a count in the file's head line: one file at a time.
        boards = Boards()
        checks: dict[int, tuple[Check, ...]] | None = {} if verbose else None
        failed = len(run.unusable)
        found = [f if verbose else _worded(f) for f in run.findings(path, boards, checks)
                 if verbose or f.is_error or not quiet]
        if len(run.unusable) > failed:
            continue
        shown = [f for f in found if f.is_error] if quiet else found
        if shown:
            # Piped, a finding is one line however long (issue 11): grep and files
            # get whole messages, not text hard-wrapped at 120 columns.
            _print_by_pieces(console, FindingsReport(display_name(path), shown, boards),
                             soft_wrap=not console.is_terminal)
        if checks is not None:
            if not shown:
                console.print(Text(display_name(path), style="bold"))
            if run.facts is not None:  # how the file was read: Latin-1, CRLF, a BOM
                console.print(Text(f"  {run.facts.described()}", style="cyan"))
            for line in passed_lines(checks, found, boards):
                console.print(line)
    if run.unusable and not run.files:
        sys.exit(EXIT_UNUSABLE)  # nothing was checked: its error said so, no "0 files" summary
    errors = run.counts[Severity.ERROR]
    total = str(msg("{errors} in {files} ({records})",  # -q: errors only
                    errors=msg_n("{n} error", "{n} errors", errors),
                    files=msg_n("{n} file", "{n} files", run.files),
                    records=msg_n("{n} record", "{n} records", run.records))) if quiet else \
        summary(run.counts, run.files, run.records)
    if out.chosen:
        click.echo(total, err=True)
    else:
        console.print(total, style="bold")
    if run.unusable:
        sys.exit(EXIT_UNUSABLE)
    sys.exit(EXIT_FINDINGS if errors else EXIT_OK)


@dataclass(frozen=True)
class _Piece:
    """Some of a renderable's lines, rendered as the whole renderable would render them."""

    items: list[RenderableType | Segment]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.items


def _print_by_pieces(console: Console, report: FindingsReport, soft_wrap: bool,
                     lines: int = 256) -> None:
    """``console.print(report)``, a few hundred of its lines at a time: rich renders all
    of a print's segments before it writes any (~1 KB a finding, which a long file's
    report held at once). The report's lines are whole lines, so the output is the same."""
    items = report.__rich_console__(console, console.options)
    while piece := list(islice(items, lines)):
        console.print(_Piece(piece), soft_wrap=soft_wrap)


def _worded(f: Finding) -> Finding:
    """``f`` as the grouped report prints it, its words rendered now: a message keeps its
    parameters (totals, nested messages: ~1 KB a finding) until it is printed, and a
    long file's report holds every finding of the file. The "not checked" note keeps
    its message: the report counts those notes by its id (rules/repeats.py)."""
    if isinstance(f.text, str) or is_unchecked(f):
        return f
    return replace(f, text=f.message)


class _Run:
    """One ``validate`` run: the files' findings as they come, and what the summary needs
    of them (counts by severity, records, files) instead of the findings themselves."""

    def __init__(self, options: object, conventions: bool, jobs: int | None) -> None:
        self.options, self.conventions, self.jobs = options, conventions, jobs
        self.counts = dict.fromkeys(Severity, 0)
        self.records = 0
        self.files = 0
        self.unusable: list[UserError] = []
        self._file_records = 0  # records read of the file being checked
        self.facts: TextFacts | None = None  # -v: how the last file was decoded

    def findings(self, path: Path, boards: Boards | None,
                 checks: dict[int, tuple[Check, ...]] | None) -> Iterator[Finding]:
        """``path``'s findings, each partie's as it ends, and (unless None) each record's
        Board in ``boards``; an unusable file is reported and not counted (findings it
        gave before the error are printed already)."""
        counts = dict.fromkeys(Severity, 0)
        self._file_records = 0
        try:
            for f in self._found(path, boards, checks):
                counts[f.severity] += 1
                yield f
        except UserError as e:
            e.show()
            self.unusable.append(e)
            self.files -= 1
            return
        self.records += self._file_records
        for severity, n in counts.items():
            self.counts[severity] += n

    def _found(self, path: Path, boards: Boards | None,
               checks: dict[int, tuple[Check, ...]] | None) -> Iterator[Finding]:
        # -v lists the checks record by record: that needs the records here, one process.
        workers = 1 if checks is not None or not path.is_file() \
            else self.jobs or default_jobs(path)
        name = display_name(path)
        here = findings(self._tracked(path, name, boards, checks), options=self.options,
                        conventions=self.conventions)  # read only if the file is not cut
        with _no_traceback(path):
            yield from checked(path, lambda board: self._noted(board, boards), here=here,
                               name=name, jobs=workers, options=self.options,
                               conventions=self.conventions)
        if not self._file_records:
            said = no_records(name)
            yield Finding("PPN", Severity.WARNING, said.text, said.location)

    def _noted(self, board: str | None, boards: Boards | None) -> None:
        """One more record of the file, and its Board for the report."""
        self._file_records += 1
        if boards is not None:
            boards.append(board)

    def _tracked(self, path: Path, name: str, boards: Boards | None,
                 checks: dict[int, tuple[Check, ...]] | None) -> Iterator[Record | BadRecord]:
        """The records of ``path`` read here (opened only then: a file the workers check
        shows no progress bar), each noted as it passes, for -v with its checks."""
        with _opened(path) as stream:
            source = stream if checks is None else Decoded(stream)  # -v says how it read
            self.facts = source.facts if isinstance(source, Decoded) else None
            for i, rec in enumerate(read(source, errors="collect", name=name), 1):
                self._noted(rec.get("Board") if isinstance(rec, Record) else None, boards)
                if checks is not None and isinstance(rec, Record):
                    checks[i] = present(rec)
                yield rec


@click.command("score")
@click.argument("file", type=click.Path())
@click.option("--fill", is_flag=True,
              help="Write the file back in export format with Score, Honours, ScoreRubber and "
                   "Settlement filled in.")
@click.option("--force", is_flag=True,
              help="With --fill: replace wrong claimed values instead of refusing.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="With --fill: write here ('-' for stdout) instead of rewriting FILE.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the score sheet as a printable page (one A4 page a partie) here.")
@click.option("--csv", "csv_out", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the deals as spreadsheet rows here (what sheet-import reads), as "
                   "standard CSV: commas, UTF-8. Swedish Excel wants semicolons: for Excel "
                   "use --xlsx.")
@click.option("--xlsx", "xlsx_out", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the same rows as an Excel workbook here, one sheet a partie, numbers "
                   "as numbers (needs openpyxl, the 'sheet' extra).")
@quiet_verbose_options(quiet="Errors only: no score sheet.",
                       verbose="Also list each check that passed, record by record.")
@preset_option
def score_command(file: str, fill: bool, force: bool, output: str | None, html_out: str | None,
                  csv_out: str | None, xlsx_out: str | None, options: object, quiet: bool,
                  verbose: bool) -> None:
    """Print the score sheet of the partie(s) in FILE: deals, rubber ends, standings.

    FILE may be a folder: every .ppn/.pbn file below it, one after the other
    (--fill rewrites each). FILE '-' reads standard input; with --fill the
    filled records then go to standard output and the sheet to standard error.
    """
    if not is_stdin(file) and not Path(file).exists():
        raise UserError(msg("{file}: no such file", file=file))
    with user_errors():
        paths = [Path(file)] if is_stdin(file) else list(expand_paths((file,)))
    writes = [o for o, given in (("-o", output), ("--html", html_out), ("--csv", csv_out),
                                 ("--xlsx", xlsx_out)) if given]
    if len(paths) > 1 and writes:
        raise UserError(msg_n("{options}: one file at a time, and the folder {folder} holds "
                              "{n} file", "{options}: one file at a time, and the folder "
                              "{folder} holds {n} files", len(paths), options=", ".join(writes),
                              folder=file))
    worst = EXIT_OK
    for path in paths:
        if len(paths) > 1 and not quiet:
            sheet_console().print(Text(display_name(path), style="bold"))
        try:
            code = _score_file(path, fill, force, output, (html_out, csv_out, xlsx_out),
                               options, quiet, verbose)
        except UserError as e:  # one file's trouble does not hide the others
            if len(paths) == 1:
                raise
            e.show()
            code = e.exit_code
        worst = max(worst, code)
    sys.exit(worst)


def _score_file(path: Path, fill: bool, force: bool, output: str | None,
                sheet_files: tuple[str | None, str | None, str | None], options: object,
                quiet: bool, verbose: bool) -> int:
    """``score`` of one file (or standard input): its exit status."""
    to_stdout = output == "-" or (fill and output is None and is_stdin(path))
    console = sheet_console(stderr=to_stdout)  # the filled records own stdout then
    name = display_name(path)
    with _no_traceback(name):
        if not is_stdin(path):
            refuse_binary(path)
        with open_input(path) as stream:
            records = list(read(stream, errors="collect", name=name))
        # A record with a part that could not be read is not filled in either.
        bad = [r for r in records if isinstance(r, BadRecord) or r.unread]
        for e in counted_by((e for b in bad for e in b.errors), _reader_kind):
            click.echo(str(e), err=True)
        by_family = scored(records, options)
        sheets = sheets_of(by_family)
        if any(sheet_files):  # the sheet goes to the file(s), not the terminal
            _write_sheets(*sheet_files, records, sheets)
            quiet = True
    for sheet in sheets if not quiet else ():
        if sheet.rows:
            console.print(SheetView(sheet), crop=False)  # its lines fit: none to cut
    if verbose:
        found = [f for s in sheets for f in s.findings]
        checks = {i: present(r) for i, r in enumerate(records, 1) if isinstance(r, Record)}
        boards = {i: r.get("Board") if isinstance(r, Record) else None
                  for i, r in enumerate(records, 1)}
        for line in passed_lines(checks, found, boards):
            console.print(line)
    if not any(sheet.rows for sheet in sheets):
        click.echo(str(msg("{file}: no deals to score", file=name)), err=True)
    errors = [f for s in sheets for f in s.findings if f.is_error]
    # An unreadable record's errors were shown above, with the line and a caret.
    shown = {(str(e.location), e.message) for b in bad for e in b.errors}
    for f in counted(f for f in errors
                     if f.rule != "PPN" or (str(f.location), f.message) not in shown):
        click.echo(str(f), err=True)
    if not fill:
        return EXIT_FINDINGS if errors else EXIT_OK
    if bad:
        raise UserError(msg_n("{file}: {n} record could not be read; nothing written",
                              "{file}: {n} records could not be read; nothing written",
                              len(bad), file=name), EXIT_FINDINGS)
    if errors and not force:
        raise UserError(msg_n("{file}: {n} error above; nothing written (use --force to "
                              "write the computed values anyway)",
                              "{file}: {n} errors above; nothing written (use --force to "
                              "write the computed values anyway)", len(errors), file=name),
                        EXIT_FINDINGS)
    good = [r for r in records if isinstance(r, Record)]
    filled = filled_records(good, by_family)
    with _no_traceback(output or name):
        if to_stdout:  # standard input has no file to rewrite
            sys.stdout.write(dumps(filled))
        else:
            target = Path(output) if output else path
            write(filled, target)  # atomic: a temporary file, then os.replace
            click.echo(str(msg("filled {file}", file=target)), err=True)
    return EXIT_OK


def _write_sheets(html_path: str | None, csv_path: str | None, xlsx_path: str | None,
                  records: Sequence[Record | BadRecord], sheets: Sequence[Sheet]) -> None:
    """``score --html``, ``--csv`` and ``--xlsx``: each to its path ('-': standard output),
    atomically."""
    if html_path:
        _write(html_path, printable_page(records, sheets))
    if csv_path:
        _write(csv_path, sheet_csv(records, sheets))
    if xlsx_path:
        from priffe_records.cli.sheet_book import sheet_xlsx

        book = sheet_xlsx(records, sheets)
        if xlsx_path == "-":
            sys.stdout.buffer.write(book)
        else:
            write_bytes_atomically(xlsx_path, book)


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
    else:
        write_text_atomically(path, text)


COMMANDS: list[click.Command] = [validate_command, score_command]
