"""Where a command's input comes from: a file, or standard input when the user writes ``-``.

Like black, git and sqlite-utils, ``-`` means standard input, so
``cat partie.ppn | priffe validate -`` works; its records and errors are
named ``<stdin>`` (``<stdin>:12:3: …``). Standard input is read once, so
``-`` may stand only once in a command line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from priffe_records.cli.common import UserError
from priffe_records.format.splitter import HEAD, plainly_not_ppn
from priffe_records.game.language import msg

STDIN_ARG = "-"
STDIN_NAME = "<stdin>"


def is_stdin(path: str | Path) -> bool:
    return str(path) == STDIN_ARG


def display_name(path: str | Path) -> str:
    """The name messages use: the path as given, ``<stdin>`` for ``-``."""
    return STDIN_NAME if is_stdin(path) else str(path)


def stdin_bytes() -> IO[bytes]:
    """Standard input as bytes: the reader decodes (UTF-8, UTF-16 or Latin-1) itself."""
    return sys.stdin.buffer


@contextmanager
def open_input(path: str | Path) -> Iterator[IO[bytes]]:
    """The input as bytes (the reader decodes): standard input for ``-``, else the file."""
    if is_stdin(path):
        yield stdin_bytes()
    else:
        with open(path, "rb") as fh:
            yield fh


PPN_SUFFIXES = (".ppn", ".pbn")

# The first bytes of files a user may hand over by mistake (the archive itself, a
# spreadsheet, a compressed file): read as text each would give pages of syntax errors, and
# import would store every fragment as an unreadable record.
_NOT_TEXT = ((b"SQLite format 3\x00", msg("a SQLite database (the archive? it goes after "
                                          "--db), not a PPN/PBN text file")),
             (b"PK\x03\x04", msg("a zip file (a spreadsheet? 'priffe sheet-import' reads "
                                  "it), not a PPN/PBN text file")),
             (b"\x1f\x8b", msg("a gzip-compressed file (unpack it first), not a PPN/PBN "
                                "text file")))


def refuse_binary(path: str | Path) -> None:
    """One located error for a file that is plainly not text, or text with no tag pair in
    its first few KB (:func:`~priffe_records.format.splitter.plainly_not_ppn`), before
    anything reads it.

    Only a regular file is looked at: a pipe (``<(zcat x.ppn.gz)``) gives its bytes once,
    and the reader needs them all.
    """
    try:
        if not os.path.isfile(path):
            return
        with open(path, "rb") as fh:
            head = fh.read(HEAD + 1)
    except OSError:
        return  # the reader says why, as for any file it cannot open
    for magic, what in _NOT_TEXT:
        if head.startswith(magic):
            raise UserError(msg("{file}:1:1: {what}", file=path, what=what))
    if plainly_not_ppn(head[:HEAD], len(head) <= HEAD):
        raise UserError(msg("{file}:1:1: {what}", file=path, what=msg(
            "no line opens with a tag pair ([Event \"…\"]) in the file's first {kb} KB: "
            "not a PPN/PBN text file", kb=HEAD // 1024)))


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
            for f in found:
                refuse_binary(f)
            yield from found
        elif not path.exists():
            raise UserError(msg("{file}: no such file", file=p))
        else:
            refuse_binary(path)
            yield path
