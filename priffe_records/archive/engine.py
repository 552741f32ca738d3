"""The archive's one door to the rules engine: a partie in, plain rows of facts out.

The archive stores what the engine computes (contract, tricks, scores,
trick winners, rubber totals, settlements, findings) next to what the
record claims. Everything it needs from the engine passes through
:func:`check_stream` (or :class:`StreamCheck`, its state, for ``--jobs``), so a change
in the engine's API is a change here only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from priffe_records.archive.stored_messages import message_json
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import PLAYER_TAGS, Location, Record
from priffe_records.format.values import is_unspecified
from priffe_records.game.cards import SEATS
from priffe_records.game.language import Message, render
from priffe_records.rules.family import GameFamily, PartieBooks, PartieOutcome, family_of
from priffe_records.rules.findings import Finding, sort_key
from priffe_records.rules.partie import Closed, Driver, Step, Told, steps


@dataclass(frozen=True, slots=True)
class FindingRow:
    rule: str
    severity: str  # error | warning | unverifiable
    message: str  # English
    file: str | None
    line: int | None
    col: int | None
    message_json: str | None = None  # the message itself: shown in the reader's language

    def values(self) -> tuple[str | int | None, ...]:
        return (self.rule, self.severity, self.message, self.file, self.line, self.col,
                self.message_json)

    @classmethod
    def at(cls, rule: str, severity: str, text: Message | str,
           location: Location | None) -> FindingRow:
        english, data = render(text, "en"), message_json(text)
        if location is None:
            return cls(rule, severity, english, None, None, None, data)
        return cls(rule, severity, english, location.file, location.line, location.column,
                   data)


# A trick as the tricks table stores it: number, leader, winner, card of N, E, S, W
# (a plain tuple: 13 a deal, made and pickled for every record imported).
TrickRow = tuple[int, str | None, str | None, str | None, str | None, str | None, str | None]


@dataclass(frozen=True, slots=True)
class DealFacts:
    """What the archive stores about one record besides its text."""

    rubber: int | None = None
    board: str | None = None
    dealer: str | None = None
    contract: str | None = None
    declarer: str | None = None
    declaring_side: str | None = None
    tricks_ns: int | None = None
    tricks_ew: int | None = None
    made: int | None = None
    scoring_side: str | None = None
    scoring_tricks: int | None = None
    penalty_tricks: int | None = None
    slam: str | None = None  # small | grand
    score_ns: int | None = None
    score_ew: int | None = None
    claimed_score_ns: int | None = None
    claimed_score_ew: int | None = None
    rubber_ns: int | None = None
    rubber_ew: int | None = None
    claimed_rubber_ns: int | None = None
    claimed_rubber_ew: int | None = None
    seats: tuple[tuple[str, str, str], ...] = ()  # (seat, side, player name)
    calls: tuple[tuple[str, str], ...] = ()  # (seat, call word)
    tricks: tuple[TrickRow, ...] = ()
    commentary: str = ""
    findings: tuple[FindingRow, ...] = ()
    game: str = "Priffe"  # the family its Scoring tag selects
    pot: int | None = None  # Préférence: the pot after the deal
    # Préférence: each seat's change of balance (antes included), from the partie's books
    balance_changes: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class RubberFacts:
    number: int
    complete: int
    winner: str | None
    total_ns: int | None
    total_ew: int | None
    # (seat, player name if the record gives one, computed points, claimed points)
    settlements: tuple[tuple[str, str | None, int | None, int | None], ...] = ()


def known(value: str | None) -> str | None:
    """A tag value that says something (PBN's unknown spellings are ``None``)."""
    return None if is_unspecified(value, dash=True) else value


_INT64 = 2**63 - 1


def tag_int(value: str | None) -> int | None:
    """A whole number a SQLite column can hold; ``²``, ``-3`` and 20 digits are ``None``."""
    v = known(value)
    if v is None:
        return None
    v = v.strip()
    if not (v.isascii() and v.isdigit()) or len(v) > 18:
        return None
    return int(v)


_SEAT_TAGS = tuple((seat.value, seat.side.value, PLAYER_TAGS[seat]) for seat in SEATS)


def _seats(record: Record) -> tuple[tuple[str, str, str], ...]:
    out = []
    get = record.get
    for seat, side, tag in _SEAT_TAGS:
        name = known(get(tag))
        if name is not None:
            out.append((seat, side, name))
    return tuple(out)


def _facts(record: Record, computed: dict[str, Any] | None = None) -> DealFacts:
    """Tag values as written, the record's claims as its family reads them, and what
    the engine ``computed`` of the deal over both (made at once: this runs once a deal)."""
    family = family_of(record)
    claims, unstorable = family.claim_columns(record)
    values = {"rubber": tag_int(record.get("Rubber")), "board": known(record.get("Board")),
              "dealer": known(record.get("Dealer")), "contract": known(record.get("Contract")),
              "declarer": known(record.get("Declarer")), "seats": _seats(record),
              "commentary": " ".join(c.text.strip() for c in record.comments()),
              "game": family.name, "findings": tuple(_row(f) for f in unstorable), **claims}
    if computed:
        values.update(computed)
    return DealFacts(**values)


def _columns(family: GameFamily[Any], line: Any, last_of: dict[int, Record]
             ) -> dict[str, Any]:
    """What the partie's books computed of the deal; the deal is noted as its rubber's
    latest (whose tags name the players a settlement pays)."""
    columns = family.deal_columns(line)
    rubber = columns.get("rubber")
    if rubber is not None:
        last_of[rubber] = line.outcome.record
    return columns


def _rubbers(family: GameFamily[Any], ends: Sequence[Any], last_of: dict[int, Record]
             ) -> list[RubberFacts]:
    return [RubberFacts(**row) for row in family.rubber_rows(ends, last_of)]


def _row(f: Finding) -> FindingRow:
    return FindingRow.at(f.rule, f.severity.value, f.text, f.location)


Checked = DealFacts | RubberFacts | FindingRow


def check_stream(group: Iterable[Record | BadRecord]) -> Iterator[Checked]:
    """Facts and findings for each item of one partie (consecutive records, same head),
    with memory flat in the partie's length.

    Yields one :class:`DealFacts` per item, in order, as soon as it is final;
    a :class:`RubberFacts` once its rubber has ended (after the facts of the
    rubber's deals); a :class:`FindingRow` for each finding of no one record.
    Books that stream (Priffe's) hand over a deal's findings as it is added, so
    only one rubber's bookkeeping is kept; other books (Préférence's) settle at
    the end of their partie, so its items wait for it.
    """
    items = iter(group)
    current: list[Record | BadRecord] = []

    def fed() -> Iterator[Record | BadRecord]:
        for item in items:
            current[:] = [item]
            yield item

    check = StreamCheck()
    for step in steps(fed()):
        yield from check.feed(step, current[0])
    yield from check.end()


class StreamCheck:
    """:func:`check_stream` as an object fed one analysed item at a time, so that its state
    (the partie's books, the items waiting for them, the open rubbers' last deals) can go on
    to the process that checks the next slice of a file (``priffe import --jobs``).

    ``feed`` takes an item with its step (positions 1, 2, … within the partie) and gives
    what became final; ``end`` what is left when the partie ends.
    """

    __slots__ = ("driver", "family", "held", "last_of", "scorer")

    def __init__(self) -> None:
        self.driver = Driver(stream=True, ends=True)
        self.family: GameFamily[Any] | None = None  # the open partie's
        self.scorer: PartieBooks[Any] | None = None  # the open partie's books, when they stream
        self.held: dict[int, tuple[DealFacts, list[Finding]]] = {}  # items awaiting books
        self.last_of: dict[int, Record] = {}  # each open rubber's latest deal (settlements)

    def feed(self, step: Step, item: Record | BadRecord) -> Iterator[Checked]:
        """What ``item`` (analysed as ``step``) makes final, in order."""
        closed, told = self.driver.feed(step)
        if closed is not None:
            yield from self._closed(closed)
        yield from self._told(told, item)

    def end(self) -> Iterator[Checked]:
        """What the partie's books still held when its input ends."""
        closed = self.driver.end()
        if closed is not None:
            yield from self._closed(closed)

    def _rubbers(self, ends: Iterable[Any]) -> Iterator[RubberFacts]:
        assert self.family is not None  # a rubber ends only in an open partie
        for end in ends:
            [facts] = _rubbers(self.family, [end], self.last_of)
            self.last_of.pop(facts.number, None)  # the rubber is over
            yield facts

    def _closed(self, event: Closed) -> Iterator[Checked]:
        assert self.family is not None  # a partie closes only once one opened
        if self.scorer is not None:  # streaming books have handed over their findings already
            yield from self._rubbers(self.scorer.drain_rubbers())
            yield from (_row(f) for f in event.result.findings)
        else:
            yield from _settled(self.family, event.result, self.held, self.last_of)
        self.held.clear()
        self.last_of.clear()

    def _told(self, event: Told, item: Record | BadRecord) -> Iterator[Checked]:
        step, found = event.step, event.found
        if event.opened and step.partie is not None:
            self.family = step.partie[0]
        if event.books is not None and not event.streams:
            self.scorer = None
            # an unreadable record has no facts; its syntax errors are findings (rule PPN)
            self.held[step.position] = (
                DealFacts() if isinstance(item, BadRecord) else _facts(item), found)
            return
        scorer = self.scorer = event.books
        computed = None
        if scorer is not None and self.family is not None:
            yield from self._rubbers(scorer.drain_rubbers())
            if event.line is not None:
                computed = _columns(self.family, event.line, self.last_of)
        facts = DealFacts() if isinstance(item, BadRecord) else _facts(item, computed)
        own = [f for f in found if f.record == step.position]
        yield from (_row(f) for f in found if f.record != step.position)
        own.sort(key=sort_key)
        yield replace(facts, findings=(*(_row(f) for f in own), *facts.findings)) \
            if own else facts


def _settled(family: GameFamily[Any], result: PartieOutcome,
             held: dict[int, tuple[DealFacts, list[Finding]]],
             last_of: dict[int, Record]) -> Iterator[Checked]:
    """A partie whose books kept everything to the end: its held items, then its rubbers."""
    facts = {i: f for i, (f, _) in held.items()}
    found = {i: list(f) for i, (_, f) in held.items()}
    loose: list[FindingRow] = []
    for line in result.lines:
        i = line.outcome.index
        facts[i] = replace(facts[i], **_columns(family, line, last_of))
    for f in result.findings:
        if f.record is not None and f.record in found:
            found[f.record].append(f)
        else:
            loose.append(_row(f))
    for i, d in facts.items():
        own = sorted(found[i], key=sort_key)
        yield replace(d, findings=(*(_row(f) for f in own), *d.findings)) if own else d
    yield from _rubbers(family, family.rubber_ends(result), last_of)
    yield from loose
