"""The play (P10): ten tricks of three cards, or of two when a defender dropped out.

The Play section lists each trick on its own line, in fixed columns from the
declarer (W skipped, only the seats that play); who led each trick follows
from the previous trick's winner. A line with a card too many is one error
and the next line is still the next trick, so one slip does not shift every
later card into the wrong trick. Cards are checked against the hands as played
(the declarer's after the talon and the discard); an unknown hand is still
held to the suits it showed out of, and an unknown card (``-``) hides who
won its trick, which is said once, not guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from priffe_records.format.record import Section, Token, TokenKind
from priffe_records.game.cards import Card, CardError, Hand, Seat, Suit
from priffe_records.game.language import msg
from priffe_records.game.words import card_name, seat_name, suit_name
from priffe_records.rules.findings import Finding, error, unverifiable
from priffe_records.rules.tricks import PlayedCard, Trick, trick_winner

from .table import from_seat

TRICKS = 10


@dataclass(frozen=True, slots=True)
class PrefPlay:
    """The replayed play: tricks, tricks won per seat, and whether that is the final count."""

    tricks: tuple[Trick, ...]
    seats: tuple[Seat, ...]
    won: dict[Seat, int]
    complete: bool
    claimed: bool
    findings: tuple[Finding, ...] = field(default=())


def play_seats(declarer: Seat, out: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """The seats that play, in column order from the declarer (P10)."""
    return tuple(s for s in from_seat(declarer) if s not in out)


def _rows(slots: list[Token], width: int) -> list[list[Token]]:
    """The tricks as written: one a line (PREFERENCE.md); ``width`` cards each when the
    section was built in code and its cards have no lines."""
    if not slots or any(t.location is None for t in slots):
        return [slots[i:i + width] for i in range(0, len(slots), width)]
    rows: list[list[Token]] = []
    line = None
    for tok in slots:
        assert tok.location is not None
        if tok.location.line != line:
            line = tok.location.line
            rows.append([])
        rows[-1].append(tok)
    return rows


def _card(tok: Token) -> Card | None:
    if tok.kind is not TokenKind.CARD:
        return None
    try:
        return Card.parse(tok.text)
    except CardError:
        return None


def _high(held: set[Card], suit: Suit) -> Card | None:
    cards = [c for c in held if c.suit is suit]
    return max(cards, key=lambda c: c.rank.order) if cards else None


class _State:
    def __init__(self, hands: dict[Seat, Hand | None], trump: Suit | None,
                 must_trump: bool) -> None:
        self.held: dict[Seat, set[Card] | None] = {
            s: (set(h.cards) if h is not None else None) for s, h in hands.items()}
        self.trump = trump
        self.must_trump = must_trump
        self.played: dict[Card, int] = {}
        self.void: dict[tuple[Seat, Suit], int] = {}

    def own(self, n: int, seat: Seat, card: Card, tok: Token) -> Finding | None:
        """The card is the player's to play: not played before, held, no earlier void."""
        who = seat_name(seat)
        if card in self.played:
            return error("P10", msg("trick {n}: {who} plays {card} a second time (first in "
                                     "trick {first}) (P10)", n=n, who=who,
                                     card=card_name(card), first=self.played[card]),
                         tok.location)
        held = self.held.get(seat)
        if held is not None and card not in held:
            return error("P10", msg("trick {n}: {who} plays {card}, which is not in {who}'s "
                                     "hand (P10)", n=n, who=who, card=card_name(card)),
                         tok.location)
        shown = self.void.get((seat, card.suit))
        if shown is not None:
            return error("P10", msg("trick {n}: {who} plays {card} but showed out of {suit} in "
                                     "trick {shown}: a revoke in trick {shown} (P10)", n=n,
                                     who=who, card=card_name(card),
                                     suit=suit_name(card.suit), shown=shown), tok.location)
        return None

    def follow(self, n: int, seat: Seat, card: Card, led: Suit, tok: Token) -> Finding | None:
        """Follow suit, else (must_trump) trump (P10)."""
        held = self.held.get(seat)
        if card.suit is led or held is None:
            return None
        who = seat_name(seat)
        same = _high(held, led)
        if same is not None:
            return error("P10", msg("trick {n}: {who} plays {card} while holding {same} — "
                                     "must follow {suit} (P10)", n=n, who=who,
                                     card=card_name(card), same=card_name(same),
                                     suit=suit_name(led)), tok.location)
        if self.must_trump and self.trump is not None and card.suit is not self.trump:
            trump = _high(held, self.trump)
            if trump is not None:
                return error("P10", msg("trick {n}: {who} plays {card} while holding {trump} — "
                                         "cannot follow {suit}, so must trump (P10, "
                                         "must_trump)", n=n, who=who, card=card_name(card),
                                         trump=card_name(trump), suit=suit_name(led)),
                             tok.location)
        return None

    def remove(self, n: int, seat: Seat, card: Card, led: Suit | None) -> None:
        self.played.setdefault(card, n)
        held = self.held.get(seat)
        if held is not None:
            held.discard(card)
        elif led is not None and card.suit is not led:
            self.void.setdefault((seat, led), n)


