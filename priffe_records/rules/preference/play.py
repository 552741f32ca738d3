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

import bisect
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from priffe_records.format.record import Location, Section
from priffe_records.game.cards import SUITS, Seat, Suit
from priffe_records.game.language import msg
from priffe_records.game.tricks import (
    CARDS,
    MUST_FOLLOW,
    MUST_TRUMP,
    PLAYABLE,
    PLAYED,
    card_fault,
    disjoint,
    highest,
    play_tricks,
    suit_index,
    winning_index,
)
from priffe_records.game.words import card_name, seat_name, suit_name
from priffe_records.rules.findings import Finding, error, unverifiable
from priffe_records.rules.tricks import (
    PlayedCard,
    Trick,
    TricksOnDemand,
    not_theirs,
    play_slots,
    slot_card,
)

from .table import from_seat

TRICKS = 10


class PrefPlay(TricksOnDemand):
    """The replayed play: tricks, tricks won per seat, and whether that is the final count.
    Immutable; a clean trick's :class:`Trick` is made when :attr:`tricks` is first read.
    Equality is over every field, tricks included."""

    __slots__ = ("claimed", "complete", "findings", "seats", "won")
    FIELDS = ("tricks", "seats", "won", "complete", "claimed", "findings")

    def __init__(self, tricks: tuple[Trick, ...] | None, seats: tuple[Seat, ...],
                 won: dict[Seat, int], complete: bool, claimed: bool,
                 findings: tuple[Finding, ...] = (), *,
                 again: Callable[[], tuple[Trick, ...]] | None = None) -> None:
        super().__init__(tricks, again)
        self.seats = seats
        self.won = won
        self.complete = complete
        self.claimed = claimed
        self.findings = findings


