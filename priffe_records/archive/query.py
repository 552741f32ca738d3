"""Questions to the archive: filtered deals, read-only SQL, statistics, export.

Every filter becomes a parameterised SQL fragment; no user text is ever
spliced into SQL. Player filters go through ``seats.player_id`` (the ids a part of a
name finds, ``archive/players.py``) and text search through the FTS5 index, so both use
indexes (see the benchmark's ``EXPLAIN QUERY PLAN``).

>>> f = Filters(player="Anna", made=True)
>>> where, params = f.where()
>>> params
['Anna']
>>> "seats" in where and "d.made = 1" in where
True
"""

from __future__ import annotations

import difflib
import json
import os
import re
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, NamedTuple

import sqlite_utils

from priffe_records.archive.players import PLAYER_IDS, player_problem
from priffe_records.format.errors import BadRecord, PriffeError
from priffe_records.format.reader import loads
from priffe_records.format.record import Record
from priffe_records.format.values import real_day
from priffe_records.format.writer import write
from priffe_records.game.language import Message, from_data, listing, msg
from priffe_records.game.words import side_from_word
from priffe_records.rules.family import default_family, families, family_named, game_words

# A player is found by a part of the name, whatever its case (archive/players.py).
_PLAYER_IDS = PLAYER_IDS
_DATE = re.compile(r"^(\d{4})(?:[.-](\d{1,2})(?:[.-](\d{1,2}))?)?$")


def _seat_name(seat: str) -> str:
    return (f"(SELECT p.name FROM seats s JOIN players p ON p.id = s.player_id "
            f"WHERE s.deal_id = d.id AND s.seat = '{seat}')")


# Every column `priffe query` can show, as SQL over ``deals d``.
COLUMN_SQL: dict[str, str] = {
    "id": "d.id", "date": "d.date", "event": "d.event", "site": "d.site",
    "rubber": "d.rubber", "board": "d.board", "dealer": "d.dealer",
    "north": _seat_name("N"), "east": _seat_name("E"), "south": _seat_name("S"),
    "west": _seat_name("W"), "players": "d.players",
    "contract": "d.contract", "declarer": "d.declarer", "tricks_ns": "d.tricks_ns",
    "tricks_ew": "d.tricks_ew", "made": "d.made", "slam": "d.slam",
    "outcome": "CASE d.made WHEN 1 THEN 'made' WHEN 0 THEN 'defeated' ELSE '' END",
    "score_ns": "COALESCE(d.score_ns, d.claimed_score_ns)",
    "score_ew": "COALESCE(d.score_ew, d.claimed_score_ew)",
    "tricks": "d.tricks_ns || '–' || d.tricks_ew",
    "score": "COALESCE(d.score_ns, d.claimed_score_ns) || '–' || "
             "COALESCE(d.score_ew, d.claimed_score_ew)",
    "status": "d.status", "errors": "d.errors", "source": "d.source", "line": "d.line",
    "ppn": "d.ppn", "game": "d.game", "pot": "d.pot",
}
# JSON and CSV: one value per column; the table: what fits a terminal.
FULL_COLUMNS = ("id", "date", "event", "site", "rubber", "board", "dealer", "north", "east",
                "south", "west", "contract", "declarer", "tricks_ns", "tricks_ew", "made",
                "slam", "score_ns", "score_ew", "status", "errors", "source", "line", "game",
                "pot")
TABLE_COLUMNS = ("id", "date", "event", "board", "players", "contract", "declarer", "tricks",
                 "outcome", "score", "status")


class QueryError(PriffeError):
    """A filter or SQL statement the archive cannot answer; the message says why."""


