"""What the secretary's pages show: the archive's evenings, deals and players as rows of
text in the reader's language, ready for the plugin's templates (``templates/``).

Datasette's own table pages show the archive as a database (column names, JSON, stored
English words); these show it as the club reads it: evenings with their sheet, names of
people, the replay link first on a deal's row, headings and values as ``priffe query``
writes them (``cli/output.py``). Every function here takes a plain ``sqlite3`` connection
(Datasette's ``execute_fn`` hands one over) and imports no Datasette.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from priffe_records.archive import stored_messages
from priffe_records.archive.query import Filters, find_deals
from priffe_records.cli.output import CELL_LABELS, cell_label, heading
from priffe_records.format.record import PLAYER_TAGS
from priffe_records.game.cards import Seat
from priffe_records.game.language import Message, msg, msg_n, msg_p, number, shown_date
from priffe_records.game.words import seat_letter

# The tables every priffe archive has: a database without them gets Datasette's own pages.
ARCHIVE_TABLES = frozenset({"deals", "parties", "players", "seats"})
ROLES: dict[str, Message] = {
    "declarer": msg_p("role", "declarer"), "partner": msg_p("role", "partner"),
    "defender": msg_p("role", "defender"), "forced": msg_p("role", "forced"),
}

# Headings of the pages' own columns (the others are priffe query's).
_HEADINGS: dict[str, Message] = {"seat": msg_p("column", "seat"), "role": msg_p("column", "role")}


def is_archive(conn: sqlite3.Connection) -> bool:
    """Whether ``conn`` is a priffe archive (its tables), so its pages are ours."""
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return names >= ARCHIVE_TABLES


def words() -> dict[str, str]:
    """Every fixed word of the pages, in the active language."""
    return {k: str(v) for k, v in {
        "home": msg_p("link", "home"), "evenings": msg("Evenings"),
        "players": msg("Players"), "sheet": msg_p("link", "score sheet"),
        "replay": msg_p("link", "replay"), "printable": msg("printable page"),
        "find_player": msg("Find a player"), "search": msg("Search"),
        "search_hint": msg("events, sites, players and commentary"),
        "name_part": msg("a part of the name"), "find": msg("Find"),
        "tables": msg("every table of the archive"), "deal": msg_p("column", "board"),
        "deals": msg_p("column", "deals"),
        "findings": msg("Findings"), "evening": msg("Evening"),
    }.items()}


def _cell(column: str, value: Any) -> str:
    """A stored value as a table shows it (``clean`` → ``felfri``, ``W`` → ``V``)."""
    if value is None:
        return ""
    label = cell_label(column, str(value))
    if label is not None:
        return label.render()
    if column == "date":
        return shown_date(str(value))
    if column == "made":
        return CELL_LABELS[("outcome", "made" if value else "defeated")].render()
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value) if column not in ("board", "rubber") else str(value)
    return str(value)


def _headings(columns: Sequence[str]) -> list[str]:
    return [_HEADINGS[c].render() if c in _HEADINGS else heading(c) for c in columns]


@dataclass
class Table:
    """Headings and rows of text; ``links[i][j]`` a cell's link (or None), ``replay[i]`` the
    row's replay link, shown first."""

    headings: list[str]
    rows: list[list[str]] = field(default_factory=list)
    links: list[list[str | None]] = field(default_factory=list)
    replay: list[str | None] = field(default_factory=list)


def _table(columns: Sequence[str], rows: Sequence[sqlite3.Row | tuple[Any, ...]]) -> Table:
    """Rows of ``columns`` as text, without links."""
    out = Table(_headings(columns))
    for row in rows:
        out.rows.append([_cell(c, v) for c, v in zip(columns, row, strict=False)])
        out.links.append([None] * len(columns))
        out.replay.append(None)
    return out


def _deals(columns: Sequence[str], rows: Sequence[sqlite3.Row | tuple[Any, ...]], base: str
           ) -> Table:
    """Rows that start with the deal's id: the rest as text, each row's replay link first
    and its board linked to the deal's page."""
    table = _table(columns, [r[1:] for r in rows])
    table.replay = [f"{base}/deals/{r[0]}/replay" for r in rows]
    table.links = [[f"{base}/deals/{r[0]}/page" if c == "board" else None for c in columns]
                   for r in rows]
    return table


def _players_by_partie(conn: sqlite3.Connection, base: str) -> dict[int, list[dict[str, str]]]:
    """Each partie's players (name order), linked to their pages: one query for the home
    page, not one a partie."""
    out: dict[int, list[dict[str, str]]] = {}
    for partie, pid, name in conn.execute(
            "SELECT DISTINCT d.partie_id, p.id, p.name FROM deals d "
            "JOIN seats s ON s.deal_id = d.id JOIN players p ON p.id = s.player_id "
            "ORDER BY d.partie_id, p.name"):
        out.setdefault(int(partie), []).append({"name": str(name),
                                                "href": f"{base}/players/{pid}/page"})
    return out


def home(conn: sqlite3.Connection, base: str) -> dict[str, Any]:
    """The evenings (newest first) with their players and sheet, and every player."""
    evenings = []
    who = _players_by_partie(conn, base)
    for pid, date, event, site, deals in conn.execute(
            "SELECT p.id, p.date, p.event, p.site, count(d.id) FROM parties p "
            "LEFT JOIN deals d ON d.partie_id = p.id GROUP BY p.id "
            "ORDER BY p.date DESC, p.id DESC"):
        evenings.append({
            "title": " · ".join(x for x in (event, site) if x) or str(msg("Partie")),
            "date": shown_date(date or ""), "deals": str(msg_n("{n} deal", "{n} deals", deals)),
            "sheet": f"{base}/parties/{pid}/sheet",
            "players": who.get(pid, [])})
    people = [{"name": n, "href": f"{base}/players/{i}/page", "deals": number(k)}
              for i, n, k in conn.execute(
                  "SELECT p.id, p.name, count(s.deal_id) FROM players p "
                  "JOIN seats s ON s.player_id = p.id GROUP BY p.id ORDER BY p.name")]
    return {"evenings": evenings, "people": people}


