"""The one trick-winner rule, the one follow-suit rule and the one card table (game/tricks.py),
which both families and the double-dummy solver play on."""

from __future__ import annotations

import random

import pytest

from priffe_records.game.cards import FULL_DECK, SUITS, Card, Seat, Suit
from priffe_records.game.tricks import (
    CARD_IDS,
    CARDS,
    ELSEWHERE,
    MUST_FOLLOW,
    MUST_TRUMP,
    NO_TRUMP,
    NOT_HELD,
    PLAYABLE,
    PLAYED,
    SHOWED_OUT,
    beats,
    card_fault,
    card_id,
    hand_mask,
    highest,
    ids_of,
    legal_mask,
    play_tricks,
    playable,
    suit_index,
    trick_winner,
    winning_index,
)


def test_the_card_table_round_trips_every_card() -> None:
    assert len(CARDS) == 52 and set(CARDS) == FULL_DECK
    for cid, card in enumerate(CARDS):
        assert card_id(card) == cid == CARD_IDS[str(card)]
        assert cid // 13 == SUITS.index(card.suit)  # a suit is a 13-bit field
    assert [str(CARDS[i]) for i in ids_of(hand_mask(map(Card.parse, ["C2", "SA", "S2"])))] == \
        ["S2", "SA", "C2"]


def test_highest_names_the_top_card_of_a_suit() -> None:
    held = hand_mask(map(Card.parse, ["H3", "HQ", "S4"]))
    assert highest(held, suit_index(Suit.H)) == Card.parse("HQ")
    assert highest(held, suit_index(Suit.D)) is None


def _by_rule(cards: list[Card], trump: Suit | None) -> int:
    """R12 as RULES.md says it: a trump beats every other suit, else the suit led counts."""
    led = cards[0].suit
    pool = [c for c in cards if c.suit is trump] or [c for c in cards if c.suit is led]
    return cards.index(max(pool, key=lambda c: c.rank.order))


@pytest.mark.parametrize("trump", [None, *SUITS])
def test_r12_the_winner_is_the_highest_trump_else_the_highest_of_the_suit_led(
        trump: Suit | None) -> None:
    rng = random.Random(12)
    deck = sorted(FULL_DECK, key=card_id)
    for _ in range(500):
        cards = rng.sample(deck, rng.choice((2, 3, 4)))
        want = _by_rule(cards, trump)
        assert winning_index([card_id(c) for c in cards], suit_index(trump)) == want
        seats = [Seat.N, Seat.E, Seat.S, Seat.W][:len(cards)]
        assert trick_winner(list(zip(seats, cards, strict=False)), trump) is seats[want]


def test_r12_a_low_trump_beats_the_ace_led_and_a_discard_never_wins() -> None:
    ids = [CARD_IDS[t] for t in ("HA", "D2", "SK")]
    assert winning_index(ids, suit_index(Suit.D)) == 1
    assert winning_index(ids, NO_TRUMP) == 0  # SK is a discard
    ha, d2, sk = ids
    assert beats(d2, ha, suit_index(Suit.D)) and not beats(sk, ha, suit_index(Suit.D))
    assert beats(ha, CARD_IDS["HK"], NO_TRUMP) and not beats(sk, ha, NO_TRUMP)


def test_r11_legal_a_player_with_the_suit_led_must_follow() -> None:
    held = hand_mask(map(Card.parse, ["H2", "HK", "S5", "D9"]))
    legal = legal_mask(held, suit_index(Suit.H), suit_index(Suit.S), True)
    assert set(ids_of(legal)) == {CARD_IDS["H2"], CARD_IDS["HK"]}
    assert legal_mask(held, -1, NO_TRUMP, False) == held  # the lead: any card


