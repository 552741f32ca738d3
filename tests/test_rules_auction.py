"""R1–R9: table and seats, the deal, the dealer, the auction and its conventions."""

from __future__ import annotations

import pytest
from rules_support import (
    FORMAT_EXAMPLE,
    counting_places,
    deal_with,
    errors,
    findings,
    ppn,
    rules,
    set_tag,
)

from priffe_records import loads
from priffe_records.format.record import Record, Section, Tag, Token, TokenKind
from priffe_records.game.calls import Call, Contract
from priffe_records.game.cards import Seat
from priffe_records.rules.findings import Severity
from priffe_records.rules.priffe.auction import contract_for, run_auction
from priffe_records.rules.validate import validate


def auction_record(calls: str, first: str = "E", dealer: str = "N", contract: str | None = None,
                   declarer: str | None = None, **extra: str) -> str:
    tags = {"Event": "Test", "Dealer": dealer, **extra}
    if contract is not None:
        tags["Contract"] = contract
    if declarer is not None:
        tags["Declarer"] = declarer
    return ppn(tags, auction=(first, calls))


def section(*words: str) -> Section:
    return Section(tuple(Token(TokenKind.CALL, w) for w in words))


# R1 -------------------------------------------------------------------------------------------

def test_R1_four_different_players_ok() -> None:
    assert "R1" not in rules(FORMAT_EXAMPLE)


def test_R1_same_player_in_two_seats_is_error() -> None:
    bad = set_tag(FORMAT_EXAMPLE, "South", "Anna")
    [f] = [f for f in errors(bad) if f.rule == "R1"]
    assert "Anna sits both North and South" in f.message
    assert f.location is not None and f.location.line == 11


# R2 -------------------------------------------------------------------------------------------

def test_R2_full_deal_ok() -> None:
    assert "R2" not in rules(FORMAT_EXAMPLE)


def test_R2_unknown_hands_allowed() -> None:
    text = set_tag(FORMAT_EXAMPLE, "Deal", "N:KJ.A7.AQ3.AKQJ63 - T9872.KQ2.KJ6.85 -")
    assert "R2" not in rules(text)


def test_R2_card_dealt_twice_is_error() -> None:
    # West's ♠Q replaced by North's ♠K: ♠K twice, ♠Q nowhere.
    text = set_tag(FORMAT_EXAMPLE, "Deal",
                   "N:KJ.A7.AQ3.AKQJ63 A64.T9863.T8742. T9872.KQ2.KJ6.85 K53.J54.95.T9742")
    fs = [f for f in errors(text) if f.rule == "R2"]
    assert any("♠K is dealt to both North and West" in f.message for f in fs)
    assert fs[0].location is not None and fs[0].location.line == 13


def test_R2_short_hand_is_error() -> None:
    text = set_tag(FORMAT_EXAMPLE, "Deal",
                   "N:KJ.A7.AQ3.AKQJ6 A64.T9863.T8742. T9872.KQ2.KJ6.85 Q53.J54.95.T9742")
    assert any("North is dealt 12 cards" in f.message for f in errors(text))


def test_R2_one_unknown_hand_is_deduced_for_honours() -> None:
    # With East unknown the honours (♥ A K Q J: N A, S K Q, W J) are still all located.
    text = set_tag(FORMAT_EXAMPLE, "Deal", "N:KJ.A7.AQ3.AKQJ63 - T9872.KQ2.KJ6.85 Q53.J54.95.T9742")
    text = set_tag(text, "Honours", "NS 20 EW 0")
    assert [f.rule for f in errors(text)] == ["R17"]


# R3 -------------------------------------------------------------------------------------------

def _two_deals(second_dealer: str) -> str:
    first = sheet_deal("N", "1")
    second = sheet_deal(second_dealer, "2")
    return first + "\n" + second


def sheet_deal(dealer: str, board: str) -> str:
    return ppn({"Event": "T", "Rubber": "1", "Board": board, "Dealer": dealer,
                "Contract": "Passnoll", "Declarer": "", "Result": "NS 6 EW 7",
                "Honours": "NS 0 EW 0"})


def test_R3_deal_passes_left_ok() -> None:
    assert "R3" not in rules(_two_deals("E"), severity=None)


def test_R3_dealer_out_of_turn_is_warning() -> None:
    [f] = [f for f in findings(_two_deals("S")) if f.rule == "R3"]
    assert f.severity is Severity.WARNING
    assert "East was next after North" in f.message


