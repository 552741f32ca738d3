"""The archive's SQLite schema: opening a database safely and migrating it in place.

One function, :func:`ensure_schema`, creates or upgrades the schema; it is
idempotent and safe against a second process doing the same at the same
moment (the migration runs under ``BEGIN IMMEDIATE`` and re-reads the
version once it holds the lock). The version lives in ``PRAGMA user_version``
and the file is marked as ours with ``PRAGMA application_id``, so a database
written by a newer release, or by another program, is refused instead of
being damaged.

>>> db = open_archive(":memory:")
>>> ensure_schema(db)
>>> schema_version(db) == SCHEMA_VERSION, "deals_fts" in db.table_names()
(True, True)
>>> ensure_schema(db)  # a second run changes nothing
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import sqlite_utils

from priffe_records.archive import players, stored_messages
from priffe_records.archive.rows import added_in
from priffe_records.format.errors import PriffeError
from priffe_records.format.vocabulary import entry_points
from priffe_records.game.language import Message, msg

SCHEMA_VERSION = 13
APPLICATION_ID = 0x50524946  # "PRIF": marks the file as a priffe archive
DEFAULT_TIMEOUT = 60.0  # seconds to wait for another writer (an import running)


class ArchiveError(PriffeError):
    """A database that cannot be used as it is; the message says which and why."""


def open_archive(path: str | os.PathLike[str], *, readonly: bool = False,
                 timeout: float = DEFAULT_TIMEOUT, create: bool = True) -> sqlite_utils.Database:
    """Open (or, writable and ``create``, create) an archive database.

    Only ``import`` creates an archive; a command that writes into an existing one
    (``remove``, ``analyse``) passes ``create=False`` so a mistyped name is an error,
    not a new empty file.

    Read-only opening uses SQLite's URI ``mode=ro``, so even a crafted query
    cannot write; in a folder we may not write to, it falls back to
    ``immutable=1`` (nobody can be writing there either). The connection is
    in autocommit mode: every transaction in this package is explicit.
    """
    name = os.fspath(path)
    if name == ":memory:":
        conn = sqlite3.connect(name, isolation_level=None)
    elif (readonly or not create) and not Path(name).is_file():
        raise ArchiveError(msg("{name}: no such database (create one with 'priffe import')",
                               name=name))
    elif readonly:
        conn = _connect_ro(name, timeout)
    else:
        parent = Path(name).parent
        if not parent.is_dir():
            raise ArchiveError(msg("{name}: folder {folder!r} does not exist", name=name,
                                   folder=str(parent)))
        if Path(name).is_dir():
            raise ArchiveError(msg("{name}: is a folder, not a database file", name=name))
        try:
            conn = sqlite3.connect(name, timeout=timeout, isolation_level=None)
        except sqlite3.Error as e:
            raise ArchiveError(describe_sqlite_error(name, e)) from None
    stored_messages.register(conn)  # priffe_message(message_json, message) in SQL
    players.register(conn)  # priffe_players(text): the ids a part of a name finds
    db = sqlite_utils.Database(conn, execute_plugins=False)
    try:
        db.execute("PRAGMA foreign_keys = ON")
        _check_ours(db, name)
    except sqlite3.DatabaseError as e:
        conn.close()
        raise ArchiveError(describe_sqlite_error(name, e)) from None
    except ArchiveError:
        conn.close()
        raise
    return db


def _connect_ro(name: str, timeout: float) -> sqlite3.Connection:
    uri = "file:" + quote(os.path.abspath(name))
    conn: sqlite3.Connection | None = None
    try:
        conn = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=timeout, isolation_level=None)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError:
            # A WAL database in a folder we cannot write: SQLite cannot make the
            # shared-memory file, but an immutable read needs none.
            conn.close()
            conn = sqlite3.connect(uri + "?mode=ro&immutable=1", uri=True, isolation_level=None)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.DatabaseError as e:
        if conn is not None:
            conn.close()
        raise ArchiveError(describe_sqlite_error(name, e)) from None


def describe_sqlite_error(name: str, e: sqlite3.Error) -> Message:
    """One plain sentence for the SQLite errors a user can meet and fix."""
    text = str(e)
    if "file is not a database" in text or "malformed" in text:
        return msg("{name}: not a SQLite database (or a damaged one)", name=name)
    if "locked" in text or "busy" in text:
        return msg("{name}: the database is busy (another import is writing to it); "
                   "waited long enough, try again later or raise --timeout", name=name)
    if "readonly" in text or "read-only" in text:
        return msg("{name}: cannot write the database here (read-only file or folder)",
                   name=name)
    if "unable to open" in text:
        return msg("{name}: cannot open or create the database here (a read-only location, "
                   "or no permission)", name=name)
    if "disk" in text and "full" in text:
        return msg("{name}: the disk is full; nothing of the current file was stored",
                   name=name)
    return msg("{name}: {error}", name=name, error=text)  # SQLite's own words


def _check_ours(db: sqlite_utils.Database, name: str) -> None:
    # One read transaction: another import creating this file may commit its
    # schema between two of these reads, and tables without the version that
    # came with them look like another program's database.
    db.execute("BEGIN")
    try:
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = schema_version(db)
        tables = bool(db.table_names())
    finally:
        if db.conn.in_transaction:
            db.execute("COMMIT")
    if app not in (0, APPLICATION_ID):
        raise ArchiveError(msg("{name}: a SQLite database of another program "
                               "(application_id {app}), not a priffe archive",
                               name=name, app=hex(app)))
    if app == 0 and version == 0 and tables:
        # An unmarked database with tables of its own: adding ours would mix them.
        raise ArchiveError(msg("{name}: a SQLite database of another program "
                               "(it has tables and no priffe schema), not a priffe archive",
                               name=name))
    if version > SCHEMA_VERSION:
        raise ArchiveError(msg("{name}: written by a newer priffe-records (archive schema "
                               "version {version}; this release reads up to {ours}); "
                               "upgrade priffe-records", name=name, version=version,
                               ours=SCHEMA_VERSION))


def schema_version(db: sqlite_utils.Database) -> int:
    version: int = db.execute("PRAGMA user_version").fetchone()[0]
    return version


def _switch_to_wal(db: sqlite_utils.Database, timeout: float) -> None:
    """``PRAGMA journal_mode = WAL``, retried: SQLite does not wait on the busy
    timeout for it, so two imports creating one new database at once would
    see "database is locked" at once (5 times in 25 tries, measured)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as e:
            if ("locked" not in str(e) and "busy" not in str(e)) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def ensure_schema(db: sqlite_utils.Database, timeout: float = DEFAULT_TIMEOUT) -> None:
    """Create the schema or migrate it to :data:`SCHEMA_VERSION`; a no-op when current.

    Each migration step runs in one transaction with the version bump, so a
    crash leaves the previous version intact, never half a migration.
    """
    if schema_version(db) == SCHEMA_VERSION and _families_known(db):
        return
    if not hasattr(sqlite_utils.Database, "atomic"):
        # sqlite-utils 3 commits open transactions inside enable_fts: a crash
        # could leave half a schema. Refuse rather than risk it.
        raise ArchiveError(msg("the archive needs sqlite-utils 4 or newer "
                               "(pip install -U sqlite-utils)"))
    if db.conn.execute("PRAGMA database_list").fetchone()[2]:
        # WAL lets readers (a query, Datasette) work while an import writes;
        # it must be set outside a transaction, and it persists in the file.
        _switch_to_wal(db, timeout)
    db.execute("BEGIN IMMEDIATE")
    try:
        version = schema_version(db)  # another process may have migrated meanwhile
        if version > SCHEMA_VERSION:
            raise ArchiveError(msg("archive schema version {version} is newer than this "
                                   "release's {ours}", version=version, ours=SCHEMA_VERSION))
        for step in MIGRATIONS[version:]:
            step(db)
        for name, sql in _missing_views(db).items():
            db.create_view(name, sql)
        db.execute("DELETE FROM families")
        db.conn.executemany("INSERT INTO families (name, entry) VALUES (?, ?)",
                            sorted(entry_points().items()))
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("COMMIT")
    except BaseException:
        if db.conn.in_transaction:
            db.execute("ROLLBACK")
        raise


