"""P1–P14 (PREFERENCE.md): for every rule a legal and an illegal case, named by rule ID."""

from __future__ import annotations

import pytest
from preference_support import BOARD1, EXAMPLE, TRICKS1, board1_with, example_with, swapped
from rules_support import counting_places, errors, findings, rules

from priffe_records import dumps, loads
from priffe_records.game.cards import Seat
from priffe_records.rules.findings import Finding, Severity
from priffe_records.rules.partie import parties
from priffe_records.rules.preference.analysis import analyse
from priffe_records.rules.preference.books import PrefPartie
from priffe_records.rules.preference.generate import PrefSpec, generate_partie
from priffe_records.rules.preference.options import PrefOptions
from priffe_records.rules.validate import validate


def messages(text: str, rule: str) -> list[str]:
    return [f.message for f in errors(text) if f.rule == rule]


def test_example_has_no_errors_or_warnings() -> None:
    fs = findings(EXAMPLE)
    assert [f for f in fs if f.severity is not Severity.UNVERIFIABLE] == []
    # Board 2 is a score-sheet line: its tricks are taken as written, and said so.
    assert [(f.rule, f.record) for f in fs] == [("P10", 2)]


# P1 deck and deal -------------------------------------------------------------------------------

def test_P1_32_cards_three_hands_ok() -> None:
    o = analyse(next(iter(loads(BOARD1))))
    assert o.cards is not None and o.cards.talon is not None
    assert "P1" not in rules(BOARD1)


def test_P1_low_card_is_error() -> None:
    text = board1_with(Deal="S:86.T97.T98.JT - AKQ9.A8.K7.A7 JT.KQJ.AQJ.KQ")
    assert any("♠6" in m and "32-card" in m for m in messages(text, "P1"))


def test_P1_west_dealt_cards_is_error() -> None:
    text = board1_with(Deal="S:87.T97.T98.JT 2... AKQ9.A8.K7.A7 JT.KQJ.AQJ.KQ")
    assert any("West is dealt" in m for m in messages(text, "P1"))


def test_P1_card_in_hand_and_talon_is_error() -> None:
    text = board1_with(Talon="C9 CK")
    assert any("♣K" in m and "both" in m for m in messages(text, "P1"))


def test_P1_unknown_hand_is_deduced() -> None:
    text = board1_with(Deal="S:87.T97.T98.JT - - JT.KQJ.AQJ.KQ")
    o = analyse(next(iter(loads(text))))
    assert o.cards is not None
    north = o.cards.hand(Seat.N)
    assert north is not None and north.pbn() == "AKQ9.A8.K7.A7"
    assert errors(text) == []


# P2 dealer ----------------------------------------------------------------------------------------

def test_P2_deal_passes_clockwise_ok() -> None:
    assert "P2" not in rules(EXAMPLE)


def test_P2_wrong_next_dealer_is_error() -> None:
    text = example_with(3, Dealer="S")
    assert any("the deal passes to East" in m for m in messages(text, "P2"))


def test_P2_west_deals_is_error() -> None:
    assert "P2" in rules(board1_with(Dealer="W"))


# P3 bids ----------------------------------------------------------------------------------------

def test_P3_any_case_and_symbols_read() -> None:
    text = board1_with(auction="♠ diamonds PASS DIAMONDS\nhearts pass")
    assert errors(text) == []
    rec = next(iter(loads(text)))
    assert rec.auction is not None
    assert [t.text for t in rec.auction.tokens] == ["Spades", "Diamonds", "Pass", "Diamonds",
                                                    "Hearts", "Pass"]


def test_P3_priffe_word_is_error() -> None:
    assert "P3" in rules(board1_with(auction="Spela Pass Pass"))


# P4 turns -------------------------------------------------------------------------------------

def test_P4_eldest_calls_first_ok() -> None:
    assert "P4" not in rules(EXAMPLE)


def test_P4_auction_not_from_eldest_is_error() -> None:
    text = BOARD1.replace('[Auction "N"]', '[Auction "E"]')
    assert any("eldest hand is North" in m for m in messages(text, "P4"))


# P5 higher, or hold ----------------------------------------------------------------------------

def test_P5_hold_by_earlier_seat_ok() -> None:
    assert "P5" not in rules(BOARD1)


