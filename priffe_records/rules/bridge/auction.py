"""The auction (B2–B5, PBN §3.5): each call checked in turn, the contract and declarer
found, and the Contract and Declarer tags compared with them.

>>> from priffe_records.format.reader import loads
>>> rec = next(iter(loads('[Scoring "IMP"]\\n[Dealer "N"]\\n[Contract "4HX"]\\n'
...                       '[Declarer "N"]\\n[Auction "N"]\\n1H X 4H X\\nAP\\n')))
>>> a = read_auction(rec)
>>> str(a.contract), a.declarer.value, [c.text for c in a.calls], a.findings
('4HX', 'N', ['1H', 'X', '4H', 'X', 'AP'], ())
"""

from __future__ import annotations

from dataclasses import dataclass

from priffe_records.format.record import Location, Record, TokenKind
from priffe_records.game.cards import CardError, Seat
from priffe_records.game.language import Message, msg
from priffe_records.game.words import seat_name
from priffe_records.rules.findings import Finding, error, tag_location

from .contract import Contract

_WORDS = {"PASS": "Pass", "AP": "AP", "X": "X", "XX": "XX"}


@dataclass(frozen=True, slots=True)
class Call:
    """One call: who made it, its word (``Pass``, ``1NT``, ``X``, ``XX``, ``AP``), where,
    and the error that makes it illegal, if any."""

    seat: Seat
    text: str
    location: Location | None
    fault: Finding | None = None


@dataclass(frozen=True, slots=True)
class Auction:
    """The calls, and what they came to: ``ended`` when passes closed the auction; a
    passed-out deal has ``ended`` and no contract. ``contract`` and ``declarer`` are the
    auction's when it ended legally, else the tags'."""

    calls: tuple[Call, ...]
    ended: bool
    contract: Contract | None
    declarer: Seat | None
    passed_out: bool
    findings: tuple[Finding, ...]


def seat_tag(record: Record, name: str) -> Seat | None:
    """A seat tag's value (a Declarer's ``^`` of a swapped dummy, PBN §3.4.13, ignored)."""
    value = (record.get(name) or "").strip().lstrip("^")
    try:
        return Seat.parse(value) if value else None
    except CardError:
        return None


def swapped(record: Record) -> bool:
    """Whether the Declarer tag's ``^`` says the declarer and dummy swapped (PBN §3.4.13):
    it then names the seat that played the declarer's cards, the auction's dummy."""
    return (record.get("Declarer") or "").strip().startswith("^")


class _Table:
    """The auction so far: the last bid, who made it, its risk, the passes after it."""

    def __init__(self) -> None:
        self.bid: Contract | None = None
        self.by: Seat | None = None
        self.risk = 0
        self.risk_by: Seat | None = None
        self.passes = 0
        self.first: dict[tuple[object, int], Seat] = {}  # (side, strain): first to name it

    def call(self, seat: Seat, word: str, accepted: bool = False) -> Message | None:
        """Make the call; what is wrong with it (B2, B3) when it is illegal. ``accepted``:
        the file marks an insufficient bid as accepted (``^I``, PBN §3.9)."""
        if word == "Pass":
            self.passes += 1
            return None
        if word in ("X", "XX"):
            wanted = 0 if word == "X" else 1
            if self.bid is None or self.risk != wanted or self.by is None \
                    or (self.by.side is seat.side) == (word == "X"):
                return msg("{seat} doubles, but there is no opponents' bid to double",
                           seat=seat_name(seat)) if word == "X" else \
                    msg("{seat} redoubles, but there is no opponents' double to redouble",
                        seat=seat_name(seat))
            self.risk, self.risk_by, self.passes = wanted + 1, seat, 0
            return None
        bid = Contract.parse(word)
        if bid is None:
            return msg("{word!r} is no bridge call (Pass, X, XX, AP or a bid 1C to 7NT)",
                       word=word)
        if self.bid is not None and bid <= Contract(self.bid.level, self.bid.strain) \
                and not accepted:
            return msg("{seat} bids {bid} after {last}: a bid must be higher than the last",
                       seat=seat_name(seat), bid=str(bid), last=str(self.bid))
        self.bid, self.by, self.risk, self.passes = bid, seat, 0, 0
        self.first.setdefault((seat.side, bid.strain), seat)
        return None

    @property
    def ended(self) -> bool:
        return self.passes >= (3 if self.bid is not None else 4)


def read_auction(record: Record) -> Auction | None:
    """The record's auction checked call by call, or ``None`` when it has none."""
    section, first = record.auction, seat_tag(record, "Auction")
    if section is None or first is None:
        return None
    table, calls, findings = _Table(), [], []
    seat, ended = first, False
    for i, (kind, text) in enumerate(zip(section.kinds, section.texts, strict=True)):
        if kind in (TokenKind.END, TokenKind.CONTINUE):
            break
        if kind in (TokenKind.UNKNOWN, TokenKind.SKIP):  # '-': not yet this seat's turn
            seat = seat.left
            continue
        word, at = _WORDS.get(text.upper(), text.upper()), section.location_at(i)
        if ended:
            fault = error("B4", msg("{seat} calls {word} after the auction ended",
                                    seat=seat_name(seat), word=word), at)
        elif word == "AP":  # all pass: the passes that end the auction
            table.passes, fault = 4, None
        else:
            said = table.call(seat, word, section.marks(i)[0] == "I")
            fault = error("B3" if word in ("X", "XX") else "B2", said, at) if said else None
        calls.append(Call(seat, word, at, fault))
        if fault is not None:
            findings.append(fault)
            break
        ended = ended or table.ended
        seat = seat.left
    contract = declarer = None
    if ended and not findings and table.bid is not None and table.by is not None:
        contract = Contract(table.bid.level, table.bid.strain, table.risk)
        declarer = table.first[(table.by.side, table.bid.strain)]
    passed_out = ended and not findings and table.bid is None
    if ended and not findings:
        findings += _tags_agree(record, contract, declarer, passed_out)
    return Auction(tuple(calls), ended, contract, declarer, passed_out, tuple(findings))


def _tags_agree(record: Record, contract: Contract | None, declarer: Seat | None,
                passed_out: bool) -> list[Finding]:
    """B5: the Contract and Declarer tags say what the auction came to."""
    out = []
    said = (record.get("Contract") or "").strip()
    auction = "Pass" if passed_out else str(contract)
    if said and said != "?" and (Contract.parse(said) != contract
                                 if not passed_out else said.casefold() != "pass"):
        out.append(error("B5", msg("the Contract tag says {said}, but the auction ends in "
                                   "{auction}", said=said, auction=auction),
                         tag_location(record, "Contract")))
    tagged = seat_tag(record, "Declarer")
    if tagged is not None and swapped(record):  # ^N: North played as dummy's partner
        tagged = tagged.partner
    if tagged is not None and declarer is not None and tagged is not declarer:
        out.append(error("B5", msg("the Declarer tag says {said}, but {seat} first named "
                                   "the contract's strain for the side",
                                   said=seat_name(tagged), seat=seat_name(declarer)),
                         tag_location(record, "Declarer")))
    return out
