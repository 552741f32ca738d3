"""Deterministic random Priffe parties: legal deals, auctions and play, correct score tags.

The same seed always gives the same records, so property tests, benchmarks
and examples are reproducible. Scores come from the engine's own arithmetic
(:mod:`scoring`, :mod:`rubber`) while auction and play are made here
independently of the validator's replay, so a generated partie is a real
test of the validator.

>>> recs = generate_partie(7, rubbers=1)
>>> recs[0].get("Board"), recs[0].get("Rubber"), recs[-1].get("Settlement") is not None
('1', '1', True)
>>> from priffe_records.rules.validate import validate
>>> [f for f in validate(recs) if f.is_error]
[]
"""

from __future__ import annotations

import datetime
import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from priffe_records.format.record import Comment, Record, Section, Tag, Token, TokenKind
from priffe_records.game.calls import Call
from priffe_records.game.cards import (
    FULL_DECK,
    SEATS,
    Card,
    Deal,
    Hand,
    Seat,
    Side,
    Suit,
    sorted_cards,
)
from priffe_records.game.tricks import playable, trick_winner
from priffe_records.game.words import seat_name
from priffe_records.rules.priffe.auction import contract_for
from priffe_records.rules.priffe.options import PRESETS, Options
from priffe_records.rules.priffe.play import opening_leader
from priffe_records.rules.priffe.rubber import RubberState, format_settlement, settle
from priffe_records.rules.priffe.scoring import SidePoints, honours, score_deal

FIRST_NAMES = ("Anna", "Bertil", "Cecilia", "David", "Elsa", "Gustav", "Ingrid", "Karl",
               "Margit", "Nils", "Sigrid", "Torsten", "Ulla", "Vilhelm", "Astrid", "Harald")
SITES = ("Uppsala", "Lund", "Västerås", "Örebro", "Gävle", "Falun", "Linköping", "Växjö")
EVENTS = ("Klubbkväll", "Priffecirkeln", "Torsdagspriffe", "Nationskväll", "Höstpartiet")
_CARD_COMMENTS = ("utspel", "markering", "stark trumf", "snyggt", "tveksamt")
_BIDS = (Call.KLOVER, Call.SPADER, Call.RUTER, Call.HJARTER, Call.NOLL, Call.SPELA)
_BID_WEIGHT = {Call.KLOVER: 3, Call.SPADER: 3, Call.RUTER: 4, Call.HJARTER: 4, Call.NOLL: 2,
               Call.SPELA: 1}  # Spela is rare at a real table


@dataclass(frozen=True, slots=True)
class PartieSpec:
    """Who plays where and when; ``players`` are seated N, E, S, W in the first rubber."""

    players: tuple[str, str, str, str] = ("Anna", "Bertil", "Cecilia", "David")
    event: str = "Klubbkväll"
    site: str = "Uppsala"
    date: str = "2026.11.29"
    rubbers: int = 6
    options: Options = PRESETS["sv"]
    comments: bool = False
    claim_rate: float = 0.15


def random_deal(rng: random.Random) -> Deal:
    cards = sorted_cards(FULL_DECK)
    rng.shuffle(cards)
    hands = [Hand(tuple(sorted_cards(cards[i * 13:(i + 1) * 13]))) for i in range(4)]
    return Deal((hands[0], hands[1], hands[2], hands[3]))


def random_auction(rng: random.Random, forehand: Seat) -> list[tuple[Seat, Call]]:
    """Each player once, from forehand, a bid higher than all before or Pass; Spela ends it."""
    calls: list[tuple[Seat, Call]] = []
    high = 0
    for seat in forehand.rotation():
        higher = [b for b in _BIDS if b.height > high]
        call = Call.PASS if not higher or rng.random() < 0.5 else \
            rng.choices(higher, [_BID_WEIGHT[c] for c in higher])[0]
        calls.append((seat, call))
        if call.is_bid:
            high = call.height
        if call is Call.SPELA:
            break
    return calls


