"""Tricks on card ids: the card table, following suit and the trick winner, written once.

Every trick-taking part of the package (each family's replay, the random deals, the
double-dummy solver) plays on these: a card's id is ``suit index * 13 + rank order``
(suits S H D C, ranks 2..A), so a hand is an int with one bit per card, a suit is a
13-bit field of it, and within a suit a higher id is a higher card. Hashing ``Card``
dataclasses dominated the engine's time before; ids need none.

>>> from priffe_records.game.cards import Card, Seat, Suit
>>> card_id(Card.parse("SA")), card_id(Card.parse("C2")), CARDS[12], CARD_IDS["HT"]
(12, 39, Card(suit=<Suit.S: 'S'>, rank=<Rank.ACE: 'A'>), 21)
>>> ids = [CARD_IDS[t] for t in ("H9", "S2", "HA")]
>>> winning_index(ids, suit_index(Suit.S)), winning_index(ids, NO_TRUMP)
(1, 2)
>>> held = hand_mask([Card.parse(t) for t in ("S2", "D5", "DK")])
>>> hearts, diamonds = suit_index(Suit.H), suit_index(Suit.D)
>>> [str(CARDS[i]) for i in ids_of(legal_mask(held, hearts, diamonds, True))]
['D5', 'DK']
>>> [str(CARDS[i]) for i in ids_of(legal_mask(held, hearts, diamonds, False))]
['S2', 'D5', 'DK']
>>> trick_winner([(Seat.E, Card.parse("H9")), (Seat.S, Card.parse("S2")),
...               (Seat.N, Card.parse("HA"))], Suit.S)
<Seat.S: 'S'>
>>> from priffe_records.game.cards import Deal
>>> [bin(m).count("1") if m is not None else None
...  for m in deal_masks(Deal.parse("N:AKQ2.JT9.876.543 - - -"))]
[13, None, None, None]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import TypeVar

from priffe_records.game.cards import FULL_DECK, SEATS, SUITS, Card, Deal, Hand, Rank, Suit
from priffe_records.game.memo import Memo

NO_TRUMP = -1  # the trump index of a game without trumps
SUIT_INDEX: dict[Suit, int] = {s: i for i, s in enumerate(SUITS)}
SUIT_BITS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * i) for i in range(4))
CARDS: tuple[Card, ...] = tuple(sorted(FULL_DECK, key=lambda c: SUIT_INDEX[c.suit] * 13
                                       + c.rank.order))
CARD_IDS: dict[str, int] = {str(c): i for i, c in enumerate(CARDS)}  # export text -> id
# By suit and rank, not by Card: a dataclass hashes in Python code, an enum member by id.
_BASE = {s: 13 * i for s, i in SUIT_INDEX.items()}
_ORDER = {r: r.order for r in Rank}
SUIT_OF: tuple[int, ...] = tuple(i // 13 for i in range(52))
BIT: tuple[int, ...] = tuple(1 << i for i in range(52))


def card_id(card: Card) -> int:
    return _BASE[card.suit] + _ORDER[card.rank]


def suit_index(suit: Suit | None) -> int:
    """A suit's index (S 0, H 1, D 2, C 3); :data:`NO_TRUMP` for no suit."""
    return NO_TRUMP if suit is None else SUIT_INDEX[suit]


def hand_mask(cards: Iterable[Card]) -> int:
    """The cards as bits; a card given twice sets one bit (compare the count to find it)."""
    mask = 0
    base, order = _BASE, _ORDER
    for c in cards:
        mask |= 1 << (base[c.suit] + order[c.rank])
    return mask


def disjoint(masks: Iterable[int | None]) -> bool:
    """Whether no card is in two of the hands (``None``: an unknown hand, left out)."""
    union = count = 0
    for m in masks:
        if m is not None:
            union |= m
            count += m.bit_count()
    return union.bit_count() == count


