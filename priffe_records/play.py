"""The play (R10–R13): turn a Play section into tricks and check every card.

Public API (stable; a terminal/HTML replay builds on it)::

    replay(section, first, deal, trump, *, must_trump=False, players=SEATS,
           tricks=13) -> PlayResult
    opening_leader(forehand, declarer, contract, options) -> Seat      # R10

``PlayResult.tricks`` is a tuple of :class:`Trick`, one per group of slots
in the section (a last, partial group too, before a ``*`` claim):

* ``Trick.number`` – 1-based;
* ``Trick.leader`` – who led it, or ``None`` once an unknown card (``-``)
  has hidden who won an earlier trick;
* ``Trick.cards`` – :class:`PlayedCard` (``seat``, ``card`` or ``None`` for
  ``-``, the source ``token`` with its location and comments, and ``legal``)
  in the order they were **played**, starting with the leader; in column
  order when the leader is unknown;
* ``Trick.winner`` – the seat that won it (R12), or ``None`` if not known;
* ``Trick.findings`` – the illegal-move and cannot-check findings of this
  trick (also gathered in ``PlayResult.findings``).

``PlayResult.won`` counts tricks won per side where the winner is known,
``undecided`` the complete tricks whose winner is not; ``claimed`` is true
when ``*`` ends the play (R13); ``complete`` when all tricks were played and
every winner is known, i.e. ``won`` is the final result.

The section lists each trick in fixed seat columns starting at ``first``
(PBN §3.6), so the replay works out who led each trick. Unknown cards stop
nothing that can still be checked: card ownership, cards played twice and
revokes proven by a player showing out of a suit earlier. After an unknown
card the leader may be one of several seats; a revoke is then an error only
if it is one whoever led, and *unverifiable* if it depends on who led.

>>> from priffe_records.record import Section, Token, TokenKind
>>> from priffe_records.cards import Deal, Seat, Suit
>>> deal = Deal.parse("N:KJ.A7.AQ3.AKQJ63 A64.T9863.T8742. T9872.KQ2.KJ6.85 Q53.J54.95.T9742")
>>> cards = "H9 H2 H4 HA  H3 HQ HJ H7".split()
>>> sec = Section(tuple(Token(TokenKind.CARD, c) for c in cards) + (Token(TokenKind.END, "*"),))
>>> res = replay(sec, Seat.E, deal, Suit.H)
>>> [(t.leader.value, [str(p.card) for p in t.cards], t.winner.value) for t in res.tricks]
[('E', ['H9', 'H2', 'H4', 'HA'], 'N'), ('N', ['H7', 'H3', 'HQ', 'HJ'], 'S')]
>>> str(res.won), res.claimed, res.findings
('NS 2 EW 0', True, ())
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .calls import Contract
from .cards import SEATS, Card, Deal, Seat, Side, Suit
from .findings import Finding, Severity, error, unverifiable
from .options import FirstLead, Options
from .record import Section, Token, TokenKind
from .scoring import SidePoints
from .words import card_name, seat_name, suit_name


@dataclass(frozen=True, slots=True)
class PlayedCard:
    seat: Seat
    card: Card | None  # None: unknown card '-'
    token: Token
    legal: bool = True


@dataclass(frozen=True, slots=True)
class Trick:
    number: int
    leader: Seat | None
    cards: tuple[PlayedCard, ...]
    winner: Seat | None
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayResult:
    tricks: tuple[Trick, ...]
    won: SidePoints
    undecided: int
    claimed: bool
    complete: bool
    findings: tuple[Finding, ...] = field(default=())

    @property
    def played(self) -> int:
        """Tricks with a card from every player."""
        return sum(1 for t in self.tricks if len(t.cards) == 4)


def opening_leader(forehand: Seat, declarer: Seat | None, contract: Contract | None,
                   options: Options) -> Seat:
    """Who leads to the first trick (R10): forehand, or left of the declarer under
    ``first_lead=declarer_left`` (forehand again in forced contracts)."""
    if options.first_lead is FirstLead.DECLARER_LEFT and declarer is not None \
            and contract is not None and contract.has_declarer:
        return declarer.left
    return forehand


def trick_winner(plays: list[tuple[Seat, Card]], trump: Suit | None) -> Seat:
    """Highest trump, else highest card of the suit led (R12); ``plays`` start with the lead."""
    best_seat, best = plays[0]
    for seat, card in plays[1:]:
        if card.suit is best.suit:
            if card.rank.order > best.rank.order:
                best_seat, best = seat, card
        elif card.suit is trump:
            best_seat, best = seat, card
    return best_seat


class _Replay:
    """State of one replay: what each player still holds and what has been seen."""

    def __init__(self, deal: Deal | None, trump: Suit | None, must_trump: bool) -> None:
        self.trump = trump
        self.must_trump = must_trump
        self.left: dict[Seat, set[Card] | None] = {}
        self.owner: dict[Card, Seat] = {}
        for seat in SEATS:
            hand = deal.hand(seat) if deal is not None else None
            self.left[seat] = set(hand.cards) if hand is not None else None
            if hand is not None:
                for c in hand.cards:
                    self.owner[c] = seat
        self.played: dict[Card, int] = {}  # card -> trick it was played in
        self.void: dict[Seat, dict[Suit, int]] = {s: {} for s in SEATS}  # showed out, in trick

    def check_card(self, n: int, seat: Seat, card: Card, tok: Token) -> Finding | None:
        """Ownership and repetition (R11), order-independent."""
        who = seat_name(seat)
        if card in self.played:
            return error("R11", f"trick {n}: {who} plays {card_name(card)} a second time "
                         f"(first in trick {self.played[card]}) (R11)", tok.location)
        owner = self.owner.get(card)
        if owner is not None and owner is not seat:
            return error("R11", f"trick {n}: {who} plays {card_name(card)}, which was dealt to "
                         f"{seat_name(owner)}, not {who} (R11)", tok.location)
        if owner is None and self.left[seat] is not None:
            return error("R11", f"trick {n}: {who} plays {card_name(card)}, which is not in "
                         f"{who}'s hand (R11)", tok.location)
        shown = self.void[seat].get(card.suit)
        if shown is not None:
            return error("R11", f"trick {n}: {who} plays {card_name(card)} but showed out of "
                         f"{suit_name(card.suit)} in trick {shown}: a revoke in trick {shown} "
                         "(R11)", tok.location)
        return None

    def follow_fault(self, n: int, seat: Seat, card: Card, led: Suit) -> str | None:
        """Why playing ``card`` to a ``led`` trick breaks R11, if it does."""
        held = self.left[seat]
        if card.suit is led or held is None:
            return None
        who = seat_name(seat)
        same = sorted((c for c in held if c.suit is led), key=lambda c: -c.rank.order)
        if same:
            return (f"trick {n}: {who} plays {card_name(card)} while holding "
                    f"{card_name(same[0])} — must follow {suit_name(led)} (R11)")
        if self.must_trump and self.trump is not None and card.suit is not self.trump:
            trumps = sorted((c for c in held if c.suit is self.trump), key=lambda c: -c.rank.order)
            if trumps:
                return (f"trick {n}: {who} plays {card_name(card)} while holding "
                        f"{card_name(trumps[0])} — cannot follow {suit_name(led)}, so must "
                        f"trump (R11, must_trump)")
        return None


def replay(section: Section, first: Seat, deal: Deal | None, trump: Suit | None, *,
           must_trump: bool = False, players: tuple[Seat, ...] = SEATS,
           tricks: int = 13) -> PlayResult:
    """Replay a Play section whose columns start at ``first`` (R11–R13).

    ``players`` are the seats that take part, in column order from N; a later
    game family with fewer players passes its own.
    """
    state = _Replay(deal, trump, must_trump)
    width = len(players)
    columns = [s for s in first.rotation() if s in players]
    slots = [t for t in section.tokens if t.kind is not TokenKind.END]
    claimed = section.ended
    leaders: frozenset[Seat] = frozenset({first})
    out: list[Trick] = []
    findings: list[Finding] = []
    won = {Side.NS: 0, Side.EW: 0}
    undecided = 0
    hidden_reported = False
    for start in range(0, len(slots), width):
        n = start // width + 1
        group = slots[start:start + width]
        by_seat = dict(zip(columns, group, strict=False))
        trick_findings: list[Finding] = []
        if n > tricks:
            trick_findings.append(error("R12", f"the play has more than {tricks} tricks (R12)",
                                        group[0].location))
            findings.extend(trick_findings)
            break
        cards: dict[Seat, Card | None] = {}
        bad: set[Seat] = set()
        for seat, tok in by_seat.items():
            card = tok.card if tok.kind is TokenKind.CARD else None
            cards[seat] = card
            if card is not None:
                f = state.check_card(n, seat, card, tok)
                if f is not None:
                    trick_findings.append(f)
                    bad.add(seat)
        full = len(group) == width
        if not full and not claimed:
            trick_findings.append(error(
                "R12", f"trick {n} has {len(group)} cards: every player plays one (R12)",
                group[-1].location))
        # Follow suit (R11) under every seat that may have led.
        faults: dict[Seat, dict[Seat, str]] = {}
        for lead in leaders:
            lead_card = cards.get(lead)
            if lead_card is None:
                continue
            faults[lead] = {}
            for seat, card in cards.items():
                if card is not None and seat is not lead and seat not in bad:
                    why = state.follow_fault(n, seat, card, lead_card.suit)
                    if why is not None:
                        faults[lead][seat] = why
        offenders = {s for per in faults.values() for s in per}
        for seat in sorted(offenders, key=lambda s: columns.index(s)):
            sure = len(faults) == len(leaders) and all(seat in per for per in faults.values())
            why = next(per[seat] for per in faults.values() if seat in per)
            tok = by_seat[seat]
            if sure:
                trick_findings.append(error("R11", why, tok.location))
                bad.add(seat)
            else:
                trick_findings.append(unverifiable(
                    "R11", why.replace(" (R11", " if that trick was led by another seat (R11"),
                    tok.location))
        # Who won, and so who leads next (R12).
        known = full and all(c is not None for c in cards.values())
        winners: set[Seat] = set()
        if known:
            for lead in leaders:
                order = [s for s in lead.rotation() if s in players]
                winners.add(trick_winner([(s, c) for s in order if (c := cards[s]) is not None],
                                         trump))
        elif full and not hidden_reported:
            unk = next(s for s, c in cards.items() if c is None)
            hidden_reported = True
            trick_findings.append(unverifiable(
                "R12", f"trick {n}: {seat_name(unk)}'s card is unknown ('-'): who won it, and "
                "who led the tricks after it, cannot be checked (R12)", by_seat[unk].location))
        # Showing out is a fact only when the suit led is certain.
        if len(leaders) == 1 and (lc := cards.get(next(iter(leaders)))) is not None:
            for seat, card in cards.items():
                if card is not None and card.suit is not lc.suit:
                    state.void[seat].setdefault(lc.suit, n)
        for seat, card in cards.items():
            if card is not None:
                state.played.setdefault(card, n)
                held = state.left[seat]
                if held is not None:
                    held.discard(card)
        leader = next(iter(leaders)) if len(leaders) == 1 else None
        order = [s for s in leader.rotation() if s in by_seat] if leader else list(by_seat)
        played = tuple(PlayedCard(s, cards[s], by_seat[s], s not in bad) for s in order)
        winner = next(iter(winners)) if len(winners) == 1 else None
        if full:
            sides = {w.side for w in winners}
            if len(sides) == 1:
                won[sides.pop()] += 1
            else:
                undecided += 1
        out.append(Trick(n, leader, played, winner, tuple(trick_findings)))
        findings.extend(trick_findings)
        if full:
            leaders = frozenset(winners) if winners else frozenset(players)
    played_all = sum(1 for t in out if len(t.cards) == width)
    if not claimed and out and played_all < tricks and not any(
            f.rule == "R12" and f.severity is Severity.ERROR for f in findings):
        findings.append(error("R13", f"the play stops after {played_all} tricks without '*' to "
                              "claim the rest (R13)", slots[-1].location))
    complete = played_all == tricks and undecided == 0
    return PlayResult(tuple(out), SidePoints(won[Side.NS], won[Side.EW]), undecided, claimed,
                      complete, tuple(findings))
