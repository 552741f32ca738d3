"""The splitter (format/splitter.py) cuts a file into the same chunks however it is read:
in blocks of any size (small ones cut records, lines and CRLFs apart), from bytes or from
a string, starting at any line number. Checked on every real file, byte-fuzzed copies in
every line-end style and encoding, and generated texts full of braces and blank lines.
What the chunks are is pinned by the frozen reader digests (test_reader_equivalence).
The hypothesis profile (tests/conftest.py) sets the examples."""

from __future__ import annotations

import codecs
import io
from pathlib import Path
from typing import Any

import pytest
from conftest import REAL_FILES, scaled
from hypothesis import given
from hypothesis import strategies as st
from test_reader_fuzz import PIECES
from test_scanner_conformance import copies

from priffe_records.format import splitter
from priffe_records.format.splitter import Decoded, may_inherit, split, split_text, starts_record


def _seen(chunks: Any) -> list[Any]:
    return [(c.first_line, c.lines, [(line, col, str(m), sev) for line, col, m, sev in c.notes])
            for c in chunks]


def _texts_agree(chunks: Any) -> list[Any]:
    """A chunk cut whole keeps its text and makes its lines on demand: both agree."""
    got = list(chunks)
    texts = [c.text for c in got]  # read before any chunk's lines are made
    assert texts == ["\n".join(c.lines) + "\n" for c in got]
    return got


def same_chunks(data: bytes, first_line: int = 1, sizes: tuple[int, ...] = (97, 7)) -> None:
    """Blocks of every size, and the text when it is UTF-8, cut ``data`` alike."""
    want = _seen(_texts_agree(split(Decoded(io.BytesIO(data)), first_line)))
    for size in sizes:
        with pytest.MonkeyPatch.context() as m:
            m.setattr(splitter, "BLOCK", size)
            assert _seen(_texts_agree(split(Decoded(io.BytesIO(data)), first_line))) == want
    if not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF8)):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return
        assert _seen(_texts_agree(split_text(text, first_line))) == want  # loads


def test_a_tiny_latin1_file_cuts_as_the_reader_decodes_it() -> None:
    """Found by hypothesis: two bytes, a line end and Latin-1 é."""
    for data, lines in [(b"\n\xe9", ["", "é"]), (b"\xe9\r\n", ["é"]),
                        (codecs.BOM_UTF8 + b"\n", None)]:
        same_chunks(data)
        got = [line for c in split(Decoded(io.BytesIO(data))) for line in c.lines]
        if lines is not None:
            assert [line for line in got if line] == [line for line in lines if line]


def _variants(data: bytes) -> list[bytes]:
    lf = data.replace(b"\r\n", b"\n")
    out = [data, lf.replace(b"\n", b"\r\n"), lf.replace(b"\n", b"\r"), codecs.BOM_UTF8 + data,
           lf.replace(b"\n", b"  \n"), lf.replace(b"\n\n", b"\n \t\n\n")]
    try:
        out.append(codecs.BOM_UTF16_LE + lf.decode("utf-8").encode("utf-16-le"))
    except UnicodeDecodeError:
        out.append(lf.replace(b"a", b"\xe4"))
    return out


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: p.name)
@pytest.mark.slow  # fuzz: every file, fuzzed copies
def test_every_file_and_its_fuzzed_copies_cut_alike_in_any_blocks(path: Path) -> None:
    for copy in copies(path.read_bytes()):
        for variant in _variants(copy):
            same_chunks(variant)
    same_chunks(path.read_bytes(), first_line=40)


def test_line_ends_of_every_style_cut_into_the_same_lines() -> None:
    text = '% PBN 2.1\n[Event "a"]\n{x\n\ny}\n[Board "1"]\n \n[Event "b"]\n'
    cut = [(c.first_line, c.lines) for c in split_text(text)]
    assert cut == [(2, ['[Event "a"]', "{x", "", "y}", '[Board "1"]']), (8, ['[Event "b"]'])]
    for newline in (b"\r\n", b"\r"):
        data = text.encode().replace(b"\n", newline)
        assert [(c.first_line, c.lines) for c in split(Decoded(io.BytesIO(data)))] == cut


_settings = scaled(3)
BRACY = [*PIECES, "{", "}", "{x}", "\n\n", "\n \n", "\n%", "\n;", '\n[Event "e"]',
         '\n[Board "1"]', '\n[Deal "N:- - - -"]', "\n[Note", "% PBN 2.1\n", "\r", "\r\n",
         "\xe4".encode("latin-1").decode("latin-1")]


@_settings
@given(st.lists(st.sampled_from(BRACY), max_size=80).map("".join),
       st.sampled_from(["utf-8", "latin-1"]))
def test_generated_texts_cut_alike_in_any_blocks(text: str, encoding: str) -> None:
    same_chunks(text.encode(encoding, "replace"), sizes=(13, 5))


@pytest.mark.parametrize(("text", "inherits"), [
    ('[Event "#"]\n', True), ('[Site "##Växjö"]\n', True), ('[Event " \t#"]\n', True),
    ('[Event "a#b"]\n', False), ("{#} ; #\n", False), ('[Event "x"]\n', False), ("", False)])
def test_may_inherit_is_one_rule_for_text_and_bytes(text: str, inherits: bool) -> None:
    assert may_inherit(text) is inherits
    assert may_inherit(text.encode()) is inherits


def test_a_record_starts_at_a_line_opening_with_a_tag_pair() -> None:
    assert starts_record('[Event "x"]') and starts_record(' \t[Board "1"] {c}')
    assert not starts_record('[event "x"]') and not starts_record('x [Event "y"]')
    assert not starts_record("[Event]") and not starts_record('{[Event "x"]}')


def test_a_utf16_line_that_is_no_text_is_noted_in_a_run_taken_whole() -> None:
    """UTF-16 goes through the same block cutter; a line with a lone surrogate keeps its
    located error even inside a run that is otherwise a record as it stands."""
    text = '[Event "a"]\n\n[Event "c"]\n[Site "b\ud800"]\n\n[Event "d"]\n'
    data = codecs.BOM_UTF16_LE + text.encode("utf-16-le", "surrogatepass")
    same_chunks(data)
    chunks = list(split(Decoded(io.BytesIO(data))))
    assert [c.first_line for c in chunks] == [1, 3, 6]
    assert [[(line, col, sev) for line, col, _, sev in c.notes] for c in chunks] == [
        [], [(4, 9, "error")], []]


def test_a_mark_on_a_blank_line_between_records_goes_with_the_next_record() -> None:
    """A byte order mark alone on a blank line (files joined with 'cat') is noted on the
    record after it, not on a later one (once, a record taken whole skipped it)."""
    text = '[Event "a"]\n\n\ufeff\n[Event "b"]\n\n[Event "c"]\n{x\n\ny}\n'
    same_chunks(text.encode())
    got = [(c.first_line, [(line, sev) for line, _, _, sev in c.notes]) for c in split_text(text)]
    assert got == [(1, []), (4, [(3, "warning")]), (6, [])]
