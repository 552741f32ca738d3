"""One file, several processes: the same results as one process, sooner.

One way to share a file between worker processes, :func:`relay`, for ``priffe validate
--jobs`` (through :func:`checked`) and ``priffe import --jobs``
(:mod:`priffe_records.archive.workers`). It cuts a file only before a line where the
reader starts a record afresh, whatever came before
(:func:`priffe_records.format.cuts.fresh_starts`: found in the bytes, so the parent spends
milliseconds, not the reader's time), anywhere else, a file of one long partie too; each
worker reads its slice with the slice's first line number (the same records, errors and
locations) and analyses it at once, then takes the state the slice before ended with (the
partie's books, the findings or rows not yet final: the driver of
:mod:`priffe_records.rules.partie`), goes on from it and hands its own on. Exact by
construction: the books hear every deal in file order. A file that inherits values
(``#``, PBN §4.8), has lone-CR line ends or is UTF-16 is never cut
(:func:`~priffe_records.format.cuts.sliceable`).

A worker ends with its parent, even one killed with SIGKILL (:func:`bound_to_parent`).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import io
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import IO, Any, Protocol, TypeVar, cast

from priffe_records.format.cuts import fresh_starts, sliceable
from priffe_records.format.errors import BadRecord
from priffe_records.format.parser import get_scanner
from priffe_records.format.reader import read
from priffe_records.format.record import Location, Record
from priffe_records.game.language import Message
from priffe_records.rules.findings import Finding, Severity
from priffe_records.rules.gcscope import collector_tuned
from priffe_records.rules.partie import FindingStream, findings, steps

SMALL_FILE = 2_000_000  # bytes (about 3,000 deals): below this one process is as fast
_MIN_SLICE = 1 << 18  # bytes: smaller slices cost more in messages than they save
_MAX_SLICE = 1 << 23  # bytes: a bound on a record sought while cutting
# Bytes a slice holds at most. A worker holds its whole slice analysed while it waits for
# the state the slice before ended with (records and analyses: some 25 times the bytes for
# validate, 14 for import's rows), and up to ``2 * jobs`` results wait in the parent: so a
# slice's size, not the file's, must bound them. A share of the file (as slices were)
# made a worker's memory grow with the file: 130 MB at 50,000 deals.
SLICE = 1 << 19
_BLOCK = 1 << 20  # bytes read at a time while cutting
_TAIL = 1 << 10  # bytes kept for a match that a block boundary cut short
_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_WATCH_EVERY = 0.5  # seconds between a worker's looks at its parent (where prctl is not)

R = TypeVar("R")


# ---------------------------------------------------------------- the general map


@dataclass(frozen=True, slots=True)
class Piece:
    """A slice of a file: whole records, from a line where the reader starts afresh."""

    path: str
    start: int  # byte offset of the first line
    end: int  # byte offset after the last line
    first_line: int  # the file's number of the first line
    index: int  # 0-based position among the pieces cut (the first one's, after a merge)
    whole: bool = False  # the whole file (read from the path, streaming)

    def data(self) -> bytes:
        with open(self.path, "rb") as f:
            f.seek(self.start)
            return f.read(self.end - self.start)

    def open(self) -> IO[bytes]:
        """The slice's bytes as a stream, read from the file as they are wanted."""
        f = open(self.path, "rb")  # noqa: SIM115 - the stream returned closes it
        f.seek(self.start)
        return io.BufferedReader(_Span(f, self.end - self.start))

    def records(self, name: str) -> Iterator[Record | BadRecord]:
        """The reader's records of the slice (``errors="collect"``), located as in the file."""
        if self.whole:
            return read(self.path, errors="collect", name=name)
        return read(io.BytesIO(self.data()), errors="collect", name=name,
                    first_line=self.first_line)


class _Span(io.RawIOBase):
    """The next ``left`` bytes of an open file, as a stream of their own (closes the file)."""

    def __init__(self, f: IO[bytes], left: int) -> None:
        self.f, self.left = f, left

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        want = min(len(b), self.left)
        data = self.f.read(want) if want > 0 else b""
        b[:len(data)] = data
        self.left -= len(data)
        return len(data)

    def close(self) -> None:
        self.f.close()
        super().close()


def cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def default_jobs(path: str | os.PathLike[str]) -> int:
    """The number of CPUs for a big file, 1 for a small one or when every CPU is busy.

    Measured on 2 cores: ``--jobs 2`` was 1.7-1.9x one job at load 1-3, but 0.83x at
    load 5 (the kernel shares the CPUs per session, so extra processes only add their
    overhead). The 1-minute load average at the start is the best cheap guess.
    """
    try:
        size = os.path.getsize(path)
    except OSError:
        return 1
    if size < SMALL_FILE:
        return 1
    n = cpus()
    return 1 if _load() >= 2 * n else n


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):  # pragma: no cover - no load average here
        return 0.0


def bound_to_parent(parent: int) -> None:
    """In a worker: end when the parent ends, however it ends.

    A worker blocks on the pool's pipe, whose write end every forked worker holds too, so
    it never sees the end of it: after a ``kill -9`` of ``priffe`` the workers would wait
    for ever, each holding its memory and the file. On Linux the kernel kills the worker
    when the parent dies (``PR_SET_PDEATHSIG``); everywhere a thread also watches
    ``os.getppid()`` (a dead parent's children are handed to another process).
    """
    _die_with_parent()
    if os.getppid() != parent:  # the parent died before the kernel was asked
        os._exit(1)
    threading.Thread(target=watch_parent, args=(parent,), name="priffe-parent-watch",
                     daemon=True).start()


def _die_with_parent() -> bool:
    """Ask the Linux kernel to SIGKILL this process when its parent ends; false elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):  # pragma: no cover - no C library to ask
        return False


def watch_parent(parent: int, every: float = _WATCH_EVERY) -> None:
    """Return never while ``parent`` is this process's parent; end the process when not."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(1)


def _cuts_of(path: str, jobs: int) -> Iterator[Piece] | None:
    """The pieces of the file as they are found (at most :data:`SLICE` bytes each, but for
    a record that is bigger), or ``None`` for one piece."""
    size = os.path.getsize(path) if jobs > 1 else 0
    if size < 2 * _MIN_SLICE:
        return None
    with open(path, "rb") as f:
        if not sliceable(f):
            return None
    found = _pieces(path, size, jobs, SLICE)
    first = next(found)
    if first.end == size:
        found.close()
        return None  # no cut: one partie, say
    return _chain(first, found)


def _chain(first: Piece, rest: Iterator[Piece]) -> Iterator[Piece]:
    yield first
    yield from rest


def _pieces(path: str, size: int, jobs: int, most: int = _MAX_SLICE
            ) -> Generator[Piece, None, None]:
    start, line, index = 0, 1, 0
    with open(path, "rb") as f:
        for cut, cut_line in _cuts(f, size, jobs, most):
            yield Piece(path, start, cut, line, index)
            start, line, index = cut, cut_line, index + 1
    yield Piece(path, start, size, line, index)


