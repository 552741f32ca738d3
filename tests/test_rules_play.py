"""R10–R13: the opening lead, following suit, winning tricks, claims."""

from __future__ import annotations

import re

import pytest
from rules_support import FORMAT_EXAMPLE, errors, findings, rules, set_section, set_tag

from priffe_records import loads
from priffe_records.game.calls import Contract
from priffe_records.game.cards import Deal, Seat, Suit
from priffe_records.rules.findings import Severity
from priffe_records.rules.priffe.options import PRESETS, parse_scoring
from priffe_records.rules.priffe.play import opening_leader, replay

PLAY = FORMAT_EXAMPLE.split('[Play "E"]\n')[1].split("[Score")[0]
TRICKS = [line.split("{")[0].split() for line in PLAY.strip().splitlines()]


def with_tricks(tricks: list[list[str]], tail: str = "", text: str = FORMAT_EXAMPLE) -> str:
    body = "\n".join(" ".join(t) for t in tricks) + ("\n" + tail if tail else "")
    return set_section(text, "Play", "E", body)


def swapped(t1: int, c1: int, t2: int, c2: int) -> list[list[str]]:
    tricks = [list(t) for t in TRICKS]
    tricks[t1][c1], tricks[t2][c2] = tricks[t2][c2], tricks[t1][c1]
    return tricks


# R10 ------------------------------------------------------------------------------------------

def test_R10_forehand_leads_ok() -> None:
    assert "R10" not in rules(FORMAT_EXAMPLE)


def test_R10_wrong_opening_leader_is_error() -> None:
    text = re.sub(r'\[Play "E"\]', '[Play "S"]', FORMAT_EXAMPLE)
    fs = [f for f in errors(text) if f.rule == "R10"]
    assert fs and "East leads to the first trick" in fs[0].message


def test_R10_declarer_left_variant() -> None:
    opts = parse_scoring("Priffe;first_lead=declarer_left")
    assert opening_leader(Seat.E, Seat.E, Contract.HJARTER, opts) is Seat.S
    assert opening_leader(Seat.E, None, Contract.TVANGSNOLL, opts) is Seat.E
    assert opening_leader(Seat.E, Seat.E, Contract.HJARTER, PRESETS["sv"]) is Seat.E
    text = set_tag(FORMAT_EXAMPLE, "Scoring", "Priffe;first_lead=declarer_left")
    assert "R10" in rules(text)


# R11 ------------------------------------------------------------------------------------------

def test_R11_follow_suit_ok() -> None:
    assert "R11" not in rules(FORMAT_EXAMPLE)


def test_R11_revoke_is_error() -> None:
    # East plays ♥6 (trick 11) in trick 3 instead of ♦7, a diamond lead.
    text = with_tricks(swapped(2, 0, 10, 0))
    [f] = [f for f in errors(text) if f.rule == "R11"]
    assert f.message == "trick 3: East plays ♥6 while holding ♦10 — must follow diamonds"
    assert f.location is not None and (f.location.line, f.location.column) == (23, 1)


def test_R11_card_not_in_hand_is_error() -> None:
    tricks = [list(t) for t in TRICKS]
    tricks[0][0] = "SK"  # North's card, played by East
    msgs = [f.message for f in errors(with_tricks(tricks)) if f.rule == "R11"]
    assert "trick 1: East plays ♠K, which was dealt to North, not East" in msgs


def test_R11_card_played_twice_is_error() -> None:
    tricks = [list(t) for t in TRICKS]
    tricks[12][0] = "D7"  # East's ♦7 again, in place of ♦8
    msgs = [f.message for f in errors(with_tricks(tricks)) if f.rule == "R11"]
    assert "trick 13: East plays ♦7 a second time (first in trick 3)" in msgs


def test_R11_must_trump_off_by_default_ok() -> None:
    assert not errors(FORMAT_EXAMPLE)


