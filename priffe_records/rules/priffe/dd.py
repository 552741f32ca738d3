"""A checked Priffe deal as the double-dummy solver's position (R8, R10, R11).

The measured side is the declaring side, N+S in a forced contract (Tvångsnoll,
Passnoll: R8 names no declaring side, and the solver needs one side to count for);
its aim is the contract's (R8): most tricks in Spela, Hjärter and Ruter, fewest in
Noll and the forced contracts. The first lead is R10's, as the record's play shows it, and R11's
``must_trump`` option binds the solver's players as it bound the real ones.

>>> from priffe_records.format.reader import loads
>>> from priffe_records.rules.priffe.analysis import analyse_record
>>> text = '''[Dealer "S"]
... [Deal "N:KJ.A7.AQ3.AKQJ63 A64.T9863.T8742. T9872.KQ2.KJ6.85 Q53.J54.95.T9742"]
... [Declarer "W"]
... [Contract "Noll"]
... [Play "W"]
... C2 C3 S4 C5
... *'''
>>> deal = dd_deal(analyse_record(next(iter(loads(text)))))
>>> deal.goal.value, sorted(s.value for s in deal.side), deal.leader.value, len(deal.played)
('fewest', ['E', 'W'], 'W', 4)
"""

from __future__ import annotations

from priffe_records.dd import Deal, Goal
from priffe_records.game.cards import SEATS, Seat
from priffe_records.rules.dd_deal import solver_deal
from priffe_records.rules.priffe.analysis import DealOutcome

_FORCED_SIDE = frozenset({Seat.N, Seat.S})


def dd_deal(outcome: DealOutcome) -> Deal | None:
    """The deal for the solver, or ``None`` without known hands, a contract or a readable
    play. The leader is who led the first trick as played: R10 (with its ``first_lead``
    option) is checked against it by the analysis, and a play that broke R10 is still
    analysed as it was played."""
    contract, deal, play = outcome.contract, outcome.deal, outcome.play
    if not outcome.priffe or contract is None or deal is None or play is None \
            or not play.tricks:
        return None
    leader = play.tricks[0].leader
    if leader is None:
        return None
    if contract.has_declarer:
        if outcome.declarer is None:
            return None
        side = frozenset(outcome.declarer.side.seats)
    else:
        side = _FORCED_SIDE
    goal = Goal.MOST if contract.kind == "positive" else Goal.FEWEST
    return solver_deal({s: deal.hand(s) for s in SEATS}, SEATS, contract.trump, leader, side,
                       goal, outcome.options.must_trump, play.tricks)
