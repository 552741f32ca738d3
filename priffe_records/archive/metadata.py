"""Datasette metadata for an archive: labels, facets, search and canned queries.

``datasette priffe.db -m priffe.metadata.json`` then browses the archive
with readable titles, the deals table faceted by contract, status and
event, the full-text search box on deals, and the common questions one
click away. The file is generated (``priffe import`` writes it when it is
missing, ``priffe metadata`` rewrites it), so it always matches the schema.

>>> meta = metadata("priffe.db")
>>> sorted(meta["databases"]["priffe"]["queries"])[:2]
['contract_success', 'deals_of_player']
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from priffe_records.archive.players import PLAYER_IDS
from priffe_records.archive.rows import DEAL_TABLE
from priffe_records.archive.schema import SCHEMA_VERSION
from priffe_records.format.atomic import write_text_atomically
from priffe_records.game.language import msg

METADATA_NAME = "priffe.metadata.json"  # the default archive's (priffe.db)
VERSION_KEY = "priffe_schema_version"  # marks a file we wrote, and for which schema


_QUERIES: dict[str, dict[str, Any]] = {  # the titles are messages, shown in the language
    "deals_of_player": {
        "title": msg("Deals of a player"),
        # A part of the name in any case finds the player (priffe_players, as 'priffe
        # query --player'); a part of several names gives each one's deals, named.
        "sql": "SELECT d.id AS deal_id, pd.player, d.date, d.event, d.board, pd.seat, pd.role, "
               "d.contract, d.declarer, d.tricks_ns, d.tricks_ew, d.made, pd.points, d.status "
               "FROM player_deals pd JOIN deals d ON d.id = pd.deal_id "
               f"WHERE pd.player_id IN ({PLAYER_IDS.replace('?', ':player')}) "
               "ORDER BY d.id, pd.player",
    },
    "standings": {
        "title": msg("Individual standings (R23/R24)"),
        "sql": "SELECT * FROM player_standings",
    },
    "player_results": {
        "title": msg("Per-player results"),
        "sql": "SELECT * FROM player_results",
    },
    "contract_success": {
        "title": msg("Contract success rates"),
        "sql": "SELECT * FROM contract_success",
    },
    "slams": {"title": msg("Slams (R16)"), "sql": "SELECT * FROM slams ORDER BY deal_id"},
    "records_with_errors": {
        "title": msg("Records with errors, and why"),
        "sql": "SELECT d.id AS deal_id, d.source, d.line, d.status, f.rule, f.severity, "
               "priffe_message(f.message_json, f.message) AS message "
               "FROM deals d JOIN findings f ON f.deal_id = d.id "
               "WHERE f.severity = 'error' ORDER BY d.id, f.id",
    },
    # Datasette's escape_fts makes each word plain text (Anna-Lisa, St. Eriks), as
    # 'priffe query --text' does; an empty box (the form as first opened) finds nothing.
    "search": {
        "title": msg("Search events, sites, players and commentary"),
        "sql": "SELECT d.id AS deal_id, d.date, d.event, d.site, d.players, d.contract, "
               "d.commentary "
               "FROM deals d JOIN deals_fts ON deals_fts.rowid = d.id "
               "WHERE deals_fts MATCH coalesce(nullif(escape_fts(:words), ''), '\"\"') "
               "ORDER BY rank",
    },
}


def metadata(db_path: str | os.PathLike[str]) -> dict[str, Any]:
    """The metadata document for a database file (its key is the file's stem), its titles
    and descriptions in the active language: ``serve`` makes it at each start in the
    reader's language, ``import`` and ``metadata`` write it in theirs."""
    from priffe_records.rules.family import families  # the games' own standings: only here
    name = Path(db_path).stem
    return {
        VERSION_KEY: SCHEMA_VERSION,
        "title": str(msg("Priffe archive")),
        "description": str(msg("Records of the Swedish card game Priffe, imported from PPN "
                               "files by priffe-records (archive schema version {version}).",
                               version=SCHEMA_VERSION)),
        "databases": {name: {
            "tables": {
                "deals": {
                    "label_column": "board",
                    "description": str(msg("One row per record (deal or score-sheet line); "
                                           "rule findings are in findings.")),
                    "facets": ["game", "contract", "status", "event", "declaring_side", "slam"],
                    "sortable_columns": ["date", "event", "board", "contract", "errors",
                                         "score_ns", "score_ew"],
                    "fts_table": "deals_fts", "fts_pk": "id",
                    "columns": {c.name: str(c.doc) for c in DEAL_TABLE if c.doc},
                },
                "parties": {"label_column": "event",
                            "description": str(msg(
                                "A partie: consecutive records with the same Event, Site and "
                                "Date, known by those, the players and the hands of its first "
                                "deal (identity), whatever file it came from.")),
                            "facets": ["site", "source"]},
                "partie_sources": {"description": str(msg(
                                       "Each import that stored deals of a partie: the file "
                                       "as named, and when.")),
                                   "facets": ["source"]},
                "players": {"label_column": "name",
                            "description": str(msg("One row per name."))},
                "rubbers": {"label_column": "number", "facets": ["winner", "complete"]},
                "seats": {"facets": ["seat", "side"],
                          "columns": {"balance_change": str(msg(
                              "Préférence: the seat's change of balance in this deal, antes "
                              "included (P12–P14)"))}},
                **{s.view: {"description": str(s.description)}
                   for fam in families() for s in fam.standings()},
                "calls": {"facets": ["call", "seat"]},
                "tricks": {"facets": ["leader", "winner"]},
                "findings": {"description": str(msg("What the validator said about each "
                                                    "record.")),
                             "facets": ["rule", "severity"]},
                "settlements": {"description": str(msg(
                    "Individual settlement per seat of each finished rubber (R23)."))},
                "raw_texts": {"hidden": True},  # the importer's cache (schema v7)
            },
            "queries": {name: {k: str(v) for k, v in q.items()}
                        for name, q in _QUERIES.items()},
        }},
    }


def metadata_path(db_path: str | os.PathLike[str]) -> Path:
    """``NAME.metadata.json`` beside ``NAME.db``: each archive file has its own."""
    return Path(db_path).parent / f"{Path(db_path).stem}.metadata.json"


def write_metadata(db_path: str | os.PathLike[str], target: str | os.PathLike[str] | None = None
                   ) -> Path:
    """Write the metadata beside the database (atomically, see :func:`metadata_path`)."""
    out = Path(target) if target is not None else metadata_path(db_path)
    text = json.dumps(metadata(db_path), indent=2, ensure_ascii=False) + "\n"
    write_text_atomically(out, text)
    return out


def ensure_metadata(db_path: str | os.PathLike[str]) -> Path | None:
    """Write the metadata when it is missing or was written by us for an older schema.

    A file without our version key is the user's own: it is left alone.
    Returns the path written, or None.
    """
    out = metadata_path(db_path)
    if out.exists():
        try:
            old = json.loads(out.read_text("utf-8"))
        except (OSError, ValueError):
            return None  # not ours to judge: never overwrite what we cannot read
        if not isinstance(old, dict) or old.get(VERSION_KEY) in (None, SCHEMA_VERSION):
            return None
    return write_metadata(db_path)