def _like(text: str) -> str:
    """A substring LIKE pattern with the wildcards of ``text`` escaped."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def pbn_date(text: str) -> str:
    """``2026-11-29`` or ``2026.11.29`` (or just a year / year and month) as a PBN date."""
    m = _DATE.match(text.strip())
    if not m:
        raise QueryError(msg("date {text!r}: write YYYY.MM.DD (or YYYY-MM-DD, YYYY.MM, YYYY)",
                             text=text))
    parts = [m.group(1)] + [p.zfill(2) for p in m.groups()[1:] if p]
    if not real_day(*[*parts, "??", "??"][:3]):
        raise QueryError(msg("date {text!r} is not a day of the calendar", text=text))
    return ".".join(parts)


@dataclass(frozen=True, slots=True)
class Filters:
    """The deal filters of ``priffe query`` and ``priffe export``; ``None`` means any."""

    player: str | None = None
    partner: str | None = None
    opponent: str | None = None
    event: str | None = None
    site: str | None = None
    date_from: str | None = None
    date_to: str | None = None
    contract: str | None = None
    declarer_side: str | None = None
    made: bool | None = None  # True: made, False: defeated
    slam: bool = False
    errors: bool | None = None  # True: with errors, False: clean
    text: str | None = None
    game: str | None = None  # priffe | preference

    def where(self) -> tuple[str, list[Any]]:
        """The WHERE clause (over ``deals d``) and its parameters."""
        clauses: list[str] = []
        params: list[Any] = []
        player = self.player or None
        if (self.partner or self.opponent) and player is None:
            raise QueryError(msg("--partner and --opponent need --player (whose partner or "
                                 "opponent)"))
        if player is not None:
            clauses.append(f"d.id IN (SELECT deal_id FROM seats WHERE player_id IN "
                           f"({_PLAYER_IDS}))")
            params.append(player)
        for other, same in ((self.partner, True), (self.opponent, False)):
            if other and player is not None:
                clauses.append(
                    "EXISTS (SELECT 1 FROM seats a JOIN seats b ON b.deal_id = a.deal_id "
                    f"AND b.seat <> a.seat AND (b.side = a.side) = {int(same)} "
                    f"WHERE a.deal_id = d.id AND a.player_id IN ({_PLAYER_IDS}) "
                    f"AND b.player_id IN ({_PLAYER_IDS}))")
                params += [player, other]
        for column, value in (("event", self.event), ("site", self.site)):
            if value:
                clauses.append(f"d.{column} LIKE ? ESCAPE '\\'")
                params.append(_like(value))
        if self.date_from:
            clauses.append("d.date >= ?")
            params.append(pbn_date(self.date_from))
        if self.date_to:
            clauses.append("d.date <= ?")
            # A bare year or month includes all of it: 2026 → up to 2026.99.99.
            last = pbn_date(self.date_to)
            params.append(last + ".99" * (2 - last.count(".")))
        family = default_family()
        if self.game:
            try:
                family = family_named(self.game)
            except KeyError:
                raise QueryError(msg("--game {game!r}: write one of {games}", game=self.game,
                                     games=", ".join(game_words()))) from None
            clauses.append("d.game = ?")
            params.append(family.name)
        if self.contract:
            clauses.append("d.contract = ?")
            params.append(_contract(self.contract, family.vocabulary.contracts))
        if self.declarer_side:
            side = side_from_word(self.declarer_side)
            if side is None:
                raise QueryError(msg("--declarer-side {side!r}: write NS or EW",
                                     side=self.declarer_side))
            clauses.append("d.declaring_side = ?")
            params.append(side.value)
        if self.made is not None:
            clauses.append(f"d.made = {int(self.made)}")
        if self.slam:
            clauses.append("d.slam IS NOT NULL")
        if self.errors is not None:
            clauses.append("d.errors > 0" if self.errors else "d.errors = 0")
        if self.text:
            clauses.append("d.id IN (SELECT rowid FROM deals_fts WHERE deals_fts MATCH ?)")
            params.append(_fts_query(self.text))
        return (" AND ".join(clauses) or "1"), params


def _contract(text: str, contracts: Mapping[str, str]) -> str:
    """The contract word the family's vocabulary reads ``text`` as (any spelling, any
    case), else a one-line error that names the closest one."""
    key = text.strip().casefold()
    if key in contracts:
        return contracts[key]
    close = difflib.get_close_matches(key, list(contracts), n=1, cutoff=0.75)
    why = msg("unknown contract {text!r} — did you mean {hint!r}?", text=text,
              hint=contracts[close[0]]) if close else msg("unknown contract {text!r}", text=text)
    raise QueryError(msg("--contract: {error}", error=why))


def _fts_query(text: str) -> str:
    """Every word must occur; each is quoted, so FTS syntax (OR, NOT, *) is plain text."""
    words = [w.replace('"', '""') for w in text.split()]
    if not words:
        raise QueryError(msg("--text needs at least one word"))
    return " ".join(f'"{w}"' for w in words)


def deals_sql(filters: Filters, columns: Sequence[str] = FULL_COLUMNS,
              limit: int | None = None) -> tuple[str, list[Any]]:
    where, params = filters.where()
    select = ", ".join(f"{COLUMN_SQL[c]} AS {c}" for c in columns)
    sql = f"SELECT {select} FROM deals d WHERE {where} ORDER BY d.id"
    if limit is not None:
        sql += " LIMIT ?"
        params.append(limit)
    return sql, params


def find_deals(db: sqlite_utils.Database, filters: Filters, columns: Sequence[str] = FULL_COLUMNS,
               limit: int | None = None) -> tuple[list[str], Iterator[tuple[Any, ...]]]:
    """Column names and the matching deals' rows, in import (= file) order."""
    sql, params = deals_sql(filters, columns, limit)
    return list(columns), _rows(db, sql, params)


