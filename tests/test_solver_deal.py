"""Each family's deal for the double-dummy solver (the ``dd_deal`` family hook).

Priffe (RULES.md R8, R10, R11, R13) and Préférence (PREFERENCE.md P7–P10): who plays,
in which order, trumps, leader, the measured side and its aim, and how far the play can
be followed; ``None`` where there is nothing to analyse.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from priffe_records.dd import Budget, Goal, analyse_play, value
from priffe_records.format.reader import loads
from priffe_records.format.record import Record
from priffe_records.game.cards import Card, Seat, Suit
from priffe_records.rules.family import family_for

EXAMPLES = Path(__file__).parent.parent / "examples"
N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W

# One Priffe deal (N deals, so E is forehand and leads by R10); the tags after it vary.
HANDS = ('[Dealer "N"]\n'
         '[Deal "N:KJ.A7.AQ3.AKQJ63 A64.T9863.T8742. T9872.KQ2.KJ6.85 Q53.J54.95.T9742"]\n')


def _record(text: str) -> Record:
    records = list(loads(text, errors="collect"))
    assert len(records) == 1 and isinstance(records[0], Record)
    return records[0]


def _deal(text: str):  # type: ignore[no-untyped-def]
    record = _record(text)
    family = family_for(record.get("Scoring"))
    return family.dd_deal(family.analyse(record, None, False))


def _board(name: str, board: str) -> Record:
    for r in loads((EXAMPLES / name).read_text("utf-8"), errors="collect"):
        if isinstance(r, Record) and r.get("Board") == board:
            return r
    raise AssertionError(f"{name} has no board {board}")


def _example_deal(name: str, board: str):  # type: ignore[no-untyped-def]
    record = _board(name, board)
    family = family_for(record.get("Scoring"))
    return family.dd_deal(family.analyse(record, None, False))


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


# ------------------------------------------------------------------ Priffe


def test_r8_positive_contract_measures_declaring_side_for_most_tricks() -> None:
    deal = _deal(HANDS + '[Declarer "E"]\n[Contract "Hjärter"]\n[Auction "E"]\n'
                 'Hjärter Pass Pass Pass\n[Play "E"]\nH9 H2 H4 HA\nH3 HQ HJ H7\n*\n')
    assert deal is not None
    assert deal.goal is Goal.MOST and deal.side == frozenset({E, W})
    assert deal.trump is Suit.H and deal.leader is E and deal.order == (N, E, S, W)
    assert deal.played == _cards("H9 H2 H4 HA H7 H3 HQ HJ")  # trick 2 led by N (won trick 1)
    assert deal.hands[N] == frozenset(_cards("SK SJ HA H7 DA DQ D3 CA CK CQ CJ C6 C3"))
    assert not deal.must_trump


def test_r8_noll_measures_declaring_side_for_fewest_tricks() -> None:
    deal = _deal(HANDS + '[Declarer "W"]\n[Contract "Noll"]\n[Auction "E"]\n'
                 'Pass Pass Noll Pass\n[Play "E"]\nS4 S2 S3 SJ\n*\n')
    assert deal is not None and deal.played == _cards("S4 S2 S3 SJ")
    assert deal.goal is Goal.FEWEST and deal.side == frozenset({E, W}) and deal.trump is None


def test_r8_forced_noll_measures_north_south_for_fewest_tricks() -> None:
    deal = _example_deal("partie-uppsala.ppn", "2")  # Tvångsnoll: Klöver by S
    assert deal is not None
    assert deal.goal is Goal.FEWEST and deal.side == frozenset({N, S}) and deal.trump is None
    assert deal.leader is E and len(deal.played) == 52


def test_r8_passnoll_measures_north_south_for_fewest_tricks() -> None:
    deal = _example_deal("partie-uppsala.ppn", "5")
    assert deal is not None
    assert deal.goal is Goal.FEWEST and deal.side == frozenset({N, S})


def test_r10_first_lead_declarer_left_leads_as_played() -> None:
    deal = _deal('[Scoring "Priffe;first_lead=declarer_left"]\n' + HANDS
                 + '[Declarer "S"]\n[Contract "Spela"]\n[Auction "E"]\nPass Spela\n'
                 '[Play "W"]\nC2 C3 S4 C5\n*\n')
    assert deal is not None and deal.leader is W and deal.played == _cards("C2 C3 S4 C5")


def test_r11_must_trump_option_binds_the_solver() -> None:
    on = _deal('[Scoring "Priffe;must_trump=on"]\n' + HANDS + '[Declarer "E"]\n'
               '[Contract "Hjärter"]\n[Auction "E"]\nHjärter Pass Pass Pass\n'
               '[Play "E"]\nH9 H2 H4 HA\n*\n')
    off = _deal(HANDS + '[Declarer "E"]\n[Contract "Hjärter"]\n[Auction "E"]\n'
                'Hjärter Pass Pass Pass\n[Play "E"]\nH9 H2 H4 HA\n*\n')
    assert on is not None and off is not None and on.must_trump and not off.must_trump


def test_r13_claim_mid_trick_keeps_the_cards_before_it() -> None:
    deal = _deal(HANDS + '[Declarer "E"]\n[Contract "Hjärter"]\n[Auction "E"]\n'
                 'Hjärter Pass Pass Pass\n[Play "E"]\nH9 H2 H4 HA\nH3 - HJ H7\n*\n')
    # trick 2 is led by N (H7), then E (H3); S's card is unknown: the play stops there
    assert deal is not None and deal.played == _cards("H9 H2 H4 HA H7 H3")


def test_r11_illegal_card_ends_the_followed_play() -> None:
    # N leads C3 to trick 2, E shows out, S revokes (D6 while holding clubs): no
    # position after the revoke is one the players were in
    deal = _deal(HANDS + '[Declarer "W"]\n[Contract "Noll"]\n[Auction "E"]\n'
                 'Pass Pass Noll Pass\n[Play "E"]\nS4 S2 S3 SJ\nD2 D6 C2 C3\n*\n')
    assert deal is not None and deal.played == _cards("S4 S2 S3 SJ C3 D2")


def test_priffe_without_play_or_hands_has_no_solver_deal() -> None:
    no_play = HANDS + '[Declarer "E"]\n[Contract "Hjärter"]\n[Result "NS 6 EW 7"]\n'
    assert _deal(no_play) is None
    unknown = ('[Dealer "N"]\n[Deal "N:KJ.A7.AQ3.AKQJ63 - T9872.KQ2.KJ6.85 -"]\n'
               '[Declarer "E"]\n[Contract "Hjärter"]\n[Play "E"]\nH9 H2 H4 HA\n*\n')
    assert _deal(unknown) is None


@pytest.mark.parametrize("board", [str(n) for n in range(1, 12)])
def test_priffe_examples_end_with_the_tricks_the_play_gave(board: str) -> None:
    """The solver counts the played-out deal as the family counted it (R12), a claimed
    one (R13) between the tricks won and those plus the rest, and values the last trick's
    position: the family's deal is the deal that was played."""
    record = _board("partie-uppsala.ppn", board)
    outcome = family_for(None).analyse(record, None, False)
    deal = family_for(None).dd_deal(outcome)
    assert deal is not None and outcome.play is not None
    won = outcome.play.won.ns if N in deal.side else outcome.play.won.ew
    left = 13 - len(deal.played) // 4
    assert outcome.play.complete == (left == 0)
    assert won <= value(deal) <= won + left  # type: ignore[operator]
    play = analyse_play(deal, Budget(nodes=5_000))  # from the end back: the last tricks
    assert len(play.cards) == len(deal.played)
    if left == 0:
        assert play.cards[-1].cost == 0  # the last card of a deal has no choice
    assert [c.seat for c in play.cards[:4]] == list(deal.order[deal.order.index(deal.leader):]
                                                    + deal.order[:deal.order.index(deal.leader)])


