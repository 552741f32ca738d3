"""The archive's one door to the rules engine: a partie in, plain rows of facts out.

The archive stores what the engine computes (contract, tricks, scores,
trick winners, rubber totals, settlements, findings) next to what the
record claims. Everything it needs from the engine passes through
:func:`check_partie` or its streaming twin :func:`check_stream`, so a change
in the engine's API is a change here only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from priffe_records.archive.stored_messages import message_json
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import PLAYER_TAGS, Location, Record
from priffe_records.format.values import is_unspecified
from priffe_records.game.cards import SEATS, Seat
from priffe_records.game.language import Message, msg, render
from priffe_records.rules.family import PartieOutcome, family_for
from priffe_records.rules.findings import Finding, sort_key
from priffe_records.rules.partie import Closed, drive, parties, steps
from priffe_records.rules.preference.books import PrefLine, PrefPartie
from priffe_records.rules.priffe.rubber import (
    DealLine,
    PartieResult,
    PartieScorer,
    RubberEnd,
    parse_settlement,
)
from priffe_records.rules.priffe.scoring import (
    ClaimTooLarge,
    SidePoints,
    declaring_side,
    parse_points,
)


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


@dataclass(frozen=True, slots=True)
class PartieCheck:
    """One :class:`DealFacts` per item of the partie, in order; findings of no one record."""

    deals: tuple[DealFacts, ...]
    rubbers: tuple[RubberFacts, ...] = ()
    findings: tuple[FindingRow, ...] = ()


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


def _storable(p: SidePoints | None) -> SidePoints | None:
    """Claimed points that fit a SQLite integer (the engine reports absurd ones)."""
    if p is None or max(abs(p.ns), abs(p.ew)) > _INT64:
        return None
    return p


def _pair(value: str | None) -> SidePoints | None:
    text = known(value)
    try:
        return _storable(parse_points(text)) if text is not None else None
    except ValueError:
        return None


# The claims whose numbers go to integer columns, with the rule each belongs to.
_CLAIMS = (("Score", "R15"), ("ScoreRubber", "R23"), ("Settlement", "R23"))
_LONG_NUMBER = re.compile(r"\d{19}")  # 2**63 has 19 digits: shorter numbers always fit


def _numbers(tag: str, text: str) -> Iterable[int]:
    try:
        if tag == "Settlement":
            return parse_settlement(text).values()
        points = parse_points(text)
    except ClaimTooLarge:
        return (_INT64 + 1,)  # the rules report it where they read it; the archive says why
    except ValueError:
        return ()  # not a claim at all: the rules say so
    return (points.ns, points.ew)


def _unstorable(record: Record) -> tuple[FindingRow, ...]:
    """A located warning for each claimed number a SQLite integer cannot hold: its
    column stays empty, so the archive says why, at the tag (the text keeps it)."""
    out = []
    for tag, rule in _CLAIMS:
        text = known(record.get(tag))
        if text is None or _LONG_NUMBER.search(text) is None:
            continue
        if any(abs(n) > _INT64 for n in _numbers(tag, text)):
            found = record.tag(tag)
            where = (found.value_location or found.location) if found is not None else None
            out.append(FindingRow.at(rule, "warning", msg(
                "{tag} \"{value}\": a number beyond 2**63 cannot be stored as a number; the "
                "archive keeps it in the record's text only ({rule})", tag=tag, value=text,
                rule=rule), where or record.location))
    return tuple(out)


_SEAT_TAGS = tuple((seat.value, seat.side.value, PLAYER_TAGS[seat]) for seat in SEATS)


def _seats(record: Record) -> tuple[tuple[str, str, str], ...]:
    out = []
    get = record.get
    for seat, side, tag in _SEAT_TAGS:
        name = known(get(tag))
        if name is not None:
            out.append((seat, side, name))
    return tuple(out)


def _facts(record: Record) -> DealFacts:
    """Tag values as written (engine results fill in the computed columns)."""
    score, total = _pair(record.get("Score")), _pair(record.get("ScoreRubber"))
    tricks = _pair(record.get("Result"))
    return DealFacts(
        rubber=tag_int(record.get("Rubber")), board=known(record.get("Board")),
        dealer=known(record.get("Dealer")), contract=known(record.get("Contract")),
        declarer=known(record.get("Declarer")),
        tricks_ns=tricks.ns if tricks else None, tricks_ew=tricks.ew if tricks else None,
        claimed_score_ns=score.ns if score else None, claimed_score_ew=score.ew if score else None,
        claimed_rubber_ns=total.ns if total else None,
        claimed_rubber_ew=total.ew if total else None,
        seats=_seats(record), commentary=" ".join(c.text.strip() for c in record.comments()),
        game=family_for(record.get("Scoring")).name, findings=_unstorable(record))


def _pref_computed(line: PrefLine, base: DealFacts) -> DealFacts:
    """The Préférence books' view of a deal: declarer, made, calls, tricks, pot, balances."""
    o = line.outcome
    calls = tuple((c.seat.value, c.bid.value if c.bid is not None else c.token.text)
                  for c in o.auction.calls) if o.auction is not None else ()
    tricks: list[TrickRow] = []
    for t in o.play.tricks if o.play is not None else ():
        by_seat = {p.seat: p.token.text for p in t.cards}
        c_n, c_e, c_s, c_w = (by_seat.get(seat) for seat in SEATS)
        tricks.append((t.number, t.leader.value if t.leader else None,
                       t.winner.value if t.winner else None, c_n, c_e, c_s, c_w))
    made = None
    if o.declarer is not None and (o.tricks is not None or o.no_play):
        made = int(not o.gave_up and (o.tricks is None or o.tricks.get(o.declarer, 0) >= 6))
    changes: tuple[tuple[str, int], ...] = ()
    if line.score is not None:
        changes = tuple((s.value, v - line.ante) for s, v in line.score.items())
    return replace(
        base, contract=o.contract.value if o.contract is not None else base.contract,
        declarer=o.declarer.value if o.declarer is not None else base.declarer,
        made=made, calls=calls, tricks=tuple(tricks), pot=line.pot, balance_changes=changes)


