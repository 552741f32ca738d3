"""The driver: records in, parties out, each with its deals, rubbers, standings and findings.

A partie is a run of consecutive records with the same Event, Site and Date
(FORMAT.md). Unreadable records (:class:`~priffe_records.format.errors.BadRecord`)
and records of another game stay in the stream as findings, so nothing the
user gave is silently dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from priffe_records.format.errors import BadRecord, PPNSyntaxError
from priffe_records.format.record import Location, PartieHead, Record, partie_head
from priffe_records.format.values import is_unspecified
from priffe_records.game.cards import Seat
from priffe_records.rules.family import (
    GameFamily,
    Outcome,
    PartieBooks,
    PartieOutcome,
    default_family,
    family_of,
)
from priffe_records.rules.findings import Finding, Severity, sort_key


def _read_findings(errors: tuple[PPNSyntaxError, ...], index: int) -> list[Finding]:
    """What the reader found in a record's text, as ``PPN`` findings of the same severity."""
    return [Finding("PPN", Severity.WARNING if e.is_warning else Severity.ERROR, e.text,
                    e.location, index) for e in errors]


class _Step(NamedTuple):
    """What one item of the input does: its own findings, and what the books hear of it."""

    position: int  # 1-based position in the input
    found: tuple[Finding, ...]  # the reader's or the deal's own findings
    outcome: Outcome | None = None  # a deal for the partie's books
    partie: tuple[GameFamily[Any], PartieHead] | None = None  # the partie a deal belongs to
    lost: Location | None = None  # an unreadable record: the books hear of it
    # the Event, Site and Date an unreadable record was read with (None: not all three)
    lost_head: PartieHead | None = None

    def moved(self, by: int) -> _Step:
        """The step ``by`` places further on (a slice's items placed in the whole file)."""
        at = self.position + by
        return self._replace(position=at, found=tuple(f.at_record(at) for f in self.found),
                             outcome=self.outcome.placed(at) if self.outcome else None)


def _steps(records: Iterable[Record | BadRecord], options: object, conventions: bool,
           first: int = 1) -> Iterator[_Step]:
    """Each item analysed on its own, a deal with the partie it belongs to (the driver
    opens a new one where that changes); ``first`` is the first item's position.
    """
    # by Scoring value, as family_of says (one that says nothing: by the record's content)
    families: dict[str | None, GameFamily[Any]] = {}
    for i, item in enumerate(records, first):
        if isinstance(item, BadRecord):
            yield _Step(i, tuple(_read_findings(item.errors, i)), lost=item.location,
                        lost_head=lost_head(item))
            continue
        scoring = item.get("Scoring")
        family = families.get(scoring)
        if family is None:
            family = family_of(item)
            if len(families) < 64 and not is_unspecified(scoring):
                families[scoring] = family
        o = family.analyse(item, options, conventions).placed(i)
        found = (*_read_findings(item.errors, i), *o.findings) if item.errors else o.findings
        # An auction or play that could not be read is unknown: the deal counts, but what
        # it did to the partie's totals is not known, as after an unreadable record.
        lost = item.location if o.in_family and item.errors and any(
            t.name in ("Auction", "Play") for t in item.unread) else None
        if o.in_family and o.is_diagram:
            # a deal diagram, not a deal of the partie
            yield _Step(i, found, lost=lost, lost_head=_whole_head(item))
            continue
        if o.in_family:
            yield _Step(i, found, o, (family, partie_head(item)), lost)
        else:
            yield _Step(i, found, lost=lost, lost_head=_whole_head(item))


def _whole_head(record: Record | None) -> PartieHead | None:
    """The record's Event, Site and Date when it has all three, else ``None`` (an
    unreadable record may then belong to any partie around it)."""
    head = partie_head(record) if record is not None else None
    return head if head is not None and None not in head else None


def lost_head(item: BadRecord) -> PartieHead | None:
    """The partie an unreadable record names: the Event, Site and Date it was read with,
    when it has all three; else ``None``, and it belongs to the partie around it. The
    archive groups it so, as the driver tells that partie's books of it."""
    return _whole_head(item.partial)


class Told(NamedTuple):
    """One item of the input after the driver told the open partie's books of it."""

    step: _Step
    opened: bool  # the step opened a new partie (a change of family, Event, Site or Date)
    books: PartieBooks[Any] | None  # the open partie's books (None: no partie open yet)
    streams: bool  # the books hand over findings as deals are added (what came before is final)
    line: object  # what the books' ``add`` gave for a deal (the family's deal line), else None
    found: list[Finding]  # the item's own findings, then what streaming books said on adding it


