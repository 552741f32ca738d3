"""``priffe fmt`` and ``priffe parse``: the format-level commands."""

from __future__ import annotations

import codecs
import difflib
import io
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from priffe_records.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    pipe_closed_is_fine,
    quiet_verbose_options,
    user_errors,
)
from priffe_records.cli.inputs import display_name, expand_paths, is_stdin, open_input
from priffe_records.cli.output import Output, emit, json_objects, output_options
from priffe_records.format.atomic import atomic_text
from priffe_records.format.errors import BadRecord, no_records
from priffe_records.format.reader import read
from priffe_records.format.record import Record
from priffe_records.format.rewrite import reformat
from priffe_records.format.writer import HEADER, dumps, format_record
from priffe_records.game.language import Message, msg, msg_n


def unified(raw: bytes, new: str, name: str) -> list[str]:
    """What fmt would change, as a unified diff (black's --diff)."""
    try:
        old = raw.decode("utf-8-sig")
    except UnicodeDecodeError:  # the reader's own fallback for old files
        old = raw.decode("latin-1")
    old = old.replace("\r\n", "\n").replace("\r", "\n")
    return list(difflib.unified_diff(old.splitlines(keepends=True),
                                     new.splitlines(keepends=True),
                                     f"{name}\t(original)", f"{name}\t(formatted)"))


def byte_changes(raw: bytes) -> list[Message]:
    """What fmt changes that a text diff cannot show: line ends, encoding, byte order mark.

    black's --diff names such changes in words; without them a file that
    only has CRLF line ends would show an empty diff and still "would reformat".
    """
    changes: list[Message] = []
    if raw.startswith(codecs.BOM_UTF8):
        changes.append(msg("byte order mark removed"))
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        changes.append(msg("encoding Latin-1 → UTF-8"))
    if b"\r\n" in raw:
        changes.append(msg("line ends CRLF → LF"))
    elif b"\r" in raw:
        changes.append(msg("line ends CR → LF"))
    return changes


def report_bad(bad: BadRecord | Record) -> None:
    """Every located error and warning of a record, on stderr."""
    for err in bad.errors:
        click.echo(str(err), err=True)


@click.command("fmt")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--check", is_flag=True,
              help="Change nothing; exit 1 and list the files that would be rewritten.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the canonical text here ('-' for stdout) instead of rewriting "
                   "the files in place.")
@click.option("--diff", "show_diff", is_flag=True,
              help="Change nothing; print a unified diff of what would change (like black).")
@click.option("--resolve-inheritance", is_flag=True,
              help="Write '#'/'##' inherited tag values out in full.")
@quiet_verbose_options(quiet="Errors only: no line per reformatted file, no summary.",
                       verbose="Also list each file that was already canonical.")
def fmt_command(files: tuple[str, ...], check: bool, output: str | None, show_diff: bool,
                resolve_inheritance: bool, quiet: bool, verbose: bool) -> None:
    """Rewrite PPN/PBN FILES in canonical export format.

    A file is replaced only when its new text reads back to the same records;
    files with errors are never rewritten: their errors are listed and the
    exit status is 1. FILES may be folders (every .ppn/.pbn below).
    '-' reads standard input and writes the canonical text to standard output.
    """
    changed = failed = 0
    with user_errors(), pipe_closed_is_fine():
        paths = list(expand_paths(files))
        if output is not None:
            failed = _fmt_to_output(paths, output, resolve_inheritance)
        for path in paths if output is None else ():
            if is_stdin(path) or show_diff:
                outcome = _fmt_in_memory(path, check, show_diff, resolve_inheritance)
                failed += outcome == "refused"
                changed += outcome == "changed"
                if verbose and outcome == "same":
                    click.echo(str(msg("{file}: already canonical", file=path)), err=True)
                continue
            result = reformat(path, check=check, resolve_inheritance=resolve_inheritance)
            for err in result.problems:
                click.echo(str(err), err=True)
            if result.status == "refused":
                failed += 1
                click.echo(str(msg("{file}: left unchanged: {reason}", file=path,
                                   reason=result.reason)), err=True)
            elif result.status != "unchanged":
                changed += 1
                said = (msg("would reformat {file}", file=path) if check
                        else msg("reformatted {file}", file=path))
                if not quiet:
                    click.echo(str(said), err=True)
            elif verbose and result.records:
                click.echo(str(msg("{file}: already canonical", file=path)), err=True)
    if output is None and not quiet and not (len(files) == 1 and is_stdin(files[0])):
        done = (msg_n("{n} file would be reformatted", "{n} files would be reformatted",
                      changed) if check or show_diff
                else msg_n("{n} file reformatted", "{n} files reformatted", changed))
        left = msg(", {count} with errors left unchanged", count=failed) if failed else ""
        click.echo(f"{done}{left}", err=True)
    if failed or (check and changed):
        sys.exit(EXIT_FINDINGS)
    sys.exit(EXIT_OK)


