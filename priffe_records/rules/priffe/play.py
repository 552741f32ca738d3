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

>>> from priffe_records.format.record import Section, Token, TokenKind
>>> from priffe_records.game.cards import Deal, Seat, Suit
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

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from priffe_records.format.record import Location, Section
from priffe_records.game.calls import Contract
from priffe_records.game.cards import SEATS, SUITS, Deal, Seat, Suit
from priffe_records.game.language import Message, msg
from priffe_records.game.tricks import (
    CARDS,
    MUST_FOLLOW,
    MUST_TRUMP,
    PLAYABLE,
    PLAYED,
    apart,
    card_fault,
    deal_masks,
    highest,
    play_tricks,
    suit_index,
    winning_index,
)
from priffe_records.game.words import card_name, seat_name, suit_name
from priffe_records.rules.findings import Finding, Severity, error, unverifiable
from priffe_records.rules.priffe.options import FirstLead, Options
from priffe_records.rules.priffe.scoring import SidePoints
from priffe_records.rules.tricks import (
    PlayedCard,
    Trick,
    TricksOnDemand,
    not_theirs,
    play_slots,
    slot_card,
)

# (number, leader, winner, each seat's card as written, N E S W): one trick, flat
TrickSummary = tuple[int, Seat | None, Seat | None, tuple[str | None, ...]]


class PlayResult(TricksOnDemand):
    """The replay's outcome. Immutable; ``tricks`` may be built on first use.

    The replay decides a clean trick on card ids alone; its :class:`Trick`, which only
    a replay view reads, is made when :attr:`tricks` is first read. Equality is over
    every field, tricks included.
    """

    __slots__ = ("_played", "_rows", "claimed", "complete", "findings", "undecided", "won")
    FIELDS = ("tricks", "won", "undecided", "claimed", "complete", "findings")

    def __init__(self, tricks: tuple[Trick, ...] | None, won: SidePoints, undecided: int,
                 claimed: bool, complete: bool, findings: tuple[Finding, ...] = (), *,
                 again: Callable[[], tuple[Trick, ...]] | None = None,
                 played: int | None = None,
                 rows: Callable[[], tuple[TrickSummary, ...]] | None = None) -> None:
        super().__init__(tricks, again)
        self._played = played
        self._rows = rows
        self.won = won
        self.undecided = undecided
        self.claimed = claimed
        self.complete = complete
        self.findings = findings

    def rows(self) -> tuple[TrickSummary, ...]:
        """Each trick as (number, leader, winner, each seat's card as written, in seat
        order N E S W, ``None`` where it has none): what the archive stores. A clean
        play answers from its card ids, building no :class:`Trick`."""
        if not self.built and self._rows is not None:
            return self._rows()
        return tuple(map(_summary, self.tricks))

    @property
    def played(self) -> int:
        """Tricks with a card from every player."""
        if self._played is None:
            self._played = sum(1 for t in self.tricks if len(t.cards) == 4)
        return self._played


def opening_leader(forehand: Seat, declarer: Seat | None, contract: Contract | None,
                   options: Options) -> Seat:
    """Who leads to the first trick (R10): forehand, or left of the declarer under
    ``first_lead=declarer_left`` (forehand again in forced contracts)."""
    if options.first_lead is FirstLead.DECLARER_LEFT and declarer is not None \
            and contract is not None and contract.has_declarer:
        return declarer.left
    return forehand


_COLUMNS = {s: tuple(x.index for x in s.rotation()) for s in SEATS}  # seat indexes, from s
_SIDE_NO = (0, 1, 0, 1)  # seat index -> NS 0, EW 1
_SIDES = {c: tuple(_SIDE_NO[s] for s in c) for c in _COLUMNS.values()}


