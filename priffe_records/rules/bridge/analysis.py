"""One bridge record checked on its own (docs/bridge.md, B1–B11): the deal, the
auction, the play, the result and the duplicate score.

>>> from priffe_records.format.reader import loads
>>> text = '''[Scoring "IMP"]
... [Vulnerable "None"]
... [Deal "N:A8643.97642.Q.Q8 KT9.K3.K75.AK652 QJ752.T.AJT432.4 .AQJ85.986.JT973"]
... [Declarer "E"]
... [Contract "5C"]
... [Result "12"]
... [Score "EW 420"]'''
>>> o = analyse(next(iter(loads(text))))
>>> str(o.contract), o.declarer.value, o.tricks, o.score, o.findings
('5C', 'E', 12, -420, ())
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from priffe_records.format.record import Record
from priffe_records.game.cards import Card, CardError, Deal, Seat
from priffe_records.game.language import msg, msg_n
from priffe_records.game.words import seat_name
from priffe_records.rules.findings import Finding, error, tag_location

from .auction import Auction, read_auction, seat_tag, swapped
from .contract import Contract
from .play import Play, play
from .scoring import score, side_numbers, vulnerable


@dataclass(frozen=True, slots=True)
class BridgeOutcome:
    """A checked bridge record: what the rules found and what they came to. ``tricks``
    are the declaring side's (the Result, or the play's when it gives none); ``score``
    is North-South's duplicate score (``None`` when the contract, the tricks or the
    vulnerability are not known)."""

    record: Record
    findings: tuple[Finding, ...]
    deal: Deal | None = None
    dealer: Seat | None = None
    auction: Auction | None = None
    contract: Contract | None = None
    declarer: Seat | None = None
    play: Play | None = None
    tricks: int | None = None
    score: int | None = None
    passed_out: bool = False
    index: int = 0
    in_family: bool = True
    is_diagram: bool = False

    def placed(self, index: int) -> BridgeOutcome:
        return replace(self, index=index, findings=tuple(f.at_record(index)
                                                         for f in self.findings))


def analyse(record: Record) -> BridgeOutcome:
    """The record checked rule by rule; each part as far as the parts before it allow."""
    found: list[Finding] = []
    deal = _deal(record, found)
    vul = vulnerable(record.get("Vulnerable"))
    if vul is None and record.get("Vulnerable") is not None:
        found.append(error("B11", msg("Vulnerable {value!r} is none of None, NS, EW, All",
                                      value=record.get("Vulnerable")),
                           tag_location(record, "Vulnerable")))
    auction = read_auction(record)
    found += auction.findings if auction is not None else ()
    said = (record.get("Contract") or "").strip()
    contract = auction.contract if auction and auction.contract else Contract.parse(said)
    declarer = auction.declarer if auction and auction.declarer else seat_tag(record,
                                                                              "Declarer")
    passed_out = auction.passed_out if auction and auction.ended else said.casefold() == "pass"
    if contract is None and not passed_out and said not in ("", "?", "-"):
        found.append(error("B5", msg("Contract {value!r} is no bridge contract (1C to 7NT, "
                                     "X or XX after it, or Pass)", value=said),
                           tag_location(record, "Contract")))
    played = _play(record, deal, contract, declarer, found)
    tricks = _tricks(record, played, declarer, found) if declarer and not passed_out else None
    points = None
    if passed_out:
        points = 0
    elif contract is not None and declarer is not None and tricks is not None \
            and vul is not None:
        own = score(contract, tricks, declarer.side.name in vul)
        points = own if declarer.side.name == "NS" else -own
    _check_score(record, points, declarer or Seat.N, found)
    diagram = auction is None and contract is None and not passed_out and played is None
    return BridgeOutcome(record, tuple(found), deal, seat_tag(record, "Dealer"), auction,
                         contract, declarer, played, tricks, points, passed_out,
                         is_diagram=diagram)


def _deal(record: Record, found: list[Finding]) -> Deal | None:
    """B1: the Deal tag's hands, each of 13 cards, no card dealt twice."""
    text = record.get("Deal")
    if text is None:
        return None
    where = tag_location(record, "Deal")
    try:
        deal = Deal.parse(text)
    except CardError as e:
        found.append(error("B1", msg("the Deal tag does not read: {why}", why=e.args[0]),
                           where))
        return None
    seen: set[Card] = set()
    for seat, hand in zip((Seat.N, Seat.E, Seat.S, Seat.W), deal.hands, strict=True):
        if hand is None:
            continue
        if len(hand.cards) != 13:
            found.append(error("B1", msg("{seat} is dealt {count} cards; each player holds "
                                         "13", seat=seat_name(seat), count=len(hand.cards)),
                               where))
        if seen & set(hand.cards):
            found.append(error("B1", msg("a card is dealt twice"), where))
            return None
        seen |= set(hand.cards)
    return deal if not any(f.rule == "B1" for f in found) else None


def _play(record: Record, deal: Deal | None, contract: Contract | None,
          declarer: Seat | None, found: list[Finding]) -> Play | None:
    """B6–B8: the Play section read from its leader's column, checked against the deal."""
    section, first = record.play, seat_tag(record, "Play")
    if section is None or first is None:
        return None
    if declarer is not None and swapped(record):
        declarer = declarer.partner
    if declarer is not None and first is not declarer.left:
        found.append(error("B6", msg("the Play tag names {seat}, but the opening lead is "
                                     "{leader}'s, the declarer's left-hand opponent",
                                     seat=seat_name(first), leader=seat_name(declarer.left)),
                           tag_location(record, "Play")))
    played = play(section, first, deal, contract.trump if contract else None)
    found += played.findings
    return played


def _tricks(record: Record, played: Play | None, declarer: Seat,
            found: list[Finding]) -> int | None:
    """B9: the declaring side's tricks; the Result tag agrees with the play."""
    said = record.get("Result")
    where = tag_location(record, "Result")
    result = side_numbers(said, declarer, True) if said and said.strip() not in ("?", "-") \
        else None
    if said and said.strip() not in ("?", "-") and (result is None
                                                    or not 0 <= result[0] <= 13):
        found.append(error("B9", msg("Result {value!r} is no number of tricks (0 to 13)",
                                     value=said), where))
        result = None
    if played is None or not played.known:
        return result[0] if result else None
    won, done = played.won(declarer), sum(1 for t in played.tricks if t.winner is not None)
    if done < 13 and result is None:
        found.append(error("B9", msg_n("the play stops after {n} trick, and no Result says "
                                       "how many the declarer took",
                                       "the play stops after {n} tricks, and no Result says "
                                       "how many the declarer took", done, n=done),
                           tag_location(record, "Play")))
        return None
    if result is None:
        return won
    if not result[1] and not won <= result[0] <= won + 13 - done:
        found.append(error("B9", msg("Result gives the declarer {said} tricks, but the play "
                                     "gives {won}", said=result[0],
                                     won=won if done == 13 else f"{won}–{won + 13 - done}"),
                           where))
    return result[0]


def _check_score(record: Record, points: int | None, declarer: Seat,
                 found: list[Finding]) -> None:
    """B10: the Score tag gives the deal's duplicate score."""
    said = record.get("Score")
    if points is None or not said or said.strip() in ("?", "-"):
        return
    own = points if declarer.side.name == "NS" else -points
    claimed = side_numbers(said, declarer, False)
    if claimed is not None and (claimed[1] or claimed[0] == own):
        return
    found.append(error("B10", msg("Score {said!r}: the deal scores {ns} for North-South",
                                  said=said, ns=points), tag_location(record, "Score")))
