"""The play (B6–B8, PBN §3.6): the Play section's table read trick by trick.

Each line of the section is one trick in fixed seat columns, the first column the
seat the Play tag names (the opening leader); the winner of a trick leads the next
one from its own column. A card must be in its player's hand and played once (B7)
and follow the suit led while the player holds it (B8); a ``-`` is a card not known,
after which the leaders are not known either.

>>> from priffe_records.format.record import Section, Token, TokenKind
>>> from priffe_records.game.cards import Deal, Seat, Suit
>>> deal = Deal.parse("N:KJ.A7.AQ3.AKQJ63 A64.T9863.T8742. T9872.KQ2.KJ6.85 Q53.J54.95.T9742")
>>> sec = Section(tuple(Token(TokenKind.CARD, c) for c in "H9 H2 H4 HA H3 HQ HJ H7".split()))
>>> p = play(sec, Seat.E, deal, Suit.H)
>>> [(t.leader.value, [str(c.card) for c in t.cards], t.winner.value) for t in p.tricks]
[('E', ['H9', 'H2', 'H4', 'HA'], 'N'), ('N', ['H7', 'H3', 'HQ', 'HJ'], 'S')]
"""

from __future__ import annotations

from dataclasses import dataclass

from priffe_records.format.record import Location, Section, TokenKind
from priffe_records.game.cards import Card, Deal, Seat, Suit
from priffe_records.game.language import msg
from priffe_records.game.tricks import (
    BIT,
    MUST_FOLLOW,
    NO_TRUMP,
    PLAYABLE,
    card_fault,
    card_id,
    hand_mask,
    highest,
    suit_index,
    trick_winner,
)
from priffe_records.game.words import card_name, seat_name, suit_name
from priffe_records.rules.findings import Finding, error
from priffe_records.rules.tricks import PlayedCard, Trick, not_theirs


@dataclass(frozen=True, slots=True)
class Play:
    """The tricks as read; ``claimed``: ``*`` ends the play before the 13th trick."""

    tricks: tuple[Trick, ...]
    claimed: bool
    findings: tuple[Finding, ...]

    def won(self, seat: Seat) -> int:
        """The tricks ``seat``'s side won, of those whose winner is known."""
        return sum(1 for t in self.tricks if t.winner is not None and t.winner.side is seat.side)

    @property
    def known(self) -> bool:
        """Whether every trick is whole and its winner known."""
        return all(t.winner is not None for t in self.tricks)


def play(section: Section, first: Seat, deal: Deal | None, trump: Suit | None) -> Play:
    """The Play section's tricks, each card checked against the hands when known."""
    held = {s: set(h.cards) if (h := deal.hand(s)) is not None else None
            for s in first.rotation()} if deal is not None else {}
    slots = [i for i, k in enumerate(section.kinds)
             if k in (TokenKind.CARD, TokenKind.UNKNOWN, TokenKind.CONTINUE)]
    tokens = section.tokens
    tricks: list[Trick] = []
    findings: list[Finding] = []
    leader: Seat | None = first
    seen: dict[Card, int] = {}  # each card played, and in which trick first
    gone = 0  # the same, as a mask
    for start in range(0, min(len(slots), 52), 4):
        row = {s: slots[start + k] for k, s in enumerate(first.rotation())
               if start + k < len(slots)}
        order = leader.rotation() if leader is not None else first.rotation()
        cards, faults = [], []
        led: Suit | None = None
        for seat in order:
            if seat not in row:
                continue
            tok = tokens[row[seat]]
            card = Card.parse(tok.text) if tok.kind is TokenKind.CARD else None
            # a revoke or lead out of turn the file marks (^R, ^L: PBN §3.9) stands
            marked = section.marks(row[seat])[0] is not None
            fault = _fault(len(tricks) + 1, seat, card, held.get(seat), None if marked
                           else led, seen, gone, tok.location) \
                if card is not None and leader is not None else None
            if fault is not None:
                faults.append(fault)
            if card is not None:
                seen.setdefault(card, len(tricks) + 1)
                gone |= BIT[card_id(card)]
                if held.get(seat) is not None:
                    held[seat].discard(card)  # type: ignore[union-attr]
                if led is None and seat is order[0]:
                    led = card.suit
            # a marked card broke a rule: the solver follows the play no further
            cards.append(PlayedCard(seat, card, tok, fault is None and not marked))
        whole = len(cards) == 4 and all(c.card is not None for c in cards) \
            and leader is not None
        winner = trick_winner([(c.seat, c.card) for c in cards if c.card is not None],
                              trump) if whole else None
        tricks.append(Trick(len(tricks) + 1, leader, tuple(cards), winner, tuple(faults)))
        findings += faults
        leader = winner
    cut = len(tricks) < 13 or len(tricks[-1].cards) < 4
    return Play(tuple(tricks), section.ended and cut, tuple(findings))


def _fault(n: int, seat: Seat, card: Card, hand: set[Card] | None, led: Suit | None,
           seen: dict[Card, int], gone: int, where: Location | None) -> Finding | None:
    """What is wrong with ``seat`` playing ``card`` to trick ``n``, by the one card rule
    (:func:`~priffe_records.game.tricks.card_fault`): B7 or B8, worded as Priffe's R11."""
    cid, held, suit = card_id(card), None if hand is None else hand_mask(hand), suit_index(led)
    fault = card_fault(held, cid, suit, NO_TRUMP, False, gone=gone)
    if fault == PLAYABLE:
        return None
    if fault != MUST_FOLLOW or held is None or led is None:  # played before, not held
        return not_theirs("B7", fault, n, seat, cid, where, first=seen.get(card, 0))
    shown = highest(held, suit)
    assert shown is not None  # the fault is a card of the suit led held
    return error("B8", msg("trick {n}: {who} plays {card} while holding {held} — must follow "
                           "{suit}", n=n, who=seat_name(seat), card=card_name(card),
                           held=card_name(shown), suit=suit_name(led)), where)
