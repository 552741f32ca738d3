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

import re

from priffe_records.game.cards import FULL_DECK, SEATS, SUITS, Card, Deal, Hand, Rank

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


# Deal values in export form, read without Card.parse per card: each suit's
# holding text ("KQ743") is read once per process and kept with its cards and bits.
_CANONICAL_RUN = re.compile(r"A?K?Q?J?T?9?8?7?6?5?4?3?2?\Z")
_CARD_AT = tuple({c.rank.value: c for c in FULL_DECK if SUIT_NO[c.suit] == i} for i in range(4))
_BIT_AT = tuple({ch: 1 << card_id(c) for ch, c in cards.items()} for cards in _CARD_AT)
_RUNS: tuple[dict[str, tuple[tuple[Card, ...], int]], ...] = ({}, {}, {}, {})
_RUNS_MAX = 4 * 8192  # every canonical holding of every suit
_FIRST = {s.value: s.index for s in SEATS}


def _run(suit: int, text: str) -> tuple[tuple[Card, ...], int] | None:
    runs = _RUNS[suit]
    got = runs.get(text)
    if got is None and _CANONICAL_RUN.match(text):
        got = (tuple(map(_CARD_AT[suit].__getitem__, text)),
               sum(map(_BIT_AT[suit].__getitem__, text)))
        if len(runs) < _RUNS_MAX:
            runs[text] = got
    return got


def parse_deal(text: str) -> Deal | None:
    """``Deal.parse(text)`` for a value in export form (``N:`` then four hands or ``-``
    with single spaces, ranks high first), its masks kept for :func:`deal_masks`;
    ``None`` for any other spelling, which ``Deal.parse`` reads (and words its errors)."""
    global _last
    first = _FIRST.get(text[:1])
    parts = text[2:].split(" ")
    if first is None or text[1:2] != ":" or len(parts) != 4:
        return None
    hands: list[Hand | None] = [None] * 4
    masks: list[int | None] = [None] * 4
    spades, hearts, diamonds, clubs = _RUNS
    for k, part in enumerate(parts):
        if part == "-":
            continue
        suits = part.split(".")
        if len(suits) != 4:
            return None
        s, h, d, c = suits
        s_ = spades.get(s) or _run(0, s)
        h_ = hearts.get(h) or _run(1, h)
        d_ = diamonds.get(d) or _run(2, d)
        c_ = clubs.get(c) or _run(3, c)
        if s_ is None or h_ is None or d_ is None or c_ is None:
            return None
        seat = (first + k) % 4
        hands[seat] = Hand(s_[0] + h_[0] + d_[0] + c_[0])
        masks[seat] = s_[1] | h_[1] | d_[1] | c_[1]
    deal = Deal((hands[0], hands[1], hands[2], hands[3]))
    _last = (deal, tuple(masks))
    return deal