def _families_known(db: sqlite_utils.Database) -> bool:
    """Whether the archive was last opened with the game families installed now (their entry
    points, read without loading a family): a family installed since gets its views."""
    stored = db.execute("SELECT name, entry FROM families ORDER BY name").fetchall()
    return [tuple(row) for row in stored] == sorted(entry_points().items())


def _missing_views(db: sqlite_utils.Database) -> dict[str, str]:
    """The registered families' own views (their ``archive_views`` hook) the archive lacks,
    made after every migration and whenever the installed families changed."""
    from priffe_records.rules.family import families  # only when migrating

    have = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'view'")}
    return {name: sql for fam in families() for name, sql in fam.archive_views().items()
            if name not in have}


# ---------------------------------------------------------------- version 1


def _v1(db: sqlite_utils.Database) -> None:
    """The first schema: parties, rubbers, deals and what hangs off a deal."""
    db.table("parties").create({
        "id": int, "event": str, "site": str, "date": str, "source": str,
        "imported_at": str,
    }, pk="id")
    db.table("parties").create_index(["event", "site", "date"])
    # ``folded`` is the casefolded name: SQLite's NOCASE folds ASCII only, and
    # names here are Åsa and Örjan.
    db.table("players").create({"id": int, "name": str, "folded": str}, pk="id",
                               not_null=["name", "folded"])
    db.table("players").create_index(["name"], unique=True)
    db.table("players").create_index(["folded"])
    db.table("rubbers").create({
        "id": int, "partie_id": int, "number": int, "complete": int, "winner": str,
        "total_ns": int, "total_ew": int,
    }, pk="id", foreign_keys=[("partie_id", "parties", "id")])
    db.table("rubbers").create_index(["partie_id", "number"], unique=True)
    first = added_in(1)  # the deals table as rows.DEAL_TABLE declares it
    db.table("deals").create(
        {"id": int, **{c.name: c.type for c in first}}, pk="id",
        not_null=[c.name for c in first if c.not_null],
        foreign_keys=[(c.name, c.references, "id") for c in first if c.references])
    db.table("deals").create_index(["hash"], unique=True)
    for cols in (["contract"], ["declarer"], ["date"], ["status"], ["slam"]):
        db.table("deals").create_index(cols)
    db.table("seats").create({"deal_id": int, "seat": str, "side": str, "player_id": int},
                       pk=("deal_id", "seat"), foreign_keys=[
                           ("deal_id", "deals", "id"), ("player_id", "players", "id")])
    db.table("calls").create({"deal_id": int, "idx": int, "seat": str, "call": str},
                       pk=("deal_id", "idx"), foreign_keys=[("deal_id", "deals", "id")])
    db.table("tricks").create({
        "deal_id": int, "number": int, "leader": str, "winner": str,
        "card_n": str, "card_e": str, "card_s": str, "card_w": str,
    }, pk=("deal_id", "number"), foreign_keys=[("deal_id", "deals", "id")])
    db.table("findings").create({
        "id": int, "deal_id": int, "partie_id": int, "rule": str, "severity": str,
        "message": str, "file": str, "line": int, "col": int,
    }, pk="id", not_null=["rule", "severity", "message"], foreign_keys=[
        ("deal_id", "deals", "id"), ("partie_id", "parties", "id")])
    db.table("findings").create_index(["rule"])
    db.table("settlements").create({
        "rubber_id": int, "seat": str, "player_id": int, "points": int, "claimed": int,
    }, pk=("rubber_id", "seat"), foreign_keys=[
        ("rubber_id", "rubbers", "id"), ("player_id", "players", "id")])
    # Every foreign key is indexed: a composite primary key that starts with
    # the column covers it; the others get their own index.
    for table, column in (("deals", "partie_id"), ("deals", "rubber_id"),
                          ("seats", "player_id"), ("findings", "deal_id"),
                          ("findings", "partie_id"), ("settlements", "player_id")):
        db.table(table).create_index([column])
    # Search: event, site, the four names and every comment of the record.
    db.table("deals").enable_fts(["event", "site", "players", "commentary"],
                                 create_triggers=True, tokenize="unicode61 remove_diacritics 2")
    for name, sql in VIEWS_V1.items():
        db.create_view(name, sql)


