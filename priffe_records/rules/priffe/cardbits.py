"""Cards as small ints and hands as bit masks, for the engine's hot paths.

A card's id is ``suit index * 13 + rank order`` (suits S H D C, ranks 2..A), so a
hand is an int with one bit per card and a suit is a 13-bit field of it. Hashing
``Card`` dataclasses dominated the validator's time before; these ids need none.

>>> from priffe_records.game.cards import Card, Deal
>>> card_id(Card.parse("SA")), card_id(Card.parse("C2"))
(12, 39)
>>> [bin(m).count("1") if m is not None else None
...  for m in deal_masks(Deal.parse("N:AKQ2.JT9.876.543 - - -"))]
[13, None, None, None]
"""

from __future__ import annotations

from priffe_records.game.cards import SUITS, Card, Deal, Hand, Rank

SUIT_NO = {s: i for i, s in enumerate(SUITS)}
RANK_NO = {r: r.order for r in Rank}
SUIT_BITS = tuple(((1 << 13) - 1) << (13 * i) for i in range(4))

_last: tuple[Deal | None, tuple[int | None, ...]] = (None, ())


def card_id(card: Card) -> int:
    return SUIT_NO[card.suit] * 13 + RANK_NO[card.rank]


def hand_mask(hand: Hand) -> int:
    """The hand's cards as bits; a card dealt twice sets one bit (compare the count)."""
    mask = 0
    suit_no, rank_no = SUIT_NO, RANK_NO
    for c in hand.cards:
        mask |= 1 << (suit_no[c.suit] * 13 + rank_no[c.rank])
    return mask


def deal_masks(deal: Deal) -> tuple[int | None, ...]:
    """Each seat's mask (N, E, S, W), ``None`` for an unknown hand.

    The deal check, the replay and the honours all ask for the same deal in turn, so
    the last answer is kept (by identity: a Deal is immutable).
    """
    global _last
    if _last[0] is deal:
        return _last[1]
    masks = tuple(hand_mask(h) if h is not None else None for h in deal.hands)
    _last = (deal, masks)
    return masks
