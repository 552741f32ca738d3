"""What a replay shows, deal by deal: the model both the terminal and the HTML viewer draw.

The facts come from the rules engine only:
:func:`~priffe_records.rules.priffe.analysis.analyse_record` (which runs the
validator's trick replay, :func:`~priffe_records.rules.priffe.play.replay`)
says who led and who won each trick, what the contract is and what the deal
scores. This module merely arranges those facts into steps (the deal, then
trick after trick, then the score), so a viewer never re-implements a rule;
:mod:`priffe_records.replay.wording` words them in Swedish or English.

>>> from priffe_records.format.reader import loads
>>> text = '[Board "3"]\\n[Contract "Hjärter"]\\n[Declarer "E"]\\n[Result "NS 8 EW 5"]\\n'
>>> r = build_replays(list(loads(text)))[0]
>>> r.playable, r.contract.value
(False, 'Hjärter')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple, TypeVar

from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Location, Record, Section
from priffe_records.game.calls import Call, Contract
from priffe_records.game.cards import FULL_DECK, SEATS, Card, Deal, Seat, Side, Suit, sorted_cards
from priffe_records.game.evaluation import honour_tricks
from priffe_records.rules.family import PartieOutcome, default_family
from priffe_records.rules.findings import Finding, Severity
from priffe_records.rules.partie import parties
from priffe_records.rules.priffe.analysis import DealOutcome
from priffe_records.rules.priffe.options import PRESETS, HonoursVariant, Options
from priffe_records.rules.priffe.rubber import DealLine, PartieResult
from priffe_records.rules.priffe.scoring import DealScore, SidePoints, honour_cards, honour_holders

T = TypeVar("T")

# ------------------------------------------------------------------ model


@dataclass(frozen=True, slots=True)
class CallView:
    seat: Seat
    call: Call | None
    legal: bool
    errors: tuple[Finding, ...] = ()


class CardView(NamedTuple):
    """One played card; ``annotation`` is a short text a view shows beside it (a
    double-dummy cost such as ``−1``), ``None`` for none. A NamedTuple, as the engine's
    :class:`~priffe_records.rules.tricks.PlayedCard`: a page of deals makes many."""

    seat: Seat
    card: Card | None  # None: an unknown card '-'
    legal: bool
    comments: tuple[str, ...] = ()
    annotation: str | None = None


class TrickView(NamedTuple):
    """One trick as the validator replayed it; ``tally`` counts tricks per side after it
    (a game without sides leaves it empty), ``size`` is the cards of a whole trick."""

    number: int
    leader: Seat | None
    cards: tuple[CardView, ...]
    winner: Seat | None
    tally: SidePoints
    errors: tuple[Finding, ...] = ()
    notes: tuple[Finding, ...] = ()
    size: int = 4

    @property
    def complete(self) -> bool:
        return len(self.cards) == self.size


@dataclass(frozen=True, slots=True)
class HonourView:
    """The four honours of the contract (R17), who was dealt each, and what they score."""

    cards: tuple[Card, ...]
    holders: tuple[tuple[Card, Seat], ...] | None
    points: SidePoints | None
    variant: HonoursVariant


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of the score breakdown: a rule ID, the words and the points per side."""

    rule: str
    text: str
    points: SidePoints | None = None


@dataclass(frozen=True, slots=True)
class GameState:
    """Game points toward game and games won, before and after this deal (R18–R21)."""

    toward_before: SidePoints
    games_before: SidePoints
    bonus: SidePoints
    forfeit: SidePoints
    toward_after: SidePoints
    games_after: SidePoints
    rubber_total: SidePoints | None  # None once an earlier deal of the rubber was unscorable


