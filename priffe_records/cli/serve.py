"""``priffe serve``: browse an archive in Datasette, with its metadata and our plugin.

Datasette is an optional extra (``pip install 'priffe-records[serve]'``);
without it the command says how to get it. The server listens on
127.0.0.1 only: an archive is a club's private record, not a public site.
"""

from __future__ import annotations

import asyncio
import sys
import webbrowser
from pathlib import Path
from types import ModuleType
from typing import Any

import click

from priffe_records.archive.metadata import metadata
from priffe_records.cli.common import EXIT_UNUSABLE, UserError, user_errors
from priffe_records.game.language import msg

HOST = "127.0.0.1"
INSTALL_HINT = ("priffe serve needs Datasette, an optional extra: "
                "pip install 'priffe-records[serve]'")


def _datasette() -> tuple[ModuleType, ModuleType]:
    """Datasette's app module and our plugin, or a clear message when the extra is missing."""
    try:
        import datasette.app
        import uvicorn

        from priffe_records.cli import datasette_plugin
    except ImportError:
        raise UserError(INSTALL_HINT, EXIT_UNUSABLE) from None
    from datasette.plugins import pm

    if not pm.is_registered(datasette_plugin):
        pm.register(datasette_plugin, name="priffe_records")
    del uvicorn
    return datasette.app, datasette_plugin


def build(db_path: str) -> Any:
    """A Datasette instance for the archive: its metadata (keyed by the file name) and plugin.

    The metadata is made from the database's own file name at every start,
    so any archive file works and a newer schema is described as it is.
    """
    app, _ = _datasette()
    return app.Datasette([db_path], metadata=metadata(db_path),
                         settings={"default_page_size": 50})


@click.command("serve")
@click.argument("db", default="priffe.db", type=click.Path(dir_okay=False))
@click.option("-p", "--port", type=click.IntRange(min=0, max=65535), default=8001,
              show_default=True, help="Port on 127.0.0.1 (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the archive in a web browser.")
def serve_command(db: str, port: int, open_browser: bool) -> None:
    """Browse the archive DB in Datasette on 127.0.0.1: tables, search, canned queries.

    Every deal links to its replay (the same page as 'priffe replay --html')
    and every partie to its score sheet. Stop with Ctrl+C.
    """
    with user_errors():
        if not Path(db).is_file():
            raise UserError(msg("{db}: no such archive (create it with 'priffe import')", db=db))
        ds = build(db)
        import uvicorn

        asyncio.run(ds.invoke_startup())
        url = f"http://{HOST}:{port}/"
        click.echo(str(msg("serving {db} at {url} (Ctrl+C stops)", db=db, url=url)), err=True)
        if open_browser and port:
            webbrowser.open(url)
        uvicorn.run(ds.app(), host=HOST, port=port, log_level="warning", lifespan="on")
    sys.exit(0)


COMMANDS: list[click.Command] = [serve_command]
