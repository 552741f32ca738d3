"""Issue 11, the reader: real files read what the world writes and never lose a record.

One test per lesson; each failed before its fix. Real files: ../shared/pbn/corpus when
it is beside the clone (see SOURCES.txt there); the lessons' own cases are written here.
"""

from __future__ import annotations

import codecs
import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS_FILES

from priffe_records import BadRecord, Record, dumps, loads, read, validate
from priffe_records.cli import cli
from priffe_records.format.errors import PPNSyntaxError
from priffe_records.format.rewrite import reformat

SHARED = CORPUS_FILES


def _one(text: str) -> Record:
    [rec] = loads(text, errors="collect")
    assert isinstance(rec, Record), rec
    return rec


# -- 1. a bad tag value never costs the record --------------------------------------------


@pytest.mark.parametrize("written,kept", [
    ("2021-04-03 05:06", "2021-04-03 05:06"),  # a time too: not certain, kept
    ("20151006", "2015.10.06"),
    ("2021-04-03", "2021.04.03"),
    ("3/30/2021", "2021.03.30"),  # month first, certain because 30 > 12
    ("14:12", "14:12"),
    ("95.06.10", "95.06.10"),  # two-digit year: not certain
])
def test_odd_dates_keep_the_record_with_a_located_warning(written: str, kept: str) -> None:
    rec = _one(f'[Event "x"]\n[Date "{written}"]\n[Contract "Spela"]\n')
    assert rec.get("Date") == kept and rec.get("Contract") == "Spela"
    [warning] = rec.errors
    assert warning.is_warning and "YYYY.MM.DD" in warning.message
    assert (warning.location.line, warning.location.column) == (2, 8)
    assert _one(dumps([rec])).get("Date") == kept  # the export reads back the same


@pytest.mark.parametrize("tag,value", [("Vulnerable", "Yes"), ("Board", "1a"),
                                       ("OptimumScore", "100")])
def test_other_odd_values_are_warnings_too(tag: str, value: str) -> None:
    rec = _one(f'[Event "x"]\n[{tag} "{value}"]\n')
    assert rec.get(tag) == value
    assert [e.is_warning for e in rec.errors] == [True]
    assert [f.severity.value for f in validate([rec]) if f.rule == "PPN"] == ["warning"]


def test_a_bad_nag_no_longer_costs_the_record() -> None:
    rec = _one('[Event "x"]\n[Auction "N"]\nPass $300 Pass\n')
    assert rec.auction is not None and rec.auction.tokens[0].nags == (300,)
    assert [e.message.split(" ")[0] for e in rec.errors] == ["NAG"]


# -- 2. every syntax error of a record ----------------------------------------------------


def test_every_syntax_error_of_a_record_is_reported_in_one_round() -> None:
    text = ('[Event "x"]\n[Site "y" z\n[Auction "N"]\nPass Hjärterr Pass\nPass\n'
            '[Play "N"]\nSA HK ZZ H2\nH3 H4\n')
    [bad] = loads(text, errors="collect")
    assert isinstance(bad, BadRecord)
    assert [(e.location.line, e.location.column) for e in bad.errors] == [
        (2, 11), (4, 6), (7, 7)]
    assert bad.partial is not None and bad.partial.get("Event") == "x"
    assert bad.text == text  # kept whole for writers
    with pytest.raises(PPNSyntaxError):  # strict mode still raises the first
        list(loads(text))


def test_validate_shows_the_offending_line_and_a_caret(tmp_path: Path) -> None:
    f = tmp_path / "a.ppn"
    f.write_text('[Event "x"]\n[Auction "N"]\nPass Hjärterr\n', "utf-8")
    out = CliRunner().invoke(cli, ["validate", str(f)]).output
    assert "Pass Hjärterr" in out and "     ^" in out


# -- 3. records never merge or vanish silently --------------------------------------------


def test_a_stray_brace_costs_at_most_its_own_record() -> None:
    good = '[Event "e{n}"]\n[Board "{n}"]\n[Contract "Spela"]\n'
    text = "\n".join(good.format(n=n) for n in range(1, 6))
    flipped = text.replace('[Board "2"]', '{Board "2"]')
    out = list(loads(flipped, errors="collect", name="f.ppn"))
    assert [r.get("Board") if isinstance(r, Record) else "bad" for r in out] == [
        "1", "bad", "3", "4", "5"]
    err = out[1].errors[0]
    assert (err.location.line, err.location.column) == (6, 1) and "comment" in err.message


def test_a_stray_brace_before_an_escape_line_still_ends_at_the_blank_line() -> None:
    text = ('[Event "a"] {oops\n\n% ===== game 2 =====\n[Event "b"]\n\n'
            '[Event "c"] {fine}\n')
    out = list(loads(text, errors="collect"))
    # The open comment costs what follows [Event "a"] in its record, not the record.
    assert [type(r).__name__ for r in out] == ["Record", "Record", "Record"]
    assert out[0].has_errors  # type: ignore[union-attr]
    assert [r.get("Event") for r in out] == ["a", "b", "c"]  # type: ignore[union-attr]