def replay_play(section: Section, declarer: Seat, out: tuple[Seat, ...],
                hands: dict[Seat, Hand | None], trump: Suit | None,
                must_trump: bool) -> PrefPlay:
    """Replay the Play section; ``hands`` are the hands as played (declarer after discard)."""
    seats = play_seats(declarer, out)
    width = len(seats)
    state = _State({s: hands.get(s) for s in seats}, trump, must_trump)
    slots = [t for t in section.tokens if t.kind is not TokenKind.END]
    claimed = section.ended
    leader: Seat | None = declarer
    won = dict.fromkeys(seats, 0)
    tricks: list[Trick] = []
    findings: list[Finding] = []
    hidden = False
    short_trick = False  # a trick without every card already says the play is short
    rows = _rows(slots, width)
    for n, row in enumerate(rows, 1):
        if n > TRICKS:
            findings.append(error("P10", msg("the play has more than {count} tricks (P10)",
                                                  count=TRICKS),
                                  row[0].location))
            break
        found: list[Finding] = []
        group = row[:width]
        if len(row) > width:
            found.append(error("P10", msg("trick {n} has {count} cards on its line: each line "
                                          "is one trick, {width} cards in seat order, so "
                                          "{card} and what follows it on the line are not "
                                          "played (P10)", n=n, count=len(row), width=width,
                                          card=row[width].text), row[width].location))
        toks = dict(zip(seats, group, strict=False))
        last = n == len(rows)
        if len(group) < width and not (claimed and last):
            short_trick = True
            found.append(error("P10", msg("trick {n} has {count} cards: every player who "
                                          "plays gives one (P10)", n=n, count=len(group)),
                               group[-1].location))
        order = list(toks)
        trick_leader = leader
        if leader is not None and leader in toks:
            k = seats.index(leader)
            order = [s for s in seats[k:] + seats[:k] if s in toks]
        cards = {s: _card(toks[s]) for s in order}
        # The suit led is known only from the leader's own card.
        lead_card = cards[leader] if leader is not None and leader in toks else None
        led = lead_card.suit if lead_card is not None else None
        bad: set[Seat] = set()
        for seat in order:
            card = cards[seat]
            if card is None:
                continue
            fault = state.own(n, seat, card, toks[seat])
            if fault is None and led is not None and seat is not order[0]:
                fault = state.follow(n, seat, card, led, toks[seat])
            if fault is not None:
                found.append(fault)
                bad.add(seat)
        for seat in order:
            card = cards[seat]
            if card is not None:
                state.remove(n, seat, card, led)
        winner: Seat | None = None
        full = len(group) == width
        if full and leader is not None and all(c is not None for c in cards.values()):
            winner = trick_winner([(s, c) for s in order if (c := cards[s]) is not None], trump)
            won[winner] += 1
        elif full and not hidden:
            hidden = True
            unk = next((s for s in order if cards[s] is None), order[0])
            found.append(unverifiable("P10", msg("trick {n}: {seat}'s card is unknown ('-') or the "
                                              "leader is: who won it, and who led the tricks "
                                              "after it, cannot be checked (P10)", n=n,
                                              seat=seat_name(unk)),
                                      toks[unk].location))
        if full:
            leader = winner
        elif not last:
            leader = None  # a trick short of a card: who won it, and so who leads next, is unknown
        tricks.append(Trick(n, trick_leader,
                                tuple(PlayedCard(s, cards[s], toks[s], s not in bad)
                                      for s in order), winner, tuple(found)))
        findings.extend(found)
    played = sum(1 for t in tricks if len(t.cards) == width)
    if not claimed and slots and played < TRICKS and not short_trick:
        findings.append(error("P10", msg("the play stops after {count} tricks without '*' "
                                         "to claim the rest (P10)", count=played),
                              slots[-1].location))
    complete = played == TRICKS and sum(won.values()) == TRICKS
    return PrefPlay(tuple(tricks), seats, won, complete, claimed, tuple(findings))
