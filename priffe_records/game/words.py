"""How the engine names seats and suits in messages a player reads."""

from __future__ import annotations

from priffe_records.game.cards import Card, Seat, Suit

_SEAT_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
_SUIT_NAMES = {Suit.S: "spades", Suit.H: "hearts", Suit.D: "diamonds", Suit.C: "clubs"}


def seat_name(seat: Seat) -> str:
    return _SEAT_NAMES[seat]


def suit_name(suit: Suit) -> str:
    return _SUIT_NAMES[suit]


def card_name(card: Card) -> str:
    """``♦3``, ``♥10``: what a player writes on a sheet."""
    return card.pretty