class Closed(NamedTuple):
    """A partie's end: what its books closed with (findings not yet handed over included),
    and the family that kept them."""

    result: PartieOutcome
    family: GameFamily[Any]


class Driver:
    """The one stream driver: analysed steps in, each partie's books kept, events out.

    Every consumer of the engine's stream (validate's findings, the parties and score
    sheets, the archive's rows, the workers of ``--jobs``) feeds its steps here and reads
    the same :class:`Told` and :class:`Closed` events. ``stream`` asks books that can
    (:meth:`~priffe_records.rules.family.PartieBooks.stream`) to keep nothing of the partie;
    ``ends`` asks them to keep each rubber's end for the caller all the same.

    An unreadable record is the one place where the totals become unknown: whichever
    partie it may belong to hears of it (``lost``), so every consumer finds the totals
    after it unverifiable, never wrong. Which partie that is, the next deal says: the one
    it goes on, or, where it opens a new one, the partie before (unless the record was
    read with another Event, Site and Date) and the new one (likewise), so a damaged
    first record of a partie, at the top of a file too, counts for the deals after it.
    """

    __slots__ = ("books", "ends", "family", "lost", "stream", "streams", "where")

    def __init__(self, *, stream: bool = False, ends: bool = False) -> None:
        self.stream, self.ends = stream, ends
        self.books: PartieBooks[Any] | None = None
        self.family: GameFamily[Any] = default_family()
        self.where: PartieHead | None = None  # the open partie's Event, Site and Date
        self.streams = False
        self.lost: list[_Step] = []  # unreadable records whose partie the next deal says

    def feed(self, step: _Step) -> tuple[Closed | None, Told]:
        """The partie that ``step`` ends, if any, and the step as its books heard it.

        A partie is a run of deals of one family with the same Event, Site and Date: a
        deal of another family or place opens the next (the items between stay with
        the partie before, as its books heard them)."""
        closed, partie = None, step.partie
        if step.lost is not None and step.outcome is None:
            self.lost.append(step)  # whose it is, the next deal says
        # by name: a family object that travelled to another process is a copy
        opens = partie is not None and (partie[1] != self.where or self.books is None
                                        or partie[0].name != self.family.name)
        if opens:
            assert partie is not None
            lost = self.lost
            closed = self.end()
            self.family, self.where = partie
            opened = self.books = self.family.books(*self.where)
            self.streams = self.stream and opened.stream(rubbers=self.ends)
            self.lost = [s for s in lost if s.lost_head in (None, self.where)]
        books, found, line = self.books, list(step.found), None
        if books is not None and step.outcome is not None:
            self._tell_lost()
            if step.lost is not None:
                books.lost(step.lost, step.position)
            line = books.add(step.outcome)
            if self.streams:
                found.extend(books.drain())
        return closed, Told(step, opens, books, self.streams or books is None, line, found)

    def _tell_lost(self, *, anyway: bool = True) -> None:
        """Tell the open partie's books of the unreadable records held: all of them when
        a deal of the partie follows them (``anyway``), else those that may be its own."""
        if self.books is not None:
            for s in self.lost:
                assert s.lost is not None
                if anyway or s.lost_head in (None, self.where):
                    self.books.lost(s.lost, s.position)
        self.lost = []

    def end(self) -> Closed | None:
        """Close the open partie, if any."""
        self._tell_lost(anyway=False)
        books, self.books = self.books, None
        return Closed(books.close(), self.family) if books is not None else None


def drive(steps: Iterable[_Step], *, stream: bool = False, ends: bool = False
          ) -> Iterator[Told | Closed]:
    """The :class:`Driver`'s events for ``steps``, in order, the last partie closed."""
    driver = Driver(stream=stream, ends=ends)
    for step in steps:
        closed, told = driver.feed(step)
        if closed is not None:
            yield closed
        yield told
    closed = driver.end()
    if closed is not None:
        yield closed


