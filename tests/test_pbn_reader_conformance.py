"""The reader to the letter of PBN 2.1 where real files showed it was not.

Each fixture in tests/data/conformance is written by hand in the shape of the named
program's output (see the comment at its top): BBA, BridgeComposer, Bridgewebs files
concatenated, a Bridgewebs file in Latin-1, a score sheet typed with several tags a line.
For every one, ``read(write(read(f))) == read(f)`` and ``fmt`` keeps every record.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from conftest import CORPUS_FILES, DATA
from test_real_files_fuzz import mutate

from priffe_records import BadRecord, Record, dumps, loads, read
from priffe_records.format.errors import PPNSyntaxError
from priffe_records.format.rewrite import reformat
from priffe_records.format.writer import format_record

HERE = DATA / "conformance"
FIXTURES = [HERE / name for name in (
    "bba-repeated-room.pbn", "bridgecomposer-control-bytes.pbn", "bridgewebs-concatenated.pbn",
    "bridgewebs-latin1.pbn", "bridgewebs-stray-byte.pbn", "typed-shared-line-event.ppn")]
REAL = CORPUS_FILES


def _read(path: Path) -> list[Record | BadRecord]:
    return list(read(path, errors="collect", name=path.name))


def _records(path: Path) -> list[Record]:
    out = _read(path)
    assert all(isinstance(r, Record) for r in out), out
    return out  # type: ignore[return-value]


def _warnings(rec: Record, fragment: str) -> list[PPNSyntaxError]:
    return [e for e in rec.errors if fragment in e.message]


def _at(error: PPNSyntaxError) -> tuple[int, int]:
    return error.location.line, error.location.column


# -- every fixture: the round trip, and fmt keeps every record ---------------------------


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_every_fixture_round_trips_and_fmt_keeps_every_record(path: Path,
                                                              tmp_path: Path) -> None:
    records = _records(path)
    text = dumps(records)
    assert list(loads(text, errors="collect")) == records
    assert dumps(loads(text)) == text  # export format is a fixed point
    assert not any(r.has_errors for r in records)
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes())
    assert reformat(copy).status == "reformatted"
    assert list(read(copy)) == records


# -- a repeated tag: ignored with a warning (PBN §3.4) ------------------------------------


def test_bba_room_twice_keeps_the_first_with_a_located_warning() -> None:
    first, second = _records(HERE / "bba-repeated-room.pbn")
    assert first.get("Room") == "Open" and len(first.all("Room")) == 1
    [warning] = _warnings(first, "[Room]")
    assert warning.is_warning and _at(warning) == (21, 1)
    assert "line 20" in warning.message and "'IMP'" in warning.message
    assert "PBN §3.4" in warning.message
    assert second.get("Room") == "Open"
    text = dumps([first, second])
    assert text.count('[Room "Open"]') == 2 and '[Room "IMP"]' not in text  # the first, once


def test_an_ignored_repeat_keeps_its_comments_and_sets_no_default() -> None:
    first, second = loads('[Event "a"]\n[Site "##x"]\n[Site "##y"] {typed twice}\n\n'
                          '[Event "b"]\n', errors="collect")
    assert isinstance(first, Record) and isinstance(second, Record)
    site = first.tag("Site")
    assert site is not None and site.value == "x" and site.inherit == "##x"
    assert [c.text for c in site.comments] == ["typed twice"]
    assert second.get("Site") == "x"  # the ignored '##y' changed nothing
    assert list(loads(dumps([first, second]))) == [first, second]


def test_a_repeated_section_is_ignored_only_when_it_holds_the_same_data() -> None:
    same = '[Event "x"]\n[Play "N"]\nSA SK SQ SJ\n[Play "N"]\nSA SK SQ SJ\n'
    [rec] = loads(same, errors="collect")
    assert isinstance(rec, Record) and len(rec.all("Play")) == 1
    assert [e.is_warning for e in rec.errors] == [True]
    other = same.replace("SA SK SQ SJ\n[Play", "SA SK SQ SJ\n[Play").replace(
        "SQ SJ\n", "SQ S2\n", 1)
    [bad] = loads(other, errors="collect")
    # Ignoring the second Play would lose its cards: an error, the text kept as written.
    assert isinstance(bad, BadRecord) and bad.text == other
    assert "other section data" in bad.errors[0].message and _at(bad.errors[0]) == (4, 1)


def test_a_second_event_on_a_shared_line_never_writes_back_as_two_records() -> None:
    path = HERE / "typed-shared-line-event.ppn"
    first, second = _records(path)
    [warning] = _warnings(first, "[Event]")
    assert _at(warning) == (5, 22) and "empty line" in warning.message
    assert first.get("Board") == "1" and second.get("Board") == "2"
    for rec in (first, second):
        alone = list(loads(format_record(rec), errors="collect"))
        assert alone == [rec]
    assert list(loads(dumps([first, second]))) == [first, second]


# -- comment blocks are no records; version lines are comments ----------------------------


def test_concatenated_files_keep_every_version_line_and_count_only_deals(
        tmp_path: Path) -> None:
    path = HERE / "bridgewebs-concatenated.pbn"
    records = _records(path)
    assert [r.get("Board") for r in records] == ["1", "2", "3"]  # no record without tags
    # Board 2's comment block (a header, then a blank line) leads it; board 3's header
    # leads it; the header ending the file ends board 3.
    assert [c.text for c in records[1].leading][:2] == [" PBN 2.1", " EXPORT"]
    assert [c.text for c in records[2].leading] == [" PBN 2.1", " EXPORT"]
    ends = [c.text for t in records[2].tags for c in t.comments]
    assert ends == [" PBN 2.1", " EXPORT"]
    source = path.read_text("utf-8")
    text = dumps(records)
    assert text.count("% PBN 2.1") == source.count("% PBN 2.1") - 1  # the file's own: ours
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes())
    reformat(copy)
    assert copy.read_text("utf-8").count("% PBN 2.1") == source.count("% PBN 2.1") - 1


def test_a_comment_block_after_a_table_ends_the_file_without_an_error() -> None:
    text = '[Event "a"]\n[T "x;y"]\n1 2\n\n{the end} ; really\n% fin\n'
    [rec] = loads(text, errors="collect")
    assert isinstance(rec, Record) and not rec.errors
    assert list(loads(dumps([rec]))) == [rec]


def test_a_file_of_comments_only_keeps_them() -> None:
    text = "% only a comment\n\n{and this one}\n"
    [rec] = loads(text, errors="collect")
    assert isinstance(rec, Record) and not rec.tags
    assert [c.text for c in rec.leading] == [" only a comment", "and this one"]
    assert list(loads(dumps([rec]))) == [rec]


def test_version_lines_of_a_record_read_alone_are_its_comments() -> None:
    """A record's own text (the archive stores format_record) is no file: its version
    lines are comments; a file's header is at most one version line and one % EXPORT."""
    rec = list(loads('[Event "a"]\n\n% PBN 2.1\n% EXPORT\n[Event "b"]\n'))[1]
    alone = format_record(rec)
    assert alone.startswith("% PBN 2.1\n")
    assert list(loads(alone, header=False)) == [rec]
    assert list(loads(dumps([rec]))) == [rec]  # after our header, a file's first record
    [top] = loads("% PBN 2.1\n% EXPORT\n% PBN 2.1\n[Event \"c\"]\n")
    assert [c.text for c in top.leading] == [" PBN 2.1"]


