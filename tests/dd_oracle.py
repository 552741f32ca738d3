"""A plain minimax for the double-dummy tests: every legal card tried, no pruning, no
equal-card runs, only a memo of solved positions; written on Card objects and apart
from priffe_records.dd so the two cannot share a mistake.

Also the random endings the tests and the benchmark draw: 2, 3 or 4 hands of up to
five cards from a few suits (so suits clash), mid-trick positions included.
"""

from __future__ import annotations

import random
from functools import lru_cache

from priffe_records.dd import Deal, Goal
from priffe_records.game.cards import SEATS, Card, Rank, Seat, Suit

Hands = tuple[tuple[Seat, frozenset[Card]], ...]


def _legal(hand: frozenset[Card], trick: tuple[Card, ...], trump: Suit | None,
           must_trump: bool) -> frozenset[Card]:
    if not trick:
        return hand
    same = frozenset(c for c in hand if c.suit is trick[0].suit)
    if same:
        return same
    trumps = frozenset(c for c in hand if c.suit is trump)
    return trumps if must_trump and trumps else hand


def _winner(trick: tuple[Card, ...], trump: Suit | None) -> int:
    trumps = [i for i, c in enumerate(trick) if c.suit is trump]
    pool = trumps or [i for i, c in enumerate(trick) if c.suit is trick[0].suit]
    return max(pool, key=lambda i: trick[i].rank.order)


class Oracle:
    """Brute force over one deal's positions.

    A position's hands are a tuple in the deal's order, so a player's hand is found by
    index (``_at``) and the player to move by a table of the order from each leader
    (``_turns``), not by searching the order: the minimax itself is the plain one.
    """

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.future = lru_cache(maxsize=None)(self._future)
        order = deal.order
        self._at = {s: i for i, s in enumerate(order)}
        self._turns = {s: order[i:] + order[:i] for i, s in enumerate(order)}

    def start(self, played: tuple[Card, ...] | None = None
              ) -> tuple[Hands, Seat, tuple[Card, ...], int]:
        """The position after ``played`` (``deal.played`` by default): hands left, leader,
        trick, tricks won."""
        d = self.deal
        hands = {s: set(d.hands[s]) for s in d.order}
        leader, trick, won = d.leader, (), 0
        for card in d.played if played is None else played:
            player = self.to_move(leader, trick)
            assert card in _legal(frozenset(hands[player]), trick, d.trump, d.must_trump)
            hands[player].remove(card)
            trick = (*trick, card)
            if len(trick) == len(d.order):
                leader = self.to_move(leader, trick[:_winner(trick, d.trump)])
                won += leader in d.side
                trick = ()
        return tuple((s, frozenset(hands[s])) for s in d.order), leader, trick, won

    def to_move(self, leader: Seat, trick: tuple[Card, ...]) -> Seat:
        turns = self._turns[leader]
        return turns[len(trick) % len(turns)]

    def moves(self, hands: Hands, leader: Seat, trick: tuple[Card, ...]) -> frozenset[Card]:
        player = self.to_move(leader, trick)
        return _legal(hands[self._at[player]][1], trick, self.deal.trump, self.deal.must_trump)

    def after(self, hands: Hands, leader: Seat, trick: tuple[Card, ...], card: Card) -> int:
        """The measured side's tricks from this trick on after ``card``, best play on."""
        d = self.deal
        player = self.to_move(leader, trick)
        i = self._at[player]
        rest = (*hands[:i], (player, hands[i][1] - {card}), *hands[i + 1:])
        trick = (*trick, card)
        if len(trick) < len(d.order):
            return self.future(rest, leader, trick)
        winner = self._turns[leader][_winner(trick, d.trump)]
        return (winner in d.side) + self.future(rest, winner, ())

    def _future(self, hands: Hands, leader: Seat, trick: tuple[Card, ...]) -> int:
        moves = self.moves(hands, leader, trick)
        if not moves:
            return 0
        values = [self.after(hands, leader, trick, c) for c in moves]
        player = self.to_move(leader, trick)
        most = (player in self.deal.side) == (self.deal.goal is Goal.MOST)
        return max(values) if most else min(values)

    def value(self, played: tuple[Card, ...] | None = None) -> int:
        hands, leader, trick, won = self.start(played)
        return won + self.future(hands, leader, trick)

    def card_values(self, played: tuple[Card, ...] | None = None) -> dict[Card, int]:
        hands, leader, trick, won = self.start(played)
        return {c: won + self.after(hands, leader, trick, c)
                for c in self.moves(hands, leader, trick)}


def random_ending(rng: random.Random, players: int | None = None,
                  tricks: int | None = None) -> Deal:
    """A random ending: hands from one to four suits, trumps or not, either goal, any
    measured side, must_trump or not, and a random legal part of its play already made."""
    n = players or rng.choice((2, 3, 4))
    t = tricks or rng.randint(1, 5)
    suits = rng.sample(list(Suit), rng.randint(max(1, -(-n * t // 13)), 4))
    deck = [Card(s, r) for s in suits for r in Rank]
    cards = rng.sample(deck, n * t)
    chosen = rng.sample(SEATS, n)
    order = tuple(s for s in SEATS if s in chosen)
    hands = {seat: frozenset(cards[i * t:(i + 1) * t]) for i, seat in enumerate(order)}
    side = frozenset(rng.sample(order, rng.randint(1, n - 1)))
    deal = Deal(hands, order, rng.choice([None, *suits]), rng.choice(order), side,
                rng.choice(list(Goal)), rng.random() < 0.5)
    return with_random_play(rng, deal, rng.randint(0, n * t))


def with_random_play(rng: random.Random, deal: Deal, count: int) -> Deal:
    """``deal`` with ``count`` more random legal cards played (fewer if the play ends)."""
    played = list(deal.played)
    oracle = Oracle(deal)
    for _ in range(count):
        hands, leader, trick, _ = oracle.start(tuple(played))
        moves = sorted(oracle.moves(hands, leader, trick), key=lambda c: c.sort_key)
        if not moves:
            break
        played.append(rng.choice(moves))
    return Deal(**{**deal.__dict__, "played": tuple(played)})


def ending(deal: Deal, tricks_done: int) -> Deal:
    """The ending of ``deal`` after its first ``tricks_done`` whole tricks: the hands left,
    the next leader, the rest of the play."""
    cut = tricks_done * len(deal.order)
    hands, leader, trick, _ = Oracle(deal).start(deal.played[:cut])
    assert not trick
    return Deal(**{**deal.__dict__, "hands": dict(hands), "leader": leader,
                   "played": deal.played[cut:]})
