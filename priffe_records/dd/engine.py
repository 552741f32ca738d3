"""The analysis's engine: a deal checked and replayed, each position answered by the own
search or by DDS, the backward sweep over the play and what it has found so far.

Everything of :mod:`priffe_records.dd` but the call that may hand the sweep to a worker
process (:func:`priffe_records.dd.analyse_play`): the worker runs :func:`steps` from
here, so neither module imports the other's importer (no import cycle).
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from priffe_records.dd import dds
from priffe_records.dd.core import (
    Exhausted,
    Search,
    groups,
    legal,
    live_cards,
)
from priffe_records.game.cards import SEATS, SUITS, Card, Seat, Suit
from priffe_records.game.errors import PriffeError
from priffe_records.game.language import Message, msg
from priffe_records.game.tricks import CARDS, card_id, cards_of, suit_index, winning_index
from priffe_records.game.words import card_name, seat_name, suit_name


class DDError(PriffeError, ValueError):
    """A deal the solver cannot take as given: a played card not in its player's hand,
    a card played against the follow rules, hands that do not fit together."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


class SearchLost(PriffeError, RuntimeError):
    """A search that ended without an answer: its worker process died (killed, out of
    memory) or failed. It costs only that deal's analysis."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


class Goal(enum.Enum):
    """What the measured side wants: most tricks (a positive contract) or fewest (misère)."""

    MOST = "most"
    FEWEST = "fewest"


@dataclass(frozen=True)
class Deal:
    """Everything the solver needs of one deal, nothing of a record.

    ``hands`` are the hands of the playing seats at the first card (``played`` cards
    included); ``order`` the playing seats clockwise; ``side`` the measured side;
    ``played`` the cards already played, in order, possibly ending mid-trick.
    """

    hands: Mapping[Seat, frozenset[Card]]
    order: tuple[Seat, ...]
    trump: Suit | None
    leader: Seat
    side: frozenset[Seat]
    goal: Goal
    must_trump: bool
    played: tuple[Card, ...] = ()


@dataclass(frozen=True)
class CardCost:
    """One played card: the tricks it gave away against the best card (>= 0, for the
    player's own side), and the best cards of its position; both None when the budget
    ran out before this card was reached. The best cards of a card that cost nothing are
    found after every card's cost (the replay does not show them), so they alone may be
    None when the budget ran out then."""

    seat: Seat
    card: Card
    trick: int
    cost: int | None
    best: frozenset[Card] | None


@dataclass(frozen=True)
class PlayAnalysis:
    """Every played card's cost in play order; ``par`` is the measured side's tricks with
    best play from the first card (None when the budget ran out before it);
    ``interrupted``: Ctrl-C stopped the search, not the budget."""

    par: int | None
    cards: tuple[CardCost, ...]
    complete: bool
    interrupted: bool = False


@dataclass(frozen=True)
class Progress:
    """How far a running :func:`analyse_play` is, for a waiting user: ``analysed`` of the
    ``cards`` played are known (the last ones: the play is solved backwards), every card
    from trick ``trick`` of ``tricks`` on (None while no trick is whole), after
    ``seconds`` of wall time."""

    analysed: int
    cards: int
    trick: int | None
    tricks: int
    seconds: float


@dataclass(frozen=True)
class Budget:
    """How much search one call may spend: nodes (deterministic, for tests) and/or
    seconds of wall time; None means no limit."""

    nodes: int | None = None
    seconds: float | None = None


def _cards(mask: int) -> frozenset[Card]:
    return frozenset(cards_of(mask))


@dataclass
class _Position:
    """A deal replayed up to some card: hands left, the trick on the table, tricks won."""

    hands: list[int]
    leader: int
    trick: list[int]
    won: int

    @property
    def mover(self) -> int:
        """The player to play the next card (an index into the play order)."""
        return (self.leader + len(self.trick)) % len(self.hands)


class _Game:
    """A Deal checked and turned into ids once, replayable to any prefix of its play."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.order = deal.order
        _check_hands(deal)
        self.inside = tuple(seat in deal.side for seat in deal.order)
        most = deal.goal is Goal.MOST
        self.wants_most = tuple(x == most for x in self.inside)
        self.trump = suit_index(deal.trump)
        start = [0] * len(deal.order)
        for i, seat in enumerate(deal.order):
            for card in deal.hands[seat]:
                start[i] |= 1 << card_id(card)
        self.positions = [_Position(start, deal.order.index(deal.leader), [], 0)]
        for card in deal.played:
            self.positions.append(self._after(self.positions[-1], card))

    def _after(self, pos: _Position, card: Card) -> _Position:
        n = len(self.order)
        player = pos.mover
        cid = card_id(card)
        hand = pos.hands[player]
        number = len(self.positions) // n + 1
        who = seat_name(self.order[player])
        if not hand >> cid & 1:
            raise DDError(msg("trick {n}: {who} plays {card}, which is not in {who}'s hand",
                              n=number, who=who, card=card_name(card)))
        allowed = legal(hand, pos.trick, self.trump, self.deal.must_trump)
        if not allowed >> cid & 1:
            raise DDError(_follow_fault(number, who, card, allowed, pos))
        hands = list(pos.hands)
        hands[player] ^= 1 << cid
        trick = [*pos.trick, cid]
        if len(trick) < n:
            return _Position(hands, pos.leader, trick, pos.won)
        winner = (pos.leader + winning_index(trick, self.trump)) % n
        return _Position(hands, winner, [], pos.won + self.inside[winner])

    def search(self, budget: Budget) -> Search:
        return Search(list(self.positions[0].hands), self.inside, self.wants_most, self.trump,
                      self.deal.must_trump, budget.nodes, budget.seconds)


def _follow_fault(n: int, who: Message, card: Card, allowed: int, pos: _Position) -> Message:
    """Why ``card`` may not be played: ``allowed`` holds the cards that could have been."""
    led = SUITS[pos.trick[0] // 13]
    held = CARDS[allowed.bit_length() - 1]
    if held.suit is led:
        return msg("trick {n}: {who} plays {card} while holding {held} — must follow {suit}",
                   n=n, who=who, card=card_name(card), held=card_name(held),
                   suit=suit_name(led))
    return msg("trick {n}: {who} plays {card} while holding {held} — cannot follow {suit}, so "
               "must trump", n=n, who=who, card=card_name(card), held=card_name(held),
               suit=suit_name(led))


def _check_hands(deal: Deal) -> None:
    """The hands fit together: the playing seats hold them, equally many, no card twice."""
    if set(deal.hands) != set(deal.order) or deal.leader not in deal.order:
        raise DDError(msg("the analysed play needs a hand for each playing seat "
                          "({seats}) and a leader among them",
                          seats=" ".join(s.value for s in deal.order)))
    sizes = {len(h) for h in deal.hands.values()}
    if len(sizes) != 1:
        raise DDError(msg("the hands of the analysed play must hold equally many cards, not "
                          "{sizes}", sizes=" ".join(str(len(deal.hands[s])) for s in deal.order)))
    seen: set[Card] = set()
    for seat in deal.order:
        twice = seen & deal.hands[seat]
        if twice:
            raise DDError(msg("{card} is in two hands of the analysed play",
                              card=card_name(min(twice, key=lambda c: c.sort_key))))
        seen |= deal.hands[seat]


class _Own:
    """Positions answered by the own search, one transposition table for the whole call."""

    def __init__(self, game: _Game, budget: Budget) -> None:
        self.search = game.search(budget)

    def value(self, pos: _Position, guess: int | None = None) -> int:
        """The position's value; ``guess`` (a whole-deal count) speeds it when close."""
        search = self.search
        search.hands = list(pos.hands)
        start = None if guess is None else guess - pos.won
        return pos.won + search.solve(pos.leader, pos.trick, start)

    def card_values(self, pos: _Position) -> dict[Card, int]:
        search = self.search
        search.hands = list(pos.hands)
        trick = list(pos.trick)
        left = search.tricks_left(pos.leader, trick)
        out: dict[Card, int] = {}
        if not left:
            return out
        for run in search.move_groups(pos.leader, trick):
            tricks = pos.won + search.play(pos.leader, trick, run.bit_length() - 1, 0, left)
            for card in _cards(run):
                out[card] = tricks
        return out

    def best_cards(self, pos: _Position, here: int, most: bool) -> frozenset[Card]:
        """The legal cards that keep the position's value ``here`` (null-window tests)."""
        search = self.search
        search.hands = list(pos.hands)
        trick = list(pos.trick)
        target = here - pos.won
        best = 0
        for run in search.move_groups(pos.leader, trick):
            card = run.bit_length() - 1
            if most:
                keeps = search.play(pos.leader, trick, card, target - 1, target) >= target
            else:
                keeps = search.play(pos.leader, trick, card, target, target + 1) <= target
            if keeps:
                best |= run
        return _cards(best)


    def analyse(self, pos: _Position, after: int, card: Card, most: bool
                ) -> tuple[int, frozenset[Card] | None]:
        """The position's value and best cards, knowing ``after``, the value once ``card``
        (the card played) is: one null-window search of each other run says whether it is
        better; only a better one (the card played cost a trick) needs the position
        solved in full and its best cards found. Else the best cards are None: proving
        each run as good (both bounds) costs more than the cost itself, so
        :func:`sweep` asks :meth:`best_cards` for them once every cost is known."""
        search = self.search
        search.hands = list(pos.hands)
        trick = list(pos.trick)
        target = after - pos.won
        cid = card_id(card)
        alpha, beta = (target, target + 1) if most else (target - 1, target)
        for run in search.move_groups(pos.leader, trick):
            if run >> cid & 1:
                continue
            found = search.play(pos.leader, trick, run.bit_length() - 1, alpha, beta)
            if (found > target) if most else (found < target):
                here = self.value(pos, after + (1 if most else -1))
                return here, self.best_cards(pos, here, most)
        return after, None


class _Dds:
    """Positions answered by DDS, one call each; the budget's seconds are looked at
    between two calls (its nodes are the own search's measure and do not apply)."""

    def __init__(self, game: _Game, budget: Budget) -> None:
        self.game = game
        self.deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds

    def card_values(self, pos: _Position) -> dict[Card, int]:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Exhausted
        if not any(pos.hands):
            return {}
        player = pos.mover
        left = pos.hands[player].bit_count()
        theirs = dds.card_values(pos.hands, pos.leader, pos.trick, self.game.trump)
        ours = self.game.inside[player]
        return {CARDS[cid]: pos.won + (tricks if ours else left - tricks)
                for cid, tricks in theirs.items()}

    def value(self, pos: _Position, guess: int | None = None) -> int:
        values = self.card_values(pos)
        if not values:
            return pos.won
        player = pos.mover
        return max(values.values()) if self.game.wants_most[player] else min(values.values())

    def analyse(self, pos: _Position, after: int, card: Card, most: bool
                ) -> tuple[int, frozenset[Card]]:
        """The position's value and best cards; DDS is not asked when the legal cards are
        all one run (a forced card costs nothing)."""
        player = pos.mover
        game = self.game
        moves = legal(pos.hands[player], pos.trick, game.trump, game.deal.must_trump)
        if len(groups(moves, live_cards(pos.hands, pos.trick))) == 1:
            return after, _cards(moves)
        values = self.card_values(pos)
        here = max(values.values()) if most else min(values.values())
        return here, frozenset(c for c, v in values.items() if v == here)

    def best_cards(self, pos: _Position, here: int, most: bool) -> frozenset[Card]:
        """The cards that keep ``here``: for a resumed deal whose stored analysis, made
        by the own search, left them open."""
        return frozenset(c for c, v in self.card_values(pos).items() if v == here)


Solver = Literal["auto", "own"]


def _solver(game: _Game, budget: Budget, solver: Solver) -> _Own | _Dds:
    """DDS for bridge-shaped play when endplay is installed (``auto``), else the own search."""
    deal = game.deal
    if solver == "auto" and dds.available() and dds.fits(
            len(deal.order) == 4, deal.order == SEATS, deal.goal is Goal.MOST,
            deal.must_trump, deal.side in (_NS, _EW)):
        return _Dds(game, budget)
    return _Own(game, budget)


_NS = frozenset({Seat.N, Seat.S})
_EW = frozenset({Seat.E, Seat.W})


def value(deal: Deal, budget: Budget = Budget(), *, solver: Solver = "auto") -> int | None:
    """The measured side's tricks in the whole deal with best play from the position after
    ``deal.played``; None when the budget ran out first. ``solver="own"`` keeps DDS out."""
    game = _Game(deal)
    try:
        return _solver(game, budget, solver).value(game.positions[-1])
    except Exhausted:
        return None


def card_values(deal: Deal, budget: Budget = Budget(), *, solver: Solver = "auto"
                ) -> Mapping[Card, int] | None:
    """Each legal card of the player to move -> the measured side's tricks in the whole deal
    after it, with best play on; empty when the play is over, None when the budget ran out."""
    game = _Game(deal)
    try:
        return _solver(game, budget, solver).card_values(game.positions[-1])
    except Exhausted:
        return None


# What an earlier sweep found: a card's index in the play -> its cost and best cards (a
# mask, None: not found yet).
Done = Mapping[int, tuple[int, int | None]]


def _resumed(cards: Sequence[CardCost], played: int) -> dict[int, tuple[int, int | None]]:
    """The earlier analysis's cards the sweep can build on: the unbroken run of analysed
    cards that ends with the last one (the sweep goes backwards, so that is all a partial
    analysis holds); nothing when it is of another play."""
    if len(cards) != played:
        return {}
    done: dict[int, tuple[int, int | None]] = {}
    for i in range(played - 1, -1, -1):
        cost = cards[i].cost
        if cost is None:
            break
        done[i] = (cost, _mask(cards[i].best))
    return done


def begin(deal: Deal, progress: Callable[[Progress], None] | None,
          known: Sequence[CardCost]) -> tuple[Known, Done]:
    """A sweep's start: what it will have found (nothing yet, the clock started) and
    what ``known``, an earlier partial analysis of the same play, gives it."""
    return (Known(_Game(deal), time.perf_counter(), progress),
            _resumed(known, len(deal.played)))


def sweep_here(found: Known, budget: Budget, solver: Solver, every_best: bool,
               done: Done) -> None:
    """:func:`sweep` in this process, each step into ``found`` as it comes."""
    game = found.game
    for step in sweep(game, _solver(game, budget, solver), every_best, done):
        found.add(step)


def steps(deal: Deal, budget: Budget, solver: Solver, every_best: bool = True,
          done: Done | None = None) -> Iterator[Step]:
    """:func:`sweep` of ``deal`` on its own engine: what a worker process runs."""
    game = _Game(deal)
    return sweep(game, _solver(game, budget, solver), every_best, done)


# One result of the backward sweep: a card's index in the play, its cost and best cards
# (a mask; None: found later); index -1 for the deal's par (in the cost's place).
Step = tuple[int, int, int | None]


def sweep(game: _Game, engine: _Own | _Dds, every_best: bool = True,
          done: Done | None = None) -> Iterator[Step]:
    """The play's cards from the last back to the first, each as soon as its cost is
    known, then the par, then (``every_best``) the best cards the costs left open (of
    cards that cost nothing, the late ones first); stops with ``Exhausted`` when the
    budget runs out. A card in ``done`` (an earlier sweep's) is not searched again: its
    cost gives the value before it from the value after it."""
    deal = game.deal
    done = done or {}
    after = engine.value(game.positions[len(deal.played)])
    open_: list[tuple[int, int, bool]] = []
    for i in range(len(deal.played) - 1, -1, -1):
        pos = game.positions[i]
        most = game.wants_most[pos.mover]
        if i in done:
            cost, best = done[i]
            here = after + cost if most else after - cost
        else:
            here, cards = engine.analyse(pos, after, deal.played[i], most)
            cost, best = (here - after if most else after - here), _mask(cards)
        yield i, cost, best
        if best is None:
            open_.append((i, here, most))
        after = here
    yield -1, after, 0
    for i, here, most in open_ if every_best else ():
        yield i, 0, _mask(engine.best_cards(game.positions[i], here, most))


def _mask(cards: frozenset[Card] | None) -> int | None:
    return None if cards is None else sum(1 << card_id(c) for c in cards)


@dataclass
class Known:
    """What a sweep has found so far, turned into the :class:`PlayAnalysis` at any time."""

    game: _Game
    started: float
    progress: Callable[[Progress], None] | None
    costs: dict[int, tuple[int, int | None]] = field(default_factory=dict)
    par: int | None = None
    interrupted: bool = False

    def add(self, step: Step) -> None:
        index, cost, best = step
        if index < 0:
            self.par = cost
        else:
            self.costs[index] = (cost, best)
        self.tell()

    def tell(self) -> None:
        """Call ``progress`` with where the sweep is."""
        if self.progress is None:
            return
        n = len(self.game.order)
        played = len(self.game.deal.played)
        first = min(self.costs, default=played)  # the sweep knows every card from here on
        whole = -(-first // n) + 1  # the first trick of which every card is known
        tricks = -(-played // n)
        self.progress(Progress(len(self.costs), played, whole if whole <= tricks else None,
                               tricks, time.perf_counter() - self.started))

    def analysis(self) -> PlayAnalysis:
        deal = self.game.deal
        n = len(deal.order)
        cards = []
        for i, card in enumerate(deal.played):
            pos = self.game.positions[i]
            seat = deal.order[pos.mover]
            cost, best = self.costs.get(i, (None, None))
            cards.append(CardCost(seat, card, i // n + 1, cost,
                                  None if best is None else _cards(best)))
        complete = self.par is not None
        return PlayAnalysis(self.par, tuple(cards), complete, self.interrupted and not complete)