def test_R11_must_trump_on_is_error_when_not_trumping() -> None:
    text = set_tag(FORMAT_EXAMPLE, "Scoring", "Priffe;must_trump=on")
    fs = [f for f in errors(text) if f.rule == "R11"]
    assert fs[0].message.startswith("trick 5: East plays ♠A while holding ♥10 — cannot follow "
                                    "clubs, so must trump")


def test_R11_revoke_shown_by_earlier_show_out_with_unknown_hand() -> None:
    # South's and West's hands unknown. Swap West's ♥4 (trick 1) and ♣10 (trick 8): West
    # shows out of hearts in trick 1, then plays ♥J in trick 2 — so trick 1 was a revoke.
    unknown = "N:KJ.A7.AQ3.AKQJ63 A64.T9863.T8742. - -"
    assert "R11" not in rules(set_tag(FORMAT_EXAMPLE, "Deal", unknown))
    text = set_tag(with_tricks(swapped(0, 2, 7, 2)), "Deal", unknown)
    msgs = [f.message for f in errors(text) if f.rule == "R11"]
    assert any("West plays ♥J but showed out of hearts in trick 1" in m for m in msgs)


# R12 ------------------------------------------------------------------------------------------

def test_R12_trick_winner_and_next_leader() -> None:
    rec = next(iter(loads(FORMAT_EXAMPLE)))
    assert rec.play is not None
    res = replay(rec.play, Seat.E, Deal.parse(str(rec.get("Deal"))), Suit.H)
    assert [t.winner.value for t in res.tricks if t.winner] == list("NSNNNNNENNESW")
    assert [t.leader.value for t in res.tricks if t.leader] == list("ENSNNNNNENNES")
    assert str(res.won) == "NS 10 EW 3" and res.complete


def test_R12_trump_beats_suit_led() -> None:
    rec = next(iter(loads(FORMAT_EXAMPLE)))
    assert rec.play is not None
    res = replay(rec.play, Seat.E, Deal.parse(str(rec.get("Deal"))), None)
    assert res.tricks[7].winner is Seat.N  # ♥10 on a club lead does not win without trumps


def test_R12_wrong_result_is_error() -> None:
    fs = errors(set_tag(FORMAT_EXAMPLE, "Result", "NS 9 EW 4"))
    assert [f.rule for f in fs][:1] == ["R12"]
    assert "the play gives NS 10 EW 3" in fs[0].message


@pytest.mark.parametrize("claim,fragment", [
    ("NS 14", "a side takes 0 to 13 tricks"),
    ("NS 9 EW 5", "makes 14 tricks; there are 13"),
])
def test_R12_impossible_result_is_error(claim: str, fragment: str) -> None:
    fs = [f for f in errors(set_tag(FORMAT_EXAMPLE, "Result", claim)) if f.rule == "R12"]
    assert fs and fragment in fs[0].message


def test_R12_unknown_card_is_unverifiable_not_guessed() -> None:
    tricks = [list(t) for t in TRICKS]
    tricks[4][2] = "-"
    fs = findings(with_tricks(tricks))
    assert not [f for f in fs if f.is_error]
    assert ("R12", Severity.UNVERIFIABLE) in [(f.rule, f.severity) for f in fs]


def test_R12_incomplete_trick_is_error() -> None:
    tricks = [list(t) for t in TRICKS]
    tricks[12] = tricks[12][:3]
    assert "R12" in rules(with_tricks(tricks))


# R13 ------------------------------------------------------------------------------------------

def test_R13_claim_consistent_ok() -> None:
    assert not errors(with_tricks(TRICKS[:9], "*"))


@pytest.mark.parametrize("result", ["NS 7 EW 6", "NS 13 EW 0"])
def test_R13_claim_inconsistent_is_error(result: str) -> None:
    text = set_tag(with_tricks(TRICKS[:9], "*"), "Result", result)
    assert "R13" in rules(text)


def test_R13_claim_without_result_is_error() -> None:
    text = with_tricks(TRICKS[:9], "*").replace('[Result "NS 10 EW 3"]\n', "")
    assert "R13" in rules(text)


def test_R13_play_stopping_without_claim_is_error() -> None:
    assert "R13" in rules(with_tricks(TRICKS[:9]))