def test_a_repeated_tag_is_ignored_with_a_warning_naming_both_lines() -> None:
    rec = _one('[Event "x"]\n[Site "a"]\n[Note "1:x"]\n[Site "b"]\n[Note "2:y"]\n')
    [err] = rec.errors  # PBN §3.4: the repeat is ignored; Note may repeat
    assert "line 2" in err.message and err.location.line == 4 and err.is_warning
    assert rec.get("Site") == "a" and len(rec.all("Note")) == 2


def test_two_records_without_a_blank_line_are_two_records_with_a_warning() -> None:
    out = list(loads('[Event "a"]\n[Board "1"]\n[Event "a"]\n[Board "2"]\n', errors="collect"))
    assert [r.get("Board") for r in out] == ["1", "2"]  # type: ignore[union-attr]
    [warning] = out[1].errors
    assert warning.is_warning and "missing blank line" in warning.message
    assert warning.location.line == 3


@pytest.mark.parametrize("text,fragment,line", [
    ('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\nN S 9 ; x\n',
     "comment inside", 2),
    ('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\nN S 9\nN {x} H 8\n',
     "comment inside", 3),
    ('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\nN S 9\nN H\n',
     "a cell is missing", 3),
    ('[Auction "N"]\nPass + Pass\n', "'+' marks the next call", 2),
    ('[Auction "N"]\nPass +\n*\n', "'*' may not end", 3),
    ('[Play "N"]\nSA + - -\nSK\n', "'+' marks the next card", 3),
])
def test_misplaced_comments_plus_and_missing_cells_are_located_errors(
        text: str, fragment: str, line: int) -> None:
    rec = _one(text)
    errs = [e for e in rec.errors if not e.is_warning]
    assert errs and fragment in errs[0].message and errs[0].location.line == line


def test_plus_in_the_middle_of_a_trick_is_fine() -> None:
    assert not _one('[Play "W"]\nH2 H3 H4 HA\n+ - - CQ\n').errors  # PBN §3.6's example


def test_inheriting_from_after_an_unreadable_record_says_so() -> None:
    text = '[Event "a"]\n[Site "s"]\n\n[Event "b" c\n[Site "t"]\n\n[Event "#"]\n[Site "#"]\n'
    out = list(loads(text, errors="collect"))
    assert isinstance(out[1], BadRecord)
    third = out[2]
    assert isinstance(third, Record)
    # Site was read from the broken record's readable part; Event was not.
    assert [e.message.split(" ")[0] for e in third.errors] == ["Event"]
    assert "could not be read" in third.errors[0].message


# -- fmt never destroys content -----------------------------------------------------------


def test_fmt_leaves_a_file_with_errors_untouched_and_says_why(tmp_path: Path) -> None:
    f = tmp_path / "a.pbn"
    original = '[Event "a"]\n\n{Event "b"]\n[Site "x"]\n\n[Event "c"]\n'
    f.write_text(original, "utf-8")
    result = CliRunner().invoke(cli, ["fmt", str(f)])
    assert result.exit_code == 1
    assert "left unchanged: 1 record with errors" in result.output
    assert f.read_text("utf-8") == original


@pytest.mark.parametrize("text", [
    '[Event "x"]\n[Note "1:före"]\n[Auction "N"]\nPass =1=\n',
    "\n\n   \n\n",
    '[Event "x"] ; c\n[Play "N"]\nSA\n[Note "1:a"]\n[Auction "E"]\nPass\n',
])
def test_fmt_is_idempotent(tmp_path: Path, text: str) -> None:
    f = tmp_path / "a.ppn"
    f.write_text(text, "utf-8")
    assert reformat(f).status in ("reformatted", "unchanged")
    once = f.read_text("utf-8")
    assert reformat(f).status == "unchanged"
    assert f.read_text("utf-8") == once


def test_fmt_check_streams_and_writes_nothing(tmp_path: Path) -> None:
    f = tmp_path / "a.ppn"
    f.write_text('[Contract "hjarter"]\n', "utf-8")
    assert reformat(f, check=True).status == "would-reformat"
    assert f.read_text("utf-8") == '[Contract "hjarter"]\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.ppn"]  # no temporary left


# -- 4. bridge records stay bridge records -------------------------------------------------


def test_a_bridge_record_keeps_contract_declarer_and_result_as_written() -> None:
    rec = _one('[Scoring "IMP"]\n[Declarer "S"]\n[Contract "4HX"]\n[Result "9"]\n')
    assert (rec.get("Contract"), rec.get("Result")) == ("4HX", "9")
    priffe = _one('[Declarer "S"]\n[Contract "Spela"]\n[Result "9"]\n')
    assert priffe.get("Result") == "NS 9 EW 4"