def random_play(rng: random.Random, deal: Deal, leader: Seat, trump: Suit | None,
                must_trump: bool) -> list[list[tuple[Seat, Card]]]:
    """13 tricks in played order, each card a legal random choice (R11, R12)."""
    held = {s: set(h.cards) for s in SEATS if (h := deal.hand(s)) is not None}
    tricks: list[list[tuple[Seat, Card]]] = []
    for _ in range(13):
        trick: list[tuple[Seat, Card]] = []
        for seat in leader.rotation():
            hand = playable(sorted_cards(held[seat]), trick[0][1].suit if trick else None,
                            trump, must_trump)
            card = rng.choice(hand)
            held[seat].discard(card)
            trick.append((seat, card))
        tricks.append(trick)
        leader = trick_winner(trick, trump)
    return tricks


def _play_tokens(rng: random.Random, tricks: list[list[tuple[Seat, Card]]], first: Seat,
                 stop: int | None, comments: bool) -> tuple[Token, ...]:
    """The play table: fixed seat columns from ``first`` (PBN §3.6), ``*`` after ``stop``."""
    out: list[Token] = []
    for n, trick in enumerate(tricks[:stop], 1):
        by_seat = dict(trick)
        for seat in first.rotation():
            note: tuple[Comment, ...] = ()
            if comments and n == 1 and seat is first:
                note = (Comment(rng.choice(_CARD_COMMENTS)),)
            out.append(Token(TokenKind.CARD, str(by_seat[seat]), comments=note))
    if stop is not None:
        out.append(Token(TokenKind.END, "*"))
    return tuple(out)


def _next_seating(seating: dict[Seat, str], last_dealer: Seat,
                  want: frozenset[frozenset[str]]) -> tuple[dict[Seat, str], Seat]:
    """R24: dealer and forehand keep their places, the other two swap; the first dealer of the
    new rubber is picked so that partners cycle through all three pairings."""
    for dealer in last_dealer.left.rotation():
        new = dict(seating)
        a, b = dealer.partner, dealer.right
        new[a], new[b] = seating[b], seating[a]
        if _pairing(new) == want:
            return new, dealer
    raise AssertionError("every pairing is reachable")  # pragma: no cover


def _pairing(seating: dict[Seat, str]) -> frozenset[frozenset[str]]:
    return frozenset(frozenset(seating[s] for s in side.seats) for side in Side)


def generate_partie(seed: int, spec: PartieSpec | None = None, *, rubbers: int | None = None,
                    first_board: int = 1) -> list[Record]:
    """A partie of ``spec.rubbers`` finished rubbers, every tag filled in as the writer puts it."""
    return list(iter_partie(seed, spec, rubbers=rubbers, first_board=first_board))


def iter_partie(seed: int, spec: PartieSpec | None = None, *, rubbers: int | None = None,
                first_board: int = 1) -> Iterator[Record]:
    """:func:`generate_partie` one record at a time, so a partie of 100,000 deals (the
    memory benchmarks) never has to be held whole."""
    spec = spec or PartieSpec()
    n_rubbers = spec.rubbers if rubbers is None else rubbers
    rng = random.Random(seed)
    opts = spec.options
    p = spec.players
    seating = {Seat.N: p[0], Seat.E: p[1], Seat.S: p[2], Seat.W: p[3]}
    cycle = [_pairing(seating),
             frozenset({frozenset({p[0], p[3]}), frozenset({p[1], p[2]})}),
             frozenset({frozenset({p[0], p[1]}), frozenset({p[2], p[3]})})]
    dealer = rng.choice(SEATS)
    board = first_board
    for r in range(1, n_rubbers + 1):
        if r > 1:
            seating, dealer = _next_seating(seating, dealer.right, cycle[(r - 1) % 3])
        state = RubberState.new()
        while not state.ended:
            rec, state = _one_deal(rng, spec, opts, seating, dealer, state, r, board)
            yield rec
            board += 1
            dealer = dealer.left  # R3


