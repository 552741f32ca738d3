"""A small Datasette plugin: a deal row as the replay viewer, a partie as its score sheet.

Loaded by ``priffe serve`` (and by a plain ``datasette`` through the
``datasette`` entry point when priffe-records is installed). It adds two
pages to every priffe archive Datasette serves:

* ``/DB/deals/ID/replay`` — the self-contained hand viewer, the same page
  ``priffe replay --html`` writes, built from the partie the deal belongs to
  (so games and rubber totals are the importer's);
* ``/DB/parties/ID/sheet`` — the partie's score sheet in Datasette's own
  layout (title, navigation, tables); ``?print=1`` gives the printable page
  ``priffe score --html`` writes (one A4 page a partie).

and links to them from the ``ppn`` column of ``deals`` and the ``event``
column of ``parties``. It reads only what the archive stores and renders
with the replay and rules layers; Datasette stays an optional extra.
"""

from __future__ import annotations

import copy
import sys
import weakref
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import sqlite_utils
from datasette import hookimpl
from datasette.utils.asgi import Response
from markupsafe import Markup, escape

from priffe_records.archive import players, stored_messages
from priffe_records.archive.analysis import stored as dd_stored
from priffe_records.archive.metadata import metadata
from priffe_records.archive.query import QueryError, StoredText, partie_of_deal, partie_texts
from priffe_records.cli.datasette_plugin import pages
from priffe_records.cli.output import cell_label
from priffe_records.cli.replay import Unreadable, records_of_deal, replays_of, stored_records
from priffe_records.cli.sheet_page import (
    printable_page,
    scored,
    sheet_parts,
    sheets_of,
)
from priffe_records.game.language import (
    Message,
    accepted_language,
    language,
    msg,
    msg_n,
    msg_p,
    use_language,
)
from priffe_records.replay.dd import annotate, from_store, html_block
from priffe_records.replay.html import render_page
from priffe_records.replay.model import DealReplay
from priffe_records.replay.wording import words
from priffe_records.rules.family import default_family


@dataclass(frozen=True)
class _Served:
    """What ``priffe serve`` told us about its Datasette: the archive file, the language
    ``--lang`` fixed (if any) and the one for a browser that names none of ours."""

    path: str
    fixed: str | None
    default: str


# Per Datasette instance, so two servers in one process (tests) keep their own settings.
_SERVED: weakref.WeakKeyDictionary[Any, _Served] = weakref.WeakKeyDictionary()


def make_datasette(path: str, *, fixed: str | None, default: str) -> Any:
    """A Datasette for the archive at ``path`` with this plugin, answering in ``fixed`` or
    the browser's language (else ``default``), the metadata in that language too."""
    from datasette.app import Datasette
    from datasette.plugins import pm

    plugin = sys.modules[__name__]
    if not pm.is_registered(plugin):
        pm.register(plugin, name="priffe_records")
    datasette = Datasette([path], settings={"default_page_size": 50})
    _SERVED[datasette] = _Served(path, fixed, default)
    return datasette


def request_language(served: _Served | None, header: str | None) -> str:
    """``--lang`` when given, else the browser's ``Accept-Language`` (``sv*`` Swedish, other
    languages English), else the server's own language."""
    if served is not None and served.fixed:
        return served.fixed
    if header and header.strip():
        return accepted_language(header) or "en"
    return served.default if served is not None else language()


Asgi = Callable[[MutableMapping[str, Any], Any, Any], Awaitable[None]]


@hookimpl  # type: ignore[untyped-decorator]
def asgi_wrapper(datasette: Any) -> Callable[[Asgi], Asgi]:
    """Each request in its own language (a context variable, not process-wide): two
    browsers in two languages each get theirs."""
    def wrap(app: Asgi) -> Asgi:
        async def in_language(scope: MutableMapping[str, Any], receive: Any,
                              send: Any) -> None:
            headers = dict(scope.get("headers") or [])
            header = headers.get(b"accept-language", b"").decode("latin-1")
            with use_language(request_language(_SERVED.get(datasette), header)):
                await app(scope, receive, send)
        return in_language
    return wrap


@hookimpl  # type: ignore[untyped-decorator]
def get_metadata(datasette: Any) -> dict[str, Any]:
    """The served archive's titles and descriptions in the request's language."""
    served = _SERVED.get(datasette)
    return {} if served is None else copy.deepcopy(_metadata_in(served.path, language()))


@cache
def _metadata_in(path: str, lang: str) -> dict[str, Any]:
    with use_language(lang):
        return metadata(path)


def _not_found(text: str) -> Response:
    return Response.html(f"<p>{escape(text)}</p>", status=404)