@dataclass(frozen=True, slots=True, kw_only=True)
class DealReplay:
    """Everything one record shows; ``steps`` is the number of trick steps to walk."""

    outcome: DealOutcome
    index: int  # 1-based position in the records given
    location: Location | None
    event: str | None
    site: str | None
    date: str | None
    rubber: str | None
    board: str | None
    players: tuple[str | None, ...]
    dealer: Seat | None
    forehand: Seat | None
    deal: Deal | None
    hs: tuple[Fraction | None, ...]
    contract: Contract | None
    declarer: Seat | None
    honours: HonourView | None
    calls: tuple[CallView, ...]
    tricks: tuple[TrickView, ...]
    stop: Finding | None  # the illegal move the replay stops at
    claimed: bool
    result: SidePoints | None
    game: GameState | None
    comments: tuple[str, ...]
    other_findings: tuple[Finding, ...]
    # Why a record that gives hands, an auction or a play still has none to show: the
    # errors on those tags (a 14-card hand, R2; an unreadable Deal). Empty otherwise.
    why_not: tuple[Finding, ...] = ()

    @property
    def playable(self) -> bool:
        """A score sheet (no hands, no auction, no play) has nothing to step through.

        A Deal tag of four unknown hands (``N:- - - -``, common on transcribed
        sheets) shows no hand either.
        """
        known = self.deal is not None and any(h is not None for h in self.deal.hands)
        return known or bool(self.calls) or bool(self.tricks)

    @property
    def record(self) -> Record:
        return self.outcome.record

    @property
    def options(self) -> Options:
        return self.outcome.options

    @property
    def score(self) -> DealScore | None:
        return self.outcome.score

    @property
    def trump(self) -> Suit | None:
        return self.contract.trump if self.contract is not None else None

    def player(self, seat: Seat) -> str | None:
        return self.players[seat.index]

    @property
    def stop_errors(self) -> tuple[Finding, ...]:
        """Every error of the move the replay stops at (a trick may break R11 twice)."""
        if self.stop is None:
            return ()
        if self.tricks and self.stop in self.tricks[-1].errors:
            return self.tricks[-1].errors
        return (self.stop,)

    def tally(self, step: int) -> SidePoints:
        """Tricks per side after ``step`` tricks."""
        return self.tricks[step - 1].tally if step > 0 and self.tricks else SidePoints()

    def left(self, step: int) -> tuple[tuple[Card, ...] | None, ...]:
        """Each seat's cards after ``step`` tricks (N E S W), ``None`` for an unknown hand:
        the cards dealt less those the seat played."""
        if step == 0:
            return _dealt(self.deal)
        gone: list[set[Card]] = [set(), set(), set(), set()]
        for t in self.tricks[:step]:
            for c in t.cards:
                if c.card is not None:
                    gone[c.seat.index].add(c.card)
        return tuple(None if h is None else tuple(c for c in h if c not in gone[i])
                     for i, h in enumerate(_dealt(self.deal)))


def _dealt(deal: Deal | None) -> tuple[tuple[Card, ...] | None, ...]:
    """Each seat's cards as dealt, in the order a hand is shown (N E S W)."""
    if deal is None:
        return (None, None, None, None)
    return tuple(None if (h := deal.hand(s)) is None else tuple(sorted(h.cards, key=_PLACE))
                 for s in SEATS)


_PLACE = {c: i for i, c in enumerate(sorted_cards(FULL_DECK))}.__getitem__  # sorted_cards' order


def _comments(texts: Sequence[str]) -> tuple[str, ...]:
    return tuple(t.strip() for t in texts if t.strip())


def _tricks(out: DealOutcome) -> tuple[tuple[TrickView, ...], Finding | None]:
    """The validator's tricks, with running counts; cut at the first illegal card."""
    if out.play is None:
        return (), None
    if not out.play.findings:
        clean = _clean_tricks(out)
        if clean is not None:
            return clean, None
    views: list[TrickView] = []
    ns = ew = 0
    stop: Finding | None = None
    for t in out.play.tricks:
        cards = tuple(CardView(p.seat, p.card, p.legal,
                               _comments([c.text for c in p.token.comments]))
                      for p in t.cards)
        if t.winner is not None and len(t.cards) == 4:
            if t.winner.side is Side.NS:
                ns += 1
            else:
                ew += 1
        errors = tuple(f for f in t.findings if f.severity is Severity.ERROR)
        notes = tuple(f for f in t.findings if f.severity is not Severity.ERROR)
        views.append(TrickView(t.number, t.leader, cards, t.winner, SidePoints(ns, ew),
                               errors, notes))
        if errors:
            stop = errors[0]
            break
    return tuple(views), stop


_ROTATION = {s: tuple((x, x.index) for x in s.rotation()) for s in SEATS}
_NS = frozenset(s for s in SEATS if s.side is Side.NS)


