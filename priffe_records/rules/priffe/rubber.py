"""Games, rubbers and the partie (R19–R24), and the claimed running totals.

A :class:`PartieScorer` is fed the deals of one partie in order; it keeps
each rubber's game counts and totals, ends rubbers, settles them and sums
the players' individual scores. When a deal cannot be scored, the totals of
its rubber become unknown: later claims in that rubber are *unverifiable*
rather than wrong, and the next rubber starts clean.

>>> s = RubberState.new()
>>> s, step = s.after(SidePoints(80, 0), SidePoints(40, 0), Options())
>>> str(s.totals), str(step.bonus), step.game_made
('NS 90 EW 0', 'NS 10 EW 0', <Side.NS: 'NS'>)
>>> format_settlement(settle(SidePoints(210, 90)))
'N 12;S 12;E -12;W -12'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from priffe_records.format.record import Location, Record
from priffe_records.format.values import is_unspecified
from priffe_records.game.cards import SEATS, Seat, Side
from priffe_records.game.language import Message, msg, reason
from priffe_records.game.words import seat_name
from priffe_records.rules.findings import Finding, error, tag_location, unverifiable, warning
from priffe_records.rules.players import PartieNames, name_slips
from priffe_records.rules.priffe.analysis import DealOutcome
from priffe_records.rules.priffe.options import Options
from priffe_records.rules.priffe.scoring import ZERO, SidePoints, claimed_number, parse_points

_SETTLEMENT_ITEM = re.compile(r"^\s*([NESW])\s+([+-]?\d+)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Step:
    """What one deal did to its rubber."""

    game_made: Side | None
    bonus: SidePoints  # R20
    forfeit: SidePoints  # R21, taken off the totals
    ended: bool  # R22


@dataclass(frozen=True, slots=True)
class RubberState:
    """Games made, points toward the next game (R19) and totals (R23) of one rubber."""

    games: SidePoints
    counts: SidePoints
    totals: SidePoints

    @classmethod
    def new(cls) -> RubberState:
        return cls(SidePoints(), SidePoints(), SidePoints())

    @property
    def ended(self) -> bool:
        return max(self.games.ns, self.games.ew) >= 2

    def after(self, score: SidePoints, game: SidePoints, options: Options
              ) -> tuple[RubberState, Step]:
        """The state after a deal scoring ``score`` with ``game`` points toward game."""
        counts = self.counts + game
        totals = self.totals + score
        if not (game.ns or game.ew):
            return RubberState(self.games, counts, totals), _NO_STEP
        for side in _SIDES:
            need = 30 if self.games[side] == 0 else options.second_game  # R19
            if game[side] and counts[side] >= need:
                bonus = SidePoints.one(side, 10 if self.games[side] == 0 else 20)  # R20
                lost = counts[side.other] if options.forfeit_partial else 0  # R21
                forfeit = SidePoints.one(side.other, lost)
                games = self.games + SidePoints.one(side, 1)
                state = RubberState(games, SidePoints(), totals + bonus - forfeit)
                return state, Step(side, bonus, forfeit, state.ended)
        return RubberState(self.games, counts, totals), _NO_STEP


_SIDES = (Side.NS, Side.EW)  # a tuple: iterating the enum itself is slow
_NO_STEP = Step(None, SidePoints(), SidePoints(), False)


def settle(totals: SidePoints) -> dict[Seat, int]:
    """Individual settlement of a finished rubber (R23): zero-sum, a tie settles 0."""
    diff = (totals.ns - totals.ew) // 10 if totals.ns >= totals.ew else \
        -((totals.ew - totals.ns) // 10)
    return {Seat.N: diff, Seat.S: diff, Seat.E: -diff, Seat.W: -diff}


def format_settlement(points: Mapping[Seat, int]) -> str:
    """``N 12;S 12;E -12;W -12`` (FORMAT.md), NS first."""
    return ";".join(f"{s.value} {points[s]}" for s in (Seat.N, Seat.S, Seat.E, Seat.W))


def parse_settlement(text: str) -> dict[Seat, int]:
    out: dict[Seat, int] = {}
    for item in text.split(";"):
        m = _SETTLEMENT_ITEM.match(item)
        if not m or Seat(m.group(1).upper()) in out:
            raise ValueError(msg("{text!r} is not of the form 'N 12;S 12;E -12;W -12'",
                                 text=text))
        out[Seat(m.group(1).upper())] = claimed_number(m.group(2), text)
    if len(out) != 4:
        raise ValueError(msg("{text!r} must give all four seats, e.g. 'N 12;S 12;E -12;W -12'",
                             text=text))
    return out


@dataclass(frozen=True, slots=True)
class DealLine:
    """One deal on the score sheet, after its rubber bookkeeping.

    ``totals``/``games`` are ``None`` when an earlier deal of the rubber
    could not be scored or read; ``unknown`` then says which (for the replay).
    """

    outcome: DealOutcome
    rubber: int  # the rubber's number (its Rubber tag, else counted)
    seq: int  # 0-based position of the rubber in the partie
    totals: SidePoints | None
    games: SidePoints | None
    step: Step | None
    unknown: Message | None = None  # why the totals are unknown, when they are


@dataclass(frozen=True, slots=True)
class RubberEnd:
    """A rubber's result; ``settlement`` (by seat, with player names) only when it finished."""

    rubber: int
    totals: SidePoints | None
    finished: bool
    winner: Side | None
    settlement: tuple[tuple[Seat, str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class PartieResult:
    """A partie: its deals and rubbers in order, the standings and every finding."""

    event: str | None
    site: str | None
    date: str | None
    lines: tuple[DealLine, ...] = ()
    rubbers: tuple[RubberEnd, ...] = ()
    standings: tuple[tuple[str, int], ...] = ()
    findings: tuple[Finding, ...] = field(default=())

    def with_findings(self, findings: tuple[Finding, ...]) -> PartieResult:
        return replace(self, findings=findings)


def _seating(outcome: DealOutcome) -> tuple[str, ...] | None:
    """The four players' names by seat, or ``None`` when a name is missing."""
    names = tuple(n.casefold() for n in outcome.players if n is not None)
    return names if len(names) == 4 else None


def _pairing(outcome: DealOutcome) -> frozenset[frozenset[str]] | None:
    names = _seating(outcome)
    if names is None:
        return None
    return frozenset(frozenset(names[s.index] for s in side.seats) for side in Side)


class PartieScorer:
    """Feeds the deals of one partie through R19–R24 and checks the claimed totals."""

    def __init__(self, event: str | None, site: str | None, date: str | None) -> None:
        self.head = (event, site, date)
        self.lines: list[DealLine] = []
        self.rubbers: list[RubberEnd] = []
        self.findings: list[Finding] = []
        self.standings: dict[str, int] = {}
        self._keep = True  # keep lines and rubber results (off while streaming)
        self._hand_over = False  # streaming, but keep rubber results until drain_rubbers()
        self._closed = 0  # rubbers closed so far
        self._last_pairing: frozenset[frozenset[str]] | None = None
        self._block: list[frozenset[frozenset[str]]] = []  # this block of six rubbers (R24)
        self._number = 0
        self._names = PartieNames(len(SEATS))
        self._newcomer = False  # the deal being added brought a fifth player (warned)
        self._start_rubber(None)

    def stream(self, *, rubbers: bool = False) -> bool:
        """Keep no deal lines or rubber results from now on (validation of big files):
        memory stays that of one rubber's bookkeeping, whatever the partie's length.

        ``rubbers``: each rubber's result is still kept until :meth:`drain_rubbers`
        hands it over (the archive writes rubbers as they end)."""
        self._keep = False
        self._hand_over = rubbers
        return True

    def drain_rubbers(self) -> list[RubberEnd]:
        """The rubbers ended since the last call, handed over (see :meth:`stream`)."""
        out, self.rubbers = self.rubbers, []
        return out

    def drain(self) -> list[Finding]:
        """The findings reported since the last call, handed over."""
        out, self.findings = self.findings, []
        return out

    def _start_rubber(self, tag: int | None) -> None:
        self._number = tag if tag is not None else self._number + 1
        self.state: RubberState | None = RubberState.new()
        self.first: DealOutcome | None = None  # the rubber's first and latest deals
        self.last: DealOutcome | None = None
        self.carried = SidePoints()  # a claimed-total error already reported (no cascade)
        self.unknown_since: Message | None = None  # why the totals are unknown, until reported
        self.why: Message | None = None  # why the totals are unknown, for the rest of the rubber
        self.gap = False  # an unreadable record since the last deal: the dealer order is broken
        self.tag: int | None = tag

    def _close_rubber(self) -> None:
        if self.last is None:
            return
        state = self.state
        finished = state is not None and state.ended
        winner = None
        settlement: tuple[tuple[Seat, str, int], ...] = ()
        if state is not None and finished:
            t = state.totals
            winner = Side.NS if t.ns > t.ew else Side.EW if t.ew > t.ns else None
            last = self.last
            pts = settle(t)
            settlement = tuple((s, last.player(s) or str(seat_name(s)), pts[s]) for s in SEATS)
            for _, name, p in settlement:
                self.standings[name] = self.standings.get(name, 0) + p
        self._closed += 1
        if self._keep or self._hand_over:
            self.rubbers.append(RubberEnd(self._number, state.totals if state else None,
                                          finished, winner, settlement))

    def add(self, o: DealOutcome) -> DealLine:
        rec = o.record
        self._newcomer = self._check_names(o)
        tag = self._rubber_tag(o)
        if self.state is not None and self.state.ended:
            if tag is not None and tag == self.tag:
                self._report(o, error(
                    "R22", msg("{here} is recorded in rubber {tag}, which already ended when a "
                               "side made its second game: later deals belong to the next "
                               "rubber", here=_here(rec), tag=tag),
                    tag_location(rec, "Rubber")))
                tag = None
            self._close_rubber()
            self._start_rubber(tag)
            self._check_rotation(o)
        elif tag is not None and self.tag is not None and tag != self.tag \
                and self.last is not None:
            if self.state is not None:
                self._report(o, warning(
                    "R22", msg("rubber {rubber} ends before either side made two games: {here} "
                               "starts rubber {tag}", rubber=self.tag, here=_here(rec),
                               tag=tag),
                    tag_location(rec, "Rubber")))
            self._close_rubber()
            self._start_rubber(tag)
            self._check_rotation(o)
        elif self.last is None:
            if tag is not None:
                self._number, self.tag = tag, tag
            self._check_rotation(o)
        elif self.state is None and self._moved(o):
            # The totals are unknown since a deal could not be scored, so the rubber's end
            # is too: a change of seats is where the next rubber began (R24), not a finding.
            self._close_rubber()
            self._start_rubber(tag)
            self._check_rotation(o)
        else:
            if not self._newcomer and self._moved(o):
                self._report(o, warning(
                    "R24", msg("the players change seats within a rubber; seats change only "
                               "between rubbers"), tag_location(o.record, "North", value=False)))
            prev = self.last.dealer
            if prev is not None and o.dealer is not None and o.dealer is not prev.left \
                    and not self.gap:
                self._report(o, warning(
                    "R3", msg("{here}: {seat} deals, but the deal passes to the left: {next} "
                              "was next after {prev}", here=_here(rec),
                              seat=seat_name(o.dealer),
                              next=seat_name(prev.left), prev=seat_name(prev)),
                    tag_location(rec, "Dealer")))
        if self.first is None:
            self.first = o
        self.last = o
        self.gap = False
        step: Step | None = None
        if self.state is not None and o.score is not None:
            self.state, step = self.state.after(o.score.total, o.score.game, o.options)
        elif self.state is not None:
            self.state = None
            self.unknown_since = self.why = msg("{here} could not be scored", here=_here(rec))
        self._check_claims(o, step)
        state = self.state
        line = DealLine(o, self._number, self._closed, state.totals if state else None,
                        state.games if state else None, step, None if state else self.why)
        if self._keep:
            self.lines.append(line)
        return line

    def _report(self, o: DealOutcome, finding: Finding) -> None:
        self.findings.append(finding.at_record(o.index))

    def lost(self, where: Location, index: int) -> None:
        """A deal of this partie could not be read at all: its rubber's totals are unknown."""
        self.gap = True
        if self.state is not None:
            self.state = None
            self.unknown_since = self.why = msg("record {index} ({where}) could not be read",
                                                index=index, where=where)

    def _rubber_tag(self, o: DealOutcome) -> int | None:
        text = o.record.get("Rubber")
        if text is None or not text.strip() or text.strip() == "?":
            return None
        value = text.strip()
        if not (value.isascii() and value.isdigit()) or len(value) > 6:
            self._report(o, warning("R22", msg("Rubber {text!r} is not a rubber number (1, 2, …)",
                                                text=text),
                                    tag_location(o.record, "Rubber")))
            return None
        return int(value)

    def _moved(self, o: DealOutcome) -> bool:
        """Whether the players sit otherwise than at the rubber's first deal."""
        assert self.first is not None
        if o.players == self.first.players:
            return False  # the same names as written: the same seating
        seats, first = self._seating(o), self._seating(self.first)
        return seats is not None and first is not None and seats != first

    def _check_names(self, o: DealOutcome) -> bool:
        """R24: the same four players all partie; a name nearly one of theirs is a slip.

        True when the deal brings a player more than the seats hold: that warning
        is the one its change of seating gets."""
        found, newcomer = name_slips(self._names, o.record, o.players, SEATS, "R24")
        for finding in found:
            self._report(o, finding)
        return newcomer

    def _seating(self, o: DealOutcome) -> tuple[str, ...] | None:
        """:func:`_seating` with a misspelt name read as the player it is near (warned once)."""
        if not self._names.aliased(o.players):
            return _seating(o)
        names = tuple(self._names.canonical(n).casefold() for n in o.players if n is not None)
        return names if len(names) == 4 else None

    def _check_rotation(self, o: DealOutcome) -> None:
        """R24: partners change every rubber, each pairing twice in six rubbers."""
        pairing = _pairing(o)
        if pairing is None:
            return
        loc = tag_location(o.record, "North", value=False)
        if self._last_pairing == pairing:
            self._report(o, warning(
                "R24", msg("rubber {rubber} keeps the partnerships of the rubber before; the "
                           "rotation changes partners every rubber", rubber=self._number),
                loc))
        else:
            if self._block.count(pairing) >= 2:
                self._report(o, warning(
                    "R24", msg("rubber {rubber} repeats a partnership a third time within six "
                               "rubbers; the rotation pairs everyone twice in six",
                               rubber=self._number), loc))
        self._last_pairing = pairing
        self._block.append(pairing)
        if len(self._block) == 6:
            self._block = []

    def _check_claims(self, o: DealOutcome, step: Step | None) -> None:
        rec = o.record
        if self.state is None and self.unknown_since is not None and any(
                not is_unspecified(rec.get(n)) for n in ("ScoreRubber", "Settlement")):
            self._report(o, unverifiable(
                "R23", msg("the rubber totals cannot be checked from here on: {why}",
                           why=self.unknown_since), tag_location(rec, "ScoreRubber")))
            self.unknown_since = None
        text = rec.get("ScoreRubber")
        if text is not None and not is_unspecified(text):
            try:
                claimed = parse_points(text)
            except ValueError as e:
                self._report(o, error("R23", msg("ScoreRubber {reason}",
                                                 reason=reason(e)),
                                      tag_location(rec, "ScoreRubber")))
            else:
                if self.state is not None:
                    totals, carried = self.state.totals, self.carried
                    ns, ew = claimed.ns - totals.ns, claimed.ew - totals.ew
                    diff = ZERO if not (ns or ew) else SidePoints(ns, ew)
                    if (ns or ew) and (ns != carried.ns or ew != carried.ew):
                        rule = "R23"
                        if step is not None and step.game_made is not None:
                            if diff == ZERO - step.bonus:
                                rule = "R20"
                            elif step.forfeit != ZERO and diff == step.forfeit:
                                rule = "R21"
                        self._report(o, error(
                            rule, msg("ScoreRubber says {claimed}, but the rubber stands at "
                                      "{totals}{why}", claimed=claimed,
                                      totals=self.state.totals, why=_explain(step)),
                            tag_location(rec, "ScoreRubber")))
                    self.carried = diff
        text = rec.get("Settlement")
        if text is None or not text.strip() or text.strip() == "?":
            return
        loc = tag_location(rec, "Settlement")
        if self.state is None:
            # The totals are unknown, so the claim is not compared; its numbers are still read.
            try:
                parse_settlement(text)
            except ValueError as e:
                self._report(o, error("R23", msg("Settlement {reason}", reason=reason(e)),
                                      loc))
            return
        if not self.state.ended or step is None:
            self._report(o, error("R22", msg("Settlement on {here}, which does not end the "
                                             "rubber: a rubber is settled when a side makes its "
                                             "second game", here=_here(rec)), loc))
            return
        try:
            claimed_s = parse_settlement(text)
        except ValueError as e:
            self._report(o, error("R23", msg("Settlement {reason}", reason=reason(e)),
                                  loc))
            return
        computed = settle(self.state.totals)
        if claimed_s != computed:
            self._report(o, error(
                "R23", msg("Settlement says {claimed}, but rubber totals {totals} settle "
                           "{computed}", claimed=format_settlement(claimed_s),
                           totals=self.state.totals, computed=format_settlement(computed)),
                loc))

    def close(self) -> PartieResult:
        self._close_rubber()
        standings = tuple(sorted(self.standings.items(), key=lambda kv: (-kv[1], kv[0])))
        ev, site, date = self.head
        return PartieResult(ev, site, date, tuple(self.lines), tuple(self.rubbers), standings,
                            tuple(self.findings))


def _here(rec: Record) -> Message:
    """How a finding names the deal: by its board, else "this deal"."""
    board = rec.get("Board")
    return msg("board {board}", board=board) if board else msg("this deal")


def _explain(step: Step | None) -> Message | str:
    if step is None or step.game_made is None:
        return ""
    made = msg("{side} made a game, bonus {bonus}", side=step.game_made.value,
               bonus=step.bonus[step.game_made])
    if step.forfeit == SidePoints():
        return Message(" ({a})", {"a": made})
    other = step.game_made.other
    return Message(" ({a}; {b})", {"a": made, "b": msg("{side} forfeits {points}",
                                                       side=other.value,
                                                       points=step.forfeit[other])})

