"""The deal and the talon (P1): three hands of ten from 32 cards, two in the talon, W empty.

An unknown hand (``-``) is allowed; when exactly one of the three hands and
the talon is unknown it follows from the others, which is certain, not a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from priffe_records.format.record import Location, Record
from priffe_records.format.values import is_unspecified
from priffe_records.game.cards import FULL_DECK, Card, CardError, Deal, Hand, Rank, Seat
from priffe_records.game.language import Message, msg, reason
from priffe_records.game.tricks import apart, cards_of, deal_masks, hand_mask, parse_deal
from priffe_records.game.words import card_name, seat_name
from priffe_records.rules.findings import Finding, error, tag_location

from .table import PLAYERS

LOW = frozenset({Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX})
DECK: frozenset[Card] = frozenset(c for c in FULL_DECK if c.rank not in LOW)
DECK_MASK = hand_mask(DECK)


@dataclass(frozen=True, slots=True)
class Cards:
    """The hands of N, E, S (``None`` when unknown) and the talon (``None`` when unknown)."""

    hands: dict[Seat, Hand | None]
    talon: tuple[Card, ...] | None
    masks: dict[Seat, int | None] = field(default_factory=dict)  # the hands as card bits

    def hand(self, seat: Seat) -> Hand | None:
        return self.hands.get(seat)


def parse_cards(text: str) -> tuple[Card, ...]:
    """A card list (Talon, Discard): ``C9 C8``; raises :class:`CardError`."""
    return tuple(Card.parse(w) for w in text.split())


def given(value: str | None) -> bool:
    return not is_unspecified(value, dash=True)


def check_talon(record: Record, f: list[Finding]) -> tuple[Card, ...] | None:
    text = record.get("Talon")
    if not given(text):
        return None
    assert text is not None
    loc = tag_location(record, "Talon")
    try:
        talon = parse_cards(text)
    except CardError as e:
        f.append(error("P1", msg("Talon: {reason}", reason=reason(e)), loc))
        return None
    if len(talon) != 2 or len(set(talon)) != 2:
        f.append(error("P1", msg("Talon {text!r} must hold two different cards",
                                   text=text), loc))
        return None
    return talon


def check_deal(record: Record, f: list[Finding]) -> Cards | None:
    """P1 on the Deal and Talon tags; ``None`` when the deal cannot be used."""
    talon = check_talon(record, f)
    text = record.get("Deal")
    if not given(text):
        return Cards({}, talon) if talon is not None else None
    assert text is not None
    deal = parse_deal(text)
    if deal is None:
        try:
            deal = Deal.parse(text)
        except CardError as e:
            f.append(error("P1", msg("Deal: {reason}", reason=reason(e)),
                           tag_location(record, "Deal", column=e.column)))
            return None
    north, east, south, west = deal_masks(deal)
    hands: dict[Seat, Hand | None] = {Seat.N: deal.hands[0], Seat.E: deal.hands[1],
                                      Seat.S: deal.hands[2]}
    masks: dict[Seat, int | None] = {Seat.N: north, Seat.E: east, Seat.S: south}
    union = (north or 0) | (east or 0) | (south or 0)
    if talon is not None:
        union |= hand_mask(talon)
    # P1 on the masks: W empty, every card of the 32-card deck, none twice, ten a hand
    # (an export-form hand never repeats a card; the loop below names what is wrong).
    clean = not west and not union & ~DECK_MASK and apart(deal) and union.bit_count() == sum(
        m.bit_count() for m in masks.values() if m is not None) + len(talon or ()) \
        and all(m is None or m.bit_count() == 10 for m in masks.values())
    if not clean and not _deal_faults(deal, talon, tag_location(record, "Deal"), f):
        return None
    rest = DECK_MASK & ~union
    unknown = [seat for seat in PLAYERS if hands[seat] is None]
    if len(unknown) == 1 and talon is not None:
        hands[unknown[0]] = Hand(tuple(cards_of(rest)))
        masks[unknown[0]] = rest
    elif not unknown and talon is None:
        talon = tuple(cards_of(rest))
    return Cards(hands, talon, masks)


def _deal_faults(deal: Deal, talon: tuple[Card, ...] | None, loc: Location | None,
                 f: list[Finding]) -> bool:
    """P1 findings naming a dealt West, each short hand, each card outside the deck and each
    card dealt twice; whether the deal is usable."""
    ok = True
    west = deal.hand(Seat.W)
    if west is not None and len(west):
        f.append(error("P1", msg("West is dealt {count} cards: Préférence is for three, "
                                   "W stays empty ('-')", count=len(west)), loc))
        ok = False
    where: dict[Card, Message] = {}
    sources: list[tuple[Message, tuple[Card, ...]]] = [
        (seat_name(s), h.cards) for s in PLAYERS if (h := deal.hand(s)) is not None]
    if talon is not None:
        sources.append((msg("the talon"), talon))
    for seat in PLAYERS:
        hand = deal.hand(seat)
        if hand is not None and len(hand) != 10:
            f.append(error("P1", msg("{seat} is dealt {count} cards; each player holds 10",
                                      seat=seat_name(seat), count=len(hand)), loc))
            ok = False
    for who, cards in sources:
        for c in cards:
            if c not in DECK:
                f.append(error("P1", msg("{card} ({who}) is not in the 32-card deck: "
                                         "A K Q J 10 9 8 7", card=card_name(c), who=who),
                               loc))
                ok = False
            elif c in where:
                other = where[c]
                whom = (msg("twice to {who}", who=who) if other == who
                        else msg("to both {other} and {who}", other=other, who=who))
                f.append(error("P1", msg("{card} is dealt {whom}: all 32 cards are different",
                                          card=card_name(c), whom=whom), loc))
                ok = False
            where[c] = who
    return ok