def _clean_tricks(out: DealOutcome) -> tuple[TrickView, ...] | None:
    """A play without findings from the engine's trick rows (leader, winner, each seat's
    card), which it gives without building a trick; ``None`` when a leader is unknown.

    Every card of such a play is played once, so a card's comments are found by its
    text; a play with an unknown card (``-``, allowed where the hands are unknown)
    goes the general way."""
    assert out.play is not None
    rows = out.play.rows()
    tag = out.record.tag("Play")
    section = tag.section if tag is not None else None
    said: dict[str, tuple[str, ...]] = {}
    if isinstance(section, Section):
        for i, (_, _, _, comments) in section.marked.items():
            if comments:
                said[section.texts[i]] = _comments([c.text for c in comments])
    views: list[TrickView] = []
    ns = ew = 0
    for number, leader, winner, by_seat in rows:
        if leader is None or not _CARD_TEXTS.issuperset(t for t in by_seat if t is not None):
            return None  # an unknown card ("-") is drawn by the general path
        cards = tuple([
            _PLAIN[s][text] if text not in said else
            CardView(s, Card.parse(text), True, said[text])
            for s, i in _ROTATION[leader] if (text := by_seat[i]) is not None])
        if winner is not None and len(cards) == 4:
            if winner in _NS:
                ns += 1
            else:
                ew += 1
        views.append(TrickView(number, leader, cards, winner, _tally(ns, ew)))
    return tuple(views)


# A legal card without comments is the same view in every deal: made once, shared.
_PLAIN = {s: {str(c): CardView(s, c, True) for c in FULL_DECK} for s in SEATS}
_CARD_TEXTS = frozenset(_PLAIN[Seat.N])
_tally = lru_cache(maxsize=256)(SidePoints)  # the tricks per side after a trick
NO_TALLY = SidePoints()  # a game without sides counts no tricks per side


def _calls(out: DealOutcome) -> tuple[tuple[CallView, ...], Finding | None]:
    """The auction's calls; an illegal one carries the engine's message and ends the replay."""
    if out.auction is None:
        return (), None
    views: list[CallView] = []
    for c in out.auction.calls:
        errs = tuple(f for f in out.auction.findings
                     if f.is_error and c.token.location is not None
                     and f.location == c.token.location)
        if not c.legal and not errs:
            errs = tuple(f for f in out.auction.findings if f.is_error)[:1]
        views.append(CallView(c.seat, c.call, c.legal, errs))
        if not c.legal:
            return tuple(views), errs[0] if errs else None
    return tuple(views), None


def _honours(out: DealOutcome) -> HonourView | None:
    if out.contract is None:
        return None
    cards = tuple(sorted_cards(honour_cards(out.contract, out.options)))
    holders = honour_holders(out.deal, frozenset(cards)) if out.deal is not None else None
    pairs = tuple((c, holders[c]) for c in cards) if holders is not None else None
    return HonourView(cards, pairs, out.honours, out.options.honours)


def _hs(deal: Deal | None) -> tuple[Fraction | None, ...]:
    if deal is None:
        return (None, None, None, None)
    return tuple(None if (h := deal.hand(s)) is None else honour_tricks(h) for s in SEATS)


def _key(f: Finding) -> tuple[object, ...]:
    """Findings compare without their record number (the driver adds it to copies)."""
    return (f.rule, f.severity, f.message, f.location)


def _game(line: DealLine, toward_before: SidePoints) -> GameState:
    step = line.step
    assert step is not None
    games = line.games or SidePoints()
    made = step.game_made
    before = games - SidePoints.one(made, 1) if made is not None else games
    ds = line.outcome.score
    toward = SidePoints() if made is not None or ds is None else toward_before + ds.game
    return GameState(toward_before, before, step.bonus, step.forfeit, toward, games,
                     line.totals)


def _books(records: Sequence[Record | BadRecord], options: object,
           claim: Callable[[PartieOutcome], Mapping[int, T]] | None = None
           ) -> tuple[dict[int, DealLine], dict[int, list[Finding]], dict[int, GameState],
                      dict[int, T]]:
    """The validator's own run over all records: outcomes, findings and rubber steps by index,
    and what ``claim`` makes of each partie of another game, by record.

    The engine's :class:`~priffe_records.rules.priffe.rubber.PartieScorer` decides games,
    bonuses and forfeits; only the points toward the next game (which its
    lines do not carry) are followed here, for display.
    """
    lines: dict[int, DealLine] = {}
    found: dict[int, list[Finding]] = {}
    games: dict[int, GameState] = {}
    others: dict[int, T] = {}
    for p in parties(records, options=options):
        if not isinstance(p, PartieResult):
            if claim is not None:
                others.update(claim(p))
            continue
        toward: dict[int, SidePoints] = {}
        for line in p.lines:
            i = line.outcome.index
            lines[i] = line
            if line.step is not None:
                games[i] = g = _game(line, toward.get(line.seq, SidePoints()))
                toward[line.seq] = g.toward_after
        for f in p.findings:
            if f.record is not None:
                found.setdefault(f.record, []).append(f)
    return lines, found, games, others