# A deal's score for a side: the computed one, else what the record claims.
_SIDE = "CASE s.side WHEN 'NS' THEN {0}_ns ELSE {0}_ew END"
# A seat's role until version 13: every seat of a deal without a declaring side forced.
_ROLE_V1 = """CASE WHEN d.declaring_side IS NULL THEN 'forced'
       WHEN d.declarer = s.seat THEN 'declarer'
       WHEN d.declaring_side = s.side THEN 'partner'
       ELSE 'defender' END AS role"""

VIEWS_V1: dict[str, str] = {
    # One row per player per deal: the base of every per-player question.
    "player_deals": f"""
SELECT s.deal_id, p.id AS player_id, p.name AS player, s.seat, s.side,
  d.partie_id, d.event, d.site, d.date, d.rubber, d.board, d.contract, d.declarer,
  {_ROLE_V1},
  d.made,
  CASE WHEN d.scoring_side = s.side THEN d.scoring_tricks ELSE 0 END AS tricks_scored,
  CASE WHEN d.declaring_side = s.side THEN d.penalty_tricks ELSE 0 END AS penalty_suffered,
  CASE WHEN d.declaring_side IS NOT NULL AND d.declaring_side <> s.side
       THEN d.penalty_tricks ELSE 0 END AS penalty_inflicted,
  CASE WHEN d.scoring_side = s.side THEN d.slam END AS slam,
  COALESCE({_SIDE.format('d.score')}, {_SIDE.format('d.claimed_score')}) AS points,
  d.status
FROM seats s JOIN players p ON p.id = s.player_id JOIN deals d ON d.id = s.deal_id""",
    # Individual settlements (R23), summed per player over every rubber (R24).
    "player_standings": """
SELECT p.id AS player_id, p.name AS player, count(*) AS rubbers,
  sum(COALESCE(st.points, st.claimed)) AS settlement
FROM settlements st JOIN players p ON p.id = st.player_id
GROUP BY p.id ORDER BY settlement DESC, player""",
    "player_results": """
SELECT pd.player_id, pd.player, count(*) AS deals,
  sum(pd.role = 'declarer') AS declared,
  sum(pd.role = 'declarer' AND pd.made = 1) AS made,
  sum(pd.penalty_suffered) AS penalty_suffered,
  sum(pd.penalty_inflicted) AS penalty_inflicted,
  sum(pd.slam IS NOT NULL) AS slams,
  sum(pd.points) AS points, ps.settlement
FROM player_deals pd LEFT JOIN player_standings ps ON ps.player_id = pd.player_id
GROUP BY pd.player_id ORDER BY ps.settlement DESC, pd.player""",
    "contract_success": """
SELECT contract, count(*) AS deals, sum(declaring_side IS NOT NULL) AS declared,
  sum(made = 1) AS made, sum(made = 0) AS defeated,
  round(100.0 * sum(made = 1) / nullif(sum(made IS NOT NULL), 0), 1) AS success_pct
FROM deals WHERE contract IS NOT NULL GROUP BY contract ORDER BY deals DESC""",
    "slams": """
SELECT id AS deal_id, event, site, date, board, contract, declarer, scoring_side, slam,
  scoring_tricks, penalty_tricks, players
FROM deals WHERE slam IS NOT NULL""",
}

