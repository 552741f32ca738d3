"""Double-dummy analysis: what each card of a deal's play cost, with every hand known.

Family-free: a family turns its checked record into a :class:`Deal` (the hands that
play, their order, trumps, leader, the measured side and what it wants), and this
package answers in tricks of that side. Values count the whole deal: the tricks the
measured side already won in ``Deal.played`` plus the rest with best play by all.

``COMPILED`` is True where the build compiled the search (``dd/core.py``) with Cython,
False where the package installed it as pure Python: same answers, only slower.

>>> from priffe_records.game.cards import Card, Seat, Suit
>>> c = Card.parse
>>> hands = {Seat.N: frozenset({c("SA"), c("S2")}), Seat.E: frozenset({c("SK"), c("H3")}),
...          Seat.S: frozenset({c("SQ"), c("H2")})}
>>> deal = Deal(hands, (Seat.N, Seat.E, Seat.S), None, Seat.N, frozenset({Seat.N}),
...             Goal.MOST, must_trump=False)
>>> value(deal)
2
>>> sorted((str(k), v) for k, v in card_values(deal).items())
[('S2', 0), ('SA', 2)]
>>> misere = Deal(hands, (Seat.N, Seat.E, Seat.S), None, Seat.N, frozenset({Seat.N}),
...               Goal.FEWEST, must_trump=False, played=(c("SA"), c("SK"), c("SQ"), c("S2")))
>>> analyse_play(misere).cards[0].cost, value(misere)
(2, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from priffe_records.dd.core import COMPILED, Exhausted
from priffe_records.dd.engine import (
    Budget,
    CardCost,
    DDError,
    Deal,
    Goal,
    PlayAnalysis,
    Progress,
    SearchLost,
    Solver,
    begin,
    card_values,
    sweep_here,
    value,
)

__all__ = ["COMPILED", "Budget", "CardCost", "DDError", "Deal", "Goal", "PlayAnalysis",
           "Progress", "SearchLost", "Solver", "analyse_play", "card_values", "value"]


_NO_LIMIT = Budget()


def analyse_play(deal: Deal, budget: Budget = _NO_LIMIT, *, solver: Solver = "auto",
                 progress: Callable[[Progress], None] | None = None, background: bool = False,
                 keep_on_interrupt: bool = False, every_best: bool = True,
                 known: Sequence[CardCost] = ()) -> PlayAnalysis:
    """Every card of ``deal.played`` with its cost and the best cards of its position.

    The play is solved from its last card back to its first with one transposition table,
    so late positions (cheap) are known first; when the budget runs out, the earlier cards
    stay not analysed (cost None) and ``par`` None.

    ``progress`` is called with a :class:`Progress` after each card analysed, for a user
    who waits. ``background``: the search runs in a worker process and this one only
    waits (:mod:`priffe_records.dd.workers`), so ``progress`` is also called about four
    times a second and Ctrl-C is answered at once, not when the search in hand ends; the
    worker ends with the call however it ends. The budget's seconds are wall time from
    the call; a worker that dies or fails raises :class:`SearchLost`.
    ``keep_on_interrupt``: Ctrl-C (``KeyboardInterrupt``) ends the search and the cards
    known so far are returned (``interrupted`` set) instead of the interrupt propagating.
    ``every_best`` False: the best cards only where a card cost a trick (all a replay
    shows), so the search ends with the last cost.
    ``known``: the cards of an earlier, partial analysis of the same play (a stored one):
    the sweep takes their costs and best cards as found and searches only the rest, so a
    deal left partial is resumed, not started again.
    """
    found, done = begin(deal, progress, known)
    try:
        if background:
            # deferred: a caller that only builds a Deal does not load multiprocessing
            from priffe_records.dd.workers import sweep_in_worker

            sweep_in_worker(deal, budget, solver, found, every_best, done)
        else:
            sweep_here(found, budget, solver, every_best, done)
    except Exhausted:
        pass
    except KeyboardInterrupt:
        if not keep_on_interrupt:
            raise
        found.interrupted = True
    return found.analysis()