def test_import_then_export_keeps_the_version_lines(tmp_path: Path) -> None:
    from priffe_records.archive.importing import import_file
    from priffe_records.archive.query import Filters, export
    from priffe_records.archive.schema import ensure_schema, open_archive

    path = HERE / "bridgewebs-concatenated.pbn"
    db = open_archive(tmp_path / "a.db")
    ensure_schema(db)
    assert import_file(db, path).records == 3  # the comment block is no record
    out = tmp_path / "out.ppn"
    assert export(db, Filters(), out) == 3
    assert out.read_text("utf-8").count("% PBN 2.1") == 3


# -- control characters and bytes that are no text -----------------------------------------


def test_bridgecomposer_control_bytes_are_located_warnings_and_never_exported() -> None:
    path = HERE / "bridgecomposer-control-bytes.pbn"
    first, second = _records(path)
    warnings = _warnings(first, "control character 0x02")
    assert [_at(w) for w in warnings] == [(21, 43), (21, 52)]
    assert all(w.is_warning and "PBN §2.2" in w.message for w in warnings)
    table = first.tag("OptimumResultTable")
    assert table is not None and table.value == "Declarer;Denomination\\2R;Result\\2R"
    text = dumps([first, second])
    assert re.search("[\x00-\x08\x0e-\x1f\x7f]", text) is None
    assert '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]' in text


