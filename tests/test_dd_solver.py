"""The own double-dummy solver against a plain minimax (tests/dd_oracle.py) on endings of
up to five tricks: misère and positive goals, trumps or none, must_trump or not, four,
three and two hands, positions mid-trick; the budget; a played card that cannot be."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import scaled
from dd_cores import pure_core
from dd_oracle import Oracle, random_ending, with_random_play
from hypothesis import given
from hypothesis import strategies as st

from priffe_records import dd, read
from priffe_records.dd import Budget, Deal, Goal, analyse_play, card_values, value
from priffe_records.game.cards import Card, Rank, Seat, Suit
from priffe_records.game.errors import PriffeError
from priffe_records.game.language import use_language
from priffe_records.game.tricks import NO_TRUMP, beat_table, card_id, hand_mask, suit_index
from priffe_records.rules.family import family_for

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# Every proof runs against the compiled core and the pure one (tests/dd_cores.py).
pytestmark = pytest.mark.usefixtures("dd_core")


def cards(text: str) -> frozenset[Card]:
    return frozenset(Card.parse(t) for t in text.split())


def play(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def _agrees(deal: Deal) -> None:
    """Value and every legal card's value as brute force has them; and each played card's
    cost and best cards, from the first card on."""
    oracle = Oracle(deal)
    assert value(deal) == oracle.value(), deal
    assert dict(card_values(deal) or {}) == oracle.card_values(), deal
    analysis = analyse_play(deal)
    assert analysis.complete
    assert analysis.par == oracle.value(())
    for i, cost in enumerate(analysis.cards):
        values = oracle.card_values(deal.played[:i])
        _, leader, trick, _ = oracle.start(deal.played[:i])
        most = (oracle.to_move(leader, trick) in deal.side) == (deal.goal is Goal.MOST)
        top = max(values.values()) if most else min(values.values())
        assert cost.card == deal.played[i] and cost.trick == i // len(deal.order) + 1
        assert cost.seat is oracle.to_move(leader, trick)
        assert cost.cost == abs(top - values[cost.card]), (deal, i)
        assert cost.best == {c for c, v in values.items() if v == top}, (deal, i)


# Hand-made endings whose answers can be read off the cards.
MISERE_4 = Deal({Seat.N: cards("SA S2"), Seat.E: cards("SK H3"), Seat.S: cards("S3 H2"),
                 Seat.W: cards("SQ D2")}, (Seat.N, Seat.E, Seat.S, Seat.W), None, Seat.N,
                frozenset({Seat.N, Seat.S}), Goal.FEWEST, False)
# E cannot follow hearts; with must_trump he has to ruff N's ♥2 and then lead into N's tenace.
MUST_TRUMP_3 = Deal({Seat.N: cards("H2 SA SQ"), Seat.E: cards("S3 SK D2"),
                     Seat.S: cards("H3 H4 H5")}, (Seat.N, Seat.E, Seat.S), Suit.S, Seat.N,
                    frozenset({Seat.N}), Goal.MOST, True)
TWO_HANDS = Deal({Seat.N: cards("HA H2 CK"), Seat.W: cards("HK HQ CA")}, (Seat.N, Seat.W),
                 None, Seat.W, frozenset({Seat.N}), Goal.MOST, False)


def test_misere_four_hands_declarer_ducks() -> None:
    """N+S want fewest: N's ♠2 runs under E's ♠K and N+S take nothing; the ♠A wins and leaves
    N on lead with the ♠2 while the others show out: two tricks."""
    assert value(MISERE_4) == 0
    assert card_values(MISERE_4) == {Card.parse("S2"): 0, Card.parse("SA"): 2}
    _agrees(with_random_play(random.Random(1), MISERE_4, 8))


def test_must_trump_changes_the_value() -> None:
    """With must_trump E has to spend a trump on N's ♥2 and N ruffs E's ♦2 later: two tricks
    for N; free to discard, E keeps ♠K 3 against N's ♠A Q and N takes one."""
    assert value(MUST_TRUMP_3) == 2
    assert value(Deal(**{**MUST_TRUMP_3.__dict__, "must_trump": False})) == 1
    _agrees(MUST_TRUMP_3)


