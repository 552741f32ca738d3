"""R14–R18 and R30: scoring one deal, honours, game points; the honour-trick table."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from rules_support import FORMAT_EXAMPLE, deal_with, errors, findings, ppn, rules, set_tag, sheet

from priffe_records import loads
from priffe_records.cli import cli
from priffe_records.game.calls import Contract
from priffe_records.game.cards import Hand, Rank, Seat
from priffe_records.rules.checks import passed, present
from priffe_records.rules.findings import Severity
from priffe_records.rules.priffe.analysis import analyse_record
from priffe_records.rules.priffe.evaluation import honour_tricks, show_hs, suit_value
from priffe_records.rules.priffe.options import PRESETS, parse_scoring
from priffe_records.rules.priffe.scoring import SidePoints, honours_from_counts, score_deal
from priffe_records.rules.priffe.sheet import fill_records, score_parties

NONE = SidePoints()


def total(contract: Contract, declarer: Seat | None, ns: int) -> SidePoints:
    return score_deal(contract, declarer, SidePoints(ns, 13 - ns), NONE).total


# R14 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("contract", "declarer", "ns", "side", "n"), [
    (Contract.SPELA, Seat.N, 7, "NS", 1), (Contract.SPELA, Seat.N, 6, "EW", 1),
    (Contract.HJARTER, Seat.E, 13, "NS", 7), (Contract.NOLL, Seat.N, 0, "NS", 7),
    (Contract.NOLL, Seat.N, 7, "EW", 1), (Contract.TVANGSNOLL, None, 6, "NS", 1),
    (Contract.PASSNOLL, None, 13, "EW", 7)])
def test_R14_scoring_side_and_trick_count(contract: Contract, declarer: Seat | None, ns: int,
                                          side: str, n: int) -> None:
    ds = score_deal(contract, declarer, SidePoints(ns, 13 - ns), NONE)
    assert (ds.scoring_side.value, ds.n) == (side, n)


def test_R14_score_to_the_right_side_ok() -> None:
    assert not errors(sheet("Spela", "N", "NS 8 EW 5", Score="NS 20 EW 0"))


def test_R14_score_to_the_wrong_side_is_error() -> None:
    assert rules(sheet("Spela", "N", "NS 8 EW 5", Score="NS 0 EW 20")) == ["R14"]


# R15 ------------------------------------------------------------------------------------------

def test_R15_ten_per_trick_for_declaring_side() -> None:
    assert total(Contract.RUTER, Seat.S, 9) == SidePoints(30, 0)


def test_R15_penalty_tricks_twenty_each() -> None:
    assert total(Contract.RUTER, Seat.S, 4) == SidePoints(0, 60)


def test_R15_forced_contracts_have_no_penalty() -> None:
    assert total(Contract.TVANGSNOLL, None, 4) == SidePoints(30, 0)  # golden: Tvångsnoll
    assert total(Contract.TVANGSNOLL, None, 9) == SidePoints(0, 30)
    assert total(Contract.PASSNOLL, None, 13) == SidePoints(0, 90)  # golden: Passnoll 0 tricks


def test_R15_correct_score_ok() -> None:
    assert not errors(FORMAT_EXAMPLE)


@pytest.mark.parametrize("delta", [-10, 10])
def test_R15_wrong_score_is_error(delta: int) -> None:
    fs = errors(set_tag(FORMAT_EXAMPLE, "Score", f"NS {80 + delta} EW 0"))
    assert [f.rule for f in fs] == ["R15"]
    assert fs[0].message == (f"Score says NS {80 + delta} EW 0, but the deal scores NS 80 EW 0 "
                             "(NS 4 penalty tricks 80)")
    assert fs[0].location is not None and fs[0].location.line == 34


# R16 ------------------------------------------------------------------------------------------

def test_R16_grand_slam_golden() -> None:
    assert total(Contract.SPELA, Seat.N, 13) == SidePoints(90, 0)  # 7·10 + 20


def test_R16_penalty_grand_slam_golden() -> None:
    assert total(Contract.HJARTER, Seat.E, 13) == SidePoints(180, 0)  # 7·20 + 40


def test_R16_small_slams() -> None:
    assert total(Contract.RUTER, Seat.N, 12) == SidePoints(70, 0)  # 60 + 10
    assert total(Contract.SPELA, Seat.W, 12) == SidePoints(140, 0)  # 120 + 20


def test_R16_noll_with_no_tricks_golden() -> None:
    assert total(Contract.NOLL, Seat.N, 0) == SidePoints(90, 0)  # grand slam in noll
    assert total(Contract.NOLL, Seat.N, 13) == SidePoints(0, 180)  # penalty grand slam


def test_R16_slam_bonus_counted_ok() -> None:
    assert not errors(sheet("Spela", "N", "NS 13 EW 0", Score="NS 90 EW 0"))


def test_R16_slam_bonus_missing_is_error() -> None:
    assert rules(sheet("Spela", "N", "NS 13 EW 0", Score="NS 70 EW 0")) == ["R16"]


# R17 ------------------------------------------------------------------------------------------

HEART_HONOURS = {  # where ♥A K Q J lie → (hand variant, side variant)
    "4 in one hand": ({Seat.N: ["HA", "HK", "HQ", "HJ"]}, SidePoints(50, 0), SidePoints(50, 0)),
    "3+1 partner": ({Seat.N: ["HA", "HK", "HQ"], Seat.S: ["HJ"]}, SidePoints(40, 0),
                    SidePoints(40, 0)),
    "3 + 1 opponent": ({Seat.N: ["HA", "HK", "HQ"], Seat.E: ["HJ"]}, SidePoints(20, 0),
                       SidePoints(20, 0)),
    "2+2": ({Seat.N: ["HA", "HK"], Seat.S: ["HQ", "HJ"]}, NONE, SidePoints(40, 0)),
    "2+1 and 1": ({Seat.N: ["HA", "HK"], Seat.S: ["HQ"], Seat.E: ["HJ"]}, NONE,
                  SidePoints(20, 0)),
    "2 and 2": ({Seat.N: ["HA", "HK"], Seat.E: ["HQ", "HJ"]}, NONE, NONE),
}


@pytest.mark.parametrize("case", list(HEART_HONOURS))
@pytest.mark.parametrize("preset", ["sv", "en"])
def test_R17_honours_golden(case: str, preset: str) -> None:
    where, hand_pts, side_pts = HEART_HONOURS[case]
    text = ppn({"Deal": deal_with(where), "Scoring": f"Priffe;preset={preset}",
                "Contract": "Hjärter", "Declarer": "E", "Result": "NS 7 EW 6"})
    o = analyse_record(next(iter(loads(text))))
    assert o.honours == (hand_pts if preset == "sv" else side_pts)


def test_R17_honour_points_from_counts() -> None:
    from priffe_records.rules.priffe.options import HonoursVariant
    assert honours_from_counts({Seat.W: 4}, HonoursVariant.HAND) == SidePoints(0, 50)
    assert honours_from_counts({Seat.W: 3, Seat.E: 1}, HonoursVariant.SIDE) == SidePoints(0, 40)


def test_R17_forced_honours_twos_or_none() -> None:
    where = {Seat.S: ["S2", "H2", "D2", "C2"]}
    base = {"Deal": deal_with(where), "Contract": "Passnoll", "Declarer": "",
            "Result": "NS 6 EW 7"}
    o = analyse_record(next(iter(loads(ppn(base)))))
    assert o.honours == SidePoints(50, 0)
    o = analyse_record(next(iter(loads(ppn({**base, "Scoring": "Priffe;forced_honours=none"})))))
    assert o.honours == NONE


def test_R17_honours_count_for_defenders_too() -> None:
    text = ppn({"Deal": deal_with({Seat.W: ["SA", "HA", "DA", "CA"]}), "Contract": "Spela",
                "Declarer": "N", "Result": "NS 8 EW 5"})
    o = analyse_record(next(iter(loads(text))))
    assert o.score is not None and o.score.total == SidePoints(20, 50)


def test_R17_correct_honours_ok() -> None:
    assert not errors(set_tag(FORMAT_EXAMPLE, "Honours", "NS 0 EW 0"))


def test_R17_wrong_honours_is_error() -> None:
    fs = errors(set_tag(FORMAT_EXAMPLE, "Honours", "NS 20 EW 0"))
    assert [f.rule for f in fs] == ["R17"]
    assert "the hands give NS 0 EW 0 (honours count in one hand)" in fs[0].message
    # The option in the reader's words; honours=hand is only the Scoring tag's syntax.
    assert fs[0].render("sv").endswith("fel R17: honnörerna på raden säger NS 20 ÖV 0, men "
                                       "händerna ger NS 0 ÖV 0 (honnörer räknas på en hand)")
    # …which is the en reading of the same hands (then the score and totals grow by 20).
    en = set_tag(FORMAT_EXAMPLE, "Scoring", "Priffe;preset=en")
    assert rules(set_tag(en, "Honours", "NS 20 EW 0")) == ["R17", "R23"]
    en = set_tag(set_tag(set_tag(en, "Honours", "NS 20 EW 0"), "Score", "NS 100 EW 0"),
                 "ScoreRubber", "NS 110 EW 0")
    assert not errors(en)


def _open_honours(**tags: str) -> str:
    """Preset en, Hjärter: North and South known and holding none of ♥A K Q J, East and West
    unknown, so E-W hold all four between them: 40, or 50 in one hand (R17, side)."""
    deal = deal_with({Seat.E: ["HA", "HK"], Seat.W: ["HQ", "HJ"]}).split()
    deal[1] = deal[3] = "-"  # N:north east south west
    return ppn({"Deal": " ".join(deal), "Scoring": "Priffe;preset=en", "Contract": "Hjärter",
                "Declarer": "E", "Result": "NS 10 EW 3", **tags})


def test_R17_known_hands_that_settle_the_honours_ok() -> None:
    deal = deal_with({Seat.N: ["HA", "HK"], Seat.S: ["HQ", "HJ"]}).split()
    deal[1] = deal[3] = "-"
    text = ppn({"Deal": " ".join(deal), "Scoring": "Priffe;preset=en", "Contract": "Hjärter",
                "Declarer": "E", "Result": "NS 10 EW 3", "Score": "NS 120 EW 0"})
    o = analyse_record(next(iter(loads(text))))
    assert o.honours == SidePoints(40, 0) and not errors(text)
    assert not [f for f in findings(text) if f.rule == "R17"]


def test_R17_open_honours_leave_the_score_unknown_never_a_silent_0() -> None:
    """The hands bound the honours (E-W 40 or 50) without settling them: no score, an
    unverifiable R17, and score --fill writes no Score (it wrote NS 80 EW 0, and -v said
    'passed R14-R18')."""
    text = _open_honours()
    [rec] = loads(text)
    o = analyse_record(rec, PRESETS["en"])
    assert o.score is None and o.honours is None
    fs = findings(text)
    [note] = [f for f in fs if f.rule == "R17"]
    assert note.severity is Severity.UNVERIFIABLE
    assert "leave the honours open (NS 0 EW 40 or NS 0 EW 50)" in note.message
    assert "score" not in [c.name for c in passed(present(rec), [f.rule for f in fs])]
    [filled] = fill_records([rec], score_parties([rec]))
    assert filled.get("Score") is None and filled.get("ScoreRubber") is None


def test_R17_score_the_known_hands_rule_out_is_error() -> None:
    fs = errors(_open_honours(Score="NS 80 EW 0"))
    assert [f.rule for f in fs] == ["R17"]
    assert "the deal scores NS 80 EW 40 or NS 80 EW 50" in fs[0].message


def test_R17_honours_the_known_hands_rule_out_is_error() -> None:
    fs = errors(_open_honours(Honours="NS 0 EW 0"))
    assert [f.rule for f in fs] == ["R17"]
    assert "the known hands allow only NS 0 EW 40 or NS 0 EW 50" in fs[0].message


def test_R17_score_within_the_open_honours_is_taken_as_written_ok() -> None:
    text = _open_honours(Score="NS 80 EW 50")
    assert not errors(text)
    o = analyse_record(next(iter(loads(text))), PRESETS["en"])
    assert o.score is not None and o.score.total == SidePoints(80, 50)
    assert [(f.rule, f.severity) for f in findings(text) if f.rule == "R17"] == \
        [("R17", Severity.UNVERIFIABLE)]


def _passed_checks(text: str, tmp_path: Path) -> tuple[list[str], str]:
    """The checks validate -v lists as passed: from the library, and as printed."""
    [rec] = loads(text)
    named = [r for f in findings(text) for r in f.rules]
    path = tmp_path / "v.ppn"
    path.write_text(text, "utf-8")
    res = CliRunner().invoke(cli, ["validate", "-v", str(path)])
    return [c.name for c in passed(present(rec), named)], res.output


def test_R17_honours_from_the_hands_pass_the_score_check_ok(tmp_path: Path) -> None:
    names, out = _passed_checks(FORMAT_EXAMPLE, tmp_path)
    assert "score" in names and "R14–R18" in out


def test_R17_honours_taken_as_written_do_not_pass_the_score_check(tmp_path: Path) -> None:
    """A sheet without hands or Honours: the 'not checked' finding names R17 among its rules
    ('… honours are taken as written (R8, R12, R17)'), so -v no longer says R14–R18 passed."""
    text = sheet("Hjärter", "E", "NS 10 EW 3", Score="NS 80 EW 0").replace(
        '[Honours "NS 0 EW 0"]\n', "")
    names, out = _passed_checks(text, tmp_path)
    assert "score" not in names and "R14–R18" not in out
    assert "R8, R12, R17" in out and "taken as written" in out


# R18 ------------------------------------------------------------------------------------------

def test_R18_game_points_count_penalty_tricks_at_ten() -> None:
    ds = score_deal(Contract.HJARTER, Seat.E, SidePoints(9, 4), NONE)
    assert ds.total == SidePoints(60, 0) and ds.game == SidePoints(30, 0)


def test_R18_slams_and_honours_never_count_toward_game() -> None:
    ds = score_deal(Contract.SPELA, Seat.N, SidePoints(13, 0), SidePoints(50, 0))
    assert ds.total == SidePoints(140, 0) and ds.game == SidePoints(70, 0)


def test_R18_game_made_by_penalty_tricks_ok() -> None:
    # FORMAT.md: 4 penalty tricks = 40 toward game: NS's first game, +10.
    assert "R20" not in rules(FORMAT_EXAMPLE) and not errors(FORMAT_EXAMPLE)


def test_R18_counting_penalty_points_toward_game_is_error() -> None:
    # 2 penalty tricks are 40 points but only 20 toward game: no game, no bonus.
    text = sheet("Hjärter", "E", "NS 8 EW 5", Score="NS 40 EW 0", ScoreRubber="NS 50 EW 0")
    assert rules(text) == ["R23"]
    assert not errors(set_tag(text, "ScoreRubber", "NS 40 EW 0"))


# R30 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("holding", "row", "hs"), [
    ("AKQ", 1, "9/4"), ("AKJT", 2, "2"), ("AQ5", 3, "3/2"), ("AJ3", 4, "5/4"), ("KQJ", 4, "5/4"),
    ("A", 4, "5/4"), ("AJ", 5, "1"), ("KQ", 5, "1"), ("KJT", 5, "1"), ("A5", 6, "1"),
    ("KJ5", 7, "3/4"), ("K5", 8, "1/2"), ("QJT", 8, "1/2"), ("QJ5", 8, "1/2"),
    ("Q5", 9, "1/4"), ("K", 9, "1/4"), ("J", 9, "1/4"), ("QJ", 9, "1/4"), ("J5", 10, "0"),
    ("5432", 10, "0"), ("", 10, "0")])
def test_R30_honour_trick_rows(holding: str, row: int, hs: str) -> None:
    assert suit_value(Rank.parse(c) for c in holding) == Fraction(hs), f"row {row}"


def test_R30_first_matching_row_wins() -> None:
    # A K Q also meets rows 2 and 3; row 1 decides. A alone beats A with a small card.
    assert suit_value([Rank.ACE, Rank.KING, Rank.QUEEN]) == Fraction(9, 4)
    assert suit_value([Rank.ACE]) > suit_value([Rank.ACE, Rank.FIVE])


def test_R30_hand_sum_and_display() -> None:
    hand = Hand.parse("AKQ.KJ3.Q2.5432")
    assert honour_tricks(hand) == Fraction(13, 4) and show_hs(honour_tricks(hand)) == "3¼"
    assert show_hs(Fraction(1, 2)) == "½" and show_hs(Fraction(0)) == "0"


def test_presets_table() -> None:
    assert PRESETS["sv"].second_game == 30 and PRESETS["en"].second_game == 40
    assert parse_scoring("Priffe;preset=en").forfeit_partial is False
