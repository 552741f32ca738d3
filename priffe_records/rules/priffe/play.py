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

from collections.abc import Callable
from functools import partial

from priffe_records.format.record import Section, Token, TokenKind
from priffe_records.game.calls import Contract
from priffe_records.game.cards import (
    FULL_DECK,
    SEATS,
    SUITS,
    Card,
    CardError,
    Deal,
    Seat,
    Side,
    Suit,
)
from priffe_records.game.language import Message, msg
from priffe_records.game.words import card_name, seat_name, suit_name
from priffe_records.rules.findings import Finding, Severity, error, unverifiable
from priffe_records.rules.priffe.cardbits import SUIT_BITS, SUIT_NO, deal_masks
from priffe_records.rules.priffe.options import FirstLead, Options
from priffe_records.rules.priffe.scoring import SidePoints
from priffe_records.rules.tricks import PlayedCard, Trick

# (number, leader, winner, each seat's card as written, N E S W): one trick, flat
TrickSummary = tuple[int, Seat | None, Seat | None, tuple[str | None, ...]]


class PlayResult:
    """The replay's outcome. Immutable; ``tricks`` may be built on first use.

    A clean play is proven clean on card ids alone (:func:`clean_replay`); its
    :class:`Trick` objects, which only a replay or the archive reads, are then made by
    the full replay when first asked for. Equality is over every field, tricks included.
    """

    __slots__ = ("_again", "_played", "_rows", "_tricks", "claimed", "complete", "findings",
                 "undecided", "won")

    def __init__(self, tricks: tuple[Trick, ...] | None, won: SidePoints, undecided: int,
                 claimed: bool, complete: bool, findings: tuple[Finding, ...] = (), *,
                 again: Callable[[], tuple[Trick, ...]] | None = None,
                 played: int | None = None,
                 rows: Callable[[], tuple[TrickSummary, ...]] | None = None) -> None:
        if tricks is None and again is None:
            raise ValueError("PlayResult needs its tricks or a way to build them")
        self._tricks = tricks
        self._again = again
        self._played = played
        self._rows = rows
        self.won = won
        self.undecided = undecided
        self.claimed = claimed
        self.complete = complete
        self.findings = findings

    @property
    def tricks(self) -> tuple[Trick, ...]:
        if self._tricks is None:
            assert self._again is not None
            self._tricks, self._again = self._again(), None
        return self._tricks

    def rows(self) -> tuple[TrickSummary, ...]:
        """Each trick as (number, leader, winner, each seat's card as written, in seat
        order N E S W, ``None`` where it has none): what the archive stores. A clean
        play answers from its card ids, building no :class:`Trick`."""
        if self._tricks is None and self._rows is not None:
            return self._rows()
        out = []
        for t in self.tricks:
            by_seat = {p.seat: p.token.text for p in t.cards}
            out.append((t.number, t.leader, t.winner, tuple(by_seat.get(s) for s in SEATS)))
        return tuple(out)

    @property
    def played(self) -> int:
        """Tricks with a card from every player."""
        if self._played is None:
            self._played = sum(1 for t in self.tricks if len(t.cards) == 4)
        return self._played

    def _key(self) -> tuple[object, ...]:
        return (self.tricks, self.won, self.undecided, self.claimed, self.complete,
                self.findings)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayResult):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.won, self.undecided, self.claimed, self.complete, self.findings))

    def __repr__(self) -> str:
        return (f"PlayResult(tricks={self.tricks!r}, won={self.won!r}, "
                f"undecided={self.undecided!r}, claimed={self.claimed!r}, "
                f"complete={self.complete!r}, findings={self.findings!r})")


def opening_leader(forehand: Seat, declarer: Seat | None, contract: Contract | None,
                   options: Options) -> Seat:
    """Who leads to the first trick (R10): forehand, or left of the declarer under
    ``first_lead=declarer_left`` (forehand again in forced contracts)."""
    if options.first_lead is FirstLead.DECLARER_LEFT and declarer is not None \
            and contract is not None and contract.has_declarer:
        return declarer.left
    return forehand