def _one_deal(rng: random.Random, spec: PartieSpec, opts: Options, seating: dict[Seat, str],
              dealer: Seat, state: RubberState, rubber: int, board: int
              ) -> tuple[Record, RubberState]:
    deal = random_deal(rng)
    forehand = dealer.left
    calls = random_auction(rng, forehand)
    final = next((c for s, c in reversed(calls) if c.is_bid), None)
    contract = contract_for(final)
    declarer = next((s for s, c in reversed(calls) if c.is_bid), None) \
        if contract.has_declarer else None
    leader = opening_leader(forehand, declarer, contract, opts)
    tricks = random_play(rng, deal, leader, contract.trump, opts.must_trump)
    won = {Side.NS: 0, Side.EW: 0}
    for t in tricks:
        won[trick_winner(t, contract.trump).side] += 1
    result = SidePoints(won[Side.NS], won[Side.EW])
    hon = honours(deal, contract, opts) or SidePoints()
    ds = score_deal(contract, declarer, result, hon)
    state, step = state.after(ds.total, ds.game, opts)
    stop = rng.randint(6, 12) if rng.random() < spec.claim_rate else None
    auction_tokens = tuple(Token(TokenKind.CALL, c.value) for _, c in calls)
    tags = [Tag("Event", spec.event), Tag("Site", spec.site), Tag("Date", spec.date),
            Tag("Rubber", str(rubber)), Tag("Board", str(board)),
            Tag("West", seating[Seat.W]), Tag("North", seating[Seat.N]),
            Tag("East", seating[Seat.E]), Tag("South", seating[Seat.S]),
            Tag("Dealer", dealer.value), Tag("Deal", deal.pbn(dealer)),
            Tag("Scoring", opts.scoring_tag()),
            Tag("Declarer", declarer.value if declarer else ""),
            Tag("Contract", contract.value), Tag("Result", str(result))]
    contract_comments: tuple[Comment, ...] = ()
    if spec.comments and rng.random() < 0.3:
        who = seat_name(declarer) if declarer else "ingen"
        contract_comments = (Comment(f"spelförare: {who}"),)
        tags[-2] = Tag("Contract", contract.value, comments=contract_comments)
    tags.append(Tag("Auction", forehand.value, section=Section(auction_tokens)))
    tags.append(Tag("Play", leader.value,
                    section=Section(_play_tokens(rng, tricks, leader, stop, spec.comments))))
    tags += [Tag("Score", str(ds.total)), Tag("Honours", str(hon)),
             Tag("ScoreRubber", str(state.totals))]
    if step.ended:
        tags.append(Tag("Settlement", format_settlement(settle(state.totals))))
    return Record(tuple(tags)), state


def generate_records(n: int, seed: int = 0, *, comments: bool = False,
                     options: Options = PRESETS["sv"]) -> list[Record]:
    """Exactly ``n`` records: whole parties of six rubbers, the last one cut short."""
    return list(iter_records(n, seed, comments=comments, options=options))


def iter_records(n: int, seed: int = 0, *, comments: bool = False,
                 options: Options = PRESETS["sv"], one_partie: bool = False) -> Iterator[Record]:
    """:func:`generate_records` lazily; ``one_partie`` makes all ``n`` records one partie
    (one Event, Site and Date: the worst case for memory)."""
    rng = random.Random(seed)
    if one_partie:
        players = _four(rng, FIRST_NAMES)
        spec = PartieSpec(players, rng.choice(EVENTS), rng.choice(SITES), "2026.01.01",
                          options=options, comments=comments)
        yield from itertools.islice(iter_partie(rng.randrange(2**32), spec, rubbers=n), n)
        return
    day = datetime.date(2026, 1, 1)
    made = 0
    k = 0
    while made < n:
        players = _four(rng, FIRST_NAMES)
        spec = PartieSpec(players, rng.choice(EVENTS), rng.choice(SITES),
                          (day + datetime.timedelta(days=k)).strftime("%Y.%m.%d"),
                          options=options, comments=comments)
        for rec in generate_partie(rng.randrange(2**32), spec):
            if made == n:
                return
            yield rec
            made += 1
        k += 1


def _four(rng: random.Random, names: Sequence[str]) -> tuple[str, str, str, str]:
    a, b, c, d = rng.sample(list(names), 4)
    return (a, b, c, d)
