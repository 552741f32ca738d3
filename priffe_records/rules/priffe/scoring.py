"""Scoring one deal (R14–R18): trick and penalty points, slams, honours, game points.

Everything here is arithmetic on facts (contract, tricks, where the honours
lie); deciding those facts is the job of the auction, play and record
analysis.

>>> from priffe_records.game.calls import Contract
>>> from priffe_records.game.cards import Seat
>>> s = score_deal(Contract.HJARTER, Seat.E, SidePoints(10, 3), SidePoints(0, 0))
>>> s.scoring_side, s.n, s.penalty, str(s.total), str(s.game)
(<Side.NS: 'NS'>, 4, True, 'NS 80 EW 0', 'NS 40 EW 0')
>>> SidePoints.parse("NS 8 EW 5")
SidePoints(ns=8, ew=5)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product

from priffe_records.game.calls import Contract
from priffe_records.game.cards import SEATS, Card, Deal, Rank, Seat, Side, Suit
from priffe_records.game.language import Message, msg
from priffe_records.game.memo import Memo
from priffe_records.game.tricks import apart, card_id, deal_masks
from priffe_records.game.words import side_from_word, sides_text
from priffe_records.rules.priffe.options import ForcedHonours, HonoursVariant, Options

# A side as written: NS, EW, or ÖV as Swedish players write it (side_from_word reads each).
_PAIR = re.compile(r"^\s*(NS|EW|ÖV|OV|ØV)\s+(-?\d+)\s*(?:[;,]?\s*(NS|EW|ÖV|OV|ØV)\s+(-?\d+))?\s*$",
                   re.IGNORECASE)
# NS's number, a dash, EW's: how the score sheet prints tricks and points ("8–5").
_DASHED = re.compile(r"^\s*(\d+)\s*[-–]\s*(\d+)\s*$")
# A claimed number (Score, Honours, Result, ScoreRubber, Settlement) is at most what a
# SQLite integer holds, 2**63 - 1: more is no score, and the archive could not store it.
# Python's int() of thousands of digits raises, so the digits are counted first.
MAX_CLAIM = 2**63 - 1


class ClaimTooLarge(ValueError):
    """A claimed number beyond :data:`MAX_CLAIM` (its message says so)."""


def claimed_number(number: str, text: str) -> int:
    """A number of a tag value (``-?digits``), checked for size before it is used.

    >>> claimed_number("-20", "NS -20 EW 0"), claimed_number("0000000000000000000000120", "x")
    (-20, 120)
    >>> claimed_number("99999999999999999999", "NS 99999999999999999999")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    priffe_records.rules.priffe.scoring.ClaimTooLarge: ...
    """
    digits = number.lstrip("+-").lstrip("0")
    if len(digits) <= len(str(MAX_CLAIM)):
        value = int(number)
        if abs(value) <= MAX_CLAIM:
            return value
    shown = text.strip()
    raise ClaimTooLarge(msg("{text!r} holds a number larger than any score or total can be "
                            "(at most {most})", text=shown if len(shown) <= 30
                            else shown[:29] + "…", most=MAX_CLAIM))


@dataclass(frozen=True, slots=True)
class SidePoints:
    """A number per side (tricks, points, games), written ``NS 80 EW 0``."""

    ns: int = 0
    ew: int = 0

    def __getitem__(self, side: Side) -> int:
        return self.ns if side is Side.NS else self.ew

    def __add__(self, other: SidePoints) -> SidePoints:
        return SidePoints(self.ns + other.ns, self.ew + other.ew)

    def __sub__(self, other: SidePoints) -> SidePoints:
        return SidePoints(self.ns - other.ns, self.ew - other.ew)

    def __str__(self) -> str:
        return f"NS {self.ns} EW {self.ew}"

    def render(self, lang: str | None = None) -> str:
        """As a reader sees it (``NS 80 ÖV 0`` in Swedish); ``str`` is the file's text, so a
        message given the points themselves names the sides in its own language."""
        return sides_text(self.ns, self.ew).render(lang)

    @classmethod
    def one(cls, side: Side, value: int) -> SidePoints:
        return cls(value, 0) if side is Side.NS else cls(0, value)

    @classmethod
    def parse(cls, text: str, total: int | None = None) -> SidePoints:
        """Read ``NS 8 EW 5``, or ``8–5`` (``8-5``) as the sheet prints it, NS first;
        with ``total``, ``NS 8`` alone means ``EW total-8``."""
        dashed = _DASHED.match(text)
        if dashed:
            return cls(claimed_number(dashed.group(1), text), claimed_number(dashed.group(2), text))
        m = _PAIR.match(text)
        first = side_from_word(m.group(1)) if m else None
        second = side_from_word(m.group(3)) if m and m.group(3) else None
        if m is None or first is None or first is second:
            raise ValueError(msg("{text!r} is not of the form 'NS n EW m'", text=text))
        vals = {first: claimed_number(m.group(2), text)}
        if second is not None:
            vals[second] = claimed_number(m.group(4), text)
        elif total is not None:
            vals[first.other] = total - claimed_number(m.group(2), text)
        else:
            raise ValueError(msg("{text!r} names one side only: write 'NS n EW m'", text=text))
        return cls(vals[Side.NS], vals[Side.EW])


_PARSED: Memo[tuple[str, int | None], SidePoints] = Memo()
ZERO = SidePoints()


def known_points(text: str, total: int | None = None) -> SidePoints | None:
    """:func:`parse_points` of a text read before, without reading it again; else ``None``."""
    return _PARSED.get((text, total))


def parse_points(text: str, total: int | None = None) -> SidePoints:
    """:meth:`SidePoints.parse`, remembered by text: a file repeats its few totals
    ("NS 0 EW 40") thousands of times. Raises as it does."""
    got = _PARSED.get((text, total))
    if got is None:
        got = _PARSED.keep((text, total), SidePoints.parse(text, total))
    return got


@dataclass(frozen=True, slots=True)
class DealScore:
    """One deal's points; ``n`` is R14's trick count of the scoring side."""

    contract: Contract
    scoring_side: Side
    n: int
    penalty: bool  # the defending side scores (R15)
    trick_points: int  # R15
    slam: int  # R16
    honours: SidePoints  # R17
    written: SidePoints | None = None  # the points kept as written on the paper (Kept)

    @property
    def total(self) -> SidePoints:
        """The deal's score per side: the points kept as written when the secretary kept
        them (docs/rules-decisions.md, "Kept"), else :attr:`ruled`."""
        return self.written if self.written is not None else self.ruled

    @property
    def ruled(self) -> SidePoints:
        """The rules' score per side: tricks + slam + honours."""
        return SidePoints.one(self.scoring_side, self.trick_points + self.slam) + self.honours

    @property
    def game(self) -> SidePoints:
        """Game points (R18): 10·n, ordinary or penalty tricks alike."""
        return SidePoints.one(self.scoring_side, 10 * self.n)

    @property
    def slam_name(self) -> Message | None:
        if self.n < 6:
            return None
        if self.penalty:
            return msg("penalty grand slam") if self.n == 7 else msg("penalty small slam")
        return msg("grand slam") if self.n == 7 else msg("small slam")


