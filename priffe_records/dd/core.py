# cython: annotation_typing=False, boundscheck=False, wraparound=False
# cython: cdivision=True, initializedcheck=False
"""The double-dummy search itself: alpha-beta over bitmask positions, family-free.

A card is an id ``suit * 13 + rank`` (suits in PBN order S H D C, rank 0 = two … 12 =
ace), a hand an ``int`` with one bit per card. The players are indices into the play
order; the search counts the measured side's tricks and knows only who is on that side
and who wants more of them.

One source, two ways to run: as Python, and compiled by Cython in pure-Python mode
(``@cython.locals`` give the locals C types; annotations are for mypy only, hence
``annotation_typing=False``). The inner search touches only C integers and arrays, so
compiled it runs without Python objects; everything a caller sees is plain Python.
"""

from __future__ import annotations

import time
from array import array
from typing import TYPE_CHECKING

# Cython compiles this file as it is (setup.py); it needs the statement `import cython`.
if TYPE_CHECKING:
    from priffe_records.dd import shadow as cython
else:
    try:
        import cython
    except ModuleNotFoundError:  # no Cython here: its names as plain Python
        from priffe_records.dd import shadow as cython

from priffe_records.game.tricks import beat_table, legal_mask

COMPILED: bool = cython.compiled  # True in the module the build compiled

# C constants compiled (a plain module name would be a Python object looked up each time)
_CHECK_EVERY = cython.declare(cython.int, 1024)  # nodes between two looks at the clock
_SUIT = cython.declare(cython.int, 0x1FFF)  # one suit's 13 bits
_PROBES = cython.declare(cython.int, 16)  # table slots tried from a key's home slot
_FIRST_SLOTS = cython.declare(cython.longlong, 1 << 14)
_MOST_SLOTS = cython.declare(cython.longlong, 1 << 22)  # 100 MB at most (24 B a slot)
_DEPTH = cython.declare(cython.int, 16)  # slots of the move buffer per ply (13 cards at most)
_CUTS = cython.declare(cython.longlong, 1 << 16)  # slots of the cutoff cache
_OFTEN = cython.declare(cython.int, 8000)  # lead cut-offs a card's history counts up to
_NONE = cython.declare(cython.int, -1)  # no node limit / no deadline
_ONE = cython.declare(cython.ulonglong, 1)
_SUITS = cython.declare(cython.ulonglong, _SUIT)
_ALL = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
_MIX = cython.declare(tuple, (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F))  # odd multipliers
_M0 = cython.declare(cython.ulonglong, _MIX[0])
_M1 = cython.declare(cython.ulonglong, _MIX[1])


class Exhausted(Exception):
    """The budget ran out before the search ended; the caller answers "not known"."""