# ------------------------------------------------------------------ Préférence

GRAZ = ('[Scoring "Preference"]\n[Dealer "S"]\n'
        '[Deal "S:87.T97.T98.JT - AKQ9.A8.K7.A7 JT.KQJ.AQJ.KQ"]\n[Talon "C9 C8"]\n'
        '[Declarer "E"]\n[Contract "Hearts"]\n[Discard "ST SJ"]\n[Auction "N"]\n'
        'Spades Diamonds Pass Diamonds\nHearts Pass\n')


def test_p7_talon_contract_plays_the_hand_after_the_discard() -> None:
    deal = _deal(GRAZ + '[Play "E"]\nHK H7 HA\nHJ S7 SA\n*\n')
    assert deal is not None
    assert deal.order == (E, S, N) and deal.leader is E and deal.trump is Suit.H
    assert deal.side == frozenset({E}) and deal.goal is Goal.MOST
    assert set(_cards("C9 C8")) <= deal.hands[E] and len(deal.hands[E]) == 10
    assert not set(_cards("ST SJ")) & deal.hands[E]
    assert deal.played == _cards("HK H7 HA SA HJ S7")  # trick 2 led by N, who won trick 1


def test_p8_hand_contract_leaves_the_talon_out() -> None:
    deal = _example_deal("preference-graz.ppn", "1")  # HandClubs by S, N dropped out
    assert deal is not None and deal.trump is Suit.C
    assert not set(_cards("DJ CK")) & frozenset().union(*deal.hands.values())


def test_p9_dropout_two_hands_play() -> None:
    deal = _example_deal("preference-graz.ppn", "1")
    assert deal is not None and deal.order == (S, E) and len(deal.hands) == 2
    assert len(deal.played) == 20


def test_p9_no_play_after_give_up_or_both_out() -> None:
    assert _example_deal("preference-graz.ppn", "3") is None  # both defenders out
    assert _example_deal("preference-graz.ppn", "4") is None


def test_p10_must_trump_on_by_default_off_by_option() -> None:
    on = _deal(GRAZ + '[Play "E"]\nHK H7 HA\n*\n')
    off = _deal(GRAZ.replace('"Preference"]', '"Preference;must_trump=off"]', 1)
                + '[Play "E"]\nHK H7 HA\n*\n')
    assert on is not None and off is not None and on.must_trump and not off.must_trump


def test_p10_revoke_ends_the_followed_play() -> None:
    # N leads D7 to trick 2 and E, holding ♦A Q J, plays ♥J: a revoke (P10)
    deal = _deal(GRAZ + '[Play "E"]\nHK H7 HA\nHJ S7 D7\n*\n')
    assert deal is not None and deal.played == _cards("HK H7 HA D7")


def test_preference_example_values_every_card() -> None:
    deal = _example_deal("preference-graz.ppn", "1")
    play = analyse_play(deal)
    assert play.complete and play.par is not None and 0 <= play.par <= 10
    assert all(c.cost is not None and c.cost >= 0 and c.best for c in play.cards)
    assert all(c.card in c.best or c.cost for c in play.cards)  # type: ignore[operator]


@pytest.mark.parametrize("board", ["1", "2", "5", "6", "7", "8", "9", "10", "11", "12"])
def test_preference_examples_end_with_the_declarers_tricks(board: str) -> None:
    record = _board("preference-graz.ppn", board)
    family = family_for(record.get("Scoring"))
    outcome = family.analyse(record, None, False)
    deal = family.dd_deal(outcome)
    assert deal is not None and outcome.play is not None and outcome.play.complete
    assert value(deal) == outcome.play.won[outcome.declarer]
