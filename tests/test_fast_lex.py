"""The fast path derived from the grammar (format/fastlex.py) reads exactly what Lark reads
(issue 9 point 2): wherever it takes a record, the items (type, value, line, column of every
token, blocks in order) are Lark's; wherever Lark fails, it gives up; and the reader gives
equal records, errors and locations with it and without it (``PRIFFE_FAST_LEX=0``), on every
corpus file, example and test file, byte-fuzzed copies of them and generated records.

The hypothesis profile (tests/conftest.py) sets the examples per test and
``PRIFFE_FAST_LEX_FUZZ`` (default 6) the fuzzed copies per file, for a longer run.
"""

from __future__ import annotations

import io
import os
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_FILES, REAL_FILES, scaled
from hypothesis import given
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput
from strategies import records
from test_reader_fuzz import PIECES, semantic_records

from priffe_records import dumps, read
from priffe_records.format import parser
from priffe_records.format.errors import BadRecord
from priffe_records.format.fastlex import machine
from priffe_records.format.reader import _Decoded, _split
from priffe_records.format.record import Record

FUZZ_N = int(os.environ.get("PRIFFE_FAST_LEX_FUZZ", "6"))
FAST = machine(parser.get_parser())


def _files() -> list[Path]:
    return REAL_FILES


def _key(items: list[Any]) -> list[Any]:
    def tok(t: Any) -> tuple[str, str, int, int]:
        return (t.type, t.value, t.line, t.column)

    return [(it[0], [tok(t) for t in it[1]]) if isinstance(it, tuple) else tok(it)
            for it in items]


def same_items(text: str) -> bool:
    """Fast path and Lark agree on ``text``; True when the fast path took it."""
    assert FAST is not None
    fast = FAST.parse(text)
    try:
        lark = _key(parser.parse_lark(text))
    except UnexpectedInput:
        assert fast is None, "the fast path read a record Lark rejects"
        return False
    if fast is None:
        return False
    assert _key(fast) == lark
    return True


def _seen(rec: Record | BadRecord) -> tuple[object, ...]:
    """A record with everything located in it: tags, values, tokens, comments, errors."""
    if isinstance(rec, BadRecord):
        return ("bad", rec.location, rec.text,
                tuple((e.location, str(e), e.severity) for e in rec.errors),
                _seen(rec.partial) if rec.partial is not None else None)
    located = []
    for t in rec.tags:
        located.append((t.name, t.location, t.value_location,
                        tuple(c.location for c in t.comments)))
        for tok in getattr(t.section, "tokens", ()) or ():
            located.append((tok.location, tuple(c.location for c in tok.comments)))
    return ("ok", rec, rec.location, tuple(c.location for c in rec.leading), tuple(located),
            tuple((e.location, str(e), e.severity) for e in rec.errors))


def read_both(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any]]:
    with_fast = [_seen(r) for r in read(io.BytesIO(data), errors="collect", name="f.pbn")]
    with monkeypatch.context() as m:
        m.setattr(parser, "_fast", lambda _lark: None)
        with_lark = [_seen(r) for r in read(io.BytesIO(data), errors="collect", name="f.pbn")]
    return with_fast, with_lark


def chunks(data: bytes) -> list[str]:
    return ["\n".join(c.lines) + "\n" for c in _split(_Decoded(io.BytesIO(data)))]


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


def test_the_grammar_is_inside_the_fast_paths_model() -> None:
    assert FAST is not None
    assert set(FAST.opens) == {"AUCTION_TAG", "PLAY_TAG", "TAGS"}