def test_R3_bad_dealer_is_error() -> None:
    # The reader refuses such a tag; records built in code reach the validator anyway.
    rec = Record((Tag("Dealer", "X"), Tag("Contract", "Passnoll"), Tag("Result", "NS 6 EW 7")))
    assert [f.rule for f in validate([rec]) if f.is_error] == ["R3"]


# R4 -------------------------------------------------------------------------------------------

def test_R4_forehand_calls_first_ok() -> None:
    assert not errors(auction_record("Pass Pass Pass Pass", contract="Passnoll"))


def test_R4_auction_not_started_by_forehand_is_error() -> None:
    fs = errors(auction_record("Pass Pass Pass Pass", first="S", contract="Passnoll"))
    assert [f.rule for f in fs] == ["R4"]
    assert "forehand is East, left of the dealer North" in fs[0].message


def test_R4_fifth_call_is_error() -> None:
    fs = errors(auction_record("Pass Pass Pass Klöver Pass", contract="Tvångsnoll"))
    assert [f.rule for f in fs] == ["R4"]
    assert fs[0].location is not None and fs[0].location.column == 23


def _fifth_calls(n: int) -> str:
    """An auction of ``n`` calls on one line: every call after the fourth is an R4 error."""
    return auction_record(" ".join(["Pass"] * n), contract="Passnoll")


def test_R4_every_extra_call_is_located_in_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """One R4 finding per extra call, each at its call, the places found in one pass: asking
    the section for each call's place from its line's start was quadratic in the calls."""
    n = 1500
    [rec] = loads(_fifth_calls(n))
    seen = counting_places(monkeypatch)
    fs = [f for f in validate([rec]) if f.rule == "R4"]
    assert len(fs) == n - 4
    assert [f.location.column for f in fs[:2] if f.location] == [21, 26]
    assert fs[-1].location is not None and fs[-1].location.column == 1 + 5 * (n - 1)
    assert seen[0] <= 2 * n, seen[0]


@pytest.mark.slow
def test_R4_an_auction_of_100000_calls_is_checked_in_linear_work(monkeypatch: pytest.MonkeyPatch
                                                                  ) -> None:
    """Linear, counted not timed: at most two token places computed a call."""
    n = 100_000
    [rec] = loads(_fifth_calls(n))
    seen = counting_places(monkeypatch)
    fs = [f for f in validate([rec]) if f.rule == "R4"]
    assert len(fs) == n - 4 and seen[0] <= 2 * n, seen[0]


# R5 -------------------------------------------------------------------------------------------

def test_R5_strictly_higher_bids_ok() -> None:
    a = run_auction(section("Klöver", "Spader", "Ruter", "Hjärter"), Seat.E)
    assert a.findings == () and a.contract is Contract.HJARTER and a.declarer is Seat.N


@pytest.mark.parametrize("calls", ["Ruter Pass Ruter Pass", "Hjärter Ruter Pass Pass",
                                   "Noll Pass Hjärter Pass"])
def test_R5_bid_not_higher_is_error(calls: str) -> None:
    fs = errors(auction_record(calls))
    assert [f.rule for f in fs] == ["R5"]
    assert "not higher than" in fs[0].message


def test_R5_pass_always_legal() -> None:
    a = run_auction(section("Noll", "Pass", "Pass", "Pass"), Seat.E)
    assert a.findings == () and a.contract is Contract.NOLL


def test_R5_bridge_call_is_not_priffe() -> None:
    """In a Priffe record; without a Scoring tag such an auction is bridge's."""
    text = '[Event "x"]\n[Scoring "Priffe"]\n[Dealer "N"]\n[Auction "E"]\n1NT Pass Pass Pass\n'
    [f] = findings(text)
    assert f.rule == "R5" and f.message.startswith("not a Priffe record: bridge call '1NT'")


# R6 -------------------------------------------------------------------------------------------

def test_R6_spela_ends_the_auction_ok() -> None:
    assert not errors(auction_record("Pass Spela", contract="Spela", declarer="S"))


def test_R6_call_after_spela_is_error() -> None:
    fs = errors(auction_record("Spela Pass", contract="Spela", declarer="E"))
    assert [f.rule for f in fs] == ["R6"]
    assert "after East's Spela ended the auction" in fs[0].message


