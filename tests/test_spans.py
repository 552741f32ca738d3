"""Reading a slice of a file (issue 9, for ``--jobs``): record_spans finds the reader's own
records with their byte offsets, and ``read(…, first_line=…)`` of the bytes from a fresh
span on gives the records, errors and locations a reader of the whole file gives."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from conftest import EXAMPLES, REAL_FILES

from priffe_records import loads, read
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.format.spans import record_spans


def _files() -> list[Path]:
    return REAL_FILES


def _seen(rec: Record | BadRecord) -> tuple[object, ...]:
    """What a record is, with every location: records and bad records alike."""
    if isinstance(rec, BadRecord):
        return ("bad", rec.location, rec.text, tuple((e.location, str(e)) for e in rec.errors),
                _seen(rec.partial) if rec.partial is not None else None)
    return ("ok", rec, rec.location, tuple((e.location, str(e)) for e in rec.errors),
            tuple((t.location, t.value_location) for t in rec.tags))


def _variants(data: bytes) -> list[bytes]:
    return [data, data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"),
            data.replace(b"\r\n", b"\n").replace(b"\n", b"\r")]


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_every_fresh_span_is_a_place_to_start_reading(path: Path) -> None:
    for data in _variants(path.read_bytes()):
        whole = [_seen(r) for r in read(io.BytesIO(data), errors="collect", name="f")]
        spans = list(record_spans(io.BytesIO(data)))
        assert [s.first_line for s in spans] == [w[2].line if w[0] == "ok" else w[1].line
                                                 for w in whole]
        assert [s.index for s in spans] == list(range(len(whole)))
        assert all(span.offset is not None for span in spans)
        if any(span.inherits for span in spans):
            continue  # PBN §4.8: a slice would need the records before it
        for span in spans:
            if not span.fresh:
                continue
            part = read(io.BytesIO(data[span.offset:]), errors="collect", name="f",
                        first_line=span.first_line)
            assert [_seen(r) for r in part] == whole[span.index:], span


@pytest.mark.parametrize("seed", [1, 2])
def test_generated_parties_slice_anywhere_fresh(seed: int) -> None:
    from test_engine_equivalence import several_parties

    text = several_parties(seed, random.Random(seed), parties=3, rubbers=1, damage=0.2, odd=2)
    for data in _variants(("% PPN 1.0\n\n" + text).encode()):
        whole = [_seen(r) for r in read(io.BytesIO(data), errors="collect", name="f")]
        spans = list(record_spans(io.BytesIO(data)))
        fresh = [s for s in spans if s.fresh]
        assert len(fresh) > len(spans) // 2
        for span in fresh[::3]:
            assert span.offset is not None
            part = read(io.BytesIO(data[span.offset:]), errors="collect", name="f",
                        first_line=span.first_line)
            assert [_seen(r) for r in part] == whole[span.index:], span


def test_a_path_streams_the_same_spans(tmp_path: Path) -> None:
    path = EXAMPLES / "partie-uppsala.ppn"
    assert list(record_spans(path)) == list(record_spans(io.BytesIO(path.read_bytes())))
    spans = list(record_spans(path, tags=("Event", "Board")))
    assert spans[0].tags["Board"] == "1" and "Site" not in spans[0].tags
    assert spans[0].fresh is False or spans[0].first_line > 1


def test_inheritance_and_freshness_are_told() -> None:
    text = ('% PBN 2.1\n\n[Event "a"]\n[Board "1"]\n\n[Event "#"]\n[Board "2"]\n'
            '[Event "b"]\n[Board "3"]\n\n; note\n[Event "c"]\n')
    spans = list(record_spans(io.BytesIO(text.encode())))
    assert [(s.first_line, s.fresh, s.inherits, s.tags.get("Event")) for s in spans] == [
        (3, True, False, "a"), (6, True, True, "#"), (8, False, False, "b"),
        (11, False, False, "c")]
    data = text.encode()
    assert [s.offset for s in spans] == [data.index(b'[Event "a"'), data.index(b'[Event "#"'),
                                         data.index(b'[Event "b"'), data.index(b"; note")]


def test_utf16_has_no_offsets() -> None:
    data = '[Event "a"]\n\n[Event "b"]\n'.encode("utf-16")
    assert [(s.first_line, s.offset) for s in record_spans(io.BytesIO(data))] == [
        (1, None), (3, None)]


def test_first_line_numbers_every_location() -> None:
    text = '[Event "x"]\n[Auction "N"]\n[Board "1]\n'  # a broken Board: unreadable
    [bad] = loads(text, errors="collect", first_line=41)
    assert isinstance(bad, BadRecord)
    assert (bad.location.line, bad.errors[0].location.line) == (41, 43)
    [rec] = loads('[Event "x"]\n[Dealer "n"]\n', first_line=7)
    assert [t.location.line for t in rec.tags if t.location] == [7, 8]


def test_a_header_line_is_only_skipped_at_the_top() -> None:
    text = "% PBN 2.1\n[Event \"x\"]\n"
    [top] = loads(text)
    [inner] = loads(text, first_line=5)
    assert not top.leading and [c.text for c in inner.leading] == [" PBN 2.1"]
