"""Austrian Préférence bids and contracts (PREFERENCE.md P3, P8) and the words for them.

One enum serves both: a contract is a bid other than Pass. Canonical words
are English as PREFERENCE.md writes them; import also accepts any letter case
and the suit symbols for the four talon bids.

>>> Bid.parse("handdiamonds"), Bid.parse("♦"), Bid.parse("PREFERENCE").value
(<Bid.HAND_DIAMONDS: 'HandDiamonds'>, <Bid.DIAMONDS: 'Diamonds'>, 'Preference')
>>> Bid.HAND_CLUBS.outranks(Bid.HEARTS), Bid.PREFERENCE.suit_value
(True, 4)
"""

from __future__ import annotations

import difflib
import enum

from priffe_records.game.cards import Suit
from priffe_records.game.language import Message, msg


class Bid(enum.Enum):
    """A Préférence call or contract; ``value`` is the canonical export word."""

    PASS = "Pass"
    CLUBS = "Clubs"
    SPADES = "Spades"
    DIAMONDS = "Diamonds"
    HEARTS = "Hearts"
    HAND_CLUBS = "HandClubs"
    HAND_SPADES = "HandSpades"
    HAND_DIAMONDS = "HandDiamonds"
    PREFERENCE = "Preference"

    @property
    def is_bid(self) -> bool:
        return self is not Bid.PASS

    @property
    def height(self) -> int:
        """Rank in the auction (P3): Clubs 1 … Preference 8; Pass 0."""
        return _ORDER.index(self)

    def outranks(self, other: Bid) -> bool:
        return self.height > other.height

    @property
    def is_hand(self) -> bool:
        """Played without the talon (P3, P7)."""
        return self.height >= 5

    @property
    def suit(self) -> Suit | None:
        """The trump suit a contract names; ``None`` for Pass."""
        return _SUIT.get(self)

    @property
    def suit_value(self) -> int:
        """Clubs 1, Spades 2, Diamonds 3, Hearts 4; a hand bid has its suit's value (P8)."""
        return 0 if self is Bid.PASS else (self.height - 1) % 4 + 1

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read any accepted spelling; ``ValueError`` names the closest word."""
        key = text.strip().casefold()
        hit = _WORDS.get(key)
        if hit is not None:
            return hit
        close = suggest_bid(key)
        if close:
            raise ValueError(msg("unknown Préférence call {text!r} — did you mean {word!r}?",
                                 text=text, word=close))
        raise ValueError(msg("unknown Préférence call {text!r}", text=text))


_ORDER = tuple(Bid)
_SUIT = {Bid.CLUBS: Suit.C, Bid.SPADES: Suit.S, Bid.DIAMONDS: Suit.D, Bid.HEARTS: Suit.H,
         Bid.HAND_CLUBS: Suit.C, Bid.HAND_SPADES: Suit.S, Bid.HAND_DIAMONDS: Suit.D,
         Bid.PREFERENCE: Suit.H}
_WORDS: dict[str, Bid] = {}
for _bid, _words in {
    Bid.PASS: ("pass",),
    Bid.CLUBS: ("clubs", "club", "♣", "♧"),
    Bid.SPADES: ("spades", "spade", "♠", "♤"),
    Bid.DIAMONDS: ("diamonds", "diamond", "♦", "♢"),
    Bid.HEARTS: ("hearts", "heart", "♥", "♡"),
    Bid.HAND_CLUBS: ("handclubs",),
    Bid.HAND_SPADES: ("handspades",),
    Bid.HAND_DIAMONDS: ("handdiamonds",),
    Bid.PREFERENCE: ("preference", "handhearts"),
}.items():
    for _w in _words:
        _WORDS[_w] = _bid
BID_WORDS = " ".join(b.value for b in Bid)


def suggest_bid(text: str) -> str | None:
    """The canonical Préférence word closest to a misspelt call, if any is close."""
    close = difflib.get_close_matches(text.strip().casefold(), [w for w in _WORDS if len(w) > 1],
                                      n=1, cutoff=0.75)
    return _WORDS[close[0]].value if close else None


def unknown_bid(word: str) -> Message:
    """An unknown word in a Préférence auction, with the closest call and the calls."""
    hint = suggest_bid(word)
    return (msg("unknown call {word!r} — did you mean {hint!r}? (Préférence calls: "
                "{calls})", word=word, hint=hint, calls=BID_WORDS) if hint else
            msg("unknown call {word!r} (Préférence calls: {calls})", word=word,
                calls=BID_WORDS))


def bid_spellings() -> dict[str, str]:
    """Every word read as a Préférence call (case-folded) and its canonical word."""
    return {w: b.value for w, b in _WORDS.items()}


CONTRACTS: tuple[Bid, ...] = _ORDER[1:]


# ------------------------------------------------------------------ tag values

_SEAT_LETTERS = ("N", "E", "S")


def _not_of_form(text: str, shape: str) -> Message:
    return msg("{text!r} is not of the form {shape}", text=text, shape=shape)


def parse_seat_numbers(text: str, *, scores: bool) -> dict[str, int]:
    """``N 5 E 4 S 1`` (Result, ``scores=False``) or ``N 1;E -20;S -11`` (Score, Balance).

    Seats are N, E or S, each at most once; raises ``ValueError`` with the
    expected shape otherwise.

    >>> parse_seat_numbers("n 5 e 4 s 1", scores=False)
    {'N': 5, 'E': 4, 'S': 1}
    >>> parse_seat_numbers("S -11; N +1", scores=True)
    {'S': -11, 'N': 1}
    """
    shape = "'N 1;E -20;S -11'" if scores else "'N 5 E 4 S 1'"
    if scores:
        items = [i.split() for i in text.split(";") if i.strip()]
    else:
        words = text.split()
        items = [words[i:i + 2] for i in range(0, len(words), 2)]
    out: dict[str, int] = {}
    for item in items:
        if len(item) != 2:
            raise ValueError(_not_of_form(text, shape))
        seat, number = item[0].upper(), item[1]
        body = number[1:] if scores and number[:1] in "+-" else number
        if seat not in _SEAT_LETTERS or seat in out or not body.isdigit() or \
                not body.isascii() or len(body) > 9:
            raise ValueError(_not_of_form(text, shape))
        out[seat] = int(number)
    if not out:
        raise ValueError(_not_of_form(text, shape))
    return out


def format_seat_numbers(values: dict[str, int], *, scores: bool) -> str:
    """The export form, seats in the order N, E, S."""
    items = [(s, values[s]) for s in _SEAT_LETTERS if s in values]
    if scores:
        return ";".join(f"{s} {v}" for s, v in items)
    return " ".join(f"{s} {v}" for s, v in items)
