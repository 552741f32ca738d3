"""``priffe import / query / sql / stats / export / metadata``: the archive commands.

The library (:mod:`priffe_records.archive.store` and friends) does the work; this
module parses options, shows progress and tables, and turns every failure
into one ``priffe: …`` line (exit 2) instead of a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

import click
import sqlite_utils

from priffe_records.archive import stored_messages
from priffe_records.archive.metadata import ensure_metadata, write_metadata
from priffe_records.archive.schema import (
    DEFAULT_TIMEOUT,
    ArchiveError,
    ensure_schema,
    open_archive,
)
from priffe_records.cli.analyse import budget_options, run_analysis
from priffe_records.cli.archive_errors import archive_errors
from priffe_records.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_UNUSABLE,
    FORCE_OPTION,
    GAME_CHOICE,
    JOBS_OPTION,
    UserError,
    quiet_verbose_options,
    refuse_existing,
)
from priffe_records.cli.inputs import display_name, expand_paths, is_stdin, stdin_bytes
from priffe_records.cli.output import Output, emit, json_objects, output_options
from priffe_records.cli.seat_options import SIDE_CHOICE
from priffe_records.game.language import msg, msg_n

# The reader, the engine, the queries and rich load in the command that needs them:
# importing a file stored unchanged costs start-up, its hash and one query.
if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from priffe_records.archive.query import Filters
    from priffe_records.archive.store import FileSummary

F = TypeVar("F", bound=Callable[..., Any])


def db_option(f: F) -> F:
    f = click.option("--timeout", type=click.FloatRange(min=0), default=DEFAULT_TIMEOUT,
                     show_default=True,
                     help="Seconds to wait while another process writes the database.")(f)
    return click.option("--db", "db_path", type=click.Path(dir_okay=False),
                        default="priffe.db", show_default=True,
                        help="The archive database (SQLite).")(f)


def filter_options(f: F) -> F:
    """The deal filters shared by query and export (see archive_query.Filters)."""
    options = [
        click.option("--player", help="Deals NAME played, in any seat."),
        click.option("--partner", help="…with this partner (needs --player)."),
        click.option("--opponent", help="…against this opponent (needs --player)."),
        click.option("--event", help="Event contains this text."),
        click.option("--site", help="Site contains this text."),
        click.option("--date-from", help="On or after this date (YYYY.MM.DD or YYYY-MM-DD)."),
        click.option("--date-to", help="On or before this date."),
        click.option("--contract", help="Spela, Noll, Hjärter, Ruter, Tvångsnoll or Passnoll."),
        click.option("--declarer-side", type=SIDE_CHOICE,
                     help="The declaring side."),
        click.option("--made/--defeated", default=None,
                     help="The declaring side reached its aim (R14), or did not."),
        click.option("--slam", is_flag=True, help="Small or grand slams (R16)."),
        click.option("--errors/--clean", default=None,
                     help="Records with rule errors (or unreadable), or without."),
        click.option("--text", help="Full-text search: event, site, players, commentary."),
        click.option("--game", type=GAME_CHOICE,
                     help="Only deals of this game family."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _filters(kw: dict[str, Any]) -> Filters:
    from priffe_records.archive.query import Filters

    return Filters(**{k: kw.pop(k) for k in list(kw) if k in Filters.__dataclass_fields__})


def _open_readonly(db_path: str, timeout: float) -> sqlite_utils.Database:
    db = open_archive(db_path, readonly=True, timeout=timeout)
    if "deals" not in db.table_names():
        db.close()
        raise ArchiveError(msg("{name}: not a priffe archive yet (import records with "
                               "'priffe import')", name=db_path))
    return db


# ---------------------------------------------------------------- import


@click.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@db_option
@click.option("--reject-invalid", is_flag=True,
              help="Skip records with rule errors or syntax errors instead of storing them "
                   "flagged.")
@JOBS_OPTION
@click.option("--as-new", is_flag=True,
              help="Store the files' parties as new ones, even where a stored partie has "
                   "the same Event, Site, Date and players (another evening of that name).")
@click.option("--analyse", is_flag=True,
              help="Then analyse the deals double dummy, as 'priffe analyse' does.")
@budget_options
@quiet_verbose_options(quiet="Errors only: no line per file, no totals.", verbose=None)
def import_command(paths: tuple[str, ...], db_path: str, timeout: float,
                   reject_invalid: bool, jobs: int | None, as_new: bool, analyse: bool,
                   budget: float | None, nodes: int | None, quiet: bool) -> None:
    """Import PPN/PBN files (folders: every .ppn/.pbn below; '-' standard input) into the archive.

    Every record is stored with its validator findings; records that break a
    rule, and records with syntax errors (their raw text), are kept and
    flagged unless --reject-invalid. Each file is one transaction: an
    interrupted import leaves the database as it was before that file.
    Records already in the archive are skipped (same canonical text). A
    partie is known by its Event, Site, Date and players, not by the file's
    name; a record replaces a stored one only when it is the same deal at
    the same table, and each replacement is listed (file and line of both).
    """
    from priffe_records.archive.importing import SourceError, import_file

    totals = dict.fromkeys(("records", "new", "duplicates", "updated", "with_errors",
                            "unreadable", "rejected"), 0)
    failed = missing = 0
    files: list[Path] = []
    for given in paths:  # a missing path costs itself, not the others
        try:
            files += expand_paths((given,))
        except UserError as e:
            click.echo("priffe: " + str(msg("{error}; not imported", error=e.format_message())),
                       err=True)
            missing += 1
    with archive_errors(db_path):
        db = open_archive(db_path, timeout=timeout)
        ensure_schema(db, timeout)
        ensure_metadata(db_path)  # NAME.metadata.json; refreshed after a schema change
        with _Progress() as progress:
            for path in files:
                try:
                    source: Path | IO[bytes] = (stdin_bytes() if is_stdin(path)
                                                else path)
                    with progress.file(path) as tick:
                        s = import_file(db, source, name=display_name(path),
                                        reject_invalid=reject_invalid, progress=tick,
                                        jobs=jobs, as_new=as_new)
                except SourceError as e:
                    progress.say(f"priffe: {e}", err=True)
                    failed += 1
                    continue
                except KeyboardInterrupt:
                    progress.say("priffe: " + str(msg(
                        "interrupted: {file} was rolled back; the files before it are stored",
                        file=path)), err=True)
                    sys.exit(130)
                except ArchiveError:
                    raise  # the database, not the file: the next file would fail too
                except Exception as e:  # our bug: this file is rolled back, the others go on
                    bug = f"{type(e).__name__}: {e}"
                    progress.say("priffe: " + str(msg(
                        "{file}: internal error ({error}); nothing of it was imported; please "
                        "report it with this file", file=path, error=bug)), err=True)
                    failed += 1
                    continue
                if not quiet:
                    for r in s.replaced:
                        progress.say(str(msg("{file}:{line}: replaces deal {id}, stored from "
                                             "{old}:{old_line} (kept in deal_history)",
                                             file=r.source, line=r.line, id=r.deal_id,
                                             old=r.old_source, old_line=r.old_line)))
                    progress.say(_summary_line(s))
                    if s.parties:  # a file stored unchanged stored no partie
                        from priffe_records.archive.query import split_names

                        for line in split_names(db, s.parties):
                            progress.say("priffe: " + str(line), err=True)
                for k in totals:
                    totals[k] += getattr(s, k)
        db.close()
    t = totals
    if not quiet:
        click.echo(str(msg_n("{n} file", "{n} files", len(files) - failed)) + ", "
                   + _counts(t["records"], t["new"], t["updated"], t["duplicates"],
                             t["with_errors"], t["rejected"])
                   + (str(msg_n(" ({n} unreadable)", " ({n} unreadable)", t["unreadable"]))
                      if t["unreadable"] else "")
                   + (str(msg_n("; {n} file not imported", "; {n} files not imported",
                                failed + missing)) if failed + missing else ""))
    code = EXIT_UNUSABLE if failed + missing else EXIT_OK
    if analyse:  # what was stored, whatever else failed
        with archive_errors(db_path):
            code = max(code, run_analysis(db_path, timeout, seconds=budget, nodes=nodes,
                                          jobs=jobs, quiet=quiet))
    sys.exit(code)


def _summary_line(s: FileSummary) -> str:
    return f"{s.source}: " + _counts(s.records, s.new, s.updated, s.duplicates, s.with_errors,
                                     s.rejected)


def _counts(records: int, new: int, updated: int, duplicates: int, errors: int,
            rejected: int) -> str:
    """``3 records: 1 new, 2 duplicates, 0 with errors``, each count agreeing with its noun
    (``1 post: 1 ny``), as an import prints it per file and in total."""
    return (str(msg_n("{n} record", "{n} records", records)) + ": "
            + str(msg_n("{n} new", "{n} new", new)) + ", "
            + (str(msg_n("{n} updated", "{n} updated", updated)) + ", " if updated else "")
            + str(msg_n("{n} duplicate", "{n} duplicates", duplicates)) + ", "
            + str(msg_n("{n} with errors", "{n} with errors", errors))
            + (str(msg_n(", {n} rejected", ", {n} rejected", rejected)) if rejected else ""))


def _records_column() -> Any:
    """A rich column: the records read so far, agreeing with the count: ``1 post``,
    ``2 poster`` (made when a bar is shown: rich loads only then)."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class RecordsColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            n = int(task.fields.get("records", 0))
            return Text(str(msg_n("{n} record", "{n} records", n)).rjust(12))

    return RecordsColumn()


