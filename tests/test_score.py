"""The score-sheet model: rows per deal, rubber ends, standings."""

from __future__ import annotations

import pytest
from rules_support import FORMAT_EXAMPLE, sheet

from priffe_records import PriffeError, loads
from priffe_records.game.calls import Contract
from priffe_records.game.cards import Seat, Side
from priffe_records.game.language import use_language
from priffe_records.rules.priffe.generate import generate_partie
from priffe_records.rules.priffe.scoring import SidePoints
from priffe_records.rules.priffe.sheet import DealRow, RubberRow, score_partie, score_parties


def test_sheet_of_format_example() -> None:
    s = score_partie(loads(FORMAT_EXAMPLE))
    row, end = s.rows
    assert isinstance(row, DealRow) and isinstance(end, RubberRow)
    assert (row.board, row.dealer, row.contract, row.declarer) == ("1", Seat.N,
                                                                   Contract.HJARTER, Seat.E)
    assert (row.tricks, row.score, row.game_points, row.totals) == (
        SidePoints(10, 3), SidePoints(80, 0), SidePoints(40, 0), SidePoints(90, 0))
    assert (row.game_made, row.bonus, row.games) == (Side.NS, SidePoints(10, 0),
                                                     SidePoints(1, 0))
    assert not end.finished and end.settlement == () and s.standings == ()
    assert s.title == "Klubbkväll · Uppsala · 29 Nov 2026"  # the date through Babel


def test_sheet_rubber_ends_follow_their_last_deal() -> None:
    s = score_partie(generate_partie(11, rubbers=3))
    ends = [i for i, r in enumerate(s.rows) if isinstance(r, RubberRow)]
    assert len(ends) == 3 and ends[-1] == len(s.rows) - 1
    for i in ends:
        end = s.rows[i]
        before = s.rows[i - 1]
        assert isinstance(end, RubberRow) and isinstance(before, DealRow)
        assert end.finished and end.totals == before.totals
        assert sum(p for _, _, p in end.settlement) == 0
    assert sum(p for _, p in s.standings) == 0


def test_score_partie_refuses_several_parties() -> None:
    two = sheet("Spela", "N", "NS 8 EW 5", Date="2026.01.01") + "\n" + sheet(
        "Spela", "N", "NS 8 EW 5", Date="2026.01.02")
    assert len(score_parties(loads(two))) == 2
    with pytest.raises(PriffeError, match="2 parties"):
        score_partie(loads(two))


@pytest.mark.parametrize(("date", "lang", "shown"), [
    ("2026.11.29", "sv", "29 nov. 2026"), ("2026.11.29", "en", "29 Nov 2026"),
    ("2026.??.??", "sv", "2026.??.??"), ("2026.11.??", "en", "2026.11.??"),
    ("2026.02.30", "sv", "2026.02.30")])
def test_the_sheet_heading_shows_a_complete_date_in_the_language(date: str, lang: str,
                                                                 shown: str) -> None:
    s = score_partie(loads(FORMAT_EXAMPLE.replace("2026.11.29", date)))
    with use_language(lang):
        assert s.title == f"Klubbkväll · Uppsala · {shown}"
