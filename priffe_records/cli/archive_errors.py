"""One ``priffe:`` line for whatever goes wrong with an archive: every archive command
(``import``, ``query`` …, ``analyse``) runs inside :func:`archive_errors`."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from priffe_records.archive.schema import describe_sqlite_error
from priffe_records.cli.common import UserError, pipe_closed_is_fine, user_errors


@contextmanager
def archive_errors(db_path: str) -> Iterator[None]:
    """Library, OS and SQLite errors → one ``priffe:`` line; no traceback, ever."""
    with user_errors(), pipe_closed_is_fine():
        try:
            yield
        except sqlite3.Error as e:
            raise UserError(describe_sqlite_error(db_path, e)) from None
