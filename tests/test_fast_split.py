"""The block splitter (format/splitter.py) cuts every file into the chunks the reader cut
before issue 9 (tests/split_reference.py): same first line, lines and notes, on every
corpus file, example and test file, byte-fuzzed copies of them in every line-end style
and encoding, generated texts full of braces and blank lines, and with blocks so small
that records are cut across them. The hypothesis profile (tests/conftest.py) sets the
examples."""

from __future__ import annotations

import codecs
import io
import os
import re
from pathlib import Path
from typing import Any

import pytest
import split_reference
from conftest import EXAMPLES, REAL_FILES, scaled
from hypothesis import given
from hypothesis import strategies as st
from split_reference import reference_split
from test_fast_lex import fuzzed
from test_reader_fuzz import PIECES

from priffe_records.format import splitter
from priffe_records.format.splitter import Decoded, split, split_text

FUZZ_N = int(os.environ.get("PRIFFE_FUZZ_COPIES", "6"))


def _files() -> list[Path]:
    return REAL_FILES


def _seen(chunks: Any) -> list[Any]:
    return [(c.first_line, c.lines, [(line, col, str(m), sev) for line, col, m, sev in c.notes])
            for c in chunks]


def _texts_agree(chunks: Any) -> list[Any]:
    """A chunk cut whole keeps its text and makes its lines on demand: both agree."""
    got = list(chunks)
    texts = [c.text for c in got]  # read before any chunk's lines are made
    assert texts == ["\n".join(c.lines) + "\n" for c in got]
    return got


def same_chunks(data: bytes, first_line: int = 1) -> None:
    want = _seen(reference_split(io.BytesIO(data), first_line))
    if (len(data) <= 4 and re.search(rb"\n|\r.", data)
            and not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))):
        # The old decoder read a file of at most 4 bytes as one line, line ends and all
        # ("\n\n" was one record): cut as a longer file is cut, line end by line end,
        # each line decoded as the reader decodes one (UTF-8, else Latin-1: b"\xe9" is é).
        body = data[3:] if data.startswith(codecs.BOM_UTF8) else data
        lines = [split_reference._decode(part).removeprefix("\ufeff")
                 for part in re.split(rb"\r\n|\r|\n", body)]
        if lines[-1] == "":
            lines.pop()
        want = _seen(split_reference.joined(split_reference._split(lines, first_line)))
    assert _seen(_texts_agree(split(Decoded(io.BytesIO(data)), first_line))) == want
    if not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF8)):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return
        assert _seen(_texts_agree(split_text(text, first_line))) == want  # loads


def test_a_tiny_latin1_file_cuts_as_the_reader_decodes_it() -> None:
    """Found by hypothesis: two bytes, a line end and Latin-1 é."""
    same_chunks(b"\n\xe9")
    same_chunks(b"\xe9\r\n")
    same_chunks(codecs.BOM_UTF8 + b"\n")


def _variants(data: bytes) -> list[bytes]:
    lf = data.replace(b"\r\n", b"\n")
    out = [data, lf.replace(b"\n", b"\r\n"), lf.replace(b"\n", b"\r"), codecs.BOM_UTF8 + data,
           lf.replace(b"\n", b"  \n"), lf.replace(b"\n\n", b"\n \t\n\n")]
    try:
        out.append(codecs.BOM_UTF16_LE + lf.decode("utf-8").encode("utf-16-le"))
    except UnicodeDecodeError:
        out.append(lf.replace(b"a", b"\xe4"))
    return out


@pytest.fixture(params=[1 << 16, 97, 7], ids=["64K", "97", "7"])
def block(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Blocks of the real size, and small ones that cut records, lines and CRLFs apart."""
    monkeypatch.setattr(splitter, "BLOCK", request.param)
    return int(request.param)


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
@pytest.mark.slow  # fuzz: every file, fuzzed copies
def test_every_file_and_its_fuzzed_copies_cut_the_same(path: Path, block: int) -> None:
    data = path.read_bytes()
    copies = [data, *(fuzzed(data, seed) for seed in range(FUZZ_N if block > 7 else 1))]
    for copy in copies:
        for variant in _variants(copy):
            same_chunks(variant)
    same_chunks(data, first_line=40)


def test_the_fast_cut_is_taken() -> None:
    """Most records of an export are cut without the line-by-line look."""
    calls = 0
    real = splitter._Cutter.feed

    def counting(self: Any, number: int, line: str) -> Any:
        nonlocal calls
        calls += 1
        return real(self, number, line)

    data = (EXAMPLES / "partie-uppsala.ppn").read_bytes()
    lines = data.count(b"\n")
    with pytest.MonkeyPatch.context() as m:
        m.setattr(splitter._Cutter, "feed", counting)
        assert list(split(Decoded(io.BytesIO(data))))
    assert calls < lines // 2, (calls, lines)


_settings = scaled(3)
BRACY = [*PIECES, "{", "}", "{x}", "\n\n", "\n \n", "\n%", "\n;", '\n[Event "e"]',
         '\n[Board "1"]', '\n[Deal "N:- - - -"]', "\n[Note", "% PBN 2.1\n", "\r", "\r\n",
         "\xe4".encode("latin-1").decode("latin-1")]


@_settings
@given(st.lists(st.sampled_from(BRACY), max_size=80).map("".join),
       st.sampled_from([1 << 16, 13, 5]), st.sampled_from(["utf-8", "latin-1"]))
def test_generated_texts_cut_the_same(text: str, size: int, encoding: str) -> None:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(splitter, "BLOCK", size)
        same_chunks(text.encode(encoding, "replace"))
