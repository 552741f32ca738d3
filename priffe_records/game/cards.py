"""Seats, sides, suits, ranks, cards and deals (R1, R2).

These are the vocabulary shared by the reader, the writer and the rules
engine, so they know nothing of parsing or scoring.

>>> Seat.N.left, Seat.N.partner, Seat.N.side
(<Seat.E: 'E'>, <Seat.S: 'S'>, <Side.NS: 'NS'>)
>>> Card.parse("h10"), str(Card.parse("♠A"))
(Card(suit=<Suit.H: 'H'>, rank=<Rank.TEN: 'T'>), 'SA')
>>> deal = Deal.parse("N:AKQ2.JT9.876.543 - - -")
>>> deal.hand(Seat.N).pbn(), deal.hand(Seat.E)
('AKQ2.JT9.876.543', None)
>>> Deal.parse("N:AKX... - - -")
Traceback (most recent call last):
...
priffe_records.game.cards.CardError: N hand 'AKX...': rank 'X' is not a rank (A K Q J T 9 … 2)
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from priffe_records.game.errors import PriffeError
from priffe_records.game.language import Message, msg, msg_p


class CardError(PriffeError, ValueError):
    """A card, hand or deal string that cannot be read; ``column`` is 0-based within the string."""

    def __init__(self, message: Message | str, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


class Side(enum.Enum):
    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)


class Seat(enum.Enum):
    """A compass seat; play goes clockwise N → E → S → W (R1)."""

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @classmethod
    def parse(cls, text: str) -> Seat:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise CardError(msg("{text!r} is not a seat (N, E, S or W)", text=text)) from None

    @property
    def index(self) -> int:
        return _SEAT_INDEX[self]

    @property
    def left(self) -> Seat:
        """The next seat clockwise ("left of", R1)."""
        return _SEAT_ORDER[(_SEAT_INDEX[self] + 1) % 4]

    @property
    def partner(self) -> Seat:
        return _SEAT_ORDER[(_SEAT_INDEX[self] + 2) % 4]

    @property
    def right(self) -> Seat:
        return _SEAT_ORDER[(_SEAT_INDEX[self] + 3) % 4]

    @property
    def side(self) -> Side:
        return Side.NS if self is Seat.N or self is Seat.S else Side.EW

    def rotation(self) -> tuple[Seat, Seat, Seat, Seat]:
        """The four seats clockwise, starting here."""
        i = self.index
        return (_SEAT_ORDER[i], _SEAT_ORDER[(i + 1) % 4], _SEAT_ORDER[(i + 2) % 4],
                _SEAT_ORDER[(i + 3) % 4])


_SEAT_ORDER: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)
SEATS = _SEAT_ORDER
_SEAT_INDEX = {s: i for i, s in enumerate(_SEAT_ORDER)}  # the engine asks in its inner loops


class Suit(enum.Enum):
    """Suits in PBN order (spades, hearts, diamonds, clubs)."""

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    S = "S"
    H = "H"
    D = "D"
    C = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def is_red(self) -> bool:
        return self is Suit.H or self is Suit.D

    @classmethod
    def parse(cls, text: str) -> Suit:
        up = text.upper()
        if up in _SYMBOL_SUIT:
            return _SYMBOL_SUIT[up]
        try:
            return cls(up)
        except ValueError:
            raise CardError(msg("{text!r} is not a suit (S, H, D, C or ♠ ♥ ♦ ♣)",
                                text=text)) from None


_SUIT_SYMBOL = {Suit.S: "♠", Suit.H: "♥", Suit.D: "♦", Suit.C: "♣"}
_SYMBOL_SUIT = {v: k for k, v in _SUIT_SYMBOL.items()} | {"♤": Suit.S, "♡": Suit.H, "♢": Suit.D,
                                                         "♧": Suit.C}
SUITS: tuple[Suit, ...] = (Suit.S, Suit.H, Suit.D, Suit.C)


class Rank(enum.Enum):
    """Ranks, ace high (R2); ``value`` is the PBN letter, ``order`` compares."""

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def order(self) -> int:
        return _RANK_ORDER[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        up = text.upper()
        if up == "10":
            return Rank.TEN
        try:
            return cls(up)
        except ValueError:
            raise CardError(msg("rank {text!r} is not a rank (A K Q J T 9 … 2)",
                                text=text)) from None


_RANK_ORDER = {r: i for i, r in enumerate(Rank)}


@dataclass(frozen=True, order=False, slots=True)
class Card:
    suit: Suit
    rank: Rank

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``SA``, ``s10``, ``♠A`` or ``♠10`` (the same Card object each time)."""
        hit = _CARD_BY_TEXT.get(text)
        if hit is not None:
            return hit
        t = text.strip()
        not_a_card = msg("card {text!r} is not a card (suit S H D C then rank A K Q J T 9 … 2)",
                         text=text)
        if len(t) < 2:
            raise CardError(not_a_card)
        try:
            suit = Suit.parse(t[0])
            rank = Rank.parse(t[1:])
        except CardError:
            raise CardError(not_a_card) from None
        return cls(suit, rank)

    def __str__(self) -> str:
        return _CARD_TEXT[self.suit][self.rank]

    @property
    def pretty(self) -> str:
        return self.suit.symbol + ("10" if self.rank is Rank.TEN else self.rank.value)

    @property
    def sort_key(self) -> tuple[int, int]:
        """Suit in PBN order, then high rank first."""
        return (SUITS.index(self.suit), -self.rank.order)