class _Progress:
    """A rich bar per file (bytes, records) on a terminal; nothing when stderr is piped."""

    def __init__(self) -> None:
        self.bar: Progress | None = None
        if not sys.stderr.isatty():
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        console = Console(stderr=True)
        if console.is_terminal:
            self.bar = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(),
                                _records_column(),
                                TimeRemainingColumn(), console=console, transient=True)

    def say(self, line: str, err: bool = False) -> None:
        """A line on stdout (or stderr), above the bar when it shares the screen."""
        if self.bar is not None and (err or sys.stdout.isatty()):
            self.bar.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            click.echo(line, err=err)

    @contextmanager
    def file(self, path: Path) -> Iterator[Callable[[int, int], None]]:
        """The import_file progress callback for one file; its bar goes when it is done."""
        bar = self.bar
        task: TaskID | None = None
        if bar is not None:
            try:
                size: int | None = path.stat().st_size
            except OSError:  # gone already: import_file will say so
                size = None
            task = bar.add_task(path.name, total=size, records=0)

        def tick(done: int, records: int) -> None:
            if bar is not None and task is not None:
                bar.update(task, completed=done, records=records)

        try:
            yield tick
        finally:
            if bar is not None and task is not None:
                bar.remove_task(task)

    def __enter__(self) -> _Progress:
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


