"""``priffe serve``: browse an archive in Datasette, with its metadata and our plugin.

Datasette is an optional extra (``serve``); without it the command says how to get it
for this copy (``game/extras``: from a clone, the clone's own editable install). The
server listens on 127.0.0.1 only: an archive is a club's private record, not a public site.
"""

from __future__ import annotations

import asyncio
import errno
import socket
import sys
import webbrowser
from pathlib import Path
from typing import Any

import click

from priffe_records.cli.common import EXIT_UNUSABLE, UserError, lang_given, user_errors
from priffe_records.game.extras import extra_command
from priffe_records.game.language import Message, language, msg, os_reason

HOST = "127.0.0.1"


def install_hint() -> Message:
    """How to get Datasette where this copy runs (a clone's hint names the clone)."""
    return msg("priffe serve needs Datasette, an optional extra: {command}",
               command=extra_command("serve", ("datasette",)))


def build(db_path: str, lang: str | None = None) -> Any:
    """A Datasette instance for the archive: its metadata (keyed by the file name) and plugin.

    The metadata is made from the database's own file name, so any archive
    file works and a newer schema is described as it is. Each request is
    answered in ``lang`` when given (``serve --lang``), else in the language
    the browser asks for, else in the active one.
    """
    try:  # the extra missing, or a Datasette installed without its app (or half removed)
        import uvicorn  # noqa: F401  (serve runs it: without it there is nothing to serve)

        from priffe_records.cli import datasette_plugin  # which alone imports Datasette

        return datasette_plugin.make_datasette(db_path, fixed=lang, default=language())
    except ImportError:
        raise UserError(install_hint(), EXIT_UNUSABLE) from None


def listen(port: int) -> socket.socket:
    """The listening socket, bound before anything is printed: a busy port is one clear error.

    Port 0 asks the system for a free port; the socket knows which it got.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise UserError(msg("port {port} on {host} is in use by another program: choose "
                                "another with --port, or --port 0 for any free one",
                                host=HOST, port=port)) from None
        raise UserError(msg("cannot listen on {host}:{port}: {error}", host=HOST, port=port,
                            error=os_reason(e))) from None
    return sock


@click.command("serve")
@click.argument("db_arg", metavar="[DB]", required=False, type=click.Path(dir_okay=False))
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
              show_default="priffe.db", help="The archive database (SQLite).")
@click.option("-p", "--port", type=click.IntRange(min=0, max=65535), default=8001,
              show_default=True, help="Port on 127.0.0.1 (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the archive in a web browser.")
def serve_command(db_arg: str | None, db_path: str | None, port: int,
                  open_browser: bool) -> None:
    """Browse the archive (--db) in Datasette on 127.0.0.1: tables, search, canned queries.

    Every deal links to its replay (the same page as 'priffe replay --html')
    and every partie to its score sheet. Stop with Ctrl+C. The database as
    an argument (priffe serve DB) is the older spelling of --db.
    """
    with user_errors():
        db = _which_db(db_arg, db_path)
        if not Path(db).is_file():
            raise UserError(msg("{db}: no such archive (create it with 'priffe import')", db=db))
        ds = build(db, lang_given(click.get_current_context()))
        import uvicorn

        asyncio.run(ds.invoke_startup())
        sock = listen(port)
        url = f"http://{HOST}:{sock.getsockname()[1]}/"
        click.echo(str(msg("serving {db} at {url} (Ctrl+C stops)", db=db, url=url)), err=True)
        if open_browser:
            webbrowser.open(url)
        config = uvicorn.Config(ds.app(), log_level="warning", lifespan="on")
        with sock:
            uvicorn.Server(config).run(sockets=[sock])
    sys.exit(0)


def _which_db(db_arg: str | None, db_path: str | None) -> str:
    """``--db``, or the older positional DB with a warning; both at once is a usage error."""
    if db_arg is None:
        return db_path or "priffe.db"
    if db_path is not None:
        raise click.UsageError(str(msg("give the database once: --db FILE")))
    click.echo("priffe: " + str(msg("'priffe serve DB' is deprecated: write 'priffe serve "
                                    "--db DB', as for every other command")), err=True)
    return db_arg


COMMANDS: list[click.Command] = [serve_command]
