"""How the engine names seats, suits and cards in messages a player reads.

Each name is a :class:`~priffe_records.game.language.Message`, so a Swedish
sentence gets Swedish words: ``Syd``, ``hjärter``, ``♥D`` (Ä K D Kn).

>>> print(seat_name(Seat.S), suit_name(Suit.H), card_name(Card.parse("HQ")))
South hearts ♥Q
>>> print(card_name(Card.parse("HQ")).render("sv"), card_name(Card.parse("ST")).render("sv"))
♥D ♠10
"""

from __future__ import annotations

from priffe_records.game.cards import Card, Rank, Seat, Suit
from priffe_records.game.language import Message, msg, msg_p

_SEAT_NAMES = {Seat.N: msg("North"), Seat.E: msg("East"), Seat.S: msg("South"),
               Seat.W: msg("West")}
_SUIT_NAMES = {Suit.S: msg("spades"), Suit.H: msg("hearts"), Suit.D: msg("diamonds"),
               Suit.C: msg("clubs")}
# Only the honours differ: Swedish players write Ä K D Kn.
_RANK_NAMES = {Rank.ACE: msg_p("rank", "A"), Rank.KING: msg_p("rank", "K"),
               Rank.QUEEN: msg_p("rank", "Q"), Rank.JACK: msg_p("rank", "J")}


def seat_name(seat: Seat) -> Message:
    return _SEAT_NAMES[seat]


def suit_name(suit: Suit) -> Message:
    return _SUIT_NAMES[suit]


def rank_name(rank: Rank) -> Message:
    """``Q`` in English, ``D`` in Swedish; a ten is ``10`` in both."""
    named = _RANK_NAMES.get(rank)
    return named if named is not None else Message("10" if rank is Rank.TEN else rank.value)


def card_name(card: Card) -> Message:
    """``♦3``, ``♥10``, ``♥D``: what a player writes on a sheet."""
    return Message("{suit}{rank}", {"suit": card.suit.symbol, "rank": rank_name(card.rank)})