def _rows(db: sqlite_utils.Database, sql: str, params: Sequence[Any]
          ) -> Iterator[tuple[Any, ...]]:
    try:
        yield from db.execute(sql, list(params))
    except sqlite3.Error as e:
        raise QueryError(str(e)) from None


def matching_records(db: sqlite_utils.Database, filters: Filters,
                     limit: int | None = None) -> Iterator[Record | BadRecord]:
    """The matching records read back from their stored canonical text."""
    sql, params = deals_sql(filters, ("ppn",), limit)
    for (ppn,) in _rows(db, sql, params):
        yield from loads(ppn, errors="collect", name="<archive>", header=False)


def export(db: sqlite_utils.Database, filters: Filters,
           out: str | os.PathLike[str] | IO[str]) -> int:
    """Write the matching records as PPN (a path atomically); returns how many."""
    return write(matching_records(db, filters), out)


class StoredText(NamedTuple):
    """A stored deal's text and where it was read from (``source``, its first ``line``), so
    what is found in it is told at the user's file and line."""

    id: int
    ppn: str
    source: str | None = None
    line: int | None = None


_STORED = "SELECT id, ppn, source, line FROM deals"


def _stored(rows: Iterator[tuple[Any, ...]]) -> list[StoredText]:
    return [StoredText(int(i), str(text), None if src is None else str(src),
                       None if line is None else int(line)) for i, text, src, line in rows]


def partie_of_deal(db: sqlite_utils.Database, deal_id: int) -> list[StoredText]:
    """Every deal in the partie holding ``deal_id``, in partie order.

    The replay needs the whole partie so games and rubber totals come out as
    on import; a deal stored without a partie (unreadable) comes alone.
    """
    row = db.execute("SELECT partie_id FROM deals WHERE id = ?", [deal_id]).fetchone()
    if row is None:
        raise QueryError(msg("no deal with id {id} (see 'priffe query')", id=deal_id))
    where, params = ("id = ?", [deal_id]) if row[0] is None else ("partie_id = ?", [row[0]])
    return _stored(db.execute(f"{_STORED} WHERE {where} ORDER BY line, id", params))


def partie_texts(db: sqlite_utils.Database, partie_id: int) -> list[StoredText]:
    """Every deal of partie ``partie_id``, in partie order (its score sheet)."""
    return _stored(db.execute(f"{_STORED} WHERE partie_id = ? ORDER BY line, id",
                              [partie_id]))


