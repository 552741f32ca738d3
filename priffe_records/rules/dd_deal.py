"""A checked deal as the double-dummy solver's position: what every family's hook shares.

Each family knows its own seats, trumps and aims (its ``dd.py``); what it hands the
solver is the same shape, :class:`priffe_records.dd.Deal`, and the same rules decide
which of its cards can be analysed: the hands must be known and form a legal deal, and
the play is followed only as far as every card is known and legal, since a position
after an unknown or illegal card is not one the players were in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from priffe_records.dd import Deal, Goal
from priffe_records.game.cards import Card, Hand, Seat, Suit
from priffe_records.rules.tricks import Trick


def readable_play(tricks: Iterable[Trick]) -> tuple[Card, ...]:
    """The cards played, in play order, up to the first the solver cannot follow: an
    unknown card (``-``), an illegal one, or a trick whose leader is not known."""
    out: list[Card] = []
    for trick in tricks:
        if trick.leader is None:
            break
        for played in trick.cards:
            if played.card is None or not played.legal:
                return tuple(out)
            out.append(played.card)
    return tuple(out)


def solver_deal(hands: Mapping[Seat, Hand | None], order: tuple[Seat, ...],
                trump: Suit | None, leader: Seat, side: frozenset[Seat], goal: Goal,
                must_trump: bool, tricks: Iterable[Trick]) -> Deal | None:
    """The solver's deal, or ``None`` when it has no position to analyse: a hand of
    ``order`` unknown, hands of unequal length or sharing a card, or no readable card."""
    held: dict[Seat, frozenset[Card]] = {}
    for seat in order:
        hand = hands.get(seat)
        if hand is None:
            return None
        held[seat] = frozenset(hand.cards)
    sizes = {len(cards) for cards in held.values()}
    if len(sizes) != 1 or len(frozenset().union(*held.values())) != sizes.pop() * len(order):
        return None
    played = readable_play(tricks)
    if not played:
        return None
    return Deal(hands=held, order=order, trump=trump, leader=leader, side=side, goal=goal,
                must_trump=must_trump, played=played)