# The replay runs on card ids (suit index * 13 + rank order) and held-card bit masks:
# Card and Seat hashing dominated the validator's time before.
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_CARD_INFO: dict[str, tuple[Card, int]] = {
    str(c): (c, _SUIT_INDEX[c.suit] * 13 + c.rank.order) for c in FULL_DECK}
_CARD_BY_ID = {cid: c for c, cid in _CARD_INFO.values()}
_ID_OF_CARD = {c: cid for c, cid in _CARD_INFO.values()}
_SUIT_MASK = tuple(((1 << 13) - 1) << (13 * i) for i in range(4))
_CID = {text: cid for text, (_, cid) in _CARD_INFO.items()}  # the clean replay's tables
_BIT = tuple(1 << cid for cid in range(52))
_SUIT_OF = tuple(cid // 13 for cid in range(52))
_COLUMNS = {s: tuple(x.index for x in s.rotation()) for s in SEATS}  # seat indexes, from s


def _card_of(tok: Token) -> tuple[Card, int] | None:
    if tok.kind is not TokenKind.CARD:
        return None
    info = _CARD_INFO.get(tok.text)
    if info is None:  # a token built in code with another spelling, or no card at all
        try:
            c = Card.parse(tok.text)
        except CardError:
            return None  # unknown, like '-': never guessed
        info = (c, _SUIT_INDEX[c.suit] * 13 + c.rank.order)
    return info


def _highest(mask: int, suit: int) -> Card | None:
    held = mask & _SUIT_MASK[suit]
    return _CARD_BY_ID[held.bit_length() - 1] if held else None


class _Replay:
    """State of one replay: what each player still holds and what has been seen."""

    def __init__(self, deal: Deal | None, trump: Suit | None, must_trump: bool) -> None:
        self.trump = _SUIT_INDEX[trump] if trump is not None else -1
        self.must_trump = must_trump
        self.left: list[int | None] = [None] * 4  # held cards as a bit mask, by seat index
        self.owner = [-1] * 52
        if deal is not None:
            for seat in SEATS:
                hand = deal.hand(seat)
                if hand is None:
                    continue
                mask = 0
                idx = seat.index
                for c in hand.cards:
                    cid = _ID_OF_CARD[c]
                    mask |= 1 << cid
                    self.owner[cid] = idx
                self.left[idx] = mask
        self.played = [0] * 52  # trick a card was played in, 0 = not yet
        self.void = [[0] * 4 for _ in range(4)]  # [seat][suit]: trick it showed out in

    def check_card(self, n: int, seat: int, card: Card, cid: int, tok: Token) -> Finding | None:
        """Ownership and repetition (R11), order-independent."""
        owner = self.owner[cid]
        shown = self.void[seat][cid // 13]
        if not self.played[cid] and not shown and (owner == seat or (
                owner < 0 and self.left[seat] is None)):
            return None  # the common case, decided without building a message
        who = seat_name(SEATS[seat])
        if self.played[cid]:
            return error("R11", msg("trick {n}: {who} plays {card} a second time (first in "
                                    "trick {first}) (R11)", n=n, who=who, card=card_name(card),
                                    first=self.played[cid]), tok.location)
        if owner >= 0 and owner != seat:
            return error("R11", msg("trick {n}: {who} plays {card}, which was dealt to "
                                    "{owner}, not {who} (R11)", n=n, who=who,
                                    card=card_name(card), owner=seat_name(SEATS[owner])),
                         tok.location)
        if owner < 0 and self.left[seat] is not None:
            return error("R11", msg("trick {n}: {who} plays {card}, which is not in {who}'s "
                                    "hand (R11)", n=n, who=who, card=card_name(card)),
                         tok.location)
        if shown:
            return error("R11", msg("trick {n}: {who} plays {card} but showed out of {suit} "
                                    "in trick {shown}: a revoke in trick {shown} (R11)", n=n,
                                    who=who, card=card_name(card), suit=suit_name(card.suit),
                                    shown=shown), tok.location)
        return None

    def follow_fault(self, n: int, seat: int, card: Card, cid: int, led: int
                     ) -> tuple[Message, str] | None:
        """Why playing ``card`` to a trick led in suit ``led`` breaks R11, if it does, and the
        rule reference to cite."""
        held = self.left[seat]
        if cid // 13 == led or held is None:
            return None
        who = seat_name(SEATS[seat])
        same = _highest(held, led)
        if same is not None:
            return msg("trick {n}: {who} plays {card} while holding {held} — must follow "
                       "{suit}", n=n, who=who, card=card_name(card), held=card_name(same),
                       suit=suit_name(SUITS[led])), "R11"
        if self.must_trump and self.trump >= 0 and cid // 13 != self.trump:
            trump = _highest(held, self.trump)
            if trump is not None:
                return msg("trick {n}: {who} plays {card} while holding {held} — cannot "
                           "follow {suit}, so must trump", n=n, who=who, card=card_name(card),
                           held=card_name(trump), suit=suit_name(SUITS[led])), "R11, must_trump"
        return None

    def winner(self, order: list[int], ids: dict[int, int]) -> int:
        """R12 on card ids; ``order`` starts with the leader."""
        best_seat = order[0]
        best = ids[best_seat]
        for seat in order[1:]:
            cid = ids[seat]
            if cid // 13 == best // 13:
                if cid > best:
                    best_seat, best = seat, cid
            elif cid // 13 == self.trump:
                best_seat, best = seat, cid
        return best_seat


def replay(section: Section, first: Seat, deal: Deal | None, trump: Suit | None, *,
           must_trump: bool = False, players: tuple[Seat, ...] = SEATS,
           tricks: int = 13) -> PlayResult:
    """Replay a Play section whose columns start at ``first`` (R11–R13).

    ``players`` are the seats that take part; a later game family with fewer
    players passes its own. A play proven clean on card ids comes back at once,
    its tricks built on demand; anything else takes the full replay, which words
    every finding.
    """
    clean = clean_replay(section, first, deal, trump, must_trump, players, tricks)
    if clean is not None:
        return clean
    return full_replay(section, first, deal, trump, must_trump=must_trump, players=players,
                       tricks=tricks)


def clean_replay(section: Section, first: Seat, deal: Deal | None, trump: Suit | None,
                  must_trump: bool, players: tuple[Seat, ...], tricks: int
                  ) -> PlayResult | None:
    """The play's result if it is provably clean, else ``None`` (then the full replay runs).

    Clean: every hand known, every card known and held by the seat that plays it, suit
    followed (trumped when ``must_trump`` asks), at most ``tricks`` tricks, and a short
    play ended by ``*``. Then the full replay has no finding and one leader per trick,
    and this replay — ints and bit masks only — gives its ``won``, ``claimed`` and
    ``complete`` exactly; nothing that could word a message is built.
    """
    if deal is None:
        return None
    masks = deal_masks(deal)
    if None in masks:
        return None
    width = len(players)
    columns = _COLUMNS[first] if players is SEATS else \
        tuple(s.index for s in first.rotation() if s in players)
    kinds, texts = section.kinds, section.texts
    end = TokenKind.END
    claimed = end in kinds
    if claimed:
        texts = tuple(t for k, t in zip(kinds, texts, strict=True) if k is not end)
    if len(texts) != kinds.count(TokenKind.CARD):
        return None  # a token that is no card: the full replay words it
    try:
        ids = list(map(_CID.__getitem__, texts))
    except KeyError:
        return None  # '-', a card spelt otherwise: the full replay words it
    n_slots = len(ids)
    if n_slots > width * tricks or (n_slots < width * tricks and not claimed):
        return None  # too many tricks, or a short play without '*': findings to word
    t = SUIT_NO[trump] if trump is not None else -1
    trump_bits = SUIT_BITS[t] if t >= 0 and must_trump else 0
    left: list[int] = [masks[c] for c in columns]  # type: ignore[misc]  # held, by column
    won = [0, 0]
    lead = 0  # the leader's column
    marks: list[tuple[int, int]] = []  # each trick's leader and winner column (-1: none)
    bits, suit_of = _BIT, _SUIT_OF
    for start in range(0, n_slots, width):
        trick = ids[start:start + width]
        # led -1: a claimed last trick that stops before the leader's column
        best = trick[lead] if lead < len(trick) else -1
        led = bst = suit_of[best] if best >= 0 else -1
        led_bits, must = (SUIT_BITS[led], trump_bits) if led >= 0 else (0, 0)
        best_col = lead
        for k, cid in enumerate(trick):
            bit = bits[cid]
            held = left[k]
            if not held & bit:
                return None  # not this seat's card, or played before
            suit = suit_of[cid]
            if suit != led and (held & led_bits or (suit != t and held & must)):
                return None  # a revoke (R11, must_trump)
            left[k] = held ^ bit
            if suit == bst:
                if cid > best:
                    best_col, best = k, cid
            elif suit == t:
                best_col, best, bst = k, cid, t
        if len(trick) == width:
            won[columns[best_col] & 1] += 1  # seat index: N 0, E 1, S 2, W 3
            marks.append((lead, best_col))
            lead = best_col
        else:
            marks.append((lead, -1))
    played = n_slots // width
    return PlayResult(None, SidePoints(won[0], won[1]), 0, claimed, played == tricks,
                      again=partial(_tricks_of, section, first, deal, trump, must_trump,
                                    players, tricks), played=played,
                      rows=partial(_clean_rows, section, columns, marks))


def _clean_rows(section: Section, columns: tuple[int, ...], marks: list[tuple[int, int]]
                ) -> tuple[TrickSummary, ...]:
    """:meth:`PlayResult.rows` of a clean play, from its columns and winners."""
    width = len(columns)
    end = TokenKind.END
    slots = [text for kind, text in zip(section.kinds, section.texts, strict=True)
             if kind is not end]
    out: list[TrickSummary] = []
    for n, (lead, best) in enumerate(marks, 1):
        cards: list[str | None] = [None] * 4
        for k, text in enumerate(slots[(n - 1) * width:n * width]):
            cards[columns[k]] = text
        out.append((n, SEATS[columns[lead]], SEATS[columns[best]] if best >= 0 else None,
                    tuple(cards)))
    return tuple(out)


def _tricks_of(section: Section, first: Seat, deal: Deal | None, trump: Suit | None,
               must_trump: bool, players: tuple[Seat, ...], tricks: int
               ) -> tuple[Trick, ...]:
    return full_replay(section, first, deal, trump, must_trump=must_trump, players=players,
                       tricks=tricks).tricks


def full_replay(section: Section, first: Seat, deal: Deal | None, trump: Suit | None, *,
                must_trump: bool = False, players: tuple[Seat, ...] = SEATS,
                tricks: int = 13) -> PlayResult:
    """:func:`replay` card by card with every object and message: the reference the clean
    path is tested against, and what words every finding."""
    state = _Replay(deal, trump, must_trump)
    width = len(players)
    columns = [s.index for s in first.rotation() if s in players]
    slots = [t for t in section.tokens if t.kind is not TokenKind.END]
    claimed = section.ended
    leaders: set[int] = {first.index}
    out: list[Trick] = []
    findings: list[Finding] = []
    won = [0, 0]  # NS, EW
    undecided = 0
    hidden_reported = False
    for start in range(0, len(slots), width):
        n = start // width + 1
        group = slots[start:start + width]
        if n > tricks:
            findings.append(error("R12", msg("the play has more than {tricks} tricks (R12)",
                                             tricks=tricks), group[0].location))
            break
        toks = dict(zip(columns, group, strict=False))
        cards: dict[int, Card | None] = {}
        ids: dict[int, int] = {}
        found: list[Finding] = []
        bad: set[int] = set()
        for seat, tok in toks.items():
            info = _card_of(tok)
            if info is None:
                cards[seat] = None
                continue
            card, cid = info
            cards[seat] = card
            ids[seat] = cid
            f = state.check_card(n, seat, card, cid, tok)
            if f is not None:
                found.append(f)
                bad.add(seat)
        full = len(group) == width
        if not full and not claimed:
            found.append(error("R12", msg("trick {n} has {count} cards: every player plays one "
                                          "(R12)", n=n, count=len(group)), group[-1].location))
        # Follow suit (R11) under every seat that may have led.
        faults: dict[int, dict[int, tuple[Message, str]]] = {}
        for lead in leaders:
            if lead not in ids:
                continue
            led = ids[lead] // 13
            per: dict[int, tuple[Message, str]] = {}
            for seat, cid in ids.items():
                if seat != lead and seat not in bad and cid // 13 != led:
                    why = state.follow_fault(n, seat, cards[seat], cid, led)  # type: ignore[arg-type]
                    if why is not None:
                        per[seat] = why
            faults[lead] = per
        for seat in columns if any(faults.values()) else ():
            whys = [per[seat] for per in faults.values() if seat in per]
            if not whys:
                continue
            fault, rules = whys[0]
            if len(faults) == len(leaders) and len(whys) == len(faults):
                found.append(error("R11", msg("{fault} ({rules})", fault=fault, rules=rules),
                                   toks[seat].location))
                bad.add(seat)
            else:
                found.append(unverifiable(
                    "R11", msg("{fault} if that trick was led by another seat ({rules})",
                               fault=fault, rules=rules), toks[seat].location))
        # Who won, and so who leads next (R12).
        winners: set[int] = set()
        if full and len(ids) == width:
            for lead in leaders:
                k = columns.index(lead)
                winners.add(state.winner(columns[k:] + columns[:k], ids))
        elif full and not hidden_reported:
            unk = next(s for s in columns if s not in ids)
            hidden_reported = True
            found.append(unverifiable(
                "R12", msg("trick {n}: {seat}'s card is unknown ('-'): who won it, and who led "
                           "the tricks after it, cannot be checked (R12)", n=n,
                           seat=seat_name(SEATS[unk])), toks[unk].location))
        # Showing out is a fact only when the suit led is certain; it matters only for
        # hands we do not know (a known hand's revoke is reported where it happens).
        if len(leaders) == 1:
            lead = next(iter(leaders))
            if lead in ids:
                led = ids[lead] // 13
                for seat, cid in ids.items():
                    if cid // 13 != led and state.left[seat] is None \
                            and not state.void[seat][led]:
                        state.void[seat][led] = n
        for seat, cid in ids.items():
            if not state.played[cid]:
                state.played[cid] = n
            held = state.left[seat]
            if held is not None:
                state.left[seat] = held & ~(1 << cid)
        leader = SEATS[next(iter(leaders))] if len(leaders) == 1 else None
        if leader is not None and leader.index in toks:
            k = columns.index(leader.index)
            order = [s for s in columns[k:] + columns[:k] if s in toks]
        else:
            order = list(toks)
        played = tuple(PlayedCard(SEATS[s], cards[s], toks[s], s not in bad) for s in order)
        winner = SEATS[next(iter(winners))] if len(winners) == 1 else None
        if full:
            sides = {SEATS[w].side for w in winners}
            if len(sides) == 1:
                won[0 if sides.pop() is Side.NS else 1] += 1
            else:
                undecided += 1
            leaders = winners or set(columns)
        out.append(Trick(n, leader, played, winner, tuple(found)))
        findings.extend(found)
    played_all = sum(1 for t in out if len(t.cards) == width)
    if not claimed and out and played_all < tricks and not any(
            f.rule == "R12" and f.severity is Severity.ERROR for f in findings):
        findings.append(error("R13", msg("the play stops after {count} tricks without '*' to "
                                         "claim the rest (R13)", count=played_all),
                              slots[-1].location))
    complete = played_all == tricks and undecided == 0
    return PlayResult(tuple(out), SidePoints(won[0], won[1]), undecided, claimed, complete,
                      tuple(findings))
