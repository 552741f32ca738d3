"""The validator as a library: presets, other games, unreadable records, score sheets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import EXAMPLE_FILES, SHARED
from rules_support import FORMAT_EXAMPLE, findings, rules, set_tag, sheet

from priffe_records import loads, read, validate
from priffe_records.rules.findings import Severity
from priffe_records.rules.priffe.options import (
    PRESETS,
    FirstLead,
    NotPriffeError,
    OptionsError,
    parse_scoring,
)

SHARED_FORMAT = SHARED / "FORMAT.md"


def test_format_md_example_validates_clean() -> None:
    assert findings(FORMAT_EXAMPLE) == []


def test_format_md_example_read_from_shared_validates_clean() -> None:
    if not SHARED_FORMAT.is_file():
        pytest.skip("../shared/FORMAT.md is not present")
    m = re.search(r"```\n(% PPN.*?)```", SHARED_FORMAT.read_text(encoding="utf-8"), re.S)
    assert m is not None
    assert validate(loads(m.group(1))) == []


# Scoring tag and presets -----------------------------------------------------------------------

def test_scoring_presets_and_options() -> None:
    assert parse_scoring(None) is PRESETS["sv"] and parse_scoring("") is PRESETS["sv"]
    opts = parse_scoring("priffe; preset=en; first_lead=declarer_left; must_trump=on")
    assert (opts.preset, opts.first_lead, opts.must_trump, opts.second_game) == (
        "en", FirstLead.DECLARER_LEFT, True, 40)
    assert parse_scoring(opts.scoring_tag()) == opts
    assert parse_scoring(None, default="en") is PRESETS["en"]


@pytest.mark.parametrize(("value", "message"), [
    ("Priffe;colour=red", "Scoring option 'colour' is unknown (use preset, first_lead"),
    ("Priffe;must_trump=maybe", "must_trump='maybe' is not allowed (use on, off)"),
    ("Priffe;preset=de", "preset='de' is not allowed (use sv, en)"),
    ("Priffe;honours", "needs a value"),
    ("Priffe;honours=hand;honours=side", "given twice"),
])
def test_scoring_bad_option_names_the_allowed_values(value: str, message: str) -> None:
    with pytest.raises(OptionsError, match=re.escape(message)):
        parse_scoring(value)


def test_scoring_of_another_game_is_a_finding_not_a_crash() -> None:
    with pytest.raises(NotPriffeError):
        parse_scoring("IMP")
    [f] = findings('[Event "x"]\n[Scoring "Whist"]\n[Contract "Spela"]\n')
    assert f.rule == "Presets" and f.message.startswith("not a Priffe record: Scoring 'Whist'")


def test_bad_option_is_reported_and_the_record_still_checked() -> None:
    text = set_tag(set_tag(FORMAT_EXAMPLE, "Scoring", "Priffe;honours=all"), "Score", "NS 0 EW 0")
    assert rules(text) == ["Presets", "R15"]


def test_preset_argument_applies_only_without_scoring_tag() -> None:
    def honours_errors(text: str) -> list[str]:
        return [f.message for f in findings(text, options=PRESETS["en"])
                if f.message.startswith("Honours")]

    text = set_tag(FORMAT_EXAMPLE, "Honours", "NS 20 EW 0")
    assert honours_errors(text)  # the record says Scoring "Priffe": sv, honours 0
    assert not honours_errors(text.replace('[Scoring "Priffe"]\n', ""))


# Unreadable records, other games ---------------------------------------------------------------

def test_bad_records_pass_through_as_errors() -> None:
    text = FORMAT_EXAMPLE + '\n[Event "x"]\n[Auction "N"]\nHjärterr\n'
    fs = validate(read_collect(text))
    [f] = [f for f in fs if f.rule == "PPN"]
    assert f.is_error and f.record == 2 and "did you mean 'Hjärter'" in f.message


def read_collect(text: str) -> list[object]:
    import io
    return list(read(io.StringIO(text), errors="collect"))  # type: ignore[arg-type]


def test_corpus_files_give_clear_findings(corpus_files: list[Path]) -> None:
    for path in corpus_files:
        for f in validate(read(path, errors="collect")):
            assert f.location is not None and f.location.file == str(path)


# Score sheets ----------------------------------------------------------------------------------

def test_score_sheet_is_scored_and_says_what_was_not_checked() -> None:
    fs = findings(sheet("Hjärter", "E", "NS 10 EW 3", "NS 0 EW 0", Score="NS 80 EW 0"))
    [f] = fs
    assert f.severity is Severity.UNVERIFIABLE and f.rule == "R8"
    assert "contract, declarer, tricks and honours are taken as written" in f.message


def test_score_sheet_honours_taken_from_score_when_not_given() -> None:
    text = sheet("Spela", "N", "NS 8 EW 5", Score="NS 70 EW 0").replace(
        '[Honours "NS 0 EW 0"]\n', "")
    assert not [f for f in findings(text) if f.is_error]  # 20 for tricks + 50 honours


def test_deal_diagram_without_contract_is_a_warning() -> None:
    [f] = findings('[Event "x"]\n[Deal "N:AKQJT98765432... - - -"]\n')
    assert f.severity is Severity.WARNING and f.rule == "R8"


def test_examples_validate_without_errors() -> None:
    files = EXAMPLE_FILES
    assert {f.name for f in files} >= {"partie-uppsala.ppn", "protokoll-1952.ppn"}
    for f in files:
        assert not [x for x in validate(read(f, errors="collect")) if x.is_error], f


def test_records_built_in_code_with_odd_tokens_give_findings_not_exceptions() -> None:
    from priffe_records.format.record import Record, Section, Tag, Token, TokenKind
    calls = Section(tuple(Token(TokenKind.CALL, w) for w in ("hjarter", "Bogus", "Pass", "Pass")))
    cards = Section((Token(TokenKind.CARD, "Z9"), Token(TokenKind.END, "*")))
    rec = Record((Tag("Dealer", "N"), Tag("Auction", "E", section=calls),
                  Tag("Play", "E", section=cards), Tag("Result", "NS 6 EW 7")))
    fs = validate([rec])
    assert ("R5", Severity.ERROR) in [(f.rule, f.severity) for f in fs]
