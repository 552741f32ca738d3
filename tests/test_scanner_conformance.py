"""The tokenizer (format/scanner.py) reads exactly what Lark's parser of the same grammar
reads: wherever Lark takes a record's text, the scanner's items (type, value, line,
column of every token, blocks in order) are Lark's; wherever Lark fails, the scanner
gives None (and Lark explains the error). Checked on every real file and byte-fuzzed
copies of it, the PBN conformance cases, generated records and generated damage.

The hypothesis profile (tests/conftest.py) sets the examples per test and
``PRIFFE_FUZZ_COPIES`` (default 6) the fuzzed copies per file, for a longer run.
"""

from __future__ import annotations

import io
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_FILES, REAL_FILES, scaled
from hypothesis import given
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput
from strategies import records
from test_reader_fuzz import PIECES, semantic_records

from priffe_records import dumps
from priffe_records.format.parser import get_parser, get_scanner, parse_chunk
from priffe_records.format.record import Record
from priffe_records.format.scanner import Scanner, faster, scanner
from priffe_records.format.splitter import Decoded, split

FUZZ_N = int(os.environ.get("PRIFFE_FUZZ_COPIES", "6"))
SCANNER = scanner(get_parser())  # made from Lark afresh, not the cache
CACHED = get_scanner()  # what the reader uses: the tables as JSON gives them back


def _key(items: list[Any]) -> list[Any]:
    def tok(t: Any) -> tuple[str, str, int, int]:
        return (t.type, t.value, t.line, t.column)

    return [(it[0], [tok(t) for t in it[1]]) if isinstance(it, tuple) else tok(it)
            for it in items]


def same_items(text: str) -> bool:
    """The scanner and Lark agree on ``text``; True when it is a record Lark reads."""
    mine = SCANNER.parse(text)
    cached = CACHED.parse(text)
    assert (cached is None) == (mine is None) and _key(cached or []) == _key(mine or [])
    try:
        lark = _key(get_parser().parse(text))  # type: ignore[arg-type]
    except UnexpectedInput:
        assert mine is None, "the scanner read a record Lark rejects"
        return False
    assert mine is not None, "the scanner gave up on a record Lark reads"
    assert _key(mine) == lark
    return True


def chunks(data: bytes) -> list[str]:
    return ["\n".join(c.lines) + "\n" for c in split(Decoded(io.BytesIO(data)))]


def fuzzed(data: bytes, seed: int) -> bytes:
    """A damaged copy: bytes flipped, dropped, doubled, or PPN's own characters put in."""
    rng = random.Random(seed)
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not out:
            break
        i = rng.randrange(len(out))
        op = rng.randrange(5)
        if op == 0:
            out[i] = rng.randrange(256)
        elif op == 1:
            del out[i:i + rng.randint(1, 4)]
        elif op == 2:
            out[i:i] = out[i:i + rng.randint(1, 12)]
        else:
            out[i:i] = rng.choice(PIECES).encode()
    return bytes(out)


def copies(data: bytes) -> list[bytes]:
    """The file's bytes and ``PRIFFE_FUZZ_COPIES`` fuzzed copies of them."""
    return [data, *(fuzzed(data, seed) for seed in range(FUZZ_N))]


def test_the_grammar_is_inside_the_scanners_model() -> None:
    assert isinstance(SCANNER, Scanner)
    assert {str(k) for it in SCANNER.retyped for _, k in it.values() if k} >= {
        "auction", "play", "plain", "?", "-", "-auction", "-play", "=plain"}


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: p.name)
@pytest.mark.slow  # fuzz: every file, fuzzed copies
def test_every_file_and_its_fuzzed_copies_scan_as_lark_parses(path: Path) -> None:
    for copy in copies(path.read_bytes()):
        for text in chunks(copy):
            same_items(text)


def test_every_record_of_the_examples_and_test_files_is_read_alike() -> None:
    read = total = 0
    for path in REAL_FILES:
        for text in chunks(path.read_bytes()):
            total += 1
            read += same_items(text)
    exported = [text for path in EXAMPLE_FILES for text in chunks(path.read_bytes())]
    assert exported and all(same_items(text) for text in exported)
    assert read > total // 2, (read, total)