def test_two_hands_after_a_drop_out() -> None:
    """Two hands (P9): whatever W leads, N makes the ♥A and nothing else."""
    assert value(TWO_HANDS) == Oracle(TWO_HANDS).value() == 1
    _agrees(with_random_play(random.Random(2), TWO_HANDS, 6))


def test_mid_trick_position_counts_tricks_already_won() -> None:
    """After a whole trick (N's ♠A won it) and one card the value counts the whole deal."""
    deal = Deal(**{**MISERE_4.__dict__, "played": play("SA SK S3 SQ S2")})
    assert value(deal) == 2 and card_values(deal) == {Card.parse("H3"): 2}
    _agrees(deal)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_endings_agree_with_brute_force(players: int) -> None:
    rng = random.Random(players)
    for _ in range(15):
        _agrees(random_ending(rng, players, rng.randint(1, 3 if players == 4 else 4)))


@scaled(0.4)  # four hands of five tricks cost the minimax a second or more each
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]), st.integers(1, 5))
def test_generated_endings_of_up_to_five_tricks_agree_with_brute_force(
        seed: int, players: int, tricks: int) -> None:
    _agrees(random_ending(random.Random(seed), players, tricks))


def test_a_node_budget_answers_none_never_a_wrong_number() -> None:
    deal = random_ending(random.Random(7), 4, 5)
    deal = Deal(**{**deal.__dict__, "played": ()})
    assert value(deal, Budget(nodes=3)) is None
    assert card_values(deal, Budget(nodes=3)) is None
    assert value(deal, Budget(seconds=0.0)) is None
    exact = analyse_play(with_random_play(random.Random(3), deal, 20))
    assert exact.complete and all(c.cost is not None for c in exact.cards)
    for nodes in (1, 50, 200, 800):
        part = analyse_play(with_random_play(random.Random(3), deal, 20), Budget(nodes=nodes))
        known = [c.cost is not None for c in part.cards]
        assert known == sorted(known), "the budget reaches the last cards first"
        assert part.complete is all(known) and (part.par is None) is not part.complete
        for got, want in zip(part.cards, exact.cards, strict=True):
            # a card that cost nothing may wait for its best cards: found after every cost
            assert got.cost is None or got == replace(want, best=got.best and want.best)
    assert value(deal, Budget(nodes=10**6)) == Oracle(deal).value()


def test_a_played_card_not_in_hand_is_a_clear_error() -> None:
    deal = Deal(**{**MISERE_4.__dict__, "played": play("SA SK HA")})
    with pytest.raises(dd.DDError) as raised:
        value(deal)
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, PriffeError)
    assert str(raised.value) == "trick 1: South plays ♥A, which is not in South's hand"
    with use_language("sv"):
        assert str(raised.value) == "stick 1: Syd spelar ♥Ä, som inte finns på handen hos Syd"


def test_a_revoke_in_the_play_is_a_clear_error() -> None:
    with pytest.raises(dd.DDError, match="must follow spades"):
        analyse_play(Deal(**{**MISERE_4.__dict__, "played": play("S2 H3")}))
    with pytest.raises(dd.DDError, match="so must trump"):
        value(Deal(**{**MUST_TRUMP_3.__dict__, "played": play("H2 D2")}))


def test_hands_that_do_not_fit_are_a_clear_error() -> None:
    with pytest.raises(dd.DDError, match="equally many"):
        value(Deal(**{**TWO_HANDS.__dict__, "hands": {Seat.N: cards("HA"),
                                                        Seat.W: cards("HK HQ")}}))
    with pytest.raises(dd.DDError, match="in two hands"):
        value(Deal(**{**TWO_HANDS.__dict__, "hands": {Seat.N: cards("HA"),
                                                        Seat.W: cards("HA")}}))
    with pytest.raises(dd.DDError, match="a hand for each playing seat"):
        value(Deal(**{**TWO_HANDS.__dict__, "leader": Seat.E}))


