"""The own solver against DDS (the bridge solver, through endplay) on positive positions
both can solve: four hands N E S W, partnerships, most tricks, no must-trump rule.
Without endplay, skipped: the own solver then answers these positions alone."""

from __future__ import annotations

import random

import pytest
from dd_oracle import ending, with_random_play
from hypothesis import given
from hypothesis import strategies as st

from priffe_records import dd
from priffe_records.dd import Deal, Goal, analyse_play, card_values, value
from priffe_records.game.cards import SEATS, Card, Rank, Seat, Suit

pytest.importorskip("endplay")

# Every proof runs against the compiled core and the pure one (tests/dd_cores.py).
pytestmark = pytest.mark.usefixtures("dd_core")


def bridge_position(rng: random.Random, tricks_left: int) -> Deal:
    """A whole random deal of four 13-card hands, played at random down to
    ``tricks_left`` tricks (often mid-trick), trumps or no trumps, either partnership."""
    deck = [Card(s, r) for s in Suit for r in Rank]
    rng.shuffle(deck)
    hands = {seat: frozenset(deck[i * 13:(i + 1) * 13]) for i, seat in enumerate(SEATS)}
    side = frozenset(rng.choice([(Seat.N, Seat.S), (Seat.E, Seat.W)]))
    deal = Deal(hands, SEATS, rng.choice([None, *Suit]), rng.choice(SEATS), side, Goal.MOST,
                False)
    return with_random_play(rng, deal, 52 - 4 * tricks_left + rng.randint(0, 3))


def _same_answers(deal: Deal) -> None:
    assert card_values(deal) == card_values(deal, solver="own"), deal
    assert value(deal) == value(deal, solver="own"), deal


def test_positive_positions_go_to_dds_and_agree_with_the_own_solver(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    solve = dd.dds.card_values
    monkeypatch.setattr(dd.dds, "card_values", lambda *a: calls.append(a) or solve(*a))
    rng = random.Random(22)
    for tricks in (1, 2, 3, 4, 5) * 2:
        _same_answers(bridge_position(rng, tricks))
    assert len(calls) == 20, "auto sends bridge-shaped positions to DDS"


def test_every_card_of_a_played_ending_costs_the_same_both_ways() -> None:
    rng = random.Random(5)
    for tricks in (3, 4, 5):
        deal = ending(with_random_play(rng, bridge_position(rng, 13), 52), 13 - tricks)
        mine, theirs = analyse_play(deal, solver="own"), analyse_play(deal)
        assert mine == theirs and mine.complete and len(mine.cards) == 4 * tricks


def test_misere_and_must_trump_stay_with_the_own_solver(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dd.dds, "card_values", lambda *a: pytest.fail("DDS asked"))
    rng = random.Random(1)
    deal = ending(with_random_play(rng, bridge_position(rng, 13), 52), 10)
    deal = Deal(**{**deal.__dict__, "played": ()})
    for change in ({"goal": Goal.FEWEST}, {"must_trump": True},
                   {"side": frozenset({Seat.N})}):
        value(Deal(**{**deal.__dict__, **change}))


@given(st.integers(0, 2**32), st.integers(1, 6))
def test_generated_positive_positions_agree_with_dds(seed: int, tricks: int) -> None:
    _same_answers(bridge_position(random.Random(seed), tricks))
