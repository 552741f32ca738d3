"""Bytes that are no PPN text cost only themselves, with one located message (issue 28
items 4, 5, 8c, 8d): a UTF-16 code unit that is no text, a byte order mark in the middle
of a file, a file that is not PPN at all; and ``validate -v`` says how a file was read.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES

from priffe_records.cli import cli
from priffe_records.format.errors import BadRecord
from priffe_records.format.reader import loads, read
from priffe_records.format.record import Record
from priffe_records.format.writer import dumps

PARTIE = EXAMPLES / "partie-uppsala.ppn"


def _run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, list(args))
    return res.exit_code, res.stdout, res.stderr


# ---------------------------------------------------------------- item 4

# A lone surrogate on a line the splitter's repairs move: the unclosed '{' before a blank
# line (the stray-brace repair), a second Event without the blank line before it.
SURROGATE_TEXTS = [
    '[Event "a"]\n{\n\n[Event "\ud800"]\n',
    '[Event "a"]\n{\n\n% x \ud800\n[Event "b"]\n',
    '[Event "a"]\n[Event "\udc00"]\n',
    '{\ud800\n\n[Event "a"]\n',
]


@pytest.mark.parametrize("text", SURROGATE_TEXTS)
@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_lone_surrogate_is_a_located_error_on_its_own_line(text: str, codec: str) -> None:
    data = text.encode(codec, "surrogatepass")
    records = list(read(io.BytesIO(data), errors="collect", name="u.ppn"))
    bad_line = next(i for i, line in enumerate(text.split("\n"), 1)
                    if any("\ud800" <= c <= "\udfff" for c in line))
    found = [e for r in records for e in r.errors if "UTF-16" in e.message]
    assert [e.location.line for e in found] == [bad_line]
    [error] = found
    assert "\ufffd" in error.line_text  # the line shown is the damaged one


def test_parse_of_every_surrogate_after_a_brace_ends_without_a_traceback(tmp_path: Path
                                                                         ) -> None:
    text = PARTIE.read_text(encoding="utf-8")
    path = tmp_path / "u.ppn"
    for at in [i for i, c in enumerate(text) if c == "{"][:3]:
        damaged = text[:at + 1] + "\ud800" + text[at + 1:]
        path.write_bytes(damaged.encode("utf-16", "surrogatepass"))
        code, _, err = _run("parse", str(path))
        assert code == 1 and "Traceback" not in err
        line = damaged[:at].count("\n") + 1
        assert f"{path}:{line}:" in err


# ---------------------------------------------------------------- item 5

def _two_files_by_cat(first_ends_its_line: bool) -> bytes:
    """Two UTF-8 files with a BOM each, joined as ``cat`` joins them."""
    records = PARTIE.read_bytes().split(b"\n\n")
    one = b"\xef\xbb\xbf" + records[1].strip(b"\n") + b'\n[Note "1:x"]'
    two = b"\xef\xbb\xbf{c}\n\n" + records[2].strip(b"\n") + b"\n"
    return one + (b"\n" if first_ends_its_line else b"") + two


@pytest.mark.parametrize("ends_line", [True, False])
def test_a_bom_in_the_middle_is_a_located_warning_and_the_record_stays_one(
        ends_line: bool) -> None:
    data = _two_files_by_cat(ends_line)
    records = list(read(io.BytesIO(data), errors="collect", name="cat.ppn"))
    assert [type(r) for r in records] == [Record, Record]
    boms = [e for r in records for e in r.errors if "U+FEFF" in e.message]
    line = data[:data.rindex(b"\xef\xbb\xbf")].count(b"\n") + 1
    column = data.rindex(b"\xef\xbb\xbf") - data.rfind(b"\n", 0, data.rindex(b"\xef\xbb\xbf"))
    assert [(e.severity, e.location.line, e.location.column) for e in boms] == [
        ("warning", line, column)]
    # Written back and read again: still the same records, one each.
    again = list(loads(dumps([r for r in records if isinstance(r, Record)]), errors="collect"))
    assert len(again) == 2 and all(isinstance(r, Record) for r in again)


def test_score_fill_writes_a_catted_record_back_as_one(tmp_path: Path) -> None:
    path = tmp_path / "cat.ppn"
    path.write_bytes(_two_files_by_cat(False))
    out = tmp_path / "filled.ppn"
    _run("score", "--fill", "--force", "-o", str(out), str(path))
    assert out.exists()
    written = list(read(out, errors="collect"))
    assert len(written) == 2 and not any(isinstance(r, BadRecord) for r in written)


def test_a_bom_of_a_text_read_as_a_string_is_handled_alike() -> None:
    text = _two_files_by_cat(True).decode("utf-8")
    got = list(loads(text, errors="collect"))
    # The BOM opens the '{c}' line right after record 1's last line: record 1's.
    assert [sum("U+FEFF" in e.message for e in r.errors) for r in got] == [1, 0]


# ---------------------------------------------------------------- item 8c

def test_random_bytes_are_one_error(tmp_path: Path) -> None:
    path = tmp_path / "noise.ppn"
    path.write_bytes(random.Random(1).randbytes(3000))
    code, out, err = _run("validate", str(path))
    assert code == 2
    assert err.count(f"{path}:1:1:") == 1 and "not a PPN/PBN text file" in err
    assert "warning" not in out


@pytest.mark.parametrize("text", ["", "% only a comment\n", "{a comment\nover lines}\n",
                                  "\n\n" + "% x\n" * 3000 + '[Event "late"]\n'])
def test_text_without_content_or_with_a_late_tag_is_not_refused(tmp_path: Path,
                                                                 text: str) -> None:
    path = tmp_path / "quiet.ppn"
    path.write_text(text, encoding="utf-8")
    _, _, err = _run("validate", str(path))
    assert "not a PPN/PBN text file" not in err


def test_a_csv_file_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "sheet.ppn"
    path.write_text("Giv,Giv ut,Kontrakt\n" * 20, encoding="utf-8")
    code, _, err = _run("parse", str(path))
    assert code == 2 and err.count("not a PPN/PBN text file") == 1


# ---------------------------------------------------------------- item 8d

@pytest.mark.parametrize("encode,said", [
    (lambda t: t.encode("latin-1"), "read as Latin-1 (ISO 8859-1), line ends LF"),
    (lambda t: b"\xef\xbb\xbf" + t.replace("\n", "\r\n").encode(),
     "read as UTF-8 with a byte order mark, line ends CRLF"),
    (lambda t: t.encode("utf-16"), "read as UTF-16 LE with a byte order mark, line ends LF"),
    (lambda t: t.encode() + t.replace("\n", "\r\n").encode(),
     "read as UTF-8, mixed line ends: LF, CRLF"),
])
def test_validate_verbose_says_the_encoding_and_line_ends(tmp_path: Path, encode: object,
                                                          said: str) -> None:
    text = PARTIE.read_text(encoding="utf-8")
    path = tmp_path / "read.ppn"
    path.write_bytes(encode(text))  # type: ignore[operator]
    _, out, _ = _run("validate", "-v", str(path))
    assert said in out


def test_validate_verbose_says_it_in_swedish(tmp_path: Path) -> None:
    path = tmp_path / "read.ppn"
    path.write_bytes(PARTIE.read_text(encoding="utf-8").encode("latin-1"))
    _, out, _ = _run("--lang", "sv", "validate", "-v", str(path))
    assert "läst som Latin-1 (ISO 8859-1), radslut LF" in out