def legal(hand: int, trick: list[int], trump: int, must_trump: bool) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (game.tricks' rule)."""
    return legal_mask(hand, trick[0] // 13 if trick else -1, trump, must_trump)


# The index of a 64-bit word's highest bit by its De Bruijn product (x folded down first).
_DE_BRUIJN = cython.declare(cython.ulonglong, 0x03F79D71B4CB0A89)
_BIT_AT = cython.declare(cython.uchar[64], [
    0, 47, 1, 56, 48, 27, 2, 60, 57, 49, 41, 37, 28, 16, 3, 61, 54, 58, 35, 52, 50, 42, 21,
    44, 38, 32, 29, 23, 17, 11, 4, 62, 46, 55, 26, 59, 40, 36, 15, 53, 34, 51, 20, 43, 31,
    22, 10, 45, 25, 39, 14, 33, 19, 30, 9, 24, 13, 18, 8, 12, 7, 6, 5, 63])


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
@cython.locals(x=cython.ulonglong)
@cython.returns(cython.int)
def _top(x: int) -> int:
    """The index of the highest bit of a non-zero ``x`` (``bit_length() - 1``); compiled,
    without a branch."""
    if not cython.compiled:
        return x.bit_length() - 1
    x |= x >> 1
    x |= x >> 2
    x |= x >> 4
    x |= x >> 8
    x |= x >> 16
    x |= x >> 32
    return _BIT_AT[(x * _DE_BRUIJN) >> 58]


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
@cython.locals(x=cython.ulonglong)
@cython.returns(cython.int)
def _low(x: int) -> int:
    """The index of the lowest bit of a non-zero ``x``."""
    return _top(x & (~x + 1))


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
@cython.locals(mine=cython.uint, others=cython.uint, low=cython.uint, stop=cython.uint)
@cython.returns(cython.uint)
def _low_run(mine: int, others: int) -> int:
    """The lowest run of ``mine`` (a non-empty 13-bit suit): its lowest card and the cards
    above it up to the next card of ``others``, all worth the same (bit tricks, no
    branch)."""
    low = mine & (~mine + 1)
    stop = others & ~(low - 1)
    return mine & ((stop & (~stop + 1)) - 1)


def groups(moves: int, live: int) -> list[int]:
    """``moves`` cut into runs of equal cards (each a mask), given the ``live`` cards still
    in hands or on the table; runs of a suit highest first."""
    out: list[int] = []
    for suit in range(4):
        shift = 13 * suit
        mine = (moves >> shift) & _SUIT
        others = (live >> shift) & _SUIT & ~mine
        runs: list[int] = []
        while mine:
            run = _low_run(mine, others)
            runs.append(run << shift)
            mine ^= run
        out.extend(reversed(runs))
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


@cython.cfunc
@cython.exceptval(check=False)
@cython.locals(packed=cython.ulonglong, live=cython.uint, low=cython.uint, j=cython.int,
               p=cython.int, out=cython.ulonglong)
@cython.returns(cython.ulonglong)
def _squeeze_suit(packed: int) -> int:
    """One suit's shape with the cards no one holds squeezed out: from its holdings (13
    bits a player, four players) the holder of each live card, lowest first, two bits
    each, and above them (bit 26) how many there are: 30 bits."""
    live = (packed | packed >> 13 | packed >> 26 | packed >> 39) & _SUIT
    out = 0
    j = 0
    while live:
        low = live & (~live + 1)
        for p in range(4):
            if (packed >> (13 * p)) & low:
                out |= (_ONE * p) << (2 * j)
                break
        j += 1
        live ^= low
    return out | (_ONE * j) << 26


def _slots(count: int, fill: int, code: str) -> array[int]:
    return array(code, [fill]) * count


@cython.final
@cython.cclass
class Search:
    """One deal's search: the hands, the transposition table of tricks-to-come bounds at
    each trick's start, and the budget.

    ``hands`` (a list, one mask a player) is the position the public methods start from;
    they copy it into C storage, search there and leave it as it was.

    The table's key is the position up to rank equivalence: two positions whose suits
    differ only in cards already played (every live card keeping its holder and its
    order) have the same value, so one entry serves both. The key is each suit's shape
    (who holds its lowest live card, the next, …) and the leader, two 64-bit words kept
    whole in open-addressed arrays (no Python objects) with the bounds, the card that was
    best (tried first when the position comes again) and the tricks left.
    ``slots`` (first, most) sizes the table: it doubles while half full; once at ``most``
    a new entry takes the place of the entry near its home slot whose search took the
    fewest nodes, the one that saves the least search.

    The move ordering learns too: a cutoff cache keeps, for a player's hand in a spot of a
    trick, the card that last cut the search off there, and tries it first next time; a
    history counts each player's leads that cut off.
    """

    hands = cython.declare(list, visibility="public")
    nodes = cython.declare(cython.longlong, visibility="public")
    n = cython.declare(cython.int)
    trump = cython.declare(cython.int)
    must_trump = cython.declare(cython.bint)
    ducking = cython.declare(cython.bint)
    plain = cython.declare(cython.bint)  # misère with no trump: ``_gives`` holds
    inside = cython.declare(cython.int)  # bit i: player i is of the measured side
    most = cython.declare(cython.int)  # bit i: player i wants the side's tricks many
    node_limit = cython.declare(cython.longlong)
    check_at = cython.declare(cython.longlong)
    deadline = cython.declare(cython.double)
    h = cython.declare(cython.ulonglong[4])
    left = cython.declare(cython.int)  # tricks not complete, the current one included
    at = cython.declare(cython.int)  # which card of the current trick wins it so far
    tc = cython.declare(cython.int[60])  # each trick's cards at 4 * (tricks left)
    key = cython.declare(cython.ulonglong[2])
    shapes = cython.declare(cython.ulonglong[:])  # each suit's shape by its live cards
    held = cython.declare(cython.ulonglong[4])  # every card each player's shapes saw
    buf = cython.declare(cython.int[:])
    keys = cython.declare(cython.ulonglong[:])  # a slot: the key (2), lo|hi|card|left|work
    best_card = cython.declare(cython.int)  # what _moves found best
    slots = cython.declare(cython.longlong)
    most_slots = cython.declare(cython.longlong)  # the table grows up to this many
    used = cython.declare(cython.longlong)
    cut_tags = cython.declare(cython.ulonglong[:])  # the cutoff cache: a context's hash
    cut_cards = cython.declare(cython.int[:])  # and the card that last cut off in it
    cut_slot = cython.declare(cython.longlong[64])  # each ply's context: slot and hash
    cut_tag = cython.declare(cython.ulonglong[64])
    often = cython.declare(cython.int[256])  # 64 * player + card: its lead cut-offs
    beat = cython.declare(cython.uchar[52][52])  # game.tricks' beat_table(trump): 2.7 kB

    def __init__(self, hands: list[int], inside: tuple[bool, ...], wants_most: tuple[bool, ...],
                 trump: int, must_trump: bool, nodes: int | None = None,
                 seconds: float | None = None, slots: tuple[int, int] | None = None) -> None:
        self.hands = hands
        self.n = len(hands)
        self.inside = sum(1 << i for i, x in enumerate(inside) if x)
        self.most = sum(1 << i for i, x in enumerate(wants_most) if x)
        # MOST: every player wants his own side to win tricks; FEWEST: to lose them
        self.ducking = wants_most[0] != bool(inside[0])
        self.trump = trump
        self.beat = [list(row) for row in beat_table(trump)]
        self.must_trump = must_trump
        self.plain = self.ducking and trump < 0
        self.nodes = 0
        self.node_limit = _NONE if nodes is None else nodes
        self.deadline = _NONE if seconds is None else time.perf_counter() + seconds
        self.check_at = 0
        self.h = [0, 0, 0, 0]
        self.left = self.at = 0
        self.tc = [0] * 60
        self.key = [0, 0]
        self.shapes = _slots(4 << 13, 0, "Q")
        self.held = [0, 0, 0, 0]
        self.best_card = -1
        self.cut_tags = _slots(_CUTS, 0, "Q")
        self.cut_cards = _slots(_CUTS, -1, "i")
        self.cut_slot = [-1] * 64
        self.cut_tag = [0] * 64
        self.often = [0] * 256
        self.buf = _slots(_DEPTH * 53, 0, "i")
        first, self.most_slots = (_FIRST_SLOTS, _MOST_SLOTS) if slots is None else slots
        self._table(first)

    def _table(self, slots: int) -> None:
        self.slots = slots
        self.used = 0
        self.keys = _slots(3 * slots, 0, "Q")

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    @cython.returns(cython.int)
    def _check(self) -> int:
        if self.node_limit != _NONE and self.nodes > self.node_limit:
            raise Exhausted
        if self.deadline != _NONE and time.perf_counter() > self.deadline:
            raise Exhausted
        step = self.nodes + _CHECK_EVERY
        if self.node_limit != _NONE:
            step = min(step, self.node_limit + 1)
        self.check_at = step
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)  # -1: Exhausted raised
    @cython.returns(cython.int)
    def _tick(self) -> int:
        """Count a node; look at the budget every ``_CHECK_EVERY`` of them."""
        self.nodes += 1
        if self.nodes >= self.check_at:
            self._check()
        return 0

    # --- the public entry points: Python lists in, Python ints out

    def _load(self, leader: int, trick: list[int]) -> int:
        """Copy ``hands`` and ``trick`` into the C arrays; the trick's length."""
        for i in range(self.n):
            self.h[i] = self.hands[i]
        self._holders()
        self.left = self.tricks_left(leader, trick)
        base = 4 * self.left
        for i, card in enumerate(trick):
            self.tc[base + i] = card
        self.at = self._winner(base, len(trick)) if trick else 0
        return len(trick)

    def live(self, trick: list[int]) -> int:
        """Every card still in a hand or on the table."""
        return live_cards(self.hands, trick)

    def move_groups(self, leader: int, trick: list[int]) -> list[int]:
        """The legal moves of the player to move, as runs of equal cards."""
        player = (leader + len(trick)) % self.n
        moves = legal(self.hands[player], trick, self.trump, self.must_trump)
        return groups(moves, self.live(trick))

    def tricks_left(self, leader: int, trick: list[int]) -> int:
        """Tricks not yet complete, the current one included."""
        return int(self.hands[(leader + len(trick)) % self.n].bit_count())

    def play(self, leader: int, trick: list[int], card: int, alpha: int, beta: int) -> int:
        """The measured side's tricks from the current trick on after ``card`` is played."""
        k = self._load(leader, trick)
        return self._after(leader, k, card, alpha, beta, 0)

    def future(self, leader: int, trick: list[int], alpha: int, beta: int) -> int:
        """The measured side's tricks from the current trick on with best play by all,
        fail-soft alpha-beta within (alpha, beta)."""
        k = self._load(leader, trick)
        return self._node(leader, k, alpha, beta, 0)

    def solve(self, leader: int, trick: list[int], guess: int | None = None) -> int:
        """The exact tricks-to-come by null-window searches converging from ``guess``
        (MTD(f)): each proves a bound with the fewest nodes, and the table keeps it; a
        good guess (the value after the next card, in a backward sweep) needs two."""
        k = self._load(leader, trick)
        lo, hi = 0, self.tricks_left(leader, trick)
        value = hi // 2 if guess is None else min(max(guess, lo), hi)
        while lo < hi:
            beta = max(value, lo + 1)
            value = self._node(leader, k, beta - 1, beta, 0)
            if value < beta:
                hi = value
            else:
                lo = value
        return lo

    # --- the search: C integers only

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    @cython.locals(i=cython.int)
    @cython.returns(cython.int)
    def _seat(self, i: int) -> int:
        """Player ``i`` counted round the table (``i % n`` for ``i < 2n``, no division)."""
        return i - self.n if i >= self.n else i

    @cython.cfunc
    @cython.exceptval(-1, check=False)  # -1: Exhausted raised (no value is -1)
    @cython.locals(leader=cython.int, k=cython.int, card=cython.int, alpha=cython.int,
                   beta=cython.int, ply=cython.int, player=cython.int, bit=cython.ulonglong,
                   winner=cython.int, won=cython.int, value=cython.int, base=cython.int,
                   at=cython.int)
    @cython.returns(cython.int)
    def _after(self, leader: int, k: int, card: int, alpha: int, beta: int, ply: int) -> int:
        """Play ``card`` as the ``k``-th of the trick, search on, take it back; the
        trick's winner so far (``at``) follows each card."""
        player = self._seat(leader + k)
        bit = _ONE << card
        base = 4 * self.left
        self.h[player] ^= bit
        self.tc[base + k] = card
        at = self.at
        if k == 0 or self.beat[card][self.tc[base + at]]:
            self.at = k
        if k + 1 == self.n:
            winner = self._seat(leader + self.at)
            won = (self.inside >> winner) & 1
            self.left -= 1
            value = won + self._node(winner, 0, alpha - won, beta - won, ply + 1)
            self.left += 1
        else:  # the next card of the trick: _node's count, then its moves, one call less
            self._tick()
            value = self._moves(leader, k + 1, alpha, beta, ply + 1, -1)
        self.h[player] |= bit
        self.at = at
        return value

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    @cython.locals(base=cython.int, count=cython.int, i=cython.int, at=cython.int)
    @cython.returns(cython.int)
    def _winner(self, base: int, count: int) -> int:
        """Which of the first ``count`` cards of the trick at ``tc[base]`` wins."""
        at = 0
        for i in range(1, count):
            if self.beat[self.tc[base + i]][self.tc[base + at]]:
                at = i
        return at

    @cython.cfunc
    @cython.exceptval(-1, check=False)  # -1: Exhausted raised (no value is -1)
    @cython.locals(leader=cython.int, k=cython.int, alpha=cython.int, beta=cython.int,
                   ply=cython.int, left=cython.int, slot=cython.longlong, lo=cython.int,
                   hi=cython.int, a=cython.int, b=cython.int, value=cython.int,
                   k0=cython.ulonglong, k1=cython.ulonglong, first=cython.int,
                   info=cython.ulonglong, start=cython.longlong)
    @cython.returns(cython.int)
    def _node(self, leader: int, k: int, alpha: int, beta: int, ply: int) -> int:
        """The measured side's tricks from the current trick on with best play by all,
        fail-soft alpha-beta within (alpha, beta); bounds kept at each trick's start."""
        self._tick()
        if k:
            return self._moves(leader, k, alpha, beta, ply, -1)
        left = self.left
        if left <= 1:
            return self._last_trick(leader) if left else 0
        slot = self._find(leader)
        first = -1
        k0, k1 = self.key[0], self.key[1]
        lo, hi = 0, left
        if slot >= 0:
            info = self.keys[3 * slot + 2]
            lo, hi, first = info & 0xFF, (info >> 8) & 0xFF, ((info >> 16) & 0xFF) - 1
        if lo >= beta:
            return lo
        if hi <= alpha or lo == hi:
            return hi
        if alpha >= left - 1 and self.plain and self._gives(leader, 0, 1):
            return left - 1  # (the other side's bound, 1, answered here lost nodes)
        a, b = max(alpha, lo), min(beta, hi)
        start = self.nodes
        value = self._moves(leader, 0, a, b, ply, first)
        if value <= a:
            hi = value
        elif value >= b:
            lo = value
        else:
            lo = hi = value
        self.key[0], self.key[1] = k0, k1
        self._store(lo, hi, self.best_card, left, _top(self.nodes - start) + 1)
        return value

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(leader=cython.int, k=cython.int, giver=cython.int, ours=cython.bint,
                   suit=cython.int, p=cython.int, held=cython.uint, low=cython.int,
                   gives=cython.int, takes=cython.int, leads=cython.int, base=cython.int,
                   top=cython.int, theirs=cython.bint, i=cython.int)
    @cython.returns(cython.bint)
    def _gives(self, leader: int, k: int, giver: int) -> bool:
        """Whether the side ``giver`` (1: the measured side, 0: the other) can make the
        other side win the trick ``leader`` leads (``k`` of its cards on the table), with
        no trump, whatever the others play: in misère the giver then takes at most the
        tricks left but one. It answers a null window that asks whether a side takes
        every trick left (in misère nearly always: no) without a search.

        Each player's lowest card of the led suit is his best duck, and the most the
        other side can do against it. Mid-trick every player still to play plays it (a
        void one discards): the giver gives when the trick's top card is then the other
        side's. At the lead: leading, the giver leads a suit whose lowest cards on the
        other side (the highest of them) beat its own lowest (the highest of them); the
        other side leading, each giver holding a suit it can lead has a card below the
        leader's lowest, so below any card he leads (sound, not complete)."""
        if k:
            base = 4 * self.left
            top = self.tc[base + self.at]
            suit = self.tc[base] // 13
            theirs = ((self.inside >> self._seat(leader + self.at)) & 1) != giver
            for i in range(k, self.n):
                p = self._seat(leader + i)
                held = (self.h[p] >> (13 * suit)) & _SUIT
                low = _low(held) + 13 * suit if held else -1
                if low > top:  # his best duck tops the trick
                    top = low
                    theirs = ((self.inside >> p) & 1) != giver
            return theirs
        ours = ((self.inside >> leader) & 1) == giver
        for suit in range(4):
            gives = takes = leads = -1
            for p in range(self.n):
                held = (self.h[p] >> (13 * suit)) & _SUIT
                if held:
                    low = _low(held)
                    if p == leader:
                        leads = low
                    if ((self.inside >> p) & 1) == giver:
                        gives = max(gives, low)
                    else:
                        takes = max(takes, low)
            if leads >= 0:
                if ours and takes > gives:
                    return True
                if not ours and gives >= leads:
                    return False
        return not ours

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(leader=cython.int, i=cython.int, p=cython.int)
    @cython.returns(cython.int)
    def _last_trick(self, leader: int) -> int:
        """One card each: the trick plays itself."""
        for i in range(self.n):
            p = (leader + i) % self.n
            self.tc[4 + i] = _top(self.h[p])
        return (self.inside >> ((leader + self._winner(4, self.n)) % self.n)) & 1

    @cython.cfunc
    @cython.exceptval(-1, check=False)  # -1: Exhausted raised (no value is -1)
    @cython.locals(leader=cython.int, k=cython.int, alpha=cython.int, beta=cython.int,
                   ply=cython.int, player=cython.int, wants=cython.bint, best=cython.int,
                   value=cython.int, count=cython.int, i=cython.int, base=cython.int,
                   first=cython.int, card=cython.int, chosen=cython.int,
                   hand=cython.ulonglong, moves=cython.ulonglong, tb=cython.int,
                   led=cython.int, at=cython.int, cut=cython.int, hint=cython.int)
    @cython.returns(cython.int)
    def _moves(self, leader: int, k: int, alpha: int, beta: int, ply: int, first: int) -> int:
        """Try the player to move's cards, likeliest best first, until a cut-off, which the
        cutoff cache keeps; ``best_card`` is then the card that gave the answer.

        The likeliest is the card that last cut off in the same context (``_cut_card``),
        else ``first``, the card the table remembers for this position. It is tried
        before the other cards are even listed (``_order``): it cuts off in most nodes
        that cut off at all, and then listing, scoring and sorting the rest is waste."""
        if k and self.plain:
            if alpha >= self.left - 1 and self._gives(leader, k, 1):
                return self.left - 1
            if beta <= 1 and self._gives(leader, k, 0):
                return 1
        player = self._seat(leader + k)
        wants = (self.most >> player) & 1
        best = -1 if wants else 99
        hand = self.h[player]
        tb = 4 * self.left
        moves = hand
        led = -1
        if k:
            led = self.tc[tb] // 13
            moves = hand & (_SUITS << (13 * led))
            if not moves and self.must_trump and self.trump >= 0:
                moves = hand & (_SUITS << (13 * self.trump))
            if not moves:
                moves = hand
        if not moves & (moves - 1):
            card = _top(moves)
            self.best_card = card
            return self._after(leader, k, card, alpha, beta, ply)
        at = self.at if k else 0
        cut = self._cut_card(ply, player, k, hand, self.tc[tb + at] + 64 * at if k else -1,
                             led)
        hint = -1
        if cut >= 0 and (moves >> cut) & 1:
            hint = cut
        elif first >= 0 and (moves >> first) & 1:
            hint = first
        chosen = hint
        if hint >= 0:
            best = self._after(leader, k, hint, alpha, beta, ply)
            if wants:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if alpha >= beta:
                self._cut(ply, k, player, hint)
                self.best_card = hint
                return best
        base = ply * _DEPTH
        count = self._order(leader, k, ply, first, moves, tb, at, hint)
        if hint < 0:
            chosen = self.buf[base]
        for i in range(count):
            card = self.buf[base + i]
            value = self._after(leader, k, card, alpha, beta, ply)
            if wants:
                if value > best:
                    best = value
                    chosen = card
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                chosen = card
                if best < beta:
                    beta = best
            if alpha >= beta:
                self._cut(ply, k, player, card)
                break
        self.best_card = chosen
        return best

    # --- move ordering

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(leader=cython.int, k=cython.int, base=cython.int, player=cython.int,
                   moves=cython.ulonglong, live=cython.ulonglong, i=cython.int,
                   count=cython.int, suit=cython.int, mine=cython.uint, others=cython.uint,
                   run=cython.uint, shift=cython.int, first=cython.int, at=cython.int,
                   hint=cython.int, ply=cython.int, tb=cython.int, score=cython.int,
                   card=cython.int)
    @cython.returns(cython.int)
    def _order(self, leader: int, k: int, ply: int, first: int, moves: int, tb: int,
               at: int, hint: int) -> int:
        """Write the legal ``moves``' candidate cards (one per run of equal cards), but
        none of the run of ``hint`` (tried already), into ``buf`` at ``ply``, likeliest
        best first: the run holding ``first`` (the card the table remembers), then leads
        by how often they cut off before (a history: in misère the static ``_score``
        guesses leads worst), then by ``_score``; their count.

        A lead's history counts only up to ``_OFTEN``: the leads that cut off often then
        go by card, highest first. Measured on the hard case (board 2 of the Uppsala
        example), that order searched fewer nodes than raw counts or ``_score``."""
        base = ply * _DEPTH
        player = self._seat(leader + k)
        live = 0
        for i in range(self.n):
            live |= self.h[i]
        for i in range(k):
            live |= _ONE << self.tc[tb + i]
        count = 0
        for suit in range(4):
            shift = 13 * suit
            mine = (moves >> shift) & _SUIT
            others = (live >> shift) & _SUIT & ~mine
            # runs lowest first: their order is free, for no two of them score the same
            while mine:
                run = _low_run(mine, others)
                mine ^= run
                if shift <= hint < shift + 13 and (run >> (hint - shift)) & 1:
                    continue
                score = self._score(leader, k, player, run, shift, tb, at)
                card = score & 63
                if shift <= first < shift + 13 and (run >> (first - shift)) & 1:
                    score = (1 << 25) + card
                elif k == 0 and self.often[64 * player + card]:
                    score = (1 << 20) + self.often[64 * player + card] * 64 + card
                self.buf[base + count] = score
                count += 1
        self._sort(base, count)
        for i in range(count):
            self.buf[base + i] &= 63
        return count

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(ply=cython.int, player=cython.int, k=cython.int, hand=cython.ulonglong,
                   winning=cython.int, led=cython.int, mixed=cython.ulonglong,
                   slot=cython.longlong)
    @cython.returns(cython.int)
    def _cut_card(self, ply: int, player: int, k: int, hand: int, winning: int,
                  led: int) -> int:
        """The card that last cut off (the cutoff cache) when ``player`` held ``hand``
        as the ``k``-th card of a trick led in ``led`` and won so far by ``winning`` (card
        + 64 * its place in the trick), or -1; the context is kept for ``_cut`` at ``ply``.

        Static scores order well in positive games but badly in misère, where the card
        that cuts off depends on the whole position; the same hand in the same spot of a
        trick meets mostly the same answer again, so the last one is tried first."""
        mixed = hand * _M0 ^ (_ONE * (player | k << 2 | (led + 1) << 4 | (winning + 1) << 7)
                              ) * _M1
        if not cython.compiled:
            mixed &= _ALL
        mixed ^= mixed >> 29
        slot = mixed & (_CUTS - 1)
        self.cut_slot[ply] = slot
        self.cut_tag[ply] = mixed
        if self.cut_tags[slot] == mixed:
            return self.cut_cards[slot]
        return -1

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(ply=cython.int, k=cython.int, player=cython.int, card=cython.int,
                   slot=cython.longlong)
    @cython.returns(cython.int)
    def _cut(self, ply: int, k: int, player: int, card: int) -> int:
        """Remember ``card`` as the one that cut off in the context ``_cut_card`` kept at
        ``ply``; a lead (``k`` 0) also counts in ``player``'s history of leads."""
        slot = self.cut_slot[ply]
        self.cut_tags[slot] = self.cut_tag[ply]
        self.cut_cards[slot] = card
        if k == 0 and self.often[64 * player + card] < _OFTEN:
            self.often[64 * player + card] += 1
        return 0

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(leader=cython.int, k=cython.int, player=cython.int, run=cython.uint,
                   shift=cython.int, card=cython.int, suit=cython.int, rank=cython.int,
                   score=cython.int, at=cython.int, best=cython.int, wins=cython.bint,
                   ours=cython.bint, other=cython.int, held=cython.ulonglong,
                   side=cython.int, tb=cython.int)
    @cython.returns(cython.int)
    def _score(self, leader: int, k: int, player: int, run: int, shift: int, tb: int,
               at: int) -> int:
        """A run's card and how likely it is best, as ``score * 64 + card`` (sorted
        high first): in a positive game a cheap winner unless the own side already wins
        the trick, leads high first; in misère (everyone ducks) the highest card that
        loses, and leads the other side must overtake before low leads. ``at``: which
        card of the trick at ``tc[tb]`` wins it so far."""
        suit = shift // 13
        if k == 0:
            if not self.ducking:
                card = _top(run) + shift
                return ((card % 13) * 4 + 3 - suit) * 64 + card
            card = _low(run) + shift
            score = -(card % 13)
            side = (self.inside >> player) & 1
            for other in range(self.n):
                held = (self.h[other] >> shift) & _SUIT
                if ((self.inside >> other) & 1) != side and held and _low(held) + shift > card:
                    score += 50
                    break
            return score * 64 + card
        card = _top(run) + shift
        rank = card % 13
        best = self.tc[tb + at]
        wins = self.beat[card][best]
        ours = ((self.inside >> self._seat(leader + at)) & 1) == ((self.inside >> player) & 1)
        if self.ducking:
            score = -rank if wins else 100 + rank
        elif ours:
            score = -rank - (50 if wins else 0)
        else:
            score = 100 - rank if wins else -rank
        if wins:
            card = _low(run) + shift
        return score * 64 + card

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(base=cython.int, count=cython.int, i=cython.int, j=cython.int,
                   item=cython.int)
    @cython.returns(cython.int)
    def _sort(self, base: int, count: int) -> int:
        """Insertion sort of ``buf[base:base + count]``, highest first."""
        for i in range(base + 1, base + count):
            item = self.buf[i]
            j = i - 1
            while j >= base and self.buf[j] < item:
                self.buf[j + 1] = self.buf[j]
                j -= 1
            self.buf[j + 1] = item
        return 0

    # --- the transposition table

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(leader=cython.int, p=cython.int, live=cython.ulonglong)
    @cython.returns(cython.int)
    def _squeeze(self, leader: int) -> int:
        """Set ``key`` to the position's key: each suit's shape among its live cards (who
        holds the lowest, the next, …; 30 bits), two suits a word, the leader on top."""
        live = 0
        for p in range(self.n):
            live |= self.h[p]
        self.key[0] = self._shape(live, 0) | self._shape(live, 1) << 30 | (_ONE * leader) << 60
        self.key[1] = self._shape(live, 2) | self._shape(live, 3) << 30
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    @cython.locals(live=cython.ulonglong, suit=cython.int, p=cython.int, at=cython.int,
                   code=cython.ulonglong, packed=cython.ulonglong)
    @cython.returns(cython.ulonglong)
    def _shape(self, live: int, suit: int) -> int:
        """One suit's shape given the ``live`` cards. Cards never change hands, so it
        follows from the suit's live cards alone: made from the hands once per set of
        them, then read from ``shapes`` (0: not made yet; a suit with live cards has a
        non-zero count)."""
        at = (suit << 13) | ((live >> (13 * suit)) & _SUITS)
        code = self.shapes[at]
        if not code:
            packed = 0
            for p in range(self.n):
                packed |= ((self.h[p] >> (13 * suit)) & _SUITS) << (13 * p)
            code = _squeeze_suit(packed)
            self.shapes[at] = code
        return code

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(p=cython.int, q=cython.int, seen=cython.ulonglong)
    @cython.returns(cython.int)
    def _holders(self) -> int:
        """Forget the shapes made if ``h`` gives a card another holder than before (a new
        deal in ``hands``): they are only valid while cards keep their holders."""
        seen = 0
        for p in range(4):
            seen |= self.held[p]
        for p in range(self.n):
            if self.h[p] & seen & ~self.held[p]:
                self.shapes = _slots(4 << 13, 0, "Q")
                for q in range(4):
                    self.held[q] = 0
                break
        for p in range(self.n):
            self.held[p] |= self.h[p]
        return 0

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.returns(cython.longlong)
    @cython.locals(mixed=cython.ulonglong, slot=cython.longlong, i=cython.int)
    def _home(self) -> int:
        """The key's first slot."""
        mixed = self.key[0] * _M0 ^ self.key[1] * _M1
        if not cython.compiled:
            mixed &= _ALL
        mixed ^= mixed >> 31
        return mixed & (self.slots - 1)

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(leader=cython.int, slot=cython.longlong, at=cython.longlong, _=cython.int)
    @cython.returns(cython.longlong)
    def _find(self, leader: int) -> int:
        """Set ``key`` for the position led by ``leader``; its slot, or -1."""
        self._squeeze(leader)
        slot = self._home()
        for _ in range(_PROBES):
            at = 3 * slot
            if not self.keys[at + 2]:
                return -1
            if self.keys[at] == self.key[0] and self.keys[at + 1] == self.key[1]:
                return slot
            slot = (slot + 1) & (self.slots - 1)
        return -1

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(lo=cython.int, hi=cython.int, first=cython.int, left=cython.int,
                   work=cython.int, slot=cython.longlong, cheapest=cython.longlong,
                   _=cython.int, at=cython.longlong)
    @cython.returns(cython.int)
    def _store(self, lo: int, hi: int, first: int, left: int, work: int) -> int:
        """Keep (lo, hi), the card to try ``first`` and the tricks ``left`` under ``key``:
        in its slot, else the first free one near its home, else over the entry near its
        home that saves the least search: the one whose search took the fewest nodes
        (``work``: their bit length, a finer measure than the tricks left)."""
        if self.used * 2 >= self.slots and self.slots < self.most_slots:
            self._grow()
        slot = self._home()
        cheapest = slot
        for _ in range(_PROBES):
            at = 3 * slot
            if not self.keys[at + 2]:
                self.used += 1
                break
            if self.keys[at] == self.key[0] and self.keys[at + 1] == self.key[1]:
                break
            if self.keys[at + 2] >> 32 < self.keys[3 * cheapest + 2] >> 32:
                cheapest = slot
            slot = (slot + 1) & (self.slots - 1)
        else:
            slot = cheapest
        at = 3 * slot
        self.keys[at] = self.key[0]
        self.keys[at + 1] = self.key[1]
        self.keys[at + 2] = (_ONE * lo) | (_ONE * hi) << 8 | (_ONE * (first + 1)) << 16 | (
            _ONE * left) << 24 | (_ONE * work) << 32
        return 0

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(slot=cython.longlong, n=cython.longlong, info=cython.ulonglong,
                   k0=cython.ulonglong, k1=cython.ulonglong)
    @cython.returns(cython.int)
    def _grow(self) -> int:
        """Twice the slots, every entry moved over (the current ``key`` kept)."""
        keys = self.keys
        n = self.slots
        k0, k1 = self.key[0], self.key[1]
        self._table(2 * n)
        for slot in range(n):
            info = keys[3 * slot + 2]
            if info:
                self.key[0], self.key[1] = keys[3 * slot], keys[3 * slot + 1]
                self._store(info & 0xFF, (info >> 8) & 0xFF, ((info >> 16) & 0xFF) - 1,
                            (info >> 24) & 0xFF, info >> 32)
        self.key[0], self.key[1] = k0, k1
        return 0