def test_table_headers_keep_their_escapes_and_a_charset_line_says_utf8() -> None:
    text = ('%Content-type: text/plain; charset=ISO-8859-1\n'
            '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\nN S 9\n')
    out = dumps(loads(text))
    assert 'Denomination\\2R;Result\\2R"]' in out and "charset=UTF-8" in out
    assert "ISO-8859-1" not in out
    assert dumps(loads(out)) == out


# -- 5. bounded cost on hostile input ------------------------------------------------------


def test_an_error_on_a_long_line_shows_a_window_and_each_kind_once_a_line() -> None:
    text = '[Event "x"]\n[Auction "N"]\nPass' + " =1=" * 4000 + "\n"
    [bad] = loads(text, errors="collect")
    assert len(bad.errors) == 1
    shown = str(bad.errors[0])
    assert len(shown) < 400 and shown.rstrip().endswith("^")


def test_a_pile_of_nags_and_a_long_card_line_read_linearly() -> None:
    # Not a timing: 50,000 annotations once built 50,000 ever longer tuples (quadratic).
    rec = _one('[Play "N"]\nSA ' + "$1 " * 50_000 + "\n")
    assert rec.play is not None and len(rec.play.tokens[0].nags) == 50_000
    rec = _one('[Play "N"]\n' + "SA " * 100_000 + "\n")
    assert rec.play is not None and len(rec.play.tokens) == 100_000
    assert rec.play.tokens[-1].location.column == 3 * 99_999 + 1  # type: ignore[union-attr]


def test_utf16_bad_code_unit_and_huge_numbers_are_located_errors() -> None:
    data = (codecs.BOM_UTF16_LE + '[Event "a"]\n\n[Event "b'.encode("utf-16-le")
            + b"\x00\xd8" + '"]\n\n[Event "c"]\n'.encode("utf-16-le"))
    out = list(read(io.BytesIO(data), errors="collect"))
    assert [type(r).__name__ for r in out] == ["Record", "BadRecord", "Record"]
    assert out[1].errors[0].location.line == 3
    digits = "9" * 5000
    out = list(loads(f'[Auction "N"]\nPass ${digits} ={digits}=\n\n[Result "NS {digits}"]\n',
                     errors="collect"))
    assert isinstance(out[0], Record) and len(out[0].errors) == 2  # the auction is unread
    assert [t.name for t in out[0].unread] == ["Auction"]
    assert isinstance(out[1], Record) and out[1].get("Result") == f"NS {digits}"


# -- 10. output fits pipes -----------------------------------------------------------------


def test_parse_counts_with_the_right_plural(tmp_path: Path) -> None:
    f = tmp_path / "a.ppn"
    f.write_text('[Event "x" y\n', "utf-8")
    result = CliRunner().invoke(cli, ["parse", str(f)])
    assert "1 record could not be read" in result.output


@pytest.mark.slow  # a real process
def test_parse_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    import subprocess
    import sys

    f = tmp_path / "big.ppn"
    f.write_text("\n".join(f'[Event "e"]\n[Board "{n}"]\n' for n in range(1, 20_000)), "utf-8")
    code = "from priffe_records.cli import main; main()"
    proc = subprocess.run(f'"{sys.executable}" -c "{code}" parse "{f}" | head -n 2',
                          shell=True, capture_output=True, text=True, timeout=300,
                          executable="/bin/bash")
    assert proc.stdout.count("\n") == 2
    assert "Broken pipe" not in proc.stderr and "Traceback" not in proc.stderr


# -- the real files ------------------------------------------------------------------------


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.name[:48])
def test_real_file_reads_and_fmt_keeps_every_record(path: Path, tmp_path: Path) -> None:
    records = list(read(path, errors="collect"))
    assert records
    for r in records:
        for e in r.errors:
            assert e.location.line >= 1 and e.location.column >= 1
    if any(isinstance(r, BadRecord) or r.has_errors for r in records):
        return  # the negative test files: fmt refuses them (test above)
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes())
    result = reformat(copy)
    assert result.status in ("reformatted", "unchanged"), result.reason
    assert list(read(copy)) == [r for r in records if isinstance(r, Record)]
    assert reformat(copy).status == "unchanged"


# -- issue 8 seams -------------------------------------------------------------------------


def test_a_call_word_error_carries_its_suggestion_and_is_a_priffe_error() -> None:
    from priffe_records import PriffeError
    from priffe_records.game.calls import Call, CallError, Contract

    with pytest.raises(CallError) as info:
        Contract.parse("Hjärterr")
    assert info.value.suggestion == "Hjärter" and isinstance(info.value, PriffeError)
    with pytest.raises(CallError) as info:
        Contract.parse("4H")
    assert info.value.suggestion is None
    with pytest.raises(CallError) as info:
        Call.parse("spelaa")
    assert info.value.suggestion == "Spela"
