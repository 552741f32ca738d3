"""The HTML viewer's deal data, compact: what both game families' deals are written as.

A page of thousands of deals stays small because a card is two characters, a
whole play one string, and a text that recurs (a contract line, a seat label, a
score line) is written once in the page's table and named by its number. The page's
JavaScript unpacks one deal when the reader picks it.

>>> from priffe_records.game.cards import FULL_DECK, Card, Seat
>>> hand_ids([Card.parse("SA"), Card.parse("H10")]), card_id(None)
('A.T..', '--')
>>> table = Strings()
>>> table("Contract: Hearts"), table("no slam"), table("Contract: Hearts"), table.texts
(0, 1, 0, ['Contract: Hearts', 'no slam'])
"""

from __future__ import annotations

from collections.abc import Sequence

from priffe_records.game.cards import FULL_DECK, Card, Seat
from priffe_records.replay.model import TrickView
from priffe_records.replay.wording import Words, where


class Strings:
    """The page's table of repeated texts: a deal names a text by its place in the table.

    Contract lines, auctions, seat labels and score lines recur from deal to deal;
    each is written once per page and every deal holding it writes a number, which
    keeps a page of thousands of deals small.
    """

    def __init__(self) -> None:
        self.texts: list[str] = []
        self._index: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        i = self._index.get(text)
        if i is None:
            i = self._index[text] = len(self.texts)
            self.texts.append(text)
        return i


def card_id(card: Card | None) -> str:
    """A card as two characters, suit then rank (``HA``, ``ST``); ``--`` for an unknown one."""
    return "--" if card is None else str(card)


def hand_ids(cards: Sequence[Card] | None) -> str | None:
    """A hand as PBN writes one, the ranks of each suit after the other (S H D C) in the
    order given, the suits parted by dots: ``AQ9.KT65.J4.T2``; ``None`` when unknown."""
    if cards is None:
        return None
    suits = ["", "", "", ""]
    for c in cards:
        suit, rank = _PARTS[c]
        suits[suit] += rank
    return ".".join(suits)


def plays(tricks: Sequence[TrickView], order: str = "NESW") -> str:
    """Every trick as one word, the words joined by spaces: leader, winner (``-`` while
    unknown or incomplete), then the card ids in the order played, each seat after the
    one before in ``order`` (the seats that play, clockwise). A trick played otherwise
    (its leader unknown) starts with ``*`` and gives each card's seat before its id."""
    out = []
    clockwise = {s: (order[i:] + order[:i]) for i, s in enumerate(order)}
    seat = _SEAT
    for t in tricks:
        lead = seat[t.leader]
        cards = t.cards
        won = seat[t.winner] if len(cards) == t.size and t.winner is not None else "-"
        seats = "".join([seat[c.seat] for c in cards])
        ids = [_ID.get(c.card, "--") for c in cards]
        if clockwise.get(lead, "").startswith(seats):
            out.append(lead + won + "".join(ids))
        else:
            out.append("*" + lead + won + "".join(map(str.__add__, seats, ids)))
    return " ".join(out)


_SEAT: dict[Seat | None, str] = {**{s: s.value for s in Seat}, None: "?"}
_ID: dict[Card | None, str] = {c: card_id(c) for c in FULL_DECK}
_PARTS = {c: ("SHDC".index(i[0]), i[1]) for c, i in _ID.items() if c is not None}


def trick_extras(tricks: Sequence[TrickView], w: Words) -> dict[str, object]:
    """What only some cards and tricks have, keyed by trick (from 0) and ``trick.card``:
    illegal cards, comments, annotations, errors and notes. Absent when none."""
    bad: list[str] = []
    said: dict[str, list[str]] = {}
    notes: dict[str, str] = {}
    errors: dict[str, list[str]] = {}
    doubts: dict[str, list[str]] = {}
    for i, t in enumerate(tricks):
        for k, c in enumerate(t.cards):
            if not c.legal:
                bad.append(f"{i}.{k}")
            if c.comments:
                said[f"{i}.{k}"] = list(c.comments)
            if c.annotation is not None:
                notes[f"{i}.{k}"] = c.annotation
        if t.errors:
            errors[str(i)] = [where(f, w) for f in t.errors]
        if t.notes:
            doubts[str(i)] = [where(f, w) for f in t.notes]
    out = {"x": bad, "cc": said, "an": notes, "e": errors, "n": doubts}
    return {k: v for k, v in out.items() if v}