# PBN 2.1 to the letter (tests/test_pbn_reader_conformance.py): repeats, control
# characters in strings and comments, comment blocks joined to a record over blank
# lines, version lines kept as comments; and tag pairs written over several lines.
CONFORMANCE = [b'[Event "x"]\n[Room "a"]\n[Room "b"] {c}\n[Site "##s"]\n[Site "##t"]\n\n'
               b'[Event "y"]\n',
               b'[Event "x"]\n[Play "N"]\nSA SK SQ SJ\n[Play "N"]\nSA SK SQ SJ\n',
               b'[Event "x"]\n[Play "N"]\nSA SK\n[Play "N"]\nSQ\n',
               b'[Event "a\x02b"] {c\x01\x7f}\n[Site "y"] ; \x1b\n[Play "N"]\nSA {\x00}\n',
               b'[Event "x"]\x02\n\n[Event "y"]\n',
               b'% PBN 2.1\n% EXPORT\n% PBN 2.1\n\n[Event "x"]\n\n% PBN 2.1\n% EXPORT\n\n'
               b'{c}\n\n[Event "y"]\n\n% end\n',
               b'[T "x;y"]\n1 2\n\n{end} ; x\n\n% fin\n',
               b'[Event "V\xc3\xa4ster\xc3\xa5s\x92"]\n[Site "V\xe4ster\xe5s"]\n',
               b'\xef\xbb\xbf[Event "a"]\n\n\xef\xbb\xbf% PBN 2.1\n\xef\xbb\xbf[Event "b"]\n',
               b'[Event\n "x"]\n[Board "1"]\n',
               b'[\nAuction "N" ]\nHj\xc3\xa4rter pass\n*\n[ Play "N"\n]\nSA SK\n',
               b'{c} [ Auction\n"S"] pass [Note "1:x"]\n[ AuctionX "1" ] a b\n[ Play "W" ]\n',
               b'[Event "x"] [ Play "N"]\nSA\n[Auction\n"N"\n] Pass\n']


@pytest.mark.parametrize("data", CONFORMANCE)
def test_conformance_cases_scan_as_lark_parses(data: bytes) -> None:
    for text in chunks(data):
        same_items(text)


def test_a_tag_pair_over_several_lines_is_read_by_the_scanner() -> None:
    """Lark reads it, so the scanner does: no second reader of valid text."""
    for text in ('[Event\n "x"]\n[Board "1"]\n', '[\nAuction "N" ]\nPass\n[ Play "N"\n]\nSA\n'):
        assert same_items(text)
        assert parse_chunk(text) is not None


def test_a_record_with_a_syntax_error_is_left_to_lark() -> None:
    for broken in ('[Event "x"\n', '[Auction "N"]\nHjärterr\n', '[Play "N"]\nSA ]\n',
                   '{open\n[Event "x"]\n', 'word\n', '[\nAuction ]\n', '[ Play ]\n'):
        assert parse_chunk(broken) is None
        with pytest.raises(UnexpectedInput):
            get_parser().parse(broken)


_settings = scaled(3)
# Generating whole records costs ~0.1 s an example: a third of the count.
_records_settings = scaled(1)


@_records_settings
@given(st.lists(records(), min_size=1, max_size=3))
def test_generated_records_scan_as_lark_parses(recs: list[Record]) -> None:
    text = dumps(recs)
    for chunk in chunks(text.encode()):
        assert same_items(chunk)  # what the writer writes is valid


@_records_settings
@given(st.lists(semantic_records(), min_size=1, max_size=3), st.randoms(use_true_random=False))
def test_generated_records_with_damage_scan_as_lark_parses(
        recs: list[Record], rng: random.Random) -> None:
    data = dumps(recs).encode()
    for copy in (data, fuzzed(data, rng.randrange(1 << 30))):
        for chunk in chunks(copy):
            same_items(chunk)


_TAG_PIECES = [*PIECES, "Auction", "Play", "Event", " Auction", "Play ", '"N"', "]\n", "[ "]


@_settings
@given(st.lists(st.sampled_from(_TAG_PIECES), max_size=60).map("".join))
def test_any_text_is_scanned_as_lark_parses_it(text: str) -> None:
    for chunk in chunks(text.encode()):
        same_items(chunk)


_STRINGY = st.text(alphabet='"\\\n\t []aZ{}#é', max_size=30)


@_settings
@given(_STRINGY)
def test_the_quicker_patterns_match_what_the_grammars_match(text: str) -> None:
    """Each terminal's rewritten pattern (scanner.faster) matches where and as far as
    the grammar's own, from every position of texts made of the characters that matter."""
    for terminal in get_parser().terminals:
        own = terminal.pattern.to_regexp()
        mine = faster(own)
        if mine == own:
            continue
        a, b = re.compile(own), re.compile(mine)
        for prefix in ("", '"', '[Event "', '[Auction "', "[Play "):
            sample = prefix + text
            for pos in range(len(sample) + 1):
                m1, m2 = a.match(sample, pos), b.match(sample, pos)
                assert (m1 and m1.end()) == (m2 and m2.end()), (terminal.name, sample, pos)


def test_the_rewrite_keeps_patterns_it_cannot_prove() -> None:
    assert faster(r"(a)\1") == r"(a)\1"  # a back reference needs its group
    assert faster(r"(?:\\.|[^x])*") == r"(?:\\.|[^x])*"  # the class may hold a backslash
    assert faster(r'"(\\.|[^"\\])*"') == r'"[^"\\]*(?:\\.[^"\\]*)*"'
    assert faster(r"[(]([a(])") == r"[(](?:[a(])"