# ---------------------------------------------------------------- output


def _ppn(records: Iterable[Any], output: str | None) -> int:
    from priffe_records.format.writer import write

    if output is None or output == "-":
        return write(records, sys.stdout)
    return write(records, output)


# ---------------------------------------------------------------- query, sql, export


@click.command("query")
@db_option
@filter_options
@output_options(extra_formats=("ppn",))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="With --format ppn: write the records to this file (atomically).")
@click.option("--limit", type=click.IntRange(min=1), help="At most this many deals.")
def query_command(db_path: str, timeout: float, out: Output, output: str | None,
                  limit: int | None, **kw: Any) -> None:
    """Find deals in the archive. All filters combine (AND).

    The table shows the main columns; --json, --nl, --csv and --tsv give
    every column, and --format ppn the records themselves.
    """
    from priffe_records.archive.players import ambiguity, player_problem
    from priffe_records.archive.query import (
        FULL_COLUMNS,
        TABLE_COLUMNS,
        find_deals,
        matching_records,
    )

    filters = _filters(kw)
    with archive_errors(db_path):
        db = _open_readonly(db_path, timeout)
        for name in (filters.player, filters.partner, filters.opponent):
            several = ambiguity(db, name)
            if several is not None:  # a part of several names: which one is meant?
                raise UserError(several)
        if out.style == "ppn":
            n = _ppn(matching_records(db, filters, limit), output)
        else:
            columns, rows = find_deals(db, filters, TABLE_COLUMNS if out.style == "table"
                                       else FULL_COLUMNS, limit=limit)
            n = emit(columns, rows, out)
        if out.style == "table" or (out.style == "ppn" and output not in (None, "-")):
            click.echo(str(msg_n("{n} deal", "{n} deals", n)), err=True)
        unknown = player_problem(db, filters.player) if n == 0 else None
        if unknown is not None:  # nothing found because the name is not there: say so
            click.echo("priffe: " + str(unknown), err=True)