def test_R6_auction_of_three_calls_is_error() -> None:
    assert rules(auction_record("Pass Pass Pass", contract="Passnoll")) == ["R6"]


def test_R6_auction_cut_short_with_star_is_unverifiable() -> None:
    fs = findings(auction_record("Pass Pass *", contract="Passnoll"))
    assert ("R6", Severity.UNVERIFIABLE) in [(f.rule, f.severity) for f in fs]
    assert not [f for f in fs if f.is_error]


# R7 -------------------------------------------------------------------------------------------

def test_R7_declarer_is_the_final_bidder_ok() -> None:
    assert not errors(auction_record("Klöver Ruter Pass Pass", contract="Ruter", declarer="S"))


def test_R7_wrong_declarer_is_error() -> None:
    fs = errors(auction_record("Klöver Ruter Pass Pass", contract="Ruter", declarer="E"))
    assert [f.rule for f in fs] == ["R7"]
    assert "South made the final bid" in fs[0].message


def test_R7_missing_declarer_is_error() -> None:
    assert "R7" in rules(ppn({"Contract": "Noll", "Result": "NS 3 EW 10"}))


# R8 -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("final", "contract"), [
    (Call.SPELA, Contract.SPELA), (Call.NOLL, Contract.NOLL), (Call.HJARTER, Contract.HJARTER),
    (Call.RUTER, Contract.RUTER), (Call.SPADER, Contract.TVANGSNOLL),
    (Call.KLOVER, Contract.TVANGSNOLL), (None, Contract.PASSNOLL)])
def test_R8_contract_table(final: Call | None, contract: Contract) -> None:
    assert contract_for(final) is contract


def test_R8_information_bid_gives_tvangsnoll_without_declarer() -> None:
    a = run_auction(section("Klöver", "Spader", "Pass", "Pass"), Seat.E)
    assert a.contract is Contract.TVANGSNOLL and a.declarer is None


def test_R8_contract_tag_matching_auction_ok() -> None:
    assert not errors(auction_record("Klöver Pass Pass Pass", contract="Tvångsnoll",
                                     declarer=""))


def test_R8_contract_tag_contradicting_auction_is_error() -> None:
    fs = errors(auction_record("Klöver Pass Pass Pass", contract="Hjärter", declarer="E"))
    assert "R8" in [f.rule for f in fs]


def test_R8_forced_contract_with_declarer_is_error() -> None:
    fs = errors(auction_record("Pass Pass Pass Pass", contract="Passnoll", declarer="N"))
    assert [f.rule for f in fs] == ["R8"]


def test_R8_a_contract_of_no_family_gives_one_finding() -> None:
    """A bridge contract's shape is bridge's (tests/test_bridge.py); one no family has is
    the default family's R8."""
    [f] = findings('[Event "x"]\n[Contract "5NoTrump"]\n[Declarer "E"]\n[Result "11"]\n')
    assert f.rule == "R8" and f.is_error
    assert f.message.startswith("not a Priffe record: contract '5NoTrump'")


# R9 -------------------------------------------------------------------------------------------

WEAK_HEARTS = deal_with({Seat.E: ["H2", "H3", "H4", "H5", "H6", "S2", "S3", "D2", "D3", "C2",
                                  "C3", "C4", "C5"]})
STRONG_HEARTS = deal_with({Seat.E: ["HA", "HK", "HQ", "H5", "H6", "SA", "S3", "D2", "D3", "C2",
                                    "C3", "C4", "C5"]})


def test_R9_conventions_off_by_default() -> None:
    text = auction_record("Hjärter Pass Pass Pass", contract="Hjärter", declarer="E",
                          Deal=WEAK_HEARTS)
    assert "R9" not in rules(text, severity=None)


def test_R9_weak_opening_warns_with_conventions() -> None:
    text = auction_record("Hjärter Pass Pass Pass", contract="Hjärter", declarer="E",
                          Deal=WEAK_HEARTS)
    [f] = [f for f in findings(text, conventions=True) if f.rule == "R9"]
    assert f.severity is Severity.WARNING and "0 hs" in f.message


def test_R9_conventional_opening_ok() -> None:
    text = auction_record("Hjärter Pass Pass Pass", contract="Hjärter", declarer="E",
                          Deal=STRONG_HEARTS)
    assert "R9" not in rules(text, severity=None, conventions=True)
