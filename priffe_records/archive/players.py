"""Finding a player by a part of the name, whatever its case, in every language.

SQLite's ``lower()``, ``NOCASE`` and ``LIKE`` fold ASCII only, so ``örjan`` never met
``Örjan Lå`` in SQL. ``players.folded`` holds each name casefolded by Python; the search
runs in Python over those (a club's few hundred names), and the SQL function
``priffe_players(text)``, registered on every archive connection and in the Datasette
plugin, hands its answer to SQL as a JSON list of ids: ``priffe query --player``, ``stats``
and the web's "Deals of a player" find the same people.

A search finds, in this order, the first non-empty of: the name itself (``Anna`` is Anna,
not Anna-Lisa too), the names with a word starting with it (``örjan``, ``lå``), the names
holding it anywhere. Several at that step is an ambiguous part: :func:`player_problem`
lists them.

>>> people = [(1, "örjan lå"), (2, "anna"), (3, "anna-lisa berg"), (4, "johanna")]
>>> [p for p, _ in best_matches(people, "ÖRJAN")], [p for p, _ in best_matches(people, "anna")]
([1], [2])
>>> [p for p, _ in best_matches(people, "lisa")], [p for p, _ in best_matches(people, "nna")]
([3], [2, 3, 4])
"""

from __future__ import annotations

import difflib
import json
import re
import sqlite3
from collections.abc import Iterable

import sqlite_utils

from priffe_records.game.language import Message, listing, msg

SQL_FUNCTION = "priffe_players"
# The ids of the players a text names, for ``IN (...)`` in SQL.
PLAYER_IDS = f"SELECT value FROM json_each({SQL_FUNCTION}(?))"


def fold(text: str) -> str:
    """A name as it is compared: casefolded (ß, Å, Ö), blanks collapsed."""
    return " ".join(text.casefold().split())


def best_matches(people: Iterable[tuple[int, str]], text: str) -> list[tuple[int, str]]:
    """The (id, folded name) pairs ``text`` names at its best step (see the module)."""
    needle = fold(text)
    if not needle:
        return []
    named = [(pid, fold(folded)) for pid, folded in people]
    at_word = re.compile(r"(?<!\w)" + re.escape(needle))
    for found in ([p for p in named if p[1] == needle],
                  [p for p in named if at_word.search(p[1])],
                  [p for p in named if needle in p[1]]):
        if found:
            return found
    return []


def people(conn: sqlite3.Connection) -> list[tuple[int, str]]:
    return [(int(pid), str(folded)) for pid, folded in
            conn.execute("SELECT id, folded FROM players ORDER BY id")]


def register(conn: sqlite3.Connection) -> None:
    """Make ``priffe_players(text)`` (a JSON list of player ids) callable in SQL on ``conn``."""
    def ids(text: str | None) -> str:
        found = best_matches(people(conn), text) if text else []
        return json.dumps([pid for pid, _ in found])

    conn.create_function(SQL_FUNCTION, 1, ids)


def names_of(db: sqlite_utils.Database, text: str) -> list[str]:
    """The stored names ``text`` names at its best step, in the order they were stored."""
    ids = [pid for pid, _ in best_matches(people(db.conn), text)]
    if not ids:
        return []
    marks = ", ".join("?" * len(ids))
    return [str(n) for (n,) in db.execute(f"SELECT name FROM players WHERE id IN ({marks}) "
                                          "ORDER BY id", ids)]


def ambiguity(db: sqlite_utils.Database, text: str | None) -> Message | None:
    """The players ``text`` names when it names several (a part of each name), else None."""
    names = names_of(db, text) if text else []
    if len(names) < 2:
        return None
    return msg("{text!r} is part of several players' names: {names} — write more of it",
               text=text, names=listing(names))


def player_problem(db: sqlite_utils.Database, text: str | None) -> Message | None:
    """Why ``text`` names no one player: several (:func:`ambiguity`) or no one of that
    name (with the nearest stored name, as a misspelt name otherwise reads as "played no
    deals"). None when it names exactly one."""
    if text is None:
        return None
    if names_of(db, text):
        return ambiguity(db, text)
    stored = {str(f): str(n) for f, n in db.execute("SELECT folded, name FROM players")}
    near = difflib.get_close_matches(fold(text), list(stored), n=1, cutoff=0.75)
    if near:
        return msg("no player {player!r} in the archive — did you mean {near!r}?",
                   player=text, near=stored[near[0]])
    return msg("no player {player!r} in the archive", player=text)