FULL_DECK: frozenset[Card] = frozenset(Card(s, r) for s in Suit for r in Rank)
# Lookup tables: the engine parses and prints cards in its inner loops.
_CARD_TEXT = {s: {r: s.value + r.value for r in Rank} for s in Suit}
_CARD_BY_TEXT: dict[str, Card] = {str(c): c for c in FULL_DECK}
_CARD_BY_SUIT_LETTER: dict[tuple[Suit, str], Card] = {}
for _c in FULL_DECK:
    for _letter in {_c.rank.value, _c.rank.value.lower()}:
        _CARD_BY_SUIT_LETTER[(_c.suit, _letter)] = _c


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: c.sort_key)


@dataclass(frozen=True, slots=True)
class Hand:
    """One player's cards. Duplicates are kept so the deal check (R2) can report them."""

    cards: tuple[Card, ...]

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Read a PBN hand ``AKQ2.JT9.876.543`` (suits S.H.D.C, ``10`` allowed for ``T``)."""
        parts = text.split(".")
        if len(parts) != 4:
            raise CardError(_four_suits(text, len(parts)))
        cards: list[Card] = []
        for suit, part in zip(SUITS, parts, strict=True):
            for ch in part.replace("10", "T"):
                card = _CARD_BY_SUIT_LETTER.get((suit, ch))
                if card is None:
                    raise CardError(_not_a_rank(text, ch))
                cards.append(card)
        return cls(tuple(cards))

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def suit(self, suit: Suit) -> list[Card]:
        return sorted_cards(c for c in self.cards if c.suit is suit)

    def pbn(self) -> str:
        """Export form: suits S.H.D.C, ranks high first."""
        return ".".join("".join(c.rank.value for c in self.suit(s)) for s in SUITS)


_RANK_LETTER = {r.value: r.value for r in Rank} | {r.value.lower(): r.value for r in Rank}
_RANK_POS = {r.value: -r.order for r in Rank}


def _four_suits(text: str, count: int) -> Message:
    return msg("hand {text!r} must have four suits separated by '.', found {count}",
               text=text, count=count)


def _not_a_rank(text: str, rank: str) -> Message:
    return msg("hand {text!r}: rank {rank!r} is not a rank (A K Q J T 9 … 2)", text=text,
               rank=rank)


def _in_hand(seat: Seat, e: CardError) -> Message:
    """A hand's error prefixed by its seat letter in the reader's language (V for W): the
    catalog's "seat letter" entry, as game/words.seat_letter gives it (which imports this)."""
    return msg("{seat} {reason}", seat=msg_p("seat letter", seat.value), reason=e.message)


# A hand already canonical: four suits, upper-case ranks high first, no "10". Possessive
# (?+): a rank taken is never given back, which could not help the next rank: same
# matches, half the time.
_HAND = r"(?:A?+K?+Q?+J?+T?+9?+8?+7?+6?+5?+4?+3?+2?+\.){3}A?+K?+Q?+J?+T?+9?+8?+7?+6?+5?+4?+3?+2?+"
_CANONICAL_HAND = re.compile(_HAND + r"\Z")