def ids_of(mask: int) -> Iterator[int]:
    """The card ids of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> list[Card]:
    """The cards of ``mask`` in PBN order: suits S H D C, high rank first in each."""
    out: list[Card] = []
    for suit in range(4):
        held = mask & SUIT_BITS[suit]
        while held:
            top = held.bit_length() - 1
            out.append(CARDS[top])
            held ^= 1 << top
    return out


def highest(mask: int, suit: int) -> Card | None:
    """The highest card of ``suit`` in ``mask``, if any: the card a message names."""
    held = mask & SUIT_BITS[suit]
    return CARDS[held.bit_length() - 1] if held else None


def legal_mask(held: int, led: int, trump: int, must_trump: bool) -> int:
    """The cards of ``held`` a player may play to a trick led in suit ``led`` (R11, P10):
    the suit led while he has it, else a trump when ``must_trump`` and he has one, else
    any card. ``led`` is -1 for the lead itself, which may be any card."""
    if led < 0:
        return held
    follow = held & SUIT_BITS[led]
    if follow:
        return follow
    if must_trump and trump >= 0:
        trumps = held & SUIT_BITS[trump]
        if trumps:
            return trumps
    return held


def playable(cards: Sequence[Card], led: Suit | None, trump: Suit | None, must_trump: bool
             ) -> list[Card]:
    """:func:`legal_mask` for cards as objects, in the order given (``led`` None: the lead)."""
    legal = legal_mask(hand_mask(cards), -1 if led is None else SUIT_INDEX[led],
                       suit_index(trump), must_trump)
    return [c for c in cards if legal >> card_id(c) & 1]


# Why a player may not play a card (R11, P10): the one per-card rule of every game's play.
PLAYABLE, PLAYED, ELSEWHERE, NOT_HELD, SHOWED_OUT, MUST_FOLLOW, MUST_TRUMP = range(7)


def card_fault(held: int | None, cid: int, led: int, trump: int, must_trump: bool, *,
               gone: int = 0, elsewhere: bool = False, void: bool = False) -> int:
    """Whether the card ``cid`` may be played from ``held`` (``None``: an unknown hand) to
    a trick led in suit ``led`` (-1: the lead, or a suit not known), and why not.

    ``gone``: every card played so far; ``elsewhere``: the card was dealt to another seat;
    ``void``: this unknown hand showed out of the card's suit before. A clean trick
    (:func:`play_tricks`) and a trick worded card by card (each family's replay) both
    ask this, so a rule written here holds for every trick. The answer is
    :data:`PLAYABLE` or the first fault: played before, dealt to another, not in the
    hand, a suit shown out of, the suit led not followed, a trump owed (``must_trump``).
    A card of the suit led, not played before and in a known hand, is always playable:
    :func:`play_tricks` asks only about the other cards.
    """
    bit = BIT[cid]
    if gone & bit:
        return PLAYED
    if elsewhere:
        return ELSEWHERE
    if held is None:
        return SHOWED_OUT if void else PLAYABLE
    if not held & bit:
        return NOT_HELD
    if led < 0 or cid // 13 == led or legal_mask(held, led, trump, must_trump) & bit:
        return PLAYABLE
    return MUST_FOLLOW if held & SUIT_BITS[led] else MUST_TRUMP


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card winning it so far (R12,
    P10): a higher card of its suit, or a trump over a card that is none. The winner is
    then the highest trump, else the highest card of the suit led, whatever the order of
    play. :func:`play_tricks` and the solver's core read it from :func:`beat_table`."""
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


@cache  # one table a trump (-1: none), made once a process (2,704 calls, 0.3 ms)
def beat_table(trump: int) -> tuple[tuple[bool, ...], ...]:
    """:func:`beats` for every pair of cards, at ``[card][best]``: two indexes a card,
    where a call a card cost 2.7 % of validate, and 4.7 % of the solver's search from
    its compiled core (a cimport of this file compiled, which C cannot inline)."""
    return tuple(tuple(beats(card, best, trump) for best in range(52)) for card in range(52))


def play_tricks(ids: Sequence[int], lead: int, held: list[int], trump: int,
                must_trump: bool) -> list[int]:
    """Tricks played on masks while each is clean: the trick-winner rule and the
    follow-suit rule, once.

    ``ids`` are the cards trick after trick, each trick in column order (``len(held)``
    cards; the last may be cut short by a claim); ``held`` is each column's hand (a mask)
    and ``lead`` the first leader's column. A trick is clean when every card is in its
    player's hand and follows suit (:func:`card_fault`); its cards then leave the hands,
    and its winner (:func:`beats`) leads the next. The answer is each clean trick's
    winner column (-1 for a last trick cut short), up to the first trick that is not
    clean (an unknown card, -1, is not), whose hands stay as they were.
    """
    width = len(held)
    beat = beat_table(trump)
    winners: list[int] = []
    for start in range(0, len(ids), width):
        trick = ids[start:start + width]
        if -1 in trick:
            break
        if lead < len(trick):
            best = trick[lead]
            led = best // 13
        else:  # cut short before its lead: any card may be played, and it has no winner
            best, led = trick[0], -1  # (a card, so that beat[cid][best] reads a real one)
        at = lead
        for k, cid in enumerate(trick):
            hand = held[k]
            bit = BIT[cid]  # a table: 1 << cid makes a new int
            suit = cid // 13
            # a held card of the suit led is playable (card_fault says so first): only the
            # others are asked, a call a card costing 5 % of validate
            if (suit != led or not hand & bit) and card_fault(hand, cid, led, trump,
                                                             must_trump):
                for j in range(k):  # give back the cards taken
                    held[j] |= BIT[trick[j]]
                return winners
            held[k] = hand ^ bit
            if beat[cid][best]:
                best, at = cid, k
        if len(trick) < width:
            winners.append(-1)
            break
        winners.append(at)
        lead = at
    return winners


def winning_index(ids: Sequence[int], trump: int) -> int:
    """Which card wins the trick: :func:`play_tricks`' rule for cards already known to be
    legal. ``ids`` are in the order played, the lead first; the answer indexes them."""
    return play_tricks(ids, 0, [1 << cid for cid in ids], trump, False)[0]


S = TypeVar("S")


def trick_winner(plays: Sequence[tuple[S, Card]], trump: Suit | None) -> S:
    """Who wins: :func:`winning_index` for cards as objects; ``plays`` start with the lead."""
    return plays[winning_index([card_id(c) for _, c in plays], suit_index(trump))][0]


_last: tuple[Deal | None, tuple[int | None, ...], bool | None] = (None, (), None)


def deal_masks(deal: Deal) -> tuple[int | None, ...]:
    """Each seat's mask (N, E, S, W), ``None`` for an unknown hand.

    The deal check, the replay and the honours all ask for the same deal in turn, so
    the last answer is kept (by identity: a Deal is immutable).
    """
    global _last
    if _last[0] is deal:
        return _last[1]
    masks = tuple(hand_mask(h.cards) if h is not None else None for h in deal.hands)
    _last = (deal, masks, None)
    return masks


def apart(deal: Deal) -> bool:
    """Whether no card is dealt twice, to one hand or to two (unknown hands left out): then
    a hand's mask is its cards, and "held" is "dealt to this seat and not yet played"."""
    global _last
    masks = deal_masks(deal)
    known = _last[2]
    if known is None:
        known = disjoint(masks) and all(
            h is None or len(h.cards) == m.bit_count()  # type: ignore[union-attr]
            for h, m in zip(deal.hands, masks, strict=True))
        _last = (deal, masks, known)
    return known


# A deal's masks, and deal values in export form, read without Card.parse per card: each suit's
# holding text ("KQ743") is read once per process and kept with its cards and bits.
_CANONICAL_RUN = re.compile(r"A?K?Q?J?T?9?8?7?6?5?4?3?2?\Z")
_CARD_AT = tuple({c.rank.value: c for c in CARDS[13 * i:13 * i + 13]} for i in range(4))
_BIT_AT = tuple({c.rank.value: BIT[13 * i + k] for k, c in enumerate(CARDS[13 * i:13 * i + 13])}
                for i in range(4))
# every canonical holding of every suit fits
_RUNS: tuple[Memo[str, tuple[tuple[Card, ...], int]], ...] = tuple(Memo(8192) for _ in range(4))
_FIRST = {s.value: s.index for s in SEATS}


def _run(suit: int, text: str) -> tuple[tuple[Card, ...], int] | None:
    got = _RUNS[suit].get(text)
    if got is None and _CANONICAL_RUN.match(text):
        got = _RUNS[suit].keep(text, (tuple(map(_CARD_AT[suit].__getitem__, text)),
                                      sum(map(_BIT_AT[suit].__getitem__, text))))
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
    union = count = 0
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
        hands[seat] = cards = Hand(s_[0] + h_[0] + d_[0] + c_[0])
        masks[seat] = mask = s_[1] | h_[1] | d_[1] | c_[1]
        union |= mask
        count += len(cards.cards)
    deal = Deal((hands[0], hands[1], hands[2], hands[3]))
    # an export-form holding never repeats a card: the deal is apart when the hands are
    _last = (deal, tuple(masks), union.bit_count() == count)
    return deal
