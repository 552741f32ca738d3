"""The double-dummy search itself: alpha-beta over bitmask positions, family-free.

A card is an id ``suit * 13 + rank`` (suits in PBN order S H D C, rank 0 = two … 12 =
ace), a hand an ``int`` with one bit per card, so a position is a handful of ints that
hash fast for the transposition table. The players are indices into the play order;
the search counts the measured side's tricks and knows only who is on that side and
who wants more of them.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from priffe_records.game.memo import Memo
from priffe_records.game.tricks import SUIT_BITS, legal_mask, winning_index

# Cython compiles this file as it is (setup.py); it needs the statement `import cython`.
if TYPE_CHECKING:
    from priffe_records.dd import shadow as cython
else:
    try:
        import cython
    except ModuleNotFoundError:  # no Cython here: its names as plain Python
        from priffe_records.dd import shadow as cython

COMPILED: bool = cython.compiled  # True in the module the build compiled

_CHECK_EVERY = 1024  # nodes between two looks at the clock


class Exhausted(Exception):
    """The budget ran out before the search ended; the caller answers "not known"."""


_WINNERS: Memo[tuple[int, ...], int] = Memo(1 << 16)


def trick_winner(trick: list[int], trump: int) -> int:
    """game.tricks' winning_index, remembered: the search asks about the same few
    thousand tricks again and again."""
    key = (trump, *trick)
    at = _WINNERS.get(key)
    return _WINNERS.keep(key, winning_index(trick, trump)) if at is None else at


def legal(hand: int, trick: list[int], trump: int, must_trump: bool) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (game.tricks' rule)."""
    return legal_mask(hand, trick[0] // 13 if trick else -1, trump, must_trump)


_GROUPS: Memo[tuple[int, int], tuple[int, ...]] = Memo(1 << 16)


def _suit_groups(mine: int, live: int) -> tuple[int, ...]:
    """One suit's cards of one hand (13-bit ``mine``) cut into runs with no other live card
    between them, highest run first: the cards of a run are worth the same."""
    key = (mine, live)
    hit = _GROUPS.get(key)
    if hit is not None:
        return hit
    runs: list[int] = []
    run = 0
    for rank in range(12, -1, -1):
        bit = 1 << rank
        if not live & bit:
            continue
        if mine & bit:
            run |= bit
        elif run:
            runs.append(run)
            run = 0
    if run:
        runs.append(run)
    return _GROUPS.keep(key, tuple(runs))


def groups(moves: int, live: int) -> list[int]:
    """``moves`` cut into runs of equal cards (each a mask), given the ``live`` cards still
    in hands or on the table; runs of a suit highest first."""
    out: list[int] = []
    for suit in range(4):
        shift = 13 * suit
        mine = (moves >> shift) & 0x1FFF
        if mine:
            out.extend(run << shift for run in _suit_groups(mine, (live >> shift) & 0x1FFF))
    return out


def live_cards(hands: list[int], trick: list[int]) -> int:
    """Every card still in a hand or on the table."""
    out = 0
    for hand in hands:
        out |= hand
    for card in trick:
        out |= 1 << card
    return out


def top_card(mask: int) -> int:
    """The highest card id of a non-empty mask."""
    return mask.bit_length() - 1


_CODES: Memo[int, int] = Memo(1 << 16)


def _suit_code(packed: int, n: int) -> int:
    """Who holds each live card of one suit, highest first, as base-(n+1) digits: the
    suit's shape with the cards already gone squeezed out (rank equivalence)."""
    code = 0
    for rank in range(12, -1, -1):
        for player in range(n):
            if packed >> (13 * (n - 1 - player) + rank) & 1:
                code = code * (n + 1) + player + 1
                break
    return code


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class Search:
    """One deal's search: the hands (mutated while searching, restored after), the
    transposition table of tricks-to-come bounds at each trick's start, and the budget.

    The table's key is the position up to rank equivalence: two positions whose suits
    differ only in cards already played (every live card keeping its holder and its
    order) have the same value, so one entry serves both.
    """

    def __init__(self, hands: list[int], inside: tuple[bool, ...], wants_most: tuple[bool, ...],
                 trump: int, must_trump: bool, nodes: int | None = None,
                 seconds: float | None = None) -> None:
        self.hands = hands
        self.n = len(hands)
        self.inside = tuple(int(x) for x in inside)
        self.wants_most = wants_most
        # MOST: every player wants his own side to win tricks; FEWEST: to lose them
        self.ducking = wants_most[0] != bool(inside[0])
        self.trump = trump
        self.must_trump = must_trump
        self.table: dict[int, tuple[int, int]] = {}
        self.nodes = 0
        self.node_limit = nodes
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.check_at = 0

    def _check(self) -> None:
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise Exhausted
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Exhausted
        step = self.nodes + _CHECK_EVERY
        if self.node_limit is not None:
            step = min(step, self.node_limit + 1)
        self.check_at = step

    def live(self, trick: list[int]) -> int:
        """Every card still in a hand or on the table."""
        return live_cards(self.hands, trick)

    def move_groups(self, leader: int, trick: list[int]) -> list[int]:
        """The legal moves of the player to move, as runs of equal cards."""
        player = (leader + len(trick)) % self.n
        moves = legal(self.hands[player], trick, self.trump, self.must_trump)
        return groups(moves, self.live(trick))

    def key(self, leader: int) -> int:
        """The table's key of the position at a trick's start led by ``leader``."""
        n = self.n
        key = leader
        codes = _CODES
        for shift in (0, 13, 26, 39):
            packed = n
            for hand in self.hands:
                packed = (packed << 13) | ((hand >> shift) & 0x1FFF)
            code = codes.get(packed)
            if code is None:
                code = codes.keep(packed, _suit_code(packed, n))
            key = (key << 40) | code
        return key

    def play(self, leader: int, trick: list[int], card: int, alpha: int, beta: int) -> int:
        """The measured side's tricks from the current trick on after ``card`` is played."""
        n = self.n
        player = (leader + len(trick)) % n
        bit = 1 << card
        self.hands[player] ^= bit
        trick.append(card)
        try:
            if len(trick) == n:
                winner = (leader + trick_winner(trick, self.trump)) % n
                won = self.inside[winner]
                return won + self.future(winner, [], alpha - won, beta - won)
            return self.future(leader, trick, alpha, beta)
        finally:
            trick.pop()
            self.hands[player] |= bit

    def future(self, leader: int, trick: list[int], alpha: int, beta: int) -> int:
        """The measured side's tricks from the current trick on with best play by all,
        fail-soft alpha-beta within (alpha, beta)."""
        self.nodes += 1
        if self.nodes >= self.check_at:
            self._check()
        hands = self.hands
        if trick:
            return self._best(leader, trick, alpha, beta)
        left = hands[leader].bit_count()
        if left <= 1:
            return self._last_trick(leader) if left else 0
        key = self.key(leader)
        lo, hi = self.table.get(key, (0, left))
        if lo >= beta:
            return lo
        if hi <= alpha or lo == hi:
            return hi
        a, b = max(alpha, lo), min(beta, hi)
        value = self._best(leader, trick, a, b)
        if value <= a:
            hi = value
        elif value >= b:
            lo = value
        else:
            lo = hi = value
        self.table[key] = (lo, hi)
        return value

    def _last_trick(self, leader: int) -> int:
        """One card each: the trick plays itself."""
        n = self.n
        trick = [self.hands[(leader + i) % n].bit_length() - 1 for i in range(n)]
        return self.inside[(leader + trick_winner(trick, self.trump)) % n]

    def ordered(self, leader: int, trick: list[int]) -> list[int]:
        """The player to move's candidate cards, one per run of equal cards, likeliest best
        first: in a positive game a cheap winner unless the own side already wins the
        trick; in misère (everyone ducks) the highest card that loses, and leads the other
        side must overtake before low leads."""
        n = self.n
        k = len(trick)
        player = (leader + k) % n
        moves = legal(self.hands[player], trick, self.trump, self.must_trump)
        if not moves & (moves - 1):
            return [moves.bit_length() - 1]
        runs = groups(moves, self.live(trick))
        if len(runs) == 1:
            return [top_card(runs[0])]
        if k == 0:
            return self._leads(player, runs)
        scored: list[tuple[int, int]] = []
        at = trick_winner(trick, self.trump)
        best = trick[at]
        best_suit = best // 13
        ours = self.inside[(leader + at) % n] == self.inside[player]
        ducking = self.ducking
        trump = self.trump
        for run in runs:
            card = top_card(run)
            suit = card // 13
            rank = card % 13
            wins = (card > best) if suit == best_suit else suit == trump
            if ducking:
                score = 100 + rank if not wins else -rank
            elif ours:
                score = -rank - (50 if wins else 0)
            else:
                score = 100 - rank if wins else -rank
            scored.append((score, card if not wins else _lowest(run)))
        scored.sort(reverse=True)
        return [card for _, card in scored]

    def _leads(self, player: int, runs: list[int]) -> list[int]:
        """Leads in order: positive, high first; misère, low first, and first of all a
        card some player of the other side must overtake (he holds only higher ones)."""
        if not self.ducking:
            return sorted((top_card(run) for run in runs), key=lambda c: -(c % 13))
        mine = self.inside[player]
        scored = []
        for run in runs:
            card = _lowest(run)
            suit_mask = SUIT_BITS[card // 13]
            forced = 0
            for other in range(self.n):
                held = self.hands[other] & suit_mask
                if self.inside[other] != mine and held and _lowest(held) > card:
                    forced = 50
            scored.append((forced - card % 13, card))
        scored.sort(reverse=True)
        return [card for _, card in scored]

    def _best(self, leader: int, trick: list[int], alpha: int, beta: int) -> int:
        n = self.n
        k = len(trick)
        player = (leader + k) % n
        most = self.wants_most[player]
        hands = self.hands
        best = -1 if most else 1 << 30
        for card in self.ordered(leader, trick):
            bit = 1 << card
            hands[player] ^= bit
            trick.append(card)
            if k + 1 == n:
                winner = (leader + trick_winner(trick, self.trump)) % n
                trick.pop()
                won = self.inside[winner]
                value = won + self.future(winner, [], alpha - won, beta - won)
            else:
                value = self.future(leader, trick, alpha, beta)
                trick.pop()
            hands[player] |= bit
            if most:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def solve(self, leader: int, trick: list[int], guess: int | None = None) -> int:
        """The exact tricks-to-come by null-window searches converging from ``guess``
        (MTD(f)): each proves a bound with the fewest nodes, and the table keeps it; a
        good guess (the value after the next card, in a backward sweep) needs two."""
        lo, hi = 0, self.tricks_left(leader, trick)
        value = hi // 2 if guess is None else min(max(guess, lo), hi)
        while lo < hi:
            beta = max(value, lo + 1)
            value = self.future(leader, list(trick), beta - 1, beta)
            if value < beta:
                hi = value
            else:
                lo = value
        return lo

    def tricks_left(self, leader: int, trick: list[int]) -> int:
        """Tricks not yet complete, the current one included."""
        return self.hands[(leader + len(trick)) % self.n].bit_count()
