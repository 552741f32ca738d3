"""A Préférence partie's records as replay facts: hands, talon, auction, tricks, payments.

The payments, pot and balances are the partie's books', so the replay and ``validate``
agree.

>>> from pathlib import Path
>>> from priffe_records import loads
>>> from priffe_records.rules.partie import parties
>>> text = Path(__file__).parents[3].joinpath("tests/data/preference-graz.ppn").read_text()
>>> f = partie_facts(next(iter(parties(list(loads(text))))))[1]
>>> [s.value for s in f.seats], f.declarer, len(f.talon or ()), f.pot
(['N', 'E', 'S'], <Seat.E: 'E'>, 2, 60)
"""

from __future__ import annotations

from priffe_records.game.cards import Card, Seat
from priffe_records.game.words import bid_name
from priffe_records.rules.family import PartieOutcome
from priffe_records.rules.findings import Finding
from priffe_records.rules.replay_facts import CallFact, ReplayFacts

from .analysis import PrefOutcome
from .books import PrefLine, PrefPartie
from .table import PLAYERS, next_player


def partie_facts(p: PartieOutcome) -> dict[int, ReplayFacts]:
    """Each record of a Préférence partie by its 1-based position (none for another game's)."""
    if not isinstance(p, PrefPartie):
        return {}
    by_record: dict[int, list[Finding]] = {}
    for f in p.findings:
        by_record.setdefault(f.record or 0, []).append(f)
    return {line.outcome.index: _facts(line, tuple(by_record.get(line.outcome.index, ())))
            for line in p.lines}


def _facts(line: PrefLine, findings: tuple[Finding, ...]) -> ReplayFacts:
    o = line.outcome
    cards = o.cards
    calls = None if o.auction is None else tuple(
        CallFact(c.seat, bid_name(c.bid) if c.bid else None, c.hold) for c in o.auction.calls)
    return ReplayFacts(
        record=o.record, index=o.index, seats=PLAYERS,
        players={s: o.player(s) for s in PLAYERS}, dealer=o.dealer,
        first=next_player(o.dealer) if o.dealer is not None else None,
        declarer=o.declarer, contract=bid_name(o.contract) if o.contract else None,
        discard=o.discard, dropouts=o.dropouts, gave_up=o.gave_up, calls=calls,
        hands=None if cards is None else {s: _played_from(o, s) for s in PLAYERS},
        talon=cards.talon if cards is not None else None,
        tricks=o.play.tricks if o.play is not None else (),
        order=o.play.seats if o.play is not None else PLAYERS, won=o.tricks,
        ante=line.ante, payments=line.score, pot=line.pot, balances=line.balances,
        findings=findings)


def _played_from(o: PrefOutcome, seat: Seat) -> tuple[Card, ...] | None:
    """The cards the seat plays from: as dealt, the declarer's with the talon taken and the
    discard laid away (a hand game keeps the talon aside)."""
    assert o.cards is not None
    hand = o.cards.hand(seat)
    if hand is None:
        return None
    held = tuple(hand.cards)
    talon = o.cards.talon
    if seat is o.declarer and o.contract is not None and not o.contract.is_hand \
            and talon and o.discard is not None:
        held = tuple(c for c in (*held, *talon) if c not in o.discard)
    return held