def _slam(n: int) -> str | None:
    return {6: "small", 7: "grand"}.get(n)


def _computed(line: DealLine, base: DealFacts) -> DealFacts:
    """The engine's view of a deal that took part in the rubber books."""
    o = line.outcome
    decl_side = declaring_side(o.contract, o.declarer) if o.contract is not None else None
    score = o.score
    calls = tuple((c.seat.value, c.call.value if c.call is not None else c.token.text)
                  for c in o.auction.calls) if o.auction is not None else ()
    # Cards as the reader canonicalised them (or "-"); a clean play builds no Trick.
    tricks = tuple((n, leader.value if leader else None, winner.value if winner else None,
                    c[0], c[1], c[2], c[3])
                   for n, leader, winner, c in (o.play.rows() if o.play is not None else ()))
    # Built field by field, not dataclasses.replace: this runs once a deal.
    return DealFacts(
        rubber=line.rubber, board=base.board, dealer=base.dealer,
        contract=o.contract.value if o.contract is not None else base.contract,
        declarer=o.declarer.value if o.declarer is not None else None,
        declaring_side=decl_side.value if decl_side is not None else None,
        tricks_ns=o.tricks.ns if o.tricks is not None else base.tricks_ns,
        tricks_ew=o.tricks.ew if o.tricks is not None else base.tricks_ew,
        made=None if score is None or decl_side is None else int(not score.penalty),
        scoring_side=score.scoring_side.value if score is not None else None,
        scoring_tricks=score.n if score is not None else None,
        penalty_tricks=(score.n if score.penalty else 0) if score is not None else None,
        slam=_slam(score.n) if score is not None else None,
        score_ns=score.total.ns if score is not None else None,
        score_ew=score.total.ew if score is not None else None,
        claimed_score_ns=base.claimed_score_ns, claimed_score_ew=base.claimed_score_ew,
        rubber_ns=line.totals.ns if line.totals is not None else None,
        rubber_ew=line.totals.ew if line.totals is not None else None,
        claimed_rubber_ns=base.claimed_rubber_ns, claimed_rubber_ew=base.claimed_rubber_ew,
        seats=base.seats, calls=calls, tricks=tricks, commentary=base.commentary,
        findings=base.findings, game=base.game, pot=base.pot,
        balance_changes=base.balance_changes)


def _rubber(end: RubberEnd, last: Record | None) -> RubberFacts:
    """A rubber's result; settlement names come from its last deal's tags (the engine
    labels a nameless seat "North", which is no player)."""
    claimed: dict[Seat, int] = {}
    text = known(last.get("Settlement")) if last is not None else None
    if text is not None:
        try:
            claimed = {seat: n for seat, n in parse_settlement(text).items()
                       if abs(n) <= _INT64}
        except ValueError:
            claimed = {}
    names = {s: n for s, _, n in _seats(last)} if last is not None else {}
    computed = {seat: points for seat, _, points in end.settlement}
    settlements = tuple((seat.value, names.get(seat.value), computed.get(seat), claimed.get(seat))
                        for seat in SEATS if seat in computed or seat in claimed)
    totals = end.totals
    return RubberFacts(end.rubber, int(end.finished),
                       end.winner.value if end.winner is not None else None,
                       totals.ns if totals is not None else None,
                       totals.ew if totals is not None else None, settlements)


def _row(f: Finding) -> FindingRow:
    return FindingRow.at(f.rule, f.severity.value, f.text, f.location)