# ---------------------------------------------------------------- read-only SQL


def _deny_outside(action: int, arg1: str | None, arg2: str | None, db: str | None,
                  trigger: str | None) -> int:
    """ATTACH (and VACUUM INTO, which attaches) could create files: never from ``sql``."""
    if action in (sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH):
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def run_sql(db: sqlite_utils.Database, sql: str, params: Sequence[Any] = ()
            ) -> tuple[list[str], Iterator[tuple[Any, ...]]]:
    """Run one statement on a read-only connection; column names and rows."""
    db.conn.set_authorizer(_deny_outside)
    db.execute("PRAGMA query_only = ON")
    try:
        cur = db.conn.execute(sql, list(params))
    except sqlite3.Warning:
        raise QueryError(msg("one statement at a time, please")) from None
    except (sqlite3.OperationalError, sqlite3.ProgrammingError,
            sqlite3.DatabaseError) as e:
        text = str(e)
        if any(w in text for w in ("readonly", "read-only", "authoriz", "query_only")):
            raise QueryError(msg("priffe sql is read-only: it answers SELECT (and WITH … "
                                 "SELECT) statements; change the archive with priffe import"
                                 )) from None
        if "one statement" in text:
            raise QueryError(msg("one statement at a time, please")) from None
        raise QueryError(msg("SQL: {error}", error=text)) from None
    names = [d[0] for d in cur.description or ()]
    return names, _cursor_rows(cur)


def _cursor_rows(cur: sqlite3.Cursor) -> Iterator[tuple[Any, ...]]:
    try:
        yield from cur
    except sqlite3.Error as e:
        raise QueryError(msg("SQL: {error}", error=str(e))) from None


# ---------------------------------------------------------------- statistics


@dataclass(frozen=True, slots=True)
class Table:
    """A titled result table, for the CLI to show or print as JSON.

    The title is shown in the reader's language; JSON and CSV name the table by its
    ``key``, a word like their column names (``contract_success``), so scripts read one
    spelling in every language."""

    key: str
    title: Message
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


def _table(db: sqlite_utils.Database, key: str, title: Message, sql: str,
           params: Sequence[Any] = ()) -> Table:
    cur = db.execute(sql, list(params))
    return Table(key, title, tuple(d[0] for d in cur.description), tuple(cur.fetchall()))


# A player_deals row's game (the view predates the column).
_GAME = "(SELECT game FROM deals WHERE id = deal_id) AS game"


_DD_COLUMNS = ("dd_deals, dd_declared, dd_cost_declarer, dd_partnered, dd_cost_partner, "
               "dd_defended, dd_cost_defender, dd_forced, dd_cost_forced, dd_positive, "
               "dd_clean_positive_pct, dd_misere, dd_clean_misere_pct")

# Per player, by contract kind (positive: most tricks wanted; misère: fewest): the deals
# whose every card of theirs was analysed, and the share of them played without giving a
# trick away to double-dummy best play — the figure clubs compare.
_DD_CLEAN = (
    "SELECT player_id, sum(goal = 'most') AS dd_positive, round(100.0 * sum(goal = 'most' "
    "AND cost = 0) / nullif(sum(goal = 'most'), 0), 1) AS dd_clean_positive_pct, "
    "sum(goal = 'fewest') AS dd_misere, round(100.0 * sum(goal = 'fewest' AND cost = 0) / "
    "nullif(sum(goal = 'fewest'), 0), 1) AS dd_clean_misere_pct "
    "FROM dd_player_deals JOIN dd_deals USING (deal_id) WHERE analysed GROUP BY player_id")


