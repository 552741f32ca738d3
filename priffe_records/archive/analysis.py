"""Each stored deal's double-dummy analysis, computed once and kept with the deal.

``dd_deals`` holds one row per analysed deal (the measured side and its aim, the par,
whether every card was reached, the budget it had), ``dd_cards`` one row per played card
(its cost against the best card, and the best cards). Both hang off ``deals.id``: a
removed deal takes its analysis with it, and a replaced one (a correction: the same id,
a new hash) loses it to a trigger, so a stale analysis is never shown. A deal the solver
has nothing to analyse in (no play, a hand unknown) gets a row too, so it is not read
again on every run.

:func:`analyse_archive` analyses the deals that have none, in worker processes, and
stores each one as it comes back: an interrupted run keeps what it finished, and a deal
that fails costs only itself (a located message). A deal the budget left partial, or
stored whole but with best cards missing, is resumed by the next run from its stored
cards (the search goes from the last card back, so they are the late ones): only what is
missing is searched. :func:`stored` gives a deal's analysis
back to a replay.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime

import sqlite_utils

from priffe_records.dd import Budget, CardCost, PlayAnalysis, analyse_play
from priffe_records.format.errors import PriffeError
from priffe_records.format.reader import loads
from priffe_records.format.record import Record
from priffe_records.game.cards import Card, Seat
from priffe_records.game.language import Message, msg
from priffe_records.rules.family import family_of
from priffe_records.rules.parallel import bound_to_parent

ANALYSED, PARTIAL, NO_PLAY = "analysed", "partial", "no_play"

# One card as stored: play order, trick, seat, card, cost (None: not reached), best cards.
CardRow = tuple[int, int, str, str, int | None, str | None]


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    """What a worker sends back for one deal: plain values, cheap to pickle."""

    deal_id: int
    hash: str
    status: str
    side: str | None = None  # the measured side's seats, "NS" or "E"
    goal: str | None = None
    par: int | None = None
    cards: tuple[CardRow, ...] = ()
    cpu_seconds: float = 0.0  # this run's
    spent: float = 0.0  # earlier runs' on the same deal (resumed)


@dataclass(frozen=True, slots=True)
class Pending:
    """A deal waiting for its analysis: its text and where it came from."""

    deal_id: int
    hash: str
    ppn: str
    source: str | None
    line: int | None
    known: tuple[CardCost, ...] = ()  # an earlier run's cards, to resume from
    spent: float = 0.0  # that run's CPU seconds, added to this one's in the store


@dataclass(slots=True)
class Summary:
    """What a run did: deals analysed (all cards reached or not), with nothing to analyse,
    failed (each with its located message), and the workers' CPU seconds; then what the
    archive holds: deals ``whole`` (every cost and best card), ``unfinished`` (partial,
    or best cards missing) and ``waiting`` (no analysis yet)."""

    analysed: int = 0
    partial: int = 0
    no_play: int = 0
    failed: list[Message] = field(default_factory=list)
    cpu_seconds: float = 0.0
    whole: int = 0
    unfinished: int = 0
    waiting: int = 0

    @property
    def done(self) -> int:
        return self.analysed + self.partial + self.no_play


# A stored analysis with best cards missing: the budget ran out after the last cost.
_BEST_MISSING = ("EXISTS (SELECT 1 FROM dd_cards c WHERE c.deal_id = a.deal_id "
                 "AND c.best IS NULL)")


def pending(db: sqlite_utils.Database) -> list[Pending]:
    """The readable deals without an analysis, those left partial and those stored as
    analysed with best cards missing, in archive order; the last two with their stored
    cards, so that the analysis resumes from them."""
    rows = db.execute(
        "SELECT d.id, d.hash, d.ppn, d.source, d.line, a.status, a.cpu_seconds "
        "FROM deals d LEFT JOIN dd_deals a ON a.deal_id = d.id "
        "WHERE d.status != 'unreadable' AND (a.deal_id IS NULL OR a.status = ? "
        f"OR (a.status = ? AND {_BEST_MISSING})) ORDER BY d.id",
        [PARTIAL, ANALYSED]).fetchall()
    return [Pending(int(i), h, ppn, src, line,
                    () if status is None else _stored_cards(db, int(i)), cpu or 0.0)
            for i, h, ppn, src, line, status, cpu in rows]


def archive_state(db: sqlite_utils.Database) -> tuple[int, int, int]:
    """The readable deals analysed whole, unfinished (partial or best cards missing) and
    waiting (no analysis); deals with nothing to analyse are none of these."""
    whole, unfinished, waiting = db.execute(
        f"SELECT sum(a.status = ? AND NOT {_BEST_MISSING}), "
        f"sum(a.status = ? OR (a.status = ? AND {_BEST_MISSING})), "
        "sum(a.deal_id IS NULL) FROM deals d LEFT JOIN dd_deals a ON a.deal_id = d.id "
        "WHERE d.status != 'unreadable'", [ANALYSED, PARTIAL, ANALYSED]).fetchone()
    return whole or 0, unfinished or 0, waiting or 0


def analyse_deal(deal: Pending, budget: Budget) -> DealAnalysis:
    """One stored deal read, checked by its family and analysed (in a worker).

    Raises :class:`~priffe_records.format.errors.PriffeError` when the solver refuses
    the family's deal; the caller turns it into a located message.
    """
    start = time.process_time()
    records = list(loads(deal.ppn, errors="collect", name=deal.source or "<archive>",
                         first_line=deal.line or 1, header=False))
    record = records[0] if len(records) == 1 else None
    if not isinstance(record, Record):
        return DealAnalysis(deal.deal_id, deal.hash, NO_PLAY)
    family = family_of(record)
    solver_deal = family.dd_deal(family.analyse(record, None, False))
    if solver_deal is None:
        return DealAnalysis(deal.deal_id, deal.hash, NO_PLAY)
    play = analyse_play(solver_deal, budget, known=deal.known)
    side = "".join(s.value for s in sorted(solver_deal.side, key=lambda s: s.index))
    return DealAnalysis(deal.deal_id, deal.hash, ANALYSED if play.complete else PARTIAL,
                        side, solver_deal.goal.value, play.par,
                        tuple(_card_row(i, c) for i, c in enumerate(play.cards)),
                        time.process_time() - start, deal.spent)


def _card_row(index: int, c: CardCost) -> CardRow:
    best = None if c.best is None else " ".join(
        str(x) for x in sorted(c.best, key=lambda x: x.sort_key))
    return (index, c.trick, c.seat.value, str(c.card), c.cost, best)


def save(db: sqlite_utils.Database, result: DealAnalysis, budget: Budget) -> bool:
    """Store one deal's analysis in its own transaction, replacing an older one; nothing
    when the deal was replaced or removed meanwhile (its hash is not the one analysed)."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    db.execute("BEGIN IMMEDIATE")  # the deal's row and its cards, or neither
    try:
        if db.execute("SELECT 1 FROM deals WHERE id = ? AND hash = ?",
                      [result.deal_id, result.hash]).fetchone() is None:
            db.execute("ROLLBACK")
            return False
        db.execute("DELETE FROM dd_deals WHERE deal_id = ?", [result.deal_id])
        db.execute("INSERT INTO dd_deals (deal_id, status, side, goal, par, budget_nodes, "
                   "budget_seconds, cpu_seconds, analysed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [result.deal_id, result.status, result.side, result.goal, result.par,
                    budget.nodes, budget.seconds,
                    round(result.spent + result.cpu_seconds, 3), now])
        db.conn.executemany("INSERT INTO dd_cards (deal_id, idx, trick, seat, card, cost, best) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)",
                            [(result.deal_id, *row) for row in result.cards])
        db.execute("COMMIT")
    except BaseException:
        if db.conn.in_transaction:
            db.execute("ROLLBACK")
        raise
    return True


