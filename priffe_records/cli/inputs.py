"""Where a command's input comes from: a file, or standard input when the user writes ``-``.

Like black, git and sqlite-utils, ``-`` means standard input, so
``cat partie.ppn | priffe validate -`` works; its records and errors are
named ``<stdin>`` (``<stdin>:12:3: …``). Standard input is read once, so
``-`` may stand only once in a command line.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from priffe_records.cli.common import UserError
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
