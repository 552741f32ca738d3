"""A checked record as rows ready to insert: plain tuples, made once, wherever it was checked.

The store's one writer (the parent of ``import --jobs``) should only classify, give
ids and run ``executemany``; everything that depends on the record and its facts
alone is made here, in the worker that checked it. Plain tuples
of str/int pickle much faster than the engine's dataclasses.
"""

from __future__ import annotations

from priffe_records.archive import engine

# The deals table's columns, in the order a row is written (after its id).
DEAL_COLUMNS = (
    "partie_id", "rubber_id", "source",
    # from here on: Ready.mid
    "line", "event", "site", "date", "rubber", "board", "dealer", "contract", "declarer",
    "declaring_side", "tricks_ns", "tricks_ew", "made", "scoring_side", "scoring_tricks",
    "penalty_tricks", "slam", "score_ns", "score_ew", "claimed_score_ns", "claimed_score_ew",
    "rubber_ns", "rubber_ew", "claimed_rubber_ns", "claimed_rubber_ew", "players",
    "commentary", "errors", "warnings", "unverifiable",
    "status",  # clean | warnings | errors | unreadable
    "ppn", "hash",
    # then the import time, and Ready.tail
    "imported_at",
    "ident",  # rubber/board from the record's tags: its place in the partie
    "game", "pot",  # Priffe or Preference (schema v3); Préférence: the pot after the deal
)

Value = str | int | None
# What the store needs of a record besides its facts: unreadable?, Event, Site, Date, ident.
Described = tuple[bool, str | None, str | None, str | None, str | None]


# (mid, tail, seats, balance changes, calls, tricks, findings, rubber number, has errors):
# mid and tail are the deal's columns (see DEAL_COLUMNS); seats (seat, side, name);
# changes (seat, value); calls (idx, seat, call); tricks and findings their columns
# after deal_id (findings: after deal_id and partie_id).
Ready = tuple[
    tuple[Value, ...], tuple[Value, ...], tuple[tuple[str, str, str], ...],
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
    status = "unreadable" if bad else "errors" if errors else "warnings" if warnings else "clean"
    mid = (line, event, site, date, facts.rubber, facts.board, facts.dealer, facts.contract,
           facts.declarer, facts.declaring_side, facts.tricks_ns, facts.tricks_ew, facts.made,
           facts.scoring_side, facts.scoring_tricks, facts.penalty_tricks, facts.slam,
           facts.score_ns, facts.score_ew, facts.claimed_score_ns, facts.claimed_score_ew,
           facts.rubber_ns, facts.rubber_ew, facts.claimed_rubber_ns, facts.claimed_rubber_ew,
           ", ".join(name for _, _, name in facts.seats) or None, facts.commentary or None,
           errors, warnings, unverifiable, status, text, digest)
    tail = (ident, None if bad else facts.game, facts.pot)
    calls = tuple((i, seat, call) for i, (seat, call) in enumerate(facts.calls, 1))
    return (mid, tail, facts.seats, facts.balance_changes, calls,
            facts.tricks, tuple(f.values() for f in facts.findings),
            facts.rubber, bad or errors > 0)


def digest_of(r: Ready) -> str:
    return str(r[0][-1])
