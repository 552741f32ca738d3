"""Deterministic random Préférence parties: legal deals, auctions, drop-outs and play, true claims.

Auction, discard and play are made here independently of the validator's
replay; the payments use the engine's arithmetic (:mod:`.payments`), as the
Priffe generator uses its scoring. The same seed gives the same records.

>>> recs = generate_partie(3, deals=6)
>>> len(recs), recs[0].get("Scoring").split(";")[0]
(6, 'Preference')
>>> from priffe_records.rules.validate import validate
>>> [f for f in validate(recs) if f.is_error]
[]
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from priffe_records.format.record import Record, Section, Tag, Token, TokenKind
from priffe_records.game.cards import Card, Hand, Seat, Suit, sorted_cards
from priffe_records.game.tricks import playable, trick_winner
from priffe_records.rules.preference.bids import CONTRACTS, Bid, format_seat_numbers

from .deal import DECK
from .options import DEFAULT_OPTIONS, PrefOptions
from .payments import payments, settle
from .table import PLAYERS, from_seat, next_player

NAMES = ("Anna", "Bertil", "Cecilia", "Franz", "Gisela", "Johann", "Leopold", "Maria", "Theresia")
_TALON_BIDS = CONTRACTS[:4]
_HAND_BIDS = CONTRACTS[4:]


@dataclass(frozen=True, slots=True)
class PrefSpec:
    players: tuple[str, str, str] = ("Anna", "Bertil", "Cecilia")
    event: str = "Préférence i Graz"
    site: str = "Graz"
    date: str = "1911.02.04"
    deals: int = 12
    options: PrefOptions = DEFAULT_OPTIONS
    first_dealer: Seat = Seat.S


def _auction(rng: random.Random, eldest: Seat) -> tuple[list[Bid], Seat, Bid]:
    """Calls in the order made (P4–P6): passes, higher bids, holds, the forced dealer bid."""
    order = from_seat(eldest)
    passed: set[Seat] = set()
    high: Bid | None = None
    maker: Seat | None = None
    calls: list[Bid] = []
    turn = 0
    while True:
        seat = order[turn]
        forced = high is None and len(passed) == 2
        options = [b for b in CONTRACTS if high is None or b.outranks(high)]
        if high is not None and maker is not None and order.index(seat) < order.index(maker):
            options.insert(0, high)  # a hold (P5)
        if not forced and (not options or rng.random() < 0.45):
            calls.append(Bid.PASS)
            passed.add(seat)
        else:
            weights = [1 if b.is_hand else 6 - b.suit_value for b in options]
            bid = rng.choices(options, weights)[0]
            calls.append(bid)
            high, maker = bid, seat
        if len(passed) == 2 and high is not None:
            assert maker is not None
            return calls, maker, high
        for step in (1, 2, 3):
            if order[(turn + step) % 3] not in passed:
                turn = (turn + step) % 3
                break


def _contract(rng: random.Random, final: Bid) -> Bid:
    pool = _HAND_BIDS if final.is_hand else _TALON_BIDS
    return rng.choice([b for b in pool if b.suit_value >= final.suit_value])


def _play(rng: random.Random, hands: dict[Seat, list[Card]], seats: tuple[Seat, ...],
          trump: Suit, must_trump: bool) -> tuple[list[list[Card]], dict[Seat, int]]:
    """Ten legal random tricks; each row in column order (from the declarer)."""
    won = dict.fromkeys(seats, 0)
    rows: list[list[Card]] = []
    leader = seats[0]
    for _ in range(10):
        k = seats.index(leader)
        order = seats[k:] + seats[:k]
        played: dict[Seat, Card] = {}
        led: Suit | None = None
        for seat in order:
            held = hands[seat]
            card = rng.choice(playable(held, led, trump, must_trump))
            held.remove(card)
            played[seat] = card
            led = led or card.suit
        best = trick_winner([(seat, played[seat]) for seat in order], trump)
        won[best] += 1
        leader = best
        rows.append([played[s] for s in seats])
    return rows, won


def _tag(name: str, value: str) -> Tag:
    return Tag(name, value)


def generate_partie(seed: int, *, deals: int = 12, spec: PrefSpec | None = None
                    ) -> list[Record]:
    """A partie of ``deals`` legal deals with every claim correct."""
    rng = random.Random(seed)
    spec = spec or PrefSpec(deals=deals, first_dealer=rng.choice(PLAYERS),
                            options=PrefOptions(rng.choice((10, 10, 5)),
                                                rng.random() < 0.7))
    names = dict(zip(PLAYERS, spec.players, strict=True))
    opts = spec.options
    ante = opts.ante
    if ante is None:
        raise ValueError("a generated partie needs a known ante")
    pot = 0
    balance = dict.fromkeys(spec.players, 0)
    dealer = spec.first_dealer
    out: list[Record] = []
    for board in range(1, spec.deals + 1):
        cards = sorted_cards(DECK)
        rng.shuffle(cards)
        hands = {s: sorted_cards(cards[i * 10:(i + 1) * 10]) for i, s in enumerate(PLAYERS)}
        talon = cards[30:]
        eldest = next_player(dealer)
        calls, declarer, final = _auction(rng, eldest)
        contract = _contract(rng, final)
        discard: list[Card] = []
        play_hands = {s: list(h) for s, h in hands.items()}
        if not contract.is_hand:
            twelve = play_hands[declarer] + talon
            discard = rng.sample(twelve, 2)
            play_hands[declarer] = [c for c in twelve if c not in discard]
        defenders = [s for s in from_seat(declarer) if s is not declarer]
        r = rng.random()
        drop: list[Seat] = []
        if r < 0.2:
            drop = [rng.choice(defenders)]
        elif r < 0.27:
            drop = rng.sample(defenders, 2)
        elif r < 0.35:
            drop = [declarer]
        elif r < 0.4:
            drop = [rng.choice(defenders), declarer]
        gave_up = declarer in drop
        out_defs = tuple(s for s in drop if s is not declarer)
        no_play = gave_up or len(out_defs) == 2
        rows: list[list[Card]] = []
        tricks: dict[Seat, int] | None = None
        seats = tuple(s for s in from_seat(declarer) if s not in out_defs)
        if not no_play:
            assert contract.suit is not None
            rows, tricks = _play(rng, play_hands, seats, contract.suit, opts.must_trump)
        if pot == 0:
            pot = 3 * ante
            for n in spec.players:
                balance[n] -= ante
        pays = payments(dealer, declarer, tricks, out_defs, gave_up)
        assert pays is not None
        settled = settle(pays, pot)
        pot = settled.pot
        for s in PLAYERS:
            balance[names[s]] += settled.score[s]
        deal_text = f"{dealer.value}:" + " ".join(
            "-" if s is Seat.W else Hand(tuple(hands[s])).pbn() for s in dealer.rotation())
        tags = [_tag("Event", spec.event), _tag("Site", spec.site), _tag("Date", spec.date),
                _tag("Board", str(board)), _tag("North", names[Seat.N]),
                _tag("East", names[Seat.E]), _tag("South", names[Seat.S]),
                _tag("Dealer", dealer.value), _tag("Deal", deal_text),
                _tag("Talon", " ".join(str(c) for c in talon)),
                _tag("Scoring", opts.scoring()), _tag("Declarer", declarer.value),
                _tag("Contract", contract.value)]
        if discard:
            tags.append(_tag("Discard", " ".join(str(c) for c in discard)))
        if drop:
            tags.append(_tag("Dropout", " ".join(s.value for s in drop)))
        if tricks is not None:
            tags.append(_tag("Result", format_seat_numbers(
                {s.value: tricks[s] for s in seats}, scores=False)))
        tags.append(Tag("Auction", eldest.value, section=Section(tuple(
            Token(TokenKind.CALL, b.value) for b in calls))))
        if rows:
            tags.append(Tag("Play", declarer.value, section=Section(tuple(
                Token(TokenKind.CARD, str(c)) for row in rows for c in row))))
        tags.append(_tag("Score", format_seat_numbers(
            {s.value: settled.score[s] for s in PLAYERS}, scores=True)))
        tags.append(_tag("Pot", str(pot)))
        tags.append(_tag("Balance", format_seat_numbers(
            {s.value: balance[names[s]] for s in PLAYERS}, scores=True)))
        out.append(Record(tuple(tags)))
        dealer = next_player(dealer)
    return out
