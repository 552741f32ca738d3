"""Préférence records read and write losslessly (PREFERENCE.md "Records")."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import scaled
from hypothesis import given
from preference_strategies import preference_records
from preference_support import EXAMPLE
from strategies import records

from priffe_records import dumps, loads
from priffe_records.format.record import Record, TokenKind

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT.parent / "shared" / "PREFERENCE.md"


@scaled(1.5)
@given(preference_records())
def test_generated_preference_record_round_trips(rec: Record) -> None:
    text = dumps([rec])
    back = list(loads(text))
    assert back == [rec]
    assert dumps(back) == text


@scaled(0.4)
@given(preference_records(), records(), preference_records())
def test_mixed_families_round_trip(a: Record, b: Record, c: Record) -> None:
    assert list(loads(dumps([a, b, c]))) == [a, b, c]


def test_example_is_export_format() -> None:
    assert dumps(loads(EXAMPLE)) == EXAMPLE


def test_spec_example_is_export_format() -> None:
    if not SPEC.exists():
        pytest.skip("../shared/PREFERENCE.md is not here")
    text = SPEC.read_text("utf-8").split("```\n")[1]
    assert dumps(loads(text)) == text


IMPORT = """[Event "x"]
[Scoring "preference;ante=10"]
[Dealer "s"]
[Deal "n:AKQ9.A8.K7.A7 JT.KQJ.AQJ.KQ 87.T97.T98.JT -"]
[Talon "c9 ♣8"]
[Contract "hearts"]
[Declarer "e"]
[Discard "♠10 sj"] {face down}
[Dropout "n"]
[Result "e 6  n 4"]
[Score "N +1; E 10"]
[Auction "N"]
♠ diamonds PASS DIAMONDS {hold}
heart pass
[Play "E"]
hk ha ; first trick
"""

EXPORT = """% PPN 1.0
% EXPORT
[Event "x"]
[Dealer "S"]
[Deal "S:87.T97.T98.JT - AKQ9.A8.K7.A7 JT.KQJ.AQJ.KQ"]
[Talon "C9 C8"]
[Scoring "preference;ante=10"]
[Declarer "E"]
[Contract "Hearts"]
[Discard "ST SJ"]
{face down}
[Dropout "N"]
[Result "N 4 E 6"]
[Auction "N"]
Spades Diamonds Pass Diamonds {hold}
Hearts Pass
[Play "E"]
HK HA ; first trick
[Score "N 1;E 10"]
"""


def test_import_format_normalises_to_export() -> None:
    recs = list(loads(IMPORT))
    assert dumps(recs) == EXPORT
    assert list(loads(EXPORT)) == recs


def test_preference_word_in_priffe_record_is_kept_as_foreign() -> None:
    [rec] = loads('[Event "x"]\n[Auction "N"]\nPreference handclubs Pass\n')
    assert rec.auction is not None
    assert [(t.kind, t.text) for t in rec.auction.tokens] == [
        (TokenKind.FOREIGN, "Preference"), (TokenKind.FOREIGN, "HandClubs"),
        (TokenKind.CALL, "Pass")]


def test_scoring_inherited_with_hash_decides_the_words() -> None:
    text = ('[Event "x"]\n[Scoring "##Preference"]\n[Contract "hearts"]\n\n'
            '[Event "x"]\n[Contract "hearts"]\n')
    a, b = loads(text)
    assert a.get("Contract") == b.get("Contract") == "Hearts"
