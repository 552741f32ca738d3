"""Hand strength in honour tricks (hs), the seed table of R30.

Used by the convention warnings (R9) and by replays showing hand strength.
Values are :class:`~fractions.Fraction` so ¼-steps add up exactly.

>>> from priffe_records.game.cards import Hand
>>> str(honour_tricks(Hand.parse("AKQ.KJ3.Q2.5432")))
'13/4'
>>> show_hs(honour_tricks(Hand.parse("AKQ.KJ3.Q2.5432")))
'3¼'
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache

from priffe_records.game.cards import SUITS, Card, Hand, Rank, Suit


def suit_value(ranks: Iterable[Rank]) -> Fraction:
    """hs of one suit holding: the first row of the R30 table it meets."""
    return Fraction(_quarters(frozenset(ranks)), 4)


@lru_cache(maxsize=8192)  # every holding of a suit: 2**13
def _quarters(held: frozenset[Rank]) -> int:
    """:func:`suit_value` in quarters: whole numbers add up fast."""
    n = len(held)
    a, k, q = Rank.ACE in held, Rank.KING in held, Rank.QUEEN in held
    j, t = Rank.JACK in held, Rank.TEN in held
    if a and k and q:
        return 9  # row 1
    if a and k:
        return 8  # row 2
    if a and q:
        return 6  # row 3
    if (a and j and n >= 3) or (k and q and j) or (a and n == 1):
        return 5  # row 4
    if (a and j and n == 2) or (k and q) or (k and j and t):
        return 4  # row 5
    if a:
        return 4  # row 6, a completion of the seed table
    if k and j and n >= 3:
        return 3  # row 7
    if (k and n >= 2) or (q and j and (t or n >= 3)):
        return 2  # row 8
    if (q and n >= 2) or ((k or q or j) and n == 1):
        return 1  # row 9
    return 0  # row 10


def _by_suit(cards: Iterable[Card]) -> dict[Suit, list[Rank]]:
    by_suit: dict[Suit, list[Rank]] = {s: [] for s in SUITS}
    for c in cards:
        by_suit[c.suit].append(c.rank)
    return by_suit


def suit_values(cards: Iterable[Card]) -> dict[Suit, Fraction]:
    return {s: suit_value(r) for s, r in _by_suit(cards).items()}


def honour_tricks(hand: Hand) -> Fraction:
    """A hand's hs: the sum over its four suits (R30)."""
    return _QUARTERS[sum(_quarters(frozenset(r)) for r in _by_suit(hand.cards).values())]


_QUARTERS = tuple(Fraction(q, 4) for q in range(4 * 9 + 1))  # made once: a Fraction is slow


def is_guarded(hand: Hand, suit: Suit) -> bool:
    """A suit the opponents cannot run at once: A, Kx, Qxx or Jxxx (a convention, see R9)."""
    ranks = {c.rank for c in hand.cards if c.suit is suit}
    n = len(ranks)
    return (Rank.ACE in ranks or (Rank.KING in ranks and n >= 2)
            or (Rank.QUEEN in ranks and n >= 3) or (Rank.JACK in ranks and n >= 4))


def show_hs(value: Fraction) -> str:
    """Players write quarters as ¼ ½ ¾."""
    whole, rest = divmod(value, 1)
    frac = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}[rest]
    return (str(whole) if whole or not frac else "") + frac