def declaring_side(contract: Contract, declarer: Seat | None) -> Side | None:
    """Forced contracts have no declaring side (R8)."""
    return declarer.side if contract.has_declarer and declarer is not None else None


def score_deal(contract: Contract, declarer: Seat | None, tricks: SidePoints,
               honours: SidePoints) -> DealScore:
    """R14–R16 on top of the honours already worked out (R17).

    ``tricks`` must add up to 13; a declared contract needs its declarer.
    """
    if tricks.ns + tricks.ew != 13 or min(tricks.ns, tricks.ew) < 0:
        raise ValueError(f"tricks {tricks} do not make 13")
    decl = declaring_side(contract, declarer)
    if contract.has_declarer and decl is None:
        raise ValueError(f"{contract.value} needs a declarer")
    if contract.kind == "positive":  # R14: the side with 7 or more
        side = Side.NS if tricks.ns >= 7 else Side.EW
        n = tricks[side] - 6
    else:  # negative or forced: the side with 6 or fewer
        side = Side.NS if tricks.ns <= 6 else Side.EW
        n = 7 - tricks[side]
    penalty = decl is not None and side is not decl  # R15: forced contracts never penalise
    per_trick = 20 if penalty else 10
    slam = {6: 10, 7: 20}.get(n, 0) * (2 if penalty else 1)  # R16
    return DealScore(contract, side, n, penalty, per_trick * n, slam, honours)


_TWOS = frozenset(Card(s, Rank.TWO) for s in Suit)
_ACES = frozenset(Card(s, Rank.ACE) for s in Suit)


def honour_cards(contract: Contract, options: Options) -> frozenset[Card]:
    """The four honours of a contract (R17); none for forced ones under ``forced_honours=none``."""
    if contract is Contract.SPELA:
        return _ACES
    if contract.trump is not None:
        return frozenset(Card(contract.trump, r) for r in (Rank.ACE, Rank.KING, Rank.QUEEN,
                                                           Rank.JACK))
    if contract.kind == "forced" and options.forced_honours is ForcedHonours.NONE:
        return frozenset()
    return _TWOS