def canonical_hand(text: str) -> str:
    """A PBN hand with ranks high-first and upper case, checked without building cards.

    >>> canonical_hand("2qka.9jt.678.345")
    'AKQ2.JT9.876.543'
    """
    if _CANONICAL_HAND.match(text):
        return text  # already in export form: nearly every hand of a file we wrote
    parts = text.replace("10", "T").split(".")
    if len(parts) != 4:
        raise CardError(_four_suits(text, len(parts)))
    out = []
    for part in parts:
        try:
            letters = [_RANK_LETTER[c] for c in part]
        except KeyError as e:
            raise CardError(_not_a_rank(text, e.args[0])) from None
        out.append("".join(sorted(letters, key=_RANK_POS.__getitem__)))
    return ".".join(out)


# A deal already canonical: seat, ':', four canonical hands (or '-') one space apart.
_CANONICAL_DEAL = re.compile(rf"[NESW]:(?:{_HAND}|-)(?: (?:{_HAND}|-)){{3}}\Z")


def _deal_parts(text: str) -> tuple[Seat, list[tuple[Seat, str, int]]]:
    """The first seat and each (seat, hand text, column) of a PBN Deal value.

    Missing hands at the end count as unknown (``-``).
    """
    t = text.strip()
    if len(t) < 2 or t[1] != ":":
        raise CardError(msg("deal {text!r} must start with the first seat and ':', e.g. "
                            "'N:AKQ2.JT9.876.543 …'", text=text))
    start = Seat.parse(t[0])
    parts = t[2:].split()
    if not 1 <= len(parts) <= 4:
        raise CardError(msg("deal must list four hands, found {count}", count=len(parts)), 2)
    parts += ["-"] * (4 - len(parts))
    out: list[tuple[Seat, str, int]] = []
    col = 2
    for seat, part in zip(start.rotation(), parts, strict=True):
        col = t.index(part, col) if part in t[col:] else col
        out.append((seat, part, col))
        col += len(part)
    return start, out


def canonical_deal(text: str, first: Seat | None = None) -> str:
    """A Deal value in export form, starting at ``first`` (the dealer) when given.

    >>> canonical_deal("e:2.-.-.- - ka.. -", Seat.N)
    Traceback (most recent call last):
    ...
    priffe_records.game.cards.CardError: E hand '2.-.-.-': rank '-' is not a rank (A K Q J T 9 … 2)
    >>> canonical_deal("E:- - ka... -", Seat.N)
    'N:- - - AK...'
    """
    if _CANONICAL_DEAL.match(text) and (first is None or first.value == text[0]):
        return text  # already in export form: nearly every deal of a file we wrote
    start, parts = _deal_parts(text)
    hands: dict[Seat, str] = {}
    for seat, part, col in parts:
        try:
            hands[seat] = "-" if part == "-" else canonical_hand(part)
        except CardError as e:
            raise CardError(_in_hand(seat, e), col) from None
    first = first or start
    return f"{first.value}:" + " ".join(hands[s] for s in first.rotation())


@dataclass(frozen=True, slots=True)
class Deal:
    """The four hands in seat order N, E, S, W; ``None`` for a hand given as ``-`` (unknown)."""

    hands: tuple[Hand | None, Hand | None, Hand | None, Hand | None]

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Read a PBN Deal value ``N:hand hand hand hand`` (PBN §3.4.11)."""
        hands: list[Hand | None] = [None] * 4
        for seat, part, col in _deal_parts(text)[1]:
            try:
                hands[seat.index] = None if part == "-" else Hand.parse(part)
            except CardError as e:
                raise CardError(_in_hand(seat, e), col) from None
        return cls((hands[0], hands[1], hands[2], hands[3]))

    def hand(self, seat: Seat) -> Hand | None:
        return self.hands[seat.index]

    def pbn(self, first: Seat = Seat.N) -> str:
        """Export form starting at ``first`` (the dealer, in export format)."""
        out = []
        for seat in first.rotation():
            h = self.hands[seat.index]
            out.append("-" if h is None else h.pbn())
        return f"{first.value}:" + " ".join(out)

    @property
    def complete(self) -> bool:
        return all(h is not None for h in self.hands)
