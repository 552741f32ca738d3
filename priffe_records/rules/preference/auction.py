"""The Préférence auction (P2–P6): calls in the order made, holds, the dealer forced to bid.

PPN lists the calls in the order they were made, without seat columns, so
whose turn it is follows from the rules themselves: eldest hand first, then
round the table skipping whoever has passed (P4).

>>> from priffe_records import loads
>>> rec = next(iter(loads('[Scoring "Preference"]\\n[Auction "N"]\\n'
...                       'Spades Diamonds Pass Diamonds Hearts Pass\\n')))
>>> a = run_auction(rec.auction, Seat.N)
>>> a.final.value, a.declarer, [c.hold for c in a.calls]
('Hearts', <Seat.E: 'E'>, [False, False, False, True, False, False])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from priffe_records.format.record import Section, Token, TokenKind
from priffe_records.game.cards import Seat
from priffe_records.game.language import Message, msg
from priffe_records.game.words import seat_name
from priffe_records.rules.findings import (
    Finding,
    auction_cut_short,
    error,
    section_location,
)
from priffe_records.rules.preference.bids import Bid

from .table import next_player


@dataclass(frozen=True, slots=True)
class BidCall:
    """One call with the seat that made it; ``hold`` marks a hold of an equal bid (P5).

    The call's token is ``section``'s token ``index``, built when asked for (the replay,
    the archive): the check builds none.
    """

    seat: Seat
    bid: Bid | None  # None for an unknown call '-'
    text: str  # the token's canonical text
    section: Section = field(compare=False, repr=False)
    index: int = field(compare=False, repr=False)
    hold: bool = False

    @property
    def token(self) -> Token:
        return self.section.tokens[self.index]


@dataclass(frozen=True, slots=True)
class AuctionResult:
    calls: tuple[BidCall, ...]
    final: Bid | None  # the final bid once the auction is over (P6)
    declarer: Seat | None
    complete: bool
    findings: tuple[Finding, ...]


def run_auction(section: Section, eldest: Seat) -> AuctionResult:
    """Replay the calls, giving each its seat, and report every broken rule (P4–P6)."""
    order = (eldest, next_player(eldest), next_player(next_player(eldest)))
    passed: set[Seat] = set()
    high: Bid | None = None
    maker: Seat | None = None
    calls: list[BidCall] = []
    f: list[Finding] = []
    turn = 0  # index into order
    done = False
    unknown = False
    kinds, texts = section.kinds, section.texts
    for i, kind in enumerate(kinds):
        if kind is TokenKind.END or kind is TokenKind.CONTINUE:
            break
        text = texts[i]
        if kind is not TokenKind.CALL and kind is not TokenKind.UNKNOWN:
            f.append(error("P3", msg("{call!r} is not a Préférence call", call=text),
                           section_location(section, i)))
            continue
        if done:
            f.append(error("P6", msg("{call} after the auction is over: it ended when all but "
                                     "one had passed", call=text),
                           section_location(section, i)))
            continue
        seat = order[turn]
        bid = _bid_of(kind, text)
        if bid is None:
            unknown = True  # an unknown call: nothing after it can be placed for sure
            calls.append(BidCall(seat, None, text, section, i))
            break
        hold = False
        if bid is Bid.PASS:
            if high is None and len(passed) == 2:
                f.append(error("P6", msg("{seat}, the dealer, passes after both others passed: "
                                         "the dealer must bid", seat=seat_name(seat)),
                               section_location(section, i)))
                calls.append(BidCall(seat, bid, text, section, i))
                done = True
                continue
            passed.add(seat)
        elif high is not None and maker is not None:
            if bid is high and order.index(seat) < order.index(maker):
                hold = True
            elif not bid.outranks(high):
                why: Message
                if bid is high:
                    why = msg("{maker} made it and sits earlier, so {seat} must go higher "
                              "or pass", maker=seat_name(maker), seat=seat_name(seat))
                else:
                    why = msg("the bid to beat is {high}", high=high.value)
                f.append(error("P5", msg("{seat} bids {bid}, not higher than {high}: {why}",
                                          seat=seat_name(seat), bid=bid.value,
                                         high=high.value, why=why),
                               section_location(section, i)))
        if bid.is_bid:
            high, maker = bid, seat
        calls.append(BidCall(seat, bid, text, section, i, hold))
        if len(passed) == 3 or (len(passed) == 2 and high is not None):
            done = True
        else:  # the next seat round the table that has not passed (P4)
            turn = next(((turn + k) % 3 for k in (1, 2, 3) if order[(turn + k) % 3] not in passed),
                        turn)
    if not done and not unknown:
        f.append(auction_cut_short(
            section, "P6", taken=msg("the auction stops after {count} calls: the declarer is "
                                     "taken from the Declarer tag", count=len(calls)),
            short=msg("the auction stops after {count} calls, before all but one have passed: "
                      "it ends only then, or with '*' when the rest is not known",
                      count=len(calls))))
    complete = done and high is not None and not unknown
    declarer = maker if complete else None
    return AuctionResult(tuple(calls), high if complete else None, declarer, complete, tuple(f))


_BIDS = {b.value: b for b in Bid}


def _bid_of(kind: TokenKind, text: str) -> Bid | None:
    if kind is TokenKind.UNKNOWN:
        return None
    bid = _BIDS.get(text)
    if bid is not None:
        return bid
    try:
        return Bid.parse(text)
    except ValueError:
        return None