def _fmt_in_memory(path: Path, check: bool, show_diff: bool, resolve_inheritance: bool) -> str:
    """``-`` (to standard output) and ``--diff``: the new text is built in memory.

    Returns "refused", "changed" or "same". Nothing on disk changes here.
    """
    with open_input(path) as stream:
        raw = stream.read()
    records = list(read(io.BytesIO(raw), errors="collect", name=display_name(path)))
    for rec in records:
        report_bad(rec)
    if not records:  # a header is no record: the text stays as it was
        click.echo(str(no_records(display_name(path))), err=True)
        if is_stdin(path) and not (check or show_diff):
            sys.stdout.buffer.write(raw)
        return "same"
    if any(isinstance(r, BadRecord) or r.has_errors for r in records):
        return "refused"
    good = [r for r in records if isinstance(r, Record)]
    new = dumps(good, resolve_inheritance=resolve_inheritance)
    if raw == new.encode("utf-8"):
        if is_stdin(path) and not (check or show_diff):
            sys.stdout.write(new)
        return "same"
    if show_diff:
        for change in byte_changes(raw):  # before the diff, where patch skips text
            sys.stdout.write(f"{display_name(path)}: {change}\n")
        sys.stdout.writelines(unified(raw, new, display_name(path)))
    elif not check:
        sys.stdout.write(new)  # standard input: nothing to rewrite in place
    return "changed"


def _fmt_to_output(paths: list[Path], output: str, resolve_inheritance: bool) -> int:
    """Stream every file's records into one export; nothing is written if any has errors."""
    failed = 0
    with tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n") as buf:
        buf.write(HEADER)
        count = 0
        for path in paths:
            bad, read_any = False, False
            with open_input(path) as stream:
                for rec in read(stream, errors="collect", name=display_name(path)):
                    read_any = True
                    report_bad(rec)
                    if isinstance(rec, BadRecord) or rec.has_errors:
                        bad = True
                    elif not failed and not bad:
                        buf.write(("\n" if count else "")
                                  + format_record(rec, resolve_inheritance=resolve_inheritance))
                        count += 1
            if not read_any:
                click.echo(str(no_records(display_name(path))), err=True)
            failed += bad
        if failed:
            return failed
        buf.seek(0)
        if output == "-":
            shutil.copyfileobj(buf, sys.stdout)
        else:
            with atomic_text(output) as out:
                shutil.copyfileobj(buf, out)
    return 0


PARSE_COLUMNS = ("file", "line", "event", "rubber", "board", "contract", "declarer", "result",
                 "errors")
_PARSE_TAGS = ("Event", "Rubber", "Board", "Contract", "Declarer", "Result")


def _parse_row(rec: Record | BadRecord) -> tuple[object, ...]:
    """One row per record for --table/--csv/--tsv; an unreadable record counts its errors."""
    if isinstance(rec, BadRecord):
        bad = rec.location
        return (bad.file, bad.line, None, None, None, None, None, None, len(rec.errors))
    loc = rec.location
    return (loc.file if loc else None, loc.line if loc else None,
            *(rec.get(n) for n in _PARSE_TAGS), sum(not e.is_warning for e in rec.errors))


@click.command("parse")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@output_options()
def parse_command(files: tuple[str, ...], out: Output) -> None:
    """Read FILES and show their records; syntax errors are listed with file:line:col.

    --json prints the records as one JSON array, --nl one record a line
    (an unreadable one as {"errors": …}); --table, --csv and --tsv one row
    per record.
    '-' reads standard input. Exit status 1 when any record could not be
    read or has an error (the others are still shown), as for validate.
    """
    failed = flawed = 0  # unreadable records; records read with an error in them
    rows: list[tuple[object, ...]] = []
    with user_errors(), pipe_closed_is_fine(), _json_or_nothing(out) as put:
        for path in expand_paths(files):
            with open_input(path) as stream:
                for rec in read(stream, errors="collect", name=display_name(path)):
                    failed += isinstance(rec, BadRecord)
                    flawed += isinstance(rec, Record) and rec.has_errors
                    report_bad(rec)
                    if put is not None:
                        put(_as_json(rec))
                    elif out.chosen:
                        rows.append(_parse_row(rec))
                    else:
                        _show(rec)
        if rows:
            emit(PARSE_COLUMNS, rows, out)
    if failed:
        click.echo(str(msg_n("{n} record could not be read", "{n} records could not be read",
                             failed)), err=True)
    if flawed:
        click.echo(str(msg_n("{n} record has errors", "{n} records have errors", flawed)),
                   err=True)
    sys.exit(EXIT_FINDINGS if failed or flawed else EXIT_OK)


@contextmanager
def _json_or_nothing(out: Output) -> Iterator[Callable[[object], None] | None]:
    """The JSON writer for --json/--nl, else None (rows or lines are printed instead)."""
    if not out.is_json:
        yield None
        return
    with json_objects(out) as put:
        yield put


def _as_json(rec: Record | BadRecord) -> dict[str, object]:
    """A record as JSON, or an unreadable one's location and errors (stderr has them too)."""
    if isinstance(rec, BadRecord):
        return {"file": rec.location.file, "line": rec.location.line,
                "errors": [e.to_dict() for e in rec.errors]}
    data = rec.to_dict()
    if rec.errors:
        data["errors"] = [e.to_dict() for e in rec.errors]
    return data


def _show(rec: Record | BadRecord) -> None:
    """One line per record: where it is and its identification tags."""
    if isinstance(rec, BadRecord):
        return
    loc = rec.location
    where = f"{loc.file}:{loc.line}" if loc else "?"
    fields = [f"{n}={rec.get(n)}" for n in _PARSE_TAGS if rec.get(n) is not None]
    click.echo(f"{where}: " + (" ".join(fields) or str(msg("(no identification tags)"))))


COMMANDS: list[click.Command] = [fmt_command, parse_command]