def _add_deal_columns(db: sqlite_utils.Database, version: int) -> None:
    """The columns of ``deals`` that ``rows.DEAL_TABLE`` says schema ``version`` added."""
    for c in added_in(version):
        db.execute(f"ALTER TABLE deals ADD COLUMN {c.name} {c.sql_type}")


# ---------------------------------------------------------------- version 2


def _v2(db: sqlite_utils.Database) -> None:
    """Record identity and history: a corrected record replaces the stored one.

    ``ident`` is the record's place in its partie, ``rubber/board`` from its
    own tags (NULL without a Board): a re-imported record of the same partie
    and place, with other text, supersedes the stored deal. The text it
    replaced, and every removed record, stays in ``deal_history``.
    """
    _add_deal_columns(db, 2)
    db.execute("UPDATE deals SET ident = COALESCE(rubber, '') || '/' || board "
               "WHERE board IS NOT NULL")
    db.table("deals").create_index(["partie_id", "ident"])
    db.table("deal_history").create({
        "id": int, "deal_id": int, "action": str, "hash": str, "ppn": str, "source": str,
        "line": int, "imported_at": str, "changed_at": str, "changed_by": str,
    }, pk="id", not_null=["deal_id", "action", "ppn"])
    db.table("deal_history").create_index(["deal_id"])


# ---------------------------------------------------------------- version 3


def _v3(db: sqlite_utils.Database) -> None:
    """Two game families: ``deals.game`` (the family's name), the Préférence pot after
    each deal and each seat's change of balance."""
    _add_deal_columns(db, 3)  # game and pot
    db.execute("ALTER TABLE seats ADD COLUMN balance_change INTEGER")
    db.execute("UPDATE deals SET game = CASE WHEN ppn LIKE '%[Scoring \"Preference%' "
               "THEN 'Preference' ELSE 'Priffe' END WHERE status != 'unreadable'")
    db.table("deals").create_index(["game"])  # the family views come last (ensure_schema)