async def _rows(datasette: Any, request: Any,
                read: Callable[[sqlite_utils.Database, int], list[StoredText]]
                ) -> tuple[str, int, list[StoredText]] | Response:
    """The database name, the id in the URL and the stored texts ``read`` finds for it."""
    name = request.url_vars["database"]
    ident = int(request.url_vars["id"])
    try:
        db = datasette.get_database(name)
    except KeyError:
        return _not_found(str(msg("no database {name}", name=name)))
    try:
        rows = await db.execute_fn(lambda conn: read(sqlite_utils.Database(conn), ident))
    except QueryError as e:
        return _not_found(f"{name}: {e}")
    return name, ident, rows


async def deal_page(datasette: Any, request: Any) -> Response:
    """The replay viewer for one archived deal, built from its whole partie."""
    found = await _rows(datasette, request, partie_of_deal)
    if isinstance(found, Response):
        return found
    name, deal_id, rows = found
    records, index = records_of_deal(rows, name, deal_id)
    replays = replays_of(records, default_family().presets["sv"])
    chosen = [replays[index - 1]] if index else replays
    if len(chosen) == 1 and isinstance(chosen[0], Unreadable):
        return _unreadable_page(chosen[0])
    kept = await datasette.get_database(name).execute_fn(
        lambda conn: dd_stored(sqlite_utils.Database(conn), deal_id))
    view = None if kept is None else from_store(kept.side, kept.goal, kept.play)
    if view is not None and len(chosen) == 1 and isinstance(chosen[0], DealReplay):
        chosen = [replace(chosen[0], tricks=annotate(chosen[0].tricks, view))]
    page = render_page([r for r in chosen if not isinstance(r, Unreadable)], words(language()))
    if view is not None:  # what 'priffe analyse' stored, under the viewer
        page = page.replace("</body>", html_block(view) + "</body>", 1)
    return Response.html(page)


def _unreadable_page(deal: Unreadable) -> Response:
    """A stored deal the reader could not read: the reader's error with the file and line it
    was imported from, in the reader's language, instead of a replay (the others replay)."""
    title = escape(str(msg("record {record} could not be read, so it cannot be replayed",
                           record=deal.index)))
    return Response.html(f'<!DOCTYPE html>\n<html lang="{language()}"><head><meta '
                         f'charset="utf-8"><title>{title}</title></head><body><h1>{title}</h1>'
                         f"<pre>{escape(str(deal.error))}</pre></body></html>\n")


# Our pages' additions to Datasette's stylesheet: the sheet's rules, wide tables that
# scroll inside their box on a phone, and findings.message_json (the stored message
# the message column shows translated) left out of the table page.
CSS = """
.priffe-sheet { overflow-x: auto; max-width: 100%; }
.priffe-sheet table { border-collapse: collapse; margin-bottom: 1em; }
.priffe-sheet th, .priffe-sheet td { border: 1px solid #999; padding: 2px 6px;
  vertical-align: top; white-space: nowrap; }
.priffe-sheet td.note { white-space: normal; min-width: 14em; }
.priffe-sheet td.n { text-align: right; font-variant-numeric: tabular-nums; }
.priffe-sheet td.c { text-align: center; }
.priffe-sheet tr.rubber td { font-weight: bold; }
.priffe-sheet .after { display: flex; flex-wrap: wrap; gap: 1.5em; }
.priffe-sheet .after table { width: auto; }
th.col-message_json, td.col-message_json { display: none; }
.priffe-wide { overflow-x: auto; max-width: 100%; }
.priffe-rows td, .priffe-rows th { white-space: nowrap; }
.priffe-rows td.replay a { font-weight: bold; }
.priffe-seats { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; }
.priffe-facts th { text-align: left; padding-right: 1em; }
.priffe-evenings li { margin-bottom: 0.6em; }
.priffe-find { margin: 0.6em 0; }
.priffe-find label { display: block; width: auto; }
.priffe-find input[type=search] { width: 18em; max-width: 65vw; }
"""
CSS_PATH = "/-/priffe-records.css"


async def sheet_page(datasette: Any, request: Any) -> Response:
    """The score sheet of one archived partie, in Datasette's layout (``?print=1``: the
    printable page)."""
    found = await _rows(datasette, request, partie_texts)
    if isinstance(found, Response):
        return found
    name, partie_id, rows = found
    if not rows:
        return _not_found(str(msg("{name}: no partie with id {id}", name=name, id=partie_id)))
    records = [rec for stored in rows for rec in stored_records(stored, name)]
    sheets = sheets_of(scored(records))
    if request.args.get("print"):
        return Response.html(printable_page(records, sheets))
    title, body = sheet_parts(records, sheets)
    base = datasette.urls.database(name)
    listed = await _read(datasette.get_database(name), pages.evening, partie_id, base)
    return await _page(datasette, request, "priffe_evening.html", title, [], {
        "body": Markup(body), "evening": listed, "printable": request.path + "?print=1"})


