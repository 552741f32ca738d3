"""The export layout of PBN 2.1 (§3.4 tag order, §5.2 table padding) on real programs' shapes.

Each fixture in ``tests/data/conformance/`` is written by hand in the shape of
one program's output (its first lines say which); every test also checks
``read(write(read(f))) == read(f)``.
"""

from __future__ import annotations

import pytest
from conftest import DATA

from priffe_records import dumps, loads, read
from priffe_records.format.record import Record

FIXTURES = DATA / "conformance"
# PBN §3.4: the mandatory tag set, in its export order.
MTS = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
       "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")


def _records(name: str) -> list[Record]:
    return list(read(FIXTURES / name))


def _tag_lines(text: str) -> list[str]:
    """The tag names of an export, in the order written."""
    return [line[1:line.index(" ")] for line in text.splitlines() if line.startswith("[")]


def _round_trips(records: list[Record]) -> None:
    text = dumps(records)
    assert list(loads(text)) == records
    assert dumps(loads(text)) == text


@pytest.mark.parametrize("name", ["bbo-vulnerable.pbn", "rpbridge-order.pbn",
                                  "magic-contest-scoretable.pbn"])
def test_mandatory_tags_come_first_in_pbn_order(name: str) -> None:
    records = _records(name)
    written = _tag_lines(dumps(records))
    mandatory = [n for n in written if n in MTS]
    assert mandatory == [n for n in MTS if n in mandatory]
    # Every mandatory tag is written before any section or other tag.
    assert written[:len(mandatory)] == mandatory
    _round_trips(records)


def test_bbo_vulnerable_stands_between_dealer_and_deal() -> None:
    written = _tag_lines(dumps(_records("bbo-vulnerable.pbn")))
    assert written[written.index("Dealer") + 1] == "Vulnerable"
    assert written[written.index("Vulnerable") + 1] == "Deal"
    # The rest: sections in PBN order, then the supplemental tags alphabetically.
    assert written[-4:] == ["Auction", "Play", "BidSystemEW", "BidSystemNS"]


def test_rpbridge_sections_stay_after_their_tags_and_comments_after_theirs() -> None:
    text = dumps(_records("rpbridge-order.pbn"))
    lines = text.splitlines()
    auction = lines.index('[Auction "E"]')
    assert lines[auction + 1:auction + 3] == ["1C 1D 1H 2D", "4H AP"]
    play = lines.index('[Play "W"]')
    assert lines[play + 1:play + 4] == ["DK DT D2 D8", "SJ S2 SQ S3", "*"]
    home = lines.index('[HomeTeam "Norway"]')
    assert lines[home + 1:home + 3] == ["{ first comment", "over two lines }"]
    assert lines[lines.index('[VisitTeam "Denmark"]') + 1] == "; rest-of-line comment"
    assert _tag_lines(text)[-3:] == ["HomeTeam", "Stage", "VisitTeam"]


def test_magic_contest_table_keeps_its_padding_byte_for_byte() -> None:
    """Cells padded to the header's widths (PBN §5.2): an export-shaped table is kept."""
    path = FIXTURES / "magic-contest-scoretable.pbn"
    records = list(read(path))
    original = path.read_text("utf-8")
    table = original[original.index("[ScoreTable"):]
    assert dumps(records).endswith(table)
    _round_trips(records)


def test_table_padding_is_added_where_an_import_lacks_it() -> None:
    """The PBN verifier's OptimumResultTable shape, typed without its padding."""
    text = ('[Board "1"]\n[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\n'
            "N C 9\nN NT 6\nS  D 10\n")
    records = list(loads(text))
    out = dumps(records)
    assert out.endswith('Result\\2R"]\nN  C  9\nN NT  6\nS  D 10\n')
    _round_trips(records)


def test_table_padding_left_right_and_unaligned_widths() -> None:
    """``L`` pads after, ``R`` before, a width without a letter after; no line ends in blanks;
    a row split over two lines (import format) is padded by each cell's column."""
    text = ('[ScoreTable "Rank\\3R;Contract\\5L;Declarer\\1;Names_NS\\9;Multiplicity"]\n'
            "1 6C W Ek 1\n14 5CX\nE Å 5\n")
    records = list(loads(text))
    table = dumps(records).split("Multiplicity\"]\n", 1)[1]
    assert table == "  1 6C    W Ek        1\n 14 5CX\nE Å         5\n"
    _round_trips(records)


def test_a_table_without_widths_keeps_single_spaces() -> None:
    text = '[ScoreTable "Rank;Contract"]\n1   6C\n2  5CX\n'
    records = list(loads(text))
    assert dumps(records).endswith('Contract"]\n1 6C\n2 5CX\n')
    _round_trips(records)


def test_tables_come_after_the_supplemental_tags() -> None:
    """PBN §3.1/§3.4: supplemental tags alphabetically, then the supplemental sections."""
    text = ('[Board "1"]\n[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\n'
            'N  C  9\n[OptimumScore "NS 100"]\n[Vulnerable "-"]\n')
    records = list(loads(text))
    assert _tag_lines(dumps(records)) == ["Board", "Vulnerable", "OptimumScore",
                                          "OptimumResultTable"]
    _round_trips(records)


def _errors(name: str) -> list[str]:
    return [e.message for rec in read(FIXTURES / name, errors="collect") for e in rec.errors]


def test_unknown_call_on_a_bridge_record_lists_bridge_calls() -> None:
    [message] = _errors("rpbridge-bad-call.pbn")
    assert message.startswith("unknown call 'all' (bridge calls: Pass X XX AP 1C")
    assert "Klöver" not in message


def test_unknown_call_on_a_preference_record_lists_preference_calls() -> None:
    [message] = _errors("preference-bad-call.ppn")
    assert message == ("unknown call 'Hartz' — did you mean 'Hearts'? (Préférence calls: Pass "
                       "Clubs Spades Diamonds Hearts HandClubs HandSpades HandDiamonds "
                       "Preference)")


@pytest.mark.parametrize(("text", "game"), [
    # Scoring names a bridge scoring (BBO's shape, Scoring "IMP").
    ('[Scoring "IMP"]\n[Auction "N"]\nPass Pas\n', "bridge calls: Pass X XX AP"),
    # No Scoring: a bridge contract or a bridge call in the auction tells.
    ('[Contract "4S"]\n[Auction "N"]\nPass Pas\n', "bridge calls: Pass X XX AP"),
    ('[Auction "N"]\n1NT Pas\n', "bridge calls: Pass X XX AP"),
    ('[Vulnerable "NS"]\n[Auction "N"]\nPas\n', "bridge calls: Pass X XX AP"),
    # Priffe: its own words, with the closest one.
    ('[Auction "N"]\nHjärter Pas\n', "calls: Pass Klöver Spader"),
    ('[Scoring "Priffe;preset=en"]\n[Contract "4S"]\n[Auction "N"]\nPas\n',
     "calls: Pass Klöver Spader"),
])
def test_the_record_s_game_decides_the_calls_listed(text: str, game: str) -> None:
    [rec] = loads(text, errors="collect")
    [error] = rec.errors
    assert error.message.startswith("unknown call 'Pas' — did you mean 'Pass'? (")
    assert f"({game}" in error.message


def test_bridge_call_list_in_swedish() -> None:
    [rec] = loads('[Scoring "MP"]\n[Auction "N"]\nall\n', errors="collect")
    assert rec.errors[0].text.render("sv") == (
        "okänt bud 'all' (bud i bridge: Pass X XX AP 1C 1D 1H 1S 1NT 2C … 7NT)")