DEAL_COLUMNS = ("board", "rubber", "contract", "declarer", "tricks_ns", "tricks_ew",
                "score_ns", "score_ew", "status")
_DEAL_SQL = ("d.board, d.rubber, d.contract, d.declarer, d.tricks_ns, d.tricks_ew, "
             "COALESCE(d.score_ns, d.claimed_score_ns), "
             "COALESCE(d.score_ew, d.claimed_score_ew), d.status")


def evening(conn: sqlite3.Connection, partie: int, base: str) -> dict[str, Any]:
    """An evening's deals, each with its replay link first, under its sheet."""
    rows = conn.execute(f"SELECT d.id, {_DEAL_SQL} FROM deals d WHERE d.partie_id = ? "
                        "ORDER BY d.line, d.id", [partie]).fetchall()
    return {"deals": _deals(DEAL_COLUMNS, rows, base)}


def deal(conn: sqlite3.Connection, deal_id: int, base: str) -> dict[str, Any] | None:
    """One deal: where it was played, who sat where, what was made, what the checks said."""
    row = conn.execute(f"SELECT d.partie_id, d.event, d.site, d.date, {_DEAL_SQL} "
                       "FROM deals d WHERE d.id = ?", [deal_id]).fetchone()
    if row is None:
        return None
    partie, event, site, date, *facts = row
    seats = [{"seat": seat_letter(Seat(s)).render(), "name": n,
              "href": f"{base}/players/{i}/page"} for s, i, n in conn.execute(
        "SELECT s.seat, p.id, p.name FROM seats s JOIN players p ON p.id = s.player_id "
        "WHERE s.deal_id = ? ORDER BY instr('NESW', s.seat)", [deal_id])]
    findings = [{"rule": rule, "text": stored_messages.shown(data, text) or ""}
                for rule, data, text in conn.execute(
                    "SELECT rule, message_json, message FROM findings WHERE deal_id = ? "
                    "ORDER BY id", [deal_id])]
    board = facts[0]
    return {
        "title": " · ".join(str(x) for x in (
            msg("deal {board}", board=board or "?"), event, site) if x),
        "date": shown_date(date or ""), "seats": seats, "findings": findings,
        "facts": _table(DEAL_COLUMNS, [facts]),
        "replay": f"{base}/deals/{deal_id}/replay",
        "evening": f"{base}/parties/{partie}/sheet" if partie else None,
    }


PLAYER_COLUMNS = ("board", "seat", "role", "contract", "made", "points")


def player(conn: sqlite3.Connection, player_id: int, base: str) -> dict[str, Any] | None:
    """A player's deals evening by evening, newest first, each row with its replay link
    first (narrow enough for a phone: the evening is the heading, not a column)."""
    found = conn.execute("SELECT name FROM players WHERE id = ?", [player_id]).fetchone()
    if found is None:
        return None
    rows = conn.execute(
        "SELECT d.id, d.partie_id, d.date, d.event, d.site, d.board, pd.seat, pd.role, "
        "d.contract, d.made, pd.points FROM player_deals pd JOIN deals d ON d.id = pd.deal_id "
        "WHERE pd.player_id = ? ORDER BY d.date DESC, d.partie_id DESC, d.line, d.id",
        [player_id]).fetchall()
    evenings: list[dict[str, Any]] = []
    for d, partie, date, event, site, board, seat, role, contract, made, points in rows:
        if not evenings or evenings[-1]["partie"] != partie:
            evenings.append({
                "partie": partie, "href": f"{base}/parties/{partie}/sheet",
                "title": " · ".join(x for x in (shown_date(date or ""), event, site) if x),
                "deals": Table(_headings(PLAYER_COLUMNS))})
        table: Table = evenings[-1]["deals"]
        shown = _table(PLAYER_COLUMNS, [(board, seat_letter(Seat(seat)).render(),
                                         ROLES[role].render() if role in ROLES else role,
                                         contract, made, points)])
        table.rows += shown.rows
        table.links.append([f"{base}/deals/{d}/page" if c == "board" else None
                            for c in PLAYER_COLUMNS])
        table.replay.append(f"{base}/deals/{d}/replay")
    return {"name": str(found[0]), "evenings": evenings,
            "count": str(msg_n("{n} deal", "{n} deals", len(rows)))}


SEARCH_COLUMNS = ("board", "date", "event", "players", "contract")


def search(conn: sqlite3.Connection, words: str, base: str) -> Table | None:
    """The deals whose event, site, players or commentary hold every word, as ``priffe
    query --text`` finds them (the same filter), each with its replay link first; None
    when no word was given."""
    if not words.split():
        return None
    _, rows = find_deals(sqlite_utils.Database(conn), Filters(text=words),
                         ("id", *SEARCH_COLUMNS))
    return _deals(SEARCH_COLUMNS, list(rows), base)


def identity_names(value: str) -> str | None:
    """The players a ``parties.identity`` names (its JSON), for a person to read."""
    try:
        who = json.loads(json.loads(value)[3] or "[]")
    except (ValueError, TypeError, IndexError):
        return None
    names = [str(n) for n in who[:len(PLAYER_TAGS)] if n]
    return ", ".join(names) if names else None
