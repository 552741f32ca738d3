"""The library's habits (python-chess is the model) and the formats it prints that it also reads."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import priffe_records as pr
from priffe_records.format.reader import loads, read

ROOT = Path(__file__).resolve().parent.parent
UPPSALA = ROOT / "examples" / "partie-uppsala.ppn"


# ---------------------------------------------------------------- the record as a table of tags


def test_record_item_and_in() -> None:
    [a, b] = loads('[Event "##Klubb"]\n[Board "1"]\n\n[Board "2"]\n')
    assert a["Event"] == "Klubb" and "Event" in a and "Board" in a
    assert b.tag("Event") is None
    assert b["Event"] == "Klubb" and "Event" in b  # inherited with ##, as get() gives it
    assert "Deal" not in a and 3 not in a
    with pytest.raises(KeyError, match="Deal"):
        a["Deal"]


def test_record_is_not_a_loop_over_tags() -> None:
    [r] = loads('[Event "Klubb"]\n')
    with pytest.raises(TypeError):
        iter(r)  # type: ignore[call-overload]


def test_str_is_the_writers_ppn() -> None:
    r = next(read(UPPSALA))
    assert str(r) == pr.format_record(r)
    assert str(r).splitlines()[1] == '[Event "Upsala Priffeklubb, höstpartiet"]'
    assert list(loads(str(r))) == [r]
    assert repr(r).startswith("Record(")


def test_public_names_at_the_top() -> None:
    for name in ("Options", "PRESETS", "Finding", "Severity", "read", "read_headers",
                 "validate", "score_partie", "parties", "Record"):
        assert name in pr.__all__ and getattr(pr, name) is not None
    assert pr.PRESETS["sv"].preset == "sv"


# ---------------------------------------------------------------- read_headers


def test_read_headers_matches_read_on_the_examples() -> None:
    for path in sorted((ROOT / "examples").glob("*.ppn")):
        full = [{t.name: t.value for t in r.tags} | dict(r.defaults) for r in read(path)]
        assert list(pr.read_headers(path)) == full, path.name


def test_read_headers_skips_sections_and_comments() -> None:
    text = ('{a comment with [Fake "tag"] in it}\n[Event "Klubb"]\n[Auction "N"]\n'
            'Spela Pass\n{\n[Nope "x"]\n}\n[Note "1:a \\"b\\""]\n\n[Event "#"]\n[Board "2"]\n')
    got = list(pr.read_headers(io.StringIO(text)))
    assert got == [{"Event": "Klubb", "Auction": "N", "Note": '1:a "b"'},
                   {"Event": "Klubb", "Board": "2"}]


def test_read_headers_inherits_as_read_does() -> None:
    text = ('[Event "##Klubb"]\n[Site "Lund"]\n[Board "1"]\n\n[Site "#"]\n[Board "2"]\n\n'
            '[Event "Cup"]\n[Board "3"]\n\n[Board "4"]\n[Dealer "#"]\n')
    got = list(pr.read_headers(io.BytesIO(text.encode())))
    full = [{t.name: t.value for t in r.tags} | dict(r.defaults)
            for r in read(io.BytesIO(text.encode()), errors="collect")
            if isinstance(r, pr.Record)]
    assert got == full
    assert [h.get("Event") for h in got] == ["Klubb", "Klubb", "Cup", "Cup"]
    assert got[1]["Site"] == "Lund" and got[3]["Dealer"] == "#"