def build_replays(records: Sequence[Record | BadRecord], options: Options = PRESETS["sv"]
                  ) -> list[DealReplay]:
    """Run the validator over the records and arrange each one for replay.

    All records are given (not just the one shown) so the rubber's games and
    totals follow it from its first deal, exactly as ``priffe validate`` sees
    them; an unreadable record has no replay, but the books hear of it.
    ``options`` are for records without a Scoring tag.
    """
    return [r for r in build_all(records, options) if isinstance(r, DealReplay)]


def build_all(records: Sequence[Record | BadRecord], options: object = None,
              claim: Callable[[PartieOutcome], Mapping[int, T]] | None = None
              ) -> list[DealReplay | T]:
    """:func:`build_replays` with the records of another game's parties in their places,
    as ``claim`` arranges a partie for replay: one run of the validator for both games.
    ``options`` are the default family's (``--preset``), ``None`` for its own default."""
    lines, found, games, others = _books(records, options, claim)
    out: list[DealReplay | T] = []
    for i, rec in enumerate(records, 1):
        if isinstance(rec, BadRecord):
            continue
        if i in others:
            out.append(others[i])
            continue
        line = lines.get(i)
        o = line.outcome if line is not None else replace(
            default_family().analyse(rec, options, False), index=i)
        calls, call_stop = _calls(o)
        tricks, trick_stop = _tricks(o) if call_stop is None else ((), None)
        stop = call_stop or trick_stop
        forehand = o.dealer.left if o.dealer is not None else (
            calls[0].seat if calls else None)
        shown = {_key(f) for f in ([stop] if stop else [])}
        for c in calls:
            shown.update(_key(f) for f in c.errors)
        if o.play is not None:  # in the trick list, or after the stop and so never reached
            shown.update(_key(f) for f in o.play.findings)
        if o.auction is not None and call_stop is not None:
            shown.update(_key(f) for f in o.auction.findings)
        other = tuple(f for f in found.get(i, o.findings) if _key(f) not in shown
                      and f.severity is not Severity.UNVERIFIABLE)
        result = o.tricks
        if o.play is not None and o.play.complete and stop is None:
            result = o.play.won
        leading = [c.text for c in rec.leading] + [c.text for t in rec.tags
                                                    if t.name not in ("Auction", "Play")
                                                    for c in t.comments]
        replay = DealReplay(
            outcome=o, index=i, location=rec.location, event=rec.get("Event"),
            site=rec.get("Site"), date=rec.get("Date"), rubber=rec.get("Rubber"),
            board=rec.get("Board"), players=o.players, dealer=o.dealer, forehand=forehand,
            deal=o.deal, hs=_hs(o.deal), contract=o.contract, declarer=o.declarer,
            honours=_honours(o), calls=calls, tricks=tricks, stop=stop,
            claimed=bool(o.play and o.play.claimed), result=result,
            game=games.get(i) if stop is None else None, comments=_comments(leading),
            other_findings=other)
        if not replay.playable:
            replay = replace(replay, why_not=_why_not(rec, found.get(i, o.findings)))
        out.append(replay)
    return out


_PLAYED = ("Deal", "Auction", "Play")  # the tags a replay shows, as hands, calls and tricks
_END = 1 << 62  # past any line: the last tag's section runs to the end of its record


def _why_not(record: Record, found: Sequence[Finding]) -> tuple[Finding, ...]:
    """The errors on the lines of the record's Deal, Auction and Play tags (a section's
    lines run to the next tag): what keeps a record that gives them from being replayed.
    A score sheet, which gives none, has none."""
    starts = sorted(t.location.line for t in record.tags if t.location is not None)
    spans = []
    for name in _PLAYED:
        tag = record.tag(name)
        if tag is None or tag.location is None:
            continue
        first = tag.location.line
        spans.append(range(first, next((s for s in starts if s > first), _END)))
    return tuple(f for f in found if f.is_error and f.location is not None
                 and any(f.location.line in span for span in spans))