# ---------------------------------------------------------------- version 4


def _v4(db: sqlite_utils.Database) -> None:
    """Each source file's SHA-256 as last imported: an unchanged file is not read again.

    ``reject_invalid`` is the flag it was imported with (a file imported with
    it and then without stores more); ``records``/``rejected`` let a skipped
    import report what the full one would.
    """
    db.table("sources").create({
        "source": str, "sha256": str, "size": int, "records": int, "rejected": int,
        "reject_invalid": int, "imported_at": str,
    }, pk="source", not_null=["sha256"])


# ---------------------------------------------------------------- version 5


def _v5(db: sqlite_utils.Database) -> None:
    """Findings as messages: ``findings.message_json`` holds the gettext id and
    field values, so a reader sees them in their language (SQL: ``priffe_message``), and
    ``message`` is English. Rows stored before hold text in the language of their import:
    each distinct text is matched against the catalog (:func:`stored_messages.recover`);
    a text no entry renders keeps its words and a NULL ``message_json``."""
    db.execute("ALTER TABLE findings ADD COLUMN message_json TEXT")
    texts = [row[0] for row in db.execute("SELECT DISTINCT message FROM findings")]
    for text in texts:
        message = stored_messages.recover(text)
        if message is not None:
            db.execute("UPDATE findings SET message_json = ?, message = ? WHERE message = ?",
                       [stored_messages.message_json(message), message.render("en"), text])


# ---------------------------------------------------------------- version 6


def _v6(db: sqlite_utils.Database) -> None:
    """The search index gets a batch of new deals in one ``INSERT … SELECT`` (the store
    writes it after each batch), not one trigger run per inserted row.

    Only the insert trigger goes: a deal updated or deleted (a correction, a removal)
    is rare, and its triggers keep the index in step as before.
    """
    db.execute("DROP TRIGGER IF EXISTS deals_ai")


# ---------------------------------------------------------------- version 7


def _v7(db: sqlite_utils.Database) -> None:
    """Each record's raw text as the reader cut it (SHA-256 of its lines), with the hash of
    the canonical text it reads as: a re-imported file's stored records are
    recognised before they are parsed, and a partie whose every record is stored costs
    no parse and no check.

    A cache of the reader, not a fact about the deals: one raw text always reads as the
    same canonical text, so a row stays true when its deal is corrected or removed (the
    store joins ``deals`` on ``hash`` and asks only for texts stored now). Filled by every
    import path from now on; an archive from before simply parses on its next re-import.
    """
    db.execute("CREATE TABLE IF NOT EXISTS raw_texts (raw BLOB PRIMARY KEY, "
               "hash TEXT NOT NULL) WITHOUT ROWID")


# ---------------------------------------------------------------- version 8


def _v8(db: sqlite_utils.Database) -> None:
    """Identity by content, not by path (:mod:`priffe_records.archive.identity`).

    ``parties.identity`` is the partie's key (Event, Site, Date and who played its first
    deal), so a copy of a file under another name or in another folder is the same
    partie; ``partie_sources`` keeps every file an import stored a partie's deals from
    (the old ``parties.source`` is its first row). ``deals.ident`` becomes the deal's
    place *at its table* (Rubber, Board, Room, Table, the four players): two tables'
    records of one board are two deals. ``deal_history.changed_line`` says which line of
    ``changed_by`` replaced a record. Existing deals are read again (their stored text)
    to fill the new keys; parties stored apart before keep apart (an import matches the
    oldest of those sharing a key).
    """
    from priffe_records.archive.identity import deal_ident, partie_key
    from priffe_records.format.reader import loads
    from priffe_records.format.record import Record

    # Each part only when missing: a database put back to an older version number by
    # hand (the tests do) keeps the newer tables and columns.
    for table, column, kind in (("parties", "identity", "TEXT"),
                                ("deal_history", "changed_line", "INTEGER")):
        if column not in db.table(table).columns_dict:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    if "partie_sources" not in db.table_names():
        db.table("partie_sources").create({
            "id": int, "partie_id": int, "source": str, "imported_at": str,
        }, pk="id", not_null=["partie_id", "source"],
            foreign_keys=[("partie_id", "parties", "id")])
        db.table("partie_sources").create_index(["partie_id"])
        db.execute("INSERT INTO partie_sources (partie_id, source, imported_at) "
                   "SELECT id, source, imported_at FROM parties WHERE source IS NOT NULL "
                   "ORDER BY id")
    first: dict[int, str] = {}
    idents: list[tuple[str | None, int]] = []
    for deal_id, partie_id, ppn in db.conn.execute(  # streamed: the texts are not held
            "SELECT id, partie_id, ppn FROM deals WHERE status != 'unreadable' "
            "ORDER BY partie_id, line, id"):
        records = list(loads(ppn, errors="collect"))
        record = records[0] if len(records) == 1 else None
        if not isinstance(record, Record):
            continue
        idents.append((deal_ident(record), int(deal_id)))
        if partie_id is not None and int(partie_id) not in first:
            first[int(partie_id)] = partie_key(record).text()
    db.conn.executemany("UPDATE deals SET ident = ? WHERE id = ?", idents)
    db.conn.executemany("UPDATE parties SET identity = ? WHERE id = ?",
                        [(key, pid) for pid, key in first.items()])
    db.table("parties").create_index(["identity"], if_not_exists=True)


