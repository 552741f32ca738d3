"""What every trick-taking family shares: a played card, a trick, and who wins it.

The families replay their Play sections each in their own way (four seats
in partnerships, or three alone); the trick they build and the winner rule
(highest trump, else highest card of the suit led) are the same, so the
replay views and the archive read one shape.

>>> from priffe_records.game.cards import Card, Seat, Suit
>>> trick_winner([(Seat.E, Card.parse("H9")), (Seat.S, Card.parse("S2")),
...               (Seat.N, Card.parse("HA"))], Suit.S)
<Seat.S: 'S'>
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from priffe_records.format.record import Token
from priffe_records.game.cards import Card, Seat, Suit
from priffe_records.rules.findings import Finding


class PlayedCard(NamedTuple):
    """One card of a trick. Immutable like the dataclasses here, but a NamedTuple:
    the replay makes 52 per deal and building frozen dataclasses was a fifth of
    its time (line profile)."""

    seat: Seat
    card: Card | None  # None: unknown card '-'
    token: Token
    legal: bool = True


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick; ``cards`` in the order played (column order when the leader is unknown)."""

    number: int
    leader: Seat | None
    cards: tuple[PlayedCard, ...]
    winner: Seat | None
    findings: tuple[Finding, ...] = ()


def trick_winner(plays: list[tuple[Seat, Card]], trump: Suit | None) -> Seat:
    """Highest trump, else highest card of the suit led; ``plays`` start with the lead."""
    best_seat, best = plays[0]
    for seat, card in plays[1:]:
        if card.suit is best.suit:
            if card.rank.order > best.rank.order:
                best_seat, best = seat, card
        elif card.suit is trump:
            best_seat, best = seat, card
    return best_seat