def honours_from_counts(counts: Mapping[Seat, int], variant: HonoursVariant) -> SidePoints:
    """R17 from how many honours each seat holds (the counts add up to 4 or less)."""
    for side in Side:
        a, b = (counts.get(s, 0) for s in side.seats)
        hi, lo = max(a, b), min(a, b)
        if variant is HonoursVariant.HAND:
            if hi == 4:
                return SidePoints.one(side, 50)
            if hi == 3:
                return SidePoints.one(side, 40 if lo == 1 else 20)
        else:
            if hi + lo == 4:
                return SidePoints.one(side, 50 if hi == 4 else 40)
            if hi + lo == 3:
                return SidePoints.one(side, 20)
    return SidePoints()


def honour_holders(deal: Deal, cards: frozenset[Card]) -> dict[Card, Seat] | None:
    """Who was dealt each honour; ``None`` when an honour lies in an unknown hand."""
    holders: dict[Card, Seat] = {}
    ranks = {c.rank for c in cards}  # a rank is looked up faster than a card is hashed
    for seat in SEATS:
        hand = deal.hand(seat)
        if hand is not None:
            for c in hand.cards:
                if c.rank in ranks and c in cards:
                    holders[c] = seat
    return holders if len(holders) == len(cards) else None


def honour_values(deal: Deal, contract: Contract, options: Options
                  ) -> frozenset[SidePoints] | None:
    """Every honour score the hands as dealt allow (R17); ``None`` when an honour is in no
    hand (a deal that breaks R2).

    The honours not in a known hand lie in an unknown one, in any of them. One value
    when every way of placing them scores the same (two known partner hands holding all
    four, say); more when the known hands only bound it (under ``side``, N and S holding
    none of the four leave E-W 40 or 50).
    """
    which = (contract, options.forced_honours is ForcedHonours.NONE)
    known = _HONOURS.get(which)
    if known is None:
        cards = honour_cards(contract, options)
        known = _HONOURS.keep(which, (cards, sum(1 << card_id(c) for c in cards)))
    cards, wanted = known
    masks = deal_masks(deal)
    n, e, s, w = masks
    counts: dict[Seat, int] = {}
    if n is not None and e is not None and s is not None and w is not None and apart(deal):
        # A whole deal, no card twice: each hand's count on its mask.
        tally: tuple[int, ...] = ((n & wanted).bit_count(), (e & wanted).bit_count(),
                                  (s & wanted).bit_count(), (w & wanted).bit_count())
    else:
        for seat, hand, mask in zip(SEATS, deal.hands, masks, strict=True):
            if hand is not None and mask is not None:
                # On bit masks; card by card only in a hand holding a card twice (R2 error).
                counts[seat] = (mask & wanted).bit_count() if mask.bit_count() == len(hand) \
                    else sum(1 for c in hand.cards if c in cards)
        tally = tuple(counts.get(seat, -1) for seat in SEATS)
    key = (tally, len(cards), id(options.honours))
    got = _VALUES.get(key)
    if got is None:
        if not counts:
            counts = {seat: k for seat, k in zip(SEATS, tally, strict=True) if k >= 0}
        got = _VALUES.keep(key, _placed(counts, len(cards), options.honours))
    return got or None


def _placed(counts: dict[Seat, int], honours: int, variant: HonoursVariant
            ) -> frozenset[SidePoints]:
    """Every R17 value of the honours not in a known hand placed in the unknown ones
    (empty when one is missing and no hand is unknown)."""
    missing = honours - sum(counts.values())
    unknown = [seat for seat in SEATS if seat not in counts]
    if missing and not unknown:
        return frozenset()
    found: set[SidePoints] = set()
    for placement in product(unknown, repeat=max(missing, 0)):
        placed = dict(counts)
        for seat in placement:
            placed[seat] = placed.get(seat, 0) + 1
        found.add(honours_from_counts(placed, variant))
    return frozenset(found)


# By (contract, no forced honours): the honours and their bits. By (each seat's count,
# -1 unknown; how many honours; the variant's id: Enum hashes in Python code): R17's values.
_HONOURS: Memo[tuple[Contract, bool], tuple[frozenset[Card], int]] = Memo()
_VALUES: Memo[tuple[tuple[int, ...], int, int], frozenset[SidePoints]] = Memo()


def honours(deal: Deal, contract: Contract, options: Options) -> SidePoints | None:
    """Honour points from the hands as dealt (R17), or ``None`` if the hands do not settle
    them (:func:`honour_values` allows more than one)."""
    values = honour_values(deal, contract, options)
    if values is None or len(values) != 1:
        return None
    return next(iter(values))
