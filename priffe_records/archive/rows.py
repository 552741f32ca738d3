"""A checked record as rows ready to insert: plain tuples, made once, wherever it was checked.

The store's one writer (the parent of ``import --jobs``) should only classify, give
ids and run ``executemany``; everything that depends on the record and its facts
alone is made here, in the worker that checked it. Plain tuples
of str/int pickle much faster than the engine's dataclasses.

The deals table's columns are declared once, in :data:`DEAL_TABLE`: the schema's
migrations, the store's SQL, the order of a row's values and the Datasette column
descriptions (:mod:`priffe_records.archive.metadata`) are all read from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Literal

from priffe_records.game.language import Message, msg

if TYPE_CHECKING:
    from priffe_records.archive import engine

Origin = Literal["store", "record", "facts"]


@dataclass(frozen=True, slots=True)
class Column:
    """One column of ``deals``: its SQL type, where its value comes from, and since when.

    ``origin``: ``store`` (ids, file and import time: only the store knows them),
    ``facts`` (the field of the same name of the engine's
    :class:`~priffe_records.archive.engine.DealFacts`) or ``record`` (made by
    :func:`ready` from the record itself: its line, head, counts, text and hash).
    ``since``: the schema version that added it (the migrations add it then, so an
    archive of any age ends with the same table).
    """

    name: str
    type: type[int] | type[str]
    origin: Origin
    doc: Message | None = None  # Datasette's description of the column
    since: int = 1
    not_null: bool = False
    references: str | None = None  # the table its id points into

    @property
    def sql_type(self) -> str:
        return "INTEGER" if self.type is int else "TEXT"


def _f(name: str, kind: type[int] | type[str], doc: Message | None = None, *,
       since: int = 1) -> Column:
    return Column(name, kind, "facts", doc, since)


def _r(name: str, kind: type[int] | type[str], doc: Message | None = None, *,
       since: int = 1, not_null: bool = False) -> Column:
    return Column(name, kind, "record", doc, since, not_null)


# The deals table after its ``id``, in the order of the table.
DEAL_TABLE: tuple[Column, ...] = (
    Column("partie_id", int, "store", references="parties"),
    Column("rubber_id", int, "store", references="rubbers"),
    Column("source", str, "store"),
    _r("line", int),
    _r("event", str, msg("Event tag")), _r("site", str, msg("Site tag")),
    _r("date", str, msg("Date tag (YYYY.MM.DD)")),
    _f("rubber", int, msg("rubber number within the partie")),
    _f("board", str, msg("deal number within the partie")),
    _f("dealer", str),
    _f("contract", str, msg("Spela, Noll, Hjärter, Ruter, Tvångsnoll or Passnoll (R8)")),
    _f("declarer", str, msg("seat of the final bidder (R7); empty in forced contracts")),
    _f("declaring_side", str, msg("NS or EW; empty in forced contracts")),
    _f("tricks_ns", int), _f("tricks_ew", int),
    _f("made", int, msg("1 if the declaring side reached its aim (R14), 0 if not")),
    _f("scoring_side", str, msg("the side that scores tricks (R14)")),
    _f("scoring_tricks", int, msg("n of R14: tricks counted for the scoring side")),
    _f("penalty_tricks", int,
       msg("penalty tricks (strafftrick) scored by the defenders (R15)")),
    _f("slam", str, msg("small or grand (R16)")),
    _f("score_ns", int, msg("deal score computed by the rules engine")), _f("score_ew", int),
    _f("claimed_score_ns", int, msg("Score tag as written")), _f("claimed_score_ew", int),
    _f("rubber_ns", int, msg("running rubber total computed (R19–R23)")), _f("rubber_ew", int),
    _f("claimed_rubber_ns", int, msg("ScoreRubber tag as written")),
    _f("claimed_rubber_ew", int),
    _r("players", str), _r("commentary", str),
    _r("errors", int, msg("error findings of the validator")),
    _r("warnings", int), _r("unverifiable", int),
    _r("status", str, msg("clean, warnings, errors, or unreadable (a syntax error: the raw "
                          "text is kept)"), not_null=True),
    _r("ppn", str, msg("the record's canonical PPN text"), not_null=True),
    _r("hash", str, msg("SHA-256 of ppn: the record's identity"), not_null=True),
    Column("imported_at", str, "store"),
    # its place in the partie: rubber, board and table from the record's tags (schema v8)
    _r("ident", str, since=2),
    _r("game", str, msg("the game family: Priffe or Preference (Austrian Préférence, "
                        "PREFERENCE.md)"), since=3),
    _f("pot", int, msg("Préférence: the pot after the deal, computed by the partie's books "
                       "(P12–P13)"), since=3),
)

# A row as the store writes it: the store's columns first, then the record's own
# (:data:`RECORD_COLUMNS`, the ``own`` tuple of :data:`Ready`).
STORE_COLUMNS = tuple(c.name for c in DEAL_TABLE if c.origin == "store")
RECORD_COLUMNS = tuple(c.name for c in DEAL_TABLE if c.origin != "store")
DEAL_COLUMNS = (*STORE_COLUMNS, *RECORD_COLUMNS)
_FACTS = tuple(c.name for c in DEAL_TABLE if c.origin == "facts")
_facts_of = attrgetter(*_FACTS)
# The record columns ready() makes, in the order it lists their values (after the facts').
_MADE = ("line", "event", "site", "date", "players", "commentary", "errors", "warnings",
         "unverifiable", "status", "ppn", "hash", "ident", "game")
if set(_MADE) != {c.name for c in DEAL_TABLE if c.origin == "record"}:
    raise AssertionError("rows.ready makes other record columns than DEAL_TABLE declares")
_in_order = itemgetter(*((*_FACTS, *_MADE).index(name) for name in RECORD_COLUMNS))


def added_in(version: int) -> tuple[Column, ...]:
    """The columns schema ``version`` adds to ``deals``."""
    return tuple(c for c in DEAL_TABLE if c.since == version)


Value = str | int | None
# What the store needs of a record besides its facts: unreadable?, Event, Site, Date, ident.
Described = tuple[bool, str | None, str | None, str | None, str | None]


# (own, seats, balance changes, calls, tricks, findings, rubber number, has errors):
# own is the deal's values of RECORD_COLUMNS; seats (seat, side, name);
# changes (seat, value); calls (idx, seat, call); tricks and findings their columns
# after deal_id (findings: after deal_id and partie_id).
Ready = tuple[
    tuple[Value, ...], tuple[tuple[str, str, str], ...],
    tuple[tuple[str, int], ...], tuple[tuple[int, str, str], ...], tuple[tuple[Value, ...], ...],
    tuple[tuple[Value, ...], ...], int | None, bool,
]


def ready(text: str, digest: str, line: int, described: Described,
          facts: engine.DealFacts) -> Ready:
    """A record's rows, but for the ids, source and import time only the store knows."""
    errors = warnings = unverifiable = 0
    for f in facts.findings:
        if f.severity == "error":
            errors += 1
        elif f.severity == "warning":
            warnings += 1
        elif f.severity == "unverifiable":
            unverifiable += 1
    bad, event, site, date, ident = described
    status = "unreadable" if bad else "errors" if errors else "warnings" if warnings \
        else "clean"
    values = (*_facts_of(facts),  # then _MADE's, in its order:
              line, event, site, date, ", ".join(name for _, _, name in facts.seats) or None,
              facts.commentary or None, errors, warnings, unverifiable, status, text, digest,
              ident, None if bad else facts.game)
    calls = tuple((i, seat, call) for i, (seat, call) in enumerate(facts.calls, 1))
    return (_in_order(values), facts.seats, facts.balance_changes, calls,
            facts.tricks, tuple(f.values() for f in facts.findings),
            facts.rubber, bad or errors > 0)


_HASH = RECORD_COLUMNS.index("hash")


def digest_of(r: Ready) -> str:
    return str(r[0][_HASH])