@dataclass(frozen=True, slots=True)
class Stored:
    """A deal's stored analysis: the measured side's seats ("NS", "E"), its aim ("most",
    "fewest") and the solver's answer as it gave it."""

    side: str
    goal: str
    play: PlayAnalysis


def stored(db: sqlite_utils.Database, deal_id: int) -> Stored | None:
    """A deal's stored analysis, or ``None`` when it has none (or nothing to analyse, or
    the archive is older than analyses and was opened read-only, as ``serve`` does)."""
    if "dd_deals" not in db.table_names():
        return None
    row = db.execute("SELECT status, par, side, goal FROM dd_deals WHERE deal_id = ?",
                     [deal_id]).fetchone()
    if row is None or row[0] == NO_PLAY:
        return None
    return Stored(row[2], row[3],
                  PlayAnalysis(row[1], _stored_cards(db, deal_id), row[0] == ANALYSED))


def _stored_cards(db: sqlite_utils.Database, deal_id: int) -> tuple[CardCost, ...]:
    return tuple(
        CardCost(Seat(seat), Card.parse(card), trick, cost,
                 None if best is None else frozenset(Card.parse(b) for b in best.split()))
        for trick, seat, card, cost, best in db.execute(
            "SELECT trick, seat, card, cost, best FROM dd_cards WHERE deal_id = ? "
            "ORDER BY idx", [deal_id]).fetchall())


