"""Préférence's words for the reader: its calls, its ``Scoring`` word, its own tag values.

Data only (it imports ``game/`` and the format's :class:`Vocabulary`), so the reader
loads it without the engine. A trick is three cards, two after a drop-out (P9, P10);
Result, Score, Balance, Pot, Talon, Discard and Dropout have PREFERENCE.md's export form.

>>> WORDS.calls["handhearts"], WORDS.accepts("preference;ante=5"), WORDS.accepts(None)
('Preference', True, False)
>>> own_values("Score", "S -11; N +1"), own_values("Talon", "s7 hq")
('N 1;S -11', 'S7 HQ')
"""

from __future__ import annotations

from priffe_records.format.vocabulary import Vocabulary
from priffe_records.game.cards import Card
from priffe_records.game.language import Message, msg, msg_p
from priffe_records.rules.preference.bids import (
    Bid,
    bid_spellings,
    format_seat_numbers,
    parse_seat_numbers,
    unknown_bid,
)

# The bids as a table shows them: English the file's own word, Swedish the players' (P3).
BID_NAMES = {
    Bid.PASS: msg_p("préférence bid", "Pass"), Bid.CLUBS: msg_p("préférence bid", "Clubs"),
    Bid.SPADES: msg_p("préférence bid", "Spades"),
    Bid.DIAMONDS: msg_p("préférence bid", "Diamonds"),
    Bid.HEARTS: msg_p("préférence bid", "Hearts"),
    Bid.HAND_CLUBS: msg_p("préférence bid", "HandClubs"),
    Bid.HAND_SPADES: msg_p("préférence bid", "HandSpades"),
    Bid.HAND_DIAMONDS: msg_p("préférence bid", "HandDiamonds"),
    Bid.PREFERENCE: msg_p("préférence bid", "Preference"),
}


def own_values(name: str, value: str) -> str:
    """PREFERENCE.md export form of a Préférence value; anything odd is kept as written."""
    v = value.strip()
    try:
        if name in ("Talon", "Discard"):
            return " ".join(str(Card.parse(w)) for w in v.split()) if v else value
        if name == "Dropout":
            words = v.upper().split()
            return " ".join(words) if all(w in ("N", "E", "S", "W") for w in words) else value
        if name == "Pot":
            return v if v.isascii() and v.isdigit() else value
        numbers = parse_seat_numbers(v, scores=name != "Result")
        return format_seat_numbers(numbers, scores=name != "Result")
    except ValueError:
        return value


WORDS = Vocabulary(
    name="Preference",
    calls=bid_spellings(),
    contracts=bid_spellings(),
    unknown_call=unknown_bid,
    family="priffe_records.rules.preference.family",
    trick=3,
    long_row=msg("Play row has 4 cards: in Préférence each line is one trick, three cards "
                 "(two after a drop-out) in seat order (PREFERENCE.md)"),
    dropouts=True,
    value_tags=frozenset({"Result", "Score", "Balance", "Pot", "Talon", "Discard", "Dropout"}),
    own_values=own_values,
    # the game's name (stored as ASCII) and its contracts (stored as the file's words)
    labels={("game", "Preference"): Message("Préférence"),
            **{("contract", bid.value): name for bid, name in BID_NAMES.items()}},
)
