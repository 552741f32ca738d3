"""``priffe fmt`` and ``priffe parse``: the format-level commands."""

from __future__ import annotations

import difflib
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from priffe_records.cli.common import EXIT_FINDINGS, EXIT_OK, UserError, user_errors
from priffe_records.cli.inputs import display_name, is_stdin, open_input
from priffe_records.cli.output import Output, emit, output_options
from priffe_records.format.atomic import write_text_atomically
from priffe_records.format.errors import BadRecord
from priffe_records.format.reader import read
from priffe_records.format.record import Record
from priffe_records.format.writer import dumps, write
from priffe_records.game.language import msg

PPN_SUFFIXES = (".ppn", ".pbn")


def expand_paths(paths: tuple[str, ...]) -> Iterator[Path]:
    """Files as given; a directory stands for every .ppn/.pbn file below it, sorted.

    ``-`` (standard input) is passed through as ``Path("-")``: open it with
    :func:`~priffe_records.cli.inputs.open_input`.
    """
    if sum(is_stdin(p) for p in paths) > 1:
        raise UserError(msg("'-' (standard input) may be given only once"))
    for p in paths:
        path = Path(p)
        if is_stdin(p):
            yield path
        elif path.is_dir():
            found = sorted(f for f in path.rglob("*") if f.suffix.lower() in PPN_SUFFIXES
                           and f.is_file())
            if not found:
                raise UserError(msg("{file}: no .ppn or .pbn files in this folder", file=p))
            yield from found
        elif not path.exists():
            raise UserError(msg("{file}: no such file", file=p))
        else:
            yield path


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


def report_bad(bad: BadRecord) -> None:
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
def fmt_command(files: tuple[str, ...], check: bool, output: str | None, show_diff: bool,
                resolve_inheritance: bool) -> None:
    """Rewrite PPN/PBN FILES in canonical export format.

    Files with syntax errors are never rewritten: their errors are listed
    and the exit status is 1. FILES may be folders (every .ppn/.pbn below).
    '-' reads standard input and writes the canonical text to standard output.
    """
    changed: list[Path] = []
    failed = 0
    texts: list[str] = []
    with user_errors():
        for path in expand_paths(files):
            with open_input(path) as stream:
                raw = stream.read()
            records = list(read(io.BytesIO(raw), errors="collect", name=display_name(path)))
            bad = [r for r in records if isinstance(r, BadRecord)]
            if bad:
                for b in bad:
                    report_bad(b)
                failed += 1
                continue
            good = [r for r in records if isinstance(r, Record)]
            new = dumps(good, resolve_inheritance=resolve_inheritance)
            if output is not None:
                texts.append(new if not texts else new.split("\n", 2)[2])
                continue
            if raw == new.encode("utf-8"):
                if is_stdin(path) and not (check or show_diff):
                    sys.stdout.write(new)
                continue
            changed.append(path)
            if show_diff:
                sys.stdout.writelines(unified(raw, new, display_name(path)))
            elif is_stdin(path):
                if not check:
                    sys.stdout.write(new)  # standard input: nothing to rewrite in place
            else:
                if check:
                    click.echo(str(msg("would reformat {file}", file=path)), err=True)
                else:
                    write(good, path, resolve_inheritance=resolve_inheritance)
                    click.echo(str(msg("reformatted {file}", file=path)), err=True)
        if output is not None and not failed:
            joined = "\n".join(texts)
            if output == "-":
                sys.stdout.write(joined)
            else:
                write_text_atomically(output, joined)
    if output is None and not (len(files) == 1 and is_stdin(files[0])):
        done = (msg("{count} file(s) would be reformatted", count=len(changed))
                if check or show_diff else msg("{count} file(s) reformatted", count=len(changed)))
        left = msg(", {count} with errors left unchanged", count=failed) if failed else ""
        click.echo(f"{done}{left}", err=True)
    if failed or (check and changed):
        sys.exit(EXIT_FINDINGS)
    sys.exit(EXIT_OK)


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
            *(rec.get(n) for n in _PARSE_TAGS), 0)


@click.command("parse")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@output_options(json_lines=True)
def parse_command(files: tuple[str, ...], out: Output) -> None:
    """Read FILES and show their records; syntax errors are listed with file:line:col.

    --json (or --nl) prints each record as one line of JSON, an unreadable
    one as {"errors": …}; --table, --csv and --tsv one row per record.
    '-' reads standard input. Exit status 1 when any record could not be
    read (the others are still shown).
    """
    failed = 0
    rows: list[tuple[object, ...]] = []
    with user_errors():
        for path in expand_paths(files):
            with open_input(path) as stream:
                records = list(read(stream, errors="collect", name=display_name(path)))
            for rec in records:
                if isinstance(rec, BadRecord):
                    failed += 1
                    report_bad(rec)
                if out.style in ("table", "csv", "tsv") and out.chosen:
                    rows.append(_parse_row(rec))
                elif out.is_json and isinstance(rec, BadRecord):
                    click.echo(json.dumps({"file": rec.location.file,
                                           "line": rec.location.line,
                                           "errors": [e.to_dict() for e in rec.errors]},
                                          ensure_ascii=False))
                elif out.is_json and isinstance(rec, Record):
                    click.echo(json.dumps(rec.to_dict(), ensure_ascii=False))
                elif isinstance(rec, Record):
                    loc = rec.location
                    where = f"{loc.file}:{loc.line}" if loc else "?"
                    fields = [f"{n}={rec.get(n)}" for n in _PARSE_TAGS
                              if rec.get(n) is not None]
                    click.echo(f"{where}: " + (" ".join(fields)
                                               or str(msg("(no identification tags)"))))
    if rows:
        emit(PARSE_COLUMNS, rows, out)
    if failed:
        click.echo(str(msg("{count} record(s) could not be read", count=failed)), err=True)
        sys.exit(EXIT_FINDINGS)


COMMANDS: list[click.Command] = [fmt_command, parse_command]
