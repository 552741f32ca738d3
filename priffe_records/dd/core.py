"""The double-dummy search itself: alpha-beta over bitmask positions, family-free.

A card is an id ``suit * 13 + rank`` (suits in PBN order S H D C, rank 0 = two … 12 =
ace), a hand an ``int`` with one bit per card, so a position is a handful of ints that
hash fast for the transposition table. The players are indices into the play order;
the search counts the measured side's tricks and knows only who is on that side and
who wants more of them.
"""

from __future__ import annotations

import time

SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
NO_TRUMP = -1
_CHECK_EVERY = 1024  # nodes between two looks at the clock


class Exhausted(Exception):
    """The budget ran out before the search ended; the caller answers "not known"."""


def trick_winner(trick: list[int], trump: int) -> int:
    """Index within ``trick`` (led card first) of the card that wins it: the highest trump,
    else the highest card of the suit led."""
    best = trick[0]
    best_suit = best // 13
    at = 0
    for i in range(1, len(trick)):
        card = trick[i]
        suit = card // 13
        if suit == best_suit:
            if card > best:
                best, at = card, i
        elif suit == trump:
            best, best_suit, at = card, suit, i
    return at


def legal(hand: int, trick: list[int], trump: int, must_trump: bool) -> int:
    """The cards of ``hand`` that may be played to ``trick``: follow suit when able, and with
    ``must_trump`` trump when unable to follow and holding a trump."""
    if not trick:
        return hand
    same = hand & SUIT_MASKS[trick[0] // 13]
    if same:
        return same
    if must_trump and trump != NO_TRUMP and hand & SUIT_MASKS[trump]:
        return hand & SUIT_MASKS[trump]
    return hand


_GROUPS: dict[tuple[int, int], tuple[int, ...]] = {}


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
    _GROUPS[key] = out = tuple(runs)
    return out


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


def top_card(mask: int) -> int:
    """The highest card id of a non-empty mask."""
    return mask.bit_length() - 1


class Search:
    """One deal's search: the hands (mutated while searching, restored after), the
    transposition table of tricks-to-come bounds at each trick's start, and the budget."""

    def __init__(self, hands: list[int], inside: tuple[bool, ...], wants_most: tuple[bool, ...],
                 trump: int, must_trump: bool, nodes: int | None = None,
                 seconds: float | None = None) -> None:
        self.hands = hands
        self.n = len(hands)
        self.inside = tuple(int(x) for x in inside)
        self.wants_most = wants_most
        self.trump = trump
        self.must_trump = must_trump
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
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
        out = 0
        for hand in self.hands:
            out |= hand
        for card in trick:
            out |= 1 << card
        return out

    def move_groups(self, leader: int, trick: list[int]) -> list[int]:
        """The legal moves of the player to move, as runs of equal cards."""
        player = (leader + len(trick)) % self.n
        moves = legal(self.hands[player], trick, self.trump, self.must_trump)
        return groups(moves, self.live(trick))

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
        if trick:
            return self._best(leader, trick, alpha, beta)
        hands = self.hands
        left = hands[leader].bit_count()
        if left == 0:
            return 0
        key = (leader, *hands)
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

    def _best(self, leader: int, trick: list[int], alpha: int, beta: int) -> int:
        player = (leader + len(trick)) % self.n
        most = self.wants_most[player]
        best = -1 if most else 1 << 30
        for run in self.move_groups(leader, trick):
            value = self.play(leader, trick, top_card(run), alpha, beta)
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

    def tricks_left(self, leader: int, trick: list[int]) -> int:
        """Tricks not yet complete, the current one included."""
        return self.hands[(leader + len(trick)) % self.n].bit_count()