def test_control_characters_in_comments_are_escaped_and_counted_past_ten() -> None:
    [rec] = loads('[Event "x"] {a\x01b}\n[Site "' + "\x07" * 12 + '"]\n', errors="collect")
    assert isinstance(rec, Record)
    event = rec.tag("Event")
    assert event is not None and event.comments[0].text == "a\\1b"
    assert rec.get("Site") == "\\7" * 12
    lines = [(e.location.line, e.location.column) for e in rec.errors]
    assert lines[0] == (1, 15) and len(lines) == 1 + 10 + 1
    [more] = _warnings(rec, "2 more control characters on this line")
    assert _at(more) == (2, 1)


@pytest.mark.parametrize("data", [b'[Event "Bridge\x92s"]\n',  # Latin-1 line: byte 0x92
                                  b'[Event "Bridge\xc2\x92s"]\n'])  # UTF-8 U+0092
def test_c1_controls_are_control_characters_too(data: bytes) -> None:
    """PBN §2.2: codes 128-159 are non-printing control characters, not used for PBN
    data (the PBN verifier's errors_10 tests them); a Windows program's 0x92 apostrophe
    read as Latin-1 is one."""
    [rec] = read(io.BytesIO(data), errors="collect")
    assert isinstance(rec, Record) and rec.get("Event") == "Bridge\\222s"
    [warning] = rec.errors
    assert warning.is_warning and _at(warning) == (1, 15) and "0x92" in warning.message


def test_a_control_character_outside_a_string_is_still_a_syntax_error() -> None:
    [bad] = loads('[Event "x"]\x02\n', errors="collect")
    assert isinstance(bad, BadRecord)
    assert "control character" in bad.errors[0].message and _at(bad.errors[0]) == (1, 12)
    assert bad.text == '[Event "x"]\\2\n'  # written back without the byte


def test_one_stray_byte_costs_that_byte_not_the_lines_utf8() -> None:
    [rec] = _records(HERE / "bridgewebs-stray-byte.pbn")
    assert rec.get("Event") == "Västerås BK\ufffds vårtävling"
    [warning] = _warnings(rec, "could not be read")
    assert warning.is_warning and _at(warning) == (5, 20)


def test_a_latin1_file_still_reads_as_latin1_without_a_warning() -> None:
    [rec] = _records(HERE / "bridgewebs-latin1.pbn")
    assert (rec.get("Site"), rec.get("West")) == ("Västerås", "Åsa Öberg")
    assert not rec.errors


def test_a_utf16_code_unit_that_is_no_text_is_reported_once() -> None:
    data = "\ufeff[Event \"a".encode("utf-16-le") + b"\x00\xd8" + '"]\n'.encode("utf-16-le")
    [bad] = read(io.BytesIO(data), errors="collect")
    assert isinstance(bad, BadRecord) and len(bad.errors) == 1


# -- the property: a record written back is one record ------------------------------------