@click.command("sql")
@click.argument("statement")
@db_option
@output_options(extra_formats=("ppn",))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="With --format ppn: write the records to this file.")
def sql_command(statement: str, db_path: str, timeout: float, out: Output,
                output: str | None) -> None:
    """Run one read-only SQL STATEMENT on the archive (the database is opened read-only).

    STATEMENT '-' reads the SQL from standard input, as sqlite-utils does.

    With --format ppn the result must have a column named ppn (e.g.
    "SELECT ppn FROM deals WHERE …"); its records are written as a PPN file.
    """
    from priffe_records.archive.query import run_sql
    from priffe_records.format.reader import loads

    with archive_errors(db_path):
        if statement == "-":
            statement = sys.stdin.read()
        db = _open_readonly(db_path, timeout)
        columns, rows = run_sql(db, statement)
        if out.style == "ppn":
            if "ppn" not in columns:
                raise UserError(msg("--format ppn needs a column named ppn, e.g. SELECT ppn "
                                    "FROM deals …"))
            i = columns.index("ppn")
            _ppn((rec for row in rows
                  for rec in loads(str(row[i]), errors="collect", header=False)), output)
        else:
            emit(columns, rows, out, labels=False)  # the statement's own column names


@click.command("export")
@db_option
@filter_options
@click.option("-o", "--output", default="-", type=click.Path(dir_okay=False, allow_dash=True),
              help="The PPN file to write (atomically); '-' or none: standard output.")
@FORCE_OPTION
def export_command(db_path: str, timeout: float, output: str, force: bool, **kw: Any) -> None:
    """Write archived records as PPN, in import order (filters as in query), to standard
    output or, with -o, to a new file (an existing one only with --force)."""
    from priffe_records.archive.query import export

    filters = _filters(kw)
    refuse_existing(output, force)
    with archive_errors(db_path):
        db = _open_readonly(db_path, timeout)
        n = export(db, filters, sys.stdout if output == "-" else output)
        click.echo(str(msg_n("{n} record written", "{n} records written", n) if output == "-"
                       else msg_n("{n} record written to {file}", "{n} records written to {file}",
                                  n, file=output)), err=True)


@click.command("stats")
@db_option
@click.option("--player", help="Only this player.")
@output_options()
def stats_command(db_path: str, timeout: float, player: str | None, out: Output) -> None:
    """Standings (R23/R24 settlements), per-player results and contract success rates.

    --json gives one array of rows, each with its table's key under 'table'
    (standings, players, contracts_declared, contract_success, …), as every
    --json does; --nl the same rows one a line; --csv and --tsv a '# key'
    line before each table.
    """
    from priffe_records.archive.query import split_names, stats

    with archive_errors(db_path):
        db = _open_readonly(db_path, timeout)
        tables = stats(db, player)
        for line in split_names(db):  # a note, not data: the tables stay as stored
            click.echo("priffe: " + str(line), err=True)
        if out.is_json:
            with json_objects(out) as put:
                for t in tables:
                    for r in t.rows:
                        put({"table": t.key, **dict(zip(t.columns, r, strict=True))})
            return
        for t in tables:
            if out.style in ("csv", "tsv"):
                click.echo(f"# {t.key}")
            emit(t.columns, t.rows, out, title=t.title)