@pytest.mark.slow  # a real process
def test_parse_chunk_uses_the_fast_path_unless_switched_off() -> None:
    import subprocess
    import sys

    probe = ("from priffe_records.format.parser import parse_chunk as p;"
             "print(type(p('[Event \"x\"]\\n')[0][1][0]).__name__)")
    names = [subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True, env={**os.environ, "PRIFFE_FAST_LEX": flag}
                            ).stdout.strip() for flag in ("1", "0")]
    assert names[0] == "FastToken" and names[1] != "FastToken"


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
@pytest.mark.slow  # fuzz: every file, fuzzed copies
def test_every_file_and_its_fuzzed_copies_read_the_same_both_ways(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = path.read_bytes()
    for copy in [data, *(fuzzed(data, seed) for seed in range(FUZZ_N))]:
        for text in chunks(copy):
            same_items(text)
        fast, lark = read_both(copy, monkeypatch)
        assert fast == lark


def test_the_fast_path_takes_the_export_shaped_records() -> None:
    """The share it takes: all of an export (the examples), most of the real files."""
    taken = total = 0
    for path in _files():
        for text in chunks(path.read_bytes()):
            total += 1
            taken += same_items(text)
    exported = [text for path in EXAMPLE_FILES for text in chunks(path.read_bytes())]
    assert exported and all(same_items(text) for text in exported)
    assert taken > total // 2, (taken, total)


# PBN 2.1 to the letter (tests/test_pbn_reader_conformance.py): repeats, control
# characters in strings and comments (escaped in the tokens), comment blocks joined to a
# record over blank lines, version lines kept as comments.
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
               b'\xef\xbb\xbf[Event "a"]\n\n\xef\xbb\xbf% PBN 2.1\n\xef\xbb\xbf[Event "b"]\n']


@pytest.mark.parametrize("data", CONFORMANCE)
def test_conformance_cases_read_the_same_both_ways(data: bytes,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for text in chunks(data):
        same_items(text)
    fast, lark = read_both(data, monkeypatch)
    assert fast == lark


def test_a_record_the_fast_path_does_not_model_goes_to_lark() -> None:
    assert FAST is not None
    split_tag = '[Event\n "x"]\n[Board "1"]\n'
    assert FAST.parse(split_tag) is None and parser.parse_chunk(split_tag)
    for broken in ('[Event "x"\n', '[Auction "N"]\nHjärterr\n', '[Play "N"]\nSA ]\n',
                   '{open\n[Event "x"]\n', 'word\n'):
        assert FAST.parse(broken) is None
        with pytest.raises(UnexpectedInput):
            parser.parse_lark(broken)


_settings = scaled(3)
# Generating whole records costs ~0.1 s an example: a third of the count.
_records_settings = scaled(1)


@_records_settings
@given(st.lists(records(), min_size=1, max_size=3))
def test_generated_records_read_the_same_both_ways(recs: list[Record]) -> None:
    text = dumps(recs)
    for chunk in chunks(text.encode()):
        assert same_items(chunk)  # what the writer writes is in export shape


@_records_settings
@given(st.lists(semantic_records(), min_size=1, max_size=3), st.randoms(use_true_random=False))
def test_generated_records_with_damage_read_the_same_both_ways(
        recs: list[Record], rng: random.Random) -> None:
    data = dumps(recs).encode()
    for copy in (data, fuzzed(data, rng.randrange(1 << 30))):
        for chunk in chunks(copy):
            same_items(chunk)


@_settings
@given(st.lists(st.sampled_from(PIECES), max_size=60).map("".join))
def test_any_text_is_lexed_as_lark_lexes_it(text: str) -> None:
    for chunk in chunks(text.encode()):
        same_items(chunk)


_STRINGY = st.text(alphabet='"\\\n\t []aZ{}#é', max_size=30)


@_settings
@given(_STRINGY)
def test_the_quicker_patterns_match_what_the_grammars_match(text: str) -> None:
    """Each terminal's rewritten pattern (fastlex.faster) matches where and as far as
    the grammar's own, from every position of texts made of the characters that matter."""
    import re

    from priffe_records.format.fastlex import faster

    for terminal in parser.get_parser().terminals:
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
    from priffe_records.format.fastlex import faster

    assert faster(r"(a)\1") == r"(a)\1"  # a back reference needs its group
    assert faster(r"(?:\\.|[^x])*") == r"(?:\\.|[^x])*"  # the class may hold a backslash
    assert faster(r'"(\\.|[^"\\])*"') == r'"[^"\\]*(?:\\.[^"\\]*)*"'
    assert faster(r"[(]([a(])") == r"[(](?:[a(])"