def test_P5_later_seat_may_not_hold() -> None:
    # PREFERENCE.md's own case: middle hand may not hold eldest's Diamonds.
    text = board1_with(auction="Clubs Spades Diamonds Diamonds Diamonds Pass Pass")
    ms = messages(text, "P5")
    assert len(ms) == 1 and "East bids Diamonds" in ms[0] and "sits earlier" in ms[0]


def test_P5_bid_not_higher_is_error() -> None:
    text = board1_with(auction="Diamonds Spades Pass Pass")
    assert any("not higher than Diamonds" in m for m in messages(text, "P5"))


# P6 end ----------------------------------------------------------------------------------------

def test_P6_forced_dealer_bid_ok() -> None:
    text = board1_with(auction="Pass Pass Hearts", Declarer="S", Discard="S8 S7",
                       Result="N 5 E 4 S 1")
    assert "P6" not in rules(text)


def test_P6_dealer_may_not_pass_after_two_passes() -> None:
    text = board1_with(auction="Pass Pass Pass")
    assert any("the dealer must bid" in m for m in messages(text, "P6"))


def test_P6_call_after_the_end_is_error() -> None:
    text = board1_with(auction="Spades Diamonds Pass Diamonds Hearts Pass Hearts")
    assert any("after the auction is over" in m for m in messages(text, "P6"))


def test_P6_every_call_after_the_end_is_located_in_linear_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One P6 per call after the end, each at its call, the places found in one pass over
    the line: asking the section for each call's place from its line's start made one
    auction quadratic in its calls (1,500 calls: over a million places before)."""
    n = 1500
    ended = "Spades Diamonds Pass Diamonds Hearts Pass "
    [rec] = loads(board1_with(auction=ended + " ".join(["Hearts"] * n)))
    seen = counting_places(monkeypatch)
    fs = [f for f in validate([rec]) if f.rule == "P6"]
    assert len(fs) == n
    assert [(f.location.line, f.location.column) for f in (fs[0], fs[1], fs[-1])
            if f.location] == [(17, len(ended) + 1), (17, len(ended) + 8),
                               (17, len(ended) + 1 + 7 * (n - 1))]
    assert seen[0] <= 2 * (n + 40), seen[0]


def test_P6_auction_over_when_all_but_one_passed_ok() -> None:
    assert [f for f in findings(BOARD1) if f.rule == "P6"] == []


def test_P6_auction_stopping_before_all_but_one_passed_is_error() -> None:
    """Two players still in and no '*': the auction is not over (it was scored from the
    Declarer tag without a word)."""
    fs = [f for f in findings(board1_with(auction="Spades Diamonds Pass")) if f.rule == "P6"]
    assert [(f.severity, f.location.line, f.location.column) for f in fs if f.location] == \
        [(Severity.ERROR, 17, 17)]
    assert "stops after 3 calls, before all but one have passed" in fs[0].message


def test_P6_auction_cut_short_with_star_is_unverifiable() -> None:
    fs = [f for f in findings(board1_with(auction="Spades Diamonds Pass *")) if f.rule == "P6"]
    assert [(f.severity, f.message) for f in fs] == [
        (Severity.UNVERIFIABLE, "the auction stops after 3 calls: the declarer is taken from "
                                "the Declarer tag")]


# P7 talon and discard -------------------------------------------------------------------------

def test_P7_discard_from_the_twelve_ok() -> None:
    assert "P7" not in rules(BOARD1)
    # Keeping the talon's ♣9 and discarding it is allowed too (the play then breaks P10).
    assert "P7" not in rules(board1_with(Discard="C9 SJ"))


def test_P7_discard_not_held_is_error() -> None:
    assert any("neither in his hand nor in the talon" in m
               for m in messages(board1_with(Discard="ST SA"), "P7"))


def test_P7_discard_after_hand_bid_is_error() -> None:
    text = example_with(2, Discard="ST SJ")
    assert any("after a hand bid" in m for m in messages(text, "P7"))


# P8 contract -----------------------------------------------------------------------------------

def test_P8_contract_at_least_the_bid_ok() -> None:
    assert "P8" not in rules(EXAMPLE)


def test_P8_contract_below_bid_is_error() -> None:
    assert any("below the final bid" in m for m in messages(board1_with(Contract="Clubs"), "P8"))


def test_P8_hand_contract_after_talon_bid_is_error() -> None:
    assert any("talon bid" in m for m in messages(board1_with(Contract="Preference"), "P8"))


# P9 drop-outs -----------------------------------------------------------------------------------

def test_P9_give_up_and_drop_out_ok() -> None:
    assert "P9" not in rules(EXAMPLE)


def test_P9_entry_after_give_up_is_error() -> None:
    text = example_with(3, Dropout="S N")
    assert any("after the declarer gave up" in m for m in messages(text, "P9"))


def test_P9_play_after_both_dropped_out_is_error() -> None:
    text = board1_with(Dropout="N S")
    assert any("Play section" in m for m in messages(text, "P9"))


# P10 play ----------------------------------------------------------------------------------------

def test_P10_play_follows_and_trumps_ok() -> None:
    assert "P10" not in rules(BOARD1)


def test_P10_revoke_is_error() -> None:
    text = board1_with(swapped(2, 1, 3, 1))  # South plays ♦8 to a heart lead, holding ♥9
    assert any("must follow hearts" in m for m in messages(text, "P10"))


def test_P10_failure_to_trump_is_error_under_must_trump() -> None:
    text = board1_with(swapped(6, 1, 9, 1))  # South discards ♣J on ♠Q, holding ♥10
    assert any("must trump" in m for m in messages(text, "P10"))
    off = board1_with(swapped(6, 1, 9, 1), Scoring="Preference;must_trump=off")
    assert not any("must trump" in m for m in messages(off, "P10"))


def test_P10_declarer_leads() -> None:
    text = BOARD1.replace('[Play "E"]', '[Play "S"]')
    assert any("declarer East leads" in m for m in messages(text, "P10"))


def test_P10_two_columns_after_a_drop_out() -> None:
    rec = next(iter(loads(EXAMPLE)))
    assert rec.play is not None and len(rec.play.tokens) == 30


def _played(text: str) -> list[Finding]:
    """The rule findings of a record read as a user's file is (a bad row kept, not raised)."""
    return [f for f in validate(loads(text, errors="collect")) if f.rule != "PPN"]


