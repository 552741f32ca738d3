"""``priffe analyse``: every deal of the archive analysed double dummy, once, and stored.

The library (:mod:`priffe_records.archive.analysis`) does the work in worker processes;
this module reads the options, draws the progress bar and prints what was done. It is
also what ``priffe import --analyse`` runs after its import.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from priffe_records.cli.common import EXIT_FINDINGS, EXIT_OK, quiet_verbose_options
from priffe_records.game.language import msg, msg_n, number

if TYPE_CHECKING:
    from priffe_records.archive.analysis import Summary

# Per deal, wall time. DDS answers a positive deal in a second; a misère deal needs the own
# search, and the archive wants every card's best cards too (board 2 of the examples: more
# than 130 s of CPU in 60 s runs at load 11, resumed three times). A batch run can wait for
# it; one left partial is resumed by the next run.
DEFAULT_SECONDS = 600.0


def budget_options(f: click.decorators.FC) -> click.decorators.FC:
    """``--budget`` and ``--nodes``: how far the solver may search in each deal."""
    f = click.option("--nodes", type=click.IntRange(min=1), default=None,
                     help="At most this many search nodes per deal instead of a time "
                          "limit: the same result on any machine.")(f)
    return click.option("--budget", type=click.FloatRange(min=0, min_open=True),
                        default=None, metavar="SECONDS",
                        help=f"Seconds of search per deal (default {DEFAULT_SECONDS:g}). A "
                             "deal whose early tricks it did not reach is resumed by the next "
                             "run from the tricks it stored.")(f)


def run_analysis(db_path: str, timeout: float, *, seconds: float | None, nodes: int | None,
                 jobs: int | None, quiet: bool) -> int:
    """Analyse the archive's deals that have no analysis; the exit code.

    Ctrl-C stops at once and keeps every deal already stored (exit 130). The solver and
    the archive load here, so that ``priffe import`` without ``--analyse`` needs neither.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from priffe_records.archive.analysis import analyse_archive, pending
    from priffe_records.archive.schema import ensure_schema, open_archive
    from priffe_records.dd import Budget
    from priffe_records.rules.parallel import cpus

    # --nodes alone has no clock (the same result on any machine); neither: the default.
    budget = Budget(nodes=nodes, seconds=DEFAULT_SECONDS if seconds is None and nodes is None
                    else seconds)
    db = open_archive(db_path, timeout=timeout, create=False)
    try:
        ensure_schema(db, timeout)
        todo = pending(db)
        console = Console(stderr=True)
        bar = Progress(*Progress.get_default_columns()[:1], BarColumn(), MofNCompleteColumn(),
                       TimeRemainingColumn(), console=console, transient=True,
                       disable=quiet or not console.is_terminal)
        with bar:
            task = bar.add_task(str(msg("analysing")), total=len(todo))
            try:
                summary = analyse_archive(db, budget, jobs=jobs or cpus(), deals=todo,
                                          progress=lambda done, _: bar.update(task,
                                                                              completed=done))
            except KeyboardInterrupt:
                bar.stop()
                left = len(pending(db))
                click.echo("priffe: " + str(msg_n(
                    "interrupted: what was analysed is stored; {n} deal is left for the next "
                    "run", "interrupted: what was analysed is stored; {n} deals are left for "
                    "the next run", left)), err=True)
                sys.exit(130)
    finally:
        db.close()
    for line in summary.failed:
        click.echo("priffe: " + str(line), err=True)
    if not quiet:
        click.echo(summary_line(summary, len(todo)))
    return EXIT_FINDINGS if summary.failed else EXIT_OK


def summary_line(s: Summary, total: int) -> str:
    """``12 deals: 9 analysed, 3 partly (budget spent), 0 without a play, 0 failed; 4,2 s
    CPU`` and, on a second line, what the archive holds now: ``In the archive: 30 deals
    analysed whole, 2 partly, 0 waiting``, each count agreeing with its noun; a last line
    says to run again when some deal is left."""
    lines = [str(msg_n("{n} deal", "{n} deals", total)) + ": "
             + str(msg_n("{n} analysed", "{n} analysed", s.analysed)) + ", "
             + str(msg_n("{n} partly (budget spent)", "{n} partly (budget spent)", s.partial))
             + ", " + str(msg_n("{n} without a play", "{n} without a play", s.no_play)) + ", "
             + str(msg_n("{n} failed", "{n} failed", len(s.failed))) + "; "
             + str(msg("{seconds} s CPU", seconds=number(round(s.cpu_seconds, 1)))),
             str(msg_n("In the archive: {n} deal analysed whole",
                       "In the archive: {n} deals analysed whole", s.whole)) + ", "
             + str(msg_n("{n} partly", "{n} partly", s.unfinished)) + ", "
             + str(msg_n("{n} waiting", "{n} waiting", s.waiting))]
    if s.unfinished or s.waiting:
        lines.append(str(msg("Run priffe analyse again to go on: it resumes each deal "
                             "where it stopped.")))
    return "\n".join(lines)


@click.command("analyse")
@click.argument("archive", required=False, type=click.Path(dir_okay=False))
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default="priffe.db",
              show_default=True, help="The archive database (SQLite), unless ARCHIVE names it.")
@click.option("--timeout", type=click.FloatRange(min=0), default=60.0, show_default=True,
              help="Seconds to wait while another process writes the database.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: the number of CPUs).")
@budget_options
@quiet_verbose_options(quiet="Errors only: no progress bar, no totals.", verbose=None)
def analyse_command(archive: str | None, db_path: str, timeout: float, jobs: int | None,
                    budget: float | None, nodes: int | None, quiet: bool) -> None:
    """Analyse every deal of the archive double dummy: what each played card cost.

    Each deal with a readable play is solved once, in worker processes, and stored with
    its par and each card's cost against the best card; a replaced deal loses its
    analysis and is analysed again. An interrupted run keeps what it finished, and a deal
    the budget left partial is resumed from the tricks stored: run it again to go on.
    'priffe stats' then shows each player's cost per deal, and 'priffe replay --dd' and
    'priffe serve' show it card by card.
    """
    from priffe_records.cli.archive_errors import archive_errors

    path = archive or db_path
    with archive_errors(path):
        code = run_analysis(path, timeout, seconds=budget, nodes=nodes, jobs=jobs,
                            quiet=quiet)
    sys.exit(code)


COMMANDS: list[click.Command] = [analyse_command]