def _cuts(f: IO[bytes], size: int, jobs: int, most: int = _MAX_SLICE
          ) -> Iterator[tuple[int, int]]:
    """(byte offset, line number) of each cut, in order: at the first record that starts
    afresh at least ``step()`` bytes after the cut before. One pass over the bytes,
    memory bounded by a block and a record."""
    buf, base, line = b"", 0, 1  # buf holds the file from ``base``, which is on ``line``

    def step(at: int) -> int:
        """The next slice's size: a share of what is left (guided: the slices shrink
        towards the end, so the last ones keep both workers busy until the end)."""
        return min(max((size - at) // (jobs * 4), _MIN_SLICE), most)

    target = step(0)
    last: int | None = None  # the latest record start seen
    searched = 0  # fresh starts before this offset are found
    while target < size - _MIN_SLICE // 2:  # no tiny last slice
        block = f.read(_BLOCK)
        buf += block
        end = len(buf) - _TAIL if block else len(buf)
        for s in fresh_starts(buf, max(searched - base, 0)):
            a = base + s
            if last is not None and a <= last:
                continue
            if s >= end:
                break  # seen again with more bytes
            if a >= target:
                yield a, line + buf.count(b"\n", 0, s)
                target = a + step(a)
                if target >= size - _MIN_SLICE // 2:
                    return
            last = a
        if not block:
            return
        searched = base + max(end - _TAIL, 0)
        keep = min(searched, last if last is not None else searched)
        if base + len(buf) - keep > _MAX_SLICE:
            keep, last = searched, None  # a huge record
        line += buf.count(b"\n", 0, keep - base)
        buf, base = buf[keep - base:], keep


# ---------------------------------------------------------------- validate --jobs


# A finding as a worker sends it: rule, severity, text, line, column, record (the
# location's file is the label; any other location is sent as it is, in ``line``).
_Packed = tuple[str, str, Message | str, int | Location | None, int, int | None, tuple[str, ...]]


def checked(path: str | os.PathLike[str], noted: Callable[[str | None], object], *,
            here: Iterable[Finding] | None = None, name: str | None = None, jobs: int = 1,
            options: object = None, conventions: bool = False
            ) -> Generator[Finding, None, int]:
    """``validate``'s one path: the findings as they become final, each Board given to
    ``noted``; returns the slices checked. ``jobs`` is only how many processes do it: a
    file not cut is checked here, streaming (``here``: the caller's findings of its read)."""
    label = name or os.fspath(path)
    stream, slices = FindingStream(), 0
    work = functools.partial(_check_piece, label=label, options=options,
                             conventions=conventions)
    for done in relay(path, work, (stream, 0), jobs=jobs):
        if done.piece is None:  # the state the last slice ended with
            stream, _ = cast(tuple[FindingStream, int], done.value)
            continue
        slices += 1
        if done.value is None:  # not cut: checked here, as it is read
            yield from here if here is not None else findings(
                _noted(done.piece.records(label), noted), options=options,
                conventions=conventions)
            continue
        packed, boards = cast(tuple[list[_Packed], list[str | None]], done.value)
        for board in boards:
            noted(board)
        yield from (_unpack(f, label) for f in packed)
    yield from stream.end()  # what the last slice's books still held
    return slices


class Channel(Protocol):
    """One end of what a slice hands the next: a pipe's end between processes."""

    def send(self, obj: Any) -> None: ...

    def recv(self) -> Any: ...


class Hand:
    """A pipe's stand-in within one process: the state a slice leaves for the next."""

    def __init__(self) -> None:
        self.value: Any = None

    def send(self, obj: Any) -> None:
        self.value = obj

    def recv(self) -> Any:
        return self.value


# A piece's work: the piece, its inbox (the state the piece before ended with, or None when
# a piece before failed) and the outbox the piece after reads.
Relayed = Callable[[Piece, Channel, Channel], R]


@dataclass(frozen=True, slots=True)
class Handed:
    """A piece's value in file order; ``piece`` None for the state the last piece ended
    with (the caller finishes it)."""

    piece: Piece | None
    value: object


def relay(path: str | os.PathLike[str], work: Relayed[R], start: object, *, jobs: int,
          window: int | None = None) -> Iterator[Handed]:
    """``work`` on slices of the file cut anywhere a record starts afresh, in ``jobs``
    worker processes, handing the state on from slice to slice; the values in file order,
    then the state the last slice ended with.

    ``work(piece, inbox, outbox)`` runs in a worker: it does what needs no state (reading
    and analysing its records) at once, in parallel with the other slices, then waits
    for the state the slice before ended with (``inbox.recv()``: ``start`` for the first
    slice, ``None`` when a slice before failed), goes on from it (a partie's books, the
    findings not yet final) and sends its own end state on (``outbox.send``). A partie
    may so be cut anywhere, even between two deals of one rubber: the books that go on
    are the ones that heard every deal before, so the results are exact by construction,
    and a file that is one long partie is shared by every worker.
    A slice holds at most :data:`SLICE` bytes, whatever the file's size, so what a worker
    holds of it, and what waits in this process, stays the same from a small file to a
    big one.
    With ``jobs == 1``, a small file or a file that cannot be cut, ``work`` runs here on
    the whole file. A worker's exception is raised here; the slices after it end at once.
    """
    name = os.fspath(path)
    cuts = _cuts_of(name, jobs)
    if cuts is None:
        size = os.path.getsize(name) if os.path.isfile(name) else 0  # 0: standard input
        cuts = iter((Piece(name, 0, size, 1, 0, whole=True),))
        jobs = 1
    if jobs == 1:
        hand = Hand()
        hand.send(start)
        for piece in cuts:
            yield Handed(piece, work(piece, hand, hand))
        yield Handed(None, hand.recv())
        return
    first_in, first_out = multiprocessing.Pipe(duplex=False)
    first_out.send(start)
    inbox: Channel = first_in
    get_scanner()  # loaded once here; the forked workers inherit it
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=bound_to_parent,
                               initargs=(os.getpid(),))
    out: deque[tuple[Piece, Future[R]]] = deque()
    feeds: list[Channel] = [first_out]  # each piece's inbox, as the parent can write it
    finished = False
    try:
        pieces = iter(cuts)
        coming = next(pieces, None)
        while True:
            while len(out) < (window or 2 * jobs) and coming is not None:
                nxt_in, nxt_out = multiprocessing.Pipe(duplex=False)
                out.append((coming, pool.submit(work, coming, inbox, nxt_out)))
                inbox = nxt_in
                feeds.append(nxt_out)
                coming = next(pieces, None)
            piece, future = out.popleft()
            last = not out and coming is None
            # The last slice's state is taken as it is sent: a big one fills the pipe.
            end = _taken(future, inbox) if last else None
            yield Handed(piece, future.result())
            if last:
                finished = True
                yield Handed(None, end)
                return
    finally:
        if not finished:  # an error, or the caller stopped: no slice may wait for a state
            for feed in feeds[1:]:
                with contextlib.suppress(OSError):  # a slice gone needs no word
                    feed.send(None)
        pool.shutdown(wait=True, cancel_futures=True)


def _taken(future: Future[Any], inbox: Channel) -> Any:
    """What the last slice sends on, read while it sends (its worker's error if it fails)."""
    while not cast(Connection, inbox).poll(_WATCH_EVERY):
        if future.done():
            future.result()  # raises the worker's error
            return inbox.recv()
    return inbox.recv()


def _check_piece(piece: Piece, inbox: Channel, outbox: Channel, *, label: str,
                 options: object, conventions: bool
                 ) -> tuple[list[_Packed], list[str | None]] | None:
    """In a worker: read and analyse one slice, then, with the findings stream the slice
    before ended with, its books and findings, packed small. ``None``: the file was not
    cut (:func:`checked` checks it here), or a slice before failed."""
    if piece.whole:
        outbox.send(inbox.recv())
        return None
    boards: list[str | None] = []
    with collector_tuned():  # analysed now, beside the other slices
        analysed = list(steps(_noted(piece.records(label), boards.append),
                              options=options, conventions=conventions))
        stream, before = inbox.recv() or (None, 0)
        if stream is None:
            outbox.send(None)
            return None
        found: list[Finding] = []
        for step in analysed:
            found += stream.feed(step.moved(before) if before else step)
    outbox.send((stream, before + len(boards)))
    return [_pack(f, label) for f in found], boards


def _noted(records: Iterable[Record | BadRecord], noted: Callable[[str | None], object]
           ) -> Iterator[Record | BadRecord]:
    """The records, each one's Board noted as it passes (the report names boards)."""
    for rec in records:
        noted(rec.get("Board") if isinstance(rec, Record) else None)
        yield rec


def _pack(f: Finding, label: str) -> _Packed:
    loc = f.location
    if loc is None or loc.file != label:
        return (f.rule, f.severity.value, f.text, loc, 0, f.record, f.also)
    return (f.rule, f.severity.value, f.text, loc.line, loc.column, f.record, f.also)


def _unpack(p: _Packed, label: str) -> Finding:
    rule, severity, text, line, column, record, also = p
    where = Location(label, line, column) if isinstance(line, int) else line
    return Finding(rule, Severity(severity), text, where, record, also)