def test_P10_P14_each_line_is_one_trick_ok() -> None:
    o = analyse(next(iter(loads(BOARD1))))
    assert o.play is not None and o.play.complete
    assert [[str(p.card) for p in t.cards] for t in o.play.tricks][:2] == \
        [["HK", "H7", "HA"], ["SA", "HJ", "S7"]]  # trick 2 led by North, who won trick 1
    assert not [f for f in _played(BOARD1) if f.rule in ("P10", "P14")]


def test_P10_P14_a_card_too_many_on_a_line_is_one_error() -> None:
    """The next line is the next trick: one P10 at the extra card, and the later tricks,
    the Result and the payments stand (the cards were once regrouped by threes: 19 P10
    errors and a P14 from one slip)."""
    tricks = [list(t) for t in TRICKS1]
    tricks[1].append("C8")
    fs = _played(board1_with(tricks))
    assert [(f.rule, f.location.line, f.location.column) for f in fs if f.location] == \
        [("P10", 21, 10)], fs
    assert "C8" in fs[0].message and "trick 2" in fs[0].message


def test_P10_a_short_line_is_one_error_and_the_next_line_the_next_trick() -> None:
    tricks = [list(t) for t in TRICKS1]
    tricks[1].pop()  # North's ♠A is missing from trick 2
    fs = [f for f in _played(board1_with(tricks)) if f.is_error]
    assert [(f.rule, f.message) for f in fs] == \
        [("P10", "trick 2 has 2 cards: every player who plays gives one")]


