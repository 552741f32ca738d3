"""The builder's shortcuts for records in export shape read exactly what its general loop reads.

Issue 9 (read ≥ 3.5× endplay): a run of tag pairs written one ``[Name "value"]`` a line
is taken from its lengths, an Auction or Play section of runs, '*' and comments skips the
annotation machinery, a record without '#' or a repeated tag skips those checks, values
normalised before come from small caches, and a Deal already canonical is kept as it is.
``PRIFFE_FAST_BUILD=0`` turns the shortcuts off; here every file, fuzzed copies of them,
generated records written with odd spacing, and texts made of pieces are read both ways
and everything the reader returns (the frozen-digest dump: records, every tag, token,
comment and error with its location) must be equal.

The hypothesis profile (tests/conftest.py) sets the examples per test.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from conftest import REAL_FILES, scaled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import records
from test_fast_lex import CONFORMANCE, fuzzed
from test_reader_equivalence import PIECES, QUIRKS, dump
from test_reader_fuzz import semantic_records

from priffe_records import dumps, loads, read
from priffe_records.format import reader
from priffe_records.format.record import Record
from priffe_records.game import cards
from priffe_records.game.cards import CardError, Seat, canonical_deal

FUZZ_N = 3


def _files() -> list[Path]:
    return REAL_FILES


def _general(m: pytest.MonkeyPatch) -> None:
    """The builder without its shortcuts (and without the caches' memory)."""
    m.setattr(reader, "_FAST_BUILD", False)
    for cache in (reader._RESULTS, reader._DATES, reader._QUIET):
        cache.clear()


def both_ways(data: bytes | str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    def once() -> object:
        if isinstance(data, str):
            return dump(loads(data, errors="collect", name="f.ppn"))
        return dump(read(io.BytesIO(data), errors="collect", name="f.ppn"))

    fast = once()
    again = once()  # the caches filled by the first read
    assert again == fast
    with monkeypatch.context() as m:
        _general(m)
        general = once()
    return fast, general


def test_the_switch_turns_the_shortcuts_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Guard for the tests below: without the switch the general loop really runs."""
    calls: list[str] = []
    original = reader._Builder.simple_section

    def spy(self: reader._Builder, *args: object) -> object:
        calls.append("simple")
        return original(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(reader._Builder, "simple_section", spy)
    text = '[Event "x"]\n[Site "y"]\n[Play "N"]\nSA SK SQ SJ\n'
    list(loads(text))
    assert calls == ["simple"]
    calls.clear()
    with monkeypatch.context() as m:
        _general(m)
        list(loads(text))
    assert calls == []


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
@pytest.mark.slow  # fuzz: every file, fuzzed copies
def test_every_file_and_its_fuzzed_copies_read_the_same_both_ways(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = path.read_bytes()
    for copy in [data, *(fuzzed(data, seed) for seed in range(FUZZ_N))]:
        fast, general = both_ways(copy, monkeypatch)
        assert fast == general


def test_edge_texts_read_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [*QUIRKS,
             # tag runs a shortcut must not take, or must place exactly
             '{c} [Event "x"]\n[Site "y"]\n',
             '[Event "x"] [Site "y"]\n[Date "2021.01.01"]\n',
             '[Event "x"]  \n[Site "y"]\n',
             '[Event  "x"]\n[ Site "y"]\n',
             '[Event "a\\"b"]\n[Site "c\\\\"]\n',
             # a value ending in a space has ' "' before its closing quote
             '[Event " "]\n[A ""]\n', '[Event "x "]\n[Site ""]\n[Date "y"]\n',
             '[Event " x"]\n[Site "a b "]\n[Date " "]\n', '[Event ""]\n\n[Event " "]\n[A ""]\n',
             '[Event "#"]\n[Site "##Växjö"]\n\n[Event "#"]\n[Date "#"]\n',
             '[Event "x"]\n[Event "y"]\n[Note "1:a"]\n[Note "2:b"]\n',
             '[Event "x"]\n{between}\n[Site "y"]\n; line\n[Date "z"]\n',
             # sections: long rows, '*', comments before, between and after
             '[Event "x"]\n[Play "N"]\n{lead} SA SK\n{mid} SQ SJ\nS2 S3 {end}\nS4 S5 *\n',
             '[Event "x"]\n[Play "N"]\nSA SK SQ SJ S2\n',
             '[Event "x"]\n[Play "N"]\nSA SK {c} SQ SJ S2\n',
             '[Event "x"]\n[Play "N"]\nS9 S8\nSA SK {c} SQ SJ S2\n',
             '[Event "x"]\n[Play "N"]\nS9 S8\nSA SK {c} SQ SJ\nS2\n',
             # rows whose blanks are not single spaces: counted word by word
             '[Event "x"]\n[Play "N"]\nS9  S8   S7  S6\nSA SK SQ SJ\nS2  S3 {c} S4 S5 S6\n',
             '[Event "x"]\n[Play "N"]\nSA\nS9\tS8\tS7\tS6\tS5\nSK\n',
             '[Event "x"]\n[Play "N"]\nS9 S8 S7 S6 \nSA SK SQ  \nSJ {c} S2 S3\n',
             '[Event "x"]\n[Scoring "Preference"]\n[Play "N"]\nSA  SK SQ\nSJ S2\tS3 S4\n',
             '[Event "x"]\n[Play "N"]\nSA SK\nSQ SJ S2 S3 S4\nS5\n',
             '[Event "x"]\n[Play "N"]\nSA SK SQ SJ\n-- - SQ h10\n',
             '[Event "x"]\n[Scoring "Preference"]\n[Play "N"]\nSA SK SQ\nSJ {c} S2 S3\n',
             '[Event "x"]\n[Scoring "Preference"]\n[Play "N"]\nSA SK SQ\nSJ S2 S3 S4\n',
             '[Event "x"]\n[Auction "N"]\nPass hjarter 1NT X - Spela\n* {after}\n',
             '[Event "x"]\n[Auction "N"]\n{lead} Pass ; c\nNoll\n%esc\n',
             # values: Deal, Result, Date, Board as written and in other forms
             '[Dealer "E"]\n[Deal "N:AKQ2.JT9.876.543 - - -"]\n[Declarer "N"]\n[Result "8"]\n',
             '[Dealer "N"]\n[Deal "N:AKQ2.JT9.876.543 - - -"]\n[Result "NS 8 EW 5"]\n',
             '[Declarer "N"]\n[Result "8"]\n\n[Declarer "E"]\n[Result "8"]\n\n[Result "8"]\n'
             '\n[Contract "1NT"]\n[Declarer "E"]\n[Result "8"]\n',
             '[Deal "n:akq2.jt9.876.543 - - -"]\n[Date "2021-04-03"]\n[Board "0"]\n',
             '[Deal "N:AKQ2.JT9.876.543  - - -"]\n[Date "2021.04.03"]\n[Board "7"]\n',
             '[Deal "N:AKQ2.JT9.876.54X - - -"]\n[Result "NS 8 EW 5"]\n[Board "7"]\n']
    for text in texts:
        fast, general = both_ways(text, monkeypatch)
        assert fast == general, text
    for data in CONFORMANCE:  # repeats, control characters, comment blocks, stray bytes
        fast, general = both_ways(data, monkeypatch)
        assert fast == general, data


_SPACING = st.sampled_from(["", " ", "  ", "\t", " {c}", " ; c"])


@st.composite
def odd_exports(draw: st.DrawFn) -> str:
    """Records written by ``dumps``, then spaced, joined and commented the ways people do."""
    recs = draw(st.lists(st.one_of(records(), semantic_records()), min_size=1, max_size=3))
    text = dumps(recs)
    lines = text.split("\n")
    rng = random.Random(draw(st.integers(0, 2**32)))
    out = []
    for line in lines:
        if line.startswith("[") and rng.random() < 0.2:
            line = line + draw(_SPACING)
        if out and line.startswith("[") and out[-1].startswith("[") and rng.random() < 0.1:
            out[-1] = out[-1] + " " + line  # two tag pairs on one line
            continue
        if line and not line.startswith(("[", "%")) and rng.random() < 0.1:
            words = line.split(" ")
            at = rng.randrange(len(words) + 1)
            words.insert(at, rng.choice(["{c}", "*", "SA", "$1", "=1=", "^R"]))
            line = " ".join(words)
        out.append(line)
    return "\n".join(out)


@settings(scaled(0.6),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=odd_exports())
def test_generated_records_read_the_same_both_ways(text: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    fast, general = both_ways(text, monkeypatch)
    assert fast == general


@settings(scaled(0.6),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=st.lists(st.sampled_from(PIECES), max_size=60).map("".join))
def test_texts_of_pieces_read_the_same_both_ways(text: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fast, general = both_ways(text, monkeypatch)
    assert fast == general


_VALUE = st.text(st.sampled_from(' a"\\#Ö\t:.'), max_size=6)


def _pair(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]\n'


@settings(scaled(0.6),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(pairs=st.lists(st.tuples(st.sampled_from(["Event", "Site", "A", "Date", "Note"]),
                                _VALUE), min_size=1, max_size=6))
def test_tag_runs_with_any_values_read_the_same_both_ways(
        pairs: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Values of blanks, quotes and backslashes (a value ending in a space once cut wrong)."""
    fast, general = both_ways("".join(_pair(n, v) for n, v in pairs), monkeypatch)
    assert fast == general


def test_export_shape_takes_the_shortcuts() -> None:
    """The bench's records (generated, written by ``dumps``) go the short way."""
    from priffe_records.rules.priffe.generate import generate_records

    text = dumps(generate_records(6, 0, comments=True))
    runs = [m.group(0) for m in re.finditer(r"(?:\[[^\n]*\]\n)+", text)]
    assert runs and all(reader._EXPORT_TAGS.fullmatch(r) for r in runs)
    seen: list[bool] = []
    original = reader._Builder.simple_section

    def spy(self: reader._Builder, *args: object) -> object:
        got = original(self, *args)  # type: ignore[arg-type]
        seen.append(got is not None)
        return got

    reader._Builder.simple_section = spy  # type: ignore[method-assign]
    try:
        recs = list(loads(text))
    finally:
        reader._Builder.simple_section = original  # type: ignore[method-assign]
    assert len(recs) == 6 and seen and all(seen)
    assert all(isinstance(r, Record) for r in recs)


# ---------------------------------------------------------------- canonical_deal

_RANKS = "AKQJT98765432"


@st.composite
def deal_texts(draw: st.DrawFn) -> str:
    """Deal values as written: canonical mostly, else in lower case, low first, '10', '-',
    extra blanks, a missing hand or a stray character."""
    cards_ = [s + r for s in "SHDC" for r in _RANKS]
    order = draw(st.permutations(cards_))
    hands = []
    for k in range(4):
        mine = order[k * 13:(k + 1) * 13]
        suits = ["".join(r for r in _RANKS if s + r in mine) for s in "SHDC"]
        if draw(st.booleans()):
            suits = [s[::-1] for s in suits] if draw(st.booleans()) else \
                [s.lower().replace("t", "10") for s in suits]
        hand = ".".join(suits)
        hands.append("-" if draw(st.integers(0, 9)) == 0 else hand)
    first = draw(st.sampled_from("NESWnesw"))
    gap = draw(st.sampled_from([" ", " ", " ", "  ", "\t"]))
    text = f"{first}:" + gap.join(hands[:draw(st.integers(1, 4))] if draw(
        st.integers(0, 9)) == 0 else hands)
    if draw(st.integers(0, 9)) == 0:
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(["X", ".", " ", ":", "1"])) + text[at:]
    return text


@scaled(3)
@given(deal_texts(), st.sampled_from([None, *Seat]))
def test_a_canonical_deal_is_kept_as_the_general_way_writes_it(
        text: str, first: Seat | None) -> None:
    def both() -> tuple[object, object]:
        try:
            return canonical_deal(text, first), None
        except CardError as e:
            return None, (str(e), e.column)

    fast = both()
    saved = cards._CANONICAL_DEAL
    cards._CANONICAL_DEAL = re.compile(r"(?!)")  # never matches: the general way
    try:
        general = both()
    finally:
        cards._CANONICAL_DEAL = saved
    assert fast == general