@click.command("metadata")
@db_option
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Where to write it (default: NAME.metadata.json beside NAME.db).")
def metadata_command(db_path: str, timeout: float, output: str | None) -> None:
    """Write the Datasette metadata (labels, facets, canned queries) for the archive.

    Then: datasette NAME.db -m NAME.metadata.json (or simply: priffe serve --db NAME.db)
    """
    with archive_errors(db_path):
        _open_readonly(db_path, timeout).close()
        click.echo(str(write_metadata(db_path, output)))


@click.command("remove")
@db_option
@click.option("--id", "deal_ids", type=int, multiple=True, metavar="N",
              help="The deal with this id (see 'priffe query'); repeat for more.")
@click.option("--partie", "partie_ids", type=int, multiple=True, metavar="N",
              help="Every deal of the partie with this id; repeat for more.")
@click.option("--event", help="Every deal whose Event is exactly this.")
@click.option("--source", help="Every deal imported from this file (as 'priffe query "
              "--format json' shows its source).")
@click.option("--dry-run", is_flag=True, help="Only list what would be removed.")
def remove_command(db_path: str, timeout: float, deal_ids: tuple[int, ...],
                   partie_ids: tuple[int, ...], event: str | None, source: str | None,
                   dry_run: bool) -> None:
    """Remove deals from the archive and recompute the parties they were part of.

    Several options must all hold. The removed records' text stays in the
    table deal_history. Exit status 1 when nothing matched, or an --id names no deal.
    """
    from priffe_records.archive.remove import Selection, remove

    selection = Selection(deal_ids, partie_ids, event, source)
    with archive_errors(db_path):
        selection.where()  # names something to remove, before the database is opened
        db = _open_readonly(db_path, timeout)
        db.close()
        db = open_archive(db_path, timeout=timeout)
        done = remove(db, selection, dry_run=dry_run)
        db.close()
    for ident, ev, board, date, src in done.deals:
        what = " · ".join(str(x) for x in (ev, date, msg("board {board}", board=board)
                                           if board else None, src) if x)
        click.echo(str(msg("would remove the deal with id {id}: {what}", id=ident, what=what)
                       if dry_run else
                       msg("removed the deal with id {id}: {what}", id=ident, what=what)))
    for ident, board, rule, text, data in done.new_findings:  # claims that counted what went
        click.echo(str(msg("the deal with id {id} (board {board}) no longer agrees ({rule}): "
                           "{finding}", id=ident, board=board or "?", rule=rule,
                           finding=stored_messages.shown(data, text) or text)), err=True)
    deals = msg_n("{n} deal", "{n} deals", len(done.deals))
    parties = msg_n("{n} partie", "{n} parties", len(done.parties))
    click.echo(str(msg("would remove {deals}; {parties} would be recomputed", deals=deals,
                       parties=parties) if dry_run
                   else msg("removed {deals}; {parties} recomputed", deals=deals,
                            parties=parties)), err=True)
    missing = sorted(set(deal_ids) - {ident for ident, *_ in done.deals})
    for ident in missing:  # a mistyped id is said, not hidden in "removed 0 deals"
        click.echo("priffe: " + str(
            msg("there is no deal with id {id} in {db} (see 'priffe query')", id=ident,
                db=db_path) if selection == Selection(deal_ids) else
            msg("no deal with id {id} in {db} matches the other options as well", id=ident,
                db=db_path)), err=True)
    sys.exit(EXIT_OK if done.deals and not missing else EXIT_FINDINGS)


COMMANDS: list[click.Command] = [import_command, query_command, sql_command, stats_command,
                                 export_command, remove_command, metadata_command]