def check_partie(group: Sequence[Record | BadRecord]) -> PartieCheck:
    """Facts and findings for each item of one partie (consecutive records, same head).

    The engine's driver numbers the items 1, 2, … (``Finding.record``,
    ``DealOutcome.index``); that is how its results find their record here.
    """
    # An unreadable record has no facts; the engine reports its syntax errors (rule PPN).
    facts = [DealFacts() if isinstance(i, BadRecord) else _facts(i) for i in group]
    per_item: list[list[FindingRow]] = [[] for _ in group]
    loose: list[FindingRow] = []
    rubbers: list[RubberFacts] = []
    for result in parties(group):
        last_of: dict[int, Record] = {}
        # Préférence parties have no rubbers; their findings are stored all the same.
        for line in result.lines if isinstance(result, PartieResult) else ():
            i = line.outcome.index - 1
            facts[i] = _computed(line, facts[i])
            last_of[line.rubber] = line.outcome.record
        rubbers += [_rubber(end, last_of.get(end.rubber))
                    for end in (result.rubbers if isinstance(result, PartieResult) else ())]
        for pline in result.lines if isinstance(result, PrefPartie) else ():
            i = pline.outcome.index - 1
            facts[i] = _pref_computed(pline, facts[i])
        for f in result.findings:
            if f.record is not None and 1 <= f.record <= len(group):
                per_item[f.record - 1].append(_row(f))
            else:
                loose.append(_row(f))
    deals = tuple(replace(d, findings=(*found, *d.findings)) if found else d
                  for d, found in zip(facts, per_item, strict=True))
    return PartieCheck(deals, tuple(rubbers), tuple(loose))


Checked = DealFacts | RubberFacts | FindingRow


def check_stream(group: Iterable[Record | BadRecord]) -> Iterator[Checked]:
    """:func:`check_partie` with memory flat in the partie's length.

    Yields one :class:`DealFacts` per item, in order, as soon as it is final;
    a :class:`RubberFacts` once its rubber has ended (after the facts of the
    rubber's deals); a :class:`FindingRow` for each finding of no one record.
    Priffe books stream (their findings of a deal are final once it is added),
    so only one rubber's bookkeeping is kept; Préférence books settle at the
    end of their partie, so its items wait for it, as in :func:`check_partie`.
    """
    current: list[Record | BadRecord] = []

    def fed() -> Iterator[Record | BadRecord]:
        for item in group:
            current[:] = [item]
            yield item

    scorer: PartieScorer | None = None  # the open partie's books, when they stream
    held: dict[int, tuple[DealFacts, list[Finding]]] = {}  # items waiting for their books
    last_of: dict[int, Record] = {}  # each open rubber's latest deal (settlement names)

    def rubbers(ends: Iterable[RubberEnd]) -> Iterator[RubberFacts]:
        for end in ends:
            yield _rubber(end, last_of.pop(end.rubber, None))

    for event in drive(steps(fed()), stream=True, ends=True):
        if isinstance(event, Closed):
            if scorer is not None:  # streaming books have handed over their findings already
                yield from rubbers(scorer.drain_rubbers())
                yield from (_row(f) for f in event.result.findings)
            else:
                yield from _settled(event.result, held, last_of)
            held.clear()
            last_of.clear()
            continue
        step, item, found = event.step, current[0], event.found
        facts = DealFacts() if isinstance(item, BadRecord) else _facts(item)
        if event.books is not None and not event.streams:
            scorer = None
            held[step.position] = (facts, found)
            continue
        scorer = event.books if isinstance(event.books, PartieScorer) else None
        if scorer is not None:
            yield from rubbers(scorer.drain_rubbers())
            if isinstance(event.line, DealLine):
                facts = _computed(event.line, facts)
                last_of[event.line.rubber] = event.line.outcome.record
        own = [f for f in found if f.record == step.position]
        yield from (_row(f) for f in found if f.record != step.position)
        own.sort(key=sort_key)
        yield replace(facts, findings=(*(_row(f) for f in own), *facts.findings)) \
            if own else facts


def _settled(result: PartieOutcome, held: dict[int, tuple[DealFacts, list[Finding]]],
             last_of: dict[int, Record]) -> Iterator[Checked]:
    """A partie whose books kept everything to the end: its held items, then its rubbers."""
    facts = {i: f for i, (f, _) in held.items()}
    found = {i: list(f) for i, (_, f) in held.items()}
    loose: list[FindingRow] = []
    for line in result.lines if isinstance(result, PartieResult) else ():
        i = line.outcome.index
        facts[i] = _computed(line, facts[i])
        last_of[line.rubber] = line.outcome.record
    for pline in result.lines if isinstance(result, PrefPartie) else ():
        i = pline.outcome.index
        facts[i] = _pref_computed(pline, facts[i])
    for f in result.findings:
        if f.record is not None and f.record in found:
            found[f.record].append(f)
        else:
            loose.append(_row(f))
    for i, d in facts.items():
        own = sorted(found[i], key=sort_key)
        yield replace(d, findings=(*(_row(f) for f in own), *d.findings)) if own else d
    if isinstance(result, PartieResult):
        yield from (_rubber(end, last_of.get(end.rubber)) for end in result.rubbers)
    yield from loose
