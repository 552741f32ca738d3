"""A tag pair broken on its line is read as what it plainly means (issue 28 items 1a, 2).

A line that ends before its ``]`` (``[Site "Uppsala"``) is a located error, an unquoted
value (``[Event Random Deal #]``, WBridge5's export) or one whose closing quote is missing
before the ``]`` a located warning; the value is kept and so is the record, with its deal,
auction and play. ``read_headers`` reads the same tags (one syntax: format/mend.py).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES

from priffe_records.cli import cli
from priffe_records.format.errors import BadRecord
from priffe_records.format.reader import loads, read, read_headers
from priffe_records.format.record import Record

PARTIE = EXAMPLES / "partie-uppsala.ppn"

# The shape of a WBridge5 export: every deal's Event unquoted.
WBRIDGE5 = """% PBN 2.1
% EXPORT
[Event Random Deal #]
[Site ""]
[Date "2012.10.01"]
[Board "1"]
[West "WBridge5"]
[North "WBridge5"]
[East "WBridge5"]
[South "Player"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:Q.AJ852.AT983.65 AKT972..J76.AQJ3 J43.KQT73.4.KT87 865.964.KQ52.942"]
[Declarer "S"]
[Contract "4S"]
[Result "10"]
[Auction "N"]
Pass 1S Pass 4S
AP
[Play "W"]
D6 D4 DK DA

[Event Random Deal #]
[Board "2"]
[Dealer "E"]
[Deal "N:Q.AJ852.AT983.65 AKT972..J76.AQJ3 J43.KQT73.4.KT87 865.964.KQ52.942"]
[Auction "E"]
Pass Pass Pass Pass
"""


def _records(text: str) -> list[Record | BadRecord]:
    return list(loads(text, errors="collect", name="f.ppn"))


def _one(text: str) -> Record:
    [rec] = _records(text)
    assert isinstance(rec, Record), rec.errors
    return rec


def test_a_line_ending_before_its_bracket_keeps_the_value_and_the_record(
        tmp_path: Path) -> None:
    text = PARTIE.read_text(encoding="utf-8").replace('[Site "Uppsala"]', '[Site "Uppsala"',
                                                      1)
    path = tmp_path / "partie.ppn"
    path.write_text(text, encoding="utf-8")
    records = list(read(path, errors="collect"))
    assert all(isinstance(r, Record) for r in records)
    first = records[0]
    assert isinstance(first, Record)
    assert first.get("Site") == "Uppsala" and first.get("Board") == "1"
    [error] = first.errors
    assert (error.severity, error.location.line, error.location.column) == ("error", 5, 16)
    # The partie's totals go on from deal 1: the correct deals after it stay correct.
    res = CliRunner().invoke(cli, ["validate", str(path)])
    assert res.exit_code == 1
    assert "1 error, 0 warnings, 0 unverifiable in 1 file (11 records)" in res.stdout
    assert "R23" not in res.stdout and "R22" not in res.stdout


@pytest.mark.parametrize("line,value,severity,column", [
    ('[Site "Uppsala"', "Uppsala", "error", 16),
    ('[Site "Uppsala" \t', "Uppsala", "error", 16),
    ('[Site "Uppsala', "Uppsala", "error", 7),
    ('[Event Random Deal #]', "Random Deal #", "warning", 8),
    ('[Event  C:\\kort ]', "C:\\kort", "warning", 9),
    ('[Event "Random Deal #]', "Random Deal #", "warning", 22),
])
def test_each_plain_break_reads_with_a_located_message(line: str, value: str, severity: str,
                                                       column: int) -> None:
    rec = _one(f'{line}\n[Board "4"]\n[Auction "N"]\nHjärter Pass\n')
    assert rec.get("Event" if "Event" in line else "Site") == value
    assert rec.get("Board") == "4" and rec.tag("Auction") is not None
    [problem] = rec.errors
    assert (problem.severity, problem.location.line, problem.location.column) == (
        severity, 1, column)


def test_the_section_after_a_tag_pair_without_its_bracket_is_read() -> None:
    rec = _one('[Event "x"]\n[Auction "N"\nHjärter Pass Pass Pass\n')
    auction = rec.tag("Auction")
    assert auction is not None and auction.section is not None
    assert [t.text for t in auction.section.tokens] == ["Hjärter", "Pass", "Pass", "Pass"]


@pytest.mark.parametrize("line", [
    '[Result "NS 10 "EW 3"]',  # a stray quote: which part is the value?
    '[Board "2" x',  # a word after the value
    '[Note "1:C:\\"]',  # the backslash may have escaped the closing quote
    '[Event]',  # no value at all
])
def test_a_break_without_one_reading_stays_unread(line: str) -> None:
    [rec] = _records(f'[Event "a"]\n{line}\n' if "Event" not in line else f"{line}\n")
    assert isinstance(rec, BadRecord) or rec.has_errors


def test_a_value_cut_by_a_line_end_is_not_read_as_its_first_line() -> None:
    [rec] = _records('[Event "a"]\n[Deal "N:T9.QT87.A\n% x\n.QJ9 Q7.KJ.QT8.AT7 AKJ.A9 -"]\n')
    assert isinstance(rec, BadRecord)


def test_a_wbridge5_export_keeps_every_deal_with_its_auction_and_play() -> None:
    records = _records(WBRIDGE5)
    assert [type(r) for r in records] == [Record, Record]
    first, second = records
    assert isinstance(first, Record) and isinstance(second, Record)
    assert first.get("Event") == "Random Deal #" and first.get("Board") == "1"
    assert first.get("Deal") is not None
    play = first.tag("Play")
    assert play is not None and play.section is not None and len(play.section.tokens) == 4
    assert [(e.severity, e.location.line, e.location.column) for e in first.errors] == [
        ("warning", 3, 8)]
    assert second.get("Event") == "Random Deal #"


def test_read_headers_reads_the_broken_pairs_as_the_reader_does() -> None:
    text = WBRIDGE5 + '\n[Site "Uppsala"\n[Board "3"]\n\n[Event "Klubb]\n[Board "4"]\n'
    headers = list(read_headers(io.BytesIO(text.encode())))
    records = _records(text)
    assert len(headers) == len(records) == 4
    for tags, rec in zip(headers, records, strict=True):
        assert isinstance(rec, Record)
        for name in ("Event", "Site", "Board"):
            assert tags.get(name) == rec.get(name), name
    assert headers[2]["Site"] == "Uppsala" and headers[3]["Event"] == "Klubb"


@pytest.mark.parametrize("scoring", ['[Scoring"Preference"]', "[Scoring Preference]",
                                     '[Scoring "Preference"'])
def test_a_scoring_tag_read_by_the_parser_chooses_the_records_words(scoring: str) -> None:
    """The game's words come from the Scoring value the reader reads (fuzz: a deleted blank
    made a Préférence deal read by Priffe's words: Contract "Hearts" became "Hjärter")."""
    text = (EXAMPLES / "preference-graz.ppn").read_text(encoding="utf-8")
    want = [r for r in _records(text) if isinstance(r, Record)]
    got = _records(text.replace('[Scoring "Preference"]', scoring))
    assert [r.to_dict()["tags"] for r in got if isinstance(r, Record)] == [
        r.to_dict()["tags"] for r in want]


def test_a_repeated_scoring_tag_does_not_choose_the_words_the_first_one_does() -> None:
    """The record keeps the first Scoring tag pair (here broken, read as "Prefer", a game
    no family plays) and ignores the repeat; the words are chosen by that same first one
    (fuzz case 37549: the repeat chose Préférence's words, so "Hearts" stayed "Hearts", and
    written out and read back the record read "Hjärter": a rewrite was refused)."""
    text = ('[Event "Graz"]\n[Dealer "E"]\n[Scoring "Prefer]\n[Scoring "Preference"]\n'
            '[Declarer "E"]\n[Contract "Hearts"]\n')
    [rec] = _records(text)
    assert isinstance(rec, Record)
    assert rec.get("Scoring") == "Prefer"
    assert rec.get("Contract") == "Hjärter"  # Priffe's words: no family claims "Prefer"
    assert list(loads(str(rec))) == [rec]


def test_a_scoring_tag_after_the_auction_still_chooses_the_auctions_words() -> None:
    """The words are chosen once every tag pair is read, before any section: a Scoring
    written below the Auction reads the calls as one written above it does."""
    head = '[Event "Graz"]\n[Dealer "E"]\n'
    auction = '[Auction "S"]\nClubs Pass Diamonds Pass\n'
    scoring = '[Scoring "Preference"]\n'
    [above] = _records(head + scoring + auction)
    [below] = _records(head + auction + scoring)
    assert isinstance(above, Record) and isinstance(below, Record)
    calls = [t.text for t in below.tag("Auction").section.tokens]  # type: ignore[union-attr]
    assert calls == ["Clubs", "Pass", "Diamonds", "Pass"]  # Préférence's, not "Klöver"
    assert calls == [t.text for t in above.tag("Auction").section.tokens]  # type: ignore[union-attr]