@pytest.mark.skipif(not REAL, reason="no real PBN files")
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.slow  # fuzz
def test_every_record_of_a_fuzzed_real_file_writes_back_as_one_record(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        path = rng.choice(REAL + FIXTURES)
        data, _, _ = mutate(path.read_bytes(), rng)
        for item in read(io.BytesIO(data), errors="collect", name="fuzz.pbn"):
            if not isinstance(item, Record):
                continue
            for text in (format_record(item), format_record(item, resolve_inheritance=True)):
                back = list(loads(text, errors="collect", header=False))
                assert len(back) == 1, (path.name, text)
            if not item.defaults and all(t.inherit is None for t in item.tags):
                assert list(loads(format_record(item), errors="collect",
                                  header=False)) == [item], (path.name, item)


def test_a_file_is_never_cut_between_a_comment_block_and_its_record() -> None:
    """Work split over processes starts a piece only where the reader starts a record
    afresh: not after a comment block, which leads the record after it."""
    from priffe_records.format.cuts import fresh_starts

    data = (HERE / "bridgewebs-concatenated.pbn").read_bytes()
    data += b"\n" + data.replace(b"% PBN 2.1\n% EXPORT\n[Event", b"[Event")
    whole = list(read(io.BytesIO(data), errors="collect"))
    starts = {r.location.line: n for n, r in enumerate(whole) if r.location is not None}
    cuts = list(fresh_starts(data))
    assert cuts
    for offset in cuts:
        line = data.count(b"\n", 0, offset) + 1
        assert line in starts, f"line {line} starts no record"
        piece = read(io.BytesIO(data[offset:]), errors="collect", first_line=line)
        assert list(piece) == whole[starts[line]:]


def test_a_control_byte_deep_in_a_file_read_in_small_blocks_is_still_found(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader looks at a record's text only once a block of bytes held a control
    byte or U+FFFD: a late one, in any block, must still be found."""
    from priffe_records.format import splitter

    monkeypatch.setattr(splitter, "BLOCK", 64)
    clean = "".join(f'[Event "e"]\n[Board "{n}"]\n\n' for n in range(1, 40))
    for odd in ("\x02", "\ufffd", "\x85"):
        data = (clean + f'[Event "x{odd}"]\n\n' + clean).encode("utf-8")
        found = [e for r in read(io.BytesIO(data), errors="collect") for e in r.errors]
        assert [e.location.line for e in found] == [118], odd


def test_score_fill_and_export_write_the_shared_line_sheet_back_as_two_records(
        tmp_path: Path) -> None:
    from click.testing import CliRunner

    from priffe_records.cli import cli

    copy = tmp_path / "sheet.ppn"
    copy.write_bytes((HERE / "typed-shared-line-event.ppn").read_bytes())
    result = CliRunner().invoke(cli, ["score", "--fill", "--force", str(copy)])
    assert result.exit_code == 0, result.output
    filled = _records(copy)
    assert [r.get("Board") for r in filled] == ["1", "2"]
    db, out = tmp_path / "a.db", tmp_path / "out.ppn"
    for args in (["import", "--db", str(db), str(copy)],
                 ["export", "--db", str(db), "-o", str(out)]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
    assert [r.get("Board") for r in _records(out)] == ["1", "2"]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_byte_order_marks_of_concatenated_files_are_no_text(encoding: str) -> None:
    """Files saved with a byte order mark and joined with ``cat`` bring one per file: each
    after the file's first is a located warning and goes, and the records read as without
    them (issue 28 item 5)."""
    text = (HERE / "bridgewebs-concatenated.pbn").read_text("utf-8")
    plain = list(read(io.BytesIO(text.encode(encoding)), errors="collect"))
    marked = text.replace("% PBN 2.1\n% EXPORT\n", "\ufeff% PBN 2.1\n% EXPORT\n")
    assert marked.count("\ufeff") == 4 and marked.startswith("\ufeff")
    data = marked[1:].encode("utf-8-sig" if encoding == "utf-8" else encoding)
    lines = [i for i, line in enumerate(marked.split("\n"), 1) if line.startswith("\ufeff")]
    for got in (list(read(io.BytesIO(data), errors="collect")), list(loads(marked[1:],
                                                                             errors="collect"))):
        assert got == plain and all(isinstance(r, Record) for r in got)
        warned = [(e.severity, e.location.line, e.location.column) for r in got
                  for e in r.errors]
        assert warned == [("warning", line, 1) for line in lines[1:]]


def test_a_brace_comment_holding_tag_pairs_is_never_another_records_comment() -> None:
    """A '{' left open swallows a record into a comment: that block stays an item of its own
    at its line (and the validator names it), never the next record's leading comment."""
    text = ('[Event "a"]\n[Board "1"]\n\n{ lost\n[Event "b"]\n[Board "2"]\n}\n\n'
            '[Event "c"]\n[Board "3"]\n\n% only a comment\n\n[Event "d"]\n[Board "4"]\n')
    records = list(loads(text, errors="collect"))
    assert [r.get("Board") for r in records] == ["1", None, "3", "4"]
    swallowed, third, fourth = records[1], records[2], records[3]
    assert swallowed.location is not None and swallowed.location.line == 4
    assert not third.leading  # nothing of the swallowed record leads board 3
    assert [c.text for c in fourth.leading] == [" only a comment"]  # a plain block still does