def parties(records: Iterable[Record | BadRecord], *, options: object = None,
            conventions: bool = False) -> Iterator[PartieOutcome]:
    """Analyse records in order and yield each partie when it ends.

    Each record is checked by the family its Scoring tag selects; a change
    of family starts a new partie. ``options`` apply to records without a
    Scoring tag (each family reads only its own options and ignores others);
    ``conventions`` turns on the R9 warnings. Each partie is what its family's
    books close with.
    """
    found: list[Finding] = []
    for event in drive(_steps(records, options, conventions)):
        if isinstance(event, Told):
            found.extend(event.found)
            continue
        yield event.result.with_findings(
            tuple(sorted([*found, *event.result.findings], key=sort_key)))
        found = []
    if found:
        # findings of no partie (only unreadable records, another game): an empty
        # partie of the default family carries them, as a partie's books would
        empty = default_family().books(None, None, None).close()
        yield empty.with_findings(tuple(sorted(found, key=sort_key)))


def findings(records: Iterable[Record | BadRecord], *, options: object = None,
             conventions: bool = False) -> Iterator[Finding]:
    """The findings of :func:`parties`, in the same order, with memory flat in the file size.

    Books that can stream (:meth:`~priffe_records.rules.family.PartieBooks.stream`) keep no
    deal lines and hand over each deal's findings as it is added, so a record's findings
    are final once the next record comes, and only they wait: memory is bounded by one
    rubber's bookkeeping, not by the partie. Other books keep the partie's findings until
    it ends, as :func:`parties` does.
    """
    return findings_of_steps(_steps(records, options, conventions))


_NONE: list[Finding] = []  # what feed gives when nothing is final yet (never changed)


class FindingStream:
    """:func:`findings_of_steps` as an object, so that its state (the driver, and the
    findings not yet final) can go on to the process that checks the next slice of a file.
    """

    __slots__ = ("driver", "pending")

    def __init__(self) -> None:
        self.driver = Driver(stream=True)
        self.pending: list[Finding] = []  # not yet final, in the order parties() sorts from

    def feed(self, step: _Step) -> list[Finding]:
        """The findings that ``step`` makes final, in order."""
        closed, told = self.driver.feed(step)
        pending, out = self.pending, _NONE
        if closed is not None:
            pending.extend(closed.result.findings)
        if pending and (told.streams or told.opened):
            pending.sort(key=sort_key)  # stable: the same order as a whole partie's sort
            out, pending = pending, []
            self.pending = pending
        pending.extend(told.found)
        return out

    def end(self) -> list[Finding]:
        """The findings left when the input ends."""
        closed = self.driver.end()
        out, self.pending = self.pending, []
        if closed is not None:
            out.extend(closed.result.findings)
        out.sort(key=sort_key)
        return out


def findings_of_steps(steps: Iterable[_Step]) -> Iterator[Finding]:
    """:func:`findings` from the analysed steps."""
    stream = FindingStream()
    for step in steps:
        yield from stream.feed(step)
    yield from stream.end()


Step = _Step  # one analysed item, for a driver outside rules that feeds the books itself


def steps(records: Iterable[Record | BadRecord], *, options: object = None,
          conventions: bool = False) -> Iterator[Step]:
    """Each item analysed on its own, one step per item, and where parties begin.

    For a driver that feeds the books itself and needs what they return for
    each deal (the archive's streaming import); :func:`parties` and
    :func:`findings` are built on the same steps.
    """
    return _steps(records, options, conventions)


class Lost(NamedTuple):
    """An unreadable record of a partie, for its sheet: where it stood and what the reader
    got of its board and dealer, with its errors."""

    record: int  # 1-based position in the input
    board: str | None
    dealer: Seat | None
    errors: tuple[Finding, ...]


def errors_by_record(found: Iterable[Finding]) -> dict[int, list[Finding]]:
    """A partie's errors by the 1-based position of their record."""
    out: dict[int, list[Finding]] = {}
    for f in found:
        if f.is_error and f.record is not None:
            out.setdefault(f.record, []).append(f)
    return out


def lost_records(found: Iterable[Finding], items: Sequence[Record | BadRecord]) -> list[Lost]:
    """The unreadable records among ``items`` that belong to the partie with findings
    ``found`` (the reader's errors are the partie's findings), in input order, so a sheet
    can show each as a row in its place instead of leaving it out."""
    errors = errors_by_record(found)
    out: list[Lost] = []
    for i in sorted(errors):
        item = items[i - 1] if i <= len(items) else None
        if isinstance(item, BadRecord):
            part = item.partial
            board = part.get("Board") if part is not None else None
            text = (part.get("Dealer") or "").strip().upper() if part is not None else ""
            dealer = Seat(text) if text in ("N", "E", "S", "W") else None
            out.append(Lost(i, board, dealer, tuple(errors[i])))
    return out