def test_P10_play_rows_are_found_in_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line of thousands of cards: one P10 for the extra cards, their places found in one
    pass over the section."""
    n = 3000
    [rec] = loads(BOARD1.replace("CQ CJ S9\n", "CQ CJ S9 " + " ".join(["CA"] * n) + "\n"),
                  errors="collect")
    seen = counting_places(monkeypatch)
    fs = [f for f in validate([rec]) if f.rule == "P10"]
    assert len(fs) == 1 and "has 3003 cards" in fs[0].message
    assert seen[0] <= 2 * (n + 40), seen[0]


# P11 made or not --------------------------------------------------------------------------------

def test_P11_failed_declarer_pays_ok() -> None:
    assert "P11" not in rules(BOARD1)


def test_P11_score_as_if_made_is_error() -> None:
    text = board1_with(Score="N 1;E 10;S -11")
    assert "P11" in rules(text)


# P12 payments ------------------------------------------------------------------------------------

def test_P12_payments_ok() -> None:
    assert "P12" not in rules(EXAMPLE)


def test_P12_wrong_fee_is_error() -> None:
    text = board1_with(Score="N 0;E -20;S -10")
    ms = messages(text, "P12")
    assert ms and "N 1;E -20;S -11" in ms[0]


def test_P12_give_up_pays_each_defender() -> None:
    assert "P12" in rules(example_with(3, Score="N 5;E 0;S -5"))


# P13 ante ----------------------------------------------------------------------------------------

def test_P13_antes_in_balance_not_in_score_ok() -> None:
    assert "P13" not in rules(EXAMPLE)


def test_P13_score_with_antes_is_error() -> None:
    assert "P13" in rules(board1_with(Score="N -9;E -30;S -21"))


def test_P13_ante_option() -> None:
    text = board1_with(Scoring="Preference;ante=5", Pot="45", Balance="N -4;E -25;S -16")
    assert errors(text) == []


def test_P13_ante_option_zero_ok() -> None:
    """PREFERENCE.md gives no range: ante=0 is an ante (the generator writes such parties);
    it was rejected and the partie checked with 10, so every Pot and Balance was wrong."""
    recs = generate_partie(3, spec=PrefSpec(deals=6, options=PrefOptions(ante=0)))
    text = dumps(recs)
    assert 'Scoring "Preference;ante=0"' in text
    assert findings(text) == []
    [partie] = [p for p in parties(loads(text)) if isinstance(p, PrefPartie)]
    last = recs[-1].get("Balance")
    assert last is not None and dict(partie.standings) == {
        recs[-1].get(tag): int(v.split()[1])
        for tag, v in zip(("North", "East", "South"), last.split(";"), strict=True)}


def _ante_findings(value: str) -> list[Finding]:
    return findings(example_with(1, Scoring=f"Preference;ante={value}"))


def test_P13_ante_option_too_large_is_a_located_warning_not_ante_10() -> None:
    fs = _ante_findings("99999999999999999999")
    assert [(f.rule, f.severity, f.location.line, f.location.column)
            for f in fs if f.severity is not Severity.UNVERIFIABLE and f.location] == \
        [("P13", Severity.WARNING, 11, 11)]
    assert "more than 1000000" in fs[0].message
    # The pot is not known, so board 1's claims are taken as written (not checked with 10).
    assert {f.rule for f in fs if f.severity is Severity.UNVERIFIABLE} == {"P14", "P10"}


def test_P13_ante_option_not_a_number_is_error_not_ante_10() -> None:
    for value in ("x", "-3", "²", ""):
        fs = _ante_findings(value)
        assert [(f.rule, f.severity) for f in fs if f.severity is not Severity.UNVERIFIABLE] \
            == [("P13", Severity.ERROR)], (value, fs)


# P14 claims -------------------------------------------------------------------------------------

def test_P14_claims_ok() -> None:
    assert "P14" not in rules(EXAMPLE)


def test_P14_wrong_pot_is_error() -> None:
    assert any("Pot says 50" in m for m in messages(example_with(1, Pot="50"), "P14"))


def test_P14_wrong_balance_is_error() -> None:
    assert "P14" in rules(example_with(2, Balance="N -9;E -20;S -20"))


def test_P14_wrong_declarer_and_result_are_errors() -> None:
    assert any("made the final bid" in m for m in messages(board1_with(Declarer="N"), "P14"))
    assert any("the play gives" in m
               for m in messages(board1_with(Result="N 4 E 5 S 1"), "P14"))


def test_P14_balance_follows_the_player_not_the_seat() -> None:
    # Board 3 with Anna and Bertil changing seats: balances stay with the names.
    text = example_with(3, North="Bertil", East="Anna", Balance="N -17;E -6;S -27")
    assert errors(text) == []


def test_unknown_option_is_error() -> None:
    assert "Presets" in rules(board1_with(Scoring="Preference;bonus=3"))


def test_score_sheet_is_scored_and_says_what_it_cannot_check() -> None:
    text = ('[Event "x"]\n[Dealer "S"]\n[Scoring "Preference"]\n[Declarer "E"]\n'
            '[Contract "Hearts"]\n[Result "N 5 E 4 S 1"]\n[Score "N 1;E -20;S -11"]\n'
            '[Pot "60"]\n[Balance "N -9;E -30;S -21"]\n')
    fs = findings(text)
    assert [f for f in fs if f.is_error] == []
    assert any("not checked" in f.message and "declarer and tricks" in f.message for f in fs)