async def _read(db: Any, read: Callable[..., Any], *args: Any) -> Any:
    """``read(conn, *args)`` in Datasette's database thread, in the request's language
    (the thread does not see the request's context)."""
    lang = language()

    def run(conn: Any) -> Any:
        with use_language(lang):
            return read(conn, *args)

    return await db.execute_fn(run)


async def _page(datasette: Any, request: Any, template: str, title: str,
                trail: list[tuple[str, str]], context: dict[str, Any]) -> Response:
    """One of our pages in Datasette's layout: its title, our crumbs (home, the archive,
    ``trail``), the page's words."""
    name = request.url_vars["database"]
    trail = [(name, datasette.urls.database(name)), *trail]
    return Response.html(await datasette.render_template(template, {
        "page_title": title, "crumbs_trail": trail, "t": pages.words(), **context,
    }, request=request))


async def _archive(datasette: Any, request: Any) -> tuple[str, Any] | Response:
    """The database the URL names, when it is a priffe archive."""
    name = request.url_vars["database"]
    try:
        db = datasette.get_database(name)
    except KeyError:
        return _not_found(str(msg("no database {name}", name=name)))
    if not await db.execute_fn(pages.is_archive):
        return _not_found(str(msg("no database {name}", name=name)))
    return name, db


async def _shown(datasette: Any, request: Any, read: Callable[..., Any],
                 missing: Callable[[str, int], Message]) -> Any:
    """What ``read(conn, id, base)`` shows of the row the URL names, or a 404 saying
    ``missing(database, id)``."""
    found = await _archive(datasette, request)
    if isinstance(found, Response):
        return found
    name, db = found
    ident = int(request.url_vars["id"])
    shown = await _read(db, read, ident, datasette.urls.database(name))
    return _not_found(str(missing(name, ident))) if shown is None else shown


async def deal_info_page(datasette: Any, request: Any) -> Response:
    """A deal as the secretary reads it: the replay link first, who sat where, the result."""
    shown = await _shown(datasette, request, pages.deal, lambda name, ident: msg(
        "{name}: no deal with id {id}", name=name, id=ident))
    if isinstance(shown, Response):
        return shown
    trail = [(str(msg("Evening")), shown["evening"])] if shown["evening"] else []
    return await _page(datasette, request, "priffe_deal.html", shown["title"], trail,
                       {"deal": shown})


async def player_page(datasette: Any, request: Any) -> Response:
    """A player's deals, each with its replay link first."""
    shown = await _shown(datasette, request, pages.player, lambda name, ident: msg(
        "{name}: no player with id {id}", name=name, id=ident))
    if isinstance(shown, Response):
        return shown
    return await _page(datasette, request, "priffe_player.html", shown["name"], [],
                       {"player": shown})


async def find_player_page(datasette: Any, request: Any) -> Response:
    """A part of a name, in any case: the one player it names, or the several it could be
    (as ``priffe query --player``), or the nearest stored name."""
    found = await _archive(datasette, request)
    if isinstance(found, Response):
        return found
    name, db = found
    text, base = (request.args.get("name") or "").strip(), datasette.urls.database(name)

    def look(conn: Any) -> tuple[list[tuple[int, str]], Any]:
        archive = sqlite_utils.Database(conn)
        ids = [pid for pid, _ in players.best_matches(players.people(conn), text)]
        named = [(i, str(archive.execute("SELECT name FROM players WHERE id = ?",
                                          [i]).fetchone()[0])) for i in ids]
        return named, players.player_problem(archive, text) if text else None

    matches, problem = await _read(db, look)
    if len(matches) == 1:
        return Response.redirect(f"{base}/players/{matches[0][0]}/page")
    return await _page(datasette, request, "priffe_find.html", str(msg("Find a player")), [], {
        "name": text, "problem": "" if problem is None else str(problem),
        "matches": [{"name": n, "href": f"{base}/players/{i}/page"} for i, n in matches]})


async def search_page(datasette: Any, request: Any) -> Response:
    """The archive's search box: every word in an event, site, player's name or comment,
    as ``priffe query --text``; each hit's row starts with its replay link."""
    found = await _archive(datasette, request)
    if isinstance(found, Response):
        return found
    name, db = found
    words = (request.args.get("words") or "").strip()
    table = await _read(db, pages.search, words, datasette.urls.database(name))
    return await _page(datasette, request, "priffe_search.html", str(msg("Search")), [],
                       {"words": words, "found": table, "count": "" if table is None else
                        str(msg_n("{n} deal", "{n} deals", len(table.rows)))})