class _State:
    """What the replay knows between tricks: the hands as dealt and as left, the cards
    played so far, and the suits an unknown hand showed out of."""

    __slots__ = ("dealt", "gone", "ids", "left", "must_trump", "trump", "void", "width")

    def __init__(self, masks: tuple[int | None, ...], trump: int, must_trump: bool,
                 ids: list[int], width: int) -> None:
        self.dealt = masks  # by seat index, None for an unknown hand
        self.left: list[int | None] = list(masks)
        self.gone = 0  # every card played so far
        self.ids = ids  # every slot's card id (-1: none), to say where a card was played
        self.width = width
        self.void: dict[tuple[int, int], int] = {}  # (seat, suit): trick it showed out in
        self.trump = trump
        self.must_trump = must_trump

    def owner(self, cid: int) -> int:
        """The seat a card was dealt to, -1 when no known hand holds it."""
        found = -1
        for seat, mask in enumerate(self.dealt):
            if mask is not None and mask >> cid & 1:
                found = seat
        return found

    def check_card(self, n: int, seat: int, cid: int, where: Location | None
                   ) -> Finding | None:
        """Ownership and repetition (R11), order-independent: :func:`card_fault` worded."""
        owner = self.owner(cid)
        fault = card_fault(self.left[seat], cid, -1, self.trump, self.must_trump,
                           gone=self.gone, elsewhere=0 <= owner != seat,
                           void=(seat, cid // 13) in self.void)
        if fault == PLAYABLE:
            return None
        return not_theirs("R11", fault, n, SEATS[seat], cid, where,
                          first=self.ids.index(cid) // self.width + 1 if fault == PLAYED else 0,
                          owner=SEATS[owner] if owner >= 0 else None,
                          shown=self.void.get((seat, cid // 13), 0))

    def follow_fault(self, n: int, seat: int, cid: int, led: int
                     ) -> Message | None:
        """Why playing card ``cid`` to a trick led in suit ``led`` breaks R11, if it does:
        :func:`card_fault` worded."""
        held = self.left[seat]
        fault = card_fault(held, cid, led, self.trump, self.must_trump)
        if held is None or fault not in (MUST_FOLLOW, MUST_TRUMP):
            return None
        shown = highest(held, led if fault == MUST_FOLLOW else self.trump)
        assert shown is not None  # the fault is a card of that suit held
        who, card, suit = seat_name(SEATS[seat]), card_name(CARDS[cid]), suit_name(SUITS[led])
        if fault == MUST_FOLLOW:
            return msg("trick {n}: {who} plays {card} while holding {held} — must follow "
                       "{suit}", n=n, who=who, card=card, held=card_name(shown), suit=suit)
        return msg("trick {n}: {who} plays {card} while holding {held} — cannot "
                   "follow {suit}, so must trump (must_trump)", n=n, who=who, card=card,
                   held=card_name(shown), suit=suit)


_NO_HANDS: tuple[int | None, ...] = (None, None, None, None)


def replay(section: Section, first: Seat, deal: Deal | None, trump: Suit | None, *,
           must_trump: bool = False, players: tuple[Seat, ...] = SEATS,
           tricks: int = 13) -> PlayResult:
    """Replay a Play section whose columns start at ``first`` (R11–R13).

    ``players`` are the seats that take part; a later game family with fewer
    players passes its own. Tricks are played on card ids and bit masks
    (:func:`~priffe_records.game.tricks.play_trick`) as long as each has nothing to say;
    from the first that has (a finding, an unknown card or hand), the rest is replayed
    card by card, every finding worded where it is. A clean trick keeps only its winner;
    its :class:`Trick` is built when :attr:`PlayResult.tricks` is first read.
    """
    masks = deal_masks(deal) if deal is not None else _NO_HANDS
    width = len(players)
    columns = _COLUMNS[first] if players is SEATS else \
        tuple(s.index for s in first.rotation() if s in players)
    slots, ids, claimed = play_slots(section)
    t = suit_index(trump)
    lead0 = lead = columns.index(first.index) if first.index in columns else -1
    won = [0, 0]  # NS, EW
    winners: list[int] = []  # each clean trick's winner column (-1: a claimed part trick)
    start = 0
    held: list[int] | None = None
    if lead >= 0 and deal is not None and (
            None not in masks or all(masks[c] is not None for c in columns)) and apart(deal):
        # Every playing hand known and no card dealt twice: "in the hand" is "dealt to
        # this seat and not yet played", and a clean trick needs no other fact.
        held = [masks[c] or 0 for c in columns]
        side = _SIDES.get(columns) or tuple(_SIDE_NO[c] for c in columns)
        stop = min(len(ids), tricks * width)
        if not claimed:
            stop -= stop % width  # a short last trick without '*' has something to say (R12)
        winners = play_tricks(ids if stop == len(ids) else ids[:stop], lead, held, t,
                              must_trump)
        start = min(len(winners) * width, len(ids))
        for best in winners:
            if best >= 0:
                won[side[best]] += 1
                lead = best
    played = len(winners) - (1 if winners and winners[-1] < 0 else 0)
    worded: list[Trick] = []
    findings: list[Finding] = []
    undecided = 0
    if start < len(ids) or (not claimed and played < tricks):
        state = _State(masks, t, must_trump, ids, width)
        if held is not None:
            for k, c in enumerate(columns):
                state.left[c] = held[k]
        for cid in ids[:start]:
            state.gone |= 1 << cid
        leaders = {columns[lead]} if lead >= 0 else {first.index}
        hidden_reported = False
        for begin in range(start, len(ids), width):
            n = begin // width + 1
            if n > tricks:
                findings.append(error("R12", msg("the play has more than {tricks} tricks",
                                                  tricks=tricks),
                                      section.location_at(slots[begin])))
                break
            got = _word_trick(state, section, slots, begin, n, width, columns, leaders,
                              claimed, not hidden_reported)
            findings.extend(got.trick.findings)
            worded.append(got.trick)
            hidden_reported = hidden_reported or got.hidden
            if len(got.trick.cards) == width:
                played += 1
                if got.side < 0:
                    undecided += 1
                else:
                    won[got.side] += 1
                leaders = got.winners or set(columns)
        if not claimed and ids and played < tricks and not any(
                f.rule == "R12" and f.severity is Severity.ERROR for f in findings):
            findings.append(error("R13", msg("the play stops after {count} tricks without '*' "
                                             "to claim the rest", count=played),
                                  section.location_at(slots[-1])))
    complete = played == tricks and undecided == 0
    kept = _Kept(section, slots, columns, lead0, winners, worded)
    return PlayResult(None, SidePoints(won[0], won[1]), undecided, claimed, complete,
                      tuple(findings), played=played, again=kept.tricks, rows=kept.rows)


class _Worded(NamedTuple):
    """A trick with something to say, and what the replay goes on with."""

    trick: Trick
    winners: set[int]  # the seats that may have won it
    side: int  # the side that won it (0 NS, 1 EW), -1 when not known
    hidden: bool  # its unknown card has been reported


def _word_trick(state: _State, section: Section, slots: Sequence[int], start: int, n: int,
                width: int, columns: tuple[int, ...], leaders: set[int], claimed: bool,
                report_hidden: bool) -> _Worded:
    """One trick card by card, each finding worded; the leader may be one of several
    seats (after an unknown card), and a revoke is then an error only if it is one
    whoever led."""
    tokens = section.tokens
    group = [tokens[i] for i in slots[start:start + width]]
    toks = dict(zip(columns, group, strict=False))
    ids: dict[int, int] = {}
    found: list[Finding] = []
    bad: set[int] = set()
    for seat, tok in toks.items():
        cid = slot_card(tok.kind, tok.text)
        if cid < 0:
            continue
        ids[seat] = cid
        f = state.check_card(n, seat, cid, tok.location)
        if f is not None:
            found.append(f)
            bad.add(seat)
    full = len(group) == width
    if not full and not claimed:
        found.append(error("R12", msg("trick {n} has {count} cards: every player plays one",
                                       n=n, count=len(group)), group[-1].location))
    # Follow suit (R11) under every seat that may have led.
    faults: dict[int, dict[int, Message]] = {}
    for lead in leaders:
        if lead not in ids:
            continue
        led = ids[lead] // 13
        per: dict[int, Message] = {}
        for seat, cid in ids.items():
            if seat != lead and seat not in bad and cid // 13 != led:
                why = state.follow_fault(n, seat, cid, led)
                if why is not None:
                    per[seat] = why
        faults[lead] = per
    for seat in columns if any(faults.values()) else ():
        whys = [per[seat] for per in faults.values() if seat in per]
        if not whys:
            continue
        fault = whys[0]
        if len(faults) == len(leaders) and len(whys) == len(faults):
            found.append(error("R11", fault, toks[seat].location))
            bad.add(seat)
        else:
            found.append(unverifiable(
                "R11", msg("{fault} if that trick was led by another seat", fault=fault),
                toks[seat].location))
    # Who won, and so who leads next (R12).
    winners: set[int] = set()
    hidden = False
    if full and len(ids) == width:
        for lead in leaders:
            k = columns.index(lead)
            turn = columns[k:] + columns[:k]
            winners.add(turn[winning_index([ids[s] for s in turn], state.trump)])
    elif full and report_hidden:
        unk = next(s for s in columns if s not in ids)
        hidden = True
        found.append(unverifiable(
            "R12", msg("trick {n}: {seat}'s card is unknown ('-'): who won it, and who led "
                       "the tricks after it, cannot be checked", n=n,
                       seat=seat_name(SEATS[unk])), toks[unk].location))
    # Showing out is a fact only when the suit led is certain; it matters only for
    # hands we do not know (a known hand's revoke is reported where it happens).
    if len(leaders) == 1:
        lead = next(iter(leaders))
        if lead in ids:
            led = ids[lead] // 13
            for seat, cid in ids.items():
                if cid // 13 != led and state.left[seat] is None:
                    state.void.setdefault((seat, led), n)
    for seat, cid in ids.items():  # the cards leave their hands
        state.gone |= 1 << cid
        held = state.left[seat]
        if held is not None:
            state.left[seat] = held & ~(1 << cid)
    leader = SEATS[next(iter(leaders))] if len(leaders) == 1 else None
    if leader is not None and leader.index in toks:
        k = columns.index(leader.index)
        order = [s for s in columns[k:] + columns[:k] if s in toks]
    else:
        order = list(toks)
    cards = tuple(PlayedCard(SEATS[s], CARDS[ids[s]] if s in ids else None, toks[s],
                             s not in bad) for s in order)
    winner = SEATS[next(iter(winners))] if len(winners) == 1 else None
    sides = {_SIDE_NO[w] for w in winners}
    side = sides.pop() if full and len(sides) == 1 else -1
    return _Worded(Trick(n, leader, cards, winner, tuple(found)), winners, side, hidden)


class _Kept(NamedTuple):
    """A replay's tricks as it kept them: the clean ones as their winners' columns (from
    the leader of the first), then the worded ones as built."""

    section: Section
    slots: Sequence[int]
    columns: tuple[int, ...]
    lead: int
    winners: list[int]
    worded: list[Trick]

    def clean(self) -> Iterator[tuple[int, int, range, int]]:
        """Each clean trick: its number, leader's column, slots and winner's column."""
        width = len(self.columns)
        lead = self.lead
        for i, best in enumerate(self.winners):
            yield i + 1, lead, range(i * width, min((i + 1) * width, len(self.slots))), best
            lead = best

    def tricks(self) -> tuple[Trick, ...]:
        """:attr:`PlayResult.tricks`: the clean tricks built from their ints."""
        tokens, slots, columns = self.section.tokens, self.slots, self.columns
        out: list[Trick] = []
        for n, lead, at, best in self.clean():
            group = [tokens[slots[i]] for i in at]
            order = list(range(len(group)))
            if lead < len(group):
                order = order[lead:] + order[:lead]
            cards = tuple(PlayedCard(SEATS[columns[c]],
                                     CARDS[slot_card(group[c].kind, group[c].text)], group[c])
                          for c in order)
            out.append(Trick(n, SEATS[columns[lead]], cards,
                             SEATS[columns[best]] if best >= 0 else None))
        return (*out, *self.worded)

    def rows(self) -> tuple[TrickSummary, ...]:
        """:meth:`PlayResult.rows`, the clean tricks read from their ints (no Trick)."""
        texts, slots, columns = self.section.texts, self.slots, self.columns
        out: list[TrickSummary] = []
        for n, lead, at, best in self.clean():
            cards: list[str | None] = [None] * 4
            for c, i in enumerate(at):
                cards[columns[c]] = texts[slots[i]]
            out.append((n, SEATS[columns[lead]], SEATS[columns[best]] if best >= 0 else None,
                        tuple(cards)))
        return (*out, *map(_summary, self.worded))


def _summary(t: Trick) -> TrickSummary:
    by_seat = {p.seat: p.token.text for p in t.cards}
    return (t.number, t.leader, t.winner, tuple(by_seat.get(s) for s in SEATS))
