"""format.cuts finds, in the bytes, only lines where the reader starts a record afresh: reading
from any of them, with the file's line numbers, gives the records the whole file gives from
there on — the same records, errors and locations (issue 9 point 7)."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_engine_equivalence import several_parties
from test_parallel import _real_files

from priffe_records import loads, read
from priffe_records.format import cuts
from priffe_records.format.cuts import fresh_starts, sliceable
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.format.splitter import Decoded, split, starts_record


def shown(item: Record | BadRecord) -> tuple[object, ...]:
    """What a reader's item holds, locations and errors included."""
    errors = tuple(str(e) for e in item.errors)
    if isinstance(item, BadRecord):
        return ("bad", item.location, item.text, errors)
    tags = tuple((t.location, t.value_location) for t in item.tags)
    return ("record", item, item.location, errors, tags)


def read_from(data: bytes, offset: int, name: str) -> Iterator[Record | BadRecord]:
    """The reader started at ``offset`` with the file's line numbers."""
    return read(io.BytesIO(data[offset:]), errors="collect", name=name,
                first_line=data.count(b"\n", 0, offset) + 1)


def fresh_lines(data: bytes) -> set[int]:
    """The lines where the splitter starts a chunk that opens with a tag pair, after a
    line of its own that is not in the chunk before: where it starts afresh."""
    out: set[int] = set()
    end = 0
    for chunk in split(Decoded(io.BytesIO(data))):
        if chunk.lines and starts_record(chunk.lines[0]) and chunk.first_line > end + 1:
            out.add(chunk.first_line)
        end = chunk.first_line + len(chunk.lines) - 1
    return out


def assert_cuts_are_exact(data: bytes, *, every: int = 1) -> int:
    """Reading from each fresh start gives the whole file's records from there; the count."""
    items = list(read(io.BytesIO(data), errors="collect", name="f.ppn"))
    whole = [shown(r) for r in items]
    starts = {r.location.line: n for n, r in enumerate(items) if r.location is not None}
    found = list(fresh_starts(data))
    # The reader's own splitter agrees: each opens a chunk after a blank line.
    fresh = fresh_lines(data)
    assert {data.count(b"\n", 0, offset) + 1 for offset in found} <= fresh
    for offset in found[::every]:
        line = data.count(b"\n", 0, offset) + 1
        assert line in starts, f"line {line} starts no record"
        assert [shown(r) for r in read_from(data, offset, "f.ppn")] == whole[starts[line]:]
    return len(found)


@pytest.mark.parametrize("path", _real_files(), ids=lambda p: p.name[:40])
def test_real_files_read_the_same_from_every_cut(path: Path) -> None:
    data = path.read_bytes()
    if not sliceable(io.BytesIO(data)):
        pytest.skip("not cut: inherits values, lone CRs or UTF-16")
    assert_cuts_are_exact(data, every=max(1, len(list(fresh_starts(data))) // 20))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_damaged_parties_read_the_same_from_every_cut(seed: int, newline: str) -> None:
    text = several_parties(seed, random.Random(seed), parties=2, damage=0.3, odd=4)
    assert assert_cuts_are_exact(text.replace("\n", newline).encode()) > 10


AWKWARD = [
    # a stray brace over a blank line: the record ends there all the same
    '[Event "a"]\n[Board "1"]\n{ never closed\n\n[Event "a"]\n[Board "2"]\n',
    # a closed brace comment holding a blank line and something like a tag
    '[Event "a"]\n{ one\n\n[Note "inside"] }\n[Board "1"]\n\n[Event "b"]\n',
    # blanks that are not semi-empty (a non-breaking space), a tag line after them
    '[Event "a"]\n\u00a0\n[Event "b"]\n\n  [Event "c"]\n',
    # escape and ';' lines between the blank line and the tag pair
    '[Event "a"]\n\n% escape\n[Event "b"]\n\n; note\n[Event "c"]\n',
    # a record run on without a blank line (the reader's warning must stay)
    '[Event "a"]\n[Board "1"]\n[Event "a"]\n[Board "2"]\n\n[Event "d"]\n',
    # a header at the top, blank lines with spaces, tabs and form feeds
    '% PBN 2.1\n% EXPORT\n\n[Event "a"]\n \t\f\n[Event "b"]\n\n\n[Event "c"]\n',
    # text that is no tag pair after a blank line
    '[Event "a"]\n\nplain words\n[Event "b"]\n\n[event "c"]\n\n[Event"d"]\n',
]


@pytest.mark.parametrize("text", AWKWARD)
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_awkward_texts_read_the_same_from_every_cut(text: str, newline: str) -> None:
    assert_cuts_are_exact(text.replace("\n", newline).encode())


def test_latin1_and_utf8_lines_read_the_same_from_every_cut() -> None:
    data = ('[Event "Växjö"]\n[Site "Ö"]\n\n'.encode() + '[Event "Malmö"]\n\n'.encode("latin-1")
            + '[Event "Lund"]\n[Note "ä"]\n'.encode())
    assert assert_cuts_are_exact(data) == 2


def test_only_fresh_lines_are_found() -> None:
    data = b'[Event "a"]\n\n[Event "b"]\n  \n[Site "c"]\n\n{x}\n[Event "d"]\n\n[e "x"]\n'
    offsets = list(fresh_starts(data))
    assert [data[o:].split(b"\n")[0] for o in offsets] == [b'[Event "b"]', b'[Site "c"]']


@pytest.mark.parametrize(("data", "ok"), [
    (b'[Event "a"]\n\n[Event "b"]\n', True),
    (b'[Event "a"]\r\n\r\n[Event "b"]\r\n', True),
    (b'[Event "a"]\r\r[Event "b"]\r', False),  # old Mac line ends
    (b'[Event "a"]\n[Site "b\rc"]\n', False),  # one lone CR
    (b'[Event "a"]\n\n[Event "#"]\n', False),  # PBN 4.8 inheritance
    (b'[Event "##Club"]\n\n[Event "b"]\n', False),
    ('[Event "a"]\n'.encode("utf-16"), False),
    ('[Event "a"]\n'.encode("utf-16-le"), False),
    ('[Event "a"]\n'.encode("utf-16-be"), False),
])
def test_sliceable(data: bytes, ok: bool) -> None:
    assert sliceable(io.BytesIO(data)) is ok


@pytest.mark.parametrize("at", range(1, 14))
def test_sliceable_sees_across_blocks(monkeypatch: pytest.MonkeyPatch, at: int) -> None:
    """A CR LF or a quote and its '#' split between two blocks read."""
    monkeypatch.setattr(cuts, "BLOCK", at)
    assert sliceable(io.BytesIO(b'[Event "a"]\r\n\r\n[Site "b"]\r\n'))
    assert not sliceable(io.BytesIO(b'[Event "a"]\n[Site "  #"]\n'))
    assert not sliceable(io.BytesIO(b'[Event "a"]\n[Site "b"]\r'))


def test_first_line_numbers_every_location() -> None:
    text = '[Event "x"]\n[Auction "N"]\n[Board "1" "2"]\n'  # a broken Board: unreadable
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