@hookimpl  # type: ignore[untyped-decorator]
def extra_template_vars(template: str, view_name: str, request: Any, datasette: Any
                        ) -> Callable[[], Awaitable[dict[str, Any]]] | None:
    """The home page's evenings and players, for every served database that is an archive
    (none: Datasette's own home page)."""
    if view_name != "index":
        return None

    async def home() -> dict[str, Any]:
        found = []
        for name, db in datasette.databases.items():
            if name.startswith("_") or not await db.execute_fn(pages.is_archive):
                continue
            base = datasette.urls.database(name)
            listing = await _read(db, pages.home, base)
            found.append({"name": name, "base": base, **listing})
        if not found:
            return {"priffe_home": None}
        title = str(msg("Priffe archive"))
        return {"priffe_home": {"title": title, "databases": found}, "page_title": title,
                "crumbs_trail": [], "t": pages.words()}

    return home


async def css_page(datasette: Any, request: Any) -> Response:
    return Response(CSS, content_type="text/css; charset=utf-8")


@hookimpl  # type: ignore[untyped-decorator]
def extra_css_urls(datasette: Any) -> list[dict[str, str]]:
    """Our stylesheet on every page Datasette renders (the sheet's rules, hidden columns)."""
    return [{"url": datasette.urls.path(CSS_PATH)}]


@hookimpl  # type: ignore[untyped-decorator]
def register_routes() -> list[tuple[str, Any]]:
    return [
        (r"^/(?P<database>[^/]+)/deals/(?P<id>\d+)/replay$", deal_page),
        (r"^/(?P<database>[^/]+)/parties/(?P<id>\d+)/sheet$", sheet_page),
        (r"^/(?P<database>[^/]+)/deals/(?P<id>\d+)/page$", deal_info_page),
        (r"^/(?P<database>[^/]+)/players/(?P<id>\d+)/page$", player_page),
        (r"^/(?P<database>[^/]+)/players/find$", find_player_page),
        (r"^/(?P<database>[^/]+)/deals/search$", search_page),
        (r"^" + CSS_PATH + "$", css_page),
    ]


@hookimpl  # type: ignore[untyped-decorator]
def prepare_connection(conn: Any) -> None:
    """``priffe_message(message_json, message)`` and ``priffe_players(text)`` for canned
    queries and the SQL box."""
    stored_messages.register(conn)
    players.register(conn)


def _deal_links(datasette: Any, database: str, deal_id: int) -> Markup:
    """A deal's id as links: its replay first, then its page."""
    base = datasette.urls.database(database)
    return Markup('<a href="{}">{} ▶</a> <a href="{}">{}</a>').format(
        f"{base}/deals/{deal_id}/replay", msg_p("link", "replay").render(),
        f"{base}/deals/{deal_id}/page", deal_id)


@hookimpl  # type: ignore[untyped-decorator]
def render_cell(row: Any, value: Any, column: str, table: str | None, database: str,
                datasette: Any) -> Markup | None:
    """Links from a deal's PPN text to its replay, and from a partie's event to its sheet;
    a finding and a Préférence contract in the reader's language."""
    if table is None and column == "deal_id" and isinstance(value, int):
        return _deal_links(datasette, database, value)  # a canned query's hit: its deal
    label = cell_label(column, value) if isinstance(value, str) else None
    if table in ("deals", "findings") and column in ("status", "severity") and label:
        return Markup("{}").format(label.render())  # clean → felfri, as the CLI says
    if table == "parties" and column == "identity" and isinstance(value, str):
        names = pages.identity_names(value)  # people, not the key's JSON
        return None if names is None else Markup("{}").format(names)
    try:
        ident = row["id"]
    except (IndexError, KeyError, TypeError):
        return None
    if table == "findings" and column == "message":
        try:  # the finding in the reader's language (the column holds English)
            data = row["message_json"]
        except (IndexError, KeyError):
            return None
        return Markup("{}").format(stored_messages.shown(data, value)) if data else None
    if table == "deals" and column == "contract" and isinstance(value, str):
        label = cell_label("contract", value)  # a Préférence word: "Handklöver"
        return None if label is None else Markup("{}").format(label.render())
    if table == "deals" and column == "ppn" and ident is not None:
        href = datasette.urls.path(f"/{database}/deals/{int(ident)}/replay")
        return Markup('<a href="{}">{} ▶</a><details><summary>PPN</summary>'
                      "<pre>{}</pre></details>").format(href, msg_p("link", "replay").render(),
                                                        value or "")
    if table == "parties" and column == "event" and ident is not None:
        href = datasette.urls.path(f"/{database}/parties/{int(ident)}/sheet")
        return Markup('{} · <a href="{}">{}</a>').format(value or "", href,
                                                         msg_p("link", "score sheet").render())
    return None
