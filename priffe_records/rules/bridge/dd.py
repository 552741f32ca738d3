"""A checked bridge deal as the double-dummy solver's position: four hands of 13, the
contract's trumps, the opening leader as the play has it (B6 checks who) on lead, and the
declaring side measured, wanting the most tricks; follow suit, no duty to trump."""

from __future__ import annotations

from priffe_records.dd import Deal, Goal
from priffe_records.game.cards import SEATS
from priffe_records.rules.dd_deal import solver_deal

from .analysis import BridgeOutcome


def dd_deal(o: BridgeOutcome) -> Deal | None:
    """The deal for the solver, or ``None`` without hands, contract, declarer or play."""
    if o.deal is None or o.contract is None or o.declarer is None or o.play is None \
            or not o.play.tricks or o.play.tricks[0].leader is None:
        return None
    leader = o.play.tricks[0].leader  # as played: a swapped dummy's partner leads (B6)
    hands = {s: o.deal.hand(s) for s in SEATS}
    return solver_deal(hands, SEATS, o.contract.trump, leader,
                       frozenset({o.declarer, o.declarer.partner}), Goal.MOST, False,
                       o.play.tricks)
