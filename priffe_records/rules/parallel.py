"""Validation of one file on several cores: the same findings as one process, sooner.

The file is cut at partie boundaries into slices; worker processes read and check
one slice each (reader and engine both run there) and send back compact results:
the findings and each record's Board. The parent only scans the bytes for the cuts.

Exactness is by construction, and checked:

* a cut is made only before a line that starts a record with a tag (a blank line,
  then ``[Name "``): the reader starts a record there whatever came before;
* a worker reads its slice as the file's own lines (blank lines put in front keep
  the line numbers), under the file's name: the same locations;
* nothing in the file inherits a value (no ``"#``: PBN §4.8 inheritance would need
  the records before the cut), and line ends are LF or CRLF, and the file is not
  UTF-16: otherwise the file is checked in one process;
* a cut is placed where the raw Event, Site and Date change; the workers report
  the first and last partie of their slice, and when a partie still straddles a
  cut (a record of another game between two deals of one partie, say), the slices
  on both sides are checked again as one.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from priffe_records.format.errors import BadRecord
from priffe_records.format.reader import _decode_lines, _split, read
from priffe_records.format.record import Record
from priffe_records.rules.findings import Finding
from priffe_records.rules.gcscope import collector_tuned
from priffe_records.rules.partie import _Step, _steps, _stream
from priffe_records.rules.priffe.options import PRESETS, Options

SMALL_FILE = 2_000_000  # bytes (about 3,000 deals): below this one process is faster
_TAG_START = re.compile(r'^\s*\[[A-Z][A-Za-z0-9_]*\s+"')  # as the reader's splitter cuts
_KEY_TAG = re.compile(r'^\s*\[(Event|Site|Date)\s+"([^"]*)"')


@dataclass(frozen=True, slots=True)
class Checked:
    """A file's findings (as :func:`~priffe_records.rules.validate.validate` gives them)
    and the Board of each record, in file order."""

    findings: list[Finding]
    boards: list[str | None]
    jobs: int  # processes that did the work (1: the file was checked in this one)
    slices: int = 1  # the pieces the file was checked in


@dataclass(frozen=True, slots=True)
class _Slice:
    start: int  # byte offset
    end: int
    first_line: int
    before: int = 0  # records in the file before this slice


def default_jobs(path: str | os.PathLike[str]) -> int:
    """The number of CPUs for a big file, 1 for a small one."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return 1
    return max(1, os.cpu_count() or 1) if size >= SMALL_FILE else 1


def check_file(path: str | os.PathLike[str], *, name: str | None = None, jobs: int = 1,
               options: Options = PRESETS["sv"], conventions: bool = False) -> Checked:
    """Read and validate one file with ``jobs`` processes (see the module docstring)."""
    label = name or os.fspath(path)
    slices = _cut(path, jobs * 4) if jobs > 1 else None
    if slices is not None and len(slices) > 1:
        return _in_parallel(path, label, slices, jobs, options, conventions)
    boards: list[str | None] = []
    with collector_tuned():
        found = list(_stream(_steps(_noted(read(path, errors="collect", name=label), boards),
                                    options, conventions)))
    return Checked(found, boards, 1)


def _noted(records: Iterator[Record | BadRecord], boards: list[str | None]
           ) -> Iterator[Record | BadRecord]:
    """The records, each one's Board noted as it passes (the report names boards)."""
    for rec in records:
        boards.append(rec.get("Board") if isinstance(rec, Record) else None)
        yield rec


def _cut(path: str | os.PathLike[str], pieces: int) -> list[_Slice] | None:
    """Slices of about equal size, each starting where a partie seems to start;
    ``None`` when the file must be read in one piece.

    The records are found by the reader's own splitter and decoder (no parsing; a
    private API, so tests/test_parallel.py compares every result with one process's),
    so each slice
    knows how many records come before it: findings count records from the file's
    start, and some messages name a record by that number.
    """
    size = os.path.getsize(path)
    if size < 8192:
        return None
    with open(path, "rb") as f:
        head = f.read(4)
        if head.startswith((b"\xff\xfe", b"\xfe\xff")):
            return None  # UTF-16: its bytes are not lines
        f.seek(0)
        chosen = _choose(_split(_decode_lines(f)), size, pieces)
    if chosen is None or len(chosen) < 2:
        return None
    # Byte offsets of the chosen lines (LF or CRLF ends only: checked on the way).
    wanted = {line for line, _ in chosen}
    where: dict[int, int] = {}
    offset = 0
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if b"\r" in raw and not raw.endswith(b"\r\n"):
                return None  # old Mac line ends: the reader counts lines otherwise
            if number in wanted:
                where[number] = offset
            offset += len(raw)
    starts = [(where[line], line, before) for line, before in chosen]
    ends = [start for start, _, _ in starts[1:]] + [offset]
    return [_Slice(start, end, line, before)
            for (start, line, before), end in zip(starts, ends, strict=True)]


