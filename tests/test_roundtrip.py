"""Round trip: read(write(read(f))) == read(f), and export format is a fixed point."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GOLDEN, scaled
from hypothesis import given
from strategies import records

from priffe_records import dumps, loads, read
from priffe_records.format.record import Record


@scaled(3)
@given(records())
def test_generated_record_round_trips(rec: Record) -> None:
    text = dumps([rec])
    back = list(loads(text))
    assert back == [rec]
    assert dumps(back) == text


@scaled(0.6)
@given(records(), records(), records())
def test_several_records_round_trip(a: Record, b: Record, c: Record) -> None:
    text = dumps([a, b, c])
    assert list(loads(text)) == [a, b, c]


GOLDEN_INPUTS = sorted(GOLDEN.glob("*.in.ppn"))


@pytest.mark.parametrize("src", GOLDEN_INPUTS, ids=lambda p: p.name)
def test_golden_canonical_form(src: Path) -> None:
    expected = src.with_name(src.name.replace(".in.ppn", ".out.ppn")).read_text("utf-8")
    records = list(read(src))
    assert dumps(records) == expected
    assert list(loads(expected)) == records
    assert dumps(loads(expected)) == expected


def test_there_are_golden_files() -> None:
    assert len(GOLDEN_INPUTS) >= 3