def _clashing_ending(rng: random.Random, players: int) -> Deal:
    """Hands from two suits, one of them trumps, must_trump on, the play stopped inside a
    trick: cards equal within a suit stop being equal once a trump falls on the table."""
    suits = rng.sample(list(Suit), 2)
    tricks = rng.randint(2, 4 if players == 4 else 5)
    dealt = rng.sample([Card(s, r) for s in suits for r in Rank], players * tricks)
    chosen = rng.sample(list(Seat), players)
    order = tuple(s for s in Seat if s in chosen)
    hands = {seat: frozenset(dealt[i * tricks:(i + 1) * tricks]) for i, seat in enumerate(order)}
    side = frozenset(rng.sample(order, rng.randint(1, players - 1)))
    deal = Deal(hands, order, suits[0], rng.choice(order), side, rng.choice(list(Goal)), True)
    cut = rng.randrange(players * tricks)
    return with_random_play(rng, deal, cut + (cut % players == 0))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_trumps_must_trump_and_mid_trick_positions_agree_with_brute_force(players: int) -> None:
    """The table's key counts a suit's cards only by order among the live ones: with trumps
    and must_trump, and positions mid-trick (their trick's cards are part of the order),
    every value is still brute force's."""
    rng = random.Random(40 + players)
    for _ in range(12):
        _agrees(_clashing_ending(rng, players))


def _stuck_ending(rng: random.Random, players: int) -> Deal:
    """A misère ending with no trumps whose measured side holds the high cards of two or
    three suits: it often must take every trick left, and often just not."""
    suits = rng.sample(list(Suit), rng.randint(2, 3))
    tricks = rng.randint(2, 3 if players == 4 else 4)
    deck = sorted((Card(s, r) for s in suits for r in Rank), key=lambda c: -c.rank.order)
    chosen = rng.sample(list(Seat), players)
    order = tuple(s for s in Seat if s in chosen)
    side = frozenset(rng.sample(order, rng.randint(1, players - 1)))
    cut = rng.randint(len(side) * tricks, len(deck) - (players - len(side)) * tricks)
    high = iter(rng.sample(deck[:cut], len(side) * tricks))
    low = iter(rng.sample(deck[cut:], (players - len(side)) * tricks))
    hands = {s: frozenset(next(high if s in side else low) for _ in range(tricks))
             for s in order}
    return Deal(hands, order, None, rng.choice(order), side, Goal.FEWEST, False)


@pytest.mark.parametrize("players", [3, 4])
def test_misere_sides_that_may_have_to_take_every_trick_agree_with_brute_force(
        players: int) -> None:
    """In misère the search answers "does the measured side take every trick left?"
    without searching when that side can hand the trick being led to the others (the
    core's ``_gives``): endings where it often cannot; each value, card value and card's
    cost as brute force has them."""
    rng = random.Random(60 + players)
    for _ in range(12):
        deal = _stuck_ending(rng, players)
        _agrees(with_random_play(rng, deal, rng.randrange(len(deal.order) * 2)))


def test_a_side_said_to_hand_the_trick_over_never_takes_every_trick() -> None:
    """The bound itself, on the pure core (the compiled one hides it): wherever ``_gives``
    says a side can hand the trick on the table (or about to be led) to the other,
    brute force has that side take fewer than all the tricks left; and it says so often,
    beside positions where a side must take them all."""
    rng = random.Random(70)
    said, every = [0, 0], [0, 0]
    for _ in range(200):
        players = rng.choice((3, 4))
        deal = _stuck_ending(rng, players) if rng.random() < 0.3 else Deal(**{
            **random_ending(rng, players, rng.randint(2, 3)).__dict__, "played": (),
            "trump": None, "goal": Goal.FEWEST})
        oracle = Oracle(deal)
        hands, leader, trick, _ = oracle.start(
            with_random_play(rng, deal, rng.randrange(players)).played)
        taken = oracle.future(hands, leader, trick)
        here = Deal(**{**deal.__dict__, "hands": dict(hands), "leader": leader})
        search, at, _ = _search_of(here, pure_core(), None)
        k = search._load(at, [card_id(c) for c in trick])
        left = search.tricks_left(at, [card_id(c) for c in trick])
        for side, theirs in ((1, left - taken), (0, taken)):
            every[side] += theirs == 0
            if search._gives(at, k, side):
                said[side] += 1
                assert theirs > 0, (deal, side)
    assert min(said + every) >= 30, (said, every)