def test_r11_must_trump_a_void_player_must_trump_only_under_the_option() -> None:
    held = hand_mask(map(Card.parse, ["S5", "D9"]))
    clubs, spades = suit_index(Suit.C), suit_index(Suit.S)
    assert set(ids_of(legal_mask(held, clubs, spades, True))) == {CARD_IDS["S5"]}
    assert legal_mask(held, clubs, spades, False) == held
    assert legal_mask(held, clubs, NO_TRUMP, True) == held  # no trumps: nothing to trump with
    no_trump_held = hand_mask([Card.parse("D9")])
    assert legal_mask(no_trump_held, clubs, spades, True) == no_trump_held


def test_playable_keeps_the_order_it_was_given() -> None:
    hand = [Card.parse(t) for t in ("DK", "S5", "D2", "H7")]
    assert playable(hand, Suit.D, None, False) == [hand[0], hand[2]]
    assert playable(hand, None, None, False) == hand
    assert playable(hand, Suit.C, Suit.H, True) == [hand[3]]


def test_r11_p10_the_one_card_rule_names_each_fault_first_to_last() -> None:
    held = hand_mask(map(Card.parse, ["H3", "S4", "D7"]))
    hearts, spades, clubs = suit_index(Suit.H), suit_index(Suit.S), suit_index(Suit.C)
    h3, d7, ca = (CARD_IDS[t] for t in ("H3", "D7", "CA"))
    assert card_fault(held, h3, hearts, spades, True) == PLAYABLE
    assert card_fault(held, d7, -1, spades, True) == PLAYABLE  # the lead: any card held
    assert card_fault(held, h3, -1, NO_TRUMP, False, gone=1 << h3) == PLAYED
    assert card_fault(held, h3, -1, NO_TRUMP, False, elsewhere=True) == ELSEWHERE
    assert card_fault(held, ca, -1, NO_TRUMP, False) == NOT_HELD
    assert card_fault(None, ca, -1, NO_TRUMP, False) == PLAYABLE  # an unknown hand
    assert card_fault(None, ca, -1, NO_TRUMP, False, void=True) == SHOWED_OUT
    assert card_fault(held, d7, hearts, spades, False) == MUST_FOLLOW
    assert card_fault(held, d7, clubs, spades, True) == MUST_TRUMP
    assert card_fault(held, d7, clubs, spades, False) == PLAYABLE


def test_a_trick_is_clean_exactly_when_the_card_rule_allows_each_card() -> None:
    """play_tricks asks card_fault: the clean path holds no rule of its own."""
    rng = random.Random(4)
    ids = list(range(52))
    for _ in range(300):
        rng.shuffle(ids)
        hands = [ids[13 * k:13 * k + 13] for k in range(4)]
        trick = [rng.choice([*h[:3], rng.randrange(52)]) for h in hands]
        held = [sum(1 << c for c in h) for h in hands]
        trump, must = rng.randrange(-1, 4), rng.random() < 0.5
        led = trick[0] // 13
        allowed = all(card_fault(held[k], c, led if k else -1, trump, must) == PLAYABLE
                      for k, c in enumerate(trick)) and len(set(trick)) == 4
        assert (play_tricks(trick, 0, list(held), trump, must) != []) == allowed


def test_a_last_trick_cut_short_before_its_lead_has_no_winner_and_its_cards_leave() -> None:
    """A claim may end the last trick before its leader played: the cards that were
    played still leave their hands, any card may be played (nothing was led), and the
    trick has no winner (-1)."""
    def ids(*cards: str) -> list[int]:
        return [card_id(Card.parse(t)) for t in cards]
    first = ids("♠2", "♠3", "♠4", "♠A")  # N leads, W (column 3) wins and leads next
    short = ids("♥2", "♦3")  # N and E played, then the claim: W never led
    kept = ids("♣K")[0]
    held = [1 << first[0] | 1 << short[0], 1 << first[1] | 1 << short[1], 1 << first[2],
            1 << first[3] | 1 << kept]
    for trump, must in ((NO_TRUMP, False), (first[0] // 13, True)):
        after = list(held)
        assert play_tricks([*first, *short], 0, after, trump, must) == [3, -1]
        assert after == [0, 0, 0, 1 << kept]