# ---------------------------------------------------------------- version 9


def _v9(db: sqlite_utils.Database) -> None:
    """Double-dummy analysis (:mod:`priffe_records.archive.analysis`): ``dd_deals`` per
    deal, ``dd_cards`` per played card, both going with their deal when it is removed or
    replaced (a new hash), and the views of each player's cost per deal and role, for
    ``priffe stats``."""
    db.execute("CREATE TABLE IF NOT EXISTS dd_deals (deal_id INTEGER PRIMARY KEY, "
               "status TEXT NOT NULL, side TEXT, goal TEXT, par INTEGER, budget_nodes INTEGER, "
               "budget_seconds REAL, cpu_seconds REAL, analysed_at TEXT NOT NULL)")
    db.execute("CREATE TABLE IF NOT EXISTS dd_cards (deal_id INTEGER NOT NULL, "
               "idx INTEGER NOT NULL, trick INTEGER NOT NULL, seat TEXT NOT NULL, "
               "card TEXT NOT NULL, cost INTEGER, best TEXT, PRIMARY KEY (deal_id, idx)) "
               "WITHOUT ROWID")
    # Triggers, not foreign keys: the analysis follows its deal without the store or
    # remove knowing of it.
    for name, when, table, key in (
            ("dd_deal_removed", "AFTER DELETE ON deals", "dd_deals", "old.id"),
            ("dd_deal_replaced", "AFTER UPDATE OF hash ON deals WHEN old.hash IS NOT new.hash",
             "dd_deals", "old.id"),
            ("dd_cards_removed", "AFTER DELETE ON dd_deals", "dd_cards", "old.deal_id")):
        db.execute(f"CREATE TRIGGER IF NOT EXISTS {name} {when} BEGIN "
                   f"DELETE FROM {table} WHERE deal_id = {key}; END")
    for name, sql in VIEWS_V9.items():
        db.execute(f"DROP VIEW IF EXISTS {name}")
        db.create_view(name, sql)


VIEWS_V9: dict[str, str] = {
    # One row per player per analysed deal: the role (declarer, partner, defender, or
    # forced in a contract without a declarer) and the tricks their cards cost;
    # ``analysed`` is false when the budget did not reach every one of their cards.
    "dd_player_deals": """
SELECT c.deal_id, p.id AS player_id, p.name AS player, c.seat,
  CASE WHEN COALESCE(d.declarer, '') = '' THEN 'forced'
       WHEN d.declarer = c.seat THEN 'declarer'
       WHEN instr(a.side, c.seat) > 0 THEN 'partner'
       ELSE 'defender' END AS role,
  count(*) AS cards, sum(c.cost) AS cost, count(c.cost) = count(*) AS analysed
FROM dd_cards c JOIN dd_deals a ON a.deal_id = c.deal_id JOIN deals d ON d.id = c.deal_id
  JOIN seats s ON s.deal_id = c.deal_id AND s.seat = c.seat
  JOIN players p ON p.id = s.player_id
GROUP BY c.deal_id, c.seat""",
    # Each player's cost per deal in each role, over the deals whose every card of theirs
    # was analysed: the club's measure of who plays well (priffe stats).
    "dd_player_costs": """
SELECT player_id, player, count(*) AS dd_deals,
  sum(role = 'declarer') AS dd_declared,
  round(avg(CASE WHEN role = 'declarer' THEN cost END), 2) AS dd_cost_declarer,
  sum(role = 'partner') AS dd_partnered,
  round(avg(CASE WHEN role = 'partner' THEN cost END), 2) AS dd_cost_partner,
  sum(role = 'defender') AS dd_defended,
  round(avg(CASE WHEN role = 'defender' THEN cost END), 2) AS dd_cost_defender,
  sum(role = 'forced') AS dd_forced,
  round(avg(CASE WHEN role = 'forced' THEN cost END), 2) AS dd_cost_forced
FROM dd_player_deals WHERE analysed GROUP BY player_id""",
}