def test_the_examples_tvangsnoll_from_trick_7_takes_fewer_nodes(dd_core: ModuleType) -> None:
    """The replay's hard case (board 2 of examples/partie-uppsala.ppn, a Tvångsnoll) from
    trick 7 on: 94,450 nodes before the misère bound ``_gives``, 63,664 with it."""
    record = next(r for r in read(EXAMPLES / "partie-uppsala.ppn") if r.get("Board") == "2")
    family = family_for(record.get("Scoring"))
    deal = family.dd_deal(family.analyse(record, None, False))
    assert deal is not None
    hands, leader, _, won = Oracle(deal).start(deal.played[:24])
    here = Deal(**{**deal.__dict__, "hands": dict(hands), "leader": leader, "played": ()})
    search, at, trick = _search_of(here, dd_core, None)
    assert won + search.solve(at, trick) == 6
    assert search.nodes < 80_000, search.nodes


def _search_of(deal: Deal, module: ModuleType, slots: tuple[int, int] | None
               ) -> tuple[Any, int, list[int]]:
    """A core ``Search`` at ``deal``'s position (no cards played), its leader and trick."""
    order = deal.order
    hands = [hand_mask(deal.hands[s]) for s in order]
    most = deal.goal is Goal.MOST
    inside = tuple(s in deal.side for s in order)
    search = module.Search(hands, inside, tuple(x == most for x in inside),
                           suit_index(deal.trump), deal.must_trump, slots=slots)
    return search, order.index(deal.leader), []


