"""What a family tells the replay about one deal: plain facts, no view and no family type.

The replay (``replay/``) may import no family package, and a family may not import the
replay; so each family hands over these facts through its ``replay_facts`` hook, and the
one replay (its model, terminal drawer and HTML page) words and draws them for every
game. Every fact is the rules engine's own (the validator's trick replay, the partie's
books), so the replay and ``validate`` agree. What only a family can word (the score
breakdown, where the honours lie, its contract) comes already worded, as a message the
replay renders in its language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

from priffe_records.format.record import Location, Record
from priffe_records.game.cards import SEATS, Card, Seat, Suit
from priffe_records.game.language import LANGUAGES, Message, Texts, language, render
from priffe_records.rules.findings import Finding, Severity


class Said(Protocol):
    """A text the replay shows in its language: a message, or a word known in every
    language (:class:`~priffe_records.game.language.Texts`)."""

    def render(self, lang: str | None = None) -> str: ...


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
    """One trick as the validator replayed it; ``tally`` counts the tricks taken after it,
    in the order of :attr:`ReplayFacts.tally_heads` (per side, or per seat in a game
    without sides), ``size`` is the cards of a whole trick."""

    number: int
    leader: Seat | None
    cards: tuple[CardView, ...]
    winner: Seat | None
    tally: tuple[int, ...]
    errors: tuple[Finding, ...] = ()
    notes: tuple[Finding, ...] = ()
    size: int = 4

    @property
    def complete(self) -> bool:
        return len(self.cards) == self.size


@dataclass(frozen=True, slots=True)
class CallView:
    """One call of the auction: who, the call in words (``None``: unreadable), whether it
    was legal (an illegal one carries the engine's errors), and a hold (Préférence P5)."""

    seat: Seat
    words: Said | None
    legal: bool = True
    errors: tuple[Finding, ...] = ()
    hold: bool = False


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of the deal's score, worded by its family: the rule ID, the words, and
    whether it is a total (drawn bold)."""

    rule: str
    text: Said
    total: bool = False


NO_HANDS: tuple[None, None, None, None] = (None, None, None, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayFacts:
    """One record as its family checked it, for the replay; ``None`` where not known.

    Seats are N E S W; a game of three leaves W empty (the views put the talon there).
    ``hands`` are what each seat played from, by seat index, in the order a hand is
    shown (a Préférence declarer's after taking the talon and discarding).
    """

    record: Record
    index: int  # 1-based position in the records given
    seats: tuple[Seat, ...] = SEATS  # the seats of the game
    order: tuple[Seat, ...] = SEATS  # the seats that play the tricks, clockwise
    players: tuple[str | None, ...] = NO_HANDS  # by seat index
    dealer: Seat | None = None
    forehand: Seat | None = None  # who calls first
    declarer: Seat | None = None
    dropouts: tuple[Seat, ...] = ()  # seats that dropped out or gave up, in order
    gave_up: bool = False
    hands: tuple[tuple[Card, ...] | None, ...] = NO_HANDS
    hs: tuple[str | None, ...] = NO_HANDS  # honour tricks per seat as written (2½)
    talon: tuple[Card, ...] | None = None
    discard: tuple[Card, ...] | None = None
    contract: Said | None = None
    trump: Suit | None = None
    calls: tuple[CallView, ...] = ()
    tricks: tuple[TrickView, ...] = ()
    tally_heads: tuple[str, ...] = ("NS", "EW")
    stop: Finding | None = None  # the illegal move the replay stops at
    claimed: str | None = None  # the rule the claim of the remaining tricks follows
    result: str | None = None  # the tricks taken, "NS 8 EW 5"
    honours: Said | None = None  # where the honours lie and what they score
    score: tuple[ScoreLine, ...] = ()
    comments: tuple[str, ...] = ()
    other_findings: tuple[Finding, ...] = ()
    findings: tuple[Finding, ...] = ()  # the record's own, for ``-v``
    refusal: Finding | None = None  # why a record of another game is not replayed
    # Why a record that gives hands, an auction or a play still has none to show: the
    # errors on those tags (a 14-card hand, R2; an unreadable Deal). Empty otherwise.
    why_not: tuple[Finding, ...] = ()

    @property
    def location(self) -> Location | None:
        return self.record.location

    @property
    def event(self) -> str | None:
        return self.record.get("Event")

    @property
    def site(self) -> str | None:
        return self.record.get("Site")

    @property
    def date(self) -> str | None:
        return self.record.get("Date")

    @property
    def rubber(self) -> str | None:
        return self.record.get("Rubber")

    @property
    def board(self) -> str | None:
        return self.record.get("Board")

    def player(self, seat: Seat) -> str | None:
        return self.players[seat.index]

    @property
    def playable(self) -> bool:
        """A score sheet (no hands, no auction, no play) has nothing to step through.

        A Deal tag of four unknown hands (``N:- - - -``, common on transcribed
        sheets) shows no hand either.
        """
        return any(h is not None for h in self.hands) or bool(self.calls) or bool(self.tricks)

    @property
    def shows_error(self) -> bool:
        """Whether the deal is shown with an error (beside a call or a trick, under the deal,
        or as why it cannot be replayed): what makes the replay's exit status 1."""
        return self.stop is not None or any(
            f.is_error for f in (*self.other_findings, *self.why_not,
                                 *(f for c in self.calls for f in c.errors),
                                 *(f for t in self.tricks for f in t.errors)))

    @property
    def stop_errors(self) -> tuple[Finding, ...]:
        """Every error of the move the replay stops at (a trick may break R11 twice)."""
        if self.stop is None:
            return ()
        if self.tricks and self.stop in self.tricks[-1].errors:
            return self.tricks[-1].errors
        return (self.stop,)

    def left(self, step: int) -> tuple[tuple[Card, ...] | None, ...]:
        """Each seat's cards after ``step`` tricks (N E S W), ``None`` for an unknown hand:
        the cards held less those the seat played."""
        if step == 0:
            return self.hands
        gone: list[set[Card]] = [set(), set(), set(), set()]
        for t in self.tricks[:step]:
            for c in t.cards:
                if c.card is not None:
                    gone[c.seat.index].add(c.card)
        return tuple(None if h is None else tuple(c for c in h if c not in gone[i])
                     for i, h in enumerate(self.hands))


@dataclass(frozen=True, slots=True)
class Strays:
    """Records of no partie (a deal diagram, another game's record), each as a family
    analysed it, handed to that family's ``replay_facts`` like a partie: ``lines`` are
    the outcomes, ``findings`` what the validator said of those records."""

    lines: Sequence[Any]
    findings: tuple[Finding, ...] = field(default=())
    event: str | None = None
    site: str | None = None
    date: str | None = None

    def with_findings(self, findings: tuple[Finding, ...]) -> Strays:
        return Strays(self.lines, findings)


def findings_by_record(found: Sequence[Finding]) -> dict[int, list[Finding]]:
    """The findings grouped by the record they are about (those of none left out)."""
    out: dict[int, list[Finding]] = {}
    for f in found:
        if f.record is not None:
            out.setdefault(f.record, []).append(f)
    return out


def comments(texts: Sequence[str]) -> tuple[str, ...]:
    """Comments as shown: trimmed, the empty ones left out."""
    return tuple(t.strip() for t in texts if t.strip())


def record_comments(record: Record) -> tuple[str, ...]:
    """The comments a replay shows under its title: those before the record's tags and
    on its tags but the auction's and the play's (which go with their calls and cards)."""
    return comments([c.text for c in record.leading] + [c.text for t in record.tags
                                                        if t.name not in ("Auction", "Play")
                                                        for c in t.comments])


_PLAYED = ("Deal", "Auction", "Play")  # the tags a replay shows, as hands, calls and tricks
_END = 1 << 62  # past any line: the last tag's section runs to the end of its record


def why_not(record: Record, found: Sequence[Finding]) -> tuple[Finding, ...]:
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


def _key(f: Finding) -> tuple[object, ...]:
    """Findings compare without their record number (the driver adds it to copies)."""
    return (f.rule, f.severity, f.message, f.location)


def unshown(found: Sequence[Finding], shown: Sequence[Finding]) -> tuple[Finding, ...]:
    """The record's findings a replay lists under the deal: those not already shown
    beside a call or a trick, and no unverifiable rule."""
    keys = {_key(f) for f in shown}
    return tuple(f for f in found
                 if f.severity is not Severity.UNVERIFIABLE and _key(f) not in keys)


class Worded:
    """Words put together for a line a family words (its score): the template holds only
    fields and signs, no words of its own, so it needs no catalogue entry; each field (a
    label, a message, a number) is rendered in the language of the whole. Made through
    :func:`worded`, the same line is one object however many deals show it, and is
    rendered once per language."""

    __slots__ = ("_said", "fields", "template")

    def __init__(self, template: str, /, **fields: object) -> None:
        self.template = template
        self.fields = fields
        self._said: dict[str, str] = {}

    def render(self, lang: str | None = None) -> str:
        lang = lang or language()
        said = self._said.get(lang)
        if said is None:
            said = self._said[lang] = self.template.format_map({
                k: v.render(lang) if isinstance(v, _SAID) else render(v, lang)
                for k, v in self.fields.items()})
        return said

    def __repr__(self) -> str:
        return f"Worded({self.template!r}, {self.fields!r})"


class Label(Texts):
    """A label rendered once in each language (:func:`every_language`); one object per
    label, so it is hashed and compared by identity, as a :class:`Worded` line's key."""

    __slots__ = ()
    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        return self is other


_SAID = (Texts, Message, Worded)  # rendered directly (the rest by game.language.render)

# A family's line for these fields (labels, numbers, texts: all hashable), the same
# object each time: the score lines of thousands of deals are a few hundred lines.
worded = lru_cache(maxsize=16_384)(Worded)


def every_language(message: Message) -> Label:
    """A label rendered once in each language: a family's line words render by a lookup."""
    return Label({lang: message.render(lang) for lang in LANGUAGES})