def stats(db: sqlite_utils.Database, player: str | None = None) -> list[Table]:
    """Standings (R23/R24 settlements summed), per-player results, contract success, and
    each player's double-dummy cost per deal where the archive has analyses."""
    problem = player_problem(db, player)
    if problem is not None:
        raise QueryError(problem)
    only = f" WHERE player_id IN ({_PLAYER_IDS})" if player else ""
    params = [player] if player else []
    tables = [
        _table(db, "standings", msg("Standings (individual settlements, R23/R24)"),
               f"SELECT player, rubbers, settlement FROM player_standings{only}", params),
        _table(db, "players", msg("Players"), "SELECT player, deals, declared, made, "
               "penalty_suffered, penalty_inflicted, slams, points, settlement "
               f"FROM player_results{only} ORDER BY settlement DESC, player", params),
        _table(db, "contracts_declared", msg("Contracts declared, by player"),
               f"SELECT player, {_GAME}, contract, count(*) AS declared, sum(made = 1) AS made, "
               f"sum(made = 0) AS defeated FROM player_deals WHERE role = 'declarer'"
               + (f" AND player_id IN ({_PLAYER_IDS})" if player else "")
               + " GROUP BY player_id, game, contract ORDER BY player, declared DESC", params),
    ]
    if player:
        tables.append(_table(
            db, "contracts_played", msg("Contracts played, by kind"),
            f"SELECT {_GAME}, contract, count(*) AS deals, sum(role = 'declarer') AS declared, "
            "sum(role = 'partner') AS partner, sum(role = 'defender') AS defended, "
            "sum(slam IS NOT NULL) AS slams FROM player_deals "
            f"WHERE player_id IN ({_PLAYER_IDS}) "
            "GROUP BY game, contract ORDER BY deals DESC", params))
    else:
        tables.append(_table(db, "contract_success", msg("Contract success rates"),
                             "SELECT * FROM contract_success"))  # per game (schema v10)
    # each game's own standings after the rubbers' (the families' order), where it has any
    games = [_table(db, s.view, s.title, f"SELECT player, {', '.join(s.columns)} "
                    f"FROM {s.view}{only}", params)
             for fam in families() for s in fam.standings()]
    tables[1:1] = [t for t in games if t.rows]
    costs = _table(db, "dd_costs", msg("Double-dummy cost per deal: tricks given away against "
                                       "best play, by role; and the share of deals played "
                                       "without one given away, positive and misère"),
                   f"SELECT player, {_DD_COLUMNS} FROM dd_player_costs "
                   f"JOIN ({_DD_CLEAN}) USING (player_id){only} ORDER BY player", params)
    if costs.rows:  # once 'priffe analyse' has run
        tables.append(costs)
    return tables


def split_names(db: sqlite_utils.Database, partie_ids: Sequence[int] | None = None
                ) -> list[Message]:
    """One line per partie where a name nearly matches another (the R24/P1 "did you mean"
    warning): the standings count the two names as two players, and the reader should
    know. ``partie_ids`` limits it to those parties (an import's)."""
    sql = ("SELECT partie_id, rule, message_json FROM findings WHERE rule IN ('R24', 'P1') "
           "AND message_json IS NOT NULL AND partie_id IS NOT NULL")
    if partie_ids is not None:
        if not partie_ids:
            return []
        sql += f" AND partie_id IN ({', '.join('?' * len(partie_ids))})"
    slips: dict[int, dict[tuple[str, str], str]] = {}
    for partie_id, rule, data in db.execute(sql + " ORDER BY partie_id, id",
                                            list(partie_ids or ())).fetchall():
        params = from_data(json.loads(data)).params
        if "known" in params and "name" in params:  # not "more players than seats"
            slips.setdefault(int(partie_id), {}).setdefault(
                (str(params["name"]), str(params["known"])), str(rule))
    lines = []
    for partie_id, found in slips.items():
        each = [msg("{name!r} looks like {known!r} ({rule})", name=name, known=known, rule=rule)
                for (name, known), rule in found.items()]
        lines.append(msg("partie {id}: {slips} — the standings count them apart",
                         id=partie_id, slips=listing(each)))
    return lines
