"""The export layout of PBN 2.1 (§3.4 tag order, §5.2 table padding) on real programs' shapes.

Each fixture in ``tests/data/conformance/`` is written by hand in the shape of
one program's output (its first lines say which); every test also checks
``read(write(read(f))) == read(f)``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DATA

from priffe_records import dumps, loads, read, validate
from priffe_records.cli import cli
from priffe_records.format.errors import BadRecord
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
    ('[Auction "N"]\n1nt! Pas\n', "bridge calls: Pass X XX AP"),
    # A Vulnerable tag: neither Priffe nor Préférence has vulnerability (docs/bridge.md).
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


# ---------------------------------------------------------------- a bad token costs its section


def _one(name: str) -> list[Record | BadRecord]:
    return list(read(FIXTURES / name, errors="collect"))


def test_a_bad_call_costs_the_auction_only() -> None:
    """rpbridge.net shape, 'all' typed for AP: deal, names, play and every tag are kept."""
    [rec] = _one("rpbridge-bad-call.pbn")
    assert isinstance(rec, Record)
    assert rec.get("Deal") == ("S:A3.J76.K7.AKT654 Q62.AKQ42.A865.3 K8754.53.J932.87 "
                               "JT9.T98.QT4.QJ92")
    assert [rec.get(s) for s in ("West", "North", "East", "South")] == [
        "Lindqvist", "Berg", "Holm", "Dahl"]
    assert (rec.get("Vulnerable"), rec.get("Contract"), rec.get("Annotator")) == (
        "All", "3NT", "rpbridge")
    assert rec.play is not None and rec.play.texts == ("HT", "S5", "H2", "H6", "*")
    # The auction is unknown: no calls are made up from what was readable around 'all'.
    assert rec.auction is None and [t.name for t in rec.unread] == ["Auction"]
    assert rec.get("Auction") == "S"
    [error] = rec.errors
    assert (error.location.line, error.location.column, error.is_warning) == (19, 5, False)


def test_the_unread_section_is_written_back_as_it_was() -> None:
    records = _one("rpbridge-bad-call.pbn")
    text = dumps(records)
    assert '[Auction "S"]\n1C 1H 1S Pass\n3NT all\n[Play "W"]\n' in text
    back = list(loads(text, errors="collect"))
    assert back == records and dumps(back) == text


def test_a_bad_table_cell_costs_the_table_only() -> None:
    """Magic Contest shape, a name cell without its closing quote."""
    [rec] = _one("magic-contest-bad-cell.pbn")
    assert isinstance(rec, Record) and rec.has_errors
    assert rec.get("Deal", "").startswith("N:A3.J76") and rec.get("Application") == (
        "Magic Contest")
    [table] = rec.unread
    assert table.name == "ScoreTable" and table.value.startswith("Table\\2R;")
    assert rec.to_dict()["tags"][-1]["damaged"].splitlines()[2].endswith('"Ek;Ås')  # type: ignore[index]
    text = dumps([rec])
    assert text.endswith((FIXTURES / "magic-contest-bad-cell.pbn").read_text("utf-8").split(
        "[Application", 1)[1].split("\n", 1)[1])
    assert list(loads(text, errors="collect")) == [rec]


def test_a_bad_card_in_a_partie_costs_its_play_and_no_other_finding() -> None:
    """priffe's own export shape, one card retyped as Z6: the deal is scored from its tags,
    the rubber is unknown from its own ScoreRubber on (as after an unreadable record), and
    nothing else is said."""
    path = FIXTURES / "priffe-bad-card.ppn"
    records = list(read(path, errors="collect"))
    assert all(isinstance(r, Record) for r in records)
    damaged = records[1]
    assert isinstance(damaged, Record) and damaged.get("Board") == "2"
    assert damaged.get("North") == "Astrid Lindqvist" and damaged.play is None
    found = [(f.record, f.rule, f.severity.value) for f in validate(records)]
    assert found == [(2, "PPN", "error"), (2, "R12", "unverifiable"),
                     (2, "R23", "unverifiable")]
    text = dumps(records)
    assert list(loads(text, errors="collect")) == records


def test_a_broken_free_tag_pair_costs_that_tag() -> None:
    """A tag pair the engine needs no value of (here a team name) may lose its value."""
    text = '[Event "x"]\n[Board "1"]\n[HomeTeam "Pol"and]\n[Dealer "N"]\n'
    [rec] = loads(text, errors="collect")
    assert isinstance(rec, Record) and rec.get("Dealer") == "N"
    [team] = rec.unread
    assert (team.name, team.value) == ("HomeTeam", "")
    assert dumps([rec]).endswith('[HomeTeam "Pol"and]\n')
    assert list(loads(dumps([rec]), errors="collect")) == [rec]


@pytest.mark.parametrize("text", [
    '[Event "x"]\n[Board "1" 2]\n[Dealer "N"]\n',  # the record's place in its partie is unknown
    '[Event "x"] [Site "y]\n[Dealer "N"]\n',  # a second tag pair inside the broken part
    '[Event "x"]\n[Note "1:a" b]\n',  # a note's text is read by the engine
])
def test_a_broken_tag_pair_the_engine_needs_still_costs_the_record(text: str) -> None:
    [rec] = loads(text, errors="collect")
    assert isinstance(rec, BadRecord)
    assert dumps([rec]).endswith(text)


def test_a_comment_left_open_is_written_last_so_it_takes_nothing_in() -> None:
    """'{' left open in the play runs to the end of the record: written last, it still does."""
    text = ('[Event "x"]\n[Score "NS 20 EW 0"]\n[Play "N"]\nSA SK {oops\nSQ SJ\n')
    [rec] = loads(text, errors="collect")
    assert isinstance(rec, Record) and rec.get("Score") == "NS 20 EW 0"
    out = dumps([rec])
    assert out.endswith('[Score "NS 20 EW 0"]\n[Play "N"]\nSA SK {oops\nSQ SJ\n')
    assert list(loads(out, errors="collect")) == [rec]


def test_fmt_refuses_a_file_with_an_unread_section(tmp_path: Path) -> None:
    f = tmp_path / "bad.pbn"
    original = (FIXTURES / "rpbridge-bad-call.pbn").read_text("utf-8")
    f.write_text(original, "utf-8")
    result = CliRunner().invoke(cli, ["fmt", str(f)])
    assert result.exit_code == 1 and "unknown call 'all'" in result.output
    assert f.read_text("utf-8") == original


def test_parse_json_shows_the_deal_names_and_the_error() -> None:
    result = CliRunner().invoke(cli, ["parse", "--nl", str(FIXTURES / "rpbridge-bad-call.pbn")])
    assert result.exit_code == 1
    data = json.loads(result.stdout.splitlines()[0])
    tags = {t["name"]: t for t in data["tags"]}
    assert tags["Deal"]["value"].startswith("S:A3.J76") and tags["South"]["value"] == "Dahl"
    assert tags["Auction"]["damaged"] == '[Auction "S"]\n1C 1H 1S Pass\n3NT all'
    assert [e["line"] for e in data["errors"]] == [19]


def test_the_archive_keeps_the_deal_and_the_text(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    path = str(FIXTURES / "priffe-bad-card.ppn")
    assert CliRunner().invoke(cli, ["import", "--db", db, path]).exit_code == 0
    result = CliRunner().invoke(cli, ["sql", "--db", db, "--nl",
                                      "SELECT board, contract, players, errors, ppn FROM deals "
                                      "WHERE board = '2'"])
    [row] = [json.loads(line) for line in result.stdout.splitlines()]
    assert row["contract"] == "Tvångsnoll" and "Astrid Lindqvist" in row["players"]
    assert row["errors"] == 1 and "SA ST SJ Z6" in row["ppn"]


def test_an_unread_auction_that_alone_gave_the_contract_makes_the_rubber_unknown() -> None:
    """Without the auction board 2 has no contract: its score, and the rubber's totals
    after it, are unknown; no R8 'nothing to score', no R22/R23 errors on board 3."""
    text = (FIXTURES / "priffe-bad-card.ppn").read_text("utf-8")
    text = text.replace("SA ST SJ Z6", "SA ST SJ S6").replace('[Contract "Tvångsnoll"]\n', "", 1)
    text = text.replace("Pass Pass Klöver Pass", "Pass Pass Klövr Pass", 1)
    records = list(loads(text, errors="collect"))
    assert [r.get("Board") for r in records] == ["1", "2", "3"]  # type: ignore[union-attr]
    found = [(f.record, f.rule, f.severity.value) for f in validate(records)]
    assert found == [(2, "PPN", "error"), (3, "R23", "unverifiable")]


def test_r8_nothing_to_score_is_said_of_a_record_without_contract_or_auction() -> None:
    [rec] = loads('[Event "x"]\n[Dealer "N"]\n[Auction "E"]\n', errors="collect")
    assert [(f.rule, f.severity.value) for f in validate([rec])] == [("R8", "warning")]


def test_r8_nothing_to_score_is_not_said_of_an_unread_auction() -> None:
    """The auction is there but unknown: its located error says all there is to say."""
    [rec] = loads('[Event "x"]\n[Dealer "N"]\n[Auction "E"]\nPass Pas\n', errors="collect")
    assert [(f.rule, f.severity.value) for f in validate([rec])] == [("PPN", "error")]


def test_an_annotation_with_nothing_to_follow_costs_its_section_only() -> None:
    """BBO shape with a hand-added note reference before the first call: the model cannot
    hold it, so the auction is kept as its text; the play and every tag are read."""
    text = (FIXTURES / "bbo-vulnerable.pbn").read_text("utf-8").replace(
        "1NT       Pass", "=1= 1NT       Pass", 1)
    [rec] = loads(text, errors="collect")
    assert isinstance(rec, Record) and [t.name for t in rec.unread] == ["Auction"]
    assert rec.play is not None and rec.get("Vulnerable") == "EW"
    assert [e.message for e in rec.errors] == ["annotation '=1=' must follow a call"]
    out = dumps([rec])
    assert "\n=1= 1NT       Pass      3NT       Pass      \n" in out
    assert list(loads(out, errors="collect")) == [rec]
