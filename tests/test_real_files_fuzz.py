"""Byte-level fuzz of real PBN files (issue 11): a damaged file costs at most what was damaged.

Each case mutates one real file (a flipped bit, an inserted ``{ " [ %``, NUL or
invalid UTF-8, a deleted or duplicated line, a long line) and checks that no
exception escapes ``read(errors="collect")``, ``validate`` or the replay model,
and that the records before the damaged one and those after it read as before.
CI runs a few hundred cases; ``HYPOTHESIS_PROFILE=deep`` runs thousands and a 1 MB line.
"""

from __future__ import annotations

import dataclasses
import io
import random
import time

import pytest
from conftest import CORPUS_FILES, DEEP

from priffe_records import BadRecord, Record, build_replays, read, validate

pytestmark = pytest.mark.slow  # fuzz: hundreds of damaged files
LONG = DEEP
FILES = CORPUS_FILES
CASES = 3000 if LONG else 240
INSERTS = [b"{", b'"', b"[", b"%", b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"}", b";"]


def _records(data: bytes) -> list[Record | BadRecord]:
    return list(read(io.BytesIO(data), errors="collect", name="fuzz.pbn"))


def _same(item: Record | BadRecord) -> object:
    """What must not change: a record's content, or an unreadable record's text."""
    return item if isinstance(item, Record) else ("unreadable", item.text)


def _start(item: Record | BadRecord) -> int:
    loc = item.location
    return loc.line if loc is not None else 0


def _independent(item: Record | BadRecord) -> bool:
    """A record that inherits nothing, so damage elsewhere cannot change it."""
    return isinstance(item, Record) and not item.defaults and all(
        t.inherit is None for t in item.tags)


def _bare(item: Record | BadRecord) -> object:
    """A record without the comments above it."""
    return dataclasses.replace(item, leading=()) if isinstance(item, Record) else item


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, int, int]:
    """The damaged bytes, the first damaged line and the change in line count."""
    lines = data.split(b"\n")
    kind = rng.randrange(5)
    if kind == 0:  # flip one bit
        pos = rng.randrange(len(data))
        out = data[:pos] + bytes([data[pos] ^ (1 << rng.randrange(8))]) + data[pos + 1:]
        return out, data.count(b"\n", 0, pos) + 1, out.count(b"\n") - data.count(b"\n")
    if kind == 1:  # insert a troublesome byte sequence
        pos = rng.randrange(len(data) + 1)
        ins = rng.choice(INSERTS)
        return data[:pos] + ins + data[pos:], data.count(b"\n", 0, pos) + 1, 0
    i = rng.randrange(len(lines))
    if kind == 2:  # delete a line
        return b"\n".join(lines[:i] + lines[i + 1:]), i + 1, -1
    if kind == 3:  # duplicate a line
        return b"\n".join(lines[:i + 1] + lines[i:]), i + 1, 1
    size = 1 << 20 if LONG and rng.randrange(50) == 0 else 20_000
    long_line = (rng.choice([b"SA ", b"$1 ", b"=1=", b"{", b"x", b"[A \""]) * size)[:size]
    return b"\n".join([*lines[:i], long_line, *lines[i:]]), i + 1, 1


@pytest.mark.skipif(not FILES, reason="no real PBN files")
@pytest.mark.parametrize("seed", range(CASES // 40 or 1))
def test_damaged_real_files_cost_only_the_damaged_record(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        path = rng.choice(FILES)
        data = path.read_bytes()
        if not data:
            continue
        original = _records(data)
        damaged, line, shift = mutate(data, rng)  # shift: lines added (or removed)
        started = time.process_time()
        out = _records(damaged)  # must not raise
        for item in out:
            assert all(e.location.line >= 1 and e.location.column >= 1 for e in item.errors)
        for f in validate(out):
            assert f.rule and f.message
        build_replays([r for r in out if isinstance(r, Record)])
        # A guard against quadratic blow-ups (1 MB once took 47 s), not a speed measurement.
        assert time.process_time() - started < 60
        before = [r for r in original if _start(r) < line]
        if before:
            # Everything before the damaged record reads exactly as it did.
            intact = [_same(r) for r in before[:-1]]
            assert [_same(r) for r in out[:len(intact)]] == intact, (path.name, line)
        # The first record also owns the file's header lines (% PBN 2.1 …) above it.
        after = [r for r in original[1:] if _start(r) > line + 1]
        # Records after it read as before, unless they inherit from the damage.
        tail = []
        for r in reversed(after):
            if not _independent(r):
                break
            tail.append(r)
        tail.reverse()
        if tail:
            # A damaged record left with no tag pair is only comments, and comments before
            # a record are that record's: the first intact record may gain them, no more.
            got = out[-len(tail):]
            assert got[1:] == tail[1:] and _bare(got[0]) == _bare(tail[0]), \
                (path.name, line, shift)
            lead = tail[0].leading if isinstance(tail[0], Record) else ()
            assert not lead or getattr(got[0], "leading", ())[-len(lead):] == lead, \
                (path.name, line, shift)