def _choose(chunks: Iterator[Any], size: int, pieces: int) -> list[tuple[int, int]] | None:
    """(first line, records before) of each slice; ``None`` if the file inherits values."""
    targets = [size * k // pieces for k in range(1, pieces)]
    chosen = [(1, 0)]
    done = 0  # bytes of text seen, roughly (characters): enough to aim at the targets
    last_key: tuple[str | None, ...] | None = None
    end = 0  # the last line of the chunk before
    for count, chunk in enumerate(chunks):
        key: dict[str, str] = {}
        # A cut only where a blank line came first and a tag pair starts the record: the
        # reader then starts afresh (no repair of a missing blank line or a stray brace).
        tag_first = bool(chunk.lines) and _TAG_START.match(chunk.lines[0]) is not None \
            and chunk.first_line > end + 1
        end = chunk.first_line + len(chunk.lines) - 1
        for line in chunk.lines:
            if '"#' in line:
                return None  # PBN §4.8 inheritance: a slice would need what came before
            m = _KEY_TAG.match(line)
            if m:
                key[m.group(1)] = m.group(2)
            done += len(line) + 1
        here = (key.get("Event"), key.get("Site"), key.get("Date"))
        if tag_first and last_key is not None and here != last_key and targets \
                and done >= targets[0]:
            chosen.append((chunk.first_line, count))
            while targets and targets[0] <= done:
                targets.pop(0)
        last_key = here
    return chosen


def _in_parallel(path: str | os.PathLike[str], label: str, slices: list[_Slice], jobs: int,
                 options: Options, conventions: bool) -> Checked:
    def run(piece: _Slice) -> Future[dict[str, Any]]:
        return pool.submit(_check_slice, os.fspath(path), label, piece, options, conventions)

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        running = [run(piece) for piece in slices]
        parts = [f.result() for f in running]
        while (bad := _straddled(parts)) is not None:
            # A partie goes on across a cut: those slices are checked again as one.
            first, last = bad
            merged = _Slice(slices[first].start, slices[last].end, slices[first].first_line,
                            slices[first].before)
            slices[first:last + 1] = [merged]
            parts[first:last + 1] = [run(merged).result()]
    found: list[Finding] = []
    boards: list[str | None] = []
    for part in parts:
        found += part["findings"]
        boards += part["boards"]
    return Checked(found, boards, jobs, len(slices))


def _straddled(parts: list[dict[str, Any]]) -> tuple[int, int] | None:
    """The first run of slices (first, last) whose cut falls inside a partie, if any."""
    last_key: Any = None
    holder = -1  # the slice where the partie of ``last_key`` began
    for k, part in enumerate(parts):
        if part["keys"]:
            if last_key is not None and part["keys"][0] == last_key:
                return holder, k
            last_key, holder = part["keys"][-1], k
    return None


def _check_slice(path: str, label: str, piece: _Slice, options: Options,
                 conventions: bool) -> dict[str, Any]:
    """In a worker: read and check one slice; the partie keys for the parent's check."""
    with open(path, "rb") as f:
        f.seek(piece.start)
        data = f.read(piece.end - piece.start)
    source = io.BytesIO(b"\n" * (piece.first_line - 1) + data)
    boards: list[str | None] = []
    keys: list[tuple[object, ...]] = []

    def watched() -> Iterator[_Step]:
        for step in _steps(_noted(read(source, errors="collect", name=label), boards),
                           options, conventions, first=piece.before + 1):
            if step.starts is not None:
                family, key = step.starts
                keys.append((family.name, *key))
            yield step

    with collector_tuned():
        found = list(_stream(watched()))
    return {"findings": found, "boards": boards, "keys": keys}