def play_seats(declarer: Seat, out: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """The seats that play, in column order from the declarer (P10)."""
    return tuple(s for s in from_seat(declarer) if s not in out)


def _rows(section: Section, slots: Sequence[int], width: int) -> list[range]:
    """The tricks as written, as ranges of ``slots``: one a line (PREFERENCE.md); ``width``
    cards each when the section was built in code and its cards have no lines."""
    starts = section.line_starts()
    n = len(slots)
    if not n or starts is None:
        return [range(i, min(i + width, n)) for i in range(0, n, width)]
    if not isinstance(slots, range):  # a '*' before the end: each line from its first card
        starts = tuple(sorted({bisect.bisect_left(slots, i) for i in starts}))
    bounds = [k for k in starts if k < n]
    if not bounds or bounds[0]:
        bounds.insert(0, 0)
    return [range(a, b) for a, b in zip(bounds, [*bounds[1:], n], strict=True)]


class _State:
    """What the replay knows between tricks: the hands left, each trick's cards (to say
    where a card was first played), and the suits an unknown hand showed out of."""

    __slots__ = ("gone", "held", "ids", "must_trump", "rows", "trump", "void", "width")

    def __init__(self, held: dict[Seat, int | None], trump: int, must_trump: bool,
                 ids: list[int], rows: list[range]) -> None:
        self.held = held
        self.trump = trump
        self.must_trump = must_trump
        self.gone = 0  # every card played so far
        self.ids = ids  # every slot's card id (-1: none), to say where a card was played
        self.rows = rows  # each trick's slots as written, the cards played the first width
        self.width = len(held)
        self.void: dict[tuple[Seat, int], int] = {}

    def own(self, n: int, seat: Seat, cid: int, where: Location | None) -> Finding | None:
        """The card is the player's to play: not played before, held, no earlier void
        (:func:`card_fault` worded)."""
        shown = self.void.get((seat, cid // 13))
        fault = card_fault(self.held.get(seat), cid, -1, self.trump, self.must_trump,
                           gone=self.gone, void=shown is not None)
        if fault == PLAYABLE:
            return None
        first = next(k for k, row in enumerate(self.rows, 1)
                     if any(self.ids[i] == cid for i in row[:self.width])) \
            if fault == PLAYED else 0
        return not_theirs("P10", fault, n, seat, cid, where, first=first, shown=shown or 0)

    def follow(self, n: int, seat: Seat, cid: int, led: int, where: Location | None
               ) -> Finding | None:
        """Follow suit, else (must_trump) trump (P10): :func:`card_fault` worded."""
        held = self.held.get(seat)
        fault = card_fault(held, cid, led, self.trump, self.must_trump)
        if held is None or fault not in (MUST_FOLLOW, MUST_TRUMP):
            return None
        who, card, suit = seat_name(seat), card_name(CARDS[cid]), suit_name(SUITS[led])
        if fault == MUST_FOLLOW:
            same = highest(held, led)
            assert same is not None  # the fault is a card of the suit led held
            return error("P10", msg("trick {n}: {who} plays {card} while holding {same} — "
                                     "must follow {suit}", n=n, who=who, card=card,
                                     same=card_name(same), suit=suit), where)
        trump = highest(held, self.trump)
        assert trump is not None  # the fault is a trump held
        return error("P10", msg("trick {n}: {who} plays {card} while holding {trump} — "
                                 "cannot follow {suit}, so must trump (must_trump)", n=n, who=who,
                                 card=card,
                                 trump=card_name(trump), suit=suit), where)

    def remove(self, n: int, played: dict[Seat, int], led: int) -> None:
        """The cards of trick ``n`` leave their hands; an unknown hand that did not follow
        ``led`` (-1: not known) showed out of it."""
        for seat, cid in played.items():
            self.gone |= 1 << cid
            held = self.held.get(seat)
            if held is not None:
                self.held[seat] = held & ~(1 << cid)
            elif led >= 0 and cid // 13 != led:
                self.void.setdefault((seat, led), n)


def replay_play(section: Section, declarer: Seat, out: tuple[Seat, ...],
                hands: Mapping[Seat, int | None], trump: Suit | None,
                must_trump: bool) -> PrefPlay:
    """Replay the Play section; ``hands`` are the hands as played (declarer after discard),
    as card bits (``game.tricks.hand_mask``; ``None``: unknown).

    Each trick is decided on card ids and bit masks; only a trick with something to say
    (a finding, an unknown card or leader, a line of the wrong length) builds its
    :class:`Trick` and words its findings as it goes."""
    seats = play_seats(declarer, out)
    width = len(seats)
    masks: dict[Seat, int | None] = {s: hands.get(s) for s in seats}
    slots, ids, claimed = play_slots(section)
    rows = _rows(section, slots, width)
    t = suit_index(trump)
    leader: Seat | None = declarer
    won = dict.fromkeys(seats, 0)
    winners: list[int] = []  # each clean trick's winner column
    if None not in masks.values() and disjoint(masks.values()) and len(rows) <= TRICKS:
        # Every playing hand known and no card in two: a clean trick needs no other fact.
        held = [masks[s] or 0 for s in seats]
        lead = 0  # the declarer leads
        whole = 0  # the rows of ``width`` cards from the first, each a trick to play
        while whole < len(rows) and len(rows[whole]) == width:
            whole += 1
        winners = play_tricks(ids[:whole * width], lead, held, t, must_trump)
        for best in winners:
            won[seats[best]] += 1
            lead = best
        leader = seats[lead]
        masks = dict(zip(seats, held, strict=True))
    state = _State(masks, t, must_trump, ids, rows)
    if len(winners) < len(rows):  # something to word: the cards of the clean tricks are gone
        for cid in ids[:len(winners) * width]:
            state.gone |= 1 << cid
    worded: list[Trick] = []
    findings: list[Finding] = []
    hidden = False
    short_trick = False  # a trick without every card already says the play is short
    played = len(winners)
    for n, row in enumerate(rows[played:], played + 1):
        if n > TRICKS:
            findings.append(error("P10", msg("the play has more than {count} tricks",
                                              count=TRICKS),
                                  section.location_at(slots[row[0]])))
            break
        last = n == len(rows)
        got, winner, say_hidden, short = _word_trick(state, section, slots, ids, row, n,
                                                    seats, leader, claimed, last, hidden)
        hidden = hidden or say_hidden
        short_trick = short_trick or short
        worded.append(got)
        findings.extend(got.findings)
        full = len(got.cards) == width
        if winner is not None:
            won[winner] += 1
        if full:
            played += 1
            leader = winner
        elif not last:
            leader = None  # a trick short of a card: who won it, and so who leads next, is unknown
    if not claimed and slots and played < TRICKS and not short_trick:
        findings.append(error("P10", msg("the play stops after {count} tricks without '*' "
                                         "to claim the rest", count=played),
                              section.location_at(slots[-1])))
    complete = played == TRICKS and sum(won.values()) == TRICKS
    return PrefPlay(None, seats, won, complete, claimed, tuple(findings),
                    again=partial(_built, section, slots, seats, rows, winners, worded))


def _word_trick(state: _State, section: Section, slots: Sequence[int], ids: list[int],
                row: range, n: int, seats: tuple[Seat, ...], leader: Seat | None,
                claimed: bool, last: bool, hidden: bool
                ) -> tuple[Trick, Seat | None, bool, bool]:
    """One trick card by card, each finding worded: the trick, its winner (``None`` when
    not known), whether it said that an unknown card hides the winner, and whether it is
    short of a card."""
    width = len(seats)
    tokens = section.tokens
    found: list[Finding] = []
    if len(row) > width:
        extra = tokens[slots[row[width]]]
        found.append(error("P10", msg("trick {n} has {count} cards on its line: each line "
                                      "is one trick, {width} cards in seat order, so "
                                      "{card} and what follows it on the line are not "
                                      "played", n=n, count=len(row), width=width,
                                      card=extra.text), extra.location))
    group = row[:width]
    toks = {s: tokens[slots[i]] for s, i in zip(seats, group, strict=False)}
    cids = {s: ids[i] for s, i in zip(seats, group, strict=False)}
    short = len(group) < width and not (claimed and last)
    if short:
        found.append(error("P10", msg("trick {n} has {count} cards: every player who "
                                      "plays gives one", n=n, count=len(group)),
                           tokens[slots[group[-1]]].location))
    order = list(toks)
    if leader is not None and leader in toks:
        k = seats.index(leader)
        order = [s for s in seats[k:] + seats[:k] if s in toks]
    # The suit led is known only from the leader's own card.
    led = cids[leader] // 13 if leader is not None and leader in toks \
        and cids[leader] >= 0 else -1
    bad: set[Seat] = set()
    for seat in order:
        cid = cids[seat]
        if cid < 0:
            continue
        fault = state.own(n, seat, cid, toks[seat].location)
        if fault is None and led >= 0 and seat is not order[0] and cid // 13 != led:
            fault = state.follow(n, seat, cid, led, toks[seat].location)
        if fault is not None:
            found.append(fault)
            bad.add(seat)
    state.remove(n, {s: cids[s] for s in order if cids[s] >= 0}, led)
    winner: Seat | None = None
    say_hidden = False
    if len(group) == width and leader is not None and all(cids[s] >= 0 for s in order):
        winner = order[winning_index([cids[s] for s in order], state.trump)]
    elif len(group) == width and not hidden:
        say_hidden = True
        unk = next((s for s in order if cids[s] < 0), order[0])
        found.append(unverifiable("P10", msg("trick {n}: {seat}'s card is unknown ('-') or the "
                                              "leader is: who won it, and who led the tricks "
                                              "after it, cannot be checked", n=n,
                                              seat=seat_name(unk)),
                                  toks[unk].location))
    cards = tuple(PlayedCard(s, CARDS[cids[s]] if cids[s] >= 0 else None, toks[s], s not in bad)
                  for s in order)
    return Trick(n, leader, cards, winner, tuple(found)), winner, say_hidden, short


def _built(section: Section, slots: Sequence[int], seats: tuple[Seat, ...], rows: list[range],
           winners: list[int], worded: list[Trick]) -> tuple[Trick, ...]:
    """:attr:`PrefPlay.tricks`: the clean tricks built from their winners (the declarer
    leads the first, each winner the next), then the worded ones."""
    tokens = section.tokens
    out: list[Trick] = []
    lead = 0
    for n, (row, best) in enumerate(zip(rows, winners, strict=False), 1):
        group = [tokens[slots[i]] for i in row]
        order = [*range(lead, len(group)), *range(lead)]
        cards = tuple(PlayedCard(seats[c], CARDS[slot_card(group[c].kind, group[c].text)],
                                 group[c]) for c in order)
        out.append(Trick(n, seats[lead], cards, seats[best]))
        lead = best
    return (*out, *worded)