def test_the_search_plays_by_the_one_trick_winner_rule(dd_core: ModuleType,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """R12 is written once, game.tricks' ``beats``, and the core reads it from the same
    table as play_tricks, ``beat_table``: given the table of a game without trumps, E's
    forced ruff of N's ♥2 in MUST_TRUMP_3 is a discard and N takes one trick, not two."""
    search, leader, trick = _search_of(MUST_TRUMP_3, dd_core, None)
    assert search.solve(leader, trick) == 2
    monkeypatch.setattr(dd_core, "beat_table", lambda trump: beat_table(NO_TRUMP))
    search, leader, trick = _search_of(MUST_TRUMP_3, dd_core, None)
    assert search.solve(leader, trick) == 1


def test_a_table_that_grows_and_then_overwrites_answers_the_same(dd_core: ModuleType) -> None:
    """A table of 2 slots that may grow to 8 fills at once and then overwrites entries; an
    entry lost is only work lost: every value equals brute force's."""
    rng = random.Random(9)
    for _ in range(8):
        deal = Deal(**{**random_ending(rng, 4, 4).__dict__, "played": ()})
        search, leader, trick = _search_of(deal, dd_core, (2, 8))
        assert search.solve(leader, trick) == Oracle(deal).value(), deal
        small, large = search, _search_of(deal, dd_core, None)[0]
        for guess in (0, 4):
            assert small.solve(leader, trick, guess) == large.solve(
                leader, trick, guess)


def test_the_cutoff_cache_makes_a_search_done_again_cheaper(dd_core: ModuleType) -> None:
    """The cutoff cache outlives the table: with the table emptied, searching a misère
    position again tries first the cards that cut off the first time, so it takes fewer
    nodes for the same value (without the cache it takes exactly as many)."""
    rng = random.Random(0)
    for _ in range(4):
        deal = Deal(**{**random_ending(rng, 4, 5).__dict__, "played": (), "trump": None,
                       "goal": Goal.FEWEST})
        search, leader, trick = _search_of(deal, dd_core, None)
        first = search.solve(leader, trick)
        nodes = search.nodes
        search._table(1 << 14)
        search.nodes = 0
        # the value itself is the oracle tests' (a brute force here cost 10 s a core)
        assert search.solve(leader, trick) == first, deal
        assert search.nodes < nodes, deal


def test_one_search_given_another_deal_keeps_no_shape_of_the_first(dd_core: ModuleType) -> None:
    """The table's key reads each suit's shape from what it made for the same live cards
    before; ``hands`` set to a deal where cards changed hands must not reuse those (each
    value as a fresh search has it; the table's entries, keyed by true shapes, stay valid)."""
    rng = random.Random(5)
    for _ in range(6):
        deal = Deal(**{**random_ending(rng, 4, 4).__dict__, "played": ()})
        search, leader, trick = _search_of(deal, dd_core, None)
        search.solve(leader, trick)
        swapped = list(reversed(search.hands))  # every card to another holder
        search.hands = swapped
        fresh = _search_of(deal, dd_core, None)[0]
        fresh.hands = list(swapped)
        assert search.solve(leader, trick) == fresh.solve(leader, trick), deal


# Endings where a partition-search table (one entry for every position that differs only
# in low cards: their holders free, each player's count of them kept) answers wrongly if it
# forgets a card whose rank mattered. Each was found by solving random endings on such a
# table with one forgetting rule put in, and fails with that rule; they hold any table
# that abstracts cards to brute force.
PARTITION_TRAPS = {
    # the trick's winner beat a lower card of its suit, so its rank decided the trick
    "a winner over a lower card, mid-trick": Deal(
        {Seat.E: cards("HT H9 H7 H6"), Seat.S: cards("HA HK H8 H2")}, (Seat.E, Seat.S),
        Suit.H, Seat.E, frozenset({Seat.S}), Goal.FEWEST, False, play("H9 HK")),
    "a winner over a lower card, no trumps": Deal(
        {Seat.S: cards("SA S9 S5 S2"), Seat.W: cards("SJ S8 S4 S3")}, (Seat.S, Seat.W), None,
        Seat.S, frozenset({Seat.W}), Goal.FEWEST, False, play("S2 S4 S3")),
    # one card of a run of equal cards is searched for all; a relevant card inside the run
    # makes the whole run relevant (elsewhere its cards need not be equal)
    "a run cut by its relevant card": Deal(
        {Seat.N: cards("SA SK SQ S8 S4"), Seat.S: cards("SJ ST S9 S7 S5")}, (Seat.N, Seat.S),
        None, Seat.N, frozenset({Seat.N}), Goal.FEWEST, True),
    "a run cut by its relevant card, trumps, mid-trick": Deal(
        {Seat.S: cards("HK HT H3 H2 D4"), Seat.W: cards("HA H6 D7 CA C5")}, (Seat.S, Seat.W),
        Suit.H, Seat.W, frozenset({Seat.W}), Goal.FEWEST, False, play("D7")),
    # a bound for the side that does not cut off rests on every card tried, not the last
    "every card tried, must_trump, mid-trick": Deal(
        {Seat.E: cards("DA DK D7 D4 D3"), Seat.S: cards("DJ DT D8 D5 D2")}, (Seat.E, Seat.S),
        Suit.D, Seat.S, frozenset({Seat.S}), Goal.FEWEST, True, play("D2")),
    "every card tried, four hands, trumps": Deal(
        {Seat.N: cards("S5 S4 HA H5"), Seat.E: cards("S3 S2 CQ C3"),
         Seat.S: cards("H8 C8 C5 C2"), Seat.W: cards("S9 H3 CA C4")},
        (Seat.N, Seat.E, Seat.S, Seat.W), Suit.H, Seat.S, frozenset({Seat.E, Seat.N, Seat.W}),
        Goal.FEWEST, False),
    # three hands of one suit, all trumps, must_trump (Préférence's shape)
    "three hands, trumps, must_trump": Deal(
        {Seat.N: cards("CA C7 C4 C3"), Seat.E: cards("CK CJ C6 C5"),
         Seat.W: cards("CQ C9 C8 C2")}, (Seat.N, Seat.E, Seat.W), Suit.C, Seat.N,
        frozenset({Seat.W, Seat.N}), Goal.FEWEST, True),
    # four hands of one suit, mid-trick: low cards win because the rest duck under them
    "four hands of one suit, mid-trick": Deal(
        {Seat.N: cards("S8 S5 S3"), Seat.E: cards("SQ S7 S4"), Seat.S: cards("SA S9 S2"),
         Seat.W: cards("SK SJ ST")}, (Seat.N, Seat.E, Seat.S, Seat.W), None, Seat.N,
        frozenset({Seat.S, Seat.E, Seat.N}), Goal.MOST, True, play("S8")),
}


@pytest.mark.parametrize("name", sorted(PARTITION_TRAPS))
def test_positions_equal_but_for_low_cards_agree_with_brute_force(name: str) -> None:
    _agrees(PARTITION_TRAPS[name])
