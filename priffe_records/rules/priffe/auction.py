"""The auction (R4–R8): who calls when, which calls are legal, what contract results.

:func:`run_auction` walks the Auction section once and keeps going past an
illegal call (ignoring it for the contract) so one mistake gives one finding,
not a cascade.

>>> from priffe_records.format.record import Section, Token, TokenKind
>>> calls = Section(tuple(Token(TokenKind.CALL, w) for w in ("Klöver", "Pass", "Hjärter", "Pass")))
>>> a = run_auction(calls, Seat.E)
>>> a.contract, a.declarer, a.findings
(<Contract.HJARTER: 'Hjärter'>, <Seat.W: 'W'>, ())
"""

from __future__ import annotations

from dataclasses import dataclass, field

from priffe_records.format.record import Section, Token, TokenKind
from priffe_records.game.calls import FINAL_BID_CONTRACT, Call, Contract
from priffe_records.game.cards import Seat
from priffe_records.game.language import msg
from priffe_records.game.words import seat_name
from priffe_records.rules.findings import (
    Finding,
    auction_cut_short,
    error,
    section_location,
)


@dataclass(frozen=True, slots=True)
class AuctionCall:
    """One call; ``call`` is ``None`` for an unknown call (``-``).

    The call's token is ``section``'s token ``index``, built when asked for (the
    replay, the archive): a clean check builds none.
    """

    seat: Seat
    call: Call | None
    text: str  # the token's canonical text
    section: Section = field(compare=False, repr=False)
    index: int = field(compare=False, repr=False)
    legal: bool = True

    @property
    def token(self) -> Token:
        return self.section.tokens[self.index]


@dataclass(frozen=True, slots=True)
class AuctionResult:
    """``contract`` and ``declarer`` are ``None`` when the auction does not decide them."""

    calls: tuple[AuctionCall, ...]
    complete: bool
    contract: Contract | None
    declarer: Seat | None
    findings: tuple[Finding, ...]


def _call_of(kind: TokenKind, text: str) -> Call | None:
    """The call of a token; ``None`` for ``-`` and for text that is no call (records built in
    code can hold any text; the reader's are canonical)."""
    if kind is not TokenKind.CALL:
        return None
    call = _CALLS.get(text)
    if call is not None:
        return call
    try:
        return Call.parse(text)
    except ValueError:
        return None


_CALLS = {c.value: c for c in Call}
_LEFT = {s: s.left for s in Seat}


def contract_for(final_bid: Call | None) -> Contract:
    """The contract of a final bid, ``None`` meaning all passed (R8)."""
    if final_bid is None or final_bid is Call.PASS:
        return Contract.PASSNOLL
    return FINAL_BID_CONTRACT[final_bid]


def run_auction(section: Section, first: Seat) -> AuctionResult:
    """Check the calls of an Auction section starting with ``first`` (R4–R7)."""
    calls: list[AuctionCall] = []
    findings: list[Finding] = []
    high: AuctionCall | None = None  # highest legal bid so far (R5, R7)
    unknown = False
    seat = first
    ended_by: AuctionCall | None = None  # the Spela that closed the auction (R6)
    texts = section.texts
    for i, kind in enumerate(section.kinds):
        text = texts[i]
        call = _CALLS.get(text) if kind is TokenKind.CALL else None
        legal = True
        if call is not None and ended_by is None and len(calls) < 4 \
                and (call is Call.PASS or high is None or call.outranks(high.call)):  # type: ignore[arg-type]
            pass  # the common case, nothing to say: a call in turn, a bid higher than the last
        elif kind is TokenKind.END or kind is TokenKind.CONTINUE:
            break
        elif kind is TokenKind.SKIP:
            findings.append(error("R4", msg("a call out of turn skipped {seat}: every player "
                                            "calls once, in turn", seat=seat_name(seat)),
                                  section_location(section, i)))
            seat = seat.left
            continue
        else:
            if call is None:
                call = _call_of(kind, text)
            if ended_by is not None:
                findings.append(error("R6", msg("{who} calls {call} after {seat}'s Spela ended "
                                                "the auction", who=seat_name(seat), call=text,
                                                seat=seat_name(ended_by.seat)),
                                      section_location(section, i)))
                legal = False
            elif len(calls) >= 4:
                findings.append(error("R4", msg("{who} calls {call} as a fifth call: every "
                                                "player calls exactly once", who=seat_name(seat),
                                                call=text),
                                      section_location(section, i)))
                legal = False
            elif kind is TokenKind.FOREIGN or (kind is TokenKind.CALL and call is None):
                findings.append(error("R5", msg("{call!r} is not a Priffe call (Pass Klöver "
                                                "Spader Ruter Hjärter Noll Spela)", call=text),
                                      section_location(section, i)))
                legal = False
            elif call is None:
                unknown = True
            elif call is not Call.PASS and high is not None and high.call is not None \
                    and not call.outranks(high.call):
                findings.append(error("R5", msg("{who} bids {call}, not higher than {seat}'s "
                                                "{high}: a bid must be higher than every "
                                                "earlier bid", who=seat_name(seat),
                                                call=call.value, seat=seat_name(high.seat),
                                                high=high.call.value),
                                      section_location(section, i)))
                legal = False
        entry = AuctionCall(seat, call, text, section, i, legal)
        calls.append(entry)
        if legal and call is not None and call is not Call.PASS:  # a bid
            high = entry
            if call is Call.SPELA:
                ended_by = entry  # R6
        seat = _LEFT[seat]
    complete = ended_by is not None or len(calls) >= 4
    if not complete:
        findings.append(auction_cut_short(
            section, "R6", taken=msg("the auction stops after {count} calls: the contract is "
                                     "taken from the Contract tag", count=len(calls)),
            short=msg("the auction has {count} calls and no Spela: it ends only after the "
                      "fourth call", count=len(calls))))
    if unknown or not complete:
        return AuctionResult(tuple(calls), complete, None, None, tuple(findings))
    final = high.call if high is not None else None
    contract = contract_for(final)
    declarer = high.seat if high is not None and contract.has_declarer else None  # R7
    return AuctionResult(tuple(calls), True, contract, declarer, tuple(findings))