# ---------------------------------------------------------------- version 10


def _v10(db: sqlite_utils.Database) -> None:
    """``contract_success`` counts a contract per game, as ``priffe stats`` does: Priffe's
    Hjärter and Préférence's Hearts read the same in Swedish and are different contracts;
    a Préférence deal counts its declarer (it has no declaring side)."""
    db.execute("DROP VIEW IF EXISTS contract_success")
    db.create_view("contract_success", CONTRACT_SUCCESS_V10)


# Who declared: version 10 had to name Préférence, the one game without sides; 13 does not.
_CONTRACT_SUCCESS = """
SELECT game, contract, count(*) AS deals, sum({declared}) AS declared,
  sum(made = 1) AS made, sum(made = 0) AS defeated,
  round(100.0 * sum(made = 1) / nullif(sum(made IS NOT NULL), 0), 1) AS success_pct
FROM deals WHERE contract IS NOT NULL GROUP BY game, contract ORDER BY deals DESC, game"""
CONTRACT_SUCCESS_V10 = _CONTRACT_SUCCESS.format(
    declared="declaring_side IS NOT NULL OR (game = 'Preference' AND COALESCE(declarer, '') <> '')")


# ---------------------------------------------------------------- version 11


def _v11(db: sqlite_utils.Database) -> None:
    """A finding names its rule once, in ``findings.rule``: the stored messages lose the
    rule ID their text ended with ("… must follow diamonds (R11)")."""
    rows = db.execute("SELECT DISTINCT message_json FROM findings "
                      "WHERE message_json IS NOT NULL").fetchall()
    for (data,) in rows:
        new = stored_messages.without_rule_tail(data)
        if new != data:
            english = stored_messages.shown(new, None, "en")
            db.execute("UPDATE findings SET message_json = ?, message = ? "
                       "WHERE message_json = ?", [new, english, data])


# ---------------------------------------------------------------- version 12


def _v12(db: sqlite_utils.Database) -> None:
    """The game families the archive's views were made for (their entry points), so a family
    installed later gets its own views when the archive is next opened for writing."""
    db.execute("CREATE TABLE IF NOT EXISTS families (name TEXT PRIMARY KEY, entry TEXT)")


# ---------------------------------------------------------------- version 13


def _v13(db: sqlite_utils.Database) -> None:
    """A seat's role by the deal's declarer, whatever the game: a game without sides
    (Préférence) has a declarer too, and its other seats defend. ``player_deals`` called
    every Préférence seat 'forced', so shared code had to name the game to count its
    declarers; ``contract_success`` counts the deals with a declarer the same way."""
    for name, sql in VIEWS_V13.items():
        db.execute(f"DROP VIEW IF EXISTS {name}")
        db.create_view(name, sql)


# The seat's role in a deal: forced when the contract has no declarer (R8), as
# dd_player_deals says it; a side's partner only where the game has sides.
_ROLE = """CASE WHEN COALESCE(d.declarer, '') = '' THEN 'forced'
       WHEN d.declarer = s.seat THEN 'declarer'
       WHEN d.declaring_side = s.side THEN 'partner'
       ELSE 'defender' END AS role"""

VIEWS_V13: dict[str, str] = {
    "player_deals": VIEWS_V1["player_deals"].replace(_ROLE_V1, _ROLE),
    "contract_success": _CONTRACT_SUCCESS.format(declared="COALESCE(declarer, '') <> ''"),
}


# Append-only: a new step goes at the end (each bumps SCHEMA_VERSION by one).
MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = [_v1, _v2, _v3, _v4, _v5, _v6,
                                                             _v7, _v8, _v9, _v10, _v11, _v12,
                                                             _v13]
assert len(MIGRATIONS) == SCHEMA_VERSION