def analyse_archive(db: sqlite_utils.Database, budget: Budget, *, jobs: int = 1,
                    deals: Sequence[Pending] | None = None,
                    progress: Callable[[int, int], None] | None = None) -> Summary:
    """Analyse every deal :func:`pending` lists (or ``deals``), ``jobs`` at a time in
    worker processes, storing each as it comes back; ``progress(done, total)`` after each.

    Ctrl-C (``KeyboardInterrupt``) stops the workers and is raised again: every deal
    stored before it stays stored.
    """
    todo = list(pending(db) if deals is None else deals)
    summary = Summary()
    failed: list[tuple[int, Message]] = []
    for i, (k, outcome) in enumerate(_results(todo, budget, jobs), 1):
        if isinstance(outcome, DealAnalysis):
            if save(db, outcome, budget):
                _count(summary, outcome)
        else:
            deal = todo[k]
            failed.append((k, msg("{file}:{line}: deal {id} cannot be analysed: {error}",
                                  file=deal.source or "<archive>", line=deal.line or 1,
                                  id=deal.deal_id, error=outcome)))
        if progress is not None:
            progress(i, len(todo))
    summary.failed = [m for _, m in sorted(failed, key=lambda km: km[0])]  # in archive order
    summary.whole, summary.unfinished, summary.waiting = archive_state(db)
    return summary


def _count(summary: Summary, outcome: DealAnalysis) -> None:
    summary.cpu_seconds += outcome.cpu_seconds
    if outcome.status == ANALYSED:
        summary.analysed += 1
    elif outcome.status == PARTIAL:
        summary.partial += 1
    else:
        summary.no_play += 1


def _results(todo: list[Pending], budget: Budget, jobs: int
             ) -> Iterator[tuple[int, DealAnalysis | Message | str]]:
    """Each deal's place in ``todo`` with its analysis, or why it failed, as soon as a
    worker finishes it: one long deal (a Tvångsnoll's minutes) neither holds back storing
    the deals after it nor leaves the other workers idle behind it."""
    if jobs <= 1 or len(todo) <= 1:
        for k, deal in enumerate(todo):
            yield k, _guarded(deal, budget)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=bound_to_parent,
                               initargs=(os.getpid(),))
    out: dict[Future[DealAnalysis | Message | str], int] = {}
    waiting = iter(enumerate(todo))
    try:
        while True:
            while len(out) < 2 * jobs and (more := next(waiting, None)) is not None:
                out[pool.submit(_guarded, more[1], budget)] = more[0]
            if not out:
                break
            done, _ = wait(out, return_when=FIRST_COMPLETED)
            for future in done:
                yield out.pop(future), future.result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _guarded(deal: Pending, budget: Budget) -> DealAnalysis | Message | str:
    """:func:`analyse_deal`, with a failure as its message: one deal costs only itself."""
    try:
        return analyse_deal(deal, budget)
    except PriffeError as e:
        return e.args[0] if e.args and isinstance(e.args[0], Message) else str(e)
    except Exception as e:  # our bug, in one deal: the others go on
        return f"internal error ({type(e).__name__}: {e})"

